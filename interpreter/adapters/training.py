"""Train an OpenSpiel learning agent on any Ribbit game against random players, and measure it seat-balanced.

OpenSpiel's agents (``open_spiel.python.pytorch.dqn.DQN``, :class:`~interpreter.adapters.reinforce.Reinforce`,
anything with ``step(time_step, is_evaluation)``) learn through ``rl_environment``; this module runs the
loop docs/ai.md describes, for any definition, with no deep-learning library of its own:

    from open_spiel.python import rl_environment
    from interpreter.adapters.training import Trainer

    env = rl_environment.Environment(game)                # game: a RibbitSpielGame
    trainer = Trainer(env, learners, lead_weight=0.1)      # learners: one agent per seat
    trainer.train(episodes=3_000)                          # seat k learns in episodes k, k + n, ...
    print(trainer.evaluate(games=400))                     # win rate, its 95% interval, per seat

* **Seat-balanced.**  Episode ``k`` sets the learner of seat ``k % players`` against OpenSpiel's random
  agents in every other seat; evaluation plays the same number of games in each seat.  A *win* is
  winning alone (``returns`` 1): a shared victory or a game stopped at ``max_decisions`` is not one.
* **Rewards.**  A learner is given the game's reward (``returns``, at the end) and, with
  ``lead_weight`` w > 0, w times the change in its *lead* since its own previous decision (its
  ``current_scores()`` less the best other seat's; 0 at its first decision), so an episode's rewards
  add up to the result plus w times what its lead gained from its first decision to the end.  The lead
  is read between the learner's own decisions, so it includes what the other seats' moves did
  (``rl_environment`` gives a turn-based agent only the last step's reward).
  The scores are worked out from the whole state: in a game whose score counts cards the seat cannot
  see, this reward tells the learner more than its seat sees while it trains (its policy still reads
  only its observation).  ``lead_weight=0`` trains on the result alone.
* **Features.**  ``features`` (a function of a vector, e.g. :func:`squashed`), if given, is applied to the
  learner's observation at every step, in training and in evaluation: the view's encoding
  (:mod:`interpreter.adapters.encoding`) holds counts, turn numbers and card-name indexes as they are,
  which a network learns from slowly when they sit beside zeros and ones.
* **Randomness.**  The random agents and OpenSpiel's DQN draw from NumPy's global generator, and the
  environment's chance outcomes from its own sampler, which ``rl_environment.Environment(game, seed=0)``
  does *not* seat (the ``seed`` goes to the game's settings; ``env.seed(n)`` does): :meth:`Trainer.train`
  and :meth:`Trainer.evaluate` take a ``seed`` that sets both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from open_spiel.python.algorithms import random_agent


@dataclass(frozen=True)
class Evaluation:
    """Games won alone by the learners, in all and per seat, out of ``games`` (``per_seat[k]`` of
    ``games_per_seat[k]`` as seat ``k``)."""

    wins: int
    games: int
    per_seat: tuple[int, ...]
    games_per_seat: tuple[int, ...]

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The exact (Clopper-Pearson) confidence interval of the win rate."""
        from scipy.stats import binomtest

        found = binomtest(self.wins, self.games).proportion_ci(confidence)
        return float(found.low), float(found.high)

    def __str__(self) -> str:
        low, high = self.interval()
        seats = ", ".join(f"seat {k + 1} {w}/{n}" for k, (w, n) in enumerate(zip(self.per_seat, self.games_per_seat)))
        return f"won {self.wins} of {self.games} games ({self.rate:.1%}; 95% interval {low:.1%}-{high:.1%}; {seats})"


class Trainer:
    """Trains ``learners`` (one OpenSpiel agent per seat, ``learners[k].player_id == k``) in ``env`` (an
    ``rl_environment.Environment`` of a Ribbit game) against random agents; see the module docstring."""

    def __init__(self, env, learners: list, lead_weight: float = 0.0, features=None):
        self.env, self.players = env, env.num_players
        if len(learners) != self.players or any(agent.player_id != k for k, agent in enumerate(learners)):
            raise ValueError(f"give one learner per seat, learners[k] playing seat k (player_id k): "
                             f"{self.players} seats, learners for "
                             f"{[getattr(agent, 'player_id', None) for agent in learners]}")
        if not lead_weight >= 0:
            raise ValueError(f"lead_weight must be a number 0 or more, not {lead_weight!r}")
        self.learners, self.lead_weight, self.features = list(learners), float(lead_weight), features
        actions = env.action_spec()["num_actions"]
        self.randoms = [random_agent.RandomAgent(k, actions) for k in range(self.players)]
        self.episodes = 0

    def train(self, episodes: int, seed: int | None = None) -> None:
        """Play ``episodes`` learning games, the learning seat turning round (see the module docstring)."""
        self._seed(seed)
        for _ in range(episodes):
            self.play(self.episodes % self.players, learn=True)
            self.episodes += 1

    def evaluate(self, games: int, seed: int | None = None) -> Evaluation:
        """Play ``games`` games without learning, as many in each seat (``games`` a multiple of the seats)."""
        if games <= 0 or games % self.players:
            raise ValueError(f"games must be a positive multiple of the {self.players} seats, not {games}")
        self._seed(seed)
        per_seat = [0] * self.players
        for k in range(games):
            seat = k % self.players
            per_seat[seat] += self.play(seat, learn=False) == 1.0
        each = games // self.players
        return Evaluation(sum(per_seat), games, tuple(per_seat), (each,) * self.players)

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            np.random.seed(seed)
            self.env.seed(seed)

    def play(self, seat: int, learn: bool) -> float:
        """One game: the learner of ``seat`` there, random agents elsewhere; the learner's result."""
        env, learner = self.env, self.learners[seat]
        agents = list(self.randoms)
        agents[seat] = learner
        shaped = learn and self.lead_weight > 0
        time_step, before = env.reset(), None
        while not time_step.last():
            player = time_step.observations["current_player"]
            if player == seat:
                reward = None
                if shaped:
                    lead = self._lead(seat)
                    reward = 0.0 if before is None else self.lead_weight * (lead - before)
                    before = lead
                output = learner.step(self._seen(time_step, seat, reward), is_evaluation=not learn)
            else:
                output = agents[player].step(time_step, is_evaluation=not learn)
            time_step = env.step([output.action])
        result = time_step.rewards[seat]
        for k, agent in enumerate(agents):
            if k == seat:
                reward = None
                if shaped:
                    reward = result + (0.0 if before is None else self.lead_weight * (self._lead(seat) - before))
                agent.step(self._seen(time_step, seat, reward), is_evaluation=not learn)
            else:
                agent.step(time_step, is_evaluation=not learn)
        return result

    def _lead(self, seat: int) -> float:
        """The seat's score less the best other seat's, in the position now."""
        scores = self.env.get_state.ribbit.current_scores()
        return scores[seat] - max(score for k, score in enumerate(scores) if k != seat)

    def _seen(self, time_step, seat: int, reward: float | None):
        """``time_step`` as the learner of ``seat`` is given it: ``reward`` as its reward (unless None), its
        observation through ``features`` (if given).  OpenSpiel's TimeStep is a named tuple."""
        if reward is None and self.features is None:
            return time_step
        changes = {}
        if reward is not None:
            rewards = list(time_step.rewards or [0.0] * self.players)
            rewards[seat] = reward
            changes["rewards"] = rewards
        if self.features is not None:
            observations = dict(time_step.observations)
            observations["info_state"] = list(observations["info_state"])
            observations["info_state"][seat] = self.features(observations["info_state"][seat])
            changes["observations"] = observations
        return time_step._replace(**changes)


def squashed(info_state) -> np.ndarray:
    """``x / (1 + |x|)`` of each number: a count stays in order and below 1, a yes stays apart from a no,
    and the large numbers of a view (the turn, a card name's index) no longer outweigh the rest."""
    x = np.asarray(info_state, np.float32)
    return x / (1.0 + np.abs(x))
