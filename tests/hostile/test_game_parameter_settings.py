"""Strangers' settings of a game parameter (a variant setting named like one): a setting of another kind than
the game's value, of a table or a list, not one of its allowed values, a number too large or a text that is no
text is refused at load with one located paragraph (status 2, no traceback), and nothing is played.

The game is tests/definitions/set_parameters.yaml and its variants (tests/engine/test_variant_settings.py)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main

from conftest import REPO_ROOT

GAME = "tests/definitions/set_parameters.yaml"  # relative: the messages name it so
VARIANTS = "tests/definitions/variants/set_parameters"


@pytest.fixture(autouse=True)
def in_the_repository(monkeypatch):
    monkeypatch.chdir(REPO_ROOT)


def refused(capsys, variant: str) -> str:
    """The paragraph ``ribbit validate`` prints for a game with ``variant``; it must exit 2 without a traceback."""
    code = main(["validate", GAME, "--variant", variant])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err
    return err


def write(folder: Path, name: str, parameters: str) -> Path:
    path = folder / name
    path.write_text("variant: Test\ngame: Set Parameters\nparameters:\n" + textwrap.indent(parameters, "  "),
                    encoding="utf-8")
    return path


def test_a_text_setting_of_a_whole_number_parameter_is_refused_at_its_default(capsys, tmp_path):
    path = write(tmp_path, "five.yaml", "hand_size: {default: five, one_of: [five, seven]}\n")
    assert refused(capsys, str(path)) == (
        f"{path}:4:24: parameters.hand_size.default: the default 'five' is a text, but the setting sets the game "
        f"parameter 'hand_size' ({GAME}:10:3), which is a whole number (2): a setting of a game parameter is of "
        "that parameter's kind\n"
        "      hand_size: {default: five, one_of: [five, seven]}\n"
        "                           ^\n")


def test_a_whole_number_setting_of_a_true_false_parameter_is_refused_at_its_default(capsys, tmp_path):
    path = write(tmp_path, "one.yaml", "doubled: {default: 1}\n")
    assert refused(capsys, str(path)).splitlines()[0] == (
        f"{path}:4:22: parameters.doubled.default: the default 1 is a whole number, but the setting sets the game "
        f"parameter 'doubled' ({GAME}:12:3), which is true/false (false): a setting of a game parameter is of that "
        "parameter's kind")


def test_a_setting_named_like_a_table_parameter_is_refused_it_has_no_one_value(capsys, tmp_path):
    path = write(tmp_path, "tables.yaml", "tables_by_count: {default: 2}\n")
    assert refused(capsys, str(path)) == (
        f"{path}:4:3: parameters.tables_by_count: the setting 'tables_by_count' would set the game parameter "
        f"'tables_by_count' ({GAME}:14:3), which is a table (a mapping of keys to values), not one value: a setting "
        "sets only a parameter holding one whole number, true/false or text; give the setting a name of its own and "
        "read it in the rules that read 'tables_by_count'\n"
        "      tables_by_count: {default: 2}\n"
        "      ^\n")


def test_a_setting_named_like_a_list_parameter_is_refused_it_has_no_one_value(capsys, tmp_path):
    path = write(tmp_path, "seats.yaml", "seat_names: {default: first, one_of: [first, second]}\n")
    assert refused(capsys, str(path)).splitlines()[0] == (
        f"{path}:4:3: parameters.seat_names: the setting 'seat_names' would set the game parameter 'seat_names' "
        f"({GAME}:15:3), which is a list, not one value: a setting sets only a parameter holding one whole number, "
        "true/false or text; give the setting a name of its own and read it in the rules that read 'seat_names'")


def test_a_value_not_among_the_allowed_ones_is_refused_listing_them(capsys):
    assert refused(capsys, "hand:hand_size=4") == (
        f"{VARIANTS}/hand.yaml:5:3: parameters.hand_size: '4' is not an allowed value of parameter 'hand_size' "
        "(given as hand:hand_size=4); allowed: 1, 2, 3, 5\n"
        "      hand_size:\n"
        "      ^\n")


@pytest.mark.parametrize("number", ["99999999999999999999", "1000000000000000000", "-1000000000000000000"])
def test_a_number_too_large_for_a_rule_is_refused_before_the_allowed_values(capsys, tmp_path, number):
    any_size = write(tmp_path, "any.yaml", "hand_size: {default: 2}\n")
    for variant, name, where in ((f"hand:hand_size={number}", "hand", f"{VARIANTS}/hand.yaml:5:3"),
                                 (f"{any_size}:hand_size={number}", "any", f"{any_size}:4:3")):
        assert refused(capsys, variant).splitlines()[0] == (
            f"{where}: parameters.hand_size: '{number}' cannot be the value of parameter 'hand_size' (given as "
            f"{name}:hand_size={number}): this number is too large: whole numbers in a definition have at most 18 "
            "digits (numbers in rules stay within 10^18)")


def test_a_text_setting_holding_a_lone_surrogate_is_refused_and_shown_escaped(capsys):
    err = refused(capsys, "scores:greeting=ok\udcff")
    assert err.splitlines()[0] == (
        f"{VARIANTS}/scores.yaml:8:3: parameters.greeting: 'ok\\udcff' cannot be the value of parameter 'greeting' "
        "(given as scores:greeting=ok\\udcff): this is not text: it holds \\udcff, which is not a character (half "
        "of a UTF-16 pair, or a byte that is not UTF-8 text); write text in UTF-8")
    assert "\udcff" not in err
