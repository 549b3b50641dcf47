"""The ways to pick items from groups of alike items: counted without listing them, or listed.

A selection is how many of each group (identical cards are one group: which copy is taken cannot
matter), so choosing 4 of 26 cards, 20 of them alike, is 27 ways, not 14,950.
"""

from __future__ import annotations

import functools
import itertools
import math

from .limits import MAX_INT


@functools.lru_cache(maxsize=4096)
def count_shapes(caps: tuple, k: int, limit: int) -> int:
    """How many ways :func:`combo_shapes` has, counted without listing them; ``limit + 1`` if more than ``limit``.

    Picking k of n is as many ways as leaving n - k, so the smaller of the two is
    counted.  At least comb(groups, j) ways exist (j different groups, one item
    each), which refuses the huge cases at once; the rest is counted group by
    group (ways[t] = ways to pick t items from the groups so far).
    """
    n = sum(caps)
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    groups = len(caps)
    j = min(k, groups)
    if _comb_over(groups, j, limit):
        return limit + 1
    if groups * (k + 1) > 4_000_000:  # only when thousands of kinds are picked: far more than the limit
        return limit + 1
    ways = [1] + [0] * k
    for cap in caps:
        new, window = [], 0
        for t in range(k + 1):
            window += ways[t]
            if t > cap:
                window -= ways[t - cap - 1]
            new.append(window)
        ways = new
    return min(ways[k], limit + 1)


def _comb_over(n: int, j: int, limit: int) -> bool:
    """Is comb(n, j) > limit?  Stops multiplying as soon as it is."""
    j = min(j, n - j)
    value = 1
    for i in range(j):
        value = value * (n - i) // (i + 1)
        if value > limit:
            return True
    return False


def count_any_shapes(caps: tuple) -> int:
    """How many ways to pick any number of items from groups of these sizes (up to 10^18, then capped)."""
    total = 1
    for cap in caps:
        total *= cap + 1
        if total > MAX_INT:
            return MAX_INT
    return total


def combo_shapes(caps: tuple, k: int) -> tuple:
    """The ways to pick k items from groups of the given sizes, as ((group index, times), ...).

    Cached when there are few (at most KEPT_SHAPES ways, picking at most KEPT_SHAPES items): the same
    group sizes recur in every game (five different cards, choose four).  A large listing is made
    again when asked for, not kept: a game whose every decision lists 80,000 ways, each of
    different groups, would otherwise hold thousands of them in memory.
    """
    n = sum(caps)
    if k < 0 or k > n:
        return ()
    if k <= KEPT_SHAPES and count_shapes(caps, k, KEPT_SHAPES) <= KEPT_SHAPES:  # few ways (however many cards)
        return _kept_combo_shapes(caps, k)
    return _combo_shapes(caps, k, n)

KEPT_SHAPES = 2_000


@functools.lru_cache(maxsize=256)  # at most 512,000 ways kept in all
def _kept_combo_shapes(caps: tuple, k: int) -> tuple:
    return _combo_shapes(caps, k, sum(caps))


def _combo_shapes(caps: tuple, k: int, n: int) -> tuple:
    """combo_shapes, made: small cases through itertools (lexicographic order), huge ones through :func:`multisets`."""
    if math.comb(n, k) > 20_000:
        return tuple(tuple(shape) for shape in multisets(range(len(caps)), caps, k))
    expanded = [i for i, cap in enumerate(caps) for _ in range(cap)]
    out = []
    for combo in dict.fromkeys(itertools.combinations(expanded, k)):
        counts = {}
        for i in combo:
            counts[i] = counts.get(i, 0) + 1
        out.append(tuple(counts.items()))
    return tuple(out)


def multisets(keys, caps, k, start=0):
    """All ways to pick k items from groups (key, cap), as [(key, times), ...] in group order."""
    if k == 0:
        yield []
        return
    if start >= len(keys):
        return
    remaining = sum(caps[start:])
    if remaining < k:
        return
    key, cap = keys[start], caps[start]
    for times in range(min(cap, k), -1, -1):
        for rest in multisets(keys, caps, k - times, start + 1):
            yield ([(key, times)] if times else []) + rest
