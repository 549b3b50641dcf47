"""Counting which rules run, for designers: the coverage build (``CompileOptions(coverage=True)``).

Each procedure, hook, trigger, card ability and listener bumps its counter where its body starts,
wherever that body was compiled (its own function, inlined into a caller or spliced into one), and
each menu option where its code starts, whether a player chose it or it was the only one open.  So
every run is counted exactly, once, whatever the optimisations did with the code.

The counters are a plain list held by the compiled game (``game.coverage``, a :class:`RuleCounts`),
never by a state: saves, clones and replays do not carry them.  Without the option nothing here
adds a single statement, so the generated code of a normal build is the same byte for byte.
"""

from __future__ import annotations

import ast

from . import ast as A
from .pyast import shape
from .visitor import NodeVisitor


class RuleCounts:
    """The counters of one compiled game: a slot per counted rule, numbered as the compiler meets them."""

    def __init__(self):
        self.counts: list = []  # slot -> runs so far (changed in place only: generated code holds this list)
        # ("proc", id) or ("option", where, id(MenuOption)) -> slot.  A node is known by the rule it is in
        # too: rules with the same text share their parsed nodes (the parser's cache).
        self.slots: dict = {}
        self.options: list = []  # (slot, MenuOption node, its Location, the where of the rule it is in)
        self.before: dict = {}  # (where, id(statement)) -> (it, slot): counted where it starts (a guarded trigger body)

    def slot(self, key) -> int:
        found = self.slots.get(key)
        if found is None:
            found = self.slots[key] = len(self.counts)
            self.counts.append(0)
        return found

    def take(self) -> list:
        """The counts so far, the counters set back to zero."""
        taken = self.counts[:]
        self.counts[:] = [0] * len(taken)
        return taken


class CoverageCompiler(NodeVisitor):
    """Lowering helper of the coverage build: the counting statements.  Reached as ``ctx.coverage``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    def rule_counts(self) -> RuleCounts:
        counts = getattr(self.ctx.m, "coverage", None)
        if counts is None:
            counts = self.ctx.m.coverage = RuleCounts()
        return counts

    def count_entry(self, proc) -> list:
        """Python statements counting one run of ``proc``'s body ([] unless the game counts coverage).

        A trigger with an ``if:`` is counted when it fires: where the body its condition guards starts."""
        if not self.ctx.options.coverage:
            return []
        counts = self.rule_counts()
        slot = counts.slot(("proc", proc.id))
        guarded = guarded_body(proc)
        if guarded:
            counts.before[(self._rule(), id(guarded[0]))] = (guarded[0], slot)
            return []
        return self._bump(counts, slot)

    def count_before(self, st) -> list:
        """Python statements counting a rule that starts at statement ``st`` ([] for any other statement)."""
        if not self.ctx.options.coverage:
            return []
        counts = self.rule_counts()
        found = counts.before.get((self._rule(), id(st)))
        return self._bump(counts, found[1]) if found is not None and found[0] is st else []

    def count_option(self, opt) -> list:
        """Python statements counting one choice of menu option ``opt`` ([] unless the game counts coverage)."""
        if not self.ctx.options.coverage:
            return []
        counts = self.rule_counts()
        key = ("option", self._rule(), id(opt))
        if key not in counts.slots:
            counts.options.append((counts.slot(key), opt, self.ctx.location(opt), self.ctx.where))
        return self._bump(counts, counts.slots[key])

    def _rule(self):
        """The key path of the rule being compiled (a spliced or inlined one's own), as a dict key."""
        return tuple(self.ctx.where) if isinstance(self.ctx.where, list) else self.ctx.where

    def _bump(self, counts, slot) -> list:
        return shape("C[I] += 1", C=self.ctx.stmts.K(counts.counts), I=ast.Constant(slot))


def guarded_body(proc) -> tuple:
    """The statements a trigger's ``if:`` guards (the loader wraps them in an ``if`` of its own, at line 0), or ()."""
    body = proc.body
    if proc.where and proc.where[0] == "triggers" and len(body) == 1 and isinstance(body[0], A.If) \
            and body[0].line == 0 and len(body[0].branches) == 1 and not body[0].orelse:
        return body[0].branches[0][1]
    return ()
