"""The lobby: many tables in one server, started from the browser, saved in a folder, resumed at start.

``ribbit serve FOLDER`` (or one game file without ``--players``) serves a :class:`Catalog` of the games
in that folder and their variants (``variants/<game>/*.yaml``), each known by a listing id.  A person
creating a table names a game, variants with settings, the number of players and the bots by those ids
and texts only: no path ever comes from the browser, the settings are checked by the loader's own
variant parameter checks, the bots by the bot-spec parser of ``ribbit play``, and the game is loaded
by the safe loader.

Each table is a :class:`~interpreter.web.table.Table` saved in the tables folder as ``ID.save.json``
(after every action) beside ``ID.save.json.seats.json`` (its links and bots, mode 600), plus a record
``ID.table.json`` naming the game and variants by their listing ids, written last.  At start every
record is read back (files read like saves: regular, bounded, checked) and its table resumed with the
same links; a record that cannot be resumed is reported and skipped, never deleted.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import sys
import time
from pathlib import Path

from ..agents import AGENTS, describe_params
from ..errors import DefinitionError, Location, RibbitError, SaveFileError, inert, quote
from .table import TABLE_SHAPE, Table, _read_json, parse_seat_specs, seats_path, write_atomically

RECORD_FORMAT = "ribbit-lobby-table/1"
RECORD_SUFFIX = ".table.json"
MAX_RECORD_BYTES = 64 * 1024
MAX_TABLES = 100  # tables a lobby hosts: each holds a game state, its bots and its connections
CREATE_PER_MINUTE = 20  # tables created per minute (a burst of as many), across the whole server
MAX_REQUEST = 16 * 1024  # bytes of a creation request
MAX_VARIANTS = 16  # variants on one table
MAX_SETTING = 100  # characters of a variant setting's value
MAX_SETUPS = 20  # different choices of variants and settings among the tables: each is a game loaded anew
ID_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a listing id: a file's stem


class LobbyError(RibbitError):
    """A request the lobby refuses; its message is shown to the person who made it."""


# ---------------------------------------------------------------- what the folder offers
class Offer:
    """One game of the catalog: its file, its player range and its variants (listing id -> (file, source))."""

    def __init__(self, game_id: str, path: Path, game, variants: dict):
        self.id, self.path, self.game, self.variants = game_id, path, game, variants

    def describe(self) -> dict:
        described = []
        for variant_id, (_path, source) in self.variants.items():
            data = source.data
            params = []
            for key, spec in (data.get("parameters") or {}).items():
                params.append({"name": key, "default": spec["default"], "one_of": spec.get("one_of"),
                               "kind": _kind(spec["default"]), "description": _text(spec.get("description"))})
            described.append({"id": variant_id, "name": _text(data.get("variant")) or variant_id,
                              "description": _text(data.get("description")), "parameters": params})
        description = self.game.source.data.get("description") if isinstance(self.game.source.data, dict) else None
        return {"id": self.id, "name": self.game.name, "description": _text(description),
                "min_players": self.game.min_players, "max_players": self.game.max_players, "variants": described}


def _kind(value) -> str:
    return "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "text"


def _text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


class Catalog:
    """The games a lobby offers: every game definition directly in a folder (or the one file given)."""

    def __init__(self, offers: dict[str, Offer], problems: list[str]):
        self.offers, self.problems = offers, problems

    @classmethod
    def scan(cls, where: str | os.PathLike) -> "Catalog":
        """The games at ``where`` (a folder: its ``*.yaml`` game files; a file: that game), each checked by loading it.

        A file that is not a game, or whose game or variant does not load, is left out and named in
        ``problems``; raises LobbyError if no game is left.
        """
        where = Path(where)
        files = sorted(p for p in where.iterdir() if p.suffix in (".yaml", ".yml")) if where.is_dir() else [where]
        offers, problems = {}, []
        for path in files:
            problem = _file_name_problem(path, offers)
            if problem:
                problems.append(problem)
                continue
            try:
                game = _read_game(path, where.is_dir())
            except DefinitionError as exc:
                problems.append(f"left out: {exc}")
                continue
            if game is not None:
                offers[path.stem] = Offer(path.stem, path, game, _offered_variants(path, game, problems))
        if not offers:
            raise LobbyError(f"{where}: no game definition to serve" + (f" ({problems[0]})" if problems else
                             " (a lobby serves the *.yaml game files of a folder, or one game file)"))
        return cls(offers, problems)

    def describe(self) -> list[dict]:
        return [offer.describe() for offer in self.offers.values()]


def _file_name_problem(path: Path, offers: dict) -> str:
    """Why a game file cannot be offered under its name (the game's id in the lobby), or ''."""
    if not ID_SHAPE.fullmatch(path.stem):
        return (f"{path}: left out: a game's file name must be letters, digits, '-' or '_' "
                "(it is the game's id in the lobby)")
    if path.stem in offers:
        return f"{path}: left out: another game file is also called {path.stem}"
    return ""


def _read_game(path: Path, in_folder: bool):
    """The game defined in ``path``, loaded; None for a variant or other YAML beside the games of a folder.
    DefinitionError when it does not load (or, given alone, is not a game)."""
    from ..loader import load_game
    from ..loader.source import read_yaml_file

    source = read_yaml_file(path, expect=("game", "variant"), kind="game definition")
    if not isinstance(source.data, dict) or "game" not in source.data or "variant" in source.data:
        if in_folder:
            return None  # a variant or some other YAML beside the games: not offered
        raise DefinitionError("a lobby serves game definitions; this is not one", Location(str(path)))
    return load_game(path)


def _offered_variants(path: Path, game, problems: list) -> dict:
    """{id: (file, source)} of the game's variants that read well and apply to the game with their defaults (a
    setting named like a game parameter of another kind, say); each one left out is named in ``problems``."""
    from ..loader.variants import apply_variants, read_variant, variants_folder

    variants = {}
    folder = variants_folder(path)
    for file in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        if not ID_SHAPE.fullmatch(file.stem):
            problems.append(f"{file}: left out: a variant's file name must be letters, digits, '-' or '_'")
            continue
        try:
            variant = read_variant(file, file.stem, {}, game.source)
            apply_variants(game.source, [file.stem])  # by NAME: a folder name may hold ":" and "="
        except DefinitionError as exc:
            problems.append(f"left out: {exc}")
            continue
        variants[file.stem] = (file, variant.source)
    return variants


# ---------------------------------------------------------------- a table's choices, checked
class Choice:
    """A game and its variants with their settings, by listing ids, checked against the catalog."""

    def __init__(self, game_id: str, variants: list[tuple[str, dict]]):
        self.game_id, self.variants = game_id, variants

    @classmethod
    def read(cls, catalog: Catalog, game_id, variants) -> "Choice":
        """The choice sent by a browser or read from a record; LobbyError naming what is wrong."""
        if type(game_id) is not str or game_id not in catalog.offers:
            raise LobbyError(f"there is no game {quote(str(game_id), 40)} here; choose one of "
                             f"{', '.join(catalog.offers)}")
        offer = catalog.offers[game_id]
        if type(variants) is not list or len(variants) > MAX_VARIANTS:
            raise LobbyError(f"variants are a list of at most {MAX_VARIANTS} [id, settings] pairs")
        chosen, seen = [], set()
        for item in variants:
            variant_id, settings = _chosen_variant(offer, item, seen)
            seen.add(variant_id)
            chosen.append((variant_id, settings))
        return cls(game_id, chosen)

    def refs(self) -> list[str]:
        """The variants as the loader takes them: ``NAME:key=value,...`` (names and values checked above)."""
        refs = []
        for variant_id, settings in self.variants:
            tail = ",".join(f"{key}={value}" for key, value in settings.items())
            refs.append(f"{variant_id}:{tail}" if tail else variant_id)
        return refs

    def key(self) -> tuple:
        return self.game_id, tuple(self.refs())

    def as_data(self) -> dict:
        return {"game": self.game_id, "variants": [[v, dict(s)] for v, s in self.variants]}


def _chosen_variant(offer: Offer, item, seen: set) -> tuple:
    """(id, {setting: text}) of one ``[id, settings]`` pair: a variant of the game, chosen once, its settings
    checked by the loader."""
    from ..loader.variants import choose_parameters

    if type(item) is not list or len(item) != 2 or type(item[1]) is not dict:
        raise LobbyError("a variant is [id, {setting: value}]")
    variant_id, settings = item
    if type(variant_id) is not str or variant_id not in offer.variants:
        known = ", ".join(offer.variants) or "none"
        raise LobbyError(f"{offer.game.name} has no variant {quote(str(variant_id), 40)} here "
                         f"(its variants: {known})")
    if variant_id in seen:
        raise LobbyError(f"variant {variant_id} is chosen twice")
    source = offer.variants[variant_id][1]
    texts = {key: _setting_value(variant_id, key, value) for key, value in settings.items()}
    try:
        values = choose_parameters(source, texts, variant_id)  # the loader's own checks
    except DefinitionError as exc:
        raise LobbyError(f"variant {variant_id}: {exc.message}") from None
    return variant_id, {key: _setting_text(value) for key, value in values.items()}


def _setting_value(variant_id: str, key, value) -> str:
    """A setting as the text a variant reference carries (a yes/no or a number written out); LobbyError for one
    that could not be carried in ``NAME:key=value,...``."""
    if type(value) is bool:
        value = "true" if value else "false"
    elif type(value) is int:
        value = str(value)
    if type(value) is not str or len(value) > MAX_SETTING or not value.strip() \
            or any(c in value for c in ",:=\n\r"):
        raise LobbyError(f"variant {variant_id}, setting {quote(str(key), 40)}: a value is a text of "
                         f"1 to {MAX_SETTING} characters without ',', ':', '=' or line breaks")
    return value.strip()


def _setting_text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def read_bots(seats, players: int) -> dict:
    """``{"2": "ismcts:iterations=50"}`` (seats from 1) -> the table's bots, by the bot parser of ``ribbit play``."""
    from ..agents import make_agent

    if type(seats) is not dict or len(seats) > players:
        raise LobbyError(f"bots are given as {{seat: bot}} for seats 1 to {players}")
    specs = []
    for seat, spec in seats.items():
        if type(seat) is not str or not seat.isdigit() or type(spec) is not str or len(spec) > 200:
            raise LobbyError("a bot is given as \"SEAT\": \"NAME[:key=value,...]\", "
                             "e.g. \"2\": \"ismcts:iterations=400\"")
        specs.append(f"{seat}={spec.strip()}")
    try:
        bots = parse_seat_specs(specs, players)
        for name, options in bots.values():
            make_agent(name, None, **{k: v for k, v in options.items() if k != "seed"})
    except (ValueError, RibbitError) as exc:
        raise LobbyError(str(getattr(exc, "message", exc)).replace("--seat ", "seat ", 1)) from None
    return bots


# ---------------------------------------------------------------- the tables
class Lobby:
    """The tables of a server: created from the browser, listed, saved in ``folder``, resumed at start."""

    def __init__(self, catalog: Catalog, folder: str | os.PathLike, max_tables: int = MAX_TABLES,
                 per_minute: float = CREATE_PER_MINUTE, bot_delay: float = 0.5, max_setups: int = MAX_SETUPS):
        self.catalog = catalog
        self.folder = Path(folder)
        self.max_tables, self.per_minute, self.bot_delay = max_tables, per_minute, bot_delay
        self.max_setups = max_setups
        self.tables: dict[str, Table] = {}
        self.choices: dict[str, Choice] = {}
        self.created: dict[str, float] = {}
        self.allowance, self.stamp = float(per_minute), time.monotonic()
        self.lock = asyncio.Lock()
        self.problems: list[str] = []

    # ------------------------------------------------------------ folder
    def open_folder(self) -> None:
        """Make the tables folder (private: it holds every seat's link) if it is not there; OSError if it cannot be."""
        if os.path.lexists(self.folder) and not self.folder.is_dir():
            raise NotADirectoryError(f"{self.folder} is not a folder")
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)

    def record_path(self, table_id: str) -> Path:
        return self.folder / f"{table_id}{RECORD_SUFFIX}"

    def save_path(self, table_id: str) -> Path:
        return self.folder / f"{table_id}.save.json"

    def resume_all(self) -> list[Table]:
        """Every table recorded in the folder, resumed with its links; any that cannot be is named in ``problems``."""
        resumed = []
        for record in sorted(self.folder.glob(f"*{RECORD_SUFFIX}")):
            try:
                table = self._resume(record)
            except RibbitError as exc:
                self.problems.append(f"not resumed: {exc}")
                continue
            except OSError as exc:  # its seats file could not be rewritten, for example
                self.problems.append(f"not resumed: {record}: {exc.strerror or exc}")
                continue
            resumed.append(table)
        return resumed

    def _resume(self, record: Path) -> Table:
        table_id = record.name[:-len(RECORD_SUFFIX)]
        if not TABLE_SHAPE.fullmatch(table_id):
            raise SaveFileError("not a table's record: its name must be a table id (12 letters, digits, '-' or '_') "
                                f"followed by {RECORD_SUFFIX}", Location(str(record)))
        data = _read_json(record, "table record", MAX_RECORD_BYTES)
        if type(data) is not dict or data.get("format") != RECORD_FORMAT:
            raise SaveFileError(f"not a table record: expected \"format\": {RECORD_FORMAT!r}",
                                Location(str(record), key="format"))
        try:
            choice = Choice.read(self.catalog, data.get("game"), data.get("variants"))
        except LobbyError as exc:
            raise SaveFileError(f"{exc.message} (the lobby no longer serves what this table was made of)",
                                Location(str(record), key="game")) from None
        game = self.load(choice)
        table = Table.resume(game, self.save_path(table_id), bot_delay=self.bot_delay)
        if table.id != table_id:
            raise SaveFileError(f"the seats file is for table {quote(table.id)}, not {table_id}",
                                Location(str(seats_path(self.save_path(table_id))), key="table"))
        taken = {token for other in self.tables.values() for token in other.tokens.values()}
        if taken & set(table.tokens.values()):
            raise SaveFileError("a seat's token is also a seat's of another table here; every seat needs its own",
                                Location(str(seats_path(self.save_path(table_id))), key="tokens"))
        created = data.get("created")
        self._add(table, choice, created if type(created) in (int, float) else 0.0)
        return table

    def _add(self, table: Table, choice: Choice, created: float) -> None:
        """List a table (on the event loop, or before the server starts)."""
        self.tables[table.id] = table
        self.choices[table.id] = choice
        self.created[table.id] = created

    # ------------------------------------------------------------ games
    def load(self, choice: Choice):
        """The game of a choice: a table's of the same choice, else loaded by the safe loader."""
        from ..loader import load_game

        key = choice.key()
        for table_id, other in self.choices.items():
            if other.key() == key:
                return self.tables[table_id].game
        offer = self.catalog.offers[choice.game_id]
        return offer.game if not choice.variants else load_game(offer.path, variants=choice.refs())

    def setups(self) -> set:
        """The different choices with variants among the tables (each holds a game of its own in memory)."""
        return {choice.key() for choice in self.choices.values() if choice.variants}

    # ------------------------------------------------------------ creating
    def take_allowance(self) -> bool:
        """A token bucket across the server: ``per_minute`` tables a minute, as many at once."""
        now = time.monotonic()
        self.allowance = min(self.per_minute, self.allowance + (now - self.stamp) * self.per_minute / 60)
        self.stamp = now
        if self.allowance >= 1:
            self.allowance -= 1
            return True
        return False

    def check_request(self, request) -> tuple[Choice, int, dict]:
        """(choice, players, bots) of a creation request, or LobbyError saying what is wrong."""
        if type(request) is not dict:
            raise LobbyError("a table is asked for as a JSON object: {game, variants, players, bots}")
        choice = Choice.read(self.catalog, request.get("game"), request.get("variants", []))
        offer = self.catalog.offers[choice.game_id]
        players = request.get("players")
        if type(players) is not int:
            raise LobbyError("players must be a whole number")
        low, high = offer.game.min_players, offer.game.max_players
        if not low <= players <= high:
            raise LobbyError(f"{offer.game.name} is for {low}-{high} players, not {players}")
        bots = read_bots(request.get("bots", {}), players)
        return choice, players, bots

    def create(self, request) -> Table:
        """A new table from a browser's request, saved and listed; LobbyError if refused."""
        table, choice, created = self.build(request)
        self._add(table, choice, created)
        return table

    def build(self, request) -> tuple[Table, Choice, float]:
        """A new table from a request, saved but not yet listed (``create`` lists it): the slow part of making
        a table (loading the game, dealing, writing), which the server runs off its event loop while the
        listing goes on being read there."""
        if len(self.tables) >= self.max_tables:
            raise LobbyError(f"this server already hosts {len(self.tables)} tables, its limit; "
                             "ask whoever runs it to make room")
        choice, players, bots = self.check_request(request)
        setups = self.setups()
        if choice.variants and choice.key() not in setups and len(setups) >= self.max_setups:
            raise LobbyError(f"the tables here already use {len(setups)} different choices of variants and "
                             "settings, the most this server loads at once; choose the same variants and settings "
                             "as a table that is listed, or none")
        if not self.take_allowance():
            raise LobbyError("too many tables were started in the last minute; try again in a minute")
        try:
            game = self.load(choice)
        except DefinitionError as exc:  # variants that do not go together, for example
            raise LobbyError(f"these variants cannot be played together: {exc.message}") from None
        if game.min_players > players or game.max_players < players:
            raise LobbyError(f"with these variants {game.name} is for {game.min_players}-{game.max_players} players")
        table_id = secrets.token_urlsafe(9)
        while table_id in self.tables or os.path.lexists(self.record_path(table_id)):
            table_id = secrets.token_urlsafe(9)
        table = Table(game, players, bots, self.save_path(table_id), bot_delay=self.bot_delay, table_id=table_id)
        created = time.time()
        try:
            table.write_save()
            table.write_seats()
            record = {"format": RECORD_FORMAT, "table": table_id, **choice.as_data(), "created": created}
            write_atomically(self.record_path(table_id), json.dumps(record, indent=1), private=True)
        except OSError as exc:
            raise LobbyError(f"the table cannot be saved on the server: {exc.strerror or exc}") from None
        return table, choice, created

    # ------------------------------------------------------------ listing
    def listing(self) -> list[dict]:
        """The tables, oldest first, as anyone in the lobby may see them: no seat's token."""
        rows = []
        for table_id, table in sorted(self.tables.items(), key=lambda item: self.created[item[0]]):
            choice = self.choices[table_id]
            connected = {conn.seat for conn in table.connections}
            seats = []
            for seat in range(table.players):
                if seat in table.bot_specs:
                    seats.append({"seat": seat + 1, "bot": table.bot_specs[seat][0]})
                else:
                    seats.append({"seat": seat + 1, "taken": seat in connected})
            rows.append({"id": table_id, "game": table.game.name, "variants": choice.refs(),
                         "players": table.players, "seats": seats, "game_number": table.game_number,
                         "finished": bool(table.state.over), "problem": table.problem,
                         "watchers": sum(1 for conn in table.connections if conn.seat is None)})
        return rows

    def page_data(self) -> dict:
        bots = [{"name": name, "parameters": describe_params(kind)} for name, kind in sorted(AGENTS.items())]
        return {"games": self.catalog.describe(), "bots": bots, "tables": self.listing(),
                "max_tables": self.max_tables}


def created_reply(table: Table) -> dict:
    """What the creator gets: each seat's token (the page makes the links) and the table to watch."""
    seats = [{"seat": p + 1, "token": table.tokens[p]} if p in table.tokens else
             {"seat": p + 1, "bot": table.bot_specs[p][0]} for p in range(table.players)]
    return {"type": "created", "table": table.id, "seats": seats}


# ---------------------------------------------------------------- HTTP
def _ascii_json_response():
    """Starlette's JSONResponse written as ASCII JSON: a reply that echoes a request's text holding a lone surrogate
    (JSON's "\\ud800") would otherwise fail to encode, a traceback on the server and a bare 500 for the page."""
    from starlette.responses import JSONResponse

    class AsciiJSONResponse(JSONResponse):
        def render(self, content) -> bytes:
            return json.dumps(content, separators=(",", ":")).encode("ascii")

    return AsciiJSONResponse


def routes(lobby: Lobby, server, static, headers: dict, same_origin) -> list:
    """The lobby's page and its two requests: ``GET /api/lobby`` (games, bots, tables) and ``POST /api/tables``."""
    from starlette.responses import FileResponse
    from starlette.routing import Route

    JSONResponse = _ascii_json_response()

    def reply(data, status=200):
        return JSONResponse(data, status_code=status, headers=headers)  # (ASCII JSON, see _AsciiJSON)

    async def page(request):
        return FileResponse(static / "lobby.html", headers=headers)

    async def listing(request):
        return reply(lobby.page_data())

    async def create(request):
        if not same_origin(request):
            return reply({"type": "error", "message": "tables are created from this server's own lobby page"}, 403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return reply({"type": "error", "message": "send the table as JSON (Content-Type: application/json)"}, 415)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_REQUEST:
                return reply({"type": "error", "message": f"a request is at most {MAX_REQUEST} bytes"}, 413)
        try:
            data = json.loads(body.decode("utf-8"))
        except (ValueError, RecursionError):
            return reply({"type": "error", "message": "send the table as a JSON object"}, 400)
        async with lobby.lock:
            try:
                table, choice, created = await asyncio.to_thread(lobby.build, data)
            except RibbitError as exc:
                return reply({"type": "error", "message": exc.message}, 400)
            except Exception as exc:  # noqa: BLE001 - a bug must cost this request, not the server
                print(f"ribbit serve: unexpected {type(exc).__name__} starting a table: {inert(str(exc))}",
                      file=sys.stderr)
                return reply({"type": "error", "message": "the server could not start that table"}, 500)
            lobby._add(table, choice, created)  # here, on the event loop: never while the listing is read
            server.tables[table.id] = table
        print(inert(f"ribbit serve: table {table.id} ({table.game.name}, {table.players} players) started"),
              file=sys.stdout, flush=True)
        server.wake(table)  # a bot may have the first move
        return reply(created_reply(table))

    return [Route("/lobby", page), Route("/api/lobby", listing), Route("/api/tables", create, methods=["POST"])]


__all__ = ["Catalog", "Choice", "Lobby", "LobbyError", "MAX_TABLES", "CREATE_PER_MINUTE", "routes"]
