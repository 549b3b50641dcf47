"""The expression checker (interpreter/dsl/check.py) says what each name refers to, before any code is built."""

from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.dsl import ast as A
from interpreter.dsl.check import Ref
from interpreter.dsl.compiler import CompileError, Compiler, Scope
from turn_games import TURN_END

GAME = """game: Names
players: {min: 2, max: 2}
parameters: {limit: 3}
properties: {value: 0}
components:
  - {name: coin, value: 2, count: 2, zone: pile}
zones: {pile: {}, hand: {per: player}}
game_variables: {stage: 1}
player_variables: {score: 0}
functions:
  double(int n): n * 2
procedures:
  take_turn(player p): |
    pass
""" + TURN_END


@pytest.fixture(scope="module")
def checker(tmp_path_factory):
    path = tmp_path_factory.mktemp("names") / "names.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = load_game(path)
    return game, Compiler(game)


def test_each_name_resolves_to_what_it_refers_to(checker):
    game, c = checker
    scope = Scope({"c": "card", "p": "player"}, None)
    assert c.ctx.checker.resolve_name(A.Name("c"), scope) == Ref("local", "card", "c")
    assert c.ctx.checker.resolve_name(A.Name("pile"), scope) == Ref("zone", "zone", game.zones["pile"].base)
    assert c.ctx.checker.resolve_name(A.Name("limit"), scope) == Ref("parameter", "int", 3)
    assert c.ctx.checker.resolve_name(A.Name("players"), scope) == Ref("players", "list:player")
    assert c.ctx.checker.game_attr(A.Attr(A.Name("game"), "stage"), scope) == Ref("game_variable", "int", "stage")
    assert c.ctx.checker.resolve_attr(A.Attr(A.Name("c"), "value"), "card") == Ref("card_property", "int", "value")
    assert c.ctx.checker.resolve_attr(A.Attr(A.Name("c"), "name"), "card") == Ref("card_name", "str")
    assert c.ctx.checker.resolve_attr(A.Attr(A.Name("p"), "score"), "player") == Ref("player_variable", "int", "score")
    assert c.ctx.checker.resolve_call(A.Call("double", (A.Const(1),)), scope) == "function"
    assert c.ctx.checker.resolve_call(A.Call("hand", (A.Name("p"),)), scope) == "zone"
    assert c.ctx.checker.resolve_call(A.Call("size", (A.Name("pile"),)), scope) == "builtin"


@pytest.mark.parametrize("node, message", [
    (A.Name("hand"), "zone 'hand' belongs to each player; say whose: hand(p)"),
    (A.Name("stage"), "'stage' is a game variable; write game.stage"),
    (A.Name("score"), "'score' is a player variable; write p.score for a player p"),
    (A.Name("limt"), "unknown name 'limt'; did you mean 'limit'?"),
])
def test_a_name_that_refers_to_nothing_usable_is_refused_with_what_to_write(checker, node, message):
    _, c = checker
    with pytest.raises(CompileError) as info:
        c.ctx.checker.resolve_name(node, Scope({}, None))
    assert info.value.message == message


def test_operators_check_the_kinds_of_their_sides(checker):
    _, c = checker
    add = A.BinOp("+", A.Name("a"), A.Name("b"))
    assert c.ctx.checker.check_binop(add, "list:card", "zone") == ("join_lists", "list:card")
    assert c.ctx.checker.check_binop(add, "str", "str") == ("join_texts", "str")
    assert c.ctx.checker.check_binop(add, "int", "int") == ("arith", "int")
    with pytest.raises(CompileError, match="'\\+' needs numbers, not a card"):
        c.ctx.checker.check_binop(add, "card", "int")
    with pytest.raises(CompileError, match="cannot compare a card with a player"):
        c.ctx.checker.check_compare(A.Compare("==", A.Name("a"), A.Name("b")), "card", "player")
    assert c.ctx.checker.check_list([A.Const(1), A.Const(2)], ["int", "int"]) == "list:int"
