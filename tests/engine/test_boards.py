"""Generated components (families), grid boards with diagonals, and boards drawn as their shape."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

from interpreter import DefinitionError, load_game
from interpreter.render import render_view, ring_layout

DEFINITIONS = Path(__file__).parents[1] / "definitions"
FAMILIES = DEFINITIONS / "families.yaml"


def board_query(game, text: str, **spaces):
    """Evaluate an effect-language expression in which every keyword argument is a board space."""
    from interpreter.dsl.compiler import Compiler, Scope
    from interpreter.dsl.parser import parse_expression

    fn, _ = Compiler(game).expr(parse_expression(text), Scope({n: "space" for n in spaces}, None))
    return fn(game.new_game(game.min_players, 0), dict(spaces))


def prop(game, card_name: str, name: str):
    return game.properties[name][0][game.card_names.index(card_name)]


# ---------------------------------------------------------------- families
def test_a_family_makes_one_card_per_combination_the_first_key_slowest():
    game = load_game(FAMILIES)
    assert len(game.card_names) == 53 and len(set(game.card_names)) == 53
    assert game.card_names[:3] == ["2 of clubs", "3 of clubs", "4 of clubs"]
    assert game.card_names[12:14] == ["ace of clubs", "2 of diamonds"]
    assert game.card_names[51:] == ["ace of spades", "marker"]


def test_family_values_fill_text_properties_and_tables_give_values_by_one_of_them():
    game = load_game(FAMILIES)
    assert [prop(game, "jack of hearts", p) for p in ("suit", "rank", "value", "colour")] == \
        ["hearts", "jack", 10, "red"]
    assert [prop(game, "10 of spades", p) for p in ("rank", "value", "colour")] == ["10", 10, "black"]
    assert prop(game, "ace of clubs", "value") == 11
    assert prop(game, "marker", "value") == 0


def write(tmp_path, components: str, properties: str = "{pips: 0, label: \"\"}") -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(f"game: G\nplayers: {{min: 2, max: 2}}\nproperties: {properties}\nzones:\n  deck: {{}}\n"
                    f"components:\n{components}"
                    "procedures:\n  turn(player p): |\n    pass\nflow:\n  - turn: turn\n    until: game.turn >= 2\n",
                    encoding="utf-8")
    return path


def test_a_number_property_given_one_family_value_stays_a_number(tmp_path):
    game = load_game(write(tmp_path, '  - {family: {n: [1, 2, 3]}, name: "card {n}", pips: "{n}", label: "{n} pips"}\n'))
    assert game.card_names == ["card 1", "card 2", "card 3"]
    assert game.properties["pips"][0] == [1, 2, 3] and game.properties["label"][0] == ["1 pips", "2 pips", "3 pips"]


def test_family_count_zone_and_abilities_apply_to_every_card_and_abilities_compile_once(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("""\
game: G
players: {min: 2, max: 2}
properties: {pips: 0}
zones:
  deck: {}
events:
  drawn: {card: card, player: player}
player_variables:
  points: 0
components:
  - family: {n: [1, 2]}
    name: "card {n}"
    pips: "{n}"
    count: 2
    zone: deck
    when_drawn: player.points += card.pips
procedures:
  turn(player p): |
    emit drawn(card=top(deck), player=p)
flow:
  - turn: turn
    until: game.turn >= 1
""", encoding="utf-8")
    game = load_game(path)
    assert game.card_names == ["card 1", "card 1", "card 2", "card 2"]
    assert len({id(proc) for proc in game.abilities["drawn"]}) == 1
    state = game.new_game(2, 0)
    assert state.is_terminal() and state.pv["points"] == [2, 0]


@pytest.mark.parametrize("entry, where, message", [
    ('  - {family: {n: [1, 2]}, name: "card {m}", zone: deck}\n', "components[0].name",
     "'{m}' in 'card {m}' is not a value of the family, which has {n}"),
    ('  - {family: {rank: [1, 2]}, name: "card {rnak}", zone: deck}\n', "components[0].name",
     "'{rnak}' in 'card {rnak}' is not a value of the family, which has {rank}; did you mean 'rank'?"),
    ('  - {family: {n: [1, 2]}, name: "card {n", zone: deck}\n', "components[0].name",
     "'card {n' has a { that does not belong to a {value} of the family ({n})"),
    ('  - {family: {n: [1, 2]}, name: "card", zone: deck}\n', "components[0].name",
     "every card of a family needs its own name: put the family's values in it, e.g. '{n}'"),
    ('  - {family: {n: [1, 2, 1]}, name: "card {n}", zone: deck}\n', "components[0].family.n[2]",
     "'1' is listed twice in 'n' (first as item 1)"),
    ('  - {family: {n: [1, 2]}, name: "card {n}", pips: {by: n, table: {1: 5}}}\n', "components[0].pips.table",
     "the table of 'pips' has no entry for n '2'"),
    ('  - {family: {n: [1, 2]}, name: "card {n}", pips: {by: n, table: {1: 5, 2: 6, 3: 7}}}\n',
     "components[0].pips.table[3]", "'3' is not one of the family's values of 'n' (1, 2)"),
    ('  - {family: {n: [1, 2]}, name: "card {n}", pips: {by: m, table: {1: 5, 2: 6}}}\n', "components[0].pips.by",
     "property 'pips' is looked up by 'm', which is not a value of the family; it has n"),
    ('  - {family: {n: [a, b]}, name: "card {n}", pips: "{n}"}\n', "components[0].pips",
     "property 'pips' is a number (its default is 0), not 'a'"),
    ('  - {family: {a: [' + ", ".join(map(str, range(100))) + '], b: [' + ", ".join(map(str, range(100)))
     + '], c: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]}, name: "{a} {b} {c}"}\n', "components[0].family",
     "this family makes more than 100,000 cards; a game has at most 100,000"),
])
def test_bad_families_are_refused_where_the_mistake_is(tmp_path, entry, where, message):
    path = write(tmp_path, entry)
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    first = str(info.value).splitlines()[0]
    assert re.fullmatch(rf"{re.escape(str(path))}:7:\d+: {re.escape(where)}: {re.escape(message)}", first), first


def test_a_family_needs_at_least_one_value_per_key(tmp_path):
    with pytest.raises(DefinitionError, match=r"components\[0\]\.family\.n: must not be empty"):
        load_game(write(tmp_path, '  - {family: {n: []}, name: "card {n}"}\n'))


# ---------------------------------------------------------------- grids and diagonals
def test_a_grid_with_diagonals_steps_to_the_four_diagonal_neighbours():
    game = load_game(FAMILIES)
    assert board_query(game, 'step(x, "northeast")', x="r2c2") == "r1c3"
    assert board_query(game, 'step(x, "southwest")', x="r2c2") == "r3c1"
    assert board_query(game, 'step(x, "northwest")', x="r1c1") is None
    assert board_query(game, "diagonals(x)", x="r2c2") == ["r1c1", "r1c3", "r3c1", "r3c3"]
    assert board_query(game, "diagonals(x)", x="r1c1") == ["r2c2"]


def test_adjacent_and_distance_stay_orthogonal_on_a_grid_with_diagonals():
    game = load_game(FAMILIES)
    assert board_query(game, "adjacent(x)", x="r2c2") == ["r1c2", "r2c1", "r2c3", "r3c2"]
    assert board_query(game, "distance(x, y)", x="r1c1", y="r3c3") == 4


def test_a_grid_without_diagonals_has_none(tmp_path):
    game = load_game(DEFINITIONS / "board_grid.yaml")
    assert board_query(game, "diagonals(x)", x="r2c2") == []
    assert "northeast" not in game.board.directions


def test_row_one_is_north_and_column_one_is_west():
    game = load_game(FAMILIES)
    assert board_query(game, 'step(x, "north")', x="r2c1") == "r1c1"
    assert board_query(game, 'step(x, "east")', x="r2c1") == "r2c2"


def test_dealing_to_a_diagonal_neighbour_is_offered_and_moves_the_marker():
    game = load_game(FAMILIES)
    state = game.new_game(2, 0, scenario={"zones": {"deck": ["queen of hearts"], "stand(r2c2)": ["marker"]}})
    assert len(state.legal_actions(0)) == 8 and "deal to r1c3" in state.legal_actions(0)
    state.apply(0, "deal to r1c3")
    assert state.gv["at"] == "r1c3" and state.pv["points"] == [10, 0]


# ---------------------------------------------------------------- drawing boards
def drawn(game, state, seat=0) -> list[str]:
    console = Console(width=120, record=True)
    render_view(console, game, state.view(seat), seat)
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_the_terminal_draws_a_grid_as_rows_and_columns_with_north_at_the_top():
    game = load_game(FAMILIES)
    state = game.new_game(2, 0, scenario={"zones": {"cell(r1c3)": ["2 of clubs", "king of spades"],
                                                    "stand(r3c1)": ["marker"]}})
    lines = drawn(game, state)
    assert "Board, north at the top" in lines
    header = next(line for line in lines if "│ c1" in line)
    assert header.index("c1") < header.index("c2") < header.index("c3")
    r1 = next(i for i, line in enumerate(lines) if line.startswith("│ r1 "))
    assert "cell: king of spades" in lines[r1]  # the top card, then what lies under it
    assert "on 2 of clubs" in lines[r1 + 1]
    r3 = next(i for i, line in enumerate(lines) if line.startswith("│ r3 "))
    assert r3 > r1 and "stand: marker" in lines[r3]
    assert lines[r3].index("stand: marker") < lines[r1].index("cell: king of spades")  # west column, east column


def test_the_terminal_shows_counters_on_spaces_top_cards_and_players():
    game = load_game(DEFINITIONS / "counters.yaml")
    state = game.new_game(2, 0, scenario={"zones": {"cell(r1c1)": ["fern"], "cell(r1c2)": [], "cell(r1c3)": []},
                                          "counters": {"drops": {"spaces": {"r1c2": 2}, "players": {"2": 3},
                                                                 "cards": {"cell(r1c1)": [4]}}}})
    lines = drawn(game, state)
    r1 = next(line for line in lines if line.startswith("│ r1 "))
    assert re.search(r"│ r1 │ fern \[drops 4\] +│ drops: 2 +│ · +│", r1), r1
    player2 = next(line for line in lines if line.startswith(" player 2"))
    assert player2.split()[-1] == "3"


def test_author_text_in_a_drawn_board_is_printed_inert(tmp_path):
    from interpreter.render import SafeConsole

    text = FAMILIES.read_text(encoding="utf-8").replace("{name: marker, zone: box}",
                                                        '{name: "[bold]marker[/bold]", zone: box}')
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_game(path)
    console = SafeConsole(width=120, record=True)
    render_view(console, game, game.new_game(2, 0).view(0), 0)
    assert "stand: [bold]marker[/bold]" in console.export_text()


def test_a_ring_is_laid_clockwise_around_a_rectangle():
    assert ring_layout(5) == (2, 3, [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0)])
    assert ring_layout(4) == (2, 2, [(0, 0), (0, 1), (1, 1), (1, 0)])
    for n in range(2, 17):
        rows, columns, rim = ring_layout(n)
        assert n <= len(rim) <= n + 1 and len(set(rim)) == len(rim)
        assert all(0 <= r < rows and 0 <= c < columns for r, c in rim)
        # each place on the rim is one step from the next, so the arrows join them
        assert all(abs(r1 - r2) + abs(c1 - c2) == 1 for (r1, c1), (r2, c2) in zip(rim, rim[1:] + rim[:1])) or n == 2


def test_the_rules_summary_states_the_grid_orientation_and_the_ring_order(capsys):
    from interpreter.cli import main

    assert main(["rules", str(FAMILIES)]) == 0
    out = capsys.readouterr().out
    assert "A grid of 3 rows and 3 columns and diagonal steps: r1 is the north (top) row, c1 the west (left) column." in out
    assert main(["rules", str(Path(__file__).parents[2] / "definitions" / "kaeru.yaml")]) == 0
    assert "A ring of 5 spaces: l1 -> l2 -> l3 -> l4 -> l5 -> l1" in capsys.readouterr().out
