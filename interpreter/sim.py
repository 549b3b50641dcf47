"""Batch simulation: many bot games, folded into running statistics.

Game ``i`` of a run with seed ``S`` is dealt with seed ``S + i`` and its bots
are seeded from that game seed and their seat, so a run's statistics depend
only on the seed, never on how the games are split across processes, and any
game of a run can be watched again with ``ribbit play --seed S+i``.  Statistics are
merged exactly (integers, fractions, histograms), so the order in which chunks
finish changes nothing either.  Only running totals are kept: memory stays
flat however many games are played.
"""

from __future__ import annotations

import functools
import gc
import itertools
import multiprocessing
import os
import signal
from dataclasses import dataclass, field
from fractions import Fraction

from .agents import build_agents, parse_bot_specs, seat_seed
from .errors import DefinitionError, Location, RibbitError
from .runs import SimulationError, available_cpus, chunks, load_definitions  # noqa: F401 (re-exported)

MAX_DECISIONS = 10_000  # the default cap: a bot game still running after this many decisions is stopped


# ---------------------------------------------------------------- running statistics
@dataclass
class Tally:
    """Running statistics of whole numbers: count, sum, extremes and a histogram for the median."""

    count: int = 0
    total: int = 0
    minimum: int | None = None
    maximum: int | None = None
    histogram: dict = field(default_factory=dict)  # value -> how many times it was seen

    def add(self, value: int) -> None:
        value = int(value)
        self.count += 1
        self.total += value
        self.minimum = value if self.minimum is None else min(self.minimum, value)
        self.maximum = value if self.maximum is None else max(self.maximum, value)
        self.histogram[value] = self.histogram.get(value, 0) + 1

    def merge(self, other: "Tally") -> None:
        self.count += other.count
        self.total += other.total
        for bound, pick in (("minimum", min), ("maximum", max)):
            mine, theirs = getattr(self, bound), getattr(other, bound)
            setattr(self, bound, theirs if mine is None else mine if theirs is None else pick(mine, theirs))
        for value, times in other.histogram.items():
            self.histogram[value] = self.histogram.get(value, 0) + times

    @property
    def mean(self) -> float | None:
        return self.total / self.count if self.count else None

    @property
    def median(self) -> float | None:
        """The middle value (the mean of the two middle values for an even count)."""
        if not self.count:
            return None
        middle = [(self.count - 1) // 2, self.count // 2]
        found, seen = [], 0
        for value in sorted(self.histogram):
            seen += self.histogram[value]
            while middle and middle[0] < seen:
                found.append(value)
                middle.pop(0)
        return (found[0] + found[1]) / 2

    def to_json(self) -> dict:
        return {"mean": self.mean, "min": self.minimum, "median": self.median, "max": self.maximum,
                "histogram": {str(v): self.histogram[v] for v in sorted(self.histogram)}}


# The measures of a game's length besides its decisions, by the kind of phase that counts them: a turn
# phase counts game.turn, a round phase game.round.  A game reports those its flow has (length_measures).
LENGTHS = {"turns": "turn", "rounds": "round"}


def length_measures(game) -> tuple:
    """``("turns",)``, ``("rounds",)`` or both: what the game's flow counts (its turn and round phases), in that
    order.  A round-based game has no turns: reporting 0 turns per game would say something false."""
    flow = game.source.data.get("flow") or []
    kinds = {key for phase in flow if isinstance(phase, dict) for key in ("turn", "round") if key in phase}
    return tuple(name for name, key in LENGTHS.items() if key in kinds)


# How a game ended (``state.ended_by``) -> its key in the statistics and the JSON report.
ENDINGS = {"end game": "end_game", "flow": "flow", "decision cap": "decision_cap"}


@dataclass
class SimStats:
    """Everything measured over a batch of games; chunks merge into one."""

    players: int
    games: int = 0
    win_shares: list = field(default_factory=list)  # per seat: sum of state.returns(), as exact fractions
    scores: list = field(default_factory=list)  # per seat: Tally of final scores (games that finished only)
    decisions: Tally = field(default_factory=Tally)  # actions applied per game
    turns: Tally = field(default_factory=Tally)  # game.turn at the end of each game
    rounds: Tally = field(default_factory=Tally)  # game.round at the end of each game (round phases)
    endings: dict = field(default_factory=dict)  # ENDINGS key -> games that ended that way
    no_winner: int = 0  # games that finished with nobody winning (stopped games not counted)
    shared_victories: int = 0  # games with more than one winner
    coverage: object = None  # a coverage.RuleCoverage when the run counts its rules (simulate --coverage), else None

    def __post_init__(self):
        self.win_shares = self.win_shares or [Fraction(0)] * self.players
        self.scores = self.scores or [Tally() for _ in range(self.players)]
        self.endings = {key: self.endings.get(key, 0) for key in ENDINGS.values()}

    def record(self, state) -> None:
        """Fold one game into the totals: finished, or stopped at the decision cap (``state.abandon()``)."""
        self.games += 1
        ending = ENDINGS[state.ended_by]
        self.endings[ending] += 1
        self.decisions.add(len(state.history))
        self.turns.add(state.gv.get("turn", 0))
        self.rounds.add(state.gv.get("round", 0))
        if ending == "decision_cap":  # unfinished: no winner, no final score
            return
        winners = state.winners()
        for seat in winners:
            self.win_shares[seat] += Fraction(1, len(winners))
        for seat, score in enumerate(state.scores()):
            self.scores[seat].add(score)
        self.no_winner += not winners
        self.shared_victories += len(winners) > 1

    def merge(self, other: "SimStats") -> None:
        self.games += other.games
        self.win_shares = [a + b for a, b in zip(self.win_shares, other.win_shares)]
        for mine, theirs in zip(self.scores, other.scores):
            mine.merge(theirs)
        self.decisions.merge(other.decisions)
        self.turns.merge(other.turns)
        self.rounds.merge(other.rounds)
        for key, games in other.endings.items():
            self.endings[key] += games
        self.no_winner += other.no_winner
        self.shared_victories += other.shared_victories
        if other.coverage is not None:
            if self.coverage is None:
                from .coverage import RuleCoverage

                self.coverage = RuleCoverage()
            self.coverage.merge(other.coverage)

    def win_share(self, seat: int) -> float:
        return float(self.win_shares[seat] / self.games) if self.games else 0.0

    def share(self, games: int) -> float:
        """``games`` as a fraction of all the games played."""
        return games / self.games if self.games else 0.0

    def to_json(self, measures=tuple(LENGTHS)) -> dict:
        """The statistics as numbers; ``measures`` (see :func:`length_measures`) are the lengths reported."""
        def count(games):
            return {"games": games, "share": self.share(games)}
        return {
            "games": self.games,
            "seats": [{"seat": seat + 1, "win_share": self.win_share(seat),
                       "wins": _number(self.win_shares[seat]), "score": self.scores[seat].to_json()}
                      for seat in range(self.players)],
            "decisions": self.decisions.to_json(),
            **{name: getattr(self, name).to_json() for name in measures},
            "ended_by": {key: count(games) for key, games in self.endings.items()},
            "no_winner": count(self.no_winner),
            "shared_victories": count(self.shared_victories),
            **({"coverage": self.coverage.to_json(self.games)} if self.coverage is not None else {}),
        }


def _number(value: Fraction):
    """A whole number as an int, anything else (a share of shared victories) as a float."""
    return int(value) if value.denominator == 1 else float(value)


# ---------------------------------------------------------------- playing games
def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's seed from the game's seed and its seat (the same in every process and Python version)."""
    return seat_seed(game_seed, seat)


def play_out(state, agents, max_decisions: int = MAX_DECISIONS):
    """Let the agents (one per seat) play ``state`` to its end, or stop it after ``max_decisions``.

    A game still running after ``max_decisions`` decisions is abandoned (``state.abandon()``:
    over, nobody wins, ``state.ended_by == "decision cap"``) rather than played forever.
    A game of random bots only (each with a ``playout_rng``) is played by ``state.playout``, one
    generator per seat; otherwise an agent with ``act_id`` plays by option number (``state.apply_id``),
    the others by text.  All three draw alike and record the same history.
    """
    rngs = _playout_generators(agents, state.n)
    if rngs is not None:  # random bots only: played straight from the pending decisions, the same draws
        state.playout(rngs, decisions=max(0, max_decisions - len(state.history)))
        if not state.over:
            state.abandon()
        return state
    while not state.is_terminal():
        if len(state.history) >= max_decisions:
            state.abandon()
            break
        seat = state.current_players()[0]
        agent = agents[seat]
        by_number = getattr(agent, "act_id", None)  # the random bot: an option number, no text made
        if by_number is not None:
            state.apply_id(seat, by_number(state, seat))
        else:
            state.apply(seat, agent.act(state, seat))
    return state


def _playout_generators(agents, players: int) -> list | None:
    """Each seat's ``playout_rng`` when every seat is played by a random bot (see RandomAgent), else None."""
    rngs = []
    for seat in range(players):
        try:
            rng = getattr(agents[seat], "playout_rng", None)
        except (KeyError, IndexError):  # a seat without a bot: played (or refused) by the loop
            return None
        if rng is None:
            return None
        rngs.append(rng)
    return rngs


def bot_specs(bot, players: int) -> dict:
    """``bot`` as ``{player: (name, params)}``: a bot name for every seat, or already such a dict
    (from :func:`interpreter.agents.parse_bot_specs`)."""
    if type(bot) is dict:
        return bot
    return parse_bot_specs([bot], players)


def play_bot_game(game, players: int, seed: int, index: int, bot="random",
                  max_decisions: int = MAX_DECISIONS, coverage: bool = False, scenario=None):
    """Game ``index`` of a run: dealt with ``seed + index``, bots seeded from that and their seat.

    ``bot`` is a bot name for every seat or ``{player: (name, params)}`` (see :func:`bot_specs`).
    ``coverage``: the rules the bots run while they think are not counted (see interpreter/coverage.py).
    ``scenario`` (see :func:`interpreter.loader.scenario.load_scenario`): every game starts from it, not from setup.
    """
    game_seed = seed + index
    agents = build_agents(bot_specs(bot, players), game_seed)
    if coverage:
        from .coverage import Unwatched

        agents = {seat: Unwatched(agent) for seat, agent in agents.items()}
    try:
        return play_out(game.new_game(players, game_seed, log=False, scenario=scenario), agents, max_decisions)
    except RibbitError as exc:
        again = " --scenario SCENARIO" if scenario is not None else ""
        raise SimulationError(f"game {index + 1} of the run (seed {game_seed}; `ribbit play FILE --players "
                              f"{players} --seed {game_seed}{again}` plays it again) stopped: {exc}") from None


@dataclass(frozen=True)
class GameRecord:
    """One finished (or stopped) game, as numbers: what a comparison pairs game by game."""

    returns: tuple  # per seat: 1/k for each of k winners, else 0, as exact fractions (all 0 when stopped)
    scores: tuple | None  # per seat: the final score; None when the game was stopped at the decision cap
    ending: str  # an ENDINGS key: "end_game", "flow" or "decision_cap"
    decisions: int  # actions applied
    turns: int  # game.turn at the end
    rounds: int = 0  # game.round at the end

    @classmethod
    def of(cls, state) -> "GameRecord":
        ending = ENDINGS[state.ended_by]
        finished = ending != "decision_cap"
        winners = state.winners() if finished else []
        returns = tuple(Fraction(1, len(winners)) if seat in winners else Fraction(0) for seat in range(state.n))
        return cls(returns, tuple(state.scores()) if finished else None, ending, len(state.history),
                   state.gv.get("turn", 0), state.gv.get("round", 0))


def play_seated_game(game, players: int, seed: int, index: int, make_bot, max_decisions: int = MAX_DECISIONS):
    """Game ``index`` of a run with a bot per seat: ``make_bot(seat, game_seed)`` builds seat ``seat``'s bot.

    Dealt and seeded exactly as :func:`play_bot_game`, so a seat's bot sees the same game whatever the
    other seats play.
    """
    game_seed = seed + index
    agents = [make_bot(seat, game_seed) for seat in range(players)]
    try:
        return play_out(game.new_game(players, game_seed, log=False), agents, max_decisions)
    except RibbitError as exc:
        raise SimulationError(f"game {index + 1} of the run (seed {game_seed}; `ribbit play FILE --players "
                              f"{players} --seed {game_seed}` plays it again) stopped: {exc}") from None


def run_chunk(game, players: int, seed: int, start: int, stop: int, bot="random",
              max_decisions: int = MAX_DECISIONS, coverage: bool = False, scenario=None) -> SimStats:
    """Play games ``start`` to ``stop - 1`` of a run and return their statistics.

    ``coverage``: also count the runs of each rule (``game`` must be compiled to count them: see
    interpreter/coverage.py); the counters are read and set back to zero after each game.  ``scenario``: every
    game starts from it (see :func:`play_bot_game`)."""
    if not coverage:
        stats = SimStats(players)
        for index in range(start, stop):
            stats.record(play_bot_game(game, players, seed, index, bot, max_decisions, scenario=scenario))
        return stats
    from .coverage import RuleCoverage, compiled_games, take

    stats = SimStats(players, coverage=RuleCoverage())
    for compiled in compiled_games(game):
        take(compiled)  # from zero, whatever ran before
    for index in range(start, stop):
        state = play_bot_game(game, players, seed, index, bot, max_decisions, coverage=True, scenario=scenario)
        stats.record(state)
        stats.coverage.add(state.game, take(state.game))
    return stats


def worker_count(jobs: int, games: int) -> int:
    """How many worker processes to start: asked for, but no more than the CPUs or the games.

    More processes than CPUs only compete for them (each holds its own compiled
    game), and more than games would sit idle.
    """
    return max(1, min(jobs, available_cpus(), games))


# ---------------------------------------------------------------- where the chunks run
BACKENDS = ("process", "ray")  # where the games of a run are played (see simulate)


def run_chunks(path, variant_lists, loaded, play, games: int, jobs: int = 1, backend: str = "process",
               address: str | None = None, options=None):
    """``play(definitions, start, stop)`` for each chunk of ``range(games)``, in game order, where ``backend`` says.

    ``definitions`` is the definition at ``path`` with each of ``variant_lists`` (a list of variant lists);
    ``loaded`` is that list already loaded in this process, or None.  ``play`` must be picklable (a
    module-level function or a ``functools.partial`` of one): workers receive it, not the definitions.

    * ``"process"``: in this process for ``jobs`` 1, else in a pool of ``worker_count`` processes, each
      holding the definitions once (inherited from this process when forked, else loaded);
    * ``"ray"``: as Ray tasks (:mod:`interpreter.ray_backend`), on the cluster at ``address`` or on a local
      Ray instance of ``jobs`` CPUs (all of them for ``jobs`` 1) started for the run and stopped after it.

    Results come back in game order whatever the backend, so whoever merges them gets the same totals.
    ``options`` (a CompileOptions) is how definitions not yet loaded are compiled: the coverage build of
    ``--coverage``, which the process backend alone offers.
    """
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r}; the backends are: {', '.join(BACKENDS)}")
    if options is not None and backend != "process":
        raise SimulationError("--coverage counts rules with the process backend only (leave out --backend ray)")
    variant_lists = [list(variants) for variants in variant_lists]
    if backend == "ray":
        from . import ray_backend

        yield from ray_backend.run_chunks(path, variant_lists, loaded, play, games, jobs, address)
        return
    jobs = worker_count(jobs, games)
    work = chunks(games, jobs)
    if jobs <= 1:
        loaded = loaded if loaded is not None else load_definitions(path, variant_lists, options)
        for start, stop in work:
            yield play(loaded, start, stop)
        return
    yield from _pool_chunks(path, variant_lists, loaded, play, jobs, work, options)


_worker_games = None  # in a pool worker: the definitions it plays, for the run _worker_key names
_worker_key = None
_worker_play = None
_worker_error = None
_runs = itertools.count()


def _start_worker(path, variant_lists, play, key=None, options=None):
    """Pool initializer: each worker holds the definitions once, for all its chunks.

    A worker forked from a parent that already holds them (``key`` matches) keeps that copy
    instead of loading and compiling them again; otherwise it loads them.  A failure is kept and
    reported by the first chunk: an initializer that raises would make the pool restart workers
    forever.  Workers ignore Ctrl-C; the parent process handles it and terminates the pool.
    """
    global _worker_games, _worker_play, _worker_error
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_play = play
    if key is not None and _worker_key == key and _worker_games is not None:
        return
    try:
        _worker_games = load_definitions(path, variant_lists, options)
    except RibbitError as exc:
        _worker_error = str(exc)


def _run_worker_chunk(span):
    if _worker_error is not None:
        raise SimulationError(f"a worker process could not load the definition: {_worker_error}")
    return _worker_play(_worker_games, *span)


def _pool_chunks(path, variant_lists, loaded, play, jobs, work, options=None):
    global _worker_games, _worker_key
    key = None
    if loaded is not None:  # a forked worker inherits them: no load or compile per worker
        for game in loaded:
            game.compile_pending()
        key = f"{os.getpid()}:{next(_runs)}"
        _worker_games, _worker_key = loaded, key
    gc.freeze()  # forked workers' collections then skip the parent's objects instead of touching (copying) them
    try:
        with multiprocessing.Pool(jobs, initializer=_start_worker,
                                  initargs=(str(path), variant_lists, play, key, options)) as pool:
            gc.unfreeze()
            yield from pool.imap(_run_worker_chunk, work)
    finally:
        gc.unfreeze()
        if key is not None:
            _worker_games = _worker_key = None


def _simulate_chunk(players, seed, bot, max_decisions, definitions, start, stop, coverage=False,
                    scenario=None) -> SimStats:
    extra = {key: value for key, value in (("coverage", coverage or None), ("scenario", scenario))
             if value is not None}  # only what was asked for
    return run_chunk(definitions[0], players, seed, start, stop, bot, max_decisions, **extra)


def simulate(path, players: int, games: int, seed: int = 0, jobs: int = 1, bot="random",
             variants=None, game=None, progress=None, max_decisions: int = MAX_DECISIONS,
             backend: str = "process", address: str | None = None, coverage: bool = False,
             scenario=None) -> SimStats:
    """Play ``games`` bot games of the definition at ``path`` and return merged statistics.

    ``game`` is an already loaded copy for in-process play (loaded from ``path``
    if omitted).  ``backend`` says where the games run (see :func:`run_chunks`):

    * ``"process"`` (the default): in this process for ``jobs`` 1, else chunks in a
      process pool of ``worker_count`` processes, each holding the compiled definition
      once (inherited from this process when it is forked, else loaded);
    * ``"ray"``: chunks as Ray tasks (:mod:`interpreter.ray_backend`), on the cluster at
      ``address``, or on a local Ray instance of ``jobs`` CPUs (all of them for ``jobs`` 1)
      started for this run and shut down after it.

    ``bot`` is a bot name for every seat or ``{player: (name, params)}`` from
    :func:`interpreter.agents.parse_bot_specs`.  Chunks are merged in game order, and every game's seed
    depends only on ``seed`` and its index, so the statistics are the same for every backend and number
    of jobs.  ``progress(done)`` is called with the number of games finished so far, after each chunk.
    A game still running after ``max_decisions`` decisions is stopped and counted under
    ``endings["decision_cap"]``; ``max_decisions`` is an int from 1 (0 would stop every game before it began).
    ``coverage``: also count how often each rule ran (``stats.coverage``; see interpreter/coverage.py); ``game``,
    if given, must then be loaded with ``options=interpreter.coverage.COUNTING``.  The games are the same.
    ``scenario`` (a :func:`interpreter.loader.scenario.load_scenario`): every game starts from that position instead of
    the setup, dealt as usual from its seed (to drive a rare rule, with ``coverage`` to see it run).
    """
    if type(max_decisions) is not int or max_decisions < 1:
        from .state import _type_of

        raise DefinitionError(f"max_decisions must be a whole number (an int) from 1, not {_type_of(max_decisions)}",
                              Location(str(path), key="max_decisions"))
    variants = list(variants or [])
    play = functools.partial(_simulate_chunk, players, seed, bot, max_decisions, coverage=coverage, scenario=scenario)
    options = None
    if coverage:
        from .coverage import COUNTING, check_counting

        options = COUNTING
        if game is not None:
            check_counting(game)
    stats = SimStats(players)
    done = 0
    for part in run_chunks(path, [variants], None if game is None else [game], play, games, jobs, backend,
                           address, options):
        stats.merge(part)
        done += part.games
        if progress:
            progress(done)
    return stats
