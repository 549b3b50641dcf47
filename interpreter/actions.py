"""The actions open at the pending decision: listed, counted, chosen by text or by number, and refused.

Actions are strings, their own readable text form; bots may use numbers instead (option ``k`` of a
player is the ``k``-th of ``legal_actions(player)``).  A choice of several cards is kept as an option
space (see :mod:`interpreter.runtime.option_spaces`) whose texts are made only when asked: the
by-number functions make no text but the one label an applied option records in the history (so
saves are the same as with ``apply``).  An illegal action raises IllegalActionError saying why, and
changes nothing; a legal one is handed to the run loop (:func:`interpreter.run_loop.play`).

Plain functions of a :class:`~interpreter.state.State`, which binds them as its methods of the same names.
"""

from __future__ import annotations

import random

from . import run_loop as RUN
from .errors import IllegalActionError, not_a_generator, quote, type_of
from .runtime import option_spaces as OPT


def current_players(state) -> list[int]:
    """Players who must act now (several at a simultaneous decision); empty when the game is over."""
    p = state.pending
    if p is None:
        return []
    if not p.each:  # one player decides
        return list(p.players)
    return [pl for pl, done in zip(p.players, p.chosen) if done is None]


def legal_actions(state, player: int | None = None) -> list[str]:
    """The distinct actions open to ``player`` (default: the first current player)."""
    asked = _asked(state, player)
    if asked is None:
        return []
    p, i = asked
    labels = p.labels[i]
    return list(labels if labels is not None else options(state, p, i)[0])


def prompt(state) -> str:
    """What the pending decision is about (e.g. 'take'), for UIs."""
    return state.pending.prompt if state.pending else ""


def apply(state, player: int, action: str) -> None:
    """Play ``action`` for ``player``.  Illegal actions raise and change nothing.

    If a rule fails while the action resolves (a house rule that loops forever,
    say), the state is rewound to just before the action and RuleError is raised.
    Rewinding replays the game from its seed, so the common path pays nothing.
    """
    p = state.pending
    if p is None or type(player) is not int or type(action) is not str:
        illegal(state, player, action)
    try:  # one scan each for the seat and the action; a miss explains itself
        i = p.players.index(player)
        if p.chosen[i] is not None:
            illegal(state, player, action)
        labels = p.labels[i]
        if labels is None:  # an option space (see options): its labels are made now
            labels = options(state, p, i)[0]
        j = labels.index(action)
        value = p.values[i][j] if p.values[i] is not None else options(state, p, i)[1][j]
    except ValueError:
        illegal(state, player, action)
    RUN.play(state, p, i, player, action, j, value)


def legal_action_ids(state, player: int | None = None) -> range:
    """``range(len(legal_actions(player)))``, made without any option's text."""
    asked = _asked(state, player)
    if asked is None:
        return range(0)
    return range(option_count(*asked))


def sample_action_id(state, player: int | None, rng) -> int:
    """One of ``legal_action_ids(player)``, uniformly: ``rng.randrange(count)``, no option listed.

    It draws from ``rng`` (a ``random.Random``) exactly what ``rng.randrange(len(legal_actions(player)))``
    draws, so a bot using it plays the same games as one picking uniformly among ``legal_actions``.
    An ``rng`` that is not a ``random.Random`` is an IllegalActionError (nothing is drawn).
    """
    if not isinstance(rng, random.Random):
        not_a_generator("sample_action_id", rng)
    p = state.pending
    if p is not None and not p.each and type(player) is int and p.players[0] == player:
        # the common case, straight: one player asked (a one-player decision is never half chosen)
        space = p.lazy
        return rng.randrange(OPT.count(space[0]) if space else len(p.labels[0]))
    asked = _asked(state, player)
    if asked is not None:
        return rng.randrange(option_count(*asked))
    raise IllegalActionError("there is no decision to make now" if player is None else
                             f"player {player} (seat {player + 1}) has no decision to make now")


def apply_id(state, player: int, action_id: int) -> None:
    """``apply(player, legal_actions(player)[action_id])``, without making the other options' texts.

    The same effect, history (the option's text), trace and narration; an illegal id raises
    IllegalActionError and changes nothing; a rule that fails rewinds the action, as ``apply``.
    """
    p = state.pending
    if p is not None and not p.each and type(player) is int \
            and type(action_id) is int and action_id >= 0 and p.players[0] == player:
        space = p.lazy  # the common case, straight: one player asked
        if space is None:  # the options listed
            labels = p.labels[0]
            if action_id < len(labels):
                label = labels[action_id]
                j = labels.index(label)  # as apply does: the first option with that text
                RUN.play(state, p, 0, player, label, j, p.values[0][j])
                return
        elif space[0] and action_id < OPT.count(space[0]):  # an option space: only this option made
            label, value = OPT.option(space[0], action_id, state.game.card_names)
            RUN.play(state, p, 0, player, label, action_id, value)
            return
    i, label, j, value = _chosen_by_id(state, p, player, action_id)
    RUN.play(state, p, i, player, label, j, value)


def _chosen_by_id(state, p, player, action_id):
    """(seat, text, index, value) of option ``action_id`` of ``player`` at ``p``, the general way; else the reason."""
    try:
        if p is None or type(player) is not int or type(action_id) is not int or action_id < 0:
            raise ValueError
        i = p.players.index(player)
        if p.chosen[i] is not None:
            raise ValueError
        space = p.lazy and p.lazy[i]
        if space:  # no two options of a space read alike (option_spaces.py): option k is the first with its text
            if action_id >= OPT.count(space):
                raise ValueError
            return i, OPT.label(space, action_id, state.game.card_names), action_id, OPT.value(space, action_id)
        labels = p.labels[i]
        label = labels[action_id]
        j = labels.index(label)  # as apply does: the first option with that text
        return i, label, j, p.values[i][j]
    except (TypeError, ValueError, IndexError):
        bad_id(state, player, action_id)


def action_to_string(state, player: int, action_id: int) -> str:
    """The text of option ``action_id`` of ``player``: ``legal_actions(player)[action_id]``, made alone."""
    if type(player) is not int or type(action_id) is not int \
            or not 0 <= action_id < len(legal_action_ids(state, player)):
        bad_id(state, player, action_id)
    p = state.pending
    i = p.players.index(player)
    space = p.lazy and p.lazy[i]
    if space:
        return OPT.label(space, action_id, state.game.card_names)
    return p.labels[i][action_id]


def options(state, p, i) -> tuple[list, list]:
    """(labels, values) of seat ``i`` of the pending decision ``p``, made once from its option space if it has one.

    Made on demand and kept in ``state._made`` (keyed by the decision's list of spaces, which is never
    changed), not in ``pending``: the decision stays what the rules made, whoever asked.
    """
    space = p.lazy and p.lazy[i]
    if not space:
        return p.labels[i], p.values[i]
    made = state._made
    if made is None or made[0] is not p.lazy:
        made = state._made = (p.lazy, {})
    got = made[1].get(i)
    if got is None:
        got = made[1][i] = OPT.expand(space, state.game.card_names)
    return got


def _asked(state, player: int | None):
    """(pending decision, index of ``player`` in it) if ``player`` (default: the first current
    player) has a choice to make now, else None; a player number out of range is an error."""
    if player is not None and (type(player) is not int or not 0 <= player < state.n):
        no_such_player(state, player)  # (after the end too: a player of another type is no player)
    p = state.pending
    if p is None:
        return None
    if player is None:
        waiting = current_players(state)
        if not waiting:
            return None
        player = waiting[0]
    try:
        i = p.players.index(player)
    except ValueError:
        return None
    return None if p.chosen[i] is not None else (p, i)


def option_count(p, i) -> int:
    """How many options seat ``i`` of the pending decision ``p`` has (an option space is counted, not listed)."""
    space = p.lazy and p.lazy[i]
    return OPT.count(space) if space else len(p.labels[i])


# ---------------------------------------------------------------- why an action is refused
def illegal(state, player, action):
    """Raise IllegalActionError explaining why (the state is not touched)."""
    if type(action) is not str:  # exactly str: a subclass or look-alike could claim to equal any option
        raise IllegalActionError(f"an action must be exactly a str (its text), not {type_of(action)}")
    action = quote(action, 200)
    if state.over:
        raise IllegalActionError(f"the game is over; {action} cannot be played")
    if state.is_chance():
        raise IllegalActionError(f"{action} cannot be played now: a chance event is pending "
                                 "(state.is_chance()); choose its outcome with apply_chance first")
    _not_waiting_for(state, player)
    legal = legal_actions(state, player)
    shown = "; ".join(legal[:12]) + ("; ..." if len(legal) > 12 else "")
    raise IllegalActionError(f"{action} is not a legal action for player {player} (seat {player + 1}) now. "
                             f"Legal actions: {shown}")


def bad_id(state, player, action_id):
    """Raise IllegalActionError saying why ``action_id`` is not one of ``player``'s options (nothing changes)."""
    if type(player) is not int or not 0 <= player < state.n:
        no_such_player(state, player)
    if type(action_id) is not int:  # exactly int: a bool or a look-alike is not an option number
        raise IllegalActionError(f"an action id must be exactly an int, not {type_of(action_id)}")
    if state.over:
        raise IllegalActionError(f"the game is over; action id {action_id} cannot be played")
    if state.is_chance():
        raise IllegalActionError(f"action id {action_id} cannot be played now: a chance event is pending "
                                 "(state.is_chance()); choose its outcome with apply_chance first")
    _not_waiting_for(state, player)
    n = len(legal_action_ids(state, player))
    raise IllegalActionError(f"{quote(action_id)} is not an action id of player {player} (seat {player + 1}) "
                             f"now: the ids are 0 to {n - 1}")


def _not_waiting_for(state, player):
    """Raise IllegalActionError if ``player`` is no player, or not one the pending decision waits for."""
    if type(player) is not int or not 0 <= player < state.n:
        no_such_player(state, player)
    waiting = current_players(state)
    if player not in waiting:
        who = ", ".join(f"player {w} (seat {w + 1})" for w in waiting)
        raise IllegalActionError(f"it is not player {player}'s (seat {player + 1}) decision; waiting for {who}")


def no_such_player(state, player):
    """Players are exactly ints (not bools, floats or look-alikes) from 0 to n-1."""
    if type(player) is not int:
        raise IllegalActionError(f"a player must be exactly an int, numbered 0 to {state.n - 1} (seats 1 to "
                                 f"{state.n}), not {type_of(player)}")
    raise IllegalActionError(f"there is no player {quote(player)} in this {state.n}-player game "
                             f"(players are numbered 0 to {state.n - 1}: seats 1 to {state.n})")
