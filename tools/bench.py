"""Ribbit benchmarks: print how fast the engine runs games, and how much memory a long simulation needs.

    python tools/bench.py            # the full report (a minute or two)
    python tools/bench.py --quick    # fewer games, for a smoke check

Figures printed (medians over several repetitions, so a busy machine skews them less):
  * load: time to read, validate and compile a definition;
  * random full games per second and decisions per second, per player count:
    random bots choosing uniformly among the legal actions through the public
    API (``legal_actions`` + ``apply``), exactly what ``ribbit simulate`` does;
  * peak memory (max RSS) of ``ribbit simulate`` for an increasing number of
    games: it must stay flat, since nothing per game is kept but statistics.

Nothing here asserts: speed is measured and reported, not tested.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter import load_game  # noqa: E402

GAMES = {  # definition, player counts to measure
    "Frog Tower": ("definitions/frog_tower.yaml", (2, 3, 4)),
}
KAERU = ROOT / "definitions" / "kaeru.yaml"
if KAERU.exists():
    GAMES["Kaeru"] = ("definitions/kaeru.yaml", (2,))
GAMES["Top Frog"] = ("definitions/top_frog.yaml", (2, 4, 6))
GAMES_DIVISOR = {"Top Frog": 100}  # a random Top Frog game takes hundreds of decisions: play fewer (at least 1)


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_load(path: str, repeats: int) -> float:
    load_game(ROOT / path)  # warm the parser cache
    return median_time(lambda: load_game(ROOT / path), repeats)


def random_games(game, players: int, games: int, seed: int = 0) -> int:
    """Play ``games`` random games; returns the number of decisions taken."""
    rng = random.Random(seed)
    decisions = 0
    for i in range(games):
        state = game.new_game(players, seed=seed + i, log=False)
        while not state.is_terminal():
            player = state.current_players()[0]
            actions = state.legal_actions(player)
            state.apply(player, actions[rng.randrange(len(actions))])
            decisions += 1
    return decisions


def bench_games(path: str, players: int, games: int, repeats: int) -> tuple[float, float]:
    game = load_game(ROOT / path)
    decisions = random_games(game, players, games)  # warm-up, and the (deterministic) decision count
    seconds = median_time(lambda: random_games(game, players, games), repeats)
    return games / seconds, decisions / seconds


def bench_against_reference(games: int, repeats: int) -> tuple[float, float, float]:
    """Engine vs hand-written Frog Tower, run in alternation so machine load affects both alike."""
    sys.path.insert(0, str(ROOT / "tools"))
    import reference_frog_tower as reference

    game = load_game(ROOT / GAMES["Frog Tower"][0])
    engine_times, reference_times = [], []
    for _ in range(repeats * 2):
        engine_times.append(median_time(lambda: random_games(game, 3, games), 1) / games)
        reference_times.append(median_time(lambda: reference.run(3, games * 4), 1) / (games * 4))
    ratios = sorted(e / r for e, r in zip(engine_times, reference_times))
    return 1 / statistics.median(engine_times), 1 / statistics.median(reference_times), statistics.median(ratios)


def peak_rss_of_simulate(path: str, players: int, games: int) -> tuple[float, float]:
    """Run ``ribbit simulate`` in a child process; returns (peak RSS in MiB, seconds)."""
    command = [sys.executable, "-m", "interpreter.cli", "simulate", str(ROOT / path), "--players", str(players),
               "--games", str(games), "--seed", "1"]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        err = child.stderr.read().decode(errors="replace") if child.stderr else ""
        raise SystemExit(f"simulate failed ({status}): {err[-500:]}")
    return usage.ru_maxrss / 1024, seconds  # ru_maxrss is in KiB on Linux


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games (a smoke check)")
    parser.add_argument("--no-memory", action="store_true", help="skip the simulate memory runs")
    args = parser.parse_args(argv)
    games = 100 if args.quick else 400
    repeats = 3 if args.quick else 5

    print(f"Ribbit benchmark  (Python {sys.version.split()[0]}, {os.cpu_count()} cores, one core used)")
    print("\nload + validate + compile (median):")
    for name, (path, _) in GAMES.items():
        print(f"  {name:12s} {bench_load(path, repeats) * 1000:8.1f} ms")

    print(f"\nrandom full games, {games} games x {repeats} runs (median; Top Frog "
          f"{max(1, games // GAMES_DIVISOR['Top Frog'])} games):")
    for name, (path, counts) in GAMES.items():
        for players in counts:
            per_game, per_decision = bench_games(path, players, max(1, games // GAMES_DIVISOR.get(name, 1)), repeats)
            print(f"  {name:12s} {players}p  {per_game:8.0f} games/s  {per_decision:10.0f} decisions/s")

    print("\nagainst a tight hand-written simulator of the same rules (tools/reference_frog_tower.py), 3 players:")
    engine_rate, reference_rate, ratio = bench_against_reference(games // 4, repeats)
    print(f"  engine {engine_rate:8.0f} games/s   hand-written {reference_rate:8.0f} games/s   "
          f"engine is {ratio:.1f}x slower (median of interleaved runs)")

    if not args.no_memory:
        sizes = (1_000, 10_000) if not args.quick else (200, 2_000)
        print("\npeak memory of `ribbit simulate` (Frog Tower, 3 players) as games grow:")
        for count in sizes:
            rss, seconds = peak_rss_of_simulate(GAMES["Frog Tower"][0], 3, count)
            print(f"  {count:7d} games  peak RSS {rss:7.1f} MiB  ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
