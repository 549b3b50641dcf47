"""The greedy bot: one move ahead, judged by the definition's own scoring.

For each legal option it plays the option on a determinised copy of the game (``state.determinised``:
the cards it cannot see dealt again at random, chance drawn from its own generator) and looks at the
result for itself: a finished game it wins (a larger share first) beats any unfinished one, an
unfinished one beats a finished one it lost, and among equals the higher own score
(``state.current_scores()``), then the larger lead over the best other player, wins.  Every option is
tried on the same copy, so they meet the same chance.  At a simultaneous decision the others' choices
in the copy are made at random (the same for every option).  With ``samples`` above 1 each option is
tried on that many copies and the judgements are added up.  Ties are broken by the bot's seeded
generator.
"""

from __future__ import annotations

import random

from ..errors import RibbitError
from .params import Param


def judge(state, seat: int) -> tuple:
    """How good ``state`` is for ``seat``: (won 2 / running 1 / lost 0, win share, own score, lead)."""
    scores = state.scores() if state.over else state.current_scores()
    own = scores[seat]
    others = [s for p, s in enumerate(scores) if p != seat]
    lead = own - max(others) if others else 0
    if state.over:
        share = state.returns()[seat]
        return (2 if share > 0 else 0, share, own, lead)
    return (1, 0.0, own, lead)


class GreedyAgent:
    """Plays the option whose result it judges best (see the module)."""

    name = "greedy"
    uses_view = False
    PARAMS = {"samples": Param(int, 1, 10_000, 1, "determinised copies each option is tried on")}

    def __init__(self, seed=None, samples=1):
        self.rng = random.Random(seed)
        self.samples = samples

    def act(self, state, seat: int) -> str:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        totals = [None] * len(legal)
        for _ in range(self.samples):
            world = state.determinised(seat, rng)
            others_seed = rng.getrandbits(64)
            for i, action in enumerate(legal):
                value = self.try_option(world, seat, action, others_seed)
                totals[i] = value if totals[i] is None else tuple(a + b for a, b in zip(totals[i], value))
        best = max(totals)
        ties = [a for a, t in zip(legal, totals) if t == best]
        return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    @staticmethod
    def try_option(world, seat, action, others_seed) -> tuple:
        """The judgement of ``action`` played by ``seat`` on a copy of ``world`` (a determinised copy)."""
        after = world.clone()
        try:
            after.apply(seat, action)
            pend = after.pending
            if pend is not None and pend["each"]:  # the others of a simultaneous decision choose at random
                pick = random.Random(others_seed)
                for other in after.current_players():
                    if other != seat:
                        options = after.legal_actions(other)
                        after.apply(other, options[pick.randrange(len(options))])
                        if after.pending is not pend:
                            break
        except RibbitError:  # a rule failed in this imagined world: the option is judged worst
            return (-1, 0.0, 0, 0)
        return judge(after, seat)
