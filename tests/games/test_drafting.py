"""tests/definitions/drafting.yaml, a drafting game written from the docs alone: everyone keeps one card of their
hand in secret at the same time, the rest of each hand goes to the left, and each kind kept scores by a table."""

from __future__ import annotations

import random

import pytest

from interpreter import load_game

from conftest import REPO_ROOT

DRAFTING = REPO_ROOT / "tests" / "definitions" / "drafting.yaml"
def set_points(kept: int) -> int:
    """The definition's table {1: 1, 2: 3, 3: 6, 4: 10, 5: 15}, read with threshold(): 0 for none, 15 from 5 on."""
    return {0: 0, 1: 1, 2: 3, 3: 6, 4: 10}.get(kept, 15)


@pytest.fixture(scope="module")
def drafting():
    return load_game(DRAFTING)


HANDS = {1: ["maki", "tempura"], 2: ["sashimi", "egg"], 3: ["dumpling", "maki"]}


def position(drafting):
    return drafting.new_game(3, 0, scenario={"zones": {f"hand({seat})": cards for seat, cards in HANDS.items()}})


def cards(state, zone):
    return state.view(None)["zones"][zone].get("cards")


def test_everyone_keeps_a_card_at_once_and_nobody_sees_another_pick_before_all_are_made(drafting):
    state = position(drafting)
    assert state.current_players() == [0, 1, 2]
    state.apply(0, "keep maki")
    assert state.current_players() == [1, 2]
    assert cards(state, "kept(1)") == [] and state.view(1)["zones"]["hand(1)"] == {"count": 2}


def test_the_rest_of_each_hand_goes_to_the_left_and_the_last_card_is_kept_without_asking(drafting):
    state = position(drafting)
    for seat, card in ((0, "keep maki"), (1, "keep sashimi"), (2, "keep dumpling")):
        state.apply(seat, card)
    assert state.is_terminal()  # one card left each: kept without a decision, and the hands are empty
    assert [cards(state, f"kept({seat})") for seat in (1, 2, 3)] == [["maki", "maki"], ["sashimi", "tempura"],
                                                                     ["dumpling", "egg"]]
    assert state.log[:3] == ["player 1 keeps maki.", "player 2 keeps sashimi.", "player 3 keeps dumpling."]


def test_each_kind_kept_scores_by_the_table(drafting):
    state = position(drafting)
    for seat, card in ((0, "keep maki"), (1, "keep sashimi"), (2, "keep dumpling")):
        state.apply(seat, card)
    assert state.scores() == [3, 2, 2] and state.winners() == [0]


@pytest.mark.parametrize("players", [2, 5])
def test_seeded_random_drafts_keep_every_dealt_card_and_score_by_the_table(drafting, players):
    hand_size = {2: 6, 5: 4}[players]
    for seed in range(4):
        state = drafting.new_game(players, seed).playout(random.Random(seed))
        again = drafting.new_game(players, seed).playout(random.Random(seed))
        assert state.history == again.history and state.scores() == again.scores()
        kept = [cards(state, f"kept({seat})") for seat in range(1, players + 1)]
        assert [len(k) for k in kept] == [hand_size] * players
        assert state.scores() == [sum(set_points(k.count(kind)) for kind in set(k)) for k in kept]
