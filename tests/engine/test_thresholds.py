"""threshold(table, n): the value for the highest key at most n, or 0 (tests/definitions/thresholds.yaml)."""

from __future__ import annotations

import pytest

from interpreter import DefinitionError, RuleError, load_game
from test_list_properties import evaluate
from test_mechanisms import line_of, load, write_definition


@pytest.mark.parametrize("n, value", [(-1, 0), (0, 0), (1, 1), (2, 3), (3, 5), (4, 7), (9, 7)])
def test_threshold_of_a_parameter_table_takes_the_highest_key_reached(n, value):
    state = load("thresholds").new_game(1, 0)
    assert evaluate(state, f"threshold(ladder, {n})") == value


@pytest.mark.parametrize("n, value", [(1, 0), (2, 2), (3, 2), (4, 6), (5, 6)])
def test_threshold_of_a_card_property_table(n, value):
    state = load("thresholds").new_game(1, 0)
    assert evaluate(state, f"threshold(c.steps, {n})", c="crest") == value
    assert evaluate(state, f"threshold(c.steps, {n})", c="red") == 0  # an empty table: 0


def test_a_game_scores_with_both_ladders():
    game = load("thresholds")
    state = game.new_game(1, 0)
    for name in ("red", "red", "crest", "red"):
        state.apply(0, f"take {name}")
    assert state.is_terminal()
    assert state.scores() == [5 + 6]  # three reds on the ladder; the crest in a pile of 4


def test_a_table_of_other_keys_is_a_located_load_error(tmp_path):
    path = write_definition(tmp_path, "bad_ladder", "thresholds", "ladder: {1: 1, 2: 3, 3: 5, 4: 7}",
                            "ladder: {1: 1, two: 3}")
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert ("threshold() reads tables of whole numbers, like {1: 1, 3: 5}; this table has '1': 1 "
            "(its keys are numbers only if every key is one)") in info.value.message
    assert info.value.location.line == line_of(path, "reds: ")


def test_a_card_table_of_other_values_is_a_located_load_error(tmp_path):
    path = write_definition(tmp_path, "bad_crest", "thresholds", "steps: {2: 2, 4: 6}", 'steps: {2: 2, 4: "six"}')
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert "property 'steps': the values of a table must all be of one kind" in info.value.message
    assert info.value.location.line == line_of(path, 'steps: {2: 2, 4: "six"}')  # at the card, before any rule reads it


def test_threshold_of_something_else_is_a_located_load_error(tmp_path):
    path = write_definition(tmp_path, "not_a_table", "thresholds", "threshold(ladder,", "threshold(size(pile(p)),")
    with pytest.raises(DefinitionError, match="argument 1 of threshold\\(\\) must be a table such as"):
        load_game(path)


def test_a_table_of_tables_of_texts_is_refused_where_threshold_reads_it(tmp_path):
    path = write_definition(tmp_path, "late_table", "thresholds", "ladder: {1: 1, 2: 3, 3: 5, 4: 7}",
                            'ladder: {1: 1, 2: 3, 3: 5, 4: 7}\n  ladders: {1: {1: "w"}, 2: {1: "x"}}')
    path.write_text(path.read_text().replace("threshold(ladder,", "threshold(ladders[player_count],"))
    with pytest.raises(DefinitionError, match="argument 1 of threshold\\(\\) must be a table such as") as info:
        load_game(path)
    assert "not a table of texts" in info.value.message
