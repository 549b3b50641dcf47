"""interpreter.adapters.actions: fixed action ids, a game-wide table whose ids mean the same option in every
decision of a kind, used by the OpenSpiel and PettingZoo adapters."""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.adapters.actions import NUMBERS, ActionTable

DEFINITIONS = Path(__file__).resolve().parents[2] / "definitions"
TESTS = Path(__file__).resolve().parents[1] / "definitions"
KINDS = TESTS / "action_kinds.yaml"  # test-only: one decision of each kind

CONFIGURATIONS = [
    (DEFINITIONS / "frog_tower.yaml", [], 3),
    (DEFINITIONS / "frog_tower.yaml", ["crayfish"], 4),
    (DEFINITIONS / "kaeru.yaml", [], 2),
    (DEFINITIONS / "crazy_eights.yaml", [], 3),
    (DEFINITIONS / "top_frog.yaml", [], 3),
    (KINDS, [], 2),
    (TESTS / "decisions.yaml", [], 3),
    (TESTS / "simultaneous.yaml", [], 3),
]


def decisions(game, players: int, seeds=range(4)):
    """(state, seat) at every decision of random games (each seat a simultaneous decision waits for)."""
    for seed in seeds:
        state, rng = game.new_game(players, seed, log=False), random.Random(seed)
        while not state.is_terminal():
            for seat in state.current_players():
                yield state, seat
            seat = state.current_players()[0]
            state.apply_id(seat, state.sample_action_id(seat, rng))


def is_combination(state, seat) -> bool:
    p = state.pending
    i = p.players.index(seat)
    return bool(p.lazy and p.lazy[i]) or type(p.values[i][0]) is list


@pytest.mark.parametrize("path, variants, players", CONFIGURATIONS, ids=lambda v: getattr(v, "stem", None))
def test_an_action_id_means_the_same_option_in_every_decision_of_its_kind(path, variants, players):
    game = load_game(path, variants=list(variants))
    table = ActionTable(game, players, 64)
    meanings = defaultdict(set)  # (the decision's prompt, id) -> the texts it was given to
    for state, seat in decisions(game, players):
        ids, texts = table.ids(state, seat), state.legal_actions(seat)
        assert len(ids) == len(texts) == len(set(ids))  # distinct within a decision
        assert all(0 <= i < table.size for i in ids)
        for action, text in zip(ids, texts):
            if action >= table.fallback:
                assert is_combination(state, seat), text  # only combinations are numbered by position
            else:
                meanings[state.pending.prompt, action].add(text)
    assert meanings
    assert {key: texts for key, texts in meanings.items() if len(texts) > 1} == {}


def test_one_item_s_id_is_its_index_in_the_items_whatever_the_verb():
    game = load_game(KINDS)
    table = ActionTable(game, 2, 16)
    assert table.items[:4] == ["blue", "gold", "green", "red"]  # card names first, sorted
    assert table.items[4:6] == ["player 1", "player 2"]
    assert table.items[6:8] == ["low", "high"]  # the strings of the rules' list literals
    assert table.items[8:8 + NUMBERS] == [str(k) for k in range(NUMBERS)] and table.items[-2:] == ["yes", "no"]
    assert table.one_item_id("keep", "keep gold") == 1 == table.one_item_id("discard", "discard gold")
    assert table.one_item_id("bid", "bid high") == 7


def test_a_menu_s_fixed_text_and_templated_entries_have_their_own_blocks():
    game = load_game(KINDS)
    table = ActionTable(game, 2, 16)
    items, base = table.items, len(table.items)
    assert table.texts == ["pass"] and table.menu_id("pass") == base
    ((pieces, holes, first),) = table.templates
    assert (pieces, holes, first) == (("put ", " on pile ", ""), 2, base + 1)
    action = table.menu_id("put gold on pile 2")
    assert action == first + items.index("gold") * base + items.index("2")
    assert table.describe(action) == "text 'put gold on pile 2'" and table.describe(base) == "text 'pass'"
    assert table.describe(1) == "item 'gold'"
    assert table.fallback == first + base ** 2 and table.size == table.fallback + 16
    assert table.menu_id("put violet on pile 2") is None  # no such item: the option falls back


def test_combinations_are_numbered_by_their_place_in_the_decision():
    game = load_game(KINDS)
    table = ActionTable(game, 2, 16)
    found = 0
    for state, seat in decisions(game, 2):
        if state.pending.prompt == "discard":
            assert table.ids(state, seat) == list(range(table.fallback, table.fallback + len(state.legal_actions(seat))))
            found += 1
    assert found


def test_the_table_is_made_from_the_definition_not_from_games():
    game = load_game(KINDS)
    before = ActionTable(game, 2, 16)
    for state, seat in decisions(game, 2, seeds=range(2)):
        before.ids(state, seat)
    after = ActionTable(game, 2, 16)
    assert (after.items, after.texts, after.size) == (before.items, before.texts, before.size)
    assert ActionTable(game, 3, 16).items[4:7] == ["player 1", "player 2", "player 3"]  # per player count


def test_a_decision_whose_options_would_share_an_id_is_numbered_by_the_fallback():
    game = load_game(KINDS)
    table = ActionTable(game, 2, 16)
    state = next(state for state, seat in decisions(game, 2) if state.pending.prompt == "bid")
    seat = state.current_players()[0]
    table._one["bid"] = {"bid low": 3, "bid high": 3}  # as if both read as one item
    assert table.ids(state, seat) == [table.fallback, table.fallback + 1]
