"""What compiled code calls at run time: control signals, card moves, jumps, option enumeration.

Kept apart from the compilers so the closures they build depend only on small,
fast functions (and so the state module can import the signals without the compiler).
"""

from __future__ import annotations

import functools
import itertools
import math
import operator

from .. import rng as RNG
from ..errors import RuleError
from . import ast as A
from .units import CompileError, Jump

# the located errors raised when rules run away without reaching a decision
TOO_LONG_CALLS = "effects ran too long without a decision (endless recursion?)"
ENDLESS_RECURSION = "procedures call each other without end (endless recursion?)"

# The step budget (``s.steps``, reset to ``limits: steps`` before each action) pays for real work:
# one step per loop iteration, procedure call and event, and one per item of every list built or
# gone through (``each``, ``range``, ``+`` of lists, ``for``, moves and shuffles of many cards).
# A rule that does too much between two decisions stops with a located RuleError.
TOO_MUCH_WORK = ("{what} does more work than the step budget allows between two decisions ({limit:,} steps: "
                 "a huge list or an endless loop? if the rule is right, raise 'limits: {{steps: N}}')")
TOO_LONG_LOOP = "this loop ran too long without a decision (an endless loop?)"
MAX_INT = 10 ** 18  # numbers in rules stay within -MAX_INT..MAX_INT (repeated squaring stops here)
MAX_TEXT = 10_000  # characters in one log line or one text built with '+'
MAX_ACTION_TEXT = 10_000  # characters in one action's text (a save keeps each: see State.load)
MAX_LOG_PARTS = 100  # {expression} parts in one log text (each costs work at load)

TRANSFER, SUSPEND = -1, -2  # what a resumable instruction returns instead of the next pc


def over_budget(s, loc, what="this rule"):
    """The located error when work (items gone through or built) runs past the step budget."""
    return RuleError(TOO_MUCH_WORK.format(what=what, limit=s.game.step_limit), loc)


def too_big(value, loc, what):
    """The located error for a number beyond MAX_INT."""
    return RuleError(f"{what} gives {'a huge number' if abs(value) > 10 ** 40 else value}, beyond the "
                     f"limit of numbers in rules (-10^18 to 10^18)", loc)


def not_added(label, old, hint, loc):
    """The located error of a '+=' or '-=' on ``label`` (which holds ``old``) that failed: the variable
    is not a number, or else the amount is not (none: an item of an empty list, say)."""
    if type(old) is int:
        return RuleError(f"cannot add to {label}: the amount is none, not a number (the item of an empty "
                         "list, or of a place past its end?)", loc)
    shown = {None: "none", True: "true", False: "false"}.get(old, old) if type(old) in (bool, type(None)) else repr(old)
    return RuleError(f"cannot add to {label}: it holds {shown}, not a number{hint}", loc)


def kind_name(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def operand_error(op, a, b, loc):
    """The located error for an operator given values it cannot work on (a none where a number goes...)."""
    verb = "compare" if op in COMPARE else "work on"
    return RuleError(f"'{op}' cannot {verb} {kind_name(a)} and {kind_name(b)} (is a value none here?)", loc)


class GameOver(Exception):
    """Raised by ``end game`` inside direct code to unwind to the run loop."""


def fold_arith(op, a, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise CompileError("division by zero")
    return a // b if op == "//" else a % b


COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


class NotStatic(Exception):
    pass


LOAD_STEPS = 1_000_000  # the work a definition's load may do evaluating its fixed expressions, all together


class Poisoned:
    """A stand-in state that refuses every read: evaluating against it proves an expression is static.

    It has a step budget of its own, so work charged to the budget (``each``, ``in``, ``range``)
    does not stop an expression from being found static.  That budget is ``pool``, a one-item list
    shared by every evaluation of one definition's load (LOAD_STEPS), so a definition cannot make
    its load run for ever: once it is spent, over_budget reads ``game`` (NotStatic) and what was
    being worked out is left to run time, where the game's own budget pays for it.
    """

    def __init__(self, pool=None):
        self.pool = pool if pool is not None else [LOAD_STEPS]

    @property
    def steps(self):
        return self.pool[0]

    @steps.setter
    def steps(self, value):
        self.pool[0] = value

    def __getattr__(self, name):
        raise NotStatic(name)


def is_cheap(node) -> bool:
    """Arguments that are safe and cheap to evaluate more than once (for inlining)."""
    if isinstance(node, (A.Const, A.Name)):
        return True
    return isinstance(node, A.Attr) and isinstance(node.obj, A.Name)


def place_cards(s, cards, dest, bottom):
    """Put cards already taken out of their zones into ``dest`` (on top, or under with ``bottom``)."""
    loc = s.loc
    for c in cards:
        loc[c] = dest
    if s.shown:  # a card that moves is no longer shown to anyone ('show')
        forget_shown(s, cards)
    if bottom:
        s.zones[dest][:0] = cards
    else:
        s.zones[dest].extend(cards)


def forget_shown(s, cards):
    """Cards that moved (or were shuffled) are no longer shown to the players a 'show' named."""
    shown = s.shown
    for c in cards:
        shown.pop(c, None)


def move_card(s, card, dest, bottom):
    src = s.loc[card]
    top = None
    if src >= 0:
        zone = s.zones[src]
        if zone[-1] == card:  # most moves take the top card
            zone.pop()
            top = card
        else:
            zone.remove(card)
    s.loc[card] = dest
    if s.shown:
        s.shown.pop(card, None)
    if bottom:
        s.zones[dest].insert(0, card)
    else:
        s.zones[dest].append(card)
    if s.trace is not None:
        s.traced_move(card, src, top, dest, bottom)


def move_zone(s, src, dest, bottom, loc):
    """``move ZONE to ZONE``: every card of ``src``, a step each."""
    if src == dest:
        return
    cards = s.zones[src]
    s.steps -= len(cards)  # a step per card moved
    if s.steps < 0:
        raise over_budget(s, loc)
    s.zones[src] = []
    place_cards(s, cards, dest, bottom)
    if s.trace is not None:
        s.traced_moves(cards, src, cards[-1] if cards else None, dest, bottom)


def move_list(s, cards, dest, bottom, loc):
    """``move LIST to ZONE``: each card of the list, a step each (the top cards of one zone in bulk)."""
    cards = list(cards)
    s.steps -= len(cards)  # a step per card moved
    if s.steps < 0:
        raise over_budget(s, loc)
    if cards and cards[0] is not None:
        src = s.loc[cards[0]]
        zone = s.zones[src] if src >= 0 else None
        k = len(cards)
        if zone is not None and src != dest and zone[-k:] == cards:  # the top k of one zone: move in bulk
            del zone[-k:]
            place_cards(s, cards, dest, bottom)
            if s.trace is not None:
                s.traced_moves(cards, src, cards[-1], dest, bottom)
            return
    for card in cards:
        if card is not None:
            move_card(s, card, dest, bottom)


def shuffle_zone(s, z, loc):
    """``shuffle ZONE``: a step per card."""
    cards = s.zones[z]
    s.steps -= len(cards)  # a step per card shuffled
    if s.steps < 0:
        raise over_budget(s, loc)
    s.rng = RNG.shuffle(s.rng, cards)
    if s.shown:
        forget_shown(s, cards)
    if s.trace is not None:
        s.traced_shuffle(z)


def jump(label):
    """An instruction that goes on at ``label``."""
    return Jump(label)


def thread_jumps(code):
    """Point every jump that lands on another jump straight at the final target (one step less at run time)."""
    for ins in code:
        label = getattr(ins, "target", None)
        if label is None:
            continue
        for _ in range(len(code)):
            nxt = getattr(code[label.pc], "target", None)
            if nxt is None or nxt is label:
                break
            label.pc = nxt.pc


def return_from(s, fr, value):
    s.frames.pop()
    dest = fr[3]
    if dest is not None and s.frames:
        s.frames[-1][2][dest] = value
    return TRANSFER


@functools.lru_cache(maxsize=4096)
def count_shapes(caps: tuple, k: int, limit: int) -> int:
    """How many ways :func:`combo_shapes` has, counted without listing them; ``limit + 1`` if more than ``limit``.

    Picking k of n is as many ways as leaving n - k, so the smaller of the two is
    counted.  At least comb(groups, j) ways exist (j different groups, one item
    each), which refuses the huge cases at once; the rest is counted group by
    group (ways[t] = ways to pick t items from the groups so far).
    """
    n = sum(caps)
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    groups = len(caps)
    j = min(k, groups)
    if _comb_over(groups, j, limit):
        return limit + 1
    if groups * (k + 1) > 4_000_000:  # only when thousands of kinds are picked: far more than the limit
        return limit + 1
    ways = [1] + [0] * k
    for cap in caps:
        new, window = [], 0
        for t in range(k + 1):
            window += ways[t]
            if t > cap:
                window -= ways[t - cap - 1]
            new.append(window)
        ways = new
    return min(ways[k], limit + 1)


def _comb_over(n: int, j: int, limit: int) -> bool:
    """Is comb(n, j) > limit?  Stops multiplying as soon as it is."""
    j = min(j, n - j)
    value = 1
    for i in range(j):
        value = value * (n - i) // (i + 1)
        if value > limit:
            return True
    return False


def count_any_shapes(caps: tuple) -> int:
    """How many ways to pick any number of items from groups of these sizes (up to 10^18, then capped)."""
    total = 1
    for cap in caps:
        total *= cap + 1
        if total > MAX_INT:
            return MAX_INT
    return total


def combo_shapes(caps: tuple, k: int) -> tuple:
    """The ways to pick k items from groups of the given sizes, as ((group index, times), ...).

    Cached when there are few (at most KEPT_SHAPES ways, picking at most KEPT_SHAPES items): the same
    group sizes recur in every game (five different cards, choose four).  A large listing is made
    again when asked for, not kept: a game whose every decision lists 80,000 ways, each of
    different groups, would otherwise hold thousands of them in memory.
    """
    n = sum(caps)
    if k < 0 or k > n:
        return ()
    if k <= KEPT_SHAPES and count_shapes(caps, k, KEPT_SHAPES) <= KEPT_SHAPES:  # few ways (however many cards)
        return _kept_combo_shapes(caps, k)
    return _combo_shapes(caps, k, n)


KEPT_SHAPES = 2_000


@functools.lru_cache(maxsize=256)  # at most 512,000 ways kept in all
def _kept_combo_shapes(caps: tuple, k: int) -> tuple:
    return _combo_shapes(caps, k, sum(caps))


def _combo_shapes(caps: tuple, k: int, n: int) -> tuple:
    """combo_shapes, made: small cases through itertools (lexicographic order), huge ones through :func:`multisets`."""
    if math.comb(n, k) > 20_000:
        return tuple(tuple(shape) for shape in multisets(range(len(caps)), caps, k))
    expanded = [i for i, cap in enumerate(caps) for _ in range(cap)]
    out = []
    for combo in dict.fromkeys(itertools.combinations(expanded, k)):
        counts = {}
        for i in combo:
            counts[i] = counts.get(i, 0) + 1
        out.append(tuple(counts.items()))
    return tuple(out)


def multisets(keys, caps, k, start=0):
    """All ways to pick k items from groups (key, cap), as [(key, times), ...] in group order."""
    if k == 0:
        yield []
        return
    if start >= len(keys):
        return
    remaining = sum(caps[start:])
    if remaining < k:
        return
    key, cap = keys[start], caps[start]
    for times in range(min(cap, k), -1, -1):
        for rest in multisets(keys, caps, k - times, start + 1):
            yield ([(key, times)] if times else []) + rest
