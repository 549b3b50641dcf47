"""Chance as decisions: in chance mode every random event waits for an outcome chosen from outside.

A state started with ``chance=True`` draws nothing from its seeded generator.  Each random event
(a ``roll``, a ``random`` pick, a ``shuffled`` list, the order of a shuffled zone) is an
:class:`Event`: the outcomes it may have and their weights.  The rules of one step consume the
outcomes already chosen for that step, in order (``ChanceMode.queue``); when the next one has not been
chosen, :class:`ChanceNeeded` stops the step, and the core (:mod:`interpreter.chance`) presents the event
as a chance node, then runs the step again from its start with the chosen outcome queued.

A shuffle decides no order: a shuffled hidden zone becomes :class:`Unresolved`, whose middle
positions hold its cards in a canonical order (sorted ids: no information) until a rule reads a
position; each read position is one event over the distinct cards it may hold, weighted by how many
of each remain.  Its size, and whether a card is in it, need no event.
"""

from __future__ import annotations

from ..errors import RuleError

MAX_OUTCOMES = 1024  # outcomes of one chance node; a larger choice is split in parts (a part, then within it)
MAX_EVENTS = 4096  # random events of one step: each runs the step again, so this bounds the work too

CARD = "card"  # an Event whose outcomes are card ids
NUMBER = "number"  # an Event whose outcomes are numbers 0..m-1 (an index, a die's face less one, a part)

OUTSIDE = ("in chance mode a random outcome is decided only while the rules run (after an action or at "
           "setup); this reads a random outcome, or the order of a shuffled hidden zone, outside them")


class ChanceNeeded(BaseException):
    """A random event needs an outcome not chosen yet: the step stops here (a BaseException, so that no
    rule's ``except Exception`` can swallow it)."""

    def __init__(self, event):
        super().__init__(event.what)
        self.event = event


class Event:
    """One chance node: ``outcomes`` (distinct ints) with whole-number ``weights`` (probability
    weight / total); ``kind`` says what the outcomes are (CARD or NUMBER), ``what`` says which event it is."""

    __slots__ = ("kind", "what", "outcomes", "weights", "total")

    def __init__(self, kind, what, outcomes, weights):
        self.kind, self.what = kind, what
        self.outcomes, self.weights = tuple(outcomes), tuple(weights)
        self.total = sum(self.weights)

    def probabilities(self) -> list:
        total = self.total
        return [(o, w / total) for o, w in zip(self.outcomes, self.weights)]

    def to_json(self) -> dict:
        return {"kind": self.kind, "what": self.what, "outcomes": list(self.outcomes), "weights": list(self.weights)}


class ChanceMode:
    """A state's chance mode: the outcomes chosen for the step being run and where the step started.

    ``queue``: the outcomes chosen so far for the current step, in order; ``used``: how many the running
    rules consumed; ``node``: the Event waiting for an outcome (None at a decision); ``boundary``: a copy
    of the state before the current step, never changed (a step is always run again from a clone of it);
    ``step``: what the step is (SETUP, or the decision applied); ``live``: rules are running;
    ``spent``: budget steps spent by the step's runs so far.
    """

    __slots__ = ("queue", "used", "node", "boundary", "step", "live", "spent")

    def __init__(self):
        self.queue, self.used, self.node, self.boundary, self.step = [], 0, None, None, None
        self.live, self.spent = False, 0

    def copy(self) -> "ChanceMode":
        c = ChanceMode()
        c.queue, c.used, c.node, c.boundary, c.step = self.queue[:], self.used, self.node, self.boundary, self.step
        c.live, c.spent = self.live, self.spent
        return c


# ---------------------------------------------------------------- consuming outcomes
def outcome(ctx, event):
    """The next chosen outcome of this step, which must be one of ``event``'s; else stop the step."""
    if not ctx.live:
        raise RuleError(OUTSIDE)
    if len(event.outcomes) == 1:  # decided already: nothing to ask
        return event.outcomes[0]
    queue = ctx.queue
    if ctx.used < len(queue):
        o = queue[ctx.used]
        if o not in event.outcomes:  # a step runs again exactly as before: this is an engine fault
            raise RuntimeError(f"chance mode: outcome {o!r} replayed where {event.what} was drawn")
        ctx.used += 1
        return o
    if len(queue) >= MAX_EVENTS:
        raise RuleError(f"this step draws more than {MAX_EVENTS} random outcomes; chance mode presents each as "
                        "a chance node and cannot present so many (draw fewer, or run the game seeded)")
    raise ChanceNeeded(event)


def choose_uniform(ctx, n, what) -> int:
    """A uniform number in ``range(n)`` (n > 0): one node, or a part then a number within it when n is large."""
    if n <= MAX_OUTCOMES:
        return outcome(ctx, Event(NUMBER, what, range(n), [1] * n))
    size = -(-n // MAX_OUTCOMES)  # each part but the last holds ``size`` numbers
    parts = -(-n // size)
    weights = [size] * (parts - 1) + [n - size * (parts - 1)]
    part = outcome(ctx, Event(NUMBER, f"part of {what}", range(parts), weights))
    return part * size + choose_uniform(ctx, weights[part], what)


def choose_weighted(ctx, outcomes, weights, kind, what):
    """One of ``outcomes`` (distinct ints) with chance ``weight / total``, split in parts when there are many."""
    m = len(outcomes)
    if m <= MAX_OUTCOMES:
        return outcome(ctx, Event(kind, what, outcomes, weights))
    size = -(-m // MAX_OUTCOMES)
    starts = range(0, m, size)
    part = outcome(ctx, Event(NUMBER, f"part of {what}", range(len(starts)),
                              [sum(weights[a:a + size]) for a in starts]))
    a = starts[part]
    return choose_weighted(ctx, outcomes[a:a + size], weights[a:a + size], kind, what)


def draw_card(ctx, pool, what):
    """A uniformly random card of ``pool`` (a list of card ids), one outcome per card.

    Cards are never grouped, even those no rule can tell apart: a rule may hold a card's id from before
    a shuffle (or from ``random(zone)``, which keeps the card undecided), and then which of two equal
    cards lies where is not a matter of indifference.
    """
    cards = sorted(pool)
    return choose_weighted(ctx, cards, [1] * len(cards), CARD, what)


# ---------------------------------------------------------------- random builtins
def pick(s, xs):
    """``random(xs)`` in chance mode: an index, one outcome per distinct value (or card class of a zone)."""
    ctx = s.chance
    if type(xs) is Unresolved and xs.lo < xs.hi:
        return xs.pick()
    n = len(xs)
    try:
        first = {}
        for i, x in enumerate(xs):
            first.setdefault((type(x), x), [i, 0])[1] += 1
    except TypeError:  # unhashable items: one outcome per position
        return xs[choose_uniform(ctx, n, f"random() of {n} items")]
    if len(first) == n:
        return xs[choose_uniform(ctx, n, f"random() of {n} items")]
    groups = list(first.values())
    return xs[choose_weighted(ctx, [g[0] for g in groups], [g[1] for g in groups], NUMBER,
                              f"random() of {n} items")]


def roll(s, n):
    """``roll(n)`` in chance mode: 1 to n."""
    return choose_uniform(s.chance, n, f"roll({n})") + 1


def shuffled(s, xs):
    """``shuffled(xs)`` in chance mode: position by position, each an index among the items left."""
    ctx = s.chance
    left = list(xs)
    out = []
    while len(left) > 1:
        n = len(left)
        first = {}
        try:
            for i, x in enumerate(left):
                first.setdefault((type(x), x), [i, 0])[1] += 1
            groups = list(first.values())
        except TypeError:
            groups = [[i, 1] for i in range(n)]
        if len(groups) == 1:
            break
        i = choose_weighted(ctx, [g[0] for g in groups], [g[1] for g in groups], NUMBER,
                            f"shuffled(): the next of {n} items")
        out.append(left.pop(i))
    return out + left


# ---------------------------------------------------------------- zones
def lazy_zones(game) -> list:
    """Per zone index: may its order stay undecided after a shuffle?  Hidden zones that no one sees
    any part of (no ``seen_by``); any other zone shows its order, so a shuffle decides it at once."""
    got = game.__dict__.get("_chance_lazy")
    if got is None:
        seen = game.seen_zone
        got = game._chance_lazy = [spec.visibility == "hidden" and (seen is None or seen[z] is None)
                                   for z, spec in enumerate(game.zone_spec)]
    return got


def shuffle_zone(s, z):
    """``shuffle ZONE`` in chance mode: its cards held unordered; a zone that shows its order decides it now."""
    cards = raw(s.zones[z])
    cards.sort()
    zone = undecided(cards, 0, len(cards), s.chance, s.game.zone_label(z))
    if lazy_zones(s.game)[z]:
        s.zones[z] = zone
    else:
        zone.need(0, len(zone))
        s.zones[z] = list(raw(zone))


def move_zone(s, src, dest, bottom) -> bool:
    """``move ZONE to ZONE`` of an unresolved zone into a hidden one: its undecided cards stay undecided.
    Returns False when it cannot (the caller then moves the cards one by one, deciding their order)."""
    zone, there = s.zones[src], s.zones[dest]
    if s.trace is not None or not lazy_zones(s.game)[dest] or (type(there) is Unresolved and there.lo < there.hi):
        return False
    cards = raw(zone)
    below, above = (cards, raw(there)) if bottom else (raw(there), cards)
    shift = 0 if bottom else len(below)
    moved = undecided(below + above, zone.lo + shift, zone.hi + shift, s.chance, s.game.zone_label(dest))
    loc = s.loc
    for c in cards:
        loc[c] = dest
    if s.shown:
        for c in cards:
            s.shown.pop(c, None)
    s.zones[src] = []
    s.zones[dest] = moved
    return True


def undecided(cards: list, lo: int, hi: int, ctx, label: str) -> "Unresolved":
    """A zone of ``cards`` whose positions ``lo`` to ``hi - 1`` are undecided, decided by the chance mode ``ctx``
    (its cards there in sorted order); ``label`` names the zone in the chance events it makes."""
    zone = Unresolved(cards)
    zone.lo, zone.hi, zone.ctx, zone.label = lo, hi, ctx, label
    return zone


def undecided_parts(zone: "Unresolved") -> tuple:
    """What :func:`undecided` needs to make ``zone`` again, but its chance mode: ``(cards, lo, hi, label)``,
    read deciding nothing (a pickled state keeps its undecided zones undecided this way)."""
    return raw(zone), zone.lo, zone.hi, zone.label


def raw(zone) -> list:
    """The cards of a zone as a plain list, without deciding anything (undecided positions in canonical order)."""
    return list(list.__iter__(zone))


def settle(zones) -> None:
    """Replace the zones that are no longer undecided anywhere by plain lists (at the end of a step)."""
    for z, cards in enumerate(zones):
        if type(cards) is Unresolved and cards.lo >= cards.hi:
            zones[z] = raw(cards)


def copy_zones(zones, ctx) -> list:
    """A copy of a state's zones for a clone whose chance mode is ``ctx``."""
    return [cards[:] if type(cards) is list else _copy_unresolved(cards, ctx) for cards in zones]


def _copy_unresolved(cards, ctx):
    return undecided(raw(cards), cards.lo, cards.hi, ctx, cards.label)


def _index(i, n):
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise IndexError("list index out of range")
    return i


class Unresolved(list):
    """A zone whose positions ``lo`` to ``hi - 1`` are not decided: there its cards lie in sorted order,
    which means nothing.  Reading a position there decides it first, from whichever end of the
    undecided run is nearer, one chance event per position; the size, and ``card in zone``, decide nothing.

    Every list operation is overridden to decide what it reads, so rule code and run-time helpers use
    it as the list it stands for; ``raw`` reads the cards without deciding anything.
    """

    __slots__ = ("lo", "hi", "ctx", "label")

    # ------------------------------------------------ deciding positions
    def _draw(self, top):
        lo, hi = self.lo, self.hi
        pool = list.__getitem__(self, slice(lo, hi))
        ctx = self.ctx
        used = ctx.used
        if ctx.live and 1 < hi - lo <= MAX_OUTCOMES and used < len(ctx.queue) and ctx.queue[used] in pool:
            card = ctx.queue[used]  # a step run again: the outcome chosen before, as ``draw_card`` would give it
            ctx.used = used + 1
        else:
            card = draw_card(ctx, pool, f"the card at a position of {self.label}")
        pool.remove(card)
        if top:
            list.__setitem__(self, slice(lo, hi), pool + [card])
            self.hi = hi - 1
        else:
            list.__setitem__(self, slice(lo, hi), [card] + pool)
            self.lo = lo + 1

    def need(self, a, b):
        """Decide positions ``a`` to ``b - 1`` (0 <= a <= b <= len), from the nearer end of the undecided run."""
        while True:
            lo, hi = self.lo, self.hi
            a2, b2 = max(a, lo), min(b, hi)
            if a2 >= b2:
                return
            self._draw(hi - a2 <= b2 - lo)

    def split_at(self, i):
        """Decide positions until ``i`` is not strictly inside the undecided run (before inserting at ``i``)."""
        while self.lo < i < self.hi:
            self._draw(self.hi - i <= i - self.lo)

    def need_all(self):
        self.need(0, len(self))

    def _span(self, key):
        """(first, last + 1) of the positions a slice covers (first >= last + 1 when it covers none)."""
        start, stop, step = key.indices(len(self))
        r = range(start, stop, step)
        if not r:
            return 0, 0
        return min(r[0], r[-1]), max(r[0], r[-1]) + 1

    def pick(self):
        """``random(zone)``: a uniform position; a card of the undecided run is drawn from it and stays
        there undecided (its place among the others is still uniform)."""
        lo, hi, n = self.lo, self.hi, len(self)
        outcomes = [list.__getitem__(self, i) for i in range(n) if not lo <= i < hi]
        cards = sorted(outcomes + list.__getitem__(self, slice(lo, hi)))
        return choose_weighted(self.ctx, cards, [1] * len(cards), CARD, f"random() of {self.label}")

    def on_top(self, card) -> bool:
        """Is ``card`` known to be the top card?  (Deciding nothing: a card of the undecided run is taken
        from it by ``remove``, which is as good as taking it from wherever it lies.)"""
        return self.hi < len(self) and list.__getitem__(self, -1) == card

    # ------------------------------------------------ reading
    def __getitem__(self, key):
        if type(key) is slice:
            a, b = self._span(key)
            if a < b:
                self.need(a, b)
            return list.__getitem__(self, key)
        i = _index(key.__index__(), len(self))
        if self.lo <= i < self.hi:
            self.need(i, i + 1)
        return list.__getitem__(self, i)

    def __iter__(self):
        self.need_all()
        return list.__iter__(self)

    def __reversed__(self):
        self.need_all()
        return list.__reversed__(self)

    def index(self, card, *args):
        if args:
            self.need_all()
            return list.index(self, card, *args)
        i = list.index(self, card)
        while self.lo <= i < self.hi:  # undecided: decide from the nearer end until it is placed
            self._draw(self.hi - i <= i - self.lo)
            i = list.index(self, card)
        return i

    def copy(self):
        self.need_all()
        return list(list.__iter__(self))

    def _both(self, other):
        self.need_all()
        if type(other) is Unresolved:
            other.need_all()

    def __eq__(self, other):
        self._both(other)
        return list.__eq__(self, other)

    def __ne__(self, other):
        self._both(other)
        return list.__ne__(self, other)

    def __lt__(self, other):
        self._both(other)
        return list.__lt__(self, other)

    def __le__(self, other):
        self._both(other)
        return list.__le__(self, other)

    def __gt__(self, other):
        self._both(other)
        return list.__gt__(self, other)

    def __ge__(self, other):
        self._both(other)
        return list.__ge__(self, other)

    __hash__ = None

    def __add__(self, other):
        self._both(other)
        return list.__add__(self, other)

    def __radd__(self, other):
        self.need_all()
        if isinstance(other, list):
            return list(other) + list(list.__iter__(self))
        return NotImplemented

    def __mul__(self, k):
        self.need_all()
        return list.__mul__(self, k)

    __rmul__ = __mul__

    def __imul__(self, k):
        self.need_all()
        return list.__imul__(self, k)

    def __reduce__(self):
        self.need_all()
        return list, (list(list.__iter__(self)),)

    # ------------------------------------------------ changing
    def __setitem__(self, key, value):
        if type(key) is not slice:
            i = _index(key.__index__(), len(self))
            self.need(i, i + 1)
            return list.__setitem__(self, i, value)
        if type(value) is Unresolved:
            value.need_all()
        start, stop, step = key.indices(len(self))
        if step != 1:
            a, b = self._span(key)
            if a < b:
                self.need(a, b)
            return list.__setitem__(self, key, value)
        stop = max(start, stop)
        if start < stop:
            self.need(start, stop)
        else:
            self.split_at(start)
        n = len(self)
        list.__setitem__(self, key, value)
        if stop <= self.lo:  # the change lies below the undecided run: it moves by the change in size
            delta = len(self) - n
            self.lo += delta
            self.hi += delta

    def __delitem__(self, key):
        if type(key) is not slice:
            i = _index(key.__index__(), len(self))
            self.need(i, i + 1)
            list.__delitem__(self, i)
            if i < self.lo:
                self.lo -= 1
                self.hi -= 1
            return
        a, b = self._span(key)
        if a < b:
            self.need(a, b)
        n = len(self)
        list.__delitem__(self, key)
        if a < b and b <= self.lo:
            self.lo -= n - len(self)
            self.hi -= n - len(self)

    def insert(self, i, card):
        n = len(self)
        i = i.__index__()
        i = max(0, i + n) if i < 0 else min(i, n)
        self.split_at(i)
        list.insert(self, i, card)
        if i <= self.lo and self.lo < self.hi:
            self.lo += 1
            self.hi += 1

    def append(self, card):
        list.append(self, card)

    def extend(self, cards):
        if type(cards) is Unresolved:
            cards.need_all()
        list.extend(self, list(cards))

    def __iadd__(self, cards):
        self.extend(cards)
        return self

    def pop(self, i=-1):
        i = _index(i.__index__(), len(self))
        self.need(i, i + 1)
        card = list.pop(self, i)
        if i < self.lo:
            self.lo -= 1
            self.hi -= 1
        return card

    def remove(self, card):
        i = list.index(self, card)  # ValueError if absent, as a list
        list.pop(self, i)
        if i < self.hi:  # taken from below or from within the undecided run (which stays sorted)
            if i < self.lo:
                self.lo -= 1
            self.hi -= 1

    def clear(self):
        list.clear(self)
        self.lo = self.hi = 0

    def sort(self, *, key=None, reverse=False):
        self.need_all()
        list.sort(self, key=key, reverse=reverse)

    def reverse(self):
        self.need_all()
        list.reverse(self)
