"""sort_by and shuffled: ordering players (or any list) by a key, ties broken by the seeded RNG
(tests/definitions/ordering.yaml)."""

from __future__ import annotations

import pytest

from interpreter import DefinitionError, RuleError, load_game
from interpreter.errors import DSLTypeError
from test_list_properties import evaluate
from test_mechanisms import line_of, load, snapshot, write_definition


def queue(players=3, seed=0, **variables):
    scenario = {"player_variables": {str(seat): values for seat, values in variables.items()}} if variables else None
    return load("ordering").new_game(players, seed, scenario=scenario)


def test_players_act_in_key_order():
    # ordering.yaml's first round runs at setup time, so a scenario's variables decide it
    state = queue(4, **{"1": {"points": 2}, "2": {"points": 1, "cards": 0}, "3": {"points": 1, "cards": 3},
                        "4": {"points": 0, "cards": 9}})
    assert state.log == ["order: player 4, player 3, player 2, player 1"]  # fewest points; then most cards
    assert state.gv["order"] == [3, 2, 1, 0]
    assert state.current_players() == [3]


def test_full_ties_are_broken_by_the_seeded_generator_and_replay_the_same():
    orders = {seed: tuple(queue(4, seed).gv["order"]) for seed in range(12)}
    assert all(sorted(order) == [0, 1, 2, 3] for order in orders.values())
    assert len(set(orders.values())) > 3  # the coin really decides
    assert tuple(queue(4, 5).gv["order"]) == orders[5]  # the same seed, the same order


def test_the_order_is_recomputed_each_round_from_the_keys():
    state = queue(3, 0)
    first = state.gv["order"]
    actions = {first[0]: "score 2 and take a card", first[1]: "score 1", first[2]: "score 1"}
    for p in first:
        state.apply(p, actions[p])
    # points are now 2, 1, 1 by the first order; the two with 1 point and no card tie: the coin decides
    second = state.gv["order"]
    assert second[-1] == first[0]
    assert sorted(second[:2]) == sorted(first[1:])
    assert state.log[-1] == "order: " + ", ".join(f"player {p + 1}" for p in second)


def test_a_saved_game_reorders_exactly_as_the_original():
    from interpreter import State
    import json

    state = queue(3, 7)
    loaded = State.from_json(state.game, json.loads(json.dumps(state.to_json())))
    for s in (state, loaded):
        for p in list(s.gv["order"]):
            s.apply(p, "score 1")
    assert snapshot(loaded) == snapshot(state)


@pytest.mark.parametrize("text, expected", [
    ("sort_by(each x in [3, 1, 2]: x)", [1, 2, 3]),
    ("sort_by(each x in [3, 1, 2]: -x)", [3, 2, 1]),                      # descending: negate the key
    ("sort_by(each x in [3, 1, 2, 4] where x != 2: x)", [1, 3, 4]),
    ("sort_by(each x in [21, 12, 11, 22]: x % 10)", [21, 11, 12, 22]),   # ties keep the list's order
    ('sort_by(each x in ["b", "a", "c"]: x)', ["a", "b", "c"]),
    ("sort_by(each x in [[1, 2], [1, 1], [0, 5]]: x)", [[0, 5], [1, 1], [1, 2]]),
    ("sort_by(each x in []: x)", []),
])
def test_sort_by_orders_any_list_by_its_key(text, expected):
    assert evaluate(queue(), text) == expected


def test_shuffled_leaves_its_list_and_draws_from_the_game_generator():
    state = queue(4, 0)
    before = state.rng
    order = evaluate(state, "shuffled(players)")
    assert sorted(order) == [0, 1, 2, 3] and state.rng != before
    assert state.players == [0, 1, 2, 3]


def test_keys_that_cannot_be_compared_are_a_located_rule_error(tmp_path):
    path = write_definition(tmp_path, "bad_keys", "ordering", "[q.points, -q.cards]", "[q.points, [none, 1][q]]")
    with pytest.raises(RuleError) as info:
        load_game(path).new_game(2, 0)
    assert "sort_by() cannot compare the keys [0, " in info.value.message  # [0, None] and [0, 1]
    assert "never none" in info.value.message
    assert info.value.location.line == line_of(path, "game.order = sort_by(")


@pytest.mark.parametrize("new, message", [
    ("sort_by(players)", "sort_by() takes one 'each x in list: key'"),
    ("sort_by(each q in players)", "sort_by() takes one 'each x in list: key'"),
    ("sort_by(each q in players: q.points, 1)", "sort_by() takes one 'each x in list: key'"),
    ("sort_by(each q in players: q.pionts)", "players have no variable 'pionts'; did you mean 'points'?"),
    ("shuffled(3)", "argument 1 of shuffled() must be a list or a zone, not a number"),
])
def test_misused_ordering_builtins_are_located_load_errors(tmp_path, new, message):
    path = write_definition(tmp_path, "bad_order", "ordering",
                            "sort_by(each q in shuffled(players): [q.points, -q.cards])", new)
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert message in info.value.message
    assert info.value.location.line == line_of(path, "game.order =")


def test_sort_by_is_a_reserved_name(tmp_path):
    path = write_definition(tmp_path, "shadow", "ordering", "procedures:\n", "functions:\n  sort_by(int x): x\nprocedures:\n")
    with pytest.raises(DefinitionError, match="'sort_by' is a built-in function"):
        load_game(path)
