"""Emitting an event that cards listen to: triggers, then the event card's ability, then the listeners.

A listener belongs to a card (``self`` in its text) and reacts to events about
any card while its ``while`` condition holds, e.g. a passive ability that works
while its card is the top card of a pile.  Every listening card in play (in
some zone) is asked, in card id order (the order of the components, then of
their copies), at the moment the event is emitted: before any handler runs, so
what the handlers do cannot switch a listener on or off for this event.
Events nobody listens to pay nothing more.  The emit statement itself is compiled
in ``statements.py`` (direct) and ``resumable.py`` (when a handler may wait).
"""

from __future__ import annotations


def active_listeners(s, env, listeners):
    """(procedure, env with self) of every listener in play whose condition holds now."""
    loc = s.loc
    active = []
    for card, proc, cond in listeners:
        if loc[card] < 0:
            continue
        if cond is not None and not cond(s, {**env, "self": card}):
            continue
        active.append((proc, {**env, "self": card}))
    return active
