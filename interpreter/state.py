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

import hashlib
import itertools
import random

from . import rng as RNG
from . import trace as TR
from .runtime import option_spaces as OPT
from .runtime.sandbox import SAFE_BUILTINS
from .runtime.control import SUSPEND, GameOver
from .runtime.limits import MAX_ACTION_TEXT
from .runtime.records import Frame
from .runtime.sandbox import failed_at
from .errors import IllegalActionError, RibbitError, RuleError, SaveFileError, UndoRefusedError, quote
from .rng import MAX_SEED_BITS

SAVE_FORMAT = "ribbit-state/2"
MAX_LAYOUT_TEXT = 64  # characters of a layout hash in a save (see Game.layout_hash)
# The parts of a save, in the order to_json writes them.
SAVE_KEYS = ("format", "game", "fingerprint", "players", "seed", "zones", "gv", "pv", "rng", "pending", "over",
             "forced_winners", "scenario", "history", "log", "log_seen",
             "counters")
# Parts a save may lack: "shown" lists [card, [players]] for the cards a 'show' made visible to players
# (written only when it holds something, so games that never use it save as before); "layout" is the
# hash of the compiled layout the save was made under (see interpreter.dsl.layout_hash), which saves made before
# it was written lack.  A save is resumed by replaying it whatever its layout, so the layout is checked
# for its type only.
OPTIONAL_SAVE_KEYS = ("shown", "layout")
# What a save shows of a pending decision; the option values and the variable that receives the
# choice are positions in the compiled rules, rebuilt by the replay rather than read from a file.
SAVED_DECISION_KEYS = ("players", "labels", "chosen", "each", "secret", "prompt")
DECISION_PARTS = {"players": "the list of players the pending decision waits for",
                  "labels": "the option list of the pending decision",
                  "chosen": "the record of choices already made at the pending decision",
                  "each": "whether everyone chooses at the pending decision",
                  "secret": "whether the pending decision is secret", "prompt": "the prompt of the pending decision"}
MAX_SAVED_ACTIONS = 100_000  # far beyond any real game; loading replays every action, so this bounds its cost


class State:
    __slots__ = ("game", "n", "players", "seed", "scenario", "zones", "loc", "gv", "pv", "rng", "frames", "pending",
                 "over", "forced_winners", "ended_by", "first_player", "steps", "log", "log_seen", "history", "_result", "counters",
                 "trace", "trace_vars", "shown",
                 "_made")  # the labels and values made from the pending decision's option spaces (see _options)

    # How a finished game ended (``ended_by``; None while it runs):
    END_STATEMENT = "end game"  # an effect said ``end game``
    END_OF_FLOW = "flow"  # the flow ran out: the last phase's ``until`` held (or its single round was played)
    DECISION_CAP = "decision cap"  # stopped from outside by :meth:`abandon` (a simulation's cap): no winner

    # ---------------------------------------------------------------- creation
    @classmethod
    def start(cls, game, players: int, seed: int, log: bool = True, scenario: dict | None = None,
              trace: bool = False, scenario_source=None) -> "State":
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
        if scenario is not None:
            game.apply_scenario(s, scenario, scenario_source)
        if trace:
            TR.start(s)
        try:
            s._run()
            if s.trace is not None:
                TR.changed(s)
        except RibbitError:
            raise
        except RecursionError:
            raise RuleError("effects nested too deeply during setup (endless recursion?)") from None
        except Exception as exc:
            cause, where = _unforeseen(game, exc)
            raise RuleError(f"a rule failed while setting up the game ({type(cause).__name__}: {cause})",
                            where) from cause
        return s

    def clone(self) -> "State":
        """An independent copy (cheap: card ids and variable values are shared immutables)."""
        c = State.__new__(State)
        c.game, c.n, c.players, c.seed, c.scenario = self.game, self.n, self.players, self.seed, self.scenario
        c.zones = [z[:] for z in self.zones]
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
            _not_a_generator("sample_action_id", rng)
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
        raise RuleError(f"a rule failed after {action!r} ({type(cause).__name__}: {cause}); "
                        "the game is back where it was before that action", where) from cause

    def _rewind(self) -> None:
        """Go back to the state before the last action, by replaying the game without it."""
        before = State.start(self.game, self.n, self.seed, self.log is not None, self.scenario, self.trace is not None)
        for player, action in self.history[:-1]:
            before.apply(player, action)
        self._restore(before)

    def _illegal(self, player, action):
        """Raise IllegalActionError explaining why (the state is not touched)."""
        if type(action) is not str:  # exactly str: a subclass or look-alike could claim to equal any option
            raise IllegalActionError(f"an action must be exactly a str (its text), not {_type_of(action)}")
        action = _quote(action, 200)
        if self.over:
            raise IllegalActionError(f"the game is over; {action} cannot be played")
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

    # ---------------------------------------------------------------- taking a decision back
    def can_undo(self, player: int) -> bool:
        """Whether ``player`` may take back their last decision now (see :meth:`undo`)."""
        return self._undo_check(player)[0] is None

    def undo_refusal(self, player: int) -> str | None:
        """Why ``player`` may not take back their last decision now (a sentence), or None if they may."""
        return self._undo_check(player)[0]

    def undo(self, player: int) -> str:
        """Take back ``player``'s last decision, if that is fair; returns the action taken back.

        It is fair while nothing new has been revealed to anyone and no one else has acted since:

        * the last action of the history is ``player``'s, and the game is not over;
        * it drew no random number (the generator is where it was before it);
        * every other audience (each other seat, and spectators) knows exactly what it knew before it:
          the same view and the same narration, apart from the progress of a simultaneous decision
          still open (who has chosen so far: see :meth:`knowledge`);
        * ``player`` sees no card they did not see before it.

        The state becomes exactly the one before that action (history, log, generator, everything: it
        is rebuilt by replaying the game without it, so saves before and after equal).  Otherwise
        UndoRefusedError says why, and nothing changes.
        """
        reason, before = self._undo_check(player)
        if reason is not None:
            raise UndoRefusedError(reason)
        action = self.history[-1][1]
        self._restore(before)
        return action

    def _undo_check(self, player):
        """(None, the state before ``player``'s last action) if it may be taken back, else (why not, None)."""
        if type(player) is not int or not 0 <= player < self.n:
            self._no_such_player(player)
        who = f"seat {player + 1}"  # the players' own numbering: this is read by them
        if not self.history:
            return f"{who} has no decision to take back: none has been made yet", None
        if self.over:
            return "the game is over: its result is known to everyone, so no decision can be taken back", None
        last = self.history[-1][0]
        if last != player:
            return (f"{who} cannot take back a decision: the last one was seat {last + 1}'s, and "
                    "a decision can be taken back only while no one else has acted since"), None
        before = State.start(self.game, self.n, self.seed, self.log is not None, self.scenario, self.trace is not None)
        for p, action in self.history[:-1]:
            before.apply(p, action)
        if before.rng != self.rng:
            return f"the last decision of {who} cannot be taken back: it led to a random draw", None
        for audience in [*range(self.n), None]:
            if audience == player:
                continue
            if before.knowledge(audience) != self.knowledge(audience) \
                    or before.narration(audience) != self.narration(audience):
                other = "the spectators" if audience is None else f"seat {audience + 1}"
                return f"the last decision of {who} cannot be taken back: it showed {other} something new", None
        if not _seen_cards(self, player) <= _seen_cards(before, player):
            return f"the last decision of {who} cannot be taken back: it showed them a card they had not seen", None
        return None, before

    def knowledge(self, player: int | None) -> dict:
        """What ``player`` (None: a spectator) knows of the game: ``view(player)`` less the progress of an
        open simultaneous decision (who has chosen so far, who is still choosing), which tells nothing of
        what anyone chose.  Two positions with the same knowledge are the same to that player: a bot's
        decision computed in one holds in the other, and an action that changed no one else's knowledge
        revealed nothing to them."""
        view = self.view(player)
        decision = view.get("decision")
        if decision is not None and self.pending["each"]:
            del decision["waiting_for"], decision["decided"]
        return view

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
        """A copy of this position as ``seat`` might believe it to be, for search: never the real hidden state.

        Every card ``seat`` cannot see (hidden zones, other players' ``owner`` zones, all but the top
        card of ``top`` zones, cards shown only to others) is dealt again at random among the positions
        it cannot see, keeping zone sizes; a card only trades places with cards that started the game in
        the same zone (cards of one starting pile share their back).  The deal depends only on which
        cards are unseen and on ``rng``, never on where they really are.  Counters on unseen cards are
        zero and what others were shown of them is forgotten; other players' private player variables
        go back to their starting values, and a simultaneous decision (``ask each``) is asked again in the
        new deal: the others' choices already made are undone, so the searcher decides without their picks.  The copy's
        random number generator, seed, history and log are new or empty: future chance is drawn from
        ``rng`` (a ``random.Random`` of the searcher), not the game's.

        What ``seat`` sees (``view(seat)``) is unchanged, except that at a simultaneous decision the
        others who had chosen are waiting again.  The copy is for search only: it is not a save.
        A ``seat`` that is not a player of the game (exactly an int, 0 to n-1) or an ``rng`` that is not
        a ``random.Random`` is an IllegalActionError.
        """
        if type(seat) is not int or not 0 <= seat < self.n:
            self._no_such_player(seat)
        if not isinstance(rng, random.Random):
            _not_a_generator("determinised", rng)
        g = self.game
        c = self.clone()
        c.log, c.log_seen, c.trace, c.trace_vars, c.history = None, [], None, None, []
        c.seed = rng.getrandbits(64)
        c.rng = g.seed_state(c.seed)
        shown = self.shown
        groups: dict = {}  # starting zone -> ([positions], [cards]) the seat cannot see
        for index, cards in enumerate(self.zones):
            if not cards:
                continue
            vis = g.zone_spec[index].visibility
            if vis == "public" or (vis == "owner" and g.zone_owner[index] == seat):
                continue
            last = len(cards) - 1 if vis == "top" else len(cards)
            for k in range(last):
                card = cards[k]
                if shown and seat in shown.get(card, ()):
                    continue
                places, pile = groups.setdefault(g.card_start[card][0], ([], []))
                places.append((index, k))
                pile.append(card)
        zones, loc = c.zones, c.loc
        unseen = set()
        for places, pile in groups.values():
            unseen.update(pile)
            pile.sort()  # the deal depends only on which cards are unseen, never on where they really are
            RNG.shuffle(rng.getrandbits(64), pile)
            for (index, k), card in zip(places, pile):
                zones[index][k] = card
                loc[card] = index
        if unseen:
            if shown:  # what others were shown of the cards the seat cannot see is not known to it
                c.shown = {card: players for card, players in shown.items() if card not in unseen}
            for rows in c.counters.values():
                row = rows.get("card")
                if row is not None:  # the clone's own copy
                    for card in unseen:
                        row[card] = 0
        for name in g.hidden_pvars:
            values = c.pv[name]
            for p in self.players:
                if p != seat:
                    values[p] = _fresh(g.pvar_defaults[name])
        p = c.pending
        if p is not None and p.each and any(who != seat for who in p.players):
            # ask everyone again, in the new deal (the others' options may be cards the seat cannot see);
            # the decision is the instruction before the one the rule resumes at
            own = None
            if seat in p.players:
                i = p.players.index(seat)
                if p.chosen[i] is not None:
                    labels, values = self._options(p, i)
                    own = labels[values.index(p.chosen[i][0])]
            c.frames[-1].pc -= 1
            c.pending = None
            c.steps = g.step_limit
            c._run()
            if own is not None and own in c.legal_actions(seat):
                c.apply(seat, own)
        return c

    # ---------------------------------------------------------------- views
    def view(self, player: int | None) -> dict:
        """What ``player`` may know (``None``: a spectator).  Hidden cards appear only as counts."""
        if player is not None and (type(player) is not int or not 0 <= player < self.n):
            self._no_such_player(player)
        g = self.game
        zones = {}
        for index, cards in enumerate(self.zones):
            spec = g.zone_spec[index]
            owner = g.zone_owner[index]
            if spec.per == "player" and owner >= self.n:
                continue
            vis = spec.visibility
            if vis == "public" or (vis == "owner" and player is not None and owner == player):
                shown = {"cards": [g.card_names[c] for c in cards]}
            elif vis == "top":
                shown = {"count": len(cards), "top": g.card_names[cards[-1]] if cards else None}
            else:
                shown = {"count": len(cards)}
            zones[g.zone_label(index)] = shown
        if g.seen_zone is not None and player is not None:
            _show_seen(self, player, zones)
        if self.shown and player is not None:
            _show_shown(self, player, zones)
        pvars = []
        for p in self.players:
            row = {}
            for name, values in self.pv.items():
                if name in g.hidden_pvars and p != player:
                    continue
                row[name] = _plain_view(g, values[p], g.pvars[name])
            pvars.append(row)
        view = {
            "game": g.name, "players": self.n, "you": player,
            "zones": zones,
            "variables": {k: _plain_view(g, v, g.gvars[k]) for k, v in self.gv.items()},
            "player_variables": pvars,
            "over": self.over,
        }
        pend = self.pending
        if pend is not None:
            decision = {"prompt": pend.prompt, "secret": pend.secret, "waiting_for": self.current_players(),
                        "decided": [p for p, d in zip(pend.players, pend.chosen) if d is not None]}
            if player in pend.players:
                i = pend.players.index(player)
                decision["your_options"] = list(self._options(pend, i)[0]) if pend.chosen[i] is None else []
            view["decision"] = decision
        if self.counters:
            _show_counters(self, view)
        if self.over:
            view["scores"] = self.scores()
            view["winners"] = self.winners()
        return view

    # ---------------------------------------------------------------- the decision, described for UIs
    def decision_for(self, player: int | None) -> dict | None:
        """The pending decision as ``player`` may see it (``None``: a spectator), for UIs; None if none is pending.

        ``{"prompt", "secret", "simultaneous", "waiting_for", "decided", "pick", "options"}``: ``pick`` is
        "menu" (plain texts), "one" (each option is one item) or "several" (each option is a list of items);
        ``options`` are this seat's own (empty for anyone else), each ``{"label", "cards", "zones"}`` where
        ``cards`` names the cards the option picks and ``zones`` the zone each lies in, given only when
        ``player`` sees every one of them where it lies (else both are empty: a choice by text alone).
        Other seats' options and choices are never described.
        """
        p = self.pending
        if p is None:
            return None
        if player is not None and (type(player) is not int or not 0 <= player < self.n):
            self._no_such_player(player)
        options = []
        pick = "menu"
        if player in p.players:
            i = p.players.index(player)
            if p.chosen[i] is None:
                labels, values = self._options(p, i)
                if p.dest is not None:
                    pick = "several" if values and all(type(v) is list for v in values) else "one"
                for label, value in zip(labels, values):
                    cards, zones = self._cards_of_option(player, label, value) if p.dest is not None else ([], [])
                    options.append({"label": label, "cards": cards, "zones": zones})
        return {"prompt": p.prompt, "secret": p.secret, "simultaneous": p.each,
                "waiting_for": self.current_players(),
                "decided": [who for who, done in zip(p.players, p.chosen) if done is not None],
                "pick": pick, "options": options}

    def _cards_of_option(self, player, label, value):
        """(card names, zone labels) of the cards an option's value picks, if ``player`` sees them all; else ([], [])."""
        if type(value) is tuple and len(value) == 2:  # a menu entry built from a list: (entry, item)
            value = value[1]
        items = value if type(value) is list else [value]
        g = self.game
        names, zones = [], []
        for card in items:
            if type(card) is not int or not 0 <= card < len(g.card_names) or g.card_names[card] not in label \
                    or not self._sees_card(player, card):
                return [], []  # not cards (numbers, players, spaces...), or cards this seat cannot see
            names.append(g.card_names[card])
            zones.append(g.zone_label(self.loc[card]))
        return names, zones

    def _sees_card(self, player, card) -> bool:
        zone = self.loc[card]
        if zone < 0:
            return False
        vis = self.game.zone_spec[zone].visibility
        return vis == "public" or (vis == "owner" and self.game.zone_owner[zone] == player) \
            or (vis == "top" and self.zones[zone][-1] == card) or player in self.shown.get(card, ())

    # ---------------------------------------------------------------- narration
    def narration(self, player: int | None, since: int = 0) -> list[str]:
        """The log lines ``player`` may read (``None``: a spectator), from line ``since`` of ``log`` on.

        ``state.log`` is the omniscient narration, for the referee and tests; this is what a seat
        may be shown: card details it cannot see are redacted and private lines to others left out.
        """
        if player is not None and (type(player) is not int or not 0 <= player < self.n):
            raise IllegalActionError(f"there is no player {player!r} in this {self.n}-player game "
                                     f"(players are numbered 0 to {self.n - 1}; None is a spectator)")
        if self.log is None:
            return []
        lines = self.log[since:]
        audience = self.n if player is None else player
        for index, texts in self.log_seen:
            if index >= since:
                lines[index - since] = texts[audience]
        return [line for line in lines if line is not None]

    # ---------------------------------------------------------------- trace
    def trace_for(self, player: int | None, since: int = 0) -> list[dict]:
        """The trace as ``player`` may read it (``None``: a spectator), from record ``since`` of ``state.trace``
        on; ``state.trace`` is the omniscient one.

        Empty unless the game was started with ``trace=True``.  See :mod:`interpreter.trace`.
        """
        if player is not None and (type(player) is not int or not 0 <= player < self.n):
            self._no_such_player(player)
        return [] if self.trace is None else TR.for_audience(self, player, since)

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
        """The state as plain JSON data: what rebuilds it (players, seed, scenario, history) and all it shows.

        Omniscient: it includes hidden cards.  The suspended rule code is left out: a save is
        loaded by replaying its history, so positions inside the compiled rules never travel.
        """
        p = self.pending
        pending = None if p is None else {key: getattr(p, key) for key in SAVED_DECISION_KEYS}
        if pending is not None and p.lazy:  # a save lists every option, as legal_actions does
            pending["labels"] = [self._options(p, i)[0] for i in range(len(p.players))]
        data = _copy({
            "format": SAVE_FORMAT, "game": self.game.name, "fingerprint": fingerprint(self.game),
            "layout": self.game.layout_hash(), "players": self.n, "seed": self.seed, "zones": self.zones, "gv": self.gv, "pv": self.pv,
            "rng": str(self.rng), "pending": pending, "over": self.over, "forced_winners": self.forced_winners,
            "scenario": self.scenario, "history": self.history, "log": self.log, "log_seen": self.log_seen,
            "counters": self.counters,
        })
        if self.shown:
            data["shown"] = [[c, list(players)] for c, players in sorted(self.shown.items())]
        return data

    @classmethod
    def from_json(cls, game, data) -> "State":
        """Load a save made by :meth:`to_json`: the game replayed from the save's own seed and actions.

        A save is never trusted: its envelope is checked (format, definition, types, sizes), the
        game is rebuilt from its players, seed, scenario and history, and every part the save
        shows (zones, variables, decision, result, RNG, log) must equal that replay, or
        SaveFileError says which part differs.  The returned state is the replay, so it shares
        nothing with ``data``.
        """
        form = data.get("format") if type(data) is dict else None
        if not _same(form, SAVE_FORMAT):
            if type(form) is str and form.startswith("ribbit-state/"):
                raise SaveFileError(f"this save is in format {_quote(form)}, which this version of Ribbit cannot load "
                                    f"(it reads {SAVE_FORMAT!r})")
            raise SaveFileError(f"not a Ribbit save file (expected format {SAVE_FORMAT!r})")
        if not _same(data.get("fingerprint"), fingerprint(game)):
            raise SaveFileError(f"this save was made with a different definition of {_quote(data.get('game'))} "
                                "(the rules or the variants changed since)")
        for key in SAVE_KEYS:
            if key not in data:
                raise SaveFileError(f"the save file is incomplete: it has no {key!r}")
        optional = sum(key in data for key in OPTIONAL_SAVE_KEYS)
        if len(data) != len(SAVE_KEYS) + optional or not all(type(k) is str for k in data):
            extra = [_quote(k) for k in itertools.islice(data, len(SAVE_KEYS) + optional + 3)
                     if type(k) is not str or (k not in SAVE_KEYS and k not in OPTIONAL_SAVE_KEYS)][:3]
            raise SaveFileError(f"the save file has parts Ribbit does not write: {', '.join(extra)}")
        if "layout" in data and (type(data["layout"]) is not str or len(data["layout"]) > MAX_LAYOUT_TEXT):
            raise SaveFileError(f"the save's layout is damaged (expected a text of at most {MAX_LAYOUT_TEXT} "
                                "characters)")
        # Another layout (the same rules compiled by another version of Ribbit) is no reason to refuse:
        # nothing in a save points into the compiled rules, and the replay below rebuilds the game.
        players, seed, history, log = data["players"], data["seed"], data["history"], data["log"]
        if type(players) is not int or not game.min_players <= players <= game.max_players:
            raise SaveFileError(f"the save's player count {_quote(players)} is not a whole number from "
                                f"{game.min_players} to {game.max_players}")
        if type(seed) is not int or seed.bit_length() > MAX_SEED_BITS:
            raise SaveFileError(f"the save's seed {_quote(seed)} is not a whole number of at most {MAX_SEED_BITS} bits")
        if log is not None and type(log) is not list:
            raise SaveFileError("the save's log is damaged (expected a list or null)")
        if type(history) is not list or len(history) > MAX_SAVED_ACTIONS:
            raise SaveFileError(f"the save's history is not a list of at most {MAX_SAVED_ACTIONS} actions")
        for number, entry in enumerate(history, 1):
            if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not int or type(entry[1]) is not str \
                    or len(entry[1]) > MAX_ACTION_TEXT:
                raise SaveFileError(f"action {number} of the save's history is not [player number, action text] "
                                    f"(with at most {MAX_ACTION_TEXT} characters of text)")
        try:
            state = game.new_game(players, seed, log is not None, data["scenario"])  # copies the scenario
        except RibbitError as exc:
            raise SaveFileError(f"the save's game cannot be started again from its seed and scenario: {exc}") from None
        for number, (player, action) in enumerate(history, 1):
            try:
                state.apply(player, action)
            except RibbitError as exc:
                raise SaveFileError(f"action {number} of the save's history (player {player}, {_quote(action)}) "
                                    f"cannot be played: {exc}") from None
        _check_same(state, data)
        return state


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


def fingerprint(game) -> str:
    """A short hash of the definition (and variants) a state belongs to."""
    h = hashlib.sha256()
    for text in game.source_texts:
        h.update(text.encode("utf-8"))
    return h.hexdigest()[:16]


def _check_same(state, data: dict) -> None:
    """Refuse a save whose shown parts differ from ``state``, the replay of its own seed and actions."""
    game, real = state.game, state.to_json()

    def differs(what: str):
        raise SaveFileError(f"this save does not match its own game: {what} differs from the replay of the save's "
                            "own seed and actions")

    if not _same(data["game"], real["game"]):
        differs("the game's name")
    zones = data["zones"]
    if type(zones) is not list or len(zones) != game.zone_count:
        raise SaveFileError(f"the zones do not match the definition (it has {game.zone_count} zones)")
    for index, cards in enumerate(real["zones"]):
        if not _same(zones[index], cards):
            differs(f"zone {game.zone_label(index)!r}")
    for key, what in (("gv", "game variable"), ("pv", "player variable")):
        saved = data[key]
        if not _same_keys(saved, real[key]):
            raise SaveFileError(f"the {what}s do not match the definition "
                                f"(expected {', '.join(map(repr, real[key])) or 'none'})")
        for name, value in real[key].items():
            if not _same(saved[name], value):
                seats = [i for i, v in enumerate(value) if type(saved[name]) is not list
                         or len(saved[name]) != len(value) or not _same(saved[name][i], v)] if key == "pv" else []
                differs(f"{what} {name!r}" + (f" of seat {seats[0] + 1}" if len(seats) == 1 else ""))
    if not _same(data["rng"], real["rng"]):
        differs("the state of the random number generator")
    saved, pending = data["pending"], real["pending"]
    if pending is None or saved is None:
        if saved is not pending:
            differs("whether a decision is pending")
    else:
        if not _same_keys(saved, pending):
            raise SaveFileError("the saved decision is damaged (expected the keys " + ", ".join(SAVED_DECISION_KEYS) + ")")
        for key in SAVED_DECISION_KEYS:
            if not _same(saved[key], pending[key]):
                differs(DECISION_PARTS[key])
    for key, what in (("over", "whether the game is over"), ("forced_winners", "the list of declared winners"),
                      ("log", "the log"), ("log_seen", "what each player read of the log"), ("counters", "the counters")):
        if not _same(data[key], real[key]):
            differs(what)
    if not _same(data.get("shown"), real.get("shown")):
        differs("which cards are shown to which players")


def _same(saved, real) -> bool:
    """``saved == real`` for plain data, with exactly the same types all the way down.

    The cost is bounded by ``real`` (the replay) however large ``saved`` is, and an object
    that claims to equal everything cannot pass for data.
    """
    kind = type(real)
    if type(saved) is not kind:
        return False
    if kind is list:
        return len(saved) == len(real) and all(map(_same, saved, real))
    if kind is dict:
        return _same_keys(saved, real) and all(_same(saved[k], v) for k, v in real.items())
    return saved == real


def _same_keys(saved, real: dict) -> bool:
    return type(saved) is dict and len(saved) == len(real) and all(type(k) is str for k in saved) \
        and all(k in saved for k in real)


_quote = quote  # the one bounded quoting of outside values, shared with every error message


def _not_a_generator(call: str, rng):
    raise IllegalActionError(f"{call} draws from rng, which must be a random.Random (random.Random(seed)), "
                             f"not {_type_of(rng)}")


def _type_of(value) -> str:
    """The type of a wrong argument, and its value when that is a plain builtin."""
    kind = type(value)
    if kind is int and value.bit_length() > 64:
        return f"an int of {value.bit_length()} bits"
    if kind in (int, bool, float, str, type(None)):
        return f"{kind.__name__} {_quote(value)}"
    base = next((b.__name__ for b in (str, int) if issubclass(kind, b)), None)
    return f"a {kind.__name__}" + (f" (a subclass of {base})" if base else "")




def _seen_cards(state, player) -> set:
    """The cards (ids) ``player``'s view shows face up, wherever they lie."""
    g = state.game
    seen = set()
    for label, entry in state.view(player)["zones"].items():
        cards = state.zones[g.zone_index(label)]
        if "cards" in entry:
            seen.update(cards)
            continue
        if entry.get("top") is not None:
            seen.add(cards[-1])
        for item in entry.get("shown", ()):
            seen.add(cards[len(cards) - 1 - item["from_top"]])
    return seen


def _show_seen(state, player, zones) -> None:
    """The top cards of zones with ``seen_by`` whose condition holds for ``player`` now, listed as shown."""
    from .runtime.visibility import sees_top

    g = state.game
    held = {}  # one condition may serve several zones (a zone per player or per space): checked once
    for index, seen in enumerate(g.seen_zone):
        if seen is None:
            continue
        entry = zones.get(g.zone_label(index))
        cards = state.zones[index]
        if entry is None or "cards" in entry or not cards:
            continue  # a zone of a seat not in this game, a zone the player sees whole, or an empty one
        top, cond = seen
        ok = held.get(id(cond))
        if ok is None:
            ok = held[id(cond)] = sees_top(state, cond, player)
        if not ok:
            continue
        listed = [{"card": g.card_names[card], "from_top": k} for k, card in enumerate(reversed(cards[-top:]))
                  if not (k == 0 and "top" in entry)]
        if listed:
            entry["shown"] = listed


def _show_shown(state, player, zones) -> None:
    """Cards shown to ``player`` ('show') in zones that hide them: ``"shown": [{"card", "from_top"}]`` there."""
    g = state.game
    for card, players in state.shown.items():
        zone = state.loc[card]
        if player not in players or zone < 0:
            continue
        entry = zones.get(g.zone_label(zone))
        cards = state.zones[zone]
        from_top = len(cards) - 1 - cards.index(card)
        if entry is None or "cards" in entry or (from_top == 0 and "top" in entry):
            continue  # the zone shows it anyway
        if any(item["from_top"] == from_top for item in entry.get("shown", ())):
            continue  # seen there already (seen_by)
        entry.setdefault("shown", []).append({"card": g.card_names[card], "from_top": from_top})
    for entry in zones.values():
        if "shown" in entry:
            entry["shown"].sort(key=lambda item: item["from_top"])


def _show_counters(state, view) -> None:
    """Counters are public: per space and per player, and per card wherever the viewer sees the card."""
    g = state.game
    shown = {}
    on_cards = []
    for name, rows in state.counters.items():
        entry = {}
        if "space" in rows:
            entry["spaces"] = dict(zip(g.board.spaces, rows["space"]))
        if "player" in rows:
            entry["players"] = list(rows["player"])
        if "card" in rows:
            on_cards.append((name, rows["card"]))
        shown[name] = entry
    view["counters"] = shown
    if not on_cards:
        return
    for label, zone in view["zones"].items():
        if "cards" in zone:
            cards = state.zones[g.zone_index(label)]
            zone["counters"] = {name: [row[c] for c in cards] for name, row in on_cards}
        elif zone.get("top") is not None:
            top = state.zones[g.zone_index(label)][-1]
            zone["top_counters"] = {name: row[top] for name, row in on_cards}


def _copy(value):
    """A deep copy of plain data (dicts, lists, scalars; tuples become lists): a snapshot later actions cannot change."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value


def _fresh(value):
    return list(value) if isinstance(value, list) else value


def _plain_view(game, value, kind):
    if kind == "card":
        return None if value is None else game.card_names[value]
    if kind == "list:card":
        return [game.card_names[c] for c in value]
    return value
