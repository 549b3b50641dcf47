"""Built-in functions of the effect language, each specialised at load.

A builtin receives its lowered arguments as ``(tree, kind, node)`` triples (a
Python ``ast`` expression over ``s`` and ``e``, see lower_expr.py) and returns
``(tree, kind)``: it checks the argument kinds once, at load, and builds code
that does only the work at run time, inline or through one call of a run-time
helper of :mod:`interpreter.runtime.values`.  Everything here is
game-agnostic: zones, cards, players and board spaces, never a game's words.
"""

from __future__ import annotations

import ast

from ..runtime import values as X
from . import types as T
from .pyast import py, simple


class BuiltinError(Exception):
    """Raised at load; the compiler adds the location."""

    def __init__(self, message, node=None):
        super().__init__(message)
        self.node = node


def S():
    return ast.Name("s", ast.Load())


def _need(args, lo, hi, name):
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise BuiltinError(f"{name}() takes {want} argument{'s' if hi != 1 else ''}, got {len(args)}")


def _kind(arg, expected, name, position):
    tree, kind, node = arg
    if not T.fits(kind, expected):
        raise BuiltinError(f"argument {position} of {name}() must be {T.describe(expected)}, "
                           f"not {T.describe(kind)}", node)
    return tree


def _as_list(arg, name, position=1):
    """A lowered argument that must be a list or zone, as a tree giving a list."""
    tree, kind, node = arg
    if not T.is_list(kind) and kind != T.ANY:
        raise BuiltinError(f"argument {position} of {name}() must be a list or a zone, not {T.describe(kind)}", node)
    if kind == "zone":
        return py("s.zones[_0]", tree), "list:card"
    return tree, kind


def _scan(c, tree, reduce):
    """reduce(list), the list's items paid for from the step budget (one step each)."""
    return c.helper(X.scan_reduce, S(), tree, c.code.constant(reduce), c.call_loc)


# ---------------------------------------------------------------- collections
def b_size(c, args):
    _need(args, 1, 1, "size")
    tree, _ = _as_list(args[0], "size")
    return py("len(_0)", tree), "int"


def b_any(c, args):
    """any(list of true/false): is one true?  any(list of cards, players...): is the list non-empty?"""
    _need(args, 1, 1, "any")
    tree, kind = _as_list(args[0], "any")
    if T.element(kind) == "bool":
        return _scan(c, tree, any), "bool"
    return py("len(_0) > 0", tree), "bool"


def b_all(c, args):
    _need(args, 1, 1, "all")
    tree, kind = _as_list(args[0], "all")
    if not T.fits(T.element(kind), "bool"):
        raise BuiltinError("all() needs a list of true/false values, e.g. all(each c in zone where c.ready)",
                           args[0][2])
    return _scan(c, tree, all), "bool"


def b_sum(c, args):
    _need(args, 1, 1, "sum")
    tree, kind = _as_list(args[0], "sum")
    if not T.fits(T.element(kind), "int"):
        raise BuiltinError("sum() adds numbers; give it a list of numbers, e.g. sum(each c in zone: c.value)",
                           args[0][2])
    return c.helper(X.checked, _scan(c, tree, sum), c.call_loc, ast.Constant("sum()")), "int"


def _minmax(name, pick, of_list):
    def build(c, args):
        _need(args, 1, 8, name)
        if len(args) == 1:
            tree, kind = _as_list(args[0], name)
            if not T.fits(T.element(kind), "int"):
                raise BuiltinError(f"{name}() of a list needs numbers", args[0][2])
            return _scan(c, tree, of_list), "int"
        trees = [_kind(a, "int", name, i + 1) for i, a in enumerate(args)]
        if len(trees) == 2:
            return ast.Call(ast.Name(name, ast.Load()), trees, []), "int"
        return ast.Call(ast.Name(name, ast.Load()), [ast.List(trees, ast.Load())], []), "int"
    return build


def b_distinct(c, args):
    _need(args, 1, 1, "distinct")
    tree, kind = _as_list(args[0], "distinct")
    return _scan(c, tree, X.distinct), kind


def b_first(c, args):
    _need(args, 1, 1, "first")
    tree, kind = _as_list(args[0], "first")
    return c.helper(X.first, tree), T.element(kind)


def b_last(c, args):
    _need(args, 1, 1, "last")
    tree, kind = _as_list(args[0], "last")
    return c.helper(X.last, tree), T.element(kind)


def b_reverse(c, args):
    _need(args, 1, 1, "reverse")
    tree, kind = _as_list(args[0], "reverse")
    return _scan(c, tree, X.reverse), kind


def b_range(c, args):
    _need(args, 1, 2, "range")
    trees = [_kind(a, "int", "range", i + 1) for i, a in enumerate(args)]
    start = trees[0] if len(trees) == 2 else ast.Constant(0)
    return c.helper(X.number_range, S(), start, trees[-1], c.call_loc), "list:int"


def b_abs(c, args):
    _need(args, 1, 1, "abs")
    return py("abs(_0)", _kind(args[0], "int", "abs", 1)), "int"


def b_product(c, args):
    """product(list of lists): every way to pick one item from each list, first list slowest.

    product(xs, ys, ...) of 2 to 8 lists gives pairs (tuples) instead, each part keeping its list's
    kind, for ``for q, r in product(players, ranks)``; the same helper makes them (lists at run time).

    For "some choice of one value per card meets a condition":
    any(each combo in product(each c in pile: c.values): sum(combo) <= 12).  Each
    combination made costs one step of the budget, counted before any is made.
    """
    _need(args, 1, 8, "product")
    if len(args) > 1:  # product(xs, ys): pairs (tuples), each value keeping its own kind
        lists = [_as_list(arg, "product", i + 1) for i, arg in enumerate(args)]
        item = T.tuple_of([T.element(kind) for _, kind in lists])
        return c.helper(X.product, S(), ast.List([tree for tree, _ in lists], ast.Load()), c.loc(args[0][2])), \
            T.list_of(item)
    tree, kind = _as_list(args[0], "product")
    inner = T.element(kind)
    if inner == "zone":
        tree = py("[s.zones[z] for z in _0]", tree)
        item = "card"
    elif T.is_list(inner) or inner in (T.ANY, "none"):  # "none": product([])
        item = T.element(inner)
    else:
        raise BuiltinError(f"product() picks one item from each of several lists; give it a list of lists, "
                           f"e.g. product(each c in pile: c.values), or several lists for pairs: product(xs, ys); "
                           f"not {T.describe(kind)}", args[0][2])
    return c.helper(X.product, S(), tree, c.loc(args[0][2])), T.list_of(T.list_of(item))


def b_threshold(c, args):
    """threshold(table, n): the value of the highest key at most n, or 0 if every key is above n.

    Score ladders read this way: with {1: 1, 2: 3, 4: 7}, three of a kind is worth 3
    and five is worth 7.  Keys and values are whole numbers; a table that is a
    parameter or a card property is checked at load, any other when it is read.
    """
    _need(args, 2, 2, "threshold")
    ttree, tkind, tnode = args[0]
    if tkind != T.ANY and tkind != "table" and not T.fits(tkind, "table:int"):
        raise BuiltinError(f"argument 1 of threshold() must be a table such as {{1: 1, 3: 5}}, not "
                           f"{T.describe(tkind)}", tnode)
    n = _kind(args[1], "int", "threshold", 2)
    found, fixed = c.static_value(ttree)
    if found and isinstance(fixed, dict):  # a parameter: sorted once, looked up by bisection
        keys, values = X.ladder(fixed, "this table", BuiltinError, tnode)
        return c.helper(X.threshold_fixed, c.code.constant(keys), c.code.constant(values), n), "int"
    prop = getattr(tnode, "name", None) if tnode.__class__.__name__ == "Attr" else None
    if prop in c.m.properties:  # a card property: every card's table is checked now
        for card, table in enumerate(c.m.properties[prop][0]):
            if table is not None:
                X.ladder(table, f"{c.m.card_names[card]}'s {prop}", BuiltinError, tnode)
    return c.helper(X.threshold, ttree, n, c.loc(tnode)), "int"


# ---------------------------------------------------------------- zones
def _end(name, top):
    """top(zone) / bottom(zone): the card at that end or none; top(zone, n) / bottom(zone, n): the n cards
    nearest that end, in zone order (bottom to top), or all the cards there are if the zone has fewer."""
    def build(c, args):
        _need(args, 1, 2, name)
        zone = _kind(args[0], "zone", name, 1)
        end = ast.Constant(-1 if top else 0)
        if len(args) == 1:
            if simple(zone):  # top(deck), top(hand(p))
                return py("s.zones[_0][_1] if s.zones[_0] else None", zone, end), "card"
            return c.helper(X.end_card, py("s.zones[_0]", zone), end), "card"
        n = _kind(args[1], "int", name, 2)
        options = getattr(c, "options", None)  # (none while the analysis only asks for the kind)
        fixed = n.value if isinstance(n, ast.Constant) and type(n.value) is int else -1
        if options is not None and options.fold and (fixed > 0 or fixed == 0 and not top):
            # a count known at load (top(pile, 1)): a slice gives what end_cards gives (z[-0:] would be all)
            return py("s.zones[_0][_1:]" if top else "s.zones[_0][:_1]", zone,
                      ast.Constant(-fixed if top else fixed)), "list:card"
        return c.helper(X.end_cards, py("s.zones[_0]", zone), n, ast.Constant(top), ast.Constant(name),
                        c.call_loc), "list:card"
    return build


def b_zone_of(c, args):
    _need(args, 1, 1, "zone_of")
    card = _kind(args[0], "card", "zone_of", 1)
    return py("s.loc[_0]", card), "zone"


def b_owner_of(c, args):
    """The player who owns the zone a card (or a zone) is in; none for shared zones."""
    _need(args, 1, 1, "owner_of")
    tree, kind, node = args[0]
    owners = c.code.constant(c.zone_owner)  # zone index -> player or None
    if kind == "zone":
        return py("_0[_1]", owners, tree), "player"
    _kind(args[0], "card", "owner_of", 1)
    return c.helper(X.owner_of_card, S(), owners, tree), "player"


def b_position(c, args):
    """Index of a card in its zone, 0 at the bottom."""
    _need(args, 1, 1, "position")
    card = _kind(args[0], "card", "position", 1)
    return c.helper(X.position, S(), card), "int"


def _around(name, above):
    """above(card) / below(card): the cards over or under a card in its zone, bottom to top."""
    def build(c, args):
        _need(args, 1, 1, name)
        card = _kind(args[0], "card", name, 1)
        return c.helper(X.around, S(), card, ast.Constant(above), c.call_loc), "list:card"
    return build


def b_space_of(c, args):
    """The board space whose per-space zone holds a card (or is the zone); none elsewhere.

    Pieces that move on a board live in per-space zones, so the rules can ask
    where a piece stands and then ask the board where a step leads from there.
    """
    _need(args, 1, 1, "space_of")
    tree, kind, node = args[0]
    spaces = c.code.constant(c.m.zone_space)  # zone index -> space name or None
    if kind == "zone":
        return py("_0[_1]", spaces, tree), "space"
    _kind(args[0], "card", "space_of", 1)
    return c.helper(X.space_of_card, S(), spaces, tree), "space"


def b_flatten(c, args):
    """flatten(list of zones or lists): one list, in order, e.g. every piece on the board:
    flatten(each sp in spaces: pile(sp))."""
    _need(args, 1, 1, "flatten")
    tree, kind = _as_list(args[0], "flatten")
    inner = T.element(kind)
    if inner == "zone":
        return c.helper(X.flatten_zones, S(), tree, c.call_loc), "list:card"
    if not T.is_list(inner) and inner != T.ANY:
        raise BuiltinError(f"flatten() joins a list of lists or zones, not {T.describe(kind)}", args[0][2])
    return c.helper(X.flatten, S(), tree, c.call_loc), T.list_of(T.element(inner))


# ---------------------------------------------------------------- players
def b_next_player(c, args):
    """The next player clockwise (to the left)."""
    _need(args, 1, 2, "next_player")
    p = _kind(args[0], "player", "next_player", 1)
    if len(args) == 2:
        k = _kind(args[1], "int", "next_player", 2)
        return py("(_0 + _1) % s.n", p, k), "player"
    return py("(_0 + 1) % s.n", p), "player"


def b_previous_player(c, args):
    """The next player counter-clockwise (to the right)."""
    _need(args, 1, 1, "previous_player")
    p = _kind(args[0], "player", "previous_player", 1)
    return py("(_0 - 1) % s.n", p), "player"


def b_players_from(c, args):
    """Every player, clockwise, starting with the given one."""
    _need(args, 1, 1, "players_from")
    p = _kind(args[0], "player", "players_from", 1)
    return c.helper(X.players_from, S(), p), "list:player"


def b_seat(c, args):
    """The player in seat k (1-based), as written in rulebooks."""
    _need(args, 1, 1, "seat")
    k = _kind(args[0], "int", "seat", 1)
    return py("(_0 - 1) % s.n", k), "player"


def b_opening(c, args):
    """The first player of a turn phase: a scenario's ``first_player`` the first time, else the phase's own.

    Called only by the flow the loader builds (its name cannot be written in a definition)."""
    _need(args, 1, 1, "$opening")
    first = _kind(args[0], "player", "$opening", 1)
    return py("_0 if s.first_player is None else _1(s, None)", first, c.code.constant(X.opening)), "player"


# ---------------------------------------------------------------- chance
def b_random(c, args):
    """A uniformly random item of a list or zone (none if empty), from the state's RNG."""
    _need(args, 1, 1, "random")
    tree, kind = _as_list(args[0], "random")
    return c.helper(X.pick, S(), tree), T.element(kind)


def b_shuffled(c, args):
    """shuffled(list): a copy in random order, from the state's RNG (the list itself is unchanged)."""
    _need(args, 1, 1, "shuffled")
    tree, kind = _as_list(args[0], "shuffled")
    return c.helper(X.shuffled, S(), tree), kind


def b_sort_by(c, args):
    """sort_by(each x in list: key): lowered by the expression compiler, which sees the 'each' whole."""
    from .ordering import SORT_BY_FORM

    raise BuiltinError(SORT_BY_FORM)


def b_roll(c, args):
    """roll(n): a random number from 1 to n (a die of n sides: n is 1 or more)."""
    _need(args, 1, 1, "roll")
    n = _kind(args[0], "int", "roll", 1)
    return c.helper(X.roll, S(), n, c.call_loc), "int"


# ---------------------------------------------------------------- board
def _board(c, name):
    if c.board is None:
        raise BuiltinError(f"{name}() needs a board; declare one under 'board:'")
    return c.board


def b_step(c, args):
    """step(space, direction): the space reached by one step that way, or none."""
    _need(args, 2, 2, "step")
    board = _board(c, "step")
    sp = _kind(args[0], "space", "step", 1)
    d = _kind(args[1], "str", "step", 2)
    if args[1][2].__class__.__name__ == "Const" and args[1][2].value not in board.directions:
        raise BuiltinError(f"unknown direction {args[1][2].value!r}; the board has "
                           f"{', '.join(sorted(board.directions))}", args[1][2])
    return py("_0.get((_1, _2))", c.code.constant(board.step_table), sp, d), "space"


def _spaces_around(c, args, name: str, table_of):
    """``name(space)``: a list of spaces read from a board table (``table_of(board)``) built at load."""
    _need(args, 1, 1, name)
    table = table_of(_board(c, name))
    sp = _kind(args[0], "space", name, 1)
    return py("list(_0.get(_1, ()))", c.code.constant(table), sp), "list:space"


def b_adjacent(c, args):
    return _spaces_around(c, args, "adjacent", lambda board: board.neighbours)


def b_diagonals(c, args):
    """diagonals(space): the spaces one diagonal step away on a grid with ``diagonals: true``."""
    return _spaces_around(c, args, "diagonals", lambda board: board.diagonals)


def b_distance(c, args):
    _need(args, 2, 2, "distance")
    board = _board(c, "distance")
    a = _kind(args[0], "space", "distance", 1)
    b = _kind(args[1], "space", "distance", 2)
    return py("_0.get((_1, _2))", c.code.constant(board.distances), a, b), "int"


def _line(name, attr):
    def b_line(c, args):
        # row(space) / column(space): the spaces of that grid line, west to east / north to south
        _need(args, 1, 1, name)
        board = _board(c, name)
        if board.grid is None:
            raise BuiltinError(f"{name}() needs a grid board (board: {{grid: {{rows: R, columns: C}}}})", args[0][2])
        sp = _kind(args[0], "space", name, 1)
        table = getattr(board, attr)
        return c.helper(X.grid_line, c.code.constant(table), sp, ast.Constant(name), c.loc(args[0][2])), "list:space"
    return b_line


BUILTINS = {
    "size": b_size, "count": b_size, "any": b_any, "all": b_all, "sum": b_sum,
    "max": _minmax("max", max, X.max_of), "min": _minmax("min", min, X.min_of), "distinct": b_distinct,
    "first": b_first, "last": b_last, "reverse": b_reverse, "range": b_range, "abs": b_abs, "product": b_product,
    "threshold": b_threshold,
    "top": _end("top", True), "bottom": _end("bottom", False), "zone_of": b_zone_of, "owner_of": b_owner_of,
    "position": b_position, "above": _around("above", True), "below": _around("below", False), "space_of": b_space_of, "flatten": b_flatten,
    "next_player": b_next_player, "previous_player": b_previous_player, "players_from": b_players_from,
    "seat": b_seat, "$opening": b_opening, "random": b_random, "roll": b_roll, "shuffled": b_shuffled, "sort_by": b_sort_by,
    "step": b_step, "adjacent": b_adjacent, "diagonals": b_diagonals, "distance": b_distance,
    "row": _line("row", "rows"), "column": _line("column", "columns"),
}
