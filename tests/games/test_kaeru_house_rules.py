"""Kaeru house rules written on the game's joints (definitions/variants/kaeru/), each from a hand-built position,
with the same position in the plain game for contrast.  Positions are built as in test_kaeru_rulings.py (player 1 likes
fire, player 2 earth, water is the common goal; the gap lies between l1 and l2)."""

from __future__ import annotations

import pytest

from conftest import REPO_ROOT
from interpreter import load_game
from test_kaeru_rulings import KAERU, LARGE1, MEDIUM1, MEDIUM2, SMALL1, SMALL2, kaeru, move, options, position, zone  # noqa: F401

HOUSE_RULES = ["backwards_once", "rainbow_diet", "restless_frogs"]
USUAL, BACKWARDS = "jump the usual way", "jump backwards (once per game)"


@pytest.fixture(scope="module")
def rules():
    return {name: load_game(KAERU, variants=[name]) for name in HOUSE_RULES}


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_is_at_most_15_lines_of_rule_and_copies_no_procedure(name):
    text = (REPO_ROOT / "definitions" / "variants" / "kaeru" / f"{name}.yaml").read_text()
    rule = [line for line in text.splitlines()
            if not line.startswith(("#", "variant:", "game:", "description:"))]
    assert len(rule) <= 15 and "procedures" not in text


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_validates_on_its_own(name, capsys):
    from interpreter.cli import main

    path = REPO_ROOT / "definitions" / "variants" / "kaeru" / f"{name}.yaml"
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"OK {path} (a variant of ")


# ---------------------------------------------------------------- backwards once
def test_a_frog_may_jump_backwards_once_per_game(rules, kaeru):
    state = position(rules["backwards_once"], prey={"l1": "whole card: fire", "l2": "whole card: earth"})
    move(state, 1, SMALL1)
    assert state.legal_actions(0) == [USUAL, BACKWARDS]
    state.apply(0, BACKWARDS)
    # Player 1 jumps clockwise from the gap onto l2; backwards, the small frog lands on l1 and eats there.
    assert zone(state, "lily(l1)") == [SMALL1] and zone(state, "eaten(1)") == ["whole card: fire"]
    move(state, 2, SMALL2)
    assert state.legal_actions(1) == [USUAL, BACKWARDS]  # player 2 still has theirs
    state.apply(1, USUAL)
    assert zone(state, "lily(l1)") == [SMALL1, SMALL2]  # player 2 goes counter-clockwise: l1 is their first lily
    move(state, 1, MEDIUM1)  # no question any more for player 1: clockwise, gap -> l2 -> l3
    assert state.current_players() == [1] and zone(state, "lily(l3)") == [MEDIUM1]
    plain = position(kaeru, prey={"l1": "whole card: fire", "l2": "whole card: earth"})
    move(plain, 1, SMALL1)
    assert zone(plain, "lily(l2)") == [SMALL1] and zone(plain, "eaten(1)") == ["whole card: earth"]


def test_jumping_the_usual_way_keeps_the_turn_round_for_later(rules):
    state = position(rules["backwards_once"])
    move(state, 1, SMALL1)
    state.apply(0, USUAL)
    assert zone(state, "lily(l2)") == [SMALL1]
    move(state, 2, MEDIUM2)
    state.apply(1, USUAL)
    move(state, 1, SMALL1)
    assert state.legal_actions(0) == [USUAL, BACKWARDS]
    state.apply(0, BACKWARDS)  # from l2 back to l1
    assert zone(state, "lily(l1)") == [SMALL1]


# ---------------------------------------------------------------- rainbow diet
def test_eating_all_five_elements_scores_the_diet_bonus(rules, kaeru):
    eaten = {1: ["quarter card: all but air", "whole card: air"], 2: ["half card: air + earth"]}
    scores = {}
    for name, game in (("plain", kaeru), ("diet", rules["rainbow_diet"])):
        state = position(game, prey={"l2": "whole card: ether"}, stacks={"l2": []}, eaten=eaten)
        move(state, 1, SMALL1)  # eats the last card of l2: the game ends
        assert state.is_terminal()
        scores[name] = state.scores()
    assert scores["diet"] == [scores["plain"][0] + 3, scores["plain"][1]]
    five = load_game(KAERU, variants=["rainbow_diet:diet_bonus=5"])
    state = position(five, prey={"l2": "whole card: ether"}, stacks={"l2": []}, eaten=eaten)
    move(state, 1, SMALL1)
    assert state.scores() == [scores["plain"][0] + 5, scores["plain"][1]]


# ---------------------------------------------------------------- restless frogs
def test_the_frog_moved_last_turn_cannot_move_again_at_once(rules, kaeru):
    for game, expected in ((rules["restless_frogs"], [LARGE1, MEDIUM1]), (kaeru, [LARGE1, MEDIUM1, SMALL1])):
        state = position(game)
        move(state, 1, SMALL1)
        move(state, 2, SMALL2)
        assert options(state, 1) == expected
    state = position(rules["restless_frogs"])
    move(state, 1, SMALL1)
    move(state, 2, SMALL2)
    move(state, 1, MEDIUM1)
    move(state, 2, MEDIUM2)
    assert options(state, 1) == [LARGE1, SMALL1]  # the small frog may move again
