"""Compile procedures that may wait for a player into resumable instructions.

An instruction is ``ins(state, frame, pc) -> next pc``; a frame is plain data
``[procedure id, pc, locals, return slot]`` kept in the state, so a game that
waits at a decision is still JSON data.  Runs of statements that never wait
are fused into one instruction that calls their direct closures.
"""

from __future__ import annotations

import ast

from ..errors import RuleError
from . import ast as A
from . import types as T
from .pyast import expr as X
from .runtime import TOO_LONG_CALLS, TOO_LONG_LOOP, TRANSFER, jump, jump_unless, loop_head, return_from, thread_jumps
from .statements import Ctx
from .listeners import active_listeners
from .units import Label, Proc, Scope


def innermost_loop(scope: Scope):
    """(continue label, exit label) of the loop a 'break' here would exit, or None outside loops."""
    return scope.loops[-1] if scope.loops else None


class Run:
    """Lowered statements waiting to become one instruction, and the loop their break/continue leave."""

    __slots__ = ("stmts", "loops", "spans", "at")

    def __init__(self, scope: Scope):
        self.stmts: list = []  # Python ast statements (see statements.py)
        self.at = None  # the Location of the first statement
        self.loops = innermost_loop(scope)
        self.spans: list = []  # spliced procedures' code ranges that end with this run's instruction


class ResumableCompiler:
    """Mixin of :class:`interpreter.dsl.compiler.Compiler` (uses its ``m``, ``where``, ``location``, ``err``)."""

    def suspends(self, stmts) -> bool:
        """Can running these statements stop to wait for a player?"""
        return any(self._suspends(st) for st in stmts)

    def _suspends(self, st) -> bool:
        m = self.m
        if isinstance(st, (A.Ask, A.AskEach, A.AskMenu)):
            return True
        if isinstance(st, A.CallStmt):
            return st.call.func in m.procedures and m.procedures[st.call.func].suspends
        if isinstance(st, (A.Let, A.Assign)):
            v = st.value
            return isinstance(v, A.Call) and v.func in m.procedures and m.procedures[v.func].suspends
        if isinstance(st, A.Emit):
            return any(h.suspends for h in m.handlers_for(st.event))
        if isinstance(st, A.If):
            return any(self.suspends(b) for _, b in st.branches) or self.suspends(st.orelse)
        if isinstance(st, (A.While, A.For, A.Repeat)):
            return self.suspends(st.body)
        return False

    def resumable(self, stmts, scope, code: list):
        """Append instructions for ``stmts`` to ``code`` (procedures that may wait for players)."""
        self.flush(self.resumable_run(stmts, scope, code, Run(scope)), code)

    def resumable_run(self, stmts, scope, code: list, run: "Run") -> "Run":
        """Like :meth:`resumable`, going on with ``run`` and returning the run still open at the end."""
        for st in stmts:
            if not self._suspends(st):
                if not run.stmts:
                    run.at = self.location(st)
                run.stmts.extend(self.lower_one(st, scope, Ctx(True, innermost_loop(scope))))
                continue
            tail = self.splice_call(st, scope, code, run)
            if tail is not None:
                run = tail
                run.loops = innermost_loop(scope)  # what follows answers to this scope's loops
                continue
            self.flush(run, code)
            getattr(self, "r_" + type(st).__name__)(st, scope, code)
            run = Run(scope)
        return run

    def flush(self, run: "Run", code: list):
        if run.stmts:
            self.emit_block(run.stmts, code, run.at or self.location(None))
            run.stmts = []
        for span in run.spans:
            span[1] = len(code)
        run.spans.clear()

    def emit_block(self, stmts, code, at):
        """One instruction ``ins(s, fr, pc)``: a generated function running lowered statements, then on to pc + 1.
        ``at``: the Location of the first statement."""
        body = [ast.Assign([ast.Name("e", ast.Store())], X("fr[2]"))] + stmts + [ast.Return(X("pc + 1"))]
        code.append(self.code.later("step", body, ("s", "fr", "pc"), at.line, f"{self.where} at {len(code)}",
                                    filename=at.file))

    def r_If(self, st, scope, code):
        end = Label()
        for i, (cond, body) in enumerate(st.branches):
            c = self.expect(cond, scope, "bool", "the condition of 'if'")[0]
            skip = Label()
            code.append(jump_unless(c, skip))
            self.resumable(body, scope, code)
            if st.orelse or i < len(st.branches) - 1:  # the last branch with no 'else' just falls through
                code.append(jump(end))
            skip.pc = len(code)
        if st.orelse:
            self.resumable(st.orelse, scope, code)
        end.pc = len(code)

    def r_While(self, st, scope, code):
        head, exit_ = Label(), Label()
        head.pc = len(code)
        cond = self.expect(st.condition, scope, "bool", "the condition of 'while'")[0] if st.condition else None
        loc = self.location(st)
        code.append(loop_head(cond, exit_, loc))
        scope.loops.append((head, exit_))
        self.resumable(st.body, scope, code)
        scope.loops.pop()
        body = Label()
        body.pc = head.pc + 1
        code.append(loop_head(cond, exit_, loc, body))  # the jump back runs the loop test itself
        exit_.pc = len(code)

    def r_For(self, st, scope, code):
        items, kind = self.as_list(st.iterable, scope, "what 'for' goes through")
        scope.names[st.var] = T.element(kind)
        n = next(scope.counter)
        lst, idx, var = f"$for{n}", f"$i{n}", scope.keys.get(st.var, st.var)
        loc = self.location(st)

        def start(s, fr, pc):
            xs = fr[2][lst] = list(items(s, fr[2]))
            s.steps -= len(xs)  # one step per iteration, paid up front
            if s.steps < 0:
                raise RuleError(TOO_LONG_LOOP, loc)
            fr[2][idx] = -1
            return pc + 1
        code.append(start)
        head, exit_, body = Label(), Label(), Label()
        head.pc = len(code)
        body.pc = head.pc + 1

        def step(s, fr, pc):  # also the jump back from the end of the body: it goes to 'body', not pc + 1
            e = fr[2]
            i = e[idx] + 1
            if i >= len(e[lst]):
                return exit_.pc
            e[idx] = i
            e[var] = e[lst][i]
            return body.pc
        code.append(step)
        scope.loops.append((head, exit_))
        self.resumable(st.body, scope, code)
        scope.loops.pop()
        code.append(step)
        exit_.pc = len(code)

    def r_Repeat(self, st, scope, code):
        times = self.expect(st.times, scope, "int", "the count of 'repeat'")[0]
        n = next(scope.counter)
        key = f"$rep{n}"
        loc = self.location(st)

        def start(s, fr, pc):
            fr[2][key] = times(s, fr[2])
            return pc + 1
        code.append(start)
        head, exit_ = Label(), Label()
        head.pc = len(code)

        def step(s, fr, pc):
            e = fr[2]
            if e[key] <= 0:
                return exit_.pc
            e[key] -= 1
            s.steps -= 1
            if s.steps < 0:
                raise RuleError(TOO_LONG_LOOP, loc)
            return pc + 1
        code.append(step)
        scope.loops.append((head, exit_))
        self.resumable(st.body, scope, code)
        scope.loops.pop()
        code.append(jump(head))
        exit_.pc = len(code)

    def r_CallStmt(self, st, scope, code):
        code.append(self.push_call(st.call, scope, None))

    def r_Let(self, st, scope, code):
        proc = self.m.procedures[st.value.func]
        scope.names[st.name] = proc.returns
        code.append(self.push_call(st.value, scope, scope.keys.get(st.name, st.name)))

    def r_Assign(self, st, scope, code):
        if not isinstance(st.target, A.Name) or st.op != "=":
            raise self.err("a procedure that asks players can only be assigned to a local variable with '='", st)
        if st.target.name not in scope.names:
            raise self.err(f"{st.target.name!r} is not a variable here; declare it with 'let'", st.target, "name")
        code.append(self.push_call(st.value, scope, scope.keys.get(st.target.name, st.target.name)))

    def push_call(self, call, scope, dest):
        proc = self.m.procedures[call.func]
        args = self.bind_args(call, proc.params, scope, call.func)
        pairs = list(zip([n for n, _ in proc.params], args))
        pid = proc.id
        loc = self.location(call)

        if len(pairs) == 1 and getattr(pairs[0][1], "local_key", None) is not None:
            (name, f), = pairs
            key = f.local_key

            def push_local(s, fr, pc):
                s.steps -= 1
                if s.steps < 0:
                    raise RuleError(TOO_LONG_CALLS, loc)
                fr[1] = pc + 1
                s.frames.append([pid, 0, {name: fr[2][key]}, dest])
                return TRANSFER
            return push_local

        def push(s, fr, pc):
            s.steps -= 1
            if s.steps < 0:
                raise RuleError(TOO_LONG_CALLS, loc)
            env = {n: f(s, fr[2]) for n, f in pairs}
            fr[1] = pc + 1
            s.frames.append([pid, 0, env, dest])
            return TRANSFER
        return push

    def r_Emit(self, st, scope, code):
        """One frame per handler, run in order (each may wait for players): triggers, the card's ability, listeners."""
        args = self.emit_args(st, scope)
        handlers = self.m.triggers_for(st.event)
        abilities = self.m.abilities_for(st.event)
        listeners = self.m.listeners.get(st.event) or ()  # see listeners.py
        loc = self.location(st)
        name, kinds = st.event, self.m.events[st.event]

        def emit(s, fr, pc):
            s.steps -= 1
            if s.steps < 0:
                raise RuleError("effects ran too long without a decision (an endless chain of events?)", loc)
            env = {n: f(s, fr[2]) for n, f in args}
            if s.trace is not None:
                s.traced_event(name, kinds, env)
            fr[1] = pc + 1
            todo = [(h.id, env) for h in handlers]
            if abilities is not None and env.get("card") is not None and abilities[env["card"]] is not None:
                todo.append((abilities[env["card"]].id, env))
            if listeners:
                todo.extend((proc.id, listener_env) for proc, listener_env in active_listeners(s, env, listeners))
            for pid, frame_env in reversed(todo):
                s.frames.append([pid, 0, dict(frame_env), None])
            return TRANSFER
        code.append(emit)

    def compile_proc(self, proc: Proc):
        """Compile a procedure: its direct function (if it never waits) and its resumable code."""
        saved = self.where, self.splicing
        self.where, self.splicing = proc.where, (proc,)
        self.label_nodes = []  # (ast constant, label) of jumps in generated code, filled in once laid out
        try:
            scope = Scope(dict(proc.params), proc)
            if not proc.suspends:
                direct = self.block(proc.body, scope, f"{proc.name}", into=self.direct_of(proc))
                # as resumable code (when an event's other handlers wait): call it, then return its value
                proc.code = [lambda s, fr, pc: return_from(s, fr, direct(s, fr[2]))]
            else:
                code = []
                self.fixups = []  # run once the code is laid out (e.g. menus learn where their options start)
                self.resumable(proc.body, scope, code)
                code.append(lambda s, fr, pc: return_from(s, fr, None))
                thread_jumps(code)
                for fix in self.fixups:
                    fix()
                proc.code = code
            for node, label in self.label_nodes:
                node.value = label.pc
            self.code.flush()
            proc.spliced = [tuple(span) for span in proc.spliced]
        finally:
            self.where, self.splicing = saved
