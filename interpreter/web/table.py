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
import json
import os
import re
import secrets
import tempfile
import time
from pathlib import Path

from ..agents import make_agent
from ..errors import RibbitError, SaveFileError
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
    return make_agent(name, seed, **options)


def write_atomically(path: Path, text: str, private: bool = False) -> None:
    """Write ``text`` to ``path`` under a temporary name beside it, then rename it into place."""
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
        self.again_votes: set = set()  # the people who asked for a new game once this one is over
        self._start(state if state is not None else game.new_game(players, self._seed(seed)))

    @staticmethod
    def _seed(seed):
        return secrets.randbits(63) if seed is None else seed

    def _start(self, state: State) -> None:
        self.state = state
        self.bots = {p: _make_bot(name, options, f"{state.seed}:{p}") for p, (name, options) in self.bot_specs.items()}
        self.secret_at = self._replay_secrecy(state)
        self.changed = time.monotonic()

    def _replay_secrecy(self, state: State) -> list[tuple[bool, int]]:
        """Per action of the history: (was it a secret decision, how long the log was after it), by replaying it."""
        if not state.history:
            return []
        again = self.game.new_game(state.n, state.seed, state.log is not None, state.scenario)
        marks = []
        for player, action in state.history:
            secret = bool(again.pending and again.pending["secret"])
            again.apply(player, action)
            marks.append((secret, len(again.log or ())))
        return marks

    # ---------------------------------------------------------------- links
    def seat_of(self, token) -> int | None:
        """The seat a token acts for, or None (compared in constant time per seat)."""
        if type(token) is not str or len(token) > 100:
            return None
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
        message = {"type": "state", "game_number": self.game_number, "view": view, "decision": decision,
                   "narration": lines, "bots": sorted(self.bots), "humans": self.humans,
                   "cards": self.cards.for_view(view, [c for o in (decision or {}).get("options", ()) for c in o["cards"]])}
        if self.problem:
            message["problem"] = self.problem
        if state.over:
            message["breakdown"] = state.score_breakdown()  # public once the game is over, like the scores
            message["again"] = sorted(self.again_votes)  # who has asked to play again
        return message, len(state.log or ())

    # ---------------------------------------------------------------- changing the game
    def apply(self, seat: int, action) -> None:
        """Play ``action`` for ``seat`` (validated by the engine: an illegal one raises and changes nothing)."""
        state = self.state
        secret = bool(state.pending and state.pending["secret"])
        state.apply(seat, action)
        self.secret_at.append((secret, len(state.log or ())))
        self.changed = time.monotonic()
        self.write_save()

    def bot_moves(self):
        """The bots that must decide now: [(seat, bot)]."""
        return [(p, self.bots[p]) for p in self.state.current_players() if p in self.bots]

    def bot_choice(self, seat: int, bot) -> str:
        state = self.state
        return bot.act(state, seat)

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
        write_atomically(save, json.dumps(self.state.to_json(), separators=(",", ":")))
        write_atomically(log, self.log_lines(None))

    # ---------------------------------------------------------------- saving
    def write_save(self) -> None:
        if self.save is None:
            return
        write_atomically(self.save, json.dumps(self.state.to_json(), separators=(",", ":")))

    def write_seats(self) -> None:
        if self.save is None:
            return
        data = {"format": SEATS_FORMAT, "table": self.id, "game_number": self.game_number,
                "tokens": {str(p + 1): tok for p, tok in self.tokens.items()},
                "bots": {str(p + 1): [name, options] for p, (name, options) in self.bot_specs.items()}}
        write_atomically(seats_path(self.save), json.dumps(data, indent=1), private=True)

    @classmethod
    def resume(cls, game, path, save=None, bot_delay: float = 0.0) -> "Table":
        """The table saved at ``path`` (and its sidecar of seats), its game replayed and checked by ``State.from_json``."""
        path = Path(path)
        data = _read_json(path, "save")
        state = State.from_json(game, data)
        side = seats_path(path)
        tokens, bots, table_id, number = None, {}, None, 1
        if side.exists():
            seats = _read_json(side, "seats file")
            try:
                if seats.get("format") != SEATS_FORMAT:
                    raise ValueError
                tokens = {int(k) - 1: str(v) for k, v in seats["tokens"].items()}
                bots = {int(k) - 1: (str(v[0]), dict(v[1])) for k, v in seats["bots"].items()}
                table_id, number = str(seats["table"]), int(seats["game_number"])
                if any(not 0 <= p < state.n for p in [*tokens, *bots]) or set(tokens) & set(bots) \
                        or set(tokens) | set(bots) != set(range(state.n)):
                    raise ValueError
            except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                raise SaveFileError(f"{side}: not a seats file of this save (expected {SEATS_FORMAT!r} with a token "
                                    "or a bot for every seat)") from None
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
        for (player, action), (secret, log_len) in zip(state.history, self.secret_at):
            if secret and player != seat:  # another seat's secret pick: what it was shows in the narration, if anywhere
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


def _read_json(path: Path, what: str):
    try:
        size = path.stat().st_size
        if size > MAX_SAVE_BYTES:
            raise SaveFileError(f"{path}: the {what} is {size:,} bytes, more than the {MAX_SAVE_BYTES:,} a save may have")
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as exc:
        raise SaveFileError(f"{path}: cannot read the {what}: {exc.strerror or exc}") from None
    except (ValueError, RecursionError) as exc:
        raise SaveFileError(f"{path}: the {what} is not valid JSON ({exc})") from None


__all__ = ["Table", "parse_seat_specs", "new_token", "RibbitError"]
