"""Pieces on board spaces apart from the cards there (tests/definitions/pieces.yaml): no new
mechanism, a pattern of per-space zones; also rotating a row of cards and blank spaces in rules.

After setup: r1c1 holds a tile with 1 drop and both pawns; r1c2 is blank with 2 drops; r1c3 holds
a tile with 3 drops.
"""

from __future__ import annotations

from test_mechanisms import load, zone


def table(state):
    g = state.game
    rows = state.counters["drops"]
    out = {}
    for sp in g.board.spaces:
        cards = state.zones[g.zone_index(f"cell({sp})")]
        out[sp] = (rows["card"][cards[-1]] if cards else f"blank {rows['space'][g.board.spaces.index(sp)]}",
                   zone(state, f"stand({sp})"))
    return out


def test_setup_puts_pawns_and_cards_in_separate_zones_of_a_space():
    state = load("pieces").new_game(2, 0)
    assert table(state) == {"r1c1": (1, ["blue pawn", "red pawn"]), "r1c2": ("blank 2", []), "r1c3": (3, [])}


def test_shifting_a_row_moves_cards_and_blank_spaces_but_never_pawns():
    state = load("pieces").new_game(2, 0)
    state.apply(0, "shift the row")
    assert table(state) == {"r1c1": (3, ["blue pawn", "red pawn"]),  # the east end wrapped round
                            "r1c2": (1, []), "r1c3": ("blank 2", [])}
    state.apply(1, "shift the row")
    assert table(state) == {"r1c1": ("blank 2", ["blue pawn", "red pawn"]), "r1c2": (3, []), "r1c3": (1, [])}


def test_a_pawn_moves_alone_and_scores_what_is_under_it():
    state = load("pieces").new_game(2, 0)
    state.apply(0, "step east")
    assert table(state) == {"r1c1": (1, ["blue pawn"]), "r1c2": ("blank 2", ["red pawn"]), "r1c3": (3, [])}
    state.apply(1, "shift the row")
    state.apply(0, "step east")
    state.apply(1, "step east")
    assert state.is_terminal()
    assert table(state) == {"r1c1": (3, []), "r1c2": (1, ["blue pawn"]), "r1c3": ("blank 2", ["red pawn"])}
    assert state.scores() == [2, 1]
