"""Chance mode: a game whose random events are chance nodes, decided from outside (OpenSpiel, a test, a bot).

Plain functions of a :class:`~interpreter.state.State` (its methods ``is_chance``, ``chance_outcomes``,
``chance_node`` and ``apply_chance`` delegate here); the random events themselves are in
:mod:`interpreter.runtime.chance`.

A step (setup, or the rules run after a decision) keeps a copy of the state as it was before the step
(the *boundary*) and runs consuming the outcomes chosen for the step so far: its first run on the state
itself, so that a step drawing nothing costs one copy; each later run on a fresh copy of the boundary.  When it needs one more, the
step is dropped: the state is the boundary again, its decision answered (``pending`` is None, the
history ends with the action and the outcomes chosen so far), and the event waits as a chance node.
``apply_chance`` queues the outcome and runs the step again from the boundary, deterministically.
A step runs once per outcome it consumes; :data:`MAX_WORK` bounds what all its runs may spend.
"""

from __future__ import annotations

from . import run_loop as RUN
from .errors import IllegalActionError, RuleError
from .runtime import chance as RC

SETUP = "setup"  # ChanceMode.step of the setup (else: (seat index, player, action, option index, value))
CHANCE_PLAYER = -1  # the player of a chance outcome in ``history``: [CHANCE_PLAYER, outcome]
MAX_WORK = 10  # all runs of one step may spend at most this many times the game's step budget


def begin(s) -> None:
    """Put a new state, before setup runs, in chance mode."""
    s.chance = RC.ChanceMode()


def run_setup(s) -> None:
    """Run setup in chance mode (up to the first decision, or the first chance node)."""
    _start_step(s, SETUP)


def play(s, p, i, player, action, j, value) -> None:
    """A decision applied in chance mode: the step it starts runs from a boundary kept before it."""
    _start_step(s, (i, player, action, j, value))


def _start_step(s, step) -> None:
    """Keep the boundary (one copy of ``s``), then run the step's first run on ``s`` itself: a step that draws
    nothing (most decisions) is done with that one copy, and nothing is restored."""
    ctx = s.chance
    boundary = s.clone()
    quiet = boundary.chance  # the boundary's own chance mode: no step under way, nothing queued
    quiet.queue, quiet.used, quiet.node, quiet.boundary, quiet.step, quiet.live, quiet.spent = [], 0, None, None, None, False, 0
    ctx.boundary, ctx.step, ctx.queue, ctx.used, ctx.node, ctx.spent = boundary, step, [], 0, None, 0
    _run(s, s, [])


def _attempt(s, queue) -> None:
    """Run the current step again, on a copy of its boundary, with the outcomes ``queue``."""
    _run(s, s.chance.boundary.clone(), queue)


def _run(s, w, queue) -> None:
    """Run the current step on ``w`` (``s`` itself on its first run, else a fresh copy of the boundary) with
    the outcomes ``queue``; leave ``s`` at the next decision (the step done) or at a chance node (it needs one
    more outcome).  A rule that fails raises, and puts ``s`` back at the boundary, at the decision before the
    action (setup: at the chance node it was at; a first run of setup fails out of ``new_game``)."""
    ctx = s.chance
    boundary, step, spent = ctx.boundary, ctx.step, ctx.spent
    wctx = w.chance
    wctx.queue, wctx.used, wctx.live, wctx.spent = queue, 0, True, spent
    limit = s.game.step_limit
    try:
        try:
            if step == SETUP:
                RUN.set_up(w)
            else:
                i, player, action, j, value = step
                RUN.play(w, w.pending, i, player, action, j, value)
            if w.over:
                w._results()  # the scores may read undecided cards: decided now, while outcomes can be asked
        except RC.ChanceNeeded as need:
            spent += limit - min(w.steps, limit)
            if spent > MAX_WORK * limit:
                raise RuleError(f"this step's random events cost more than {MAX_WORK} times the step budget "
                                f"({limit:,} steps) to present one at a time in chance mode: it draws "
                                f"{len(queue) + 1} outcomes (draw fewer, or run the game seeded)") from None
            _present(s, need.event, spent, queue, boundary, step)
            return
    except BaseException:
        if step != SETUP or w is s:  # (a later run of setup changed nothing of ``s``: it stays at its chance node)
            s._restore(boundary.clone())
        raise
    wctx.live = False
    wctx.queue, wctx.used, wctx.node, wctx.boundary, wctx.step, wctx.spent = [], 0, None, None, None, 0
    if queue:
        w.history.extend([CHANCE_PLAYER, o] for o in queue)
    RC.settle(w.zones)
    if w is not s:
        s._restore(w)


def _present(s, event, spent, queue, boundary, step) -> None:
    """``s`` becomes the boundary of its step, waiting for ``event``'s outcome (``queue``: those chosen so far)."""
    b = boundary.clone()
    bctx = b.chance
    bctx.queue, bctx.node, bctx.boundary, bctx.step, bctx.spent = queue, event, boundary, step, spent
    b.pending = None
    b._made = None
    if step != SETUP:
        _, player, action, _, _ = step
        b.history.append([player, action])
    b.history.extend([CHANCE_PLAYER, o] for o in queue)
    s._restore(b)


# ---------------------------------------------------------------- the chance node, for callers
def is_chance(s) -> bool:
    return s.chance is not None and s.chance.node is not None


def node(s):
    """The pending Event, or an IllegalActionError saying there is none."""
    ctx = s.chance
    if ctx is None:
        raise IllegalActionError("this game was not started in chance mode (new_game(..., chance=True)): "
                                 "its random events are drawn from its seed, never asked")
    if ctx.node is None:
        raise IllegalActionError("no chance event is pending now (state.is_chance() is False)")
    return ctx.node


def outcomes(s) -> list:
    """[(outcome, probability)] of the pending chance event; empty when none is pending."""
    if not is_chance(s):
        return []
    return node(s).probabilities()


def describe(s) -> dict | None:
    """The pending chance event as plain data (``kind``, ``what``, ``outcomes``, ``weights``), or None."""
    if not is_chance(s):
        return None
    return node(s).to_json()


def outcome_text(s, outcome) -> str:
    """A readable text of ``outcome`` of the pending event (a card's name, or a number)."""
    event = node(s)
    _check_outcome(event, outcome)
    if event.kind == RC.CARD:
        return s.game.card_names[outcome]
    return str(outcome)


def apply_chance(s, outcome) -> None:
    """Choose ``outcome`` for the pending chance event: the step runs on, to a decision or the next chance node."""
    event = node(s)
    _check_outcome(event, outcome)
    _attempt(s, s.chance.queue + [outcome])  # a new list: clones at the chance node share the old one


def sample_outcome(s, rng) -> int:
    """An outcome of the pending chance event drawn by its probabilities: ``rng.randrange`` of the weights' sum."""
    event = node(s)
    r = rng.randrange(event.total)
    for o, w in zip(event.outcomes, event.weights):
        r -= w
        if r < 0:
            return o
    raise AssertionError("weights sum to total")  # pragma: no cover


def _check_outcome(event, outcome) -> None:
    if type(outcome) is not int or outcome not in event.outcomes:
        shown = ", ".join(map(str, event.outcomes[:12])) + (", ..." if len(event.outcomes) > 12 else "")
        raise IllegalActionError(f"{outcome!r}"[:60] + f" is not an outcome of the pending chance event "
                                 f"({event.what}); its outcomes are: {shown}")


def last_step_drew(s) -> bool:
    """In chance mode: the last action's step drew an outcome (the history ends with one), or waits for one."""
    return s.chance is not None and (s.history[-1][0] == CHANCE_PLAYER or s.chance.node is not None)


# ---------------------------------------------------------------- copies
def clone_into(src, c) -> None:
    """``c.chance`` and ``c.zones`` for ``c``, a clone of ``src`` (in chance mode)."""
    ctx = src.chance.copy()
    c.chance = ctx
    c.zones = RC.copy_zones(src.zones, ctx)


def undecided(s) -> list:
    """[[zone index, first undecided position, last + 1], ...] of the zones whose order is not decided."""
    return [[z, cards.lo, cards.hi] for z, cards in enumerate(s.zones)
            if type(cards) is RC.Unresolved and cards.lo < cards.hi]


def replay(state, history):
    """A fresh state like ``state`` (its game, players, seed, scenario, mode) with ``history`` applied."""
    before = type(state).start(state.game, state.n, state.seed, state.log is not None, state.scenario,
                               state.trace is not None, chance=state.chance is not None)
    for player, action in history:
        if player == CHANCE_PLAYER:
            before.apply_chance(action)
        else:
            before.apply(player, action)
    return before
