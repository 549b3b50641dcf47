"""Variants patch one value inside a part by its key path (``replace: {board.players.6: ...}``), leaving the rest.

The test-only game is tests/definitions/board_per_count.yaml (a board per player count, 3 and 4 sharing one through
a YAML anchor); Top Frog's 6-player Pond is patched the same way.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter import DefinitionError, load_game

from conftest import REPO_ROOT

SIZED = Path(__file__).parents[1] / "definitions" / "board_per_count.yaml"
TOP_FROG = REPO_ROOT / "definitions" / "top_frog.yaml"


def variant(folder: Path, name: str, body: str, game: str = "Sized Hop") -> Path:
    path = folder / name
    path.write_text(f"variant: {name}\ngame: {game}\n" + textwrap.dedent(body).lstrip(), encoding="utf-8")
    return path


def error_of(base, variants) -> str:
    with pytest.raises(DefinitionError) as info:
        load_game(base, variants=[str(v) for v in variants])
    return str(info.value)


def boards(game, counts):
    return {n: game.for_players(n).board for n in counts}


def test_replacing_one_player_counts_board_leaves_the_other_counts_as_they_were(tmp_path):
    wide = variant(tmp_path, "wide.yaml", """
        replace:
          board.players.4:
            grid: {rows: 4, columns: 5}
        """)
    plain, patched = load_game(SIZED), load_game(SIZED, variants=[str(wide)])
    assert patched.for_players(4).board.grid == (4, 5)
    assert patched.for_players(3).board.grid == (4, 4) and patched.for_players(2).board.grid == (3, 3)
    # The count that shared the patched board through an anchor keeps its own copy, edges included.
    assert patched.source.data["board"]["players"][3] == plain.source.data["board"]["players"][3]
    assert patched.source.data["board"]["players"][2] == plain.source.data["board"]["players"][2]
    assert "edges" not in patched.source.data["board"]["players"][4]
    assert [str(c) for c in patched.source.changes] == [f"wide replaces 'board.players.4' ({wide}:4:3)"]


def test_a_key_path_reaches_inside_an_aliased_board_without_changing_the_alias(tmp_path):
    taller = variant(tmp_path, "taller.yaml", """
        replace:
          board.players.3.grid: {rows: 5, columns: 4}
        """)
    game = load_game(SIZED, variants=[str(taller)])
    assert game.for_players(3).board.grid == (5, 4) and game.for_players(4).board.grid == (4, 4)
    assert game.source.data["board"]["players"][3]["edges"] == game.source.data["board"]["players"][4]["edges"]


def test_a_key_path_works_in_any_part_and_add_puts_a_new_key(tmp_path):
    paths = variant(tmp_path, "paths.yaml", """
        add:
          zones.supply.description: The stones and pawns not yet placed.
        replace:
          zones.catch.visibility: owner
          components.stone.count: 20
        """)
    game = load_game(SIZED, variants=[str(paths)])
    zones = game.source.data["zones"]
    assert zones["catch"] == {"per": "player", "visibility": "owner"}
    assert zones["supply"] == {"description": "The stones and pawns not yet placed."}
    assert zones["cell"] == load_game(SIZED).source.data["zones"]["cell"]
    assert sum(1 for c in game.source.data["components"] if c["name"] == "stone") == 1
    assert next(c for c in game.source.data["components"] if c["name"] == "stone")["count"] == 20


def test_two_variants_patching_different_counts_combine_and_the_same_count_clash(tmp_path):
    two = variant(tmp_path, "two.yaml", "replace:\n  board.players.2.grid: {rows: 3, columns: 4}\n")
    four = variant(tmp_path, "four.yaml", "replace:\n  board.players.4.grid: {rows: 4, columns: 5}\n")
    game = load_game(SIZED, variants=[str(two), str(four)])
    assert boards(game, (2, 3, 4)) and game.for_players(2).board.grid == (3, 4)
    assert game.for_players(4).board.grid == (4, 5) and game.for_players(3).board.grid == (4, 4)
    again = variant(tmp_path, "again.yaml", "replace:\n  board.players.4:\n    grid: {rows: 2, columns: 2}\n")
    message = error_of(SIZED, [four, again])
    assert message.startswith(f"{again}:4:3: replace.board.players.4: variants 'four' and 'again' both change the "
                              f"board: {four}:4:3 replaces 'board.players.4.grid', and {again}:4:3 replaces "
                              "'board.players.4'. Use only one of the two variants, or make 'again' extend 'four'")
    whole = variant(tmp_path, "whole.yaml", "replace:\n  board:\n    grid: {rows: 3, columns: 3}\n")
    assert "variants 'four' and 'whole' both change the board" in error_of(SIZED, [four, whole])


def test_a_key_path_that_names_nothing_is_a_located_error(tmp_path):
    seven = variant(tmp_path, "seven.yaml", "replace:\n  board.players.7:\n    grid: {rows: 5, columns: 5}\n")
    assert error_of(SIZED, [seven]).splitlines()[0] == (
        f"{seven}:4:3: replace.board.players.7: 'board.players.7' names nothing: board.players has no key '7' "
        "(its keys: 2, 3, 4)")
    zone = variant(tmp_path, "zone.yaml", "replace:\n  zones.catches.visibility: owner\n")
    assert error_of(SIZED, [zone]).splitlines()[0].startswith(
        f"{zone}:4:3: replace.zones.catches.visibility: there is no zone 'catches' to replace in 'Sized Hop'")
    assert "did you mean 'catch'?" in error_of(SIZED, [zone])
    deep = variant(tmp_path, "deep.yaml", "replace:\n  zones.catch.per.kind: space\n")
    assert "'zones.catch.per.kind': zones.catch.per is a text, not a mapping, so it has no key 'kind'" in error_of(SIZED, [deep])
    part = variant(tmp_path, "part.yaml", "replace:\n  boards.players.2: {}\n")
    assert "'boards.players.2' does not start with a part of a game" in error_of(SIZED, [part])
    exists = variant(tmp_path, "exists.yaml", "add:\n  board.players.2: {grid: {rows: 2, columns: 2}}\n")
    assert "'board.players.2' already exists; use 'replace' to change it" in error_of(SIZED, [exists])


def test_an_error_inside_a_patched_value_points_into_the_variant(tmp_path):
    bad = variant(tmp_path, "bad.yaml", "replace:\n  board.players.4:\n    grid: {rows: 4, columns: 0}\n")
    message = error_of(SIZED, [bad])
    assert message.startswith(f"{bad}:"), message


def test_changing_only_the_six_player_top_frog_pond_leaves_the_two_to_five_player_boards_identical(tmp_path):
    six = variant(tmp_path, "six.yaml", """
        replace:
          board.players.6:
            grid: {rows: 6, columns: 6, diagonals: true}
        """, game="Top Frog")
    plain, patched = load_game(TOP_FROG), load_game(TOP_FROG, variants=[str(six)])
    for n in (2, 3, 4, 5):
        assert patched.source.data["board"]["players"][n] == plain.source.data["board"]["players"][n]
        before, after = plain.for_players(n).board, patched.for_players(n).board
        assert (after.grid, after.spaces, after.step_table) == (before.grid, before.spaces, before.step_table)
    assert patched.for_players(6).board.grid == (6, 6) and plain.for_players(6).board.grid == (5, 5)
    state = patched.new_game(6, seed=1)
    assert sum(1 for name in state.view(None)["zones"] if name.startswith("cell(")) == 36


def test_a_key_path_into_a_list_says_to_give_the_whole_list(tmp_path):
    # A stranger changing one listener of a Top Frog card wrote 'components.Robot.listeners.0.do'.
    robot = variant(tmp_path, "robot.yaml", 'replace:\n  components.Robot.listeners.0.do: "gain(player, 2)"\n',
                    game="Top Frog")
    assert error_of(TOP_FROG, [robot]).splitlines()[0] == (
        f"{robot}:4:3: replace.components.Robot.listeners.0.do: 'components.Robot.listeners.0.do': "
        "components.Robot.listeners is a list, not a mapping, so it has no key '0'; a key path stops at a list: give "
        "the whole list, as replace: {components.Robot.listeners: [...]}")
    whole = variant(tmp_path, "whole.yaml", "replace:\n  components.Robot.listeners:\n    - {on: squandered, "
                    'while: showing(self) and owner_of(self) == player, do: "gain(player, 2)"}\n', game="Top Frog")
    assert load_game(TOP_FROG, variants=[str(whole)])  # as the message says
