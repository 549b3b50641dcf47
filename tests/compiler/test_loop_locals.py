"""A generated comprehension keeps its loop variable in a Python local unless ``e`` is handed on (loop_locals.py)."""

from __future__ import annotations

import ast

from interpreter import load_game
from interpreter.dsl.loop_locals import as_locals

GAME = """\
game: Pairs
players: {min: 2, max: 2}
properties:
  value: 0
components:
  - {name: one, value: 1, zone: hand, per_player: true}
  - {name: two, value: 2, zone: hand, per_player: true}
  - {name: three, value: 3, zone: hand, per_player: true}
  - {name: other one, value: 1, zone: pile}
  - {name: other three, value: 3, zone: pile}
zones:
  hand: {per: player, visibility: public}
  pile: {visibility: public}
game_variables:
  above: 1
  matched: 0
  listed: []
procedures:
  take_turn(player p): |
    # the inner scan reads the outer loop's card: a local of the outer comprehension, seen by the inner one
    game.matched = count(each a in hand(p) where any(each b in pile where b.value == a.value and a.value >= game.above))
    ask p to choose one of hand(p) as c "play"
    move c to pile
flow:
  - turn: take_turn
    until: size(hand(seat(2))) == 0
scoring:
  score: game.matched
"""


def load(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(GAME, encoding="utf-8")
    return load_game(path)


def comprehensions(game):
    """The loop targets of every comprehension in the game's generated code, as source text."""
    return [ast.unparse(gen.target) for _, fdef in game.code.functions for node in ast.walk(fdef)
            if isinstance(node, ast.comprehension) for gen in [node]]


def test_nested_scans_read_the_outer_card_from_a_local_and_count_as_the_rules_say(tmp_path):
    game = load(tmp_path)
    targets = comprehensions(game)
    assert "v0" in targets and "v1" in targets and not any(t.startswith("e[") for t in targets)
    state = game.new_game(2, seed=1)
    assert state.gv["matched"] == 2  # one and three have a card of their value in the pile, two has none
    state.gv["above"] = 2
    state.apply(0, "play one")  # the pile gains 'one'; seat 2's hand is one, two, three
    assert state.gv["matched"] == 1  # only three: one is below 'above'


def test_a_scan_that_hands_e_on_keeps_its_variable_in_e():
    read = ast.Subscript(ast.Name("e", ast.Load()), ast.Constant("c.1"), ast.Load())
    handed = ast.Call(ast.Name("K", ast.Load()), [ast.Name("s", ast.Load()), ast.Name("e", ast.Load())], [])
    var, (tree,) = as_locals("c.1", [ast.Compare(read, [ast.Eq()], [ast.Constant(1)])])
    assert (var, ast.unparse(tree)) == ("v0", "v0 == 1")
    assert as_locals("c.1", [ast.BoolOp(ast.And(), [read, handed])]) is None
    written = ast.NamedExpr(ast.Subscript(ast.Name("e", ast.Load()), ast.Constant("c.1"), ast.Store()), read)
    assert as_locals("c.1", [written]) is None  # (no rule makes this; a write would not reach the local)


def test_the_local_is_named_apart_from_the_locals_of_scans_inside_it_and_the_trees_are_left_as_they_were():
    read = ast.Subscript(ast.Name("e", ast.Load()), ast.Constant("c.1"), ast.Load())
    inner = ast.ListComp(ast.Tuple([ast.Name("v0", ast.Load()), read], ast.Load()),
                         [ast.comprehension(ast.Name("v0", ast.Store()), ast.Name("s", ast.Load()), [], 0)])
    other = ast.Subscript(ast.Name("e", ast.Load()), ast.Constant("d.2"), ast.Load())
    tree = ast.Tuple([inner, other], ast.Load())
    var, (new,) = as_locals("c.1", [tree])
    assert (var, ast.unparse(new)) == ("v1", "([(v0, v1) for v0 in s], e['d.2'])")
    assert ast.unparse(tree) == "([(v0, e['c.1']) for v0 in s], e['d.2'])"  # new nodes: the tree given is unchanged
    assert new.elts[1] is other  # what holds no read of the variable is shared, not copied
