"""The signals between generated code and the run loop, and the return from a waiting procedure.

A resumable procedure's function returns the next pc, or ``TRANSFER`` (another frame runs
next) or ``SUSPEND`` (a player must decide: ``state.pending`` says who and what); ``end game``
inside direct code raises :class:`GameOver` to unwind to the run loop.
"""

from __future__ import annotations

# the located errors raised when rules run away without reaching a decision
TOO_LONG_CALLS = "effects ran too long without a decision (endless recursion?)"
ENDLESS_RECURSION = "procedures call each other without end (endless recursion?)"
TOO_LONG_LOOP = "this loop ran too long without a decision (an endless loop?)"

TRANSFER, SUSPEND = -1, -2  # what a resumable instruction returns instead of the next pc


class GameOver(Exception):
    """Raised by ``end game`` inside direct code to unwind to the run loop."""


def return_from(s, fr, value):
    """A procedure's return: its frame popped, ``value`` put in the caller's return slot."""
    s.frames.pop()
    dest = fr.ret
    if dest is not None and s.frames:
        s.frames[-1].env[dest] = value
    return TRANSFER
