"""A small policy-gradient learner in NumPy for OpenSpiel's ``rl_environment``: no deep-learning library needed.

OpenSpiel's DQN, PPO and NFSP need PyTorch, JAX or TensorFlow.  This agent needs only NumPy, so a
definition can be trained on the CPU anywhere the ``openspiel`` extra installs.  It is REINFORCE
with a running-mean baseline over a linear softmax policy (one weight row per fixed action id,
:mod:`interpreter.adapters.actions`), restricted to the legal actions of each step:

    from open_spiel.python import rl_environment
    from interpreter.adapters.reinforce import Reinforce

    env = rl_environment.Environment(game)              # game: a RibbitSpielGame
    agent = Reinforce(player_id=0, info_state_size=env.observation_spec()["info_state"][0],
                      num_actions=env.action_spec()["num_actions"])
    time_step = env.reset()
    while not time_step.last():                          # the agent's own turns (others: any agent)
        action = agent.step(time_step).action
        time_step = env.step([action])
    agent.step(time_step)                                # the end of the episode: the update

It follows OpenSpiel's ``rl_agent.AbstractAgent`` interface (``step(time_step, is_evaluation)``
returns a ``StepOutput``), so it plays beside OpenSpiel's own agents.  The features are the
information state tensor squashed to ``x / (1 + |x|)`` (counts of very different sizes).
"""

from __future__ import annotations

import numpy as np
from open_spiel.python import rl_agent


class Reinforce(rl_agent.AbstractAgent):
    """REINFORCE with a baseline, linear softmax policy over the legal action ids (see the module docstring)."""

    def __init__(self, player_id: int, info_state_size: int, num_actions: int, learning_rate: float = 0.05,
                 seed: int = 0):
        self.player_id, self.num_actions = player_id, num_actions
        self.learning_rate = learning_rate
        self.weights = np.zeros((num_actions, info_state_size + 1))  # the last column: a bias per action
        self.baseline = 0.0
        self.episodes = 0
        self._rng = np.random.default_rng(seed)
        self._trajectory = []  # (features, legal ids, probabilities, chosen) of this episode's own steps

    def _features(self, info_state) -> np.ndarray:
        x = np.asarray(info_state, np.float64)
        return np.append(x / (1.0 + np.abs(x)), 1.0)

    def policy(self, info_state, legal: list[int]) -> np.ndarray:
        """The probabilities of the ``legal`` action ids (in that order) given ``info_state``."""
        logits = self.weights[legal] @ self._features(info_state)
        logits -= logits.max()
        weights = np.exp(logits)
        return weights / weights.sum()

    def choose(self, info_state, legal, evaluate: bool = False) -> int:
        """An action id among ``legal`` for ``info_state`` (any vector of the agent's size: OpenSpiel's
        information state tensor, a PettingZoo observation), sampled from the policy and remembered for
        :meth:`end_episode`; with ``evaluate``, sampled and not remembered (the policy as it is: its most
        likely action alone can walk in circles in a game that a rule does not end)."""
        legal = list(legal)
        probabilities = self.policy(info_state, legal)
        index = int(self._rng.choice(len(legal), p=probabilities))
        if not evaluate:
            self._trajectory.append((self._features(info_state), legal, probabilities, index))
        return legal[index]

    def end_episode(self, reward: float) -> None:
        """The episode is over with ``reward`` for this agent: learn from the steps it chose (if any)."""
        if self._trajectory:
            self._learn(reward)
        self._trajectory = []

    def step(self, time_step, is_evaluation: bool = False):
        """OpenSpiel's agent interface: an action at the agent's turns, learning at the episode's end."""
        if time_step.last():
            if is_evaluation:
                self._trajectory = []
            else:
                self.end_episode(time_step.rewards[self.player_id])
            return None
        if time_step.observations["current_player"] != self.player_id:
            return None
        info_state = time_step.observations["info_state"][self.player_id]
        legal = list(time_step.observations["legal_actions"][self.player_id])
        action = self.choose(info_state, legal, evaluate=is_evaluation)
        probs = np.zeros(self.num_actions)
        probs[action] = 1.0
        return rl_agent.StepOutput(action=action, probs=probs)

    def _learn(self, reward: float) -> None:
        """One gradient step of REINFORCE: every own step of the episode pushed towards its choice by the
        episode's return less the baseline (terminal rewards only: no discount within a game)."""
        self.episodes += 1
        advantage = reward - self.baseline
        self.baseline += (reward - self.baseline) / min(self.episodes, 100)
        if advantage == 0.0:
            return
        step = self.learning_rate * advantage / len(self._trajectory)
        for features, legal, probabilities, index in self._trajectory:
            gradient = -probabilities  # d log pi(chosen) / d logits of the legal actions
            gradient[index] += 1.0
            self.weights[legal] += step * np.outer(gradient, features)
