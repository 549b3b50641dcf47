"""A game in progress: plain data, and the public API as a façade over the modules that do the work.

Everything a state holds is plain data: lists of card ids per zone, dicts of
variables, the RNG as one int, and the suspended rule code as frames (``Frame``
records of plain data: procedure id, pc, locals, return slot).  So ``clone()`` is a handful of
list copies, and a game replays bit for bit from (definition, seed, actions).
A save holds what rebuilds the game and what it shows, never the frames: it
is loaded by replaying it, and refused unless the replay shows the same.

The API follows game-AI habits (OpenSpiel / PettingZoo): ``current_players``,
``legal_actions``, ``apply``, ``is_terminal``, ``returns``, ``winners``.
Actions are strings: their own readable text form.  Bots may use numbers instead:
``legal_action_ids``, ``sample_action_id``, ``apply_id``, ``action_to_string`` (option
``i`` is ``legal_actions(player)[i]``; a choice of several cards is kept as an option
space, see :mod:`interpreter.runtime.option_spaces`, and its texts are made only when asked).

The work is done elsewhere, in plain functions of a state: the actions open and chosen
(:mod:`interpreter.actions`), the run loop from one decision to the next (:mod:`interpreter.run_loop`),
what each audience may know (:mod:`interpreter.views`), taking a decision back (:mod:`interpreter.undo`),
determinisation for search (:mod:`interpreter.determinise`), saves (:mod:`interpreter.saves`) and
chance mode, random events as chance nodes decided from outside (:mod:`interpreter.chance`).
"""

from __future__ import annotations

from . import actions as ACTIONS
from . import chance as CHANCE
from . import determinise as DETERMINISE
from . import playout as PLAYOUT
from . import run_loop as RUN
from . import saves as SAVES
from . import trace as TR
from . import undo as UNDO
from . import views as VIEWS
from .errors import quote, type_of
from .runtime.records import Frame
from .saves import fingerprint  # noqa: F401 (re-exported: where callers found it before)


class State:
    __slots__ = ("game", "n", "players", "seed", "scenario", "zones", "loc", "gv", "pv", "rng", "frames", "pending",
                 "over", "forced_winners", "ended_by", "first_player", "steps", "log", "log_seen", "history", "_result", "counters",
                 "trace", "trace_vars", "shown", "public",
                 "chance",  # None, or the chance mode's ChanceMode (interpreter.chance: random events as chance nodes)
                 "drawing",  # None, or the Drawer of the playout playing it (interpreter.playout: decisions drawn in place)
                 "_made")  # the labels and values made from the pending decision's option spaces (see _options)

    # How a finished game ended (``ended_by``; None while it runs):
    END_STATEMENT = RUN.END_STATEMENT  # an effect said ``end game``
    END_OF_FLOW = RUN.END_OF_FLOW  # the flow ran out: the last phase's ``until`` held (or its single round was played)
    DECISION_CAP = RUN.DECISION_CAP  # stopped from outside by :meth:`abandon` (a simulation's cap): no winner

    # ---------------------------------------------------------------- creation
    @classmethod
    def start(cls, game, players: int, seed: int, log: bool = True, scenario: dict | None = None,
              trace: bool = False, scenario_source=None, chance: bool = False) -> "State":
        s = cls.__new__(cls)
        s.game, s.n, s.seed, s.scenario = game, players, seed, scenario
        s.players = list(range(players))
        s.zones, s.loc = game.initial_layout(players)
        s.gv = dict(game.gvar_defaults)
        s.pv = {name: [_fresh(value) for _ in range(players)] for name, value in game.pvar_defaults.items()}
        s.rng = game.seed_state(seed)
        s.counters = game.new_counters(players) if game.counters else {}
        s.frames = [Frame(game.main.id, 0, {}, None)]
        if scenario is None:
            s.frames.append(Frame(game.setup.id, 0, {}, None))
        s.pending = None
        s.over = False
        s.forced_winners = None
        s.ended_by = None
        s.first_player = None  # a scenario's first_player, until the first turn phase starts (then None)
        s.log = [] if log else None
        s.log_seen = []
        s.history = []
        s._result = None
        s.steps = game.step_limit
        s.trace = s.trace_vars = None
        s.shown = {}  # card -> sorted players it is shown to ('show'), until it moves
        s.public = set()  # cards everyone watched go into a zone hiding them (runtime.moves): public there
        s._made = None
        s.chance = s.drawing = None
        if scenario is not None:
            game.apply_scenario(s, scenario, scenario_source)
        if trace:
            TR.start(s)
        if chance:
            CHANCE.begin(s)
            CHANCE.run_setup(s)
        else:
            RUN.set_up(s)
        return s

    def clone(self) -> "State":
        """An independent copy (cheap: card ids and variable values are shared immutables)."""
        c = State.__new__(State)
        c.game, c.n, c.players, c.seed, c.scenario = self.game, self.n, self.players, self.seed, self.scenario
        c.chance = c.drawing = None
        c.zones = [z[:] for z in self.zones] if self.chance is None else None  # (chance mode: see below)
        c.loc = self.loc[:]
        c.gv = dict(self.gv)
        c.pv = {k: v[:] for k, v in self.pv.items()}
        c.rng = self.rng
        c.frames = [f.copy() for f in self.frames]
        p = self.pending
        c.pending = None if p is None else p.copy()
        c.over, c.forced_winners, c.ended_by = self.over, self.forced_winners, self.ended_by
        c.first_player = self.first_player
        c.steps = self.steps
        c.log = None if self.log is None else self.log[:]
        c.log_seen = self.log_seen[:]  # entries are never changed once written: shared
        c.history = self.history[:]
        c._result = self._result
        c.counters = {k: {h: row[:] for h, row in v.items()} for k, v in self.counters.items()} \
            if self.counters else {}
        c.trace = None if self.trace is None else self.trace[:]  # records are never changed once written: shared
        c.trace_vars = self.trace_vars
        c.shown = dict(self.shown) if self.shown else {}  # the player lists are replaced, never changed
        c.public = set(self.public) if self.public else set()
        c._made = self._made  # made from option spaces the copy shares, and only ever added to: shared
        if self.chance is not None:  # undecided zones are copied undecided, bound to the copy's chance mode
            CHANCE.clone_into(self, c)
        return c

    def _restore(self, backup: "State") -> None:
        for name in State.__slots__:
            setattr(self, name, getattr(backup, name))

    # ---------------------------------------------------------------- decisions
    # Bound straight to the functions of actions.py and run_loop.py: the hot path pays no extra call.
    current_players = ACTIONS.current_players
    legal_actions = ACTIONS.legal_actions
    prompt = ACTIONS.prompt
    apply = ACTIONS.apply
    # the same by number (option ``k`` of a player is the ``k``-th of ``legal_actions(player)``)
    legal_action_ids = ACTIONS.legal_action_ids
    sample_action_id = ACTIONS.sample_action_id
    apply_id = ACTIONS.apply_id
    action_to_string = ACTIONS.action_to_string
    # what views, undo, saves and determinise use
    _options = ACTIONS.options
    _no_such_player = ACTIONS.no_such_player
    _run = RUN.run
    _rewind = RUN.rewind
    _play_from_boundary = CHANCE.play  # chance mode's run_loop.play (bound here: chance.py imports run_loop)

    def playout(self, rng, policy=None, decisions: int | None = None, build: str = PLAYOUT.PLAYOUT_BUILD) -> "State":
        """Play this state on, in place, to its end (or for ``decisions`` decisions) by random choices; returns it.

        See :func:`interpreter.playout.playout`.
        """
        return PLAYOUT.playout(self, rng, policy, decisions, build)

    def _replayed(self, history) -> "State":
        """A fresh game like this one (game, players, seed, scenario, log, trace, chance mode) with ``history`` applied."""
        return CHANCE.replay(self, history)

    # ---------------------------------------------------------------- chance mode (interpreter.chance)
    def is_chance(self) -> bool:
        """Whether a chance event waits for its outcome (only in chance mode: ``new_game(..., chance=True)``)."""
        return self.chance is not None and self.chance.node is not None

    def chance_outcomes(self) -> list:
        """``[(outcome, probability), ...]`` of the pending chance event (outcomes are distinct ints); empty if none.

        Omniscient: a draw from a hidden zone lists the cards it may be.  For the environment, never for a seat.
        """
        return CHANCE.outcomes(self)

    def chance_node(self) -> dict | None:
        """The pending chance event as plain data: ``{"kind": "card"|"number", "what", "outcomes", "weights"}``
        (probability = weight / sum of weights), or None.  Omniscient, as :meth:`chance_outcomes`."""
        return CHANCE.describe(self)

    def chance_outcome_text(self, outcome: int) -> str:
        """A readable text of an outcome of the pending chance event: a card's name, or a number."""
        return CHANCE.outcome_text(self, outcome)

    def apply_chance(self, outcome: int) -> None:
        """Choose ``outcome`` for the pending chance event; the rules run on to the next decision or chance node.
        An outcome that is not one of ``chance_outcomes()`` raises IllegalActionError and changes nothing;
        a rule that fails puts the game back before the action that started the step, and raises."""
        CHANCE.apply_chance(self, outcome)

    # ---------------------------------------------------------------- taking a decision back
    def can_undo(self, player: int) -> bool:
        """Whether ``player`` may take back their last decision now (see :meth:`undo`).

        See :func:`interpreter.undo.can_undo`.
        """
        return UNDO.can_undo(self, player)

    def undo_refusal(self, player: int) -> str | None:
        """Why ``player`` may not take back their last decision now (a sentence), or None if they may.

        See :func:`interpreter.undo.undo_refusal`.
        """
        return UNDO.undo_refusal(self, player)

    def undo(self, player: int) -> str:
        """Take back ``player``'s last decision, if that is fair; returns the action taken back.

        See :func:`interpreter.undo.undo`.
        """
        return UNDO.undo(self, player)

    def knowledge(self, player: int | None) -> dict:
        """What ``player`` (None: a spectator) knows: ``view(player)`` less who has chosen so far at a simultaneous
        decision.  See :func:`interpreter.views.knowledge`."""
        return VIEWS.knowledge(self, player)

    # ---------------------------------------------------------------- results
    def is_terminal(self) -> bool:
        return self.over

    def abandon(self) -> None:
        """Stop an unfinished game from outside (a simulation's decision cap): it is over, nobody wins.

        ``ended_by`` becomes ``State.DECISION_CAP``; the scores are those of the position reached.
        """
        if not self.over:
            if self.chance is not None:  # a chance event that waited is dropped with the rest
                self.chance.node = None
            RUN.end(self, State.DECISION_CAP, winners=[])

    def _results(self):
        if self._result is None:
            g = self.game
            scores = [g.score_fn(self, {"p": p}) for p in self.players] if g.score_fn else [0] * self.n
            if self.forced_winners is not None:
                winners = list(self.forced_winners)
            else:
                keys = [(scores[p],) + tuple(sign * fn(self, {"p": p}) for sign, fn in g.tiebreaks)
                        for p in self.players]
                best = max(keys)
                winners = [p for p in self.players if keys[p] == best]
            self._result = (scores, winners)
        return self._result

    def scores(self) -> list[int]:
        """Each player's final score (by the definition's ``scoring.score``)."""
        return list(self._results()[0])

    def score_breakdown(self) -> list[dict]:
        """Per player, the value of each score term (``{term: value}``, the definition's own names; an
        unnamed score is the term ``score``): the terms add up to ``scores()``.  Worked out afresh."""
        terms = self.game.score_terms
        return [{name: fn(self, {"p": p}) for name, fn in terms} for p in self.players]

    def winners(self) -> list[int]:
        """The players who won (several when the victory is shared); empty until the game is over."""
        return list(self._results()[1]) if self.over else []

    def returns(self) -> list[float]:
        """Per player: 1/k if among k winners, else 0 (sums to 1 in every finished game)."""
        if not self.over:
            return [0.0] * self.n
        w = self._results()[1]
        return [1.0 / len(w) if p in w else 0.0 for p in self.players]

    def current_scores(self) -> list[int]:
        """Each player's score by the definition's ``scoring.score`` in this position, finished or not.

        ``scores()`` is the final result (worked out once); this is worked out afresh, for bots that
        weigh positions during a game.
        """
        fn = self.game.score_fn
        return [fn(self, {"p": p}) for p in self.players] if fn else [0] * self.n

    # ---------------------------------------------------------------- determinisation (for search)
    def determinised(self, seat: int, rng) -> "State":
        """A copy of this position as ``seat`` might believe it to be, for search.

        See :func:`interpreter.determinise.determinised`.
        """
        return DETERMINISE.determinised(self, seat, rng)

    # ---------------------------------------------------------------- views
    def view(self, player: int | None) -> dict:
        """What ``player`` may know (``None``: a spectator); hidden cards appear only as counts.
        See :func:`interpreter.views.view`."""
        return VIEWS.view(self, player)

    # ---------------------------------------------------------------- the decision, described for UIs
    def decision_for(self, player: int | None) -> dict | None:
        """The pending decision as ``player`` may see it (``None``: a spectator), for UIs; None if none is pending.
        See :func:`interpreter.views.decision_for`."""
        return VIEWS.decision_for(self, player)

    def action_watch(self, player: int, action: str) -> tuple:
        """Before ``player`` plays ``action``: what each reader sees of the cards its text names.
        See :func:`interpreter.views.action_watch`."""
        return VIEWS.action_watch(self, player, action)

    def action_readers(self, watch: tuple) -> list[bool]:
        """After the action ``watch`` was taken before: may each seat, then a spectator, read its text?
        See :func:`interpreter.views.action_readers`."""
        return VIEWS.action_readers(self, watch)

    def apply_read(self, player: int, action) -> list[bool]:
        """:meth:`apply`, then who may read the action's text: :meth:`action_readers` of the :meth:`action_watch` taken
        before it (for logs, news of others' moves and replays; raises as :meth:`apply` does)."""
        watch = VIEWS.action_watch(self, player, action) if action in self.legal_actions(player) else None
        self.apply(player, action)  # (an action not among the options is refused here: watch is None no further)
        return VIEWS.action_readers(self, watch)

    def _cards_of_option(self, player, label, value):
        """(card names, zone labels) of the cards an option picks, if ``player`` sees them all (else ([], []))."""
        return VIEWS.cards_of_option(self, player, label, value)

    # ---------------------------------------------------------------- narration
    def narration(self, player: int | None, since: int = 0) -> list[str]:
        """The log lines ``player`` may read (``None``: a spectator), from line ``since`` of ``log`` on.
        See :func:`interpreter.views.narration`."""
        return VIEWS.narration(self, player, since)

    # ---------------------------------------------------------------- trace
    def trace_for(self, player: int | None, since: int = 0) -> list[dict]:
        """The trace as ``player`` may read it (``None``: a spectator), from record ``since`` on (empty unless traced).
        See :func:`interpreter.views.trace_for`."""
        return VIEWS.trace_for(self, player, since)

    # hooks called by the rules while tracing (see interpreter.trace)
    def traced_move(self, card, src, top, dest, bottom):
        TR.moved(self, (card,), src, top, dest, bottom)

    def traced_moves(self, cards, src, top, dest, bottom):
        TR.moved(self, cards, src, top, dest, bottom)

    def traced_shuffle(self, zone):
        TR.shuffled(self, zone)

    def traced_decision(self, player, prompt, labels, values, index, automatic, secret=False):
        TR.decided(self, player, prompt, labels, values, index, automatic, secret)

    def traced_event(self, name, kinds, env):
        TR.emitted(self, name, kinds, env)

    def traced_show(self, cards, players):
        TR.shown(self, cards, players)

    def traced_log(self, text, seen):
        TR.logged(self, text, seen)

    # ---------------------------------------------------------------- saving
    def to_json(self) -> dict:
        """The state as plain JSON data. See :func:`interpreter.saves.to_json`."""
        return SAVES.to_json(self)

    @classmethod
    def from_json(cls, game, data) -> "State":
        """Load a save made by :meth:`to_json`, never trusted: replayed from its own seed and actions and compared
        (see :func:`interpreter.loader.saves.load_save`); SaveFileError says what is wrong."""
        return game.read_save(game, data)


def replay(game, players: int, seed: int, actions) -> State:
    """Rebuild a game from its seed and its actions ``[(player, action), ...]``."""
    state = game.new_game(players, seed)
    for player, action in actions:
        state.apply(player, action)
    return state


_quote = quote  # the one bounded quoting of outside values, shared with every error message
_type_of = type_of  # where game, sim and the adapters found it


def _fresh(value):
    return list(value) if isinstance(value, list) else value


