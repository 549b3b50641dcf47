"""Playouts: a game played on to its end by random (or policy) choices, straight from the pending decisions.

A playout is what ``ribbit simulate`` with random bots, ``ribbit compare`` and the search bots' rollouts
do thousands of times: no person watches, no bot reads a view or an option's text.  So
:func:`playout` skips the public API's per-decision work (the checks of who may act, the list of
current players, a label list made from an option space).  Untraced, outside chance mode and with
uniform draws, a decision is not even left pending: the rules' code hands it to the state's
``drawing`` (a :class:`Drawer`) where it is made, one seat or several at once, and goes on with the
option drawn, as it goes on with a decision of one option (no pending record, no return to the run
loop).  Each seat's number of options is the length of its labels or the count of its option space
(never expanded: a 'plus' choice is counted from the sizes of its groups, runtime/option_lists.py),
one of them is drawn, and only that option's text and value are made (``option_spaces.option``) for
the history.  Otherwise (traced, chance mode, a policy) each decision is read where the rules left it.

The contract:

* the state is played on **in place** and returned (clone it first to keep the position);
* a decision's option is ``rng.randrange(count)`` (or ``policy(state, player, count, rng)``), where
  ``count`` is ``len(state.legal_actions(player))``; the option applied is exactly the one
  ``state.apply_id(player, k)`` applies, so a playout draws the same numbers and plays the same game
  as a loop of ``apply_id(player, sample_action_id(player, rng))`` taking the first current player
  each time (``tests/engine/test_playout.py`` checks both, and the distribution statistically);
* ``rng`` is one ``random.Random`` for every seat, or a list of them, one per seat (a seat draws
  from its own: the random bots of a simulation);
* in chance mode (docs/chance.md) a chance event's outcome is drawn by its probabilities from ``rng``
  (the first seat's generator, when there is one per seat); it is no decision;
* at most ``decisions`` decisions are made (None: until the end); a game still running then is left
  running (``state.over`` is False), for the caller to judge (a simulation abandons it, a search
  weighs the position);
* everything the public API keeps is kept: the history (each option's text), the trace when the
  state is traced, the narration when it keeps a log; a rule that fails rewinds the last decision and
  raises its ``RuleError`` as ``apply_id`` does.

An untraced state that keeps no log, outside chance mode, is played by the game's playout build
(``Game.playout_build``, ``dsl/playout_build.py``: the same layout, without trace and narration), compiled
the first time one is needed; the state is given back its own game when the playout ends.  It plays the
same games (``tests/compiler/test_playout_build.py``); ``build=NORMAL_BUILD`` runs the normal code instead.

Bounded whatever the definition: the rules between two decisions run within the step budget (as
with ``apply``), and a playout without ``decisions`` stops after :data:`MAX_DECISIONS`, the game left
running.
"""

from __future__ import annotations

import random

from .errors import IllegalActionError, not_a_generator
from . import chance as CHANCE
from . import run_loop as RUN
from .runtime import option_spaces as OPT
from .runtime.decisions import NOT_DRAWN, chooser_card_options, sees_all

MAX_DECISIONS = 1_000_000  # a playout given no bound stops here (a definition whose games never end)
# Which code a playout of an untraced state that keeps no log runs (playout's ``build``): the game's playout build,
# or its own (normal) code.  Traced states, states keeping a log and chance mode always run the normal code.
PLAYOUT_BUILD = "playout"
NORMAL_BUILD = "normal"


def uniform(state, player: int, count: int, rng) -> int:
    """The default policy: each of the ``count`` options alike (what ``sample_action_id`` draws)."""
    return rng.randrange(count)


def playout(state, rng, policy=None, decisions: int | None = None, build: str = PLAYOUT_BUILD):
    """Play ``state`` on (in place) until it ends or ``decisions`` decisions were made; returns ``state``.

    See the module's docstring for the contract.  ``policy(state, player, count, rng)`` returns an
    option number below ``count``; None draws uniformly (:func:`uniform`).  ``build``: :data:`PLAYOUT_BUILD`
    (the game's playout build where it applies) or :data:`NORMAL_BUILD` (the game's own code throughout: for
    the tests that compare the two, and for a developer who suspects the playout build).
    """
    rngs = _generators(state, rng)
    if decisions is None:
        decisions = MAX_DECISIONS
    elif type(decisions) is not int or decisions < 0:
        raise IllegalActionError(f"a playout's decisions must be a whole number of 0 or more, not {decisions!r}")
    if build not in (PLAYOUT_BUILD, NORMAL_BUILD):
        raise IllegalActionError(f"a playout's build is {PLAYOUT_BUILD!r} or {NORMAL_BUILD!r}, not {build!r}")
    if state.trace is None and state.chance is None:
        if state.log is None and build == PLAYOUT_BUILD:
            _played_on_playout_build(state, rngs, policy, decisions)
        else:
            _played_untraced(state, rngs, policy, decisions)
    else:
        _played(state, rngs, policy, decisions)
    return state


def _played_on_playout_build(state, rngs, policy, decisions: int) -> None:
    """:func:`_played_untraced` with the state's rules run by its game's playout build (``Game.playout_build``,
    compiled the first time one is needed; see ``dsl/playout_build.py``): it has the game's layout, so the state
    goes on from its pending decision in that build, and is given back its own game when the playout ends (or
    fails)."""
    game = state.game
    state.game = game.playout_build()
    try:
        _played_untraced(state, rngs, policy, decisions)
    finally:
        state.game = game


def _played(state, rngs, policy, decisions: int) -> None:
    """The playout of a traced state or one in chance mode: each decision through ``run_loop.play``."""
    names = state.game.card_names
    play = RUN.play
    while decisions > 0 and not state.over:
        p = state.pending
        if p is None:  # chance mode: a chance event waits (a seeded game is never without a decision here)
            state.apply_chance(CHANCE.sample_outcome(state, rngs[0]))
            continue
        i = p.chosen.index(None) if p.each else 0  # a simultaneous decision: the first seat yet to choose
        player = p.players[i]
        space = p.lazy and p.lazy[i]
        count = OPT.count(space) if space else len(p.labels[i])
        k = _drawn(state, player, count, rngs[player], policy)
        label, j, value = _option(p, i, space, k, names)
        play(state, p, i, player, label, j, value)
        decisions -= 1


def _played_untraced(state, rngs, policy, decisions: int) -> None:
    """The playout of an untraced state, not in chance mode (simulations and search).

    Uniform draws: a :class:`Drawer` is the state's ``drawing`` while it plays, and the rules' code takes
    each decision where it is made, as it takes a decision of one option (no pending record, no return
    to the run loop): the loop here only resolves the decision pending when the playout starts (or when
    the rules ask because the decisions ran out), then lets ``run_loop.run`` run the rules.  A policy
    sees each decision pending, as the API shows it (:func:`_played_by_policy`)."""
    if policy is not None:
        return _played_by_policy(state, rngs, policy, decisions)
    drawer = Drawer(state, rngs, decisions)
    history = state.history
    run, failed = RUN.run, RUN.failed
    state.drawing = drawer
    try:
        while drawer.left > 0 and not state.over:
            p = state.pending
            if p is None or p.each and not drawer.each_pending(p):
                # none (outside chance mode: the general path refuses it as ever), or fewer decisions left than
                # seats to choose: one seat at a time, the general way
                state.drawing = None
                _played(state, rngs, None, 1)
                state.drawing = drawer
                drawer.left -= 1
                continue
            if not p.each:
                drawer.one_pending(p)
            state.pending = None
            state.steps = drawer.steps
            try:  # the rules run to the next decision they cannot take, or the end; one that fails rewinds the last
                run(state)
            except Exception as exc:  # noqa: BLE001 - located and raised by failed
                failed(state, exc, history[-1][0])
    finally:
        state.drawing = None


class Drawer:
    """An untraced playout's uniform draws, taken by the rules' code where a decision is made (``state.drawing``).

    Each method draws for one decision as :func:`playout` would from its pending record: the option number
    from the seat's generator (``_randbelow(count)``, what ``randrange(count)`` calls: the same numbers), only
    that option's text and value made, the text added to the history, the step budget renewed.  It returns
    what the rules go on with, or "not drawn" once the playout's decisions are used up (the rules then ask
    as ever, the decision pending)."""

    __slots__ = ("state", "below", "history", "names", "steps", "left")

    def __init__(self, state, rngs, decisions: int):
        # randrange(count) is _randbelow(count) for count > 0; a generator whose class redefines randrange keeps its own
        self.below = [r._randbelow if type(r).randrange is random.Random.randrange else r.randrange for r in rngs]
        self.state, self.history, self.left = state, state.history, decisions
        self.names, self.steps = state.game.card_names, state.game.step_limit

    def one(self, player: int, labels: list) -> int:
        """Index of the value of ``player``'s option drawn among ``labels`` (two or more): the first option with
        the drawn text, as ``apply`` has it; -1: not drawn."""
        if self.left <= 0:
            return -1
        self.left -= 1
        label = labels[self.below[player](len(labels))]
        self.history.append([player, label])
        self.state.steps = self.steps
        return labels.index(label)

    def card(self, player: int, cards, texts: list):
        """A choice of one of ``cards`` (``texts[card]``: how each reads; alike cards are one option, valued by
        the first of them), made straight from the list as ``one_card_options`` would list it (as
        ``chooser_card_options`` does when ``player`` cannot see one of them): the card of
        the option drawn, or of the only option; NOT_DRAWN for none (the rules refuse it), a list that is no
        list, or once the playout's decisions are used up."""
        if cards.__class__ is not list:
            return NOT_DRAWN
        if not sees_all(self.state, player, cards):  # a card it cannot see: listed by its place, each its own option
            labels, values = chooser_card_options(self.state, player, cards, texts)
            if len(labels) < 2:
                return values[0] if labels else NOT_DRAWN
            index = self.one(player, labels)
            return NOT_DRAWN if index < 0 else values[index]
        labels = list(map(texts.__getitem__, cards))
        first = dict.fromkeys(labels)  # each text once, in order
        count = len(first)
        if count < 2:
            return cards[0] if count else NOT_DRAWN
        if self.left <= 0:
            return NOT_DRAWN
        self.left -= 1
        k = self.below[player](count)
        if count == len(cards):  # every card its own option
            label, card = labels[k], cards[k]
        else:
            label = list(first)[k]
            card = cards[labels.index(label)]
        self.history.append([player, label])
        self.state.steps = self.steps
        return card

    def space(self, player: int, space):
        """The value of ``player``'s option drawn from an option space (``runtime/option_spaces.py``); None: not drawn."""
        if self.left <= 0:
            return None
        self.left -= 1
        label, value = OPT.option(space, self.below[player](space[-1]), self.names)
        self.history.append([player, label])
        self.state.steps = self.steps
        return value

    def each(self, players: list, labels: list, values: list, spaces: list, result: list) -> bool:
        """A simultaneous decision: seat ``i`` (``players[i]``) draws among ``labels[i]`` / ``values[i]``, or from
        ``spaces[i]`` when its labels are None, in order; each value goes to ``result[player]``.  False: fewer
        decisions left than seats (nothing drawn)."""
        if self.left < len(players):
            return False
        self.left -= len(players)
        history = self.history
        for i, player in enumerate(players):
            label, result[player] = self._drawn(player, labels[i], values[i], spaces[i])
            history.append([player, label])
        self.state.steps = self.steps
        return True

    def _drawn(self, player: int, labels, values, space) -> tuple:
        """(text, value) of ``player``'s option drawn among ``labels`` / ``values`` (the first option with the drawn
        text, as ``apply`` has it), or from the option space ``space`` when ``labels`` is None."""
        if labels is None:
            return OPT.option(space, self.below[player](space[-1]), self.names)
        label = labels[self.below[player](len(labels))]
        return label, values[labels.index(label)]

    def one_pending(self, p) -> None:
        """Draw the option of ``p``, a one-seat decision pending, and put its value where the rules read it."""
        self.left -= 1
        player = p.players[0]
        space = p.lazy and p.lazy[0]
        label, value = self._drawn(player, None if space else p.labels[0], p.values[0], space)
        self.history.append([player, label])
        fr = self.state.frames[-1]
        if p.dest is None:  # a menu: the value is where the chosen option's code starts
            fr.pc = value
        else:
            fr.env[p.dest] = value

    def each_pending(self, p) -> bool:
        """Draw for every seat of ``p``, a simultaneous decision pending, yet to choose (in order) and put the
        choices where the rules read them; False: fewer decisions left than seats (nothing drawn)."""
        waiting = [i for i, done in enumerate(p.chosen) if done is None]
        env = self.state.frames[-1].env
        result = list(env[p.dest])  # a new list: clones may share the old one
        for who, done in zip(p.players, p.chosen):
            if done is not None:
                result[who] = done[0]
        lazy = p.lazy or [None] * len(p.players)
        if not self.each([p.players[i] for i in waiting], [p.labels[i] for i in waiting],
                         [p.values[i] for i in waiting], [lazy[i] for i in waiting], result):
            return False
        env[p.dest] = result
        return True


def _played_by_policy(state, rngs, policy, decisions: int) -> None:
    """The untraced playout of a policy: each decision pending, as the API shows it; the policy's choice
    resolved here (a simultaneous decision through ``run_loop.play``, which gathers its choices)."""
    game = state.game
    names, step_limit = game.card_names, game.step_limit
    frames, history = state.frames, state.history
    run, failed = RUN.run, RUN.failed
    while decisions > 0 and not state.over:
        decisions -= 1
        p = state.pending
        if p is None or p.each:  # a simultaneous decision (or none, which the general path refuses as ever)
            _played(state, rngs, policy, 1)
            continue
        player = p.players[0]
        space = p.lazy and p.lazy[0]
        count = space[-1] if space else len(p.labels[0])
        k = _drawn(state, player, count, rngs[player], policy)
        if space:
            label, value = OPT.option(space, k, names)
        else:
            labels = p.labels[0]
            label = labels[k]
            value = p.values[0][labels.index(label)]  # the first option with that text, as apply
        history.append([player, label])
        dest = p.dest
        fr = frames[-1]
        if dest is None:  # a menu: the value is where the chosen option's code starts
            fr.pc = value
        else:
            fr.env[dest] = value
        state.pending = None
        state.steps = step_limit
        try:  # the rules run to the next decision, as run_loop.play has them run; one that fails rewinds it
            run(state)
        except Exception as exc:  # noqa: BLE001 - located and raised by failed
            failed(state, exc, player)


def _drawn(state, player: int, count: int, rng, policy) -> int:
    """Option number of ``player``'s decision among ``count``: ``rng.randrange(count)``, or the policy's
    (checked)."""
    if policy is None:
        return rng.randrange(count)
    k = policy(state, player, count, rng)
    if type(k) is not int or not 0 <= k < count:
        raise IllegalActionError(f"the playout's policy chose {k!r} for player {player} (seat {player + 1}), "
                                 f"who has options 0 to {count - 1}")
    return k


def _option(p, i, space, k, names) -> tuple:
    """(text, index, value) of option ``k`` of seat ``i`` of ``p``: of an option space, only that option made,
    located once (as apply_id); of a list, the first option with its text (as apply)."""
    if space:
        label, value = OPT.option(space, k, names)
        return label, k, value
    labels = p.labels[i]
    label = labels[k]
    j = labels.index(label)
    return label, j, p.values[i][j]


def _generators(state, rng) -> list:
    """One generator per seat: ``rng`` for all, or ``rng[seat]`` each; anything else is refused before a draw."""
    if isinstance(rng, random.Random):
        return [rng] * state.n
    if isinstance(rng, (list, tuple)) and len(rng) == state.n and all(isinstance(r, random.Random) for r in rng):
        return list(rng)
    if isinstance(rng, (list, tuple)):
        raise IllegalActionError(f"playout draws from rng: one random.Random, or a list of {state.n} of them "
                                 f"(one per seat), not a list of {len(rng)} items or of other things")
    not_a_generator("playout", rng)
