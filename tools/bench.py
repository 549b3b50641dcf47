"""Ribbit benchmarks: print how fast the engine runs games, and how much memory a long simulation needs.

    python tools/bench.py            # the full report (a minute or two)
    python tools/bench.py --quick    # fewer games, for a smoke check
    python tools/bench.py --against ../other-checkout   # the core figures of both, side by side, with ratios

Figures printed (medians over several repetitions, so a busy machine skews them less):
  * load: time to read, validate and compile a definition (``load_game``: the board of the fewest
    players only; a game with a board per player count compiles the others when one starts, and
    ``ribbit validate`` compiles them all), loaded again in a process that has loaded it once, so
    the effect snippets' parses are already cached (the garbage of the loads before collected first:
    the cycle collector frees a discarded game in one pass of 50-100 ms, whenever it runs next); and the first load in a fresh process, which
    parses them too (the imports and the grammar's parse tables not counted);
  * random full games per second and decisions per second, per player count:
    random bots choosing uniformly among the legal actions through the public
    API by option number (``sample_action_id`` + ``apply_id``), exactly what
    ``ribbit simulate`` does; against the hand-written simulator, also by text
    (``legal_actions`` + ``apply``, the figure printed before integer actions);
  * random full games per second by playout (``state.playout``: what ``ribbit simulate`` with random
    bots plays), against the hand-written simulator too;
  * bot decisions per second (greedy, mcts, ismcts at 100 and 1,000 iterations), Frog Tower 3 players;
  * search: ISMCTS and MCTS iterations per second (CPU time) on Frog Tower 3 players and Kaeru 2 players,
    and what a search pays per iteration before it plays: ``determinised`` and ``clone``, in µs;
  * peak memory (max RSS) of ``ribbit simulate`` for an increasing number of
    games: it must stay flat, since nothing per game is kept but statistics;
  * `ribbit compare` of three configurations (Frog Tower, 3 players): wall time for
    2,000 games each, and peak memory at 500 and 2,000 games (flat: running sums only).

  * PettingZoo steps per second against the integer API, side by side (Frog Tower 3 players, Top Frog
    4 players; with the ``pettingzoo`` extra): the same random games through ``RibbitEnv`` (a step is
    ``env.last()`` + ``env.step``: a view, its encoding, the action's mask and texts) and through
    ``sample_action_id`` + ``apply_id``, alternated; and how long the Top Frog environment takes to build;
  * parallel simulate: ``--jobs 1`` against ``--jobs 2`` (speed-up, best and median of
    alternated runs; on a busy machine only the best means much), and with ``--ray``
    the ray backend on a local Ray instance (start-up, and the cost per game).

``--against PATH`` measures the core figures (games/s, decisions/s, iterations/s, determinised and clone,
load) of this checkout and of the one at PATH in child processes, taken in turn (A B A B ...), and prints
them side by side with the median of the pair-by-pair ratios: on a shared machine only figures taken
alternately compare fairly.  The figures use only the public API both checkouts have.

Nothing here asserts: speed is measured and reported, not tested.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path



def _root() -> Path:
    """This checkout, or the one ``--root PATH`` names (its ``interpreter`` measured with these figures)."""
    if "--root" in sys.argv[:-1]:
        return Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
    return Path(__file__).resolve().parents[1]


ROOT = _root()
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
    times = []
    for _ in range(repeats):
        gc.collect()  # the previous load's game, now garbage: freeing it is not this load's work
        start = time.perf_counter()
        load_game(ROOT / path)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_first_load(path: str, repeats: int) -> float:
    """The first load of a definition in a fresh Python process (median), imports and grammar tables excluded."""
    code = ("import sys, time; sys.path.insert(0, sys.argv[1]); import interpreter; "
            "import networkx; from interpreter.dsl.parser import _parser; _parser(); t = time.perf_counter(); "
            "interpreter.load_game(sys.argv[2]); print(time.perf_counter() - t)")
    times = [float(subprocess.run([sys.executable, "-c", code, str(ROOT), str(ROOT / path)], check=True,
                                  capture_output=True, text=True).stdout) for _ in range(repeats)]
    return statistics.median(times)


def random_games(game, players: int, games: int, seed: int = 0, by_text: bool = False) -> int:
    """Play ``games`` random games; returns the number of decisions taken.

    By option number (``sample_action_id`` + ``apply_id``, what ``ribbit simulate`` does), or with
    ``by_text`` by text (``legal_actions`` + ``apply``, the path measured before integer actions
    existed).  Both draw the same numbers, so they play the very same games.
    """
    rng = random.Random(seed)
    decisions = 0
    for i in range(games):
        state = game.new_game(players, seed=seed + i, log=False)
        while not state.is_terminal():
            player = state.current_players()[0]
            if by_text:
                actions = state.legal_actions(player)
                state.apply(player, actions[rng.randrange(len(actions))])
            else:
                state.apply_id(player, state.sample_action_id(player, rng))
            decisions += 1
    return decisions


def bench_games(path: str, players: int, games: int, repeats: int) -> tuple[float, float]:
    game = load_game(ROOT / path)
    decisions = random_games(game, players, games)  # warm-up, and the (deterministic) decision count
    seconds = median_time(lambda: random_games(game, players, games), repeats)
    return games / seconds, decisions / seconds


def bench_against_reference(games: int, repeats: int, by_text: bool = False) -> tuple[float, float, float]:
    """Engine vs hand-written Frog Tower, run in alternation so machine load affects both alike."""
    sys.path.insert(0, str(ROOT / "tools"))
    import reference_frog_tower as reference

    game = load_game(ROOT / GAMES["Frog Tower"][0])
    engine_times, reference_times = [], []
    for _ in range(repeats * 2):
        engine_times.append(median_time(lambda: random_games(game, 3, games, by_text=by_text), 1) / games)
        reference_times.append(median_time(lambda: reference.run(3, games * 4), 1) / (games * 4))
    ratios = sorted(e / r for e, r in zip(engine_times, reference_times))
    return 1 / statistics.median(engine_times), 1 / statistics.median(reference_times), statistics.median(ratios)


def simulated_games(game, path, players: int, games: int) -> None:
    """``ribbit simulate``'s own work, the definition loaded: ``games`` random-bot games and their statistics
    (played by ``state.playout`` where the checkout has it)."""
    from interpreter import sim

    sim.simulate(ROOT / path, players, games, seed=1, game=game)


def bench_simulated(path: str, players: int, games: int, repeats: int) -> float:
    """Games per second of ``ribbit simulate``'s work (median)."""
    game = load_game(ROOT / path)
    simulated_games(game, path, players, max(1, games // 4))  # warm-up
    return games / median_time(lambda: simulated_games(game, path, players, games), repeats)


def bench_simulated_against_reference(games: int, repeats: int) -> tuple[float, float, float]:
    """``ribbit simulate``'s work (Frog Tower, 3 players) vs the hand-written simulator, alternated."""
    sys.path.insert(0, str(ROOT / "tools"))
    import reference_frog_tower as reference

    path = GAMES["Frog Tower"][0]
    game = load_game(ROOT / path)
    simulated_games(game, path, 3, max(1, games // 4))
    engine_times, reference_times = [], []
    for _ in range(repeats * 2):
        engine_times.append(median_time(lambda: simulated_games(game, path, 3, games), 1) / games)
        reference_times.append(median_time(lambda: reference.run(3, games * 4), 1) / (games * 4))
    ratios = sorted(e / r for e, r in zip(engine_times, reference_times))
    return 1 / statistics.median(engine_times), 1 / statistics.median(reference_times), statistics.median(ratios)


SEARCH_GAMES = (("Frog Tower", 3), ("Kaeru", 2))  # where search is measured: iterations/s, determinised, clone


def bench_search(game, players: int, name: str, iterations: int, positions: list, repeats: int) -> float:
    """Search iterations per second of CPU time (median of ``repeats``), ``iterations`` per decision."""
    from interpreter.agents import make_agent

    rates = []
    for _ in range(repeats):
        bot = make_agent(name, 1, iterations=iterations)
        start = time.process_time()
        for state, seat in positions:
            bot.act(state, seat)
        rates.append(len(positions) * iterations / (time.process_time() - start))
    return statistics.median(rates)


def bench_copies(positions: list, repeats: int, copies: int = 20) -> tuple[float, float]:
    """(µs per ``determinised``, µs per ``clone``) over the positions (median of ``repeats``)."""
    rng = random.Random(1)
    count = len(positions) * copies
    worlds = median_time(lambda: [s.determinised(seat, rng) for s, seat in positions for _ in range(copies)],
                         repeats)
    clones = median_time(lambda: [s.clone() for s, _ in positions for _ in range(copies)], repeats)
    return worlds / count * 1e6, clones / count * 1e6


def core_figures(quick: bool) -> dict:
    """The figures ``--against`` compares: {name: (value, unit, higher is better)}."""
    games, repeats = (60, 3) if quick else (200, 3)
    figures = {}
    for name, (path, counts) in GAMES.items():
        for players in counts:
            count = max(2, games // GAMES_DIVISOR.get(name, 1))
            figures[f"{name} {players}p simulate"] = (bench_simulated(path, players, count, repeats), "games/s", True)
    engine, reference, ratio = bench_simulated_against_reference(max(10, games // 4), repeats)
    figures["Frog Tower 3p simulate vs hand-written"] = (ratio, "x slower", False)
    for name, players, count in (("Frog Tower", 3, games // 2), ("Top Frog", 4, 2)):
        game = load_game(ROOT / GAMES[name][0])
        decisions = random_games(game, players, count)
        figures[f"{name} {players}p integer API"] = (
            decisions / median_time(lambda: random_games(game, players, count), repeats), "decisions/s", True)
    for name, players in SEARCH_GAMES:
        if name not in GAMES:
            continue
        game = load_game(ROOT / GAMES[name][0])
        positions = bot_positions(game, players, 8 if quick else 16)
        for bot in ("ismcts", "mcts"):
            figures[f"{name} {players}p {bot}"] = (bench_search(game, players, bot, 100, positions, repeats),
                                                   "iterations/s", True)
        worlds, clones = bench_copies(positions, repeats)
        figures[f"{name} {players}p determinised"] = (worlds, "µs", False)
        figures[f"{name} {players}p clone"] = (clones, "µs", False)
    for name, (path, _) in GAMES.items():
        figures[f"{name} load again"] = (bench_load(path, repeats) * 1000, "ms", False)
        figures[f"{name} first load"] = (bench_first_load(path, repeats) * 1000, "ms", False)
    return figures


def against(other: Path, rounds: int, quick: bool) -> None:
    """The core figures of this checkout (A) and ``other`` (B), in child processes taken in turn."""
    import json

    def run(root: Path) -> dict:
        command = [sys.executable, str(Path(__file__).resolve()), "--figures-json", "--root", str(root)]
        if quick:
            command.append("--quick")
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        return json.loads(out.strip().splitlines()[-1])

    mine, theirs = [], []
    for _ in range(rounds):
        mine.append(run(ROOT))
        theirs.append(run(other))
    print(f"A = {ROOT}\nB = {other}\n{rounds} rounds, A B A B ... (medians; the ratio is the median of the "
          "pair-by-pair ratios, > 1 when A is better)\n")
    print(f"  {'figure':44s} {'A':>12s} {'B':>12s}  {'unit':12s} {'A vs B':>8s}")
    for name, (_, unit, higher) in mine[0].items():
        if name not in theirs[0]:
            continue
        a = [m[name][0] for m in mine]
        b = [t[name][0] for t in theirs]
        ratios = [(x / y if higher else y / x) if x and y else float("nan") for x, y in zip(a, b)]
        print(f"  {name:44s} {statistics.median(a):12.1f} {statistics.median(b):12.1f}  {unit:12s} "
              f"{statistics.median(ratios):7.2f}x")


def peak_rss_of(command_name: str, path: str, players: int, games: int, extra=()) -> tuple[float, float]:
    """Run ``ribbit COMMAND`` in a child process; returns (peak RSS in MiB, seconds)."""
    command = [sys.executable, "-m", "interpreter.cli", command_name, str(ROOT / path), "--players", str(players),
               "--games", str(games), "--seed", "1", *extra]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        err = child.stderr.read().decode(errors="replace") if child.stderr else ""
        raise SystemExit(f"{command_name} failed ({status}): {err[-500:]}")
    return usage.ru_maxrss / 1024, seconds  # ru_maxrss is in KiB on Linux


def peak_rss_of_simulate(path: str, players: int, games: int) -> tuple[float, float]:
    """``ribbit simulate`` in a child process: (peak RSS in MiB, seconds)."""
    return peak_rss_of("simulate", path, players, games)


BOTS = (("greedy", {}), ("mcts", {"iterations": 100}), ("ismcts", {"iterations": 100}),
        ("ismcts", {"iterations": 1000}))


def bot_positions(game, players: int, count: int, seed: int = 0) -> list:
    """(state, seat) at ``count`` decisions with a real choice, spread over random games."""
    rng = random.Random(seed)
    found = []
    for i in range(1000):
        state = game.new_game(players, seed=seed + i, log=False)
        while not state.is_terminal():
            seat = state.current_players()[0]
            actions = state.legal_actions(seat)
            if len(actions) > 1 and rng.random() < 0.25:
                found.append((state.clone(), seat))
                if len(found) == count:
                    return found
            state.apply(seat, actions[rng.randrange(len(actions))])
    return found


def bench_bot(game, players: int, name: str, params: dict, positions: list) -> float:
    """Decisions per second of CPU time for one bot (seeded), over the same positions."""
    from interpreter.agents import make_agent

    bot = make_agent(name, 1, **params)
    start = time.process_time()
    for state, seat in positions:
        bot.act(state, seat)
    return len(positions) / (time.process_time() - start)


COMPARE_CONFIGS = ("", "variant=crayfish:rule=pass_left", "variant=flower")  # three configurations, 3 players


def peak_rss_of_compare(path: str, players: int, games: int) -> tuple[float, float]:
    """``ribbit compare`` of COMPARE_CONFIGS in a child process: (peak RSS in MiB, seconds)."""
    return peak_rss_of("compare", path, players, games, [arg for c in COMPARE_CONFIGS for arg in ("--config", c)])


def bench_parallel(games: int, repeats: int, ray: bool = False) -> None:
    """`ribbit simulate --jobs 1` vs `--jobs 2` (and the ray backend), on the same seeds, alternated.

    Each run is the whole ``simulate`` call with the definition already loaded, as the command
    makes it: the pool's start-up, its workers, the merging of chunks.  Speed-up = time with one
    job / time with two; the best and the median of the alternated pairs are shown.
    """
    from interpreter import sim

    path = ROOT / GAMES["Frog Tower"][0]
    game = load_game(path)
    cpus = sim.available_cpus()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nparallel simulate (Frog Tower, 3 players, {games} games, {cpus} CPUs here, load average {load:.1f}), "
          f"{repeats} alternated runs:")
    if load > 0.5:  # the kernel shares the CPUs between sessions: other busy sessions leave a pool no speed-up
        print("  (the machine is busy: the speed-up shown is not the one of an idle machine)")
    if cpus < 2:
        print("  skipped: one CPU")
        return
    one, two = [], []
    for _ in range(repeats):
        for jobs, times in ((1, one), (2, two)):
            start = time.perf_counter()
            sim.simulate(path, 3, games, seed=1, jobs=jobs, game=game)
            times.append(time.perf_counter() - start)
    ratios = sorted(a / b for a, b in zip(one, two))
    print(f"  --jobs 1 {games / min(one):8.0f} games/s   --jobs 2 {games / min(two):8.0f} games/s   "
          f"speed-up best {ratios[-1]:.2f}x, median {statistics.median(ratios):.2f}x")
    if not ray:
        return
    import ray as ray_module

    from interpreter import ray_backend

    start = time.perf_counter()
    ray_backend._connect(ray_module, None, 2)  # the local instance of `--backend ray --jobs 2`, on loopback only
    started = time.perf_counter() - start
    try:
        sim.simulate(path, 3, 50, seed=1, backend="ray")  # warm: the workers start and load the definition
        on_ray = []
        for _ in range(repeats):
            start = time.perf_counter()
            sim.simulate(path, 3, games, seed=1, backend="ray")
            on_ray.append(time.perf_counter() - start)
    finally:
        ray_module.shutdown()
    best = min(on_ray)
    print(f"  --backend ray (local, 2 CPUs, started in {started:.1f} s): {games / best:8.0f} games/s, "
          f"{(best - min(two)) / games * 1e3:+.3f} ms per game against --jobs 2")


def legal_ids(observation):
    """The action ids an observation's mask allows, as a training loop finds them: the mask read as bools, by the
    array's own ``nonzero``.  Both matter to the figure, as they are costs of the loop that picks, not of the
    environment (the integer API's loop pays neither): NumPy's ``nonzero`` of an int8 array is some 15 times
    slower than of its bool view (Top Frog's mask of 84k ids: 140 µs, more than a step of the game), and
    ``np.flatnonzero`` adds a microsecond of Python wrappers to every step (a tenth of a Frog Tower step of the
    integer API)."""
    import numpy as np

    return observation["action_mask"].view(np.bool_).nonzero()[0]


def pettingzoo_steps(env, games: int) -> int:
    """Random games through a PettingZoo AEC env (``env.last()`` + ``env.step`` by fixed action id), seeds 0 to
    ``games - 1``; the number of steps that decided something."""
    rng, steps = random.Random(0), 0
    for seed in range(games):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(legal_ids(observation))))
            steps += 1
    return steps


PETTINGZOO_GAMES = (("Frog Tower", 3, 20), ("Top Frog", 4, 2))  # name, players, games per run


def bench_pettingzoo(repeats: int) -> None:
    """PettingZoo AEC steps/s against the integer API's decisions/s on the same seeds (best of alternated runs)."""
    try:
        from interpreter.adapters.pettingzoo import RibbitEnv
    except ImportError:
        print("\nPettingZoo steps/s vs the integer API: skipped (pip install -e '.[pettingzoo]')")
        return
    print(f"\nPettingZoo steps/s vs the integer API (random games, best of {repeats} alternated runs):")
    for name, players, games in PETTINGZOO_GAMES:
        game = load_game(ROOT / GAMES[name][0])
        start = time.perf_counter()
        env = RibbitEnv(game, players)
        built = time.perf_counter() - start

        def through_env():
            return pettingzoo_steps(env, games)

        steps, decisions = through_env(), random_games(game, players, games)
        env_times, api_times = [], []
        for _ in range(repeats):
            env_times.append(median_time(through_env, 1))
            api_times.append(median_time(lambda: random_games(game, players, games), 1))
        env_rate, api_rate = steps / min(env_times), decisions / min(api_times)
        print(f"  {name:12s} {players}p  env {env_rate:8.0f} steps/s   integer API {api_rate:8.0f} decisions/s   "
              f"env is {api_rate / env_rate:.1f}x slower   (env built in {built:.2f} s, "
              f"observation {env.encoder.size} numbers)")


ADAPTER_GAMES = (("Kaeru", 2, 20), ("Frog Tower", 3, 20), ("Top Frog", 4, 2))  # name, players, games per run


def bench_adapters(repeats: int) -> None:
    """Steps/s through each adapter beside the integer API on the same games (best of alternated runs).

    The integer API plays ``sample_action_id`` + ``apply_id`` with narration off (as ``ribbit simulate``)
    and on, seeded and in chance mode (``new_game(..., chance=True)``, each chance outcome drawn by its
    probability from ``chance_outcomes()``).  The OpenSpiel adapter's default (``chance="explicit"``) runs
    chance mode, so it is set beside the chance-mode API (narrated by default, as its information state
    strings read the narration; with ``narration=False`` beside the plain one); ``chance="seed"`` beside
    the seeded narrated API.  A step is a decision (chance outcomes are applied, not counted): the
    adapter's is ``legal_actions()`` + ``apply_action`` (fixed ids; no tensor, string or clone asked for);
    PettingZoo's is ``env.last()`` + ``env.step`` (the observation encoded, its mask and texts), beside the
    seeded plain API.
    """
    try:
        from interpreter.adapters.openspiel import RibbitSpielGame
        from interpreter.adapters.pettingzoo import RibbitEnv
    except ImportError:
        print("\nadapters vs the integer API: skipped (pip install -e '.[openspiel,pettingzoo]')")
        return
    print(f"\nsteps/s through each adapter vs the integer API (random games, best of {repeats} alternated runs):")
    for name, players, games in ADAPTER_GAMES:
        game = load_game(ROOT / GAMES[name][0])
        spiel, env = RibbitSpielGame(game, players), RibbitEnv(game, players)
        quiet = RibbitSpielGame(game, players, max_actions=spiel.max_actions, narration=False)
        seeded = RibbitSpielGame(game, players, max_actions=spiel.max_actions, chance="seed")

        def integer_api(log, chance=False):
            rng, steps = random.Random(0), 0
            for seed in range(games):
                state = game.new_game(players, seed, log=log, chance=True) if chance else game.new_game(players, seed, log=log)
                while not state.is_terminal():
                    if chance and state.is_chance():
                        outcomes = state.chance_outcomes()
                        state.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
                        continue
                    player = state.current_players()[0]
                    state.apply_id(player, state.sample_action_id(player, rng))
                    steps += 1
            return steps

        def through_openspiel(spiel):
            rng, steps = random.Random(0), 0
            for seed in range(games):
                state = spiel.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        outcomes = state.chance_outcomes()
                        state.apply_action(seed % spiel.seeds if spiel.chance == "seed" else
                                           rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
                        continue
                    state.apply_action(rng.choice(state.legal_actions()))
                    steps += 1
            return steps

        runs = {"API": lambda: integer_api(False), "API, narrated": lambda: integer_api(True),
                "API, chance mode": lambda: integer_api(False, True),
                "API, chance mode, narrated": lambda: integer_api(True, True),
                "OpenSpiel": lambda: through_openspiel(spiel), "OpenSpiel, unnarrated": lambda: through_openspiel(quiet),
                "OpenSpiel, seed model": lambda: through_openspiel(seeded), "PettingZoo": lambda: pettingzoo_steps(env, games)}
        steps = {label: run() for label, run in runs.items()}  # warm-up, and each path's step count
        best = {label: float("inf") for label in runs}
        for _ in range(repeats):
            for label, run in runs.items():
                best[label] = min(best[label], median_time(run, 1))
        rate = {label: steps[label] / best[label] for label in runs}
        print(f"  {name:12s} {players}p  integer API: seeded {rate['API']:6.0f}/s, narrated {rate['API, narrated']:6.0f}/s; "
              f"chance mode {rate['API, chance mode']:6.0f}/s, narrated {rate['API, chance mode, narrated']:6.0f}/s")
        print(f"  {'':12s}     OpenSpiel {rate['OpenSpiel']:6.0f}/s "
              f"({rate['API, chance mode, narrated'] / rate['OpenSpiel']:.2f}x the narrated chance-mode API's cost), "
              f"narration=False {rate['OpenSpiel, unnarrated']:6.0f}/s "
              f"({rate['API, chance mode'] / rate['OpenSpiel, unnarrated']:.2f}x), chance='seed' "
              f"{rate['OpenSpiel, seed model']:6.0f}/s ({rate['API, narrated'] / rate['OpenSpiel, seed model']:.2f}x "
              f"the narrated seeded API's)   PettingZoo {rate['PettingZoo']:6.0f}/s "
              f"({rate['API'] / rate['PettingZoo']:.2f}x the seeded API's)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games (a smoke check)")
    parser.add_argument("--no-memory", action="store_true", help="skip the simulate memory runs")
    parser.add_argument("--no-compare", action="store_true", help="skip the `ribbit compare` runs")

    parser.add_argument("--no-parallel", action="store_true", help="skip --jobs 1 vs --jobs 2")
    parser.add_argument("--no-pettingzoo", action="store_true", help="skip PettingZoo steps/s vs the integer API")
    parser.add_argument("--ray", action="store_true", help="also time the ray backend on a local Ray instance")
    parser.add_argument("--against", metavar="PATH", help="the core figures of this checkout and of the one at PATH, "
                        "side by side (child processes, taken in turn)")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: how many turns each (default 3)")
    parser.add_argument("--repeats", type=int, help="runs of each measure, the best or median taken (default 5; "
                        "3 with --quick): more settle a noisy machine's ratios")
    parser.add_argument("--figures-json", action="store_true", help=argparse.SUPPRESS)  # one child of --against
    parser.add_argument("--root", help=argparse.SUPPRESS)  # (read before the imports: see _root)
    parser.add_argument("--parallel-only", action="store_true",
                        help="only --jobs 1 vs --jobs 2 (and --ray): a short run to catch a quiet moment")
    parser.add_argument("--adapters-only", action="store_true",
                        help="only the PettingZoo and OpenSpiel steps/s against the integer API")
    args = parser.parse_args(argv)
    if args.figures_json:
        import json

        print(json.dumps(core_figures(args.quick)))
        return 0
    if args.against:
        against(Path(args.against).resolve(), args.rounds, args.quick)
        return 0
    if args.parallel_only:
        bench_parallel(500 if args.quick else 2000, 3 if args.quick else 5, ray=args.ray)
        return 0
    games = 100 if args.quick else 400
    repeats = args.repeats or (3 if args.quick else 5)
    if args.adapters_only:
        bench_pettingzoo(repeats)
        bench_adapters(repeats)
        return 0

    print(f"Ribbit benchmark  (Python {sys.version.split()[0]}, {os.cpu_count()} cores, one core used but by the parallel runs)")
    print("\nload + validate + compile (median): loaded again / first load in a fresh process:")
    for name, (path, _) in GAMES.items():
        print(f"  {name:12s} {bench_load(path, repeats) * 1000:8.1f} ms  {bench_first_load(path, repeats) * 1000:8.1f} ms")

    print(f"\nrandom full games, {games} games x {repeats} runs (median; Top Frog "
          f"{max(1, games // GAMES_DIVISOR['Top Frog'])} games), by option number "
          "(sample_action_id + apply_id, as `ribbit simulate`):")
    for name, (path, counts) in GAMES.items():
        for players in counts:
            per_game, per_decision = bench_games(path, players, max(1, games // GAMES_DIVISOR.get(name, 1)), repeats)
            print(f"  {name:12s} {players}p  {per_game:8.0f} games/s  {per_decision:10.0f} decisions/s")

    print(f"\n`ribbit simulate`'s work, random bots (state.playout), the definition loaded, {games} games x {repeats} runs "
          "(median; Top Frog fewer):")
    for name, (path, counts) in GAMES.items():
        for players in counts:
            count = max(2, games // GAMES_DIVISOR.get(name, 1))
            print(f"  {name:12s} {players}p  {bench_simulated(path, players, count, repeats):8.1f} games/s")

    print("\nagainst a tight hand-written simulator of the same rules (tools/reference_frog_tower.py), 3 players:")
    engine_rate, reference_rate, ratio = bench_simulated_against_reference(games // 4, repeats)
    print(f"  engine {engine_rate:8.0f} games/s   hand-written {reference_rate:8.0f} games/s   "
          f"engine is {ratio:.1f}x slower (median of interleaved runs), `ribbit simulate` (state.playout)")
    for by_text, path in ((False, "by number (sample_action_id + apply_id)"), (True, "by text (legal_actions + apply)")):
        engine_rate, reference_rate, ratio = bench_against_reference(games // 4, repeats, by_text)
        print(f"  engine {engine_rate:8.0f} games/s   hand-written {reference_rate:8.0f} games/s   "
              f"engine is {ratio:.1f}x slower (median of interleaved runs), random bot {path}")

    print("\nbot decisions per second (Frog Tower, 3 players; CPU time; the same positions, each with a real choice):")
    frog_tower = load_game(ROOT / GAMES["Frog Tower"][0])
    for name, params in BOTS:
        slow = params.get("iterations", 0) >= 1000
        count = (3 if slow else 20) if args.quick else (10 if slow else 60)
        rate = bench_bot(frog_tower, 3, name, params, bot_positions(frog_tower, 3, count))
        label = name + "".join(f" {k}={v}" for k, v in params.items())
        print(f"  {label:24s} {rate:10.1f} decisions/s  ({count} decisions)")

    print("\nsearch (100 iterations a decision; CPU time) and what an iteration pays before it plays:")
    for name, players in SEARCH_GAMES:
        if name not in GAMES:
            continue
        game = load_game(ROOT / GAMES[name][0])
        positions = bot_positions(game, players, 8 if args.quick else 20)
        rates = [f"{bot} {bench_search(game, players, bot, 100, positions, repeats):7.0f}" for bot in ("ismcts", "mcts")]
        worlds, clones = bench_copies(positions, repeats)
        print(f"  {name:12s} {players}p  iterations/s: {'   '.join(rates)}   determinised {worlds:6.1f} µs   "
              f"clone {clones:6.1f} µs")

    if not args.no_pettingzoo:
        bench_pettingzoo(repeats)
        bench_adapters(repeats)

    if not args.no_parallel:
        bench_parallel(500 if args.quick else 2000, repeats, ray=args.ray)

    if not args.no_memory:
        sizes = (1_000, 10_000) if not args.quick else (200, 2_000)
        print("\npeak memory of `ribbit simulate` (Frog Tower, 3 players) as games grow:")
        for count in sizes:
            rss, seconds = peak_rss_of_simulate(GAMES["Frog Tower"][0], 3, count)
            print(f"  {count:7d} games  peak RSS {rss:7.1f} MiB  ({seconds:.1f} s)")

    if not args.no_compare:
        sizes = (500, 2_000) if not args.quick else (100, 400)
        print(f"\n`ribbit compare` of {len(COMPARE_CONFIGS)} configurations (Frog Tower 3 players: base, "
              "crayfish:rule=pass_left, flower), one process; wall time and peak memory as games grow:")
        for count in sizes:
            rss, seconds = peak_rss_of_compare(GAMES["Frog Tower"][0], 3, count)
            print(f"  {count:7d} games per configuration  {seconds:6.1f} s  "
                  f"({len(COMPARE_CONFIGS) * count / seconds:5.0f} games/s)  peak RSS {rss:7.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
