"""The playout build's movers (runtime/moves.py, chosen by dsl/playout_build.py) leave what the watched movers leave.

``move_card_unwatched``, ``move_list_unwatched`` and ``move_zone_unwatched`` repeat ``move_card``, ``move_list`` and
``move_zone`` without the trace and chance-mode checks, told at load what each zone leaves public; the
``*_anywhere`` movers do the same into a zone worked out at run time.  From random positions of a game with a zone
of every visibility (public cards in hiding zones, cards shown to players), every kind of move, on top and at
bottom, must leave the same zones, locations, ``shown``, ``public`` and step budget, or fail with the same error
leaving the same state, as the watched mover.  The tables come from the compiler's own ``playout_mover``.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from conftest import REPO_ROOT
from configurations import every_configuration
from interpreter import load_game
from interpreter.dsl.playout_build import playout_mover
from interpreter.runtime import moves as M

MOVERS = REPO_ROOT / "tests" / "definitions" / "movers.yaml"  # deck hidden, pile public, stack top, hands owner


def _extra(game, what, dest, source=None):
    """The unwatched mover and its extra argument that the playout build calls for a ``what`` moved into
    ``dest`` (a zone index, or None: worked out at run time) from ``source`` (a zone moved whole)."""
    ctx = SimpleNamespace(zone_shows=None, m=game, code=SimpleNamespace(constant=lambda value: SimpleNamespace(value=value)))
    spec = None if dest is None else game.zone_spec[dest]
    src = None if source is None else game.zone_spec[source]
    mover, extra = playout_mover(ctx, what, spec, src)
    return mover, [e.value for e in extra]


def _scrambled(game, rng):
    """A position of 3 players: the cards dealt at random, some public in zones hiding them, some shown."""
    s = game.new_game(3, rng.randrange(1000), log=False)
    zones = list(range(len(s.zones)))
    for z in zones:
        s.zones[z] = []
    for card in range(len(s.loc)):
        z = rng.choice(zones)
        s.zones[z].append(card)
        s.loc[card] = z
    hiding = [c for c in range(len(s.loc)) if game.zone_spec[s.loc[c]].visibility != "public"]
    s.public = set(rng.sample(hiding, rng.randrange(len(hiding) + 1))) if hiding else set()
    s.shown = {c: [rng.randrange(3)] for c in rng.sample(range(len(s.loc)), rng.randrange(4))}
    s.steps = rng.choice([3, 1000])  # (a budget of 3 runs out on a large move)
    return s


def _outcome(s, call):
    try:
        call()
        error = None
    except Exception as exc:  # noqa: BLE001 - an odd value's failure is an outcome to compare
        error = (type(exc).__name__, str(exc))
    return error, s.zones, s.loc, s.shown, s.public, s.steps


def _compare(s, watched, unwatched):
    a, b = s.clone(), s.clone()
    assert _outcome(b, lambda: unwatched(b)) == _outcome(a, lambda: watched(a))


@pytest.mark.parametrize("seed", range(6))
def test_unwatched_movers_leave_what_the_watched_movers_leave(seed):
    game = load_game(MOVERS).for_players(3)
    rng = random.Random(seed)
    n = len(game.zone_spec)
    for _ in range(150):
        s = _scrambled(game, rng)
        dest = rng.randrange(n)
        known = rng.random() < 0.5
        bottom = rng.random() < 0.3
        kind = rng.choice(["card", "list", "top list", "zone"])
        if kind == "card":
            card = rng.randrange(len(s.loc))
            mover, extra = _extra(game, "card", dest if known else None)
            _compare(s, lambda t: M.move_card(t, card, dest, bottom), lambda t: mover(t, card, dest, bottom, *extra))
        elif kind == "zone":
            src = rng.randrange(n)
            mover, extra = _extra(game, "zone", dest if known else None, src if known else None)
            _compare(s, lambda t: M.move_zone(t, src, dest, bottom, None),
                     lambda t: mover(t, src, dest, bottom, None, *extra))
        else:
            zone = s.zones[rng.randrange(n)]
            cards = zone[-rng.randrange(len(zone) + 1):] if kind == "top list" and zone else \
                rng.sample(zone, rng.randrange(len(zone) + 1))
            if rng.random() < 0.2:
                cards.append(rng.randrange(len(s.loc)))  # maybe from another zone, maybe twice
            mover, extra = _extra(game, "list", dest if known else None)
            _compare(s, lambda t: M.move_list(t, cards, dest, bottom, None),
                     lambda t: mover(t, cards, dest, bottom, None, *extra))


ODD = [None, -1, -5, 999, True, "pile", 2.0]


@pytest.mark.parametrize("odd", ODD, ids=repr)
def test_a_value_that_is_no_zone_or_card_fails_in_the_playout_build_as_in_the_normal_build(odd):
    game = load_game(MOVERS).for_players(3)
    rng = random.Random(7)
    card_mover, card_into = _extra(game, "card", None)
    list_mover, list_into = _extra(game, "list", None)
    zone_mover, zone_into = _extra(game, "zone", None)
    for _ in range(20):
        s = _scrambled(game, rng)
        card, dest = rng.randrange(len(s.loc)), rng.randrange(len(s.zones))
        _compare(s, lambda t: M.move_card(t, card, odd, False), lambda t: card_mover(t, card, odd, False, *card_into))
        _compare(s, lambda t: M.move_zone(t, 0, odd, False, None), lambda t: zone_mover(t, 0, odd, False, None, *zone_into))
        _compare(s, lambda t: M.move_zone(t, odd, dest, True, None),
                 lambda t: zone_mover(t, odd, dest, True, None, *zone_into))
        zone = s.zones[s.loc[card]]
        for cards in ([card, odd], [odd, card], zone[:2] + [odd], [odd]):
            _compare(s, lambda t: M.move_list(t, cards, dest, False, None),
                     lambda t: list_mover(t, cards, dest, False, None, *list_into))
            named, shows = _extra(game, "list", dest)
            _compare(s, lambda t: M.move_list(t, cards, dest, True, None),
                     lambda t: named(t, cards, dest, True, None, *shows))
            _compare(s, lambda t: M.move_list(t, cards, odd, False, None),
                     lambda t: list_mover(t, cards, odd, False, None, *list_into))


WATCHED = {M.move_card, M.move_list, M.move_zone}
UNWATCHED = {M.move_card_unwatched, M.move_card_anywhere, M.move_list_unwatched, M.move_list_anywhere,
             M.move_zone_unwatched, M.move_zone_anywhere}
DEFINITIONS = sorted({(path, tuple(variants)) for path, variants, _ in every_configuration(False)})


@pytest.mark.parametrize("definition", DEFINITIONS, ids=[f"{p.stem}{'+' + v[0] if v else ''}" for p, v in DEFINITIONS])
def test_every_move_of_the_playout_build_calls_an_unwatched_mover(definition):
    # (the normal build, which new_game's setup and every watched state run, calls the watched ones only)
    path, variants = definition
    loaded = load_game(path, variants=list(variants))
    for _, game in loaded.every_count():
        fast = game.playout_build()
        normal = {id(k) for k in game.code.constants}
        playout = {id(k) for k in fast.code.constants}
        assert not playout & {id(f) for f in WATCHED}, "a move in the playout build calls a watched mover"
        assert not normal & {id(f) for f in UNWATCHED}, "a move in the normal build calls an unwatched mover"
        if normal & {id(f) for f in WATCHED}:
            assert playout & {id(f) for f in UNWATCHED}
