"""Monte Carlo tree search over determinised copies of a game: UCT (``mcts``) and information-set MCTS (``ismcts``).

Both bots see the real game only through ``state.determinised(seat, rng)``: a copy in which every card
the seat cannot see is dealt again at random and future chance is drawn from the bot's own generator.

* ``ismcts`` (single-observer information-set MCTS, Cowling, Powley & Whitehouse 2012, as in OpenSpiel's
  ``ismcts.py``): every iteration searches a new determinisation.  The tree is keyed by (player,
  action text) from the decision being taken; a move is counted as *available* whenever it is legal
  in an iteration's determinisation, and selection uses those counts (UCB on availability), so moves
  that exist only in some worlds are weighed fairly.
* ``mcts`` (UCT): one determinisation per decision, searched by every iteration; only the chance
  draws are new each iteration (open-loop: the same availability counts).  On a game without hidden
  cards that is plain UCT; on a game with hidden cards it plans as if one guess at them were true,
  which is why ``ismcts`` is the bot for such games.

Each iteration walks down the tree with UCB1, adds one node, then plays random moves (the rollout)
until the game ends or ``rollout`` decisions have been made after the decision being taken.  A finished
game is worth ``state.returns()`` to each player; an unfinished one is worth a share of 1 among the
leaders by ``state.current_scores()``.  Each node adds up the worth to the player who moved into it.
At a simultaneous decision the searching seat chooses first in the tree and the others after it
without seeing its pick in the real game; in the tree they answer it (a cautious assumption).

The final choice is the most visited move; ties are broken by the bot's seeded generator, so a
bot's decisions follow from its seed.
"""

from __future__ import annotations

import math
import random

from ..errors import RibbitError
from .params import Param

COMMON = {
    "iterations": Param(int, 1, 1_000_000, 200, "searches per decision"),
    "c": Param(float, 0.0, 100.0, 0.7, "the exploration constant of UCB1"),
    "rollout": Param(int, 0, 1_000_000, 200, "most decisions played ahead of the decision taken, tree and "
                                             "random rollout together"),
}


class Node:
    __slots__ = ("visits", "avail", "total", "children")

    def __init__(self):
        self.visits = 0
        self.avail = 0
        self.total = 0.0  # summed worth for the player who moved into this node
        self.children = {}  # (player, action) -> Node


import os
WORTH = os.environ.get("RIBBIT_WORTH", "leaders")
def worth(state) -> list[float]:
    """What the position is worth to each player: the returns if over, else a share among the score leaders."""
    if state.over:
        return state.returns()
    scores = state.current_scores()
    if WORTH == "rank":
        n = len(scores)
        return [(sum(s > t for t in scores) + 0.5 * (scores.count(s) - 1)) / (n - 1) / n * 2 if n > 1 else 0.5 for s in scores]
    best = max(scores)
    leaders = scores.count(best)
    return [1.0 / leaders if s == best else 0.0 for s in scores]


class TreeSearchAgent:
    """The shared search; subclasses say whether each iteration gets its own determinisation."""

    name = "tree search"
    uses_view = False
    PARAMS = COMMON
    new_world_each_iteration = True

    def __init__(self, seed=None, iterations=200, c=0.7, rollout=200):
        self.rng = random.Random(seed)
        self.iterations, self.c, self.rollout = iterations, c, rollout
        self.failed = 0  # iterations dropped because a rule failed in an imagined world

    def act(self, state, seat: int) -> str:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        root = Node()
        base = None if self.new_world_each_iteration else state.determinised(seat, rng)
        for _ in range(self.iterations):
            if base is None:
                world = state.determinised(seat, rng)
            else:
                world = base.clone()
                world.rng = state.game.seed_state(rng.getrandbits(64))
            try:
                self._iterate(root, world, seat, legal)
            except RibbitError:
                self.failed += 1
        best, most = [], -1
        for action in legal:
            child = root.children.get((seat, action))
            visits = child.visits if child is not None else 0
            if visits > most:
                best, most = [action], visits
            elif visits == most:
                best.append(action)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def _iterate(self, root: Node, world, seat: int, root_legal: list) -> None:
        rng, c = self.rng, self.c
        node, path = root, []
        player, legal = seat, [a for a in world.legal_actions(seat) if a in root_legal] or root_legal
        budget = self.rollout
        while True:
            children = node.children
            keys = [(player, a) for a in legal]
            fresh = [k for k in keys if k not in children]
            if fresh:
                key = fresh[rng.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
                children[key] = Node()
            else:
                key, best = None, -1.0
                for k in keys:
                    child = children[k]
                    score = child.total / child.visits + c * math.sqrt(math.log(child.avail + 1) / child.visits)
                    if score > best:
                        key, best = k, score
            for k in keys:
                child = children.get(k)
                if child is not None:
                    child.avail += 1
            node = children[key]
            world.apply(player, key[1])
            path.append((node, player))
            budget -= 1
            if fresh or world.over or budget <= 0:
                break
            player = world.current_players()[0]
            legal = world.legal_actions(player)
        while not world.over and budget > 0:  # the rollout: random moves
            player = world.current_players()[0]
            options = world.legal_actions(player)
            world.apply(player, options[rng.randrange(len(options))])
            budget -= 1
        value = worth(world)
        root.visits += 1
        for node, mover in path:
            node.visits += 1
            node.total += value[mover]


class MCTSAgent(TreeSearchAgent):
    """UCT on one determinisation per decision (chance drawn anew each iteration)."""

    name = "mcts"
    new_world_each_iteration = False


class ISMCTSAgent(TreeSearchAgent):
    """Single-observer information-set MCTS: a new determinisation every iteration."""

    name = "ismcts"
    new_world_each_iteration = True
