"""Inline calls of procedures that never wait for a player into their caller.

A procedure call costs an env dict, the call layers and a signal check.  When
the procedure cannot suspend and its arguments are plain locals or constants
(so reading them again costs nothing and nothing the body does can change them),
its body is compiled again in the caller's env: parameters read the caller's
argument trees, the body's own locals and its return value get fresh env
keys, and 'return' ends only the inlined block.  When the body returns only at
its end, its statements join the caller's block directly (no call layer at all).
Recursive calls and other arguments keep the ordinary call.
"""

from __future__ import annotations

import ast

from ..errors import RuleError
from . import ast as A
from .pyast import local, name, shape
from ..runtime.control import ENDLESS_RECURSION, TOO_LONG_CALLS
from .procedures import CompileError, Scope
from .visitor import NodeVisitor

MAX_DEPTH = 3  # inlined procedures inside inlined procedures, at most: bounds the compiled size


class Inliner(NodeVisitor):
    """The optimisation that inlines the body of a procedure that never waits into its caller's code.
    Reached as ``ctx.inliner``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    def inline_proc(self, call: A.Call, scope, dest, site):
        """Statements running ``call`` inline (storing its result in env key ``dest`` unless None), or None."""
        proc = self.ctx.m.procedures[call.func]
        if not self.inlinable(proc, scope):
            return None
        try:
            self.ctx.stmt_analysis.statement_notes(proc)  # its body's checks (a body with an error is not inlined)
            bound = self.ctx.exprs.bound_args(call, proc.params, scope, call.func)
        except CompileError:
            return None  # the ordinary call, or the procedure's own compilation, reports it
        if not all(arg.key is not None or arg.fixed for arg in bound):  # each one local, or a constant
            return None
        names = [n for n, _ in proc.params]
        if bound_names(proc.body) & set(names) or not bindings_are_definite(proc.body) \
                or not self.ctx.may_copy(proc.body):
            return None
        loc = self.ctx.location(call)
        inner = self.inlined_scope(proc, scope, bound, dest)
        saved, saved_stack = self.ctx.where, self.ctx.inlining
        self.ctx.where, self.ctx.inlining = proc.where, saved_stack + (proc,)
        try:
            return self._inlined(proc, inner, dest, loc, site)
        except CompileError:
            return None  # the procedure's own compilation reports it, located in its body
        finally:
            self.ctx.where, self.ctx.inlining = saved, saved_stack

    def inlinable(self, proc, scope) -> bool:
        """May a call of ``proc`` here be inlined (it never waits, is not recursive, not nested too deep)?"""
        return self.ctx.options.inline and not proc.suspends and proc is not scope.proc and proc not in self.ctx.inlining \
            and len(self.ctx.inlining) < MAX_DEPTH

    def inlined_scope(self, proc, scope, args, dest):
        """The scope an inlined body runs in: its parameters aliases of the arguments (:class:`BoundArg` s), its
        locals fresh keys."""
        n = next(self.ctx.key_numbers)
        aliases = {name: arg._replace(kind=kind, reads=False) for (name, kind), arg in zip(proc.params, args)}
        inner = Scope({}, scope.proc, aliases)
        inner.keys = {name: f"{name}.{n}" for name in bound_names(proc.body)}
        last = proc.body[-1] if proc.body else None
        if dest is not None and isinstance(last, A.Return) and isinstance(last.value, A.Name) \
                and last.value.name in {st.name for st in proc.body if isinstance(st, A.Let)} \
                and dest not in {arg.key for arg in args}:
            inner.keys[last.value.name] = dest  # 'let x = ...; return x' builds its result in place
        inner.ret_key = f"$ret.{n}"
        return inner

    def _inlined(self, proc, inner, dest, loc, site):
        body = proc.body
        last = body[-1] if body else None
        if not loose_signal(body) and not has_return(body[:-1] if isinstance(last, A.Return) else body):
            return self._flattened(body, inner, dest, site)
        # Otherwise the body is a function of its own, stopped by its 'return' (or a stray 'break').
        run = self.ctx.stmts.block(body, inner, f"{proc.name}, inlined", first=self.ctx.coverage.count_entry(proc))
        t = self.ctx.stmts.tmp()
        code = self.ctx.stmts.budget(ast.Constant(1), TOO_LONG_CALLS, loc) + shape("""
            try:
                T = RUN(s, e)
            except RecursionError:
                raise RE(ENDLESS, LOC) from None
        """, T=name(t), RUN=self.ctx.stmts.K(run), RE=self.ctx.stmts.K(RuleError), ENDLESS=ast.Constant(ENDLESS_RECURSION),
            LOC=self.ctx.stmts.K(loc))
        if dest is not None:
            code.append(ast.Assign([local(dest, True)], name(t)))
        return code

    def _flattened(self, body, inner, dest, site):
        """The body's own statements, run in the caller's block, then its result put in ``dest``.

        Only for bodies whose one 'return' (if any) is their last statement and
        that have no 'break' or 'continue' outside a loop: nothing then needs a
        function of its own to stop them.
        """
        last = body[-1] if body else None
        returns = isinstance(last, A.Return)
        code = self.ctx.coverage.count_entry(self.ctx.inlining[-1]) + self.ctx.stmts.lower(body[:-1] if returns else body, inner, site)
        if returns and last.value is not None:
            value = self.ctx.exprs.expr_code(last.value, inner)[0]
            v = last.value
            if dest is None:
                code.append(ast.Expr(value))  # still evaluated: a bad value fails as it would in a call
            elif not (isinstance(v, A.Name) and v.name not in inner.aliases and inner.keys.get(v.name) == dest):
                code.append(ast.Assign([local(dest, True)], value))  # (else the result was built in place)
            at = self.ctx.location(last)
            self.ctx.code.located(code[-1], at.line, at.column)
        elif dest is not None:
            code.append(ast.Assign([local(dest, True)], ast.Constant(None)))
        return code


def statements(stmts):
    """Every statement in ``stmts``, nested blocks included."""
    for st in stmts:
        yield st
        if isinstance(st, A.If):
            for _, body in st.branches:
                yield from statements(body)
            yield from statements(st.orelse)
        elif isinstance(st, (A.While, A.For, A.Repeat)):
            yield from statements(st.body)
        elif isinstance(st, A.AskMenu):
            for option in st.options:
                yield from statements(option.body)


def bound_names(stmts) -> set:
    """The local names the statements declare or assign."""
    out = set()
    for st in statements(stmts):
        if isinstance(st, A.Let):
            out.add(st.name)
        elif isinstance(st, A.For):
            out.update(A.names_of(st.var))
        elif isinstance(st, A.Assign) and isinstance(st.target, A.Name):
            out.add(st.target.name)
        elif isinstance(st, A.AskMenu):
            out.update(n for opt in st.options for n in A.names_of(opt.var))
    return out


def bindings_are_definite(stmts) -> bool:
    """Is every local first bound by a top-level 'let'?

    Inlined locals live on in the caller's env between calls, so a local bound
    only in a branch or a loop could be read with the previous call's value;
    such procedures keep the ordinary call (where that read fails loudly).
    """
    top = set()
    for st in stmts:
        if isinstance(st, A.Let):
            top.add(st.name)
    for st in statements(stmts):
        if isinstance(st, A.Let) and not any(st is top_st for top_st in stmts) and st.name not in top:
            return False
        if isinstance(st, A.For) and any(n not in top for n in A.names_of(st.var)):
            return False
        if isinstance(st, A.AskMenu) and any(n not in top for opt in st.options for n in A.names_of(opt.var)):
            return False
    return True


def loose_signal(stmts):
    """The first 'break' or 'continue' outside every loop in ``stmts`` (None if there is none).

    The loader refuses one in an author's effect (see Builder.parse_body): it would leave no loop of its own."""
    for st in stmts:
        if isinstance(st, (A.Break, A.Continue)):
            return st
        bodies = [body for _, body in st.branches] + [st.orelse] if isinstance(st, A.If) else \
            [opt.body for opt in st.options] if isinstance(st, A.AskMenu) else []
        for body in bodies:
            found = loose_signal(body)
            if found is not None:
                return found
    return None


def has_return(stmts) -> bool:
    return any(isinstance(st, A.Return) for st in statements(stmts))
