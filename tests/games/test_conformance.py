"""Every shipped game and variant keeps the shared invariants in random play, and the checks themselves can fail.

The games are found on disk: each ``definitions/*.yaml``, alone and with each of its variants from
``definitions/variants/<game>/*.yaml`` on its own (a variant's ``one_of`` parameters once per value), so
a new game or variant is covered without touching this file.  Every supported player count plays a few
seeded random games with all the checks of ``invariants.py`` after every action.  Combinations of
variants and game-specific properties are tested next to each game.
"""

from __future__ import annotations

import math
from functools import cache

import pytest

from conftest import REPO_ROOT
from configurations import variant_refs
from interpreter import State, load_game
from invariants import ALL_CHECKS, check_secret_choice_is_invisible, check_views, random_playout

DEFINITIONS = REPO_ROOT / "definitions"
SEEDS_PER_PLAYER_COUNT = 3
FEWEST_GAMES = 6  # a game for few player counts plays more seeds of each
LONG_GAME = 300  # actions in a random game: longer games play fewer, sampled playouts (playout_plan)


def shipped_configurations(numbers: bool = True) -> list[tuple[str, tuple[str, ...]]]:
    """(game file stem, variants) for every shipped game alone and with each variant setting on its own
    (without ``numbers``, not the other values of a whole-number setting: configurations.varies_the_paths)."""
    configurations = []
    for game_file in sorted(DEFINITIONS.glob("*.yaml")):
        configurations.append((game_file.stem, ()))
        for variant_file in sorted((DEFINITIONS / "variants" / game_file.stem).glob("*.yaml")):
            configurations += [(game_file.stem, (ref,)) for ref in variant_refs(variant_file, numbers)]
    return configurations


CONFIGURATIONS = shipped_configurations()
SWEEP_CONFIGURATIONS = shipped_configurations(numbers=False)  # for sweeps of a property at every position


@cache
def shipped_game(stem: str, variants: tuple[str, ...]):
    return load_game(DEFINITIONS / f"{stem}.yaml", variants=list(variants))


def test_every_shipped_game_and_variant_setting_is_covered():
    """The discovery finds the games, each variant and each value of a one_of parameter (not the default twice)."""
    found = {stem + "".join(f"+{v}" for v in variants) for stem, variants in CONFIGURATIONS}
    assert {"frog_tower", "kaeru", "crazy_eights", "top_frog", "frog_tower+flower", "frog_tower+crayfish2", "kaeru+unknown_tastes",
            "frog_tower+crayfish", "frog_tower+crayfish:rule=pass_left"} <= found
    assert "frog_tower+crayfish:rule=random" not in found  # the default: that is plain "crayfish"
    assert len(found) == len(CONFIGURATIONS)
    swept = {stem + "".join(f"+{v}" for v in variants) for stem, variants in SWEEP_CONFIGURATIONS}
    assert "frog_tower+crayfish:rule=pass_left" in swept and "top_frog+tall_stacks" in swept
    assert not any("tall_stack_bonus=" in name for name in swept) and swept < found


@cache
def playout_plan(stem: str, variants: tuple[str, ...]) -> tuple[tuple[int, ...], int, float]:
    """(player counts, seeds per count, share of positions fully checked) for a configuration.

    A game whose random playouts run to hundreds of decisions (measured on unchecked games at its fewest
    and most players: one short game does not make a game short) plays its fewest, middle and most player counts once each, with the costly checks
    at a random sample of positions (``random_playout``'s ``sample``); the others play every count."""
    game = shipped_game(stem, variants)
    counts = tuple(range(game.min_players, game.max_players + 1))
    length = max(len(random_playout(game, players, seed, checks=()).history)  # unchecked games are quick
                 for players in (game.min_players, game.max_players) for seed in range(SEEDS_PER_PLAYER_COUNT))
    if length <= LONG_GAME:
        return counts, max(SEEDS_PER_PLAYER_COUNT, math.ceil(FEWEST_GAMES / len(counts))), 1.0
    middle = (game.min_players + game.max_players + 1) // 2
    return tuple(sorted({game.min_players, middle, game.max_players})), 1, 50 / length


@pytest.mark.parametrize("stem, variants", CONFIGURATIONS,
                         ids=[stem + "".join(f"+{v}" for v in variants) for stem, variants in CONFIGURATIONS])
def test_random_playouts_keep_every_invariant_after_every_action(stem, variants):
    game = shipped_game(stem, variants)
    counts, seeds, sample = playout_plan(stem, variants)
    finished = [random_playout(game, players, seed, ALL_CHECKS, sample=sample)
                for players in counts for seed in range(seeds)]
    assert len({tuple(state.scores()) for state in finished}) > 1  # the random games are not all alike


def test_a_long_game_plays_its_fewest_middle_and_most_player_counts():
    """Top Frog's random games run to hundreds of decisions: it is checked at 2, 4 and 6 players."""
    assert playout_plan("top_frog", ()) [:2] == ((2, 4, 6), 1)
    assert playout_plan("frog_tower", ()) == ((2, 3, 4, 5), 3, 1.0)  # short games: every count, every check


# ==================================================================== the checks themselves can fail
@cache
def mechanism_game(name: str):
    """A test-only definition that has the feature a leak needs (owner zones, a top zone, private variables)."""
    return load_game(REPO_ROOT / "tests" / "definitions" / f"{name}.yaml")


def leak(monkeypatch, change) -> None:
    """Make every view pass through ``change(state, player, view)`` before it is returned."""
    honest = State.view

    def leaky(self, player):
        view = honest(self, player)
        change(self, player, view)
        return view
    monkeypatch.setattr(State, "view", leaky)


def cards_of(state, zone: str, seat: int = 0) -> list[str]:
    return [state.game.card_names[c] for c in state.zones[state.game.zones[zone].base + seat]]


def show_deck(state, player, view):
    view["zones"]["deck"] = {"cards": cards_of(state, "deck")}


def show_second_hand(state, player, view):
    view["zones"]["hand(2)"] = {"cards": cards_of(state, "hand", 1)}


def show_whole_discard(state, player, view):
    view["zones"]["discard"]["cards"] = cards_of(state, "discard")


def show_private_variables(state, player, view):
    for row, value in zip(view["player_variables"], state.pv["tally"]):
        row["tally"] = value


def show_options_to_everyone(state, player, view):
    view["decision"]["your_options"] = state.legal_actions(state.current_players()[0])


def name_the_next_card(state, player, view):
    view["variables"]["next"] = cards_of(state, "deck")[-1]


LEAKS = [(show_deck, "zones as seen by 0"),
         (show_second_hand, "zones as seen by 0"),
         (show_whole_discard, "zones as seen by 0"),
         (show_private_variables, "player 1's variables as seen by 0"),
         (show_options_to_everyone, "the decision shown to 1 has keys"),
         (name_the_next_card, "the view of 0 names cards it cannot see")]


@pytest.mark.parametrize("change, message", LEAKS, ids=[change.__name__ for change, _ in LEAKS])
def test_view_check_catches_a_view_that_shows_too_much(monkeypatch, change, message):
    state = mechanism_game("hidden_hands").new_game(2, 0)
    state.apply(0, state.legal_actions(0)[0])
    state.apply(1, state.legal_actions(1)[0])  # two cards on the discard pile, player 1 (seat 0) to act
    assert state.current_players() == [0] and len(cards_of(state, "discard")) == 2
    check_views(state)  # the honest view passes
    leak(monkeypatch, change)
    with pytest.raises(AssertionError, match=message):
        check_views(state)


def test_secret_check_catches_a_view_that_shows_a_pick(monkeypatch):
    state = mechanism_game("simultaneous").new_game(3, 0)
    assert check_secret_choice_is_invisible(state, 0)  # the honest view passes

    def show_picks(state, player, view):
        if state.pending:
            view["decision"]["picked"] = [c for c in state.pending["chosen"] if c is not None]
    leak(monkeypatch, show_picks)
    with pytest.raises(AssertionError, match="depends on a secret choice"):
        check_secret_choice_is_invisible(state, 0)
