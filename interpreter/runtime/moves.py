"""Moving and shuffling cards: the zones, each card's location, what is shown, and the trace, kept in step."""

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
    if bottom:
        s.zones[dest][:0] = cards
    else:
        s.zones[dest].extend(cards)


def forget_shown(s, cards):
    """Cards that moved (or were shuffled) are no longer shown to the players a 'show' named."""
    shown = s.shown
    for c in cards:
        shown.pop(c, None)


def move_card(s, card, dest, bottom):
    """``move CARD to ZONE``: the card goes from its zone (the top card, the commonest case, popped) for ``dest``."""
    src = s.loc[card]
    top = None
    if src >= 0:
        zone = s.zones[src]
        if zone[-1] == card if zone.__class__ is list else zone.on_top(card):  # most moves take the top card
            zone.pop()
            top = card
        else:
            zone.remove(card)
    s.loc[card] = dest
    if s.shown:
        s.shown.pop(card, None)
    if bottom:
        s.zones[dest].insert(0, card)
    else:
        s.zones[dest].append(card)
    if s.trace is not None:
        s.traced_move(card, src, top, dest, bottom)


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
    if s.trace is not None:
        s.traced_moves(cards, src, cards[-1] if cards else None, dest, bottom)


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
            place_cards(s, cards, dest, bottom)
            if s.trace is not None:
                s.traced_moves(cards, src, cards[-1], dest, bottom)
            return
    for card in cards:
        if card is not None:
            move_card(s, card, dest, bottom)


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
    if s.trace is not None:
        s.traced_shuffle(z)
