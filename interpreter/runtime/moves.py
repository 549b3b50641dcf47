"""Moving and shuffling cards: the zones, each card's location, what is shown, and the trace, kept in step.

Public cards (``State.public``, perfect recall of public events): a card everyone sees where it lies by
its zone's visibility (a ``public`` zone, or the top card of a ``top`` zone) that moves into a zone hiding
it stays public there, for every player and spectators: everyone watched it go.  It stays public until it
moves again, its zone is shuffled, or another card is taken out of that zone: whoever took a card from a zone
hiding them could have taken any of them, and the cards still listed would tell which one it was (a
secret choice).  A card seen by everyone only because of a 'show' does not carry this into the zone it
moves to: which card left a hidden zone may be a secret choice.  So a card never seen by everyone never
becomes public.
"""

from __future__ import annotations

from .. import rng as RNG
from . import chance as CHANCE
from .limits import over_budget


def place_cards(s, cards, dest, bottom):
    """Put cards already taken out of their zones into ``dest`` (on top, or under with ``bottom``)."""
    loc = s.loc
    for c in cards:
        loc[c] = dest
    if s.shown:  # a card that moves is no longer shown to anyone ('show')
        forget_shown(s, cards)
    if s.public:  # nor public where it lay
        s.public.difference_update(cards)
    if bottom:
        s.zones[dest][:0] = cards
    else:
        s.zones[dest].extend(cards)


def forget_shown(s, cards):
    """Cards that moved (or were shuffled) are no longer shown to the players a 'show' named."""
    shown = s.shown
    for c in cards:
        shown.pop(c, None)


def forget_public_left_behind(s, cards):
    """A card left the zone holding ``cards``: none of them is public any more (they would tell which card
    was taken)."""
    s.public.difference_update(cards)


def keep_public(s, cards, src, dest):
    """Cards just moved from the top of ``src`` to ``dest``: those everyone saw there stay public there."""
    spec = s.game.zone_spec
    vis = spec[src].visibility
    if not cards or spec[dest].visibility == "public" or vis not in ("public", "top"):
        return
    s.public.update(cards if vis == "public" else cards[-1:])  # a top zone showed its top card only


def move_card(s, card, dest, bottom):
    """``move CARD to ZONE``: the card goes from its zone (the top card, the commonest case, popped) for ``dest``."""
    loc, zones = s.loc, s.zones
    src = loc[card]
    if src < 0:  # a card in no zone
        return _move_in(s, card, src, dest, bottom)
    zone = zones[src]
    if zone[-1] == card if zone.__class__ is list else zone.on_top(card):  # most moves take the top card
        zone.pop()
        top = card
    else:
        zone.remove(card)
        top = None
    loc[card] = dest
    if s.shown:
        s.shown.pop(card, None)
    public = s.public
    if public:
        public.discard(card)
        if zone:
            public.difference_update(zone)  # the cards left behind would tell which one was taken
    if bottom:
        zones[dest].insert(0, card)
    else:
        zones[dest].append(card)
    spec = s.game.zone_spec
    vis = spec[src].visibility
    if (vis == "public" or (vis == "top" and top is not None)) and spec[dest].visibility != "public":
        public.add(card)  # everyone watched it go: public where it lies now
    if s.trace is not None:
        s.traced_move(card, src, top, dest, bottom)


def move_card_unwatched(s, card, dest, bottom, shows):
    """:func:`move_card` as the playout build calls it (``dsl/playout_build.py``): on a state nobody traces, not
    in chance mode (every zone a list), with what each zone keeps public read from ``shows`` (per source zone
    index: 2 every card, 1 its top card, 0 nothing), made at load for ``dest``: all zeros into a public zone,
    where no card becomes public by the move.  A near copy of move_card's body without its trace and chance-mode
    checks and its two visibility lookups a move (about a tenth of a playout is this function); the same cards
    end in the same places, with the same ``shown`` and ``public`` bookkeeping
    (``tests/engine/test_unwatched_movers.py`` compares the two on every kind of zone)."""
    loc = s.loc
    src = loc[card]
    if src < 0:  # a card in no zone
        return _move_in(s, card, src, dest, bottom)
    zone = s.zones[src]
    if zone[-1] == card:  # most moves take the top card
        zone.pop()
        show = shows[src]  # the top card of a zone showing every card or its top one: everyone watched it go
    else:
        zone.remove(card)
        show = shows[src] == 2  # any other card: only from a zone showing every card
    loc[card] = dest
    if s.shown:
        s.shown.pop(card, None)
    public = s.public
    if public:
        public.discard(card)
        if zone:
            public.difference_update(zone)  # the cards left behind would tell which one was taken
    if bottom:
        s.zones[dest].insert(0, card)
    else:
        s.zones[dest].append(card)
    if show:
        public.add(card)  # everyone watched it go: public where it lies now


def move_card_anywhere(s, card, dest, bottom, into):
    """:func:`move_card_unwatched` for a destination the IR does not name (worked out at run time): its row of
    ``into`` (per zone index, that zone's ``shows``).  A value that is no zone's index goes to :func:`move_card`,
    to fail (or not) exactly as the normal build does."""
    if dest.__class__ is int and 0 <= dest < len(into):
        move_card_unwatched(s, card, dest, bottom, into[dest])
    else:
        move_card(s, card, dest, bottom)


def _move_in(s, card, src, dest, bottom):
    """:func:`move_card` of a card that lies in no zone: it only goes to ``dest``."""
    s.loc[card] = dest
    if s.shown:
        s.shown.pop(card, None)
    s.public.discard(card)
    if bottom:
        s.zones[dest].insert(0, card)
    else:
        s.zones[dest].append(card)
    if s.trace is not None:
        s.traced_move(card, src, None, dest, bottom)


def move_zone(s, src, dest, bottom, loc):
    """``move ZONE to ZONE``: every card of ``src``, a step each."""
    if src == dest:
        return
    cards = s.zones[src]
    s.steps -= len(cards)  # a step per card moved
    if s.steps < 0:
        raise over_budget(s, loc)
    if type(cards) is not list and CHANCE.move_zone(s, src, dest, bottom):  # chance mode: its order stays undecided
        return
    s.zones[src] = []
    place_cards(s, cards, dest, bottom)
    keep_public(s, cards, src, dest)
    if s.trace is not None:
        s.traced_moves(cards, src, cards[-1] if cards else None, dest, bottom)


def move_zone_unwatched(s, src, dest, bottom, loc, keep):
    """:func:`move_zone` as the playout build calls it (``dsl/playout_build.py``) between two zones known at load: on
    a state nobody traces, not in chance mode, with what :func:`keep_public` keeps public worked out at load
    (``keep``: 0 nothing, 2 every card, 1 the top card, as in :func:`move_card_unwatched`'s ``shows``)."""
    if src == dest:
        return
    zones = s.zones
    cards = zones[src]
    s.steps -= len(cards)  # a step per card moved
    if s.steps < 0:
        raise over_budget(s, loc)
    zones[src] = []
    place_cards(s, cards, dest, bottom)
    if keep and cards:
        s.public.update(cards if keep == 2 else cards[-1:])


def move_zone_anywhere(s, src, dest, bottom, loc, into):
    """:func:`move_zone_unwatched` between zones the IR does not both name: ``keep`` read from ``into`` (see
    :func:`move_card_anywhere`).  Values that are not zones' indices go to :func:`move_zone`."""
    n = len(into)
    if dest.__class__ is int and 0 <= dest < n and src.__class__ is int and 0 <= src < n:
        move_zone_unwatched(s, src, dest, bottom, loc, into[dest][src])
    else:
        move_zone(s, src, dest, bottom, loc)


def move_list(s, cards, dest, bottom, loc):
    """``move LIST to ZONE``: each card of the list, a step each (the top cards of one zone in bulk)."""
    cards = list(cards)
    s.steps -= len(cards)  # a step per card moved
    if s.steps < 0:
        raise over_budget(s, loc)
    if cards and cards[0] is not None:
        src = s.loc[cards[0]]
        zone = s.zones[src] if src >= 0 else None
        k = len(cards)
        if zone is not None and src != dest and zone[-k:] == cards:  # the top k of one zone: move in bulk
            del zone[-k:]
            if s.public and zone:
                forget_public_left_behind(s, zone)
            place_cards(s, cards, dest, bottom)
            keep_public(s, cards, src, dest)
            if s.trace is not None:
                s.traced_moves(cards, src, cards[-1], dest, bottom)
            return
    for card in cards:
        if card is not None:
            move_card(s, card, dest, bottom)


def move_list_unwatched(s, cards, dest, bottom, loc, shows):
    """:func:`move_list` as the playout build calls it into a zone known at load (``shows``: see
    :func:`move_card_unwatched`): no trace, no chance mode, the top cards of one zone in bulk as move_list
    moves them (:func:`_taken_in_bulk`, then :func:`place_cards`), else each by :func:`move_card_unwatched`."""
    cards = list(cards)
    s.steps -= len(cards)  # a step per card moved
    if s.steps < 0:
        raise over_budget(s, loc)
    if len(cards) < 2:  # none, or one card: moved as move_card moves it
        if cards and cards[0] is not None:
            move_card_unwatched(s, cards[0], dest, bottom, shows)
        return
    keep = _taken_in_bulk(s, cards, dest, shows)
    if keep >= 0:
        place_cards(s, cards, dest, bottom)
        if keep:
            s.public.update(cards if keep == 2 else cards[-1:])
        return
    for card in cards:
        if card is not None:
            move_card_unwatched(s, card, dest, bottom, shows)


def _taken_in_bulk(s, cards, dest, shows) -> int:
    """Take ``cards`` off the zone they are the top cards of (not ``dest``) as :func:`move_list` takes them, and
    return what of them stays public where they go (``shows``' 0, 1 or 2); -1, nothing done, else: they move
    one by one, as with move_list.  (Cards from anywhere in one zone moved in bulk, their zones looked up and
    checked in C, counted fewer Python instructions but more machine instructions than one by one.)"""
    first = cards[0]
    src = -1 if first is None else s.loc[first]
    if src < 0:
        return -1
    zone = s.zones[src]
    k = len(cards)
    if src == dest or zone[-k:] != cards:  # not the top k of one zone
        return -1
    del zone[-k:]
    if s.public and zone:
        s.public.difference_update(zone)  # the cards left behind would tell which were taken
    return shows[src]


def move_list_anywhere(s, cards, dest, bottom, loc, into):
    """:func:`move_list_unwatched` into a destination the IR does not name: see :func:`move_card_anywhere`."""
    if dest.__class__ is int and 0 <= dest < len(into):
        move_list_unwatched(s, cards, dest, bottom, loc, into[dest])
    else:
        move_list(s, cards, dest, bottom, loc)


def shuffle_zone(s, z, loc):
    """``shuffle ZONE``: a step per card."""
    cards = s.zones[z]
    s.steps -= len(cards)  # a step per card shuffled
    if s.steps < 0:
        raise over_budget(s, loc)
    if s.chance is None:
        s.rng = RNG.shuffle(s.rng, cards)
    else:  # chance mode: no order is decided now (see runtime/chance.py)
        cards = CHANCE.raw(cards)
        CHANCE.shuffle_zone(s, z)
    if s.shown:
        forget_shown(s, cards)
    if s.public:
        s.public.difference_update(cards)
    if s.trace is not None:
        s.traced_shuffle(z)
