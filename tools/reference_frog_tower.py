"""A tight hand-written random simulator of Frog Tower: the speed baseline for tools/bench.py.

This is *not* part of Ribbit (the engine never runs it): it exists so the
benchmark can say how far the generic interpreter is from Python written for
one game.  It plays the rules of ``definitions/frog_tower.yaml`` (rulings in
shared/design/rulings/frog_tower.md) with the engine's random bot policy:
uniform over the *distinct* legal choices of each decision, so flip/stop is
50-50 when both are open, a card to take (or discard) is drawn uniformly among
the distinct card kinds in the Holding area, and the four tower frogs are drawn
uniformly among the distinct multisets of kinds (as the engine's ``choose 4``).

Tricks that make it fast (pure Python, stdlib only):

* A card is its kind id (0-24, in the order of the YAML components); identical
  copies are the same int, so "distinct kinds" is just ``set(holding)``.
  Properties come from tuples indexed by kind: type bit, bust mask, One more!.
* No shuffle.  Setting the top 12 (or 6) cards aside and flipping the rest, then
  the shuffled set-aside cards, flips a uniformly random permutation of the 75
  cards, so each flip draws a random remaining card (swap-remove, no ``pop``
  from the middle) and the Pond "empties" when only the set-aside count is
  left: one float per flip instead of a 75-step Python ``shuffle`` per game.
  ``int(random() * n)`` is the index (bias below n / 2**53).
* Bust test in O(1): the Holding area keeps a bit mask of the types in it; each
  kind has a mask of the types it busts with (a rainbow's holds every frog
  colour, a frog's holds its colour and rainbow, a leaf's holds leaf).
* Gardens keep a leaf count and a list of frogs; towers are only checked for
  players who just received cards (between turns nobody can build, since
  building is forced), and tower options are cached by group sizes.
* One function, locals only (no closures, no ``nonlocal``, no attribute lookups
  in the loops).
"""

from __future__ import annotations

import random
import time

GREEN, BLUE, YELLOW, RED, RAINBOW, LEAF = range(6)
FROG_BITS = 0b11111  # green..rainbow
# One entry per card kind, in the order of definitions/frog_tower.yaml: (type, One more!, count).
# Flower variants are kinds of their own (the engine offers them as distinct choices).
KINDS = (
    (GREEN, False, 14), (GREEN, True, 3), (GREEN, False, 2), (GREEN, False, 1), (GREEN, False, 1),
    (BLUE, False, 11), (BLUE, True, 2), (BLUE, False, 1), (BLUE, False, 1), (BLUE, False, 1),
    (YELLOW, False, 10), (YELLOW, True, 2), (YELLOW, False, 1), (YELLOW, False, 1), (YELLOW, False, 2),
    (RED, False, 6), (RED, True, 1), (RED, False, 1), (RED, False, 1),
    (RAINBOW, False, 3), (RAINBOW, False, 1),
    (LEAF, False, 5), (LEAF, True, 2), (LEAF, False, 1), (LEAF, False, 1),
)
DECK = [k for k, (_, _, count) in enumerate(KINDS) for _ in range(count)]  # the 75 Pond cards
TYPE = tuple(t for t, _, _ in KINDS)
ONE_MORE = tuple(m for _, m, _ in KINDS)
IS_LEAF = tuple(t == LEAF for t in TYPE)
BIT = tuple(1 << t for t in TYPE)
BUSTS_WITH = tuple(FROG_BITS if t == RAINBOW else (1 << t) | (1 << RAINBOW) if t != LEAF else 1 << LEAF
                   for t in TYPE)  # ruling 3: the types in Holding that make this card a bust
STARTING_LEAVES = {2: 4, 3: 3, 4: 2, 5: 2}
SET_ASIDE = {2: 12, 3: 12, 4: 6, 5: 6}
POINTS = (None, None, 1, 3, 5)  # colours -> points (1 colour is the Legendary win)
COLOUR_COUNT = tuple(bin(m).count("1") for m in range(16))  # distinct non-rainbow colours in a mask

_SHAPES: dict[tuple, tuple] = {}  # group sizes -> the distinct ways to pick 4, as ((group, times), ...)


def _shapes(caps: tuple) -> tuple:
    """The distinct multisets of 4 from groups of identical frogs of the given sizes."""
    out = []

    def walk(group, left, picked):
        if left == 0:
            out.append(tuple(picked))
            return
        if group == len(caps):
            return
        for times in range(min(left, caps[group]), -1, -1):
            walk(group + 1, left - times, picked + [(group, times)] if times else picked)
    walk(0, 4, [])
    return tuple(out)


def _pick_tower(frogs: list, rnd) -> list:
    """Remove and return four frogs, uniform over the distinct multisets of kinds (the engine's choice)."""
    if len(frogs) == 4:
        tower = frogs[:]
        frogs.clear()
        return tower
    groups: dict[int, int] = {}
    for k in frogs:
        groups[k] = groups.get(k, 0) + 1
    caps = tuple(groups.values())
    shapes = _SHAPES.get(caps)
    if shapes is None:
        shapes = _SHAPES[caps] = _shapes(caps)
    kinds = list(groups)
    tower = []
    for group, times in shapes[int(rnd() * len(shapes))]:
        kind = kinds[group]
        for _ in range(times):
            tower.append(kind)
            frogs.remove(kind)
    return tower


def play(players: int, rng: random.Random) -> tuple[list[int], list[int]]:
    """One random game; returns (points, winners)."""
    rnd = rng.random
    one_more, bit, busts_with, is_leaf = ONE_MORE, BIT, BUSTS_WITH, IS_LEAF
    pond = DECK[:]
    n = 75                      # cards not flipped yet: pond[:n]
    low = SET_ASIDE[players]    # ... of which the set-aside ones; the Pond is empty when n == low
    frogs = [[] for _ in range(players)]
    leaves = [STARTING_LEAVES[players]] * players
    points = [0] * players
    towers = [0] * players
    last_turn = False
    active = 0
    two = players == 2
    while True:
        # ---- one turn: flip into the Holding area until stop or bust
        i = int(rnd() * n)
        n -= 1
        card = pond[i]
        pond[i] = pond[n]
        if n == low and low:    # ruling 9: set-aside cards join the Pond; this is the last turn
            low = 0
            last_turn = True
        holding = [card]
        mask = bit[card]
        bust = False
        while True:
            if not (one_more[card] and n > low):   # ruling 1: One more! forces a flip
                if n == low or rnd() < 0.5:       # stop (the only choice once the Pond is empty)
                    break
            i = int(rnd() * n)
            n -= 1
            card = pond[i]
            pond[i] = pond[n]
            if n == low and low:
                low = 0
                last_turn = True
            holding.append(card)
            if busts_with[card] & mask:
                bust = True
                while one_more[card] and n > low:  # ruling 2: flip on, no bust check
                    i = int(rnd() * n)
                    n -= 1
                    card = pond[i]
                    pond[i] = pond[n]
                    if n == low and low:
                        low = 0
                        last_turn = True
                    holding.append(card)
                break
            mask |= bit[card]

        if not bust:
            # ---- stop: the active player takes the Holding area; only they can have to build
            garden = frogs[active]
            for c in holding:
                if is_leaf[c]:
                    leaves[active] += 1
                else:
                    garden.append(c)
            if len(garden) < 4 or not leaves[active]:
                if last_turn:
                    break
                active = active + 1 if active + 1 < players else 0
                continue
        else:
            # ---- bust: share the Holding area out, one distinct kind at a time, chosen at random
            q = active + 1 if active + 1 < players else 0
            step = 0            # 2 players (ruling 5): opponent takes, discards, buster takes
            while holding:
                if len(holding) == 1:
                    c = holding.pop()
                else:
                    kinds = list(set(holding))
                    c = kinds[int(rnd() * len(kinds))] if len(kinds) > 1 else kinds[0]
                    holding.remove(c)
                if two:
                    step += 1
                    if step == 2:
                        continue        # discarded to the box
                    if step == 3:
                        step = 0
                        q = active
                    else:
                        q = 1 - active
                if is_leaf[c]:
                    leaves[q] += 1
                else:
                    frogs[q].append(c)
                if not two:
                    q = q + 1 if q + 1 < players else 0

        # ---- ruling 6: forced towers, every player in turn order from the active one
        legendary = None
        q = active
        for _ in range(players):
            garden = frogs[q]
            while len(garden) >= 4 and leaves[q]:
                leaves[q] -= 1
                towers[q] += 1
                colours = 0
                rainbows = 0
                for c in _pick_tower(garden, rnd):
                    if c >= 19:         # kinds 19-20 are the rainbows
                        rainbows += 1
                    else:
                        colours |= bit[c]
                colours = COLOUR_COUNT[colours] + rainbows
                if colours == 1:        # ruling 7: one colour, no rainbow
                    if legendary is None:
                        legendary = []
                    legendary.append(q)
                else:
                    points[q] += POINTS[colours if colours < 4 else 4]
            q = q + 1 if q + 1 < players else 0
        if legendary is not None:      # ruling 8: the game ends at once
            return points, sorted(set(legendary))
        if last_turn:
            break
        active = active + 1 if active + 1 < players else 0

    # ---- ruling 10: most points, then fewest towers; still tied, a shared win
    best = max((points[p], -towers[p]) for p in range(players))
    return points, [p for p in range(players) if (points[p], -towers[p]) == best]


def run(players: int, games: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(games):
        play(players, rng)


if __name__ == "__main__":
    for count in (2, 3, 4):
        start = time.perf_counter()
        run(count, 20_000)
        print(f"{count} players: {20_000 / (time.perf_counter() - start):8.0f} games/s")
