"""A seat's view as a fixed-size vector of numbers, for learning libraries.

The vector is computed from ``state.view(seat)`` and nothing else, so it holds exactly
what that seat may know.  Its layout depends only on the definition and the number of
players (``ViewEncoder.parts`` names every slice):

* ``seat``: one-hot of the observing seat;
* per zone (in the definition's order; per-player zones of absent seats left out):
  ``count`` (cards in it), ``top`` (1 + the index of the name of its top card, if the
  seat sees it, else 0) and ``names`` (how many cards of each distinct card name the
  seat sees there: all of a zone it may look at, the top card of a top-only zone, cards
  shown to it);
* each game variable and each player variable of each seat (a number as itself, yes/no as
  1/0, a seat as 1 + its number, a card as 1 + the index of its name, a list as its length,
  none as 0; another seat's private variable as 0);
* each counter kept on board spaces or players;
* the decision: seats it waits for, seats that have decided (never what they chose),
  whether it is secret; and whether the game is over.

Values are clipped to ±2**24, where float32 still holds every whole number exactly.
"""

from __future__ import annotations

LIMIT = float(2 ** 24)


class ViewEncoder:
    """Encodes views of one definition at one player count as lists of floats of length ``size``."""

    def __init__(self, game, players: int):
        self.game, self.players = game, players
        self.names = sorted(set(game.card_names))
        self.name_index = {name: i for i, name in enumerate(self.names)}
        self.spaces = list(game.board.spaces) if game.board else []
        self.space_index = {name: i for i, name in enumerate(self.spaces)}
        self.zones = [game.zone_label(i) for i in range(game.zone_count)
                      if game.zone_spec[i].per != "player" or game.zone_owner[i] < players]
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

    def _layout(self):
        n, cards = self.players, len(self.names)
        yield "seat", n
        for label in self.zones:
            yield f"zone {label}: count, top, names", 2 + cards
        for name in self.gvars:
            yield f"variable {name}", 1
        for name in self.pvars:
            yield f"player variable {name}", n
        for name, where, length in self.counters:
            yield f"counter {name} on {where}", length
        yield "decision: waiting for, decided, secret", 2 * n + 1
        yield "over", 1

    def value(self, value, kind: str | None = None) -> float:
        """One variable's value as a number (see the module docstring)."""
        if value is None:
            return 0.0
        if isinstance(value, bool):
            return float(value)
        if isinstance(value, int):
            return float(value + 1 if kind == "player" else value)
        if isinstance(value, str):
            if value in self.name_index:
                return float(self.name_index[value] + 1)
            return float(self.space_index.get(value, -1) + 1)
        if isinstance(value, (list, tuple, dict)):
            return float(len(value))
        return 0.0

    def encode(self, view: dict) -> list[float]:
        """The vector of ``view`` (a ``state.view(seat)`` of this definition and player count)."""
        n, cards = self.players, len(self.names)
        out = [0.0] * n
        if view.get("you") is not None:
            out[view["you"]] = 1.0
        zones = view["zones"]
        for label in self.zones:
            zone = zones[label]
            seen = [0.0] * cards
            visible = list(zone.get("cards", ()))
            top = visible[-1] if visible else zone.get("top")
            if "cards" not in zone and zone.get("top") is not None:
                visible.append(zone["top"])
            visible.extend(item["card"] for item in zone.get("shown", ()))
            for name in visible:
                seen[self.name_index[name]] += 1
            count = len(zone["cards"]) if "cards" in zone else zone.get("count", 0)
            out += [float(count), float(self.name_index[top] + 1) if top is not None else 0.0] + seen
        game = self.game
        variables = view["variables"]
        out += [self.value(variables.get(name), game.gvars[name]) for name in self.gvars]
        rows = view["player_variables"]
        for name in self.pvars:
            out += [self.value(rows[p].get(name), game.pvars[name]) for p in range(n)]
        counters = view.get("counters", {})
        for name, where, length in self.counters:
            held = counters.get(name, {}).get(where)
            if where == "spaces":
                out += [float(held.get(space, 0)) if held else 0.0 for space in self.spaces]
            else:
                out += [float(v) for v in held] if held else [0.0] * length
        decision = view.get("decision")
        waiting, decided = [0.0] * n, [0.0] * n
        secret = 0.0
        if decision is not None:
            for p in decision["waiting_for"]:
                waiting[p] = 1.0
            for p in decision["decided"]:
                decided[p] = 1.0
            secret = float(bool(decision["secret"]))
        out += waiting + decided + [secret, float(bool(view["over"]))]
        return [min(LIMIT, max(-LIMIT, v)) for v in out]
