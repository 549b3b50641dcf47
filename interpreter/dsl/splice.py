"""Splice calls of procedures that wait for players into their caller's resumable code.

A call that may wait pushes a frame, and its return pops it: an env dict, a
switch of code list in the run loop and a signal check, on every turn of a
game.  When the callee is not recursive, its body is compiled again right
into the caller's instructions instead: its parameters and locals get fresh
env keys in the caller's frame, its 'return' jumps past its code, and its
first and last direct statements join the caller's neighbouring ones in the
same instruction.  Recursive calls, deep nesting and bodies with a 'break'
outside any loop keep the ordinary call.
"""

from __future__ import annotations

import ast

from . import ast as A
from .pyast import expr
from .pyast import local, name
from .inline import bound_names, has_return, loose_signal, statements
from .procedures import CompileError, Label, Scope
from .visitor import NodeVisitor

MAX_SPLICED = 2  # spliced procedures inside spliced procedures, at most: bounds the compiled size
MAX_STATEMENTS = 80  # a longer procedure keeps the ordinary call (each call site would copy it)


class Splicer(NodeVisitor):
    """The optimisation that splices a waiting procedure into its caller's state machine.
    Reached as ``ctx.splicer``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    def splice_call(self, st, scope, code, run):
        """Compile the waiting call ``st`` into ``code`` in place, going on with ``run``.

        Returns the run still open after the callee's code, or None when the call
        must stay an ordinary call (nothing has been written then).
        """
        call, dest = self._spliceable(st, scope)
        if call is None:
            return None
        proc = self.ctx.m.procedures[call.func]
        try:
            self.ctx.stmt_analysis.statement_notes(proc)  # its body's checks (a body with an error is not spliced)
            args = [t for t, _, _ in self.ctx.exprs.bind_args_code(call, proc.params, scope, call.func)]
        except CompileError:
            return None  # the ordinary call, or the procedure's own compilation, reports it
        n = next(self.ctx.key_numbers)
        params = [name for name, _ in proc.params]
        inner = Scope(dict(proc.params), proc)
        inner.keys = {name: f"{name}.{n}" for name in set(params) | local_names(proc.body)}
        inner.counter = scope.counter  # '$for', '$menu' keys stay distinct from the caller's
        inner.ret_key = dest if dest is not None else f"$ret.{n}"
        end = Label()
        inner.ret_signal = end
        stale = sorted(inner.keys[name] for name in local_names(proc.body) - top_level_lets(proc.body))

        mark, stmts, kept = len(code), list(run.stmts), run.kept
        marks = len(self.ctx.label_nodes), len(self.ctx.fixups)  # what the code made here adds to the layout's
        enter = entry([inner.keys[name] for name in params], args, stale, dest, self.ctx.stmts.tmp)
        at = self.ctx.location(st)
        for node in enter:
            self.ctx.code.located(node, at.line, at.column)
        if not run.stmts and not run.kept:
            run.at = at
        run.stmts.extend(enter)
        run.stmts.extend(self.ctx.coverage.count_entry(proc))
        saved = self.ctx.where, self.ctx.splicing
        self.ctx.where, self.ctx.splicing = proc.where, self.ctx.splicing + (proc,)
        try:
            tail = self.ctx.layout.resumable_run(proc.body, inner, code, run)
        except CompileError:
            del code[mark:]  # undo: the procedure's own compilation reports the error, in its body
            del self.ctx.label_nodes[marks[0]:], self.ctx.fixups[marks[1]:]  # (no entry point into code undone)
            run.stmts[:], run.kept = stmts, kept
            return None
        finally:
            self.ctx.where, self.ctx.splicing = saved
        if has_return(proc.body):  # 'return' lands after the callee's code: an instruction starts there
            self.ctx.layout.flush(tail, code)
            end.pc = len(code)
        span = [mark, len(code), proc.where]  # its last statements may join what follows: the range ends there
        self.ctx.splicing[0].spliced.append(span)
        self.ctx.spliced_ids.add(proc.id)
        tail.spans.append(span)
        return tail

    def _spliceable(self, st, scope):
        """The call in ``st`` and the env key its result goes to, if it can be spliced; else (None, None)."""
        call, dest = waiting_call(st, scope)
        if call is None:
            return None, None
        proc = self.ctx.m.procedures.get(call.func)
        if not self.ctx.options.splice or proc is None or not proc.suspends or proc in self.ctx.splicing \
                or len(self.ctx.splicing) > MAX_SPLICED or too_big_to_splice(proc) or not self.ctx.may_copy(proc.body):
            return None, None
        if isinstance(st, A.Let):
            scope.names[st.name] = self.ctx.stmt_analysis.stmt_note(st).kind
        return call, dest


def waiting_call(st, scope):
    """The call of ``st`` (a call, a 'let' or a plain assignment of a call) and the env key of its result."""
    if isinstance(st, A.CallStmt):
        return st.call, None
    if isinstance(st, A.Let) and isinstance(st.value, A.Call):
        return st.value, scope.keys.get(st.name, st.name)
    if isinstance(st, A.Assign) and isinstance(st.value, A.Call) and isinstance(st.target, A.Name) \
            and st.op == "=" and st.target.name in scope.names:
        return st.value, scope.keys.get(st.target.name, st.target.name)
    return None, None


def too_big_to_splice(proc) -> bool:
    """Too many statements, or a 'break' outside any loop: the ordinary call."""
    return sum(1 for _ in statements(proc.body)) > MAX_STATEMENTS or loose_signal(proc.body) is not None


def entry(keys, args, stale, dest, tmp):
    """The statements that start a spliced call: arguments into the callee's keys, old locals gone."""
    temps = [tmp() for _ in args]
    out = [ast.Assign([name(t, True)], arg) for t, arg in zip(temps, args)]  # all read before any is written
    out += [ast.Expr(expr("e.pop(KEY, None)", KEY=ast.Constant(key))) for key in stale]  # a local bound only in a
    out += [ast.Assign([local(key, True)], name(t)) for key, t in zip(keys, temps)]  # branch must not show the
    if dest is not None:  # previous call's value
        out.append(ast.Assign([local(dest, True)], ast.Constant(None)))  # the result if it ends without 'return'
    return out


def local_names(stmts) -> set:
    """Every local the statements bind: lets, loop variables, assignments and the results of asks."""
    out = bound_names(stmts)
    for st in statements(stmts):
        if isinstance(st, A.Ask):
            out.add(st.name)
        elif isinstance(st, A.AskEach):
            out.update((st.name, st.var))
        if isinstance(st, (A.Ask, A.AskEach)) and st.rest_name is not None:
            out.add(st.rest_name)
    return out


def top_level_lets(stmts) -> set:
    return {st.name for st in stmts if isinstance(st, A.Let)}
