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
line in the clear, nobody else (no spectator) gets it at all.

Storage (see ``State.log`` / ``State.log_seen``): the omniscient text always goes
to ``state.log``; a line whose text differs for some audience also adds
``[line index, [text for player 0, ..., player n-1, spectator]]`` to
``state.log_seen`` (``None``: that audience does not receive the line).
"""

from __future__ import annotations

import dataclasses

from ..errors import RibbitError, RuleError
from . import ast as A
from . import types as T
from .inline import statements
from .runtime import MAX_TEXT, over_budget
from .units import CompileError

REDACTED = {"card": "a card", "list:card": "some cards"}
HIDDEN = "(hidden)"
RANDOM_BUILTINS = ("random", "roll")
MAX_EXPANSION = 2000  # nodes looked at for one interpolation: beyond that, it is treated as hidden
# Builtins that reveal of a zone only its size (public) or the cards they return (checked themselves).
ZONE_SAFE_BUILTINS = ("size", "count", "top", "bottom")


class Opaque(Exception):
    """What an interpolation reveals cannot be told at load: it is shown to nobody but the referee."""


# ==================================================================== load time
def assignments(body) -> dict:
    """Local name -> the expressions assigned to it anywhere in ``body`` (flow-insensitive, so loops are covered)."""
    defs: dict = {}
    for st in statements(body):
        if isinstance(st, A.Let):
            defs.setdefault(st.name, []).append(st.value)
        elif isinstance(st, A.Assign) and isinstance(st.target, A.Name):
            defs.setdefault(st.target.name, []).append(st.value)
        elif isinstance(st, A.For):
            defs.setdefault(st.var, []).append(st.iterable)
        elif isinstance(st, (A.Ask, A.AskEach)):
            defs.setdefault(st.name, []).append(st.options)
            if st.rest_name is not None:
                defs.setdefault(st.rest_name, []).append(st.rest)
        elif isinstance(st, A.AskMenu):
            for opt in st.options:
                if opt.var is not None:
                    defs.setdefault(opt.var, []).append(opt.items)
    return defs


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

    def __init__(self, compiler, scope, defs: dict, notes: dict | None = None):
        self.c, self.scope, self.m = compiler, scope, compiler.m
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
            if node.name in bound:
                return frozenset([node.name])
            self.closed(node)
            return frozenset([node.name])
        if isinstance(node, A.Each):
            names = self.free(node.source, bound)
            inner = bound | {node.var}
            names |= (self.free(node.where, inner) | self.free(node.result, inner)) - {node.var}
        elif isinstance(node, A.Attr):
            if isinstance(node.obj, A.Name) and node.obj.name == "game" and "game" not in self.scope.names:
                self.closed(node)
                return frozenset()
            names = self.free(node.obj, bound)
            if node.name in self.m.hidden_pvars:
                if names & bound:
                    raise Opaque()
                if self.chance(node.obj):  # checking it at run time would draw from the game's random numbers
                    raise Opaque()
                player, kind = self.c.expr(node.obj, self.scope)
                if kind != "player":
                    raise Opaque()
                self.private.append(player)
        elif isinstance(node, A.Call):
            names = self.call(node, bound)
        else:
            names = frozenset()
            for f in dataclasses.fields(node):
                if f.name not in ("line", "column"):
                    names |= self.free(getattr(node, f.name), bound)
        if not names & bound:
            self.closed(node)
        return names

    def call(self, node, bound) -> frozenset:
        m, name = self.m, node.func
        if name in RANDOM_BUILTINS:
            if self.expanding:  # a local the log reads was assigned by chance (a roll): what it was given reveals
                return self.free(node.args, bound)  # only what the arguments read (closed() refuses to re-draw)
            raise CompileError(f"{name}() cannot be used in a log text: writing narration must not "
                               "change the game (games played without a log would go differently)", node)
        if name in m.functions:
            func = m.functions[name]
            args = [a for a in node.args if not isinstance(a, tuple)]
            body = substitute(func.body, {p: a for (p, _), a in zip(func.params, args)}, self.c.key_numbers)
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
            return self.c.expr_code(node, self.scope)[1]
        except CompileError:
            raise Opaque() from None

    def closed(self, node) -> None:
        """A sub-expression that reads no 'each' variable: check its value at run time if it is card-like."""
        if node in self.seen:
            return
        self.seen.add(node)
        note = self.notes.get(id(node))
        kind = note.kind if note is not None else None
        if kind is None or "card" in kind or "zone" in kind or kind == T.ANY:
            # its code only for what is checked (a part of the interpolation has its kind from the analysis)
            try:
                tree, kind = self.c.expr_code(node, self.scope)
            except CompileError:
                raise Opaque() from None
        if kind in ("card", "list:card", "zone", "list:zone"):  # (a function only for what is checked)
            if self.expanding and self.chance(node):  # checking it would draw again: nobody sees it
                raise Opaque()
            self.checks.append((self.c.function_of(tree, node), kind))
        elif "card" in kind or "zone" in kind or kind == T.ANY:
            raise Opaque()
        if isinstance(node, A.Name) and node.name in self.defs and node.name not in self.expanded \
                and kind not in ("card", "list:card"):
            self.expanded.add(node.name)  # a number, text, player... computed from cards: check those cards
            self.expanding += 1
            try:
                for value in self.defs[node.name]:
                    self.free(value, frozenset())
            finally:
                self.expanding -= 1

    def chance(self, node, looked=None) -> bool:
        """Whether working ``node`` out draws a random number (``random``, ``roll``, in a function it calls too)."""
        looked = set() if looked is None else looked
        for n in A.walk(node):
            if type(n) is A.Call:
                if n.func in RANDOM_BUILTINS:
                    return True
                func = self.m.functions.get(n.func)
                if func is not None and n.func not in looked:
                    looked.add(n.func)
                    if self.chance(func.body, looked):
                        return True
        return False


# ==================================================================== run time
def visibility_table(game) -> tuple:
    """Per zone index: its visibility and owner, read by :func:`can_see`; and, only when some
    zone has ``seen_by``, per zone index its (how many top cards, condition) or None."""
    table = tuple(s.visibility for s in game.zone_spec), tuple(game.zone_owner)
    return table if game.seen_zone is None else table + (game.seen_zone,)


def can_see(s, card, viewer, table) -> bool:
    """May ``viewer`` see ``card`` now (the rules of ``State.view``)?"""
    zone = s.loc[card]
    if zone < 0:
        return False
    if s.shown and viewer in s.shown.get(card, ()):  # shown to the viewer ('show', until it moves)
        return True
    cards = s.zones[zone]
    if zone_shows(s, zone, cards[-1] == card, viewer, table):
        return True
    if len(table) > 2 and table[2][zone] is not None and viewer is not None:  # seen_by, while it holds
        top, cond = table[2][zone]
        return card in cards[-top:] and sees_top(s, cond, viewer)
    return False


def sees_top(s, cond, viewer) -> bool:
    """Does a zone's ``seen_by`` condition hold for ``viewer`` now?  Reading it changes nothing (the
    random state and the step budget are put back), and a condition that cannot be computed now
    (an error, or the budget spent) shows nothing."""
    rng, steps = s.rng, s.steps
    try:
        return bool(cond(s, {"p": viewer}))
    except (RibbitError, LookupError, TypeError, ValueError, ArithmeticError):
        return False
    finally:
        s.rng, s.steps = rng, steps


def zone_shows(s, zone, on_top, viewer, table) -> bool:
    """Does zone ``zone`` show ``viewer`` a card of it (``on_top``: the card is its top card)?"""
    vis = table[0][zone]
    if vis == "public":
        return True
    if vis == "owner":
        return viewer is not None and table[1][zone] == viewer
    if vis == "top":
        return on_top
    return False


def cards_of(s, value, kind) -> list:
    if kind == "card":
        return [] if value is None else [value]
    if kind == "list:card":
        return [c for c in value if c is not None]
    if kind == "zone":
        return s.zones[value]
    return [c for z in value for c in s.zones[z]]  # list:zone


class Part:
    """One ``{expression}`` of a log text: how to compute it, and what it may reveal."""

    __slots__ = ("fn", "kind", "checks", "private", "opaque", "redacted")

    def __init__(self, fn, kind, checks=(), private=(), opaque=False):
        self.fn, self.kind = fn, kind
        self.checks, self.private, self.opaque = tuple(checks), tuple(private), opaque
        self.redacted = REDACTED.get(kind, HIDDEN)

    def audience(self, s, e, table) -> list:
        """For each player then the spectator: may they read this part in the clear?"""
        viewers = s.players + [None]
        if self.opaque:
            return [False] * len(viewers)
        try:
            cards = [c for fn, kind in self.checks for c in cards_of(s, fn(s, e), kind)]
            owners = [fn(s, e) for fn in self.private]
        except (RibbitError, LookupError, TypeError, ValueError):  # cannot be computed now: reveal nothing
            return [False] * len(viewers)
        return [all(v == o for o in owners) and all(can_see(s, c, v, table) for c in cards) for v in viewers]


class Line:
    """A compiled ``log`` statement: writes the omniscient text and, where it differs, each audience's text."""

    def __init__(self, parts, to=None, to_kind=None, loc=None):
        self.parts = parts  # literal strings and Parts
        self.to, self.to_kind = to, to_kind
        self.loc = loc  # of the log statement, for the budget's errors
        self.table = None
        self.secret = any(isinstance(p, Part) and (p.checks or p.private or p.opaque) for p in parts)

    def write(self, s, e) -> None:
        omniscient, seen = self.render(s, e)
        s.log.append(omniscient)
        if seen is not None:
            s.log_seen.append([len(s.log) - 1, seen])
        if s.trace is not None:
            s.traced_log(omniscient, seen)

    def render(self, s, e):
        """(omniscient text, per-audience texts or None when everyone reads the omniscient text)."""
        describe, values = s.game.describe, []
        for p in self.parts:
            if type(p) is str:
                values.append(p)
                continue
            value = p.fn(s, e)
            if value.__class__ is list:  # a step per item described, paid before the text is made
                s.steps -= len(value)
                if s.steps < 0:
                    raise over_budget(s, self.loc)
            values.append(describe(value, p.kind))
        omniscient = "".join(values)
        if len(omniscient) > MAX_TEXT:
            raise RuleError(f"this log line would be {len(omniscient):,} characters long; a line is at most "
                            f"{MAX_TEXT:,} (log a count, or fewer items)", self.loc)
        s.steps -= 1 + len(omniscient) // 100  # a step per 100 characters logged
        if s.steps < 0:
            raise over_budget(s, self.loc)
        if self.to is not None:
            who = self.to(s, e)
            who = set(who) if self.to_kind != "player" else {who}
            return omniscient, [omniscient if p in who else None for p in s.players] + [None]
        if not self.secret:
            return omniscient, None
        g, table = s.game, self.table
        if table is None:  # compiled lines belong to one game: its zones' visibility is read once
            table = self.table = visibility_table(g)
        texts = [list(values) for _ in range(s.n + 1)]
        for i, p in enumerate(self.parts):
            if type(p) is not str and (p.checks or p.private or p.opaque):
                for text, clear in zip(texts, p.audience(s, e, table)):
                    if not clear:
                        text[i] = p.redacted
        seen = ["".join(t) for t in texts]
        return omniscient, None if all(t == omniscient for t in seen) else seen
