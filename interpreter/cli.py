"""The ``ribbit`` command: validate, summarise, play and simulate game definitions.

Exit status: 0 ok, 1 reserved (the game or a check said no), 2 bad input (a
definition, variant, argument or file that is wrong), 130 interrupted.  Every
user mistake is reported as one located paragraph on stderr, never a
traceback.  ``main(argv)`` returns the status instead of exiting, so tests run
the command in-process.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

from .agents import AGENTS, make_agent
from .errors import RibbitError
from .loader import load_game
from .render import make_console, render_result, render_rules, render_stats, render_view
from .sim import bot_seed, simulate

EXIT_OK, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 2, 130


class UsageError(RibbitError):
    """Arguments that parse but do not fit the game (too many players, a seat that does not exist...)."""


class Interrupted(Exception):
    """The person at the terminal left (Ctrl-C or end of input)."""


# ---------------------------------------------------------------- arguments
def whole_number(minimum: int | None = None):
    """An argparse type: an integer, at least ``minimum``, with a message that says so."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
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

    play = command("play", "play a game at the terminal against random bots (or watch bots play)", run_play)
    play.add_argument("--players", type=whole_number(1), required=True, metavar="N", help="number of players")
    play.add_argument("--human", type=whole_number(1), action="append", default=[], metavar="SEAT",
                      help="a seat (1-based) played at the terminal; repeatable; default: all seats are bots")
    play.add_argument("--bot", choices=sorted(AGENTS), default="random", help="the bot for the other seats")
    play.add_argument("--seed", type=whole_number(0), metavar="S", help="deal seed (default: a random one, shown)")
    play.add_argument("--log", metavar="PATH",
                      help="JSON-lines game log (default: ribbit-<game>-seed<S>.jsonl here; '-' for none)")
    play.add_argument("--log-omniscient", action="store_true",
                      help="write every seat's narration and every choice to the log even when a human plays "
                           "(by default the log holds only what the human seats may see)")

    sim = command("simulate", "play many bot games and print statistics", run_simulate)
    sim.add_argument("--players", type=whole_number(1), required=True, metavar="N", help="number of players")
    sim.add_argument("--games", type=whole_number(1), required=True, metavar="G", help="number of games")
    sim.add_argument("--seed", type=whole_number(0), default=0, metavar="S",
                     help="game i is dealt with seed S+i (default 0)")
    sim.add_argument("--jobs", type=whole_number(1), default=1, metavar="J",
                     help="worker processes (results do not depend on it)")
    sim.add_argument("--bot", choices=sorted(AGENTS), default="random", help="the bot for every seat")
    sim.add_argument("--json", metavar="OUT", help="also write the statistics as JSON ('-' for stdout only)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed usage and a message on stderr
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    try:
        return args.run(args)
    except UsageError as exc:
        print(f"ribbit {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RibbitError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except (KeyboardInterrupt, Interrupted):
        print("\nInterrupted.", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:  # output that cannot be written (full disk...); a closed pipe is handled by rich
        print(f"ribbit {args.command}: error: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


def load(args):
    return load_game(args.file, variants=args.variant, verbose=getattr(args, "verbose", False))


def check_players(game, players: int) -> None:
    if not game.min_players <= players <= game.max_players:
        raise UsageError(f"--players {players}: {game.name} is for {game.min_players}-{game.max_players} players")


# ---------------------------------------------------------------- validate, rules
def run_validate(args) -> int:
    game = load(args)
    phases = len(game.source.data.get("flow", []))
    players = f"{game.min_players}" if game.min_players == game.max_players \
        else f"{game.min_players}-{game.max_players}"
    parts = [f"{players} players", f"{len(game.kinds)} components ({len(game.card_names)} cards)",
             f"{len(game.zones)} zones", f"{len(game.procedures)} procedures", f"{len(game.functions)} functions",
             f"{phases} phase{'s' if phases != 1 else ''}"]
    on = f" (a variant of {game.file})" if Path(game.file).resolve() != Path(args.file).resolve() else ""
    variants = f" with {', '.join(game.variants)}" if game.variants else ""
    print(f"OK {args.file}{on}{variants}: {game.name}: {', '.join(parts)}")
    return EXIT_OK


def run_rules(args) -> int:
    render_rules(make_console(), load(args))
    return EXIT_OK


# ---------------------------------------------------------------- play
class GameLog:
    """A JSON-lines record of a game: header, actions and narration, then the result.

    Written line by line, so an interrupted game still ends with a usable record.
    Seats are 1-based, as on the command line.
    """

    def __init__(self, path: str | None):
        self.path = path
        self.file = None
        if path is not None:
            try:
                self.file = open(path, "w", encoding="utf-8", buffering=1)  # line by line
            except OSError as exc:
                raise UsageError(f"--log {path}: cannot write the game log: {exc.strerror or exc}") from None

    def write(self, **record) -> None:
        if self.file is not None:
            self.file.write(json.dumps(record, ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def default_log_path(game, seed: int) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", game.name.lower()).strip("-") or "game"
    return f"ribbit-{slug}-seed{seed}.jsonl"


def ask_human(console, seat: int, prompt: str, legal: list[str]) -> str:
    """Read a choice at the terminal: an option's number or its exact text; re-ask until valid."""
    while True:
        try:
            answer = input(f"player {seat + 1}, {prompt or 'choose'} [1-{len(legal)}]: ").strip()
        except EOFError:
            raise Interrupted() from None
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        for option in legal:
            if answer.lower() == option.lower():
                return option
        console.print(f"Please answer with a number from 1 to {len(legal)} (or an option's text).",
                      markup=False, style="yellow")


def run_play(args) -> int:
    game = load(args)
    check_players(game, args.players)
    for seat in args.human:
        if seat > args.players:
            raise UsageError(f"--human {seat}: there are only {args.players} seats (numbered 1 to {args.players})")
    humans = {seat - 1 for seat in args.human}
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    path = default_log_path(game, seed) if args.log is None else None if args.log == "-" else args.log
    console = make_console()
    state = game.new_game(args.players, seed=seed, log=True)
    bots = {seat: make_agent(args.bot, bot_seed(seed, seat)) for seat in range(args.players) if seat not in humans}
    log = GameLog(path)
    audience = narration_audience(humans)
    seats = ", ".join(f"player {s + 1}: {'human' if s in humans else args.bot}" for s in range(args.players))
    console.print(f"{game.name}, {args.players} players ({seats}), seed {seed}"
                  + (f"; log: {path}" if path else ""), markup=False)
    try:
        log.write(event="start", format="ribbit-log/1", game=game.name, file=str(args.file), variants=args.variant,
                  players=args.players, seed=seed, humans=sorted(s + 1 for s in humans), bot=args.bot,
                  narration=audience_name(audience if humans and not args.log_omniscient else OMNISCIENT))
        PlaySession(console, game, state, humans, bots, log, args.log_omniscient).run()
    except (KeyboardInterrupt, Interrupted):
        log.write(event="interrupted", decisions=len(state.history))
        raise
    finally:
        log.close()
    return EXIT_OK


OMNISCIENT = "omniscient"


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
                render_view(self.console, self.game, state.view(seat), seat, self.news)
                self.news = []
                action = ask_human(self.console, seat, state.prompt(), legal)
            else:
                bot = self.bots[seat]
                action = bot.choose(state.view(seat) if bot.uses_view else None, legal)
            try:
                state.apply(seat, action)
            except RibbitError as exc:  # a rule failed: record what was tried, so the failure can be replayed
                self.log.write(event="error", turn=turn, player=seat + 1, action=action, message=str(exc))
                raise
            if secret and self.log_audience != OMNISCIENT and seat != self.log_audience:
                self.log.write(event="action", turn=turn, player=seat + 1, action=None, secret=True)
            else:
                self.log.write(event="action", turn=turn, player=seat + 1, action=action)
            if seat not in self.humans:
                self.news.append(("action", f"player {seat + 1}: " + ("(a secret choice)" if secret else action)))
            self.narrate()
        self.finish()

    def narrate(self) -> None:
        """Pass new narration lines on: to the log, and to the screen (now if all bots, else as news).

        The screen shows the audience's narration (see :func:`narration_audience`); the log file holds
        the same unless it is omniscient, and then records each audience's text of a line that differs.
        """
        state, turn = self.state, self.state.gv.get("turn")
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

    def text_for(self, audience, omniscient: str, texts):
        """A line as ``audience`` reads it (None: they do not receive it)."""
        if audience == OMNISCIENT or texts is None:
            return omniscient
        return texts[self.state.n if audience is None else audience]

    def finish(self) -> None:
        state = self.state
        if self.humans:
            self.console.rule("game over")
            render_view(self.console, self.game, state.view(None), None, self.news)
        scores, winners = state.scores(), state.winners()
        self.log.write(event="end", scores=scores, winners=[w + 1 for w in winners], returns=state.returns(),
                       ended_by_end_game=state.forced_winners is not None, decisions=len(state.history),
                       turns=state.gv.get("turn"))
        render_result(self.console, self.game, state)


# ---------------------------------------------------------------- simulate
def run_simulate(args) -> int:
    game = load(args)
    check_players(game, args.players)
    to_stdout = args.json == "-"
    if args.json and not to_stdout and not Path(args.json).resolve().parent.is_dir():
        raise UsageError(f"--json {args.json}: the folder {str(Path(args.json).parent)!r} does not exist")
    console = make_console()
    started = time.perf_counter()
    stats = _simulate_with_progress(args, game, console, show=console.is_terminal and not to_stdout)
    elapsed = time.perf_counter() - started
    report = {"game": game.name, "file": str(args.file), "variants": args.variant, "players": args.players,
              "seed": args.seed, "bot": args.bot, **stats.to_json()}
    if to_stdout:
        print(json.dumps(report, indent=2))
        return EXIT_OK
    if args.json:  # written before the tables, so a closed pipe on stdout cannot lose it
        try:
            Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"--json {args.json}: cannot write the statistics: {exc.strerror or exc}") from None
    render_stats(console, game, stats, args.players, elapsed)
    if args.json:
        console.print(f"Statistics written to {args.json}", markup=False)
    return EXIT_OK


def _simulate_with_progress(args, game, console, show: bool):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    # no refresh thread (auto_refresh=False): worker processes may be forked while the bar is shown
    with Progress(*columns, console=console, transient=True, disable=not show, auto_refresh=False) as progress:
        task = progress.add_task(f"{game.name}, {args.players} players", total=args.games)
        return simulate(args.file, args.players, args.games, seed=args.seed, jobs=args.jobs, bot=args.bot,
                        variants=args.variant, game=game,
                        progress=lambda done: progress.update(task, completed=done, refresh=True))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
