"""A seat's observation vector read straight from the state: ``ViewEncoder.encode(state.view(seat))``, number for
number, without building the view.

A learning loop asks for one seat's vector per step, and between two steps little changes: a card or two
move, a variable or two change.  So the numbers every seat is given alike (zone counts, the cards of
public and top-only zones, the variables but private ones, counters, the decision, the end) are kept
once, as float32 written in place, with what they were computed from: each zone's length, a copy of
each zone that shows cards, the variables' values, the decision's numbers.  An observation compares the
state with those and works out again only what differs (a zone's cards by those that left and those
that came); then what that seat alone is given (its mark, the zones only it sees whole, its private
variables, the cards shown to it) is added to a copy.  Nothing is worked out for a seat not asked.

What a seat sees is decided as the view decides it, with the functions of
:mod:`interpreter.runtime.visibility`: a zone that ``zone_shows`` whole (public, or the seat's own) lists
every card's name; a ``top`` zone its top card's; any other only its count.  On top of those, every
observation lists the cards the view lists as ``shown``: the top cards of a ``seen_by`` zone while
``sees_top`` holds for the seat, the cards shown to it ('show'; a spectator, seat ``n``, is shown what every
player is), and the cards everyone watched go where they lie (``State.public``).  Counters on cards are not
in the vector at all.  A state in chance mode, or of another game or player count, is encoded from its view.

``tests/agents/test_state_encoding.py`` checks the two paths equal, bit for bit, at every step of seeded
random games of every shipped game and variant and of the test definitions with hidden zones, shows and
public cards, for every seat and the spectator.

A StateEncoder keeps what it last computed: one per environment, not shared between threads.
"""

from __future__ import annotations

from array import array
from itertools import chain, compress
from operator import is_not, itemgetter, ne

import numpy as np

from ..runtime.visibility import REDACTED, can_see, sees_top, visibility_table, zone_shows
from .encoding import LIMIT, ViewEncoder, _clip

SKIPPED, COUNT, WHOLE, TOP = range(4)  # how a seat sees a zone: not in the vector, its count, every card, its top card
IMMUTABLE = (int, float, str, bool, type(None))  # a variable's value of these types cannot change unless replaced
RECOUNTED = 8  # a zone holding at most this many cards before and after a change is counted again whole
NUMBERS = {int, bool}  # values a variable of a kind not NUMBERED is given as themselves (within ±LIMIT)
NUMBERED = {"card", "list:card", "player"}  # kinds whose values ``StateEncoder.number`` translates


class StateEncoder:
    """The vectors of :class:`ViewEncoder` (``encoder``), computed from states without their views.

    ``encode(state, seat)`` returns a new float32 array each time, equal to
    ``encoder.encode(state.view(seat))``.  One StateEncoder may encode any states of its game and player
    count, in any order: its saved numbers are brought up to date from whatever state comes next.
    """

    def __init__(self, encoder: ViewEncoder):
        self.encoder = encoder
        game = self.game = encoder.game
        self.size, self.players = encoder.size, encoder.players
        self.card_value = [encoder.name_index[name] + 1 for name in game.card_names]  # a card's name, as a number
        self.table = visibility_table(game)
        self.zone_at = self._zone_positions()
        self.gvars = list(encoder._gvar_at)  # (name, position, kind)
        self.gvar_names = [name for name, _, _ in self.gvars]
        self.pvars = [(name, at + p, kind, p) for name, at, kind in encoder._pvar_at for p in range(self.players)]
        self.pvar_names = [name for name, _, _ in encoder._pvar_at]
        self.row_length = {self.players}  # (the lengths of the state's rows of player variables, as they should be)
        self.counters = [(name, "space" if where == "spaces" else "player", length, at)
                         for name, where, length, at in encoder._counter_at]
        self.unseen_card = encoder.value(REDACTED["card"], "card")  # a card variable's card a seat cannot see
        self.read = None  # the last state read from itself (see _readable)
        self.everyone = _Common(self)  # the numbers every seat is given alike
        self._seats = {}  # seat (None: a spectator) -> _Seat: what that seat is given besides

    def _zone_positions(self) -> list:
        """Per zone index of the game: None (a zone of an absent seat, not in the vector) or (count, top, names)."""
        at = [None] * self.game.zone_count
        labels = {self.game.zone_label(i): i for i in range(self.game.zone_count)}
        for label, start, has_top, _ in self.encoder._zone_at:
            at[labels[label]] = (start, start + 1 if has_top else -1, start + 2 if has_top else start + 1)
        return at

    def how(self, seat: int | None) -> list:
        """Per zone index, how ``seat`` (None: a spectator, or anyone) sees it: SKIPPED, COUNT, WHOLE or TOP."""
        how = []
        for index, at in enumerate(self.zone_at):
            if at is None:
                how.append(SKIPPED)
            elif zone_shows(None, index, False, seat, self.table):
                how.append(WHOLE)
            else:
                how.append(TOP if zone_shows(None, index, True, seat, self.table) else COUNT)
        return how

    def encode(self, state, seat: int | None) -> np.ndarray:
        """``seat``'s vector (``None``: a spectator's), as ``encoder.encode(state.view(seat))`` gives it."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < state.n):
            state._no_such_player(seat)
        if state is not self.read and not self._readable(state):
            return self.encoder.encode(state.view(seat))
        everyone = self.everyone
        everyone.update(state)
        if seat is None:
            vector = everyone.vector.copy()
        else:  # (the common numbers mark no seat: marked for the copy only)
            everyone.numbers[seat] = 1.0
            vector = everyone.vector.copy()
            everyone.numbers[seat] = 0.0
        own = self._seats.get(seat)
        if own is None:
            own = self._seats[seat] = _Seat(self, seat)
        if own.plain and not (own.shown or state.shown or state.public):  # (nothing of its own to add)
            return vector
        added = own.update(state)
        if added:
            numbers = memoryview(vector)
            for position, number in added:
                numbers[position] += number
        return vector

    def _readable(self, state) -> bool:
        """Whether ``state`` is read from itself (one of this game at this player count, not in chance mode: none of
        which changes while a state lasts), remembered for the next states asked (the same one, mostly)."""
        if state.game is not self.game or state.n != self.players or state.chance is not None:
            return False
        self.read = state
        return True

    def card_seen(self, state, card, seat: int | None):
        """A card variable's value as ``seat``'s view shows it, numbered: none 0, a card it sees by its name,
        another as the view's ``"a card"``."""
        if card is None:
            return 0
        return self.card_value[card] if can_see(state, card, seat, self.table) else self.unseen_card

    def number(self, v, kind: str):
        """A variable's value as ``ViewEncoder.encode`` numbers it from the view (a card by its name)."""
        if kind == "card":  # (card 0 too: the view names it)
            return 0 if v is None else self.card_value[v]
        if not v:  # (as the view's encoding skips a falsy value: seat 0 and the empty list too)
            return 0
        if kind == "list:card":
            return _clip(len(v))
        if type(v) is int and kind != "player" and -LIMIT <= v <= LIMIT:
            return v
        return self.encoder.value(v, kind)

    def seen(self, cards: list, how: int, at: tuple) -> list:
        """(position, number) of the names and top card a zone holding ``cards`` shows when seen ``how``."""
        if how not in (WHOLE, TOP) or not cards:
            return []
        _, top_at, names_at = at
        value = self.card_value
        seen = cards if how == WHOLE else cards[-1:]
        return [(names_at + value[card] - 1, 1) for card in seen] + [(top_at, value[cards[-1]])]


class _Common:
    """The numbers every seat and the spectator are given alike (those of the spectator's view, less what it is
    shown), kept as a float32 array written in place, and what they were computed from.

    A zone that shows no card to anyone is followed by its length alone; a zone that shows some, by a copy (its
    length with it); a zone left out of the vector (an absent seat's) is not followed at all."""

    def __init__(self, owner: StateEncoder):
        self.owner = owner
        size = owner.size
        how = owner.how(None)
        counted = [index for index, at in enumerate(owner.zone_at) if at is not None and how[index] == COUNT]
        self.counted = zones_at(counted)  # the zones that show no card to anyone: followed by their lengths
        self.count_at = [owner.zone_at[index][0] for index in counted]
        shows = [(index, at[0], at[1], at[2], how[index]) for index, at in enumerate(owner.zone_at)
                 if at is not None and how[index] in (WHOLE, TOP)]  # (zone, count, top, names, how)
        self.shows = [index for index, _, _, _, _ in shows]
        self.plan = [(count_at, top_at, names_at - 1, how == WHOLE) for _, count_at, top_at, names_at, how in shows]
        # (a card's value is 1 + the index of its name: names_at - 1 + value is its name's place)
        self.shown = zones_at(self.shows)  # the zones that show cards: followed by copies (their counts too)
        self.variables = variables = common_variables(owner)
        self.cards_held = [i for i, v in enumerate(variables) if v is not None and v[1] == "card"]  # (numbered
        # every time: whether a card is seen changes as it moves, the variable unchanged)
        self.gvalues = values_of(owner.gvar_names)  # a state's game variables' values, in that order
        self.rows = values_of(owner.pvar_names)  # its rows of player variables, in that order
        self.row_lengths = [owner.players] * len(owner.pvar_names)
        self.numbers = array("f", bytes(4 * size))  # float32, as the vector: written in place
        self.vector = np.frombuffer(self.numbers, np.float32)  # (the same memory)
        self.lengths = [0] * len(counted)
        self.counted_range, self.shows_range, self.values_range = range(len(counted)), range(len(shows)), \
            range(len(variables))
        self.copies = tuple([] for _ in shows)  # the zones that show cards, as the numbers show them
        self.values = [None] * len(variables)  # the variables' values numbered
        self.mutable = []  # which of those may change in place (lists): numbered every time
        self.counters = {}  # (counter, "space" | "player") -> its row as the numbers show it
        n = owner.players
        self.decision_at = owner.encoder._decision_at
        self.decision_end = self.decision_at + 2 * n + 1
        self.over_at = owner.encoder._over_at
        self.block = array("f", bytes(4 * (2 * n + 1)))  # the decision's numbers
        self.one_seat = one_seat_blocks(n)

    def update(self, state) -> None:
        """Bring the numbers (and so ``vector``, the same memory) up to date with ``state``."""
        zones, numbers = state.zones, self.numbers
        lengths = list(map(len, self.counted(zones)))
        if lengths != self.lengths:
            count_at = self.count_at
            for k in compress(self.counted_range, map(ne, lengths, self.lengths)):
                numbers[count_at[k]] = lengths[k]
            self.lengths = lengths
        shown = self.shown(zones)
        changed = list(compress(self.shows_range, map(ne, shown, self.copies)))
        if changed:
            self._shown_zones(shown, changed)
        try:  # the variables' values: the game's, then each player variable's row (in ``variables``' order)
            rows = self.rows(state.pv)
            if list(map(len, rows)) != self.row_lengths:
                raise KeyError
            values = [*self.gvalues(state.gv), *chain.from_iterable(rows)]
        except KeyError:  # (a variable missing from the state, or a row of another length: None where it lacks)
            values = list(map(state.gv.get, self.owner.gvar_names)) + player_values(state, self.owner)
        changed = list(compress(self.values_range, map(is_not, values, self.values)))  # (True is 1, but is not 1)
        if self.cards_held:
            changed = sorted({*changed, *self.cards_held})
        if changed or self.mutable:
            self._variables(values, changed, state)
        if self.owner.counters:
            self._counters(state)
        self._decision(state.pending, state)
        numbers[self.over_at] = 1.0 if state.over else 0.0

    def _decision(self, pending, state) -> None:
        """The seats the decision waits for, those that decided (never what), and whether it is secret."""
        if pending is not None and not pending.each and len(pending.players) == 1 and pending.chosen[0] is None:
            block = self.one_seat[pending.players[0]][1 if pending.secret else 0]  # (the common case, made once)
            if block is not self.block:
                self.numbers[self.decision_at:self.decision_end] = self.block = block
        else:
            block = self._block(state)
            if block != self.block:
                self.numbers[self.decision_at:self.decision_end] = self.block = block

    def _shown_zones(self, shown: tuple, changed: list) -> None:
        """Bring the zones that show cards and differ from their copies (``changed``, places in ``shown``) up to
        date: their counts, tops and the names in them."""
        value, numbers, copies, plan = self.owner.card_value, self.numbers, list(self.copies), self.plan
        for k in changed:
            cards, before = shown[k], copies[k]
            copies[k] = cards[:]
            count_at, top_at, names_at, whole = plan[k]
            if len(cards) != len(before):
                numbers[count_at] = len(cards)
            if not whole:  # (its top card alone)
                seen_before, seen_now = before[-1:], cards[-1:]
            elif cards[:len(before)] == before:  # cards put on top (the common case: it differs, so it grew)
                for card in cards[len(before):]:
                    numbers[names_at + value[card]] += 1
                numbers[top_at] = value[cards[-1]]
                continue
            elif before[:len(cards)] == cards:  # cards taken off the top
                seen_before, seen_now = before[len(cards):], ()
            elif len(before) + len(cards) <= RECOUNTED:  # a few cards: counted again whole, quicker than compared
                seen_before, seen_now = before, cards
            else:  # cards taken from anywhere, put anywhere: those that left and those that came
                old, new = set(before), set(cards)
                seen_before, seen_now = (old - new, new - old) if len(old) == len(before) and len(new) == len(cards) \
                    else (before, cards)  # (a card twice in a zone, which no rule makes: counted again whole)
            for card in seen_before:
                numbers[names_at + value[card]] -= 1
            for card in seen_now:
                numbers[names_at + value[card]] += 1
            numbers[top_at] = value[cards[-1]] if cards else 0
        self.copies = tuple(copies)

    def _variables(self, values: list, changed: list, state) -> None:
        """Number the variables whose value is another object than last time (``changed``), and those holding
        lists; a card as the spectator sees it (a seat that sees more adds the difference: ``_Seat``)."""
        numbers, number, variables = self.numbers, self.owner.number, self.variables
        mutable = []
        for i in sorted({*changed, *self.mutable}) if self.mutable else changed:
            variable = variables[i]
            if variable is None:
                continue
            at, kind, plain = variable
            v = values[i]
            if plain and type(v) in NUMBERS and -LIMIT <= v <= LIMIT:  # (what ``number`` gives it: itself)
                numbers[at] = v
                continue
            if kind == "card":
                numbers[at] = self.owner.card_seen(state, v, None)
                continue
            if type(v) not in IMMUTABLE:
                mutable.append(i)
            numbers[at] = number(v, kind)
        self.values, self.mutable = values, mutable

    def _counters(self, state) -> None:
        """The counters on spaces (in the board's order) and on players."""
        numbers, copies = self.numbers, self.counters
        for name, key, length, at in self.owner.counters:
            row = state.counters.get(name, {}).get(key) or []
            if copies.get((name, key)) == row:
                continue
            copies[(name, key)] = row[:]
            for k in range(length):
                v = row[k] if k < len(row) else 0
                numbers[at + k] = _clip(v) if v else 0

    def _block(self, state) -> array:
        """The decision's numbers: the seats it waits for, those that decided (never what), whether it is secret."""
        n = self.owner.players
        block = [0] * (2 * n + 1)
        pending = state.pending
        if pending is not None:
            for p in state.current_players():
                block[p] += 1
            for p, done in zip(pending.players, pending.chosen):
                if done is not None:
                    block[n + p] += 1
            if pending.secret:
                block[2 * n] = 1
        return array("f", block)


def common_variables(owner: StateEncoder) -> list:
    """Per variable's value (the game's, then each player variable's row): (position, kind, whether a number or
    yes/no stands for itself), or None for a private one (not common)."""
    hidden = owner.game.hidden_pvars
    variables = [(at, kind, kind not in NUMBERED) for _, at, kind in owner.gvars]
    return variables + [None if name in hidden else (at, kind, kind not in NUMBERED)
                        for name, at, kind, _ in owner.pvars]


def values_of(names: list):
    """A function of a dict: the tuple of its values at ``names`` (a KeyError if one is missing)."""
    if len(names) > 1:
        return itemgetter(*names)  # (itemgetter's, which gives one alone bare)
    return lambda values: tuple([values[name] for name in names])


def zones_at(indices: list):
    """A function of a state's zones: the tuple of those at ``indices`` (itemgetter's, which gives one alone bare)."""
    if len(indices) > 1:
        return itemgetter(*indices)
    return lambda zones: tuple(zones[i] for i in indices)


def one_seat_blocks(n: int) -> list:
    """Per seat, the decision's numbers when that seat alone decides: [open, secret]."""
    return [[array("f", [int(k == p) for k in range(2 * n)] + [secret]) for secret in (0, 1)] for p in range(n)]


def player_values(state, owner: StateEncoder) -> list:
    """Every seat's value of every player variable, in ``owner.pvars``'s order (None where a row lacks it)."""
    n = owner.players
    rows = list(map(state.pv.get, owner.pvar_names))
    if None in rows or set(map(len, rows)) != {n}:  # (a variable missing from the state: None for every seat)
        rows = [[None] * n if row is None else list(row[:n]) + [None] * (n - len(row)) for row in rows]
    return list(chain.from_iterable(rows))


def _cards_held(owner: StateEncoder, seat: int | None) -> list:
    """(index among the values, position) of the card variables everyone reads, in which ``seat`` may see a card
    the spectator does not (none for the spectator itself; the common part is made first)."""
    if seat is None:
        return []
    common = owner.everyone.variables
    return [(i, common[i][0]) for i in owner.everyone.cards_held]


class _Seat:
    """What one seat (or the spectator) is given besides the common numbers: its mark in ``seat``, the cards of
    the zones only it sees whole, its own hidden player variables, and the cards it is shown."""

    def __init__(self, owner: StateEncoder, seat: int | None):
        self.owner, self.seat = owner, seat
        game = owner.game
        self.audience = owner.players if seat is None else seat  # whom 'show' must have named (a spectator: n)
        self.how = owner.how(seat)
        everyone = owner.how(None)
        self.own = [(index, self.how[index], everyone[index]) for index in range(game.zone_count)
                    if self.how[index] != everyone[index]]  # (its own zones: seen whole by it alone)
        own = [index for index, _, _ in self.own]
        self.own_now = zones_at(own)
        self.copies = (None,) * len(own)  # those zones, as last counted
        self.own_range = range(len(own))
        self.own_seen = [[] for _ in own]  # per own zone: the (position, number) it adds
        seen = game.seen_zone if seat is not None else None
        self.seen_by = [] if seen is None else [
            (index, seen[index][0], seen[index][1], self.how[index] == TOP) for index in range(game.zone_count)
            if seen[index] is not None and self.how[index] in (COUNT, TOP)]
        hidden = game.hidden_pvars
        self.hidden = [(i, at, kind) for i, (name, at, kind, p) in enumerate(owner.pvars)
                       if name in hidden and p == seat]
        self.cards_held = _cards_held(owner, seat)
        self.plain = self._given_only_what_it_is_shown()
        self.zones_seen = []  # (position, number) the own zones add
        self.shown = []  # the names' positions of the cards listed as shown, sorted
        self.values = []  # (position, number) of its hidden player variables
        self.added = []

    def _given_only_what_it_is_shown(self) -> bool:
        """Whether this seat sees no zone, top card or variable that others do not (only cards shown to it)."""
        return not self.own and not self.seen_by and not self.hidden and not self.cards_held

    def update(self, state) -> list:
        """[(position, number), ...] to add to the common vector, at distinct positions (its mark in ``seat`` apart)."""
        redo = self._own_zones(state.zones) if self.own else False
        if self.seen_by or state.shown or state.public or self.shown:  # (or the cards it listed are shown no more)
            shown = self._shown(state)
            if shown != self.shown:
                self.shown, redo = shown, True
        if self.hidden or self.cards_held:
            values = self._values(state)
            if values != self.values:
                self.values, redo = values, True
        if redo:
            total = {}
            for position, number in chain(self.zones_seen, ((k, 1) for k in self.shown), self.values):
                total[position] = total.get(position, 0) + number
            self.added = [(k, v) for k, v in total.items() if v]
        return self.added

    def _values(self, state) -> list:
        """(position, number) of its hidden player variables, and what the card variables everyone reads add
        for it (the cards it sees and the spectator does not)."""
        owner, seat = self.owner, self.seat
        values = []
        if self.hidden:
            rows = player_values(state, owner)
            values = [(at, owner.card_seen(state, rows[i], seat) if kind == "card" else owner.number(rows[i], kind))
                      for i, at, kind in self.hidden]
        common = owner.everyone.values
        for i, at in self.cards_held:
            card = common[i]
            if card is not None:
                added = owner.card_seen(state, card, seat) - owner.card_seen(state, card, None)
                if added:
                    values.append((at, added))
        return values

    def _own_zones(self, zones: list) -> bool:
        """Whether a zone only this seat sees whole changed (the numbers of those that did are counted again)."""
        now = self.own_now(zones)
        if now == self.copies:
            return False
        at, seen, own_seen, copies = self.owner.zone_at, self.owner.seen, self.own_seen, list(self.copies)
        for k in compress(self.own_range, map(ne, now, copies)):
            index, how, everyone = self.own[k]
            cards = copies[k] = now[k][:]
            own_seen[k] = seen(cards, how, at[index]) + [(p, -v) for p, v in seen(cards, everyone, at[index])]
        self.copies = tuple(copies)
        self.zones_seen = list(chain.from_iterable(own_seen))
        return True

    def _shown(self, state) -> list:
        """The names' positions of the cards the view lists as ``shown`` to this seat (see the module docstring)."""
        zones, loc, how = state.zones, state.loc, self.how
        listed = set()
        held = {}  # one condition may serve several zones: asked once, as the view asks it
        for index, top, cond, is_top in self.seen_by:
            cards = zones[index]
            if not cards:
                continue
            sees = held.get(id(cond))
            if sees is None:
                sees = held[id(cond)] = sees_top(state, cond, self.seat)
            if sees:
                listed.update(cards[-top:-1] if is_top else cards[-top:])  # (a top zone's top card is seen anyway)
        audience = self.audience
        candidates = [card for card, players in state.shown.items() if audience in players] if state.shown else []
        candidates += state.public
        for card in candidates:
            zone = loc[card]
            if zone < 0 or how[zone] in (SKIPPED, WHOLE) or (how[zone] == TOP and zones[zone][-1] == card):
                continue  # not in play, in a zone of an absent seat, or shown by its zone anyway
            listed.add(card)
        at, value = self.owner.zone_at, self.owner.card_value
        return sorted(at[loc[card]][2] + value[card] - 1 for card in listed)
