"""Scores, tie-breaks and modified quantities, lowered to generated functions ``f(s, e)`` like every rule.

A score or a tie-break is read after the last action, outside the guard ``apply`` puts around rules,
so its function explains its own failure: any error but a located one, or a value that is not a whole
number, becomes a :class:`RuleError` at its place in the YAML (the messages are
``runtime/scoring.py``'s).  Named score terms are added up by one more function; a quantity with
modifiers (passive abilities of cards in play) is its base plus, for each modifier's card that is in
some zone and whose condition holds (``card`` bound to it), what the modifier adds.

Each function takes the game's compile context (``dsl/context.py``) as ``c``.
"""

from __future__ import annotations

import ast

from ..errors import RibbitError
from ..runtime.scoring import not_whole, score_failure
from .pyast import local, name, shape


def scored(c, node, scope, what: str, loc):
    """The function of a score or tie-break expression ``node`` (``what``: how messages name it)."""
    tree, kind = c.exprs.expr_code(node, scope)
    v = c.stmts.tmp()
    body = shape("""
        try:
            V = VALUE
        except RIBBIT:
            raise
        except Exception:
            raise FAILED(WHAT, e, LOC) from None
        if type(V) is not int and type(V) is not bool:
            raise NOT_WHOLE(WHAT, e, V, LOC)
        return V
    """, V=name(v), VALUE=tree, RIBBIT=c.stmts.K(RibbitError), FAILED=c.stmts.K(score_failure), WHAT=ast.Constant(what),
        LOC=c.stmts.K(loc), NOT_WHOLE=c.stmts.K(not_whole))
    return _function(c, body, node, what)


def summed(c, terms: list, node):
    """The function adding up the score terms ``terms`` (generated functions), in order."""
    calls = [ast.Call(c.stmts.K(term), [name("s"), name("e")], []) for term in terms]
    total = calls[0]
    for call in calls[1:]:
        total = ast.BinOp(total, ast.Add(), call)
    return _function(c, [ast.Return(total)], node, "the score")


def modified(c, base, mods: list, node):
    """A quantity's function: its ``base`` (a tree), plus each modifier ``(card ids, add, condition or None)``
    (``add`` and the condition: generated functions of their own, each located at its own key) for each of
    its cards in some zone, ``card`` bound to that card."""
    v, where, card = c.stmts.tmp(), c.stmts.tmp(), c.stmts.tmp()
    body = shape("""
        V = BASE
        LOC = s.loc
    """, V=name(v), BASE=base, LOC=name(where))
    for ids, add, cond in mods:
        gain = shape("V += ADD(s, e)", V=name(v), ADD=c.stmts.K(add))
        if cond is not None:
            gain = [ast.If(ast.Call(c.stmts.K(cond), [name("s"), name("e")], []), gain, [])]
        body += shape("""
            for CARD in IDS:
                if LOC[CARD] >= 0:
                    BIND = CARD
                    GAIN
        """, CARD=name(card), IDS=c.stmts.K(ids), LOC=name(where), BIND=local("card", True), GAIN=gain)
    return _function(c, body + [ast.Return(name(v))], node, "the quantity")


def _function(c, body, node, what):
    file, line, _ = c.exprs.position(node)
    where = c.where if isinstance(c.where, str) else ".".join(map(str, c.where or ()))
    return c.code.function("expr", body, line=line, what=f"{what} at {where or file}:{line}", where=c.where,
                           filename=file, lazy=True)
