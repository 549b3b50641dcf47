"""A position as one seat might believe it to be, for search: its unseen cards dealt again at random.

A plain function of a :class:`~interpreter.state.State` (``State.determinised`` delegates here).
"""

from __future__ import annotations

import random
import weakref

from . import rng as RNG
from .errors import IllegalActionError, not_a_generator
from .chance import CHANCE_PLAYER
from .runtime.chance import Unresolved, raw
from .runtime.decisions import sees
from .runtime.kinds import tuple_items
from .runtime.option_spaces import places_moved


def determinised(state, seat: int, rng) -> "State":
    """A copy of this position as ``seat`` might believe it to be, for search: never the real hidden state.

    Every card ``seat`` cannot see (hidden zones, other players' ``owner`` zones, all but the top
    card of ``top`` zones, cards shown only to others; never a card public where it lies, which
    everyone saw go there) is dealt again at random among the positions
    it cannot see, keeping zone sizes; a card only trades places with cards that started the game in
    the same zone (cards of one starting pile share their back).  The deal depends only on which
    cards are unseen and on ``rng``, never on where they really are.  A card variable, or a local of a rule
    waiting for a decision, holding an unseen card holds the card dealt to its place (it points at a place on
    the table, not at which card really lies there), and so does an option that reads as a place (a card its
    chooser cannot see: ``runtime.decisions``); see :func:`cards_follow`.  Counters on unseen cards are
    zero and what others were shown of them is forgotten; other players' private player variables
    go back to their starting values, and a simultaneous decision (``ask each``) is asked again in the
    new deal: the others' choices already made are undone (and taken out of the history), so the searcher decides
    without their picks.  The copy keeps the history of actions and the narration, so what the seat was told and
    did reads as before; its random number generator and seed are new: future chance is drawn from
    ``rng`` (a ``random.Random`` of the searcher), not the game's.

    What ``seat`` sees (``view(seat)``) is unchanged, except that at a simultaneous decision the
    others who had chosen are waiting again.  The copy is for search only: it is not a save.
    A ``seat`` that is not a player of the game (exactly an int, 0 to n-1) or an ``rng`` that is not
    a ``random.Random`` is an IllegalActionError.
    """
    if type(seat) is not int or not 0 <= seat < state.n:
        state._no_such_player(seat)
    if not isinstance(rng, random.Random):
        not_a_generator("determinised", rng)
    c = _copy_for_search(state, rng)
    dealt = _deal_again(state, c, _unseen_cards(state, seat), rng)
    if dealt:
        _unseen_forgotten(state, c, set(dealt))
        cards_follow(state, c, dealt)
    _hidden_variables_reset(state, c, seat)
    _asked_again(state, c, seat)
    return c


def _copy_for_search(state, rng) -> "State":
    """The copy to deal again: no trace (the history and narration are kept: the seat remembers them as they
    were), no chance outcome in its history, and a new seed and generator drawn from ``rng``."""
    c = state.clone()
    c.trace, c.trace_vars = None, None
    if state.chance is not None:
        _settled_and_forgotten(state, c)
    c.seed = rng.getrandbits(64)
    c.rng = state.game.seed_state(c.seed)
    return c


def _unseen_cards(state, seat: int) -> dict:
    """The cards ``seat`` cannot see, by starting zone (cards of one starting pile share their back):
    {starting zone: ([(zone, first, stop) runs of positions], [the cards there, in zone order])}."""
    chance = state.chance is not None  # chance mode: undecided positions are unseen cards like any other
    shown, public = state.shown, state.public
    start_of, hidden = _unseen_zones(state.game, len(state.zones), seat)
    groups: dict = {}
    for index, top in hidden:
        cards = state.zones[index] if not chance else raw(state.zones[index])  # (read deciding nothing)
        last = len(cards) - 1 if top else len(cards)
        if last <= 0:
            continue
        starts = set(map(start_of.__getitem__, cards[:last]))
        if len(starts) == 1 and not (shown and any(seat in shown.get(card, ()) for card in cards[:last])) \
                and not (public and not public.isdisjoint(cards[:last])):
            runs, pile = groups.setdefault(starts.pop(), ([], []))  # the common case: one run, in C
            runs.append((index, 0, last))
            pile += cards[:last]
        else:
            _unseen_one_by_one(cards, last, index, seat, shown, public, start_of, groups)
    return groups


def _unseen_one_by_one(cards, last, index, seat, shown, public, start_of, groups) -> None:
    """:func:`_unseen_cards` of a zone holding cards of several starting zones, or cards the seat saw: each
    unseen card a run of its own."""
    for k in range(last):
        card = cards[k]
        if (shown and seat in shown.get(card, ())) or card in public:  # seen: it stays where it is
            continue
        runs, pile = groups.setdefault(start_of[card], ([], []))
        runs.append((index, k, k + 1))
        pile.append(card)


def _deal_again(state, c, groups: dict, rng) -> dict:
    """Deal each group's cards at random over its positions in ``c``; returns {card: the card dealt to its place}
    for every card dealt.  The deal depends only on which cards are unseen and on ``rng``, never on where they
    really are."""
    zones, loc = c.zones, c.loc
    unseen = {}
    for runs, pile in groups.values():
        before = list(pile)  # (in the order of its positions)
        pile.sort()
        RNG.shuffle(rng.getrandbits(64), pile)
        at = 0
        for index, first, stop in runs:
            dealt = pile[at:at + stop - first]
            at += stop - first
            list.__setitem__(zones[index], slice(first, stop), dealt)  # (an undecided zone too, as it stands)
            for card in dealt:
                loc[card] = index
        unseen.update(zip(before, pile))
    if state.chance is not None:
        _undecided_sorted(zones)
    return unseen


def _unseen_forgotten(state, c, unseen: set) -> None:
    """What the seat cannot know of the cards dealt again: what others were shown of them, their counters (zero)."""
    if state.shown:
        c.shown = {card: players for card, players in state.shown.items() if card not in unseen}
    for rows in c.counters.values():
        row = rows.get("card")
        if row is not None:  # the clone's own copy
            for card in unseen:
                row[card] = 0


def cards_follow(state, c, moved: dict) -> None:
    """In ``c``, a copy of ``state`` whose cards ``moved`` says were put in each other's places ({card: the card
    now in its place}), what points at a place follows: game and player variables holding cards, the locals that
    hold cards of every frame waiting (``Proc.held_cards``, noted by the compiler where a frame waits), and the
    options of the decision pending whose card reads as its place to its chooser.  ``determinised`` calls it with
    the new deal; a test may with any permutation of cards a seat cannot see."""
    g = state.game
    for values, kinds, rows in ((c.gv, g.gvars, False), (c.pv, g.pvars, True)):
        for name, kind in kinds.items():
            if kind not in ("card", "list:card") or name not in values:
                continue
            if rows:
                values[name] = [_followed(v, kind, moved.get) for v in values[name]]
            else:
                values[name] = _followed(values[name], kind, moved.get)
    procs = g.procs
    for fr in c.frames:
        held = procs[fr.pid].held_cards.get(fr.pc)
        if held is None:
            continue
        env = fr.env  # (the copy's own dict; its lists are shared with the real position: made anew, never changed)
        for key, kind in held[1].items():
            if key in env:
                env[key] = _followed(env[key], kind, moved.get)
    if c.pending is not None and not c.pending.each and c.frames:  # (a simultaneous one is asked again)
        _options_follow(state, c, moved, procs[c.frames[-1].pid].held_cards.get(c.frames[-1].pc))


def _options_follow(state, c, moved: dict, held) -> None:
    """The pending one-player decision's options whose cards read as their places to the chooser (it cannot see
    them: ``runtime.decisions.unseen_places``, ``chooser_card_options``, ``card_text``) take the card now there:
    in an option space, the cards of its places table; in listed options, by the kind of their values (``held``)."""
    p = c.pending
    chooser = p.players[0]
    lazy = p.lazy and p.lazy[0]
    if lazy:
        p.lazy = [places_moved(lazy, moved)]  # (a new list: the copy's options are made anew from it)
    elif held is not None and held[0] is not None and p.values[0] is not None:
        def follow(card):
            got = moved.get(card)
            return None if got is None or sees(state, chooser, card) else got
        kind = held[0]
        if kind.__class__ is tuple:  # a menu: (entry, item), each entry's items of their kind
            kinds = kind[1]
            p.values = [[v if v[1] is None or kinds[v[0]] is None else (v[0], _followed(v[1], kinds[v[0]], follow))
                         for v in p.values[0]]]
        else:
            p.values = [[_followed(v, kind, follow) for v in p.values[0]]]


def _followed(value, kind: str, follow):
    """``value``, of ``kind``, with each card ``follow`` gives another for (None: it stays) replaced by it."""
    if value is None:
        return None
    if kind == "card":
        got = follow(value)
        return value if got is None else got
    if kind.startswith("list:"):
        return [_followed(v, kind[5:], follow) for v in value]
    if kind.startswith("tuple:"):
        return [_followed(v, k, follow) for v, k in zip(value, tuple_items(kind))]
    return value


def _hidden_variables_reset(state, c, seat: int) -> None:
    """Other players' private player variables go back to their starting values."""
    g = state.game
    for name in g.hidden_pvars:
        values = c.pv[name]
        for p in state.players:
            if p != seat:
                start = g.pvar_defaults[name]
                values[p] = list(start) if isinstance(start, list) else start  # its own copy


def _asked_again(state, c, seat: int) -> None:
    """At a simultaneous decision, ask everyone again in the new deal (the others' options may be cards the seat
    cannot see): the others' picks are undone and taken out of the history; the seat's own pick is made again
    if it is still open to it."""
    p = c.pending
    if p is None or not p.each:
        return
    own = None
    if seat in p.players:
        i = p.players.index(seat)
        if p.chosen[i] is not None:
            labels, values = state._options(p, i)
            own = labels[values.index(p.chosen[i][0])]
    c.frames[-1].pc -= 1  # the decision is the instruction before the one the rule resumes at
    c.pending = None
    undone = sum(done is not None for done in p.chosen)  # the picks made so far: the history's last entries
    if undone:
        del c.history[-undone:]
    c.steps = state.game.step_limit
    c._run()
    if own is not None and own in c.legal_actions(seat):
        c.apply(seat, own)


def _settled_and_forgotten(state, c) -> None:
    """Chance mode: refuse a position at a chance node; the copy ``c`` keeps no chance outcome in its history
    (they name cards the seat may not see, and the new deal's would be others)."""
    if state.is_chance():
        raise IllegalActionError("a chance event is pending: determinise a position at a decision (after "
                                 "apply_chance), where every seat's knowledge is settled")
    c.history = [entry for entry in c.history if entry[0] != CHANCE_PLAYER]


def _undecided_sorted(zones) -> None:
    """Chance mode: an undecided run holds its cards in sorted order again, which means nothing."""
    for cards in zones:
        if type(cards) is Unresolved and cards.lo < cards.hi:
            run = slice(cards.lo, cards.hi)
            list.__setitem__(cards, run, sorted(list.__getitem__(cards, run)))


_UNSEEN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # game -> {(zones, seat): _unseen_zones(...)}


def _unseen_zones(game, zone_count: int, seat: int) -> tuple:
    """(each card's starting zone, [(zone index, only its top card seen)] of the zones ``seat`` cannot see
    all of): worked out once per game, number of zones and seat (what a game's definition fixes)."""
    known = _UNSEEN.get(game)
    if known is None:
        known = _UNSEEN[game] = {}
    got = known.get((zone_count, seat))
    if got is None:
        hidden = []
        for index in range(zone_count):
            vis = game.zone_spec[index].visibility
            if vis == "public" or (vis == "owner" and game.zone_owner[index] == seat):
                continue
            hidden.append((index, vis == "top"))
        got = known[(zone_count, seat)] = (tuple(start for start, _ in game.card_start), tuple(hidden))
    return got
