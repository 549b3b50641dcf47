"""Pairs in loops and menus: ``for q, r in product(xs, ys)`` and ``"ask {q} for {r}s" for q, r in ...``.

The game is tests/definitions/pairs.yaml, a Go-Fish-like ask where one decision names both the
player asked and the rank, and a ``for q, r in product(players, ranks)`` loop whose body waits
for a player.  A pair is a list at run time, so saves stay plain JSON data.
"""

from __future__ import annotations

import json
import random

import pytest

from conftest import REPO_ROOT, start, zone
from test_differential import OPTION_SETS, check_saves_continue, play_in_lockstep

from interpreter import CompileOptions, DefinitionError, RuleError, State, load_game
from interpreter.dsl import types as T

PAIRS = REPO_ROOT / "tests" / "definitions" / "pairs.yaml"
RANKS = ["apple", "pear", "plum"]
ASK_ENTRY = '      "ask {q} for {r}s" for q, r in product([each o in players where o != p], ' \
            'distinct(each c in hand(p): c.rank)):'
BOOK_LOOP = "    for q, r in product(players, ranks):"


@pytest.fixture(scope="module")
def game():
    return load_game(PAIRS)


def line_of(text):
    """The line of pairs.yaml that holds ``text``."""
    whole = PAIRS.read_text(encoding="utf-8")
    return whole[:whole.index(text)].count("\n") + 1


def variant(tmp_path, old, new):
    """pairs.yaml with one line changed, written where a test can load it."""
    text = PAIRS.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "pairs.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def position(game, players, hands, pond):
    zones = {f"hand({i + 1})": hand for i, hand in enumerate(hands)}
    zones.update({f"books({i + 1})": [] for i in range(players)}, pond=pond)
    return start(game, players, zones=zones)


def played_to(game, players, seed, stop):
    """A seeded random game, stopped when ``stop(state)`` holds (or at its end)."""
    state, moves = game.new_game(players, seed), random.Random(seed)
    while not state.is_terminal() and not stop(state):
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
    return state


# ---------------------------------------------------------------- the menu lists exactly the pairs
def test_a_menu_over_pairs_offers_each_other_player_with_each_rank_in_hand_first_list_slowest(game):
    state = position(game, 3, [["apple", "pear", "apple"], ["plum"], ["pear"]], ["plum"])
    assert state.legal_actions(0) == ["ask player 2 for apples", "ask player 2 for pears",
                                      "ask player 3 for apples", "ask player 3 for pears", "draw", "pass"]


@pytest.mark.parametrize("players", [2, 3])
def test_in_any_position_the_menu_is_the_product_of_the_other_players_and_the_ranks_held(game, players):
    for seed in range(6):
        state = played_to(game, players, seed, lambda s: len(s.history) >= seed)
        if state.is_terminal():
            continue
        p = state.current_players()[0]
        options = state.legal_actions(p)
        if not options or not options[-1] == "pass":
            continue  # a book decision, not the ask
        ranks = list(dict.fromkeys(name for name in zone(state, f"hand({p + 1})")))
        others = [q for q in range(players) if q != p]
        expected = [f"ask player {q + 1} for {r}s" for q in others for r in ranks]
        assert options == expected + (["draw"] if zone(state, "pond") else []) + ["pass"]


def test_a_text_without_braces_names_the_pair_its_parts_joined_by_commas(tmp_path):
    path = variant(tmp_path, '"ask {q} for {r}s" for q, r in', '"ask" for q, r in')
    state = position(load_game(path), 2, [["apple", "plum"], ["pear"]], ["pear"])
    assert state.legal_actions(0)[:2] == ["ask player 2, apple", "ask player 2, plum"]


# ---------------------------------------------------------------- choosing one acts on both parts
def test_choosing_a_pair_takes_the_named_rank_from_the_named_player(game):
    state = position(game, 3, [["apple", "pear"], ["pear"], ["apple", "plum", "plum"]], ["pear", "plum"])
    state.apply(0, "ask player 3 for apples")
    assert zone(state, "hand(1)") == ["apple", "pear", "apple"]
    assert zone(state, "hand(3)") == ["plum", "plum"]
    assert zone(state, "hand(2)") == ["pear"] and zone(state, "pond") == ["pear", "plum"]
    assert "player 3 hands player 1 a card." in state.log


def test_asking_a_player_without_the_rank_goes_fishing_and_leaves_them_alone(game):
    state = position(game, 3, [["apple", "pear"], ["pear"], ["apple", "plum", "plum"]], ["pear", "plum"])
    state.apply(0, "ask player 3 for pears")
    assert zone(state, "hand(3)") == ["apple", "plum", "plum"]
    assert zone(state, "hand(1)") == ["apple", "pear", "plum"]  # the pond's top card
    assert zone(state, "hand(2)") == ["pear"]
    assert "player 3 says: go fish (pears)." in state.log


def test_narration_shows_each_part_of_a_pair_as_what_it_was_taken_from_shows_it(game):
    # q comes from the list of players (public), r from the asker's hand (hidden from the others)
    state = position(game, 3, [["apple", "pear"], ["pear"], ["apple", "plum", "plum"]], ["pear", "plum"])
    state.apply(0, "ask player 3 for pears")
    assert state.narration(0) == ["player 3 says: go fish (pears)."]
    for reader in (1, 2, None):
        assert state.narration(reader) == ["player 3 says: go fish ((hidden)s)."]


# ---------------------------------------------------------------- an empty product
def test_with_nothing_in_hand_the_pairs_entry_offers_nothing_and_the_other_options_remain(game):
    state = position(game, 2, [[], ["pear"]], ["pear", "plum"])
    assert state.legal_actions(0) == ["draw", "pass"]


def test_a_loop_over_an_empty_product_runs_its_body_no_time(tmp_path):
    path = variant(tmp_path, BOOK_LOOP, '    for q, r in product(players, [each r in ranks where r == "kiwi"]):')
    state = position(load_game(path), 2, [["plum", "plum"], ["pear"]], ["pear", "plum"])
    state.apply(0, "ask player 2 for plums")  # three plums, but no rank for the loop to look at
    assert zone(state, "hand(1)") == ["plum", "plum", "plum"] and state.current_players() == [1]
    assert zone(state, "books(1)") == []


def test_pairs_too_many_for_the_step_budget_are_a_located_error_before_any_is_made(tmp_path):
    path = variant(tmp_path, "  shuffle pond\n", "  for a, b in product(range(1000), range(1000)):\n    pass\n"
                   "  shuffle pond\n")
    with pytest.raises(RuleError) as info:
        load_game(path).new_game(2, 0)
    assert f"pairs.yaml:{line_of('  shuffle pond')}:23: " in str(info.value)  # the for's line, at the lists
    assert "product() would make more than" in str(info.value)


# ---------------------------------------------------------------- destructuring is checked at load
@pytest.mark.parametrize("old, new, where, message", [
    (BOOK_LOOP, "    for q, r, x in product(players, ranks):", (0, 5),
     "'for q, r, x in' takes each item apart into 3 values, but each item of this list is a pair (a player, "
     "a text), 2 values: name 2 variables"),
    (BOOK_LOOP, "    for q, r in product(players, ranks, players):", (0, 5),
     "'for q, r in' takes each item apart into 2 values, but each item of this list is a triple (a player, "
     "a text, a player), 3 values: name 3 variables"),
    (BOOK_LOOP, "    for q, r in players:", (0, 5),
     "'for q, r in' takes each item apart into 2 values, so it needs a list of pairs (or tuples) of a size "
     "known at load, such as product(xs, ys); this is a list of players"),
    (BOOK_LOOP, "    for q, r in product([players, players]):", (0, 5),
     "this is a list of lists of players"),
    (BOOK_LOOP, "    for q, q in product(players, ranks):", (0, 5), "'for q, q in' names a variable twice"),
    (BOOK_LOOP, "    for q in product(players, ranks):", (1, 34),
     "the argument of hand() must be a player, not a pair (a player, a text)"),
    (ASK_ENTRY, ASK_ENTRY.replace("for q, r in", "for q, r, t in"), (0, 7),
     "'for q, r, t in' takes each item apart into 3 values, but each item of this list is a pair (a player, "
     "a text), 2 values"),
    (ASK_ENTRY, ASK_ENTRY.replace("for q, r in", "for q, players in"), (0, 7),
     "'players' is a reserved name"),
])
def test_taking_an_item_apart_into_the_wrong_names_is_a_load_error_at_the_for(tmp_path, old, new, where, message):
    with pytest.raises(DefinitionError) as info:
        load_game(variant(tmp_path, old, new))
    text = str(info.value)
    where = f":{line_of(old) + where[0]}:{where[1]}:"
    procedure = "lay_books()" if old == BOOK_LOOP else "take_turn(player p)"
    assert f"pairs.yaml{where} procedures.{procedure}: " in text
    assert message in text
    assert "Traceback" not in text


# ---------------------------------------------------------------- a pair chosen as any item
CHOOSE_PAIR = ('      "draw" if size(pond) > 0:\n        move top(pond) to hand(p)\n',
               '      "draw" if size(pond) > 0:\n'
               '        ask p to choose one of product([each o in players where o != p], ranks) as pick "name"\n'
               '        let named = pick[1]\n'
               '        log "{p} names {pick[0]} and {named}s."\n'
               '        move top(pond) to hand(p)\n')


def test_a_pair_chosen_as_an_item_reads_as_its_parts_and_each_part_is_read_by_its_number(tmp_path):
    game = load_game(variant(tmp_path, *CHOOSE_PAIR))
    state = position(game, 3, [["apple", "pear"], ["pear"], ["apple", "plum", "plum"]], ["pear", "plum"])
    state.apply(0, "draw")
    offered = [f"name player {q}, {r}" for q in (2, 3) for r in RANKS]
    assert state.legal_actions(0) == offered
    resumed = State.from_json(game, json.loads(json.dumps(state.to_json())))  # mid-choice: the options are pairs
    assert resumed.legal_actions(0) == offered
    for copy in (state, resumed):
        copy.apply(0, "name player 3, plum")
        assert "player 1 names player 3 and plums." in copy.log
        assert zone(copy, "hand(1)") == ["apple", "pear", "plum"]


@pytest.mark.parametrize("index", ["2", "p.books_made"])
def test_a_part_of_a_pair_is_read_by_a_number_in_range_written_in_the_rule(tmp_path, index):
    old, new = CHOOSE_PAIR
    with pytest.raises(DefinitionError) as info:
        load_game(variant(tmp_path, old, new.replace("pick[1]", f"pick[{index}]")))
    assert f"pairs.yaml:{line_of(old) + 2}:26: " in str(info.value)  # at the number
    assert "a part of a pair (a player, a text) is read by a number from 0 to 1 written in the rule" in str(info.value)


# ---------------------------------------------------------------- saves
def test_a_save_in_the_middle_of_a_menu_over_pairs_resumes_with_the_same_pairs(game):
    state = position(game, 3, [["apple", "pear"], ["pear"], ["apple", "plum", "plum"]], ["pear", "plum"])
    saved = json.loads(json.dumps(state.to_json()))  # plain JSON data, nothing else
    resumed = State.from_json(game, saved)
    assert resumed.legal_actions(0) == state.legal_actions(0)
    for copy in (state, resumed):
        copy.apply(0, "ask player 3 for apples")
    for label in ("hand(1)", "hand(2)", "hand(3)", "pond"):
        assert zone(resumed, label) == zone(state, label)
    assert resumed.log == state.log and zone(resumed, "hand(1)") == ["apple", "pear", "apple"]


def test_a_pair_held_in_locals_across_a_decision_in_a_loop_survives_a_save(game):
    state = position(game, 2, [["apple"], ["plum", "plum", "plum"]], ["pear", "apple"])
    state.apply(0, "ask player 2 for apples")  # goes fishing; then the loop reaches (player 2, plum)
    assert state.current_players() == [1]
    assert state.legal_actions(1) == ["lay down the plums", "keep the plums"]
    saved = json.loads(json.dumps(state.to_json()))
    resumed = State.from_json(game, saved)
    for copy in (state, resumed):
        copy.apply(1, "lay down the plums")
        assert zone(copy, "books(2)") == ["plum", "plum", "plum"] and zone(copy, "hand(2)") == []
        assert copy.log[-1] == "player 2 lays down a book of plums."
        assert list(copy.pv["books_made"]) == [0, 1]


def test_a_menu_option_longer_than_a_save_keeps_is_a_located_error_not_a_save_that_cannot_load(tmp_path):
    path = variant(tmp_path, "  ranks: [apple, pear, plum]", f"  ranks: [apple, pear, plum]\n  long: {'x' * 6000}")
    path.write_text(path.read_text(encoding="utf-8").replace(
        '"ask {q} for {r}s" for q, r in', '"ask {q} for {r}s {long} {long}" for q, r in'), encoding="utf-8")
    game = load_game(path)
    with pytest.raises(RuleError) as info:
        position(game, 2, [["apple"], ["pear"]], ["plum"])
    assert f"pairs.yaml:{line_of(ASK_ENTRY) + 1}:7:" in str(info.value) and "more than the 10,000 an action may have" in str(info.value)


# ---------------------------------------------------------------- the compile options and the save harness
@pytest.mark.parametrize("players", [2, 3])
def test_every_compile_option_set_plays_pair_fish_alike_and_a_save_at_any_decision_continues(players):
    games = [load_game(PAIRS, options=options) for options in OPTION_SETS]
    assert games[0].compile_options == CompileOptions()
    for seed in range(3):
        where = f"pairs.yaml, {players} players, seed {seed}"
        assert play_in_lockstep(games, players, seed, where) > 3
        assert check_saves_continue(games[0], players, seed, where) > 3


# ---------------------------------------------------------------- the kind of a pair
def test_a_pair_has_a_kind_of_its_own_that_fits_only_a_pair_of_fitting_kinds():
    pair = T.tuple_of(["player", "str"])
    assert T.tuple_items(T.tuple_of(["player", T.tuple_of(["int", "card"]), "list:card"])) == \
        ["player", "tuple:(int,card)", "list:card"]
    assert T.fits(pair, T.tuple_of(["player", "str"])) and T.fits(T.tuple_of(["player", "space"]), pair)
    assert not T.fits(pair, T.tuple_of(["card", "str"])) and not T.fits(pair, T.tuple_of(["player", "str", "int"]))
    assert not T.fits(pair, "list:any") and not T.is_list(pair)
    assert T.describe(T.list_of(pair)) == "a list of pairs (a player, a text)"
    assert T.showable(pair) and not T.showable(T.tuple_of(["player", "zone"]))
