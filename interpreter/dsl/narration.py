"""Narration with an audience: each ``log`` line is never more revealing than the view of whoever reads it.

At load, each ``{expression}`` of a log text is searched for what it may reveal:
the cards it names or reads (every closed sub-expression whose value is a card,
a list of cards or a zone; functions are expanded into their bodies; local
variables that are not cards are traced back to every expression ever assigned
to them in their procedure) and the private player variables it reads.  At run
time a dependency is *visible* to a player by the rules of ``State.view``: a
card in a ``public`` zone, in an ``owner`` zone of theirs, or on top of a
``top`` zone.  A part shown to a player in the clear only when all of its
dependencies are visible to them; otherwise it reads "a card", "some cards" or
"(hidden)".  What cannot be traced (a procedure's result, a modified quantity)
is hidden from everyone but the omniscient log.

``log to PLAYERS "..."`` is an author's deliberate reveal: those players get the
line in the clear, nobody else gets it at all; a line told to every player is public, so
spectators get it too (the rule of ``show``: what every player is shown, spectators see).

Storage (see ``State.log`` / ``State.log_seen``): the omniscient text always goes
to ``state.log``; a line whose text differs for some audience also adds
``[line index, [text for player 0, ..., player n-1, spectator]]`` to
``state.log_seen`` (``None``: that audience does not receive the line).
"""

from __future__ import annotations

import dataclasses

from . import ast as A
from . import types as T
from .builtins import draws_random
from .inline import statements
from .procedures import CompileError

MAX_EXPANSION = 2000  # nodes looked at for one interpolation: beyond that, it is treated as hidden
# Builtins that reveal of a zone only its size (public) or the cards they return (checked themselves).
ZONE_SAFE_BUILTINS = ("size", "count", "top", "bottom")


class Opaque(Exception):
    """What an interpolation reveals cannot be told at load: it is shown to nobody but the referee."""


PICKS = object()  # the key of assignments() holding the locals that only ever hold the picks of an 'ask each'


def assignments(body) -> dict:
    """Local name -> the expressions assigned to it anywhere in ``body`` (flow-insensitive, so loops are covered);
    under :data:`PICKS`, the names that only an ``ask each`` assigns (one pick per player, indexed by player)."""
    defs: dict = {}
    picked: dict = {}
    for st in statements(body):
        for n, value in _assigned(st):
            defs.setdefault(n, []).append(value)
        if isinstance(st, A.AskEach):
            for n in (st.name, st.rest_name):
                picked[n] = picked.get(n, 0) + 1
    defs[PICKS] = frozenset(n for n, times in picked.items() if n is not None and len(defs.get(n, ())) == times)
    return defs


def _assigned(st) -> list:
    """(local name, the expression it is given) of each local the statement ``st`` assigns."""
    if isinstance(st, A.Let):
        return [(st.name, st.value)]
    if isinstance(st, A.Assign) and isinstance(st.target, A.Name):
        return [(st.target.name, st.value)]
    if isinstance(st, A.For):
        return _parts(st.var, st.iterable)
    if isinstance(st, (A.Ask, A.AskEach)):
        return [(st.name, st.options)] + ([(st.rest_name, st.rest)] if st.rest_name is not None else [])
    if isinstance(st, A.AskMenu):
        return [pair for opt in st.options for pair in _parts(opt.var, opt.items)]
    return []


def _parts(var, items) -> list:
    """(name, what it is taken from) for a loop's or menu entry's variables: with ``for q, r in product(xs, ys)``
    q reads only xs and r only ys; any other list of pairs may give each part anything the list reads.
    (Taking items apart compiles only for a list of tuples, which only the builtin product() makes: a zone
    or quantity named 'product' gives none.)"""
    names = A.names_of(var)
    if len(names) > 1 and isinstance(items, A.Call) and items.func == "product" and len(items.args) == len(names):
        return list(zip(names, items.args))
    return [(n, items) for n in names]


def substitute(node, mapping: dict, numbers):
    """``node`` with names replaced by the AST in ``mapping``; names bound by 'each' are renamed, so none is captured."""
    if isinstance(node, tuple):
        return tuple(substitute(n, mapping, numbers) for n in node)
    if not isinstance(node, A.Node):
        return node
    if isinstance(node, A.Name):
        return mapping.get(node.name, node)
    if isinstance(node, A.Each):
        fresh = f"{node.var}#{next(numbers)}"
        inner = {**mapping, node.var: A.Name(fresh)}
        return A.Each(fresh, substitute(node.source, mapping, numbers), substitute(node.where, inner, numbers),
                      substitute(node.result, inner, numbers), line=node.line, column=node.column)
    changes = {f.name: substitute(getattr(node, f.name), mapping, numbers) for f in dataclasses.fields(node)
               if f.name not in ("line", "column")}
    return dataclasses.replace(node, **changes)


class Dependencies:
    """Finds what one interpolation may reveal, compiling the pieces it must check at run time."""

    def __init__(self, ctx, scope, defs: dict, notes: dict | None = None):
        self.ctx, self.scope, self.m = ctx, scope, ctx.m
        self.defs = defs  # see assignments()
        self.notes = notes or {}  # the analysis of the interpolated expression: {id(node): Note} (its parts' kinds)
        self.checks: list = []  # (closure, kind) of card-, card-list- and zone-valued sub-expressions
        self.private: list = []  # (closure of a player, variable) of private player variables read
        self.expanded: set = set()
        self.budget = MAX_EXPANSION
        self.seen: set = set()
        self.expanding = 0  # > 0 while looking through what a local was assigned (not the log text itself)

    def collect(self, node) -> None:
        self.free(node, frozenset())

    def free(self, node, bound) -> frozenset:
        """The names ``node`` reads that it does not bind; records each closed sub-expression worth checking."""
        self.budget -= 1
        if self.budget < 0:
            raise Opaque()
        if isinstance(node, tuple):
            names = frozenset()
            for n in node:
                names |= self.free(n, bound)
            return names
        if not isinstance(node, A.Node) or isinstance(node, A.Const):
            return frozenset()
        if isinstance(node, A.Name):
            if node.name not in bound:
                self.closed(node)
            return frozenset([node.name])
        if isinstance(node, A.Attr) and isinstance(node.obj, A.Name) and node.obj.name == "game" \
                and "game" not in self.scope.names:
            self.closed(node)  # a game variable
            return frozenset()
        names = self.parts(node, bound)
        if not names & bound:
            self.closed(node)
        return names

    def parts(self, node, bound) -> frozenset:
        """:meth:`free` of the parts of ``node`` (an 'each', an attribute, a call, an operator...)."""
        if isinstance(node, A.Each):
            names = self.free(node.source, bound)
            inner = bound | {node.var}
            return names | (self.free(node.where, inner) | self.free(node.result, inner)) - {node.var}
        if isinstance(node, A.Attr):
            names = self.free(node.obj, bound)
            if node.name in self.m.hidden_pvars:
                self.private_read(node, names & bound)
            return names
        if isinstance(node, A.Call):
            return self.call(node, bound)
        if isinstance(node, A.Index):
            one = self.one_pick(node, bound)
            if one is not None:
                return one
        names = frozenset()
        for f in dataclasses.fields(node):
            if f.name not in ("line", "column"):
                names |= self.free(getattr(node, f.name), bound)
        return names

    def one_pick(self, node, bound) -> frozenset | None:
        """``chosen[q]`` of an ``ask each``'s picks, q read outside any 'each': player q's pick reveals only itself,
        so it is checked where it lies (the caller checks the card or cards) and the other picks are not read.
        None for any other index (an 'each' choosing which pick is read may reveal them all), and in what a local
        was given (checked when the line is written, when q may name another player)."""
        obj = node.obj
        if self.expanding or not isinstance(obj, A.Name) or obj.name in bound or obj.name not in self.defs.get(PICKS, ()):
            return None  # (in what a local was given, q may since name another player: every pick counts)
        proc = self.scope.proc
        if proc is not None and any(param == obj.name for param, _ in proc.params):
            return None  # a parameter of that name holds something else until the 'ask each'
        names = self.free(node.key, bound)
        if names & bound or self.kind(node) not in ("card", "list:card"):
            return None
        return names | {obj.name}

    def private_read(self, node, bound_names) -> None:
        """A private player variable read: whose it is, checked at run time (unless that cannot be told)."""
        if bound_names:
            raise Opaque()
        if self.chance(node.obj):  # checking it at run time would draw from the game's random numbers
            raise Opaque()
        player, kind = self.ctx.exprs.expr(node.obj, self.scope)
        if kind != "player":
            raise Opaque()
        self.private.append(player)

    def call(self, node, bound) -> frozenset:
        m, name = self.m, node.func
        if draws_random(name):
            if self.expanding:  # a local the log reads was assigned by chance (a roll): what it was given reveals
                return self.free(node.args, bound)  # only what the arguments read (closed() refuses to re-draw)
            raise CompileError(f"{name}() cannot be used in a log text: writing narration must not "
                               "change the game (games played without a log would go differently)", node)
        if name in m.functions:
            func = m.functions[name]
            args = [a for a in node.args if not isinstance(a, tuple)]
            body = substitute(func.body, {p: a for (p, _), a in zip(func.params, args)}, self.ctx.key_numbers)
            return self.free(body, bound) | self.free(tuple(args), bound)
        if name in getattr(m, "quantities", {}) or name in m.procedures:
            raise Opaque()
        if name in ZONE_SAFE_BUILTINS and node.args and not isinstance(node.args[0], tuple):
            arg = node.args[0]
            if isinstance(arg, (A.Name, A.Call)):
                inner = self.free_children(arg, bound)
                if not inner & bound and self.kind(arg) == "zone":  # the zone's size, or cards checked themselves
                    return inner | self.free(node.args[1:], bound)
        return self.free(node.args, bound)

    def free_children(self, node, bound) -> frozenset:
        """Free names of a zone reference without recording the zone itself (only its arguments)."""
        if isinstance(node, A.Name):
            return frozenset() if node.name in bound else frozenset([node.name])
        return self.free(node.args, bound)

    def kind(self, node) -> str:
        try:
            return self.ctx.exprs.expr_code(node, self.scope)[1]
        except CompileError:
            raise Opaque() from None

    def closed(self, node) -> None:
        """A sub-expression that reads no 'each' variable: check its value at run time if it is card-like."""
        if node in self.seen:
            return
        self.seen.add(node)
        tree, kind = self.code_of(node)
        if kind in ("card", "list:card", "zone", "list:zone"):  # (a function only for what is checked)
            if self.expanding and self.chance(node):  # checking it would draw again: nobody sees it
                raise Opaque()
            self.checks.append((self.ctx.exprs.function_of(tree, node), kind))
        elif "card" in kind or "zone" in kind or kind == T.ANY:
            raise Opaque()
        if isinstance(node, A.Name) and kind not in ("card", "list:card"):
            self.expand(node.name)

    def code_of(self, node) -> tuple:
        """(its code, its kind); its code only for what may be checked (None for the rest: a part of the
        interpolation has its kind from the analysis)."""
        note = self.notes.get(id(node))
        kind = note.kind if note is not None else None
        if kind is None or "card" in kind or "zone" in kind or kind == T.ANY:
            try:
                return self.ctx.exprs.expr_code(node, self.scope)
            except CompileError:
                raise Opaque() from None
        return None, kind

    def expand(self, name) -> None:
        """A local that is a number, text, player... computed from cards: check those cards (what it was given)."""
        if name not in self.defs or name in self.expanded:
            return
        self.expanded.add(name)
        self.expanding += 1
        try:
            for value in self.defs[name]:
                self.free(value, frozenset())
        finally:
            self.expanding -= 1

    def chance(self, node, looked=None) -> bool:
        """Whether working ``node`` out draws a random number (a builtin that does, in a function it calls too)."""
        looked = set() if looked is None else looked
        for n in A.walk(node):
            if type(n) is A.Call:
                if draws_random(n.func):
                    return True
                func = self.m.functions.get(n.func)
                if func is not None and n.func not in looked:
                    looked.add(n.func)
                    if self.chance(func.body, looked):
                        return True
        return False


