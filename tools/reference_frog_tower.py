"""A tight hand-written random simulator of Frog Tower: the speed baseline for tools/bench.py.

This is *not* part of Ribbit (the engine never runs it): it exists so the
benchmark can say how far the generic interpreter is from Python written for
one game.  It plays the same rules as ``definitions/frog_tower.yaml`` with
random choices (flip or stop, which card to take, which four frogs), as
directly as Python allows: cards are small ints, types are looked up in tuples.
"""

from __future__ import annotations

import random

GREEN, BLUE, YELLOW, RED, RAINBOW, LEAF = range(6)
# (type, one_more) per canonical Pond card: 75 cards, as in the definition
DECK = ([(GREEN, False)] * 18 + [(GREEN, True)] * 3 + [(BLUE, False)] * 14 + [(BLUE, True)] * 2
        + [(YELLOW, False)] * 14 + [(YELLOW, True)] * 2 + [(RED, False)] * 8 + [(RED, True)] * 1
        + [(RAINBOW, False)] * 4 + [(LEAF, False)] * 7 + [(LEAF, True)] * 2)
TYPE = tuple(t for t, _ in DECK) + (LEAF,) * 10  # cards 75..84 are starting leaves
ONE_MORE = tuple(m for _, m in DECK) + (False,) * 10
STARTING_LEAVES = {2: 4, 3: 3, 4: 2, 5: 2}
SET_ASIDE = {2: 12, 3: 12, 4: 6, 5: 6}
POINTS = {2: 1, 3: 3, 4: 5}


def same_type(a: int, b: int) -> bool:
    ta, tb = TYPE[a], TYPE[b]
    return ta == tb or (ta != LEAF and tb != LEAF and (ta == RAINBOW or tb == RAINBOW))


def play(players: int, rng: random.Random) -> tuple[list[int], list[int]]:
    """One random game; returns (points, winners)."""
    pond = list(range(75))
    rng.shuffle(pond)
    gardens = [[75 + p * STARTING_LEAVES[players] + i for i in range(STARTING_LEAVES[players])]
               for p in range(players)]
    set_aside = [pond.pop() for _ in range(SET_ASIDE[players])]
    points, towers, legendary = [0] * players, [0] * players, []
    refilled = last_turn = False
    active = 0

    def flip(holding):
        nonlocal refilled, last_turn
        card = pond.pop()
        holding.append(card)
        if not pond and not refilled:
            pond.extend(set_aside)
            rng.shuffle(pond)
            refilled = last_turn = True
        return card

    def build_towers(first):
        for q in [(first + i) % players for i in range(players)]:
            garden = gardens[q]
            while True:
                frogs = [c for c in garden if TYPE[c] != LEAF]
                leaves = [c for c in garden if TYPE[c] == LEAF]
                if len(frogs) < 4 or not leaves:
                    break
                tower = rng.sample(frogs, 4)
                for c in tower + [leaves[0]]:
                    garden.remove(c)
                towers[q] += 1
                kinds = {TYPE[c] for c in tower if TYPE[c] != RAINBOW}
                colours = min(4, len(kinds) + sum(TYPE[c] == RAINBOW for c in tower))
                if colours == 1:
                    legendary.append(q)
                else:
                    points[q] += POINTS[colours]

    while True:
        holding: list[int] = []
        card = flip(holding)
        while True:
            if not (ONE_MORE[card] and pond):
                if not pond or rng.random() < 0.5:
                    gardens[active].extend(holding)
                    build_towers(active)
                    break
            card = flip(holding)
            if any(c != card and same_type(c, card) for c in holding):
                while ONE_MORE[card] and pond:
                    card = flip(holding)
                q = (active + 1) % players
                while holding:
                    gardens[q].append(holding.pop(rng.randrange(len(holding))))
                    if players == 2 and holding:
                        holding.pop(rng.randrange(len(holding)))
                        if holding:
                            gardens[active].append(holding.pop(rng.randrange(len(holding))))
                        continue
                    q = (q + 1) % players
                build_towers(active)
                break
        if legendary:
            return points, sorted(set(legendary))
        if last_turn:
            break
        active = (active + 1) % players
    best = max((points[p], -towers[p]) for p in range(players))
    return points, [p for p in range(players) if (points[p], -towers[p]) == best]


def run(players: int, games: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(games):
        play(players, rng)
