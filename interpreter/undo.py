"""Taking a decision back, when that reveals nothing and no one else has acted since.

Plain functions of a :class:`~interpreter.state.State` (its methods of the same names delegate here).
"""

from __future__ import annotations

from .chance import last_step_drew
from .errors import UndoRefusedError
from .views import seen_cards


def can_undo(state, player: int) -> bool:
    """Whether ``player`` may take back their last decision now (see :func:`undo`)."""
    return undo_check(state, player)[0] is None


def undo_refusal(state, player: int) -> str | None:
    """Why ``player`` may not take back their last decision now (a sentence), or None if they may."""
    return undo_check(state, player)[0]


def undo(state, player: int) -> str:
    """Take back ``player``'s last decision, if that is fair; returns the action taken back.

    It is fair while nothing new has been revealed to anyone and no one else has acted since:

    * the last action of the history is ``player``'s, and the game is not over;
    * it drew no random number (the generator is where it was before it);
    * every other audience (each other seat, and spectators) knows exactly what it knew before it:
      the same view and the same narration, apart from the progress of a simultaneous decision
      still open (who has chosen so far: see :meth:`knowledge`);
    * ``player`` sees no card they did not see before it.

    The state becomes exactly the one before that action (history, log, generator, everything: it
    is rebuilt by replaying the game without it, so saves before and after equal).  Otherwise
    UndoRefusedError says why, and nothing changes.
    """
    reason, before = undo_check(state, player)
    if reason is not None:
        raise UndoRefusedError(reason)
    action = state.history[-1][1]
    state._restore(before)
    return action


def undo_check(state, player):
    """(None, the state before ``player``'s last action) if it may be taken back, else (why not, None)."""
    if type(player) is not int or not 0 <= player < state.n:
        state._no_such_player(player)
    who = f"seat {player + 1}"  # the players' own numbering: this is read by them
    if not state.history:
        return f"{who} has no decision to take back: none has been made yet", None
    if state.over:
        return "the game is over: its result is known to everyone, so no decision can be taken back", None
    last = state.history[-1][0]
    if last_step_drew(state):  # chance mode (docs/chance.md): its draws are in the history, not the generator
        return f"the last decision of {who} cannot be taken back: it led to a random draw", None
    if last != player:
        return (f"{who} cannot take back a decision: the last one was seat {last + 1}'s, and "
                "a decision can be taken back only while no one else has acted since"), None
    before = state._replayed(state.history[:-1])
    if before.rng != state.rng:
        return f"the last decision of {who} cannot be taken back: it led to a random draw", None
    for audience in [*range(state.n), None]:
        if audience == player:
            continue
        if before.knowledge(audience) != state.knowledge(audience) \
                or before.narration(audience) != state.narration(audience):
            other = "the spectators" if audience is None else f"seat {audience + 1}"
            return f"the last decision of {who} cannot be taken back: it showed {other} something new", None
    if not seen_cards(state, player) <= seen_cards(before, player):
        return f"the last decision of {who} cannot be taken back: it showed them a card they had not seen", None
    return None, before
