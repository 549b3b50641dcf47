"""The state's seeded random number generator: one integer of state, so it copies and saves for free.

SplitMix64 is small, fast in pure Python and statistically sound for shuffling
cards.  Keeping the whole generator state in one int makes ``clone()`` and JSON
save files trivial, and makes every game replay bit for bit from its seed.
"""

from __future__ import annotations

from itertools import repeat, starmap

import _random  # the C Mersenne Twister behind random.Random: same draws, without its Python-level seeding

MASK = (1 << 64) - 1
MAX_SEED_BITS = 1024  # any seed anyone types or derives fits; bounds what a save file can make us compute
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return (int(seed) * 0xBF58476D1CE4E5B9 + GOLDEN) & MASK


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator: returns (new state, 64 random bits)."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)`` (n > 0): returns (new state, value)."""
    state, bits = next_u64(state)
    return state, (bits * n) >> 64


def shuffle(state: int, items: list) -> int:
    """Shuffle ``items`` in place; returns the new state.

    One 64-bit draw seeds a Mersenne Twister that gives every item a random sort
    key: a uniform permutation, computed mostly in C (ten times faster than a
    pure-Python Fisher-Yates), and reproducible on every CPython.
    """
    state, seed = next_u64(state)
    draw = _random.Random(seed).random
    keys = list(starmap(draw, repeat((), len(items))))  # draw() once per item, in order, the loop in C
    order = sorted(range(len(items)), key=keys.__getitem__)
    items[:] = list(map(items.__getitem__, order))
    return state
