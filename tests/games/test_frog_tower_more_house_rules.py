"""Three more Frog Tower house rules (definitions/variants/frog_tower/): a consolation card on a bust (a hook on
'distribute'), Legendary towers that score instead of winning (the score_tower joint) and a Holding area limit
(the busts question), each from a hand-built position beside the plain game.  Seats are 0-based."""

from __future__ import annotations

import pytest

from interpreter import load_game

from conftest import REPO_ROOT, garden, holding, play, points, start, towers

FLIP, STOP = "flip another card", "stop and take the cards"
GAME = REPO_ROOT / "definitions" / "frog_tower.yaml"
HOUSE_RULES = ["consolation", "legendary_points", "greedy_frog"]


@pytest.fixture(scope="module")
def games():
    found = {name: load_game(GAME, variants=[name]) for name in HOUSE_RULES}
    found["plain"] = load_game(GAME)
    return found


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_is_under_15_lines_and_copies_no_procedure(name):
    text = (REPO_ROOT / "definitions" / "variants" / "frog_tower" / f"{name}.yaml").read_text()
    assert len(text.splitlines()) < 15 and "procedures" not in text


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_validates_on_its_own(name, capsys):
    from interpreter.cli import main

    path = REPO_ROOT / "definitions" / "variants" / "frog_tower" / f"{name}.yaml"
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"OK {path} (a variant of ")


def test_the_three_load_together_with_the_earlier_house_rules():
    rules = ["leaf_to_box", "extra_card", "prince"] + HOUSE_RULES
    assert [v.split(":")[0] for v in load_game(GAME, variants=rules).variants] == rules


# ---------------------------------------------------------------- consolation card
def test_a_buster_keeps_one_card_of_their_choice_before_the_rest_is_shared(games):
    state = start(games["consolation"], 3, pond=["blue frog", "green frog", "rainbow frog", "yellow frog"])
    play(state, [(0, FLIP), (0, FLIP)])  # busts on the rainbow frog
    assert state.current_players() == [0]
    assert state.legal_actions(0) == ["keep blue frog", "keep green frog", "keep rainbow frog"]
    play(state, [(0, "keep rainbow frog")])
    assert garden(state, 0)[-1] == "rainbow frog" and holding(state) == ["blue frog", "green frog"]
    assert "player 1 keeps rainbow frog as a consolation." in state.log
    # The rest is shared out as usual, from the buster's left.
    assert state.current_players() == [1] and state.legal_actions(1) == ["take blue frog", "take green frog"]
    plain = start(games["plain"], 3, pond=["blue frog", "green frog", "rainbow frog", "yellow frog"])
    play(plain, [(0, FLIP), (0, FLIP)])
    assert plain.current_players() == [1] and len(plain.legal_actions(1)) == 3


# ---------------------------------------------------------------- Legendary points
def build_legendary(game):
    """Seat 0 holds a leaf and three blue frogs, flips the fourth blue frog and stops."""
    state = start(game, 3, pond=["blue frog", "leaf"],
                  zones={"garden(1)": ["starting leaf", "blue frog", "blue frog", "blue frog"]})
    return play(state, [(0, STOP)])


def test_a_legendary_tower_scores_points_and_the_game_goes_on(games):
    state = build_legendary(games["legendary_points"])
    assert towers(state, 0) == ["starting leaf"] + ["blue frog"] * 4
    assert not state.is_terminal() and points(state) == [10, 0, 0]
    assert state.pv["legendary"] == [False, False, False] and state.current_players() == [1]
    assert state.log[-1] == "player 1 completes a Legendary Frog Tower worth 10 points: " + \
        ", ".join(["blue frog"] * 4) + "."
    plain = build_legendary(games["plain"])
    assert plain.is_terminal() and plain.winners() == [0]
    fifteen = build_legendary(load_game(GAME, variants=["legendary_points:legendary_points=15"]))
    assert points(fifteen) == [15, 0, 0]


def test_other_towers_still_score_by_their_colours(games):
    state = start(games["legendary_points"], 3, pond=["red frog", "leaf"],
                  zones={"garden(1)": ["starting leaf", "blue frog", "blue frog", "green frog"]})
    play(state, [(0, STOP)])
    assert points(state) == [3, 0, 0]  # three colours


# ---------------------------------------------------------------- greedy frog
POND = ["green frog", "blue frog", "yellow frog", "red frog", "leaf", "blue frog"]


def test_a_fifth_card_in_the_holding_area_busts(games):
    state = start(games["greedy_frog"], 3, pond=POND)
    play(state, [(0, FLIP)] * 3)
    assert holding(state) == POND[:4] and state.current_players() == [0]
    play(state, [(0, FLIP)])  # the leaf: a fifth card, of a type not yet there
    assert state.log[-1] == "player 1 busts on leaf." and state.current_players() == [1]
    plain = start(games["plain"], 3, pond=POND)
    play(plain, [(0, FLIP)] * 4)
    assert holding(plain) == POND[:5] and plain.current_players() == [0]  # no bust: all five types differ


def test_the_holding_limit_is_a_setting(games):
    state = start(load_game(GAME, variants=["greedy_frog:holding_limit=3"]), 3, pond=POND)
    play(state, [(0, FLIP)] * 3)
    assert state.log[-1] == "player 1 busts on red frog."
