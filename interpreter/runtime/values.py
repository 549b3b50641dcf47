"""Run-time helpers that generated expression code calls (see lower_expr.py).

Generated code does the common work inline (a local read ``e['c']``, a property
``K[3][e['c']]``, a comparison ``... < 3``); what needs a ``try`` or a loop in C
(a located error for a none card, an over-budget scan, a number out of range)
is one call of a function here, kept in the constants table ``K``.  Each helper
takes the values it works on and the :class:`~interpreter.errors.Location` of
the author's text it came from, so every error stays located.
"""

from __future__ import annotations

import bisect
import itertools
from itertools import chain, compress

from .. import rng as RNG
from . import chance as CHANCE
from ..errors import RuleError
from .limits import COMPARE, MAX_INT, MAX_TEXT, operand_error, over_budget, too_big


# ---------------------------------------------------------------- the step budget
def paid(s, xs, loc):
    """``xs`` itself, its items paid for from the step budget first (one step each)."""
    s.steps -= len(xs)
    if s.steps < 0:
        raise over_budget(s, loc)
    return xs


def paid_copy(s, xs, loc):
    """A new list of ``xs``, paid for (``each c in X`` with no condition and no result)."""
    s.steps -= len(xs)
    if s.steps < 0:
        raise over_budget(s, loc)
    return list(xs)


def paid_fixed(s, steps, xs, loc):
    """A copy of the list ``xs`` worked out at load (it reads nothing that changes), ``steps`` paid
    first: what the scan that makes it would pay."""
    s.steps -= steps
    if s.steps < 0:
        raise over_budget(s, loc)
    return list(xs)


# The per-card tables below are given as their readers (``table.__getitem__``, made once at load).
def kept(s, xs, row, loc):
    """The items of ``xs`` whose entry in the per-card table ``row`` is true (the scan runs in C)."""
    s.steps -= len(xs)
    if s.steps < 0:
        raise over_budget(s, loc)
    return list(compress(xs, map(row, xs)))


def kept_values(s, xs, row, values, loc):
    """The per-card ``values`` of the items of ``xs`` whose entry in ``row`` is true."""
    s.steps -= len(xs)
    if s.steps < 0:
        raise over_budget(s, loc)
    return list(map(values, compress(xs, map(row, xs))))


def count_in(s, xs, row, loc):
    """How many items of ``xs`` have a true entry in the per-card table ``row``."""
    s.steps -= len(xs)
    if s.steps < 0:
        raise over_budget(s, loc)
    return sum(map(row, xs))


def any_in(s, xs, row, loc):
    """Does an item of ``xs`` have a true entry in ``row``?  (Stops at the first.)"""
    s.steps -= len(xs)
    if s.steps < 0:
        raise over_budget(s, loc)
    return any(map(row, xs))


def all_in(s, xs, row, loc):
    s.steps -= len(xs)
    if s.steps < 0:
        raise over_budget(s, loc)
    return all(map(row, xs))


def contains(s, x, xs, loc):
    """``x in xs``, a step per item of the list searched."""
    s.steps -= len(xs)
    if s.steps < 0:
        raise over_budget(s, loc)
    return x in xs


def join_lists(s, a, b, loc):
    s.steps -= len(a) + len(b)  # paid before the joined list is built
    if s.steps < 0:
        raise over_budget(s, loc)
    return a + b


def scan_reduce(s, xs, reduce, loc):
    """reduce(xs), its items paid for first."""
    s.steps -= len(xs)
    if s.steps < 0:
        raise over_budget(s, loc)
    return reduce(xs)


# ---------------------------------------------------------------- values that may be none
def no_card(attr, loc):
    raise RuleError(f"cannot read .{attr}: the card is none (is the zone empty?)", loc)


def no_player(attr, loc):
    raise RuleError(f"cannot read .{attr}: the player is none", loc)


def card_property(table, card, attr, loc):
    try:
        return table[card]
    except TypeError:
        raise RuleError(f"cannot read .{attr}: the card is none (is the zone empty?)", loc) from None


def player_variable(row, player, attr, loc):
    try:
        return row[player]
    except TypeError:
        raise RuleError(f"cannot read .{attr}: the player is none", loc) from None


def card_name(names, card):
    return "none" if card is None else names[card]


def table_entry(table, key, what, loc):
    try:
        return table[key]
    except (KeyError, TypeError):
        keys = ", ".join(map(str, list(table)[:20])) + (", ..." if len(table) > 20 else "")
        raise RuleError(f"{what} has no entry {key!r} (it has {keys})", loc) from None


def list_item(xs, i, loc):
    try:
        return xs[i]
    except IndexError:
        raise RuleError("index out of range", loc) from None


def absent_space(message, loc):
    raise RuleError(message, loc)


class SpaceIndex(dict):
    """The zone of each space for one per-space zone at one place of the rules (``pile(sp)`` is
    ``index[sp]`` in the generated code): a value that is not a space is a located error there."""

    __slots__ = ("loc",)

    def __init__(self, zones, loc):
        super().__init__(zones)
        self.loc = loc

    def __missing__(self, sp):
        if sp is None:
            raise RuleError("the space is none, so it has no zone here", self.loc)
        raise RuleError(f"{sp!r} is not a space of the board", self.loc)

    def __reduce__(self):
        return SpaceIndex, (dict(self), self.loc)


# ---------------------------------------------------------------- numbers and texts
def add(a, b, loc):
    try:
        v = a + b
    except TypeError:
        raise operand_error("+", a, b, loc) from None
    if -MAX_INT <= v <= MAX_INT:
        return v
    raise too_big(v, loc, "'+'")


def sub(a, b, loc):
    try:
        v = a - b
    except TypeError:
        raise operand_error("-", a, b, loc) from None
    if -MAX_INT <= v <= MAX_INT:
        return v
    raise too_big(v, loc, "'-'")


def mul(a, b, loc):
    try:
        if a and b and abs(a).bit_length() + abs(b).bit_length() > 64:  # never multiply huge
            raise too_big(10 ** 41, loc, "'*'")
        v = a * b
    except TypeError:
        raise operand_error("*", a, b, loc) from None
    if -MAX_INT <= v <= MAX_INT:
        return v
    raise too_big(v, loc, "'*'")


def floordiv(a, b, loc):
    if b == 0:
        raise RuleError("division by zero", loc)
    try:
        return a // b
    except TypeError:
        raise operand_error("//", a, b, loc) from None


def mod(a, b, loc):
    if b == 0:
        raise RuleError("division by zero", loc)
    try:
        return a % b
    except TypeError:
        raise operand_error("%", a, b, loc) from None


def join_texts(a, b, loc):
    if len(a) + len(b) > MAX_TEXT:
        raise RuleError(f"this text would be {len(a) + len(b):,} characters long; "
                        f"texts in rules are at most {MAX_TEXT:,}", loc)
    return a + b


def ordered(op):
    """'<', '<=', '>' or '>=' of two numbers as a helper ``(a, b, loc)``; a none is a located error."""
    cmp = COMPARE[op]

    def compare(a, b, loc):
        try:
            return cmp(a, b)
        except TypeError:
            raise operand_error(op, a, b, loc) from None
    compare.__name__ = compare.__qualname__ = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}[op]
    return compare


ORDERED = {op: ordered(op) for op in ("<", "<=", ">", ">=")}


def operand_failure(op, a, b, loc):
    raise operand_error(op, a, b, loc)


def checked(value, loc, what):
    if -MAX_INT <= value <= MAX_INT:
        return value
    raise too_big(value, loc, what)


# ---------------------------------------------------------------- builtins' run-time parts
def first(xs):
    return xs[0] if xs else None


def last(xs):
    return xs[-1] if xs else None


def distinct(xs):
    try:
        return list(dict.fromkeys(xs))
    except TypeError:  # items that are lists (pairs, a card's list property) or tables: compared by value
        seen, out = set(), []
        for x in xs:
            key = _by_value(x)
            if key not in seen:
                seen.add(key)
                out.append(x)
        return out


def _by_value(x):
    """A value that hashes as ``x`` compares: a list as a tuple of its items, a table as its entries."""
    if type(x) is list:
        return tuple(_by_value(item) for item in x)
    if type(x) is dict:
        return frozenset((key, _by_value(value)) for key, value in x.items())
    return x


def reverse(xs):
    return xs[::-1]


def max_of(xs):
    return max(xs, default=0)


def min_of(xs):
    return min(xs, default=0)


def number_range(s, start, stop, loc):
    numbers = range(start, stop)
    s.steps -= len(numbers)  # paid before the list exists: range(10**9) never allocates
    if s.steps < 0:
        raise over_budget(s, loc, f"range() of {len(numbers):,} numbers")
    return list(numbers)


def product(s, lists, loc):
    total = 1
    for xs in lists:
        total *= len(xs)
        if total > s.steps:
            raise RuleError(f"product() would make more than {s.steps} combinations, more than the step "
                            "budget left (limits.steps)", loc)
    s.steps -= total
    return [list(t) for t in itertools.product(*lists)]


def ladder(table, what, error, where):
    """(sorted keys, their values) of a threshold table whose keys and values are whole numbers."""
    for k, v in table.items():
        if type(k) is not int or type(v) is not int:
            hint = " (its keys are numbers only if every key is one)" if isinstance(k, str) and k.isdigit() else ""
            raise error(f"threshold() reads tables of whole numbers, like {{1: 1, 3: 5}}; {what} has "
                        f"{k!r}: {v!r}{hint}", where)
    keys = sorted(table)
    return keys, [table[k] for k in keys]


def threshold_fixed(keys, values, n):
    i = bisect.bisect_right(keys, n)
    return values[i - 1] if i else 0


def threshold(table, n, loc):
    if not isinstance(table, dict):
        raise RuleError(f"threshold() needs a table, not {table!r}", loc)
    keys, values = ladder(table, "the table", RuleError, loc)
    i = bisect.bisect_right(keys, n)
    return values[i - 1] if i else 0


def end_card(z, end):
    return z[end] if z else None


def end_cards(z, k, top, name, loc):
    if k < 0:
        raise RuleError(f"{name}(zone, n) needs n of 0 or more, not {k}", loc)
    if k >= len(z):
        return z[:]
    return (z[len(z) - k:] if k else []) if top else z[:k]


def owner_of_card(s, owners, card):
    where = s.loc[card]
    return owners[where] if where >= 0 else None


def position(s, card):
    return s.zones[s.loc[card]].index(card)


def around(s, card, above, loc):
    z = s.zones[s.loc[card]]
    i = z.index(card)
    out = z[i + 1:] if above else z[:i]
    s.steps -= len(out)
    if s.steps < 0:
        raise over_budget(s, loc)
    return out


def space_of_card(s, spaces, card):
    where = s.loc[card]
    return spaces[where] if where >= 0 else None


def flatten_zones(s, zones, loc):
    lists = list(map(s.zones.__getitem__, zones))
    s.steps -= len(lists) + sum(map(len, lists))  # paid before the list is built
    if s.steps < 0:
        raise over_budget(s, loc)
    return list(chain.from_iterable(lists))


def flatten(s, lists, loc):
    s.steps -= len(lists) + sum(map(len, lists))
    if s.steps < 0:
        raise over_budget(s, loc)
    return list(chain.from_iterable(lists))


def players_from(s, first_player):
    return [(first_player + i) % s.n for i in range(s.n)]


def opening(s, default):
    chosen = s.first_player
    if chosen is None:
        return default
    s.first_player = None
    return chosen


def pick(s, xs):
    if not xs:
        return None
    if s.chance is not None:
        return CHANCE.pick(s, xs)
    s.rng, i = RNG.below(s.rng, len(xs))
    return xs[i]


def shuffled(s, xs):
    if s.chance is not None:
        return CHANCE.shuffled(s, xs)
    items = list(xs)
    s.rng = RNG.shuffle(s.rng, items)
    return items


def roll(s, n, loc):
    """A die of ``n`` sides: 1 to ``n``, from the game's random numbers."""
    if n < 1:
        raise RuleError(f"roll(n) needs n of 1 or more (the sides of a die), not {n}", loc)
    if s.chance is not None:
        return CHANCE.roll(s, n)
    s.rng, i = RNG.below(s.rng, n)
    return i + 1


def grid_line(table, space, name, loc):
    found = table.get(space)
    if found is None:
        if space is None:
            raise RuleError(f"{name}(): the space is none", loc)
        raise RuleError(f"{name}(): {space!r} is not a space of the grid", loc)
    return list(found)


def holder(x, name, what, loc):
    if x is None:
        raise RuleError(f"{name}(): the {what} is none", loc)
    return x


def space_holder(index, sp, name, loc):
    try:
        return index[sp]
    except (KeyError, TypeError):
        if sp is None:
            raise RuleError(f"{name}(): the space is none", loc) from None
        raise RuleError(f"{name}(): {sp!r} is not a space of the board", loc) from None


def change_counter(s, name, holder, i, x, op, n, describe, loc):
    """``name(x) op n`` (``=``, ``+=``, ``-=``) on the ``holder`` list, index ``i``: never below zero."""
    row = s.counters[name][holder]
    if type(n) is not int:  # none: the item of an empty list, say
        raise RuleError(f"cannot change {name}({describe(x, holder)}) by none: the amount is not a number (the "
                        "item of an empty list, or of a place past its end?)", loc)
    if op == "=":
        new = n
    elif op == "+=":
        new = row[i] + n
    else:
        new = row[i] - n
    if new < 0:
        raise RuleError(f"{name}({describe(x, holder)}) would go below zero ({row[i]} {op} {n}); "
                        f"test how many there are first, or use 'move up to'", loc)
    if new > MAX_INT:  # as every number in rules: a count doubled in a loop stops here, not at memory's end
        raise too_big(new, loc, f"{name}({describe(x, holder)}) {op} {n}")
    row[i] = new


ALL_OF_THEM = "all"  # the amount of ``move name(x) to name(y)``: a rule's own amount is a number, or none by mistake


def move_counter(s, name, s_holder, i, d_holder, j, n, up_to, x, describe, loc):
    """``move [up to] n of name(x) to name(y)`` (index i of ``s_holder``, j of ``d_holder``); n ALL_OF_THEM: all."""
    rows = s.counters[name]
    src, dst = rows[s_holder], rows[d_holder]
    have = src[i]
    if n == ALL_OF_THEM:
        n = have
    elif type(n) is not int:  # none (the item of an empty list, say): never taken to mean all of them
        raise RuleError(f"cannot move none of {name}({describe(x, s_holder)}): the amount is not a number (the item "
                        "of an empty list, or of a place past its end?)", loc)
    elif n < 0:
        raise RuleError(f"cannot move a negative number ({n}) of {name}", loc)
    elif n > have:
        if not up_to:
            raise RuleError(f"cannot move {n} of {name}({describe(x, s_holder)}): it has "
                            f"only {have} (write 'move up to {n} of ...' to take what there is)", loc)
        n = have
    if dst[j] + n > MAX_INT:
        raise too_big(dst[j] + n, loc, f"moving {n} of {name} to a place that holds {dst[j]}")
    src[i] = have - n
    dst[j] += n
