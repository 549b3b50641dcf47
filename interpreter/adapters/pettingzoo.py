"""A PettingZoo AEC environment for any Ribbit definition (``pip install -e '.[pettingzoo]'``).

    from interpreter import load_game
    from interpreter.adapters.pettingzoo import RibbitEnv

    env = RibbitEnv(load_game("definitions/GAME.yaml"), players=2)
    env.reset(seed=3)                                    # the deal of `ribbit play --seed 3`
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(observation["action_mask"])
        env.step(action)                                 # info["legal_actions"][action] is its text

Agents are ``"player_1"`` ... ``"player_N"`` (seats).  The agent to act is the first
seat the game waits for.  At a simultaneous secret decision every seat it waits for acts
in turn, one after another, and no observation shows another seat's pick (only that it
has decided) until the decision resolves: exactly as ``state.view`` shows it.

* **Actions**: ``Discrete(max_actions)``; action ``i`` is the ``i``-th of
  ``state.legal_actions(seat)`` at the current decision, and the observation's
  ``action_mask`` marks the first ``len(legal_actions)`` as legal.  The size is
  ``max_actions`` if given, else sized from random games of the definition (see
  :func:`interpreter.adapters.probe_max_actions`): a definition does not state how many
  options a decision can offer.  The texts are in ``info["legal_actions"]`` of the agent
  to act.
* **Observations**: ``{"observation": Box(size,) of float32, "action_mask": Box(max_actions,) of
  int8}`` (int8: gymnasium's ``Discrete.sample(mask)`` takes that mask as it is); the vector encodes ``state.view(seat)`` (:mod:`interpreter.adapters.encoding`),
  so it holds no hidden information.
* **Rewards**: 0 until the game ends, then ``state.returns()`` (1/k for each of k winners).
* **Truncation**: a game still running after ``max_decisions`` decisions is truncated
  for every agent (``state.abandon()``), as ``ribbit simulate`` stops it.
* **Errors**: a call the environment cannot take raises Ribbit's own error and changes nothing:
  ``step`` with anything but an action's number (``"0"``, ``0.0``, ``True``, ``1.9``, out of range),
  with an action for an agent whose game is over (``None`` is the AEC way to step it), before
  ``reset()`` or after every agent has left is an :class:`interpreter.adapters.ActionIndexError`
  (an ``IllegalActionError`` and a ``ValueError``); an agent the game does not have is an
  ``IllegalActionError``; ``max_actions`` and ``max_decisions`` that are not ints from 1 are a
  ``DefinitionError``.
"""

from __future__ import annotations

import json

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import IllegalActionError, quote
from ..state import _type_of
from . import ActionIndexError, action_index, check_action_count, check_sizes, probe_max_actions
from .encoding import LIMIT, ViewEncoder

MAX_DECISIONS = 10_000


class RibbitEnv(AECEnv):
    """One Ribbit definition at a fixed player count, as a PettingZoo AEC environment."""

    metadata = {"name": "ribbit_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game, players: int, max_actions: int | None = None, max_decisions: int = MAX_DECISIONS,
                 render_mode: str | None = None):
        super().__init__()
        game.new_game(players, 0, log=False)  # refuses a player count the definition does not allow
        check_sizes(game, max_actions=max_actions, max_decisions=max_decisions)
        self.game, self.players = game, players
        self.max_actions = probe_max_actions(game, players) if max_actions is None else max_actions
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        self.encoder = ViewEncoder(game, players)
        self.possible_agents = [f"player_{seat + 1}" for seat in range(players)]
        self.seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict({
            "observation": spaces.Box(-LIMIT, LIMIT, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.max_actions) for agent in self.possible_agents}
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent):
        return self.action_spaces[self._known(agent)]

    def _known(self, agent) -> str:
        """``agent`` if it is one of this game's agents (exactly a str), else an IllegalActionError."""
        if type(agent) is not str or agent not in self.seat:
            raise IllegalActionError(f"there is no agent {quote(agent)} in this game; its agents are "
                                     f"{', '.join(self.possible_agents)}")
        return agent

    # ---------------------------------------------------------------- AEC API
    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new game dealt with ``seed`` (default 0), as ``ribbit play --seed`` deals it.

        A seed is an int (a NumPy integer too); anything else is refused by ``new_game``
        (a DefinitionError), not rounded or parsed ("3", 1.5).
        """
        if isinstance(seed, np.integer):
            seed = int(seed)
        self.state = self.game.new_game(self.players, 0 if seed is None else seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._select(self.state.current_players()[0])

    def _select(self, seat: int) -> None:
        self.agent_selection = self.possible_agents[seat]
        for agent in self.agents:
            self.infos[agent] = {}
        if not self.state.is_terminal():
            legal = self.state.legal_actions(seat)
            check_action_count(legal, self.max_actions, self.state.prompt())
            self.infos[self.agent_selection] = {"legal_actions": legal}

    def legal_actions(self, agent) -> list[str]:
        """The texts of ``agent``'s legal actions now (index ``i`` is action ``i``)."""
        return self.state.legal_actions(self.seat[self._known(agent)])

    def observe(self, agent):
        seat = self.seat[self._known(agent)]
        mask = np.zeros(self.max_actions, np.int8)
        mask[:len(self.state.legal_actions(seat))] = 1
        return {"observation": np.asarray(self.encoder.encode(self.state.view(seat)), np.float32),
                "action_mask": mask}

    def step(self, action):
        """Play ``action`` (the number of one of the agent's legal actions) for the agent to act.

        As PettingZoo's AEC API says, an agent whose game is over (terminated or truncated) is stepped
        with ``None``, which removes it.  Anything else is an :class:`ActionIndexError` (an
        IllegalActionError and a ValueError) and changes nothing: a number out of range, a bool, a
        float, a text, an action for an agent whose game is over, a step before ``reset()`` or after
        every agent has left.
        """
        if self.state is None:
            raise ActionIndexError("reset() must be called before step()")
        if not self.agents:
            raise ActionIndexError("the game is over and every agent has left (each was stepped with None); "
                                   "call reset() for a new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                ended = "terminated" if self.terminations[agent] else "truncated"
                raise ActionIndexError(f"{agent}'s game is over ({ended}): the only valid action is None, as "
                                       f"PettingZoo's AEC API says, not {_type_of(action)}")
            self._was_dead_step(action)
            return
        seat = self.seat[agent]
        legal = self.state.legal_actions(seat)
        index = action_index(action, len(legal), agent)
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(seat, legal[index])
        self.rewards = {name: 0.0 for name in self.agents}
        if self.state.is_terminal():
            returns = self.state.returns()
            for name in self.agents:
                self.rewards[name] = float(returns[self.seat[name]])
                self.terminations[name] = True
            self._select((seat + 1) % self.players)
        elif len(self.state.history) >= self.max_decisions:
            self.state.abandon()
            for name in self.agents:
                self.truncations[name] = True
            self._select((seat + 1) % self.players)
        else:
            self._select(self.state.current_players()[0])
        self._accumulate_rewards()

    def render(self):
        """``render_mode="ansi"``: the spectator's view as JSON text."""
        if self.render_mode == "ansi" and self.state is not None:
            return json.dumps(self.state.view(None), indent=1)
        return None

    def close(self):
        pass


def env(game, players: int, **options) -> RibbitEnv:
    """PettingZoo's usual constructor name."""
    return RibbitEnv(game, players, **options)
