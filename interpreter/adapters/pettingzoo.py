"""PettingZoo environments for any Ribbit definition (``pip install -e '.[pettingzoo]'``).

    from interpreter import load_game
    from interpreter.adapters.pettingzoo import RibbitEnv, RibbitParallelEnv

    env = RibbitEnv(load_game("definitions/GAME.yaml"), players=2)
    env.reset(seed=3)                                    # the deal of `ribbit play --seed 3`
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(observation["action_mask"])
        env.step(action)                                 # a fixed id: info["legal_actions"][action] is its text

Agents are ``"player_1"`` ... ``"player_N"`` (seats).

* **AEC** (:class:`RibbitEnv`): the agent to act is the first seat the game waits for.  At a
  simultaneous secret decision every seat it waits for acts in turn, one after another, and no
  observation shows another seat's pick (only that it has decided) until the decision
  resolves: exactly as ``state.view`` shows it.
* **Parallel** (:class:`RibbitParallelEnv`, ``parallel_env(...)``), for games where several seats
  decide at once (a secret simultaneous choice): each ``step(actions)`` is one decision
  of every seat the game waits for now (``state.current_players()``): all of them at a
  simultaneous decision, the one seat at any other.  Each acting agent's ``action_mask`` marks
  its legal action ids; an agent the game does not wait for gets a mask that allows only action
  ``0``, a no-op (its entry in ``actions`` may be ``0``, ``None`` or left out; anything else is
  refused), so a policy always has one valid action and a training loop needs no special case.
  ``info["legal_actions"]`` is given to the acting agents only.  The acting agents' actions are
  checked first (nothing is played if one is wrong or missing), then applied in seat order:
  observations are made before the step, so no agent's pick depends on, or shows, another's.
  It works for any definition (a game without simultaneous decisions has one agent acting per
  step).

Both environments:

* **Deals**: ``reset(seed=s)`` deals the game of ``ribbit play --seed s``; ``reset()`` without a
  seed deals a fresh game: its seed is drawn from a generator seeded by the last seed given
  (so ``reset(seed=s)`` followed by ``reset()``s is a reproducible sequence of deals, as
  PettingZoo's ``seed_test`` checks), or from the operating system's entropy if no seed was
  ever given.  ``env.state.seed`` is the seed of the game being played.
* **Actions**: ``Discrete(n)``, ``n = env.actions.size``: fixed action ids, each meaning the same
  thing in every decision of its kind (``37`` is "the card named X", a fixed menu text, or a menu
  entry's text with given items; :mod:`interpreter.adapters.actions` documents the table and
  the fallback for decisions that pick combinations).  The observation's ``action_mask`` marks the
  legal ids; ``info["legal_actions"]`` maps each legal id to its text (in the engine's order), and
  ``env.actions.describe(id)`` says what any id means.  ``max_actions`` (given, or sized from random
  games, see :func:`interpreter.adapters.probe_max_actions`) sizes the fallback block.  A list of options
  met again (a hand of the same cards, the same menu) is not worked out again: its ids, texts and mask are
  kept for it (``DECISIONS_KEPT`` lists at most), and every info and mask given is a copy, the caller's.
* **Observations**: ``{"observation": Box(size,) of float32, "action_mask": Box(n,) of
  int8}`` (int8: gymnasium's ``Discrete.sample(mask)`` takes that mask as it is); the vector is
  ``env.encoder.encode(state.view(seat))`` (:mod:`interpreter.adapters.encoding`, NumPy;
  ``env.encoder.parts`` names its slices and its docstring says which never change), so it holds no
  hidden information.  It is read straight from the state, bit for bit the same, without building the
  view (``env.observer``, :mod:`interpreter.adapters.state_encoding`): only what changed since the
  last observation is worked out again, and only the agents asked are encoded (AEC: the agent to
  act, when ``last()`` or ``observe()`` asks).
* **Narration**: games are played without it (``log=False``, as ``ribbit simulate`` plays them:
  it costs time and no observation uses it); ``narration=True`` keeps it, for ``env.state.narration(seat)``.
* **Rewards**: 0 until the game ends, then ``state.returns()`` (1/k for each of k winners).
* **Truncation**: a game still running after ``max_decisions`` decisions is truncated
  for every agent (``state.abandon()``), as ``ribbit simulate`` stops it.
* **Errors**: a call the environment cannot take raises Ribbit's own error and changes nothing:
  an action that is not a legal action's number (``"0"``, ``0.0``, ``True``, ``1.9``, out of
  range), an action for an agent whose game is over (``None`` is the AEC way to step it), a
  parallel step without an action for an acting agent, a step before ``reset()`` or after every
  agent has left is an :class:`interpreter.adapters.ActionIndexError` (an ``IllegalActionError``
  and a ``ValueError``); an agent the game does not have is an ``IllegalActionError``;
  ``max_actions`` and ``max_decisions`` that are not ints from 1 are a ``DefinitionError``.
"""

from __future__ import annotations

import json
import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env import AECIterable

from ..errors import DefinitionError, IllegalActionError, Location, quote
from ..state import _type_of
from . import ActionIndexError, action_index, action_option, check_sizes, probe_max_actions
from .actions import ActionTable
from .encoding import LIMIT, ViewEncoder
from .state_encoding import StateEncoder

MAX_DECISIONS = 10_000
DECISIONS_KEPT = 4096  # the lists of options whose ids and texts an environment keeps (see _decision)
SMALL_MASK = 1 << 12  # the largest action space whose masks are kept with their options (16 MB at most)
DEAL_BITS = 32  # the seeds reset() draws when given none: plenty of deals, and far below the seeds new_game takes


class _RibbitEnvironment:
    """What both environments share: sizes, spaces, agents, deals and observations."""

    def _prepare(self, game, players: int, max_actions: int | None, max_decisions: int, render_mode: str | None,
                 narration: bool):
        game.new_game(players, 0, log=False)  # refuses a player count the definition does not allow
        check_sizes(game, max_actions=max_actions, max_decisions=max_decisions)
        self.game, self.players = game, players
        self.max_actions = probe_max_actions(game, players) if max_actions is None else max_actions
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        if type(narration) is not bool:
            raise DefinitionError(f"narration must be True or False, not {_type_of(narration)}",
                                  Location(game.file, key="narration"))
        self.narration = narration  # the games' narration (state.narration): off unless asked, as in simulate
        self.encoder = ViewEncoder(game, players)
        self.observer = StateEncoder(self.encoder)  # the same vectors, read from the state without its view
        self.actions = ActionTable(game, players, self.max_actions)  # the fixed action ids (actions.py)
        self.possible_agents = [f"player_{seat + 1}" for seat in range(players)]
        self.seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict({
            "observation": spaces.Box(-LIMIT, LIMIT, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents}
        self.state = None
        self._made = (None, None, None, None, None)  # (pending decision, state, seat, decisions taken, (ids, texts,
        # mask)): see _decision
        self._decisions = {}  # a decision's key (ActionTable.key) -> (ids, {id: text}, mask), DECISIONS_KEPT at most
        self._no_mask = _mask(self.actions.size, ()) if self.actions.size <= SMALL_MASK else None
        self._deals = None  # the generator of the seeds reset() draws when given none

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

    def _deal(self, seed):
        """A new game: dealt with ``seed``, or with a fresh seed when it is None (see the module docstring).

        A seed is an int (a NumPy integer too); anything else is refused by ``new_game``
        (a DefinitionError), not rounded or parsed ("3", 1.5).
        """
        if isinstance(seed, np.integer):
            seed = int(seed)
        if seed is None:
            if self._deals is None:
                self._deals = random.Random()  # never seeded: the operating system's entropy
            return self.game.new_game(self.players, self._deals.getrandbits(DEAL_BITS), log=self.narration)
        state = self.game.new_game(self.players, seed, log=self.narration)  # refuses a seed that is not an int
        self._deals = random.Random(seed)
        return state

    def legal_actions(self, agent) -> dict[int, str]:
        """``agent``'s legal actions now: their fixed ids and texts, in the engine's order."""
        return self._legal(self.seat[self._known(agent)])

    def _ids(self, seat: int) -> list[int]:
        """The fixed ids of ``seat``'s options now (engine order)."""
        return self._decision(seat)[0]

    def _decision(self, seat: int) -> tuple[list[int], dict[int, str], np.ndarray | None]:
        """``seat``'s options now: their fixed ids (engine order), {id: text} and their mask (None for an action
        space too large to keep one per list of options: see SMALL_MASK), made once per decision and seat.

        A training loop meets the same lists of options again and again (a hand of the same cards, the same menu):
        they are worked out once for each list of texts (and what else their ids depend on, ``ActionTable.key``),
        and kept for the next decisions that offer it (DECISIONS_KEPT lists at most: then they are forgotten)."""
        state, made = self.state, self._made
        p = state.pending
        if made[0] is p and made[1] is state and made[2] == seat and made[3] == len(state.history):
            return made[4]
        if p is None or state.over:
            found = [], {}, self._no_mask
        else:
            key = self.actions.key(p, seat)
            found = self._decisions.get(key) if key is not None else None
            if found is None:
                ids = self.actions.ids(state, seat)
                found = ids, dict(zip(ids, state.legal_actions(seat))), \
                    _mask(self.actions.size, ids) if self._no_mask is not None else None
                if key is not None:
                    if len(self._decisions) >= DECISIONS_KEPT:
                        self._decisions.clear()
                    self._decisions[key] = found
        self._made = (p, state, seat, len(state.history), found)
        return found

    def _observation(self, seat: int, ids, mask: np.ndarray | None = None) -> dict:
        """``seat``'s view, encoded, with a mask allowing the action ids ``ids`` (a copy of ``mask`` if given: the
        same mask, made before)."""
        return {"observation": self.observer.encode(self.state, seat),
                "action_mask": _mask(self.actions.size, ids) if mask is None else mask.copy()}

    def _legal(self, seat: int) -> dict[int, str]:
        """``seat``'s legal actions now: {fixed id: text} (a new dict: the caller's to keep)."""
        return self._decision(seat)[1].copy()

    def _ended(self) -> str | None:
        """"terminated" or "truncated" if the game is over now (a game too long is abandoned), else None."""
        if self.state.is_terminal():
            return "terminated"
        if len(self.state.history) >= self.max_decisions:
            self.state.abandon()
            return "truncated"
        return None

    def render(self):
        """``render_mode="ansi"``: the spectator's view as JSON text."""
        if self.render_mode == "ansi" and self.state is not None:
            return json.dumps(self.state.view(None), indent=1)
        return None

    def close(self):
        pass


class RibbitEnv(_RibbitEnvironment, AECEnv):
    """One Ribbit definition at a fixed player count, as a PettingZoo AEC environment."""

    metadata = {"name": "ribbit_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game, players: int, max_actions: int | None = None, max_decisions: int = MAX_DECISIONS,
                 render_mode: str | None = None, narration: bool = False):
        super().__init__()
        self._prepare(game, players, max_actions, max_decisions, render_mode, narration)

    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new game: dealt with ``seed`` as ``ribbit play --seed`` deals it, or a fresh deal without one.
        ``options`` is accepted, as PettingZoo's API passes it, and unused: these environments take none."""
        self.state = self._deal(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._select(self.state.current_players()[0], self.state.is_terminal())

    def _select(self, seat: int, over: bool) -> None:
        """Make ``seat`` the agent to act: its info lists its legal actions (unless the game is ``over``), the
        others' are empty."""
        agent = self.agent_selection = self.possible_agents[seat]
        infos = self.infos
        for name in self.agents:  # (one info at most is not empty: the one given last)
            if infos[name]:
                infos[name] = {}
        if not over:
            infos[agent] = {"legal_actions": self._decision(seat)[1].copy()}  # (as _legal: the caller's to keep)

    def observe(self, agent):
        seat = self.seat.get(agent) if type(agent) is str else None
        if seat is None:
            self._known(agent)  # (raises)
        ids, _, mask = self._decision(seat)
        return self._observation(seat, ids, mask)

    def agent_iter(self, max_iter: int = 2 ** 63) -> AECIterable:
        """As PettingZoo's ``AECEnv.agent_iter``: the agent to act, step after step, until every agent has left."""
        return _Agents(self, max_iter)

    def last(self, observe: bool = True):
        """As PettingZoo's ``AECEnv.last``: the agent to act's observation, reward, ends and info (a training loop
        asks for them every step: they are read at once)."""
        agent = self.agent_selection
        observation = None
        if observe:
            seat = self.seat[agent]
            ids, _, mask = self._decision(seat)
            observation = self._observation(seat, ids, mask)
        return observation, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], \
            self.infos[agent]

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
        seat, state = self.seat[agent], self.state
        ids = self._decision(seat)[0]
        index = ids.index(action) if type(action) is int and action in ids else action_option(action, ids, agent)
        self._cumulative_rewards[agent] = 0.0
        state.apply_id(seat, index)  # apply(seat, legal_actions(seat)[index]), without making every text
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if not state.is_terminal() and len(state.history) < self.max_decisions:  # (as _ended: the game goes on)
            self._select(state.current_players()[0], False)
            return
        self._end(self._ended(), seat)

    def _end(self, ended: str, seat: int) -> None:
        """The game is over (``ended``: "terminated" or "truncated") after ``seat``'s step: rewards and ends."""
        if ended == "terminated":
            returns = self.state.returns()
            for name in self.agents:
                self.rewards[name] = float(returns[self.seat[name]])
                self.terminations[name] = True
        else:
            for name in self.agents:
                self.truncations[name] = True
        self._select((seat + 1) % self.players, True)
        if ended == "terminated":  # (before the end every reward is 0.0: nothing to add)
            self._accumulate_rewards()


class RibbitParallelEnv(_RibbitEnvironment, ParallelEnv):
    """One Ribbit definition at a fixed player count, as a PettingZoo parallel environment.

    Each step is one decision of every seat the game waits for now; the others' only action is
    the no-op ``0`` (see the module docstring).
    """

    metadata = {"name": "ribbit_parallel_v0", "render_modes": ["ansi"]}

    def __init__(self, game, players: int, max_actions: int | None = None, max_decisions: int = MAX_DECISIONS,
                 render_mode: str | None = None, narration: bool = False):
        self._prepare(game, players, max_actions, max_decisions, render_mode, narration)
        self.agents = []
        self.acting = []  # the agents that act at the next step
        self._offered = {}  # the texts of each acting agent's legal actions, as its info gave them

    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new game (dealt as :meth:`RibbitEnv.reset` deals it): ``(observations, infos)`` of every agent."""
        self.state = self._deal(seed)
        self.agents = list(self.possible_agents)
        return self._observe_all()

    def _observe_all(self) -> tuple[dict, dict]:
        """Every live agent's observation and info; notes who acts next."""
        waiting = set(self.state.current_players())
        self.acting = [agent for agent in self.agents if self.seat[agent] in waiting]
        self._offered = {}
        observations, infos = {}, {}
        for agent in self.agents:
            seat = self.seat[agent]
            if agent in self.acting:
                legal = self._offered[agent] = self._legal(seat)
                observations[agent] = self._observation(seat, list(legal))
                infos[agent] = {"legal_actions": legal}
            else:
                observations[agent] = self._observation(seat, [] if self.state.is_terminal() else [0])
                infos[agent] = {}
        return observations, infos

    def _chosen(self, actions) -> list[tuple[int, str]]:
        """(seat, text) of each acting agent's action, all checked before any is played."""
        if self.state is None:
            raise ActionIndexError("reset() must be called before step()")
        if not self.agents:
            raise ActionIndexError("the game is over and every agent has left; call reset() for a new game")
        if not isinstance(actions, dict):
            raise ActionIndexError(f"step takes a dict of actions by agent ({', '.join(self.acting)} "
                                   f"to act now), not {_type_of(actions)}")
        for agent, action in actions.items():
            if self._known(agent) not in self.agents:
                raise ActionIndexError(f"{agent}'s game is over: it has left and takes no action")
            if agent not in self.acting and action is not None:  # only its no-op, 0
                action_index(action, 1, f"{agent} (not asked to act now; 0 is its no-op)")
        chosen = []
        for agent in self.acting:
            seat, legal = self.seat[agent], self._offered[agent]
            if actions.get(agent) is None:
                raise ActionIndexError(f"{agent} must act now (one of its {len(legal)} legal action ids: "
                                       f"{', '.join(map(str, sorted(legal)[:12]))}); the acting agents are "
                                       f"{', '.join(self.acting)}")
            ids = list(legal)
            chosen.append((seat, legal[ids[action_option(actions[agent], ids, agent)]]))
        return chosen

    def step(self, actions):
        """Play every acting agent's action: ``(observations, rewards, terminations, truncations, infos)``.

        ``actions`` maps agents to action numbers; an agent not asked to act may be left out or
        given ``None`` or ``0`` (its no-op).  A missing or wrong action of an acting agent, an agent
        that has left or does not exist is refused before anything is played; an error while the
        actions are played (a rule failing) puts the game back as it was before the step.
        """
        chosen = self._chosen(actions)
        backup = self.state.clone() if len(chosen) > 1 else None
        try:
            for seat, action in chosen:
                self.state.apply(seat, action)
        except Exception:  # an action refused or a rule failing after another seat's was played: undo the step
            if backup is not None:
                self.state = backup
            raise
        ended = self._ended()
        live = list(self.agents)
        returns = self.state.returns() if ended == "terminated" else None
        rewards = {agent: float(returns[self.seat[agent]]) if returns else 0.0 for agent in live}
        terminations = {agent: ended == "terminated" for agent in live}
        truncations = {agent: ended == "truncated" for agent in live}
        observations, infos = self._observe_all()
        if ended:
            self.agents, self.acting = [], []
        return observations, rewards, terminations, truncations, infos


class _Agents(AECIterable):
    """PettingZoo's iterable of the agents to act, iterated by a generator (resumed each step, where PettingZoo's
    iterator is called)."""

    def __iter__(self):
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


def _mask(size: int, ids) -> np.ndarray:
    """An int8 mask of ``size`` allowing ``ids``."""
    mask = bytearray(size)  # (zeros, and cheaper to set a few bytes of than a NumPy array)
    for i in ids:
        mask[i] = 1
    return np.frombuffer(mask, np.int8)


def env(game, players: int, **options) -> RibbitEnv:
    """PettingZoo's usual constructor name."""
    return RibbitEnv(game, players, **options)


def parallel_env(game, players: int, **options) -> RibbitParallelEnv:
    """PettingZoo's usual constructor name for the parallel environment."""
    return RibbitParallelEnv(game, players, **options)
