"""Large choices kept as option spaces: counted at once, one option numbered and named on demand.

A decision that picks several items (``choose 4 of X``, ``any number of X``, ``one of X plus any
number of Y``) can offer thousands of options while a bot needs one.  Such a decision keeps, in
its pending entry, a small plain-data *option space* instead of every label and value:

* ``["choose", prefix, groups, k, count]``: ``k`` items (``k == -1``: any number, every size
  from 0 up) out of ``groups``, the lists of cards that read alike (identical cards are one
  group: which copy is taken cannot matter, so a selection is how many of each group);
* ``["plus", prefix, firsts, sizes, pool, keys, count]``: one card plus any number of others:
  ``firsts`` the distinct first cards, ``sizes[j]`` how many selections of the others ``firsts[j]``
  allows, ``pool`` the cards the others are picked from and ``keys`` their names (the groups of
  the others of a first card, the pool less that card, are made only for an option asked for).

``count`` is the number of options, always the last item.  A space may have one more item just before it,
``places``: a table {card: its place} of the cards its chooser cannot see where they lie, which read as their
place (``"card 2 from the top of hand(2)"``, ``runtime.decisions.placed``) instead of their name, each a group
of its own (alike unseen cards made one group would tell the chooser they are alike).  Option ``i`` is exactly the ``i``-th option of the list
:func:`expand` makes, which is the list the decision offers as ``legal_actions`` (the same order:
sizes from small to large, then more of an earlier group first).  :func:`value` and
:func:`label` make one option without listing the others, by unranking: the number of ways
each group's choice allows the groups after it (:func:`_ways`) says which choice option
``i`` falls in.  So a random bot drawing ``i`` uniformly from ``range(count)`` plays exactly
as one drawing uniformly from ``legal_actions``: every distinct selection once.

A space is only made when no two options can read alike (no card name holds ``", "``,
``" + "`` or ``" x "``), so option ``i``'s label is the first with that text, as for ``apply``.
"""

from __future__ import annotations

import functools

from .selections import combo_shapes

CHOOSE, PLUS = "choose", "plus"
SEPARATOR = " + "  # between the one card and the others of a 'plus' option


def names_can_collide(names) -> bool:
    """Could two selections of these cards read alike (a name holding a separator of the labels)?"""
    return any(not n or ", " in n or SEPARATOR in n or " x " in n for n in names)


def count(space) -> int:
    return space[-1]


class Reading:
    """How a space's cards read to its chooser: a card it cannot see by its place (``places``), any other by its
    name (``names``: the game's card names); indexed by card, as the list of names is."""

    __slots__ = ("names", "places")

    def __init__(self, names, places: dict):
        self.names, self.places = names, places

    def __getitem__(self, card) -> str:
        place = self.places.get(card)
        return self.names[card] if place is None else place


def reading(space, names):
    """The texts of the cards of ``space``: ``names``, or a :class:`Reading` when it has places (see above: the
    item before the count, a table, where a space without places has its ``k`` or its ``keys``)."""
    places = space[-2]
    return Reading(names, places) if places.__class__ is dict else names


def places_moved(space, moved: dict) -> list:
    """``space`` with each card of its places table (cards its chooser cannot see, read as their places) replaced
    by ``moved.get(card)``, the card now at that place, if any: the same options, each reading the same place,
    each picking the card there now (a determinised copy: interpreter/determinise.py).  ``space`` itself is kept."""
    places = space[-2]
    if places.__class__ is not dict:
        return space

    def at(card):
        return moved.get(card, card) if card in places else card
    now = {at(card): text for card, text in places.items()}
    if space[0] == CHOOSE:
        return [CHOOSE, space[1], [list(map(at, group)) for group in space[2]], space[3], now, space[-1]]
    return [PLUS, space[1], list(map(at, space[2])), space[3], list(map(at, space[4])), space[5], now, space[-1]]


def with_places(space: list, places) -> list:
    """``space`` with its ``places`` table before its count (None or empty: a space read by names alone)."""
    return space[:-1] + [places, space[-1]] if places else space


BIG_TABLE = 20_000  # numbers in a table of ways beyond which it is not kept (see _ways_of)


def _ways_of(caps: tuple, k: int) -> tuple:
    """:func:`_ways`, kept only when small: the table of a huge choice is made again when asked for."""
    return _ways(caps, k) if len(caps) * (k + 1) <= BIG_TABLE else _ways.__wrapped__(caps, k)


@functools.lru_cache(maxsize=256)
def _ways(caps: tuple, k: int) -> tuple:
    """ways[j][t]: how many ways to pick t items (t <= k) from groups j, j+1, ... of these sizes."""
    rows = [(1,) + (0,) * k]
    for cap in reversed(caps):
        after, row, window = rows[-1], [], 0
        for t in range(k + 1):
            window += after[t]
            if t > cap:
                window -= after[t - cap - 1]
            row.append(window)
        rows.append(tuple(row))
    return tuple(reversed(rows))


def _window(caps: tuple, k: int) -> tuple:
    """Per group j, ``(lo, row)``: ``row[t - lo]`` is how many ways pick t items from groups j, j+1, ...
    for the t an unranking of k items can ask about there: from k minus all items of the groups
    before j (lo) to k or the items left.  (About min(k, n - k) numbers a group, not k: picking 2,999
    of 3,000 different cards needs two a group.)"""
    n = sum(caps)
    prefix = [0]
    for cap in caps:
        prefix.append(prefix[-1] + cap)
    rows = [None] * (len(caps) + 1)
    rows[-1] = (0, (1,))  # no group left: one way to pick nothing
    for j in range(len(caps) - 1, -1, -1):
        cap, (lo_after, after) = caps[j], rows[j + 1]
        lo, hi = max(0, k - prefix[j]), min(k, n - prefix[j])
        sums = [0]  # prefix sums of the next row
        for v in after:
            sums.append(sums[-1] + v)
        row = []
        for t in range(lo, hi + 1):  # sum of after[u] for u from t - cap to t, within its window
            a, b = max(t - cap, lo_after) - lo_after, min(t, lo_after + len(after) - 1) - lo_after
            row.append(sums[b + 1] - sums[a] if b >= a else 0)
        rows[j] = (lo, tuple(row))
    return tuple(rows)


def _shape(caps: tuple, k: int, index: int) -> list:
    """The ``index``-th way (in :func:`runtime.combo_shapes` order) to pick k items: [(group, times), ...]."""
    if len(caps) * (k + 1) > BIG_TABLE:  # a big table (2,999 of 3,000): only the numbers that matter (_window)
        rows = _window(caps, k)
    else:
        rows = [(0, row) for row in _ways(caps, k)]  # every count from 0 to k, a group
    shape = []
    for j, cap in enumerate(caps):
        lo, after = rows[j + 1]
        times = min(cap, k)
        while True:  # more of this group first (k - times is never below lo: see _window)
            try:
                n = after[k - times - lo]
            except IndexError:  # more than the groups after it hold
                n = 0
            if index < n:
                break
            index -= n
            times -= 1
        if times:
            shape.append((j, times))
            k -= times
    return shape


def _any_shape(caps: tuple, index: int) -> list:
    """The ``index``-th way to pick any number of items: sizes from 0 up, each in combo_shapes order."""
    n = sum(caps)
    sizes = _ways_of(caps, n)[0]
    k = 0
    while index >= sizes[k]:
        index -= sizes[k]
        k += 1
    return _shape(caps, k, index)


def _caps(groups) -> tuple:
    return tuple(map(len, groups))


def _picked(groups, shape, out: list) -> list:
    for j, times in shape:
        out += groups[j][:times]
    return out


def _text(names, groups, shape) -> str:
    return ", ".join(names[groups[j][0]] if times == 1 else f"{times} x {names[groups[j][0]]}"
                     for j, times in shape)


def _plan(space, index):
    """(first card, groups of the others, index among its selections) for option ``index`` of a 'plus' space."""
    firsts, sizes, pool, keys = space[2:6]
    for one, size in zip(firsts, sizes):
        if index < size:
            return one, others(pool, keys, one), index
        index -= size
    raise IndexError(index)


def others(pool: list, keys: list, one) -> list:
    """The groups of alike cards of ``pool`` (``keys``: their names), in the order each name first appears,
    without the first occurrence of ``one`` (the first card is not also one of the others)."""
    groups = {}
    skipped = False
    for card, key in zip(pool, keys):
        if card == one and not skipped:
            skipped = True
            continue
        group = groups.get(key)
        if group is None:
            groups[key] = [card]
        else:
            group.append(card)
    return list(groups.values())


def _locate(space, index):
    """(first card or None, groups, shape) of option ``index``."""
    if space[0] == CHOOSE:
        groups, k = space[2:4]
        caps = _caps(groups)
        return None, groups, (_any_shape(caps, index) if k < 0 else _shape(caps, k, index))
    one, groups, index = _plan(space, index)
    return one, groups, _any_shape(_caps(groups), index)


def value(space, index: int) -> list:
    """The chosen cards of option ``index`` (the first card first, for 'plus')."""
    one, groups, shape = _locate(space, index)
    return _picked(groups, shape, [] if one is None else [one])


def label(space, index: int, names) -> str:
    """The text of option ``index`` (``names``: the game's card names)."""
    names = reading(space, names)
    one, groups, shape = _locate(space, index)
    text = _text(names, groups, shape)
    if one is None:
        return space[1] + (text or "nothing")
    return space[1] + names[one] + (SEPARATOR + text if text else "")


def option(space, index: int, names) -> tuple[str, list]:
    """(:func:`label`, :func:`value`) of option ``index``, the option located once."""
    if space[-2].__class__ is dict:  # (:func:`reading`, written out: a bot's every option)
        names = Reading(names, space[-2])
    if space[0] == PLUS and space[5] == []:  # no others to pick: option ``index`` is a first card alone
        one = space[2][index]
        return space[1] + names[one], [one]
    one, groups, shape = _locate(space, index)
    text = _text(names, groups, shape)
    if one is None:
        return space[1] + (text or "nothing"), _picked(groups, shape, [])
    return space[1] + names[one] + (SEPARATOR + text if text else ""), _picked(groups, shape, [one])


def expand(space, names) -> tuple[list, list]:
    """Every option of the space, in order: (labels, values)."""
    names = reading(space, names)
    labels, values = [], []
    for head, picked0, groups, k in _starts(space, names):
        if picked0 and not groups:  # one card and none to add to it: one option, its name alone (as below, straight)
            labels.append(head[:-len(SEPARATOR)])
            values.append(picked0[:])
            continue
        keys = [names[g[0]] for g in groups]
        caps = _caps(groups)
        sizes = (k,) if k >= 0 else range(sum(caps) + 1)
        for size in sizes:
            for shape in combo_shapes(caps, size):
                picked = picked0[:]
                for j, times in shape:
                    picked += groups[j][:times]
                labels.append(_expanded_label(head, bool(picked0), keys, shape))
                values.append(picked)
    return labels, values


def _starts(space, names) -> list:
    """Per first choice of the space: (its label's start, the cards it picked, the groups the rest is picked from,
    how many cards the rest picks or -1 for any number).  A 'choose' space has one, a 'plus' space one per card."""
    prefix = space[1]
    if space[0] == CHOOSE:
        groups, k = space[2:4]
        return [(prefix, [], groups, k)]
    firsts, _, pool, keys = space[2:6]
    return [(prefix + names[one] + SEPARATOR, [one], others(pool, keys, one), -1) for one in firsts]


def _expanded_label(head: str, has_first: bool, keys: list, shape) -> str:
    """An option's label: its start, then the groups' names and counts ('nothing', or the first card's name alone)."""
    text = ", ".join(keys[j] if times == 1 else f"{times} x {keys[j]}" for j, times in shape)
    if text:
        return head + text
    if has_first:  # one card and no other: its name alone
        return head[:-len(SEPARATOR)]
    return head + "nothing"
