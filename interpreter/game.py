"""A loaded game definition: immutable, validated, compiled; it creates states.

``Game`` holds everything the run time needs, already normalised: card
property tables indexed by card id, zone layouts, compiled procedures.  It is
built by :mod:`interpreter.loader.build` and never changes afterwards, so any
number of states (and processes) can share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import rng as RNG
from .errors import DefinitionError, Location
from .runtime.kinds import tuple_items
from .rng import MAX_SEED_BITS  # noqa: F401 (re-exported: where callers found it before)
from .state import State, _type_of

DEFAULT_STEP_LIMIT = 200_000


@dataclass
class ZoneSpec:
    name: str
    per: str  # "game" | "player" | "space"
    visibility: str  # "public" | "hidden" | "owner" | "top"
    base: int = 0  # index of the first instance in State.zones
    count: int = 1  # number of instances
    description: str = ""
    show_text: str = ""  # a text property printed for the zone's top card (presentation only)


@dataclass
class Counter:
    """A named count kept on cards, board spaces and/or players (``on``), e.g. marks."""

    name: str
    on: tuple  # of "card", "space", "player"
    description: str = ""


@dataclass
class Quantity:
    name: str
    params: list
    compute: object = None
    mods: list = field(default_factory=list)  # (card ids, modifier, path) of each card's modifier, gathered by the loader


class Game:
    """An immutable, compiled game definition (see :func:`interpreter.load_game`)."""

    def __init__(self):
        self.name = ""
        self.file = ""
        self.source = None
        self.variants: list[str] = []
        self.min_players = 1
        self.max_players = 1
        self.params: dict = {}
        self.properties: dict = {}  # name -> (table by card id, kind)
        self.property_defaults: dict = {}
        self.card_names: list[str] = []
        self.card_start: list = []  # per card id: (zone name, seat or None)
        self.kinds: list[dict] = []  # component declarations, normalised
        self.zones: dict[str, ZoneSpec] = {}
        self.zone_count = 0
        self.zone_owner: list = []  # zone index -> player or None
        self.zone_space: list = []  # zone index -> space name or None
        self.zone_spec: list = []  # zone index -> ZoneSpec
        self.gvars: dict = {}
        self.gvar_defaults: dict = {}
        self.pvars: dict = {}
        self.pvar_defaults: dict = {}
        self.hidden_pvars: set = set()
        self.events: dict = {}
        self.functions: dict = {}
        self.procedures: dict = {}
        self.procs: list = []  # by id
        self.codes: list = []  # by proc id: its resumable function f(state, frame, pc)
        self.triggers: dict = {}  # event -> [Proc]
        self.abilities: dict = {}  # event -> list by card id of Proc|None
        self.quantities: dict = {}
        self.counters: dict = {}  # name -> Counter
        self.listeners: dict = {}  # event -> [[card id, Proc, condition or None]] in card id order
        self.board = None
        # A board per player count (board: {players: ...}): the counts this compiled game serves, the
        # shared count -> game table of its siblings, how to compile a sibling, and the space names
        # that are on another count's board only (quoted in a rule: an error when run at this count).
        self.board_counts = None
        self.family = None
        self.compile_board = None
        self.board_group = None
        self.other_spaces = frozenset()
        # Zones whose top cards some players see while a condition holds (seen_by): per zone index,
        # (how many from the top, condition of p) or None; None when no zone has one.
        self.seen_zone = None
        self.main = None
        self.setup = None
        self.score_fn = None
        self.score_terms: list = []  # [(term name, fn)]: the named terms score_fn adds up, for the breakdown
        self.presentation: dict = {}  # the table's look (loader/presentation.py): presentation only, never secrecy
        self.tiebreaks: list = []  # [(sign, fn)]
        self.step_limit = DEFAULT_STEP_LIMIT
        self.locate = None  # (where, node) -> Location
        self.code = None  # the CodeUnit of the generated functions (dsl/codegen.py), for `ribbit debug --code`
        self.compile_options = None  # the optimisations its rules were compiled with (dsl/options.py)
        # f() -> this game compiled again as the playout build (dsl/playout_build.py), handed over by the loader;
        # None when there is none (a coverage build, or a playout build itself).  See playout_build().
        self.compile_playout = None
        self._playout_build = None
        self.hash_layout = None  # f(game) -> the hash of its compiled layout, handed over by the loader
        # the loader's scenario checks (loader/scenario.py), handed over so that the core never reads files:
        self.prepare_scenario = None  # f(scenario) -> (a checked plain copy, its parsed file or None)
        self.apply_scenario = None  # f(state, scenario, parsed file or None): lays the scenario out on a fresh state
        self.read_save = None  # f(game, save data) -> the State it replays to, checked (loader/saves.py)
        self._layouts: dict = {}  # player count -> initial (zones, loc)
        self._layout_hash = None  # see layout_hash()

    def layout_hash(self) -> str:
        """A hash of the compiled layout (zones, cards, procedure ids, instructions, env keys; see
        :mod:`interpreter.dsl.layout_hash`), computed from the compiled code on first use and kept."""
        if self._layout_hash is None:
            self._layout_hash = self.hash_layout(self)
        return self._layout_hash

    def playout_build(self) -> "Game":
        """The game as compiled for playouts (``interpreter/playout.py``; ``dsl/playout_build.py`` says what it
        omits): compiled the first time it is asked for, then kept.  It has this game's layout, so a state
        of this game runs on in it from any decision.  This game itself when it has no such build."""
        found = self._playout_build
        if found is None:
            found = self._playout_build = self.compile_playout() if self.compile_playout is not None else self
        return found

    # ---------------------------------------------------------------- model queries
    def triggers_for(self, event: str) -> list:
        return self.triggers.get(event, [])

    def abilities_for(self, event: str):
        return self.abilities.get(event)

    def handlers_for(self, event: str) -> list:
        handlers = list(self.triggers.get(event, []))
        table = self.abilities.get(event)
        if table:
            handlers.extend({id(p): p for p in table if p is not None}.values())
        handlers.extend({id(p): p for _, p, _ in self.listeners.get(event, ())}.values())
        return handlers

    def describe_value(self, value, kind: str) -> str:
        """How a value reads in action labels, logs and the terminal."""
        if value is None:
            return "none"
        if kind == "card":
            return self.card_names[value]
        if kind == "player":
            return f"player {value + 1}"
        if kind.startswith("list:"):
            inner = kind[5:]
            return ", ".join(self.describe_value(v, inner) for v in value) or "nothing"
        if kind.startswith("tuple:"):  # a pair, as "player 2, 7" (see types.tuple_items)
            return ", ".join(self.describe_value(v, k) for v, k in zip(value, tuple_items(kind)))
        if kind == "bool":
            return "yes" if value else "no"
        return str(value)

    describe = describe_value

    def zone_index(self, label: str) -> int:
        """The zone index of a label such as 'hand(2)' (the inverse of zone_label)."""
        labels = self.__dict__.get("_labels")
        if labels is None:
            labels = self._labels = {self.zone_label(i): i for i in range(self.zone_count)}
        return labels[label]

    def zone_label(self, index: int) -> str:
        spec = self.zone_spec[index]
        if spec.per == "game":
            return spec.name
        if spec.per == "player":
            return f"{spec.name}({self.zone_owner[index] + 1})"
        return f"{spec.name}({self.zone_space[index]})"

    # ---------------------------------------------------------------- a board per player count
    def for_players(self, players: int):
        """The game compiled for ``players`` (itself unless the board depends on the player count)."""
        family = self.family
        if family is None or players in self.board_counts:
            return self
        game = family.get(players)
        if game is None:
            group = self.board_group.get(players)
            if group is None:
                return self
            game = self.compile_board(group)
        return game

    def every_count(self) -> list:
        """(player counts, game) for each board: one entry unless the board depends on the player count."""
        if self.family is None:
            return [(None, self)]
        games = {}
        for n in sorted(self.board_group):
            game = self.for_players(n)
            games.setdefault(id(game), (game.board_counts, game))
        return list(games.values())

    def compile_pending(self) -> None:
        """Compile the generated code not compiled yet (each batch is otherwise compiled when it first runs).

        Called before forking worker processes, so that they inherit the code instead of each compiling it; the
        playout build too (random bots and search rollouts play by it), made now if it was not yet.
        """
        for game in [self, *(self.family or {}).values()]:
            for built in dict.fromkeys([game, game.playout_build()]):
                if built.code is not None:
                    built.code.compile_pending()

    # ---------------------------------------------------------------- states
    def new_game(self, players: int, seed: int = 0, log: bool = True, scenario: dict | None = None,
                 trace: bool = False, chance: bool = False):
        """Start a game: deal the components, run setup until the first decision.

        ``scenario`` replaces setup with a hand-built position, for tests and puzzles::

            {"zones": {"hand(1)": ["ace", "red king"]},        # exact contents, bottom to top
             "on_top": {"deck": ["red king", "ace"]},           # drawn first, in this order
             "game_variables": {...}, "player_variables": {"1": {"points": 3}}}

        Named cards are taken from wherever the components start; cards not named
        stay in their starting zones.  See :mod:`interpreter.loader.scenario`; a scenario read by
        :func:`interpreter.load_scenario` has its errors located in its file.

        ``trace=True`` records every move, shuffle, decision, event and variable change in
        ``state.trace`` (see :mod:`interpreter.trace` and ``state.trace_for(player)``).

        ``chance=True`` runs it in chance mode: every random event is a chance node whose outcome the
        caller chooses (``state.is_chance()``, ``chance_outcomes()``, ``apply_chance(outcome)``); the seed
        is then unused.  See :mod:`interpreter.chance` and docs/chance.md.
        """
        if type(players) is not int:  # exactly int: not a bool, a float or a look-alike
            raise DefinitionError(f"players must be a whole number (an int), not {_type_of(players)}",
                                  Location(self.file, key="players"))
        if type(seed) is not int or seed.bit_length() > MAX_SEED_BITS:
            raise DefinitionError(f"the seed must be a whole number (an int) of at most {MAX_SEED_BITS} bits, "
                                  f"not {_type_of(seed)}", Location(self.file, key="seed"))
        if not self.min_players <= players <= self.max_players:
            span = f"exactly {self.min_players}" if self.min_players == self.max_players else \
                f"{self.min_players}-{self.max_players}"
            raise DefinitionError(f"{self.name} is for {span} players, not {players}",
                                  Location(self.file, key="players"))
        if self.family is not None and players not in self.board_counts:
            return self.for_players(players).new_game(players, seed, log, scenario, trace, chance)
        source = None
        if scenario is not None:  # the state keeps its own copy: the caller's dict may change later
            scenario, source = self.prepare_scenario(scenario)
        return State.start(self, players, seed, bool(log), scenario, bool(trace), source, chance=bool(chance))

    def initial_layout(self, players: int):
        """Zones (lists of card ids) and card locations before setup runs (fresh copies)."""
        cached = self._layouts.get(players)
        if cached is None:
            cached = self._layouts[players] = self._layout(players)
        zones, loc = cached
        return [z[:] for z in zones], loc[:]

    def _layout(self, players: int):
        zones = [[] for _ in range(self.zone_count)]
        loc = [-1] * len(self.card_names)
        for card, (zone, seat) in enumerate(self.card_start):
            if zone is None:
                continue
            spec = self.zones[zone]
            if spec.per == "player":
                if seat is None or seat >= players:
                    continue
                index = spec.base + seat
            else:
                index = spec.base
            zones[index].append(card)
            loc[card] = index
        return zones, loc

    def new_counters(self, players: int) -> dict:
        """Every counter at zero: {name: {holder kind: [count per card id / space / player]}}."""
        sizes = {"card": len(self.card_names), "space": len(self.board.spaces) if self.board else 0, "player": players}
        return {name: {h: [0] * sizes[h] for h in c.on} for name, c in self.counters.items()}

    def seed_state(self, seed: int) -> int:
        return RNG.seed_state(seed)

