"""Compile 'show CARDS to PLAYERS': a private reveal.

The players named see the cards in their views (``"shown"`` beside the zone), in their narration
and in their trace, wherever the cards' zones would hide them, until the cards move: any
``move`` of a card, or a ``shuffle`` of its zone, ends it (``State.shown`` forgets the card).
Showing a card again adds to the players who see it.  A card shown to every player is public until
it moves: spectators see it too (``State.shown`` then lists the spectator's seat, the number of
players, after the players).
"""

from __future__ import annotations

from ..runtime.limits import over_budget
from .visitor import NodeVisitor


class ShowCompiler(NodeVisitor):
    """Lowering helper of the 'show' statement.  Reached as ``ctx.showing``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    def show(self, st, scope):
        """The closure of a 'show' statement (called from generated code)."""
        what, kind = self.ctx.exprs.expr(st.what, scope)
        if kind in ("card", "none"):
            cards_of = lambda s, e: [] if (c := what(s, e)) is None else [c]  # noqa: E731
        elif kind == "zone":
            cards_of = lambda s, e: s.zones[what(s, e)]  # noqa: E731
        else:  # a list of cards (other kinds: refused by the statement analysis)
            cards_of = what
        who, wkind = self.ctx.exprs.expr(st.to, scope)
        if wkind in ("player", "none"):
            players_of = lambda s, e: [p] if (p := who(s, e)) is not None else []  # noqa: E731
        else:  # a list of players (the statement analysis)
            players_of = who
        loc = self.ctx.location(st)

        def show(s, e):
            cards = [c for c in cards_of(s, e) if c is not None]
            players = sorted({p for p in players_of(s, e) if p is not None})
            s.steps -= len(cards)  # a step per card shown
            if s.steps < 0:
                raise over_budget(s, loc)
            if not cards or not players:
                return
            shown = s.shown
            for c in cards:
                before = shown.get(c)
                seen = players if before is None else sorted(set(before).union(players))
                if len(seen) == s.n:  # every player: a public reveal, spectators (seat n) see it too
                    seen = seen + [s.n]
                shown[c] = seen
            if s.trace is not None:
                s.traced_show(cards, players)
        return show
