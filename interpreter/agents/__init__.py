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
    """A new agent of the registered kind ``name``, with its own random seed."""
    try:
        factory = AGENTS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(AGENTS))
        raise UnknownAgentError(f"unknown bot {name!r}; the bots are: {known}") from None
    return factory(seed)


__all__ = ["AGENTS", "RandomAgent", "UnknownAgentError", "make_agent"]
