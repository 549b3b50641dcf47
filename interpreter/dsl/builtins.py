"""Built-in functions of the effect language, each specialised at compile time.

A builtin receives its compiled arguments as ``(function, kind, node)`` triples
and returns ``(function, kind)``: it checks the argument kinds once, at load,
and returns a closure that does only the work at run time.  Everything here is
game-agnostic: zones, cards, players and board spaces, never a game's words.
"""

from __future__ import annotations

import itertools

from .. import rng as RNG
from ..errors import RuleError
from . import types as T
from .runtime import checked_int, over_budget, paid_scan


class BuiltinError(Exception):
    """Raised at compile time; the compiler adds the location."""

    def __init__(self, message, node=None):
        super().__init__(message)
        self.node = node


def _need(args, lo, hi, name):
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise BuiltinError(f"{name}() takes {want} argument{'s' if hi != 1 else ''}, got {len(args)}")


def _kind(arg, expected, name, position):
    fn, kind, node = arg
    if not T.fits(kind, expected):
        raise BuiltinError(f"argument {position} of {name}() must be {T.describe(expected)}, "
                           f"not {T.describe(kind)}", node)
    return fn


def _as_list(arg, name, position=1):
    """A compiled argument that must be a list or zone, as a closure returning a list."""
    fn, kind, node = arg
    if not T.is_list(kind) and kind != T.ANY:
        raise BuiltinError(f"argument {position} of {name}() must be a list or a zone, not {T.describe(kind)}", node)
    if kind == "zone":
        from .runtime import zone_cards

        return zone_cards(fn), "list:card"
    return fn, kind


def _scan(c, fn, reduce):
    """reduce(list), the list's items paid for from the step budget (one step each)."""
    return paid_scan(fn, reduce, c.call_loc)


# ---------------------------------------------------------------- collections
def b_size(c, args):
    _need(args, 1, 1, "size")
    zone = args[0][0]
    if args[0][1] == "zone" and hasattr(zone, "const_value"):  # the commonest case: size(deck)
        index = zone.const_value
        fn = lambda s, e: len(s.zones[index])  # noqa: E731
        fn.size_of_zone = index  # lets a comparison with a constant read the length itself
        return fn, "int"
    fn, _ = _as_list(args[0], "size")
    return (lambda s, e: len(fn(s, e))), "int"


def b_any(c, args):
    """any(list of true/false): is one true?  any(list of cards, players...): is the list non-empty?"""
    _need(args, 1, 1, "any")
    fn, kind = _as_list(args[0], "any")
    if T.element(kind) == "bool":
        return _scan(c, fn, any), "bool"
    return (lambda s, e: len(fn(s, e)) > 0), "bool"


def b_all(c, args):
    _need(args, 1, 1, "all")
    fn, kind = _as_list(args[0], "all")
    if not T.fits(T.element(kind), "bool"):
        raise BuiltinError("all() needs a list of true/false values, e.g. all(each c in zone where c.ready)",
                           args[0][2])
    return _scan(c, fn, all), "bool"


def b_sum(c, args):
    _need(args, 1, 1, "sum")
    fn, kind = _as_list(args[0], "sum")
    if not T.fits(T.element(kind), "int"):
        raise BuiltinError("sum() adds numbers; give it a list of numbers, e.g. sum(each c in zone: c.value)",
                           args[0][2])
    loc = c.call_loc
    total = _scan(c, fn, sum)
    return (lambda s, e: checked_int(total(s, e), loc, "sum()")), "int"


def _minmax(name, pick):
    def build(c, args):
        _need(args, 1, 8, name)
        if len(args) == 1:
            fn, kind = _as_list(args[0], name)
            if not T.fits(T.element(kind), "int"):
                raise BuiltinError(f"{name}() of a list needs numbers", args[0][2])
            return _scan(c, fn, lambda xs: pick(xs, default=0)), "int"
        fns = [_kind(a, "int", name, i + 1) for i, a in enumerate(args)]
        if len(fns) == 2:
            a, b = fns
            return (lambda s, e: pick(a(s, e), b(s, e))), "int"
        return (lambda s, e: pick([f(s, e) for f in fns])), "int"
    return build


def b_distinct(c, args):
    _need(args, 1, 1, "distinct")
    fn, kind = _as_list(args[0], "distinct")
    return _scan(c, fn, lambda xs: list(dict.fromkeys(xs))), kind


def b_first(c, args):
    _need(args, 1, 1, "first")
    fn, kind = _as_list(args[0], "first")
    return (lambda s, e: (lambda xs: xs[0] if xs else None)(fn(s, e))), T.element(kind)


def b_last(c, args):
    _need(args, 1, 1, "last")
    fn, kind = _as_list(args[0], "last")
    return (lambda s, e: (lambda xs: xs[-1] if xs else None)(fn(s, e))), T.element(kind)


def b_reverse(c, args):
    _need(args, 1, 1, "reverse")
    fn, kind = _as_list(args[0], "reverse")
    return _scan(c, fn, lambda xs: xs[::-1]), kind


def b_range(c, args):
    _need(args, 1, 2, "range")
    fns = [_kind(a, "int", "range", i + 1) for i, a in enumerate(args)]
    loc = c.call_loc
    start = fns[0] if len(fns) == 2 else (lambda s, e: 0)
    stop = fns[-1]

    def range_(s, e):
        numbers = range(start(s, e), stop(s, e))
        s.steps -= len(numbers)  # paid before the list exists: range(10**9) never allocates
        if s.steps < 0:
            raise over_budget(s, loc, f"range() of {len(numbers):,} numbers")
        return list(numbers)
    return range_, "list:int"


def b_abs(c, args):
    _need(args, 1, 1, "abs")
    fn = _kind(args[0], "int", "abs", 1)
    return (lambda s, e: abs(fn(s, e))), "int"


def b_product(c, args):
    """product(list of lists): every way to pick one item from each list, first list slowest.

    For "some choice of one value per card meets a condition":
    any(each combo in product(each c in pile: c.values): sum(combo) <= 12).  Each
    combination made costs one step of the budget, counted before any is made.
    """
    _need(args, 1, 1, "product")
    fn, kind = _as_list(args[0], "product")
    inner = T.element(kind)
    if inner == "zone":
        lists_of = lambda s, e: [s.zones[z] for z in fn(s, e)]  # noqa: E731
        item = "card"
    elif T.is_list(inner) or inner in (T.ANY, "none"):  # "none": product([])
        lists_of, item = fn, T.element(inner)
    else:
        raise BuiltinError(f"product() picks one item from each of several lists; give it a list of lists, "
                           f"e.g. product(each c in pile: c.values), not {T.describe(kind)}", args[0][2])
    loc = c.location(args[0][2])

    def product(s, e):
        lists = lists_of(s, e)
        total = 1
        for xs in lists:
            total *= len(xs)
            if total > s.steps:
                raise RuleError(f"product() would make more than {s.steps} combinations, more than the step "
                                "budget left (limits.steps)", loc)
        s.steps -= total
        return [list(t) for t in itertools.product(*lists)]
    return product, T.list_of(T.list_of(item))


def b_threshold(c, args):
    """threshold(table, n): the value of the highest key at most n, or 0 if every key is above n.

    Score ladders read this way: with {1: 1, 2: 3, 4: 7}, three of a kind is worth 3
    and five is worth 7.  Keys and values are whole numbers; a table that is a
    parameter or a card property is checked at load, any other when it is read.
    """
    import bisect

    _need(args, 2, 2, "threshold")
    tfn, tkind, tnode = args[0]
    if tkind != T.ANY and tkind != "table" and not T.fits(tkind, "table:int"):
        raise BuiltinError(f"argument 1 of threshold() must be a table such as {{1: 1, 3: 5}}, not "
                           f"{T.describe(tkind)}", tnode)
    n = _kind(args[1], "int", "threshold", 2)
    fixed = getattr(tfn, "const_value", None)
    if isinstance(fixed, dict):  # a parameter: sorted once, looked up by bisection
        keys, values = _ladder(fixed, "this table", BuiltinError, tnode)

        def threshold_of_constant(s, e):
            i = bisect.bisect_right(keys, n(s, e))
            return values[i - 1] if i else 0
        return threshold_of_constant, "int"
    prop = getattr(tnode, "name", None) if tnode.__class__.__name__ == "Attr" else None
    if prop in c.m.properties:  # a card property: every card's table is checked now
        for card, table in enumerate(c.m.properties[prop][0]):
            if table is not None:
                _ladder(table, f"{c.m.card_names[card]}'s {prop}", BuiltinError, tnode)
    loc = c.location(tnode)

    def threshold(s, e):
        table = tfn(s, e)
        if not isinstance(table, dict):
            raise RuleError(f"threshold() needs a table, not {table!r}", loc)
        keys, values = _ladder(table, "the table", RuleError, loc)
        i = bisect.bisect_right(keys, n(s, e))
        return values[i - 1] if i else 0
    return threshold, "int"


def _ladder(table, what, error, where):
    """(sorted keys, their values) of a threshold table whose keys and values are whole numbers."""
    for k, v in table.items():
        if type(k) is not int or type(v) is not int:
            hint = " (its keys are numbers only if every key is one)" if isinstance(k, str) and k.isdigit() else ""
            raise error(f"threshold() reads tables of whole numbers, like {{1: 1, 3: 5}}; {what} has "
                        f"{k!r}: {v!r}{hint}", where)
    keys = sorted(table)
    return keys, [table[k] for k in keys]


# ---------------------------------------------------------------- zones
def _end(name, top):
    """top(zone) / bottom(zone): the card at that end or none; top(zone, n) / bottom(zone, n): the n cards
    nearest that end, in zone order (bottom to top), or all the cards there are if the zone has fewer."""
    def build(c, args):
        _need(args, 1, 2, name)
        zone = _kind(args[0], "zone", name, 1)
        end = -1 if top else 0
        if len(args) == 1 and hasattr(zone, "const_value"):  # top(deck)
            index = zone.const_value

            def end_of(s, e):
                z = s.zones[index]
                return z[end] if z else None
            return end_of, "card"
        if len(args) == 1:
            def end_card(s, e):
                z = s.zones[zone(s, e)]
                return z[end] if z else None
            return end_card, "card"
        n = _kind(args[1], "int", name, 2)
        loc = c.call_loc

        def end_n(s, e):
            z = s.zones[zone(s, e)]
            k = n(s, e)
            if k < 0:
                raise RuleError(f"{name}(zone, n) needs n of 0 or more, not {k}", loc)
            if k >= len(z):
                return z[:]
            return (z[len(z) - k:] if k else []) if top else z[:k]
        return end_n, "list:card"
    return build


def b_zone_of(c, args):
    _need(args, 1, 1, "zone_of")
    card = _kind(args[0], "card", "zone_of", 1)
    return (lambda s, e: s.loc[card(s, e)]), "zone"


def b_owner_of(c, args):
    """The player who owns the zone a card (or a zone) is in; none for shared zones."""
    _need(args, 1, 1, "owner_of")
    fn, kind, node = args[0]
    owners = c.zone_owner  # zone index -> player or None
    if kind == "zone":
        return (lambda s, e: owners[fn(s, e)]), "player"
    _kind(args[0], "card", "owner_of", 1)
    return (lambda s, e: owners[s.loc[fn(s, e)]] if s.loc[fn(s, e)] >= 0 else None), "player"


def b_position(c, args):
    """Index of a card in its zone, 0 at the bottom."""
    _need(args, 1, 1, "position")
    card = _kind(args[0], "card", "position", 1)

    def position(s, e):
        x = card(s, e)
        return s.zones[s.loc[x]].index(x)
    return position, "int"


def _around(name, above):
    """above(card) / below(card): the cards over or under a card in its zone, bottom to top."""
    def build(c, args):
        _need(args, 1, 1, name)
        card = _kind(args[0], "card", name, 1)
        loc = c.call_loc

        def around(s, e):
            x = card(s, e)
            z = s.zones[s.loc[x]]
            i = z.index(x)
            out = z[i + 1:] if above else z[:i]
            s.steps -= len(out)
            if s.steps < 0:
                raise over_budget(s, loc)
            return out
        return around, "list:card"
    return build


def b_space_of(c, args):
    """The board space whose per-space zone holds a card (or is the zone); none elsewhere.

    Pieces that move on a board live in per-space zones, so the rules can ask
    where a piece stands and then ask the board where a step leads from there.
    """
    _need(args, 1, 1, "space_of")
    fn, kind, node = args[0]
    spaces = c.m.zone_space  # zone index -> space name or None
    if kind == "zone":
        return (lambda s, e: spaces[fn(s, e)]), "space"
    _kind(args[0], "card", "space_of", 1)

    def space_of(s, e):
        where = s.loc[fn(s, e)]
        return spaces[where] if where >= 0 else None
    return space_of, "space"


def b_flatten(c, args):
    """flatten(list of zones or lists): one list, in order, e.g. every piece on the board:
    flatten(each sp in spaces: pile(sp))."""
    _need(args, 1, 1, "flatten")
    fn, kind = _as_list(args[0], "flatten")
    inner = T.element(kind)
    loc = c.call_loc
    if inner == "zone":
        def flatten_zones(s, e):
            zones = [s.zones[z] for z in fn(s, e)]
            s.steps -= len(zones) + sum(map(len, zones))  # paid before the list is built
            if s.steps < 0:
                raise over_budget(s, loc)
            return [x for z in zones for x in z]
        return flatten_zones, "list:card"
    if not T.is_list(inner) and inner != T.ANY:
        raise BuiltinError(f"flatten() joins a list of lists or zones, not {T.describe(kind)}", args[0][2])

    def flatten(s, e):
        lists = fn(s, e)
        s.steps -= len(lists) + sum(map(len, lists))
        if s.steps < 0:
            raise over_budget(s, loc)
        return [x for xs in lists for x in xs]
    return flatten, T.list_of(T.element(inner))


# ---------------------------------------------------------------- players
def b_next_player(c, args):
    """The next player clockwise (to the left)."""
    _need(args, 1, 2, "next_player")
    p = _kind(args[0], "player", "next_player", 1)
    if len(args) == 2:
        k = _kind(args[1], "int", "next_player", 2)
        return (lambda s, e: (p(s, e) + k(s, e)) % s.n), "player"
    key = getattr(p, "local_key", None)
    if key is not None:
        return (lambda s, e: (e[key] + 1) % s.n), "player"
    return (lambda s, e: (p(s, e) + 1) % s.n), "player"


def b_previous_player(c, args):
    """The next player counter-clockwise (to the right)."""
    _need(args, 1, 1, "previous_player")
    p = _kind(args[0], "player", "previous_player", 1)
    return (lambda s, e: (p(s, e) - 1) % s.n), "player"


def b_players_from(c, args):
    """Every player, clockwise, starting with the given one."""
    _need(args, 1, 1, "players_from")
    p = _kind(args[0], "player", "players_from", 1)

    def players_from(s, e):
        first = p(s, e)
        return [(first + i) % s.n for i in range(s.n)]
    return players_from, "list:player"


def b_seat(c, args):
    """The player in seat k (1-based), as written in rulebooks."""
    _need(args, 1, 1, "seat")
    k = _kind(args[0], "int", "seat", 1)
    return (lambda s, e: (k(s, e) - 1) % s.n), "player"


def b_opening(c, args):
    """The first player of a turn phase: a scenario's ``first_player`` the first time, else the phase's own.

    Called only by the flow the loader builds (its name cannot be written in a definition)."""
    _need(args, 1, 1, "$opening")
    first = _kind(args[0], "player", "$opening", 1)

    def opening(s, e):
        chosen = s.first_player
        if chosen is None:
            return first(s, e)
        s.first_player = None
        return chosen
    return opening, "player"


# ---------------------------------------------------------------- chance
def b_random(c, args):
    """A uniformly random item of a list or zone (none if empty), from the state's RNG."""
    _need(args, 1, 1, "random")
    fn, kind = _as_list(args[0], "random")

    def pick(s, e):
        xs = fn(s, e)
        if not xs:
            return None
        s.rng, i = RNG.below(s.rng, len(xs))
        return xs[i]
    return pick, T.element(kind)


def b_shuffled(c, args):
    """shuffled(list): a copy in random order, from the state's RNG (the list itself is unchanged)."""
    _need(args, 1, 1, "shuffled")
    fn, kind = _as_list(args[0], "shuffled")

    def shuffled(s, e):
        items = list(fn(s, e))
        s.rng = RNG.shuffle(s.rng, items)
        return items
    return shuffled, kind


def b_sort_by(c, args):
    """sort_by(each x in list: key): compiled by the expression compiler, which sees the 'each' whole."""
    from .ordering import SORT_BY_FORM

    raise BuiltinError(SORT_BY_FORM)


def b_roll(c, args):
    """roll(n): a random number from 1 to n."""
    _need(args, 1, 1, "roll")
    n = _kind(args[0], "int", "roll", 1)

    def roll(s, e):
        s.rng, i = RNG.below(s.rng, max(n(s, e), 1))
        return i + 1
    return roll, "int"


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
    table = board.step_table
    if args[1][2].__class__.__name__ == "Const" and args[1][2].value not in board.directions:
        raise BuiltinError(f"unknown direction {args[1][2].value!r}; the board has "
                           f"{', '.join(sorted(board.directions))}", args[1][2])
    return (lambda s, e: table.get((sp(s, e), d(s, e)))), "space"


def _spaces_around(c, args, name: str, table_of):
    """``name(space)``: a list of spaces read from a board table (``table_of(board)``) built at load."""
    _need(args, 1, 1, name)
    table = table_of(_board(c, name))
    sp = _kind(args[0], "space", name, 1)
    return (lambda s, e: list(table.get(sp(s, e), ()))), "list:space"


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
    table = board.distances
    return (lambda s, e: table.get((a(s, e), b(s, e)))), "int"


def _line(name, attr):
    def b_line(c, args):
        # row(space) / column(space): the spaces of that grid line, west to east / north to south
        _need(args, 1, 1, name)
        board = _board(c, name)
        if board.grid is None:
            raise BuiltinError(f"{name}() needs a grid board (board: {{grid: {{rows: R, columns: C}}}})", args[0][2])
        sp = _kind(args[0], "space", name, 1)
        table = getattr(board, attr)
        loc = c.location(args[0][2])

        def line(s, e):
            space = sp(s, e)
            found = table.get(space)
            if found is None:
                raise RuleError(f"{name}(): {space!r} is not a space of the grid", loc)
            return list(found)
        return line, "list:space"
    return b_line


BUILTINS = {
    "size": b_size, "count": b_size, "any": b_any, "all": b_all, "sum": b_sum,
    "max": _minmax("max", max), "min": _minmax("min", min), "distinct": b_distinct,
    "first": b_first, "last": b_last, "reverse": b_reverse, "range": b_range, "abs": b_abs, "product": b_product,
    "threshold": b_threshold,
    "top": _end("top", True), "bottom": _end("bottom", False), "zone_of": b_zone_of, "owner_of": b_owner_of,
    "position": b_position, "above": _around("above", True), "below": _around("below", False), "space_of": b_space_of, "flatten": b_flatten,
    "next_player": b_next_player, "previous_player": b_previous_player, "players_from": b_players_from,
    "seat": b_seat, "$opening": b_opening, "random": b_random, "roll": b_roll, "shuffled": b_shuffled, "sort_by": b_sort_by,
    "step": b_step, "adjacent": b_adjacent, "diagonals": b_diagonals, "distance": b_distance,
    "row": _line("row", "rows"), "column": _line("column", "columns"),
}
