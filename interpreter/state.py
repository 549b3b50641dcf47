"""A game in progress: plain data plus the loop that runs rules until the next decision.

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
space, see :mod:`interpreter.dsl.options`, and its texts are made only when asked).
"""

from __future__ import annotations

import random

from . import chance as CHANCE
from . import determinise as DETERMINISE
from . import saves as SAVES
from . import trace as TR
from . import undo as UNDO
from . import views as VIEWS
from .runtime import option_spaces as OPT
from .runtime.sandbox import SAFE_BUILTINS
from .runtime.control import SUSPEND, GameOver
from .runtime.records import Frame
from .saves import fingerprint  # noqa: F401 (re-exported: where callers found it before)
from .runtime.sandbox import failed_at, in_ribbit_words
from .errors import IllegalActionError, RibbitError, RuleError, not_a_generator, quote, type_of


class State:
    __slots__ = ("game", "n", "players", "seed", "scenario", "zones", "loc", "gv", "pv", "rng", "frames", "pending",
                 "over", "forced_winners", "ended_by", "first_player", "steps", "log", "log_seen", "history", "_result", "counters",
                 "trace", "trace_vars", "shown",
                 "chance",  # None, or the chance mode's ChanceMode (interpreter.chance: random events as chance nodes)
                 "_made")  # the labels and values made from the pending decision's option spaces (see _options)

    # How a finished game ended (``ended_by``; None while it runs):
    END_STATEMENT = "end game"  # an effect said ``end game``
    END_OF_FLOW = "flow"  # the flow ran out: the last phase's ``until`` held (or its single round was played)
    DECISION_CAP = "decision cap"  # stopped from outside by :meth:`abandon` (a simulation's cap): no winner

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
        s._made = None
        s.chance = None
        if scenario is not None:
            game.apply_scenario(s, scenario, scenario_source)
        if trace:
            TR.start(s)
        if chance:
            CHANCE.begin(s)
            CHANCE.run_setup(s)
        else:
            s._setup()
        return s

    def _setup(self) -> None:
        """Run setup up to the first decision; a rule that fails is a RuleError in the author's words."""
        game = self.game
        try:
            self._run()
            if self.trace is not None:
                TR.changed(self)
        except RibbitError:
            raise
        except RecursionError:
            raise RuleError("effects nested too deeply during setup (endless recursion?)") from None
        except Exception as exc:
            cause, where = _unforeseen(game, exc)
            raise RuleError(f"a rule failed while setting up the game: {in_ribbit_words(cause)}",
                            where) from cause

    def clone(self) -> "State":
        """An independent copy (cheap: card ids and variable values are shared immutables)."""
        c = State.__new__(State)
        c.game, c.n, c.players, c.seed, c.scenario = self.game, self.n, self.players, self.seed, self.scenario
        c.chance = None
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
        c._made = self._made  # made from option spaces the copy shares, and only ever added to: shared
        if self.chance is not None:  # undecided zones are copied undecided, bound to the copy's chance mode
            CHANCE.clone_into(self, c)
        return c

    def _restore(self, backup: "State") -> None:
        for name in State.__slots__:
            setattr(self, name, getattr(backup, name))

    # ---------------------------------------------------------------- running rules
    def _run(self) -> None:
        """Run rule code until a player must decide or the game ends."""
        codes = self.game.codes
        frames = self.frames
        ended_by = State.END_OF_FLOW
        try:
            while frames:
                fr = frames[-1]
                code = codes[fr.pid]
                pc = fr.pc
                while pc >= 0:
                    pc = code(self, fr, pc)
                if pc == SUSPEND:
                    return
        except GameOver:
            ended_by = State.END_STATEMENT
        except (RibbitError, RecursionError):
            raise
        except Exception as exc:  # no check foresaw it: name the statement whose code was running
            fr, pc = _failing_frame(exc, fr, _pc_at(exc, code, pc))
            raise _Unforeseen(_located(self.game, exc, self.game.procs[fr.pid], pc)) from exc
        self.ended_by = ended_by
        frames.clear()
        self.pending = None
        self.over = True
        self._result = None

    # ---------------------------------------------------------------- decisions
    def current_players(self) -> list[int]:
        """Players who must act now (several at a simultaneous decision); empty when the game is over."""
        p = self.pending
        if p is None:
            return []
        if not p.each:  # one player decides
            return list(p.players)
        return [pl for pl, done in zip(p.players, p.chosen) if done is None]

    def legal_actions(self, player: int | None = None) -> list[str]:
        """The distinct actions open to ``player`` (default: the first current player)."""
        asked = self._asked(player)
        if asked is None:
            return []
        p, i = asked
        labels = p.labels[i]
        return list(labels if labels is not None else self._options(p, i)[0])

    def _asked(self, player: int | None):
        """(pending decision, index of ``player`` in it) if ``player`` (default: the first current
        player) has a choice to make now, else None; a player number out of range is an error."""
        if player is not None and (type(player) is not int or not 0 <= player < self.n):
            self._no_such_player(player)  # (after the end too: a player of another type is no player)
        p = self.pending
        if p is None:
            return None
        if player is None:
            waiting = self.current_players()
            if not waiting:
                return None
            player = waiting[0]
        try:
            i = p.players.index(player)
        except ValueError:
            return None
        return None if p.chosen[i] is not None else (p, i)

    def prompt(self) -> str:
        """What the pending decision is about (e.g. 'take'), for UIs."""
        return self.pending.prompt if self.pending else ""

    def apply(self, player: int, action: str) -> None:
        """Play ``action`` for ``player``.  Illegal actions raise and change nothing.

        If a rule fails while the action resolves (a house rule that loops forever,
        say), the state is rewound to just before the action and RuleError is raised.
        Rewinding replays the game from its seed, so the common path pays nothing.
        """
        p = self.pending
        if p is None or type(player) is not int or type(action) is not str:
            self._illegal(player, action)
        try:  # one scan each for the seat and the action; a miss explains itself
            i = p.players.index(player)
            if p.chosen[i] is not None:
                self._illegal(player, action)
            labels = p.labels[i]
            if labels is None:  # an option space (see _options): its labels are made now
                labels = self._options(p, i)[0]
            j = labels.index(action)
            value = p.values[i][j] if p.values[i] is not None else self._options(p, i)[1][j]
        except ValueError:
            self._illegal(player, action)
        self._play(p, i, player, action, j, value)

    # ---------------------------------------------------------------- the same by number
    # Option ``k`` of a player is the ``k``-th of ``legal_actions(player)``; these make no text but
    # the one label an applied option records in the history (so saves are the same as with ``apply``).
    def legal_action_ids(self, player: int | None = None) -> range:
        """``range(len(legal_actions(player)))``, made without any option's text."""
        asked = self._asked(player)
        if asked is None:
            return range(0)
        return range(self._count(*asked))

    def sample_action_id(self, player: int | None, rng) -> int:
        """One of ``legal_action_ids(player)``, uniformly: ``rng.randrange(count)``, no option listed.

        It draws from ``rng`` (a ``random.Random``) exactly what ``rng.randrange(len(legal_actions(player)))``
        draws, so a bot using it plays the same games as one picking uniformly among ``legal_actions``.
        An ``rng`` that is not a ``random.Random`` is an IllegalActionError (nothing is drawn).
        """
        if not isinstance(rng, random.Random):
            not_a_generator("sample_action_id", rng)
        p = self.pending
        if p is not None and not p.each and type(player) is int and p.players[0] == player:
            # the common case, straight: one player asked (a one-player decision is never half chosen)
            space = p.lazy
            return rng.randrange(OPT.count(space[0]) if space else len(p.labels[0]))
        asked = self._asked(player)
        if asked is not None:
            return rng.randrange(self._count(*asked))
        raise IllegalActionError("there is no decision to make now" if player is None else
                                 f"player {player} (seat {player + 1}) has no decision to make now")

    def apply_id(self, player: int, action_id: int) -> None:
        """``apply(player, legal_actions(player)[action_id])``, without making the other options' texts.

        The same effect, history (the option's text), trace and narration; an illegal id raises
        IllegalActionError and changes nothing; a rule that fails rewinds the action, as ``apply``.
        """
        p = self.pending
        if p is not None and not p.each and type(player) is int \
                and type(action_id) is int and action_id >= 0 and p.players[0] == player:
            space = p.lazy  # the common case, straight: one player asked
            if space is None:  # the options listed
                labels = p.labels[0]
                if action_id < len(labels):
                    label = labels[action_id]
                    j = labels.index(label)  # as apply does: the first option with that text
                    self._play(p, 0, player, label, j, p.values[0][j])
                    return
            elif space[0] and action_id < OPT.count(space[0]):  # an option space: only this option made
                label, value = OPT.option(space[0], action_id, self.game.card_names)
                self._play(p, 0, player, label, action_id, value)
                return
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
                label, value, j = OPT.label(space, action_id, self.game.card_names), OPT.value(space, action_id), action_id
            else:
                labels = p.labels[i]
                label = labels[action_id]
                j = labels.index(label)  # as apply does: the first option with that text
                value = p.values[i][j]
        except (TypeError, ValueError, IndexError):
            self._bad_id(player, action_id)
        self._play(p, i, player, label, j, value)

    def _bad_id(self, player, action_id):
        """Raise IllegalActionError saying why ``action_id`` is not one of ``player``'s options (nothing changes)."""
        if type(player) is not int or not 0 <= player < self.n:
            self._no_such_player(player)
        if type(action_id) is not int:  # exactly int: a bool or a look-alike is not an option number
            raise IllegalActionError(f"an action id must be exactly an int, not {_type_of(action_id)}")
        if self.over:
            raise IllegalActionError(f"the game is over; action id {action_id} cannot be played")
        if self.is_chance():
            raise IllegalActionError(f"action id {action_id} cannot be played now: a chance event is pending "
                                     "(state.is_chance()); choose its outcome with apply_chance first")
        waiting = self.current_players()
        if player not in waiting:
            who = ", ".join(f"player {w} (seat {w + 1})" for w in waiting)
            raise IllegalActionError(f"it is not player {player}'s (seat {player + 1}) decision; waiting for {who}")
        n = len(self.legal_action_ids(player))
        raise IllegalActionError(f"{_quote(action_id)} is not an action id of player {player} (seat {player + 1}) "
                                 f"now: the ids are 0 to {n - 1}")

    def action_to_string(self, player: int, action_id: int) -> str:
        """The text of option ``action_id`` of ``player``: ``legal_actions(player)[action_id]``, made alone."""
        if type(player) is not int or type(action_id) is not int or not 0 <= action_id < len(self.legal_action_ids(player)):
            self._bad_id(player, action_id)
        p = self.pending
        i = p.players.index(player)
        space = p.lazy and p.lazy[i]
        if space:
            return OPT.label(space, action_id, self.game.card_names)
        return p.labels[i][action_id]

    def _count(self, p, i) -> int:
        """How many options seat ``i`` of the pending decision ``p`` has."""
        space = p.lazy and p.lazy[i]
        return OPT.count(space) if space else len(p.labels[i])

    def _options(self, p, i) -> tuple[list, list]:
        """(labels, values) of seat ``i`` of the pending decision ``p``, made once from its option space if it has one.

        Made on demand and kept in ``_made`` (keyed by the decision's list of spaces, which is never
        changed), not in ``pending``: the decision stays what the rules made, whoever asked.
        """
        space = p.lazy and p.lazy[i]
        if not space:
            return p.labels[i], p.values[i]
        made = self._made
        if made is None or made[0] is not p.lazy:
            made = self._made = (p.lazy, {})
        got = made[1].get(i)
        if got is None:
            got = made[1][i] = OPT.expand(space, self.game.card_names)
        return got

    def _play(self, p, i, player, action, j, value) -> None:
        """Seat ``i`` of ``p`` (``player``) chose option ``j`` (text ``action``, value ``value``): record and resolve it."""
        ch = self.chance
        if ch is not None and not ch.live:  # chance mode: the step runs from a kept boundary (interpreter.chance)
            return CHANCE.play(self, p, i, player, action, j, value)
        players = p.players
        self.history.append([player, action])
        if self.trace is not None:
            labels, values = self._options(p, i)
            TR.decided(self, player, p.prompt, labels, None if p.dest is None else values, j,
                       False, p.secret)
        try:
            if p.each:
                p.chosen[i] = [value]
                if None in p.chosen:
                    return
                env = self.frames[-1].env
                result = list(env[p.dest])  # a new list: clones may share the old one
                for who, done in zip(players, p.chosen):
                    result[who] = done[0]
                env[p.dest] = result
            elif p.dest is None:  # a menu: the value is where the chosen option's code starts
                self.frames[-1].pc = value
            else:
                self.frames[-1].env[p.dest] = value
            self.pending = None
            self.steps = self.game.step_limit
            self._run()
            if self.trace is not None:
                TR.changed(self)
        except Exception as exc:
            self._failed(exc, action)

    def _failed(self, exc, action):
        """A rule failed while ``action`` resolved: rewind the action and raise the error (located, if unforeseen)."""
        self._rewind()
        if isinstance(exc, RibbitError):
            raise exc
        if isinstance(exc, RecursionError):
            raise RuleError(f"effects nested too deeply after {action!r} (endless recursion?)") from None
        # a rule failed in a way no check foresaw: never half an action
        cause, where = _unforeseen(self.game, exc)
        raise RuleError(f"a rule failed after {action!r}: {in_ribbit_words(cause)}; "
                        "the game is back where it was before that action", where) from cause

    def _rewind(self) -> None:
        """Go back to the state before the last action, by replaying the game without it."""
        if self.chance is not None:  # chance mode: the step's runner goes back to the step's boundary itself
            return
        before = State.start(self.game, self.n, self.seed, self.log is not None, self.scenario, self.trace is not None)
        for player, action in self.history[:-1]:
            before.apply(player, action)
        self._restore(before)

    def _replayed(self, history) -> "State":
        """A fresh game like this one (game, players, seed, scenario, log, trace, chance mode) with ``history`` applied."""
        return CHANCE.replay(self, history)

    def _illegal(self, player, action):
        """Raise IllegalActionError explaining why (the state is not touched)."""
        if type(action) is not str:  # exactly str: a subclass or look-alike could claim to equal any option
            raise IllegalActionError(f"an action must be exactly a str (its text), not {_type_of(action)}")
        action = _quote(action, 200)
        if self.over:
            raise IllegalActionError(f"the game is over; {action} cannot be played")
        if self.is_chance():
            raise IllegalActionError(f"{action} cannot be played now: a chance event is pending "
                                     "(state.is_chance()); choose its outcome with apply_chance first")
        if type(player) is not int or not 0 <= player < self.n:
            self._no_such_player(player)
        waiting = self.current_players()
        if player not in waiting:
            who = ", ".join(f"player {w} (seat {w + 1})" for w in waiting)
            raise IllegalActionError(f"it is not player {player}'s (seat {player + 1}) decision; waiting for {who}")
        legal = self.legal_actions(player)
        shown = "; ".join(legal[:12]) + ("; ..." if len(legal) > 12 else "")
        raise IllegalActionError(f"{action} is not a legal action for player {player} (seat {player + 1}) now. "
                                 f"Legal actions: {shown}")

    def _no_such_player(self, player):
        """Players are exactly ints (not bools, floats or look-alikes) from 0 to n-1."""
        if type(player) is not int:
            raise IllegalActionError(f"a player must be exactly an int, numbered 0 to {self.n - 1} (seats 1 to "
                                     f"{self.n}), not {_type_of(player)}")
        raise IllegalActionError(f"there is no player {_quote(player)} in this {self.n}-player game "
                                 f"(players are numbered 0 to {self.n - 1}: seats 1 to {self.n})")

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
        if self.over:
            return
        self.frames.clear()
        self.pending = None
        if self.chance is not None:  # a chance event that waited is dropped with the rest
            self.chance.node = None
        self.over = True
        self.forced_winners = []
        self.ended_by = State.DECISION_CAP
        self._result = None

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

    def traced_decision(self, player, prompt, labels, values, index, automatic):
        TR.decided(self, player, prompt, labels, values, index, automatic)

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


class _Unforeseen(Exception):
    """A Python error no check foresaw, raised by rule code; ``where`` is the Location of the statement that
    failed (or of its rule: procedure, trigger, ability...) and the error itself is the ``__cause__``."""

    def __init__(self, where):
        super().__init__(where)
        self.where = where


def _pc_at(exc, code, pc):
    """The instruction a procedure's generated function was at when ``exc`` went through it (else ``pc``)."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is getattr(code, "__code__", None):
            return tb.tb_frame.f_locals.get("pc", pc)
        tb = tb.tb_next
    return pc


def _failing_frame(exc, fr, pc):
    """(frame, pc) of the innermost procedure function ``exc`` went through (a waiting call runs its callee
    inside its caller's function: see ``resumable.push_call``), else ``(fr, pc)``."""
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        code = frame.f_code
        if code.co_argcount == 3 and code.co_varnames[:3] == ("s", "fr", "pc") \
                and frame.f_globals.get("__builtins__") is SAFE_BUILTINS:
            fr, pc = frame.f_locals["fr"], frame.f_locals["pc"]
        tb = tb.tb_next
    return fr, pc


def _located(game, exc, proc, pc):
    """Where rule code failed (see :mod:`interpreter.runtime.sandbox`): the statement, else the rule running ``pc``."""
    try:
        return failed_at(game, exc, proc, pc)
    except Exception:  # noqa: BLE001 - never hide the real error behind one in locating it
        return game.source.location(proc.where_at(pc))


def _unforeseen(game, exc):
    """(the original error, the Location of the statement that raised it or None) for an error no check foresaw."""
    if type(exc) is not _Unforeseen:
        return exc, None
    return exc.__cause__, exc.where


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


