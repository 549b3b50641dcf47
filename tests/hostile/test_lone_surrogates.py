"""Texts that are not text: a lone surrogate (``\\udcff``, ``\\ud800``) is refused where it comes in.

No file can hold one (files are UTF-8), but Python lets one into a ``str``: a byte that is not UTF-8 in a
command-line argument becomes ``\\udcff``, and JSON (a save, a seats file, a web message, a lobby request)
may write ``"\\ud800"``.  Such a text cannot be written as UTF-8, so it failed far from where it came in:
the save of a game whose variant setting held one, the hash of a bot's seed (a traceback), a seat token
compared in the web server.  Each is now refused at the door, with the checks of the same value in a file.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter import DefinitionError, SaveFileError, State, load_game
from interpreter.agents import BotSpecError, make_agent, parse_bot_spec
from interpreter.cli import main
from interpreter.runtime.limits import MAX_TEXT

from tests.hostile.cases import SIZED_VARIANT

ROOT = Path(__file__).resolve().parents[2]
EIGHTS = ROOT / "definitions" / "crazy_eights.yaml"  # its game variable 'named' holds a text
NOT_UTF8 = "\udcff"  # what Python makes of the byte 0xff in a command-line argument
HALF_PAIR = "\ud800"  # what JSON's "\ud800" reads as


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def frog_tower_with_a_text_setting(tmp_path):
    shutil.copytree(ROOT / "definitions", tmp_path / "definitions")
    (tmp_path / "definitions" / "variants" / "frog_tower" / "sized.yaml").write_bytes(SIZED_VARIANT)
    return tmp_path / "definitions" / "frog_tower.yaml"


@pytest.mark.parametrize("bad", [NOT_UTF8, HALF_PAIR])
def test_a_variant_setting_that_is_not_text_is_refused_at_load_naming_the_parameter(frog_tower_with_a_text_setting,
                                                                                   bad):
    with pytest.raises(DefinitionError) as info:
        load_game(frog_tower_with_a_text_setting, variants=[f"sized:label=ok{bad}"])
    assert "sized.yaml:5:3: parameters.label:" in str(info.value)
    assert f"it holds \\u{ord(bad):04x}, which is not a character" in str(info.value)


def test_a_variant_setting_that_is_not_text_on_the_command_line_exits_2_with_one_located_paragraph(
        capsys, frog_tower_with_a_text_setting):
    code, out, err = run(capsys, "play", frog_tower_with_a_text_setting, "--players", 3, "--seed", 1, "--log", "-",
                         "--variant", f"sized:label={NOT_UTF8}")
    assert code == 2 and "Traceback" not in err and "sized.yaml:5:3: parameters.label" in err
    assert NOT_UTF8 not in err and "\\udcff" in err  # shown as an escape, never raw


@pytest.mark.parametrize("value, why", [(HALF_PAIR, "which is not a character"),
                                        ("x" * (MAX_TEXT + 1), f"at most {MAX_TEXT:,}")],
                         ids=["lone_surrogate", "too_long"])
def test_a_scenario_text_that_is_not_text_or_is_too_long_is_refused_from_the_api_and_from_a_save(value, why):
    game = load_game(EIGHTS)
    with pytest.raises(DefinitionError, match="game_variables.named: this") as info:
        game.new_game(2, seed=1, scenario={"game_variables": {"named": value}})
    assert why in str(info.value)
    save = game.new_game(2, seed=1, scenario={"game_variables": {"named": "x" * MAX_TEXT}}).to_json()
    State.from_json(game, json.loads(json.dumps(save)))  # the longest text a rule may hold is fine
    save["scenario"]["game_variables"]["named"] = value
    with pytest.raises(SaveFileError) as info:
        State.from_json(game, json.loads(json.dumps(save)))
    assert "game_variables.named" in str(info.value) and why in str(info.value)


def test_a_bot_seed_that_is_not_text_is_a_bot_spec_error_never_a_traceback(capsys):
    code, out, err = run(capsys, "simulate", EIGHTS, "--players", 2, "--games", 1, "--bot", f"2=random:seed={NOT_UTF8}")
    assert code == 2 and "Traceback" not in err and err.startswith("ribbit simulate: error: --bot '2=random:seed=")
    assert "\\udcff, which is not a character" in err
    with pytest.raises(BotSpecError, match="not a character"):
        parse_bot_spec(f"greedy:seed=a{HALF_PAIR}")
    with pytest.raises(BotSpecError, match="not a character"):
        make_agent("random", HALF_PAIR)
    assert make_agent("random", "ok")  # a text seed is fine


def test_a_seats_file_bot_seed_that_is_not_text_is_refused_at_resume_naming_the_key(capsys, tmp_path):
    pytest.importorskip("starlette", reason="serve needs the web extra")
    save = tmp_path / "game.json"
    save.write_text(json.dumps(load_game(EIGHTS).new_game(2, seed=1).to_json()), encoding="utf-8")
    seats = {"format": "ribbit-web-seats/1", "table": "T" * 12, "game_number": 1, "tokens": {"1": "A" * 32},
             "bots": {"2": ["random", {"seed": HALF_PAIR}]}}
    (tmp_path / "game.json.seats.json").write_text(json.dumps(seats), encoding="utf-8")
    code, out, err = run(capsys, "serve", EIGHTS, "--resume", save, "--save", tmp_path / "out.json",
                         "--host", "127.0.0.1", "--port", 70000)
    assert code == 2 and "Traceback" not in err
    assert "game.json.seats.json: bots.2: a bot's seed is a whole number or a text" in err


def test_only_lone_surrogates_are_not_text():
    """The check behind every refusal above: any Unicode character is text, half of a pair is not."""
    from interpreter.errors import not_text_problem

    assert not_text_problem("plain, カエル, \U0001f438, \x1b[2J") is None
    problem = not_text_problem("a" + HALF_PAIR)
    assert problem.startswith("it holds \\ud800") and "\n" not in problem
