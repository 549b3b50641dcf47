"""A board per player count (board: {players: {2: ..., 3: ...}}) and step-only edges (adjacent: false)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import DefinitionError, RuleError, load_game
from interpreter.state import State

DEFINITION = Path(__file__).parents[1] / "definitions" / "board_per_count.yaml"
TEXT = DEFINITION.read_text(encoding="utf-8")


def query(state, text: str):
    """Evaluate an effect-language expression against the game the state was started with."""
    from interpreter.dsl.compiler import Compiler, Scope
    from interpreter.dsl.parser import parse_expression

    fn, _ = Compiler(state.game).expr(parse_expression(text), Scope({}, None))
    return fn(state, {})


def pawns_at(space, seats):
    names = ["red pawn", "blue pawn", "green pawn", "white pawn"][:seats]
    return {"zones": {f"stand({space})": names}}


def variant_of(tmp_path, old: str, new: str, name="game.yaml") -> Path:
    assert old in TEXT
    path = tmp_path / name
    path.write_text(TEXT.replace(old, new), encoding="utf-8")
    return path


# ---------------------------------------------------------------- each count its own board
def test_each_player_count_plays_on_its_own_board():
    game = load_game(DEFINITION)
    two, three, four = (game.new_game(n, 0) for n in (2, 3, 4))
    assert two.game.board.grid == (3, 3) and len(query(two, "spaces")) == 9
    assert three.game.board.grid == four.game.board.grid == (4, 4) and len(query(three, "spaces")) == 16
    assert "cell(r3c3)" in two.view(0)["zones"] and "cell(r4c4)" not in two.view(0)["zones"]
    assert three.view(0)["zones"]["cell(r4c4)"]["cards"] == ["stone"]
    assert two.view(0)["zones"]["supply"]["cards"] == ["stone"] * 7 + ["green pawn", "white pawn"]
    assert three.view(0)["zones"]["supply"]["cards"] == ["white pawn"]


def test_player_counts_sharing_an_anchor_share_one_compiled_game():
    game = load_game(DEFINITION)
    assert game.for_players(2) is game and game.board_counts == (2,)
    assert game.for_players(3) is game.for_players(4) and game.for_players(3).board_counts == (3, 4)
    assert [counts for counts, _ in game.every_count()] == [(2,), (3, 4)]


def test_a_plain_board_is_one_game_for_every_count():
    game = load_game(Path(__file__).parents[1] / "definitions" / "board_grid.yaml")
    assert game.family is None and game.for_players(4) is game and game.every_count() == [(None, game)]


def test_steps_adjacency_and_distance_follow_the_games_own_board():
    game = load_game(DEFINITION)
    two, three = game.new_game(2, 0), game.new_game(3, 0)
    assert query(two, 'step("r3c2", "south")') == "r1c2"
    assert query(three, 'step("r3c2", "south")') == "r4c2"
    assert query(three, 'step("r4c3", "south")') == "r1c3"
    assert query(two, 'distance("r1c1", "r3c3")') == 4 and query(three, 'distance("r1c1", "r4c4")') == 6


def test_counters_on_spaces_and_saves_work_at_every_count():
    game = load_game(DEFINITION)
    state = game.new_game(4, 3)
    state.apply(0, "hop south")
    assert state.view(None)["counters"]["marks"]["spaces"]["r3c2"] == 1
    assert len(state.view(None)["counters"]["marks"]["spaces"]) == 16
    again = State.from_json(game, state.to_json())
    assert again.game is state.game and again.to_json() == state.to_json()


def test_a_scenario_names_the_spaces_of_its_own_count():
    game = load_game(DEFINITION)
    state = game.new_game(3, 0, scenario=pawns_at("r4c4", 3))
    assert state.view(0)["zones"]["stand(r4c4)"]["cards"] == ["red pawn", "blue pawn", "green pawn"]
    with pytest.raises(DefinitionError, match=r"unknown zone 'stand\(r4c4\)'; zones are supply, cell\(r1c1\)"):
        game.new_game(2, 0, scenario=pawns_at("r4c4", 2))


# ---------------------------------------------------------------- quoted spaces
def test_a_space_of_another_counts_board_is_a_located_error_only_when_run():
    game = load_game(DEFINITION)
    scenario = {**pawns_at("r2c2", 3), "player_variables": {"1": {"points": 5}}}
    three = game.new_game(3, 0, scenario=scenario)
    three.apply(0, "to the far corner")
    assert three.view(0)["zones"]["stand(r4c4)"]["cards"] == ["red pawn"]
    two = game.new_game(2, 0, scenario={**pawns_at("r2c2", 2), "player_variables": {"1": {"points": 5}}})
    with pytest.raises(RuleError) as caught:
        two.apply(0, "to the far corner")
    assert "board_per_count.yaml:66:34: procedures.take_turn(player p): 'r4c4' is not a space of the board " \
           "for 2 players (its spaces: r1c1, r1c2, r1c3, r2c1, r2c2, r2c3, r3c1, r3c2, r3c3)" in str(caught.value)


def test_a_space_on_no_board_is_a_load_error(tmp_path):
    path = variant_of(tmp_path, 'stand("r4c4")', 'stand("r5c5")')
    with pytest.raises(DefinitionError, match=r"game.yaml:66:\d+: .*(with the board for 2 players)"):
        load_game(path)


# ---------------------------------------------------------------- errors in the table of boards
def test_a_player_count_without_a_board_is_a_located_load_error(tmp_path):
    path = variant_of(tmp_path, "    4: *large\n", "")
    with pytest.raises(DefinitionError) as caught:
        load_game(path)
    assert str(caught.value).startswith(f"{path}:23:5: board.players: no board for 4 players: the game is for "
                                        "2-4 players, and every player count it allows needs a board")


def test_a_board_for_a_count_the_game_does_not_allow_is_refused(tmp_path):
    path = variant_of(tmp_path, "    4: *large\n", "    4: *large\n    6: *large\n")
    with pytest.raises(DefinitionError) as caught:
        load_game(path)
    assert str(caught.value).startswith(f"{path}:34:5: board.players[6]: a board for 6 players, but the game is "
                                        "for 2-4 players (players.min to players.max)")


def test_an_error_in_one_counts_board_is_located_and_names_the_count(tmp_path):
    path = variant_of(tmp_path, "{from: r1c3, to: r4c3, direction: north", "{from: r1c3, to: r9c3, direction: north")
    with pytest.raises(DefinitionError) as caught:
        load_game(path)
    assert str(caught.value).startswith(f"{path}:31:28: board.players[3].edges[0].to: edge to 'r9c3' is not a "
                                        "declared space (in the board for 3-4 players)")


def test_a_rule_error_at_one_count_only_is_found_by_validate_and_names_the_count(tmp_path):
    path = variant_of(tmp_path, "player_variables:\n  points: 0\n",
                      "player_variables:\n  points: 0\n  home: {default: r4c4, kind: space}\n")
    with pytest.raises(DefinitionError, match=r"the default 'r4c4' is not a space of the board .*"
                                              r"\(with the board for 2 players\)"):
        load_game(path)


def test_validate_compiles_the_rules_for_every_board(tmp_path, capsys):
    from interpreter.cli import main

    path = variant_of(tmp_path, "player_variables:\n  points: 0\n",
                      "player_variables:\n  points: 0\n  home: {default: r3c3, kind: space}\n")
    game = load_game(path)  # loads: the smallest count's board has r3c3 ...
    assert game.new_game(3, 0).pv["home"] == ["r3c3"] * 3
    assert main(["validate", str(DEFINITION)]) == 0
    assert "2 boards by player count" in capsys.readouterr().out


# ---------------------------------------------------------------- step-only edges
def test_a_step_only_edge_is_stepped_along_but_is_no_adjacency():
    two = load_game(DEFINITION).new_game(2, 0)
    assert query(two, 'step("r1c2", "north")') == "r3c2"
    assert "r3c2" not in query(two, 'adjacent("r1c2")') and query(two, 'adjacent("r1c2")') == ["r1c1", "r1c3", "r2c2"]
    assert query(two, 'distance("r1c2", "r3c2")') == 2


def test_hopping_along_a_step_only_edge_moves_the_pawn_round_the_board():
    state = load_game(DEFINITION).new_game(3, 0, scenario=pawns_at("r1c3", 3))
    assert state.legal_actions(0) == ["hop north", "hop east", "hop south", "hop west"]
    state.apply(0, "hop north")
    assert state.view(0)["zones"]["stand(r4c3)"]["cards"] == ["red pawn"]
    assert state.view(0)["counters"]["marks"]["spaces"]["r4c3"] == 1


# ---------------------------------------------------------------- grid lines
def test_row_lists_a_grid_row_west_to_east_and_column_a_column_north_to_south():
    game = load_game(DEFINITION)
    two, three = game.new_game(2, 0), game.new_game(3, 0)
    assert query(two, 'row("r2c3")') == ["r2c1", "r2c2", "r2c3"]
    assert query(three, 'column("r2c3")') == ["r1c3", "r2c3", "r3c3", "r4c3"]
    assert query(three, '[each sp in row("r4c2") where sp != "r4c2"]') == ["r4c1", "r4c3", "r4c4"]
    line = query(two, 'row("r1c1")')
    line.append("x")  # a fresh list each time: the board's own table is untouched
    assert query(two, 'row("r1c1")') == ["r1c1", "r1c2", "r1c3"]


def line_game(tmp_path, board: str, rule: str) -> Path:
    path = tmp_path / "lines.yaml"
    path.write_text(f"game: G\nplayers: {{min: 2, max: 2}}\nboard: {board}\nzones: {{box: {{}}}}\n"
                    f"procedures:\n  turn(player p): |\n    {rule}\nflow:\n  - turn: turn\n"
                    "    until: game.turn >= 2\n", encoding="utf-8")
    return path


def test_row_and_column_need_a_grid_board(tmp_path):
    path = line_game(tmp_path, "{ring: {spaces: [a, b, c]}}", 'let line = row("a")')
    with pytest.raises(DefinitionError) as caught:
        load_game(path)
    assert str(caught.value).startswith(f"{path}:7:20: procedures.turn(player p): row() needs a grid board "
                                        "(board: {grid: {rows: R, columns: C}})")


def test_the_row_of_a_space_off_the_grid_is_a_located_rule_error(tmp_path):
    path = line_game(tmp_path, "{grid: {rows: 2, columns: 2}, spaces: [outside]}", 'let line = column("outside")')
    with pytest.raises(RuleError) as caught:
        load_game(path).new_game(2, 0)
    assert str(caught.value).startswith(f"{path}:7:23: procedures.turn(player p): column(): 'outside' is not a "
                                        "space of the grid")
