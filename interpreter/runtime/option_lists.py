"""A decision's options made from lists at run time: ``choose N of X``, ``one of X plus any number of Y``, and
menus with entries built from lists.

Generated code calls :func:`choose_options` or :func:`plus_options` with the lists it computed and
a record of what the compiler knew (:class:`ChoiceSpec`, :class:`PlusSpec`, kept in the code unit's
constant table); a menu's generated code goes through its lists itself and offers each open entry
with :func:`menu_entry` or :func:`menu_item`, then asks with :func:`menu_decide`.  Each returns ``(labels, values)``, or ``(None, option space)`` when the options
are counted, not listed (option_spaces.py).  Identical cards are one option; the options are
counted before any is listed (the cap ``decisions.MAX_OPTIONS``).
"""

from __future__ import annotations

from ..errors import RuleError
from .decisions import (MAX_OPTIONS, decide_one, entries_bound, one_card_options, savable_labels, unseen_places,
                        value_text)
from .limits import MAX_ACTION_TEXT
from .option_spaces import CHOOSE, PLUS, SEPARATOR, Reading, others, with_places
from .selections import combo_shapes, count_any_shapes, count_shapes


class ChoiceSpec:
    """What the compiler knows of a ``choose N of X``: the action text's ``prefix``, the kind of the items
    (``elem``), ``count`` ("one", "any" or "n": a number computed when asked), the card ``names`` and
    ``describe`` (how a value reads), whether several cards may stay an option space, and the location."""

    __slots__ = ("prefix", "elem", "count", "names", "describe", "as_space", "loc")

    def __init__(self, prefix, elem, count, names, describe, as_space, loc):
        self.prefix, self.elem, self.count, self.names = prefix, elem, count, names
        self.describe, self.as_space, self.loc = describe, as_space, loc


class PlusSpec:
    """What the compiler knows of a ``one of X plus any number of Y``: the action text's ``prefix``, the card
    ``names``, whether the options may stay an option space, and the location; ``room``: the characters an
    option's text has for its others, whatever its first card (see :func:`plus_counted`)."""

    __slots__ = ("prefix", "names", "as_space", "loc", "room")

    def __init__(self, prefix, names, as_space, loc):
        self.prefix, self.names, self.as_space, self.loc = prefix, names, as_space, loc
        self.room = MAX_ACTION_TEXT - len(prefix) - max(map(len, names), default=0) - len(SEPARATOR)


# ---------------------------------------------------------------------------- choose N of X
def alike_groups(spec: ChoiceSpec, items, places=None, s=None, player=None) -> dict:
    """The items grouped by how they read (a card by its name, one in ``places`` by its place: a group of its own),
    in the order each text first appears.  Items that hold cards (pairs) read as ``player`` may read them, when
    ``s`` is given (``runtime.decisions.value_text``)."""
    groups = {}
    if spec.elem == "card":
        names = spec.names if places is None else Reading(spec.names, places)
        for c in items:
            groups.setdefault(names[c], []).append(c)
    elif s is not None and "card" in spec.elem:  # a pair holding a card: it may read as its place
        elem = spec.elem
        for v in items:
            groups.setdefault(value_text(s, player, v, elem, groups), []).append(v)
    else:
        describe, elem = spec.describe, spec.elem
        for v in items:
            groups.setdefault(describe(v, elem), []).append(v)
    return groups


def choose_options(spec: ChoiceSpec, items, k, s=None, player=None) -> tuple:
    """The options of ``choose k of items`` (``k`` None: one of them; any number: ``spec.count == "any"``), as
    ``player`` may read them (``s``: the state; None: a fixed choice checked at load): a card it cannot see where
    it lies reads as its place, an option of its own (``runtime.decisions.unseen_places``)."""
    places = unseen_places(s, player, items) if spec.elem == "card" else None
    groups = alike_groups(spec, items, places, s, player)
    prefix = spec.prefix
    if spec.count == "one":
        if len(prefix) + max(map(len, groups), default=0) > MAX_ACTION_TEXT:  # a text of 10,000 characters, say
            longest = len(prefix) + max(map(len, groups))
            raise RuleError(f"an option of this decision reads {longest:,} characters, more than the "
                            f"{MAX_ACTION_TEXT:,} an action may have (a save keeps every action's text); show less of "
                            "the item in the text", spec.loc)
        return [prefix + text for text in groups], [g[0] for g in groups.values()]
    anyhow = spec.count == "any"
    if not anyhow and k == len(items):  # only one way: take them all (taken without asking, so no text is made)
        return [prefix + "all"], [[c for g in groups.values() for c in g]]
    keys, members = list(groups), list(groups.values())
    caps = tuple(map(len, members))
    total = counted_selections(spec, items, keys, caps, k)
    if spec.as_space and total > 1:  # none (an error) and one (taken at once) stay listed
        return None, with_places([CHOOSE, prefix, members, -1 if anyhow else k, total], places)
    sizes = range(0, len(items) + 1) if anyhow else (k,)
    return listed_selections(prefix, keys, members, caps, sizes)


def counted_selections(spec: ChoiceSpec, items, keys, caps, k) -> int:
    """How many options a choice of several items has, counted before any is listed: choosing 12 of 30
    different cards must not build 86 million.  Refuses too many, or texts too long to save."""
    anyhow = spec.count == "any"
    total = count_any_shapes(caps) if anyhow else count_shapes(caps, k, MAX_OPTIONS)
    how_many = "any number" if anyhow else f"{k}"
    if total > MAX_OPTIONS:
        raise RuleError(f"more than {MAX_OPTIONS:,} options to choose from ({how_many} of {len(items)}, "
                        f"{len(keys)} different); ask for fewer at a time", spec.loc)
    if len(spec.prefix) + entries_bound(keys, caps) > MAX_ACTION_TEXT:  # (else the common case: it fits)
        savable_labels(spec.prefix, keys, caps, len(items) if anyhow else k, f"{how_many} of {len(items)}", spec.loc)
    return total


def listed_selections(prefix, keys, members, caps, sizes) -> tuple:
    """Every selection of ``sizes`` items from the groups: its text ("2 x a, b"; "nothing") and its items."""
    labels, values = [], []
    for k in sizes:
        for shape in combo_shapes(caps, k):
            picked = []
            for i, times in shape:
                picked += members[i][:times]
            text = ", ".join(keys[i] if times == 1 else f"{times} x {keys[i]}" for i, times in shape)
            labels.append(prefix + (text or "nothing"))
            values.append(picked)
    return labels, values


# ---------------------------------------------------------------------------- one of X plus any number of Y
def others_grouped(names, pool, c) -> tuple:
    """(names, cards, sizes) of the groups of identical cards of ``pool``, in the order each name first
    appears, without the first occurrence of ``c`` (the card chosen as the one is not also one of the
    others; None: the whole pool)."""
    members = others(pool, list(map(names.__getitem__, pool)), c)
    return [names[group[0]] for group in members], members, tuple(map(len, members))


def plus_options(spec: PlusSpec, ones, pool, s=None, player=None) -> tuple:
    """The options of ``one of ones plus any number of pool``: a distinct first card with any distinct
    selection of the others, reading ``"<one> + <others>"`` (or ``"<one>"``).

    Two options or more of a space (``spec.as_space``) are counted, not listed: per distinct first card,
    how many selections the others allow, from the sizes of the pool's groups of alike cards (the
    groups of the others are made only for an option asked for: option_spaces.py).  Too many options,
    or texts that might be too long to save, are refused exactly as listing them would
    (:func:`plus_plans`).  A card ``player`` cannot see where it lies (``s``: the state) reads as its place, an
    option, or a group of the others, of its own (``runtime.decisions.unseen_places``)."""
    pool = list(pool)  # (a copy: a zone's own list changes as cards move; the space is kept)
    places = unseen_places(s, player, ones, pool)
    names, room = spec.names, spec.room
    if places:  # cards the chooser cannot see read as their places (runtime.decisions.unseen_places)
        names = Reading(names, places)
        room = min(room, MAX_ACTION_TEXT - len(spec.prefix) - max(map(len, places.values())) - len(SEPARATOR))
    first, firsts = one_card_options(ones, names)  # each text once, in order, and its first card (new lists)
    counted = plus_counted(spec, names, room, first, firsts, pool)
    if counted is not None:
        return None, with_places(counted, places)
    if len(firsts) == 1 and not pool and room >= 0:  # a single option, taken at once: its text fits
        return [spec.prefix + first[0]], [[firsts[0]]]
    plans, total = plus_plans(spec, names, dict(zip(first, firsts)), pool)
    if spec.as_space and total > 1:
        return None, with_places([PLUS, spec.prefix, [c for _, c, _, _, _, _ in plans], [n for *_, n in plans], pool,
                                  list(map(names.__getitem__, pool)), total], places)
    return listed_plus(spec, plans)


def plus_counted(spec: PlusSpec, names, room: int, texts, firsts: list, pool: list):
    """The option space of a 'plus' choice (option_spaces.py), its options counted from group sizes alone;
    None when it is no space (fewer than two options, ``spec.as_space`` off) or when a check might refuse
    it (too many options, texts too long to save): :func:`plus_plans` then counts plan by plan, and
    refuses as listing the options would.  ``names``: how each card reads; ``room``: as ``spec.room``, for them."""
    if not spec.as_space:
        return None
    if not pool:  # each option is a first card alone
        n = len(firsts)
        if n < 2 or n > MAX_OPTIONS or room < 0:
            return None
        return [PLUS, spec.prefix, firsts, [1] * n, pool, [], n]
    keys = list(map(names.__getitem__, pool))
    caps = {}
    for key in keys:
        caps[key] = caps.get(key, 0) + 1
    sizes = plus_sizes(caps, texts, firsts, pool)
    total = sum(sizes)
    if total < 2 or total > MAX_OPTIONS:
        return None
    # the longest text an option could have (every other named, each at its largest count: the bound of
    # savable_labels) fits a save: then no plan's check refuses
    if entries_bound(caps, caps.values()) > room:
        return None
    return [PLUS, spec.prefix, firsts, sizes, pool, keys, total]


def plus_sizes(caps: dict, texts, firsts: list, pool: list) -> list:
    """Per first card, how many selections of the others it allows: the product of (size + 1) over the
    pool's groups (``caps``: name -> how many), that card's own group one smaller when it is in the pool;
    [] beyond MAX_OPTIONS."""
    whole = 1  # selections of the whole pool
    for cap in caps.values():
        whole *= cap + 1
        if whole > MAX_OPTIONS:
            return []
    if set(pool).isdisjoint(firsts):  # no first card is one of the others
        return [whole] * len(firsts)
    return [whole // (caps[key] + 1) * caps[key] if c in pool else whole for key, c in zip(texts, firsts)]


def plus_plans(spec: PlusSpec, names, firsts: dict, pool) -> tuple:
    """Per distinct first card (name, card, the others' group names, cards and sizes, how many selections),
    and the number of options, counted before any is listed (``names``: how each card reads)."""
    plans, total = [], 0
    head, loc = spec.prefix, spec.loc
    whole = None  # the groups of the whole pool: those of every first card that is not in it, made once
    what = f"one of {len(firsts)} different plus any number of {len(pool)}"
    for text, c in firsts.items():
        if c in pool:
            keys, members, caps = others_grouped(names, pool, c)
        else:
            if whole is None:
                whole = others_grouped(names, pool, None)
            keys, members, caps = whole
        n = count_any_shapes(caps)
        total += n
        if total > MAX_OPTIONS:
            raise RuleError(f"more than {MAX_OPTIONS:,} options to choose from ({what}); ask for fewer at a time", loc)
        savable_labels(head + text + SEPARATOR, keys, caps, sum(caps), what, loc)
        plans.append((text, c, keys, members, caps, n))
    return plans, total


def listed_plus(spec: PlusSpec, plans) -> tuple:
    """Every option of the plans, listed; two that read alike (a name holding a separator) are refused."""
    labels, values, seen = [], [], set()
    for text, c, keys, members, caps, _ in plans:
        head = spec.prefix + text
        for k in range(sum(caps) + 1):
            for shape in combo_shapes(caps, k):
                picked = [c]
                for i, times in shape:
                    picked += members[i][:times]
                rest = ", ".join(keys[i] if times == 1 else f"{times} x {keys[i]}" for i, times in shape)
                label = head + SEPARATOR + rest if rest else head
                if label in seen:
                    raise RuleError(f"two options of this decision read {label!r} (a card's name contains "
                                    f"{SEPARATOR.strip()!r} or ', '); the choice cannot be told apart", spec.loc)
                seen.add(label)
                labels.append(label)
                values.append(picked)
    return labels, values


# ---------------------------------------------------------------------------- menus with entries built from lists
class MenuSpec:
    """What the compiler knows of a menu whose entries are built from lists (``"play {c}" for c in hand(p)``):
    the card ``names``, ``describe`` (how a value reads), per entry the kind of its items (``elems``) and its
    location (``at``), the menu's location, and ``slot``, the local that receives (entry, item)."""

    __slots__ = ("names", "describe", "elems", "at", "loc", "slot")

    def __init__(self, names, describe, elems, at, loc, slot):
        self.names, self.describe, self.elems, self.at, self.loc, self.slot = names, describe, elems, at, loc, slot


def _same_text(spec: MenuSpec, label, i):
    return RuleError(f"two options of this decision read {label!r}; give each its own text (name the item in it, "
                     f"as in \"play {{c}}\")", spec.at[i])


def menu_entry(spec: MenuSpec, labels, values, same, i, label) -> None:
    """Entry ``i``, a fixed option, is open: its text ``label`` is offered (the value ``(i, None)``)."""
    if same.get(label, (i, None)) != (i, None):
        raise _same_text(spec, label, i)
    labels.append(label)
    values.append((i, None))
    same[label] = (i, None)


def menu_item(spec: MenuSpec, labels, values, same, i, x, label) -> None:
    """Item ``x`` of entry ``i`` is open, reading ``label``: offered (the value ``(i, x)``) unless an identical
    item of the same entry already is."""
    elem = spec.elems[i]
    ident = (i, spec.names[x] if elem == "card" else spec.describe(x, elem))
    other = same.get(label)
    if other is not None:
        if other == ident:
            return  # identical cards: one option
        raise _same_text(spec, label, i)
    if not label:
        raise RuleError("an option of this decision reads '' (an empty text); players could not name it", spec.at[i])
    if len(label) > MAX_ACTION_TEXT:  # a pair's two texts may each be long
        raise RuleError(f"an option of this decision reads {len(label):,} characters, more than the "
                        f"{MAX_ACTION_TEXT:,} an action may have (a save keeps every action's text); show less of "
                        "the item in the text", spec.at[i])
    same[label] = ident
    labels.append(label)
    values.append((i, x))


def menu_decide(s, fr, pc, p, spec: MenuSpec, labels, values):
    """The menu's open options are made: a single one is taken at once, else the player is asked (the pc to
    go on at, or SUSPEND)."""
    if len(labels) > MAX_OPTIONS:
        raise RuleError(f"more than {MAX_OPTIONS:,} options to choose from; ask for fewer at a time", spec.loc)
    if not labels:
        raise RuleError(f"none of the options is open to player {p + 1}", spec.loc)
    return decide_one(s, fr, pc, p, labels, values, spec.slot, "choose")
