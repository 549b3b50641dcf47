"""A scan that reads nothing that changes (``each sp in spaces: pile(sp)``) is worked out once at load
(ExpressionLowering.fixed_list): at run time it pays the steps its scan would pay, at the same place,
and hands out a copy of the list."""

from __future__ import annotations

import pytest

from interpreter import CompileOptions, RuleError, load_game
from interpreter.runtime import values as X

GAME = """\
game: Token ring
players: {min: 1, max: 1}
limits: {steps: 1000}
components:
  - {name: red token, zone: supply}
  - {name: blue token, zone: supply}
  - {name: green token, zone: supply}
board:
  ring: {spaces: [a, b, c]}
zones:
  supply: {}
  pile: {per: space}
game_variables:
  chosen: ""
functions:
  piles(): "[each sp in spaces: pile(sp)]"
  others(str x): "[each sp in spaces where sp != x]"
procedures:
  take_turn(player p): |
    let not_a = others("a")
    log "{flatten(piles())} on {size(piles())} piles; not a: {not_a}"
    ask p to choose one of ["x", "y"] as c "say"
    end game
flow:
  - turn: take_turn
"""


def load(tmp_path, text=GAME, options=None):
    path = tmp_path / "ring.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(path, options=options) if options is not None else load_game(path)


def function_code(game, name):
    source = game.code.source()
    start = source.index(f"# expression at functions.{name}(")
    return source[start:source.index("\n\n", start)]


def test_a_scan_of_fixed_data_is_worked_out_at_load_and_one_reading_a_variable_is_not(tmp_path):
    own = CompileOptions(inline=False)  # (calls not inlined: each function has code of its own to read)
    fixed = function_code(load(tmp_path, options=own), "piles")
    assert " for " not in fixed and "[" not in fixed.split("return", 1)[1].replace("K[", "")  # one helper call, no list made
    assert " for " in function_code(load(tmp_path, options=CompileOptions(tables=False, inline=False)), "piles")
    assert " for " in function_code(load(tmp_path, options=own), "others")  # reads its parameter x: made at run time


def test_a_fixed_scan_gives_the_same_list_and_pays_the_same_steps(tmp_path):
    start = {"zones": {"pile(b)": ["red token", "blue token"], "pile(c)": ["green token"]}}
    on = load(tmp_path).new_game(1, scenario=start)
    off = load(tmp_path, options=CompileOptions(tables=False)).new_game(1, scenario=start)
    assert on.log == off.log == ["red token, blue token, green token on 3 piles; not a: b, c"]
    assert on.steps == off.steps < 1000


def test_a_fixed_scan_hands_out_a_new_copy_each_time():
    class State:
        steps = 10
    fixed = [3, 4, 5]
    got = X.paid_fixed(State, 3, fixed, None)
    assert got == fixed and got is not fixed and State.steps == 7


def test_a_fixed_scan_over_the_step_budget_is_the_same_located_error(tmp_path):
    spaces = ", ".join(f"s{i}" for i in range(101))
    text = GAME.replace("limits: {steps: 1000}", "limits: {steps: 100}").replace("[a, b, c]", f"[{spaces}]")
    text = text.replace('let not_a = others("a")', 'let not_a = 0\n    log "{size(piles())}"')
    errors = []
    for options in (CompileOptions(), CompileOptions(tables=False)):
        with pytest.raises(RuleError) as info:
            load(tmp_path, text, options).new_game(1)
        errors.append(str(info.value))
    assert errors[0] == errors[1]
    assert "ring.yaml:16:" in errors[0] and "each sp in spaces: pile(sp)" in errors[0], errors[0]
