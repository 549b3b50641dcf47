"""The analysis pass over statements: a procedure body's names, kinds and statement rules, before lowering.

:meth:`StatementAnalysis.statement_notes` walks a procedure's body (the flow, setup,
a handler, an ability, a menu option's code...) once, against its declared parameter
kinds, with a scope of its own (names -> kinds: parameters, 'let', 'for', what an
'ask' binds), in the order the lowering meets them.  Every located statement error
comes from here (reserved names, a name given a value of another kind, ``+=`` of
what is not a number, assignments to unknown variables or of the wrong kind, 'move',
'emit', 'return', 'log', 'show', counters, asks and menus); each expression in it is
analysed as the lowering will analyse it (``analysis.py``).  The lowering reads the
notes and raises nothing itself.

A procedure spliced or inlined into another is lowered there with its own scope; it is
analysed once (the first time it is compiled, spliced or inlined), as a function is.

The notes: ``{id(statement): StmtNote}``; a note says

* ``kind``: the kind the statement gives its name (a 'let', an assignment to a local,
  a 'for' variable, an ask's result), or the kind of what a 'move' / 'return' / 'log to'
  is given;
* ``new``: a 'let' (or ask) binds a name the scope did not have yet;
* ``target``: an assignment's target: ``local``, ``game``, ``player`` or ``counter``;
* ``event``: an 'emit''s event parameters ``((name, kind), ...)``;
* ``waits``: whether the statement may stop to wait for a player (``ExpressionAnalysis.waits_at``).
"""

from __future__ import annotations

from . import ast as A
from . import types as T
from .inline import statements
from .returns import check_returns, subject
from ..runtime.limits import MAX_ACTION_TEXT, MAX_LOG_PARTS
from .procedures import Scope, suggest
from .visitor import NodeVisitor


class StmtNote:
    """What the statement analysis found out about one statement (see the module docstring)."""

    __slots__ = ("kind", "new", "target", "event", "waits")

    def __init__(self, kind=None, new=False, target=None, event=None, waits=False):
        self.kind, self.new, self.target, self.event, self.waits = kind, new, target, event, waits

    def __repr__(self):
        extra = "".join(f", {k}={getattr(self, k)!r}" for k in ("target", "event") if getattr(self, k) is not None)
        return f"StmtNote({self.kind!r}{', new' if self.new else ''}{extra}{', waits' if self.waits else ''})"


RESERVED = ("game", "players", "player_count", "active")
HOLDERS = ("card", "space", "player")  # what a counter may be counted on


class StatementAnalysis(NodeVisitor):
    """The analysis pass over statements: checks each procedure's statements and notes them (its
    expressions through ``ctx.analysis``).  Reached as ``ctx.stmt_analysis``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    # ---------------------------------------------------------------- entry points
    def statement_notes(self, proc) -> dict:
        """The notes of a procedure's statements (worked out once, against its declared parameter kinds)."""
        notes = proc.stmt_notes
        if notes is not None:
            return notes
        saved = self.ctx.where, self.ctx._owner
        self.ctx.where, self.ctx._owner = proc.where, proc  # (the owner: whose kind a 'return' gives)
        notes = {}
        try:
            self.block(proc.body, Scope(dict(proc.params), proc), notes)
            check_returns(proc, notes)  # every path gives the declared result (returns.py)
        finally:
            self.ctx.where, self.ctx._owner = saved
        proc.stmt_notes = notes
        all_notes = self.ctx._stmt_notes
        for st in statements(proc.body):
            all_notes[id(st)] = (st, notes[id(st)])
        return notes

    def stmt_note(self, st):
        """The note of a statement analysed by :meth:`statement_notes` (None: not analysed)."""
        found = self.ctx._stmt_notes.get(id(st))
        return found[1] if found is not None and found[0] is st else None

    def analysed(self, node, scope, expect=None) -> dict:
        """``analyse``, answered from the statement analysis when the expression is lowered where it was
        analysed (in its procedure's own code: same names, same env keys), so it is analysed once."""
        found = self.ctx._expr_notes.get(id(node))
        if found is not None and found[0] is node and found[1] is scope.proc and not self.ctx.inlining \
                and len(self.ctx.splicing) == 1:
            return found[2]
        return self.ctx.analysis.analyse(node, scope, expect)

    def analysed_args(self, call, params, scope, name) -> dict:
        """``analyse_args``, answered from the statement analysis like :meth:`analysed`."""
        found = self.ctx._expr_notes.get(id(call))
        if found is not None and found[0] is call and found[1] is scope.proc and not self.ctx.inlining \
                and len(self.ctx.splicing) == 1:
            return found[2]
        return self.ctx.analysis.analyse_args(call, params, scope, name)

    def block(self, stmts, scope, notes):
        for st in stmts:
            note = self.visit(st, scope, notes)
            notes[id(st)] = note if note is not None else StmtNote()

    # ---------------------------------------------------------------- helpers
    def kind_of(self, node, scope, expect=None):
        notes = self.ctx.analysis.analyse(node, scope, expect)
        self.ctx._expr_notes[id(node)] = (node, self.ctx._owner, notes)
        return notes[id(node)].kind

    def list_kind(self, node, scope, what):
        kind = self.kind_of(node, scope, ("list", what))
        return "list:card" if kind == "zone" else kind

    def reserved_names(self):
        return set(RESERVED) | set(self.ctx.m.zones) | set(self.ctx.m.params)

    def rebind(self, name, had, kind, node):
        """The kind of a variable given a value of ``kind`` after values of ``had``; a clash is an error."""
        joined = T.unify(had, kind)
        if joined is None:
            raise self.ctx.err(f"{name!r} holds {T.describe(had)}; it cannot also hold {T.describe(kind)} "
                           "(use another variable)", node)
        return joined

    def proc_call_kind(self, call, scope):
        """A call of a procedure as a statement's value: its arguments analysed; the kind it returns."""
        proc = self.ctx.m.procedures[call.func]
        notes = self.ctx.analysis.analyse_args(call, proc.params, scope, call.func)
        self.ctx._expr_notes[id(call)] = (call, self.ctx._owner, notes)
        return proc.returns

    def is_proc_call(self, node) -> bool:
        return isinstance(node, A.Call) and node.func in self.ctx.m.procedures

    # ---------------------------------------------------------------- statements
    def visit_Pass(self, st, scope, notes):
        return None

    visit_Break = visit_Continue = visit_Pass

    def visit_Let(self, st, scope, notes):
        new = st.name not in scope.names
        if self.is_proc_call(st.value):
            kind = scope.names[st.name] = self.proc_call_kind(st.value, scope)
            return StmtNote(kind, new, waits=self.ctx.analysis.waits_at(st))
        kind = self.kind_of(st.value, scope)
        if kind == "zone":
            kind = "list:card"
        if st.name in self.reserved_names():
            raise self.ctx.err(f"{st.name!r} is a reserved name; pick another", st, "name")
        prev = scope.names.get(st.name)
        kind = scope.names[st.name] = kind if prev is None else self.rebind(st.name, prev, kind, st.value)
        return StmtNote(kind, new)

    def visit_Assign(self, st, scope, notes):
        target = st.target
        if isinstance(target, A.Call):  # marks(x) += n
            self.counter_assign_kind(st, scope)
            return StmtNote("int", target="counter")
        if self.is_proc_call(st.value) and self.ctx.analysis.waits_at(st):  # a procedure that may wait: its own instruction
            return self.waiting_assign(st, scope)
        if self.is_proc_call(st.value) and st.op == "=":
            vkind = self.proc_call_kind(st.value, scope)
        else:
            vkind = self.kind_of(st.value, scope)
        if vkind == "zone":
            vkind = "list:card"
        op = st.op
        if op != "=" and not T.fits(vkind, "int"):
            raise self.ctx.err(f"'{op}' needs a number, not {T.describe(vkind)}", st.value)
        if isinstance(target, A.Name):
            return self.local_assign(st, scope, vkind)
        if isinstance(target.obj, A.Name) and target.obj.name == "game" and "game" not in scope.names:
            return self.game_assign(st, vkind)
        return self.player_assign(st, scope, vkind)

    def waiting_assign(self, st, scope):
        """``x = p(...)`` of a procedure that may wait: only to a local, with '='."""
        target = st.target
        if not isinstance(target, A.Name) or st.op != "=":
            raise self.ctx.err("a procedure that asks players can only be assigned to a local variable with '='", st)
        if target.name not in scope.names:
            raise self.ctx.err(f"{target.name!r} is not a variable here; declare it with 'let'", target, "name")
        self.proc_call_kind(st.value, scope)
        return StmtNote(scope.names[target.name], target="local", waits=True)

    def local_assign(self, st, scope, vkind):
        name_ = st.target.name
        if name_ not in scope.names:
            raise self.ctx.err(f"{name_!r} is not a variable here; declare it first with 'let {name_} = ...'"
                           + suggest(name_, scope.names), st.target, "name")
        if not T.fits(vkind, scope.names[name_]):
            scope.names[name_] = self.rebind(name_, scope.names[name_], vkind, st.value)
        return StmtNote(scope.names[name_], target="local")

    def game_assign(self, st, vkind):
        attr = st.target.name
        if attr not in self.ctx.m.gvars:
            raise self.ctx.err(f"unknown game variable {attr!r}{suggest(attr, self.ctx.m.gvars)}", st.target, "name")
        if not T.fits(vkind, self.ctx.m.gvars[attr]):
            raise self.ctx.err(f"game.{attr} holds {T.describe(self.ctx.m.gvars[attr])}, not {T.describe(vkind)}",
                           st.value)
        return StmtNote(vkind, target="game")

    def player_assign(self, st, scope, vkind):
        target = st.target
        okind = self.kind_of(target.obj, scope)
        attr = target.name
        if okind != "player":
            what = "card properties are fixed; keep changing values in player or game variables" \
                if okind == "card" else f"cannot assign to .{attr} of {T.describe(okind)}"
            raise self.ctx.err(what, target)
        if attr not in self.ctx.m.pvars:
            raise self.ctx.err(f"players have no variable {attr!r}{suggest(attr, self.ctx.m.pvars)}", target, "name")
        if not T.fits(vkind, self.ctx.m.pvars[attr]):
            raise self.ctx.err(f"{attr} holds {T.describe(self.ctx.m.pvars[attr])}, not {T.describe(vkind)}", st.value)
        return StmtNote(vkind, target="player")

    def visit_Move(self, st, scope, notes):
        if self.ctx.counters.is_counter(st.what) or self.ctx.counters.is_counter(st.dest):  # move marks(a) to marks(b): all of them
            self.counter_move_kind(st, scope)
            return StmtNote("int", target="counter")
        self.kind_of(st.dest, scope, ("zone", "the destination of 'move'"))
        kind = self.kind_of(st.what, scope)
        if kind not in ("card", "none", "zone") and not T.fits(kind, "list:card"):
            raise self.ctx.err(f"'move' moves a card, a list of cards or a whole zone, not {T.describe(kind)}", st.what)
        return StmtNote(kind)

    def visit_Shuffle(self, st, scope, notes):
        self.kind_of(st.zone, scope, ("zone", "what 'shuffle' shuffles"))

    def visit_Emit(self, st, scope, notes):
        event = self.ctx.m.events.get(st.event)
        if event is None:
            raise self.ctx.err(f"unknown event {st.event!r}{suggest(st.event, self.ctx.m.events)} "
                           "(events are declared under 'events:')", st, "name")
        given = dict(st.args)
        for name_ in given:
            if name_ not in dict(event):
                raise self.ctx.err(f"event {st.event!r} has no parameter {name_!r} (it has "
                               f"{', '.join(n for n, _ in event) or 'none'})", st, "name")
        for pname, pkind in event:
            if pname not in given:
                raise self.ctx.err(f"emit {st.event}(...) must give {pname}=...", st)
            kind = self.kind_of(given[pname], scope)
            if not T.fits(kind, pkind):
                raise self.ctx.err(f"{pname} of event {st.event!r} must be {T.describe(pkind)}, not {T.describe(kind)}",
                               given[pname])
        return StmtNote(event=tuple(event), waits=self.ctx.analysis.waits_at(st))

    def visit_CallStmt(self, st, scope, notes):
        if self.is_proc_call(st.call):
            self.proc_call_kind(st.call, scope)
            return StmtNote(waits=self.ctx.analysis.waits_at(st))
        self.kind_of(st.call, scope)

    def visit_Return(self, st, scope, notes):
        if st.value is None:
            return None
        kind = self.kind_of(st.value, scope)
        owner = self.ctx._owner
        if owner is not None and not T.fits(kind, owner.returns):
            raise self.ctx.err(f"{subject(owner)} returns {T.describe(owner.returns)}, not {T.describe(kind)}", st.value)
        return StmtNote(kind)

    def visit_EndGame(self, st, scope, notes):
        if st.winners:
            self.kind_of(st.winners, scope, ("list:player", "the winners"))

    def visit_Log(self, st, scope, notes):
        to_kind = None
        if st.to is not None:
            to_kind = self.kind_of(st.to, scope)
            if not (T.fits(to_kind, "player") or T.fits(to_kind, "list:player")):
                raise self.ctx.err(f"'log to' needs a player or a list of players, not {T.describe(to_kind)}", st.to)
        text = st.text
        start = st.text_column or st.column + len('log "')
        if text.count("{") > MAX_LOG_PARTS:  # each part is parsed, checked and traced for secrecy at load
            raise self.ctx.err(f"this log text has {text.count('{'):,} {{...}} parts; a line has at most "
                           f"{MAX_LOG_PARTS} (split it, or log a list)", st)
        for piece in self.ctx.template(text, st, "the log text", start):  # (its nodes placed in the text)
            if piece.__class__ is not str:
                self.kind_of(piece[1], scope)
        return StmtNote(to_kind)

    def visit_If(self, st, scope, notes):
        for cond, body in st.branches:
            self.kind_of(cond, scope, ("bool", "the condition of 'if'"))
            self.block(body, scope, notes)
        if st.orelse:
            self.block(st.orelse, scope, notes)
        return StmtNote(waits=self.ctx.analysis.waits_at(st))

    def visit_While(self, st, scope, notes):
        if st.condition:
            self.kind_of(st.condition, scope, ("bool", "the condition of 'while'"))
        self.block(st.body, scope, notes)
        return StmtNote(waits=self.ctx.analysis.waits_at(st))

    def unpack(self, var, elem, node, what):
        """Bind a loop's or a menu entry's variables to an item of kind ``elem``; ``q, r`` takes a pair apart,
        so the item must be a tuple of exactly that many values, known at load."""
        if isinstance(var, str):
            return
        names = ", ".join(var)
        if len(set(var)) < len(var):
            raise self.ctx.err(f"'{what} {names} in' names a variable twice; give each part its own name", node)
        items = T.tuple_items(elem)
        if items is None:
            raise self.ctx.err(f"'{what} {names} in' takes each item apart into {len(var)} values, so it needs a list "
                           f"of pairs (or tuples) of a size known at load, such as product(xs, ys); this is "
                           f"{T.describe(T.list_of(elem))}", node)
        if len(items) != len(var):
            raise self.ctx.err(f"'{what} {names} in' takes each item apart into {len(var)} values, but each item "
                           f"of this list is {T.describe(elem)}, {len(items)} values: name {len(items)} variables",
                           node)
        reserved = self.reserved_names()
        for name in var:
            if name in reserved:
                raise self.ctx.err(f"{name!r} is a reserved name; pick another", node)

    def visit_For(self, st, scope, notes):
        kind = T.element(self.list_kind(st.iterable, scope, "what 'for' goes through"))
        self.unpack(st.var, kind, st, "for")
        scope.names.update(T.unpacked(st.var, kind))
        self.block(st.body, scope, notes)
        return StmtNote(kind, waits=self.ctx.analysis.waits_at(st))

    def visit_Repeat(self, st, scope, notes):
        self.kind_of(st.times, scope, ("int", "the count of 'repeat'"))
        self.block(st.body, scope, notes)
        return StmtNote(waits=self.ctx.analysis.waits_at(st))

    def visit_Show(self, st, scope, notes):
        kind = self.kind_of(st.what, scope)
        if kind not in ("card", "none", "zone") and not T.fits(kind, "list:card"):
            raise self.ctx.err(f"'show' shows a card, a list of cards or a zone, not {T.describe(kind)}", st.what)
        wkind = self.kind_of(st.to, scope)
        if wkind not in ("player", "none") and not T.fits(wkind, "list:player"):
            raise self.ctx.err(f"'show ... to' names a player or a list of players, not {T.describe(wkind)}", st.to)
        return StmtNote(kind)

    # ---------------------------------------------------------------- counters
    def holder(self, node, scope):
        """``marks(x)`` as a counter's place: (counter name, holder kind)."""
        spec = self.ctx.m.counters[node.func]
        name = node.func
        if len(node.args) != 1 or isinstance(node.args[0], tuple):
            raise self.ctx.err(f"{name}(...) takes one {' or '.join(spec.on)}", node)
        kind = self.kind_of(node.args[0], scope)
        self.holder_kind(name, spec, kind, node.args[0])
        return name

    def holder_kind(self, name, spec, kind, arg):
        """Refuse a counter's holder of a kind it is not counted on (located at the argument)."""
        if kind not in HOLDERS:
            if kind in (T.ANY, "none"):
                raise self.ctx.err(f"cannot tell whether this is a card, a space or a player, so {name}() cannot "
                               "find its count (give the variable a kind, e.g. card c)", arg)
            raise self.ctx.err(f"{name}() is counted on {_holders(spec.on)}, not on {T.describe(kind)}", arg)
        if kind not in spec.on:
            raise self.ctx.err(f"{name}() is counted on {_holders(spec.on)}, not on {kind}s "
                           f"(add {kind} to counters.{name}.on)", arg)

    def counter_assign_kind(self, st, scope):
        target = st.target
        if not self.ctx.counters.is_counter(target):
            raise self.ctx.err(f"only a counter can be changed this way ({target.func}() is not one of the "
                           f"counters: {', '.join(self.ctx.m.counters) or 'none are declared'})", target, "name")
        name = self.holder(target, scope)
        self.kind_of(st.value, scope, ("int", f"the number of {name}"))

    def counter_move_kind(self, st, scope):
        if isinstance(st, A.Move):
            source, dest, amount_node = st.what, st.dest, None
            if st.bottom:
                raise self.ctx.err("counts have no bottom; 'at bottom' is for cards", st)
        else:
            source, dest, amount_node = st.source, st.dest, st.amount
        for side in (source, dest):
            if not self.ctx.counters.is_counter(side):
                raise self.ctx.err("a count moves from one counter to another: move 2 of marks(a) to marks(b), or "
                               "all of them: move marks(a) to marks(b)", side)
        if source.func != dest.func:
            raise self.ctx.err(f"cannot move {source.func} into {dest.func}: a count moves within one counter", dest)
        name = self.holder(source, scope)
        self.holder(dest, scope)
        if amount_node is not None:
            self.kind_of(amount_node, scope, ("int", f"the number of {name}"))

    def visit_CounterMove(self, st, scope, notes):
        self.counter_move_kind(st, scope)
        return StmtNote("int", target="counter")

    # ---------------------------------------------------------------- asks and menus
    def options_notes(self, st, options_scope, scope, each):
        """What an ask binds (its name, and a one-plus-others pick's second name): its kind."""
        if st.rest is not None:  # one of X plus any number of Y (one_plus_any.py)
            return self.one_plus_any_notes(st, options_scope, scope, each)
        kind = self.list_kind(st.options, options_scope, "what is chosen among")
        elem = T.element(kind)
        if not T.showable(elem):
            raise self.ctx.err(f"players choose among cards, players, spaces, numbers, texts or lists of them; "
                           f"this is {T.describe(kind)}, which an action text cannot show", st.options)
        count = st.count
        if count == "one" and elem == "card":
            self.card_texts_fit(st)
        if count not in ("one", "any"):
            self.kind_of(count, options_scope, ("int", "how many to choose"))
            if isinstance(count, A.Const) and type(count.value) is int and count.value < 0:
                raise self.ctx.err(f"cannot choose {count.value} items; the count must be 0 or more", count)
        kind = elem if count == "one" else T.list_of(elem)
        kind = scope.names[st.name] = T.list_of(kind) if each else kind
        return kind

    def one_plus_any_notes(self, st, options_scope, scope, each):
        """``choose one of X plus any number of Y as a, b``: both lists of cards, two names; the kind of ``a``."""
        if st.count != "one":
            raise self.ctx.err("'choose ... plus any number of ...' chooses exactly one of the first list: "
                           "write 'choose one of X plus any number of Y'",
                           st.count if isinstance(st.count, A.Node) else st.options)
        if st.rest_name == st.name:
            raise self.ctx.err(f"the two names after 'as' must differ; both are {st.name!r}", st)
        k1 = self.list_kind(st.options, options_scope, "what one is chosen of")
        k2 = self.list_kind(st.rest, options_scope, "what any number are chosen of")
        for node, kind in ((st.options, k1), (st.rest, k2)):
            if T.element(kind) != "card":
                raise self.ctx.err(f"'choose one of X plus any number of Y' chooses cards; this is "
                               f"{T.describe(kind)}", node)
        one, rest = ("list:card", "list:list:card") if each else ("card", "list:card")
        scope.names[st.name], scope.names[st.rest_name] = one, rest
        return one

    def card_texts_fit(self, st) -> None:
        """A choice of one card reads each option as its verb and the card's name (decisions.one_card_builder): one
        that could be longer than a save keeps for an action (a card of 10,000 characters' name) is refused here."""
        prefix = f"{st.verb} " if st.verb else ""
        longest = max((len(prefix) + len(card) for card in self.ctx.m.card_names), default=0)
        if longest > MAX_ACTION_TEXT:
            raise self.ctx.err(f"an option of this choice could read {longest:,} characters (its text and the longest "
                               f"name of a card), more than the {MAX_ACTION_TEXT:,} a save keeps for one action; give "
                               "the card a shorter name", st.options)

    def visit_Ask(self, st, scope, notes):
        self.kind_of(st.player, scope, ("player", "who is asked"))
        new = st.name not in scope.names
        return StmtNote(self.options_notes(st, scope, scope, False), new, waits=True)

    def visit_AskEach(self, st, scope, notes):
        self.kind_of(st.players, scope, ("list:player", "who is asked"))
        inner = scope.child()
        inner.names[st.var] = "player"
        new = st.name not in scope.names
        return StmtNote(self.options_notes(st, inner, scope, True), new, waits=True)

    def visit_AskMenu(self, st, scope, notes):
        self.kind_of(st.player, scope, ("player", "who is asked"))
        built = any(opt.items is not None or "{" in opt.label for opt in st.options)
        seen = set()
        for opt in st.options:
            if opt.items is None:
                if opt.label in seen:
                    raise self.ctx.err(f"two options are called {opt.label!r}; each option needs its own text", opt)
                seen.add(opt.label)
                if opt.condition:
                    self.kind_of(opt.condition, scope, ("bool", "the condition of an option"))
                if built and "{" in opt.label:
                    self.label_notes(opt, scope)
                continue
            kind = self.list_kind(opt.items, scope, "what a menu entry goes through")
            elem = T.element(kind)
            if not T.showable(elem):
                raise self.ctx.err(f"a menu entry offers one option per item of a list of cards, players, spaces, "
                               f"numbers or texts; this is {T.describe(kind)}, which an action text cannot show",
                               opt.items)
            self.unpack(opt.var, elem, opt, "for")
            scope.names.update(T.unpacked(opt.var, elem))
            if opt.condition:
                self.kind_of(opt.condition, scope, ("bool", "the condition of an option"))
            self.label_notes(opt, scope)
        for opt in st.options:
            self.block(opt.body, scope, notes)
        return StmtNote(waits=True)

    def label_notes(self, opt, scope):
        """The ``{expression}`` s of an option's text: each one a value an action text can show."""
        start = opt.column + 1  # the text's first letter, after the quote
        for piece in self.ctx.template(opt.label, opt, "the option's text", start):  # (its nodes placed in the text)
            if piece.__class__ is str:
                continue
            j, node = piece
            here = A.Pass(line=opt.line, column=start + j + 1)
            kind = self.kind_of(node, scope)
            if not T.showable(kind):
                raise self.ctx.err(f"an option's text shows cards, players, spaces, numbers, texts or lists of them; "
                               f"{{{opt.label[j + 1:opt.label.index('}', j)]}}} is {T.describe(kind)}", here)


def _holders(on) -> str:
    return " and ".join(f"{h}s" for h in on)
