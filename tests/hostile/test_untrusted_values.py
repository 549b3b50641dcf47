"""Values from a definition or a user that no check foresaw: located errors, bounded messages, never a traceback.

Found by fuzzing hostile inputs: a parameter table mixing numbers and mappings, a
100 000-digit integer, a 20 000-character key, an unreadable definition.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import DefinitionError, DSLTypeError, RuleError, load_game
from interpreter.cli import main
from interpreter.errors import quote, shorten
from interpreter.loader.source import MAX_DIGITS, read_yaml_text
from test_errors import TINY_DUEL

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, text, name="game.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def flower_copy(tmp_path):
    """A copy of Frog Tower and its variants, to break the Flower Collection's table in."""
    shutil.copytree(ROOT / "definitions", tmp_path / "definitions")
    return tmp_path / "definitions" / "variants" / "frog_tower" / "flower.yaml"


# ---------------------------------------------------------------- 1. constants have one exact kind
def test_a_parameter_table_mixing_numbers_and_a_mapping_is_refused_at_load_naming_the_parameter(capsys, flower_copy):
    text = flower_copy.read_text(encoding="utf-8")
    flower_copy.write_text(text.replace("{0: 0, 1: 0,", "{0: 0, 1: {a: 1},"), encoding="utf-8")
    code, out, err = run(capsys, "simulate", flower_copy, "--players", 3, "--games", 2, "--seed", 0)
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[0] == (
        f"{flower_copy}:12:30: add.parameters.flower_points[1]: parameter 'flower_points': the values of a table "
        "must all be of one kind, but this one is a table of numbers and the one at 0 is a number")


def test_a_whole_number_written_with_a_point_is_not_a_constant(tmp_path):
    path = write(tmp_path, TINY_DUEL.replace("properties:\n", "parameters:\n  bonus: {1: 2.5}\nproperties:\n"))
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert str(info.value).splitlines()[0] == (
        f"{path}:4:14: parameters.bonus[1]: parameter 'bonus': this is not a whole number "
        "(numbers in a definition are whole numbers)")


def test_a_count_written_as_a_float_is_not_a_whole_number_to_the_schema(tmp_path):
    path = write(tmp_path, TINY_DUEL.replace("count: 4,", "count: 4.0,"))
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert str(info.value).splitlines()[0] == (
        f"{path}:8:35: components[2].count: expected a whole number, not the number 4.0; numbers in a definition "
        "are whole numbers")


def test_a_table_of_tables_of_texts_reads_as_text_so_scoring_with_it_is_refused_at_load(tmp_path):
    text = TINY_DUEL.replace("properties:\n", "parameters:\n  names: {1: {1: one}}\nproperties:\n")
    path = write(tmp_path, text.replace("score: p.points", "score: names[1][1]"))
    with pytest.raises(DSLTypeError, match=r"scoring\.score"):
        load_game(path)


def test_a_table_of_numbers_is_number_valued_and_a_missing_entry_is_a_located_rule_error(tmp_path):
    text = TINY_DUEL.replace("properties:\n", "parameters:\n  bonus: {0: 5, 1: {2: 7}}\nproperties:\n")
    text = text.replace("{0: 5, 1: {2: 7}}", "{1: {2: 7}}").replace("score: p.points", "score: bonus[1][p.points]")
    game = load_game(write(tmp_path, text))
    state = game.new_game(2, 0)
    while not state.is_terminal():
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    with pytest.raises(RuleError, match=r"scoring\.score: the table has no entry \d+ \(it has 2\)"):
        state.scores()


# ---------------------------------------------------------------- 1b. scoring outside apply
FAILING_SCORE = TINY_DUEL.replace("  plays: 0\n", "  plays: 0\n  missing: {default: null, kind: any}\n") \
    .replace("score: p.points", "score: game.missing + 1")


def test_a_score_that_fails_after_the_last_action_is_a_located_rule_error(tmp_path):
    path = write(tmp_path, FAILING_SCORE)
    state = load_game(path).new_game(2, 0)
    while not state.is_terminal():
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    for read in (state.scores, state.winners, state.returns, lambda: state.view(0)):
        with pytest.raises(RuleError) as info:
            read()
        assert str(info.value).splitlines()[0] == (
            f"{path}:33:10: scoring.score: '+' cannot work on none and a number (is a value none here?)")


def test_a_score_that_is_not_a_number_is_a_located_rule_error(tmp_path):
    path = write(tmp_path, FAILING_SCORE.replace("game.missing + 1", "game.missing"))
    state = load_game(path).new_game(2, 0)
    while not state.is_terminal():
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    with pytest.raises(RuleError, match=r"scoring\.score: the score is not a whole number for player 0 \(it is None\)"):
        state.winners()


@pytest.mark.parametrize("command", [["simulate", "--games", 2], ["play", "--seed", 0]])
def test_simulate_and_play_report_a_failing_score_with_status_2_and_no_traceback(capsys, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)  # play writes its log in the current folder: never into the checkout
    path = write(tmp_path, FAILING_SCORE)
    code, out, err = run(capsys, command[0], path, "--players", 2, *command[1:])
    assert code == 2 and "Traceback" not in err
    assert "scoring.score: '+' cannot work on none and a number" in err


# ---------------------------------------------------------------- 2. numbers a game cannot mean
def test_a_hundred_thousand_digit_integer_is_a_located_definition_error_not_a_traceback(tmp_path):
    path = write(tmp_path, TINY_DUEL.replace("max: 2}", "max: " + "9" * 100_000 + "}"))
    result = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate", str(path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0] == (
        f"{path}:2:24: players.max: the number {'9' * 60}... (100000 characters) is too large: whole numbers "
        f"in a definition have at most {MAX_DIGITS} digits")
    assert result.stderr.splitlines()[2] == " " * 27 + "^"


@pytest.mark.parametrize("text, message", [
    ("a: 1234567890123456789", "the number 1234567890123456789 is too large"),
    ("a: 0x" + "f" * 40, "the number 0x" + "f" * 40 + " is too large"),
    ("a: " + ":".join(["1"] * 30_000), "the number " + "1:" * 30 + "... (59999 characters) is too large"),
    ("t: {1: 2, 99999999999999999999: 3}", "the number 99999999999999999999 is too large"),
    ("a: .inf", "the number .inf is not a finite whole number"),
    ("a: -.Inf", "the number -.Inf is not a finite whole number"),
    ("a: .NaN", "the number .NaN is not a finite whole number"),
])
def test_numbers_beyond_the_documented_bound_or_infinite_are_located_errors(text, message):
    with pytest.raises(DefinitionError) as info:
        read_yaml_text(text, "x.yaml")
    assert message in str(info.value) and str(info.value).startswith("x.yaml:1:")


def test_numbers_up_to_the_bound_still_read():
    assert read_yaml_text("a: 999999999999999999\nb: -0x7f\nc: 1_000\n").data == {"a": 999999999999999999,
                                                                               "b": -127, "c": 1000}


# ---------------------------------------------------------------- 3. messages quote bounded text
def test_quoting_helpers_cut_long_text_and_say_how_long_it_was():
    assert shorten("x" * 61) == "x" * 60 + "... (61 characters)"
    assert quote("x" * 100) == repr("x" * 60) + "... (100 characters)"
    assert quote({"a": 1}) == "{'a': 1}" and quote(2 ** 100) == "a 101-bit number"


def test_a_twenty_thousand_character_variant_key_is_not_echoed_whole(capsys, flower_copy):
    variant = flower_copy.with_name("long.yaml")
    variant.write_text("variant: Long\ngame: Frog Tower\nreplace:\n  parameters:\n    ? " + "x" * 20_000 + "\n    : 1\n",
                       encoding="utf-8")
    code, out, err = run(capsys, "validate", variant)
    assert code == 2 and "Traceback" not in err and len(err) < 1000
    assert err.splitlines()[0] == (
        f"{variant}:5:7: replace.parameters.{'x' * 101}... (20019 characters): there is no parameter "
        f"'{'x' * 60}'... (20000 characters) to replace in 'Frog Tower' (looked in "
        f"{flower_copy.parents[2] / 'frog_tower.yaml'})")


def test_an_unknown_top_level_key_of_twenty_thousand_characters_is_cut_in_the_schema_message(capsys, tmp_path):
    path = write(tmp_path, TINY_DUEL + "? " + "k" * 20_000 + "\n: 1\n")
    code, out, err = run(capsys, "validate", path)
    assert code == 2 and len(err) < 1000
    assert f"unknown key '{'k' * 60}'... (20000 characters); expected one of:" in err


def test_dsl_errors_quote_a_hundred_thousand_character_name_cut_and_window_the_line(capsys, tmp_path):
    path = write(tmp_path, TINY_DUEL.replace("  shuffle deck\n", "  shuffle deck\n  x = " + "a" * 100_000 + "\n"))
    code, out, err = run(capsys, "validate", path)
    assert code == 2 and len(err) < 1000
    assert err.splitlines()[0] == f"{path}:28:7: setup: unknown name '{'a' * 60}'... (100000 characters)"
    path = write(tmp_path, TINY_DUEL.replace("  shuffle deck\n", "  shuffle deck\n  x = 1 " + "a" * 100_000 + "\n"))
    code, out, err = run(capsys, "validate", path)
    assert code == 2 and len(err) < 1000 and "(100000 characters)" in err


def test_a_megabyte_action_is_cut_in_the_illegal_action_message():
    state = load_game(ROOT / "definitions" / "frog_tower.yaml").new_game(3, 0)
    from interpreter import IllegalActionError
    with pytest.raises(IllegalActionError) as info:
        state.apply(state.current_players()[0], "z" * 1_000_000)
    assert len(str(info.value)) < 2000 and "(1000000 characters)" in str(info.value)


# ---------------------------------------------------------------- 4. say what failed
def test_an_os_error_while_reading_the_definition_says_cannot_read_not_cannot_write(capsys, monkeypatch):
    def unreadable(path, variants=None, verbose=False):
        raise PermissionError(13, "Permission denied", "/games/secret.yaml")
    monkeypatch.setattr("interpreter.cli.load_game", unreadable)
    code, out, err = run(capsys, "validate", "/games/secret.yaml")
    assert code == 2
    assert err == "ribbit validate: error: cannot read the definition /games/secret.yaml: Permission denied\n"


def test_quoted_lists_and_mappings_show_their_items_when_short_and_their_size_when_long():
    assert quote([1]) == "[1]"
    assert quote({"a": [1, 2]}) == "{'a': [1, 2]}"
    assert quote(list(range(100))) == "a list of 100 items"
    assert quote({"x" * 100: 1}) == "a mapping of 1 item"
