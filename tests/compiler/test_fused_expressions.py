"""Common expression shapes are compiled to one fused closure each; fusing must not change their value.

Each case evaluates the same comparison on hand-built zones and checks it
against the count worked out here, for a shared zone and a per-player zone.
"""

from __future__ import annotations

import pytest

from interpreter import load_game
from turn_games import TURN_END


GAME = """game: Fused
players: {min: 2, max: 2}
properties: {big: false}
components:
  - {name: big, big: true, count: 8, zone: box}
  - {name: small, count: 8, zone: box}
zones: {box: {}, pile: {}, hand: {per: player}}
game_variables: {pile_test: false, hand_test: false}
procedures:
  take_turn(player p): |
    game.pile_test = count(each c in pile where c.big) TEST
    game.hand_test = count(each c in hand(p) where c.big) TEST
""" + TURN_END

TESTS = {">= 1": lambda n: n >= 1, "> 0": lambda n: n > 0, ">= 2": lambda n: n >= 2,
         "== 0": lambda n: n == 0, "< 1": lambda n: n < 1, "!= 3": lambda n: n != 3}
PILES = [[], ["small"], ["big"], ["small", "small", "big"], ["big", "small", "small"],
         ["big", "big", "small", "big"]]


@pytest.mark.parametrize("test", TESTS)
def test_counting_cards_with_a_fixed_property_against_a_number(tmp_path, test):
    path = tmp_path / "fused.yaml"
    path.write_text(GAME.replace("TEST", test), encoding="utf-8")
    game = load_game(path)
    for cards in PILES:
        state = game.new_game(2, seed=0, scenario={"zones": {"pile": cards, "hand(1)": cards}})
        expected = TESTS[test](cards.count("big"))
        assert (state.gv["pile_test"], state.gv["hand_test"]) == (expected, expected), (test, cards)


PER_CALL = """game: PerCall
players: {min: 2, max: 2}
properties: {colour: none}
components:
  - {name: red, colour: red, count: 3, zone: pile}
  - {name: blue, colour: blue, count: 1, zone: pile}
zones: {pile: {}}
game_variables: {reds: 0, blues: 0}
functions:
  of_colour(str wanted): count(each c in pile where c.colour == wanted)
procedures:
  take_turn(player p): |
    game.reds = of_colour("red")
    game.blues = of_colour("blue")
""" + TURN_END


def test_a_function_tabulated_for_one_argument_is_not_reused_for_another(tmp_path):
    path = tmp_path / "per_call.yaml"
    path.write_text(PER_CALL, encoding="utf-8")
    state = load_game(path).new_game(2, seed=0)
    assert (state.gv["reds"], state.gv["blues"]) == (3, 1)


ADDING = """game: Adding
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {g: 10, out: 0}
player_variables: {v: 100}
procedures:
  take_turn(player p): |
    let k = 4
    let n = 50
    n += 3
    n -= k
    game.g -= 2
    game.g += k
    p.v += 7
    p.v -= k
    next_player(p).v -= 1
    game.out = n
""" + TURN_END


def test_adding_and_subtracting_fixed_and_computed_amounts(tmp_path):
    path = tmp_path / "adding.yaml"
    path.write_text(ADDING, encoding="utf-8")
    state = load_game(path).new_game(2, seed=0)
    assert (state.gv["out"], state.gv["g"], state.pv["v"]) == (50 + 3 - 4, 10 - 2 + 4, [100 + 7 - 4, 100 - 1])


MATCHING = """game: Matching
players: {min: 2, max: 2}
properties: {colour: none}
components:
  - {name: red, colour: red, count: 3, zone: box}
  - {name: blue, colour: blue, count: 3, zone: box}
zones: {box: {}, pile: {}}
game_variables: {answers: []}
functions:
  matches(card c): any(each h in pile where h != c and h.colour == c.colour)
procedures:
  take_turn(player p): |
    for card in [each c in box]:
      game.answers = game.answers + [matches(card)]
""" + TURN_END


@pytest.mark.parametrize("pile, expected", [([], [False] * 4), (["red"], [True, True, False, False]),
                                            (["blue", "red"], [True, True, True, True])])
def test_a_function_of_two_cards_inlined_with_the_callers_card_gives_each_cards_answer(tmp_path, pile, expected):
    """The condition of 'matches(card)' is tabulated per pair of cards (the caller's local is its second card)."""
    path = tmp_path / "matching.yaml"
    path.write_text(MATCHING, encoding="utf-8")
    state = load_game(path).new_game(2, seed=0, scenario={"zones": {"pile": pile, "box": ["red", "red", "blue", "blue"]}})
    assert state.gv["answers"][:4] == expected
