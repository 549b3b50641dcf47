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

A one-card move whose destination the IR names (:func:`known_zone`: a zone of the game, or ``hand(p)`` of a
player's or a space's zone) calls a mover made for it (:func:`card_mover`): no trace, no chance-mode zones,
each zone's visibility read from a table made at load, and none of the ``public`` work a move into a public
zone never does.  ``move ZONE to ZONE`` between two zones named so calls a mover that knows at load which of
the cards stay public.  The statement lowering (``visit_Move``) asks these functions with the IR's node and
its analysis note, never with the code it made.
"""

from __future__ import annotations

import ast

from . import ast as A
from ..runtime.moves import move_card, move_card_unwatched, move_zone, move_zone_unwatched


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


def card_mover(ctx, spec) -> tuple:
    """(the function the playout build's ``move CARD to ZONE`` calls as ``f(s, card, dest, bottom, *extra)``,
    ``extra``) for a destination of ZoneSpec ``spec`` (None: not known at load):
    :func:`~interpreter.runtime.moves.move_card` itself unless it is known (see the module's docstring)."""
    if spec is None:
        return move_card, []
    return move_card_unwatched, [ctx.code.constant(zone_shows(ctx, into_public=spec.visibility == "public"))]


def zone_mover(source, target) -> tuple:
    """(the function the playout build's ``move ZONE to ZONE`` calls as ``f(s, src, dest, bottom, loc, *extra)``,
    ``extra``) for zones of ZoneSpecs ``source`` and ``target`` (None: not known at load):
    :func:`~interpreter.runtime.moves.move_zone` itself unless both are known."""
    if source is None or target is None:
        return move_zone, []
    keeps = 0 if target.visibility == "public" else {"public": 1, "top": 2}.get(source.visibility, 0)
    return move_zone_unwatched, [ast.Constant(keeps)]


def zone_shows(ctx, into_public: bool) -> tuple:
    """Per zone index, what a card taken from it into a zone that does not show everything keeps public: 2 if
    the zone is public, 1 if it shows its top card, 0 else; all zeros into a public zone (one tuple of each per
    game)."""
    if ctx.zone_shows is None:
        shows = tuple({"public": 2, "top": 1}.get(spec.visibility, 0) for spec in ctx.m.zone_spec)
        ctx.zone_shows = (shows, (0,) * len(shows))
    return ctx.zone_shows[into_public]
