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
* Gardens keep a leaf count and a list of frogs; towers are only looked for
  when someone who just received a card can build (between turns nobody can,
  since building is forced).  A tower's score is one look-up: each frog kind
  has a value with a 3-bit counter per type, and the sum of the four values
  indexes a 32768-entry table of points (0 for the Legendary tower).
* Choices by kind without enumerating: a bust's cards are put in "taken" order
  first (a random distinct kind at a time; for the last two cards a coin flip,
  since uniform over two cards is uniform over their kinds), then dealt by a
  precomputed seat sequence (the 2-player take/discard/take included).  Four
  frogs of five are the one left out, uniform over its kinds; bigger gardens
  enumerate the multisets once per group sizes (cached, as the engine does).
* One function, locals only (no closures, no ``nonlocal``, no global or
  attribute look-ups in the loops).

Checked against the engine's random bot (35,000 engine games for 3 players,
33,000 for 4, 3,000 for 2): mean points and towers per player, Legendary rate,
winning score, shared wins, and the mean number of flip, stop, take and tower
decisions per game agree within two standard errors.  (The decision counts
are the sharp test: a rainbow that matched nothing, or taking uniformly over
cards instead of kinds, moves them by 5 to 18 standard errors.)
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
# A tower's score from one table look-up: each frog adds 1 to its type's 3-bit field, so the sum of
# four frogs' values says how many of each type the tower holds.
COLOUR_VALUE = tuple(1 << (3 * t) for t in TYPE)


def _tower_points(total: int) -> int:
    """Points of the tower whose type counts are packed in ``total``; 0 for the Legendary tower."""
    counts = [(total >> (3 * t)) & 7 for t in range(5)]
    colours = min(4, sum(1 for t in range(4) if counts[t]) + counts[RAINBOW])
    return 0 if colours == 1 else POINTS[colours]  # ruling 7: each rainbow adds a colour


TOWER_POINTS = tuple(_tower_points(total) for total in range(1 << 15))
# Who gets the n-th card taken after a bust, by active seat: 3-5 players from the buster's left,
# clockwise, buster included (ruling 4); 2 players opponent, box (-1), buster, ... (ruling 5).
DEAL = {players: tuple(tuple(((active + 1 + j) % players) if players > 2 else (1 - active, -1, active)[j % 3]
                             for j in range(75)) for active in range(players)) for players in range(2, 6)}

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
    """Remove and return four of five or more frogs, uniform over the distinct multisets of kinds
    (the engine's choice)."""
    if len(frogs) == 5:     # the usual case: four of five is the one left, uniform over its kinds
        kinds = list(set(frogs))
        kept = kinds[int(rnd() * len(kinds))]
        frogs.remove(kept)
        tower = frogs[:]
        frogs[:] = [kept]
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
    return play_detailed(players, rng)[:2]


def play_detailed(players: int, rng: random.Random) -> tuple[list[int], list[int], list[int], bool]:
    """One random game; returns (points, winners, towers per player, ended by a Legendary tower)."""
    rnd = rng.random
    one_more, bit, busts_with, is_leaf = ONE_MORE, BIT, BUSTS_WITH, IS_LEAF
    value, tower_points, deal = COLOUR_VALUE, TOWER_POINTS, DEAL[players]
    pond = DECK[:]
    n = 75                      # cards not flipped yet: pond[:n]
    low = SET_ASIDE[players]    # ... of which the set-aside ones; the Pond is empty when n == low
    frogs = [[] for _ in range(players)]
    leaves = [STARTING_LEAVES[players]] * players
    points = [0] * players
    towers = [0] * players
    last_turn = False
    active = 0
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

        build = False
        if not bust:
            # ---- stop: the active player takes the Holding area; only they can have to build
            garden = frogs[active]
            for c in holding:
                if is_leaf[c]:
                    leaves[active] += 1
                else:
                    garden.append(c)
            build = len(garden) >= 4 and leaves[active] > 0
        else:
            # ---- bust: the cards are taken one at a time, each a random distinct kind (as the
            # engine's bot picks); first draw that order, then deal it by seat
            if len(holding) > 2:
                order = []
                while len(holding) > 2:
                    kinds = list(set(holding))  # a set of small ints iterates in a fixed order
                    c = kinds[int(rnd() * len(kinds))]
                    holding.remove(c)
                    order.append(c)
            else:
                order = None
            if rnd() < 0.5:     # two cards left: uniform over cards is uniform over kinds
                holding.reverse()
            if order is not None:
                order += holding
            else:
                order = holding
            for q, c in zip(deal[active], order):
                if q < 0:       # 2 players: the opponent's discard goes to the box
                    continue
                if is_leaf[c]:
                    leaves[q] += 1
                    if len(frogs[q]) >= 4:
                        build = True
                else:
                    garden = frogs[q]
                    garden.append(c)
                    if len(garden) >= 4 and leaves[q]:
                        build = True

        if build:
            # ---- ruling 6: forced towers, every player in turn order from the active one
            legendary = None
            q = active
            for _ in range(players):
                garden = frogs[q]
                while len(garden) >= 4 and leaves[q]:
                    leaves[q] -= 1
                    towers[q] += 1
                    if len(garden) == 4:
                        a, b, c, d = garden
                        garden.clear()
                    else:
                        a, b, c, d = _pick_tower(garden, rnd)
                    score = tower_points[value[a] + value[b] + value[c] + value[d]]
                    if score:
                        points[q] += score
                    else:               # ruling 7: one colour and no rainbow, the Legendary tower
                        if legendary is None:
                            legendary = []
                        legendary.append(q)
                q = q + 1 if q + 1 < players else 0
            if legendary is not None:  # ruling 8: the game ends at once
                return points, sorted(set(legendary)), towers, True
        if last_turn:
            break
        active = active + 1 if active + 1 < players else 0

    # ---- ruling 10: most points, then fewest towers; still tied, a shared win
    best = max((points[p], -towers[p]) for p in range(players))
    return points, [p for p in range(players) if (points[p], -towers[p]) == best], towers, False


def run(players: int, games: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(games):
        play_detailed(players, rng)


if __name__ == "__main__":
    for count in (2, 3, 4):
        start = time.perf_counter()
        run(count, 20_000)
        print(f"{count} players: {20_000 / (time.perf_counter() - start):8.0f} games/s")
