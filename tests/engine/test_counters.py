"""Counters kept on cards, board spaces and players, proved on tests/definitions/counters.yaml.

After setup: moss (3 drops) on r1c1, moss (1 drop) on r1c2, r1c3 blank with 1 drop of its own;
the deck holds two ferns; nobody has a drop.
"""

from __future__ import annotations

import json

import pytest

from interpreter import DefinitionError, RuleError, SaveFileError, State, load_game
from test_mechanisms import DEFINITIONS, line_of, load, snapshot, write_definition, zone

COUNTERS = DEFINITIONS / "counters.yaml"


@pytest.fixture
def dew():
    return load("counters").new_game(2, 0)


def drops(state):
    rows = state.counters["drops"]
    g = state.game
    spaces = dict(zip(g.board.spaces, rows["space"]))
    cards = {label: [rows["card"][c] for c in state.zones[g.zone_index(label)]]
             for label in ("cell(r1c1)", "cell(r1c2)", "cell(r1c3)", "hand(1)", "hand(2)")}
    return spaces, cards, rows["player"]


def test_counters_start_at_zero_and_setup_puts_them_on_cards_or_blank_spaces(dew):
    spaces, cards, players = drops(dew)
    assert spaces == {"r1c1": 0, "r1c2": 0, "r1c3": 1}
    assert cards["cell(r1c1)"] == [3] and cards["cell(r1c2)"] == [1]
    assert players == [0, 0]
    assert sum(dew.counters["drops"]["card"]) == 4  # the ferns in the deck have none


def test_counter_read_in_an_expression_sums_card_and_space(dew):
    from interpreter.dsl.compiler import Compiler, Scope
    from interpreter.dsl.parser import parse_expression

    fn, kind = Compiler(dew.game).expr(parse_expression("drops_at(sp)"), Scope({"sp": "space"}, None))
    assert kind == "int"
    assert [fn(dew, {"sp": sp}) for sp in ("r1c1", "r1c2", "r1c3")] == [3, 1, 1]


def test_move_all_of_a_cards_counter_to_a_player(dew):
    dew.apply(0, "collect")
    dew.apply(0, "collect at r1c1")
    spaces, cards, players = drops(dew)
    assert players == [3, 0]
    assert cards["hand(1)"] == [0] and cards["cell(r1c1)"] == []
    assert spaces == {"r1c1": 0, "r1c2": 0, "r1c3": 1}


def test_a_cards_counters_travel_with_it_and_a_blank_spaces_pass_to_the_card_that_fills_it(dew):
    dew.apply(0, "uproot")
    dew.apply(0, "uproot at r1c1")
    assert drops(dew)[1]["hand(1)"] == [3]  # the drops went into the hand with the card
    dew.apply(1, "rain")  # r1c1 is blank now: its drop goes on the space; r1c2's on its moss
    spaces, cards, _ = drops(dew)
    assert spaces == {"r1c1": 1, "r1c2": 0, "r1c3": 2} and cards["cell(r1c2)"] == [2]
    dew.apply(0, "plant")  # one card in hand: planted without asking which
    assert dew.legal_actions(0) == ["plant on r1c1", "plant on r1c3"]
    dew.apply(0, "plant on r1c3")
    spaces, cards, _ = drops(dew)
    assert cards["cell(r1c3)"] == [3 + 2] and spaces["r1c3"] == 0
    assert sum(dew.counters["drops"]["card"]) + sum(dew.counters["drops"]["space"]) == 4 + 1 + 3


def test_move_up_to_takes_what_there_is(dew):
    dew.apply(0, "skim")
    assert drops(dew)[0]["r1c3"] == 0 and drops(dew)[2] == [1, 0]
    dew.apply(1, "skim")
    assert drops(dew)[2] == [1, 0]  # nothing left to take: no error, nothing moves


def test_exact_move_and_subtraction_keep_the_total(dew):
    dew.apply(0, "collect")
    dew.apply(0, "collect at r1c1")
    dew.apply(1, "rain")
    dew.apply(0, "give 1")
    assert drops(dew)[2] == [2, 1]
    dew.apply(1, "skim")
    dew.apply(0, "pay 2")
    assert drops(dew)[2] == [0, 1 + 2]  # rain left 2 drops on r1c3 for the skim


def test_counters_are_public_per_space_per_player_and_on_cards_the_viewer_sees(dew):
    dew.apply(0, "uproot")
    dew.apply(0, "uproot at r1c1")
    own, other, spectator = dew.view(0), dew.view(1), dew.view(None)
    for view in (own, other, spectator):
        assert view["counters"] == {"drops": {"spaces": {"r1c1": 0, "r1c2": 0, "r1c3": 1}, "players": [0, 0]}}
        assert view["zones"]["cell(r1c2)"] == {"cards": ["moss"], "counters": {"drops": [1]}}
    assert own["zones"]["hand(1)"] == {"cards": ["moss"], "counters": {"drops": [3]}}
    assert other["zones"]["hand(1)"] == {"count": 1}  # a hidden card's counters are hidden with it
    assert spectator["zones"]["hand(1)"] == {"count": 1}


def test_top_only_zone_shows_the_top_cards_counters(tmp_path):
    path = write_definition(tmp_path, "top_cells", "counters", "cell: {per: space, visibility: public}",
                            "cell: {per: space, visibility: top}")
    state = load_game(path).new_game(2, 0)
    assert state.view(0)["zones"]["cell(r1c1)"] == {"count": 1, "top": "moss", "top_counters": {"drops": 3}}
    assert state.view(0)["zones"]["cell(r1c3)"] == {"count": 0, "top": None}


def test_scenario_sets_counters_as_a_view_shows_them():
    state = load("counters").new_game(2, 0, scenario={
        "zones": {"cell(r1c3)": ["fern"]},
        "counters": {"drops": {"spaces": {"r1c1": 4}, "players": {"2": 5}, "cards": {"cell(r1c3)": [7]}}}})
    spaces, cards, players = drops(state)
    assert spaces["r1c1"] == 4 and players == [0, 5] and cards["cell(r1c3)"] == [7]


@pytest.mark.parametrize("count", [10 ** 18 + 1, 2 ** 70, -(10 ** 18) - 1])
def test_a_scenario_counter_beyond_the_number_limit_is_refused(count):
    game = load("counters")
    with pytest.raises(DefinitionError) as caught:
        game.new_game(2, 0, scenario={"counters": {"drops": {"players": {"1": count}}}})
    assert str(caught.value).startswith("the scenario: counters.drops.players.1: ")
    assert str(caught.value).endswith(" is beyond the limit of numbers in rules (-10^18 to 10^18)")
    assert drops(game.new_game(2, 0, scenario={"counters": {"drops": {"players": {"1": 10 ** 18}}}}))[2] \
        == [10 ** 18, 0]


def test_counters_survive_a_save_and_reload_and_clones_are_independent(dew):
    dew.apply(0, "collect")
    dew.apply(0, "collect at r1c2")
    data = json.loads(json.dumps(dew.to_json()))
    assert data["counters"] == dew.counters
    loaded = State.from_json(dew.game, data)
    assert snapshot(loaded) == snapshot(dew)
    copy = dew.clone()
    copy.apply(1, "skim")
    assert drops(dew)[2] == [1, 0] and drops(copy)[2] == [1, 1]


@pytest.mark.parametrize("damage, message", [  # a save is checked against the replay of its own actions
    (lambda d: d.pop("counters"), "the save file is incomplete: it has no 'counters'"),
    (lambda d: d["counters"]["drops"].pop("space"), "the counters differs from the replay"),
    (lambda d: d["counters"]["drops"]["player"].append(0), "the counters differs from the replay"),
    (lambda d: d["counters"]["drops"]["card"].__setitem__(0, -1), "the counters differs from the replay"),
    (lambda d: d["counters"]["drops"]["card"].__setitem__(0, "3"), "the counters differs from the replay"),
])
def test_a_save_with_damaged_counters_is_refused(dew, damage, message):
    data = json.loads(json.dumps(dew.to_json()))
    damage(data)
    with pytest.raises(SaveFileError, match=message):
        State.from_json(dew.game, data)


def test_a_game_without_counters_has_none_in_its_views_and_saves():
    state = load("modifiers").new_game(2, 0)
    assert "counters" not in state.view(0)
    assert state.to_json()["counters"] == {}
    assert state.clone().counters == {}


# ---------------------------------------------------------------- misuse
def rule_error(tmp_path, old, new, action_path):
    path = write_definition(tmp_path, "bad_drops", "counters", old, new)
    state = load_game(path).new_game(2, 0)
    for player, action in action_path[:-1]:
        state.apply(player, action)
    before = snapshot(state)
    with pytest.raises(RuleError) as info:
        state.apply(*action_path[-1])
    assert snapshot(state) == before
    return info.value, path


def test_taking_more_than_a_counter_holds_is_a_located_rule_error(tmp_path):
    err, path = rule_error(tmp_path, '"pay 2" if drops(p) >= 2:', '"pay 2":', [(0, "pay 2")])
    assert "drops(player 1) would go below zero (0 -= 2)" in err.message
    assert (err.location.line, err.location.column) == (line_of(path, "drops(p) -= 2"), 9)


def test_moving_more_than_a_counter_holds_is_a_located_rule_error(tmp_path):
    err, path = rule_error(tmp_path, '"give 1" if drops(p) >= 1:', '"give 1":', [(0, "give 1")])
    assert "cannot move 1 of drops(player 1): it has only 0 (write 'move up to 1 of ...'" in err.message
    assert err.location.line == line_of(path, "move 1 of drops(p)")


def test_a_counter_of_nothing_is_a_located_rule_error(tmp_path):
    err, path = rule_error(tmp_path, "move drops(sp) to drops(c)", 'move drops(top(cell("r1c2"))) to drops(c)',
                           [(0, "uproot"), (0, "uproot at r1c1"), (1, "uproot"), (0, "plant"), (0, "plant on r1c3")])
    assert "drops(): the card is none" in err.message  # r1c2 is blank: its top card is none
    assert err.location.line == line_of(path, 'move drops(top(cell("r1c2")))')


@pytest.mark.parametrize("old, new, message, cls", [
    ("drops(top(cell(sp))) += n", "drops(top(cell(sp))) += true_or_text", "unknown name 'true_or_text'", "name"),
    ("drops: {on: [card, space, player], description: drops of dew}", "drops: {on: [card, space]}",
     "drops() is counted on cards and spaces, not on players (add player to counters.drops.on)", "type"),
    ("move drops(c) to drops(p)", "move drops(c) to drops(p) at bottom", "counts have no bottom", "type"),
    ("move drops(c) to drops(p)", "move 1 of drops(c) to hand(p)", "a count moves from one counter to another", "type"),
    ("move drops(c) to drops(p)", "move drops(c) to hand(p)", "a count moves from one counter to another", "type"),
    ("drops(p) -= 2", "size(p) -= 2", "only a counter can be changed this way", "name"),
    ("drops(p) -= 2", 'drops(p) -= "two"', "the number of drops must be a number", "type"),
    ('"rain":\n', '"rain":\n        let q = none\n        drops(q) += 1\n',
     "cannot tell whether this is a card, a space or a player", "type"),
    ("counters:\n", "parameters:\n  drops: 3\ncounters:\n", "'drops' is already a parameter", "def"),
])
def test_misused_counters_are_located_load_errors(tmp_path, old, new, message, cls):
    from interpreter.errors import DSLNameError, DSLTypeError

    path = write_definition(tmp_path, "bad_drops", "counters", old, new)
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    err = info.value
    assert message in err.message
    assert isinstance(err, {"name": DSLNameError, "type": DSLTypeError, "def": DefinitionError}[cls])
    assert err.location.file == str(path) and err.location.line


def test_a_counter_on_spaces_needs_a_board(tmp_path):
    path = tmp_path / "no_board.yaml"
    path.write_text("game: G\nplayers: {min: 1, max: 1}\ncounters:\n  drops: {on: [space]}\nzones:\n  deck: {}\n"
                    "procedures:\n  turn(player p): end game\nflow:\n  - turn: turn\n")
    with pytest.raises(DefinitionError, match="counter 'drops' is kept on spaces, but the game has no board"):
        load_game(path)


@pytest.mark.parametrize("text, place, message", [
    ("counters:\n  drops:\n    players: {'1': -2}\n", ":3:20: counters.drops.players.1: ",
     "scenario: counts of drops are whole numbers >= 0, not -2"),
    ("counters:\n  drops:\n    cards: {'cell(r1c3)': 7}\n", ":3:27: ",
     "scenario: counters drops of cell(r1c3): give a list of counts, one per card"),
    ("counters:\n  drops:\n    seats: {'1': 2}\n", ":3:5: counters.drops.seats: ",
     "scenario: counter 'drops' has no counts on 'seats'; counts are on spaces, players or cards"),
])
def test_a_scenario_files_counts_of_the_wrong_kind_are_refused_at_their_own_line(tmp_path, text, place, message):
    from interpreter import load_scenario
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DefinitionError) as caught:
        load("counters").new_game(2, 0, scenario=load_scenario(path))
    assert str(caught.value).startswith(f"{path}{place}") and message in str(caught.value)


def test_the_scenario_schema_has_exactly_the_scenario_keys():
    from interpreter.loader.scenario import SCENARIO_KEYS
    from interpreter.loader.schema import load_schema
    assert tuple(load_schema("scenario.schema.json")["properties"]) == SCENARIO_KEYS
