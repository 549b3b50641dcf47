"""The playout build: the same compiled rules without what only a watched game needs.

A playout (``interpreter/playout.py``) plays an untraced state that keeps no log on to its end: nobody reads
its trace or its narration.  So a second build of the game (``CompileOptions(playout=True)``, made by
``Game.playout_build`` the first time a playout needs it) is compiled from the same rules by the same passes,
and only each generated function's tree is rewritten, in place, as it is handed to the code unit
(:class:`Rewrite`): the trace blocks (``if s.trace is not None: ...``) and the narration
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
a move into a public zone never does.  ``move ZONE to ZONE`` between two zones known so calls a mover that
knows at load which of the cards stay public.
"""

from __future__ import annotations

import ast
import copy
import itertools
from itertools import compress

from ..runtime import values as V
from ..runtime.limits import over_budget
from ..runtime.moves import move_card, move_card_unwatched, move_zone, move_zone_unwatched
from ..runtime.values import SpaceIndex
from .pyast import expr, name, shape

# The state's attributes whose blocks (``if s.<name> is not None: ...``) only a watched game runs.
WATCHED = ("trace", "log")


class Rewrite:
    """The playout build's rewrite of each function a code unit makes (``CodeUnit.rewrite``): one per build.

    A statement node may be shared by two places of the code (a loop's test written where the loop starts and
    where it goes round again); it is rewritten once, and what was written out before it is put before it
    wherever it appears (``before``)."""

    __slots__ = ("before", "blocks", "temps")

    def __init__(self):
        self.before: dict = {}  # id(statement) -> (it, the statements written out before it)
        self.blocks: dict = {}  # id -> each statement list rewritten (a shared list once; kept, so ids stay theirs)
        self.temps = itertools.count()  # u0, u1, ...: the Python locals of what is written out

    def __call__(self, unit, fdef: ast.FunctionDef) -> ast.FunctionDef:
        """``fdef`` as the playout build has it, changed in place (the nodes it keeps are the same objects: the
        layout fills jump targets into them after this): its trace and narration blocks dropped, and the
        run-time helpers it calls first in a statement written out (:func:`_written_out`).  Returns ``fdef``."""
        stack = [(fdef, _position(fdef, (1, 0)))]
        while stack:
            node, at = stack.pop()
            for field in ("body", "orelse", "finalbody", "handlers"):
                block = getattr(node, field, None)
                if block.__class__ is not list or not block or id(block) in self.blocks:
                    continue
                if field != "handlers":
                    self.blocks[id(block)] = block
                    _drop_watched(node, field, block)
                    self._write_out_helpers(unit, block, at)
                stack.extend((st, _position(st, at)) for st in block)
        return fdef

    def _write_out_helpers(self, unit, block: list, at) -> None:
        """Each statement of ``block`` whose first call with an effect is one of :data:`_HELPERS` gets the helper
        written out before it (see :func:`_written_out`); what is written out is itself looked at in turn."""
        i = 0
        while i < len(block):
            st = block[i]
            known = self.before.get(id(st))
            if known is not None and known[0] is st:  # rewritten where it appeared first: the same before it
                written = known[1]
                block[i:i] = written
                i += len(written) + 1
                continue
            found = _first_helper_call(unit, st, _position(st, at))
            if found is None:
                i += 1
                continue
            written = _written_out(unit, *found, f"u{next(self.temps)}")
            self._write_out_helpers(unit, written, found[-1])  # (the list written out may call a helper first too)
            self.before[id(st)] = (st, written)
            block[i:i] = written
            i += len(written) + 1


def _position(node, at) -> tuple:
    """(line, column) of ``node``, or ``at`` (its nearest positioned ancestor's) when it has none yet, as
    ``CodeUnit.located`` will give it."""
    line = getattr(node, "lineno", None)
    return at if line is None else (line, node.col_offset or 0)


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
    return move_card_unwatched, [ctx.code.constant(zone_shows(ctx, into_public=spec.visibility == "public"))]


def zone_mover(ctx, src, dest):
    """(the function the playout build's ``move ZONE to ZONE`` calls as ``f(s, src, dest, bottom, loc, *extra)``,
    ``extra``): :func:`~interpreter.runtime.moves.move_zone` itself unless both zones are known at load."""
    source, target = _known_zone(ctx, src), _known_zone(ctx, dest)
    if source is None or target is None:
        return move_zone, []
    keeps = 0 if target.visibility == "public" else {"public": 1, "top": 2}.get(source.visibility, 0)
    return move_zone_unwatched, [ast.Constant(keeps)]


def zone_shows(ctx, into_public: bool) -> tuple:
    """Per zone index, what a card taken from it into a zone that does not show everything leaves public: 2 if
    the zone is public, 1 if it shows its top card, 0 else; all zeros into a public zone (one tuple of each per
    game)."""
    if ctx.zone_shows is None:
        shows = tuple({"public": 2, "top": 1}.get(spec.visibility, 0) for spec in ctx.m.zone_spec)
        ctx.zone_shows = (shows, (0,) * len(shows))
    return ctx.zone_shows[into_public]


def _known_zone(ctx, dest):
    """The ZoneSpec of the lowered zone ``dest`` when its tree says which zone it is, else None: ``k`` (a zone of
    the game), ``base + player`` (a player's zone), ``K[i][space]`` (a space's zone: ``K[i]`` a SpaceIndex)."""
    specs = ctx.m.zone_spec
    if _zone_number(dest, specs):
        return specs[dest.value]
    if dest.__class__ is ast.BinOp and dest.op.__class__ is ast.Add and _zone_number(dest.left, specs):
        spec = specs[dest.left.value]
        return spec if spec.per == "player" and spec.base == dest.left.value else None
    if dest.__class__ is ast.Subscript and _plain(dest.value) and dest.value.__class__ is ast.Subscript:
        return _space_zone(ctx, dest.value.slice.value, specs)
    return None


def _zone_number(node, specs) -> bool:
    return node.__class__ is ast.Constant and type(node.value) is int and 0 <= node.value < len(specs)


def _space_zone(ctx, k, specs):
    """The ZoneSpec of the zones of ``K[k]`` when it is a SpaceIndex of one per-space zone, else None."""
    index = ctx.code.constants[k] if type(k) is int and 0 <= k < len(ctx.code.constants) else None
    if not isinstance(index, SpaceIndex) or not index:
        return None
    found = {specs[z].name: specs[z] for z in index.values()}
    return next(iter(found.values())) if len(found) == 1 else None


# Run-time helpers (runtime/values.py) written out where a statement calls one first: the step charge and the
# check as in the helper, then its C call.  name -> (its parameters after s, the expression it is, over U the list).
_HELPERS = {
    V.count_in: (("XS", "ROW", "LOC"), "sum(MAP(ROW, U))"),
    V.any_in: (("XS", "ROW", "LOC"), "any(MAP(ROW, U))"),
    V.all_in: (("XS", "ROW", "LOC"), "all(MAP(ROW, U))"),
    V.kept: (("XS", "ROW", "LOC"), "list(COMPRESS(U, MAP(ROW, U)))"),
    V.paid: (("XS", "LOC"), "U"),
}


def _first_helper_call(unit, st, at):
    """(the path to it, the call, its position) of the helper call ``st`` makes before anything else with an
    effect or an error, or None; the path is the (node, field, index) steps from the statement down.  That is the
    call reached from the statement's expression through what Python evaluates first (:func:`_first_steps`), so
    writing the helper out just before the statement runs the same operations in the same order."""
    field = _STATEMENT_FIELDS.get(st.__class__)
    if field is None:
        return None
    path = [(st, field, None)]
    for _ in range(64):  # (generated expressions nest less deep; the bound only keeps the walk finite)
        owner, field, index = path[-1]
        node = getattr(owner, field) if index is None else getattr(owner, field)[index]
        if node is None:
            return None
        at = _position(node, at)
        if node.__class__ is ast.Call and _helper(unit, node) is not None:
            return path, node, at
        steps = _first_steps(node)
        if not steps:
            return None
        path += steps
    return None


# The expression of a statement that is evaluated first, before the statement does anything else.
_STATEMENT_FIELDS = {ast.If: "test", ast.Assign: "value", ast.Expr: "value", ast.Return: "value", ast.For: "iter"}


def _first_steps(node) -> list:
    """The path steps from ``node`` to the part of it Python evaluates first: an operand on the left, the first
    value of ``and``/``or``, the list a comprehension scans, the first argument of a call of a name or ``K[i]``
    (after constants and names); [] when it is none of those."""
    kind = node.__class__
    if kind is ast.UnaryOp:
        return [(node, "operand", None)]
    if kind is ast.BoolOp:
        return [(node, "values", 0)]
    if kind is ast.Compare or kind is ast.BinOp:
        return [(node, "left", None)]
    if kind is ast.ListComp or kind is ast.GeneratorExp or kind is ast.SetComp:
        return [(node, "generators", 0), (node.generators[0], "iter", None)]
    if kind is ast.Call:
        return _first_argument(node)
    return []


def _first_argument(call) -> list:
    """The path step to the first argument of ``call`` that is not a constant or a name, when the function called
    is a name or ``K[i]`` and the arguments are plain positional ones; else []."""
    if not _plain(call.func) or call.keywords or any(arg.__class__ is ast.Starred for arg in call.args):
        return []
    first = next((k for k, arg in enumerate(call.args) if not _plain(arg)), None)
    return [] if first is None else [(call, "args", first)]


def _replaced(path, made) -> None:
    """``made`` put where ``path`` ends, every expression node on the way copied (a generated expression may be
    shared by two statements: the other keeps its own); the statement itself is changed in place."""
    holders = [path[0][0]] + [copy.copy(owner) for owner, _, _ in path[1:]]
    for k, (_, field, index) in enumerate(path):
        child = holders[k + 1] if k + 1 < len(holders) else made
        if index is None:
            setattr(holders[k], field, child)
        else:
            items = list(getattr(holders[k], field))
            items[index] = child
            setattr(holders[k], field, items)


def _plain(node) -> bool:
    """A constant, a name or ``K[i]``: read with no effect and no error."""
    kind = node.__class__
    return kind is ast.Constant or kind is ast.Name or (
        kind is ast.Subscript and node.value.__class__ is ast.Name and node.value.id == "K"
        and node.slice.__class__ is ast.Constant)


def _helper(unit, call):
    """The entry of :data:`_HELPERS` that ``call`` (``K[i](s, ...)``) calls with plain arguments, else None."""
    func = call.func
    if not (func.__class__ is ast.Subscript and _plain(func) and func.value.id == "K") or call.keywords:
        return None
    found = _HELPERS.get(_constant(unit, func.slice.value))
    if found is None or len(call.args) != len(found[0]) + 1:
        return None
    first = call.args[0]
    if not (first.__class__ is ast.Name and first.id == "s") or not all(map(_plain, call.args[2:])):
        return None
    return found


def _constant(unit, index):
    try:
        value = unit.constants[index]
    except (IndexError, TypeError):
        return None
    return value if callable(value) and value.__hash__ is not None else None


def _written_out(unit, path, call, at, u: str) -> list:
    """The statements that do what the helper ``call`` did before handing back its value, the call replaced (at
    the end of ``path``) by that value's expression: the list worked out into a Python local, the step charge
    and its check (the helper's own error, at the call's place), then the C call."""
    params, value = _helper(unit, call)
    args = dict(zip(params, call.args[1:]))
    statements = shape("""
        U = XS
        s.steps -= len(U)
        if s.steps < 0:
            raise OVER(s, LOC)
    """, U=name(u), XS=args["XS"], OVER=unit.constant(over_budget), LOC=args["LOC"])
    made = expr(value, U=name(u), ROW=args.get("ROW"), MAP=unit.constant(map), COMPRESS=unit.constant(compress))
    _replaced(path, made)
    line, column = at
    for st in statements:
        for node in ast.walk(st):
            if node._attributes and getattr(node, "lineno", None) is None:
                node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = line, column, line, column
    return statements
