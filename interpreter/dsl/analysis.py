"""The analysis pass: names, kinds and shapes of an expression, worked out before it is lowered.

:meth:`ExpressionAnalysis.analyse` walks an expression's syntax tree (``ast.py`` nodes) once,
in its :class:`~interpreter.dsl.procedures.Scope`, and returns the annotated IR: a side
table ``{id(node): Note}`` with one :class:`Note` for every node of the tree.  All
the located :class:`CompileError` s of expressions come from here (the kind rules
themselves are :class:`~interpreter.dsl.check.ExpressionChecker`'s); the lowering
(``lower_expr.py``) only reads the notes and builds code.

A note says:

* ``kind``: the value's kind (``int``, ``card``, ``list:player``... see ``types.py``);
* ``ref``: for a name, ``game.x`` or ``x.attr``, what it refers to (a :class:`Ref`);
* ``shape``: the form the lowering picks: for an index ``table`` / ``zone`` / ``list``,
  for ``+`` ``join_lists`` / ``join_texts`` / ``arith``, for a call what it calls
  (``zone``, ``counter``, ``function``, ``quantity``, ``sort_by``, ``builtin``, or
  ``reduction`` for count/any/all of ``each ... where ...`` that builds no list);
* ``local``: the env key when the expression is exactly one local variable (a
  parameter inlined with a local as its argument included), else None;
* ``const``: the value when the expression is a constant of the rules (a literal, a
  parameter, a zone's index, an inlined constant argument, a folded ``2 + 3``), else
  :data:`NOT_CONSTANT`;
* ``reads``: whether the code built for it reads the game state (zones, variables,
  counters, the players, random numbers...; a builtin's own code as its record in
  ``builtins.py`` says), an inlined argument's code included (its note at the call).
  An expression over card variables that reads nothing else is *static over those
  cards*: the lowering makes a per-card table for it, as it makes a fixed list or
  checks a fixed choice at load, for nothing but this note;
* ``number``: the code built for it always gives a number, never none (a number
  constant, arithmetic, a count): an order comparison of two such needs no guard;
* ``cheap``: the code built for it is cheap to evaluate twice and has no effect (a
  constant, a local, a game variable): it may be written twice, as a test and as the
  value (a player's zone of a local is too: ``ExpressionLowering.repeatable`` asks its
  argument's note, which is rewritten where a function's body is lowered);
* ``bound``: for a call of a user function, procedure or quantity, the kinds its
  arguments are bound with (the argument's own kind, or the parameter's declared kind
  where the argument's is unknown or is a zone given for a list: it is passed as a
  copy of the zone's cards).

``local`` and ``const`` are what the code that takes a generated function rather
than a tree (counters, menus) asks about an expression, and what an inlined
function's body reads of its arguments.

The table is keyed by node identity and lives while its tree is lowered.  A user
function's body is analysed once, against its declared parameter kinds
(:meth:`ExpressionAnalysis.function_kind`); each place it is lowered rewrites the notes of
its parameter reads only (:meth:`ExpressionAnalysis.function_notes`): locals of its own env,
or aliases of an inlined call's arguments.  Statements are annotated by
:meth:`ExpressionAnalysis.waits_at`: whether running them may stop to wait for a player
(noted once per statement, once the loader knows which procedures may wait).  The checks of
statements, and their notes, are :class:`~interpreter.dsl.stmt_analysis.StatementAnalysis`'s (a
procedure's body walked once before it is lowered).
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from . import ast as A
from . import types as T
from .builtins import BUILTINS, NOT_CONSTANT, SIZES, Arg, BuiltinError
from .check import Ref  # noqa: F401 (Ref re-exported)
from ..runtime.limits import MAX_INT
from .static import fold_arith, is_cheap
from .procedures import CompileError, Scope
from .visitor import NodeVisitor


REDUCTIONS = ("count", "size", "any", "all")
STATE_NAMES = ("players", "player_count", "active")  # names read from the state (s.players, s.n, s.gv)


class Note:
    """What the analysis found out about one expression node (see the module docstring)."""

    __slots__ = ("kind", "ref", "shape", "local", "const", "bound", "reads", "number", "cheap")

    def __init__(self, kind, ref=None, shape=None, local=None, const=NOT_CONSTANT, bound=None, reads=False,
                 number=False, cheap=False):
        self.kind, self.ref, self.shape, self.local, self.const = kind, ref, shape, local, const
        self.bound, self.reads, self.number, self.cheap = bound, reads, number, cheap

    def reading(self) -> "Note":
        """This note, of an expression that reads the state."""
        return Note(self.kind, self.ref, self.shape, self.local, self.const, self.bound, True, self.number,
                    self.cheap)

    def __repr__(self):
        extra = "".join(f", {k}={getattr(self, k)!r}" for k in ("ref", "shape", "local", "bound")
                        if getattr(self, k) is not None) + (", reads" if self.reads else "")
        return f"Note({self.kind!r}{extra}{'' if self.const is NOT_CONSTANT else f', const={self.const!r}'})"


class BoundArg(NamedTuple):
    """An argument of a call as lowered (``ExpressionLowering.bound_args``), and of an inlined parameter
    (``Scope.aliases``): its code, the kind it is bound with, whether it reads the state, and what its
    note said of it: its env key when it is one local variable (else None), its value when it is a
    constant of the rules (else NOT_CONSTANT), whether its code may be written twice, whether it is
    always a number; and what its code does with card variables (a ``static.CardUses``, recorded
    where that code is placed).  An inlined parameter's note is made of these."""
    tree: ast.expr
    kind: str
    reads: bool
    key: str | None = None
    const: object = NOT_CONSTANT
    cheap: bool = False
    number: bool = False
    uses: object = None

    @property
    def fixed(self) -> bool:
        return self.const is not NOT_CONSTANT


class ExpressionAnalysis(NodeVisitor):
    """The analysis pass over expressions: checks each against the rules and notes what the lowering needs
    (kinds, references, constants, state reads).  Reached as ``ctx.analysis``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    # ---------------------------------------------------------------- entry points
    def analyse(self, node, scope: Scope, expect=None) -> dict:
        """The notes of the expression ``node`` in ``scope``; ``expect`` = (kind, what) also checks its kind
        (kind ``list``: a list or a zone)."""
        notes: dict = {}
        kind = self._a(node, scope, notes)
        if expect is not None:
            self._expect(node, kind, *expect)
        return notes

    def analyse_args(self, call: A.Call, params, scope: Scope, name: str) -> dict:
        """The notes of the arguments of a call of a user function, procedure or quantity (checked against
        ``params``); the call's own note has the kinds they are bound with (``bound``)."""
        notes: dict = {}
        notes[id(call)] = Note(T.ANY, bound=self._args(call, params, scope, name, notes))
        return notes

    def _expect(self, node, kind, expected, what):
        if expected == "list":
            if not T.is_list(kind) and kind != T.ANY and kind != "zone":
                raise self.ctx.err(f"{what} must be a list or a zone, not {T.describe(kind)}", node)
            return
        self.ctx.checker.check_kind(node, kind, expected, what)

    def _a(self, node, scope, notes) -> str:
        note = self.visit(node, scope, notes)
        notes[id(node)] = note
        return note.kind

    def unhandled(self, node):
        return self.ctx.err(f"{type(node).__name__} is not an expression", node, "syntax")

    def _sub(self, node, scope, notes, kind, what) -> str:
        k = self._a(node, scope, notes)
        self._expect(node, k, kind, what)
        return k

    @staticmethod
    def _reads(notes, *nodes) -> bool:
        """Does one of ``nodes`` (None: absent) read the state?"""
        return any(notes[id(n)].reads for n in nodes if n is not None)

    @staticmethod
    def _list_reads(notes, node) -> bool:
        """Does the list or zone ``node`` read the state, when read as a list (a zone's cards are)?"""
        note = notes[id(node)]
        return note.reads or note.kind == "zone"

    def _list(self, node, scope, notes, what) -> str:
        """A list or a zone: the kind of the list it gives (a zone gives its cards)."""
        k = self._sub(node, scope, notes, "list", what)
        return "list:card" if k == "zone" else k

    # ---------------------------------------------------------------- names and values
    def visit_Const(self, node, scope, notes):
        value = node.value
        if isinstance(value, str) and self.ctx.board is not None and value in self.ctx.board.space_set:
            return Note("space", const=value, cheap=True)
        if isinstance(value, str) and value in self.ctx.m.other_spaces:
            return Note("space")  # an error only if a game of that player count runs it
        return Note(T.kind_of_value(value), const=value, number=type(value) in (int, bool), cheap=True)

    def visit_Name(self, node, scope, notes):
        ref = self.ctx.checker.resolve_name(node, scope)
        if ref.what == "alias":  # an inlined parameter: the caller's argument tree, already lowered
            arg = ref.data  # (what the argument's code reads, is...: its note at the call)
            return Note(ref.kind, ref, local=arg.key, const=arg.const, reads=arg.reads, number=arg.number,
                        cheap=arg.cheap)
        if ref.what == "local":
            return Note(ref.kind, ref, local=ref.data, cheap=True)
        if ref.what in ("zone", "parameter"):
            return Note(ref.kind, ref, const=ref.data, number=type(ref.data) in (int, bool), cheap=True)
        return Note(ref.kind, ref, reads=ref.what in STATE_NAMES, cheap=ref.what == "active")

    def visit_Attr(self, node, scope, notes):
        ref = self.ctx.checker.game_attr(node, scope)
        if ref is not None:
            return Note(ref.kind, ref, reads=True, cheap=ref.what == "game_variable")
        ref = self.ctx.checker.resolve_attr(node, self._a(node.obj, scope, notes))
        return Note(ref.kind, ref, reads=ref.what == "player_variable" or self._reads(notes, node.obj))

    def visit_Index(self, node, scope, notes):
        kind = self._a(node.obj, scope, notes)
        key_kind = self._a(node.key, scope, notes)
        shape, vkind = self.ctx.checker.check_index(node, kind, key_kind)
        return Note(vkind, shape=shape, reads=shape == "zone" or self._reads(notes, node.obj, node.key))

    def each_inner(self, node, scope, notes):
        """The kind of an 'each' source's list, and the scope inside the 'each' (its variable bound)."""
        skind = self._list(node.source, scope, notes, "the list after 'in'")
        inner = scope.child()
        inner.names[node.var] = T.element(skind)
        inner.aliases.pop(node.var, None)
        inner.keys[node.var] = None  # its env key is numbered when it is lowered
        return skind, inner

    def visit_Each(self, node, scope, notes):
        skind, inner = self.each_inner(node, scope, notes)
        if node.where is not None:
            self._sub(node.where, inner, notes, "bool", "the condition after 'where'")
        reads = self._list_reads(notes, node.source) or self._reads(notes, node.where)
        if node.result is not None:
            kind = self._a(node.result, inner, notes)
            return Note(T.list_of(kind), reads=reads or notes[id(node.result)].reads)
        return Note(T.list_of(T.element(skind)), reads=reads)

    def visit_ListLit(self, node, scope, notes):
        kinds = [self._a(x, scope, notes) for x in node.items]
        return Note(self.ctx.checker.check_list(node.items, kinds), reads=self._reads(notes, *node.items))

    # ---------------------------------------------------------------- operators
    def visit_BinOp(self, node, scope, notes):
        lk = self._a(node.left, scope, notes)
        rk = self._a(node.right, scope, notes)
        shape, kind = self.ctx.checker.check_binop(node, lk, rk)
        if shape == "arith" and isinstance(node.left, A.Const) and isinstance(node.right, A.Const):
            op = node.op
            if op in ("//", "%") and node.right.value == 0:
                raise self.ctx.err("division by zero", node.right)
            v = fold_arith(op, node.left.value, node.right.value)
            if not -MAX_INT <= v <= MAX_INT:
                raise self.ctx.err(f"{node.left.value} {op} {node.right.value} is beyond the limit of numbers in rules "
                               "(-10^18 to 10^18)", node)
            if self.ctx.options.fold:
                return Note(kind, shape="folded", const=v, number=True)
        zones = shape == "join_lists" and "zone" in (lk, rk)  # a zone's cards: s.zones[z]
        return Note(kind, shape=shape, reads=zones or self._reads(notes, node.left, node.right), number=shape == "arith")

    def visit_Compare(self, node, scope, notes):
        op = node.op
        lk = self._a(node.left, scope, notes)
        if op in ("in", "not in"):
            rk = self._list(node.right, scope, notes, f"the right side of '{op}'")
            self.ctx.checker.check_membership(node, lk, rk)
            return Note("bool", reads=self._reads(notes, node.left) or self._list_reads(notes, node.right))
        else:
            rk = self._a(node.right, scope, notes)
            self.ctx.checker.check_compare(node, lk, rk)
        return Note("bool", reads=self._reads(notes, node.left, node.right))

    def visit_BoolOp(self, node, scope, notes):
        for x in node.items:
            self._sub(x, scope, notes, "bool", f"each side of '{node.op}'")
        return Note("bool", reads=self._reads(notes, *node.items))

    def visit_Not(self, node, scope, notes):
        self._sub(node.operand, scope, notes, "bool", "the value after 'not'")
        return Note("bool", reads=self._reads(notes, node.operand))

    def visit_Neg(self, node, scope, notes):
        self._sub(node.operand, scope, notes, "int", "the value after '-'")
        return Note("int", reads=self._reads(notes, node.operand))

    # ---------------------------------------------------------------- calls
    def visit_Call(self, node, scope, notes):
        what = self.ctx.checker.resolve_call(node, scope)
        return getattr(self, "call_" + what)(node, scope, notes)  # zone, counter, function, quantity...

    def call_zone(self, node, scope, notes):
        name = node.func
        spec = self.ctx.m.zones[name]
        if spec.per == "game":
            raise self.ctx.err(f"zone {name!r} is shared; write it without parentheses", node)
        if len(node.args) != 1:
            raise self.ctx.err(f"{name}(...) takes one {spec.per}", node)
        self._sub(node.args[0], scope, notes, spec.per, f"the argument of {name}()")
        return Note("zone", shape="zone", reads=self._reads(notes, node.args[0]))

    def call_counter(self, node, scope, notes):
        name = node.func
        spec = self.ctx.m.counters[name]
        if len(node.args) != 1 or isinstance(node.args[0], tuple):
            raise self.ctx.err(f"{name}(...) takes one {' or '.join(spec.on)}", node)
        self.ctx.stmt_analysis.holder_kind(name, spec, self._a(node.args[0], scope, notes), node.args[0])
        return Note("int", shape="counter", reads=True)

    def call_function(self, node, scope, notes):
        name = node.func
        func = self.ctx.m.functions[name]
        self.function_kind(func)
        bound = self._args(node, func.params, scope, name, notes)
        # inlined: its body's reads (its parameters are locals or aliases, which read nothing), and the
        # arguments'; else a call given the state
        inlined = self.ctx.options.inline and all(is_cheap(a) for a in node.args)
        reads = not inlined or func.reads or self._reads(notes, *node.args) \
            or self._copies(node, func.params, notes)
        # its body's code in place of the call where it is inlined (small enough: ExpressionLowering.function_call)
        number = inlined and func.notes[id(func.body)].number and self.ctx.exprs.small_enough(func)
        return Note(func.kind, shape="function", bound=bound, reads=reads, number=number)

    def call_quantity(self, node, scope, notes):
        name = node.func
        return Note("int", shape="quantity", bound=self._args(node, self.ctx.m.quantities[name].params, scope, name, notes),
                    reads=True)

    def call_sort_by(self, node, scope, notes):
        from .ordering import SORT_BY_FORM

        if len(node.args) != 1 or not isinstance(node.args[0], A.Each) or node.args[0].result is None:
            raise self.ctx.err(SORT_BY_FORM, node)
        each = node.args[0]
        skind, inner = self.each_inner(each, scope, notes)
        if each.where is not None:
            self._sub(each.where, inner, notes, "bool", "the condition after 'where'")
        self._a(each.result, inner, notes)
        reads = self._list_reads(notes, each.source) or self._reads(notes, each.where, each.result)
        notes[id(each)] = Note(T.list_of(T.element(skind)), reads=reads)
        return Note(T.list_of(T.element(skind)), shape="sort_by", reads=reads)

    def call_builtin(self, node, scope, notes):
        name = node.func
        if name in REDUCTIONS and len(node.args) == 1:  # count(each c in X where ...): no list is built
            arg = node.args[0]
            if isinstance(arg, A.Each) and arg.where is not None and arg.result is None or self.filtered(arg, scope):
                self._a(arg, scope, notes)
                return Note("int" if name in ("count", "size") else "bool", shape="reduction",
                            reads=self.reduction_reads(arg, notes), number=name in ("count", "size"))
        args = []
        for a in node.args:
            if isinstance(a, tuple):
                raise self.ctx.err(f"{name}() takes no named arguments", node)
            args.append(self._a(a, scope, notes))
        kind, reads = self.builtin_kind(node, args, notes)
        return Note(kind, shape="builtin", reads=reads or self._reads(notes, *node.args), number=name in SIZES)

    def reduction_reads(self, arg, notes) -> bool:
        """Does count/any/all of ``arg`` (an 'each ... where ...', or a function that is one) read the state?"""
        if isinstance(arg, A.Each):
            return self._list_reads(notes, arg.source) or self._reads(notes, arg.where)
        func = self.ctx.m.functions[arg.func]  # its body, its parameters aliases of the arguments
        return func.reads or self._reads(notes, *arg.args) or self._copies(arg, func.params, notes)

    @staticmethod
    def _copies(call, params, notes) -> bool:
        """Is a zone given for a list parameter of ``call`` (its cards copied from the state)?"""
        return any(notes[id(a)].kind == "zone" and T.is_list(pkind) for a, (_, pkind) in zip(call.args, params))

    def filtered(self, node, scope) -> bool:
        """Is ``node`` a call of a user function whose body is 'each ... where ...', inlined when lowered
        (see ``ExpressionLowering.filtered_call``)?"""
        if not self.ctx.options.inline or not isinstance(node, A.Call) or node.func not in self.ctx.m.functions \
                or node.func in scope.names:
            return False
        body = self.ctx.m.functions[node.func].body
        return isinstance(body, A.Each) and body.where is not None and body.result is None \
            and all(is_cheap(a) for a in node.args)

    def _args(self, node, params, scope, name, notes) -> tuple:
        """Check the arguments of a call against ``params``: the kinds they are bound with."""
        out = []
        for (pname, pkind), arg in zip(params, self.ctx.checker.check_args(node, params, name)):
            kind = self._a(arg, scope, notes)
            self.ctx.checker.check_arg(arg, kind, pname, pkind, name)
            # a zone given for a list is passed as a copy of its cards: the parameter holds a list
            out.append(pkind if kind == T.ANY or kind == "zone" and T.is_list(pkind) else kind)
        return tuple(out)

    def function_kind(self, func):
        """Analyse a user function's body once, against its declared parameter kinds: its result's kind.

        The body's notes are kept (``func.notes``), each parameter read as an alias of a placeholder;
        :meth:`function_notes` rewrites those reads for each place the body is lowered."""
        if func.analysed:
            return func.kind
        if func.compiling:
            raise self.ctx.err(f"function {func.name!r} calls itself; functions cannot be recursive", None)
        func.compiling = True
        saved = self.ctx.where
        self.ctx.where = func.where
        try:
            params = {n: BoundArg(ast.Name(n, ast.Load()), k, False) for n, k in func.params}  # placeholders
            notes = self.analyse(func.body, Scope(dict(func.params), None, params))
        except CompileError as exc:
            if exc.node is not None and not getattr(exc, "located", False):
                exc.where = func.where
                exc.located = True
            raise
        finally:
            self.ctx.where = saved
            func.compiling = False
        note = notes[id(func.body)]
        func.kind, func.reads, func.notes, func.analysed = note.kind, note.reads, notes, True
        func.param_reads = [(key, n.ref.data[0].id) for key, n in notes.items()  # (its aliases are the parameters)
                            if n.ref is not None and n.ref.what == "alias"]
        func.param_readers = _readers(func.body, dict(func.param_reads))
        return func.kind

    def function_notes(self, func, aliases=None) -> dict:
        """The notes of a function's body (analysed by :meth:`function_kind`) where it is lowered: each
        read of a parameter is a local of the function's own env (``aliases`` None), or, where the call
        is inlined, an alias of the caller's argument (``aliases``: parameter -> (tree, bound kind, whether
        it reads the state)).  Where an argument reads the state, so does every part of the body that
        reads its parameter."""
        notes = dict(func.notes)
        kinds = dict(func.params)
        for key, name in func.param_reads:
            if aliases is None:
                notes[key] = Note(kinds[name], Ref("local", kinds[name], name), local=name, cheap=True)
            else:  # the parameter's declared kind, as the body was analysed with (the argument fits it)
                arg, kind = aliases[name]._replace(kind=kinds[name]), kinds[name]
                notes[key] = Note(kind, Ref("alias", kind, arg), local=arg.key, const=arg.const, reads=arg.reads,
                                  number=arg.number, cheap=arg.cheap)
        for name, readers in func.param_readers.items():
            if aliases is not None and aliases[name][2]:
                for key in readers:
                    notes[key] = notes[key].reading()
        return notes

    def builtin_kind(self, node, kinds, notes) -> tuple:
        """(the kind of a builtin's result, whether its own code reads the state): its record's rules
        (``builtins.py``)."""
        # What the rules may look at: the kinds, the constants, a quoted text and a property's name
        # (a direction, a table of every card); the same call of the same kinds has the same answer.
        consts = tuple(notes[id(a)].const for a in node.args)
        key = (node.func, tuple(kinds), consts, tuple(getattr(a, "name", None) for a in node.args))
        cache = self.ctx.builtin_kinds
        try:
            found = cache.get(key)
        except TypeError:  # a constant list or table: not remembered
            key = found = None
        if found is not None:
            return found
        record = BUILTINS[node.func]
        try:
            kind = record.result(self.ctx, [Arg(k, a, const) for a, k, const in zip(node.args, kinds, consts)])
        except BuiltinError as exc:
            raise self.ctx.err(str(exc), exc.node or node) from None
        found = kind, record.reads(tuple(kinds))
        if key is not None:
            cache[key] = found
        return found

    # ---------------------------------------------------------------- statements
    def waits(self, stmts) -> bool:
        """Can running these statements stop to wait for a player?"""
        return any(self.waits_at(st) for st in stmts)

    def waits_at(self, st) -> bool:
        """Can running the statement ``st`` stop to wait for a player (an ask, or a call or an event
        into a procedure that may)?  Noted once per statement: asked while code is laid out, once
        the procedures that may wait are known."""
        notes = self.ctx._wait_notes
        found = notes.get(id(st))
        if found is None or found[0] is not st:
            found = notes[id(st)] = (st, self._waits(st, self.waits))
        return found[1]

    def suspends(self, stmts) -> bool:
        """:meth:`waits` for the loader's fixed point over procedures (``Builder.resolve_suspension``):
        their flags still change, so nothing is noted."""
        return any(self._waits(st, self.suspends) for st in stmts)

    def _waits(self, st, blocks) -> bool:
        m = self.ctx.m
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
            return any(blocks(b) for _, b in st.branches) or blocks(st.orelse)
        if isinstance(st, (A.While, A.For, A.Repeat)):
            return blocks(st.body)
        return False


def _readers(body, reads: dict) -> dict:
    """Parameter -> the ids of the nodes of ``body`` whose code reads it (``reads``: id of a parameter's
    read -> the parameter): the parts that read the state where the argument does."""
    found: dict = {name: set() for name in reads.values()}

    def walk(item) -> set:
        if isinstance(item, tuple):
            return set().union(*map(walk, item)) if item else set()
        if not isinstance(item, A.Node):
            return set()
        names = {reads[id(item)]} if id(item) in reads else set()
        for field, value in item.__dict__.items():
            if field not in ("line", "column"):
                names |= walk(value)
        for name in names:
            found[name].add(id(item))
        return names
    walk(body)
    return found
