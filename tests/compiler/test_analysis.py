"""The analysis pass (interpreter/dsl/analysis.py) annotates a snippet's syntax tree before any code is built.

It alone finds what each name refers to, the kind of every expression, the form
the lowering will take, whether an expression is one local or a constant, and
whether statements may wait for a player; and it alone raises the located errors
of expressions.  The lowering reads its notes.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from interpreter import load_game
from interpreter.dsl import ast as A
from interpreter.dsl.analysis import NOT_CONSTANT, BoundArg, Note
from interpreter.dsl.check import Ref
from interpreter.dsl.compiler import CompileError, Compiler, Scope
from interpreter.dsl.context import CompileContext
from interpreter.dsl.parser import parse, parse_expression
from turn_games import TURN_END

GAME = """game: Notes
players: {min: 2, max: 2}
parameters: {limit: 3, ladder: {1: 1, 3: 5}}
properties: {value: 0}
components:
  - {name: coin, value: 2, count: 2, zone: pile}
zones: {pile: {}, hand: {per: player}}
counters: {marks: {on: [player]}}
game_variables: {stage: 1}
player_variables: {score: 0}
functions:
  double(int n): n * 2
procedures:
  quiet(player p): |
    p.score += 1
  take_turn(player p): |
    pass
""" + TURN_END


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    path = tmp_path_factory.mktemp("notes") / "notes.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = load_game(path)
    return game, Compiler(game)


def nodes(tree):
    """Every expression node of ``tree`` (depth first)."""
    yield tree
    for value in vars(tree).values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, A.Node):
                yield from nodes(item)


def test_the_analysis_alone_gives_every_node_its_kind_and_each_name_what_it_refers_to(compiler):
    game, c = compiler
    before = len(c.code.constants)
    tree = parse_expression("p.score + double(limit) > size(each x in pile where x.value > game.stage)")
    notes = c.ctx.analysis.analyse(tree, Scope({"p": "player"}, None))
    assert len(c.code.constants) == before  # analysing builds no code
    stage = tree.right.args[0].where.right
    assert set(notes) == {id(n) for n in nodes(tree)} - {id(stage.obj)}  # a note per node ('game' is no value)
    assert notes[id(tree)].kind == "bool"
    add = tree.left
    assert (notes[id(add)].kind, notes[id(add)].shape) == ("int", "arith")
    assert notes[id(add.left)].ref == Ref("player_variable", "int", "score")
    assert notes[id(add.left.obj)].ref == Ref("local", "player", "p")
    assert notes[id(add.left.obj)].local == "p"
    call = add.right
    assert (notes[id(call)].kind, notes[id(call)].shape, notes[id(call)].bound) == ("int", "function", ("int",))
    assert notes[id(call.args[0])].ref == Ref("parameter", "int", 3)
    assert notes[id(call.args[0])].const == 3
    size = tree.right
    assert (notes[id(size)].kind, notes[id(size)].shape) == ("int", "reduction")  # counted without a list
    each = size.args[0]
    assert notes[id(each)].kind == "list:card"
    assert notes[id(each.source)].ref == Ref("zone", "zone", game.zones["pile"].base)
    assert notes[id(each.where.left)].ref == Ref("card_property", "int", "value")
    assert notes[id(each.where.right)].ref == Ref("game_variable", "int", "stage")


def test_the_analysis_notes_constants_and_folded_arithmetic(compiler):
    _, c = compiler
    tree = parse_expression("[2 * 3, limit, 7]")
    notes = c.ctx.analysis.analyse(tree, Scope({}, None))
    product, limit, seven = tree.items
    assert (notes[id(product)].shape, notes[id(product)].const) == ("folded", 6)
    assert notes[id(limit)].const == 3 and notes[id(seven)].const == 7
    assert notes[id(tree)].kind == "list:int" and notes[id(tree)].const is NOT_CONSTANT
    call = parse_expression("threshold(ladder, 2)")
    assert c.ctx.analysis.analyse(call, Scope({}, None))[id(call)].kind == "int"  # a builtin's kind, from its own rules


@pytest.mark.parametrize("text, message, column", [
    ("p.score + c", "'+' needs numbers, not a card", 11),
    ("size(each x in pile where x.name)", "the condition after 'where' must be true/false, not a text", 27),
    ("double(c)", "argument 'n' of double() must be a number, not a card", 8),
    ("marks(c)", "marks() is counted on players, not on cards (add card to counters.marks.on)", 7),
    ("hand", "zone 'hand' belongs to each player; say whose: hand(p)", 1),
    ("threshold(limit, 2)", "argument 1 of threshold() must be a table such as {1: 1, 3: 5}, not a number", 11),
    ("1 // 0", "division by zero", 6),
])
def test_the_analysis_alone_raises_the_located_errors_of_expressions(compiler, text, message, column):
    _, c = compiler
    before = len(c.code.constants)
    with pytest.raises(CompileError) as info:
        c.ctx.analysis.analyse(parse_expression(text), Scope({"p": "player", "c": "card"}, None))
    assert info.value.message == message
    assert info.value.node.column == column
    assert len(c.code.constants) == before


def test_the_analysis_checks_an_expected_kind(compiler):
    _, c = compiler
    with pytest.raises(CompileError, match="the condition of 'if' must be true/false, not a player"):
        c.ctx.analysis.analyse(parse_expression("p"), Scope({"p": "player"}, None), ("bool", "the condition of 'if'"))
    with pytest.raises(CompileError, match="what 'for' goes through must be a list or a zone, not a player"):
        c.ctx.analysis.analyse(parse_expression("p"), Scope({"p": "player"}, None), ("list", "what 'for' goes through"))


def test_statements_are_annotated_with_whether_they_may_wait_for_a_player(compiler):
    _, c = compiler
    asks, calls_quiet, loop = parse('ask p:\n  "a":\n    pass\nquiet(p)\nrepeat 2:\n  take_turn(p)\n')
    assert c.ctx.analysis.waits_at(asks) and c.ctx.analysis.waits_at(loop)  # take_turn asks
    assert not c.ctx.analysis.waits_at(calls_quiet)
    assert not c.ctx.analysis.waits([calls_quiet])


def test_the_lowering_reads_the_notes_and_checks_nothing_itself(compiler):
    _, c = compiler
    tree = parse_expression("p.score + 1")
    scope = Scope({"p": "player"}, None)
    c.ctx.notes = c.ctx.analysis.analyse(tree, scope)
    c.ctx.notes[id(tree)] = Note("int", shape="join_texts")  # a note the lowering obeys as it is
    try:
        code, kind = c.expr_code(tree, scope)
    finally:
        c.ctx.notes = None
    assert kind == "int" and "join_texts" in repr(c.code.constants[code.func.slice.value])


def test_whether_an_expression_is_a_local_or_a_constant_is_its_note_not_an_attribute_of_its_function(compiler):
    _, c = compiler
    scope = Scope({"p": "player"}, None)
    tree, kind, note = c.ctx.exprs.expr_note(A.Name("p"), scope)
    assert (kind, note.local, note.const) == ("player", "p", NOT_CONSTANT)
    tree, kind, note = c.ctx.exprs.expr_note(parse_expression("3 + 1"), scope)
    assert note.const == 4 and note.local is None and tree.value == 4
    fn = c.function_of(tree, A.Name("p"))
    assert not hasattr(fn, "local_key") and not hasattr(fn, "const_value")


ZONE_FOR_A_LIST = """game: Lists
players: {min: 2, max: 2}
properties: {value: 0}
components:
  - {name: coin, value: 2, count: 3, zone: pile}
zones: {pile: {}, hand: {per: player}}
player_variables: {score: 0}
functions:
  many(cards cs): "size(cs) * 10 + sum(each c in cs: c.value)"
procedures:
  take_turn(player p): |
    p.score = many(pile)
""" + TURN_END


@pytest.mark.parametrize("inline", [True, False])
def test_a_zone_given_for_a_list_parameter_of_an_inlined_function_is_read_as_its_list_of_cards(tmp_path, inline):
    # The inlined body used to read the parameter as a zone (its kind as given) while it held the
    # copied list of cards: 's.zones[[0, 1, 2]]' failed with a TypeError when the turn ran.
    from interpreter import CompileOptions

    path = tmp_path / "lists.yaml"
    path.write_text(ZONE_FOR_A_LIST, encoding="utf-8")
    game = load_game(path, options=CompileOptions(inline=inline))
    state = game.new_game(players=2, seed=1)
    assert state.pv["score"] == [36, 0]


@pytest.mark.parametrize("text, reads", [
    ("c.value > 1", False),  # card properties are fixed
    ('c.name == "coin" and double(c.value) > limit', False),  # an inlined function reads what its body reads
    ("c.value > p.score", True),  # a player variable
    ("c.value > game.stage", True),
    ("c.value < player_count", True),
    ("c in pile", True),  # a zone's cards
    ("abs(c.value) > 1", False),
    ("top(pile) == c", True),  # a builtin that looks into a zone
    ("marks(p) > 0", True),  # a counter
    ("size(each x in pile where x.value > 1) > 0", True),
])
def test_the_analysis_notes_whether_an_expression_reads_the_state(compiler, text, reads):
    _, c = compiler
    tree = parse_expression(text)
    notes = c.ctx.analysis.analyse(tree, Scope({"p": "player", "c": "card"}, None))
    assert notes[id(tree)].reads is reads


def test_builtins_reads_are_their_records_and_a_zone_read_as_a_list_reads_the_state(compiler):
    _, c = compiler
    for text, reads in (("abs(c.value)", False), ("size([c])", False), ("size(pile)", True),
                        ("owner_of(hand(p))", False), ("owner_of(c)", True), ("roll(2)", True),
                        ("first(shuffled([c]))", True), ("range(1, 3)", False), ("next_player(p)", True)):
        tree = parse_expression(text)
        assert c.ctx.analysis.analyse(tree, Scope({"p": "player", "c": "card"}, None))[id(tree)].reads is reads, text


def test_every_builtin_is_one_record_and_nothing_else_tells_what_a_builtin_does():
    from pathlib import Path

    import interpreter.dsl as dsl
    from interpreter.dsl.builtins import BUILTINS, Builtin

    for name, record in BUILTINS.items():
        assert isinstance(record, Builtin) and record.name == name and record.signature.startswith(name + "(")
        assert record.arity[0] <= record.arity[1] and callable(record.kind) and callable(record.reads)
    assert {name for name, record in BUILTINS.items() if record.random} == {"random", "roll", "shuffled"}
    # what replaced the records: a fake compiler run through the code builders, a global counter of
    # state reads, a list of random builtins, a state that refuses reads to prove an expression static
    for path in Path(dsl.__file__).parent.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for gone in ("_Rules", "StateReads", "BUDGET_ONLY", "RANDOM_BUILTINS", "Poisoned", "NotStatic"):
            assert gone not in text, (path.name, gone)


ALIAS_READS = """game: Aliases
players: {min: 2, max: 2}
properties: {value: 0}
components:
  - {name: coin, value: 2, count: 2, zone: pile}
  - {name: gem, value: 5, count: 1, zone: pile}
zones: {pile: {}}
player_variables: {score: 0}
functions:
  beyond(int n): count(each x in pile where x.value > n)
procedures:
  take_turn(player p): |
    p.score = beyond(p.score)
    p.score = 10 * p.score + beyond(p.score)
""" + TURN_END


def test_an_inlined_argument_that_reads_the_state_makes_the_parts_of_the_body_reading_it_read_the_state(
        tmp_path, compiler):
    import ast

    path = tmp_path / "aliases.yaml"
    path.write_text(ALIAS_READS, encoding="utf-8")
    game = load_game(path)
    func = game.functions["beyond"]
    c = Compiler(game)
    where = func.body.args[0].where
    assert func.notes[id(where)].reads is False  # analysed with placeholders of the arguments
    reading = c.ctx.analysis.function_notes(func, {"n": BoundArg(ast.Name("n", ast.Load()), "int", True)})
    assert reading[id(where)].reads is True and reading[id(func.body)].reads is True  # never a per-card table
    assert c.ctx.analysis.function_notes(func, {"n": BoundArg(ast.Constant(1), "int", False, const=1)})[id(where)].reads is False
    state = game.new_game(players=2, seed=1)
    assert state.pv["score"][0] == 31  # 3 coins above 0, then 1 card (the gem) above 3


def test_an_each_is_tabulated_per_card_when_its_condition_reads_nothing_of_the_state(compiler):
    from interpreter.runtime import values as X

    _, c = compiler
    scope = Scope({}, None)
    tree = parse_expression("[each x in pile where x.value > 1]")
    assert c.ctx.analysis.analyse(tree, scope)[id(tree.where)].reads is False
    c.ctx.notes = c.ctx.analysis.analyse(tree, scope)
    try:
        static, _ = c.expr_code(tree, scope)
        c.ctx.notes[id(tree.where)].reads = True  # said to read the state: checked card by card as it runs
        scanned, _ = c.expr_code(tree, scope)
    finally:
        c.ctx.notes = None
    assert c.code.constants[static.func.slice.value] is X.kept  # the cards kept by a per-card table
    assert scanned.__class__.__name__ == "ListComp"


def test_a_function_body_is_analysed_once_and_an_inlined_call_rewrites_its_parameters_as_aliases(compiler, monkeypatch):
    import ast

    from interpreter.dsl.analysis import ExpressionAnalysis

    game, c = compiler
    func = game.functions["double"]
    assert func.analysed and func.notes[id(func.body)].kind == "int"
    (param,) = [node for node in nodes(func.body) if isinstance(node, A.Name)]
    assert func.notes[id(param)].ref.what == "alias"  # the placeholder of the argument
    rewritten = c.ctx.analysis.function_notes(func, {"n": BoundArg(ast.Constant(5), "int", False, const=5)})
    assert (rewritten[id(param)].ref.what, rewritten[id(param)].const) == ("alias", 5)
    assert c.ctx.analysis.function_notes(func)[id(param)].ref == Ref("local", "int", "n")  # the body lowered on its own
    assert rewritten[id(func.body)] is func.notes[id(func.body)]  # the rest of the IR is shared

    analysed, analyse = [], ExpressionAnalysis.analyse
    monkeypatch.setattr(ExpressionAnalysis, "analyse",
                        lambda self, node, scope, expect=None: analysed.append(node) or analyse(self, node, scope, expect))
    tree, _ = c.expr_code(parse_expression("double(2) + double(p.score)"), Scope({"p": "player"}, None))
    assert len(analysed) == 1 and func.body not in analysed  # the caller's expression only
    assert "{'n':" not in ast.unparse(tree) and "'score'" in ast.unparse(tree)  # both calls inlined


BODY_FOR_ITS_DECLARED_KINDS = """game: Kinds
players: {min: 2, max: 2}
properties: {value: 0}
components:
  - {name: coin, value: 2, count: 3, zone: pile}
zones: {pile: {}, hand: {per: player}}
player_variables: {score: 0}
functions:
  bottom_value(cards cs): first(cs).value
procedures:
  take_turn(player p): |
    p.score = bottom_value(none)
""" + TURN_END


@pytest.mark.parametrize("inline", [True, False])
def test_a_call_that_fits_the_declared_parameters_compiles_alike_inlined_or_not(tmp_path, inline):
    # The inlined body was checked again with the argument's kind (none) and refused at load
    # ("argument 1 of first() must be a list or a zone, not none") where the ordinary call loads.
    from interpreter import CompileOptions
    from interpreter.errors import RuleError

    path = tmp_path / "kinds.yaml"
    path.write_text(BODY_FOR_ITS_DECLARED_KINDS, encoding="utf-8")
    game = load_game(path, options=CompileOptions(inline=inline))
    with pytest.raises(RuleError) as info:
        game.new_game(players=2, seed=1)
    assert "kinds.yaml:9:27: functions.bottom_value(cards cs): cannot read .value: the card is none" in str(info.value)


def test_the_lowering_modules_ask_no_kind_rule_themselves():
    # The checks of expressions are the analysis pass's: the lowering reads its notes.
    import re
    from pathlib import Path

    import interpreter.dsl as dsl

    for module in ("lower_expr.py", "statements.py"):
        text = (Path(dsl.__file__).parent / module).read_text(encoding="utf-8")
        assert not re.findall(r"self\.(?:check_\w+|resolve_\w+|game_attr)\(", text), module


def test_walking_a_syntax_tree_visits_every_node_once_root_first_in_field_order():
    from interpreter.dsl import ast as A
    from interpreter.dsl.parser import parse_expression

    tree = parse_expression("f(a.b, [c, 1]) + g()")
    seen = [type(n).__name__ + (f":{n.name}" if hasattr(n, "name") else f":{n.func}" if hasattr(n, "func") else "")
            for n in A.walk(tree)]
    assert seen[0].startswith("BinOp") and seen[1:] == ["Call:f", "Attr:b", "Name:a", "ListLit", "Name:c", "Const",
                                                           "Call:g"]


def test_the_compiler_declares_what_it_keeps_and_its_names_say_what_they_hold():
    # Attributes were created on first use (self.__dict__.setdefault at 18 sites); X meant the run-time
    # helpers in two modules and a code template in two others; units.py and plus.py said nothing.
    import re
    from pathlib import Path

    import interpreter.dsl as dsl

    folder = Path(dsl.__file__).parent
    for path in folder.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "__dict__.setdefault" not in text and 'self.__dict__.get("_' not in text, path.name
        assert not re.search(r"\bas X\b", text), path.name
    assert not (folder / "units.py").exists() and not (folder / "plus.py").exists()
    compiler = Compiler(load_game(Path(__file__).parents[1] / "definitions" / "modifiers.yaml"))
    for kept in ("notes", "builtin_kinds", "_wait_notes", "_stmt_notes", "_expr_notes", "_load_steps", "_positions",
                 "_inline_sizes", "inlining", "splicing", "label_nodes", "fixups"):
        assert kept in CompileContext.__slots__, kept  # declared once, in the context of the compilation
    for kept in CompileContext.__slots__:
        getattr(compiler.ctx, kept)  # and each set when the compiler is made (an unset slot raises)


def test_the_analysis_notes_which_expressions_always_give_a_number(compiler):
    # an order comparison of two such is built without a none guard: the lowering reads this note, not its code
    _, c = compiler
    tree = parse_expression("[p.score + 1, 2 * 3, limit, size(pile), count(each x in pile where x.value > 1),"
                            " double(2), p.score, game.stage, c.value, -1, true]")
    notes = c.ctx.analysis.analyse(tree, Scope({"p": "player", "c": "card"}, None))
    number = [notes[id(item)].number for item in tree.items]
    assert number == [True, True, True, True, True, True, False, False, False, False, True]


@contextmanager
def analysed(c, text: str, variables: dict):
    """The parsed ``text``, its analysis notes the compiler's while the block runs (as the lowering has them)."""
    tree = parse_expression(text)
    c.ctx.notes = c.ctx.analysis.analyse(tree, Scope(variables, None))
    try:
        yield tree
    finally:
        c.ctx.notes = None


def test_the_lowering_turns_count_at_least_one_into_any_by_the_notes(compiler):
    _, c = compiler
    for text in ("count(each x in pile where x.value > 1) >= 1", "count(each x in pile where x.value > 1) > 0"):
        with analysed(c, text, {}) as tree:
            assert c.ctx.exprs.exists_test(tree)
    with analysed(c, "count(each x in pile where x.value > 1) >= 2", {}) as tree:
        assert not c.ctx.exprs.exists_test(tree)


def test_the_analysis_notes_which_expressions_may_be_written_twice(compiler):
    # 'x.attr' of such an x, and an order comparison of two such, test the value in place: no helper call
    _, c = compiler
    texts = ["p", "limit", "7", "game.stage", "active", "p.score", "players", "pile", "size(pile)", "p.score + 1"]
    trees = [parse_expression(text) for text in texts]
    cheap = [c.ctx.analysis.analyse(tree, Scope({"p": "player"}, None))[id(tree)].cheap for tree in trees]
    assert cheap == [True, True, True, True, True, False, False, True, False, False]
    with analysed(c, "hand(p)", {"p": "player"}) as hand:
        assert c.ctx.exprs.repeatable(hand)  # base + e['p']: its argument is a local
    with analysed(c, "hand(active)", {}) as hand:
        assert not c.ctx.exprs.repeatable(hand)


def test_a_calls_arguments_say_from_their_notes_which_are_one_local_or_a_constant(compiler):
    # the inliner inlines a procedure only where each argument is one of those: it asks these, not the code
    game, c = compiler
    proc = game.procedures["quiet"]
    scope = Scope({"p": "player", "q": "player"}, None)
    scope.keys["q"] = "q.7"  # an 'each' variable's env key is numbered when it is lowered
    for text, key, fixed in (("quiet(p)", "p", False), ("quiet(q)", "q.7", False), ("quiet(active)", None, False)):
        call = parse_expression(text)
        (arg,) = c.ctx.exprs.bound_args(call, proc.params, scope, "quiet")
        assert (arg.key, arg.fixed) == (key, fixed), text
    call = parse_expression("double(limit)")
    (arg,) = c.ctx.exprs.bound_args(call, game.functions["double"].params, scope, "double")
    assert (arg.key, arg.fixed) == (None, True)


def test_an_inlined_parameter_is_noted_from_its_arguments_note_not_its_code(compiler):
    import ast

    game, c = compiler
    func = game.functions["double"]
    c.ctx.analysis.function_kind(func)
    placeholder = ast.Name("anything", ast.Load())  # the facts come from the BoundArg, whatever its tree is
    local = c.ctx.analysis.function_notes(func, {"n": BoundArg(placeholder, "int", False, "x.3", cheap=True)})
    fixed = c.ctx.analysis.function_notes(func, {"n": BoundArg(placeholder, "int", False, const=4, number=True)})
    (key, _), = func.param_reads
    assert (local[key].local, local[key].cheap, local[key].const, local[key].number) == ("x.3", True, NOT_CONSTANT, False)
    assert (fixed[key].local, fixed[key].cheap, fixed[key].const, fixed[key].number) == (None, False, 4, True)
