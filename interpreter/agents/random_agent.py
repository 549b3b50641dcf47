"""The random bot: picks uniformly among the legal actions.

It is the baseline every other bot is measured against, and the engine's
fuzzer: random playouts reach corners of the rules that people rarely visit.
Each bot owns its own ``random.Random`` so a game's result depends only on the
game seed and the bot seeds, never on other bots or on global state.  ``act_id``
draws the same option as ``act`` but as a number (``state.apply_id``), with no
option's text made; ``playout_rng`` lets a game of random bots be played by
``state.playout`` (the same draws): the cheap path ``ribbit simulate`` takes.
"""

from __future__ import annotations

import random


class RandomAgent:
    """Chooses uniformly at random; never looks at the view."""

    name = "random"
    uses_view = False  # drivers may pass None instead of building a view (it is the costly part)
    PARAMS: dict = {}

    def __init__(self, seed: int | str | None = None):
        self.rng = random.Random(seed)

    def choose(self, view, legal_actions):
        """One of ``legal_actions``, uniformly."""
        if not legal_actions:
            raise ValueError("there is no legal action to choose from")
        return legal_actions[self.rng.randrange(len(legal_actions))]

    def act(self, state, seat: int) -> str:
        """One of ``seat``'s legal actions in ``state``, uniformly (the same draws as ``choose``)."""
        return self.choose(None, state.legal_actions(seat))

    @property
    def playout_rng(self):
        """The generator this bot's choices are uniform draws from (``randrange`` of the option count), so a
        game of random bots can be played by ``state.playout`` with one generator per seat."""
        return self.rng

    def act_id(self, state, seat: int) -> int:
        """The number of the action ``act`` would choose (the same draw), made without any option's text."""
        return state.sample_action_id(seat, self.rng)
