"""Frog Tower's variants in random play: combinations keep every shared invariant, and each variant shows.

Each variant on its own (and each Crayfish rule) is played by ``test_conformance.py``; here the variants
are combined, with every check of ``invariants.py`` after every action, and plain random games show that
the variants really come into play (Crayfish cards are flipped, secret passes happen, results differ).
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from conftest import REPO_ROOT
from interpreter import load_game
from invariants import ALL_CHECKS, random_playout

BASE = REPO_ROOT / "definitions" / "frog_tower.yaml"
VARIANTS = ["flower", "crayfish", "crayfish2"]
COMBINATIONS = [list(c) for n in range(2, len(VARIANTS) + 1) for c in itertools.combinations(VARIANTS, n)]
CRAYFISH_SETTINGS = ["crayfish", "crayfish2"] + [f"crayfish:rule={rule}" for rule in (
    "pass_right", "pass_left", "everyone_flips", "pick_from_right")]
GAMES_PER_COMBINATION = 8  # two per player count, each checked after every action
PLAIN_GAMES = 20


@cache
def game(variants: tuple):
    return load_game(BASE, variants=list(variants))


def crayfish_flipped(state) -> int:
    """Crayfish cards in the box: each got there by being flipped."""
    box = state.zones[state.game.zones["box"].base]
    return sum(state.game.card_names[c] == "crayfish" for c in box)


def plain_games(variants: tuple, checks=()) -> list:
    return [random_playout(game(variants), 2 + seed % 4, seed, checks) for seed in range(PLAIN_GAMES)]


@pytest.mark.parametrize("variants", COMBINATIONS, ids=["+".join(c) for c in COMBINATIONS])
def test_random_playouts_under_combined_variants_keep_every_invariant(variants):
    finished = [random_playout(game(tuple(variants)), 2 + seed % 4, seed, ALL_CHECKS)
                for seed in range(GAMES_PER_COMBINATION)]
    assert len({tuple(s.winners()) for s in finished}) > 1  # the random games are not all alike
    if "crayfish" in variants or "crayfish2" in variants:
        assert sum(map(crayfish_flipped, finished)) > 0


@pytest.mark.parametrize("setting", CRAYFISH_SETTINGS)
def test_random_play_flips_crayfish_cards_under_every_crayfish_setting(setting):
    assert sum(map(crayfish_flipped, plain_games((setting,)))) > 0


@pytest.mark.parametrize("rule", ["pass_right", "pass_left"])
def test_random_play_reaches_secret_passes_under_the_passing_rules(rule):
    """The conformance test's secret-choice check has passes to check under these two rules."""
    open_passes = []

    def count_open_secret_decisions(state):
        if state.pending and state.pending["secret"] and len(state.current_players()) > 1:
            open_passes.append(len(state.history))
    plain_games((f"crayfish:rule={rule}",), checks=(count_open_secret_decisions,))
    assert open_passes


def test_crayfish_and_flower_change_the_results_of_the_same_seeds():
    plain = [random_playout(game(("flower",)), 3, seed, checks=()).scores() for seed in range(10)]
    crayfish = [random_playout(game(("crayfish:rule=everyone_flips",)), 3, seed, checks=()).scores()
                for seed in range(10)]
    assert plain != crayfish
