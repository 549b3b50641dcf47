"""What a decision does at run time: wait for a player (the pending decision), and the limits on its options."""

from __future__ import annotations

from ..errors import RuleError
from .control import SUSPEND
from .kinds import tuple_items
from .limits import MAX_ACTION_TEXT
from .records import Pending
from .visibility import can_see, visibility_table

MAX_OPTIONS = 100_000  # e.g. choosing 4 of 24 distinct cards is 10,626 options
NOT_DRAWN = object()  # what a playout's drawer says of a decision it hands back to the rules (interpreter/playout.py)


def entries_bound(keys, caps) -> int:
    """A bound on the characters of every group named in ``keys`` written at once, each at the largest count of
    ``caps`` (``"N x name"`` and a separator): when the prefix and this fit, no option's text of any selection
    is too long to save (:func:`savable_labels` then has nothing to refuse)."""
    return sum(map(len, keys)) + len(keys) * (5 + len(str(max(caps, default=1))))


def savable_labels(prefix: str, keys: list, caps: tuple, k: int, what: str, loc) -> None:
    """Refuse, before any text is made, a choice of ``k`` items from groups named ``keys`` holding ``caps``
    items each whose option text could be longer than a save keeps for one action.  The bound is the
    longest ``min(k, groups)`` entries ("name" or "N x name", and a separator each) after ``prefix``."""
    if len(prefix) + entries_bound(keys, caps) <= MAX_ACTION_TEXT:
        return  # every group at once, each at its largest entry, fits: the common case
    entries = sorted(len(key) + 2 + (len(str(cap)) + 3 if cap > 1 else 0) for key, cap in zip(keys, caps))
    longest = len(prefix) + sum(entries[len(entries) - min(k, len(entries)):] if k > 0 else ())
    if longest > MAX_ACTION_TEXT:
        raise RuleError(f"an option of this choice ({what}) could list {longest:,} characters of cards, more "
                        f"than the {MAX_ACTION_TEXT:,} an action may have (a save keeps every action's text); "
                        "ask for fewer at a time", loc)


def one_card_options(cards, labels_of) -> tuple[list, list]:
    """(labels, values) of a choice of one of ``cards``: each text once (``labels_of[card]``; identical cards
    read alike), its value the first card with that text, in the order of ``cards``."""
    if cards.__class__ is list:  # the same, in C
        labels = list(map(labels_of.__getitem__, cards))
        first = dict.fromkeys(labels)  # each text once, in order
        if len(first) == len(cards):  # no two cards read alike: every card is its own option
            return list(first), cards[:]
        card_of = dict(zip(reversed(labels), reversed(cards)))  # each text's first card (the last one written)
        return list(first), list(map(card_of.__getitem__, first))
    seen = {}
    for card in cards:
        label = labels_of[card]
        if label not in seen:
            seen[label] = card
    return list(seen), list(seen.values())


def chooser_card_options(s, player, cards, labels_of) -> tuple[list, list]:
    """:func:`one_card_options` as ``player`` may read them: a card it cannot see where it lies (another's hand, a
    face-down pile) is not named but placed (``"take card 2 from the top of hand(2)"``), and is an option of its
    own (identical cards made one option would tell it two of them are alike).  Cards it sees read as usual."""
    if cards.__class__ is not list:
        cards = list(cards)
    if sees_all(s, player, cards):  # the common case: its own hand, a public row
        return one_card_options(cards, labels_of)
    names, g, table = s.game.card_names, s.game, _table(s.game)
    labels, values, seen = [], [], {}
    for card in cards:
        if can_see(s, card, player, table):
            label = labels_of[card]
            if label in seen:
                continue
            seen[label] = card
        else:
            label = labels_of[card][:len(labels_of[card]) - len(names[card])] + placed(s, g, card, len(labels))
        labels.append(label)
        values.append(card)
    return labels, values


def unseen_places(s, player, cards, more=()) -> dict | None:
    """{card: its place (:func:`placed`)} of the cards of ``cards`` that ``player`` cannot see where they lie, for
    a choice of several of them (``choose 2 of hand(q)``; ``plus``: ``more``, its others): each such card reads as
    its place.  None when it sees them all (the common case, checked by a table), or when nobody in particular
    chooses (``s`` None: a fixed choice checked at load)."""
    if s is None:
        return None
    seen, loc = (s.game.__dict__.get("_seen_whole") or _seen_whole(s.game))[player], s.loc
    if all(map(seen.__getitem__, map(loc.__getitem__, cards))) and \
            all(map(seen.__getitem__, map(loc.__getitem__, more))):  # the common case (in C): zones it sees whole
        return None
    cards = [*cards, *more]
    if sees_all(s, player, cards):
        return None
    g, table, places = s.game, _table(s.game), {}
    for card in cards:
        if card not in places and not can_see(s, card, player, table):
            places[card] = placed(s, g, card, len(places))
    return places


def card_text(s, player, card, texts, offered: list) -> str:
    """How ``card`` reads in the text of an option offered to ``player`` (a menu's ``"bury {b}"``): its text
    (``texts[card]``: its name, or what none reads as) if ``player`` sees it where it lies, else its place
    (``offered``: the options made so far, which number a card whose place cannot be told: :func:`placed`)."""
    if card is None:
        return texts[None]
    g = s.game
    whole = g.__dict__.get("_seen_whole") or _seen_whole(g)  # (sees, written out: a menu reads every item)
    if whole[player][s.loc[card]] or can_see(s, card, player, _table(g)):
        return texts[card]
    return placed(s, g, card, len(offered))


def value_text(s, player, value, kind: str, offered: list) -> str:
    """How a value holding cards (a list of them, a pair) reads in the text of an option offered to ``player``: as
    ``describe_value`` has it, each card ``player`` cannot see where it lies by its place (:func:`card_text`)."""
    g = s.game
    if value is None:
        return "none"
    if kind == "card":
        return card_text(s, player, value, g.card_names, offered)
    if kind.startswith("list:"):
        return ", ".join(value_text(s, player, v, kind[5:], offered) for v in value) or "nothing"
    if kind.startswith("tuple:"):
        return ", ".join(value_text(s, player, v, k, offered) for v, k in zip(value, tuple_items(kind)))
    return g.describe_value(value, kind)


def _seen_whole(g) -> list:
    """Per player, per zone (and a last entry for a card out of play): does it see that zone whole?"""
    whole = g.__dict__.get("_seen_whole")
    if whole is None:
        whole = g._seen_whole = [tuple(spec.visibility == "public" or (spec.visibility == "owner" and owner == p)
                                       for spec, owner in zip(g.zone_spec, g.zone_owner)) + (False,)
                                 for p in range(g.max_players)]  # (the last: a card out of play, loc -1)
    return whole


def sees_all(s, player, cards: list) -> bool:
    """Does ``player`` see every one of ``cards`` where it lies (``runtime.visibility.can_see``)?  Cards in zones
    it sees whole are checked by a table of the game; only the others by ``can_see``."""
    seen, loc = (s.game.__dict__.get("_seen_whole") or _seen_whole(s.game))[player], s.loc
    for card in cards:
        if not seen[loc[card]]:
            table = _table(s.game)
            return all([can_see(s, c, player, table) for c in cards])
    return True


def sees(s, player, card) -> bool:
    """Does ``player`` see ``card`` where it lies (``runtime.visibility.can_see``)?"""
    return _seen_whole(s.game)[player][s.loc[card]] or can_see(s, card, player, _table(s.game))


def _table(g) -> tuple:
    table = g.__dict__.get("_view_table")
    if table is None:
        table = g._view_table = visibility_table(g)
    return table


def placed(s, g, card, option: int) -> str:
    """Where an unseen card lies, as an option's text: its place from the top of its zone (never its name, nor
    anything that follows from which card it is)."""
    zone = s.loc[card]
    cards = s.zones[zone] if zone >= 0 else None
    if cards.__class__ is not list:  # out of play, or a zone chance mode has not put in order: the option's number
        return f"a card you cannot see ({option + 1})"
    return f"card {len(cards) - cards.index(card)} from the top of {g.zone_label(zone)}"


def asked_twice(asked, loc):
    """The located error of an 'ask each' that names a player more than once."""
    twice = sorted({p + 1 for p in asked if asked.count(p) > 1})
    return RuleError(f"'ask each' names player {', '.join(map(str, twice))} more than once; "
                     "each player makes one choice (use distinct(...) on the list)", loc)


def bind_parts(e, keys, value):
    """Give a menu entry's variables the item chosen: ``keys`` one env key (the item), or a tuple of keys that
    take a pair (or tuple) apart in order (``"ask {q} for {r}" for q, r in product(...)``)."""
    if keys.__class__ is str:
        e[keys] = value
    else:
        for key, part in zip(keys, value):
            e[key] = part


def decide_one(s, fr, pc, player, labels, values, dest, prompt):
    """A one-player decision: a single option is taken at once (in a playout, ``s.drawing``, a drawn one too);
    otherwise suspend until it is chosen.

    ``dest`` is the local that receives the choice; None for a menu, whose values are code positions.
    """
    if len(labels) == 1:
        if s.trace is not None: s.traced_decision(player, prompt, labels, None if dest is None else values, 0, True)  # noqa: E701
        if dest is None:
            return values[0]
        fr.env[dest] = values[0]
        return pc + 1
    drawing = s.drawing
    if drawing is not None:  # a playout (interpreter/playout.py): an option drawn and taken at once
        j = drawing.one(player, labels)
        if j >= 0:
            if dest is None:
                return values[j]
            fr.env[dest] = values[j]
            return pc + 1
    fr.pc = pc + 1
    s.pending = Pending([player], [labels], [values], [None], dest, False, False, prompt, None)
    return SUSPEND


def decide_space(s, fr, pc, player, space, dest, prompt):
    """A one-player decision among the options of an option space (two or more; see option_spaces.py).

    ``labels`` and ``values`` hold None for the player: the state makes them from ``lazy`` when asked.
    In a playout an option is drawn and taken at once, only it made.
    """
    drawing = s.drawing
    if drawing is not None:
        value = drawing.space(player, space)
        if value is not None:
            fr.env[dest] = value
            return pc + 1
    fr.pc = pc + 1
    s.pending = Pending([player], [None], [None], [None], dest, False, False, prompt, [space])
    return SUSPEND
