"""What every way of running a batch of games shares: its chunks, the CPUs, the definitions, its error.

:mod:`interpreter.sim` runs the chunks in this process or a pool of processes,
:mod:`interpreter.ray_backend` as Ray tasks; both take these from here, so neither imports the other's
module to start.
"""

from __future__ import annotations

import os

from .errors import RibbitError


class SimulationError(RibbitError):
    """A game stopped during a simulation (a rule failed, or it never ended)."""


def chunks(games: int, jobs: int):
    """Split ``range(games)`` into chunks small enough for a smooth progress bar and fair sharing.

    A generator: a run of a billion games must not hold millions of chunks in memory.
    """
    size = max(1, min(200, games // (jobs * 8) or 1))
    return ((start, min(start + size, games)) for start in range(0, games, size))


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def load_definitions(path, variant_lists, options=None) -> list:
    """The definition at ``path`` with each list of variants (in order), each distinct list loaded once
    (compiled with ``options``, a CompileOptions, when given: the coverage build of ``--coverage``)."""
    from .loader import load_game

    loaded = {}
    for variants in variant_lists:
        key = tuple(variants)
        if key not in loaded:
            loaded[key] = load_game(path, variants=list(variants), options=options)
    return [loaded[tuple(variants)] for variants in variant_lists]
