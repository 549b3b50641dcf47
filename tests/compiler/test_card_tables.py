"""Per-card tables of two cards are worked out per class of cards, with the same entries as card by card.

A condition over two card variables that reads only fixed card properties
(``c.suit == card.suit and c != card``) becomes a table ``table[card][c]`` at
load (``CompileOptions.tables``).  Cards equal on every property the condition
reads give the same entries, so the table is filled with one evaluation per pair
of such classes (and, when the condition compares the two cards, per "same card
or not") instead of one per pair of cards.
"""

from __future__ import annotations

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


# ---------------------------------------------------------------- what the lowering records
# Which per-card tables a card variable indexes is recorded by the lowering as it builds the code
# (static.CardUses), never read back from the code.  In PAIRS the cards are red_one x3, red_two x3,
# blue_one x4: by suit two classes, by rank two others.
BY_SUIT = [0] * 6 + [1] * 4
BY_RANK = [0, 0, 0, 1, 1, 1, 0, 0, 0, 0]

ONE_CONDITION = """game: Pairs
players: {{min: 2, max: 2}}
properties:
  suit: none
  rank: 0
components:
  - {{name: red_one, suit: red, rank: 1, count: 3, zone: deck}}
  - {{name: red_two, suit: red, rank: 2, count: 3, zone: deck}}
  - {{name: blue_one, suit: blue, rank: 1, count: 4, zone: deck}}
zones:
  deck: {{visibility: hidden}}
  hand: {{per: player, visibility: public}}
player_variables: {{found: 0}}
functions:
  same_suit(card x, card y): "x.suit == y.suit"
  one_of(card x, card y): "x.rank == y.rank and size(distinct([x])) == 1"
procedures:
  take_turn(player p): |
    for card in hand(p):
      p.found += count(each c in hand(p) where {condition})
""" + TURN_END


def recorded_classes(tmp_path, monkeypatch, condition, options=None):
    """[(classes of c, classes of card, whether they are compared)] of each table over the two cards the
    condition is made, as two_card_table received them from the lowering; and the game."""
    seen = []
    made = lower_expr.ExpressionLowering.two_card_table

    def spy(self, fn, key, other, uses, as_bool, weight):
        reads, compared = uses.reads()
        count = len(self.ctx.m.card_names)
        seen.append((lower_expr.card_classes(reads, key, count), lower_expr.card_classes(reads, other, count),
                     frozenset((key, other)) in compared))
        return made(self, fn, key, other, uses, as_bool, weight)
    monkeypatch.setattr(lower_expr.ExpressionLowering, "two_card_table", spy)
    path = tmp_path / "one_condition.yaml"
    path.write_text(ONE_CONDITION.format(condition=condition), encoding="utf-8")
    game = load_game(path, options=options)
    return seen, game


@pytest.mark.parametrize("condition, classes", [
    ("c.suit == card.suit and c != card", (BY_SUIT, BY_SUIT, True)),
    ("c.rank == card.rank and c.suit != card.suit", ([0, 0, 0, 1, 1, 1, 2, 2, 2, 2],) * 2 + (False,)),
    # an inlined function's parameters are the caller's card variables: read through their properties
    ("same_suit(c, card)", (BY_SUIT, BY_SUIT, False)),
    ("not same_suit(card, c) and c.rank == 1", ([0, 0, 0, 1, 1, 1, 2, 2, 2, 2], BY_SUIT, False)),
])
def test_a_card_read_only_through_its_properties_is_classed_by_them(tmp_path, monkeypatch, condition, classes):
    seen, _ = recorded_classes(tmp_path, monkeypatch, condition)
    assert seen == [classes]


@pytest.mark.parametrize("condition, classes", [
    # handed to a builtin (in a list): anything may depend on the card itself
    ("c.suit == card.suit and size(distinct([c, card])) == 2", (None, None, False)),
    ("c.suit == card.suit and size(distinct([c])) == 1", (None, BY_SUIT, False)),
    # an inlined function that hands its parameter on: the argument's variable is used so too
    ("one_of(c, card)", (None, BY_RANK, False)),
    ("one_of(card, c)", (BY_RANK, None, False)),
])
def test_a_card_used_otherwise_has_no_classes(tmp_path, monkeypatch, condition, classes):
    seen, _ = recorded_classes(tmp_path, monkeypatch, condition)
    assert seen == [classes]


@pytest.mark.parametrize("condition", [
    "c.suit == card.suit and c != card", "same_suit(c, card)", "not same_suit(card, c) and c.rank == 1",
    "c.suit == card.suit and size(distinct([c])) == 1", "one_of(card, c)",
])
def test_a_table_made_by_classes_gives_what_the_condition_gives_card_by_card(tmp_path, monkeypatch, condition):
    hand = ["red_one", "red_one", "red_two", "blue_one", "blue_one"]
    found = []
    for options in (CompileOptions(), CompileOptions().without("tables")):
        seen, game = recorded_classes(tmp_path, monkeypatch, condition, options)
        state = game.new_game(2, seed=0, scenario={"zones": {"hand(1)": hand}})
        found.append(state.pv["found"][0])
    assert seen == [] and found[0] == found[1] > 0  # (the second load made no table)


def test_cards_differing_on_a_property_read_are_in_different_classes():
    reads = {"c": [[1, 1, 2, 2], ["a", "b", "a", "b"]]}
    assert lower_expr.card_classes(reads, "c", 4) == [0, 1, 2, 3]
    reads = {"c": [[1, True, 1, (1,)]]}  # equal values of other types differ
    assert lower_expr.card_classes(reads, "c", 4) == [0, 1, 0, 2]
    assert lower_expr.card_classes({"c": None}, "c", 4) is None


def test_a_two_card_condition_is_a_table_and_one_reading_the_state_is_scanned(tmp_path, monkeypatch):
    """The per-card precomputation is chosen for a condition over two card variables and their fixed
    properties; one that reads the state (a card at the top of a zone) is evaluated card by card in play."""
    for condition, tabulated in (("c.suit == card.suit and c != card", True),
                                 ("c.suit == top(deck).suit and c != card", False)):
        seen, game = recorded_classes(tmp_path, monkeypatch, condition)
        scanned = "len([1 for v0 in " in game.code.source()  # the count's condition run card by card
        assert (len(seen), scanned) == ((1, False) if tabulated else (0, True))


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
