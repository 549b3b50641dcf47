"""What the compiler works out at load: constant arithmetic, static expressions, cheap arguments.

:class:`Poisoned` is the stand-in state that proves an expression static (a per-card table, a fixed
list): evaluating against it aborts at the first read of the state.  Nothing here runs in a game.
"""

from __future__ import annotations

from . import ast as A
from .units import CompileError


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
