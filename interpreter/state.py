"""A game in progress: plain data plus the loop that runs rules until the next decision.

Everything a state holds is plain data: lists of card ids per zone, dicts of
variables, the RNG as one int, and the suspended rule code as frames
``[procedure id, pc, locals, return slot]``.  So a state is JSON-serialisable
at every decision, ``clone()`` is a handful of list copies, and a game replays
bit for bit from (definition, seed, actions).

The API follows game-AI habits (OpenSpiel / PettingZoo): ``current_players``,
``legal_actions``, ``apply``, ``is_terminal``, ``returns``, ``winners``.
Actions are strings: their own readable text form.
"""

from __future__ import annotations

import hashlib
import json

from .dsl.compiler import SUSPEND, GameOver
from .errors import IllegalActionError, RibbitError, RuleError, SaveFileError

SAVE_FORMAT = "ribbit-state/1"
# Saved frames point at positions in the compiled rule code; bump this whenever the compiler lays
# that code out differently, so an older save is refused instead of resuming at the wrong place.
COMPILED_LAYOUT = "2"


class State:
    __slots__ = ("game", "n", "players", "seed", "scenario", "zones", "loc", "gv", "pv", "rng", "frames", "pending",
                 "over", "forced_winners", "steps", "log", "history", "_result", "counters")

    # ---------------------------------------------------------------- creation
    @classmethod
    def start(cls, game, players: int, seed: int, log: bool = True, scenario: dict | None = None) -> "State":
        s = cls.__new__(cls)
        s.game, s.n, s.seed, s.scenario = game, players, seed, scenario
        s.players = list(range(players))
        s.zones, s.loc = game.initial_layout(players)
        s.gv = dict(game.gvar_defaults)
        s.pv = {name: [_fresh(value) for _ in range(players)] for name, value in game.pvar_defaults.items()}
        s.rng = game.seed_state(seed)
        s.counters = game.new_counters(players) if game.counters else {}
        s.frames = [[game.main.id, 0, {}, None]]
        if scenario is None:
            s.frames.append([game.setup.id, 0, {}, None])
        s.pending = None
        s.over = False
        s.forced_winners = None
        s.log = [] if log else None
        s.history = []
        s._result = None
        s.steps = game.step_limit
        if scenario is not None:
            from .scenario import apply_scenario

            apply_scenario(s, scenario)
        try:
            s._run()
        except RibbitError:
            raise
        except RecursionError:
            raise RuleError("effects nested too deeply during setup (endless recursion?)") from None
        except Exception as exc:
            raise RuleError(f"a rule failed while setting up the game ({type(exc).__name__}: {exc})") from None
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
        c.frames = [[f[0], f[1], dict(f[2]), f[3]] for f in self.frames]
        p = self.pending
        c.pending = None if p is None else {**p, "chosen": p["chosen"][:]}
        c.over, c.forced_winners = self.over, self.forced_winners
        c.steps = self.steps
        c.log = None if self.log is None else self.log[:]
        c.history = self.history[:]
        c._result = self._result
        c.counters = {k: {h: row[:] for h, row in v.items()} for k, v in self.counters.items()} \
            if self.counters else {}
        return c

    def _restore(self, backup: "State") -> None:
        for name in State.__slots__:
            setattr(self, name, getattr(backup, name))

    # ---------------------------------------------------------------- running rules
    def _run(self) -> None:
        """Run rule code until a player must decide or the game ends."""
        codes = self.game.codes
        frames = self.frames
        try:
            while frames:
                fr = frames[-1]
                code = codes[fr[0]]
                pc = fr[1]
                while pc >= 0:
                    pc = code[pc](self, fr, pc)
                if pc == SUSPEND:
                    return
        except GameOver:
            pass
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
        if not p["each"]:  # one player decides
            return list(p["players"])
        return [pl for pl, done in zip(p["players"], p["chosen"]) if done is None]

    def legal_actions(self, player: int | None = None) -> list[str]:
        """The distinct actions open to ``player`` (default: the first current player)."""
        p = self.pending
        if p is None:
            return []
        if player is None:
            waiting = self.current_players()
            if not waiting:
                return []
            player = waiting[0]
        try:
            i = p["players"].index(player)
        except ValueError:
            return []
        if p["chosen"][i] is not None:
            return []
        return list(p["labels"][i])

    def prompt(self) -> str:
        """What the pending decision is about (e.g. 'take'), for UIs."""
        return self.pending["prompt"] if self.pending else ""

    def apply(self, player: int, action: str) -> None:
        """Play ``action`` for ``player``.  Illegal actions raise and change nothing.

        If a rule fails while the action resolves (a house rule that loops forever,
        say), the state is rewound to just before the action and RuleError is raised.
        Rewinding replays the game from its seed, so the common path pays nothing.
        """
        p = self.pending
        if p is None or type(player) is not int:
            self._illegal(player, action)
        players = p["players"]
        try:  # one scan each for the seat and the action; a miss explains itself
            i = players.index(player)
            if p["chosen"][i] is not None:
                self._illegal(player, action)
            value = p["values"][i][p["labels"][i].index(action)]
        except ValueError:
            self._illegal(player, action)
        self.history.append([player, action])
        try:
            if p["each"]:
                p["chosen"][i] = [value]
                if None in p["chosen"]:
                    return
                env = self.frames[-1][2]
                result = list(env[p["dest"]])  # a new list: clones may share the old one
                for who, done in zip(players, p["chosen"]):
                    result[who] = done[0]
                env[p["dest"]] = result
            elif p["dest"] is None:  # a menu: the value is where the chosen option's code starts
                self.frames[-1][1] = value
            else:
                self.frames[-1][2][p["dest"]] = value
            self.pending = None
            self.steps = self.game.step_limit
            self._run()
        except RibbitError:
            self._rewind()
            raise
        except RecursionError:
            self._rewind()
            raise RuleError(f"effects nested too deeply after {action!r} (endless recursion?)") from None
        except Exception as exc:  # a rule failed in a way no check foresaw: never half an action
            self._rewind()
            raise RuleError(f"a rule failed after {action!r} ({type(exc).__name__}: {exc}); "
                            "the game is back where it was before that action") from None

    def _rewind(self) -> None:
        """Go back to the state before the last action, by replaying the game without it."""
        before = State.start(self.game, self.n, self.seed, self.log is not None, self.scenario)
        for player, action in self.history[:-1]:
            before.apply(player, action)
        self._restore(before)

    def _illegal(self, player, action):
        """Raise IllegalActionError explaining why (the state is not touched)."""
        if self.over:
            raise IllegalActionError(f"the game is over; {action!r} cannot be played")
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalActionError(f"there is no player {player!r} in this {self.n}-player game "
                                     f"(players are numbered 0 to {self.n - 1}: seats 1 to {self.n})")
        waiting = self.current_players()
        if player not in waiting:
            who = ", ".join(f"player {w} (seat {w + 1})" for w in waiting)
            raise IllegalActionError(f"it is not player {player}'s (seat {player + 1}) decision; waiting for {who}")
        legal = self.legal_actions(player)
        shown = "; ".join(legal[:12]) + ("; ..." if len(legal) > 12 else "")
        raise IllegalActionError(f"{action!r} is not a legal action for player {player} (seat {player + 1}) now. "
                                 f"Legal actions: {shown}")

    # ---------------------------------------------------------------- results
    def is_terminal(self) -> bool:
        return self.over

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

    def winners(self) -> list[int]:
        """The players who won (several when the victory is shared); empty until the game is over."""
        return list(self._results()[1]) if self.over else []

    def returns(self) -> list[float]:
        """Per player: 1/k if among k winners, else 0 (sums to 1 in every finished game)."""
        if not self.over:
            return [0.0] * self.n
        w = self._results()[1]
        return [1.0 / len(w) if p in w else 0.0 for p in self.players]

    # ---------------------------------------------------------------- views
    def view(self, player: int | None) -> dict:
        """What ``player`` may know (``None``: a spectator).  Hidden cards appear only as counts."""
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
            decision = {"prompt": pend["prompt"], "secret": pend["secret"], "waiting_for": self.current_players(),
                        "decided": [p for p, d in zip(pend["players"], pend["chosen"]) if d is not None]}
            if player in pend["players"]:
                i = pend["players"].index(player)
                decision["your_options"] = list(pend["labels"][i]) if pend["chosen"][i] is None else []
            view["decision"] = decision
        if self.counters:
            _show_counters(self, view)
        if self.over:
            view["scores"] = self.scores()
            view["winners"] = self.winners()
        return view

    # ---------------------------------------------------------------- saving
    def to_json(self) -> dict:
        """The whole state as plain JSON data (omniscient: it includes hidden cards)."""
        return _copy({
            "format": SAVE_FORMAT, "game": self.game.name, "fingerprint": fingerprint(self.game),
            "players": self.n, "seed": self.seed, "scenario": self.scenario, "zones": self.zones, "gv": self.gv,
            "pv": self.pv, "rng": str(self.rng), "frames": self.frames, "pending": self.pending, "over": self.over,
            "forced_winners": self.forced_winners, "history": self.history, "log": self.log,
            "counters": self.counters,
        })

    @classmethod
    def from_json(cls, game, data) -> "State":
        """Rebuild a state saved by :meth:`to_json`; a damaged file raises SaveFileError."""
        try:
            if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
                raise SaveFileError(f"not a Ribbit save file (expected format {SAVE_FORMAT!r})")
            if data.get("fingerprint") != fingerprint(game):
                raise SaveFileError(f"this save was made with a different definition of {data.get('game')!r} "
                                    "(the rules, the variants or Ribbit's compiler changed since)")
            s = cls.__new__(cls)
            s.game = game
            s.n = int(data["players"])
            if not game.min_players <= s.n <= game.max_players:
                raise SaveFileError(f"bad player count {s.n}")
            s.players = list(range(s.n))
            s.seed = int(data["seed"])
            s.scenario = data.get("scenario")
            s.zones = [[int(c) for c in z] for z in data["zones"]]
            if len(s.zones) != game.zone_count:
                raise SaveFileError("the zones do not match the definition")
            s.loc = [-1] * len(game.card_names)
            for zi, z in enumerate(s.zones):
                for c in z:
                    if not 0 <= c < len(s.loc) or s.loc[c] != -1:
                        raise SaveFileError(f"card {c} is missing or appears twice")
                    s.loc[c] = zi
            s.gv = dict(data["gv"])
            s.pv = {k: list(v) for k, v in data["pv"].items()}
            if set(s.gv) != set(game.gvar_defaults) or set(s.pv) != set(game.pvar_defaults):
                raise SaveFileError("the variables do not match the definition")
            s.rng = int(data["rng"])
            s.frames = [[int(f[0]), int(f[1]), dict(f[2]), f[3]] for f in data["frames"]]
            for f in s.frames:
                if not 0 <= f[0] < len(game.codes) or not 0 <= f[1] < len(game.codes[f[0]]):
                    raise SaveFileError("the saved rule position does not exist in this definition")
            s.pending = _check_pending(data["pending"], s.n)
            for name, values in s.pv.items():
                if len(values) != s.n:
                    raise SaveFileError(f"player variable {name!r} has {len(values)} values for {s.n} players")
            s.over = bool(data["over"])
            s.forced_winners = data["forced_winners"]
            s.history = [list(h) for h in data["history"]]
            s.log = data["log"]
            s.steps = game.step_limit
            s._result = None
            s.counters = _check_counters(data.get("counters", {}), game, s.n)
            return s
        except SaveFileError:
            raise
        except KeyError as exc:
            raise SaveFileError(f"the save file is incomplete: it has no {exc.args[0]!r}") from None
        except (TypeError, ValueError, AttributeError, IndexError) as exc:
            raise SaveFileError(f"the save file is damaged ({exc})") from None

    def dumps(self) -> str:
        return json.dumps(self.to_json())


def replay(game, players: int, seed: int, actions) -> State:
    """Rebuild a game from its seed and its actions ``[(player, action), ...]``."""
    state = game.new_game(players, seed)
    for player, action in actions:
        state.apply(player, action)
    return state


def fingerprint(game) -> str:
    """A short hash of the definition (and variants) a state belongs to."""
    h = hashlib.sha256(COMPILED_LAYOUT.encode())
    for text in game.source_texts:
        h.update(text.encode("utf-8"))
    return h.hexdigest()[:16]


def _check_pending(pending, players: int):
    """A saved decision must have the shape the engine writes, or loading it would fail later."""
    if pending is None:
        return None
    keys = {"players", "labels", "values", "chosen", "dest", "each", "secret", "prompt"}
    if not isinstance(pending, dict) or set(pending) != keys:
        raise SaveFileError("the saved decision is damaged (expected the keys " + ", ".join(sorted(keys)) + ")")
    n = len(pending["players"])
    if not all(isinstance(pending[k], list) and len(pending[k]) == n for k in ("labels", "values", "chosen")) \
            or not all(isinstance(p, int) and 0 <= p < players for p in pending["players"]):
        raise SaveFileError("the saved decision is damaged (its players, options and choices do not line up)")
    return pending


def _check_counters(data, game, players: int) -> dict:
    """Saved counters must have the definition's names, holders and sizes, and hold whole numbers >= 0."""
    expected = game.new_counters(players)
    if not isinstance(data, dict) or set(data) != set(expected):
        raise SaveFileError("the counters do not match the definition (expected "
                            + (", ".join(sorted(expected)) or "none") + ")")
    counters = {}
    for name, rows in expected.items():
        saved = data[name]
        if not isinstance(saved, dict) or set(saved) != set(rows):
            raise SaveFileError(f"the counter {name!r} is damaged (expected counts on {', '.join(rows)})")
        counters[name] = {}
        for holder, row in rows.items():
            values = saved[holder]
            if not isinstance(values, list) or len(values) != len(row) \
                    or not all(type(v) is int and v >= 0 for v in values):
                raise SaveFileError(f"the counter {name!r} is damaged: its {holder} counts must be "
                                    f"{len(row)} whole numbers, none below zero")
            counters[name][holder] = list(values)
    return counters


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
    """A deep copy of plain data (dicts, lists, scalars): a snapshot later actions cannot change."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
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
