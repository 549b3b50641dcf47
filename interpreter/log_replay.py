"""Replaying a recorded game (a ``ribbit play`` JSON-lines log) from its seed and actions.

A log is untrusted input: it is read as a regular file of bounded size, every line must be a JSON
object of the ``ribbit-log/1`` format (checked first by its JSON Schema, ``schemas/log.schema.json``, then
against the game: seats in range, one score per player), and the files it names (the game,
variant and scenario files) are read only if they lie inside the current folder or the log's folder
(after resolving links) and are YAML files, with the same reading rules as ``play``.  Every problem is a
:class:`LogError` naming the log's line.

What a position shows is what one seat (or a spectator) saw: its ``view`` and its narration, other
players' secret choices as "(a secret choice)" — never the state itself.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import IllegalActionError, Location, RibbitError, SaveFileError, inert, quote
from .loader.data_schemas import LOG_SCHEMA, first_error

LOG_FORMAT = "ribbit-log/1"
MAX_LOG_BYTES = 64_000_000  # a log of 100,000 decisions with their narration is far below this
MAX_LOG_ACTIONS = 100_000  # as for saves
EVENTS = {"start", "action", "undo", "log", "trace", "end", "interrupted", "error"}
YAML_SUFFIXES = (".yaml", ".yml")


class LogError(SaveFileError):
    """A game log that cannot be read or replayed (bad JSON, wrong format, a file it may not name...)."""


class CheckFailed(RibbitError):
    """The log does not replay to what it records (its --check said no)."""


@dataclass
class LoggedAction:
    line: int
    player: int  # 0-based
    action: str | None  # None: a secret choice the log does not hold


@dataclass
class GameLogFile:
    """A parsed log: its start record, its actions in order, and how it ends."""

    path: str
    start: dict
    start_line: int = 1  # the line of the start record, where the files it names are reported
    actions: list = field(default_factory=list)
    end: dict | None = None  # the "end" record, if the game finished
    end_line: int | None = None
    stop: tuple | None = None  # ("interrupted" | "error", line, record) if it stopped otherwise

    @property
    def seed(self):
        seed = self.start.get("seed")
        if seed is None and self.end is not None:
            seed = self.end.get("seed")  # a seed drawn for a human's game is logged when the game is over
        return seed

    def hidden_at(self) -> int | None:
        """The number of the first decision whose action the log does not hold (1-based), or None."""
        for number, logged in enumerate(self.actions, 1):
            if logged.action is None:
                return number
        return None


# ---------------------------------------------------------------- reading
def read_log(path) -> GameLogFile:
    """Parse and check a log file; a located :class:`LogError` for anything that is not a usable log."""
    from .loader.source import read_user_file

    file = str(path)
    expected = "a game log (the JSON-lines file `ribbit play --log` writes)"
    raw = read_user_file(path, limit=MAX_LOG_BYTES, what="game logs", cls=LogError, expected=expected)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(f"is not UTF-8 text (byte {exc.start}); expected a game log of JSON lines",
                       Location(file)) from None
    log = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = Location(file, number)
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise LogError(f"is not valid JSON ({_reason(exc)}); every line of a game log is one JSON object",
                           where) from None
        if type(record) is not dict:
            raise LogError(f"is a JSON {_kind(record)}, not an object; every line of a game log is one JSON "
                           "object with an \"event\"", where)
        event = record.get("event")
        if log is None:
            if event != "start" or record.get("format") != LOG_FORMAT:
                raise LogError(f"a game log starts with {{\"event\": \"start\", \"format\": \"{LOG_FORMAT}\", ...}}; "
                               "this is not a log written by `ribbit play` (or of another format)", where)
            log = GameLogFile(file, _check_start(record, where), start_line=number)
            continue
        _check_record(record, log.start["players"], where)
        if log.end is not None or log.stop is not None:
            if event in ("log", "trace"):
                continue
            raise LogError(f"a {quote(event)} record after the game's last record (line "
                           f"{log.end_line or log.stop[1]})", where)
        _take(log, event, record, where)
    if log is None:
        raise LogError("is empty; expected a game log (the JSON-lines file `ribbit play --log` writes)",
                       Location(file))
    if log.seed is None:
        raise LogError("the log does not hold the game's seed (a seed drawn for a person's game is logged only "
                       "in the \"end\" record, and this log has none), so the game cannot be replayed",
                       Location(file, log.start_line))
    return log


def _reason(exc) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if not isinstance(exc, json.JSONDecodeError):  # Python's limit on the digits of a number it reads
        return "a number too long to read"
    return inert(str(exc))[:120]


def _kind(value) -> str:
    return {list: "list", str: "text", int: "number", float: "number", bool: "true/false"}.get(type(value), "null")


def _take(log: GameLogFile, event: str, record: dict, where) -> None:
    """Add a checked record after the start to ``log``: an action, an undo, the end, or how it stopped."""
    if event == "start":
        raise LogError("a second \"start\" record; a log holds one game", where)
    if event == "action":
        log.actions.append(_check_action(record, log.start["players"], where))
        if len(log.actions) > MAX_LOG_ACTIONS:
            raise LogError(f"more than {MAX_LOG_ACTIONS:,} actions; a log is limited to that", where)
    elif event == "undo":  # the last action was taken back (State.undo): it is not part of the game
        player = record["player"]
        if not log.actions or log.actions[-1].player != player - 1:
            raise LogError(f"player {quote(player)} takes back a decision, but the last action recorded is not "
                           "theirs", where)
        log.actions.pop()
    elif event == "end":
        log.end, log.end_line = _check_end(record, log.start["players"], where), where.line
    elif event in ("interrupted", "error"):
        log.stop = (event, where.line, record)


def _check_record(record, players: int, where) -> None:
    """A LogError at ``where`` unless ``record`` is a record of the log's schema (``schemas/log.schema.json``)."""
    error = first_error(LOG_SCHEMA, record)
    if error is not None:
        raise LogError(_record_message(error, record, players), where)


# What each field must be, as the message says it (the schema says it for the reader of the file).
_FIELDS = {
    ("start", "file"): "the game file's path (text)",
    ("start", "variants"): "a list of variant references",
    ("start", "players"): "the number of players (a whole number)",
    ("start", "seed"): "a whole number or null",
    ("start", "scenario"): "the scenario file's path (text)",
    ("action", "action"): "the action's text",
    ("end", "scores"): "a list of whole numbers",
    ("end", "winners"): "a list of whole numbers",
    ("end", "ended_by"): "\"end game\", \"flow\" or \"decision cap\"",
}


def _record_message(error, record, players) -> str:
    """The sentence for a record that breaks the log's schema (``error``: its first violation)."""
    path = list(error.absolute_path)
    if not path and error.validator == "type":
        return f"is a JSON {_kind(record)}, not an object; every line of a game log is one JSON object with an \"event\""
    key = path[0] if path else next(k for k in error.validator_value if k not in record)  # a missing key
    event, value = record.get("event"), record.get(key)
    if key == "event":
        return f"unknown event {quote(value)}; the events of a game log are {', '.join(sorted(EVENTS))}"
    if key == "player":
        return f"\"player\" must be a seat from 1 to {players}, got {quote(value)}"
    if (event, key) == ("start", "file") and type(value) is str:
        return "\"file\" is not a usable path"
    if (event, key) == ("start", "variants") and type(value) is list:
        return "\"variants\" must be a list of at most 100 variant references (texts)"
    if (event, key) == ("start", "players") and type(value) is int:
        return f"\"players\" must be a number of players, got {value}"
    return f"\"{key}\" must be {_FIELDS[event, key]}, got {quote(value)}"


def _check_start(record: dict, where) -> dict:
    _check_record(record, None, where)
    seed = record.get("seed")
    if seed is not None and seed.bit_length() > 1024:
        raise LogError(f"\"seed\" must be a whole number or null, got {quote(seed)}", where)
    return record


def _check_action(record: dict, players: int, where) -> LoggedAction:
    """The action of a record the schema passed: its seat one of the game's, hidden only if secret."""
    player, action = record["player"], record.get("action")
    if player > players:
        raise LogError(f"\"player\" must be a seat from 1 to {players}, got {player}", where)
    if action is None and record.get("secret") is not True:
        raise LogError("an action record without an action must be a hidden secret choice "
                       "(\"action\": null, \"secret\": true)", where)
    return LoggedAction(where.line, player - 1, action)


def _check_end(record: dict, players: int, where) -> dict:
    if len(record["scores"]) != players:
        raise LogError(f"\"scores\" must hold one score per player ({players}), got {len(record['scores'])}", where)
    return record


# ---------------------------------------------------------------- the files a log names
def allowed_folders(log_path) -> list[Path]:
    """Where the files a log names may be: the current folder and the log's folder (and below)."""
    return [Path.cwd().resolve(), Path(log_path).resolve().parent]


def locate(name: str, log: GameLogFile, what: str, key: str) -> Path:
    """A file named in the log, found relative to the current folder (as ``play`` was run) or the log's
    folder, and refused unless it is a YAML file inside one of the allowed folders."""
    where = Location(log.path, log.start_line, key=key)
    shown = quote(name, 120)
    if not name.endswith(YAML_SUFFIXES) or any(ord(c) < 32 for c in name):
        raise LogError(f"the {what} {shown} is not a YAML file name (.yaml or .yml); a log may name only the "
                       "game's own files", where)
    folders = allowed_folders(log.path)
    candidates = [Path(name)] if Path(name).is_absolute() else [folder / name for folder in folders]
    for candidate in candidates:
        if not os.path.lexists(candidate):
            continue
        real = candidate.resolve()
        if not any(real == f or f in real.parents for f in folders):
            raise LogError(f"the {what} {shown} is outside the folders a log may read from (the current folder "
                           "and the log's own folder); to replay it anyway, name the game with --game FILE", where)
        return candidate
    raise LogError(f"the {what} {shown} was not found in the current folder or the log's folder; run the replay "
                   "where the game was played, or name the game with --game FILE", where)


def load_logged_game(log: GameLogFile, game_file=None):
    """The game (with its variants) and the scenario the log was played with.

    Whatever is wrong with a file the log names (not a definition, a pipe, a bad variant setting) is
    reported at the log's start record, which named it, with the file's own place kept in the message.
    """
    game_path = game_file if game_file is not None else locate(log.start["file"], log, "game file", "file")
    variants, named = _variant_refs(log, game_path)
    game = _load_named_game(log, game_path, variants, named, game_file)
    scenario = _logged_scenario(log)
    if not game.min_players <= log.start["players"] <= game.max_players:
        raise LogError(f"the log is of a {log.start['players']}-player game; {game.name} is for "
                       f"{game.min_players}-{game.max_players} players",
                       Location(log.path, log.start_line, key="players"))
    return game, scenario


def _variant_refs(log: GameLogFile, game_path) -> tuple[list, dict]:
    """(the variant references to load, {real path of each variant file: (its key in the start record, what)})."""
    from .loader.variants import is_path_ref, parse_ref, variants_folder

    variants, named = [], {}
    for number, ref in enumerate(log.start["variants"]):
        key, written = f"variants[{number}]", ref
        try:
            target, _ = parse_ref(ref)
        except RibbitError as exc:
            raise LogError(f"variant {quote(ref)}: {exc.message}", Location(log.path, log.start_line, key=key)) \
                from None
        if is_path_ref(target):
            found = locate(target, log, "variant file", key)
            ref = str(found) + ref[len(target):]
        else:  # a NAME: in the game's variants folder (if the game file is a variant, the loader finds its own)
            found = variants_folder(game_path) / f"{target}.yaml"
        named.setdefault(_real(found) if found.exists() else str(found.parent), (key, f"the variant {quote(written)}"))
        variants.append(ref)
    return variants, named


def _load_named_game(log: GameLogFile, game_path, variants: list, named: dict, game_file):
    """The game the log names, with its variants; an error in one of its files is told at the key that named it."""
    from .loader import load_game

    try:
        return load_game(game_path, variants=variants)
    except OSError as exc:
        raise LogError(f"cannot read the game file: {exc.strerror or exc}",
                       Location(log.path, log.start_line, key="file")) from None
    except RibbitError as exc:
        key, what = _named_by(exc, game_path, variants, named)
        if key == "file" and game_file is not None:
            raise  # the game named with --game: its own errors name it
        raise _named_file_error(exc, log, key, what) from None


def _named_by(exc: RibbitError, game_path, variants: list, named: dict) -> tuple[str, str]:
    """(key of the start record, what it names) of the file an error of loading the game comes from."""
    where = getattr(exc.location, "file", None)
    real = _real(where) if where is not None else None
    if real not in named and str(where) in named:  # a NAME not found: the error names the folder
        real = str(where)
    if real in named:
        return named[real]
    if real is None or real == _real(game_path) or not variants:
        return "file", "the game file"
    return "variants", "the variants"  # a file one of the variants extends, or a variant NAME not found


def _logged_scenario(log: GameLogFile):
    """The scenario the log's start record names, read like ``play --scenario``; None if it names none."""
    if "scenario" not in log.start:
        return None
    from .loader.scenario import load_scenario

    try:
        return load_scenario(locate(log.start["scenario"], log, "scenario file", "scenario"))
    except LogError:
        raise
    except RibbitError as exc:
        raise _named_file_error(exc, log, "scenario", "the scenario file") from None


def _real(path) -> str:
    """A path as the file it names, to tell which file the log named an error comes from."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return str(path)


def _named_file_error(exc: RibbitError, log: GameLogFile, key: str, what: str) -> LogError:
    """An error in a file the log names, at the log's start record; the file's own place and excerpt kept."""
    own = f"{exc.location}: " if exc.location is not None else ""
    return LogError(f"{what} cannot be used: {own}{exc.message}",
                    Location(log.path, log.start_line, key=key), excerpt=exc.excerpt)


# ---------------------------------------------------------------- replaying
@dataclass
class Step:
    """One decision of the replay: who chose what, and whether the decision was secret."""

    number: int  # 1-based
    player: int
    action: str
    secret: bool
    narrated: int  # state.log length after the action
    readers: tuple = ()  # may each seat, then a spectator, read the action's text (state.action_readers)


class Replay:
    """A log's game replayed as far as the log allows: every position from the start to decision N."""

    def __init__(self, log: GameLogFile, game, scenario=None, strict: bool = True):
        self.log, self.game, self.scenario = log, game, scenario
        self.steps: list[Step] = []
        self.failure: RibbitError | None = None  # an action the rules refused (strict=False keeps it)
        self.start_narrated = 0
        self.failed_as_logged: bool | None = None  # see _logged_failure
        self.final = self._run(strict)

    def new_state(self):
        try:
            return self.game.new_game(self.log.start["players"], seed=self.log.seed, log=True, scenario=self.scenario)
        except RibbitError as exc:
            raise LogError(f"the game cannot be set up from the log's seed: {exc}",
                           Location(self.log.path, self.log.start_line))

    def _run(self, strict: bool):
        state = self.new_state()
        self.start_narrated = len(state.log)
        for number, logged in enumerate(self.log.actions, 1):
            if logged.action is None:
                break
            where = Location(self.log.path, logged.line)
            if state.is_terminal():
                error = LogError(f"decision {number}: the game was already over; player {logged.player + 1}'s "
                                 f"{quote(logged.action)} cannot be played", where)
            elif logged.player not in state.current_players():
                waiting = ", ".join(f"player {p + 1}" for p in state.current_players())
                error = LogError(f"decision {number}: it is not player {logged.player + 1}'s decision (waiting for "
                                 f"{waiting}); the log does not match the game", where)
            else:
                secret = bool(state.pending.get("secret"))
                try:
                    readers = tuple(state.apply_read(logged.player, logged.action))
                    self.steps.append(Step(number, logged.player, logged.action, secret, len(state.log), readers))
                    continue
                except IllegalActionError:
                    legal = state.legal_actions(logged.player)
                    shown = "; ".join(quote(a) for a in legal[:12]) + ("; ..." if len(legal) > 12 else "")
                    error = LogError(f"decision {number}: player {logged.player + 1} cannot play "
                                     f"{quote(logged.action)}, which is not legal there (the legal actions: {shown}); "
                                     "the log does not match the game", where)
                except RibbitError as exc:
                    error = LogError(f"decision {number}: player {logged.player + 1}'s {quote(logged.action)} "
                                     f"failed: {exc}", where)
            if strict:
                raise error
            self.failure = error
            break
        else:
            self.failed_as_logged = self._logged_failure(state)
        return state

    def _logged_failure(self, state) -> bool | None:
        """For a log that ends with an "error" record (a rule failed at ``play``): does that action fail again?"""
        if self.log.stop is None or self.log.stop[0] != "error":
            return None
        record = self.log.stop[2]
        player, action = record.get("player"), record.get("action")
        if type(player) is not int or type(action) is not str or player - 1 not in state.current_players():
            return False
        try:
            state.clone().apply(player - 1, action)
        except IllegalActionError:
            return False
        except RibbitError:
            return True
        return False

    @property
    def decisions(self) -> int:
        """How many decisions can be replayed (up to the first hidden one, or the end of the log)."""
        return len(self.steps)

    def state_at(self, n: int):
        """The state after decision ``n`` (0: the start), replayed from the seed."""
        state = self.new_state()
        for step in self.steps[:n]:
            state.apply(step.player, step.action)
        return state


def written_for(start: dict) -> str:
    """Whose narration the log says it holds, as `ribbit play` writes it ("player 2", "spectator"); "one seat" for
    anything else (the field is the log's own text, of any length or kind)."""
    audience = start.get("narration")
    if type(audience) is str and re.fullmatch(r"player [1-9][0-9]{0,3}|spectator", audience):
        return audience
    return "one seat"


def hidden_message(log: GameLogFile, number: int) -> str:
    logged = log.actions[number - 1]
    return (f"decision {number} (line {logged.line}) is player {logged.player + 1}'s secret choice, which this log "
            f"does not hold (it was written for {written_for(log.start)}), so the game cannot be "
            "replayed past it; a log written with `ribbit play --log-omniscient`, or of a game only bots play, "
            "holds every choice")


def check(log: GameLogFile, replay: Replay) -> list[str]:
    """Differences between the log's recorded outcome and the replay's (empty: it replays the same)."""
    problems = []
    if replay.failure is not None:
        return [str(replay.failure)]
    hidden = log.hidden_at()
    if hidden is not None:
        # neither "it matches" (0) nor "it differs" (1): the log cannot be checked, and says why (2)
        raise LogError("this log cannot be checked to its end: " + hidden_message(log, hidden),
                       Location(log.path, log.actions[hidden - 1].line))
    state = replay.final
    if replay.failed_as_logged is False:
        problems.append(f"the log records that an action failed (line {log.stop[1]}), but it does not fail in the "
                        "replay")
    if log.end is None:
        if state.is_terminal():
            problems.append("the replay ends the game, but the log has no \"end\" record")
        return problems
    end = log.end
    if not state.is_terminal():
        return [f"after the log's {len(log.actions)} actions the game is not over, but the log records its end "
                f"(line {log.end_line})"]
    found = {"scores": state.scores(), "winners": [w + 1 for w in state.winners()], "ended_by": state.ended_by}
    for key in ("scores", "winners", "ended_by"):
        if end.get(key) != found[key]:
            problems.append(f"{key}: the log says {quote(end.get(key))}, the replay gives {quote(found[key])}")
    if "decisions" in end and end["decisions"] != len(state.history):
        problems.append(f"decisions: the log says {quote(end['decisions'])}, the replay gives {len(state.history)}")
    return problems


# ---------------------------------------------------------------- showing a position
def seat_label(seat) -> str:
    return "a spectator" if seat is None else f"player {seat + 1}"


def action_text(step: Step, seat) -> str:
    """A decision as ``seat`` saw it: others' secret choices are not shown, nor a text naming cards ``seat``
    could not see (``Step.readers``)."""
    if step.player == seat:
        return f"player {step.player + 1}: {step.action}"
    if step.secret:
        return f"player {step.player + 1}: (a secret choice)"
    audience = len(step.readers) - 1 if seat is None else seat
    hidden = type(audience) is int and 0 <= audience < len(step.readers) and not step.readers[audience]
    return f"player {step.player + 1}: " + ("(a choice of cards you cannot see)" if hidden else step.action)
