"""A seat's view as a fixed-size vector of numbers (a NumPy float32 array), for learning libraries.

The vector is computed from ``state.view(seat)`` and nothing else, so it holds exactly
what that seat may know.  Its layout depends only on the definition and the number of
players (``ViewEncoder.parts`` names every slice, ``ViewEncoder.part(name)`` finds one):

* ``seat``: one-hot of the observing seat;
* per zone (in the definition's order; per-player zones of absent seats left out):
  ``count`` (cards in it), ``top`` (1 + the index of the name of its top card, if the
  seat sees it, else 0; left out for a ``hidden`` zone, whose top no view ever shows)
  and ``names`` (how many cards of each distinct card name the seat sees there: all of
  a zone it may look at, the top card of a top-only zone, cards shown to it);
* each game variable and each player variable of each seat (a number as itself, yes/no as
  1/0, a seat as 1 + its number, a card as 1 + the index of its name (-1 where the view does not
  name it: a card the seat cannot see), a list as its length, none as 0; another seat's private
  variable as 0);
* each counter kept on board spaces or players;
* the decision: seats it waits for, seats that have decided (never what they chose),
  whether it is secret; and whether the game is over.

Values are clipped to ±2**24, where float32 still holds every whole number exactly.

**Constant parts.**  The layout is the definition's, not one game's, so some numbers never
change in a given game: the ``names`` of a card name that no rule ever moves into a zone (a
card kept for one part of a game never reaches a hand: in a game of many such cards most
``names`` entries are such zeros), the counts of zones a game never uses.  Which ones they
are is a property of the rules that no definition states, so they are kept (finding them by
playing games would be slow and could drop a number that a rare game does change); a learner
that wants a smaller input can drop the columns it finds constant in its own data, and
``parts`` says what each one means.

The environments do not build the view: :class:`interpreter.adapters.state_encoding.StateEncoder` reads the
same numbers straight from the state, updating only what changed (tests check both paths equal, bit
for bit).  ``encode(view)`` stays the reference, and serves any view given.

Encoding a view is a few Python steps per zone and per visible card, listing only the numbers that are
not 0, then one ``np.bincount``: no per-number Python work (that loop cost 75% of a PettingZoo
step before; on a shipped game it encodes a view 12-43x faster than it did).
"""

from __future__ import annotations

import numpy as np

from ..runtime.visibility import REDACTED

LIMIT = float(2 ** 24)


def _clip(value: float) -> float:
    return LIMIT if value > LIMIT else -LIMIT if value < -LIMIT else value


class ViewEncoder:
    """Encodes views of one definition at one player count as float32 arrays of length ``size``."""

    def __init__(self, game, players: int):
        game = game.for_players(players)  # a board per player count: the zones and spaces of this count's
        self.game, self.players = game, players
        self.names = sorted(set(game.card_names))
        self.name_index = {name: i for i, name in enumerate(self.names)}
        self.spaces = list(game.board.spaces) if game.board else []
        self.space_index = {name: i for i, name in enumerate(self.spaces)}
        self.zones = []  # (label, has a top slot)
        for i in range(game.zone_count):
            spec = game.zone_spec[i]
            if spec.per != "player" or game.zone_owner[i] < players:
                self.zones.append((game.zone_label(i), spec.visibility != "hidden"))
        self.gvars = sorted(game.gvars)
        self.pvars = sorted(game.pvars)
        self.counters = []  # (name, "spaces" | "players", length)
        for name, counter in sorted(game.counters.items()):
            if "space" in counter.on:
                self.counters.append((name, "spaces", len(self.spaces)))
            if "player" in counter.on:
                self.counters.append((name, "players", players))
        self.parts = []  # (name, start, length): the layout, for people reading the vector
        at = 0
        for name, length in self._layout():
            self.parts.append((name, at, length))
            at += length
        self.size = at
        self._plan()

    def _layout(self):
        n, cards = self.players, len(self.names)
        yield "seat", n
        for label, has_top in self.zones:
            yield (f"zone {label}: count, top, names", 2 + cards) if has_top else (f"zone {label}: count, names",
                                                                                  1 + cards)
        for name in self.gvars:
            yield f"variable {name}", 1
        for name in self.pvars:
            yield f"player variable {name}", n
        for name, where, length in self.counters:
            yield f"counter {name} on {where}", length
        yield "decision: waiting for, decided, secret", 2 * n + 1
        yield "over", 1

    def part(self, name: str) -> slice:
        """The slice of the vector that ``parts`` calls ``name`` (e.g. ``"zone deck: count, names"``)."""
        for part, start, length in self.parts:
            if part == name:
                return slice(start, start + length)
        raise KeyError(f"no part {name!r} in this layout; the parts are listed in ViewEncoder.parts")

    def _plan(self) -> None:
        """Where each zone's and each variable's numbers start, so ``encode`` only looks them up."""
        starts = iter(start for _, start, _ in self.parts[1:])
        self._zone_at = []  # (label, start, has a top slot, position of each name's count, 1 + index of each name)
        for label, has_top in self.zones:
            start = next(starts)
            names = start + 2 if has_top else start + 1
            self._zone_at.append((label, start, has_top, {name: names + i for name, i in self.name_index.items()}))
        self._top_value = {name: i + 1 for name, i in self.name_index.items()}
        self._gvar_at = [(name, next(starts), self.game.gvars[name]) for name in self.gvars]
        self._pvar_at = [(name, next(starts), self.game.pvars[name]) for name in self.pvars]
        self._counter_at = [(name, where, length, next(starts)) for name, where, length in self.counters]
        self._decision_at = next(starts)
        self._over_at = next(starts)
        self._fixed_at = self._fixed_positions()
        self._no_counter = {"spaces": [0] * len(self.spaces), "players": [0] * self.players}

    def _fixed_positions(self) -> np.ndarray:
        """Every number but the names' counts, in the order ``encode`` lists them."""
        fixed = list(range(self.players))
        for _, start, has_top, _ in self._zone_at:
            fixed += [start, start + 1] if has_top else [start]
        fixed += [start for _, start, _ in self._gvar_at]
        fixed += [start + p for _, start, _ in self._pvar_at for p in range(self.players)]
        fixed += [start + i for _, _, length, start in self._counter_at for i in range(length)]
        fixed += range(self._decision_at, self._decision_at + 2 * self.players + 1)
        return np.array(fixed + [self._over_at], np.intp)

    def value(self, value, kind: str | None = None) -> float:
        """One variable's value as a number (see the module docstring)."""
        if value is None:
            return 0.0
        if isinstance(value, bool):
            return float(value)
        if isinstance(value, int):
            return _clip(value + 1 if kind == "player" else value)
        if isinstance(value, float):
            return _clip(value) if value == value else 0.0
        if isinstance(value, str):
            if kind == "card" and value == REDACTED["card"]:  # a card the seat cannot see (unless one is called so)
                return float(self.name_index[value] + 1) if value in self.name_index else -1.0
            if value in self.name_index:
                return float(self.name_index[value] + 1)
            return float(self.space_index.get(value, -1) + 1)
        if isinstance(value, (list, tuple, dict)):
            return _clip(len(value))
        return 0.0

    def encode(self, view: dict) -> np.ndarray:
        """The vector of ``view`` (a ``state.view(seat)`` of this definition and player count).

        Only the numbers that are not 0 are listed, as (position, value) pairs, a visible card as
        (its name's count, 1); one ``np.bincount`` sums them into the vector.
        """
        where, what = [], []  # the positions and values of the numbers that are not 0 (cards: in seen)
        you = view.get("you")
        if you is not None:
            where.append(you)
            what.append(1)
        seen = self._zones_seen(view["zones"], where, what)  # one position per visible card: its name's count
        self._variables(view, where, what)
        if self._counter_at:
            self._counters(view.get("counters", {}), where, what)
        decision = view.get("decision")
        if decision is not None:
            self._decision(decision, where, what)
        if view["over"]:
            where.append(self._over_at)
            what.append(1)
        if seen:
            where += seen
            what += [1] * len(seen)
        if not where:
            return np.zeros(self.size, np.float32)
        return np.bincount(where, what, self.size).astype(np.float32)

    def _zones_seen(self, zones: dict, where: list, what: list) -> list:
        """List each zone's count and top; return the position of each card the seat sees (its name's count)."""
        seen = []
        top_value = self._top_value
        for label, start, has_top, position in self._zone_at:
            zone = zones[label]
            cards = zone.get("cards")
            if cards is not None:
                if cards:
                    where.append(start)
                    what.append(len(cards))
                    seen += map(position.__getitem__, cards)
                    if has_top:
                        where.append(start + 1)
                        what.append(top_value[cards[-1]])
            else:
                count = zone["count"]
                if count:
                    where.append(start)
                    what.append(count)
                top = zone.get("top")
                if top is not None:
                    seen.append(position[top])
                    if has_top:
                        where.append(start + 1)
                        what.append(top_value[top])
            shown = zone.get("shown")
            if shown:
                seen += [position[item["card"]] for item in shown]
        return seen

    def _variables(self, view: dict, where: list, what: list) -> None:
        """List the game variables and each seat's player variables that are not 0."""
        n, value = self.players, self.value
        variables = view["variables"]
        for name, at, kind in self._gvar_at:
            v = variables.get(name)
            if v:
                where.append(at)
                what.append(v if type(v) is int and kind != "player" and -LIMIT <= v <= LIMIT else value(v, kind))
        rows = view["player_variables"]
        for name, at, kind in self._pvar_at:
            for p in range(n):
                v = rows[p].get(name)
                if v:
                    where.append(at + p)
                    what.append(v if type(v) is int and kind != "player" and -LIMIT <= v <= LIMIT else value(v, kind))

    def _counters(self, counters: dict, where: list, what: list) -> None:
        """List the counters on spaces and on players that are not 0 (spaces in the board's order)."""
        for name, where_on, length, at in self._counter_at:
            held = counters.get(name, {}).get(where_on)
            if not held:
                continue
            if where_on == "spaces":
                held = [held.get(space, 0) for space in self.spaces]
            for k, v in enumerate(held):
                if v:
                    where.append(at + k)
                    what.append(_clip(v))

    def _decision(self, decision: dict, where: list, what: list) -> None:
        """List the seats the decision waits for, those that decided (never what), and whether it is secret."""
        n, at = self.players, self._decision_at
        for p in decision["waiting_for"]:
            where.append(at + p)
        for p in decision["decided"]:
            where.append(at + n + p)
        what += [1] * (len(decision["waiting_for"]) + len(decision["decided"]))
        if decision["secret"]:
            where.append(at + 2 * n)
            what.append(1)
