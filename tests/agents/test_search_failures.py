"""The searching bots when a rule fails in a world they imagine: the iteration is dropped, the search goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.agents import make_agent

FAILING_WORLDS = Path(__file__).resolve().parents[1] / "definitions" / "failing" / "failing_worlds.yaml"


@pytest.mark.parametrize("bot", ["ismcts", "mcts"])
def test_an_option_that_fails_in_some_imagined_worlds_is_searched_on_without_an_error(bot):
    game = load_game(str(FAILING_WORLDS))
    for seed in range(6):
        agent = make_agent(bot, seed, iterations=40, rollout=4)
        state = game.new_game(2, seed=seed)
        assert agent.act(state, 0) in ("safe", "risky")
        assert agent.failed > 0  # the failing option was tried, and its failures dropped
