"""Rule coverage of a simulation: how often each setup step, procedure, hook, trigger, card ability,
listener and menu option ran (or was chosen) over the games, counted exactly by the coverage build
(``dsl/coverage.py``).

Only what the games themselves ran is counted: setup and every action applied.  Rule code a bot runs on
copies of the state while it thinks (a search bot's look-ahead) is not: the counts it adds are dropped
(:class:`Unwatched`).  Counting never changes a game: the same seeds give the same games, with or
without it.
"""

from __future__ import annotations

from pathlib import Path

from .dsl import ast as A
from .dsl.options import CompileOptions

COUNTING = CompileOptions(coverage=True)  # every optimisation on, and the counters

# the order of the kinds in a report
KINDS = ("setup step", "procedure", "hook", "trigger", "ability", "listener", "menu option")


class RuleCoverage:
    """Runs per rule, summed over games (and over chunks and processes: :meth:`merge`)."""

    def __init__(self):
        self.rules: dict = {}  # key -> [kind, name, where, runs]

    def add(self, game, counts: list) -> None:
        """Add one compiled game's counts (``RuleCounts.take()``) for the rules it knows."""
        for kind, name, where, slot in rules_of(game):
            entry = self.rules.setdefault(f"{kind}|{name}|{where}", [kind, name, where, 0])
            if slot is not None and slot < len(counts):
                entry[3] += counts[slot]

    def merge(self, other: "RuleCoverage") -> None:
        for key, (kind, name, where, runs) in other.rules.items():
            self.rules.setdefault(key, [kind, name, where, 0])[3] += runs

    def report(self) -> list:
        """The rules, never reached first, then the rarest: [kind, name, where, runs] each."""
        return sorted(self.rules.values(), key=lambda r: (r[3], KINDS.index(r[0]), r[2], r[1]))

    def never_reached(self) -> int:
        return sum(1 for rule in self.rules.values() if rule[3] == 0)

    def to_json(self, games: int) -> dict:
        return {"rules": len(self.rules), "never_reached": self.never_reached(),
                "items": [{"kind": kind, "name": name, "where": where, "runs": runs,
                           "per_game": runs / games if games else 0.0}
                          for kind, name, where, runs in self.report()]}


def rules_of(game) -> list:
    """(kind, name, where, counter slot or None) of every rule of a compiled game that a designer wrote."""
    counts = getattr(game, "coverage", None)
    slots = counts.slots if counts is not None else {}
    found = []
    for proc in game.procs:
        kind, name = _kind(proc)
        if kind is None:
            continue
        body = proc.body
        found.append((kind, name, _where(game.locate(proc.where, body[0] if body else None)),
                      slots.get(("proc", proc.id))))
    for slot, opt, loc, _ in (counts.options if counts is not None else ()):
        names = ", ".join(opt.var) if isinstance(opt.var, tuple) else opt.var  # 'for q, r in ...' takes pairs apart
        found.append(("menu option", opt.label + (f" for {names} in ..." if names else ""), _where(loc), slot))
    return found


def _kind(proc):
    """(kind, name) of a procedure as a designer knows it; (None, None) for the flow, setup as a whole and the
    wrappers of hooked procedures."""
    top = proc.where[0] if proc.where else None
    if top == "procedures":
        last = proc.body[-1] if proc.body else None
        if isinstance(last, A.Return) and isinstance(last.value, A.Name) and last.value.name == "$result":
            return None, None  # the wrapper that runs a hooked procedure's hooks (its own body is counted)
        return "procedure", proc.name
    if top == "$hooks":
        target, when, _ = proc.name.rsplit(" ", 2)
        return "hook", f"{when} {target}"
    if top == "triggers":
        return "trigger", proc.name
    if top == "setup" and len(proc.where) > 1:  # a named step (a variant may add one); not setup as a whole
        return "setup step", proc.name.removeprefix("setup step ")
    if top == "components":
        return ("listener" if "listeners" in proc.where else "ability"), proc.name
    return None, None


def _where(loc) -> str:
    name = Path(loc.file).name
    return f"{name}:{loc.line}" if loc.line else f"{name}: {loc.key}" if loc.key else name


def compiled_games(game) -> list:
    """The game and the boards it compiled per player count (each has counters of its own)."""
    return [game, *(getattr(game, "family", None) or {}).values()]


def take(game) -> list:
    counts = getattr(game, "coverage", None)
    return counts.take() if counts is not None else []


class Unwatched:
    """A bot whose thinking is not counted: the counters are put back as they were after it chose."""

    def __init__(self, bot):
        self.bot = bot
        if getattr(bot, "act_id", None) is not None:  # the random bot: picks a number, runs no rule
            self.act_id = bot.act_id
        if getattr(bot, "playout_rng", None) is not None:  # and plays as state.playout does
            self.playout_rng = bot.playout_rng

    def act(self, state, seat):
        counts = getattr(state.game, "coverage", None)
        saved = counts.counts[:] if counts is not None else None
        try:
            return self.bot.act(state, seat)
        finally:
            if saved is not None:
                counts.counts[:] = saved


def check_counting(game) -> None:
    """Refuse a game loaded without the counters: its coverage would read 0 for every rule."""
    options = getattr(game, "compile_options", None)
    if options is None or not options.coverage:
        raise ValueError("counting rule coverage needs the game loaded with options=interpreter.coverage.COUNTING")

