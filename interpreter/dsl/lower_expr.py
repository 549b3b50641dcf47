"""Lower expressions to Python ``ast`` over ``s`` (the state) and ``e`` (the frame's locals).

:meth:`ExpressionLowering.expr_code` is the seam: it returns an ``ast.expr`` and
the expression's kind.  A local read is ``e['c']``, a card property of a local
``K[3][e['c']]`` (guarded against a none card), a comparison with a number
``... < 3``; work that needs a ``try`` or a loop in C is one call of a run-time
helper of :mod:`interpreter.runtime.values`, passed the author's location for
its errors.  :meth:`ExpressionLowering.expr` compiles the same tree into a
function ``f(s, e)`` (one per expression, named after the definition's file and
line) for code that is not generated yet.

Names are resolved and kinds checked before any code is built, by the analysis pass
(:mod:`interpreter.dsl.analysis`): :meth:`ExpressionLowering.expr_code` analyses an
expression it meets for the first time, then each ``x_`` method reads its node's
:class:`~interpreter.dsl.analysis.Note` (kind, what a name refers to, which form to
build) and checks nothing.  Optimisations are decided here on the trees: per-card
tables for conditions over fixed card properties, constant folding, inlining of
small functions (their parameters bound to the caller's argument trees, a body
analysed again in the scope of those aliases).

Generated expression trees may contain comprehensions whose target is a local
(``[... for e['c.4'] in ...]``), so the loop variable lives in ``e`` as the
rules expect, and never contain assignment expressions (walrus): a tree can be
placed anywhere an expression can, even in a comprehension's iterable.
"""

from __future__ import annotations

import ast

from . import ast as A
from .analysis import NOT_CONSTANT, BoundArg
from ..runtime import values as V
from . import types as T
from .builtins import BUILTINS, Arg, BuiltinError
from .pyast import local, name, py
from ..runtime.control import TOO_LONG_CALLS
from .static import CardUses, LoadBudget, is_cheap
from .procedures import Func, Scope
from .visitor import NodeVisitor


MAX_INLINED = 5_000  # syntax nodes a function call may inline, its own calls inlined too (see inline_size)
NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "in": "not in", "not in": "in"}
AST_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE}


def s_():
    return ast.Name("s", ast.Load())


class ExpressionLowering(NodeVisitor):
    """The lowering pass of expressions into Python expressions, from their analysis notes.
    Reached as ``ctx.exprs``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    # ---------------------------------------------------------------- the seams
    def expr_code(self, node, scope: Scope, expect=None):
        """An expression as a Python ``ast`` expression over ``s`` and ``e``, and its kind.

        ``expect`` = (kind, what): the analysis also checks the expression's kind (see ``ExpressionAnalysis.analyse``)."""
        notes = self.ctx.notes
        if notes is not None and id(node) in notes:  # a part of the expression being lowered: analysed with it
            return self.lower_node(node, scope)
        self.ctx.notes = self.ctx.stmt_analysis.analysed(node, scope, expect)
        try:
            return self.lower_node(node, scope)
        finally:
            self.ctx.notes = notes

    def expr_note(self, node, scope: Scope, expect=None):
        """(tree, kind, note): :meth:`expr_code`, and the expression's :class:`~interpreter.dsl.analysis.Note`
        (whether it is one local variable, a constant...)."""
        notes = self.ctx.notes
        if notes is not None and id(node) in notes:
            return (*self.lower_node(node, scope), notes[id(node)])
        self.ctx.notes = found = self.ctx.stmt_analysis.analysed(node, scope, expect)
        try:
            return (*self.lower_node(node, scope), found[id(node)])
        finally:
            self.ctx.notes = notes

    def lower_node(self, node, scope: Scope):
        """Build the code of an analysed expression node (its note is in ``self.notes``)."""
        return self.stamped(node, *self.visit(node, scope))

    def stamped(self, node, tree, kind):
        """(tree, kind), ``tree`` given the position of ``node`` unless it has one (its parts without one take
        it: codegen.located)."""
        if node.line and getattr(tree, "lineno", None) is None:
            _, tree.lineno, tree.col_offset = self.position(node)
            tree.end_lineno, tree.end_col_offset = tree.lineno, tree.col_offset
        return tree, kind

    def expr(self, node, scope: Scope):
        """Compile an expression to a generated function ``f(s, e)``: returns (function, kind)."""
        tree, kind = self.expr_code(node, scope)
        return self.function_of(tree, node), kind

    def function_of(self, tree, node, what: str = "expression", first=()):
        """A generated function returning ``tree``, at the YAML line of ``node`` (after the statements
        ``first``, if any).

        (Code that takes a function but wants to know whether the expression is a plain local or
        a constant asks its analysis note: :meth:`expr_note`.)
        """
        file, line, _ = self.position(node)
        where = self.ctx.where if isinstance(self.ctx.where, str) else ".".join(map(str, self.ctx.where or ()))
        return self.ctx.code.function("expr", [*first, ast.Return(tree)], line=line,
                                  what=f"{what} at {where or file}:{line}", where=self.ctx.where, filename=file, lazy=True)

    def probe(self, tree, node):
        """A function returning ``tree`` to run at load (a per-card table's entries), at the line of ``node``;
        made for that alone, it is not part of the game's code."""
        file, line, _ = self.position(node)
        return self.ctx.code.probe(tree, line, file)

    def load_steps(self) -> list:
        """The step budget (a one-item list, see static.LoadBudget) shared by everything this
        definition's load works out in advance: fixed lists, per-card tables, fixed choices."""
        return self.ctx._load_steps

    def recorded(self, lower, merged=True):
        """(what ``lower()`` returns, the :class:`CardUses` recorded as it built its code); unless ``merged`` is
        false (code placed elsewhere: an argument's, a function's own), also recorded for the code around it."""
        outer = self.ctx.card_uses
        self.ctx.card_uses = uses = CardUses()
        try:
            result = lower()
        finally:
            self.ctx.card_uses = outer
        if merged:
            outer.add(uses)
        return result, uses

    def position(self, node):
        """(file, line, 0-based column) of ``node`` in the definition, cached per place."""
        key = (self.ctx.where if not isinstance(self.ctx.where, list) else tuple(self.ctx.where),
               getattr(node, "line", 0), getattr(node, "column", 0))
        cache = self.ctx._positions
        found = cache.get(key)
        if found is None:
            place = getattr(self.ctx.m, "place", None)  # (a model without it: the full location)
            loc = place(self.ctx.where, node) if place is not None else self.located_at(node)
            found = cache[key] = (loc.file or self.ctx.code.filename, loc.line or 1, max((loc.column or 1) - 1, 0))
        return found

    def located_at(self, node):
        """The :class:`Location` of ``node`` (as :meth:`location`), one object per place: an inlined
        body lowered at many call sites finds it again, and the constants table holds it once."""
        key = (self.ctx.where if not isinstance(self.ctx.where, list) else tuple(self.ctx.where),
               getattr(node, "line", 0), getattr(node, "column", 0))
        cache = self.ctx._locations
        found = cache.get(key)
        if found is None:
            found = cache[key] = self.ctx.location(node)
        return found

    # ---------------------------------------------------------------- building blocks
    def value(self, v) -> ast.expr:
        """An author value as a constant (``ast.Constant`` or ``K[i]``; that it is one is in its note)."""
        return self.ctx.code.constant(v)

    def helper(self, fn, *args) -> ast.Call:
        """``K[i](args...)``: a call of a run-time helper."""
        return ast.Call(self.ctx.code.constant(fn), list(args), [])

    def loc(self, node) -> ast.expr:
        """``K[i]``: the location of ``node``, for a run-time helper's errors."""
        return self.ctx.code.constant(self.located_at(node))

    # ---------------------------------------------------------------- kinds
    def expect(self, node, scope, kind, what):
        tree, k = self.expr_code(node, scope, (kind, what))
        return self.function_of(tree, node), k

    def expect_code(self, node, scope, kind, what):
        return self.expr_code(node, scope, (kind, what))

    def list_code(self, node, scope, what):
        """A list or a zone as a tree giving a list (a zone's own card list: not a copy)."""
        tree, k = self.expr_code(node, scope, ("list", what))
        if k == "zone":
            return py("s.zones[_0]", tree), "list:card"
        return tree, k

    def as_list(self, node, scope, what):
        tree, k = self.list_code(node, scope, what)
        return self.function_of(tree, node), k

    # ---------------------------------------------------------------- names and values
    def visit_Const(self, node, scope):
        note = self.ctx.notes[id(node)]
        if note.const is NOT_CONSTANT:  # a quoted space of another player count's board
            return self.absent_space(node.value, node), "space"
        return self.value(node.value), note.kind  # (a quoted space name, "r2c2", is a "space")

    def absent_space(self, value, node):
        """A quoted space of another player count's board: an error only if a game of this count runs it."""
        counts = self.ctx.m.board_counts
        players = f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else str(counts[0])
        message = (f"{value!r} is not a space of the board for {players} players "
                   f"(its spaces: {', '.join(self.ctx.board.spaces)})")
        return self.helper(V.absent_space, ast.Constant(message), self.loc(node))

    def alias_code(self, alias):
        """The tree of an inlined parameter: the caller's argument tree, and its kind (what that tree does with
        card variables, recorded as the argument was lowered, goes with it)."""
        self.ctx.card_uses.add(alias.uses)
        return alias.tree, alias.kind

    def visit_Name(self, node, scope):
        ref = self.ctx.notes[id(node)].ref
        what = ref.what
        if what == "alias":
            return self.alias_code(ref.data)
        if what == "local":  # its env key is this scope's (an 'each' variable's is numbered as it is lowered)
            key = scope.keys.get(node.name, node.name)
            self.ctx.card_uses.used(key)  # the value itself, handed to whatever is built around it
            return self.ctx.loop_reads.read(key), ref.kind
        if what == "players":
            return py("s.players"), ref.kind
        if what == "player_count":
            return py("s.n"), ref.kind
        if what == "active":
            return py("s.gv['active']"), ref.kind
        if what == "spaces":
            return py("list(_0)", self.ctx.code.constant(list(self.ctx.board.spaces))), ref.kind
        return self.value(ref.data), ref.kind  # a zone's index, a parameter's value

    def visit_Attr(self, node, scope):
        ref = self.ctx.notes[id(node)].ref
        if ref.what == "game_variable":
            return py("s.gv[_0]", ast.Constant(ref.data)), ref.kind
        if ref.what in ("card_name", "card_property"):
            return self.card_attr(node, scope, ref)
        obj, kind = self.expr_code(node.obj, scope)
        attr = node.name
        row = py("s.pv[_0]", ast.Constant(attr))  # a player variable
        if self.repeatable(node.obj):
            fail = self.helper(V.no_player, ast.Constant(attr), self.loc(node))
            return py("_1[_0] if _0 is not None else _2", obj, row, fail), ref.kind
        return self.helper(V.player_variable, row, obj, ast.Constant(attr), self.loc(node)), ref.kind

    def card_attr(self, node, scope, ref):
        """A card's name or fixed property: an entry of a per-card table (``K[3][e['c']]``, guarded against a
        none card) when the card can be written twice; of a card variable, the use is recorded as a read of
        that table (see :class:`CardUses`)."""
        attr = node.name
        table = self.ctx.m.card_names if ref.what == "card_name" else self.ctx.m.properties[attr][0]
        repeatable = self.repeatable(node.obj)
        variable = self.card_variable(node.obj, scope) if repeatable else None
        if variable is None:
            obj = self.expr_code(node.obj, scope)[0]
        else:
            obj, key = variable
            self.ctx.card_uses.indexes(key, table)
        tab = self.ctx.code.constant(table)
        if ref.what == "card_name":
            if repeatable:
                return py("'none' if _0 is None else _1[_0]", obj, tab), "str"
            return self.helper(V.card_name, tab, obj), "str"
        if repeatable:
            fail = self.helper(V.no_card, ast.Constant(attr), self.loc(node))
            return py("_1[_0] if _0 is not None else _2", obj, tab, fail), ref.kind
        return self.helper(V.card_property, tab, obj, ast.Constant(attr), self.loc(node)), ref.kind

    def card_variable(self, node, scope):
        """(tree, env key) of ``node`` when its note says it is one variable (a local, or an inlined parameter
        bound to one), its use not recorded: the caller records what it does with it; else None."""
        if type(node) is not A.Name:
            return None
        ref = self.ctx.notes[id(node)].ref
        if ref.what == "local":
            key = scope.keys.get(node.name, node.name)
            return self.stamped(node, self.ctx.loop_reads.read(key), ref.kind)[0], key
        if ref.what == "alias" and ref.data.key is not None:  # its tree is that local's (BoundArg.key)
            return self.stamped(node, ref.data.tree, ref.kind)[0], ref.data.key
        return None

    def visit_Index(self, node, scope):
        obj, kind = self.expr_code(node.obj, scope)
        key, kkind = self.expr_code(node.key, scope)
        note = self.ctx.notes[id(node)]
        shape, vkind = note.shape, note.kind
        if shape == "table":
            what = f"the table {node.obj.name!r}" if isinstance(node.obj, A.Name) else "the table"
            return self.helper(V.table_entry, obj, key, ast.Constant(what), self.loc(node)), vkind
        if shape == "zone":
            return py("s.zones[_0][_1]", obj, key), vkind
        return self.helper(V.list_item, obj, key, self.loc(node)), vkind

    # ---------------------------------------------------------------- each
    def each_scope(self, node, scope):
        """Lower an 'each' source; return (source tree giving a list, its kind, the inner scope, the variable's env key)."""
        src, skind = self.list_code(node.source, scope, "the list after 'in'")
        inner = scope.child()
        inner.names[node.var] = T.element(skind)
        inner.aliases.pop(node.var, None)
        # Each 'each' gets its own env key, so it never clobbers a variable of the same name.
        key = f"{node.var}.{next(self.ctx.key_numbers)}"
        inner.keys[node.var] = key
        return src, skind, inner, key

    def visit_Each(self, node, scope):
        src, skind, inner, key = self.each_scope(node, scope)
        self.ctx.loop_reads.open(key)
        (where, where_uses), (res, res_uses, rkind) = self.each_parts(node, inner)
        out_kind = T.list_of(rkind if res is not None else T.element(skind))
        loc = self.loc(node)
        # static over its card: the condition and the result read nothing of the state (their notes say)
        static = not any(self.ctx.notes[id(n)].reads for n in (node.where, node.result) if n is not None)
        if T.element(skind) == "card" and static:
            fast = self.static_each(src, key, (where, where_uses), (res, res_uses), inner, node.where, loc, node)
            if fast is not None:
                self.ctx.loop_reads.drop(key)
                return fast, out_kind
        if where is None and res is None:
            self.ctx.loop_reads.drop(key)
            return self.helper(V.paid_copy, s_(), src, loc), out_kind
        if res is None:
            self.ctx.card_uses.used(key)
        uses = CardUses()  # what the comprehension's code does, added to the code around it if it is kept
        uses.add(where_uses)
        uses.add(res_uses)
        tree = self.comprehension(res if res is not None else self.ctx.loop_reads.read(key), key,
                                  self.helper(V.paid, s_(), src, loc), where, uses)
        if self.ctx.options.tables and not self.ctx.notes[id(node)].reads:
            fixed = self.fixed_list(tree, node, loc)
            if fixed is not None:
                return fixed, out_kind
        self.ctx.card_uses.add(uses)
        return tree, out_kind

    def each_parts(self, node, inner):
        """The condition and the result of 'each' ``node`` in its scope ``inner``: ((tree, its CardUses), (tree,
        its CardUses, its kind)), None for a part it has not; not yet recorded for the code around them (they
        may be left out: a per-card table, a fixed list)."""
        where = self.recorded(lambda: self.expect_code(node.where, inner, "bool", "the condition after 'where'")[0],
                              merged=False) if node.where is not None else (None, None)
        if node.result is None:
            return where, (None, None, None)
        (res, kind), uses = self.recorded(lambda: self.expr_code(node.result, inner), merged=False)
        return where, (res, uses, kind)

    def fixed_list(self, tree, node, loc):
        """An 'each' that reads nothing of the state nor of any variable (``each sp in spaces: pile(sp)``)
        gives the same list in every game: work it out once at load, and at run time pay the steps its
        scan would pay (at the same place) and hand out a copy.  None when it is not fixed after all,
        fails (the run-time code then meets the same located error), or pays at more than its own scan
        (an inner scan would have been the one to run out of budget, at its own place)."""
        probe = _Counting(self.load_steps())
        try:
            value = self.probe(tree, node)(probe, {})
        except Exception:  # reads a variable or the state, or fails: left to run time
            return None
        if type(value) is not list or probe.charges != 1 or any(type(v) not in (int, str) for v in value):
            return None
        return self.helper(V.paid_fixed, s_(), ast.Constant(probe.paid), self.ctx.code.constant(value), loc)

    def static_each(self, src, key, where, res, scope, where_node, loc, node):
        """'each c in cards where ... : ...' with tabulated condition and result, if they are static
        (the caller saw them build no read of the state); ``where`` and ``res``: (tree or None, its CardUses)."""
        (where, where_uses), (res, res_uses) = where, res
        if where is not None:
            ok = self.static_table(where, key, where_uses, scope, node=where_node, at=node)
        else:
            ok = ([True] * len(self.ctx.m.card_names), None)
        if ok is None:
            return None
        values = None
        if res is not None:
            values = self.static_table(res, key, res_uses, None, as_bool=False, at=node)
            if values is None:
                return None
            values = values[0]
        ok, other = ok
        row = self.table_reader(ok, other)
        if values is None:
            return self.helper(V.kept, s_(), src, row, loc)
        return self.helper(V.kept_values, s_(), src, row, self.ctx.code.constant(self.reader(values)), loc)

    def reader(self, table):
        """``table.__getitem__`` (one per table: the helpers map it over a list, in C, with no attribute
        lookup of their own at each run)."""
        found = self.ctx.readers.get(id(table))
        if found is None:
            found = self.ctx.readers[id(table)] = (table, table.__getitem__)  # (keeps the table: its id stays unique)
        return found[1]

    def table_reader(self, ok, other) -> ast.expr:
        """The reader of a per-card table of true/false (:meth:`reader`); for a table over two card variables,
        the row of the other card's: ``K[i][e['other']]`` from a list of the rows' readers."""
        if other is None:
            return self.ctx.code.constant(self.reader(ok))
        rows = self.ctx.readers.get(id(ok))
        if rows is None:
            rows = self.ctx.readers[id(ok)] = (ok, [row.__getitem__ for row in ok])
        self.ctx.card_uses.used(other)  # (its rows' readers are no values to class cards by)
        return py("_0[_1]", self.ctx.code.constant(rows[1]), self.ctx.loop_reads.read(other))

    def static_table(self, tree, key, uses, scope=None, as_bool=True, node=None, at=None):
        """Tabulate a per-card expression that reads only fixed card properties.

        Card properties never change, so ``c.suit != "hearts"`` is a fact about card
        ids: a table replaces the expression per card at run time.  If the
        expression also reads one other card variable (``same_type(c, card)``),
        the table has two dimensions: ``table[other][c]``.  Returns
        ``(table, other_key)`` or None when the expression reads the game state.
        ``tree`` is the lowered expression, that built no read of the state (the
        caller checked its analysis note: ``reads``, which counts what an inlined argument reads); it is
        run against the load's budget alone (``static.LoadBudget``).  ``uses``: the :class:`CardUses` its
        lowering recorded (a table over two cards is filled per class of cards when they allow).
        """
        if not self.ctx.options.tables:
            return None
        # The same condition is lowered again where its procedure is spliced: tabulate it once.
        # (Only without aliases: an inlined function's condition can mean something else per call.)
        cached = node is not None and scope is not None and not scope.aliases
        fn = None
        if cached and id(node) in self.ctx.tables:
            kept, table, two_d = self.ctx.tables[id(node)]
            if not two_d:
                return table
            fn = self.probe(tree, at or node)
            try:
                fn(LoadBudget(self.load_steps()), {key: 0})
            except KeyError as missing:  # the other card variable's key in this scope
                return table[0], missing.args[0]
        if fn is None:
            fn = self.probe(tree, at or node)
        result = self._static_table(fn, key, uses, scope, as_bool)
        if cached and result is not None:
            self.ctx.tables[id(node)] = (node, result, result[1] is not None)  # keeps the node: its id stays unique
        return result

    def _static_table(self, fn, key, uses, scope, as_bool):
        count = len(self.ctx.m.card_names)
        pool = self.load_steps()
        at_load = LoadBudget(pool)
        convert = bool if as_bool else (lambda v: v)
        # each evaluation is paid from the load's budget by the size of the expression (a 3,000-term 'or'
        # over 30,000 cards is 90 million steps of work): what the budget cannot pay is left to run time
        weight = 1 + _code_size(fn.__code__) // 256
        if not _paid_at_load(pool, count * weight):
            return None
        try:
            return [convert(fn(at_load, {key: c})) for c in range(count)], None
        except KeyError as missing:
            other = missing.args[0] if missing.args else None
        except Exception:  # it fails for some card (a none, a number too large): left to run time
            return None
        if self.card_keys(scope).get(other) != "card" or count > 400:
            return None
        table = self.two_card_table(fn, key, other, uses, as_bool, weight)
        return None if table is None else (table, other)

    def card_keys(self, scope) -> dict:
        """Env key -> kind of the variables of ``scope`` (an inlined function's parameter that is the caller's
        local variable included)."""
        names = {scope.keys.get(n, n): k for n, k in scope.names.items()} if scope is not None else {}
        if scope is not None:
            for alias in scope.aliases.values():
                if alias.key is not None:
                    names.setdefault(alias.key, alias.kind)
        return names

    def two_card_table(self, fn, key, other, uses, as_bool, weight):
        """The table ``[[fn(c, o) for c in cards] for o in cards]`` of an expression over two card variables
        (``uses``: what its lowering recorded of them), or None when the load's budget cannot pay for it or
        it fails."""
        count = len(self.ctx.m.card_names)
        pool, cards = self.load_steps(), range(count)
        at_load = LoadBudget(pool)
        convert = bool if as_bool else (lambda v: v)
        # count x count evaluations, unless the cards fall in classes: one evaluation per pair of classes
        reads, compared = uses.reads()
        rows, columns = card_classes(reads, key, count), card_classes(reads, other, count)
        by_class = rows is not None and columns is not None and as_bool
        pairs = (max(rows) + 1) * (max(columns) + 1) if by_class else count * count
        if not _paid_at_load(pool, pairs * weight):
            return None
        try:
            if not by_class:
                return [[convert(fn(at_load, {key: c, other: o})) for c in cards] for o in cards]
            return pair_table(lambda c, o: bool(fn(at_load, {key: c, other: o})), count, rows, columns,
                              frozenset((key, other)) in compared)
        except Exception:
            return None

    def filtered_call(self, node, scope):
        """If ``node`` is a call of a user function whose body is 'each ... where ...' (and can be
        inlined), return that Each node and the scope to compile it in; else None."""
        if not self.ctx.options.inline or not isinstance(node, A.Call) or node.func not in self.ctx.m.functions \
                or node.func in scope.names:
            return None
        func = self.ctx.m.functions[node.func]
        body = func.body
        if not (isinstance(body, A.Each) and body.where is not None and body.result is None):
            return None
        if not all(is_cheap(a) for a in node.args):
            return None
        self.ctx.analysis.function_kind(func)
        args = self.bound_args(node, func.params, scope, node.func)
        aliases = {n: a for (n, _), a in zip(func.params, args)}
        return body, Scope({}, None, aliases), func.where, self.ctx.analysis.function_notes(func, aliases)

    def reduction(self, node, scope, exists=False):
        """The call ``node`` of count/any/all of 'each ... where ...' or of a function that is one (its note's
        shape is ``reduction``); ``exists``: a count compared with 1, given as a bool when a table is made."""
        name, arg = node.func, node.args[0]
        if isinstance(arg, A.Each):
            return self.each_reduction(name, arg, scope, exists=exists)
        body, inner, where, notes = self.filtered_call(arg, scope)
        saved, self.ctx.notes = self.ctx.notes, notes  # the function's body, its parameters the arguments' aliases
        try:
            return self.each_reduction(name, body, inner, where, exists)
        finally:
            self.ctx.notes = saved

    def each_reduction(self, name, node, scope, where_=None, exists=False):
        """count/any/all of 'each c in X where cond' without building the list (each item costs a step);
        ``exists``: a count wanted only as 'is it at least 1', made any/all's bool when a table is made."""
        saved = self.ctx.where
        if where_ is not None:
            self.ctx.where = where_
        try:
            src, skind, inner, key = self.each_scope(node, scope)
            self.ctx.loop_reads.open(key)
            (cond, _, note), uses = self.recorded(lambda: self.expr_note(node.where, inner,
                                                                         ("bool", "the condition after 'where'")),
                                                  merged=False)  # (recorded around it where it is kept)
            loc = self.loc(node)
            table = self.static_table(cond, key, uses, inner, node=node.where, at=node) \
                if T.element(skind) == "card" and not note.reads else None
        finally:
            self.ctx.where = saved
        kind = "int" if name in ("count", "size") else "bool"
        if table is not None:
            self.ctx.loop_reads.drop(key)
            ok, other = table
            # sum/any/all over map(table lookup): the per-card work runs in C
            helper = {"count": V.count_in, "size": V.count_in, "any": V.any_in}.get(name, V.all_in)
            if exists:
                helper, kind = V.any_in, "bool"
            return self.helper(helper, s_(), src, self.table_reader(ok, other), loc), kind
        paid = self.helper(V.paid, s_(), src, loc)
        if name in ("count", "size"):
            tree = py("len(_0)", self.comprehension(ast.Constant(1), key, paid, cond, uses))
        else:
            tree = py("any(_0)" if name == "any" else "all(_0)",
                      self.comprehension(cond, key, paid, None, uses, generator=True))
        self.ctx.card_uses.add(uses)
        return tree, kind

    def comprehension(self, elt, key, iterable, cond, uses, generator=False):
        """``[elt for e[key] in iterable if cond]`` (or a generator), ``uses`` the record of the code of ``elt``
        and ``cond``: the loop variable lives in ``e`` when that code hands ``e`` on, else it is a Python
        local (loop_locals.py; ``uses`` then records it, for the code around the comprehension)."""
        var = self.ctx.loop_reads.close(key, uses)
        target = local(key, store=True) if var is None else name(var, store=True)
        gen = ast.comprehension(target=target, iter=iterable, ifs=[cond] if cond is not None else [], is_async=0)
        return (ast.GeneratorExp if generator else ast.ListComp)(elt, [gen])

    def visit_ListLit(self, node, scope):
        items = [self.expr_code(x, scope)[0] for x in node.items]
        return ast.List(items, ast.Load()), self.ctx.notes[id(node)].kind

    # ---------------------------------------------------------------- operators
    def visit_BinOp(self, node, scope):
        left, lk = self.expr_code(node.left, scope)
        right, rk = self.expr_code(node.right, scope)
        op = node.op
        note = self.ctx.notes[id(node)]
        shape, kind = note.shape, note.kind
        if shape == "join_lists":
            lf = py("s.zones[_0]", left) if lk == "zone" else left
            rf = py("s.zones[_0]", right) if rk == "zone" else right
            return self.helper(V.join_lists, s_(), lf, rf, self.loc(node)), kind
        if shape == "join_texts":
            return self.helper(V.join_texts, left, right, self.loc(node)), kind
        if shape == "folded":  # two numbers (the analysis checked the result)
            return ast.Constant(note.const), "int"
        # Results are kept within MAX_INT: repeated squaring stops with an error, not a number of a
        # million digits.  A TypeError is a none (or a text) where a number was needed: say which.
        helper = {"+": V.add, "-": V.sub, "*": V.mul, "//": V.floordiv, "%": V.mod}[op]
        return self.helper(helper, left, right, self.loc(node)), "int"

    def visit_Compare(self, node, scope):
        op = node.op
        if op in ("in", "not in"):
            return self.membership(node, scope), "bool"
        if op in ("==", "!="):
            same = self.same_variable(node, scope)
            if same is not None:
                return same, "bool"
        notes = self.ctx.notes
        if self.exists_test(node):
            # 'count(each c in zone where <fixed property test>) >= 1': any() stops at the first match
            left, lk = self.stamped(node.left, *self.reduction(node.left, scope, exists=True))
            if lk == "bool":
                return left, "bool"
        else:
            left, lk = self.expr_code(node.left, scope)
        right, rk = self.expr_code(node.right, scope)
        if op in ("==", "!="):
            return ast.Compare(left, [AST_COMPARE[op]()], [right]), "bool"
        # '<', '<=', '>', '>=': a none (or a text) on either side is a located error, not a TypeError
        if notes[id(node.left)].number and notes[id(node.right)].number:
            return ast.Compare(left, [AST_COMPARE[op]()], [right]), "bool"
        if self.repeatable(node.left) and self.repeatable(node.right) and lk in ("int", "bool") and rk in ("int", "bool"):
            return self.guarded_order(node, left, right), "bool"
        return self.helper(V.ORDERED[op], left, right, self.loc(node)), "bool"

    def same_variable(self, node, scope):
        """``e['c'] != e['o']``: an equality test of two variables (recorded as such: see :class:`CardUses`), or
        None when a side is not one variable."""
        left = self.card_variable(node.left, scope)
        right = self.card_variable(node.right, scope) if left is not None else None
        if right is None:
            return None
        self.ctx.card_uses.compares(left[1], right[1])
        return ast.Compare(left[0], [AST_COMPARE[node.op]()], [right[0]])

    def membership(self, node, scope):
        """``x in list`` / ``x not in list``."""
        op = node.op
        left, lk = self.expr_code(node.left, scope)
        right, rk = self.list_code(node.right, scope, f"the right side of '{op}'")
        negate = op == "not in"
        if isinstance(node.right, A.ListLit) and all(isinstance(x, A.Const) for x in node.right.items):
            # 'c.type in ["a", "b"]': a fixed list, searched in place (no copy, nothing to charge)
            fixed = self.ctx.code.constant(tuple(x.value for x in node.right.items))
            return py("_0 not in _1" if negate else "_0 in _1", left, fixed)
        found = self.helper(V.contains, s_(), left, right, self.loc(node))
        return py("not _0", found) if negate else found

    def guarded_order(self, node, left, right):
        """``left < right`` of two cheap numbers, a none on either side a located error (a side its note says
        is always a number needs no guard)."""
        op = node.op
        test = ast.Compare(left, [AST_COMPARE[op]()], [right])
        fail = self.helper(V.operand_failure, ast.Constant(op), left, right, self.loc(node))
        notes = self.ctx.notes
        guard = [tree for tree, side in ((left, node.left), (right, node.right)) if not notes[id(side)].number]
        cond = ast.BoolOp(ast.And(), [py("_0 is not None", x) for x in guard]) if len(guard) > 1 \
            else py("_0 is not None", guard[0])
        return ast.IfExp(cond, test, fail)

    def repeatable(self, node) -> bool:
        """May the code of the analysed ``node`` be written twice (cheap, no effect), as its notes say: a
        constant, a local, a game variable, or a player's zone of a local (``base + e['p']``)?"""
        notes = self.ctx.notes
        if isinstance(node, A.Call) and notes[id(node)].shape == "zone":
            return self.ctx.m.zones[node.func].per == "player" and notes[id(node.args[0])].local is not None
        return notes[id(node)].cheap

    def exists_test(self, node) -> bool:
        """Is the comparison ``node`` 'count(each ... where ...) >= 1' (or '> 0'), as its notes say?"""
        notes = self.ctx.notes
        left, right = notes[id(node.left)], notes[id(node.right)]
        return left.shape == "reduction" and left.kind == "int" and (node.op, right.const) in ((">=", 1), (">", 0))

    def visit_BoolOp(self, node, scope):
        trees = [self.expect_code(x, scope, "bool", f"each side of '{node.op}'")[0] for x in node.items]
        tree = ast.BoolOp(ast.And() if node.op == "and" else ast.Or(), trees)
        if len(trees) == 2:
            return tree, "bool"
        return ast.IfExp(tree, ast.Constant(True), ast.Constant(False)), "bool"  # all()/any() gave a bool

    def visit_Not(self, node, scope):
        tree = self.expect_code(node.operand, scope, "bool", "the value after 'not'")[0]
        inner = node.operand
        if isinstance(inner, A.Compare) and inner.op in NEGATED:
            # 'not a < b' is 'a >= b' (checked above with the author's operator)
            flipped = A.Compare(NEGATED[inner.op], inner.left, inner.right, line=inner.line, column=inner.column)
            return self.visit_Compare(flipped, scope)
        return py("not _0", tree), "bool"

    def visit_Neg(self, node, scope):
        tree = self.expect_code(node.operand, scope, "int", "the value after '-'")[0]
        return py("-_0", tree), "int"

    # ---------------------------------------------------------------- calls
    def visit_Call(self, node, scope):
        what = self.ctx.notes[id(node)].shape
        if what == "zone":
            return self.zone_call(node, scope)
        if what == "counter":
            return self.ctx.counters.counter_call(node, scope)
        if what == "function":
            return self.function_call(node, scope)
        if what == "quantity":
            return self.quantity_call(node, scope)
        if what == "sort_by":  # its 'each' binds a variable for the key: lowered as a whole
            return self.ctx.ordering.sort_by_call(node, scope)
        name = node.func
        if what == "reduction":  # count/any/all of 'each ... where ...', or of a function that is one
            return self.reduction(node, scope)
        args = [(*self.expr_code(a, scope), a) for a in node.args]
        self.ctx.call_loc = self.loc(node)  # where a builtin's run-time errors point
        record = BUILTINS[name]
        try:  # the kind of the lowered arguments (an inlined parameter's is its argument's)
            kind = record.result(self.ctx, [Arg(k, a, self.ctx.notes[id(a)].const) for _, k, a in args])
        except BuiltinError as exc:  # a rule only the real values show: a table inlined as an argument
            raise self.ctx.err(str(exc), exc.node or node) from None
        return record.lower(self.ctx, args, kind), kind

    def zone_call(self, node, scope):
        spec = self.ctx.m.zones[node.func]
        tree, kind = self.expect_code(node.args[0], scope, spec.per, f"the argument of {node.func}()")
        base = spec.base
        if spec.per == "player":
            return ast.BinOp(ast.Constant(base), ast.Add(), tree), "zone"
        index = V.SpaceIndex({sp: base + i for i, sp in enumerate(self.ctx.board.spaces)}, self.located_at(node))
        return py("_0[_1]", self.ctx.code.constant(index), tree), "zone"

    def function_call(self, node, scope):
        func = self.ctx.m.functions[node.func]
        self.ctx.analysis.function_kind(func)  # the body analysed once, on its own, with located errors
        args = self.bound_args(node, func.params, scope, node.func)
        names = [n for n, _ in func.params]
        if self.ctx.options.inline and all(is_cheap(a) for a in node.args) and self.small_enough(func) \
                and self.ctx.may_copy(func.body):
            # Inline: lower the body again with each parameter an alias of the caller's argument
            # tree (its notes rewritten so), so a call costs no env dict and no extra call layer.
            aliases = dict(zip(names, args))
            saved, notes = self.ctx.where, self.ctx.notes
            self.ctx.where, self.ctx.notes = func.where, self.ctx.analysis.function_notes(func, aliases)
            try:
                return self.lower_node(func.body, Scope({}, None, aliases))[0], func.kind
            finally:
                self.ctx.where, self.ctx.notes = saved, notes
        self.ensure_function(func)
        for arg in args:  # the arguments' code placed in the call
            self.ctx.card_uses.add(arg.uses)
        env = ast.Dict([ast.Constant(n) for n in names], [arg.tree for arg in args])
        return py("_0(s, _1)", self.ctx.code.constant(func.fn), env), func.kind

    def small_enough(self, func) -> bool:
        """Is ``func``'s body small enough to inline where its arguments are cheap (see inline_size)?"""
        return self.inline_size(func) <= MAX_INLINED

    def inline_size(self, func) -> int:
        """How many syntax nodes ``func``'s body is with every call in it inlined (MAX_INLINED + 1 when
        more): a function calling another twice, which calls another twice... would double at each
        level, so one that big is called, not inlined (its body is lowered once, on its own)."""
        sizes = self.ctx._inline_sizes
        found = sizes.get(func.name)
        if found is None:
            sizes[func.name] = MAX_INLINED + 1  # (recursion is refused by the analysis; this ends it anyway)
            found = sizes[func.name] = min(self._expanded_nodes(func.body), MAX_INLINED + 1)
        return found

    def _calls_functions(self, node) -> bool:
        return any(type(n) is A.Call and n.func in self.ctx.m.functions for n in A.walk(node))

    def _expanded_nodes(self, node) -> int:
        total = 0
        for n in A.walk(node):
            total += 1
            if type(n) is A.Call and n.func in self.ctx.m.functions:
                total += self.inline_size(self.ctx.m.functions[n.func])
            if total > MAX_INLINED:
                break
        return total

    def quantity_call(self, node, scope):
        q = self.ctx.m.quantities[node.func]
        args = self.bind_args_code(node, q.params, scope, node.func)
        names = [n for n, _ in q.params]
        env = ast.Dict([ast.Constant(n) for n in names], [tree for tree, _, _ in args])
        if q.compute is None:  # a function's body checked before the quantities are compiled
            return py("_0.compute(s, _1)", self.ctx.code.constant(q), env), "int"
        return py("_0(s, _1)", self.ctx.code.constant(q.compute), env), "int"

    def ensure_function(self, func: Func):
        """Lower a user function's body on its own, once: when a call is not inlined (a function whose
        every call is inlined has no code of its own)."""
        if func.fn is not None:
            return
        self.ctx.analysis.function_kind(func)  # the analysis: errors located in the body, recursion refused
        saved, notes = self.ctx.where, self.ctx.notes
        self.ctx.where, self.ctx.notes = func.where, self.ctx.analysis.function_notes(func)
        try:  # (its code is its own function's: what it does with its variables is nothing of the caller's)
            (tree, _), _ = self.recorded(lambda: self.lower_node(func.body, Scope(dict(func.params), None)),
                                         merged=False)
            # a call of a function that calls functions is a step (one calling another twice, which calls
            # another twice... would otherwise run 2^30 calls without a decision), and a step per 64
            # syntax nodes its calls inline; a function that calls none does bounded work, paid by its caller
            charge = []
            if self._calls_functions(func.body):
                cost = 1 + self.inline_size(func) // 64
                charge = self.ctx.stmts.budget(ast.Constant(cost), TOO_LONG_CALLS, self.located_at(func.body))
            func.fn = self.function_of(tree, func.body, first=charge)
        finally:
            self.ctx.where, self.ctx.notes = saved, notes

    def bind_args_code(self, node, params, scope, name):
        """The argument trees of a call (checked against ``params`` by the analysis), each with the kind it
        is bound with and whether it reads the state (its note; a zone given for a list is a copy of its cards)."""
        args = self.bound_args(node, params, scope, name)
        for arg in args:  # their code placed as it is
            self.ctx.card_uses.add(arg.uses)
        return [(arg.tree, arg.kind, arg.reads) for arg in args]

    def bound_args(self, node, params, scope, name) -> list:
        """:meth:`bind_args_code` as :class:`BoundArg` s, which also say what the notes know of each argument:
        the env key when it is one local variable, whether it is a constant of the rules."""
        notes = self.ctx.notes
        if notes is None or id(node) not in notes:  # a procedure's call: its arguments analysed now
            self.ctx.notes = self.ctx.stmt_analysis.analysed_args(node, params, scope, name)
        try:
            out = []
            for (pname, pkind), arg, bound in zip(params, node.args, self.ctx.notes[id(node)].bound):
                # what its code does with card variables goes with it: it is placed where its parameter is read
                (tree, kind), uses = self.recorded(lambda: self.expr_code(arg, scope), merged=False)
                note = self.ctx.notes[id(arg)]
                reads = note.reads
                if kind == "zone" and pkind.startswith("list:"):
                    tree, reads = py("list(s.zones[_0])", tree), True
                    out.append(BoundArg(tree, bound, reads, uses=uses))
                    continue
                # a local's env key is its scope's (an 'each' variable's numbered as it was lowered); an
                # inlined parameter's is its argument's (the note says)
                key = scope.keys.get(arg.name, arg.name) if note.ref is not None and note.ref.what == "local" \
                    else note.local
                out.append(BoundArg(tree, bound, reads, key, note.const, self.repeatable(arg), note.number, uses))
            return out
        finally:
            self.ctx.notes = notes


# ---------------------------------------------------------------- per-card tables by classes of cards
# A two-card table has a row per card and a column per card (148 x 148 evaluations for a deck of
# 148).  When the expression reads its card variables only as indexes of fixed per-card tables
# (``K[3][e['c']]``, a property), two cards equal on every table read give the same results: the
# expression is evaluated once per pair of such classes.  Comparing the two cards with each other
# (``c != other``) is allowed too: the result then also depends on whether they are the same card.
# Which tables those are is what the lowering recorded as it built the code (static.CardUses).

def _code_size(code) -> int:
    """Bytes of Python bytecode in ``code`` and the code it holds (its comprehensions): its size, found
    without walking a tree."""
    return len(code.co_code) + sum(_code_size(c) for c in code.co_consts if type(c) is type(code))


def _paid_at_load(pool, steps) -> bool:
    """Take ``steps`` from the load's budget ``pool`` (see static.LoadBudget) if it holds that many."""
    if pool[0] < steps:
        return False
    pool[0] -= steps
    return True


def card_classes(reads, key, count):
    """Each card's class under ``key`` (a number; cards of one class hold the same values in every table
    the expression reads with ``key``), or None when the expression uses the card some other way."""
    tables = reads.get(key)
    if tables is None:
        return None
    numbers: dict = {}
    try:
        return [numbers.setdefault(tuple(_frozen(t[c]) for t in tables), len(numbers)) for c in range(count)]
    except TypeError:  # a value that cannot be a key
        return None


def _frozen(value):
    """A property value as a key: equal keys only for values of the same type that are equal."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return kind, value
    if kind in (list, tuple):
        return kind, tuple(_frozen(v) for v in value)
    raise TypeError(kind)


def pair_table(value_of, count, rows, columns, same):
    """``[[value_of(c, o) for c in cards] for o in cards]`` (booleans), evaluated once per (class of c,
    class of o) and, if ``same`` (the expression compares the two cards), whether c is o."""
    table = []
    made: dict = {}  # class of o -> (its row made for the first such o, that o), c is o nowhere else
    differ: dict = {}  # (class of o, class of c) -> the value for c not o
    alike: dict = {}  # (class of o, class of c) -> the value for c that is o
    for o in range(count):
        column = columns[o]
        first = made.get(column)
        if first is None:
            row = []
            for c, r in enumerate(rows):
                if c == o and same:
                    row.append(None)  # filled below
                    continue
                v = differ.get((column, r))
                if v is None:
                    v = differ[column, r] = value_of(c, o)
                row.append(v)
            first = made[column] = (row, o)
        row = list(first[0])
        if same:
            if first[1] != o:  # the first o's own place: a card other than this o
                v = differ.get((column, rows[first[1]]))
                if v is None:
                    v = differ[column, rows[first[1]]] = value_of(first[1], o)
                row[first[1]] = v
            v = alike.get((column, rows[o]))
            if v is None:
                v = alike[column, rows[o]] = value_of(o, o)
            row[o] = v
        table.append(row)
    return table


class _Counting(LoadBudget):
    """A load's state that counts the charges made to its step budget, and what they took (``paid``)."""

    def __init__(self, pool=None):
        super().__init__(pool)
        self.charges, self.start = 0, self.pool[0]

    @property
    def steps(self):
        return self.pool[0]

    @steps.setter
    def steps(self, value):
        self.charges += 1
        self.pool[0] = value

    @property
    def paid(self):
        return self.start - self.pool[0]

