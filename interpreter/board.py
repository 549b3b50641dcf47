"""Boards: networkx graphs built from a definition's ``board:`` declaration.

A board is a set of named spaces joined by directed edges, each edge labelled
with a direction (``clockwise``, ``north``...).  Rules ask the board
(``step(space, direction)``, ``adjacent(space)``, ``distance(a, b)``); they
never do arithmetic on indices.  Shapes:

* ``ring: {spaces: [...], forward: clockwise, backward: counterclockwise}``
* ``grid: {rows: R, columns: C}`` with spaces ``r1c1``... and edges north/south/east/west
* ``edges: [{from: a, to: b, direction: d}, ...]`` for anything else (added to the above)

The graph is built once at load; the answers rules need are pre-computed into
dicts, so asking the board costs one dict lookup at run time.
"""

from __future__ import annotations

class Board:
    def __init__(self, graph, spaces: list[str]):
        import networkx as nx

        self.graph = graph
        self.spaces = spaces
        self.space_set = frozenset(spaces)
        self.directions = sorted({d for _, _, d in graph.edges(data="direction")})
        self.step_table = {(a, d): b for a, b, d in graph.edges(data="direction")}
        undirected = nx.Graph(graph)
        self.neighbours = {sp: sorted(undirected.neighbors(sp), key=spaces.index) for sp in spaces}
        self.distances = {(a, b): d for a, row in nx.all_pairs_shortest_path_length(undirected) for b, d in row.items()}


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

    if "ring" in spec:
        ring = spec["ring"]
        names = [str(x) for x in ring["spaces"]]
        for i, name in enumerate(names):
            add_space(name, ("board", "ring", "spaces", i))
        forward, backward = ring.get("forward", "clockwise"), ring.get("backward", "counterclockwise")
        for i, name in enumerate(names):
            nxt = names[(i + 1) % len(names)]
            graph.add_edge(name, nxt, direction=forward)
            graph.add_edge(nxt, name, direction=backward)
    if "grid" in spec:
        grid = spec["grid"]
        rows, cols = grid["rows"], grid["columns"]
        names = {(r, c): f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, cols + 1)}
        for name in names.values():
            add_space(name, ("board", "grid"))
        steps = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
        for (r, c), name in names.items():
            for direction, (dr, dc) in steps.items():
                other = names.get((r + dr, c + dc))
                if other:
                    graph.add_edge(name, other, direction=direction)
    for i, name in enumerate(spec.get("spaces", [])):
        add_space(str(name), ("board", "spaces", i))
    for i, edge in enumerate(spec.get("edges", [])):
        for end in ("from", "to"):
            if str(edge[end]) not in graph:
                raise BoardError(f"edge {end} {edge[end]!r} is not a declared space", ("board", "edges", i, end))
        graph.add_edge(str(edge["from"]), str(edge["to"]), direction=edge["direction"])
    if not spaces:
        raise BoardError("the board has no spaces", ("board",))
    return Board(graph, spaces)
