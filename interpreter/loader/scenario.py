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
from .data_schemas import SCENARIO_SCHEMA, first_error
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
            check_keys(v, path)
            return {k: copy(x, path + (k,)) for k, x in v.items()}
        if kind is list:
            return [copy(x, path + (i,)) for i, x in enumerate(v)]
        return scalar(v, kind, path)

    def check_keys(v, path):
        """Every key of a mapping is text (a number, true/false or null key is told to be quoted)."""
        for k in v:
            if type(k) is not str:
                raise refuse(f"the key {quote(k)} must be text (write it in quotes: \"{k}\")"
                             if type(k) in (int, bool, float) or k is None else "every key must be text",
                             path + (k,), key=True)

    def scalar(v, kind, path):
        """Text, true/false, null or a whole number within the limits, kept as it is; anything else refused."""
        if v is None or kind is bool:
            return v
        if kind is str:
            problem = T.constant_problem(v)  # the checks of a text in a definition: its length, real characters
            if problem is None:
                return v
            raise refuse(problem[1], path)
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

    The scenario is checked against its JSON Schema (``schemas/scenario.schema.json``) first, then
    against the game (zones, cards, variables, seats, counters it names).  ``source`` (the parsed
    scenario file, if it came from one) locates each error in the file.
    """
    fail = _failing(source)
    error = first_error(SCENARIO_SCHEMA, scenario)
    if error is not None:
        message, path = _schema_message(error, state.n)
        raise fail(message, *path)
    if "first_player" in scenario:  # whose turn the first turn phase starts with (seats count from 1)
        seat = scenario["first_player"]
        if seat > state.n:
            raise fail(_first_player_message(state.n, seat), "first_player")
        if not any("turn" in phase for phase in state.game.source.data["flow"]):  # else it would do nothing
            raise fail(f"scenario first_player: the flow of {quote(state.game.name)} has no phase of turns, so no "
                       "turn starts with a first player (every player acts in a round: the rules decide their order)",
                       "first_player")
        state.first_player = seat - 1
    zone_index = _zone_indexer(state, fail)
    _lay_cards(state, scenario, fail, zone_index)
    _set_variables(state, scenario, fail)
    if "counters" in scenario:
        try:
            _set_counters(state, scenario["counters"], lambda label: zone_index(label, "counters"))
        except DefinitionError as exc:
            if source is None or exc.location is not None:
                raise
            raise fail(exc.message, "counters") from None


def _failing(source):
    """fail(message, *path): the error of the scenario at ``path`` (a last part ``@key``: at that key itself)."""
    def fail(message, *path):
        loc = None
        if source is not None:
            loc = source.key_location(path[:-1] + (path[-1][1:],)) if path and type(path[-1]) is str \
                and path[-1].startswith("@") else source.location(path)
        return DefinitionError(message, loc)
    return fail


def _first_player_message(n, seat):
    return f"scenario first_player: expected a seat from 1 to {n}, not {quote(seat)}"


def _schema_message(error, n: int) -> tuple[str, tuple]:
    """(the sentence, the path to locate it at) for a scenario that breaks its schema: a table of wordings."""
    path = tuple(error.absolute_path)
    if not path:
        if error.validator == "additionalProperties":
            unknown = sorted(k for k in error.instance if k not in SCENARIO_KEYS)
            return (f"unknown scenario key(s) {', '.join(map(quote, unknown))}; expected {KEYS_TEXT}",
                    ("@" + unknown[0],))
        return f"a scenario must be a mapping with keys {KEYS_TEXT}", ()
    key, depth = path[0], len(path)
    if key == "first_player":
        return _first_player_message(n, error.instance), path
    if depth == 1:
        return f"scenario {key}: expected a mapping with text keys", path
    if key in ("zones", "on_top"):
        return f"scenario {key} {path[1]!r}: expected a list of card names", path[:2]
    if key == "player_variables":
        return f"scenario player_variables {path[1]!r}: expected a mapping of variable names to values", path
    if error.validator == "additionalProperties":  # (only a counter's holders are a closed set of keys)
        holder = next(k for k in error.instance if k not in ("spaces", "players", "cards"))
        return (f"scenario: counter {path[1]!r} has no counts on {quote(holder)}; counts are on spaces, players "
                "or cards"), path + ("@" + holder,)
    return _counters_message(error, path), path  # the only other key with parts below it


def _counters_message(error, path: tuple) -> str:
    name = path[1]
    if len(path) == 2:
        return f"scenario counters {name!r}: expected a mapping of spaces, players or cards"
    if len(path) == 3:
        return f"scenario counters {name!r} {path[2]}: expected a mapping with text keys"
    if path[2] == "cards" and len(path) == 4:
        return f"scenario: counters {name} of {path[3]}: give a list of counts, one per card"
    return f"scenario: counts of {name} are whole numbers >= 0, not {quote(error.instance)}"


def _zone_indexer(state, fail):
    """zone_index(label, *path): the index of the zone labelled ``label`` in this game, else a located error."""
    g = state.game
    labels = {g.zone_label(i): i for i in range(g.zone_count)}

    def zone_index(label: str, *path) -> int:
        if label not in labels:
            raise fail(f"scenario: unknown zone {label!r}; zones are {', '.join(labels)}", *path)
        index = labels[label]
        owner = g.zone_owner[index]
        if owner is not None and owner >= state.n:
            raise fail(f"scenario: zone {label!r} belongs to a player not in this {state.n}-player game", *path)
        return index
    return zone_index


def _lay_cards(state, scenario: dict, fail, zone_index) -> None:
    """Lay the named cards: ``zones`` exactly (what they held is taken out of the game), ``on_top`` over what is there."""
    g = state.game
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

    def laid(key):
        return {zone_index(label, key, "@" + label): [take(n, key, label, i) for i, n in enumerate(names)]
                for label, names in scenario.get(key, {}).items()}

    exact = laid("zones")
    on_top = laid("on_top")
    for zone in state.zones:
        zone[:] = [c for c in zone if c not in used]
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


def _set_variables(state, scenario: dict, fail) -> None:
    """Set the game and player variables the scenario names, each of its declared kind (a player written as its
    seat from 1, a card as its name, as everywhere in a scenario)."""
    g = state.game
    for name, value in scenario.get("game_variables", {}).items():
        if name not in state.gv:
            raise fail(f"scenario: unknown game variable {name!r}", "game_variables", "@" + name)
        if not _fits(state, value, g.gvars[name]):
            raise fail(_unfit(state, value, g.gvars[name], f"game variable {name!r}"), "game_variables", name)
        state.gv[name] = _held(state, value, g.gvars[name])
    for seat, values in scenario.get("player_variables", {}).items():
        p = int(seat) - 1 if seat.isascii() and seat.isdigit() and len(seat) < 4 else -1
        if not 0 <= p < state.n:
            raise fail(f"scenario: no player {seat!r} in a {state.n}-player game (players count from 1)",
                       "player_variables", "@" + seat)
        for name, value in values.items():
            if name not in state.pv:
                raise fail(f"scenario: unknown player variable {name!r}", "player_variables", seat, "@" + name)
            if not _fits(state, value, g.pvars[name]):
                raise fail(_unfit(state, value, g.pvars[name], f"player variable {name!r} of seat {seat}"),
                           "player_variables", seat, name)
            state.pv[name][p] = _held(state, value, g.pvars[name])


def _unfit(state, value, kind: str, what: str) -> str:
    """A variable holding what no rule could put there would fail later, far from the scenario."""
    how = {"player": f" (its seat, from 1 to {state.n})", "card": " (its name)"}.get(kind.removeprefix("list:"), "")
    return f"scenario: {what} holds {T.describe(kind)}{how}, not {value!r:.60}"


def _card_named(state, value):
    """The id of the card called ``value`` (None: no such card, or several copies, which a name cannot tell apart)."""
    if type(value) is not str:
        return None
    names = state.game.card_names
    first = names.index(value) if value in names else None
    return first if first is not None and value not in names[first + 1:] else None


_FITS = {  # kind: whether a value may be a variable's of that kind (the kinds a scenario can check)
    "int": lambda state, value: type(value) is int and value.bit_length() <= 64,
    "bool": lambda state, value: type(value) is bool,
    "space": lambda state, value: value is None or type(value) is str and (
        state.game.board is None or value in state.game.board.space_set),
    "str": lambda state, value: type(value) is str,
    "card": lambda state, value: value is None or _card_named(state, value) is not None,
    "player": lambda state, value: value is None or type(value) is int and 1 <= value <= state.n,
}


def _fits(state, value, kind: str) -> bool:
    if kind.startswith("list:"):
        return type(value) is list and all(_fits(state, v, kind[5:]) for v in value)
    fits = _FITS.get(kind)
    return fits is None or fits(state, value)  # any other kind: plain data is all a scenario can hold


def _held(state, value, kind: str):
    """A scenario's value of a variable (checked by :func:`_fits`) as the state holds it: a seat from 1 as the
    player's number from 0, a card's name as its id."""
    if value is None:
        return None
    if kind.startswith("list:"):
        return [_held(state, v, kind[5:]) for v in value]
    if kind == "player":
        return value - 1
    if kind == "card":
        return _card_named(state, value)
    return value


def _set_counters(state, counters: dict, zone_index) -> None:
    """Counts as a view shows them: {name: {"spaces": {sp: n}, "players": {"1": n}, "cards": {zone: [n, ...]}}}.

    The kinds are the schema's; here, whether the game has that counter, on those holders."""
    for name, where in counters.items():
        if name not in state.counters:
            raise DefinitionError(f"scenario: unknown counter {name!r:.60}")
        rows = state.counters[name]
        for holder, values in where.items():
            kind = {"spaces": "space", "players": "player", "cards": "card"}[holder]
            if kind not in rows:
                raise DefinitionError(f"scenario: counter {name!r} has no counts on {holder!r:.60}")
            for key, value in values.items():
                for index, count in _counted(state, name, kind, key, value, zone_index):
                    rows[kind][index] = count


def _counted(state, name: str, kind: str, key: str, value, zone_index) -> list:
    """(index of the holder, count) pairs that ``key: value`` of counter ``name``'s ``kind`` counts set."""
    g = state.game
    if kind == "card":
        cards = state.zones[zone_index(key)]
        if len(value) != len(cards):
            raise DefinitionError(f"scenario: counters {name} of {key}: give one count per card ({len(cards)})")
        return list(zip(cards, value))
    if kind == "space":
        if g.board is None or key not in g.board.space_set:
            raise DefinitionError(f"scenario: {key!r} is not a space of the board")
        return [(g.board.spaces.index(key), value)]
    p = int(key) - 1 if key.isascii() and key.isdigit() and len(key) < 4 else -1
    if not 0 <= p < state.n:
        raise DefinitionError(f"scenario: no player {key} in a {state.n}-player game")
    return [(p, value)]
