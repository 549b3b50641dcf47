"""Who may see a card now, and log lines written for each audience (the run-time half of narration).

The rules are those of ``State.view``: a card in a ``public`` zone, in an ``owner`` zone of the
viewer's, on top of a ``top`` zone, shown to the viewer ('show'), or among the top cards of a zone
whose ``seen_by`` condition holds for the viewer; a card shown to every player is shown to
spectators too, and a card public in a zone hiding it (``State.public``: everyone watched it go
there, see ``interpreter.runtime.moves``) is seen by everyone.  What each ``{expression}`` of a log text may
reveal is worked out at load (``interpreter.dsl.narration``); a :class:`Line` writes the text each
audience may read.
"""

from __future__ import annotations

from ..errors import RibbitError, RuleError
from .limits import MAX_TEXT, over_budget

REDACTED = {"card": "a card", "list:card": "some cards"}
HIDDEN = "(hidden)"


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
    if s.shown and (s.n if viewer is None else viewer) in s.shown.get(card, ()):  # shown to the viewer
        return True  # ('show', until it moves; a spectator is seat n, listed when shown to every player)
    if s.public and card in s.public:  # everyone watched it go into the zone hiding it (runtime.moves)
        return True
    cards = s.zones[zone]
    if type(cards) is not list:  # chance mode: an undecided zone is hidden, and no one sees any of it
        return False
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


def option_cards(names, label: str, value) -> list:
    """The cards an option's value picks whose names its text shows: a card, a list of cards, a menu entry's item
    (``(entry, item)``), the parts of a pair.  (Reading too many is safe: those who may read the text are fewer.)"""
    if type(value) is tuple and len(value) == 2:  # a menu entry built from a list: (entry, item)
        value = value[1]
    items = value if type(value) in (list, tuple) else [value]
    flat = [part for item in items for part in (item if type(item) in (list, tuple) else [item])]
    return [c for c in flat if type(c) is int and 0 <= c < len(names) and names[c] in label]


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
        values = self._described(s, e)
        omniscient = "".join(values)
        self._charge(s, omniscient)
        if self.to is not None:
            return omniscient, self._told(s, e, omniscient)
        if not self.secret:
            return omniscient, None
        return omniscient, self._seen(s, e, values, omniscient)

    def _described(self, s, e) -> list:
        """Each part as text: literal strings as written, expressions described (a step per list item)."""
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
        return values

    def _charge(self, s, omniscient: str) -> None:
        """Refuse a line longer than the limit; pay a step per 100 characters logged."""
        if len(omniscient) > MAX_TEXT:
            raise RuleError(f"this log line would be {len(omniscient):,} characters long; a line is at most "
                            f"{MAX_TEXT:,} (log a count, or fewer items)", self.loc)
        s.steps -= 1 + len(omniscient) // 100  # a step per 100 characters logged
        if s.steps < 0:
            raise over_budget(s, self.loc)

    def _told(self, s, e, omniscient: str):
        """A line ``to`` some players: the text for them, nothing for the others (None if told to every player)."""
        who = self.to(s, e)
        who = set(who) if self.to_kind != "player" else {who}
        texts = [omniscient if p in who else None for p in s.players]
        public = all(text is not None for text in texts)  # told to every player: spectators read it too
        return None if public else texts + [None]

    def _seen(self, s, e, values: list, omniscient: str):
        """Each audience's text, its hidden parts redacted (None if every audience reads the omniscient text)."""
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
        return None if all(t == omniscient for t in seen) else seen


def show_cards(s, cards, players, loc):
    """'show CARDS to PLAYERS': those players see the cards until they move (``State.shown``); a card shown
    to every player is public, spectators (seat n) see it too.  A step per card shown."""
    cards = [c for c in cards if c is not None]
    players = sorted({p for p in players if p is not None})
    s.steps -= len(cards)
    if s.steps < 0:
        raise over_budget(s, loc)
    if not cards or not players:
        return
    shown = s.shown
    for c in cards:
        before = shown.get(c)
        seen = players if before is None else sorted(set(before).union(players))
        if len(seen) == s.n:
            seen = seen + [s.n]
        shown[c] = seen
    if s.trace is not None:
        s.traced_show(cards, players)
