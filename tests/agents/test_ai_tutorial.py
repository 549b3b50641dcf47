"""docs/ai.md, "Train an agent on a Ribbit game": its examples run (with fewer games), and the NumPy
policy-gradient agent it uses learns to beat a random player on Kaeru (a slow test)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]'")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[pettingzoo]'")

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"episodes = 3_000": "episodes = 6", "range(200)": "range(4)", "max_simulations=20": "max_simulations=2"}
SMALL_DQN = {"episodes=2_000": "episodes=12", "games=400": "games=4", "min_buffer_size_to_learn=1_000": "min_buffer_size_to_learn=64"}


def examples() -> list[str]:
    text = (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in text.split("```python\n")[1:]]


def small(example: str, sizes: dict = SMALL) -> str:
    for big, little in sizes.items():
        example = example.replace(big, little)
    return example


def uses_torch(block: str) -> bool:
    return "import torch" in block


def test_the_tutorial_has_an_openspiel_and_a_pettingzoo_example_and_each_runs(monkeypatch, capsys):
    text = (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    assert text.count("```") == 2 * text.count("```python\n")  # every block is Python, and the two tests run them all
    everything = examples()
    blocks = [block for block in everything if not uses_torch(block)]
    assert len(everything) == 4 and len(blocks) == 3 and sum("adapters.pettingzoo" in block for block in blocks) == 1
    assert all(any(big in block for block in blocks) for big in SMALL)  # the sizes the test shrinks are there
    monkeypatch.chdir(ROOT)
    for block in blocks:
        scope = {}
        exec(compile(small(block), "docs/ai.md", "exec"), scope)
        if "wins" in scope:
            assert len(scope["wins"]) == 4 and scope["learner" if "learner" in scope else "learners"]
    printed = capsys.readouterr().out
    assert printed.count("the trained agent wins") == 2 and "returns" in printed


def test_the_tutorial_s_reinforce_examples_are_reproducible_run_after_run(monkeypatch):
    """Each seeds its deals, the random players' draws and the agent, so the same code learns the same weights
    from the same games (``Environment(game, seed=0)`` alone, or ``reset()`` never given a seed, deals afresh)."""
    blocks = [block for block in examples() if "from interpreter.adapters.reinforce import Reinforce" in block]
    assert len(blocks) == 2
    monkeypatch.chdir(ROOT)
    for block in blocks:
        runs = []
        for _ in range(2):
            scope = {}
            exec(compile(small(block, {**SMALL, "episodes = 3_000": "episodes = 20"}), "docs/ai.md", "exec"), scope)
            learners = scope["learners"] if "learners" in scope else [scope["learner"]]
            runs.append((scope["wins"], [learner.weights.tolist() for learner in learners]))
        assert runs[0] == runs[1]
        assert any(any(any(row) for row in weights) for weights in runs[0][1])  # it learned something to compare


def test_the_tutorial_s_pytorch_dqn_example_runs_with_the_slow_test_s_settings(monkeypatch, capsys):
    pytest.importorskip("torch", reason="PyTorch is not installed: pip install -e '.[train]'")
    pytest.importorskip("tree", reason="dm-tree is not installed: pip install -e '.[train]'")
    from test_training import DQN_SETTINGS, EPISODES, GAMES, LEAD_WEIGHT

    (block,) = [block for block in examples() if uses_torch(block)]
    assert all(big in block for big in SMALL_DQN)  # the sizes the test shrinks are there
    assert f"episodes={EPISODES:_}" in block and f"games={GAMES}" in block and f"lead_weight={LEAD_WEIGHT}" in block
    monkeypatch.chdir(ROOT)
    scope = {}
    exec(compile(small(block, SMALL_DQN), "docs/ai.md", "exec"), scope)
    given = scope["learners"][0]._kwargs  # OpenSpiel's DQN keeps its arguments
    assert {key: given[key] for key in DQN_SETTINGS} == {**DQN_SETTINGS, "min_buffer_size_to_learn": 64}
    assert scope["trainer"].features is not None and scope["trainer"].episodes == 12
    assert "the DQN won" in capsys.readouterr().out


def one_sided_p(wins: int, games: int) -> float:
    """P(at least ``wins`` wins in ``games`` games) for a player who wins half its games."""
    return sum(math.comb(games, k) for k in range(wins, games + 1)) / 2 ** games


@pytest.mark.slow
def test_the_policy_gradient_agent_learns_to_beat_a_random_player_on_kaeru():
    import numpy as np
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    from interpreter import load_game
    from interpreter.adapters.openspiel import RibbitSpielGame
    from interpreter.adapters.reinforce import Reinforce

    game = RibbitSpielGame(load_game(ROOT / "definitions" / "kaeru.yaml"), players=2, max_decisions=400,
                           narration=False)
    env = rl_environment.Environment(game)
    env.seed(0)  # the chance outcomes it samples
    size, actions = env.observation_spec()["info_state"][0], env.action_spec()["num_actions"]
    learners = [Reinforce(seat, size, actions, learning_rate=0.1, seed=seat) for seat in range(2)]
    randoms = [random_agent.RandomAgent(seat, actions) for seat in range(2)]
    np.random.seed(0)  # OpenSpiel's random agent draws from NumPy's global generator

    def play(seat, evaluate):
        agents = list(randoms)
        agents[seat] = learners[seat]
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            time_step = env.step([agents[player].step(time_step, is_evaluation=evaluate).action])
        for agent in agents:
            agent.step(time_step, is_evaluation=evaluate)
        return time_step.rewards[seat]

    for episode in range(EPISODES):
        play(episode % 2, evaluate=False)
    after = [play(k % 2, evaluate=True) for k in range(TRAINED_GAMES)]
    wins = int(round(sum(after)))
    assert one_sided_p(wins, TRAINED_GAMES) < 0.05, np.mean(after)  # it beats the random player at 95% confidence


EPISODES, TRAINED_GAMES = 1_000, 200
