"""A generated comprehension keeps its loop variable in a Python local unless ``e`` is handed on (loop_locals.py):
decided, and the local named, from what the lowering recorded of the code it placed in the comprehension."""

from __future__ import annotations

import ast

from interpreter import load_game
from interpreter.dsl.loop_locals import LoopReads
from interpreter.dsl.static import CardUses

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


def load(tmp_path, game=GAME):
    path = tmp_path / "game.yaml"
    path.write_text(game, encoding="utf-8")
    return load_game(path)


def with_line(line):
    """GAME with its turn's first line (the scan) replaced by ``line``."""
    first = GAME.index("    game.matched")
    return GAME[:first] + f"    {line}\n" + GAME[GAME.index("    ask p"):]


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


def test_a_scan_whose_code_hands_e_on_keeps_its_variable_in_e_and_the_key_reads_it(tmp_path):
    # sort_by is handed e and runs its key against it: the key reads the outer card from there
    game = load(tmp_path, with_line("game.listed = [each c in hand(p): "
                                    "sort_by(each d in pile: (d.value - c.value) * (d.value - c.value))[0].value]"))
    assert any(t.startswith("e['c.") for t in comprehensions(game))
    state = game.new_game(2, seed=1)
    assert state.gv["listed"] == [1, 1, 3]  # per card of the hand (1, 2, 3), the pile's value nearest it first


def test_a_scan_around_one_kept_in_e_is_kept_in_e_too(tmp_path):
    game = load(tmp_path, with_line("game.matched = count(each a in hand(p) where count(each c in pile where "
                                    "size(sort_by(each q in hand(p): q.value + a.value + c.value)) > 0) > 0)"))
    targets = comprehensions(game)
    assert sum(t.startswith("e['") for t in targets) == 2 and not any(t.startswith("v") for t in targets)
    assert game.new_game(2, seed=1).gv["matched"] == 3


def test_code_a_per_card_table_left_out_neither_numbers_the_local_nor_keeps_it_in_e(tmp_path):
    # the inner scans become per-card tables: the scan inside one, and sort_by's e, are in no code that runs
    nested = load(tmp_path, with_line("game.matched = count(each a in hand(p) where a.value < "
                                      "count(each c in pile where any(each q in [1, 2] where q == c.value)))"))
    assert comprehensions(nested) == ["v0"]
    assert nested.new_game(2, seed=1).gv["matched"] == 0  # one card of the pile has a value in [1, 2]
    sorted_ = load(tmp_path, with_line("game.matched = count(each a in hand(p) where "
                                       "count(each c in pile where c.value in sort_by(each q in [3, 1, 2]: q)) > a.value)"))
    assert comprehensions(sorted_) == ["v0"]
    assert sorted_.new_game(2, seed=1).gv["matched"] == 1  # both pile cards are listed: only 'one' is below 2


def test_the_reads_made_of_a_scans_variable_become_reads_of_its_local_where_they_stand():
    reads = LoopReads()
    reads.open("c.1")
    read, other = reads.read("c.1"), reads.read("d.2")
    read.lineno, read.col_offset, read.end_lineno, read.end_col_offset = 7, 4, 7, 9
    tree = ast.Tuple([ast.Compare(read, [ast.Eq()], [ast.Constant(1)]), other], ast.Load())
    inside = CardUses()
    inside.holds_local(0)  # a comprehension inside loops with v0
    assert reads.close("c.1", inside) == "v1"
    assert ast.unparse(tree) == "(v1 == 1, e['d.2'])" and (read.lineno, read.col_offset) == (7, 4)
    assert inside.deepest == 1  # for the code around it


def test_a_scan_whose_code_hands_e_on_leaves_its_reads_in_e():
    reads = LoopReads()
    reads.open("c.1")
    read = reads.read("c.1")
    handing = CardUses()
    handing.hand_on()
    assert reads.close("c.1", handing) is None
    assert ast.unparse(read) == "e['c.1']" and handing.deepest == -1
