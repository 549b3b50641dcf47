"""Ordering lists by a key: ``sort_by(each x in list: key)``, ascending and stable.

A key is a number, a text, or a list of them compared item by item (a tuple of
tie-breaks: ``[q.points, -size(hand(q))]``).  Ties keep the list's order, so
``sort_by(each q in shuffled(players): key)`` breaks the remaining ties with the
game's seeded random generator and a replay orders them the same way.
"""

from __future__ import annotations

import ast

from ..errors import RuleError
from . import types as T
from .visitor import NodeVisitor

SORT_BY_FORM = "sort_by() takes one 'each x in list: key', e.g. sort_by(each q in players: [q.points, q.cards])"


class OrderingCompiler(NodeVisitor):
    """Lowering helper of ``sort_by``.  Reached as ``ctx.ordering``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    def sort_by_call(self, node, scope):
        """``sort_by(each x in list [where cond]: key)`` as a call of :func:`sort_by` with generated parts."""
        each = node.args[0]  # (one 'each x in list: key': the analysis refused any other form)
        src, skind, inner, var = self.ctx.exprs.each_scope(each, scope)
        where = self.ctx.exprs.expect(each.where, inner, "bool", "the condition after 'where'")[0] if each.where else None
        key, _ = self.ctx.exprs.expr(each.result, inner)
        self.ctx.card_uses.hand_on()  # (e itself handed to sort_by, which writes the variable into it)
        return (ast.Call(self.ctx.code.constant(sort_by), [ast.Name("s", ast.Load()), ast.Name("e", ast.Load()), src,
                                                       ast.Constant(var), self.ctx.code.constant(where),
                                                       self.ctx.code.constant(key), self.ctx.exprs.loc(node)], []),
                T.list_of(T.element(skind)))


def sort_by(s, e, xs, var, where, key, loc):
    """The items of ``xs`` (those ``where`` keeps) in the order of their ``key``, stable."""
    items, keys = [], []
    for x in xs:
        e[var] = x
        if where is None or where(s, e):
            items.append(x)
            keys.append(key(s, e))
    s.steps -= len(items)
    if s.steps < 0:
        raise RuleError("sort_by() ran out of the step budget (limits.steps)", loc)
    try:
        order = sorted(range(len(items)), key=keys.__getitem__)
    except TypeError:
        raise RuleError(f"sort_by() cannot compare the keys {_shown(keys)} (keys must all be numbers, "
                        "all texts, or lists of them, and never none)", loc) from None
    return [items[i] for i in order]


def _shown(keys) -> str:
    text = ", ".join(_key(k) for k in keys[:6])
    return text + (", ..." if len(keys) > 6 else "")


def _key(k) -> str:
    """A key as the effect language writes it (none, true, [1, 2]), never as Python does (None, True)."""
    if k is None or type(k) is bool:
        return {None: "none", True: "true", False: "false"}[k]
    if type(k) in (list, tuple):
        return "[" + ", ".join(_key(x) for x in k) + "]"
    return repr(k)
