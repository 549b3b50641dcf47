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

from . import ast as A
from .visitor import NodeVisitor


class CounterCompiler(NodeVisitor):
    """Lowering helper of counters (reads, assignments, moves).  Reached as ``ctx.counters``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    def is_counter(self, node) -> bool:
        return isinstance(node, A.Call) and node.func in self.ctx.m.counters

    def counter_holder(self, node, scope, first: list):
        """For ``marks(x)``: (holder kind, x, x's index in that holder's list), x and its index read from
        generated locals; the statements computing them (and refusing a none or foreign holder) are
        appended to ``first``."""
        import ast

        from ..runtime import values as V
        from .pyast import name as pyname, py

        name = node.func
        arg = node.args[0]  # (one, of a kind the counter is on: the statement analysis)
        tree, kind = self.ctx.exprs.expr_code(arg, scope)
        loc = self.ctx.exprs.loc(arg)
        x = self.ctx.stmts.tmp()
        first.append(ast.Assign([pyname(x, True)], tree))
        if kind != "space":  # a card or player is its own index: only a none is refused
            first.append(ast.If(py("_0 is None", pyname(x)), [ast.Expr(self.ctx.exprs.helper(
                V.holder, pyname(x), ast.Constant(name), ast.Constant(kind), loc))], []))
            return kind, pyname(x), pyname(x)
        index = self.ctx.code.constant({sp: i for i, sp in enumerate(self.ctx.board.spaces)})
        i = self.ctx.stmts.tmp()
        first.append(ast.Assign([pyname(i, True)], self.ctx.exprs.helper(V.space_holder, index, pyname(x),
                                                                         ast.Constant(name), loc)))
        return kind, pyname(x), pyname(i)

    def counter_call(self, node, scope):
        """``marks(x)``: how many x has (lowered to ``s.counters[name][holder][index]``)."""
        import ast

        from ..runtime import values as V
        from .pyast import py

        name = node.func
        arg = node.args[0]  # (the analysis checked the call and the holder's kind)
        tree, kind, note = self.ctx.exprs.expr_note(arg, scope)
        loc = self.ctx.exprs.loc(arg)
        if kind == "space":
            index = self.ctx.code.constant({sp: i for i, sp in enumerate(self.ctx.board.spaces)})
            at = self.ctx.exprs.helper(V.space_holder, index, tree, ast.Constant(name), loc)
        elif note.local is not None:  # a local variable: read twice, no call (its note)
            at = py("_0 if _0 is not None else _1(None, _2, _3, _4)", tree, self.ctx.code.constant(V.holder),
                    ast.Constant(name), ast.Constant(kind), loc)
        else:
            at = self.ctx.exprs.helper(V.holder, tree, ast.Constant(name), ast.Constant(kind), loc)
        return py("s.counters[_0][_1][_2]", ast.Constant(name), ast.Constant(kind), at), "int"

    def counter_assign(self, st, scope) -> list:
        """``marks(x) = n``, ``marks(x) += n``, ``marks(x) -= n`` (never below zero): generated code calling
        ``runtime.values.change_counter``."""
        import ast

        from ..runtime import values as V

        target = st.target  # a counter (the statement analysis)
        name = target.func
        code = []
        holder, x, at = self.counter_holder(target, scope, code)
        amount = self.ctx.exprs.expect_code(st.value, scope, "int", f"the number of {name}")[0]
        K = self.ctx.code.constant
        code.append(ast.Expr(self.ctx.exprs.helper(
            V.change_counter, ast.Name("s", ast.Load()), ast.Constant(name), ast.Constant(holder), at, x,
            ast.Constant(st.op), amount, K(self.ctx.m.describe_value), K(self.ctx.location(st)))))
        return code

    def counter_move(self, st, scope) -> list:
        """``move [up to] N of marks(a) to marks(b)``, or all of them: ``move marks(a) to marks(b)``: generated
        code calling ``runtime.values.move_counter``."""
        import ast

        from ..runtime import values as V

        if isinstance(st, A.Move):  # (two places of one counter, no 'at bottom': the statement analysis)
            source, dest, amount_node, up_to = st.what, st.dest, None, False
        else:
            source, dest, amount_node, up_to = st.source, st.dest, st.amount, st.up_to
        name = source.func
        code = []
        s_holder, s_x, s_at = self.counter_holder(source, scope, code)
        d_holder, _, d_at = self.counter_holder(dest, scope, code)
        amount = ast.Constant(V.ALL_OF_THEM) if amount_node is None else \
            self.ctx.exprs.expect_code(amount_node, scope, "int", f"the number of {name}")[0]
        K = self.ctx.code.constant
        code.append(ast.Expr(self.ctx.exprs.helper(
            V.move_counter, ast.Name("s", ast.Load()), ast.Constant(name), ast.Constant(s_holder), s_at,
            ast.Constant(d_holder), d_at, amount, ast.Constant(up_to), s_x, K(self.ctx.m.describe_value),
            K(self.ctx.location(st)))))
        return code
