"""Adapters to game-AI libraries (optional extras, imported only when used).

* :mod:`interpreter.adapters.pettingzoo` — a PettingZoo AEC environment for any definition
  (``pip install -e '.[pettingzoo]'``);
* :mod:`interpreter.adapters.openspiel` — an OpenSpiel Python game for any definition
  (``pip install -e '.[openspiel]'``).

Both see the game only as the seats see it: observations come from ``state.view(seat)``,
actions are indices into the legal actions of the current decision.
"""

from __future__ import annotations

import random

DEFAULT_PROBE_GAMES = 50  # random games played to size the action space when no max_actions is given


def probe_max_actions(game, players: int, games: int = DEFAULT_PROBE_GAMES, seed: int = 0) -> int:
    """An action-space size for ``game``: a power of two at least twice the most legal actions seen.

    No definition states how many options a decision can offer (a choice of "one card plus any
    number of others" grows with the hand), so this plays ``games`` random games (seeded, so
    the size is reproducible) and keeps a margin.  A decision that offers more still fails
    with a message that names it; pass ``max_actions`` to the adapter to set the size yourself.
    """
    most = 1
    for index in range(games):
        state = game.new_game(players, seed + index, log=False)
        rng = random.Random(seed + index)
        while not state.is_terminal() and len(state.history) < 10_000:
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            most = max(most, len(legal))
            state.apply(seat, legal[rng.randrange(len(legal))])
    size = 8
    while size < 2 * most:
        size *= 2
    return size


class TooManyActionsError(ValueError):
    """A decision offers more actions than the adapter's action space holds."""


def check_action_count(legal: list, max_actions: int, prompt: str) -> None:
    if len(legal) > max_actions:
        raise TooManyActionsError(
            f"the decision {prompt!r} offers {len(legal)} actions, more than this environment's action space "
            f"holds (max_actions={max_actions}); create it with a larger max_actions")
