"""What the compiler works out at load: constant arithmetic, static expressions, cheap arguments, and
what an expression's code does with its card variables (:class:`CardUses`, for per-card tables).

Whether an expression can be worked out at load (a per-card table, a fixed list, a fixed choice) is
decided by its analysis note (``reads``: it reads nothing of the state); :class:`LoadBudget` is the
state such code is then run against, which holds the load's step budget and nothing else.  Nothing
here runs in a game.
"""

from __future__ import annotations

from . import ast as A
from .procedures import CompileError


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


LOAD_STEPS = 1_000_000  # the work a definition's load may do evaluating its fixed expressions, all together


class LoadBudget:
    """The state that code worked out at load runs against: the load's step budget, and nothing else.

    Code runs at load only where its analysis note says it reads nothing of the state; work it
    charges to the budget (``each``, ``in``, ``range``) is paid from ``pool``, a one-item list shared
    by every evaluation of one definition's load (LOAD_STEPS), so a definition cannot make its load
    run for ever: once it is spent, over_budget reads what this state does not have, and what was
    being worked out is left to run time, where the game's own budget pays for it.
    """

    __slots__ = ("pool",)

    def __init__(self, pool=None):
        self.pool = pool if pool is not None else [LOAD_STEPS]

    @property
    def steps(self):
        return self.pool[0]

    @steps.setter
    def steps(self, value):
        self.pool[0] = value


def is_cheap(node) -> bool:
    """Arguments that are safe and cheap to evaluate more than once (for inlining)."""
    if isinstance(node, (A.Const, A.Name)):
        return True
    return isinstance(node, A.Attr) and isinstance(node.obj, A.Name)


class CardUses:
    """What the code of one expression does with its card variables, as the lowering recorded it while it
    built that code (never read back from the code): a table over two cards is filled per class of cards
    only when each card is read through fixed per-card tables alone (``ExpressionLowering.two_card_table``).

    Recorded per env key: the per-card tables the code indexes with it (a card's name, a fixed property),
    or that it uses the card some other way (hands it to a call, uses it as the value...); pairs of
    variables compared with ``==``/``!=``; whether the code hands ``e`` itself on or writes it (a
    loop variable kept in ``e``); and the highest number of a comprehension's Python local in it (the
    last two decide a comprehension around it: loop_locals.py).  A record only grows; what an 'each'
    builds and then drops (a condition made a per-card table, a list fixed at load) is not added
    to the record of the code around it, nor is an argument's code its parameter never reads.
    """

    __slots__ = ("tables", "compared", "whole", "deepest")

    def __init__(self):
        self.tables: dict = {}  # env key -> [per-card tables it indexes] (each with one entry per card), or None
        self.compared: set = set()  # frozensets of two env keys compared with == or !=
        self.whole = False  # e handed on or written: the code may do anything with any variable
        self.deepest = -1  # the highest N of a loop local vN in the code (-1: none)

    def indexes(self, key, table) -> None:
        """The code reads ``table[e[key]]`` (a none card guarded: ``e[key] is not None``)."""
        found = self.tables.setdefault(key, [])
        if found is not None:
            found.append(table)

    def used(self, key) -> None:
        """The code uses ``e[key]`` some other way than as an index of a per-card table."""
        self.tables[key] = None

    def compares(self, one, other) -> None:
        """The code tests ``e[one] == e[other]`` (or ``!=``)."""
        self.compared.add(frozenset((one, other)))
        self.tables.setdefault(one, [])
        self.tables.setdefault(other, [])

    def hand_on(self) -> None:
        """The code hands ``e`` itself on, or writes an entry of it."""
        self.whole = True

    def holds_local(self, number) -> None:
        """The code holds a comprehension whose loop variable is the Python local ``v<number>``."""
        self.deepest = max(self.deepest, number)

    def add(self, uses) -> None:
        """Record ``uses`` (another part's record, or None) here too."""
        if uses is None:
            return
        self.deepest = max(self.deepest, uses.deepest)
        for key, tables in uses.tables.items():
            if tables is None:
                self.used(key)
            elif self.tables.setdefault(key, []) is not None:
                self.tables[key].extend(tables)
        self.compared |= uses.compared
        self.whole = self.whole or uses.whole

    def reads(self):
        """({env key: the per-card tables it indexes, or None}, compared pairs); ({}, ...) when ``e`` is
        handed on or written."""
        return ({} if self.whole else self.tables), self.compared


class NoCardUses(CardUses):
    """The record of code no per-card table is made of (outside any recording): it keeps nothing."""

    __slots__ = ()

    def indexes(self, key, table) -> None:
        pass

    def used(self, key) -> None:
        pass

    def compares(self, one, other) -> None:
        pass

    def hand_on(self) -> None:
        pass

    def holds_local(self, number) -> None:
        pass

    def add(self, uses) -> None:
        pass


NO_CARD_USES = NoCardUses()
