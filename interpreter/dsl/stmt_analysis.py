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
* ``waits``: whether the statement may stop to wait for a player (``Analysis.waits_at``).
"""

from __future__ import annotations

from . import ast as A
from . import types as T
from .inline import statements
from .returns import check_returns, subject
from ..runtime.limits import MAX_LOG_PARTS
from .procedures import Scope, suggest


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


class StatementAnalysis:
    """Mixin of :class:`interpreter.dsl.analysis.Analysis` (uses its ``analyse``, ``analyse_args``, ``err``, ``m``)."""

    # ---------------------------------------------------------------- entry points
    def statement_notes(self, proc) -> dict:
        """The notes of a procedure's statements (worked out once, against its declared parameter kinds)."""
        notes = getattr(proc, "stmt_notes", None)
        if notes is not None:
            return notes
        saved = self.where, self._owner
        self.where, self._owner = proc.where, proc  # (the owner: whose kind a 'return' gives)
        notes = {}
        try:
            self.st_block(proc.body, Scope(dict(proc.params), proc), notes)
            check_returns(proc, notes)  # every path gives the declared result (returns.py)
        finally:
            self.where, self._owner = saved
        proc.stmt_notes = notes
        all_notes = self._stmt_notes
        for st in statements(proc.body):
            all_notes[id(st)] = (st, notes[id(st)])
        return notes

    def stmt_note(self, st):
        """The note of a statement analysed by :meth:`statement_notes` (None: not analysed)."""
        found = self._stmt_notes.get(id(st))
        return found[1] if found is not None and found[0] is st else None

    def analysed(self, node, scope, expect=None) -> dict:
        """``analyse``, answered from the statement analysis when the expression is lowered where it was
        analysed (in its procedure's own code: same names, same env keys), so it is analysed once."""
        found = self._expr_notes.get(id(node))
        if found is not None and found[0] is node and found[1] is scope.proc and not self.inlining \
                and len(self.splicing) == 1:
            return found[2]
        return self.analyse(node, scope, expect)

    def analysed_args(self, call, params, scope, name) -> dict:
        """``analyse_args``, answered from the statement analysis like :meth:`analysed`."""
        found = self._expr_notes.get(id(call))
        if found is not None and found[0] is call and found[1] is scope.proc and not self.inlining \
                and len(self.splicing) == 1:
            return found[2]
        return self.analyse_args(call, params, scope, name)

    def st_block(self, stmts, scope, notes):
        for st in stmts:
            note = getattr(self, "st_" + type(st).__name__)(st, scope, notes)
            notes[id(st)] = note if note is not None else StmtNote()

    # ---------------------------------------------------------------- helpers
    def st_kind(self, node, scope, expect=None):
        notes = self.analyse(node, scope, expect)
        self._expr_notes[id(node)] = (node, self._owner, notes)
        return notes[id(node)].kind

    def st_list(self, node, scope, what):
        kind = self.st_kind(node, scope, ("list", what))
        return "list:card" if kind == "zone" else kind

    def reserved_names(self):
        return set(RESERVED) | set(self.m.zones) | set(self.m.params)

    def st_rebind(self, name, had, kind, node):
        """The kind of a variable given a value of ``kind`` after values of ``had``; a clash is an error."""
        joined = T.unify(had, kind)
        if joined is None:
            raise self.err(f"{name!r} holds {T.describe(had)}; it cannot also hold {T.describe(kind)} "
                           "(use another variable)", node)
        return joined

    def st_proc_call(self, call, scope):
        """A call of a procedure as a statement's value: its arguments analysed; the kind it returns."""
        proc = self.m.procedures[call.func]
        notes = self.analyse_args(call, proc.params, scope, call.func)
        self._expr_notes[id(call)] = (call, self._owner, notes)
        return proc.returns

    def is_proc_call(self, node) -> bool:
        return isinstance(node, A.Call) and node.func in self.m.procedures

    # ---------------------------------------------------------------- statements
    def st_Pass(self, st, scope, notes):
        return None

    st_Break = st_Continue = st_Pass

    def st_Let(self, st, scope, notes):
        new = st.name not in scope.names
        if self.is_proc_call(st.value):
            kind = scope.names[st.name] = self.st_proc_call(st.value, scope)
            return StmtNote(kind, new, waits=self.waits_at(st))
        kind = self.st_kind(st.value, scope)
        if kind == "zone":
            kind = "list:card"
        if st.name in self.reserved_names():
            raise self.err(f"{st.name!r} is a reserved name; pick another", st, "name")
        prev = scope.names.get(st.name)
        kind = scope.names[st.name] = kind if prev is None else self.st_rebind(st.name, prev, kind, st.value)
        return StmtNote(kind, new)

    def st_Assign(self, st, scope, notes):
        target = st.target
        if isinstance(target, A.Call):  # marks(x) += n
            self.st_counter_assign(st, scope)
            return StmtNote("int", target="counter")
        if self.is_proc_call(st.value) and self.waits_at(st):  # a procedure that may wait: its own instruction
            return self.st_waiting_assign(st, scope)
        if self.is_proc_call(st.value) and st.op == "=":
            vkind = self.st_proc_call(st.value, scope)
        else:
            vkind = self.st_kind(st.value, scope)
        if vkind == "zone":
            vkind = "list:card"
        op = st.op
        if op != "=" and not T.fits(vkind, "int"):
            raise self.err(f"'{op}' needs a number, not {T.describe(vkind)}", st.value)
        if isinstance(target, A.Name):
            return self.st_local_assign(st, scope, vkind)
        if isinstance(target.obj, A.Name) and target.obj.name == "game" and "game" not in scope.names:
            return self.st_game_assign(st, vkind)
        return self.st_player_assign(st, scope, vkind)

    def st_waiting_assign(self, st, scope):
        """``x = p(...)`` of a procedure that may wait: only to a local, with '='."""
        target = st.target
        if not isinstance(target, A.Name) or st.op != "=":
            raise self.err("a procedure that asks players can only be assigned to a local variable with '='", st)
        if target.name not in scope.names:
            raise self.err(f"{target.name!r} is not a variable here; declare it with 'let'", target, "name")
        self.st_proc_call(st.value, scope)
        return StmtNote(scope.names[target.name], target="local", waits=True)

    def st_local_assign(self, st, scope, vkind):
        name_ = st.target.name
        if name_ not in scope.names:
            raise self.err(f"{name_!r} is not a variable here; declare it first with 'let {name_} = ...'"
                           + suggest(name_, scope.names), st.target, "name")
        if not T.fits(vkind, scope.names[name_]):
            scope.names[name_] = self.st_rebind(name_, scope.names[name_], vkind, st.value)
        return StmtNote(scope.names[name_], target="local")

    def st_game_assign(self, st, vkind):
        attr = st.target.name
        if attr not in self.m.gvars:
            raise self.err(f"unknown game variable {attr!r}{suggest(attr, self.m.gvars)}", st.target, "name")
        if not T.fits(vkind, self.m.gvars[attr]):
            raise self.err(f"game.{attr} holds {T.describe(self.m.gvars[attr])}, not {T.describe(vkind)}",
                           st.value)
        return StmtNote(vkind, target="game")

    def st_player_assign(self, st, scope, vkind):
        target = st.target
        okind = self.st_kind(target.obj, scope)
        attr = target.name
        if okind != "player":
            what = "card properties are fixed; keep changing values in player or game variables" \
                if okind == "card" else f"cannot assign to .{attr} of {T.describe(okind)}"
            raise self.err(what, target)
        if attr not in self.m.pvars:
            raise self.err(f"players have no variable {attr!r}{suggest(attr, self.m.pvars)}", target, "name")
        if not T.fits(vkind, self.m.pvars[attr]):
            raise self.err(f"{attr} holds {T.describe(self.m.pvars[attr])}, not {T.describe(vkind)}", st.value)
        return StmtNote(vkind, target="player")

    def st_Move(self, st, scope, notes):
        if self.is_counter(st.what) or self.is_counter(st.dest):  # move marks(a) to marks(b): all of them
            self.st_counter_move(st, scope)
            return StmtNote("int", target="counter")
        self.st_kind(st.dest, scope, ("zone", "the destination of 'move'"))
        kind = self.st_kind(st.what, scope)
        if kind not in ("card", "none", "zone") and not T.fits(kind, "list:card"):
            raise self.err(f"'move' moves a card, a list of cards or a whole zone, not {T.describe(kind)}", st.what)
        return StmtNote(kind)

    def st_Shuffle(self, st, scope, notes):
        self.st_kind(st.zone, scope, ("zone", "what 'shuffle' shuffles"))

    def st_Emit(self, st, scope, notes):
        event = self.m.events.get(st.event)
        if event is None:
            raise self.err(f"unknown event {st.event!r}{suggest(st.event, self.m.events)} "
                           "(events are declared under 'events:')", st, "name")
        given = dict(st.args)
        for name_ in given:
            if name_ not in dict(event):
                raise self.err(f"event {st.event!r} has no parameter {name_!r} (it has "
                               f"{', '.join(n for n, _ in event) or 'none'})", st, "name")
        for pname, pkind in event:
            if pname not in given:
                raise self.err(f"emit {st.event}(...) must give {pname}=...", st)
            kind = self.st_kind(given[pname], scope)
            if not T.fits(kind, pkind):
                raise self.err(f"{pname} of event {st.event!r} must be {T.describe(pkind)}, not {T.describe(kind)}",
                               given[pname])
        return StmtNote(event=tuple(event), waits=self.waits_at(st))

    def st_CallStmt(self, st, scope, notes):
        if self.is_proc_call(st.call):
            self.st_proc_call(st.call, scope)
            return StmtNote(waits=self.waits_at(st))
        self.st_kind(st.call, scope)

    def st_Return(self, st, scope, notes):
        if st.value is None:
            return None
        kind = self.st_kind(st.value, scope)
        owner = self._owner
        if owner is not None and not T.fits(kind, owner.returns):
            raise self.err(f"{subject(owner)} returns {T.describe(owner.returns)}, not {T.describe(kind)}", st.value)
        return StmtNote(kind)

    def st_EndGame(self, st, scope, notes):
        if st.winners:
            self.st_kind(st.winners, scope, ("list:player", "the winners"))

    def st_Log(self, st, scope, notes):
        to_kind = None
        if st.to is not None:
            to_kind = self.st_kind(st.to, scope)
            if not (T.fits(to_kind, "player") or T.fits(to_kind, "list:player")):
                raise self.err(f"'log to' needs a player or a list of players, not {T.describe(to_kind)}", st.to)
        text = st.text
        start = st.text_column or st.column + len('log "')
        if text.count("{") > MAX_LOG_PARTS:  # each part is parsed, checked and traced for secrecy at load
            raise self.err(f"this log text has {text.count('{'):,} {{...}} parts; a line has at most "
                           f"{MAX_LOG_PARTS} (split it, or log a list)", st)
        for piece in self.template(text, st, "the log text", start):  # (its nodes placed in the text)
            if piece.__class__ is not str:
                self.st_kind(piece[1], scope)
        return StmtNote(to_kind)

    def st_If(self, st, scope, notes):
        for cond, body in st.branches:
            self.st_kind(cond, scope, ("bool", "the condition of 'if'"))
            self.st_block(body, scope, notes)
        if st.orelse:
            self.st_block(st.orelse, scope, notes)
        return StmtNote(waits=self.waits_at(st))

    def st_While(self, st, scope, notes):
        if st.condition:
            self.st_kind(st.condition, scope, ("bool", "the condition of 'while'"))
        self.st_block(st.body, scope, notes)
        return StmtNote(waits=self.waits_at(st))

    def st_unpack(self, var, elem, node, what):
        """Bind a loop's or a menu entry's variables to an item of kind ``elem``; ``q, r`` takes a pair apart,
        so the item must be a tuple of exactly that many values, known at load."""
        if isinstance(var, str):
            return
        names = ", ".join(var)
        if len(set(var)) < len(var):
            raise self.err(f"'{what} {names} in' names a variable twice; give each part its own name", node)
        items = T.tuple_items(elem)
        if items is None:
            raise self.err(f"'{what} {names} in' takes each item apart into {len(var)} values, so it needs a list "
                           f"of pairs (or tuples) of a size known at load, such as product(xs, ys); this is "
                           f"{T.describe(T.list_of(elem))}", node)
        if len(items) != len(var):
            raise self.err(f"'{what} {names} in' takes each item apart into {len(var)} values, but each item "
                           f"of this list is {T.describe(elem)}, {len(items)} values: name {len(items)} variables",
                           node)
        reserved = self.reserved_names()
        for name in var:
            if name in reserved:
                raise self.err(f"{name!r} is a reserved name; pick another", node)

    def st_For(self, st, scope, notes):
        kind = T.element(self.st_list(st.iterable, scope, "what 'for' goes through"))
        self.st_unpack(st.var, kind, st, "for")
        scope.names.update(T.unpacked(st.var, kind))
        self.st_block(st.body, scope, notes)
        return StmtNote(kind, waits=self.waits_at(st))

    def st_Repeat(self, st, scope, notes):
        self.st_kind(st.times, scope, ("int", "the count of 'repeat'"))
        self.st_block(st.body, scope, notes)
        return StmtNote(waits=self.waits_at(st))

    def st_Show(self, st, scope, notes):
        kind = self.st_kind(st.what, scope)
        if kind not in ("card", "none", "zone") and not T.fits(kind, "list:card"):
            raise self.err(f"'show' shows a card, a list of cards or a zone, not {T.describe(kind)}", st.what)
        wkind = self.st_kind(st.to, scope)
        if wkind not in ("player", "none") and not T.fits(wkind, "list:player"):
            raise self.err(f"'show ... to' names a player or a list of players, not {T.describe(wkind)}", st.to)
        return StmtNote(kind)

    # ---------------------------------------------------------------- counters
    def st_holder(self, node, scope):
        """``marks(x)`` as a counter's place: (counter name, holder kind)."""
        spec = self.m.counters[node.func]
        name = node.func
        if len(node.args) != 1 or isinstance(node.args[0], tuple):
            raise self.err(f"{name}(...) takes one {' or '.join(spec.on)}", node)
        kind = self.st_kind(node.args[0], scope)
        self.holder_kind(name, spec, kind, node.args[0])
        return name

    def holder_kind(self, name, spec, kind, arg):
        """Refuse a counter's holder of a kind it is not counted on (located at the argument)."""
        if kind not in HOLDERS:
            if kind in (T.ANY, "none"):
                raise self.err(f"cannot tell whether this is a card, a space or a player, so {name}() cannot "
                               "find its count (give the variable a kind, e.g. card c)", arg)
            raise self.err(f"{name}() is counted on {_holders(spec.on)}, not on {T.describe(kind)}", arg)
        if kind not in spec.on:
            raise self.err(f"{name}() is counted on {_holders(spec.on)}, not on {kind}s "
                           f"(add {kind} to counters.{name}.on)", arg)

    def st_counter_assign(self, st, scope):
        target = st.target
        if not self.is_counter(target):
            raise self.err(f"only a counter can be changed this way ({target.func}() is not one of the "
                           f"counters: {', '.join(self.m.counters) or 'none are declared'})", target, "name")
        name = self.st_holder(target, scope)
        self.st_kind(st.value, scope, ("int", f"the number of {name}"))

    def st_counter_move(self, st, scope):
        if isinstance(st, A.Move):
            source, dest, amount_node = st.what, st.dest, None
            if st.bottom:
                raise self.err("counts have no bottom; 'at bottom' is for cards", st)
        else:
            source, dest, amount_node = st.source, st.dest, st.amount
        for side in (source, dest):
            if not self.is_counter(side):
                raise self.err("a count moves from one counter to another: move 2 of marks(a) to marks(b), or "
                               "all of them: move marks(a) to marks(b)", side)
        if source.func != dest.func:
            raise self.err(f"cannot move {source.func} into {dest.func}: a count moves within one counter", dest)
        name = self.st_holder(source, scope)
        self.st_holder(dest, scope)
        if amount_node is not None:
            self.st_kind(amount_node, scope, ("int", f"the number of {name}"))

    def st_CounterMove(self, st, scope, notes):
        self.st_counter_move(st, scope)
        return StmtNote("int", target="counter")

    # ---------------------------------------------------------------- asks and menus
    def st_options(self, st, options_scope, scope, each):
        """What an ask binds (its name, and a one-plus-others pick's second name): its kind."""
        if st.rest is not None:  # one of X plus any number of Y (one_plus_any.py)
            if st.count != "one":
                raise self.err("'choose ... plus any number of ...' chooses exactly one of the first list: "
                               "write 'choose one of X plus any number of Y'",
                               st.count if isinstance(st.count, A.Node) else st.options)
            if st.rest_name == st.name:
                raise self.err(f"the two names after 'as' must differ; both are {st.name!r}", st)
            k1 = self.st_list(st.options, options_scope, "what one is chosen of")
            k2 = self.st_list(st.rest, options_scope, "what any number are chosen of")
            for node, kind in ((st.options, k1), (st.rest, k2)):
                if T.element(kind) != "card":
                    raise self.err(f"'choose one of X plus any number of Y' chooses cards; this is "
                                   f"{T.describe(kind)}", node)
            one, rest = ("list:card", "list:list:card") if each else ("card", "list:card")
            scope.names[st.name], scope.names[st.rest_name] = one, rest
            return one
        kind = self.st_list(st.options, options_scope, "what is chosen among")
        elem = T.element(kind)
        if not T.showable(elem):
            raise self.err(f"players choose among cards, players, spaces, numbers, texts or lists of them; "
                           f"this is {T.describe(kind)}, which an action text cannot show", st.options)
        count = st.count
        if count not in ("one", "any"):
            self.st_kind(count, options_scope, ("int", "how many to choose"))
            if isinstance(count, A.Const) and type(count.value) is int and count.value < 0:
                raise self.err(f"cannot choose {count.value} items; the count must be 0 or more", count)
        kind = elem if count == "one" else T.list_of(elem)
        kind = scope.names[st.name] = T.list_of(kind) if each else kind
        return kind

    def st_Ask(self, st, scope, notes):
        self.st_kind(st.player, scope, ("player", "who is asked"))
        new = st.name not in scope.names
        return StmtNote(self.st_options(st, scope, scope, False), new, waits=True)

    def st_AskEach(self, st, scope, notes):
        self.st_kind(st.players, scope, ("list:player", "who is asked"))
        inner = scope.child()
        inner.names[st.var] = "player"
        new = st.name not in scope.names
        return StmtNote(self.st_options(st, inner, scope, True), new, waits=True)

    def st_AskMenu(self, st, scope, notes):
        self.st_kind(st.player, scope, ("player", "who is asked"))
        built = any(opt.items is not None or "{" in opt.label for opt in st.options)
        seen = set()
        for opt in st.options:
            if opt.items is None:
                if opt.label in seen:
                    raise self.err(f"two options are called {opt.label!r}; each option needs its own text", opt)
                seen.add(opt.label)
                if opt.condition:
                    self.st_kind(opt.condition, scope, ("bool", "the condition of an option"))
                if built and "{" in opt.label:
                    self.st_label(opt, scope)
                continue
            kind = self.st_list(opt.items, scope, "what a menu entry goes through")
            elem = T.element(kind)
            if not T.showable(elem):
                raise self.err(f"a menu entry offers one option per item of a list of cards, players, spaces, "
                               f"numbers or texts; this is {T.describe(kind)}, which an action text cannot show",
                               opt.items)
            self.st_unpack(opt.var, elem, opt, "for")
            scope.names.update(T.unpacked(opt.var, elem))
            if opt.condition:
                self.st_kind(opt.condition, scope, ("bool", "the condition of an option"))
            self.st_label(opt, scope)
        for opt in st.options:
            self.st_block(opt.body, scope, notes)
        return StmtNote(waits=True)

    def st_label(self, opt, scope):
        """The ``{expression}`` s of an option's text: each one a value an action text can show."""
        start = opt.column + 1  # the text's first letter, after the quote
        for piece in self.template(opt.label, opt, "the option's text", start):  # (its nodes placed in the text)
            if piece.__class__ is str:
                continue
            j, node = piece
            here = A.Pass(line=opt.line, column=start + j + 1)
            kind = self.st_kind(node, scope)
            if not T.showable(kind):
                raise self.err(f"an option's text shows cards, players, spaces, numbers, texts or lists of them; "
                               f"{{{opt.label[j + 1:opt.label.index('}', j)]}}} is {T.describe(kind)}", here)


def _holders(on) -> str:
    return " and ".join(f"{h}s" for h in on)
