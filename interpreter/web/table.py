"""One game hosted for the browser: its seats and their tokens, its bots, its save file, its audience.

A :class:`Table` owns a game state and is the only thing that changes it.  Each seat played from a
browser has an unguessable token (``secrets.token_urlsafe``); a token acts for its own seat only, and
whoever has no token may only watch.  What a connection receives is built here, from what its seat
may know and nothing else: ``state.view(seat)``, ``state.narration(seat)`` and
``state.decision_for(seat)`` (a spectator gets the ``None`` audience of each).

The game is saved after every action: ``state.to_json()`` written to a temporary file beside the save
and renamed over it, so a crash never ends with half a save.  The seats (tokens and bots) go to a sidecar
file ``SAVE.seats.json`` readable by its owner only, so a restarted server (``--resume SAVE``) gives the
same links.  Loading goes through ``State.from_json``, which replays and checks the save.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import re
import secrets
import stat
import tempfile
import time
from pathlib import Path

from ..agents import make_agent
from ..errors import IllegalActionError, Location, RibbitError, SaveFileError, not_text_problem, quote
from ..state import State
from .layout import CardInfo, layout_of

SEATS_FORMAT = "ribbit-web-seats/1"
MAX_SAVE_BYTES = 64 * 1024 * 1024  # a save longer than this is not read
MAX_CONNECTIONS = 64  # per table: each costs a socket and a cursor, and every action is sent to each


def new_token() -> str:
    return secrets.token_urlsafe(24)


def parse_seat_specs(specs, players: int) -> dict[int, tuple[str, dict]]:
    """``["2=random", "3=ismcts:iterations=50"]`` -> {1: ("random", {}), 2: ("ismcts", {"iterations": 50})}.

    Every ``--seat`` names its seat (1-based, as written; the keys are 0-based): the seats not
    given are the people's.  Names and parameters are checked by the bots' own parser.
    """
    from ..agents import BotSpecError, parse_bot_spec

    bots: dict[int, tuple[str, dict]] = {}
    for spec in specs:
        try:
            seat, name, params = parse_bot_spec(spec)
        except BotSpecError as exc:  # its message names the option as --bot: here it is --seat
            raise ValueError("--seat" + str(exc).removeprefix("--bot")) from None
        if seat is None:
            raise ValueError(f"--seat {spec!r}: expected SEAT=BOT, e.g. 2=random (seats are numbered from 1)")
        if not 1 <= seat <= players:
            raise ValueError(f"--seat {spec!r}: there is no seat {seat} in a {players}-player game")
        if seat - 1 in bots:
            raise ValueError(f"--seat {spec!r}: seat {seat} is given twice")
        bots[seat - 1] = (name, params)
    return bots


def _make_bot(name: str, options: dict, seed):
    """A seat's bot, seeded by the table (``seed``) unless its own ``seed`` parameter says otherwise."""
    options = dict(options)
    own = options.pop("seed", None)
    return make_agent(name, seed if own is None else own, **options)


def write_atomically(path: Path, text: str, private: bool = False) -> None:
    """Write ``text`` to ``path`` under a temporary name beside it, then rename it into place.

    Only a regular file (or nothing) is replaced: renaming over a device node, a pipe or a link
    would replace that instead, so those raise OSError and are left alone.
    """
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
        raise OSError(errno.EEXIST, f"{path} is not a regular file (a folder, a link, a device or a pipe), "
                                    "so it is not replaced")
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        os.fchmod(handle, 0o600 if private else 0o644)
        with open(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def seats_path(save: Path) -> Path:
    return save.with_name(save.name + ".seats.json")


class Table:
    """A game and the people and bots at it.  Methods that change the game are called under ``self.lock``."""

    def __init__(self, game, players: int, bots: dict | None = None, save: str | os.PathLike | None = None,
                 seed: int | None = None, bot_delay: float = 0.0, state: State | None = None,
                 tokens: dict[int, str] | None = None, table_id: str | None = None, game_number: int = 1):
        self.game, self.players = game, players
        self.bot_specs = dict(bots or {})
        self.humans = [p for p in range(players) if p not in self.bot_specs]
        self.tokens = dict(tokens) if tokens else {p: new_token() for p in self.humans}
        self.by_token = {tok: p for p, tok in self.tokens.items()}
        self.id = table_id or secrets.token_urlsafe(9)
        self.save = Path(save) if save is not None else None
        self.bot_delay = bot_delay
        self.lock = asyncio.Lock()
        self.connections: set = set()
        self.layout = layout_of(game, players)
        self.cards = CardInfo(game)
        self.game_number = game_number
        self.problem = None  # a rule failure that stopped the game, shown to everyone
        # The id of the state as pages see it: it grows with every change (an action, an undo, a new game),
        # from the time the table was made, so that an id from before a restart is never current again.
        self.state_id = time.time_ns() // 1_000_000
        self.thinking: set[int] = set()  # the bots' seats deciding now, off the game lock
        self._undoable = (None, None)  # (state id, seat that may take back its last decision) once worked out
        self._knows: dict[int, str | None] = {}  # per person's seat: what it knew and could choose at the last change
        self._changed_for: dict[int, int] = {}  # per person's seat: the state id since which that is unchanged
        self.again_votes: set = set()  # the people who asked for a new game once this one is over
        self._start(state if state is not None else game.new_game(players, self._seed(seed)))

    @staticmethod
    def _seed(seed):
        return secrets.randbits(63) if seed is None else seed

    def _start(self, state: State) -> None:
        self.state = state
        self.bots = {p: _make_bot(name, options, f"{state.seed}:{p}") for p, (name, options) in self.bot_specs.items()}
        self.secret_at = self._replay_secrecy(state)
        self.touch()

    def touch(self) -> None:
        """The state changed: a new state id, and for each person the id since which their seat's world holds."""
        self.state_id += 1
        self.changed = time.monotonic()
        for seat in self.humans:
            knows = self.bot_knows(seat)
            if seat not in self._changed_for or knows != self._knows.get(seat):
                self._knows[seat], self._changed_for[seat] = knows, self.state_id

    def chosen_in_current(self, seat: int, state_id) -> bool:
        """Whether a decision ``seat`` made on the page showing ``state_id`` still stands.

        It does when that is the current state, or when nothing ``seat`` knows or may choose has changed
        since (another player's secret pick registered meanwhile, say): at a simultaneous decision people
        click at the same moment, and the one whose frame came second must not be told to choose again.
        The same seat open in two tabs cannot play twice: its own action changes what it may choose.
        """
        if state_id == self.state_id:
            return True
        since = self._changed_for.get(seat)
        return since is not None and since <= state_id <= self.state_id

    def _replay_secrecy(self, state: State) -> list[tuple[list, int]]:
        """Per action of the history: (who may read its text, ``State.action_readers``: each seat then a
        spectator; how long the log was after it), by replaying it."""
        if not state.history:
            return []
        again = self.game.new_game(state.n, state.seed, state.log is not None, state.scenario)
        marks = []
        for player, action in state.history:
            marks.append((again.apply_read(player, action), len(again.log or ())))
        return marks

    # ---------------------------------------------------------------- links
    def seat_of(self, token) -> int | None:
        """The seat a token acts for, or None (compared in constant time per seat)."""
        if type(token) is not str or len(token) > 100 or not_text_problem(token):
            return None  # (compare_digest needs its texts as UTF-8)
        found = None
        for tok, seat in self.by_token.items():
            if secrets.compare_digest(tok.encode(), token.encode()):
                found = seat
        return found

    def links(self, base: str) -> list[tuple[str, str]]:
        rows = [(f"player {p + 1}", f"{base}/#seat={self.tokens[p]}") for p in self.humans]
        rows.append(("spectators", f"{base}/#watch={self.id}"))
        return rows

    # ---------------------------------------------------------------- what a seat is sent
    def snapshot(self, seat: int | None, since: int) -> tuple[dict, int]:
        """The update for ``seat`` (None: a spectator) with the narration from log line ``since`` on; and the new cursor."""
        state = self.state
        view = state.view(seat)
        decision = state.decision_for(seat)
        lines = state.narration(seat, since)
        message = {"type": "state", "game_number": self.game_number, "state_id": self.state_id, "view": view,
                   "decision": decision, "narration": lines, "bots": sorted(self.bots), "humans": self.humans,
                   "thinking": sorted(self.thinking), "can_undo": seat is not None and self.may_undo(seat),
                   "cards": self.cards.for_view(view, [c for o in (decision or {}).get("options", ()) for c in o["cards"]])}
        if self.problem:
            message["problem"] = self.problem
        if state.over:
            message["breakdown"] = state.score_breakdown()  # public once the game is over, like the scores
            message["again"] = sorted(self.again_votes)  # who has asked to play again
        return message, len(state.log or ())

    # ---------------------------------------------------------------- changing the game
    def apply(self, seat: int, action) -> None:
        """Play ``action`` for ``seat`` (validated by the engine: an illegal one raises and changes nothing).  A seat
        the decision does not wait for is told so in seats, as the page numbers them (the engine's own message also
        gives the API's player numbers from 0)."""
        state = self.state
        waiting = state.current_players()
        if seat not in waiting:
            who = ", ".join(f"seat {p + 1}" for p in waiting) or "nobody: the game is over"
            raise IllegalActionError(f"it is not your decision now (you are seat {seat + 1}); waiting for {who}")
        self.secret_at.append((state.apply_read(seat, action), len(state.log or ())))
        self.touch()
        self.write_save()

    def may_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back its last decision now (worked out once per state: it replays the game)."""
        at, who = self._undoable
        if at != self.state_id:
            history = self.state.history
            last = history[-1][0] if history else None
            who = last if last in self.tokens and self.state.can_undo(last) else None
            self._undoable = (self.state_id, who)
        return who == seat

    def undo(self, seat: int) -> str:
        """Take back ``seat``'s last decision (UndoRefusedError, nothing changed, if that is not fair); its text."""
        action = self.state.undo(seat)
        del self.secret_at[len(self.state.history):]
        self.touch()
        self.write_save()
        return action

    def bot_moves(self):
        """The bots that must decide now: [(seat, bot)]."""
        return [(p, self.bots[p]) for p in self.state.current_players() if p in self.bots]

    def bot_choice(self, seat: int, bot) -> str:
        state = self.state
        return bot.act(state, seat)

    def bot_question(self, seat: int):
        """What a bot at ``seat`` decides from: (the state id, a copy of the game to think on, what the seat
        knows and may choose).  A decision made for it still holds while the last part is unchanged, even if
        the state id moved on (another player's secret pick registered, say)."""
        return self.state_id, self.state.clone(), self.bot_knows(seat)

    def bot_knows(self, seat: int):
        state = self.state
        if seat not in state.current_players():
            return None
        return json.dumps([state.knowledge(seat), state.legal_actions(seat)], sort_keys=True)

    def vote_again(self, seat: int) -> bool:
        """``seat`` asks for a new game once this one is over; True when every person at the table has asked."""
        self.again_votes.add(seat)
        return set(self.humans) <= self.again_votes

    def play_again(self, seed: int | None = None) -> None:
        """A new game at the same seats.  The finished one is kept beside the save: its save as
        ``SAVE.gameN.json`` and its log, as a spectator may read it, as ``SAVE.gameN.jsonl``."""
        self.keep_finished()
        self.game_number += 1
        self.problem = None
        self.thinking.clear()
        self.again_votes = set()
        self._start(self.game.new_game(self.players, self._seed(seed)))
        self.write_save()

    def finished_paths(self, number: int | None = None) -> tuple[Path, Path]:
        """Where game ``number`` (this one by default) is kept once another starts: (save, log)."""
        stem = self.save.name.removesuffix(".json")
        number = self.game_number if number is None else number
        return self.save.with_name(f"{stem}.game{number}.json"), self.save.with_name(f"{stem}.game{number}.jsonl")

    def keep_finished(self) -> None:
        if self.save is None:
            return
        save, log = self.finished_paths()
        write_atomically(save, json.dumps(self.state.to_json(), separators=(",", ":")), private=True)
        write_atomically(log, self.log_lines(None))

    # ---------------------------------------------------------------- saving
    def write_save(self) -> None:
        if self.save is None:
            return
        # a save holds the seed, so every card's place: readable by the server's user only, as the links are
        write_atomically(self.save, json.dumps(self.state.to_json(), separators=(",", ":")), private=True)

    def write_seats(self) -> None:
        if self.save is None:
            return
        data = {"format": SEATS_FORMAT, "table": self.id, "game_number": self.game_number,
                "tokens": {str(p + 1): tok for p, tok in self.tokens.items()},
                "bots": {str(p + 1): [name, options] for p, (name, options) in self.bot_specs.items()}}
        write_atomically(seats_path(self.save), json.dumps(data, indent=1), private=True)

    @classmethod
    def resume(cls, game, path, save=None, bot_delay: float = 0.0) -> "Table":
        """The table saved at ``path`` and its sidecar of seats, its game replayed and checked by ``State.from_json``.

        Both files are untrusted: read as regular files of bounded size, and the seats file must give every
        seat a token of the server's own shape (no two alike) or a bot the server can make; a save without
        its seats file is refused, since resuming it would hand out new links to every seat.
        """
        path = Path(path)
        data = _read_json(path, "save", MAX_SAVE_BYTES)
        side = seats_path(path)
        if not os.path.lexists(side):
            raise SaveFileError(f"the seats file of this save is missing: {side} holds the seats' links and bots, "
                                "which --resume keeps; put it back beside the save (or start a new game with "
                                "--players)", Location(str(path)))
        seats = _read_json(side, "seats file", MAX_SEATS_BYTES)
        state = State.from_json(game, data)
        tokens, bots, table_id, number = read_seats(seats, side, state.n)
        table = cls(game, state.n, bots, save if save is not None else path, bot_delay=bot_delay, state=state,
                    tokens=tokens, table_id=table_id, game_number=number)
        table.write_seats()
        return table

    # ---------------------------------------------------------------- the finished game's record
    def log_lines(self, seat: int | None) -> str:
        """The game as JSON lines, as ``seat`` may read it: start, actions (others' secret ones without
        their text), narration, and the result once the game is over."""
        state = self.state
        audience = "spectator" if seat is None else f"player {seat + 1}"
        lines = [{"event": "start", "format": "ribbit-log/1", "game": self.game.name,
                  "variants": [str(v) for v in getattr(self.game, "variants", [])], "players": state.n,
                  "bots": {str(p + 1): name for p, (name, _) in self.bot_specs.items()}, "narration": audience}]
        narration = state.narration(seat) if state.log is not None else []
        # narration(seat) drops lines the seat may not read; map each kept line back to its log index
        kept = _kept_indices(state, seat)
        told = 0
        audience_index = state.n if seat is None else seat
        for (player, action), (readers, log_len) in zip(state.history, self.secret_at):
            if not readers[audience_index]:  # another seat's secret pick, or one naming cards this seat cannot see:
                # what it was shows in the narration, if anywhere
                lines.append({"event": "action", "player": player + 1, "action": None, "secret": True})
            else:
                lines.append({"event": "action", "player": player + 1, "action": action})
            while told < len(kept) and kept[told] < log_len:
                lines.append({"event": "log", "text": narration[told]})
                told += 1
        for text in narration[told:]:
            lines.append({"event": "log", "text": text})
        if state.over:
            lines.append({"event": "end", "scores": state.scores(), "breakdown": state.score_breakdown(),
                          "winners": [w + 1 for w in state.winners()],
                          "ended_by": state.ended_by, "decisions": len(state.history)})
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


    def log_filename(self, seat: int | None) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.game.name.lower()).strip("-") or "game"
        return f"ribbit-{slug}-game{self.game_number}-" + ("spectator" if seat is None else f"player{seat + 1}") + ".jsonl"


def _kept_indices(state, seat) -> list[int]:
    """The log indices of the lines ``state.narration(seat)`` keeps, in order."""
    if state.log is None:
        return []
    audience = state.n if seat is None else seat
    hidden = {index for index, texts in state.log_seen if texts[audience] is None}
    return [i for i in range(len(state.log)) if i not in hidden]


TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{32}")  # what new_token makes: 24 random bytes, URL-safe base64
TABLE_SHAPE = re.compile(r"[A-Za-z0-9_-]{12}")  # a table id: 9 random bytes
MAX_SEATS_BYTES = 1_000_000
MAX_GAMES = 10 ** 9  # "Play again" counts games; a seats file saying more is not one this server wrote


def read_seats(data, side: Path, players: int):
    """(tokens, bots, table id, game number) from a seats file's data; a SaveFileError naming the key if wrong.

    A token is the only credential a seat has: an empty, short or shared one (``""`` would let anyone
    sending an empty token play that seat) is refused, as is anything the server would not have written.
    """
    def fail(key: str, why: str):
        return SaveFileError(f"{why} (a seats file is {SEATS_FORMAT!r}, written by `ribbit serve` beside its save)",
                             Location(str(side), key=key))

    table_id, number = _seats_header(data, fail)
    seats = {str(p): p - 1 for p in range(1, players + 1)}
    tokens, bots = {}, {}
    for part in ("tokens", "bots"):
        given = data.get(part)
        if type(given) is not dict:
            raise fail(part, "expected a mapping of seats (\"1\", \"2\", ...)")
        for key, value in given.items():
            where = _seat_key(part, key, seats, players, tokens, bots, fail)
            if part == "tokens":
                tokens[seats[key]] = _seat_token(value, tokens, fail, where)
            else:
                bots[seats[key]] = _seated_bot(value, fail, where)
    missing = [str(p + 1) for p in range(players) if p not in tokens and p not in bots]
    if missing:
        raise fail("tokens", f"seat {', '.join(missing)} has neither a token nor a bot; every seat needs one")
    return tokens, bots, table_id, number


def _seats_header(data, fail) -> tuple:
    """(table id, game number) of a seats file, after its format."""
    if type(data) is not dict or data.get("format") != SEATS_FORMAT:
        raise fail("format", f"not a seats file: expected \"format\": {SEATS_FORMAT!r}")
    table_id, number = data.get("table"), data.get("game_number")
    if type(table_id) is not str or not TABLE_SHAPE.fullmatch(table_id):
        raise fail("table", "the table's id must be 12 letters, digits, '-' or '_'")
    if type(number) is not int or not 1 <= number <= MAX_GAMES:
        raise fail("game_number", f"the game number must be a whole number from 1 to {MAX_GAMES:,}")
    return table_id, number


def _seat_key(part: str, key, seats: dict, players: int, tokens: dict, bots: dict, fail) -> str:
    """Where an entry of ``tokens`` or ``bots`` is (its key path), once it names a seat that has nothing yet."""
    where = f"{part}.{key}" if key in seats else f"{part}.{quote(key, 20)}"
    if key not in seats:
        raise fail(where, f"there is no seat {quote(key, 20)} in this {players}-player save")
    if seats[key] in tokens or seats[key] in bots:
        raise fail(where, f"seat {key} has both a token and a bot")
    return where


def _seat_token(value, tokens: dict, fail, where: str) -> str:
    """A seat's token, as the server makes them and no other seat's."""
    if type(value) is not str or not TOKEN_SHAPE.fullmatch(value):
        raise fail(where, "a seat's token must be 32 letters, digits, '-' or '_', as the server makes "
                          "them (an empty or short token could be guessed)")
    if value in tokens.values():
        raise fail(where, "this token is also another seat's; every seat needs its own")
    return value


def _seated_bot(value, fail, where: str) -> tuple[str, dict]:
    """A seats file's bot ``[name, {parameter: value}]``, checked by making it once."""
    from ..agents import BotSpecError

    if type(value) is not list or len(value) != 2 or type(value[0]) is not str or type(value[1]) is not dict:
        raise fail(where, "a bot is [NAME, {PARAMETER: VALUE, ...}]")
    name, options = value
    own = options.get("seed")
    if "seed" in options and not (type(own) is str and len(own) <= 1000 and not not_text_problem(own)
                                  or type(own) is int and own.bit_length() <= 3400):
        raise fail(where, "a bot's seed is a whole number or a text of at most 1000 characters (Unicode "
                          "characters, no lone surrogate such as \\ud800)")
    try:
        _make_bot(name, options, None)
    except BotSpecError as exc:
        raise fail(where, exc.message) from None
    return name, dict(options)


def _read_json(path: Path, what: str, limit: int):
    """The JSON data of a save or seats file, read like a definition: a regular file of at most ``limit`` bytes."""
    from ..loader.source import read_user_file

    file = str(path)
    raw = read_user_file(path, limit=limit, what=f"{what}s", cls=SaveFileError, expected=f"a {what} (JSON)")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SaveFileError(f"the {what} is not UTF-8 text (byte {exc.start})", Location(file)) from None
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"the {what} is not valid JSON ({exc.msg})", Location(file, exc.lineno, exc.colno)) \
            from None
    except (ValueError, RecursionError) as exc:  # nested too deeply, or a number too long to read
        why = "nested too deeply" if isinstance(exc, RecursionError) else "a number too long to read"
        raise SaveFileError(f"the {what} is not valid JSON ({why})", Location(file)) from None


__all__ = ["Table", "parse_seat_specs", "new_token", "RibbitError"]
