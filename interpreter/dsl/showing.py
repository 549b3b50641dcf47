"""Compile 'show CARDS to PLAYERS': a private reveal.

The players named see the cards in their views (``"shown"`` beside the zone), in their narration
and in their trace, wherever the cards' zones would hide them, until the cards move: any
``move`` of a card, or a ``shuffle`` of its zone, ends it (``State.shown`` forgets the card).
Showing a card again adds to the players who see it.  A card shown to every player is public until
it moves: spectators see it too (``State.shown`` then lists the spectator's seat, the number of
players, after the players).
"""

from __future__ import annotations

import ast

from ..runtime.visibility import show_cards
from .pyast import py
from .visitor import NodeVisitor


class ShowCompiler(NodeVisitor):
    """Lowering helper of the 'show' statement.  Reached as ``ctx.showing``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    def show(self, st, scope) -> list:
        """A 'show' statement: generated code calling ``runtime.visibility.show_cards`` with two lists."""
        cards, kind = self.ctx.exprs.expr_code(st.what, scope)
        if kind in ("card", "none"):
            cards = py("[_0]", cards)  # (a none in the list is skipped)
        elif kind == "zone":
            cards = py("s.zones[_0]", cards)
        # (else a list of cards; other kinds: refused by the statement analysis)
        players, wkind = self.ctx.exprs.expr_code(st.to, scope)
        if wkind in ("player", "none"):  # (else a list of players: the statement analysis)
            players = py("[_0]", players)
        loc = self.ctx.code.constant(self.ctx.location(st))
        return [ast.Expr(self.ctx.exprs.helper(show_cards, ast.Name("s", ast.Load()), cards, players, loc))]
