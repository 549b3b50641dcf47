"""What the compiler works out at load: constant arithmetic, static expressions, cheap arguments.

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
