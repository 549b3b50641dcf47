"""The playout build: the same compiled rules without what only a watched game needs.

A playout (``interpreter/playout.py``) plays an untraced state that keeps no log on to its end: nobody reads
its trace or its narration.  So a second build of the game (``CompileOptions(playout=True)``, made by
``Game.playout_build`` the first time a playout needs it) is compiled from the same rules by the same passes,
and the lowering omits, where it makes them, the trace blocks (``if s.trace is not None: ...``) and the
narration (``if s.log is not None: ...``): ``StatementLowering.watched`` gives them, or none in this build.
Both only read the state (a trace block puts the generator and the step budget back as it found them), so
on a state with neither the two builds do exactly the same work.  Nothing reads the code once it is made.

What the build keeps, so that a state made by one build runs on in the other (``playout`` switches a
state's game to this build at a decision and back when it ends):

* the layout: the same procedures, functions, instructions (pcs), jumps and env keys, made by the same
  passes in the same order (``layout_hash.frame_layout`` describes it; a test compares the two builds).  A
  statement that only a watched game runs (a 'log', an 'emit' nothing handles) is lowered to nothing but
  keeps its instruction (``Run.kept`` in resumable.py);
* every step charged (loops, calls and the run-time helpers charge the same), so a definition that
  loops or recurses without end stops with the same located error in both;
* every check that raises (none checks, bounds, located errors) and every option's text.

Every card move calls a mover without trace or chance-mode checks (:func:`playout_mover`), told at load what
each source zone keeps public in its destination (a table per destination zone, made once per game), never
the watched movers: into a zone the IR names (:func:`known_zone`: a zone of the game, or ``hand(p)`` of a
player's or a space's zone) with that zone's table; into one worked out at run time through a small wrapper
that picks the row (``moves.move_card_anywhere``; a value that is no zone's index goes to the watched mover,
to fail as the normal build does).  The statement lowering (``visit_Move``) asks with the IR's node and its
analysis note, never with the code it made.
"""

from __future__ import annotations

import ast

from . import ast as A
from ..runtime.moves import (move_card_anywhere, move_card_unwatched, move_list_anywhere, move_list_unwatched,
                             move_zone_anywhere, move_zone_unwatched)


def known_zone(ctx, node, note):
    """The ZoneSpec of the zone expression ``node`` (its analysis note ``note``) when the IR says which zone it
    is, else None: a zone of the game (its note's constant is the zone's index, through an inlined parameter
    too), or a call of a player's or a space's zone (``hand(p)``: its note's shape is ``zone``)."""
    specs = ctx.m.zone_spec
    if note.kind == "zone" and type(note.const) is int and 0 <= note.const < len(specs):
        return specs[note.const]
    if note.shape == "zone" and isinstance(node, A.Call) and node.func in ctx.m.zones:
        spec = ctx.m.zones[node.func]
        if spec.per == "player" or (spec.per == "space" and ctx.board is not None and ctx.board.spaces):
            return spec
    return None


# Per kind of what moves (the statement analysis's kind of 'move''s first operand): the mover for a destination
# named by the IR (given its zone's ``shows``), and the one for a destination worked out at run time (given ``into``).
MOVERS = {
    "card": (move_card_unwatched, move_card_anywhere),
    "zone": (move_zone_unwatched, move_zone_anywhere),
    "list": (move_list_unwatched, move_list_anywhere),
}


def playout_mover(ctx, what: str, spec, source=None) -> tuple:
    """(the function the playout build's ``move`` of a ``what`` ('card', 'zone' or 'list') calls, as
    ``f(s, what, dest, bottom, *extra)`` for a card or ``f(s, what, dest, bottom, loc, *extra)`` else, ``extra``)
    into a destination of ZoneSpec ``spec`` (:func:`known_zone`; None: worked out at run time); a zone moved
    whole from a zone the IR names (its ZoneSpec ``source``) is told at load what stays public."""
    named, anywhere = MOVERS[what]
    if spec is None or (what == "zone" and source is None):
        return anywhere, [ctx.code.constant(_tables(ctx)[2])]
    if what == "zone":
        return named, [ast.Constant(0 if spec.visibility == "public" else _shows(source))]
    return named, [ctx.code.constant(_tables(ctx)[spec.visibility == "public"])]


def _shows(spec) -> int:
    """What a card taken from a zone of ZoneSpec ``spec`` into a zone that does not show everything keeps public:
    2 every card (a public zone), 1 its top card (a zone showing its top card), 0 nothing."""
    return {"public": 2, "top": 1}.get(spec.visibility, 0)


def _tables(ctx) -> tuple:
    """(shows, all zeros, into), one of each per game: ``shows`` per zone index what a card taken from that zone
    keeps public (:func:`_shows`) in a zone that does not show everything; the zeros into a public zone; ``into``
    per destination zone index the one of the two it takes."""
    if ctx.zone_shows is None:
        specs = ctx.m.zone_spec
        shows = tuple(_shows(spec) for spec in specs)
        zeros = (0,) * len(shows)
        ctx.zone_shows = (shows, zeros, tuple(zeros if spec.visibility == "public" else shows for spec in specs))
    return ctx.zone_shows
