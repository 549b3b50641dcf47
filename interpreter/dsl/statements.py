"""Lower statements that never wait for a player to Python ``ast`` statements.

Each statement becomes Python statements over ``s`` (the state) and ``e`` (the
rule's locals, an env dict), located at the statement's YAML line: a Python
traceback through generated code names the definition's line.  Control flow
is Python's own: ``if``/``while``/``for``, ``break``/``continue`` inside the
loops of the same function, ``return`` for 'return'.  Where the statement runs
is said by a :class:`Site`:

* in a **direct function** ``f(s, e) -> value`` (a procedure that never waits,
  or an inlined body that must stop at its 'return'), 'return x' is ``return x``
  and a 'break' outside every loop ends the body (``return None``);
* in a **run** of a resumable procedure (see ``resumable.py``), an instruction
  ``ins(s, fr, pc) -> next pc``, 'return' pops the frame (or, in a spliced
  procedure, jumps past its code) and 'break'/'continue' of a loop that waits
  jump to its exit/head.

The step budget and the limits (loops, calls, recursion, numbers, texts) are
checked exactly where the rules say (see ``runtime/moves.py``).
"""

from __future__ import annotations

import ast

from ..errors import RuleError
from . import ast as A
from . import types as T
from ..runtime.listeners import active_listeners
from .narration import Dependencies, Opaque, assignments
from .playout_build import known_zone, playout_mover
from .pyast import expr
from .pyast import locate, local, name, shape
from ..runtime.control import ENDLESS_RECURSION, TOO_LONG_CALLS, TOO_LONG_LOOP, GameOver, return_from
from ..runtime.limits import MAX_INT, not_added, over_budget, too_big
from ..runtime.moves import move_card, move_list, move_zone, shuffle_zone
from ..runtime.visibility import Line, Part
from .procedures import CompileError, Label
from .visitor import NodeVisitor

class Site:
    """Where lowered statements run: a direct function, or a run of resumable code (see the module docstring)."""

    __slots__ = ("run", "loops", "rloops")

    def __init__(self, run: bool = False, rloops=None):
        self.run = run  # in an instruction (s, fr, pc) of resumable code
        self.loops = 0  # Python loops around the statement in its function
        self.rloops = rloops  # (head, exit) labels of the innermost waiting loop (runs only)


class StatementLowering(NodeVisitor):
    """The lowering pass of statements that do not wait into Python statements (expressions through
    ``ctx.exprs``).  Reached as ``ctx.stmts``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    # ---------------------------------------------------------------- blocks
    def lower(self, stmts, scope, site: Site) -> list:
        """Python statements for ``stmts`` (none of which waits), in ``ctx``."""
        out = []
        for st in stmts:
            out.extend(self.lower_one(st, scope, site))
        return out

    def lower_one(self, st, scope, site: Site) -> list:
        body = self.visit(st, scope, site)
        if self.ctx.options.coverage:
            body = self.ctx.coverage.count_before(st) + body
        if body:
            loc = self.ctx.location(st)
            line, col = loc.line or 1, max((loc.column or 1) - 1, 0)
            for node in body:
                locate(node, line, col)
        return body

    def block(self, stmts, scope, what: str = "", into=None, first=()):
        """A direct function ``f(s, e)`` running ``stmts``: its value is what a 'return' gives, else None.
        ``first``: Python statements run before them (a coverage count, see coverage.py)."""
        body = [*first, *self.lower(stmts, scope, Site())]
        at = self.ctx.location(stmts[0]) if stmts else None
        return self.ctx.code.later("run", body, ("s", "e"), at and at.line, what, into, at and at.file, where=self.ctx.where)

    def tmp(self) -> str:
        """A fresh Python local for generated code."""
        return f"t{next(self.ctx.temp_numbers)}"

    def K(self, value) -> ast.expr:
        return self.ctx.code.constant(value)

    def budget(self, n: ast.expr, message: str | None, loc) -> list:
        """Take ``n`` steps; past the budget, the located error ``message`` (None: the work-budget one)."""
        if message is None:
            return shape("""
                s.steps -= N
                if s.steps < 0:
                    raise OVER(s, LOC)
            """, N=n, OVER=self.K(over_budget), LOC=self.K(loc))
        return shape("""
            s.steps -= N
            if s.steps < 0:
                raise RE(MSG, LOC)
        """, N=n, RE=self.K(RuleError), MSG=ast.Constant(message), LOC=self.K(loc))

    def watched(self, statements: list) -> list:
        """``statements``, a block only a watched game runs (``if s.trace is not None: ...``, ``if s.log is not
        None: ...``), or none in the playout build, which nobody watches (playout_build.py)."""
        return [] if self.ctx.options.playout else statements

    def heard(self, event: str) -> bool:
        """Whether something handles ``event`` (a trigger, a card's ability, a listener): else only a trace hears it."""
        return bool(self.ctx.m.triggers_for(event)) or self.ctx.m.abilities_for(event) is not None \
            or bool(self.ctx.m.listeners.get(event))

    def only_watched(self, st) -> bool:
        """Whether ``st`` does nothing but for a watched game: a 'log', or an 'emit' nothing handles.  The playout
        build lowers it to no statement at all, and keeps its instruction (``Run.kept``, resumable.py): both builds
        have one layout."""
        return isinstance(st, A.Log) or isinstance(st, A.Emit) and not self.heard(st.event)

    # ---------------------------------------------------------------- statements
    def visit_Pass(self, st, scope, site):
        return []

    def visit_Let(self, st, scope, site):
        key = scope.keys.get(st.name, st.name)
        if isinstance(st.value, A.Call) and st.value.func in self.ctx.m.procedures:
            inlined = self.ctx.inliner.inline_proc(st.value, scope, key, site)
            scope.names[st.name] = self.ctx.stmt_analysis.stmt_note(st).kind
            if inlined is not None:
                return inlined
            code, value = self.proc_call(st.value, scope)
            return code + [ast.Assign([local(key, True)], value)]
        value, kind = self.ctx.exprs.expr_code(st.value, scope)
        if kind == "zone":
            value, kind = expr("list(s.zones[Z])", Z=value), "list:card"
        scope.names[st.name] = self.ctx.stmt_analysis.stmt_note(st).kind  # (joined with what it held before: the statement analysis)
        return [ast.Assign([local(key, True)], value)]

    def visit_Assign(self, st, scope, site):
        target = st.target
        if isinstance(target, A.Call):  # marks(x) += n
            return self.ctx.counters.counter_assign(st, scope)
        if isinstance(target, A.Name) and target.name in scope.names and st.op == "=" \
                and isinstance(st.value, A.Call) and st.value.func in self.ctx.m.procedures:
            inlined = self.ctx.inliner.inline_proc(st.value, scope, scope.keys.get(target.name, target.name), site)
            if inlined is not None:
                scope.names[target.name] = self.ctx.stmt_analysis.stmt_note(st).kind
                return inlined
        first = []  # statements that compute the value first (a procedure call)
        if isinstance(st.value, A.Call) and st.value.func in self.ctx.m.procedures and st.op == "=":
            first, value = self.proc_call(st.value, scope)
            vkind = self.ctx.m.procedures[st.value.func].returns
        else:
            value, vkind = self.ctx.exprs.expr_code(st.value, scope)
        if vkind == "zone":
            value, vkind = expr("list(s.zones[Z])", Z=value), "list:card"
        op = st.op  # (what it assigns to, and the kinds: checked by the statement analysis, noted in 'target')
        aim = self.ctx.stmt_analysis.stmt_note(st).target
        if aim == "local":
            name_ = target.name
            scope.names[name_] = self.ctx.stmt_analysis.stmt_note(st).kind
            key = scope.keys.get(name_, name_)
            if op == "=":
                return first + [ast.Assign([local(key, True)], value)]
            return first + self._add_local(key, name_, value, st)
        if aim == "game":
            return first + self._assign_game(st, value)
        return first + self._assign_player(st, scope, value)

    def _assign_game(self, st, value):
        """``game.x = v`` / ``game.x += v``."""
        op, attr = st.op, st.target.name
        if op == "=":
            return shape("s.gv[ATTR] = VALUE", ATTR=ast.Constant(attr), VALUE=value)
        v = self.tmp()
        return shape("""
            try:
                V = s.gv[ATTR] OP AMOUNT
                if not -MAX <= V <= MAX:
                    raise BIG(V, LOC, WHAT)
                s.gv[ATTR] = V
            except TypeError:
                raise NOT_ADDED(LABEL, s.gv[ATTR], HINT, LOC) from None
        """.replace("OP", "-" if op == "-=" else "+"), V=name(v), ATTR=ast.Constant(attr), AMOUNT=value,
            NOT_ADDED=self.K(not_added), LABEL=ast.Constant(f"game.{attr}"),
            HINT=ast.Constant(" (give it a starting value under game_variables)"),
            LOC=self.K(self.ctx.location(st)), MAX=ast.Constant(MAX_INT), BIG=self.K(too_big),
            WHAT=ast.Constant(f"'{op}'"))

    def _assign_player(self, st, scope, value):
        """``p.x = v`` / ``p.x += v`` of a player ``p``."""
        op, target = st.op, st.target
        obj = self.ctx.exprs.expr_code(target.obj, scope)[0]  # a player ('player')
        attr = target.name
        if op == "=":
            return shape("s.pv[ATTR][OBJ] = VALUE", ATTR=ast.Constant(attr), OBJ=obj, VALUE=value)
        row, p, v = self.tmp(), self.tmp(), self.tmp()
        return shape("""
            ROW = s.pv[ATTR]
            P = OBJ
            try:
                V = ROW[P] OP AMOUNT
                if not -MAX <= V <= MAX:
                    raise BIG(V, LOC, WHAT)
                ROW[P] = V
            except TypeError:
                raise NOT_ADDED(LABEL, ROW[P], HINT, LOC) from None
        """.replace("OP", "-" if op == "-=" else "+"), ROW=name(row), P=name(p), V=name(v), ATTR=ast.Constant(attr),
            OBJ=obj, AMOUNT=value, NOT_ADDED=self.K(not_added), LABEL=ast.Constant(f".{attr}"),
            HINT=ast.Constant(" (give it a starting value under player_variables)"),
            LOC=self.K(self.ctx.location(st)), MAX=ast.Constant(MAX_INT), BIG=self.K(too_big), WHAT=ast.Constant(f"'{op}'"))

    def _add_local(self, key, label, value, st):
        v = self.tmp()
        return shape("""
            try:
                V = OLD OP AMOUNT
            except TypeError:
                raise NOT_ADDED(LABEL, OLD, "", LOC) from None
            if not -MAX <= V <= MAX:
                raise BIG(V, LOC, WHAT)
            NEW = V
        """.replace("OP", "-" if st.op == "-=" else "+"), V=name(v), OLD=local(key), AMOUNT=value,
            NOT_ADDED=self.K(not_added), LABEL=ast.Constant(label), LOC=self.K(self.ctx.location(st)), MAX=ast.Constant(MAX_INT),
            BIG=self.K(too_big), WHAT=ast.Constant(f"'{st.op}'"), NEW=local(key, True))

    def visit_Move(self, st, scope, site):
        if self.ctx.counters.is_counter(st.what) or self.ctx.counters.is_counter(st.dest):  # move marks(a) to marks(b): all of them
            return self.ctx.counters.counter_move(st, scope)
        dest, _, dest_note = self.ctx.exprs.expr_note(st.dest, scope, ("zone", "the destination of 'move'"))
        what, kind, what_note = self.ctx.exprs.expr_note(st.what, scope)
        bottom = bool(st.bottom)
        loc = self.K(self.ctx.location(st))
        if kind == "card" or kind == "none":  # the commonest move: one card (runtime/moves.py, move_card)
            c = self.tmp()
            mover, extra = move_card, []
            if self.ctx.options.playout:  # a mover without trace or chance mode, told at load what stays public (playout_build.py)
                mover, extra = playout_mover(self.ctx, "card", known_zone(self.ctx, st.dest, dest_note))
            return shape("""
                C = WHAT
                if C is None:
                    raise RE("nothing to move (the card is none: is the zone empty?)", LOC)
                MOVE
            """, C=name(c), WHAT=what, RE=self.K(RuleError), LOC=loc,
                MOVE=[ast.Expr(ast.Call(self.K(mover), [name("s"), name(c), dest, ast.Constant(bottom), *extra], []))])
        if kind == "zone":
            mover, extra = move_zone, []
            if self.ctx.options.playout:
                mover, extra = playout_mover(self.ctx, "zone", known_zone(self.ctx, st.dest, dest_note),
                                             known_zone(self.ctx, st.what, what_note))
            return [ast.Expr(ast.Call(self.K(mover), [name("s"), what, dest, ast.Constant(bottom), loc, *extra], []))]
        d = self.tmp()  # a list of cards (the statement analysis refused other kinds)
        mover, extra = move_list, []
        if self.ctx.options.playout:
            mover, extra = playout_mover(self.ctx, "list", known_zone(self.ctx, st.dest, dest_note))
        return shape("""
            D = DEST
            MOVE
        """, D=name(d), DEST=dest,
            MOVE=[ast.Expr(ast.Call(self.K(mover), [name("s"), what, name(d), ast.Constant(bottom), loc, *extra], []))])

    def visit_Shuffle(self, st, scope, site):
        zone = self.ctx.exprs.expect_code(st.zone, scope, "zone", "what 'shuffle' shuffles")[0]
        return [ast.Expr(expr("SHUFFLE(s, Z, LOC)", SHUFFLE=self.K(shuffle_zone), Z=zone,
                           LOC=self.K(self.ctx.location(st))))]

    def emit_args(self, st, scope):
        """(parameter, argument as a Python expression) of an 'emit', in the event's order (its note's ``event``:
        the statement analysis checked the event, its parameters and their kinds)."""
        given = dict(st.args)
        return [(pname, self.ctx.exprs.expr_code(given[pname], scope)[0]) for pname, _ in self.ctx.stmt_analysis.stmt_note(st).event]

    def visit_Emit(self, st, scope, site):
        args = self.emit_args(st, scope)
        env = ast.Dict([ast.Constant(n) for n, _ in args], [code for _, code in args])
        handlers = self.ctx.m.triggers_for(st.event)
        abilities = self.ctx.m.abilities_for(st.event)  # list indexed by card id -> Proc or None
        listeners = self.ctx.m.listeners.get(st.event) or ()  # see runtime/listeners.py
        name_, kinds = st.event, self.ctx.m.events[st.event]
        if not self.heard(st.event):
            # nothing happens: only a trace hears it, and working its arguments out changes nothing
            # (not the random numbers, not the step budget); an argument that fails drops them all
            rng, steps, env_ = self.tmp(), self.tmp(), self.tmp()
            return self.watched(shape("""
                if s.trace is not None:
                    RNG, STEPS = s.rng, s.steps
                    try:
                        ENV = ARGS
                    except EXC:
                        ENV = None
                    finally:
                        s.rng, s.steps = RNG, STEPS
                    s.traced_event(NAME, KINDS, ENV)
            """, RNG=name(rng), STEPS=name(steps), ENV=name(env_), ARGS=env, EXC=self.K(Exception),
                NAME=ast.Constant(name_), KINDS=self.K(kinds)))
        return [ast.Expr(expr("EMIT(s, ENV, NAME, KINDS, HANDLERS, ABILITIES, LISTENERS, LOC)", EMIT=self.K(emit_now),
                           ENV=env, NAME=ast.Constant(name_), KINDS=self.K(kinds), HANDLERS=self.K(handlers),
                           ABILITIES=self.K(abilities), LISTENERS=self.K(listeners), LOC=self.K(self.ctx.location(st))))]

    def direct_of(self, proc):
        """The direct function of a procedure that never waits (made now, its code filled in when it is compiled)."""
        if proc.direct is None:
            proc.direct = self.ctx.code.stub(f"direct_{proc.id}")
        return proc.direct

    def proc_call(self, call: A.Call, scope):
        """(statements calling a procedure that never waits, the Python local holding its result)."""
        proc = self.ctx.m.procedures[call.func]
        args = [t for t, _, _ in self.ctx.exprs.bind_args_code(call, proc.params, scope, call.func)]
        env = ast.Dict([ast.Constant(n) for n, _ in proc.params], args)
        loc = self.K(self.ctx.location(call))
        t = self.tmp()
        return self.budget(ast.Constant(1), TOO_LONG_CALLS, self.ctx.location(call)) + shape("""
            try:
                T = PROC(s, ENV)
            except RecursionError:
                raise RE(ENDLESS, LOC) from None
        """, T=name(t), PROC=self.K(self.direct_of(proc)), ENV=env, RE=self.K(RuleError),
            ENDLESS=ast.Constant(ENDLESS_RECURSION), LOC=loc), name(t)

    def visit_CallStmt(self, st, scope, site):
        if st.call.func in self.ctx.m.procedures:
            inlined = self.ctx.inliner.inline_proc(st.call, scope, None, site)
            if inlined is not None:
                return inlined
            return self.proc_call(st.call, scope)[0]
        code, _ = self.ctx.exprs.expr_code(st.call, scope)
        return [ast.Expr(code)]

    def visit_Break(self, st, scope, site):
        return self.leave(site, exit_=True)

    def visit_Continue(self, st, scope, site):
        return self.leave(site, exit_=False)

    def leave(self, site, exit_: bool):
        """'break' / 'continue': Python's in a loop of this function; else the waiting loop's jump, or the end."""
        if site.loops:
            return [ast.Break() if exit_ else ast.Continue()]
        if not site.run:
            return [ast.Return(ast.Constant(None))]  # no loop to leave: the body stops (the loader refuses it)
        if site.rloops is None:  # the loader refuses it in what authors write, and the flow it builds has none
            raise RuntimeError(f"'{'break' if exit_ else 'continue'}' outside every loop reached the compiler")
        return self.ctx.layout.goto(self.label_pc(site.rloops[1] if exit_ else site.rloops[0]))

    def label_pc(self, label: Label) -> ast.expr:
        """The code position of ``label``, filled in once the procedure is laid out."""
        node = ast.Constant(None)
        self.ctx.label_nodes.append((node, label))
        return node

    def visit_Return(self, st, scope, site):
        slot, signal = scope.ret_key, scope.ret_signal
        if st.value is None:
            value = ast.Constant(None)
        else:
            value = self.ctx.exprs.expr_code(st.value, scope)[0]  # (of the kind the procedure returns: analysed)
        if not site.run:
            return [ast.Return(value)]
        if signal is None:  # out of the procedure
            return [ast.Return(expr("RETURN_FROM(s, fr, VALUE)", RETURN_FROM=self.K(return_from), VALUE=value))]
        # past a spliced body: on at its end (from inside a Python loop, through the run loop)
        return [ast.Assign([local(slot, True)], value)] + \
            (self.ctx.layout.goto(self.label_pc(signal)) if not site.loops else [ast.Return(self.label_pc(signal))])

    def visit_EndGame(self, st, scope, site):
        winners = self.ctx.exprs.expect_code(st.winners, scope, "list:player", "the winners")[0] if st.winners else None
        return shape("""
            s.over = True
            s.forced_winners = WINNERS
            raise GAME_OVER
        """, WINNERS=expr("sorted(set(W))", W=winners) if winners is not None else ast.Constant(None),
            GAME_OVER=self.K(GameOver))

    def visit_Log(self, st, scope, site):
        to = to_kind = None
        if st.to is not None:
            to, to_kind = self.ctx.exprs.expr(st.to, scope)  # a player or a list of them (the statement analysis)
        owner = self.ctx.inlining[-1] if self.ctx.inlining else scope.proc
        line = Line(self.interpolate(st, scope, self.assignments_in(owner.body if owner is not None else ())),
                    to, to_kind, self.ctx.location(st))
        return self.watched(shape("""
            if s.log is not None:
                LINE.write(s, e)
        """, LINE=self.K(line)))  # games played without a log (simulations) pay nothing more

    def assignments_in(self, body) -> dict:
        """What each local of ``body`` is ever assigned, worked out once per body (a body may hold many logs)."""
        cached = self.ctx.assigned.get(id(body))
        if cached is None or cached[0] is not body:
            cached = self.ctx.assigned[id(body)] = (body, assignments(body))
        return cached[1]

    def interpolate(self, st, scope, defs):
        """The log text as literal strings and :class:`Part` s (each knowing what it may reveal)."""
        text = st.text
        start = st.text_column or st.column + len('log "')
        parts = []  # (the number of parts, and each part's kinds: checked by the statement analysis)
        for piece in self.ctx.template(text, st, "the log text", start):
            if piece.__class__ is str:
                parts.append(piece)
                continue
            j, node = piece
            notes = self.ctx.notes if self.ctx.notes is not None and id(node) in self.ctx.notes else self.ctx.stmt_analysis.analysed(node, scope, None)
            saved, self.ctx.notes = self.ctx.notes, notes  # (as expr_code, keeping the analysis for Dependencies)
            try:
                tree, kind = self.ctx.exprs.lower_node(node, scope)
            finally:
                self.ctx.notes = saved
            fn = self.ctx.exprs.function_of(tree, node)
            deps = Dependencies(self.ctx, scope, defs, notes)
            try:
                deps.collect(node)
                opaque = False
            except Opaque:
                opaque = True
            except CompileError as exc:  # (narration.py: a random number in a log text) in the text
                exc.node = exc.node or node
                raise
            if kind == "zone":
                zf = fn
                fn, kind = (lambda s, e, zf=zf: s.zones[zf(s, e)]), "list:card"
            parts.append(Part(fn, kind, deps.checks, deps.private, opaque))
        return parts

    def visit_If(self, st, scope, site):
        tests = []
        for cond, body in st.branches:
            c = self.ctx.exprs.expect_code(cond, scope, "bool", "the condition of 'if'")[0]
            tests.append((c, self.lower(body, scope, site)))
        orelse = self.lower(st.orelse, scope, site) if st.orelse else []
        for c, body in reversed(tests):
            orelse = [ast.If(c, body or [ast.Pass()], orelse)]
        return orelse

    def looped(self, body, scope, site):
        """The statements of a loop body that runs as a Python loop of this function."""
        site.loops += 1
        try:
            return self.lower(body, scope, site)
        finally:
            site.loops -= 1

    def visit_While(self, st, scope, site):
        cond = self.ctx.exprs.expect_code(st.condition, scope, "bool", "the condition of 'while'")[0] \
            if st.condition else ast.Constant(True)
        body = self.looped(st.body, scope, site)
        return [ast.While(cond, self.budget(ast.Constant(1), TOO_LONG_LOOP, self.ctx.location(st)) + body, [])]

    def visit_For(self, st, scope, site):
        items, kind = self.ctx.exprs.list_code(st.iterable, scope, "what 'for' goes through")
        scope.names.update(T.unpacked(st.var, self.ctx.stmt_analysis.stmt_note(st).kind))  # (the analysis's kind of an item)
        body = self.looped(st.body, scope, site)
        var = scope.keys.get(st.var, st.var) if isinstance(st.var, str) else None
        target = local(var, True) if var is not None else \
            ast.Tuple([local(scope.keys.get(n, n), True) for n in st.var], ast.Store())  # for q, r in pairs
        xs = self.tmp()
        return shape("""
            XS = list(ITEMS)
        """, XS=name(xs), ITEMS=items) + self.budget(expr("len(XS)", XS=name(xs)), TOO_LONG_LOOP, self.ctx.location(st)) \
            + [ast.For(target, name(xs), body or [ast.Pass()], [])]  # one step per iteration, paid first

    def visit_Repeat(self, st, scope, site):
        times = self.ctx.exprs.expect_code(st.times, scope, "int", "the count of 'repeat'")[0]
        body = self.looped(st.body, scope, site)
        return [ast.For(name(self.tmp(), True), expr("range(N)", N=times),
                        self.budget(ast.Constant(1), TOO_LONG_LOOP, self.ctx.location(st)) + body, [])]

    def visit_CounterMove(self, st, scope, site):
        return self.ctx.counters.counter_move(st, scope)

    def visit_Show(self, st, scope, site):
        return self.ctx.showing.show(st, scope)


def emit_now(s, env, name, kinds, handlers, abilities, listeners, loc):
    """Run the handlers of an event at once (none of them waits): triggers, the card's ability, listeners."""
    if s.trace is not None:
        s.traced_event(name, kinds, env)
    active = active_listeners(s, env, listeners) if listeners else ()  # asked before any handler runs
    try:
        for h in handlers:
            h.direct(s, dict(env))
        if abilities is not None and env.get("card") is not None:
            ab = abilities[env["card"]]
            if ab is not None:
                ab.direct(s, dict(env))
        for proc, listener_env in active:
            proc.direct(s, listener_env)
    except RecursionError:
        raise RuleError("events set each other off without end (an endless chain of events?)", loc) from None
    s.steps -= 1
    if s.steps < 0:
        raise RuleError("effects ran too long without a decision (an endless chain of events?)", loc)
