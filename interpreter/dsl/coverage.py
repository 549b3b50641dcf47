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

from .pyast import shape


class RuleCounts:
    """The counters of one compiled game: a slot per counted rule, numbered as the compiler meets them."""

    def __init__(self):
        self.counts: list = []  # slot -> runs so far (changed in place only: generated code holds this list)
        self.slots: dict = {}  # ("proc", id) or ("option", id(MenuOption)) -> slot
        self.options: list = []  # (slot, MenuOption node, its Location, the where of the rule it is in)

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


class CoverageCompiler:
    """Mixin of :class:`interpreter.dsl.compiler.Compiler`: the counting statements of the coverage build."""

    def rule_counts(self) -> RuleCounts:
        counts = getattr(self.m, "coverage", None)
        if counts is None:
            counts = self.m.coverage = RuleCounts()
        return counts

    def count_entry(self, proc) -> list:
        """Python statements counting one run of ``proc``'s body ([] unless the game counts coverage)."""
        if not self.options.coverage:
            return []
        counts = self.rule_counts()
        return self._bump(counts, counts.slot(("proc", proc.id)))

    def count_option(self, opt) -> list:
        """Python statements counting one choice of menu option ``opt`` ([] unless the game counts coverage)."""
        if not self.options.coverage:
            return []
        counts = self.rule_counts()
        key = ("option", id(opt))
        if key not in counts.slots:
            counts.options.append((counts.slot(key), opt, self.location(opt), self.where))
        return self._bump(counts, counts.slots[key])

    def _bump(self, counts, slot) -> list:
        return shape("C[I] += 1", C=self.K(counts.counts), I=ast.Constant(slot))
