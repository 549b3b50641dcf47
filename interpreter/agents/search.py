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

Each iteration walks down the tree with UCB1, adds one node, then plays random moves (the rollout,
``state.playout``: uniform draws straight from the pending decisions, no option's text made) until the
game ends or ``rollout`` decisions have been made after the decision being taken.  A finished
game is worth ``state.returns()`` to each player; an unfinished one is worth a share of 1 among the
leaders by ``state.current_scores()``.  Each node adds up the worth to the player who moved into it.
An iteration in which a rule fails (in an imagined world only, maybe) is dropped whole: the node it
added is taken out again, so no option is left in the tree without a visit to value it by.
At a simultaneous decision the searching seat chooses first in the tree and the others after it
without seeing its pick in the real game; in the tree they answer it (a cautious assumption).

The options of the decision are first tried in an order shuffled by the bot's seeded generator
(``prior=1``: best first by the greedy bot's one-move judgement, keeping only the best
``iterations / 4`` when there are more — measured on a shipped game it did not play better, so it is off
by default).  The final choice is the most visited move, then the best average, then the first
tried, so a bot's decisions follow from its seed.
"""

from __future__ import annotations

import math
import random
import time

from ..errors import RibbitError
from .greedy import GreedyAgent
from .params import Param

COMMON = {
    "iterations": Param(int, 1, 1_000_000, 200, "searches per decision"),
    "c": Param(float, 0.0, 100.0, 0.7, "the exploration constant of UCB1"),
    "rollout": Param(int, 0, 1_000_000, 200, "most decisions played ahead of the decision taken, tree and "
                                             "random rollout together"),
    "prior": Param(int, 0, 1, 0, "1: the decision's options are tried best first by the greedy bot's judgement "
                                 "(only the best iterations/4 of them); 0: at random"),
    "time": Param(float, 0.01, 3600.0, None, "seconds of search per decision: it stops when they are up (after at "
                                            "least one iteration), or after 'iterations' if given too"),
}
UNTIMED_ITERATIONS = 200  # iterations per decision when neither 'iterations' nor 'time' is given


class Node:
    __slots__ = ("visits", "avail", "total", "children")

    def __init__(self):
        self.visits = 0
        self.avail = 0
        self.total = 0.0  # summed worth for the player who moved into this node
        self.children = {}  # (player, action) -> Node


def worth(state) -> list[float]:
    """What the position is worth to each player: the returns if over, else a share among the score leaders."""
    if state.over:
        return state.returns()
    scores = state.current_scores()
    best = max(scores)
    leaders = scores.count(best)
    return [1.0 / leaders if s == best else 0.0 for s in scores]


class TreeSearchAgent:
    """The shared search; subclasses say whether each iteration gets its own determinisation."""

    name = "tree search"
    uses_view = False
    PARAMS = COMMON
    new_world_each_iteration = True

    def __init__(self, seed=None, iterations=None, c=0.7, rollout=200, prior=0, time=None):
        self.rng = random.Random(seed)
        if iterations is None:  # a time budget alone searches until the time is up
            iterations = UNTIMED_ITERATIONS if time is None else COMMON["iterations"].high
        self.iterations, self.c, self.rollout, self.prior, self.time = iterations, c, rollout, prior, time
        self.failed = 0  # iterations dropped because a rule failed in an imagined world

    def act(self, state, seat: int) -> str:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        root = Node()
        base = None if self.new_world_each_iteration else _world(state, seat, rng)
        order = self._order(state, seat, legal, base)
        deadline = None if self.time is None else time.monotonic() + self.time
        for done in range(self.iterations):
            if deadline is not None and done and time.monotonic() >= deadline:
                break  # anytime: the search so far decides
            if base is None:
                world = _world(state, seat, rng)
            else:
                world = base.clone()
                world.rng = state.game.seed_state(rng.getrandbits(64))
            try:
                self._iterate(root, world, seat, order)
            except RibbitError:
                self.failed += 1

        def rank(position):  # most visited; then the best mean; then the first in the order tried
            child = root.children.get((seat, order[position]))
            if child is None or not child.visits:
                return (0, 0.0, -position)
            return (child.visits, child.total / child.visits, -position)
        return order[max(range(len(order)), key=rank)]

    def _order(self, state, seat, legal, base) -> list:
        """The root's options in the order they are first tried: shuffled by the bot's generator, then,
        with ``prior``, best first by the greedy bot's one-move judgement on one determinised copy."""
        order = legal[:]
        self.rng.shuffle(order)
        if not self.prior:
            return order
        world = base if base is not None else _world(state, seat, self.rng)
        others_seed = self.rng.getrandbits(64)
        judged = {action: GreedyAgent.try_option(world, seat, action, others_seed) for action in order}
        order.sort(key=judged.__getitem__, reverse=True)  # stable: equals keep their shuffled order
        return order[:max(2, self.iterations // 4)]  # too many options for the iterations: the best judged

    def _iterate(self, root: Node, world, seat: int, order: list) -> None:
        added = []  # (children, key) of the node this iteration adds
        try:
            path = self._walk(root, world, seat, order, added)
        except RibbitError:
            if added:  # a world where a rule failed values nothing: no node is left unvisited
                children, key = added[0]
                del children[key]
            raise
        value = worth(world)
        root.visits += 1
        for node, mover in path:
            node.visits += 1
            node.total += value[mover]

    def _walk(self, root: Node, world, seat: int, order: list, added: list) -> list:
        """Go down the tree from the root, adding one node (recorded in ``added``), then play the rollout:
        the path of (node, player who moved into it)."""
        node, path = root, []
        here = set(world.legal_actions(seat))
        player, legal = seat, [a for a in order if a in here] or order
        budget = self.rollout
        while True:
            children = node.children
            keys = [(player, a) for a in legal]
            key, fresh = self._descend(node, root, keys)
            node = children[key]
            if fresh:
                added.append((children, key))
            world.apply(player, key[1])
            path.append((node, player))
            budget -= 1
            if fresh or world.over or budget <= 0:
                break
            player = world.current_players()[0]
            legal = world.legal_actions(player)
        if not world.over and budget > 0:  # the rollout: random moves straight from the decisions (state.playout)
            world.playout(self.rng, decisions=budget)
        return path

    def _descend(self, node: Node, root: Node, keys: list):
        """(the child's key to go down to, whether it is new): an option not tried yet (the root tries its options
        in order, deeper nodes at random), else the best by UCB1.  Each child offered counts one availability."""
        children = node.children
        fresh = [k for k in keys if k not in children]
        if fresh:
            key = fresh[0] if node is root or len(fresh) == 1 else fresh[self.rng.randrange(len(fresh))]
            children[key] = Node()
        else:
            key = self._best_by_ucb1(children, keys)
        for k in keys:
            child = children.get(k)
            if child is not None:
                child.avail += 1
        return key, bool(fresh)

    def _best_by_ucb1(self, children: dict, keys: list):
        """The key of the child with the highest UCB1 score (availability-counted, as ISMCTS needs); the first
        of equals."""
        key, best = None, -1.0
        for k in keys:
            child = children[k]
            score = child.total / child.visits + self.c * math.sqrt(math.log(child.avail + 1) / child.visits)
            if score > best:
                key, best = k, score
        return key


class MCTSAgent(TreeSearchAgent):
    """UCT on one determinisation per decision (chance drawn anew each iteration)."""

    name = "mcts"
    new_world_each_iteration = False


class ISMCTSAgent(TreeSearchAgent):
    """Single-observer information-set MCTS: a new determinisation every iteration."""

    name = "ismcts"
    new_world_each_iteration = True



def _world(state, seat, rng):
    """A determinised copy to search that keeps no history, narration or trace: a rollout that narrated
    every move it tries would pay for a record nobody reads."""
    world = state.determinised(seat, rng)
    world.log, world.log_seen, world.trace, world.trace_vars, world.history = None, [], None, None, []
    return world
