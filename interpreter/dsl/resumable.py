"""Compile procedures that may wait for a player into one resumable function each.

The procedure is first laid out as instructions (a list, position = pc): runs
of statements that never wait (lowered by ``statements.py``), tests and jumps
of the control statements around waiting code, calls that push a frame, and
decisions.  :meth:`WaitingLayout.assemble` then makes the list one generated
function ``f(state, frame, pc)``: a state machine that starts at ``pc`` and runs
until control passes to another frame (TRANSFER) or a player must decide
(SUSPEND, the frame's pc set to where it resumes).  A frame (``runtime.records.Frame``:
procedure id, pc, locals, return slot) is plain data kept in the state, so a game that
waits at a decision is still plain data; the locals live in the frame's env dict
all along (nothing to spill at a decision).  ``Game.codes[id]`` (``proc.code``) is that
function, so ``State._run`` calls it the same way at any pc: ``code(state, frame, pc)``.
"""

from __future__ import annotations

import ast

from . import types as T
from .pyast import expr
from .pyast import locate, local, name, shape
from ..runtime.control import TOO_LONG_CALLS, TOO_LONG_LOOP, TRANSFER, return_from
from .statements import Site
from ..runtime.listeners import active_listeners
from ..runtime.records import Frame
from .procedures import Jump, Label, Op, Proc, Scope, jump, thread_jumps
from .visitor import NodeVisitor

MAX_DIRECT = 40  # frames deep, at most, that a waiting call runs its callee straight from the caller (see push_call)
GROUP = 8  # instructions found by comparisons in a row, in a procedure's function (see assemble)


def innermost_loop(scope: Scope):
    """(continue label, exit label) of the loop a 'break' here would exit, or None outside loops."""
    return scope.loops[-1] if scope.loops else None


class Run:
    """Lowered statements waiting to become one instruction, and the loop their break/continue leave."""

    __slots__ = ("stmts", "loops", "spans", "at", "kept")

    def __init__(self, scope: Scope):
        self.stmts: list = []  # Python ast statements (see statements.py)
        # an instruction is due even with no statements: the playout build lowered one that only a watched game
        # runs to none (StatementLowering.only_watched), and keeps the normal build's layout
        self.kept = False
        self.at = None  # the Location of the first statement
        self.loops = innermost_loop(scope)
        self.spans: list = []  # spliced procedures' code ranges that end with this run's instruction


class WaitingLayout(NodeVisitor):
    """The layout of waiting code: a procedure that may wait becomes one resumable function, a state
    machine over pcs with its labels and fixups.  Reached as ``ctx.layout``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    def resumable(self, stmts, scope, code: list):
        """Append instructions for ``stmts`` to ``code`` (procedures that may wait for players)."""
        self.flush(self.resumable_run(stmts, scope, code, Run(scope)), code)

    def counted(self, stmts, scope, code: list, count: list, node):
        """:meth:`resumable`, with the Python statements ``count`` (coverage.py) run first (at ``node``'s line)."""
        if not count:
            return self.resumable(stmts, scope, code)
        run = Run(scope)
        run.stmts.extend(count)
        run.at = self.ctx.location((node[0] if node else None) if isinstance(node, tuple) else node)
        self.flush(self.resumable_run(stmts, scope, code, run), code)

    def resumable_run(self, stmts, scope, code: list, run: "Run") -> "Run":
        """Like :meth:`resumable`, going on with ``run`` and returning the run still open at the end."""
        for st in stmts:
            if not self.ctx.stmt_analysis.stmt_note(st).waits:  # (the statement analysis's note)
                if not run.stmts and not run.kept:
                    run.at = self.ctx.location(st)
                run.stmts.extend(self.ctx.stmts.lower_one(st, scope, Site(True, innermost_loop(scope))))
                run.kept = run.kept or self.ctx.stmts.only_watched(st)
                if not self.ctx.options.fuse:  # each statement an instruction of its own
                    self.flush(run, code)
                continue
            if self.ctx.options.coverage:
                run.stmts.extend(self.ctx.coverage.count_before(st))
            tail = self.ctx.splicer.splice_call(st, scope, code, run)
            if tail is not None:
                run = tail
                run.loops = innermost_loop(scope)  # what follows answers to this scope's loops
                continue
            self.flush(run, code)
            self.visit(st, scope, code)
            run = Run(scope)
        return run

    def flush(self, run: "Run", code: list):
        if run.stmts or run.kept:
            self.emit_block(run.stmts, code, run.at or self.ctx.location(None))
            run.stmts, run.kept = [], False
        for span in run.spans:
            span[1] = len(code)
        run.spans.clear()

    def emit_block(self, stmts, code, at):
        """One instruction running lowered statements, then on to the next (``at``: the first one's Location)."""
        code.append(Op(lambda k: stmts, at))

    def visit_If(self, st, scope, code):
        end = Label()
        for i, (cond, body) in enumerate(st.branches):
            c = self.ctx.exprs.expect_code(cond, scope, "bool", "the condition of 'if'")[0]
            skip = Label()
            code.append(Op(lambda k, c=c, skip=skip: [ast.If(ast.UnaryOp(ast.Not(), c), self.goto(skip.pc), [])],
                           self.ctx.location(cond)))
            self.resumable(body, scope, code)
            if st.orelse or i < len(st.branches) - 1:  # the last branch with no 'else' just falls through
                code.append(jump(end))
            skip.pc = len(code)
        if st.orelse:
            self.resumable(st.orelse, scope, code)
        end.pc = len(code)

    def visit_While(self, st, scope, code):
        head, exit_ = Label(), Label()
        head.pc = len(code)
        cond = self.ctx.exprs.expect_code(st.condition, scope, "bool", "the condition of 'while'")[0] if st.condition else None
        loc = self.ctx.location(st)

        def test(k, again=False):  # the loop test: on into the body, or out (the jump back runs it too)
            out = self.ctx.stmts.budget(ast.Constant(1), TOO_LONG_LOOP, loc)
            if cond is not None:
                out.append(ast.If(ast.UnaryOp(ast.Not(), cond), self.goto(exit_.pc), []))
            return out + (self.goto(head.pc + 1) if again else [])
        code.append(Op(test, loc))
        scope.loops.append((head, exit_))
        self.resumable(st.body, scope, code)
        scope.loops.pop()
        code.append(Op(lambda k: test(k, True), loc))
        exit_.pc = len(code)

    def visit_For(self, st, scope, code):
        items, kind = self.ctx.exprs.list_code(st.iterable, scope, "what 'for' goes through")
        scope.names.update(T.unpacked(st.var, self.ctx.stmt_analysis.stmt_note(st).kind))  # (the analysis's kind of an item)
        n = next(scope.counter)
        lst, idx = f"$for{n}", f"$i{n}"
        if T.holds_cards(T.element(kind)):  # the list gone through is kept in the frame: it holds cards
            scope.internal[lst] = T.list_of(T.element(kind))
        var = local(scope.keys.get(st.var, st.var)) if isinstance(st.var, str) else \
            ast.Tuple([local(scope.keys.get(n_, n_), True) for n_ in st.var], ast.Store())  # for q, r in pairs
        loc = self.ctx.location(st)
        xs = self.ctx.stmts.tmp()
        start = shape("XS = LST = list(ITEMS)", XS=name(xs, True), LST=local(lst, True), ITEMS=items) \
            + self.ctx.stmts.budget(expr("len(XS)", XS=name(xs)), TOO_LONG_LOOP, loc) \
            + shape("IDX = -1", IDX=local(idx, True))  # one step per iteration, paid up front
        code.append(Op(lambda k: start, loc))
        head, exit_, body = Label(), Label(), Label()
        head.pc = len(code)
        body.pc = head.pc + 1
        i = self.ctx.stmts.tmp()

        def step(k):  # also the jump back from the end of the body: it goes to 'body', not k + 1
            return shape("""
                I = IDX + 1
                if I >= len(LST):
                    EXIT
                IDX = I
                VAR = LST[I]
            """, I=name(i), IDX=local(idx), LST=local(lst), EXIT=self.goto(exit_.pc), VAR=var) \
                + self.goto(body.pc, k)
        code.append(Op(step, loc))
        scope.loops.append((head, exit_))
        self.resumable(st.body, scope, code)
        scope.loops.pop()
        code.append(Op(step, loc))
        exit_.pc = len(code)

    def visit_Repeat(self, st, scope, code):
        times = self.ctx.exprs.expect_code(st.times, scope, "int", "the count of 'repeat'")[0]
        n = next(scope.counter)
        key = f"$rep{n}"
        loc = self.ctx.location(st)
        code.append(Op(lambda k: [ast.Assign([local(key, True)], times)], loc))
        head, exit_ = Label(), Label()
        head.pc = len(code)
        code.append(Op(lambda k: shape("""
            if KEY <= 0:
                EXIT
            KEY -= 1
        """, KEY=local(key), EXIT=self.goto(exit_.pc)) + self.ctx.stmts.budget(ast.Constant(1), TOO_LONG_LOOP, loc), loc))
        scope.loops.append((head, exit_))
        self.resumable(st.body, scope, code)
        scope.loops.pop()
        code.append(jump(head))
        exit_.pc = len(code)

    def visit_CallStmt(self, st, scope, code):
        code.append(self.push_call(st.call, scope, None))

    def visit_Let(self, st, scope, code):
        scope.names[st.name] = self.ctx.stmt_analysis.stmt_note(st).kind
        code.append(self.push_call(st.value, scope, scope.keys.get(st.name, st.name)))

    def visit_Assign(self, st, scope, code):  # to a local variable, with '=' (the statement analysis)
        code.append(self.push_call(st.value, scope, scope.keys.get(st.target.name, st.target.name)))

    def push_call(self, call, scope, dest):
        """An instruction calling a procedure that may wait: a frame of its own, run at once.

        The callee's function is called straight from here (no round through ``State._run``): if it
        ends, its ``return`` pops its frame and the caller goes on in the same Python call; if it waits
        for a player or hands over to another frame, the caller returns that too (its frame already
        says where to resume).  Frames and their order are those of a round through the run loop;
        past MAX_DIRECT frames the run loop takes the call, so Python's stack stays shallow.
        """
        proc = self.ctx.m.procedures[call.func]
        args = [t for t, _, _ in self.ctx.exprs.bind_args_code(call, proc.params, scope, call.func)]
        env = ast.Dict([ast.Constant(n) for n, _ in proc.params], args)
        self.ctx.pushed_ids.add(proc.id)  # it runs in a frame of its own: it needs its resumable code
        loc = self.ctx.location(call)
        frame, got = self.ctx.stmts.tmp(), self.ctx.stmts.tmp()
        held = self.holding(scope)
        return Op(lambda k: self.ctx.stmts.budget(ast.Constant(1), TOO_LONG_CALLS, loc) + shape("""
            fr.pc = NEXT
            FRAME = NEW_FRAME(PID, 0, ENV, DEST)
            s.frames.append(FRAME)
            if len(s.frames) > MAX_DIRECT:
                return TRANSFER
            GOT = PROC.code(s, FRAME, 0)
            if s.frames[-1] is not fr:
                if GOT >= 0:  # the callee goes on at GOT: the run loop calls it there
                    FRAME.pc = GOT
                    return TRANSFER
                return GOT
        """, NEXT=self.resumed_holding(k, held), PID=ast.Constant(proc.id), ENV=env, DEST=ast.Constant(dest),
            TRANSFER=ast.Constant(TRANSFER), FRAME=name(frame), GOT=name(got), PROC=self.ctx.stmts.K(proc),
            MAX_DIRECT=ast.Constant(MAX_DIRECT), NEW_FRAME=self.ctx.stmts.K(Frame)), loc)

    def visit_Emit(self, st, scope, code):
        """One frame per handler, run in order (each may wait for players): triggers, the card's ability, listeners."""
        args = self.ctx.stmts.emit_args(st, scope)
        handlers = self.ctx.m.triggers_for(st.event)
        abilities = self.ctx.m.abilities_for(st.event)
        listeners = self.ctx.m.listeners.get(st.event) or ()  # see runtime/listeners.py
        loc = self.ctx.location(st)
        name_, kinds = st.event, self.ctx.m.events[st.event]
        env = ast.Dict([ast.Constant(n) for n, _ in args], [code for _, code in args])
        t = self.ctx.stmts.tmp()
        held = self.holding(scope)
        code.append(Op(lambda k: self.ctx.stmts.budget(ast.Constant(1), "effects ran too long without a decision (an endless "
                                             "chain of events?)", loc) + shape("""
            ENV = ARGS
            TRACED
            fr.pc = NEXT
            return PUSH(s, ENV, HANDLERS, ABILITIES, LISTENERS)
        """, ENV=name(t), ARGS=env, NAME=ast.Constant(name_), KINDS=self.ctx.stmts.K(kinds), NEXT=self.resumed_holding(k, held),
            PUSH=self.ctx.stmts.K(push_handlers), HANDLERS=self.ctx.stmts.K(handlers), ABILITIES=self.ctx.stmts.K(abilities),
            LISTENERS=self.ctx.stmts.K(listeners), TRACED=tuple(self.ctx.stmts.watched(shape("""
                if s.trace is not None:
                    s.traced_event(NAME, KINDS, ENV)
            """, ENV=name(t), NAME=ast.Constant(name_), KINDS=self.ctx.stmts.K(kinds))))), loc))

    # the decisions are laid out by their lowering helper (decisions.py)
    def visit_Ask(self, st, scope, code):
        self.ctx.decisions.ask(st, scope, code)

    def visit_AskEach(self, st, scope, code):
        self.ctx.decisions.ask_each(st, scope, code)

    def visit_AskMenu(self, st, scope, code):
        self.ctx.decisions.ask_menu(st, scope, code)

    # ---------------------------------------------------------------- one function per procedure
    def goto(self, target: int | ast.expr, k: int | None = None) -> list:
        """Go on at instruction ``target`` (nothing to write when that is the next one, ``k + 1``).

        A target given as a number is declared an entry point here; one given as generated code is a
        label's constant (``StatementLowering.label_pc``), declared when the labels are filled in."""
        if k is not None and target == k + 1:
            return []
        if not isinstance(target, ast.expr):
            target = ast.Constant(self.entered(target))
        return [ast.Assign([name("pc", True)], target), ast.Continue()]

    def entered(self, pc: int) -> int:
        """Declare ``pc`` an entry point of the procedure being laid out, and give it back.

        An entry point is an instruction that is not only reached by running on from the one before: a
        jump's target, where a frame resumes after a decision or a call (the pc written into the frame,
        or given back to the run loop), where a menu's option starts.  Only entry points get a test in
        the function's dispatch (:meth:`assemble`), so every place that makes code go on at a pc other
        than the next one declares it: :meth:`goto`, :meth:`resumed_at`, the labels of lowered
        statements, and the menus' option tables."""
        self.ctx.entries.add(pc)
        return pc

    def resumed_at(self, k: int) -> ast.Constant:
        """The pc after instruction ``k`` as a constant of its code: where its frame resumes once a player
        has decided, or a call it made has returned through the run loop (an entry point)."""
        return ast.Constant(self.entered(k + 1))

    def resumed_holding(self, k: int, held: tuple) -> ast.Constant:
        """:meth:`resumed_at`, noting for the procedure being laid out what holds cards while its frame waits
        there (``held``, from :meth:`holding`: ``Proc.held_cards``)."""
        if held[0] is not None or held[1]:
            self.ctx.splicing[0].held_cards[k + 1] = held
        return self.resumed_at(k)

    def holding(self, scope, options=None) -> tuple:
        """What holds cards in a frame waiting at the instruction being lowered in ``scope``: (``options``, how
        the values of the decision it waits at hold cards, a kind or a menu's ``("menu", kind of each entry's
        items)``; {env key: kind} of its locals that may hold cards).  A determinised copy deals the cards its
        seat cannot see again: what these hold follows the deal (interpreter/determinise.py)."""
        held = {scope.keys.get(n, n): kind for n, kind in scope.names.items() if T.holds_cards(kind)}
        held.update(scope.internal)
        return options, held

    def entry_points(self, count: int) -> list:
        """The sorted entry points of the procedure laid out in ``count`` instructions: pc 0 (a new frame),
        those its instructions declared as they were made, and its labels' (``ctx.label_nodes``)."""
        found = {0} | self.ctx.entries | {label.pc for _, label in self.ctx.label_nodes if label.pc is not None}
        outside = sorted(pc for pc in found if not 0 <= pc < count)
        if outside:
            raise RuntimeError(f"the code of a procedure goes on at {outside}, outside its {count} instructions")
        return sorted(found)

    def instruction(self, k: int, ins, at) -> list:
        """The Python statements of instruction ``k`` (an :class:`Op` or a :class:`Jump`), each located at its
        statement's line (``at``: the procedure's Location, for an instruction that has none)."""
        if type(ins) is Jump:
            body, loc = self.goto(ins.target.pc, k), at
        else:
            body, loc = ins.make(k), ins.at or at
        line, col = loc.line or at.line or 1, max((loc.column or 1) - 1, 0)
        for node in body:
            locate(node, line, col)
        return body

    def assemble(self, proc: Proc, code: list):
        """The procedure's instructions as one generated function ``f(s, fr, pc)``: a state machine.

        Only the entry points (:meth:`entered`) are dispatched: entry ``k`` is the code under
        ``if pc <= k:``, which runs instruction ``k`` and every instruction after it that is reached only
        by running on from the one before, then on into the next entry's test.  A jump sets ``pc`` and
        goes round the ``while True`` again, where comparisons find the group of GROUP entries it lands
        in.  The local ``pc`` is then the entry the code was entered at, not the instruction running:
        nothing reads it but the dispatch and, after an unforeseen error, ``run_loop`` (which asks
        ``Proc.where_at`` for the rule that failed), so ``pc = k`` is written only where that rule changes
        (:meth:`rule_changes`).  The pcs are the instructions' positions, as before: the layout is the
        same whichever instructions are entries.  It returns only to hand control to another frame
        (TRANSFER) or to wait for a player (SUSPEND).
        """
        at = self.ctx.location(proc.body[0]) if proc.body else self.ctx.location(None)
        bodies = [self.instruction(k, ins, at) for k, ins in enumerate(code)]  # (they declare entry points)
        entries = self.entry_points(len(code))
        proc.instructions, proc.entries = len(code), tuple(entries)
        changes = self.rule_changes(proc, len(code))
        blocks = []
        for i, first in enumerate(entries):
            block = []
            for k in range(first, entries[i + 1] if i + 1 < len(entries) else len(code)):
                if k in changes:
                    store = ast.Assign([name("pc", True)], ast.Constant(k))
                    locate(store, bodies[k][0].lineno if bodies[k] else at.line or 1, 0)
                    block.append(store)
                block.extend(bodies[k])
            blocks.append(ast.If(expr("pc <= K", K=ast.Constant(first)), block or [ast.Pass()], []))
        groups = [list(range(i, min(i + GROUP, len(entries)))) for i in range(0, len(entries), GROUP)]

        def tree(lo, hi):  # groups lo..hi-1 (of entries' indices)
            if hi - lo == 1:
                last = groups[lo][-1]
                on = entries[last + 1] if last + 1 < len(entries) else len(code)
                return [blocks[i] for i in groups[lo]] + [ast.Assign([name("pc", True)], ast.Constant(on)),
                                                          ast.Continue()]
            mid = (lo + hi) // 2
            return [ast.If(expr("pc < K", K=ast.Constant(entries[groups[mid][0]])), tree(lo, mid), tree(mid, hi))]
        body = [ast.Assign([name("e", True)], expr("fr.env")), ast.While(ast.Constant(True), tree(0, len(groups)), [])]
        fn = self.ctx.code.later("proc", body, ("s", "fr", "pc"), at.line, f"{proc.name} (waits for players)",
                             filename=at.file)
        return fn

    @staticmethod
    def rule_changes(proc: Proc, count: int) -> set:
        """The instructions (past the first) whose rule differs from the one before's: the first and the next of
        a spliced procedure's, where ``Proc.where_at`` gives another key.  Running into one stores ``pc = k``,
        so that ``where_at(pc)`` names the running instruction's rule wherever the code fails."""
        edges = {pc for start, end, _ in proc.spliced for pc in (start, end) if 0 < pc < count}
        return {pc for pc in edges if proc.where_at(pc) != proc.where_at(pc - 1)}

    def compile_proc(self, proc: Proc, resumable: bool = True):
        """Compile a procedure: its direct function (if it never waits) and, if ``resumable``, its
        resumable function.

        The resumable function is what runs in a frame of the procedure's own: the flow, setup, event
        handlers and the targets of ordinary waiting calls need it; a procedure that only ever runs
        spliced into its callers or called directly does not (see ``Builder.compile_all``) and gets
        :data:`NEVER_ENTERED`.
        """
        saved = self.ctx.where, self.ctx.splicing
        self.ctx.where, self.ctx.splicing = proc.where, (proc,)
        self.ctx.label_nodes = []  # (ast constant, label) of jumps in generated code, filled in once laid out
        self.ctx.entries = set()  # the pcs it may be entered at (entered), declared as its code is made
        try:
            self.ctx.stmt_analysis.statement_notes(proc)  # the statements' checks (stmt_analysis.py), before any is lowered
            scope = Scope(dict(proc.params), proc)
            # a frame pushed for it waits at pc 0, its parameters given, until the frames above it are done
            proc.held_cards = {0: (None, {n: kind for n, kind in proc.params if T.holds_cards(kind)})}
            if not proc.suspends:
                direct = self.ctx.stmts.block(proc.body, scope, f"{proc.name}", into=self.ctx.stmts.direct_of(proc),
                                    first=self.ctx.coverage.count_entry(proc))
                if not resumable:
                    proc.code = NEVER_ENTERED
                    self.ctx.code.flush()
                    return
                # as resumable code (when an event's other handlers wait): call it, then return its value
                code = [Op(lambda k: shape("return RETURN_FROM(s, fr, DIRECT(s, e))", RETURN_FROM=self.ctx.stmts.K(return_from),
                                           DIRECT=self.ctx.stmts.K(direct)), None)]
            else:
                if not resumable:
                    proc.code = NEVER_ENTERED
                    return
                code = []
                self.ctx.fixups = []  # run once the code is laid out (e.g. menus learn where their options start)
                self.counted(proc.body, scope, code, self.ctx.coverage.count_entry(proc), proc.body)
                code.append(Op(lambda k: shape("return RETURN_FROM(s, fr, None)", RETURN_FROM=self.ctx.stmts.K(return_from)),
                               None))
                if self.ctx.options.fuse:
                    thread_jumps(code)
                for fix in self.ctx.fixups:
                    fix()
            for node, label in self.ctx.label_nodes:
                node.value = label.pc
            proc.code = self.assemble(proc, code)
            self.ctx.code.flush()
            proc.spliced = [tuple(span) for span in proc.spliced]
        finally:
            self.ctx.where, self.ctx.splicing = saved


def push_handlers(s, env, handlers, abilities, listeners):
    """A frame for each handler of an event, to run in order: triggers, the card's ability, listeners."""
    todo = [(h.id, env) for h in handlers]
    if abilities is not None and env.get("card") is not None and abilities[env["card"]] is not None:
        todo.append((abilities[env["card"]].id, env))
    if listeners:
        todo.extend((proc.id, listener_env) for proc, listener_env in active_listeners(s, env, listeners))
    for pid, frame_env in reversed(todo):
        s.frames.append(Frame(pid, 0, dict(frame_env), None))
    return TRANSFER


def NEVER_ENTERED(s, fr, pc):
    """The code of procedures that never run in a frame of their own."""
    raise RuntimeError("a procedure compiled only into its callers ran in a frame of its own")
