"""Bots that play any game through the public state API.

An agent has ``choose(view, legal_actions) -> action``: it sees what its seat
may know (``state.view(seat)``) and the distinct legal actions, and returns one
of them.  An agent whose ``uses_view`` is false is handed ``None`` for the view
by drivers that care about speed.  ``make_agent(name, seed)`` builds one by
name, so command-line options and simulation workers can refer to bots as text.
"""

from __future__ import annotations

from ..errors import RibbitError
from .random_agent import RandomAgent

AGENTS = {
    "random": RandomAgent,
}


class UnknownAgentError(RibbitError, ValueError):
    """A bot name that is not in the registry."""


def make_agent(name: str, seed: int | str | None = None):
    """A new agent of the registered kind ``name``, with its own random seed.

    ``name`` must be exactly a str and ``seed`` an int, a str or None (no subclasses: a
    look-alike could pose as a registered name or seed the bot differently each time).
    """
    known = ", ".join(sorted(AGENTS))
    if type(name) is not str or name not in AGENTS:
        shown = repr(name) if type(name) is str else f"a {type(name).__name__}"
        raise UnknownAgentError(f"unknown bot {shown}; the bots are: {known}")
    if seed is not None and type(seed) not in (int, str):
        raise UnknownAgentError(f"a bot's seed must be an int, a str or None, not a {type(seed).__name__}")
    return AGENTS[name](seed)


__all__ = ["AGENTS", "RandomAgent", "UnknownAgentError", "make_agent"]
