"""Several configurations of one game, played on the same seeds and compared with confidence intervals.

A configuration is a player count, variants (with their settings) and a bot per seat.  Game ``i`` of
every configuration is dealt with seed ``S + i`` and its bots seeded from that seed and their seat (as
in :mod:`interpreter.sim`), so two configurations with the same number of players play the same deals:
their difference is measured game by game (paired), which removes the luck of the deal from it.
Configurations with different player counts are compared as independent samples.

Only running totals are kept (the statistics of :class:`~interpreter.sim.SimStats` and the sums of the
per-game differences): memory stays flat in the number of games.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from .agents import BotSpecError, describe_spec, make_agent, parse_bot_spec, seat_seed
from .errors import RibbitError, inert, shorten
from .sim import (ENDINGS, LENGTHS, MAX_DECISIONS, GameRecord, SimStats, length_measures, load_definitions,
                  play_seated_game, run_chunks)
from .stats import (CONFIDENCE, Interval, Moments, holm, mean_difference, mean_interval, paired_difference,
                    paired_p_value, proportion_difference, proportion_p_value, welch_p_value, wilson)


class ConfigError(RibbitError):
    """A configuration (``--config``) or a bot specification that cannot be used."""


# ---------------------------------------------------------------- bots per seat
def parse_bot(text: str, players: int, where: str) -> tuple[int | None, str]:
    """``SEAT=NAME[:k=v,...]`` (one seat, 1-based) or ``NAME[:k=v,...]`` (every seat) -> (seat or None, spec).

    Read by the bots' own parser (:func:`interpreter.agents.parse_bot_spec`); the spec kept is
    ``NAME`` or ``NAME:k=v,...`` with the parameters checked, and the bot is built from it in each
    worker by :func:`make_seat_agent`.
    """
    try:
        seat, name, params = parse_bot_spec(text.strip())
    except BotSpecError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if seat is not None and not 1 <= seat <= players:
        raise ConfigError(f"{where}: bot {_quote(text)}: there is no seat {seat} in a {players}-player game "
                          f"(seats are 1 to {players})")
    return (None if seat is None else seat - 1), describe_spec(name, params)


def seat_bots(texts, players: int, where: str, default: tuple | None = None) -> tuple:
    """The bot spec of every seat from bot texts (``SEAT=NAME...`` or ``NAME...`` for all seats).

    ``default`` (per seat) is what seats not named get; else the one all-seat text, else ``random``.
    """
    everyone, seats = None, {}
    for text in texts:
        seat, spec = parse_bot(text, players, where)
        if seat is None:
            if everyone is not None:
                raise ConfigError(f"{where}: two bots for every seat ({_quote(everyone)} and {_quote(spec)}); "
                                  "give one, and SEAT=NAME for the seats that differ")
            everyone = spec
        elif seat in seats:
            raise ConfigError(f"{where}: seat {seat + 1} is given two bots ({_quote(seats[seat])} and "
                              f"{_quote(spec)})")
        else:
            seats[seat] = spec
    fallback = [everyone] * players if everyone is not None else \
        list(default[:players]) + ["random"] * (players - len(default)) if default else ["random"] * players
    return tuple(seats.get(seat, fallback[seat]) for seat in range(players))


def make_seat_agent(spec: str, game_seed: int, seat: int):
    """Seat ``seat``'s bot from a checked spec ``NAME`` or ``NAME:k=v,...``, seeded as ``simulate`` seeds it."""
    _, name, params = parse_bot_spec(spec)
    own = params.pop("seed", None)
    return make_agent(name, seat_seed(game_seed, seat, own), **params)


# ---------------------------------------------------------------- configurations
@dataclass(frozen=True)
class Configuration:
    """One way of playing the game: a name, a player count, variants in order and a bot per seat."""

    name: str
    players: int
    variants: tuple = ()
    bots: tuple = ()  # per seat: a bot spec, NAME or NAME:k=v,...

    def make_bot(self, seat: int, game_seed: int):
        return make_seat_agent(self.bots[seat], game_seed, seat)


CONFIG_KEYS = ("name", "players", "variant", "bot")


def parse_config(text: str, number: int, players: int | None = None, variants=(), bots=()) -> Configuration:
    """A configuration from ``--config`` text: ``key=value`` items separated by ``;``.

    Keys: ``name`` (how tables, JSON and plots call it), ``players``, ``variant`` (repeatable, as
    ``--variant``: NAME, PATH, NAME:key=value,...) and ``bot`` (repeatable: SEAT=NAME[:k=v,...] for one
    seat, NAME[:k=v,...] for every seat).  ``players``, ``variants`` and ``bots`` are the command's
    defaults (``--players``, ``--variant``, applied before the configuration's own, and ``--bot``).
    """
    where = f"--config {number} ({_quote(text)})"
    if len(text) > 10_000:
        raise ConfigError(f"--config {number}: is {len(text)} characters long; a configuration is at most 10,000")
    found = _config_items(text, where)
    count = _config_players(found, players, where)
    all_variants = tuple(variants) + tuple(found["variant"])
    default_bots = seat_bots(bots, count, "--bot") if bots else None
    seats = seat_bots(found["bot"], count, where, default_bots)
    name = found.get("name") or describe(found, count, players)
    if len(name) > 60 or not name.isprintable():
        raise ConfigError(f"{where}: name {_quote(name)}: a name is at most 60 printable characters")
    return Configuration(name, count, all_variants, seats)


def _config_items(text: str, where: str) -> dict:
    """{key: value} of a configuration's ``key=value`` items (``variant`` and ``bot``: lists, as repeatable),
    each a known key, the others given once."""
    found: dict = {"variant": [], "bot": []}
    for item in text.split(";"):
        if not item.strip():
            continue
        key, equals, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not equals:
            raise ConfigError(f"{where}: item {_quote(item.strip())} must look like key=value; the keys are "
                              f"{', '.join(CONFIG_KEYS)}, separated by ';' (e.g. \"name=pass left; players=3; "
                              "variant=house_rule:key=value; bot=2=random\")")
        if key not in CONFIG_KEYS:
            raise ConfigError(f"{where}: unknown key {_quote(key)}; the keys are {', '.join(CONFIG_KEYS)}")
        if key in ("variant", "bot"):
            if not value:
                raise ConfigError(f"{where}: {key}= names nothing")
            found[key].append(value)
        elif key in found:
            raise ConfigError(f"{where}: {key} is given twice")
        else:
            found[key] = value
    return found


def _config_players(found: dict, players: int | None, where: str) -> int:
    """The configuration's player count: its own ``players=``, else the command's ``--players``."""
    count = players
    if "players" in found:
        if not re.fullmatch(r"[0-9]{1,4}", found["players"]) or int(found["players"]) < 1:
            raise ConfigError(f"{where}: players: expected a whole number of players, at least 1, got "
                              f"{_quote(found['players'])}")
        count = int(found["players"])
    if count is None:
        raise ConfigError(f"{where}: how many players? Say players=N in the configuration, or --players N "
                          "for every configuration")
    return count


def describe(found: dict, count: int, players: int | None) -> str:
    """A configuration's default name: what it changes (its variants, player count and bots)."""
    parts = list(found["variant"]) or ["base"]
    if "players" in found and count != players:
        parts.append(f"{count} players")
    parts += [f"bot {bot}" for bot in found["bot"]]
    return ", ".join(parts)


def check_names(configs) -> None:
    seen = {}
    for number, config in enumerate(configs, 1):
        if config.name in seen:
            raise ConfigError(f"--config {number}: the name {_quote(config.name)} is already used by --config "
                              f"{seen[config.name]}; give each configuration its own name=")
        seen[config.name] = number


def _quote(text: str, limit: int = 80) -> str:
    return repr(shorten(inert(text), limit))


# ---------------------------------------------------------------- paired differences
@dataclass
class PairedDifferences:
    """Running sums of the per-game differences (configuration minus the first) over the same seeds."""

    players: int
    wins: list = field(default_factory=list)  # per seat: Moments of return - base return
    scores: list = field(default_factory=list)  # per seat: Moments of score - base score (both finished)
    decisions: Moments = field(default_factory=Moments)
    turns: Moments = field(default_factory=Moments)
    rounds: Moments = field(default_factory=Moments)
    endings: dict = field(default_factory=dict)  # ENDINGS key -> Moments of (ended so) - (base ended so)

    def __post_init__(self):
        self.wins = self.wins or [Moments() for _ in range(self.players)]
        self.scores = self.scores or [Moments() for _ in range(self.players)]
        self.endings = self.endings or {key: Moments() for key in ENDINGS.values()}

    def add(self, record: GameRecord, base: GameRecord) -> None:
        for seat in range(self.players):
            self.wins[seat].add(record.returns[seat] - base.returns[seat])
            if record.scores is not None and base.scores is not None:
                self.scores[seat].add(record.scores[seat] - base.scores[seat])
        self.decisions.add(record.decisions - base.decisions)
        self.turns.add(record.turns - base.turns)
        self.rounds.add(record.rounds - base.rounds)
        for key, moments in self.endings.items():
            moments.add((record.ending == key) - (base.ending == key))

    def merge(self, other: "PairedDifferences") -> None:
        for mine, theirs in zip(self.wins + self.scores, other.wins + other.scores):
            mine.merge(theirs)
        self.decisions.merge(other.decisions)
        self.turns.merge(other.turns)
        self.rounds.merge(other.rounds)
        for key, moments in self.endings.items():
            moments.merge(other.endings[key])


def paired(config: Configuration, base: Configuration) -> bool:
    """Same seeds (always, in one comparison) and the same seats: game i is the same deal in both."""
    return config.players == base.players


@dataclass
class Comparison:
    """The statistics of each configuration and, for each after the first, its paired differences (or None)."""

    configs: list
    stats: list
    differences: list  # [None, PairedDifferences | None, ...]

    def merge(self, other: "Comparison") -> None:
        for mine, theirs in zip(self.stats, other.stats):
            mine.merge(theirs)
        for mine, theirs in zip(self.differences, other.differences):
            if mine is not None:
                mine.merge(theirs)

    @classmethod
    def empty(cls, configs, coverage: bool = False) -> "Comparison":
        from .coverage import RuleCoverage

        return cls(list(configs), [SimStats(c.players, coverage=RuleCoverage() if coverage else None) for c in configs],
                   [PairedDifferences(c.players) if n and paired(c, configs[0]) else None
                    for n, c in enumerate(configs)])


def run_compare_chunk(games, configs, seed: int, start: int, stop: int, max_decisions: int,
                      coverage: bool = False) -> Comparison:
    """Play games ``start`` to ``stop - 1`` under every configuration (``games[k]`` is configuration k's game).

    ``coverage``: also count each configuration's rule runs (its game compiled to count them: see
    interpreter/coverage.py); the counters are read and set back to zero after each game."""
    from .coverage import Unwatched, compiled_games, take

    result = Comparison.empty(configs, coverage)
    if coverage:
        for game in games:
            for compiled in compiled_games(game):
                take(compiled)  # from zero, whatever ran before
    for index in range(start, stop):
        base = None
        for k, (game, config) in enumerate(zip(games, configs)):
            make_bot = config.make_bot if not coverage else \
                (lambda seat, game_seed, make=config.make_bot: Unwatched(make(seat, game_seed)))
            state = play_seated_game(game, config.players, seed, index, make_bot, max_decisions)
            result.stats[k].record(state)
            if coverage:
                result.stats[k].coverage.add(state.game, take(state.game))
            record = GameRecord.of(state)
            if k == 0:
                base = record
            elif result.differences[k] is not None:
                result.differences[k].add(record, base)
    return result


def load_games(path, configs, options=None) -> list:
    """Each configuration's game, loading each distinct list of variants once (compiled with ``options``)."""
    return load_definitions(path, [c.variants for c in configs], options)


def _compare_chunk(configs, seed, max_decisions, games, start, stop, coverage=False) -> Comparison:
    return run_compare_chunk(games, configs, seed, start, stop, max_decisions, coverage)


def compare(path, configs, games: int, seed: int = 0, jobs: int = 1, loaded=None, progress=None,
            max_decisions: int = MAX_DECISIONS, backend: str = "process", address: str | None = None,
            coverage: bool = False) -> Comparison:
    """Play ``games`` games of every configuration on seeds ``seed`` to ``seed + games - 1``.

    ``loaded`` is each configuration's game if already loaded.  Chunks of games are played where
    ``backend`` says (:func:`interpreter.sim.run_chunks`: this process for ``jobs`` 1, a process pool
    of forked workers that keep the loaded games, or Ray tasks, on the cluster at ``address`` or a
    local instance); each chunk plays its games under every configuration, so game i is paired with
    game i, and the chunks are merged in game order into exact sums: the result does not depend on the
    backend or the number of jobs.  ``progress(done)`` is called after each chunk.
    ``coverage``: also count each configuration's rule runs (``result.stats[k].coverage``); ``loaded``, if
    given, must then be loaded with ``options=interpreter.coverage.COUNTING``.  The games are the same.
    """
    configs = list(configs)
    result = Comparison.empty(configs, coverage)
    play = functools.partial(_compare_chunk, configs, seed, max_decisions, coverage=coverage)
    options = None
    if coverage:
        from .coverage import COUNTING, check_counting

        options = COUNTING
        for game in loaded or ():
            check_counting(game)
    done = 0
    for part in run_chunks(path, [c.variants for c in configs], loaded, play, games, jobs, backend, address,
                           options):
        result.merge(part)
        done += part.stats[0].games
        if progress:
            progress(done)
    return result


# ---------------------------------------------------------------- the report
def comparison_measures(games) -> tuple:
    """The length measures a comparison reports: those the flow of any configuration's game counts."""
    found = {name for game in games for name in length_measures(game)}
    return tuple(name for name in LENGTHS if name in found)


def summary(stats: SimStats, confidence: float = CONFIDENCE, measures=("turns",)) -> dict:
    """One configuration's statistics with a confidence interval on every share and mean (JSON-ready)."""
    finished = stats.games - stats.endings["decision_cap"]

    def tally(t):
        return {"mean": mean_interval(Moments.of_histogram(t.histogram), confidence).to_json(),
                **{k: v for k, v in t.to_json().items() if k != "mean"}}

    def count(games, trials=stats.games):
        return {"games": games, "share": wilson(games, trials, confidence).to_json()}

    return {
        "games": stats.games,
        "seats": [{"seat": seat + 1, "wins": _number(stats.win_shares[seat]),
                   "win_share": wilson(stats.win_shares[seat], stats.games, confidence).to_json(),
                   "score": tally(stats.scores[seat])} for seat in range(stats.players)],
        "decisions": tally(stats.decisions),
        **{name: tally(getattr(stats, name)) for name in measures},
        "ended_by": {key: count(games) for key, games in stats.endings.items()},
        "no_winner": count(stats.no_winner, finished),
        "shared_victories": count(stats.shared_victories, finished),
    }


def _tested(interval: Interval, p: float | None) -> dict:
    """An interval as JSON with the p-value of the test behind it (adjusted later: see :func:`adjust`)."""
    return {**interval.to_json(), "p": p}


def difference(result: Comparison, k: int, confidence: float = CONFIDENCE, measures=("turns",)) -> dict:
    """Configuration ``k`` minus the first: paired by seed when the seats match, else as independent samples.

    Each difference carries the two-sided p-value of the test its interval comes from (paired t; else Welch's
    t for means, the two-proportion z test for shares)."""
    config, base = result.configs[k], result.configs[0]
    mine, theirs = result.stats[k], result.stats[0]
    pairs = result.differences[k]
    seats = min(config.players, base.players)

    def paired_test(moments):
        return _tested(paired_difference(moments, confidence), paired_p_value(moments))
    if pairs is not None:
        return {
            "to": base.name, "paired": True, "games": pairs.decisions.count,
            "seats": [{"seat": s + 1, "win_share": paired_test(pairs.wins[s]),
                       "score_mean": paired_test(pairs.scores[s])}
                      for s in range(seats)],
            "decisions_mean": paired_test(pairs.decisions),
            **{f"{name}_mean": paired_test(getattr(pairs, name)) for name in measures},
            "ended_by": {key: paired_test(m) for key, m in pairs.endings.items()},
        }

    def means(a, b):
        one, two = Moments.of_histogram(a.histogram), Moments.of_histogram(b.histogram)
        return _tested(mean_difference(one, two, confidence), welch_p_value(one, two))

    def shares(a, n, b, m):
        return _tested(proportion_difference(a, n, b, m, confidence), proportion_p_value(a, n, b, m))

    return {
        "to": base.name, "paired": False, "games": mine.games,
        "seats": [{"seat": s + 1,
                   "win_share": shares(mine.win_shares[s], mine.games, theirs.win_shares[s], theirs.games),
                   "score_mean": means(mine.scores[s], theirs.scores[s])} for s in range(seats)],
        "decisions_mean": means(mine.decisions, theirs.decisions),
        **{f"{name}_mean": means(getattr(mine, name), getattr(theirs, name)) for name in measures},
        "ended_by": {key: shares(mine.endings[key], mine.games, theirs.endings[key], theirs.games)
                     for key in ENDINGS.values()},
    }


def report(result: Comparison, confidence: float = CONFIDENCE, measures=("turns",)) -> list:
    """Every configuration's summary and its difference to the first (None for the first), JSON-ready, with each
    difference's p-value adjusted for the comparisons made with it (see :func:`adjust`)."""
    configurations = [{"name": c.name, "players": c.players, "variants": list(c.variants), "bots": list(c.bots),
                       **summary(result.stats[k], confidence, measures),
                       "difference": difference(result, k, confidence, measures) if k else None,
                       **({"coverage": result.stats[k].coverage.to_json(result.stats[k].games)}
                          if result.stats[k].coverage is not None else {})}
                      for k, c in enumerate(result.configs)]
    adjust(configurations)
    return configurations


# ---------------------------------------------------------------- several comparisons at once
# The comparisons a table makes together: every configuration after the first against it, on every row.
FAMILIES = ("win_share", "score_mean", "length", "ended_by")


def family_members(difference: dict, family: str) -> list:
    """The tested intervals of one configuration's difference that belong to a family (a table)."""
    if family in ("win_share", "score_mean"):
        return [seat[family] for seat in difference["seats"]]
    if family == "length":
        return [value for key, value in difference.items() if key.endswith("_mean")]
    return list(difference["ended_by"].values())


def adjust(configurations: list) -> dict:
    """Holm's correction within each family: every tested interval gets ``p_holm``; returns how many
    comparisons each family makes.  Each interval stays a 95% interval on its own; ``p_holm`` is what says
    whether a difference holds up when all the comparisons of its table are read together."""
    sizes = {}
    for family in FAMILIES:
        members = [m for c in configurations[1:] for m in family_members(c["difference"], family)]
        for member, adjusted in zip(members, holm([m["p"] for m in members])):
            member["p_holm"] = adjusted
        sizes[family] = sum(m["p"] is not None for m in members)
    return sizes


def comparison_note(configurations: list, confidence: float = CONFIDENCE) -> str:
    """The multiple-comparison note of the tables and the difference figure."""
    sizes = adjust(configurations)
    tests = sum(sizes.values())
    if tests <= 1:
        return ""
    level = f"{confidence:.0%}"
    alpha = round(1 - confidence, 6)
    held = [f"{c['name']} {where}" for c in configurations[1:] for where, m in _labelled(c["difference"])
            if m.get("p_holm") is not None and m["p_holm"] < alpha]
    shown = ", ".join(held[:6]) + (f" and {len(held) - 6} more" if len(held) > 6 else "") if held else "none"
    return (f"{tests} comparisons are made at once ({sizes['win_share']} of win share, {sizes['score_mean']} of "
            f"score, {sizes['length']} of length, {sizes['ended_by']} of endings): some intervals exclude 0 by chance "
            f"alone. 'p (Holm)' is each difference's p-value adjusted by Holm's method for the comparisons of its "
            f"table; below {alpha:g} it holds at the {level} level for the whole table. Holding after the "
            f"correction: {shown}.")


def _labelled(difference: dict):
    """(where, tested interval) of every difference, for the note."""
    for seat in difference["seats"]:
        yield f"player {seat['seat']} win share", seat["win_share"]
        yield f"player {seat['seat']} score", seat["score_mean"]
    for key, value in difference.items():
        if key.endswith("_mean"):
            yield key.replace("_mean", "").replace("_", " "), value
    for key, value in difference["ended_by"].items():
        yield f"ended by {key.replace('_', ' ')}", value


def _number(value):
    return int(value) if value.denominator == 1 else float(value)
