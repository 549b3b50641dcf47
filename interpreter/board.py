"""Boards: networkx graphs built from a definition's ``board:`` declaration.

A board is a set of named spaces joined by directed edges, each edge labelled
with a direction (``clockwise``, ``north``...).  Rules ask the board
(``step(space, direction)``, ``adjacent(space)``, ``distance(a, b)``); they
never do arithmetic on indices.  Shapes:

* ``ring: {spaces: [...], forward: clockwise, backward: counterclockwise}``
* ``grid: {rows: R, columns: C}`` with spaces ``r1c1``... and edges north/south/east/west;
  ``diagonals: true`` adds northeast/northwest/southeast/southwest
* ``edges: [{from: a, to: b, direction: d}, ...]`` for anything else (added to the above);
  ``adjacent: false`` makes an edge step-only: ``step`` follows it, ``adjacent``, ``distance``
  and ``diagonals`` do not (a wrap-around or teleport)

A grid's row 1 is its north (top) edge and column 1 its west (left) edge: ``north``
from ``r2c1`` is ``r1c1``, ``east`` is ``r2c2``.  ``adjacent`` and ``distance`` follow
every edge but a grid's diagonal ones and step-only ones; ``diagonals(space)`` lists the spaces
one diagonal step away.  ``row(space)`` and ``column(space)`` list a grid space's row (west to
east) and column (north to south).

The graph is built once at load; the answers rules need are pre-computed into
dicts, so asking the board costs one dict lookup at run time.
"""

from __future__ import annotations

ORTHOGONAL = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
DIAGONAL = {"northeast": (-1, 1), "northwest": (-1, -1), "southeast": (1, 1), "southwest": (1, -1)}


class Board:
    def __init__(self, graph, spaces: list[str], grid: tuple[int, int] | None = None, ring: list[str] | None = None):
        import networkx as nx

        self.graph = graph
        self.spaces = spaces
        self.space_set = frozenset(spaces)
        self.grid = grid  # (rows, columns) of a grid board, for drawing it
        self.ring = ring  # the ring's spaces in order, for drawing it
        # A grid space's row (west to east) and column (north to south): row() and column().
        self.rows, self.columns = _grid_lines(grid) if grid is not None else ({}, {})
        # Step-only edges (adjacent: false): (space, direction) -> space, for drawing where they lead.
        self.step_only = {(a, data["direction"]): b for a, b, data in graph.edges(data=True) if data.get("step_only")}
        order = {sp: i for i, sp in enumerate(spaces)}
        self.directions = sorted({d for _, _, d in graph.edges(data="direction")})
        self.step_table = {(a, d): b for a, b, d in graph.edges(data="direction")}
        plain = _adjacency(graph, spaces)
        self.neighbours = {sp: sorted(plain.neighbors(sp), key=order.__getitem__) for sp in spaces}
        self.diagonals = {sp: sorted({b for _, b, data in graph.out_edges(sp, data=True) if data.get("diagonal")},
                                     key=order.__getitem__) for sp in spaces}
        self.distances = {(a, b): d for a, row in nx.all_pairs_shortest_path_length(plain) for b, d in row.items()}


def _grid_lines(grid: tuple[int, int]) -> tuple[dict, dict]:
    """({space: its row, west to east}, {space: its column, north to south}) of a grid."""
    rows, cols = grid
    lines_r = [[f"r{r}c{c}" for c in range(1, cols + 1)] for r in range(1, rows + 1)]
    lines_c = [[f"r{r}c{c}" for r in range(1, rows + 1)] for c in range(1, cols + 1)]
    return {sp: line for line in lines_r for sp in line}, {sp: line for line in lines_c for sp in line}


def _adjacency(graph, spaces: list[str]):
    """The undirected graph adjacent() and distance() follow: every edge but a grid's diagonals and step-only ones."""
    import networkx as nx

    plain = nx.Graph()
    plain.add_nodes_from(spaces)
    plain.add_edges_from((a, b) for a, b, data in graph.edges(data=True)
                         if not data.get("diagonal") and not data.get("step_only"))
    return plain


class BoardError(Exception):
    def __init__(self, message: str, key: tuple = ()):
        super().__init__(message)
        self.message, self.key = message, key


def build_board(spec: dict | None) -> Board | None:
    """Build the board graph from its declaration (already schema-checked)."""
    if not spec:
        return None
    import networkx as nx  # imported only by games with a board: it takes a while to import

    graph = nx.MultiDiGraph()
    spaces: list[str] = []

    def add_space(name, key):
        if name in graph:
            raise BoardError(f"space {name!r} is declared twice", key)
        graph.add_node(name)
        spaces.append(name)

    grid_shape = ring_order = None
    if "ring" in spec:
        ring_order = _add_ring(graph, spec["ring"], add_space)
    if "grid" in spec:
        grid_shape = _add_grid(graph, spec["grid"], add_space)
    for i, name in enumerate(spec.get("spaces", [])):
        add_space(str(name), ("board", "spaces", i))
    _add_edges(graph, spec.get("edges", []))
    if not spaces:
        raise BoardError("the board has no spaces", ("board",))
    return Board(graph, spaces, grid_shape, ring_order)


def _add_ring(graph, ring: dict, add_space) -> list[str]:
    """A ring's spaces, each joined to the next (forward) and back (backward); the spaces in order."""
    names = [str(x) for x in ring["spaces"]]
    for i, name in enumerate(names):
        add_space(name, ("board", "ring", "spaces", i))
    forward, backward = ring.get("forward", "clockwise"), ring.get("backward", "counterclockwise")
    for i, name in enumerate(names):
        nxt = names[(i + 1) % len(names)]
        graph.add_edge(name, nxt, direction=forward)
        graph.add_edge(nxt, name, direction=backward)
    return names


def _add_grid(graph, grid: dict, add_space) -> tuple[int, int]:
    """A grid's spaces r1c1... joined north, south, east and west (and diagonally if asked); (rows, columns)."""
    rows, cols = grid["rows"], grid["columns"]
    names = {(r, c): f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, cols + 1)}
    for name in names.values():
        add_space(name, ("board", "grid"))
    steps = [(d, step, False) for d, step in ORTHOGONAL.items()]
    if grid.get("diagonals", False):
        steps += [(d, step, True) for d, step in DIAGONAL.items()]
    for (r, c), name in names.items():
        for direction, (dr, dc), diagonal in steps:
            other = names.get((r + dr, c + dc))
            if other:
                graph.add_edge(name, other, direction=direction, diagonal=diagonal)
    return rows, cols


def _add_edges(graph, edges: list) -> None:
    """The declared edges, between declared spaces; ``adjacent: false`` makes one step-only."""
    for i, edge in enumerate(edges):
        for end in ("from", "to"):
            if str(edge[end]) not in graph:
                raise BoardError(f"edge {end} {edge[end]!r} is not a declared space", ("board", "edges", i, end))
        graph.add_edge(str(edge["from"]), str(edge["to"]), direction=edge["direction"],
                       step_only=not edge.get("adjacent", True))
