"""Expressions become generated Python code: located at the definition's line, author texts only as constants.

The lowering (interpreter/dsl/lower_expr.py) builds Python ``ast`` nodes for every
expression; these tests look at what it made (``ribbit debug --code``) and at how
generated code behaves when something unforeseen happens in it.
"""

from __future__ import annotations

import ast
import traceback

import pytest

from interpreter import load_game
from interpreter.dsl.options import CompileOptions
from interpreter.cli import main
from turn_games import TURN_END

NEGATE = """game: Negate
players: {min: 2, max: 2}
components:
  - {name: token, count: 1, zone: box}
zones: {box: {}}
game_variables: {total: 0}
functions:
  negative(int n): -n
procedures:
  take_turn(player p): |
    game.total = negative(3)
""" + TURN_END


def test_an_unforeseen_failure_in_generated_code_points_at_the_definitions_file_and_line(tmp_path):
    path = tmp_path / "negate.yaml"
    path.write_text(NEGATE, encoding="utf-8")
    game = load_game(path, options=CompileOptions(inline=False))  # the call is not inlined: the function has code
    state = game.new_game(2, seed=0)
    assert state.gv["total"] == -3
    negative = game.functions["negative"].fn  # the generated function of 'negative(int n): -n'
    with pytest.raises(TypeError) as info:  # '-' of a none is not checked: a plain Python error
        negative(state, {"n": None})
    frames = [(frame.filename, frame.lineno) for frame in traceback.extract_tb(info.value.__traceback__)]
    line = NEGATE.splitlines().index("  negative(int n): -n") + 1
    assert (str(path), line) in frames


def test_a_function_whose_every_call_is_inlined_gets_no_code_of_its_own(tmp_path):
    path = tmp_path / "negate.yaml"
    path.write_text(NEGATE, encoding="utf-8")
    inlined, called = load_game(path), load_game(path, options=CompileOptions(inline=False))
    assert inlined.functions["negative"].fn is None and callable(called.functions["negative"].fn)
    assert inlined.new_game(2, seed=0).gv["total"] == called.new_game(2, seed=0).gv["total"] == -3


EVIL = "__import__('os').system(\"echo owned\")\n\\"  # Python code, both quotes, a newline, a backslash
IN_RULE = "__import__('os').system('echo owned') \\"  # what a rule's "..." can hold: no double quote, no newline

# 'game.found >= 0' reads the state: that condition is code, not a per-card table filled at load, so
# its text is in the listing (as a constant).
HOSTILE = """game: Hostile
players: {min: 2, max: 2}
parameters: {evil: EVIL_YAML}
components:
  - {name: EVIL_YAML, count: 1, zone: pile}
  - {name: IN_RULE_YAML, count: 1, zone: pile}
  - {name: plain, count: 1, zone: pile}
zones: {pile: {}}
game_variables: {found: 0, written: 0, text: ""}
procedures:
  take_turn(player p): |
    game.found = count(each c in pile where c.name == evil)
    game.written = count(each c in pile where c.name == "IN_RULE" and game.found >= 0)
    game.text = top(pile).name + evil
""" + TURN_END


def yaml_quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def test_author_texts_holding_python_code_and_quotes_stay_constants(tmp_path, capsys):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE.replace("EVIL_YAML", yaml_quoted(EVIL)).replace("IN_RULE_YAML", yaml_quoted(IN_RULE))
                    .replace("IN_RULE", IN_RULE), encoding="utf-8")
    game = load_game(path)
    assert EVIL in game.card_names and IN_RULE in game.card_names
    state = game.new_game(2, seed=0, scenario={"zones": {"pile": ["plain", IN_RULE, EVIL]}})
    assert (state.gv["found"], state.gv["written"]) == (1, 1)
    assert state.gv["text"] == EVIL + EVIL  # the card on top, joined with the same text from a parameter
    assert main(["debug", "--code", str(path)]) == 0
    listing = capsys.readouterr().out
    code = "\n".join(line for line in listing.splitlines() if not line.startswith("#"))
    tree = ast.parse(code)  # the listing is Python; the texts are in it only as constants
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    temps = {n for n in names if n[0] in "tv" and n[1:].isdigit()}  # Python locals: statements (t), scans (v)
    assert "__import__" not in names and names - temps <= {"s", "e", "fr", "pc", "K", "len", "any", "all", "list",
                                                          "abs", "max", "min", "TypeError"}
    constants = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    assert EVIL in constants and IN_RULE in constants


def test_debug_code_prints_each_generated_function_after_the_rule_it_comes_from(tmp_path, capsys):
    path = tmp_path / "negate.yaml"  # (an argument that is not a local or a constant: the call is not inlined)
    path.write_text(NEGATE.replace("negative(3)", "negative(size(box) + 2)"), encoding="utf-8")
    assert main(["debug", "--code", str(path)]) == 0
    out = capsys.readouterr().out
    line = NEGATE.splitlines().index("  negative(int n): -n") + 1
    assert f"# expression at functions.negative(int n):{line}\ndef expr_" in out
    assert "return -e['n']" in out
    assert out.rstrip().endswith("entries")  # the size of the constants table closes the listing


def test_debug_code_applies_variants(capsys):
    assert main(["debug", "--code", "definitions/frog_tower.yaml"]) == 0
    base = capsys.readouterr().out
    assert main(["debug", "--code", "definitions/frog_tower.yaml", "--variant", "flower"]) == 0
    varied = capsys.readouterr().out
    assert "def expr_" in base and varied != base


def test_debug_without_what_to_show_is_a_usage_error(capsys):
    assert main(["debug", "definitions/frog_tower.yaml"]) == 2
    assert "--code" in capsys.readouterr().err
