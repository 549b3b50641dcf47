"""The playout build: the same compiled rules without what only a watched game needs.

A playout (``interpreter/playout.py``) plays an untraced state that keeps no log on to its end: nobody reads
its trace or its narration.  So a second build of the game (``CompileOptions(playout=True)``, made by
``Game.playout_build`` the first time a playout needs it) is compiled from the same rules by the same passes,
and only each generated function's tree is rewritten, in place, as it is handed to the code unit
(:func:`rewrite`): the trace blocks (``if s.trace is not None: ...``) and the narration
(``if s.log is not None: ...``) go.  Both only read the state (a trace block puts the generator and the step
budget back as it found them), so on a state with neither the two builds do exactly the same work.

What the rewrite keeps, so that a state made by one build runs on in the other (``playout`` switches a
state's game to this build at a decision and back when it ends):

* the layout: the same procedures, functions, instructions (pcs), jumps and env keys, made by the same
  passes in the same order (``layout_hash.frame_layout`` describes it; a test compares the two builds);
* every step charged (loops, calls and the run-time helpers charge the same), so a definition that
  loops or recurses without end stops with the same located error in both;
* every check that raises (none checks, bounds, located errors) and every option's text.

A one-card move whose destination's visibility is known at load (a game zone, or a player's zone: the
lowering writes ``base`` or ``base + player``) calls a mover made for it (:func:`card_mover`): no trace, no
chance-mode zones, each zone's visibility read from a table made at load, and none of the ``public`` work
a move into a public zone never does.
"""

from __future__ import annotations

import ast

from ..runtime.moves import move_card, move_card_to_public_unwatched, move_card_unwatched
from ..runtime.values import SpaceIndex

# The state's attributes whose blocks (``if s.<name> is not None: ...``) only a watched game runs.
WATCHED = ("trace", "log")


def rewrite(fdef: ast.FunctionDef) -> ast.FunctionDef:
    """``fdef`` without its trace and narration blocks, changed in place (the nodes it keeps are the same
    objects: the layout fills jump targets into them after this).  Returns ``fdef``."""
    stack = [fdef]
    while stack:
        node = stack.pop()
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, field, None)
            if block.__class__ is not list or not block:
                continue
            if field != "handlers":
                _drop_watched(node, field, block)
            stack.extend(block)
    return fdef


def _drop_watched(node, field: str, block: list) -> None:
    """The watched blocks of one statement list dropped; an ``elif`` that is one becomes an empty ``else``."""
    kept = [st for st in block if not _watched(st)]
    if len(kept) == len(block):
        return
    if not kept and field == "orelse":
        node.orelse = []  # (an 'elif s.log is not None: ...' with nothing after it)
        return
    block[:] = kept or [ast.Pass()]


def _watched(st) -> bool:
    """Whether ``st`` is ``if s.trace is not None: ...`` or ``if s.log is not None: ...`` with no else."""
    if st.__class__ is not ast.If or st.orelse:
        return False
    test = st.test
    return (test.__class__ is ast.Compare and len(test.ops) == 1 and test.ops[0].__class__ is ast.IsNot
            and test.comparators[0].__class__ is ast.Constant and test.comparators[0].value is None
            and test.left.__class__ is ast.Attribute and test.left.attr in WATCHED
            and test.left.value.__class__ is ast.Name and test.left.value.id == "s")


def card_mover(ctx, dest) -> tuple:
    """(the function the playout build's ``move CARD to ZONE`` calls as ``f(s, card, dest, bottom, *extra)``,
    ``extra``) for the lowered destination ``dest``: :func:`~interpreter.runtime.moves.move_card` itself unless
    the zone's visibility is known at load (see the module's docstring)."""
    spec = _known_zone(ctx, dest)
    if spec is None:
        return move_card, []
    if spec.visibility == "public":
        return move_card_to_public_unwatched, []
    return move_card_unwatched, [ctx.code.constant(zone_shows(ctx))]


def zone_shows(ctx) -> tuple:
    """Per zone index: 2 if it is public, 1 if it shows its top card, 0 else (one tuple per game)."""
    if ctx.zone_shows is None:
        ctx.zone_shows = tuple({"public": 2, "top": 1}.get(spec.visibility, 0) for spec in ctx.m.zone_spec)
    return ctx.zone_shows


def _known_zone(ctx, dest):
    """The ZoneSpec of the lowered zone ``dest`` when its tree says which zone it is, else None: ``k`` (a zone of
    the game), ``base + player`` (a player's zone), ``K[i][space]`` (a space's zone: ``K[i]`` a SpaceIndex)."""
    specs = ctx.m.zone_spec
    if dest.__class__ is ast.Constant and type(dest.value) is int and 0 <= dest.value < len(specs):
        return specs[dest.value]
    if dest.__class__ is ast.BinOp and dest.op.__class__ is ast.Add and dest.left.__class__ is ast.Constant \
            and type(dest.left.value) is int and 0 <= dest.left.value < len(specs):
        spec = specs[dest.left.value]
        return spec if spec.per == "player" and spec.base == dest.left.value else None
    table = dest.value if dest.__class__ is ast.Subscript else None
    if table.__class__ is ast.Subscript and table.value.__class__ is ast.Name and table.value.id == "K" \
            and table.slice.__class__ is ast.Constant:
        index = ctx.code.constants[table.slice.value]
        if isinstance(index, SpaceIndex) and index:
            found = {specs[z].name: specs[z] for z in index.values()}  # (one zone per space: all of one spec)
            return next(iter(found.values())) if len(found) == 1 else None
    return None
