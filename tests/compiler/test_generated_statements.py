"""Statements and procedures become generated Python functions located at the definition's lines.

A procedure that never waits is one function with Python's own control flow; a
procedure that may wait is one resumable function (a state machine over its
plain-data frame) that ``State._run`` calls at any pc.
"""

from __future__ import annotations

import ast
import dis

import pytest

from interpreter import State, load_game
from interpreter.dsl.codegen import CodeUnit
from interpreter.errors import DefinitionError
from interpreter.dsl.resumable import NEVER_ENTERED

COUNTING = """game: Counting
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {total: 0, odd: 0, rounds: 0}
procedures:
  tally(int n): |
    let i = 0
    while i < n:
      i += 1
      if i % 2 == 1:
        game.odd += 1
        continue
      for j in range(i):
        game.total += j
        if j > 2:
          break
  take_turn(player p): |
    ask p:
      "count":
        tally(game.rounds + 5)
      "skip":
        pass
    game.rounds += 1
flow:
  - phase: play
    turn: take_turn
"""


def line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def load(tmp_path, text):
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path, load_game(path)


def proc_named(game, name):
    return next(proc for proc in game.procs if proc.name == name)


def test_a_procedure_that_never_waits_is_one_function_with_python_loops_at_its_yaml_lines(tmp_path):
    path, game = load(tmp_path, COUNTING)
    fn = proc_named(game, "tally").direct
    game.code.compile_pending()  # (compiled when first run otherwise)
    code = fn.__code__
    assert code.co_filename == str(path)
    assert code.co_firstlineno == line_of(COUNTING, "let i = 0")
    lines = {line for _, _, line in code.co_lines()}
    for statement in ("while i < n", "game.odd += 1", "for j in range(i)", "game.total += j", "break"):
        assert line_of(COUNTING, statement) in lines, statement
    ops = {instruction.opname for instruction in dis.get_instructions(fn)}
    assert "FOR_ITER" in ops and "JUMP_BACKWARD" in ops  # the loops are Python's


def test_the_generated_loops_count_as_the_rules_say(tmp_path):
    _, game = load(tmp_path, COUNTING)
    state = game.new_game(2, seed=1)
    state.apply(0, "count")  # tally(5): i = 1..5; odd i: 1, 3, 5; even i = 2: j 0, 1; i = 4: j 0..3, break at 3
    assert (state.gv["odd"], state.gv["total"], state.gv["rounds"]) == (3, (0 + 1) + (0 + 1 + 2 + 3), 1)


def test_a_procedure_that_waits_is_one_function_for_every_pc_of_its_code(tmp_path):
    path, game = load(tmp_path, COUNTING)
    # take_turn only runs spliced into the flow: the flow's function holds its code, at its lines
    assert game.codes[proc_named(game, "take_turn").id] == NEVER_ENTERED
    code = game.codes[game.main.id]
    assert code is game.main.code and callable(code)
    game.new_game(2, seed=1)  # the flow runs: its code is compiled
    assert code.__code__.co_filename == str(path)
    assert line_of(COUNTING, 'ask p:\n      "count"') in {line for _, _, line in code.__code__.co_lines()}


WAITING_LOOP = """game: Waiting loop
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {asked: 0, skipped: 0, after: 0}
procedures:
  take_turn(player p): |
    while true:
      ask p:
        "again":
          pass
        "stop":
          break
      game.asked += 1
      if game.asked % 2 == 0:
        game.skipped += 1
        continue
      if game.asked >= 5:
        break
    game.after += 1
flow:
  - phase: play
    turn: take_turn
"""


def test_break_and_continue_of_a_loop_that_waits_from_statements_that_do_not(tmp_path):
    _, game = load(tmp_path, WAITING_LOOP)
    state = game.new_game(2, seed=1)
    for _ in range(5):  # asked 1..5: 2 and 4 continue, 5 breaks
        state.apply(0, "again")
    assert (state.gv["asked"], state.gv["skipped"], state.gv["after"]) == (5, 2, 1)
    assert state.current_players() == [1]
    restored = State.from_json(game, state.to_json())  # a save resumes inside the machine
    restored.apply(1, "stop")  # 'break' from a menu option
    assert (restored.gv["asked"], restored.gv["after"]) == (5, 2)
    assert restored.current_players() == [0]


def test_functions_made_later_refuse_to_run_until_flushed_then_compile_at_first_call_with_their_own_file():
    unit = CodeUnit("base.yaml")
    first = unit.later("run", [ast.Return(ast.Constant(1))], line=3)
    second = unit.later("run", [ast.Return(ast.Name("missing", ast.Load()))], line=7, filename="variant.yaml")
    with pytest.raises(RuntimeError):
        first(None, {})
    unit.flush()
    assert first.__code__.co_filename == second.__code__.co_filename == "<generated>"  # not compiled yet
    assert first(None, {}) == 1  # its first call compiles its batch
    assert (first.__code__.co_filename, first.__code__.co_firstlineno) == ("base.yaml", 3)
    assert (second.__code__.co_filename, second.__code__.co_firstlineno) == ("variant.yaml", 7)
    with pytest.raises(NameError):
        second(None, {})


def menu_game(options: int, open_from: str) -> str:
    """take_turn asks from ``options`` options; option i is open when ``game.n + 1 >= i`` (``open_from`` that text)."""
    lines = "".join(f'      "o{i}" if {open_from.format(i=i)}:\n        game.picked = {i}\n'
                    for i in range(1, options + 1))
    return ("game: Menus\nplayers: {min: 2, max: 2}\nzones: {deck: {}}\ngame_variables: {n: 0, picked: 0}\n"
            "procedures:\n  take_turn(player p): |\n    ask p:\n" + lines + "    game.n += 1\n"
            "flow:\n  - phase: play\n    turn: take_turn\n")


@pytest.mark.parametrize("options", [3, 12], ids=["bit masks", "more than ten options"])
def test_a_menu_offers_its_open_options_and_takes_a_single_one_at_once(tmp_path, options):
    _, game = load(tmp_path, menu_game(options, "game.n + 1 >= {i}"))
    state = game.new_game(2, seed=1)  # n = 0: only o1 is open, taken without asking
    assert (state.gv["n"], state.gv["picked"]) == (1, 1)
    assert state.legal_actions(1) == ["o1", "o2"]
    state.apply(1, "o2")
    assert (state.gv["n"], state.gv["picked"]) == (2, 2)
    assert state.legal_actions(0) == ["o1", "o2", "o3"]


@pytest.mark.parametrize("options", [3, 12], ids=["bit masks", "more than ten options"])
def test_a_menu_with_no_open_option_is_a_located_rule_error(tmp_path, options):
    from interpreter import RuleError

    text = menu_game(options, "game.n > {i} + 100")
    path, game = load(tmp_path, text)
    with pytest.raises(RuleError) as info:
        game.new_game(2, seed=1)
    assert "none of the options is open to player 1" in str(info.value)
    assert (info.value.location.file, info.value.location.line) == (str(path), line_of(text, "ask p:"))


def test_code_no_game_runs_is_never_compiled_and_compile_pending_compiles_it(tmp_path):
    """A batch closed by ``flush`` is compiled by the first call of any of its functions, all of them at
    once; what never runs stays uncompiled (load time), unless ``compile_pending`` (``ribbit validate``)."""
    unit = CodeUnit("base.yaml")
    first = unit.later("run", [ast.Return(ast.Constant(1))], line=3)
    second = unit.later("run", [ast.Return(ast.Constant(2))], line=4)
    unit.flush()
    third = unit.later("run", [ast.Return(ast.Constant(3))], line=5)
    unit.flush()
    assert first(None, {}) == 1
    assert second.__code__.co_filename == "base.yaml"  # compiled with first, not yet called
    assert third.__code__.co_filename == "<generated>"  # another batch: not compiled
    unit.compile_pending()
    assert third.__code__.co_filename == "base.yaml" and third(None, {}) == 3


DEEP = """game: Deep
players: {min: 2, max: 2}
components:
  - {name: token, count: 2, zone: deck}
zones:
  deck: {}
  hand: {per: player}
game_variables: {n: 0}
procedures:
  take_turn(player p): |
""" + "".join("    " + "  " * i + f"for x{i} in hand(p):\n" for i in range(25)) + "    " + "  " * 25 + """game.n += 1
    ask p:
      "a":
        pass
flow:
  - phase: play
    turn: take_turn
"""


def test_code_python_cannot_compile_is_a_located_error_of_validate_and_of_the_game(tmp_path, capsys):
    path = tmp_path / "deep.yaml"
    path.write_text(DEEP, encoding="utf-8")
    line = DEEP.splitlines().index("    " + "  " * 19 + "for x19 in hand(p):") + 1  # the 20th loop inside loops
    from interpreter.cli import main
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"deep.yaml:{line}:{4 + 2 * 19 + 1}: the code made from this rule cannot be compiled: " \
           "too many statically nested blocks" in err and "Traceback" not in err
    game = load_game(path)
    for _ in range(2):  # and again: the code is still not made, the same error (not a recursion)
        with pytest.raises(DefinitionError, match="too many statically nested blocks"):
            game.new_game(2, seed=0)


def test_threads_first_running_a_batch_each_get_its_compiled_code(monkeypatch):
    import threading
    import time

    from interpreter.dsl import codegen

    compile_slowly = codegen._compile

    def slow(module, filename):  # the other threads call their functions while the first compiles
        time.sleep(0.2)
        return compile_slowly(module, filename)
    monkeypatch.setattr(codegen, "_compile", slow)
    unit = CodeUnit("base.yaml")
    made = [unit.later("run", [ast.Return(ast.Constant(i))], line=3 + i) for i in range(40)]
    unit.flush()
    results, start = [], threading.Barrier(8)

    def run(i):
        start.wait()
        results.append(made[i](None, {}))
    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == list(range(8))


MOVING = """game: Moving
players: {min: 2, max: 2}
zones: {deck: {}, hand: {per: player}}
components:
  - {name: card, count: 3, zone: deck}
procedures:
  take_turn(player p): |
    move top(deck) to hand(p)
    ask p:
      "again":
        pass
flow:
  - phase: play
    turn: take_turn
    until: size(deck) == 0
"""


def test_moving_one_card_is_a_call_of_the_one_move_card_of_the_runtime(tmp_path):
    from interpreter.runtime.moves import move_card

    path, game = load(tmp_path, MOVING)
    assert move_card in game.code.constants
    for _, tree in game.code.functions:  # the move is not written out again in generated code
        assert not any(type(node) is ast.Assign and type(node.targets[0]) is ast.Subscript
                       and ast.unparse(node.targets[0]).startswith("s.loc[") for node in ast.walk(tree))
    state = game.new_game(2, seed=0)
    assert [len(state.zones[game.zone_index(z)]) for z in ("deck", "hand(1)", "hand(2)")] == [0, 2, 1]  # ask: one option
    assert all(state.loc[card] == game.zone_index(zone) for zone in ("hand(1)", "hand(2)")
               for card in state.zones[game.zone_index(zone)])


def compiler_closures(path) -> set:
    """The Python closures the compiler made at load and left in a definition's generated code (its constant table)."""
    found = set()
    for _, compiled in load_game(path).every_count():
        for value in compiled.code.constants:
            qualname = getattr(value, "__qualname__", "")
            if "<locals>" in qualname and getattr(value, "__module__", "").startswith("interpreter.dsl"):
                found.add(qualname)
    return found


@pytest.mark.parametrize("path", ["definitions/top_frog.yaml", "definitions/kaeru.yaml", "definitions/frog_tower.yaml",
                                  "definitions/crazy_eights.yaml", "tests/definitions/counters.yaml",
                                  "tests/definitions/showing.yaml"])
def test_generated_code_calls_no_closure_made_by_the_compiler(path):
    """Every statement is generated code calling plain run-time functions with their data (counters, 'show',
    a decision's options): the code unit holds no closure of the compiler, whose behaviour a reader of the
    generated source could not see."""
    root = __import__("pathlib").Path(__file__).parents[2]
    assert compiler_closures(root / path) == set()
