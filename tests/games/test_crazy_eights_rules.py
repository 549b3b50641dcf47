"""Crazy Eights (definitions/crazy_eights.yaml): each rule from a hand-built position, with exact outcomes.

A scenario skips the game's setup: the cards not named stay in the stock, in deck order, and seat 1
plays first.  Seats are 0-based in ``state.apply`` and 1-based in zone labels.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO_ROOT, zone
from interpreter import load_game
from invariants import CHEAP_CHECKS, random_playout


@pytest.fixture(scope="module")
def eights():
    return load_game(str(REPO_ROOT / "definitions" / "crazy_eights.yaml"))


# Seat 1 can play the 9 of clubs, or draw; after any card, seat 2 has a decision of its own.
DRAW_POSITION = {"discard": ["9 of hearts"], "hand(1)": ["2 of clubs", "9 of clubs"],
                 "hand(2)": ["3 of spades", "9 of spades"]}


def position(game, players=2, zones=None, stock_top=None, trace=False):
    """``zones``: exact contents (bottom to top); ``stock_top``: cards put on the stock, the first drawn first."""
    scenario = {"zones": dict(zones or {}), "on_top": {"stock": list(stock_top or [])}}
    return game.new_game(players, seed=0, scenario=scenario, trace=trace)


# --------------------------------------------------------------------------- the deck and the deal
def test_the_deck_is_52_cards_named_rank_of_suit(eights):
    assert len(eights.card_names) == 52 and len(set(eights.card_names)) == 52
    assert eights.card_names[0] == "2 of clubs" and eights.card_names[-1] == "ace of spades"
    queen = eights.card_names.index("queen of spades")
    ten = eights.card_names.index("10 of hearts")
    assert [eights.properties[p][0][queen] for p in ("rank", "suit")] == ["queen", "spades"]
    assert [eights.properties[p][0][ten] for p in ("rank", "suit")] == ["10", "hearts"]


@pytest.mark.parametrize("players, each", [(2, 7), (3, 5), (4, 5)])
def test_the_deal_is_7_cards_each_for_2_players_and_5_for_3_or_4(eights, players, each):
    state = eights.new_game(players, seed=3, trace=True)
    setup = state.trace[:next(i for i, r in enumerate(state.trace) if r["type"] == "variable" and r["name"] == "turn")]
    dealt = [r["to"] for r in setup if r["type"] == "move" and r["to"].startswith("hand")]
    assert dealt == [f"hand({seat})" for seat in range(1, players + 1)] * each  # one card at a time, in turn
    assert [r["to"] for r in setup if r["type"] == "move" and not r["to"].startswith("hand")][-1:] == ["discard"]


def test_a_starter_that_is_an_8_is_buried_at_the_bottom_of_the_stock_and_another_turned(eights):
    buried = []
    for seed in range(40):
        state = eights.new_game(2, seed=seed, trace=True)
        starter = zone(state, "discard")[0]
        assert not starter.startswith("8 of")
        bottom = [r["card"] for r in state.trace
                  if r["type"] == "move" and r["from"] == "stock" and r["to"] == "stock" and r["at"] == "bottom"]
        assert zone(state, "stock")[:len(bottom)] == bottom[::-1]
        buried += bottom
    assert buried and all(name.startswith("8 of") for name in buried)  # some seed turned an 8 first


# --------------------------------------------------------------------------- the turn: play or draw
def test_a_card_of_the_top_cards_suit_can_be_played_beside_drawing(eights):
    state = position(eights, zones={"discard": ["9 of hearts"],
                                    "hand(1)": ["2 of hearts", "3 of clubs", "king of spades"],
                                    "hand(2)": ["4 of clubs", "2 of spades"]})
    assert state.legal_actions(0) == ["play 2 of hearts", "draw a card"]
    state.apply(0, "play 2 of hearts")
    assert zone(state, "discard") == ["9 of hearts", "2 of hearts"]
    assert zone(state, "hand(1)") == ["3 of clubs", "king of spades"]
    assert state.legal_actions(1) == ["play 2 of spades", "draw a card"]  # by rank now


def test_a_card_of_the_top_cards_rank_can_be_played(eights):
    state = position(eights, zones={"discard": ["9 of hearts"],
                                    "hand(1)": ["9 of clubs", "3 of clubs", "9 of spades"],
                                    "hand(2)": ["4 of clubs", "5 of spades"]})
    assert state.legal_actions(0) == ["play 9 of clubs", "play 9 of spades", "draw a card"]
    state.apply(0, "play 9 of spades")
    assert zone(state, "discard")[-1] == "9 of spades"
    assert state.legal_actions(1) == ["play 5 of spades", "draw a card"]  # the 4 of clubs matches neither


def test_an_8_is_played_on_anything_and_names_the_suit_the_next_player_must_follow(eights):
    state = position(eights, zones={"discard": ["9 of hearts"],
                                    "hand(1)": ["8 of clubs", "4 of spades"],
                                    "hand(2)": ["9 of diamonds", "2 of hearts", "5 of spades", "8 of diamonds",
                                                "7 of clubs"]})
    assert state.legal_actions(0) == ["play 8 of clubs", "draw a card"]
    state.apply(0, "play 8 of clubs")
    assert state.legal_actions(0) == ["name clubs", "name diamonds", "name hearts", "name spades"]
    state.apply(0, "name spades")
    assert state.gv["named"] == "spades"
    # Not the 9 nor the heart (they matched the card under the 8), not the club (the 8's own suit).
    assert state.legal_actions(1) == ["play 5 of spades", "play 8 of diamonds", "draw a card"]
    state.apply(1, "play 5 of spades")
    assert state.gv["named"] == ""  # an ordinary card on top: its own suit and rank again
    assert state.legal_actions(0) == ["play 4 of spades", "draw a card"]


def test_an_8_may_follow_a_named_suit(eights):
    state = position(eights, zones={"discard": ["9 of hearts"], "hand(1)": ["8 of clubs", "4 of spades", "6 of hearts"],
                                    "hand(2)": ["8 of diamonds", "2 of hearts"]})
    state.apply(0, "play 8 of clubs")
    state.apply(0, "name spades")
    assert state.legal_actions(1) == ["play 8 of diamonds", "draw a card"]
    state.apply(1, "play 8 of diamonds")
    state.apply(1, "name hearts")
    assert state.legal_actions(0) == ["play 6 of hearts", "draw a card"]


def test_a_drawn_card_that_is_playable_may_be_played_at_once(eights):
    state = position(eights, stock_top=["3 of hearts"],
                     zones=DRAW_POSITION)
    state.apply(0, "draw a card")
    assert state.legal_actions(0) == ["play it", "keep it"]
    state.apply(0, "play it")
    assert zone(state, "discard") == ["9 of hearts", "3 of hearts"]
    assert zone(state, "hand(1)") == ["2 of clubs", "9 of clubs"]
    assert state.current_players() == [1]


def test_a_drawn_card_that_is_playable_may_be_kept(eights):
    state = position(eights, stock_top=["3 of hearts"],
                     zones=DRAW_POSITION)
    state.apply(0, "draw a card")
    state.apply(0, "keep it")
    assert zone(state, "hand(1)") == ["2 of clubs", "9 of clubs", "3 of hearts"]
    assert zone(state, "discard") == ["9 of hearts"]
    assert state.current_players() == [1]


def test_a_drawn_card_that_is_not_playable_is_kept_without_a_question(eights):
    state = position(eights, stock_top=["4 of spades"],
                     zones=DRAW_POSITION,
                     trace=True)
    state.apply(0, "draw a card")
    assert zone(state, "hand(1)") == ["2 of clubs", "9 of clubs", "4 of spades"]
    assert state.legal_actions(1) == ["play 9 of spades", "draw a card"]  # no "play it" / "keep it" first


# --------------------------------------------------------------------------- the stock runs out
def test_an_empty_stock_is_remade_from_the_discard_pile_but_its_top_card(eights):
    state = position(eights, zones={"stock": [], "discard": ["2 of clubs", "5 of clubs", "9 of hearts"],
                                    "hand(1)": ["3 of spades", "9 of clubs"], "hand(2)": ["9 of spades"]}, trace=True)
    assert state.legal_actions(0) == ["play 9 of clubs", "draw a card"]
    state.apply(0, "draw a card")
    assert zone(state, "discard") == ["9 of hearts"]
    drawn = zone(state, "hand(1)")[2]
    assert sorted([drawn] + zone(state, "stock")) == ["2 of clubs", "5 of clubs"]
    assert {"type": "shuffle", "zone": "stock", "cards": 2} in state.trace
    assert "The discard pile is shuffled to make a new stock." in state.log


def test_with_nothing_to_draw_and_nothing_to_play_a_player_passes(eights):
    state = position(eights, zones={"stock": [], "discard": ["9 of hearts"], "hand(1)": ["2 of clubs"],
                                    "hand(2)": ["3 of hearts", "4 of hearts"]})
    assert not state.is_terminal()
    assert state.current_players() == [1]  # seat 1's only option, "pass", was taken without asking
    assert "player 1 cannot play and has nothing to draw: pass." in state.log
    assert state.legal_actions(1) == ["play 3 of hearts", "play 4 of hearts"]  # no "draw a card"


# --------------------------------------------------------------------------- the end
def test_emptying_your_hand_wins_at_once(eights):
    state = position(eights, players=3, zones={"discard": ["9 of hearts"], "hand(1)": ["2 of hearts"],
                                               "hand(2)": ["4 of clubs"], "hand(3)": []})
    state.apply(0, "play 2 of hearts")
    assert state.is_terminal() and state.ended_by == "end game"
    assert state.winners() == [0]


def test_a_last_card_that_is_an_8_wins_without_naming_a_suit(eights):
    state = position(eights, zones={"discard": ["9 of hearts"], "hand(1)": ["8 of clubs"], "hand(2)": ["4 of clubs"]})
    state.apply(0, "play 8 of clubs")
    assert state.is_terminal() and state.winners() == [0]


def test_a_blocked_game_is_won_by_the_fewest_cards_in_hand(eights):
    state = position(eights, players=3, zones={"stock": [], "discard": ["9 of hearts"],
                                               "hand(1)": ["2 of clubs", "3 of clubs"],
                                               "hand(2)": ["4 of clubs"], "hand(3)": ["5 of clubs", "6 of clubs"]})
    assert state.is_terminal() and state.ended_by == "end game"
    assert "Nobody can play: the game is blocked." in state.log
    assert state.scores() == [-2, -1, -2]
    assert state.winners() == [1]


def test_a_blocked_game_with_a_tie_for_fewest_cards_is_shared(eights):
    state = position(eights, players=3, zones={"stock": [], "discard": ["9 of hearts"],
                                               "hand(1)": ["2 of clubs"],
                                               "hand(2)": ["4 of clubs"], "hand(3)": ["5 of clubs", "6 of clubs"]})
    assert state.is_terminal()
    assert state.winners() == [0, 1]


# --------------------------------------------------------------------------- secrecy
def test_another_players_hand_is_a_count_only(eights):
    state = position(eights, zones={"discard": ["2 of hearts", "9 of hearts"], "hand(1)": ["2 of clubs", "9 of clubs"],
                                    "hand(2)": ["4 of clubs", "5 of clubs"]})
    view = state.view(0)["zones"]
    assert view["hand(1)"] == {"cards": ["2 of clubs", "9 of clubs"]}
    assert view["hand(2)"] == {"count": 2}
    assert view["discard"] == {"count": 2, "top": "9 of hearts"}
    assert "cards" not in view["stock"]


def test_what_a_player_draws_is_told_to_them_only(eights):
    state = position(eights, stock_top=["4 of spades"],
                     zones=DRAW_POSITION)
    state.apply(0, "draw a card")
    assert state.narration(0)[-1] == "player 1 draws 4 of spades."
    assert state.narration(1)[-1] == "player 1 draws a card."


# --------------------------------------------------------------------------- random games
def rules_hold(state):
    """Game-specific invariants, after every action of a random game."""
    game = state.game
    named = state.gv["named"]
    top = zone(state, "discard")[-1]
    assert named == "" or top.startswith("8 of"), (named, top)  # only an 8 on top names a suit
    assert named in ("", "clubs", "diamonds", "hearts", "spades")
    hands = [len(zone(state, f"hand({seat})")) for seat in range(1, state.n + 1)]
    assert sum(hands) + len(zone(state, "stock")) + len(zone(state, "discard")) == len(game.card_names)
    if state.is_terminal():
        emptied = [seat for seat, size in enumerate(hands) if size == 0]
        assert state.winners() == (emptied or [seat for seat, size in enumerate(hands) if size == min(hands)])


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_games_keep_the_rules_and_every_invariant(eights, data):
    players = data.draw(st.integers(2, 4), label="players")
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    state = random_playout(eights, players, seed, CHEAP_CHECKS + (rules_hold,))
    assert state.is_terminal() and state.ended_by == "end game"
