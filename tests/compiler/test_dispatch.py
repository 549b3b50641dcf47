"""The dispatch of a procedure's state machine (dsl/resumable.py): only entry points are tested.

A waiting procedure's function finds the instruction to run by comparing ``pc``.  Only an instruction that code
can be *entered* at needs a test: pc 0, a jump's target, where a frame resumes after a decision or a call,
where a menu's option starts, and the decision a determinisation asks again; one reached only by running on
from the one before runs on without one.  The compiler declares each entry point where it makes the code
that goes there (``WaitingLayout.entered``), and the function dispatches those and no other.  If one were
missed, a frame resumed there would silently start at the next entry point: so every pc the code is entered
at in real games must be a declared entry point, and every declared entry point must lead to its own
instruction.  The pc numbering (the layout) is the same whichever instructions are entry points.
"""

from __future__ import annotations

import ast
import random

import pytest

from configurations import ROOT, every_configuration
from interpreter import RuleError, load_game
from interpreter.dsl import resumable, splice
from interpreter.playout import PLAYOUT_BUILD

CONFIGURATIONS = every_configuration(test_definitions_at_most=False)
SHIPPED = sorted({(path, tuple(variants)) for path, variants, _ in CONFIGURATIONS})


def _id(shipped) -> str:
    path, variants = shipped
    return f"{path.stem}{'+' + variants[0] if variants else ''}"


# ---------------------------------------------------------------- reading a generated function (tests may)
def resumable_procs(game):
    """The procedures of ``game`` that run in frames of their own, with their generated function's tree."""
    return [(proc, proc.code.generated_tree) for proc in game.procs if hasattr(proc.code, "generated_tree")]


def dispatch_loop(fdef) -> ast.While:
    loop = fdef.body[-1]
    assert isinstance(loop, ast.While)
    return loop


def _compared(test: ast.expr, op) -> int | None:
    if isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "pc" \
            and isinstance(test.ops[0], op) and isinstance(test.comparators[0], ast.Constant):
        return test.comparators[0].value
    return None


def dispatch_tests(body) -> list:
    """The ``K`` of every ``if pc <= K:`` of the dispatch, in order (inside the ``pc < K`` tree)."""
    found = []
    for st in body:
        if isinstance(st, ast.If) and _compared(st.test, ast.Lt) is not None:
            found += dispatch_tests(st.body) + dispatch_tests(st.orelse)
        elif isinstance(st, ast.If) and _compared(st.test, ast.LtE) is not None:
            found.append(_compared(st.test, ast.LtE))
    return found


def landing(fdef, pc: int) -> int | None:
    """The entry whose code runs when the function is entered at ``pc``: down the ``pc < K`` tree, then the first
    ``if pc <= K:`` that holds (None: none does)."""
    body = dispatch_loop(fdef).body
    while len(body) == 1 and _compared(body[0].test, ast.Lt) is not None:
        body = body[0].body if pc < _compared(body[0].test, ast.Lt) else body[0].orelse
    for st in body:
        k = _compared(st.test, ast.LtE) if isinstance(st, ast.If) else None
        if k is not None and pc <= k:
            return k
    return None


def written_targets(fdef) -> set:
    """Every constant pc the function's code goes on at or resumes at: ``pc = K`` followed by ``continue``,
    ``fr.pc = K`` (or another frame's), and ``return K`` with K at least 0 (the run loop calls it there)."""
    found = set()
    for node in ast.walk(fdef):
        for stmts in (getattr(node, "body", None), getattr(node, "orelse", None)):
            if not isinstance(stmts, list):
                continue
            for st, nxt in zip(stmts, stmts[1:] + [None]):
                if isinstance(st, ast.Assign) and isinstance(st.value, ast.Constant) and isinstance(nxt, ast.Continue) \
                        and isinstance(st.targets[0], ast.Name) and st.targets[0].id == "pc":
                    found.add(st.value.value)
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Attribute) \
                and node.targets[0].attr == "pc" and isinstance(node.value, ast.Constant):
            found.add(node.value.value)
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) \
                and type(node.value.value) is int and node.value.value >= 0:
            found.add(node.value.value)
    return found


def last_leaf_goto(fdef) -> int:
    """The ``pc = K`` that ends the dispatch's last group: the procedure's number of instructions."""
    body = dispatch_loop(fdef).body
    while len(body) == 1 and _compared(body[0].test, ast.Lt) is not None:
        body = body[0].orelse
    return body[-2].value.value


def undeclared(game) -> list:
    """(procedure, pc) of each constant pc its code goes on at that is no declared entry point."""
    return [(proc.name, pc) for proc, fdef in resumable_procs(game) for pc in sorted(written_targets(fdef))
            if pc not in proc.entries and pc != last_leaf_goto(fdef)]


# ---------------------------------------------------------------- what the compiler makes
@pytest.mark.parametrize("shipped", SHIPPED, ids=[_id(s) for s in SHIPPED])
def test_every_declared_entry_point_is_dispatched_to_its_own_instruction_and_nothing_else_is(shipped):
    path, variants = shipped
    game = load_game(path, variants=list(variants))
    for build in (game, game.playout_build()):
        procs = resumable_procs(build)
        assert procs
        for proc, fdef in procs:
            assert dispatch_tests(dispatch_loop(fdef).body) == list(proc.entries), proc.name  # each once, in order
            assert proc.entries[0] == 0
            for pc in proc.entries:  # resumed at any entry point, a frame runs that instruction first
                assert landing(fdef, pc) == pc, (proc.name, pc)
        assert undeclared(build) == []  # every jump, resume pc and returned pc written in the code is declared
        assert [p.entries for p in build.procs] == [p.entries for p in game.procs]  # the builds agree


def test_an_instruction_reached_only_by_running_on_has_no_dispatch_test(tmp_path, monkeypatch):
    monkeypatch.setattr(splice, "MAX_SPLICED", -1)  # take_turn in a function of its own
    path = tmp_path / "entries.yaml"
    path.write_text("""game: Entries
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {n: 0}
procedures:
  take_turn(player p): |
    game.n += 1
    if game.n > 1:
      ask p:
        "more":
          game.n += 1
        "less":
          game.n -= 1
    game.n += 2
flow:
  - phase: play
    turn: take_turn
scoring:
  score: 0
""", encoding="utf-8")
    game = load_game(path)
    proc = next(p for p in game.procs if p.name.startswith("take_turn"))
    # 0: game.n += 1 | 1: the if's test | 2: the menu | 3: "more" | 4: on to the end | 5: "less" | 6: on to the
    # end (the next instruction: nothing to do) | 7: game.n += 2 | 8: the return
    assert last_leaf_goto(proc.code.generated_tree) == 9
    assert proc.entries == (0, 3, 5, 7)  # the start, the menu's options (3: also where it resumes), the end
    assert 1 not in proc.entries and 2 not in proc.entries  # reached only by running on from 0
    state = game.new_game(2, seed=1)
    assert state.gv["n"] == 3 + 1  # turn 1: +1, the if not taken (a jump to 7), +2; turn 2: +1, then asked
    state.apply(state.current_players()[0], "more")  # resumed at 3, then on to 7 (a jump)
    assert state.gv["n"] == 4 + 1 + 2 + 1  # turn 3: +1, then asked
    state.apply(state.current_players()[0], "less")  # resumed at 5, then running on into 7
    assert state.gv["n"] == 8 - 1 + 2 + 1


# ---------------------------------------------------------------- what real games enter the code at
class EnteredAt:
    """Wraps every procedure function of a game to record each (procedure id, pc) it is called at."""

    def __init__(self, game):
        self.seen = set()
        self.game = game
        self.codes = list(game.codes)
        for proc in game.procs:
            proc.code = self.wrapped(proc.id, proc.code)
        game.codes[:] = [proc.code for proc in game.procs]

    def wrapped(self, pid, code):
        def entered(s, fr, pc):
            self.seen.add((pid, pc))
            return code(s, fr, pc)
        return entered

    def frames(self, state):
        self.seen.update((fr.pid, fr.pc) for fr in state.frames)
        if state.pending is not None and state.pending.dest is None:  # a menu: its values are where options start
            self.seen.update((state.frames[-1].pid, v) for values in state.pending.values if values for v in values)

    def undo(self):
        for proc, code in zip(self.game.procs, self.codes):
            proc.code = code
        self.game.codes[:] = self.codes

    def missed(self) -> list:
        return sorted((self.game.procs[pid].name, pc) for pid, pc in self.seen if pc not in self.game.procs[pid].entries)


def play_everywhere(game, n, seeds=range(3), decisions=60):
    """Random games of ``game``: through the API (each decision, a determinisation of it), then played out."""
    normal, fast = EnteredAt(game), EnteredAt(game.playout_build())
    try:
        for seed in seeds:
            rng = random.Random(seed)
            try:
                state = game.new_game(n, seed, log=False)
                for _ in range(decisions):
                    normal.frames(state)
                    if state.over:
                        break
                    seat = state.current_players()[0]
                    if state.pending is not None and state.pending.each:
                        normal.frames(state.determinised(seat, random.Random(seed)))  # asked again: its pc less one
                    state.apply_id(seat, state.sample_action_id(seat, rng))
                state.playout(rng, decisions=500, build=PLAYOUT_BUILD)
            except Exception:  # noqa: BLE001 - rules that fail (a test definition's): what ran until then was recorded
                continue
        return normal.missed() + fast.missed()
    finally:
        normal.undo()
        fast.undo()


@pytest.mark.parametrize("config", CONFIGURATIONS,
                         ids=[f"{_id((p, v))}-{n}p" for p, v, n in CONFIGURATIONS])
def test_every_pc_a_game_enters_a_procedures_code_at_is_a_declared_entry_point(config):
    path, variants, n = config
    assert play_everywhere(load_game(path, variants=variants), n) == []


def test_an_entry_point_left_undeclared_is_found_by_these_checks(monkeypatch):
    # where a frame resumes after a call or a decision, no longer declared: the checks above must say so
    monkeypatch.setattr(resumable.WaitingLayout, "resumed_at", lambda self, k: ast.Constant(k + 1))
    game = load_game(ROOT / "definitions" / "frog_tower.yaml")
    assert undeclared(game)
    assert play_everywhere(game, 3, seeds=range(1), decisions=10)


# ---------------------------------------------------------------- the pc an error is located by
KEYS = """game: Keys
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {n: 0, m: 0}
procedures:
  choose(player p): |
    if game.n > 100:
      let y = 1
    game.m += y
    ask p:
      "x":
        game.n += 1
      "z":
        game.n += 2
  take_turn(player p): |
    ask p:
      "a":
        game.n += 1
      "b":
        game.n += 2
    choose(p)
flow:
  - phase: play
    turn: take_turn
scoring:
  score: 0
"""


@pytest.mark.parametrize("action", ["a", "b"])
def test_a_failure_in_a_spliced_procedure_names_it_though_its_code_was_run_on_into(tmp_path, action):
    # 'choose' is spliced after the menu: after "a" the code jumps to it (an entry point), after "b" it runs on
    # into it from "b"'s code, so the local pc is "b"'s unless the instruction where the rule changes stores it
    path = tmp_path / "keys.yaml"
    path.write_text(KEYS, encoding="utf-8")
    game = load_game(path)
    assert any(where[-1].startswith("choose") for proc in game.procs for _, _, where in proc.spliced)
    state = game.new_game(2, seed=1)
    with pytest.raises(RuleError) as info:
        state.apply(0, action)
    assert str(info.value).startswith(f"{path}:9:15: procedures.choose(player p): a rule failed after player 1's action: "
                                      "the variable 'y' has no value here")
