"""The ``ribbit`` command: validate, summarise, play and simulate game definitions.

Exit status: 0 ok, 1 reserved (the game or a check said no), 2 bad input (a
definition, variant, argument or file that is wrong), 130 interrupted.  Every
user mistake is reported as one located paragraph on stderr, never a
traceback.  ``main(argv)`` returns the status instead of exiting, so tests run
the command in-process.
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import json
import os
import random
import re
import shlex
import stat
import sys
import tempfile
import time
from pathlib import Path

from .agents import AGENTS, BotSpecError, build_agents, describe_spec, make_agent, parse_bot_spec, parse_bot_specs
from .errors import RibbitError, UndoRefusedError, inert, shorten
from .loader import load_game
from .render import (OutputClosed, make_console, names_in_sight, render_card, render_decision_rules, render_result,
                     render_rules, render_stats, render_view, render_zone)
from .sim import BACKENDS, MAX_DECISIONS, available_cpus, length_measures, simulate

EXIT_OK, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 2, 130


class UsageError(RibbitError):
    """Arguments that parse but do not fit the game (too many players, a seat that does not exist...)."""


class Interrupted(Exception):
    """The person at the terminal left (Ctrl-C, end of input, or no input at all)."""


def say(text: str, stream=None) -> None:
    """Print a line that may quote author text (a name, an error message), made inert first."""
    print(inert(text), file=stream if stream is not None else sys.stdout)


def tolerate_any_terminal() -> None:
    """Never crash on a terminal's encoding: what it cannot show is printed as a backslash escape.

    An ASCII or Latin-1 terminal (``LANG=C``, ``PYTHONIOENCODING=ascii``) would otherwise
    raise on the first non-ASCII card name; undecodable typed bytes become U+FFFD.
    """
    for stream, errors in ((sys.stdout, "backslashreplace"), (sys.stderr, "backslashreplace"),
                           (sys.stdin, "replace")):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors=errors)
            except (ValueError, OSError):  # a closed or detached stream: nothing will be printed to it
                pass


# ---------------------------------------------------------------- arguments
MAX_DIGITS = 18  # whole-number arguments: far more than any count or seed needs


def whole_number(minimum: int | None = None):
    """An argparse type: an integer, at least ``minimum``, with a message that says so."""
    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if digits.isascii() and digits.isdigit() and len(digits) > MAX_DIGITS:
            raise argparse.ArgumentTypeError(f"a number of at most {MAX_DIGITS} digits is expected, "
                                             f"got one of {len(digits)} digits")
        if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):  # as int() reads it, less '1_000' and '١٢' (other digits)
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise argparse.ArgumentTypeError(f"expected a whole number, got {shown!r}")
        value = int(text)
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value
    parse.__name__ = "whole number"
    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ribbit", description="Run tabletop card games from declarative YAML definitions.",
        epilog="Exit status: 0 ok, 2 bad input (definition, variant or arguments), 130 interrupted.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name, help_text, run):
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("file", metavar="FILE",
                         help="the game definition (YAML), or a variant file (applied to its game)")
        sub.add_argument("--variant", metavar="V", action="append", default=[],
                         help="a variant applied on top of the game, as NAME (from the game's variants/ folder) or "
                              "PATH, with settings as NAME:key=value,key=value (repeatable, applied in order)")
        sub.set_defaults(run=run)
        return sub

    validate = command("validate", "check a game definition and explain any error", run_validate)
    validate.add_argument("--verbose", action="store_true", help="list every schema error, not only the first")

    command("rules", "print a readable summary of the rules", run_rules)

    debug = command("debug", "show what the engine made of a definition", run_debug)
    debug.add_argument("--code", action="store_true",
                       help="print the Python code generated for the rules (each function after a comment naming "
                            "the rule and line it comes from)")
    debug.add_argument("--playout", action="store_true",
                       help="with --code: the playout build's code instead (what random playouts, simulations and "
                            "search rollouts run: the same rules without trace and narration)")

    play = command("play", "play a game at the terminal against random bots (or watch bots play)", run_play)
    play.add_argument("--players", type=whole_number(1), required=True, metavar="N", help="number of players")
    play.add_argument("--human", type=whole_number(1), action="append", default=[], metavar="SEAT",
                      help="a seat (1-based) played at the terminal; repeatable; default: all seats are bots")
    play.add_argument("--bot", action="append", default=[], metavar="[SEAT=]NAME[:k=v,...]", help=BOT_HELP)
    play.add_argument("--seed", type=whole_number(0), metavar="S", help="deal seed (default: a random one, shown)")
    play.add_argument("--log", metavar="PATH",
                      help="JSON-lines game log (default: ribbit-<game>-seed<S>.jsonl here; '-' for none)")
    play.add_argument("--log-omniscient", action="store_true",
                      help="write every seat's narration and every choice to the log even when a human plays "
                           "(by default the log holds only what the human seats may see)")
    play.add_argument("--trace", action="store_true",
                      help="show and log every card move, shuffle, decision (automatic ones too), event and "
                           "variable change, as the audience of the narration may see them")
    play.add_argument("--scenario", metavar="FILE",
                      help="start from a hand-built position (a YAML scenario file) instead of the setup")

    sim = command("simulate", "play many bot games and print statistics", run_simulate)
    sim.add_argument("--players", type=whole_number(1), required=True, metavar="N", help="number of players")
    sim.add_argument("--games", type=whole_number(1), required=True, metavar="G", help="number of games")
    sim.add_argument("--seed", type=whole_number(0), default=0, metavar="S",
                     help="game i is dealt with seed S+i (default 0)")
    sim.add_argument("--jobs", type=whole_number(1), default=1, metavar="J",
                     help=f"worker processes, at most one per CPU ({available_cpus()} here) and one per game "
                          "(results do not depend on it)")
    sim.add_argument("--bot", action="append", default=[], metavar="[SEAT=]NAME[:k=v,...]", help=BOT_HELP)
    add_backend_options(sim)
    sim.add_argument("--json", metavar="OUT", help="also write the statistics as JSON ('-' for stdout only)")
    sim.add_argument("--scenario", metavar="FILE",
                     help="start every game from a hand-built position (a YAML scenario file) instead of the "
                          "setup, e.g. to drive a rare rule (with --coverage to see it run)")
    sim.add_argument("--coverage", action="store_true",
                     help="also count how often each setup step, procedure, hook, trigger, card ability, listener and "
                          "menu option ran or was chosen over the games (exactly; rules never reached listed first); "
                          "the games played are the same")
    sim.add_argument("--max-decisions", type=whole_number(1), default=MAX_DECISIONS, metavar="D",
                     help=f"stop a game still running after D decisions and count it as stopped, with no winner "
                          f"(default {MAX_DECISIONS:,})")
    add_serve_command(command)

    sim.add_argument("--plot", metavar="DIR", help="also draw the statistics as figures (PNG and SVG) in the folder "
                     "DIR: win share per seat with 95%% intervals, score and game-length distributions (needs "
                     "matplotlib: pip install 'ribbit[plot]')")
    add_compare_and_replay(commands, command)
    return parser


BOT_HELP = ("a bot: NAME for every seat not otherwise given, or SEAT=NAME for one seat (1-based), optionally "
            "with :key=value,... (e.g. --bot greedy --bot 2=ismcts:iterations=400,seed=3); repeatable; bots: "
            + ", ".join(sorted(AGENTS)) + "; default random")


def bot_options(texts, players: int) -> dict:
    """The ``--bot`` options -> ``{player: (name, params)}``; a bad one is a usage error naming it."""
    try:
        return parse_bot_specs(texts, players)
    except BotSpecError as exc:
        raise UsageError(str(exc)) from None


def bots_text(specs: dict) -> str:
    """The bots of a command as one text: the bot when every seat has the same, else seat by seat."""
    described = [describe_spec(name, params) for name, params in specs.values()]
    if len(set(described)) == 1:
        return described[0]
    return " ".join(f"{seat + 1}={text}" for seat, text in zip(specs, described))


def add_backend_options(sub) -> None:
    """``--backend`` and ``--address``: where a command's games are played (results do not depend on it)."""
    sub.add_argument("--backend", choices=BACKENDS, default="process",
                     help="process: this machine, --jobs worker processes (default); ray: Ray tasks, on a local "
                          "Ray instance (--jobs CPUs, default all) or the cluster at --address (pip install -e "
                          "'.[ray]')")
    sub.add_argument("--address", metavar="HOST:PORT",
                     help="with --backend ray: join the running Ray cluster there (as printed by `ray start "
                          "--head`; 'auto' finds one on this machine) instead of starting a local one")


def check_backend_options(args) -> None:
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address is the address of a Ray cluster: give it with --backend ray")
    if args.address is not None and not args.address.strip():
        raise UsageError("--address: give the Ray cluster's address as HOST:PORT (or 'auto')")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    tolerate_any_terminal()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed usage and a message on stderr
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    try:
        return args.run(args)
    except UsageError as exc:
        say(f"ribbit {args.command}: error: {exc}", sys.stderr)
        return EXIT_BAD_INPUT
    except RibbitError as exc:
        say(str(exc), sys.stderr)
        return EXIT_BAD_INPUT
    except Interrupted as exc:
        say(f"\nInterrupted. The game stopped: {exc}." if str(exc) else "\nInterrupted.", sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        say("\nInterrupted.", sys.stderr)
        return EXIT_INTERRUPTED
    except OutputClosed as exc:  # its reader left (`| head`): stopped as interrupted, files closed with their end
        say(f"ribbit {args.command}: stopped: {exc}", sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:  # output that cannot be written (full disk...); a closed pipe is handled by rich
        say(f"ribbit {args.command}: error: cannot write: {exc.strerror or exc}", sys.stderr)
        return EXIT_BAD_INPUT


def load(args):
    """The game of the command; an OS failure while reading it is reported as a failed read, not a write.
    With ``--coverage`` it is the coverage build, which counts its rules (interpreter/coverage.py)."""
    counting = {}
    if getattr(args, "coverage", False):
        from .coverage import COUNTING

        counting = {"options": COUNTING}
    try:
        return load_game(args.file, variants=args.variant, verbose=getattr(args, "verbose", False), **counting)
    except OSError as exc:  # read_user_file reports its own; this is a folder or link met on the way
        name = f" {exc.filename}" if isinstance(exc.filename, str) else ""
        raise UsageError(f"cannot read the definition{shorten(inert(name), 200)}: {exc.strerror or exc}") from None


def check_players(game, players: int) -> None:
    if not game.min_players <= players <= game.max_players:
        raise UsageError(f"--players {players}: {game.name} is for {game.min_players}-{game.max_players} players")


# ---------------------------------------------------------------- validate, rules
def run_validate(args) -> int:
    game = load(args)
    boards = game.every_count()  # a board per player count: compile the rules for each, to check them all
    for _, compiled in boards:  # and the generated code a game compiles when it first runs it
        compiled.code.compile_pending()
    phases = len(game.source.data.get("flow", []))
    players = f"{game.min_players}" if game.min_players == game.max_players \
        else f"{game.min_players}-{game.max_players}"
    parts = [f"{players} players", f"{len(game.kinds)} components ({len(game.card_names)} cards)",
             f"{len(game.zones)} zones", f"{len(game.procedures)} procedures", f"{len(game.functions)} functions",
             f"{phases} phase{'s' if phases != 1 else ''}"] + ([f"{len(boards)} boards by player count"] if len(boards) > 1 else [])
    on = f" (a variant of {game.file})" if Path(game.file).resolve() != Path(args.file).resolve() else ""
    variants = f" with {', '.join(game.variants)}" if game.variants else ""
    say(f"OK {args.file}{on}{variants}: {game.name}: {', '.join(parts)}")
    return EXIT_OK


def run_rules(args) -> int:
    render_rules(make_console(), load(args))
    return EXIT_OK


def run_debug(args) -> int:
    if args.playout and not args.code:
        raise UsageError("--playout says which code --code prints: give both")
    if not args.code:
        raise UsageError("say what to show: --code prints the generated Python code")
    game = load(args)
    if args.playout:
        game = game.playout_build()
    say(game.code.source().rstrip("\n"))
    return EXIT_OK


# ---------------------------------------------------------------- output files
# What JSON keeps raw with ensure_ascii=False but a terminal showing the file would act on
# (C0 is always escaped by json): DEL, C1, bidi controls, separators, lone surrogates.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def json_line(record) -> str:
    """One JSON value on one line, readable (non-ASCII kept) yet inert in a terminal (``cat log``).

    Those characters can only occur inside JSON strings, so escaping them as ``\\uXXXX``
    keeps the value exact.
    """
    text = json.dumps(record, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if _JSON_UNSAFE.search(text) else text


def input_files(args, game) -> list[str]:
    """Every file this run reads: the definition named, its game, the variants and what they extend, a scenario."""
    files = [str(args.file), str(game.file)] + ([str(args.scenario)] if getattr(args, "scenario", None) else [])
    for variant in getattr(game.source, "variants", ()):
        files += [str(variant.file), *map(str, variant.ancestors)]
    return files


def same_file(a, b) -> bool:
    """Whether two paths name one file (after resolving links; hard links too)."""
    same = Path(a).resolve() == Path(b).resolve()
    if not same and Path(a).exists() and Path(b).exists():
        try:
            same = os.path.samefile(a, b)
        except OSError:
            same = False
    return same


def refuse_overwriting_inputs(option: str, path: str, args, game, others=()) -> None:
    """An output must not be one of the run's inputs: ``--log game.yaml`` would destroy the game.

    ``others``: more inputs of the run than its definition files (the files ``serve --resume`` reads).
    """
    for name in [*input_files(args, game), *map(str, others)]:
        if same_file(path, name):
            raise UsageError(f"{option} {path}: that is {name}, an input of this run; "
                             "it would be overwritten, so nothing was written (name another file)")


def refuse_special_output(option: str, path, what: str) -> None:
    """An output is written by renaming a new file over the old: a folder, a link, a device node or a pipe
    there would be replaced (or the rename would fail), so only a regular file (or none) may be named."""
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
        raise UsageError(f"{option}: cannot write {what} to {path}: it is not a regular file (a folder, a link, "
                         "a device or a pipe); name a file")


def json_output(path, runs, what: str):
    """The ``--json OUT`` file of a run, opened before any game is played (None for none or '-').

    ``runs`` are (arguments, game) pairs whose input files OUT must not be.
    """
    if not path or path == "-":
        return None
    if not Path(path).resolve().parent.is_dir():
        raise UsageError(f"--json {path}: the folder {str(Path(path).parent)!r} does not exist")
    for args, game in runs:
        refuse_overwriting_inputs("--json", path, args, game)
    return AtomicOutput("--json", path, what)


class AtomicOutput:
    """A text file written under a temporary name next to it and renamed into place when done.

    Opened before the run, so an unwritable place is reported before any work; an
    interrupted or failed run never ends with half a file at ``path``.
    """

    def __init__(self, option: str, path: str, what: str):
        self.path, self.file = path, None
        folder = Path(path).parent
        try:
            if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):  # renaming onto it would replace
                raise UsageError(f"{option} {path}: cannot write {what} there: it is not a regular file (a folder, "
                                 "a link, a device or a pipe); name a file")  # a folder, or /dev/null, not write into it
            handle, self.temp = tempfile.mkstemp(dir=folder, prefix=f".{Path(path).name}.", suffix=".part")
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(handle, 0o666 & ~umask)  # the permissions a plain open() would give
            self.file = open(handle, "w", encoding="utf-8", buffering=1)  # line by line
        except OSError as exc:
            raise UsageError(f"{option} {path}: cannot write {what}: {exc.strerror or exc}") from None

    def commit(self) -> None:
        """Close the file and give it its name (replacing any older file there)."""
        if self.file is not None:
            self.file.close()
            self.file = None
            os.replace(self.temp, self.path)

    def discard(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
            os.unlink(self.temp)


# ---------------------------------------------------------------- play
class GameLog:
    """A JSON-lines record of a game: header, actions and narration, then the result.

    Written line by line and put in place when the game stops, however it stops,
    so an interrupted game still ends with a usable record.  Seats are 1-based,
    as on the command line.
    """

    def __init__(self, path: str | None):
        self.path = path
        self.out = AtomicOutput("--log", path, "the game log") if path is not None else None

    def write(self, **record) -> None:
        if self.out is not None:
            self.out.file.write(json_line(record) + "\n")

    def close(self) -> None:
        if self.out is not None:
            self.out.commit()


def default_log_path(game, seed: int | None) -> str:
    """``ribbit-<game>-seed<N>.jsonl``, or by the time of day when the seed is not to be shown yet."""
    slug = re.sub(r"[^a-z0-9]+", "-", game.name.lower()).strip("-") or "game"
    return f"ribbit-{slug}-seed{seed}.jsonl" if seed is not None else f"ribbit-{slug}-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"


def echo_piped_answer(answer: str) -> None:
    """An answer piped in (``yes 1 | ribbit play ...``) is not echoed by a terminal: print it after its prompt,
    so the transcript reads like a game typed at the keyboard rather than a prompt run into the next view."""
    try:
        piped = not sys.stdin.isatty()
    except (AttributeError, ValueError, OSError):  # a closed or replaced standard input
        piped = True
    if piped:
        print(inert(answer), flush=True)


UNDO = "undo"  # typed at a person's prompt (when no option reads so): take back their own last decision


def ask_human(console, seat: int, prompt: str, legal: list[str], explain=None) -> str:
    """Read a choice at the terminal: an option's number or its exact text (re-asked until valid), or
    :data:`UNDO` to take back one's own last decision.

    ``explain(answer)`` handles what is not an option (``?``, ``info NAME``): True if it answered."""
    while True:
        try:
            answer = input(inert(f"player {seat + 1}, {prompt or 'choose'} [1-{len(legal)}]: ")).strip()
        except EOFError:
            raise Interrupted(f"player {seat + 1} left (end of input)") from None
        except (RuntimeError, ValueError, OSError):  # no standard input at all (`<&-`), or a closed one
            raise Interrupted(f"player {seat + 1} left (no input to read from)") from None
        echo_piped_answer(answer)
        if re.fullmatch(r"[0-9]{1,9}", answer) and 1 <= int(answer) <= len(legal):  # no int() of 5000 digits
            return legal[int(answer) - 1]
        for option in legal:
            if answer.lower() == option.lower():
                return option
        if answer.lower() == UNDO:
            return UNDO
        if explain is not None and explain(answer):
            continue
        console.print(f"Please answer with a number from 1 to {len(legal)} (or an option's text; ? explains "
                      "the decision, info NAME shows a card).", markup=False, style="yellow")


def run_play(args) -> int:
    game = load(args)
    check_players(game, args.players)
    humans = _human_seats(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    # Whoever knows the seed can recompute the deal: a person playing sees a drawn seed only at the end.
    hide_seed = bool(humans) and args.seed is None
    path = _play_log_path(args, game, None if hide_seed else seed)
    scenario = scenario_option(args.scenario)
    console = make_console()
    state = game.new_game(args.players, seed=seed, log=True, scenario=scenario, trace=args.trace)
    specs = bot_options(args.bot, args.players)
    _refuse_bots_on_human_seats(args.bot, humans)
    bots = build_agents(specs, seed, [seat for seat in range(args.players) if seat not in humans])
    log = GameLog(path)
    seats = ", ".join(f"player {s + 1}: {'human' if s in humans else describe_spec(*specs[s])}"
                      for s in range(args.players))
    shown_seed = "seed shown when the game ends" if hide_seed else f"seed {seed}"
    console.print(f"{game.name}, {args.players} players ({seats}), {shown_seed}"
                  + (f"; log: {path}" if path else ""), markup=False)
    try:
        _log_start(log, args, game, humans, specs, None if hide_seed else seed)
        PlaySession(console, game, state, humans, bots, log, args.log_omniscient).run()
        if hide_seed:
            console.print(f"The seed was {seed}.", markup=False)
    except (KeyboardInterrupt, Interrupted, OutputClosed):
        log.write(event="interrupted", decisions=len(state.history), seed=seed)
        raise
    finally:
        log.close()
    return EXIT_OK


def _human_seats(args) -> set:
    """The 0-based seats played at the terminal (``--human``, 1-based): each one that exists, each once."""
    for number, seat in enumerate(args.human):
        if seat > args.players:
            raise UsageError(f"--human {seat}: there are only {args.players} seats (numbered 1 to {args.players})")
        if seat in args.human[:number]:
            raise UsageError(f"--human {seat}: that seat is given twice")
    return {seat - 1 for seat in args.human}


def _play_log_path(args, game, shown_seed):
    """Where ``play`` writes its log (None: ``--log -``), refused if writing there would destroy an input."""
    default = default_log_path(game, shown_seed)
    path = default if args.log is None else None if args.log == "-" else args.log
    if path is not None:
        refuse_overwriting_inputs("--log", path, args, game)
    return path


def scenario_option(path):
    """The scenario ``--scenario`` names, read and checked (None without the option)."""
    if path is None:
        return None
    from .loader.scenario import load_scenario

    return load_scenario(path)


def _refuse_bots_on_human_seats(bot_texts: list, humans: set) -> None:
    """A ``--bot SEAT=NAME`` for a seat a person plays is a contradiction, not a choice to guess at."""
    for text in bot_texts:
        seat = parse_bot_spec(text)[0]
        if seat is not None and seat - 1 in humans:
            raise UsageError(f"--bot {text}: seat {seat} is played at the terminal (--human {seat})")


def _log_start(log, args, game, humans: set, specs: dict, seed) -> None:
    """The log's first record: the game, its file and variants, the seats and bots, and whose narration it holds
    (``seed`` None: a person plays on a seed they must not know yet)."""
    audience = narration_audience(humans)
    log.write(event="start", format="ribbit-log/1", game=game.name, file=str(args.file), variants=args.variant,
              players=args.players, seed=seed, humans=sorted(s + 1 for s in humans),
              bot=bots_text({s: specs[s] for s in range(args.players) if s not in humans} or specs),
              narration=audience_name(audience if humans and not args.log_omniscient else OMNISCIENT),
              **({"scenario": str(args.scenario)} if args.scenario else {}), **({"trace": True} if args.trace else {}))


OMNISCIENT = "omniscient"


def explain(console, game, state, seat: int, view: dict, described: dict, answer: str) -> bool:
    """``?`` (the rules of the decision being asked) and ``info NAME`` / ``info ZONE`` (or ``? NAME``) at the prompt; True
    if ``answer`` was one of them.  Only what ``view`` shows can be described: a card the seat cannot see
    gets the same answer as a card that does not exist."""
    words = answer.split(None, 1)
    if answer in ("?", "help"):
        paths = [game.procs[frame.pid].where_at(max(frame.pc - 1, 0)) for frame in state.frames]
        render_decision_rules(console, game.for_players(state.n), state.prompt(), paths)
        console.print("Answer with an option's number or text; info NAME shows a card you can see, info ZONE a "
                      "zone (its cards as you may see them).", markup=False, style="dim")
        return True
    if not words or words[0].lower() not in ("info", "?"):  # "? NAME" reads as "info NAME"
        return False
    target = words[1].strip() if len(words) > 1 else ""
    cards = names_in_sight(game, view, described["options"])
    if target.lower() in cards:
        render_card(console, game, cards[target.lower()])
        return True
    zone = zone_in_view(game, view, seat, target)
    if zone is not None:
        render_zone(console, game, zone, view["zones"][zone])
        return True
    console.print(f"Nothing called {inert(target)!r} is in sight: info NAME shows a card you can see (on the table, "
                  "in your hand, in an option), info ZONE a zone.", markup=False, style="yellow")
    return True


def zone_in_view(game, view: dict, seat: int, target: str):
    """The zone label of ``view`` that ``target`` names: its label (``hand(2)``), a shared zone's name or
    table label, or the name or label of one of the seat's own zones."""
    want = target.lower()
    for label in view["zones"]:
        name, _, rest = label.partition("(")
        place = game.presentation.get("zones", {}).get(name, {}).get("label", name).lower() if game.presentation else name
        if want == label.lower():
            return label
        if want in (name.lower(), place) and (not rest or rest == f"{seat + 1})"):
            return label
    return None


def narration_audience(humans: set):
    """Whose narration the screen shows: one human's own; a spectator's when humans share the screen;
    the omniscient log when only bots play (a demo)."""
    if not humans:
        return OMNISCIENT
    return next(iter(humans)) if len(humans) == 1 else None


def audience_name(audience) -> str:
    return audience if audience == OMNISCIENT else "spectator" if audience is None else f"player {audience + 1}"


class PlaySession:
    """Drives one game: bots and terminal humans take turns; narration goes to the screen and the log."""

    def __init__(self, console, game, state, humans: set, bots: dict, log: GameLog, omniscient_log: bool = False):
        self.console, self.game, self.state = console, game, state
        self.humans, self.bots, self.log = humans, bots, log
        self.audience = narration_audience(humans)
        self.log_audience = OMNISCIENT if omniscient_log else self.audience  # what the log file may hold
        self.narrated = 0  # state.log lines already handled
        self.traced = 0  # state.trace records already handled
        self.seen_at = 0  # state.log_seen entries already handled
        self.news: list = []  # (kind, text) since the last human decision

    def run(self) -> None:
        state = self.state
        self.narrate()
        while not state.is_terminal():
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            turn = state.gv.get("turn")
            secret = bool(state.pending and state.pending.get("secret"))
            if seat in self.humans:
                self.console.rule(f"player {seat + 1}", style="green")
                view, described = state.view(seat), state.decision_for(seat)
                render_view(self.console, self.game, view, seat, self.news, described["options"])
                self.news = []
                self.offer_undo(seat)
                action = ask_human(self.console, seat, state.prompt(), legal,
                                   lambda answer: explain(self.console, self.game, state, seat, view, described, answer))
                if action == UNDO and UNDO not in legal:
                    self.take_back(seat)
                    continue
            else:
                action = self.bot_move(seat)
            try:
                readers = state.apply_read(seat, action)  # (and who may read its text)
            except RibbitError as exc:  # a rule failed: record what was tried, so the failure can be replayed
                self.log.write(event="error", turn=turn, player=seat + 1, action=action, message=str(exc))
                raise
            if not self.may_read(readers, self.log_audience):  # a secret choice, or one naming cards it cannot see
                self.log.write(event="action", turn=turn, player=seat + 1, action=None, secret=True)
            else:
                self.log.write(event="action", turn=turn, player=seat + 1, action=action)
            if seat not in self.humans:
                shown = action if self.may_read(readers, self.audience) else \
                    "(a secret choice)" if secret else "(a choice of cards you cannot see)"
                self.news.append(("action", f"player {seat + 1}: {shown}"))
            self.narrate()
        self.finish()

    def may_read(self, readers, audience) -> bool:
        """May ``audience`` (a seat, None: a spectator, or OMNISCIENT) read an action's text (``readers``: the
        engine's ``action_readers``, per seat then the spectator)?"""
        if audience == OMNISCIENT or readers is None:
            return True
        return readers[self.state.n if audience is None else audience]

    def offer_undo(self, seat: int) -> None:
        """Say, before ``seat``'s prompt, when ``undo`` would take back their own last decision."""
        state = self.state
        if state.history and state.history[-1][0] == seat and state.can_undo(seat):
            self.console.print("(undo: take back your last decision)", markup=False, style="dim")

    def take_back(self, seat: int) -> None:
        """``undo`` at ``seat``'s prompt: their own last decision is taken back if that is fair
        (:meth:`State.undo`: no one has acted since, it revealed nothing); else the reason is shown and nothing
        changes.  Only one's own decision: on a shared screen, whether another player's could be taken back
        would tell what it was (a look at a hidden card cannot be taken back, say)."""
        state = self.state
        try:
            action = state.undo(seat)
        except UndoRefusedError as exc:
            reason = str(exc)
            self.console.print(reason[:1].upper() + reason[1:] + ".", markup=False, style="yellow")
            return
        self.narrated = len(state.log or ())  # the narration goes on from the game as it is again
        self.seen_at = len(state.log_seen)
        self.traced = len(state.trace or ())
        readers = state.action_readers(state.action_watch(seat, action)) if action in state.legal_actions(seat) \
            else None  # (the decision taken back is asked again: who may read the text of the one taken back)
        shown = f" ({action})" if readers is not None and self.may_read(readers, self.audience) else ""
        self.log.write(event="undo", turn=state.gv.get("turn"), player=seat + 1)
        self.console.print(f"player {seat + 1} took back their last decision{shown}.", markup=False, style="green")

    def bot_move(self, seat: int):
        """A bot's action; while it decides, a person at a terminal sees who is thinking (a search bot may take a
        while), on a line that goes away once it has chosen."""
        if not self.humans or not self.console.is_terminal:
            return self.bots[seat].act(self.state, seat)
        with self.console.status(f"player {seat + 1} is thinking…"):
            return self.bots[seat].act(self.state, seat)

    def narrate(self) -> None:
        """Pass new narration lines on: to the log, and to the screen (now if all bots, else as news).

        The screen shows the audience's narration (see :func:`narration_audience`); the log file holds
        the same unless it is omniscient, and then records each audience's text of a line that differs.
        """
        state, turn = self.state, self.state.gv.get("turn")
        if state.trace is not None:
            return self.show_trace(turn)
        start, self.narrated = self.narrated, len(state.log)
        differing = {index: texts for index, texts in state.log_seen[self.seen_at:]}
        self.seen_at = len(state.log_seen)
        for index in range(start, self.narrated):
            texts = differing.get(index)
            omniscient = state.log[index]
            shown = self.text_for(self.audience, omniscient, texts)
            if self.log_audience == OMNISCIENT:
                record = {"event": "log", "turn": turn, "text": omniscient}
                if texts is not None:
                    record["seen"] = {audience_name(None if i == state.n else i): t for i, t in enumerate(texts)}
                self.log.write(**record)
            elif shown is not None:
                self.log.write(event="log", turn=turn, text=shown)
            if shown is None:
                continue
            if self.humans:
                self.news.append(("log", shown))
            else:
                self.console.print(shown, markup=False, soft_wrap=True)

    def show_trace(self, turn) -> None:
        """With ``--trace``: the trace (narration lines included, in order) instead of the narration alone.

        The screen and the log hold the records as the narration's audiences may read them.
        """
        from .trace import describe

        state = self.state
        start, self.traced = self.traced, len(state.trace)
        if self.log_audience == OMNISCIENT:
            for record in state.trace[start:]:
                self.log.write(event="trace", turn=turn, **record)
        else:
            for record in state.trace_for(self.log_audience, start):
                self.log.write(event="trace", turn=turn, **record)
        shown = state.trace[start:] if self.audience == OMNISCIENT else state.trace_for(self.audience, start)
        for record in shown:
            text = describe(record)
            if self.humans:
                self.news.append(("log", text))
            else:
                self.console.print(text, markup=False, soft_wrap=True)

    def text_for(self, audience, omniscient: str, texts):
        """A line as ``audience`` reads it (None: they do not receive it)."""
        if audience == OMNISCIENT or texts is None:
            return omniscient
        return texts[self.state.n if audience is None else audience]

    def finish(self) -> None:
        state = self.state
        seat = self.audience if isinstance(self.audience, int) else None  # one human: the end as they see it
        if self.humans:
            self.console.rule("game over")
            render_view(self.console, self.game, state.view(seat), seat, self.news)
        scores, winners = state.scores(), state.winners()
        self.log.write(event="end", scores=scores, breakdown=state.score_breakdown(), winners=[w + 1 for w in winners],
                       returns=state.returns(),
                       ended_by=state.ended_by, decisions=len(state.history),
                       turns=state.gv.get("turn"), seed=state.seed)
        render_result(self.console, self.game, state, seat)


# ---------------------------------------------------------------- simulate
def run_simulate(args) -> int:
    check_backend_options(args)
    refuse_coverage_off_process(args)
    game = load(args)
    check_players(game, args.players)
    args.bots = bot_options(args.bot, args.players)
    args.scenario_data = scenario_option(args.scenario)
    if args.scenario is not None:
        game.new_game(args.players, args.seed, log=False, scenario=args.scenario_data)  # its errors, before any run

    check_plot_folder(args.plot)
    to_stdout = args.json == "-"
    output = json_output(args.json, [(args, game)], "the statistics")
    console = make_console()
    try:
        started = time.perf_counter()
        stats = _simulate_with_progress(args, game, console, show=console.is_terminal and not to_stdout)
        elapsed = time.perf_counter() - started
        report = {"game": game.name, "file": str(args.file), "variants": args.variant, "players": args.players,
                  "seed": args.seed, "bot": bots_text(args.bots), "max_decisions": args.max_decisions,
                  **({"scenario": str(args.scenario)} if args.scenario else {}), **stats.to_json(length_measures(game))}
        commit_json(output, report)
    finally:
        if output is not None:
            output.discard()  # nothing left if the run stopped
    figures = _plot_simulation(args, game, stats)
    if to_stdout:
        print(json.dumps(report, indent=2))  # ASCII: JSON escapes every control character
        return EXIT_OK
    _show_simulation(console, args, game, stats, elapsed, figures)
    return EXIT_OK


def refuse_coverage_off_process(args) -> None:
    if args.coverage and args.backend != "process":
        raise UsageError("--coverage counts rules with the process backend only (leave out --backend ray)")


def commit_json(output, document) -> None:
    """Write ``--json``'s document, before any table, so a closed pipe on stdout cannot lose it."""
    if output is not None:
        output.file.write(json.dumps(document, indent=2) + "\n")
        output.commit()


def _plot_simulation(args, game, stats) -> list:
    """With ``--plot``: the figures of the run, drawn in its folder (their files)."""
    if not args.plot:
        return []
    from .plots import plot_runs

    name = ", ".join(args.variant) or "base"
    return _drawn(args, lambda: plot_runs(args.plot, game.name, [(f"{name}, {args.players} players", stats)],
                                          measures=length_measures(game)))


def _drawn(args, draw) -> list:
    """The figures ``draw`` writes into ``--plot``'s folder; one it cannot write there is a UsageError naming it."""
    try:
        return draw()
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        raise UsageError(f"--plot {args.plot}: cannot write the figures there: {exc.strerror or exc}{where}; "
                         "name a folder you can write in") from None


def _show_simulation(console, args, game, stats, elapsed: float, figures: list) -> None:
    """The statistics as tables, then what else the run started from or wrote."""
    render_stats(console, game, stats, args.players, elapsed, max_decisions=args.max_decisions)
    if args.scenario:
        console.print(f"Every game started from the scenario {shorten(inert(str(args.scenario)), 200)}.", markup=False)
    if stats.coverage is not None:
        from .render import render_coverage

        render_coverage(console, stats.coverage, stats.games)
    if args.json:
        console.print(f"Statistics written to {args.json}")
    if args.plot:
        console.print(f"Figures written to {args.plot}: {', '.join(Path(f).name for f in figures)}", markup=False)


def _simulate_with_progress(args, game, console, show: bool):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    # no refresh thread (auto_refresh=False): worker processes may be forked while the bar is shown
    with Progress(*columns, console=console, transient=True, disable=not show, auto_refresh=False) as progress:
        task = progress.add_task(f"{game.name}, {args.players} players", total=args.games)
        return simulate(args.file, args.players, args.games, seed=args.seed, jobs=args.jobs, bot=args.bots,
                        variants=args.variant, game=game, max_decisions=args.max_decisions,
                        backend=args.backend, address=args.address, coverage=args.coverage,
                        scenario=args.scenario_data,
                        progress=lambda done: progress.update(task, completed=done, refresh=True))



# ---------------------------------------------------------------- serve (the web extra)
def add_serve_command(command) -> None:
    serve = command("serve", "play in the browser: a local web server with one link per seat (given a folder of "
                    "definitions, or --tables, a lobby where tables of any of its games are started)", run_serve)
    serve.add_argument("--players", type=whole_number(1), metavar="N", help="number of players (not with --resume)")
    serve.add_argument("--seat", action="append", default=[], metavar="SEAT=BOT",
                       help="a seat (1-based) played by a bot, e.g. 2=random; repeatable; the other seats get links")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this computer only)")
    serve.add_argument("--port", type=whole_number(0), default=8000, metavar="P",
                       help="port to listen on (default 8000; 0 picks a free one)")
    serve.add_argument("--seed", type=whole_number(0), metavar="S", help="deal seed (default: a random one)")
    serve.add_argument("--save", metavar="FILE",
                       help="where the game is saved after every action (default: <game>-<time>.save.json in "
                            "this user's state folder, $XDG_STATE_HOME/ribbit/serve or ~/.local/state/ribbit/serve; "
                            "with --resume, the resumed file); the seats' links go to FILE.seats.json")
    serve.add_argument("--resume", metavar="FILE", help="go on with a saved game, with the same links and bots "
                                                         "(from FILE.seats.json, which must be beside it)")
    serve.add_argument("--bot-delay", type=float, default=0.5, metavar="SECONDS",
                       help="pause between bot moves, so people can follow them (default 0.5)")
    serve.add_argument("--tables", metavar="DIR",
                       help="start a lobby (as a folder of definitions does): many tables, started from the browser, "
                            "saved in and resumed from the folder DIR (default: a folder named after the games' "
                            "folder in $XDG_STATE_HOME/ribbit/tables or ~/.local/state/ribbit/tables)")
    serve.add_argument("--max-tables", type=whole_number(1), default=100, metavar="N",
                       help="lobby: at most N tables (default 100)")
    serve.add_argument("--create-per-minute", type=whole_number(1), default=20, metavar="N",
                       help="lobby: at most N new tables a minute (default 20)")


def listen(args):
    """The listening socket of ``serve`` (one game or a lobby), this computer's address on its network (or
    None) and the base URL of the links: a port that cannot be had is a usage error, never a traceback."""
    from .web.app import base_url, bind, network_address

    try:
        sock = bind(args.host, args.port)
    except (OSError, OverflowError) as exc:
        raise UsageError(f"cannot listen on {args.host} port {args.port}: {getattr(exc, 'strerror', None) or exc}") \
            from None
    address = network_address(args.host)
    return sock, address, base_url(args.host, sock.getsockname()[1], address)


def run_serve(args) -> int:
    from . import web

    if not web.available():
        raise UsageError(web.MISSING)
    from .web.app import run

    if not 0 <= args.bot_delay <= 60:
        raise UsageError(f"--bot-delay {args.bot_delay}: expected a number of seconds from 0 to 60")
    if Path(args.file).is_dir() or args.tables:
        return run_lobby(args)
    game = load(args)
    table, save = _resumed_table(args, game) if args.resume else _new_table(args, game)
    try:
        table.write_save()
        table.write_seats()
    except OSError as exc:
        raise UsageError(f"--save {save}: cannot write the save: {exc.strerror or exc}") from None
    sock, address, base = listen(args)
    say(f"{game.name}, {table.players} players: open one link per person (keep them private).")
    say_links_address(args.host, address)
    for who, link in table.links(base):
        say(f"  {who:<11} {link}")
    say(f"Saved after every action to {save} (links in {save}.seats.json). Ctrl-C stops; "
        f"--resume {shlex.quote(str(save))} goes on.")
    sys.stdout.flush()
    run([table], sock)
    return EXIT_OK


def _resumed_table(args, game):
    """``serve --resume FILE``: (the table as saved, with its links and bots; where it goes on saving)."""
    from .web.table import Table

    if args.players is not None or args.seat or args.seed is not None:
        raise UsageError("--resume takes the players, seats and seed from the save; "
                         "leave out --players, --seat and --seed")
    save = args.save or args.resume
    refuse_save_targets(save, args, game)
    return Table.resume(game, args.resume, save, bot_delay=args.bot_delay), save


def _new_table(args, game):
    """``serve GAME --players N``: (a new table with the ``--seat`` bots; where it saves, by default named
    after the game and the time)."""
    from .web.table import Table, parse_seat_specs

    if args.players is None:
        raise UsageError("--players N is needed (or --resume FILE; or --tables DIR for a lobby, where "
                         "tables of this game are started from the browser)")
    check_players(game, args.players)
    try:
        bots = parse_seat_specs(args.seat, args.players)
        for name, _options in bots.values():
            make_agent(name)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    save = args.save or str(default_save(game))
    refuse_save_targets(save, args, game)
    try:
        return Table(game, args.players, bots, save, seed=args.seed, bot_delay=args.bot_delay), save
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def state_folder() -> Path | None:
    """This user's folder for what must outlive a run (``$XDG_STATE_HOME/ribbit``, else ``~/.local/state/ribbit``,
    as the XDG base directories say); None when there is no home to put it in."""
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):  # unset, empty or relative: the specification says to ignore it
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".local", "state")
    return Path(base) / "ribbit"


def private_state_folder(name: str, option: str) -> Path:
    """``name`` in this user's state folder, made (readable by this user only) if it is not there: a server's
    saves hold every seat's link, and must outlive the run and the folder it was started in."""
    base = state_folder()
    if base is None:
        raise UsageError(f"{option} is needed: there is no state folder for this user to keep it in "
                         "(neither XDG_STATE_HOME nor a home folder is set)")
    folder = base / name
    try:
        base.parent.mkdir(parents=True, exist_ok=True)
        for path in (base, folder):
            path.mkdir(mode=0o700, exist_ok=True)
        if not folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "not a folder")
    except OSError as exc:
        raise UsageError(f"cannot use {folder} for the saves: {exc.strerror or exc}; give {option} "
                         "elsewhere") from None
    return folder


def default_save(game) -> Path:
    """Where a new game is saved when ``--save`` is not given: ``<game>-<time>.save.json`` in this user's state
    folder (never the current folder, which may be a checkout or shared), a number added if that name is taken."""
    from .web.table import seats_path

    slug = re.sub(r"[^a-z0-9]+", "-", game.name.lower()).strip("-") or "game"
    folder = private_state_folder("serve", "--save FILE")
    stem = f"{slug}-{time.strftime('%Y%m%d-%H%M%S')}"
    for number in range(1, 1000):
        save = folder / f"{stem}{'' if number == 1 else f'-{number}'}.save.json"
        if not os.path.lexists(save) and not os.path.lexists(seats_path(save)):
            return save
    raise UsageError(f"{folder}: too many games were started this second; give --save FILE")


def default_tables_folder(games) -> Path:
    """A lobby's tables folder when ``--tables`` is not given: in this user's state folder, one per folder of
    games (its name and a hash of its full path), so the same command resumes the same tables from anywhere."""
    where = Path(games).resolve()
    slug = re.sub(r"[^A-Za-z0-9]+", "-", where.name).strip("-")[:40] or "games"
    digest = hashlib.sha256(os.fsencode(where)).hexdigest()[:10]
    return private_state_folder("tables", "--tables DIR") / f"{slug}-{digest}"


def say_links_address(host: str, address) -> None:
    """Listening on every interface: say which address the links use (or that there is none to use)."""
    from .web.app import WILDCARDS

    if host in WILDCARDS:  # every interface: the links use this computer's address on its network
        say(f"Listening on every interface of this computer; the links use {address}, its address on its network."
            if address else "Listening on every interface, but this computer has no network address to put in "
            "the links: they say 127.0.0.1, which works here only; elsewhere replace it with this computer's "
            "address.")


def run_lobby(args) -> int:
    """``ribbit serve FOLDER``: a lobby of the folder's games (or of one game), its tables in ``--tables``."""
    from .web.app import run

    _refuse_table_options(args)
    catalog = _catalog(args.file)
    folder = args.tables or str(default_tables_folder(args.file))
    lobby = _open_lobby(args, catalog, folder)
    tables = lobby.resume_all()
    for problem in lobby.problems:
        say(f"ribbit serve: {problem}", sys.stderr)
    sock, address, base = listen(args)
    names = ", ".join(offer.game.name for offer in catalog.offers.values())
    say(f"Lobby of {names}: open {base}/lobby to start a table (its seat links are shown there).")
    say_links_address(args.host, address)
    say(f"Tables are saved after every action in {folder} ({len(tables)} resumed; at most {args.max_tables}). "
        "Ctrl-C stops; the same command resumes them all, with the same links.")
    sys.stdout.flush()
    run(tables, sock, lobby)
    return EXIT_OK


def _refuse_table_options(args) -> None:
    """The options of one table from the command line mean nothing to a lobby: say where they are chosen."""
    given = [option for option, value in (("--players", args.players), ("--seat", args.seat), ("--seed", args.seed),
                                          ("--save", args.save), ("--resume", args.resume),
                                          ("--variant", args.variant)) if value]
    if given:
        raise UsageError(f"{', '.join(given)}: a lobby's tables are chosen in the browser (players, bots, variants) "
                         "and saved in --tables; to host one game from the command line, give a game file and "
                         "--players N")


def _catalog(path):
    """The games a lobby offers (its problems said on stderr); a folder that cannot be read is a usage error."""
    from .web.lobby import Catalog, LobbyError

    try:
        catalog = Catalog.scan(path)
    except LobbyError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    for problem in catalog.problems:
        say(f"ribbit serve: {problem}", sys.stderr)
    return catalog


def _open_lobby(args, catalog, folder: str):
    """The lobby, its tables folder ready: never an input of the run, and one it can write in."""
    from .web.lobby import Lobby

    lobby = Lobby(catalog, folder, max_tables=args.max_tables, per_minute=args.create_per_minute,
                  bot_delay=args.bot_delay)
    for path in (args.file, *(str(offer.path) for offer in catalog.offers.values())):
        if same_file(folder, path):
            raise UsageError(f"--tables {folder}: that is {path}, an input of this run; name another folder")
    try:
        lobby.open_folder()
    except OSError as exc:
        raise UsageError(f"--tables {folder}: cannot use this folder for the tables: {exc.strerror or exc}") from None
    return lobby


def refuse_save_targets(save: str, args, game) -> None:
    """The save and its seats file replace what is there: neither may be a special file or an input of the run.

    Resuming in place (the default) rewrites the resumed save and its seats file, each with its own kind of
    content; any other overlap (``--save g.yaml`` beside a definition named ``g.yaml.seats.json``, a save
    named after the resumed seats file) would destroy an input.
    """
    from .web.table import seats_path

    side = seats_path(Path(save))
    resumed = [] if not args.resume else [args.resume, seats_path(Path(args.resume))]
    in_place = bool(resumed) and same_file(save, args.resume)
    for path, what in ((save, "the save"), (side, "the seats file")):
        refuse_special_output(f"--save {save}", path, what)
        refuse_overwriting_inputs(f"--save {save}: {what}", str(path), args, game, () if in_place else resumed)


# ---------------------------------------------------------------- compare, replay
CONFIG_HELP = ("a configuration: key=value items separated by ';': name=TEXT, players=N, variant=V (repeatable, "
               "as --variant), bot=SEAT=NAME[:k=v,...] or bot=NAME[:k=v,...] for every seat (repeatable); "
               "e.g. --config 'name=mine; variant=NAME:key=value'. Give two or more; '' is the game "
               "as it is")


def add_compare_and_replay(commands, command) -> None:
    comp = command("compare", "play several configurations of a game on the same seeds and compare them, "
                   "with confidence intervals", run_compare)
    comp.add_argument("--config", metavar="SPEC", action="append", default=[], help=CONFIG_HELP)
    comp.add_argument("--players", type=whole_number(1), metavar="N",
                      help="number of players of every configuration that does not say players=")
    comp.add_argument("--bot", metavar="SPEC", action="append", default=[],
                      help="the bots of every configuration that does not say: NAME for every seat or SEAT=NAME "
                           "(repeatable; default random)")
    comp.add_argument("--games", type=whole_number(1), required=True, metavar="G",
                      help="games per configuration")
    comp.add_argument("--seed", type=whole_number(0), default=0, metavar="S",
                      help="game i of every configuration is dealt with seed S+i (default 0)")
    comp.add_argument("--jobs", type=whole_number(1), default=1, metavar="J",
                      help=f"worker processes, at most one per CPU ({available_cpus()} here) "
                           "(results do not depend on it)")
    comp.add_argument("--max-decisions", type=whole_number(1), default=MAX_DECISIONS, metavar="D",
                      help=f"stop a game still running after D decisions (default {MAX_DECISIONS:,})")
    comp.add_argument("--json", metavar="OUT", help="also write the comparison as JSON ('-' for stdout only)")
    comp.add_argument("--coverage", action="store_true",
                      help="also count, per configuration, how often each procedure, hook, trigger, card ability, "
                           "listener and menu option ran or was chosen (see simulate --coverage)")
    comp.add_argument("--plot", metavar="DIR", help="also draw figures (PNG and SVG) in the folder DIR "
                      "(needs matplotlib: pip install 'ribbit[plot]')")
    add_backend_options(comp)

    replay = commands.add_parser("replay", help="step through a recorded game (a `ribbit play` log)",
                                 description="Step through a recorded game (a `ribbit play` JSON-lines log) as "
                                             "one seat saw it: n or Enter next, p previous, g N to jump to "
                                             "decision N, q to quit.")
    replay.add_argument("log", metavar="LOG", help="the game log (JSON lines, from `ribbit play --log`)")
    replay.add_argument("--seat", type=whole_number(1), metavar="N",
                        help="show the game as seat N saw it (default: as a spectator)")
    replay.add_argument("--to", type=whole_number(0), metavar="N",
                        help="print the position after decision N and stop (0: the start)")
    replay.add_argument("--check", action="store_true",
                        help="check that the log replays to the outcome it records: exit 0 if it does, 1 if not, "
                             "2 if the log cannot be checked (a person's log with another seat's hidden choice "
                             "stops before the end: use a --log-omniscient log)")
    replay.add_argument("--game", metavar="FILE",
                        help="the game definition to replay with, instead of the file the log names")
    replay.set_defaults(run=run_replay, variant=[])


def check_plot_folder(folder) -> None:
    """Before any game is played: matplotlib is there and the folder can take the figures."""
    if not folder:
        return
    from .plots import _matplotlib

    _matplotlib()
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise UsageError(f"--plot {folder}: that is a file, not a folder; name a folder for the figures")
    if not path.exists() and not path.resolve().parent.is_dir():
        raise UsageError(f"--plot {folder}: the folder {str(path.parent)!r} does not exist")


def run_compare(args) -> int:
    from .compare import adjust, compare, comparison_measures, load_games, report
    from .coverage import COUNTING
    from .render import render_comparison

    configs = _configurations(args)
    games = load_games(args.file, configs, COUNTING if args.coverage else None)
    for number, (game, config) in enumerate(zip(games, configs), 1):
        if not game.min_players <= config.players <= game.max_players:
            raise UsageError(f"--config {number} ({config.name!r}): {game.name} is for "
                             f"{game.min_players}-{game.max_players} players, not {config.players}")
    check_plot_folder(args.plot)
    to_stdout = args.json == "-"
    output = json_output(args.json, [(argparse.Namespace(file=args.file), game) for game in games], "the comparison")
    console = make_console()
    try:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        show = console.is_terminal and not to_stdout
        started = time.perf_counter()
        with Progress(*columns, console=console, transient=True, disable=not show, auto_refresh=False) as progress:
            task = progress.add_task(f"{games[0].name}, {len(configs)} configurations", total=args.games)
            result = compare(args.file, configs, args.games, seed=args.seed, jobs=args.jobs, loaded=games,
                             max_decisions=args.max_decisions, backend=args.backend, address=args.address,
                             coverage=args.coverage,
                             progress=lambda done: progress.update(task, completed=done, refresh=True))
        elapsed = time.perf_counter() - started
        configurations = report(result, measures=comparison_measures(games))
        document = {"game": games[0].name, "file": str(args.file), "games": args.games, "seed": args.seed,
                    "max_decisions": args.max_decisions, "confidence": 0.95,
                    # each difference's "p_holm": its p-value adjusted by Holm's method within its family (table)
                    "multiple_comparisons": {"method": "holm", "comparisons": adjust(configurations)},
                    "configurations": configurations}
        commit_json(output, document)
    finally:
        if output is not None:
            output.discard()
    figures = _plot_comparison(args, games, configs, result, configurations)
    if to_stdout:
        print(json.dumps(document, indent=2))
        return EXIT_OK
    render_comparison(console, games[0].name, configurations, args.games, args.seed, elapsed=elapsed)
    _show_comparison_extras(console, args, configs, result, figures)
    return EXIT_OK


def _configurations(args) -> list:
    """The ``--config`` texts read (two or more, their names distinct), after the backend options are checked."""
    from .compare import ConfigError, check_names, parse_config

    if len(args.config) < 2:
        raise UsageError("give two or more configurations to compare, each as --config SPEC (e.g. --config '' "
                         "--config 'variant=NAME'); '' is the game as it is")
    check_backend_options(args)
    refuse_coverage_off_process(args)
    try:
        configs = [parse_config(text, number, args.players, args.variant, args.bot)
                   for number, text in enumerate(args.config, 1)]
        check_names(configs)
    except ConfigError as exc:
        raise UsageError(exc.message) from None
    return configs


def _plot_comparison(args, games, configs, result, configurations) -> list:
    """With ``--plot``: the comparison's figures, drawn in its folder (their files)."""
    if not args.plot:
        return []
    from .compare import comparison_measures
    from .plots import plot_runs

    runs = [(c.name, s) for c, s in zip(configs, result.stats)]
    return _drawn(args, lambda: plot_runs(args.plot, games[0].name, runs, measures=comparison_measures(games),
                                          configurations=configurations))


def _show_comparison_extras(console, args, configs, result, figures: list) -> None:
    """After the comparison's tables: each configuration's rule coverage, and what the run wrote."""
    if args.coverage:
        from .render import render_coverage

        for config, stats in zip(configs, result.stats):
            render_coverage(console, stats.coverage, stats.games, f"Rule coverage, {config.name}")
    if args.json:
        console.print(f"Comparison written to {args.json}", markup=False)
    if figures:
        console.print(f"Figures written to {args.plot}: {', '.join(Path(f).name for f in figures)}", markup=False)


EXIT_CHECK_FAILED = 1


def run_replay(args) -> int:
    from .log_replay import Replay, hidden_message, load_logged_game, read_log
    from .render import show_position
    from .log_replay import check as check_log

    log = read_log(args.log)
    players = log.start["players"]
    if args.seat is not None and args.seat > players:
        raise UsageError(f"--seat {args.seat}: the game of this log has {players} seats (1 to {players})")
    seat = None if args.seat is None else args.seat - 1
    game, scenario = load_logged_game(log, args.game)
    replay = Replay(log, game, scenario, strict=not args.check)
    console = make_console()
    if args.check:
        problems = check_log(log, replay)
        if problems:
            say(f"{args.log}: does not replay to what it records: " + "; ".join(problems), sys.stderr)
            return EXIT_CHECK_FAILED
        ending = "its recorded result" if log.end is not None else \
            f"where it stopped ({log.stop[0]})" if log.stop else "its last action (the log has no end record)"
        say(f"OK {args.log}: {game.name}, {players} players, seed {log.seed}: {replay.decisions} decisions replay "
            f"to {ending}")
        return EXIT_OK
    hidden = log.hidden_at()
    if args.to is not None:
        if args.to > replay.decisions:
            if hidden is not None and args.to >= hidden:
                raise UsageError(f"--to {args.to}: " + hidden_message(log, hidden))
            raise UsageError(f"--to {args.to}: the log holds {replay.decisions} decisions (0 to {replay.decisions})")
        show_position(console, replay, replay.state_at(args.to), args.to, seat)
        return EXIT_OK
    return step_through(console, replay, seat, hidden_message(log, hidden) if hidden else None)


def step_through(console, replay, seat, hidden: str | None) -> int:
    """The interactive replay: n/Enter next, p previous, g N jump, q quit (end of input quits too)."""
    from .render import show_position

    position, last = 0, replay.decisions
    while True:
        show_position(console, replay, replay.state_at(position), position, seat)
        if position == last and hidden:
            console.print(f"The replay stops here: {hidden}.", markup=False, style="yellow")
        while True:
            try:
                answer = input(f"[{position}/{last}] n/Enter next, p previous, g N go to, q quit: ").strip().lower()
            except (EOFError, RuntimeError, ValueError, OSError):
                return EXIT_OK
            echo_piped_answer(answer)
            if answer in ("", "n"):
                target = position + 1
            elif answer == "p":
                target = position - 1
            elif answer in ("q", "quit"):
                return EXIT_OK
            elif re.fullmatch(r"g\s*[0-9]{1,9}", answer):
                target = int(answer[1:])
            else:
                console.print("Answer n (or Enter), p, g N or q.", markup=False, style="yellow")
                continue
            if 0 <= target <= last:
                position = target
                break
            console.print(f"There is no decision {target}: the replay has decisions 0 to {last}.", markup=False,
                          style="yellow")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
