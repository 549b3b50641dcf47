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
  1/0, a seat as 1 + its number, a card as 1 + the index of its name, a list as its length,
  none as 0; another seat's private variable as 0);
* each counter kept on board spaces or players;
* the decision: seats it waits for, seats that have decided (never what they chose),
  whether it is secret; and whether the game is over.

Values are clipped to ±2**24, where float32 still holds every whole number exactly.

**Constant parts.**  The layout is the definition's, not one game's, so some numbers never
change in a given game: the ``names`` of a card name that no rule ever moves into a zone
(Top Frog's hats never reach a hand: most of its ``names`` entries are such zeros), the
counts of zones a game never uses.  Which ones they are is a property of the rules that no
definition states, so they are kept (finding them by playing games would be slow and could
drop a number that a rare game does change); a learner that wants a smaller input can drop
the columns it finds constant in its own data, and ``parts`` says what each one means.

Encoding is a few Python steps per zone and per visible card, then NumPy: no per-number
Python work (that loop cost 75% of a PettingZoo step before).
"""

from __future__ import annotations

import numpy as np

LIMIT = float(2 ** 24)


def _clip(value: float) -> float:
    return LIMIT if value > LIMIT else -LIMIT if value < -LIMIT else value


class ViewEncoder:
    """Encodes views of one definition at one player count as float32 arrays of length ``size``."""

    def __init__(self, game, players: int):
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
        self._zone_at = [(label, next(starts), has_top) for label, has_top in self.zones]
        self._gvar_at = [(name, next(starts)) for name in self.gvars]
        self._pvar_at = [(name, next(starts)) for name in self.pvars]
        self._counter_at = [(name, where, length, next(starts)) for name, where, length in self.counters]
        self._decision_at = next(starts)
        self._over_at = next(starts)

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
            if value in self.name_index:
                return float(self.name_index[value] + 1)
            return float(self.space_index.get(value, -1) + 1)
        if isinstance(value, (list, tuple, dict)):
            return _clip(len(value))
        return 0.0

    def encode(self, view: dict) -> np.ndarray:
        """The vector of ``view`` (a ``state.view(seat)`` of this definition and player count)."""
        out = np.zeros(self.size, np.float32)
        n, index = self.players, self.name_index
        if view.get("you") is not None:
            out[view["you"]] = 1.0
        at, values = [], []  # single numbers: where and what
        seen = []  # one position per visible card: the counts of names are a bincount of it
        zones = view["zones"]
        for label, start, has_top in self._zone_at:
            zone = zones[label]
            cards = zone.get("cards")
            names = start + 2 if has_top else start + 1
            if cards is not None:
                at.append(start)
                values.append(len(cards))
                if cards:
                    seen += [names + index[name] for name in cards]
                    if has_top:
                        at.append(start + 1)
                        values.append(index[cards[-1]] + 1)
            else:
                at.append(start)
                values.append(zone.get("count", 0))
                top = zone.get("top")
                if top is not None:
                    seen.append(names + index[top])
                    if has_top:
                        at.append(start + 1)
                        values.append(index[top] + 1)
            shown = zone.get("shown")
            if shown:
                seen += [names + index[item["card"]] for item in shown]
        game, variables = self.game, view["variables"]
        for name, start in self._gvar_at:
            at.append(start)
            values.append(self.value(variables.get(name), game.gvars[name]))
        rows = view["player_variables"]
        for name, start in self._pvar_at:
            kind = game.pvars[name]
            for p in range(n):
                at.append(start + p)
                values.append(self.value(rows[p].get(name), kind))
        counters = view.get("counters", {})
        for name, where, length, start in self._counter_at:
            held = counters.get(name, {}).get(where)
            if not held:
                continue
            if where == "spaces":
                row = [held.get(space, 0) for space in self.spaces]
            else:
                row = held
            at.extend(range(start, start + length))
            values.extend(_clip(v) for v in row)
        decision = view.get("decision")
        if decision is not None:
            start = self._decision_at
            at += [start + p for p in decision["waiting_for"]] + [start + n + p for p in decision["decided"]]
            values += [1.0] * (len(decision["waiting_for"]) + len(decision["decided"]))
            at.append(start + 2 * n)
            values.append(float(bool(decision["secret"])))
        at.append(self._over_at)
        values.append(float(bool(view["over"])))
        out[at] = values
        if seen:
            out += np.bincount(seen, minlength=self.size).astype(np.float32)
        return out
