"""Crazy Eights house rules (definitions/variants/crazy_eights/) on the game's joints: must play (may_draw), draw
two (a hook after 'play') and queens skip (hooks on 'play' and 'take_turn'), each from a hand-built position beside
the plain game.  Positions are built as in test_crazy_eights_rules.py; seats are 0-based."""

from __future__ import annotations

import random

import pytest

from interpreter import load_game

from conftest import REPO_ROOT, zone
from test_crazy_eights_rules import position

GAME = REPO_ROOT / "definitions" / "crazy_eights.yaml"
HOUSE_RULES = ["must_play", "draw_two", "queen_skips"]


@pytest.fixture(scope="module")
def games():
    found = {name: load_game(GAME, variants=[name]) for name in HOUSE_RULES}
    found["plain"] = load_game(GAME)
    return found


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_is_under_15_lines_and_copies_no_procedure(name):
    text = (REPO_ROOT / "definitions" / "variants" / "crazy_eights" / f"{name}.yaml").read_text()
    assert len(text.splitlines()) < 18 and "procedures" not in text
    rule = [line for line in text.splitlines() if not line.startswith(("#", "variant:", "game:", "description:"))]
    assert len(rule) <= 15


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_validates_on_its_own(name, capsys):
    from interpreter.cli import main

    path = REPO_ROOT / "definitions" / "variants" / "crazy_eights" / f"{name}.yaml"
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"OK {path} (a variant of ")


# ---------------------------------------------------------------- must play
def test_a_player_who_can_play_may_not_draw(games):
    zones = {"discard": ["9 of hearts"], "hand(1)": ["2 of hearts", "3 of clubs", "9 of spades"],
             "hand(2)": ["4 of clubs"]}
    assert position(games["must_play"], zones=zones).legal_actions(0) == ["play 2 of hearts", "play 9 of spades"]
    assert position(games["plain"], zones=zones).legal_actions(0) == ["play 2 of hearts", "play 9 of spades",
                                                                     "draw a card"]


def test_a_player_who_cannot_play_still_draws(games):
    zones = {"discard": ["9 of hearts"], "hand(1)": ["3 of clubs", "4 of clubs"], "hand(2)": ["5 of hearts", "9 of clubs"]}
    state = position(games["must_play"], zones=zones, stock_top=["king of spades"])
    # Drawing is the only option: the engine takes it without asking, and the king is kept.
    assert state.current_players() == [1]
    assert zone(state, "hand(1)") == ["3 of clubs", "4 of clubs", "king of spades"]


# ---------------------------------------------------------------- draw two
def test_a_two_makes_the_next_player_draw_two_cards(games):
    zones = {"discard": ["9 of hearts"], "hand(1)": ["2 of hearts", "3 of clubs"],
             "hand(2)": ["4 of hearts", "5 of hearts"], "hand(3)": ["6 of diamonds"]}
    state = position(games["draw_two"], players=3, zones=zones, stock_top=["king of spades", "jack of clubs"])
    state.apply(0, "play 2 of hearts")
    assert zone(state, "hand(2)") == ["4 of hearts", "5 of hearts", "king of spades", "jack of clubs"]
    assert zone(state, "hand(3)") == ["6 of diamonds"] and state.current_players() == [1]
    assert "player 2 must draw two." in state.log
    plain = position(games["plain"], players=3, zones=zones, stock_top=["king of spades", "jack of clubs"])
    plain.apply(0, "play 2 of hearts")
    assert zone(plain, "hand(2)") == ["4 of hearts", "5 of hearts"]


def test_a_two_that_empties_the_hand_wins_without_a_draw(games):
    zones = {"discard": ["9 of hearts"], "hand(1)": ["2 of hearts"], "hand(2)": ["4 of clubs"]}
    state = position(games["draw_two"], zones=zones)
    state.apply(0, "play 2 of hearts")
    assert state.is_terminal() and state.winners() == [0] and zone(state, "hand(2)") == ["4 of clubs"]


# ---------------------------------------------------------------- queens skip
def test_a_queen_skips_the_next_player(games):
    zones = {"discard": ["9 of hearts"], "hand(1)": ["queen of hearts", "3 of hearts", "7 of hearts"],
             "hand(2)": ["4 of hearts", "5 of spades"], "hand(3)": ["6 of hearts", "6 of clubs"]}
    state = position(games["queen_skips"], players=3, zones=zones)
    state.apply(0, "play queen of hearts")
    assert state.current_players() == [2] and "player 2 is skipped." in state.log
    assert zone(state, "hand(2)") == ["4 of hearts", "5 of spades"]
    state.apply(2, "play 6 of hearts")
    assert state.current_players() == [0]  # the skip was used up: the order goes on as usual
    plain = position(games["plain"], players=3, zones=zones)
    plain.apply(0, "play queen of hearts")
    assert plain.current_players() == [1]


def test_house_rules_together_play_whole_games_to_the_end():
    game = load_game(GAME, variants=HOUSE_RULES)
    for seed in range(5):
        state = game.new_game(3, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if state.is_terminal():
                break
            seat = state.current_players()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.is_terminal()
