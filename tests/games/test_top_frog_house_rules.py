"""Top Frog house rules (definitions/variants/top_frog/): a bonus for tall Stacks and for held Frogs (score terms
over the game's own functions) and a round limit (a hook after 'end_of_round').  Positions are built with the
tf_table builder of conftest.py and played under the variant from the same scenario, beside the plain game."""

from __future__ import annotations

import random

import pytest

from interpreter import load_game

from conftest import REPO_ROOT

GAME = REPO_ROOT / "definitions" / "top_frog.yaml"
HOUSE_RULES = ["tall_stacks", "held_frogs_count", "round_limit"]


@pytest.fixture(scope="module")
def games():
    return {name: load_game(GAME, variants=[name]) for name in HOUSE_RULES}


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_is_under_15_lines_and_copies_no_procedure(name):
    text = (REPO_ROOT / "definitions" / "variants" / "top_frog" / f"{name}.yaml").read_text()
    assert len(text.splitlines()) < 15 and "procedures" not in text


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_validates_on_its_own(name, capsys):
    from interpreter.cli import main

    path = REPO_ROOT / "definitions" / "variants" / "top_frog" / f"{name}.yaml"
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"OK {path} (a variant of ")


def ended(tf_table, game, zones, players=3):
    """The game ends at once (as in test_top_frog_rules.final_scores: everyone Catches the Hat Coupon on r2c2,
    the Squander sends it away and the River is empty), played under ``game`` from the same position."""
    hands = {s: ["Catch"] for s in range(1, players + 1)}
    meeples = {s: "r2c2" for s in range(1, players + 1)}
    plain = tf_table(players, cells={"r2c2": "Hat Coupon"}, meeples=meeples, hands=hands, zones=zones, river=[],
                     display=("Crown",))
    state = game.new_game(players, seed=0, scenario=plain.scenario)
    for each in (plain, state):  # a player holding a Frog could play it instead: everyone plays Catch
        while not each.is_terminal():
            seat = each.current_players()[0]
            each.apply(seat, "play Catch")
    return plain, state


def test_a_stack_of_four_frogs_scores_the_tall_stack_bonus(tf_table, games):
    zones = {"stack1(1)": ["Lily Pad #1", "Groom", "Dandy", "Rose", "Daisy"],  # 4 Frogs
             "stack2(1)": ["Bride", "Baron"], "stack1(2)": ["Marquis", "Butler", "Unicorn"]}  # 2 and 3 Frogs
    plain, state = ended(tf_table, games["tall_stacks"], zones)
    assert state.scores() == [plain.scores()[0] + 3, plain.scores()[1], plain.scores()[2]]
    five = load_game(GAME, variants=["tall_stacks:tall_stack_bonus=5"])
    _, state = ended(tf_table, five, zones)
    assert state.scores()[0] == plain.scores()[0] + 5


def test_held_frogs_score_half_their_value_rounded_down(tf_table, games):
    zones = {"held(1)": ["Groom", "Rose"], "held(2)": ["Daisy"], "stack1(3)": ["Dandy"]}  # 4 + 3, 2, (4 in a Stack)
    plain, state = ended(tf_table, games["held_frogs_count"], zones)
    assert [s - p for s, p in zip(state.scores(), plain.scores())] == [3, 1, 0]


def test_the_game_ends_after_the_last_round(games):
    short = load_game(GAME, variants=["round_limit:max_rounds=3"])
    for seed in range(3):
        state = short.new_game(3, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_players()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.gv["round"] <= 3
        if state.gv["round"] == 3 and state.log[-1] == "Round 3 was the last: the game ends.":
            return
    pytest.fail("no game reached the round limit")


def test_without_the_limit_the_same_games_go_on(games):
    plain = load_game(GAME)
    state = plain.new_game(3, seed=0)
    rng = random.Random(0)
    while not state.is_terminal() and state.gv["round"] <= 3:
        seat = state.current_players()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.gv["round"] == 4 and not state.is_terminal()
