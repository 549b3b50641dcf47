"""The analysis pass over statements (interpreter/dsl/stmt_analysis.py) checks a procedure's body before lowering.

It alone raises the located errors of statements (reserved names, a name given a value
of another kind, assignments, 'move', 'emit', 'return', 'log', 'show', counters, asks
and menus), and notes for each statement what the lowering needs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.dsl.compiler import CompileError, Compiler
from interpreter.dsl.parser import parse
from interpreter.dsl.procedures import Proc
from turn_games import TURN_END

GAME = """game: Statements
players: {min: 2, max: 2}
parameters: {limit: 3}
properties: {value: 0}
components:
  - {name: coin, value: 2, count: 2, zone: pile}
zones: {pile: {}, hand: {per: player}}
counters: {marks: {on: [player]}}
game_variables: {stage: 1}
player_variables: {score: 0}
events:
  scored: {who: player}
procedures:
  quiet(player p): |
    p.score += 1
  take_turn(player p): |
    pass
""" + TURN_END


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    path = tmp_path_factory.mktemp("statements") / "statements.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = load_game(path)
    return game, Compiler(game)


def proc(text, returns="any", params=(("p", "player"), ("c", "card"))):
    return Proc(999, "t", list(params), parse(text), ("procedures", "t"), returns)


@pytest.mark.parametrize("text, message, line, column", [
    ("let players = 1", "'players' is a reserved name; pick another", 1, 1),
    ("let pile = 1", "'pile' is a reserved name; pick another", 1, 1),
    ("let x = 1\nlet x = c", "'x' holds a number; it cannot also hold a card (use another variable)", 2, 9),
    ("let x = 1\nx += c", "'+=' needs a number, not a card", 2, 6),
    ("y = 1", "'y' is not a variable here; declare it first with 'let y = ...'", 1, 1),
    ("game.stag = 1", "unknown game variable 'stag'; did you mean 'stage'?", 1, 1),
    ("game.stage = c", "game.stage holds a number, not a card", 1, 14),
    ("c.value = 1", "card properties are fixed; keep changing values in player or game variables", 1, 1),
    ("p.scor = 1", "players have no variable 'scor'; did you mean 'score'?", 1, 1),
    ("p.score = c", "score holds a number, not a card", 1, 11),
    ("move 3 to pile", "'move' moves a card, a list of cards or a whole zone, not a number", 1, 6),
    ("emit scord(who=p)", "unknown event 'scord'; did you mean 'scored'? (events are declared under 'events:')", 1, 1),
    ("emit scored(who=p, x=1)", "event 'scored' has no parameter 'x' (it has who)", 1, 1),
    ("emit scored()", "emit scored(...) must give who=...", 1, 1),
    ("emit scored(who=c)", "who of event 'scored' must be a player, not a card", 1, 17),
    ("if true:\n  return c", "t() returns a number, not a card", 2, 10),
    ('log to c: "hi"', "'log to' needs a player or a list of players, not a card", 1, 8),
    ('log "{c.valu}"', "cards have no property 'valu'; did you mean 'value'?", 1, 7),
    ("marks(c) += 1", "marks() is counted on players, not on cards (add card to counters.marks.on)", 1, 7),
    ("marks(p) += c", "the number of marks must be a number, not a card", 1, 13),
    ("move marks(p) to pile", "a count moves from one counter to another: move 2 of marks(a) to marks(b), or "
                              "all of them: move marks(a) to marks(b)", 1, 18),
    ("show 3 to p", "'show' shows a card, a list of cards or a zone, not a number", 1, 6),
    ("show c to c", "'show ... to' names a player or a list of players, not a card", 1, 11),
    ("p.score = take_turn(p)", "a procedure that asks players can only be assigned to a local variable with '='", 1, 1),
    ("z = take_turn(p)", "'z' is not a variable here; declare it with 'let'", 1, 1),
    ('ask p to choose one of [[pile]] as b "pick"', "players choose among cards, players, spaces, numbers, texts or "
                                                     "lists of them; this is a list of lists of zones, which an "
                                                     "action text cannot show", 1, 24),
    ('ask p:\n  "a":\n    pass\n  "a":\n    pass', "two options are called 'a'; each option needs its own text", 4, 3),
    ('ask p:\n  "a":\n    let x = 1\n    x += c', "'+=' needs a number, not a card", 4, 10),
    ('for q in players:\n  q = c', "'q' holds a player; it cannot also hold a card (use another variable)", 2, 7),
])
def test_the_statement_analysis_alone_raises_the_located_errors_of_statements(compiler, text, message, line,
                                                                                column):
    _, c = compiler
    before = len(c.code.constants)
    with pytest.raises(CompileError) as info:
        c.ctx.stmt_analysis.statement_notes(proc(text, returns="int"))
    assert info.value.message == message
    assert (info.value.node.line, info.value.node.column) == (line, column)
    assert len(c.code.constants) == before  # analysing builds no code


def test_the_statement_analysis_notes_what_the_lowering_needs(compiler):
    _, c = compiler
    body = parse("let x = 1\nlet x = 2\nlet hs = hand(p)\nx += 1\ngame.stage = x\np.score -= 1\nmarks(p) += 1\n"
                 "move c to pile\nmove hs to pile\nemit scored(who=p)\nfor q in players:\n  quiet(q)\n"
                 "take_turn(p)\nreturn x\n")
    notes = c.ctx.stmt_analysis.statement_notes(Proc(998, "u", [("p", "player"), ("c", "card")], body, ("procedures", "u"), "int"))
    let1, let2, let_hs, add, gv, pv, counter, move_card, move_list, emit, loop, turn, ret = body
    assert (notes[id(let1)].kind, notes[id(let1)].new) == ("int", True)
    assert (notes[id(let2)].kind, notes[id(let2)].new) == ("int", False)  # the same name again
    assert notes[id(let_hs)].kind == "list:card"  # a zone's cards, copied
    assert [notes[id(st)].target for st in (add, gv, pv, counter)] == ["local", "game", "player", "counter"]
    assert notes[id(move_card)].kind == "card" and notes[id(move_list)].kind == "list:card"
    assert notes[id(emit)].event == (("who", "player"),)
    assert notes[id(loop)].kind == "player" and not notes[id(loop)].waits
    assert notes[id(loop.body[0])].waits is False
    assert notes[id(turn)].waits  # take_turn is a procedure that may wait (it asks, in the turn structure)
    assert notes[id(ret)].kind == "int"


def test_the_lowering_reads_whether_a_statement_waits_and_the_kinds_it_binds_from_the_notes(monkeypatch, tmp_path):
    # The layout of waiting code asked the analysis again (waits_at) and the lowering worked the kinds
    # of 'let', assignments, loops and asks out again from the expressions: now both read the notes.
    from interpreter.dsl.analysis import ExpressionAnalysis
    from interpreter.dsl.stmt_analysis import StatementAnalysis

    inside, outside = [0], []
    notes_of, waits_at = StatementAnalysis.statement_notes, ExpressionAnalysis.waits_at

    def statement_notes(self, proc):
        inside[0] += 1
        try:
            return notes_of(self, proc)
        finally:
            inside[0] -= 1

    def asked(self, st):
        if not inside[0]:
            outside.append(st)
        return waits_at(self, st)
    monkeypatch.setattr(StatementAnalysis, "statement_notes", statement_notes)
    monkeypatch.setattr(ExpressionAnalysis, "waits_at", asked)
    for name in ("crazy_eights", "kaeru"):
        load_game(Path(__file__).parents[2] / "definitions" / f"{name}.yaml")
    assert outside == []
    import interpreter.dsl as dsl

    for module in ("statements.py", "resumable.py", "splice.py"):  # the kinds names are given, joined once
        text = (Path(dsl.__file__).parent / module).read_text(encoding="utf-8")
        assert "unify(" not in text and "T.unpacked(st.var, T.element" not in text, module


def test_a_procedure_body_is_analysed_once(compiler):
    _, c = compiler
    p = proc("let x = 1\nx += 2")
    first = c.ctx.stmt_analysis.statement_notes(p)
    assert c.ctx.stmt_analysis.statement_notes(p) is first



def test_the_lowering_modules_raise_no_statement_error_themselves():
    # The checks of statements are the statement analysis's: the lowering reads its notes.  One error is
    # still found while lowering: a fixed choice ('choose 20 of range(40)') with too many options to list,
    # found by running the option builder the lowering makes (decisions.py, static_choice).
    import interpreter.dsl as dsl

    allowed = {"decisions.py": ["raise self.ctx.err(exc.message, options_node)"]}
    for module in ("statements.py", "resumable.py", "counters.py", "decisions.py", "showing.py", "one_plus_any.py"):
        text = (Path(dsl.__file__).parent / module).read_text(encoding="utf-8")
        found = re.findall(r"raise (?:self\.ctx|ctx|self|compiler)\.err\([^,]*, \w+\)|"
                           r"raise (?:self\.ctx|ctx|self|compiler)\.err\(|"
                           r"raise CompileError\(", text)
        assert found == allowed.get(module, []), module


def test_the_example_of_the_architecture_notes(compiler):
    _, c = compiler
    body = parse("let n = size(hand(p))\ngame.stage = n\nemit scored(who=p)\n")
    notes = c.ctx.stmt_analysis.statement_notes(Proc(997, "v", [("p", "player")], body, ("procedures", "v")))
    assert [repr(notes[id(st)]) for st in body] == [
        "StmtNote('int', new)", "StmtNote('int', target='game')", "StmtNote(None, event=(('who', 'player'),))"]
    text = (Path(__file__).parents[2] / "docs" / "internals.md").read_text(encoding="utf-8")
    assert "`StmtNote('int', new)`, `StmtNote('int', target='game')` and\n   `StmtNote(None, event=(('who', " \
           "'player'),))`" in text
