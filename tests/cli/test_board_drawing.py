"""The terminal drawing of a grid game: per space the top card of each per-space zone (the pieces
standing there listed), the space's and the top card's counters, the step-only edges (wraps) marked
on their side of their space; the players' zones and counters.  Each board per player count."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from interpreter import load_game
from interpreter.render import render_view

DEFINITION = Path(__file__).parents[1] / "definitions" / "board_per_count.yaml"
POSITION = {
    "zones": {"cell(r1c3)": ["stone"], "cell(r2c2)": ["stone", "stone"], "catch(2)": ["stone"],
              "stand(r2c2)": ["red pawn", "blue pawn"], "stand(r4c3)": ["green pawn"]},
    "counters": {"marks": {"spaces": {"r4c3": 2}, "cards": {"cell(r2c2)": [0, 5]}, "players": {"2": 3}}},
}


def drawn(players: int, scenario=None, seat=0) -> str:
    game = load_game(DEFINITION)
    state = game.new_game(players, 0, scenario=scenario)
    console = Console(width=140, record=True, color_system=None, file=open("/dev/null", "w"))
    render_view(console, game, state.view(seat), seat)  # the game as loaded: the drawing picks the count's board
    return console.export_text()


def rows_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("│")]


def test_a_space_shows_its_card_its_pieces_and_the_counters_on_it_and_on_its_top_card():
    text = drawn(3, POSITION)
    lines = rows_of(text)
    r2 = [line for line in lines if "blue pawn" in line or "red pawn" in line or "r2 │" in line]
    assert "│ r2 │ ·" in r2[0] and "cell: stone [marks 5]" in r2[0]  # the top card and its counter
    assert "stand: blue pawn" in r2[1] and "on red pawn" in r2[2]  # both pieces, the top one first
    assert any("stand: green pawn" in line for line in lines)
    assert any("marks: 2" in line for line in lines)  # the counter on the space r4c3


def test_step_only_edges_are_marked_on_their_side_of_their_space():
    lines = rows_of(drawn(3, POSITION))
    top = next(i for i, line in enumerate(lines) if line.startswith("│ r1 "))
    assert "↑ r4c3 (step only)" in lines[top]  # above the space's contents
    assert "cell: stone" in lines[top + 1]
    assert any("↓ r1c3 (step only)" in line for line in lines[lines.index(next(l for l in lines if "│ r4 " in l)):])
    assert "r3c2" not in "".join(lines)  # that wrap belongs to the 2-player board


def test_each_player_count_is_drawn_on_its_own_board():
    three, two = drawn(3), drawn(2)
    assert "c4" in three and "│ r4 " in three and "↑ r4c3 (step only)" in three
    assert "c4" not in two and "│ r4 " not in two and "↑ r3c2 (step only)" in two and "↓ r1c2 (step only)" in two


def test_the_players_table_shows_their_zones_and_counters():
    text = drawn(3, POSITION)
    row = next(line for line in text.splitlines() if line.strip().startswith("player 2"))
    assert row.split() == ["player", "2", "stone", "0", "3"]
