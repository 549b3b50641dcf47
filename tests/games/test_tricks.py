"""tests/definitions/tricks.yaml, a trick-taking game written from the docs alone: you follow the led suit when
you can, a trump beats the led suit, and the trick's winner leads the next (a phase of rounds, each round played
round the table from the leader with players_from), from hand-built positions."""

from __future__ import annotations

import pytest

from interpreter import load_game

from conftest import REPO_ROOT

TRICKS = REPO_ROOT / "tests" / "definitions" / "tricks.yaml"


@pytest.fixture(scope="module")
def tricks():
    return load_game(TRICKS)


def position(tricks, leader: int = 1, hands=None):
    """Seat ``leader`` (from 1) to lead, each seat holding its cards of ``hands`` (a decision of one option is
    taken without asking, so each hand leaves its seat a choice where a test looks)."""
    hands = hands or HANDS
    return tricks.new_game(3, 0, log=True, scenario={"zones": {f"hand({seat})": cards for seat, cards in hands.items()},
                                                     "game_variables": {"leader": leader}})


HANDS = {1: ["2 of moons", "4 of suns", "1 of stars"], 2: ["1 of moons", "3 of moons", "3 of stars"],
         3: ["4 of moons", "1 of suns", "2 of stars"]}


def test_a_player_holding_the_led_suit_must_follow_it(tricks):
    state = position(tricks)
    assert state.legal_actions(0) == ["play 2 of moons", "play 4 of suns", "play 1 of stars"]  # the lead: anything
    state.apply(0, "play 2 of moons")
    assert state.legal_actions(1) == ["play 1 of moons", "play 3 of moons"]


def test_a_player_without_the_led_suit_may_play_anything(tricks):
    state = position(tricks)
    state.apply(0, "play 4 of suns")
    assert state.legal_actions(1) == ["play 1 of moons", "play 3 of moons", "play 3 of stars"]


def test_the_highest_card_of_the_led_suit_wins_and_its_player_leads_next(tricks):
    state = position(tricks)
    state.apply(0, "play 2 of moons")
    state.apply(1, "play 3 of moons")  # seat 3 follows with its only moon, the 4, without being asked
    assert state.pv["tricks"] == [0, 0, 1] and state.current_players() == [2]  # seat 3 won and leads
    assert state.view(None)["zones"]["won(3)"]["cards"] == ["2 of moons", "3 of moons", "4 of moons"]


def test_a_trump_beats_a_higher_card_of_the_led_suit(tricks):
    state = position(tricks)
    state.apply(0, "play 4 of suns")
    state.apply(1, "play 3 of stars")  # no sun: a trump; seat 3 follows with its only sun
    assert state.pv["tricks"] == [0, 1, 0] and state.current_players() == [1]


def test_the_leader_plays_first_and_the_trick_goes_round_the_table_from_there(tricks):
    state = position(tricks, leader=2)
    assert state.current_players() == [1]
    state.apply(1, "play 3 of stars")  # seats 3 and 1 follow with their only star
    assert state.log[-4:] == ["player 2 plays 3 of stars.", "player 3 plays 2 of stars.", "player 1 plays 1 of stars.",
                              "player 2 wins the trick."]
