"""Emitting an event that cards listen to: triggers, then the event card's ability, then the listeners.

A listener belongs to a card (``self`` in its text) and reacts to events about
any card while its ``while`` condition holds, e.g. a passive ability that works
while its card is the top card of a pile.  Every listening card in play (in
some zone) is asked, in card id order (the order of the components, then of
their copies), at the moment the event is emitted: before any handler runs, so
what the handlers do cannot switch a listener on or off for this event.
Events nobody listens to compile exactly as before and pay nothing.
"""

from __future__ import annotations

from ..errors import RuleError
from .runtime import TRANSFER


class ListenerCompiler:
    """Mixin of :class:`interpreter.dsl.compiler.Compiler` (uses its ``m``, ``emit_args``, ``location``)."""

    def _emit_parts(self, st, scope):
        args = self.emit_args(st, scope)
        handlers = self.m.triggers_for(st.event)
        abilities = self.m.abilities_for(st.event)
        return args, handlers, abilities, self.m.listeners[st.event], self.location(st)

    def emit_with_listeners(self, st, scope):
        """The direct form (no handler waits for a player)."""
        args, handlers, abilities, listeners, loc = self._emit_parts(st, scope)

        name, kinds = st.event, self.m.events[st.event]

        def emit(s, e):
            env = {n: f(s, e) for n, f in args}
            if s.trace is not None:
                s.traced_event(name, kinds, env)
            active = _active(s, env, listeners)
            try:
                for h in handlers:
                    h.direct(s, dict(env))
                if abilities is not None and env.get("card") is not None:
                    ab = abilities[env["card"]]
                    if ab is not None:
                        ab.direct(s, dict(env))
                for proc, listener_env in active:
                    proc.direct(s, listener_env)
            except RecursionError:
                raise RuleError("events set each other off without end (an endless chain of events?)", loc) from None
            s.steps -= 1
            if s.steps < 0:
                raise RuleError("effects ran too long without a decision (an endless chain of events?)", loc)
        return emit

    def r_emit_with_listeners(self, st, scope, code):
        """The resumable form: one frame per handler, run in order (each may wait for players)."""
        args, handlers, abilities, listeners, loc = self._emit_parts(st, scope)
        name, kinds = st.event, self.m.events[st.event]

        def emit(s, fr, pc):
            s.steps -= 1
            if s.steps < 0:
                raise RuleError("effects ran too long without a decision (an endless chain of events?)", loc)
            env = {n: f(s, fr[2]) for n, f in args}
            if s.trace is not None:
                s.traced_event(name, kinds, env)
            fr[1] = pc + 1
            todo = [(h.id, env) for h in handlers]
            if abilities is not None and env.get("card") is not None and abilities[env["card"]] is not None:
                todo.append((abilities[env["card"]].id, env))
            todo.extend((proc.id, listener_env) for proc, listener_env in _active(s, env, listeners))
            for pid, frame_env in reversed(todo):
                s.frames.append([pid, 0, dict(frame_env), None])
            return TRANSFER
        code.append(emit)


def _active(s, env, listeners):
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
