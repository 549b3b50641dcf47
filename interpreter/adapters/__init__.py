"""Adapters to game-AI libraries (optional extras, imported only when used).

* :mod:`interpreter.adapters.pettingzoo` — PettingZoo AEC and parallel environments for any definition
  (``pip install -e '.[pettingzoo]'``);
* :mod:`interpreter.adapters.openspiel` — an OpenSpiel Python game for any definition
  (``pip install -e '.[openspiel]'``).

Both see the game only as the seats see it: observations come from ``state.view(seat)``;
actions are fixed ids from a game-wide table (:mod:`interpreter.adapters.actions`).
"""

from __future__ import annotations

import random

from ..runtime.decisions import MAX_OPTIONS
from ..errors import DefinitionError, IllegalActionError, Location, RibbitError, quote
from ..state import _type_of

MAX_SIZE = 10 ** 9  # max_decisions, seeds: far beyond any game, far below what would exhaust memory
DEFAULT_PROBE_GAMES = 50  # random games played to size the action space when no max_actions is given ...
DEFAULT_PROBE_DECISIONS = 4_000  # ... or fewer, once this many decisions are taken (a long game costs as much as many short)


def probe_max_actions(game, players: int, games: int = DEFAULT_PROBE_GAMES, seed: int = 0,
                      decisions: int = DEFAULT_PROBE_DECISIONS) -> int:
    """An action-space size for ``game``: a power of two at least four times the most legal actions seen.

    No definition states how many options a decision can offer (a choice of "one card plus any
    number of others" grows with the hand), so this plays random games (seeded, so the size is
    reproducible) and keeps a margin: ``games`` games, or fewer once ``decisions`` decisions are
    taken (each game started is played to its end), so a definition whose games last hundreds of
    decisions sizes its environment in about a second rather than many.  It counts options with
    ``legal_action_ids`` and plays with ``apply_id``: no option's text is made.  A decision that
    offers more still fails with a message that names it; pass ``max_actions`` to the adapter to
    set the size yourself.
    """
    most, taken = 1, 0
    for index in range(games):
        if taken >= decisions:
            break
        state = game.new_game(players, seed + index, log=False)
        rng = random.Random(seed + index)
        while not state.is_terminal() and len(state.history) < 10_000:
            seat = state.current_players()[0]
            count = len(state.legal_action_ids(seat))
            most = max(most, count)
            state.apply_id(seat, rng.randrange(count))
            taken += 1
    size = 8
    while size < 4 * most:  # random play rarely holds many cards; a search bot does (561 seen where random play saw 256)
        size *= 2
    return size


class TooManyActionsError(RibbitError, ValueError):
    """A decision offers more actions than the adapter's action space holds."""


class ActionIndexError(IllegalActionError, ValueError):
    """An adapter was given something that is not the number of a legal action now (a text, a float, a
    bool, a number out of range, an action for a finished agent); nothing is played.  A ``ValueError``
    too, as PettingZoo raises for an action given to an agent whose game is over."""


def action_index(action, count: int, who: str) -> int:
    """``action`` as the number of one of ``count`` legal actions: exactly an int (a NumPy integer
    too, as gymnasium's ``Discrete.sample`` gives), never a bool, a float or a text."""
    import numpy as np  # the adapters' extras bring it; the core does not need it

    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if type(action) is not int and not isinstance(action, np.integer):
        raise ActionIndexError(f"an action is the number of one of {who}'s {count} legal actions now (an int, 0 to "
                               f"{count - 1}), not {_type_of(action)}; the observation's action_mask marks them")
    if not 0 <= action < count:
        raise ActionIndexError(f"{who} has {count} legal actions now (0 to {count - 1}), not {quote(int(action))}; "
                               "the observation's action_mask marks them")
    return int(action)


def action_option(action, ids: list[int], who: str) -> int:
    """The engine's option number of fixed action id ``action`` among ``ids`` (the legal ids now, in the
    engine's order): exactly an int (a NumPy integer too), never a bool, a float or a text."""
    import numpy as np

    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    legal = sorted(ids)
    shown = ", ".join(map(str, legal[:12])) + (", ..." if len(legal) > 12 else "")
    if type(action) is not int and not isinstance(action, np.integer):
        raise ActionIndexError(f"an action is the id of one of {who}'s {len(ids)} legal actions now (an int: "
                               f"{shown}), not {_type_of(action)}; the observation's action_mask marks them")
    try:
        return ids.index(int(action))
    except ValueError:
        raise ActionIndexError(f"{quote(int(action))} is not one of {who}'s {len(ids)} legal action ids now ("
                               f"{shown}); the observation's action_mask marks them") from None


def check_sizes(game, **sizes) -> None:
    """The sizes an adapter is made with (``max_actions``, ``max_decisions``, ``seeds``): each exactly an int
    from 1 (``max_actions`` at most MAX_OPTIONS, the most options a decision can have), or None where
    the adapter works it out; anything else is a DefinitionError naming the argument."""
    for name, value in sizes.items():
        if value is None and name == "max_actions":
            continue
        top = MAX_OPTIONS if name == "max_actions" else MAX_SIZE
        if type(value) is not int or not 1 <= value <= top:
            raise DefinitionError(f"{name} must be a whole number (an int) from 1 to {top:,}"
                                  f"{' or None (sized from random games)' if name == 'max_actions' else ''}, "
                                  f"not {_type_of(value)}", Location(game.file, key=name))
