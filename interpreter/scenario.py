"""Hand-built positions: lay named cards into zones instead of running setup.

Rulebook examples start from a known table ("Emma draws a red card, then a
green"), so tests need to stack decks and fill hands by card name.  A
scenario is plain data, so it can also come from a JSON or YAML file.
"""

from __future__ import annotations

from .errors import DefinitionError


def apply_scenario(state, scenario: dict) -> None:
    """Rearrange ``state`` (fresh from the initial layout) as the scenario says."""
    g = state.game
    if not isinstance(scenario, dict):
        raise DefinitionError("a scenario must be a mapping with keys zones, on_top, game_variables, player_variables")
    unknown = set(scenario) - {"zones", "on_top", "game_variables", "player_variables", "counters"}
    if unknown:
        raise DefinitionError(f"unknown scenario key(s) {', '.join(sorted(unknown))}; "
                              "expected zones, on_top, game_variables, player_variables, counters")
    labels = {g.zone_label(i): i for i in range(g.zone_count)}
    by_name: dict[str, list[int]] = {}
    for card, name in enumerate(g.card_names):
        if state.loc[card] >= 0:
            by_name.setdefault(name, []).append(card)
    used: set[int] = set()

    def take(name: str, where: str) -> int:
        for card in by_name.get(name, ()):
            if card not in used:
                used.add(card)
                return card
        if name not in g.card_names:
            raise DefinitionError(f"scenario {where}: there is no card called {name!r}")
        raise DefinitionError(f"scenario {where}: not enough copies of {name!r} in the game")

    def zone_index(label: str) -> int:
        if label not in labels:
            raise DefinitionError(f"scenario: unknown zone {label!r}; zones are {', '.join(labels)}")
        index = labels[label]
        owner = g.zone_owner[index]
        if owner is not None and owner >= state.n:
            raise DefinitionError(f"scenario: zone {label!r} belongs to a player not in this {state.n}-player game")
        return index

    exact = {zone_index(label): [take(n, label) for n in names] for label, names in scenario.get("zones", {}).items()}
    on_top = {zone_index(label): [take(n, label) for n in names] for label, names in scenario.get("on_top", {}).items()}
    moved = used
    for zone in state.zones:
        zone[:] = [c for c in zone if c not in moved]
    for index in exact:
        for c in state.zones[index]:  # cards displaced from an exact zone are out of the game
            state.loc[c] = -1
        state.zones[index] = []
    for index, cards in exact.items():
        state.zones[index].extend(cards)
    for index, cards in on_top.items():
        state.zones[index].extend(reversed(cards))  # the first named is the top card
    for index, zone in enumerate(state.zones):
        for c in zone:
            state.loc[c] = index
    for name, value in scenario.get("game_variables", {}).items():
        if name not in state.gv:
            raise DefinitionError(f"scenario: unknown game variable {name!r}")
        state.gv[name] = value
    for seat, values in scenario.get("player_variables", {}).items():
        p = int(seat) - 1
        if not 0 <= p < state.n:
            raise DefinitionError(f"scenario: no player {seat} in a {state.n}-player game (players count from 1)")
        for name, value in values.items():
            if name not in state.pv:
                raise DefinitionError(f"scenario: unknown player variable {name!r}")
            state.pv[name][p] = value
    if "counters" in scenario:
        _set_counters(state, scenario["counters"], zone_index)


def _set_counters(state, counters, zone_index) -> None:
    """Counts as a view shows them: {name: {"spaces": {sp: n}, "players": {"1": n}, "cards": {zone: [n, ...]}}}."""
    g = state.game
    if not isinstance(counters, dict):
        raise DefinitionError("scenario counters must be a mapping of counter names")
    for name, where in counters.items():
        if name not in state.counters:
            raise DefinitionError(f"scenario: unknown counter {name!r}")
        rows = state.counters[name]
        for holder, values in (where or {}).items():
            kind = {"spaces": "space", "players": "player", "cards": "card"}.get(holder)
            if kind not in rows:
                raise DefinitionError(f"scenario: counter {name!r} has no counts on {holder}")
            for key, value in values.items():
                if kind == "card":
                    cards = state.zones[zone_index(key)]
                    if not isinstance(value, list) or len(value) != len(cards):
                        raise DefinitionError(f"scenario: counters {name} of {key}: give one count per card "
                                              f"({len(cards)})")
                    pairs = list(zip(cards, value))
                elif kind == "space":
                    if key not in g.board.space_set:
                        raise DefinitionError(f"scenario: {key!r} is not a space of the board")
                    pairs = [(g.board.spaces.index(key), value)]
                else:
                    p = int(key) - 1
                    if not 0 <= p < state.n:
                        raise DefinitionError(f"scenario: no player {key} in a {state.n}-player game")
                    pairs = [(p, value)]
                for index, count in pairs:
                    if type(count) is not int or count < 0:
                        raise DefinitionError(f"scenario: counts of {name} are whole numbers >= 0, not {count!r}")
                    rows[kind][index] = count
