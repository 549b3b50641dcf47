"""What the page draws, read from the definition alone: where each zone goes, the board's shape, and
the properties of the cards a view shows.

Nothing here is game-specific: a zone shared by the game is drawn on the table, one per player in that
player's area, one per board space on the board; a grid board is drawn as a grid, a ring as a ring, any
other board as a list of spaces with their exits.  Edges that are not a step to a grid neighbour (an
edge that wraps round, say) are drawn as markers on the side of the space they leave.  Player and game
variables holding a space are drawn as pieces standing on it.

The layout holds only the definition's structure (zone names, spaces, variable names and kinds); card
names travel only inside a seat's view, with the properties of the cards that view shows.
"""

from __future__ import annotations

from ..board import DIAGONAL, ORTHOGONAL


def layout_of(game, players: int | None = None) -> dict:
    """The static part of the page for ``game`` played by ``players``: plain JSON data, the same for every
    seat.  A game whose board depends on the player count is drawn with the board of that count."""
    if players is not None:
        game = game.for_players(players)
    shared, per_player, per_space = [], [], []
    for name, spec in game.zones.items():
        entry = {"name": name, "visibility": spec.visibility, "description": spec.description or ""}
        {"game": shared, "player": per_player, "space": per_space}[spec.per].append(entry)
    layout = {
        "game": game.name,
        "variants": [str(v) for v in getattr(game, "variants", [])],
        "shared": shared, "per_player": per_player, "per_space": per_space,
        "player_variables": {name: kind for name, kind in game.pvars.items()},
        "game_variables": {name: kind for name, kind in game.gvars.items()},
        "board": _board(game),
        "table": game.presentation,  # where zones go, card faces, variables, score terms: presentation only
    }
    return layout


def _board(game):
    board = game.board
    if board is None:
        return None
    drawn = {"spaces": list(board.spaces), "shape": "spaces", "markers": {}, "exits": {}}
    in_shape = _draw_shape(board, drawn)
    for (space, direction), target in sorted(board.step_table.items()):
        listed = _where_step_is_listed(board, drawn, space, direction, target, in_shape)
        if listed is not None:
            drawn[listed].setdefault(space, []).append({"direction": direction, "to": target})
    drawn["others"] = [sp for sp in board.spaces if sp not in in_shape]
    return drawn


def _draw_shape(board, drawn: dict) -> set:
    """The board's shape (a grid's rows and columns, a ring's order and forward direction) into ``drawn``; the
    spaces the shape places."""
    if board.grid is not None:
        rows, columns = board.grid
        drawn.update(shape="grid", rows=rows, columns=columns)
        return {f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, columns + 1)}
    if board.ring is not None:
        ring = list(board.ring)
        forward = next((d for d in board.directions if board.step_table.get((ring[0], d)) == ring[1 % len(ring)]), "")
        drawn.update(shape="ring", ring=ring, forward=forward)
        return set(ring)
    return set()


def _where_step_is_listed(board, drawn: dict, space: str, direction: str, target: str, in_shape: set):
    """None for a step the shape itself shows (to the grid neighbour, along the ring); else "markers" for a
    step from a space of the shape, "exits" for a step from a space off it."""
    if space not in in_shape:
        return "exits"
    if board.grid is not None:
        r, c = _cell(space)
        dr, dc = {**ORTHOGONAL, **DIAGONAL}.get(direction, (None, None))
        return None if dr is not None and target == f"r{r + dr}c{c + dc}" else "markers"
    ring = drawn["ring"]
    i = ring.index(space)
    return None if target in (ring[(i + 1) % len(ring)], ring[i - 1]) else "markers"


def _cell(space: str):
    r, c = space[1:].split("c")
    return int(r), int(c)


class CardInfo:
    """Per card name, the properties that differ from the default (what a card face shows besides its name)."""

    def __init__(self, game):
        self.by_name = {}
        defaults = game.property_defaults
        for card, name in enumerate(game.card_names):
            if name in self.by_name:
                continue
            props = {}
            for prop, (table, _kind) in game.properties.items():
                value = table[card]
                if value != defaults.get(prop) and value not in ("", [], False, None):
                    props[prop] = value
            self.by_name[name] = props

    def for_view(self, view, extra=()) -> dict:
        """{name: properties} for every card name found in ``view`` (and ``extra``): nothing it does not show."""
        found = {}
        by_name = self.by_name

        def walk(value):
            if type(value) is str:
                if value in by_name and value not in found:
                    found[value] = by_name[value]
            elif type(value) is list:
                for v in value:
                    walk(v)
            elif type(value) is dict:
                for v in value.values():
                    walk(v)
        walk(view)
        walk(list(extra))
        return found
