"""The rule of public cards (perfect recall of public events), restated from the moves themselves.

An observer follows every card move and shuffle of a traced game (``trace=True``: the state then calls
``traced_move``, ``traced_moves``, ``traced_shuffle`` and ``traced_show`` after each) and keeps, by its own
bookkeeping, the set of cards that are public in a zone hiding them:

* a card everyone saw where it lay (a ``public`` zone, or the top card of a ``top`` zone) that moves into a
  zone that is not ``public`` becomes public there;
* it stops being public when it moves again, when its zone is shuffled, or when another card leaves its zone.

It also numbers every event and keeps, per card, what happened to it and when, so that a line of narration
written at one moment can be compared with the table shown later (:func:`check_lines_agree_with_views`).
Nothing here reads ``State.public``: the tests compare the engine with this restatement.
"""

from __future__ import annotations

from collections import defaultdict
from contextlib import contextmanager

from interpreter import State
from interpreter import trace as TR
from interpreter.runtime.visibility import Line, Part, can_see, cards_of, visibility_table
from interpreter.views import seen_cards

# What may happen to a card after a line named it.  A card named to an audience may drop out of its view
# only by one of LOSSES; a card hidden in a line may show in its view only after one of any kind.
LOSSES = {"moved unwatched", "shuffled", "left behind", "covered"}


class Recall:
    """The observer of one traced state (and of any state cloned from it: a random playout has one)."""

    def __init__(self):
        self.public: dict[int, set] = defaultdict(set)  # id(state) -> its public cards, by this bookkeeping
        self.clock = 0
        self.events: dict[int, list] = defaultdict(list)  # card -> [(clock, what)]
        self.lines: list = []  # (clock, {audience: (named cards, hidden cards, seen_by only)}) of lines written
        self.named_public = 0  # cards named in a line and shown by the table only because they are public

    def mark(self, card, what):
        self.clock += 1
        self.events[card].append((self.clock, what))

    def moved(self, s, cards, src, top, dest):
        public = self.public[id(s)]
        vis = s.game.zone_spec
        below = s.zones[dest][-len(cards) - 1] if len(s.zones[dest]) > len(cards) else None
        if below is not None and below not in cards and s.zones[dest][-1] in cards:
            self.mark(below, "covered")
        for card in cards:
            public.discard(card)
            watched = src >= 0 and (vis[src].visibility == "public"
                                    or (vis[src].visibility == "top" and card == top))
            self.mark(card, "moved watched" if watched else "moved unwatched")
            if watched and vis[dest].visibility != "public":
                public.add(card)
        if src >= 0:
            for card in s.zones[src]:  # left behind (a card under those taken is uncovered too)
                self.mark(card, "left behind")
                public.discard(card)

    def shuffled(self, s, zone):
        for card in s.zones[zone]:
            self.public[id(s)].discard(card)
            self.mark(card, "shuffled")

    def shown(self, cards):
        for card in cards:
            self.mark(card, "shown")

    def public_cards(self, s) -> set:
        return {c for c in self.public[id(s)] if s.loc[c] >= 0}


@contextmanager
def recalled(monkeypatch, lines: bool = False):
    """Observe every traced state while the block runs; with ``lines``, also every log line as written."""
    recall = Recall()
    move, moves, shuffle, show = State.traced_move, State.traced_moves, State.traced_shuffle, State.traced_show

    def traced_move(s, card, src, top, dest, bottom):
        recall.moved(s, (card,), src, top, dest)
        move(s, card, src, top, dest, bottom)

    def traced_moves(s, cards, src, top, dest, bottom):
        recall.moved(s, tuple(cards), src, top, dest)
        moves(s, cards, src, top, dest, bottom)

    def traced_shuffle(s, zone):
        recall.shuffled(s, zone)
        shuffle(s, zone)

    def traced_show(s, cards, players):
        recall.shown(cards)
        show(s, cards, players)

    monkeypatch.setattr(State, "traced_move", traced_move)
    monkeypatch.setattr(State, "traced_moves", traced_moves)
    monkeypatch.setattr(State, "traced_shuffle", traced_shuffle)
    monkeypatch.setattr(State, "traced_show", traced_show)
    if lines:
        write = Line.write

        def recorded_write(self, s, e):
            if self.to is None and self.secret:
                recall.lines.append((recall.clock, line_cards(self, s, e)))
            write(self, s, e)
        monkeypatch.setattr(Line, "write", recorded_write)
    clone = State.clone

    def followed_clone(s):  # a clone starts with what its original recalled
        c = clone(s)
        recall.public[id(c)] = set(recall.public[id(s)])
        return c
    monkeypatch.setattr(State, "clone", followed_clone)
    start = TR.start

    def traced_start(s):  # a new game recalls nothing (a dead state's id may be reused)
        recall.public[id(s)] = set()
        start(s)
    monkeypatch.setattr(TR, "start", traced_start)
    yield recall


def line_cards(line, s, e) -> dict:
    """Per audience (players, then None): (cards named in the clear, cards of parts read as hidden, cards it
    sees only by a zone's seen_by) of a line about to be written; parts hidden for a private variable or
    because they cannot be traced are left out (they name no card)."""
    table = visibility_table(s.game)
    audiences = s.players + [None]
    steps = s.steps  # the parts are computed again below: the budget must not notice
    found = {a: (set(), [], set()) for a in audiences}
    for part in line.parts:
        if not isinstance(part, Part) or not part.checks or part.private or part.opaque:
            continue
        cards = [c for fn, kind in part.checks for c in cards_of(s, fn(s, e), kind)]
        for a, clear in zip(audiences, part.audience(s, e, table)):
            named, hidden, seen_by = found[a]
            if clear:
                named.update(cards)
                seen_by.update(c for c in cards if not can_see(s, c, a, table[:2]))  # by seen_by alone
            else:
                hidden.append(cards)
    s.steps = steps
    return found


def check_lines_agree_with_views(state, recall, since: int) -> int:
    """Narration and the table agree for the lines written since line record ``since`` (one action's lines,
    delivered now with the views of ``state``).  For every audience:

    * a card a line names in the clear is in the audience's view now, unless after the line it was lost
      from sight by the rule (moved from where not everyone saw it, its zone shuffled, another card left its
      zone, covered on a pile) or was seen only by a zone's ``seen_by`` when written;
    * a part a line reads as hidden does not name cards all of which the view shows now, unless one of them
      moved, was shown or was uncovered after the line.

    Returns how many (line, audience) pairs were checked."""
    checked = 0
    views = {a: seen_cards(state, a) for a in state.players + [None]}
    public = recall.public_cards(state)
    for clock, per_audience in recall.lines[since:]:
        for a, (named, hidden, seen_by) in per_audience.items():
            seen = views[a]
            recall.named_public += len(named & seen & public)
            for card in named - seen - seen_by:
                after = {what for when, what in recall.events[card] if when > clock}
                assert after & LOSSES, (f"a line named {state.game.card_names[card]} to "
                                        f"{'the spectator' if a is None else f'seat {a + 1}'}, whose view no longer "
                                        f"shows it though nothing hid it since (events after: {sorted(after)})")
            for cards in hidden:
                if cards and all(c in seen for c in cards):
                    assert any(when > clock for c in cards for when, _ in recall.events[c]), \
                        (f"a line read as hidden cards that the view of "
                         f"{'the spectator' if a is None else f'seat {a + 1}'} shows: "
                         f"{[state.game.card_names[c] for c in cards]}")
            checked += 1
    return checked
