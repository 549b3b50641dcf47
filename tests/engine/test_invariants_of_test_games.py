"""The shared invariants of ``invariants.py`` on the engine's test-only games, in many random playouts.

Each definition in ``tests/definitions`` exercises one engine mechanism (secret simultaneous choices,
hidden hands, triggers, modifiers, boards, rounds).  The shipped games and their variants are covered
by ``test_conformance.py``; these small games are cheap, so they play many more games.

Two depths keep the suite fast: every game gets the cheap checks after every action (cards, views,
secret-choice counterfactuals, illegal actions, the result, replay at the end), and a smaller sample,
drawn by hypothesis, also gets the expensive ones (clone independence, save/reload after every action,
a reloaded save and a clone continuing in lockstep with the original, replays at midpoints).
"""

from __future__ import annotations

import json
from functools import cache

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conftest import REPO_ROOT
from interpreter import IllegalActionError, load_game
from invariants import ALL_CHECKS, CHEAP_CHECKS, random_playout, reload, snapshot

DEFINITIONS = REPO_ROOT / "tests" / "definitions"
MECHANISMS = sorted(path.stem for path in DEFINITIONS.glob("*.yaml"))
CHEAP_GAMES = 250  # per definition, spread over its player counts
DEEP_EXAMPLES = 25


@cache
def game(name: str):
    return load_game(DEFINITIONS / f"{name}.yaml")


def player_count(name: str, k: int) -> int:
    """The ``k``-th of a cycle through the definition's player counts."""
    g = game(name)
    return g.min_players + k % (g.max_players - g.min_players + 1)


@pytest.mark.parametrize("name", MECHANISMS)
def test_random_playouts_keep_the_invariants_after_every_action(name):
    finished = [random_playout(game(name), player_count(name, seed), seed, CHEAP_CHECKS) for seed in range(CHEAP_GAMES)]
    assert len({tuple(s.winners()) for s in finished}) > 1  # the random games are not all alike


@pytest.mark.parametrize("name", MECHANISMS)
@settings(max_examples=DEEP_EXAMPLES, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate, Phase.shrink],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_saves_clones_replays_and_secrets_hold_in_random_playouts(name, data):
    g = game(name)
    players = data.draw(st.integers(g.min_players, g.max_players), label="players")
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    random_playout(g, players, seed, ALL_CHECKS)


# ==================================================================== the same properties, pinned
def test_a_saved_state_shares_nothing_with_the_live_state(frog_tower):
    state = frog_tower.new_game(3, 1)
    loaded = reload(state)
    loaded.apply(loaded.current_players()[0], loaded.legal_actions()[0])
    assert snapshot(state) == snapshot(reload(state))
    assert state.history == []


def test_to_json_is_a_snapshot_that_later_actions_do_not_change(frog_tower):
    state = frog_tower.new_game(3, 1)
    saved = state.to_json()
    text = json.dumps(saved, sort_keys=True)
    state.apply(state.current_players()[0], state.legal_actions()[0])
    assert json.dumps(saved, sort_keys=True) == text


def test_actions_after_the_end_are_illegal_and_change_nothing():
    state = random_playout(game("hidden_hands"), 2, 3, checks=())
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(0, "discard ant")
    assert snapshot(state) == before
