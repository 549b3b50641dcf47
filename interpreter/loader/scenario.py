"""Hand-built positions: lay named cards into zones instead of running setup.

Rulebook examples start from a known table ("Emma draws a red card, then a
green"), so tests need to stack decks and fill hands by card name.  A
scenario is plain data, so it can also come from a JSON or YAML file, or from
a save file: hence it is checked strictly (plain types only, bounded, each
variable value of its declared kind) before anything runs.

A scenario file (``ribbit play GAME --scenario FILE``, :func:`load_scenario`) is
YAML with the keys of :data:`SCENARIO_KEYS`, read like a definition (regular
file, size and nesting limits); its errors name file:line:col.  The format is
documented in docs/authoring.md, "Checking your rule".
"""

from __future__ import annotations

from ..dsl import types as T
from ..runtime.limits import MAX_INT
from ..errors import DefinitionError, Location, quote
from .source import _declares, format_path, read_user_file, read_yaml_text

MAX_PLAIN_ITEMS = 100_000  # values in one scenario: a hand-built table is a few hundred
MAX_PLAIN_DEPTH = 50


def plain_data(value, where: str, source=None):
    """A deep copy of ``value`` if it is plain JSON-like data (exact dict/list/str/int/bool/None), else DefinitionError.

    The copy is what a state keeps, so later changes to the caller's object cannot reach the
    game; exact types (no subclasses) mean no foreign ``__eq__`` or ``__hash__`` ever runs.
    ``source`` (the parsed scenario file) locates what is refused at its line in the file;
    without it the message names the key path.
    """
    budget = [MAX_PLAIN_ITEMS]

    def refuse(message, path, key=False):
        if source is not None:
            return DefinitionError(message, source.key_location(path) if key else source.location(path))
        return DefinitionError(f"{where}: {format_path(path)}: {message}" if path else f"{where}: {message}")

    def copy(v, path):
        budget[0] -= 1
        if budget[0] < 0 or len(path) > MAX_PLAIN_DEPTH:
            raise refuse(f"the scenario is too large (at most {MAX_PLAIN_ITEMS} values, nested at most "
                         f"{MAX_PLAIN_DEPTH} deep)", path)
        kind = type(v)
        if kind is dict:
            for k in v:
                if type(k) is not str:
                    raise refuse(f"the key {quote(k)} must be text (write it in quotes: \"{k}\")"
                                 if type(k) in (int, bool, float) or k is None else "every key must be text",
                                 path + (k,), key=True)
            return {k: copy(x, path + (k,)) for k, x in v.items()}
        if kind is list:
            return [copy(x, path + (i,)) for i, x in enumerate(v)]
        if v is None or kind in (str, bool):
            return v
        if kind is int:
            if -MAX_INT <= v <= MAX_INT:
                return v
            raise refuse(f"{quote(v)} is beyond the limit of numbers in rules (-10^18 to 10^18)", path)
        if kind is float:
            raise refuse(f"{quote(v)} is not a whole number (numbers in a scenario are whole numbers)", path)
        raise refuse(f"must be plain data (mappings, lists, text, numbers, true/false), not a {kind.__name__}", path)

    return copy(value, ())


class ScenarioFile(dict):
    """A scenario read from a file: its data, plus the parsed file to locate what is wrong in it."""

    source = None


SCENARIO_KEYS = ("zones", "on_top", "game_variables", "player_variables", "counters", "first_player")


KEYS_TEXT = ", ".join(SCENARIO_KEYS)
UNQUOTED = "(no text is quoted from a file until it has declared itself a scenario by one of these keys)"


def load_scenario(path) -> ScenarioFile:
    """Read a scenario file (YAML, see docs/authoring.md "Checking your rule") for ``game.new_game(scenario=...)``.

    The file is read like a definition (a regular file, size, nesting and alias limits); a
    file that is not YAML, or not a mapping of the scenario keys, is refused with its
    file:line:col.  What it names (zones, cards, variables) is checked against the game
    when the game starts, and located in the file too.

    As for definitions and variants, no message quotes the file's text unless the file declared
    itself a scenario (a scenario key at its top level) before the point of the error: a path
    typed by a person or named by a replay log may be any file (a key, a password file).
    """
    file = str(path)
    raw = read_user_file(path, what="scenario files", expected="a YAML scenario file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise DefinitionError(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded; save the scenario "
                              "as UTF-8", Location(file, line)) from None
    try:
        source = read_yaml_text(text, file)
    except DefinitionError as exc:
        if _declares(text, SCENARIO_KEYS, exc.location):
            raise
        loc = exc.location or Location(file)
        raise DefinitionError(f"not a scenario: the file cannot be read as YAML here, and no key among {KEYS_TEXT} "
                              f"comes before this place {UNQUOTED}", Location(loc.file, loc.line, loc.column)) from None
    data = source.data
    if data is None:
        data = {}
    if type(data) is not dict:
        raise DefinitionError(f"not a scenario: a scenario file must be a YAML mapping with keys among {KEYS_TEXT}",
                              Location(file, 1, 1))
    declared = False
    for key in data:
        if key in SCENARIO_KEYS:
            declared = True
        elif declared:
            raise DefinitionError(f"unknown scenario key {quote(key)}; expected {KEYS_TEXT}",
                                  source.key_location((key,)))
        else:
            mark = source.key_location((key,))
            raise DefinitionError(f"not a scenario: its first key is none of {KEYS_TEXT} {UNQUOTED}",
                                  Location(file, mark.line, mark.column))
    scenario = ScenarioFile(plain_data(data, f"the scenario {file}", source))
    scenario.source = source
    return scenario


def prepare_scenario(scenario) -> tuple:
    """(a plain copy of ``scenario``, its parsed file or None): what ``Game.new_game`` hands the state.

    The state keeps its own copy, so later changes to the caller's dict cannot reach the game; a
    scenario read by :func:`load_scenario` brings its file, so that errors are located in it.
    """
    source = None
    if type(scenario) is ScenarioFile:
        source, scenario = scenario.source, dict(scenario)
    return plain_data(scenario, "the scenario"), source


def apply_scenario(state, scenario: dict, source=None) -> None:
    """Rearrange ``state`` (fresh from the initial layout) as the scenario says.

    ``source`` (the parsed scenario file, if it came from one) locates each error in the file.
    """
    g = state.game

    def fail(message, *path):
        loc = None
        if source is not None:
            loc = source.key_location(path[:-1] + (path[-1][1:],)) if path and type(path[-1]) is str \
                and path[-1].startswith("@") else source.location(path)
        return DefinitionError(message, loc)

    if type(scenario) is not dict:
        raise fail("a scenario must be a mapping with keys " + ", ".join(SCENARIO_KEYS))
    unknown = set(scenario) - set(SCENARIO_KEYS)
    if unknown:
        raise fail(f"unknown scenario key(s) {', '.join(sorted(unknown))}; "
                   "expected " + ", ".join(SCENARIO_KEYS), "@" + min(unknown))

    def mapping(key: str) -> dict:
        value = scenario.get(key, {})
        if type(value) is not dict or not all(type(k) is str for k in value):
            raise fail(f"scenario {key}: expected a mapping with text keys", key)
        return value

    for key in ("zones", "on_top"):
        for label, names in mapping(key).items():
            if type(names) is not list or not all(type(n) is str for n in names):
                raise fail(f"scenario {key} {label!r}: expected a list of card names", key, label)
    for seat, values in mapping("player_variables").items():
        if type(values) is not dict:
            raise fail(f"scenario player_variables {seat!r}: expected a mapping of variable names to values",
                       "player_variables", seat)
    mapping("game_variables")
    if "first_player" in scenario:  # whose turn the first turn phase starts with (seats count from 1)
        seat = scenario["first_player"]
        if type(seat) is not int or not 1 <= seat <= state.n:
            raise fail(f"scenario first_player: expected a seat from 1 to {state.n}, not {quote(seat)}", "first_player")
        state.first_player = seat - 1
    labels = {g.zone_label(i): i for i in range(g.zone_count)}
    by_name: dict[str, list[int]] = {}
    for card, name in enumerate(g.card_names):
        if state.loc[card] >= 0:
            by_name.setdefault(name, []).append(card)
    used: set[int] = set()

    def take(name: str, key: str, label: str, i: int) -> int:
        for card in by_name.get(name, ()):
            if card not in used:
                used.add(card)
                return card
        if name not in g.card_names:
            raise fail(f"scenario {label}: there is no card called {name!r}", key, label, i)
        raise fail(f"scenario {label}: not enough copies of {name!r} in the game", key, label, i)

    def zone_index(label: str, *path) -> int:
        if label not in labels:
            raise fail(f"scenario: unknown zone {label!r}; zones are {', '.join(labels)}", *path)
        index = labels[label]
        owner = g.zone_owner[index]
        if owner is not None and owner >= state.n:
            raise fail(f"scenario: zone {label!r} belongs to a player not in this {state.n}-player game", *path)
        return index

    def laid(key):
        return {zone_index(label, key, "@" + label): [take(n, key, label, i) for i, n in enumerate(names)]
                for label, names in scenario.get(key, {}).items()}

    exact = laid("zones")
    on_top = laid("on_top")
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
            raise fail(f"scenario: unknown game variable {name!r}", "game_variables", "@" + name)
        if not _fits(state, value, g.gvars[name]):
            raise fail(_unfit(value, g.gvars[name], f"game variable {name!r}"), "game_variables", name)
        state.gv[name] = value
    for seat, values in scenario.get("player_variables", {}).items():
        p = int(seat) - 1 if type(seat) is str and seat.isascii() and seat.isdigit() and len(seat) < 4 else -1
        if not 0 <= p < state.n:
            raise fail(f"scenario: no player {seat!r} in a {state.n}-player game (players count from 1)",
                       "player_variables", "@" + seat)
        for name, value in values.items():
            if name not in state.pv:
                raise fail(f"scenario: unknown player variable {name!r}", "player_variables", seat, "@" + name)
            if not _fits(state, value, g.pvars[name]):
                raise fail(_unfit(value, g.pvars[name], f"player variable {name!r} of seat {seat}"),
                           "player_variables", seat, name)
            state.pv[name][p] = value
    if "counters" in scenario:
        try:
            _set_counters(state, scenario["counters"], lambda label: zone_index(label, "counters"))
        except DefinitionError as exc:
            if source is None or exc.location is not None:
                raise
            raise fail(exc.message, "counters") from None


def _unfit(value, kind: str, what: str) -> str:
    """A variable holding what no rule could put there would fail later, far from the scenario."""
    return f"scenario: {what} holds {T.describe(kind)}, not {value!r:.60}"


def _fits(state, value, kind: str) -> bool:
    if kind.startswith("list:"):
        return type(value) is list and all(_fits(state, v, kind[5:]) for v in value)
    if kind == "int":
        return type(value) is int and value.bit_length() <= 64
    if kind == "bool":
        return type(value) is bool
    if kind == "space":
        board = state.game.board
        return value is None or type(value) is str and (board is None or value in board.space_set)
    if kind == "str":
        return type(value) is str
    if kind == "card":
        return value is None or type(value) is int and 0 <= value < len(state.game.card_names)
    if kind == "player":
        return value is None or type(value) is int and 0 <= value < state.n
    return True  # any other kind: plain data is all a scenario can hold


def _set_counters(state, counters, zone_index) -> None:
    """Counts as a view shows them: {name: {"spaces": {sp: n}, "players": {"1": n}, "cards": {zone: [n, ...]}}}."""
    g = state.game
    if type(counters) is not dict or not all(type(k) is str for k in counters):
        raise DefinitionError("scenario counters: expected a mapping with text keys")
    for name, where in counters.items():
        if name not in state.counters:
            raise DefinitionError(f"scenario: unknown counter {name!r:.60}")
        rows = state.counters[name]
        if type(where) is not dict:
            raise DefinitionError(f"scenario counters {name!r}: expected a mapping of spaces, players or cards")
        for holder, values in where.items():
            kind = {"spaces": "space", "players": "player", "cards": "card"}.get(holder)
            if kind not in rows:
                raise DefinitionError(f"scenario: counter {name!r} has no counts on {holder!r:.60}")
            if type(values) is not dict or not all(type(k) is str for k in values):
                raise DefinitionError(f"scenario counters {name!r} {holder}: expected a mapping with text keys")
            for key, value in values.items():
                if kind == "card":
                    cards = state.zones[zone_index(key)]
                    if not isinstance(value, list) or len(value) != len(cards):
                        raise DefinitionError(f"scenario: counters {name} of {key}: give one count per card "
                                              f"({len(cards)})")
                    pairs = list(zip(cards, value))
                elif kind == "space":
                    if g.board is None or key not in g.board.space_set:
                        raise DefinitionError(f"scenario: {key!r} is not a space of the board")
                    pairs = [(g.board.spaces.index(key), value)]
                else:
                    p = int(key) - 1 if key.isascii() and key.isdigit() and len(key) < 4 else -1
                    if not 0 <= p < state.n:
                        raise DefinitionError(f"scenario: no player {key} in a {state.n}-player game")
                    pairs = [(p, value)]
                for index, count in pairs:
                    if type(count) is not int or count < 0:
                        raise DefinitionError(f"scenario: counts of {name} are whole numbers >= 0, not {count!r}")
                    rows[kind][index] = count
