"""Per-card tables of two cards are worked out per class of cards, with the same entries as card by card.

A condition over two card variables that reads only fixed card properties
(``c.suit == card.suit and c != card``) becomes a table ``table[card][c]`` at
load (``CompileOptions.tables``).  Cards equal on every property the condition
reads give the same entries, so the table is filled with one evaluation per pair
of such classes (and, when the condition compares the two cards, per "same card
or not") instead of one per pair of cards.
"""

from __future__ import annotations

import ast

import pytest

from interpreter import CompileOptions, load_game
from interpreter.dsl import lower_expr
from turn_games import TURN_END

PAIRS = """game: Pairs
players: {min: 2, max: 2}
properties:
  suit: none
  rank: 0
components:
  - {name: red_one, suit: red, rank: 1, count: 3, zone: deck}
  - {name: red_two, suit: red, rank: 2, count: 3, zone: deck}
  - {name: blue_one, suit: blue, rank: 1, count: 4, zone: deck}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: public}
player_variables: {mates: 0, same_rank: 0}
procedures:
  take_turn(player p): |
    for card in hand(p):
      p.mates += count(each c in hand(p) where c.suit == card.suit and c != card)
      p.same_rank += count(each c in hand(p) where c.rank == card.rank)
""" + TURN_END


def pairs_game(tmp_path, options=None):
    path = tmp_path / "pairs.yaml"
    path.write_text(PAIRS, encoding="utf-8")
    return load_game(path, options=options)


def test_a_two_card_table_is_evaluated_once_per_pair_of_card_classes(tmp_path, monkeypatch):
    calls = []
    full = []
    table_of_pairs = lower_expr.pair_table

    def counted(value_of, count, rows, columns, same):
        made = []

        def counted_value(c, o):
            made.append((c, o))
            return value_of(c, o)
        table = table_of_pairs(counted_value, count, rows, columns, same)
        calls.append((len(made), same))
        full.append(table == [[value_of(c, o) for c in range(count)] for o in range(count)])
        return table
    monkeypatch.setattr(lower_expr, "pair_table", counted)
    pairs_game(tmp_path)
    # 10 cards: 100 evaluations card by card.  'c.suit == card.suit and c != card': 2 suits, and
    # whether c is card: at most 2 x 2 x 2.  'c.rank == card.rank': 2 ranks, at most 2 x 2.
    assert sorted(calls) == [(4, False), (6, True)]
    assert full == [True, True]


def test_hands_count_their_mates_from_the_tables(tmp_path):
    """The exact counts of a hand-built position, with the tables and without them."""
    hand = ["red_one", "red_one", "red_two", "blue_one"]
    outcomes = []
    for options in (CompileOptions(), CompileOptions().without("tables")):
        game = pairs_game(tmp_path, options)
        state = game.new_game(2, seed=0, scenario={"zones": {"hand(1)": hand}})
        outcomes.append((state.pv["mates"][0], state.pv["same_rank"][0]))
    # mates: each red card has the two other reds (3 x 2), the blue one none; same rank: the three
    # ones see each other and themselves (3 x 3), the two sees itself (1)
    assert outcomes == [(6, 10), (6, 10)]


def reads(text, count=3, constants=None):
    tree = ast.parse(text, mode="eval").body
    return lower_expr.card_reads(tree, constants or [[0] * count, "x"], count)


def test_a_card_read_only_through_property_tables_has_classes():
    found, compared = reads("K[0][e['c']] == K[0][e['o']] and e['c'] != e['o'] and e['c'] is not None")
    assert found == {"c": [[0, 0, 0]], "o": [[0, 0, 0]]} and compared == {frozenset(("c", "o"))}
    assert lower_expr.card_classes(found, "c", 3) == [0, 0, 0]


@pytest.mark.parametrize("text", [
    "K[1](e['c']) and K[0][e['o']]",  # handed to a call: anything may depend on the card itself
    "K[1][e['c']] == K[0][e['o']]",  # indexes something that is not a table of one entry per card
    "e['c'] + 1 == K[0][e['o']]",  # used as a number
])
def test_a_card_used_otherwise_has_no_classes(text):
    found, _ = reads(text)
    assert found["c"] is None and lower_expr.card_classes(found, "c", 3) is None
    assert lower_expr.card_classes(found, "o", 3) == [0, 0, 0]


def test_the_locals_read_as_a_whole_give_no_classes():
    assert reads("K[1](s, e) and K[0][e['c']]")[0] == {}


def test_cards_differing_on_a_property_read_are_in_different_classes():
    found, _ = reads("K[0][e['c']] == K[2][e['c']]", 4, [[1, 1, 2, 2], "x", ["a", "b", "a", "b"]])
    assert lower_expr.card_classes(found, "c", 4) == [0, 1, 2, 3]
    found, _ = reads("K[0][e['c']]", 4, [[1, True, 1, (1,)], "x"])  # equal values of other types differ
    assert lower_expr.card_classes(found, "c", 4) == [0, 1, 0, 2]


def test_a_part_shared_by_two_places_is_judged_by_both():
    """Generated trees may use one node in two places (``py("_1[_0] if _0 is not None else _2", obj, ...)``)."""
    card = ast.Subscript(ast.Name("e", ast.Load()), ast.Constant("c"), ast.Load())
    table = ast.Subscript(ast.Name("K", ast.Load()), ast.Constant(0), ast.Load())
    call = ast.Subscript(ast.Name("K", ast.Load()), ast.Constant(1), ast.Load())
    tree = ast.BoolOp(ast.And(), [ast.Subscript(table, card, ast.Load()), ast.Call(call, [card], [])])
    found, _ = lower_expr.card_reads(tree, [[0, 0, 0], "x"], 3)
    assert found == {"c": None}


# ---------------------------------------------------------------- the load's budget
# Filling a per-card table evaluates its condition once per card at load: that work is paid from the
# load's step budget (runtime.LOAD_STEPS, shared by all a definition's load works out), by the size of
# the condition, so a huge condition over many cards is left to run time instead of stalling the load.
BUDGETED = """\
game: Budgeted tables
players: {{min: 1, max: 1}}
properties:
  v: 0
components:
  - family: {{n: [{values}]}}
    name: "chip {{n}}"
    v: "{{n}}"
    zone: deck
zones:
  deck: {{}}
functions:
  picked(card c): "{condition}"
procedures:
  take_turn(player p): |
    log "{{count(each c in deck where picked(c))}} picked"
    end game
flow:
  - turn: take_turn
"""


def budgeted_game(tmp_path, terms, monkeypatch):
    import interpreter.dsl.context as context
    monkeypatch.setattr(context, "LOAD_STEPS", 1_000)  # the compiler hands each load its budget (static.LoadBudget)
    condition = " or ".join(f"c.v == {i * 2}" for i in range(terms))
    path = tmp_path / f"budget{terms}.yaml"
    path.write_text(BUDGETED.format(values=", ".join(map(str, range(100))), condition=condition), encoding="utf-8")
    return load_game(path)


@pytest.mark.parametrize("terms, tabulated", [(3, True), (60, False)])
def test_a_per_card_table_is_paid_from_the_loads_budget_by_the_size_of_its_condition(tmp_path, monkeypatch,
                                                                                     terms, tabulated):
    game = budgeted_game(tmp_path, terms, monkeypatch)
    scanned_in_play = "len([1 for v0 in " in game.code.source()  # the count's condition run card by card
    assert scanned_in_play is not tabulated
    state = game.new_game(1, seed=1)
    assert any(f"{min(terms, 50)} picked" in line for line in state.narration(0))
