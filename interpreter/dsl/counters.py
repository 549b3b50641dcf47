"""Named counters kept on cards, board spaces or players: read, set, add, take away, move between holders.

A counter is declared once (``counters: {marks: {on: [card, space]}}``) and
written like a call: ``marks(c)`` reads it, ``marks(c) += 2`` changes it and
``move 2 of marks(a) to marks(b)`` carries some from one holder to another.
Counts live in the state as one list per holder kind (indexed by card id,
space index or player), so a card's counters go wherever the card goes and a
space's stay on the space.  The supply is unlimited; a count never goes below
zero: taking more than there is stops the rules with a located error, unless
the author wrote ``up to``.
"""

from __future__ import annotations

from ..errors import RuleError
from . import ast as A
from .visitor import NodeVisitor


class CounterCompiler(NodeVisitor):
    """Lowering helper of counters (reads, assignments, moves).  Reached as ``ctx.counters``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    def is_counter(self, node) -> bool:
        return isinstance(node, A.Call) and node.func in self.ctx.m.counters

    def counter_holder(self, node, scope):
        """For ``marks(x)``: (counter name, holder kind, closure giving x's index in that holder's list)."""
        name = node.func
        arg = node.args[0]  # (one, of a kind the counter is on: the statement analysis)
        tree, kind, note = self.ctx.exprs.expr_note(arg, scope)
        fn = self.ctx.exprs.function_of(tree, arg)
        loc = self.ctx.location(arg)
        if kind == "space":
            index = {sp: i for i, sp in enumerate(self.ctx.board.spaces)}

            def space_index(s, e):
                sp = fn(s, e)
                try:
                    return index[sp]
                except (KeyError, TypeError):
                    if sp is None:
                        raise RuleError(f"{name}(): the space is none", loc) from None
                    raise RuleError(f"{name}(): {sp!r} is not a space of the board", loc) from None
            return name, kind, space_index, fn
        key = note.local  # the holder is a local variable: read it from the env, no call
        what = kind

        def holder_index(s, e):
            x = e[key] if key is not None else fn(s, e)
            if x is None:
                raise RuleError(f"{name}(): the {what} is none", loc)
            return x
        return name, kind, holder_index, fn

    def counter_call(self, node, scope):
        """``marks(x)``: how many x has (lowered to ``s.counters[name][holder][index]``)."""
        import ast

        from ..runtime import values as V
        from .pyast import py, simple

        spec = self.ctx.m.counters[node.func]
        name = node.func
        arg = node.args[0]  # (the analysis checked the call and the holder's kind)
        tree, kind = self.ctx.exprs.expr_code(arg, scope)
        loc = self.ctx.exprs.loc(arg)
        if kind == "space":
            index = self.ctx.code.constant({sp: i for i, sp in enumerate(self.ctx.board.spaces)})
            at = self.ctx.exprs.helper(V.space_holder, index, tree, ast.Constant(name), loc)
        elif simple(tree):
            at = py("_0 if _0 is not None else _1(None, _2, _3, _4)", tree, self.ctx.code.constant(V.holder),
                    ast.Constant(name), ast.Constant(kind), loc)
        else:
            at = self.ctx.exprs.helper(V.holder, tree, ast.Constant(name), ast.Constant(kind), loc)
        return py("s.counters[_0][_1][_2]", ast.Constant(name), ast.Constant(kind), at), "int"

    def counter_assign(self, st, scope):
        """``marks(x) = n``, ``marks(x) += n``, ``marks(x) -= n`` (never below zero)."""
        target = st.target  # a counter (the statement analysis)
        name, holder, index, what = self.counter_holder(target, scope)
        amount = self.ctx.exprs.expect(st.value, scope, "int", f"the number of {name}")[0]
        loc = self.ctx.location(st)
        describe = self.ctx.m.describe_value
        op = st.op

        def change(s, e):
            i = index(s, e)
            n = amount(s, e)
            row = s.counters[name][holder]
            if op == "=":
                new = n
            elif op == "+=":
                new = row[i] + n
            else:
                new = row[i] - n
            if new < 0:
                raise RuleError(f"{name}({describe(what(s, e), holder)}) would go below zero ({row[i]} {op} {n}); "
                                f"test how many there are first, or use 'move up to'", loc)
            row[i] = new
        return change

    def counter_move(self, st, scope):
        """``move [up to] N of marks(a) to marks(b)``, or all of them: ``move marks(a) to marks(b)``."""
        if isinstance(st, A.Move):  # (two places of one counter, no 'at bottom': the statement analysis)
            source, dest, amount_node, up_to = st.what, st.dest, None, False
        else:
            source, dest, amount_node, up_to = st.source, st.dest, st.amount, st.up_to
        name, s_holder, s_index, s_what = self.counter_holder(source, scope)
        _, d_holder, d_index, _ = self.counter_holder(dest, scope)
        amount = None if amount_node is None else self.ctx.exprs.expect(amount_node, scope, "int", f"the number of {name}")[0]
        loc = self.ctx.location(st)
        describe = self.ctx.m.describe_value

        def move(s, e):
            rows = s.counters[name]
            src, i = rows[s_holder], s_index(s, e)
            dst, j = rows[d_holder], d_index(s, e)
            have = src[i]
            if amount is None:
                n = have
            else:
                n = amount(s, e)
                if n < 0:
                    raise RuleError(f"cannot move a negative number ({n}) of {name}", loc)
                if n > have:
                    if not up_to:
                        raise RuleError(f"cannot move {n} of {name}({describe(s_what(s, e), s_holder)}): it has "
                                        f"only {have} (write 'move up to {n} of ...' to take what there is)", loc)
                    n = have
            src[i] = have - n
            dst[j] += n
        return move

