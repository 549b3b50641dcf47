"""Broken Top Frog house rules (tests/variants/tf_*.yaml, each a small variant of definitions/top_frog.yaml):
refused with file:line:col before anything runs, or, when the fault only shows in play (an event chain or a
loop with no end), stopped by the step budget with a rule error located in the variant and the game put back
exactly where it was before the action.
"""

from __future__ import annotations

import json

import pytest

from conftest import REPO_ROOT, zone
from interpreter import DefinitionError, RuleError, load_game

TOP_FROG = REPO_ROOT / "definitions" / "top_frog.yaml"
VARIANTS = REPO_ROOT / "tests" / "variants"


def with_variant(name):
    return load_game(TOP_FROG, variants=[str(VARIANTS / f"{name}.yaml")])


@pytest.mark.parametrize("name, where, message", [
    ("tf_unknown_name", "tf_unknown_name.yaml:7:44: replace.components[0].when_placed",
     "unknown function 'gain_abilty'; did you mean 'gain_ability'?"),
    ("tf_wrong_kind", "tf_wrong_kind.yaml:14:38: replace.components[0].when_stacked_on",
     "argument 'n' of gain() must be a number, not a text"),
], ids=["unknown name", "wrong kind"])
def test_a_broken_ability_is_refused_at_load_with_its_place(name, where, message):
    with pytest.raises(DefinitionError) as info:
        with_variant(name)
    text = str(info.value)
    assert where in text and message in text
    assert "Traceback" not in text and "^" in text  # one paragraph with a caret under the bad text


def position_in(game, tf_table, **layout):
    """A ``tf_table`` position (built on the plain game) laid out in ``game`` (the variant)."""
    scenario = tf_table(**layout).to_json()["scenario"]
    return game.new_game(layout.get("players", 3), seed=0, scenario=scenario)


def fails_and_rewinds(state, seat, action, where):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(RuleError) as info:
        state.apply(seat, action)
    text = str(info.value)
    assert where in text, text
    assert json.dumps(state.to_json(), sort_keys=True) == before, "the failed action left the game changed"
    return text


def test_an_ability_that_triggers_itself_forever_stops_located_and_rewinds(tf_table):
    game = with_variant("tf_endless_stacking")
    state = position_in(game, tf_table, players=3, cells={"r2c2": "Groom"}, meeples={1: "r2c2", 2: "r4c4", 3: "r4c4"},
                        zones={"stack2(1)": ["Bride"]})
    for seat in (0, 1, 2):
        state.apply(seat, "play Catch" if seat == 0 else "play Rest")
    assert state.legal_actions(0)[:2] == ["place Groom on stack 1", "place Groom on stack 2"]
    text = fails_and_rewinds(state, 0, "place Groom on stack 2",
                             "tf_endless_stacking.yaml:17:9: replace.components[0].when_stacked_on: effects ran to")
    assert "(an endless chain of events?)" in text and "emit stacked_on(" in text
    assert zone(state, "stack2(1)") == ["Bride"] and zone(state, "caught(1)") == ["Groom"]
    state.apply(0, "place Groom on stack 1")  # the game goes on by another way
    assert zone(state, "stack1(1)")[-1] == "Groom"


def test_a_rule_that_loops_forever_stops_located_and_rewinds(tf_table):
    game = with_variant("tf_endless_rest")
    state = position_in(game, tf_table, players=3)
    state.apply(0, "play Rest")
    state.apply(1, "play Rest")
    text = fails_and_rewinds(state, 2, "play Rest", "tf_endless_rest.yaml:6:5: after.resolve_rests: "
                                                    "this loop ran too long without a decision (an endless loop?)")
    assert "loop:" in text
    assert state.current_players() == [2] and state.prompt() == "play"
