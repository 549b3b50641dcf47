"""Built-in functions of the effect language: one record per builtin, everything the compiler knows of it.

A :class:`Builtin` says a builtin's name, its signature (how many arguments, of which kinds, and
the kind of its result), whether its own code reads the game state, whether it draws a random
number, and how it is lowered.  The analysis pass (``analysis.py``) reads the record: the kind
rule checks the arguments' kinds (a located error at load) and gives the result's kind; ``reads``
and ``random`` become the call's note.  The lowering (``lower_expr.py``) calls ``lower``, which
builds code that does only the work at run time, inline or through one call of a run-time helper
of :mod:`interpreter.runtime.values`, and checks nothing.

A kind rule is ``rule(c, args)``: ``c`` the compile context (``context.py``: ``m``, ``board``, ``zone_owner``),
``args`` one :class:`Arg` (kind, syntax node, constant value) per argument.  A lowering is
``lower(c, args, kind)``: ``args`` the lowered arguments as ``(tree, kind, node)`` triples (a
Python ``ast`` expression over ``s`` and ``e``, see lower_expr.py), ``kind`` the result's.
Everything here is game-agnostic: zones, cards, players and board spaces, never a game's words.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable

from ..runtime import values as V
from . import types as T
from .pyast import py


class BuiltinError(Exception):
    """Raised at load; the compiler adds the location."""

    def __init__(self, message, node=None):
        super().__init__(message)
        self.node = node


class _NotConstant:
    def __repr__(self):
        return "NOT_CONSTANT"


NOT_CONSTANT = _NotConstant()  # an argument whose value is not known at load


@dataclass(frozen=True)
class Arg:
    """What a builtin's kind rule sees of one argument: its kind, its syntax node, its value if constant."""

    kind: str
    node: object
    const: object = NOT_CONSTANT


def never(kinds) -> bool:
    return False


def always(kinds) -> bool:
    return True


def zones_read(kinds) -> bool:
    """A zone given where a list is read: its cards are the state's."""
    return "zone" in kinds


@dataclass(frozen=True)
class Builtin:
    """One builtin function (see the module docstring)."""

    name: str
    arity: tuple  # (fewest, most) arguments
    signature: str  # as the reference writes it, with the result's kind
    kind: Callable  # kind(ctx, [Arg]) -> the result's kind; refuses arguments of the wrong kinds
    lower: Callable  # lower(ctx, [(tree, kind, node)], result kind) -> the call's tree
    reads: Callable = never  # reads(argument kinds) -> does its own code read the game state?
    random: bool = False  # does it draw from the game's random numbers?

    def result(self, c, args) -> str:
        """The result's kind of a call with ``args`` (each an :class:`Arg`), its arity and kinds checked."""
        _need(args, *self.arity, self.name)
        return self.kind(c, args)


def S():
    return ast.Name("s", ast.Load())


def _need(args, lo, hi, name):
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise BuiltinError(f"{name}() takes {want} argument{'s' if hi != 1 else ''}, got {len(args)}")


def _kind(arg, expected, name, position):
    """Refuse an argument not of the ``expected`` kind."""
    if not T.fits(arg.kind, expected):
        raise BuiltinError(f"argument {position} of {name}() must be {T.describe(expected)}, "
                           f"not {T.describe(arg.kind)}", arg.node)


def _listed(arg, name, position=1) -> str:
    """The kind of the list an argument that must be a list or a zone gives (a zone gives its cards)."""
    kind = arg.kind
    if not T.is_list(kind) and kind != T.ANY:
        raise BuiltinError(f"argument {position} of {name}() must be a list or a zone, not {T.describe(kind)}",
                           arg.node)
    return "list:card" if kind == "zone" else kind


def _as_list(arg):
    """A lowered argument that is a list or a zone, as a tree giving a list."""
    tree, kind, _ = arg
    return py("s.zones[_0]", tree) if kind == "zone" else tree


def _scan(c, tree, reduce):
    """reduce(list), the list's items paid for from the step budget (one step each)."""
    return c.exprs.helper(V.scan_reduce, S(), tree, c.code.constant(reduce), c.call_loc)


def _of(*kinds):
    """The rule of a builtin whose arguments have fixed kinds (``(kind, ...)``, the first ones if fewer)."""
    def rule(name, result):
        def kind(c, args):
            for i, (arg, expected) in enumerate(zip(args, kinds)):
                _kind(arg, expected, name, i + 1)
            return result
        return kind
    return rule


# ---------------------------------------------------------------- collections
def list_rule(result):
    """The rule of a builtin of one list: ``result(list kind)`` gives the result's kind."""
    def rule(name):
        return lambda c, args: result(_listed(args[0], name))
    return rule


SIZES = ("size", "count")  # the builtins lowered to ``len(...)``: a number, never none (analysis notes it)


def lower_size(c, args, kind):
    return py("len(_0)", _as_list(args[0]))


def lower_any(c, args, kind):
    """any(list of true/false): is one true?  any(list of cards, players...): is the list non-empty?"""
    tree = _as_list(args[0])
    if T.element(args[0][1]) == "bool":
        return _scan(c, tree, any)
    return py("len(_0) > 0", tree)


def kind_all(c, args):
    if not T.fits(T.element(_listed(args[0], "all")), "bool"):
        raise BuiltinError("all() needs a list of true/false values, e.g. all(each c in zone where c.ready)",
                           args[0].node)
    return "bool"


def lower_all(c, args, kind):
    return _scan(c, _as_list(args[0]), all)


def kind_sum(c, args):
    if not T.fits(T.element(_listed(args[0], "sum")), "int"):
        raise BuiltinError("sum() adds numbers; give it a list of numbers, e.g. sum(each c in zone: c.value)",
                           args[0].node)
    return "int"


def lower_sum(c, args, kind):
    return c.exprs.helper(V.checked, _scan(c, _as_list(args[0]), sum), c.call_loc, ast.Constant("sum()"))


def _minmax(name, of_list):
    def kind(c, args):
        if len(args) == 1:
            if not T.fits(T.element(_listed(args[0], name)), "int"):
                raise BuiltinError(f"{name}() of a list needs numbers", args[0].node)
            return "int"
        for i, a in enumerate(args):
            _kind(a, "int", name, i + 1)
        return "int"

    def lower(c, args, kind):
        if len(args) == 1:
            return _scan(c, _as_list(args[0]), of_list)
        trees = [tree for tree, _, _ in args]
        if len(trees) == 2:
            return ast.Call(ast.Name(name, ast.Load()), trees, [])
        return ast.Call(ast.Name(name, ast.Load()), [ast.List(trees, ast.Load())], [])
    return kind, lower


def _scanned(reduce):
    """The lowering of a builtin that scans its list with ``reduce`` (a step per item)."""
    return lambda c, args, kind: _scan(c, _as_list(args[0]), reduce)


def _helped(helper):
    """The lowering of ``helper(list)``."""
    return lambda c, args, kind: c.exprs.helper(helper, _as_list(args[0]))


def lower_range(c, args, kind):
    trees = [tree for tree, _, _ in args]
    start = trees[0] if len(trees) == 2 else ast.Constant(0)
    return c.exprs.helper(V.number_range, S(), start, trees[-1], c.call_loc)


def lower_abs(c, args, kind):
    return py("abs(_0)", args[0][0])


def kind_product(c, args):
    """product(list of lists): every way to pick one item from each list, first list slowest.

    product(xs, ys, ...) of 2 to 8 lists gives pairs (tuples) instead, each part keeping its list's
    kind, for ``for q, r in product(players, ranks)``; the same helper makes them (lists at run time).

    For "some choice of one value per card meets a condition":
    any(each combo in product(each c in pile: c.values): sum(combo) <= 12).  Each
    combination made costs one step of the budget, counted before any is made.
    """
    if len(args) > 1:  # product(xs, ys): pairs (tuples), each value keeping its own kind
        return T.list_of(T.tuple_of([T.element(_listed(arg, "product", i + 1)) for i, arg in enumerate(args)]))
    kind = _listed(args[0], "product")
    inner = T.element(kind)
    if inner == "zone":
        item = "card"
    elif T.is_list(inner) or inner in (T.ANY, "none"):  # "none": product([])
        item = T.element(inner)
    else:
        raise BuiltinError(f"product() picks one item from each of several lists; give it a list of lists, "
                           f"e.g. product(each c in pile: c.values), or several lists for pairs: product(xs, ys); "
                           f"not {T.describe(kind)}", args[0].node)
    return T.list_of(T.list_of(item))


def lower_product(c, args, kind):
    if len(args) > 1:
        return c.exprs.helper(V.product, S(), ast.List([_as_list(arg) for arg in args], ast.Load()), c.exprs.loc(args[0][2]))
    tree = _as_list(args[0])
    if T.element(args[0][1]) == "zone":
        tree = py("[s.zones[z] for z in _0]", tree)
    return c.exprs.helper(V.product, S(), tree, c.exprs.loc(args[0][2]))


def reads_product(kinds) -> bool:
    """Zones read as lists, or one list of zones (each zone's cards)."""
    return "zone" in kinds or len(kinds) == 1 and T.element(kinds[0]) == "zone"


def kind_threshold(c, args):
    """threshold(table, n): the value of the highest key at most n, or 0 if every key is above n.

    Score ladders read this way: with {1: 1, 2: 3, 4: 7}, three of a kind is worth 3
    and five is worth 7.  Keys and values are whole numbers; a table that is a
    parameter or a card property is checked at load, any other when it is read.
    """
    table = args[0]
    if table.kind != T.ANY and table.kind != "table" and not T.fits(table.kind, "table:int"):
        raise BuiltinError(f"argument 1 of threshold() must be a table such as {{1: 1, 3: 5}}, not "
                           f"{T.describe(table.kind)}", table.node)
    _kind(args[1], "int", "threshold", 2)
    if isinstance(table.const, dict):  # a parameter: checked now
        V.ladder(table.const, "this table", BuiltinError, table.node)
        return "int"
    prop = getattr(table.node, "name", None) if table.node.__class__.__name__ == "Attr" else None
    if prop in c.m.properties:  # a card property: every card's table is checked now
        for card, entries in enumerate(c.m.properties[prop][0]):
            if entries is not None:
                V.ladder(entries, f"{c.m.card_names[card]}'s {prop}", BuiltinError, table.node)
    return "int"


def lower_threshold(c, args, kind):
    (ttree, _, tnode), (n, _, _) = args
    fixed = c.notes[id(tnode)].const
    if isinstance(fixed, dict):  # a parameter: sorted once, looked up by bisection
        keys, values = V.ladder(fixed, "this table", BuiltinError, tnode)
        return c.exprs.helper(V.threshold_fixed, c.code.constant(keys), c.code.constant(values), n)
    return c.exprs.helper(V.threshold, ttree, n, c.exprs.loc(tnode))


# ---------------------------------------------------------------- zones
def _end(name, top):
    """top(zone) / bottom(zone): the card at that end or none; top(zone, n) / bottom(zone, n): the n cards
    nearest that end, in zone order (bottom to top), or all the cards there are if the zone has fewer."""
    def kind(c, args):
        _kind(args[0], "zone", name, 1)
        if len(args) == 1:
            return "card"
        _kind(args[1], "int", name, 2)
        return "list:card"

    def lower(c, args, kind):
        zone = args[0][0]
        end = ast.Constant(-1 if top else 0)
        if len(args) == 1:
            if c.exprs.repeatable(args[0][2]):  # top(deck), top(hand(p))
                return py("s.zones[_0][_1] if s.zones[_0] else None", zone, end)
            return c.exprs.helper(V.end_card, py("s.zones[_0]", zone), end)
        n, count = args[1][0], c.notes[id(args[1][2])].const
        fixed = count if type(count) is int else -1  # a count known at load (its note says)
        if c.options.fold and (fixed > 0 or fixed == 0 and not top):
            # a count known at load (top(pile, 1)): a slice gives what end_cards gives (z[-0:] would be all)
            return py("s.zones[_0][_1:]" if top else "s.zones[_0][:_1]", zone, ast.Constant(-fixed if top else fixed))
        return c.exprs.helper(V.end_cards, py("s.zones[_0]", zone), n, ast.Constant(top), ast.Constant(name), c.call_loc)
    return kind, lower


def _card_or_zone(name, result):
    """The rule of owner_of / space_of: a zone, or a card (the zone it is in)."""
    def kind(c, args):
        if args[0].kind != "zone":
            _kind(args[0], "card", name, 1)
        return result
    return kind


def lower_owner_of(c, args, kind):
    """The player who owns the zone a card (or a zone) is in; none for shared zones."""
    tree, akind, _ = args[0]
    owners = c.code.constant(c.zone_owner)  # zone index -> player or None
    if akind == "zone":
        return py("_0[_1]", owners, tree)
    return c.exprs.helper(V.owner_of_card, S(), owners, tree)


def lower_space_of(c, args, kind):
    """The board space whose per-space zone holds a card (or is the zone); none elsewhere.

    Pieces that move on a board live in per-space zones, so the rules can ask
    where a piece stands and then ask the board where a step leads from there.
    """
    tree, akind, _ = args[0]
    spaces = c.code.constant(c.m.zone_space)  # zone index -> space name or None
    if akind == "zone":
        return py("_0[_1]", spaces, tree)
    return c.exprs.helper(V.space_of_card, S(), spaces, tree)


def reads_cards(kinds) -> bool:
    """owner_of / space_of of a card read where it is; of a zone, a table made at load."""
    return kinds[0] != "zone"


def _around(name, above):
    """above(card) / below(card): the cards over or under a card in its zone, bottom to top."""
    return lambda c, args, kind: c.exprs.helper(V.around, S(), args[0][0], ast.Constant(above), c.call_loc)


def kind_flatten(c, args):
    """flatten(list of zones or lists): one list, in order, e.g. every piece on the board:
    flatten(each sp in spaces: pile(sp))."""
    kind = _listed(args[0], "flatten")
    inner = T.element(kind)
    if inner == "zone":
        return "list:card"
    if not T.is_list(inner) and inner != T.ANY:
        raise BuiltinError(f"flatten() joins a list of lists or zones, not {T.describe(kind)}", args[0].node)
    return T.list_of(T.element(inner))


def lower_flatten(c, args, kind):
    tree = _as_list(args[0])
    if T.element(args[0][1]) == "zone":
        return c.exprs.helper(V.flatten_zones, S(), tree, c.call_loc)
    return c.exprs.helper(V.flatten, S(), tree, c.call_loc)


def reads_flatten(kinds) -> bool:
    """A list of zones: each zone's cards."""
    return kinds[0] == "zone" or T.element(kinds[0]) == "zone"


# ---------------------------------------------------------------- players
def lower_next_player(c, args, kind):
    """The next player clockwise (to the left)."""
    if len(args) == 2:
        return py("(_0 + _1) % s.n", args[0][0], args[1][0])
    return py("(_0 + 1) % s.n", args[0][0])


def lower_opening(c, args, kind):
    """The first player of a turn phase: a scenario's ``first_player`` the first time, else the phase's own.

    Called only by the flow the loader builds (its name cannot be written in a definition)."""
    return py("_0 if s.first_player is None else _1(s, None)", args[0][0], c.code.constant(V.opening))


# ---------------------------------------------------------------- chance
def kind_sort_by(c, args):
    """sort_by(each x in list: key): lowered by the expression compiler, which sees the 'each' whole."""
    from .ordering import SORT_BY_FORM

    raise BuiltinError(SORT_BY_FORM)


# ---------------------------------------------------------------- board
def _board(c, name):
    if c.board is None:
        raise BuiltinError(f"{name}() needs a board; declare one under 'board:'")
    return c.board


def _on_board(name, *kinds, check=None):
    """The rule of a builtin of the board: a board is declared, arguments of ``kinds``, then ``check``."""
    def kind(c, args):
        board = _board(c, name)
        if check is not None:
            check(board, args)
        for i, (arg, expected) in enumerate(zip(args, kinds)):
            _kind(arg, expected, name, i + 1)
        return result
    result = {"step": "space", "distance": "int"}.get(name, "list:space")
    return kind


def _direction(board, args):
    """step(space, direction): the space reached by one step that way, or none."""
    _kind(args[0], "space", "step", 1)
    _kind(args[1], "str", "step", 2)
    node = args[1].node
    if node.__class__.__name__ == "Const" and node.value not in board.directions:
        raise BuiltinError(f"unknown direction {node.value!r}; the board has "
                           f"{', '.join(sorted(board.directions))}", node)


def _grid(name):
    def check(board, args):
        # row(space) / column(space): the spaces of that grid line, west to east / north to south
        if board.grid is None:
            raise BuiltinError(f"{name}() needs a grid board (board: {{grid: {{rows: R, columns: C}}}})", args[0].node)
    return check


def lower_step(c, args, kind):
    return py("_0.get((_1, _2))", c.code.constant(c.board.step_table), args[0][0], args[1][0])


def _spaces_around(table_of):
    """``name(space)``: a list of spaces read from a board table (``table_of(board)``) built at load."""
    return lambda c, args, kind: py("list(_0.get(_1, ()))", c.code.constant(table_of(c.board)), args[0][0])


def lower_distance(c, args, kind):
    return py("_0.get((_1, _2))", c.code.constant(c.board.distances), args[0][0], args[1][0])


def _line(name, attr):
    return lambda c, args, kind: c.exprs.helper(V.grid_line, c.code.constant(getattr(c.board, attr)), args[0][0],
                                          ast.Constant(name), c.exprs.loc(args[0][2]))


def _table() -> dict:
    size = list_rule(lambda kind: "int")
    same = list_rule(lambda kind: kind)
    item = list_rule(T.element)
    max_kind, max_lower = _minmax("max", V.max_of)
    min_kind, min_lower = _minmax("min", V.min_of)
    top_kind, top_lower = _end("top", True)
    bottom_kind, bottom_lower = _end("bottom", False)
    one = _of("player")
    records = [
        # collections
        Builtin("size", (1, 1), "size(list or zone) -> int", size("size"), lower_size, zones_read),
        Builtin("count", (1, 1), "count(list or zone) -> int", size("count"), lower_size, zones_read),
        Builtin("any", (1, 1), "any(list) -> bool", list_rule(lambda kind: "bool")("any"), lower_any, zones_read),
        Builtin("all", (1, 1), "all(list of bool) -> bool", kind_all, lower_all, zones_read),
        Builtin("sum", (1, 1), "sum(list of int) -> int", kind_sum, lower_sum, zones_read),
        Builtin("max", (1, 8), "max(list of int) or max(int, int, ...) -> int", max_kind, max_lower, zones_read),
        Builtin("min", (1, 8), "min(list of int) or min(int, int, ...) -> int", min_kind, min_lower, zones_read),
        Builtin("distinct", (1, 1), "distinct(list) -> list", same("distinct"), _scanned(V.distinct), zones_read),
        Builtin("first", (1, 1), "first(list) -> item", item("first"), _helped(V.first), zones_read),
        Builtin("last", (1, 1), "last(list) -> item", item("last"), _helped(V.last), zones_read),
        Builtin("reverse", (1, 1), "reverse(list) -> list", same("reverse"), _scanned(V.reverse), zones_read),
        Builtin("range", (1, 2), "range([int,] int) -> list of int", _of("int", "int")("range", "list:int"),
                lower_range),
        Builtin("abs", (1, 1), "abs(int) -> int", _of("int")("abs", "int"), lower_abs),
        Builtin("product", (1, 8), "product(list of lists) or product(list, list, ...) -> list", kind_product,
                lower_product, reads_product),
        Builtin("threshold", (2, 2), "threshold(table, int) -> int", kind_threshold, lower_threshold),
        # zones
        Builtin("top", (1, 2), "top(zone[, int]) -> card or list of card", top_kind, top_lower, always),
        Builtin("bottom", (1, 2), "bottom(zone[, int]) -> card or list of card", bottom_kind, bottom_lower, always),
        Builtin("zone_of", (1, 1), "zone_of(card) -> zone", _of("card")("zone_of", "zone"),
                lambda c, args, kind: py("s.loc[_0]", args[0][0]), always),
        Builtin("owner_of", (1, 1), "owner_of(card or zone) -> player", _card_or_zone("owner_of", "player"),
                lower_owner_of, reads_cards),
        Builtin("position", (1, 1), "position(card) -> int", _of("card")("position", "int"),
                lambda c, args, kind: c.exprs.helper(V.position, S(), args[0][0]), always),
        Builtin("above", (1, 1), "above(card) -> list of card", _of("card")("above", "list:card"),
                _around("above", True), always),
        Builtin("below", (1, 1), "below(card) -> list of card", _of("card")("below", "list:card"),
                _around("below", False), always),
        Builtin("space_of", (1, 1), "space_of(card or zone) -> space", _card_or_zone("space_of", "space"),
                lower_space_of, reads_cards),
        Builtin("flatten", (1, 1), "flatten(list of lists or zones) -> list", kind_flatten, lower_flatten,
                reads_flatten),
        # players
        Builtin("next_player", (1, 2), "next_player(player[, int]) -> player",
                _of("player", "int")("next_player", "player"), lower_next_player, always),
        Builtin("previous_player", (1, 1), "previous_player(player) -> player", one("previous_player", "player"),
                lambda c, args, kind: py("(_0 - 1) % s.n", args[0][0]), always),
        Builtin("players_from", (1, 1), "players_from(player) -> list of player",
                one("players_from", "list:player"),
                lambda c, args, kind: c.exprs.helper(V.players_from, S(), args[0][0]), always),
        Builtin("seat", (1, 1), "seat(int) -> player", _of("int")("seat", "player"),
                lambda c, args, kind: py("(_0 - 1) % s.n", args[0][0]), always),
        Builtin("$opening", (1, 1), "$opening(player) -> player", one("$opening", "player"), lower_opening, always),
        # chance
        Builtin("random", (1, 1), "random(list or zone) -> item", item("random"),
                lambda c, args, kind: c.exprs.helper(V.pick, S(), _as_list(args[0])), always, random=True),
        Builtin("roll", (1, 1), "roll(int) -> int", _of("int")("roll", "int"),
                lambda c, args, kind: c.exprs.helper(V.roll, S(), args[0][0], c.call_loc), always, random=True),
        Builtin("shuffled", (1, 1), "shuffled(list or zone) -> list", same("shuffled"),
                lambda c, args, kind: c.exprs.helper(V.shuffled, S(), _as_list(args[0])), always, random=True),
        Builtin("sort_by", (0, 99), "sort_by(each x in list: key) -> list", kind_sort_by, None),
        # board
        Builtin("step", (2, 2), "step(space, str) -> space", _on_board("step", check=_direction), lower_step),
        Builtin("adjacent", (1, 1), "adjacent(space) -> list of space", _on_board("adjacent", "space"),
                _spaces_around(lambda board: board.neighbours)),
        Builtin("diagonals", (1, 1), "diagonals(space) -> list of space", _on_board("diagonals", "space"),
                _spaces_around(lambda board: board.diagonals)),
        Builtin("distance", (2, 2), "distance(space, space) -> int", _on_board("distance", "space", "space"),
                lower_distance),
        Builtin("row", (1, 1), "row(space) -> list of space", _on_board("row", "space", check=_grid("row")),
                _line("row", "rows")),
        Builtin("column", (1, 1), "column(space) -> list of space",
                _on_board("column", "space", check=_grid("column")), _line("column", "columns")),
    ]
    return {record.name: record for record in records}


BUILTINS = _table()


def draws_random(name: str) -> bool:
    """Does a call of ``name`` draw a random number (a builtin that does)?"""
    record = BUILTINS.get(name)
    return record is not None and record.random
