"""The run loop: rule code runs from a chosen option to the next decision, or to the end of the game.

A state's suspended rule code is a stack of frames (``Frame``: procedure id, pc, locals, return slot);
each procedure is one generated function ``code(state, frame, pc)`` that returns the next pc, or
``SUSPEND`` once it has set a pending decision.  A chosen option is written into the waiting frame and
the loop resumes; the work between two decisions is bounded by the game's step budget (``steps``,
reset at each decision).  A rule that fails rewinds the action (the game is replayed without it) and
raises a RuleError naming the statement that failed.

Plain functions of a :class:`~interpreter.state.State` (``State`` binds them as its ``_run``,
``_rewind``; :meth:`State.start` calls :func:`set_up`).  In chance mode (:mod:`interpreter.chance`) a
decision's step runs from a boundary kept before it instead, and a failed step goes back to that boundary.
"""

from __future__ import annotations

from . import trace as TR
from .errors import RibbitError, RuleError, quote
from .runtime.control import SUSPEND, GameOver
from .runtime.sandbox import SAFE_BUILTINS, failed_at, in_ribbit_words

# How a finished game ended (``State.ended_by``; None while it runs):
END_STATEMENT = "end game"  # an effect said ``end game``
END_OF_FLOW = "flow"  # the flow ran out: the last phase's ``until`` held (or its single round was played)
DECISION_CAP = "decision cap"  # stopped from outside by ``State.abandon`` (a simulation's cap): no winner


def run(state) -> None:
    """Run rule code until a player must decide or the game ends."""
    codes = state.game.codes
    frames = state.frames
    ended_by = END_OF_FLOW
    try:
        while frames:
            fr = frames[-1]
            code = codes[fr.pid]
            pc = fr.pc
            while pc >= 0:
                pc = code(state, fr, pc)
            if pc == SUSPEND:
                return
    except GameOver:
        ended_by = END_STATEMENT
    except (RibbitError, RecursionError):
        raise
    except Exception as exc:  # no check foresaw it: name the statement whose code was running
        raise unforeseen(state, exc, fr, code, pc) from exc
    end(state, ended_by)


def unforeseen(state, exc, fr, code, pc) -> "_Unforeseen":
    """The error to raise for ``exc``, a Python error no check foresaw, raised while frame ``fr`` ran ``code`` from
    ``pc``: it names the statement whose code was running, and ``exc`` is its cause."""
    fr, pc = _failing_frame(exc, fr, _pc_at(exc, code, pc))
    error = _Unforeseen(_located(state.game, exc, state.game.procs[fr.pid], pc))
    error.__cause__ = exc
    return error


def end(state, ended_by: str, winners=None) -> None:
    """The game is over (``ended_by`` says how; ``winners``: imposed from outside, else None)."""
    state.frames.clear()
    state.pending = None
    state.over = True
    if winners is not None:
        state.forced_winners = winners
    state.ended_by = ended_by
    state._result = None


def set_up(state) -> None:
    """Run a new game's setup to its first decision; a rule that fails is a located RuleError."""
    try:
        state._run()  # (the state's own: a test or a tool may wrap it)
        if state.trace is not None:
            TR.changed(state)
    except RuleError as error:
        if state.steps >= 0:
            raise
        raise endless_flow(state, error, (0, 0), flow_progress(state)) from None
    except RibbitError:
        raise
    except RecursionError:
        raise RuleError("effects nested too deeply during setup (endless recursion?)") from None
    except Exception as exc:
        cause, where = _unforeseen(exc)
        raise RuleError(f"a rule failed while setting up the game: {in_ribbit_words(cause)}", where) from cause


def play(state, p, i, player, action, j, value) -> None:
    """Seat ``i`` of ``p`` (``player``) chose option ``j`` (text ``action``, value ``value``): record and resolve it."""
    ch = state.chance
    if ch is not None and not ch.live:  # chance mode: the step runs from a kept boundary (interpreter.chance)
        return state._play_from_boundary(p, i, player, action, j, value)
    state.history.append([player, action])
    if state.trace is not None:
        labels, values = state._options(p, i)
        TR.decided(state, player, p.prompt, labels, values, j, False, p.secret)
    try:
        if p.each:
            p.chosen[i] = [value]
            if None in p.chosen:
                return
            env = state.frames[-1].env
            result = list(env[p.dest])  # a new list: clones may share the old one
            for who, done in zip(p.players, p.chosen):
                result[who] = done[0]
            env[p.dest] = result
        elif p.dest is None:  # a menu: the value is where the chosen option's code starts
            state.frames[-1].pc = value
        else:
            state.frames[-1].env[p.dest] = value
        state.pending = None
        state.steps = state.game.step_limit
        state._run()
        if state.trace is not None:
            TR.changed(state)
    except Exception as exc:
        failed(state, exc, player)


def failed(state, exc, player):
    """A rule failed while ``player``'s action resolved: rewind the action and raise the error (located, if
    unforeseen).  The message does not quote the action: it may reach every seat (a bot's action stops a web
    table for all), and the action's text may be a secret choice or name cards some of them cannot see."""
    progress = flow_progress(state) if state.steps < 0 and isinstance(exc, RuleError) else None
    rewind(state)
    if progress is not None and state.chance is None:  # the budget ran out: was it the flow that looped?
        exc = endless_flow(state, exc, flow_progress(state), progress)
    if isinstance(exc, RibbitError):
        raise exc
    if isinstance(exc, RecursionError):
        raise RuleError(f"effects nested too deeply after player {player + 1}'s action (endless recursion?)") from None
    # a rule failed in a way no check foresaw: never half an action
    cause, where = _unforeseen(exc)
    raise RuleError(f"a rule failed after player {player + 1}'s action: {in_ribbit_words(cause)}; "
                    "the game is back where it was before that action", where) from cause


ENDLESS_FLOW_AFTER = 10  # turns (rounds) of the flow without a decision before the budget ran out: the flow loops


def flow_progress(state) -> tuple:
    """What an endless flow is told by, read where a rule failed: the turn and round counters, and the phases
    started so far (a phase of turns keeps its player in a local of the flow, ``$phase<i>``)."""
    started = [k for k in state.frames[0].env if type(k) is str and k.startswith("$phase")] if state.frames else []
    return state.gv["turn"], state.gv["round"], max((int(k[6:]) for k in started if k[6:].isdigit()), default=-1)


def endless_flow(state, error: RuleError, before: tuple, now: tuple) -> RuleError:
    """``error``, or, when the step budget ran out after the flow went through ENDLESS_FLOW_AFTER turns or rounds
    since the last decision (``before``/``now``: :func:`flow_progress` then and at the failure), the error
    naming the phase that loops: the budget runs out in whichever statement pays the last step, often an
    innocent one of a turn, while the endless loop is a phase whose turns ask nobody and whose 'until' never holds."""
    flow = state.game.source.data["flow"]
    for k, counter, plural in ((0, "turn", "turns"), (1, "round", "rounds")):
        ran = now[k] - before[k]
        if ran < ENDLESS_FLOW_AFTER:
            continue
        # a phase of that kind that may be running: the last phase of turns started, or a phase of rounds after it
        candidates = [i for i, phase in enumerate(flow) if counter in phase and (i == now[2] if k == 0 else i > now[2])]
        single = len(candidates) == 1
        name = flow[candidates[0]].get("phase") if single else None
        what = f"phase {quote(name)}" if name else "the flow"
        return RuleError(f"{what} played {ran:,} {plural} in a row without anyone deciding (an endless flow? its "
                         f"'until' never holds, and nothing in its {plural} asks a player); the step budget ran out "
                         f"at {error.location}: {error.message}",
                         state.game.source.location(("flow", candidates[0]) if single else ("flow",)))
    return error


def rewind(state) -> None:
    """Go back to the state before the last action, by replaying the game without it."""
    if state.chance is not None:  # chance mode: the step's runner goes back to the step's boundary itself
        return
    before = type(state).start(state.game, state.n, state.seed, state.log is not None, state.scenario,
                               state.trace is not None)
    for player, action in state.history[:-1]:
        before.apply(player, action)
    state._restore(before)


class _Unforeseen(Exception):
    """A Python error no check foresaw, raised by rule code; ``where`` is the Location of the statement that
    failed (or of its rule: procedure, trigger, ability...) and the error itself is the ``__cause__``."""

    def __init__(self, where):
        super().__init__(where)
        self.where = where


def _pc_at(exc, code, pc):
    """The instruction a procedure's generated function was at when ``exc`` went through it (else ``pc``)."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is getattr(code, "__code__", None):
            return tb.tb_frame.f_locals.get("pc", pc)
        tb = tb.tb_next
    return pc


def _failing_frame(exc, fr, pc):
    """(frame, pc) of the innermost procedure function ``exc`` went through (a waiting call runs its callee
    inside its caller's function: see ``resumable.push_call``), else ``(fr, pc)``."""
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        code = frame.f_code
        if code.co_argcount == 3 and code.co_varnames[:3] == ("s", "fr", "pc") \
                and frame.f_globals.get("__builtins__") is SAFE_BUILTINS:
            fr, pc = frame.f_locals["fr"], frame.f_locals["pc"]
        tb = tb.tb_next
    return fr, pc


def _located(game, exc, proc, pc):
    """Where rule code failed (see :mod:`interpreter.runtime.sandbox`): the statement, else the rule running ``pc``."""
    try:
        return failed_at(game, exc, proc, pc)
    except Exception:  # noqa: BLE001 - never hide the real error behind one in locating it
        return game.source.location(proc.where_at(pc))


def _unforeseen(exc):
    """(the original error, the Location of the statement that raised it or None) for an error no check foresaw."""
    if type(exc) is not _Unforeseen:
        return exc, None
    return exc.__cause__, exc.where
