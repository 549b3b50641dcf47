"""Shared helpers for the Top Frog card and worked-example tests (test_top_frog_cards.py,
test_top_frog_examples.py).

Positions come from the ``tf_table`` fixture of conftest.py (see its docstring). Seats are 1-based in
the helpers below and in zone labels, 0-based in ``state.apply`` / ``state.view``.

Two test-only variants are written to a temporary folder and loaded once per session:

- ``tf_parts``: the same game, with the four score terms folded into one number so that a test can read
  each part (frogs, hats, Lily Pad, Gnats) of a final score: see :func:`parts`;
- ``tf_stacked``: the same game with one setup step added after ``plus_frogs`` that puts named Frogs on
  top of the Pond Deck, so the real ``pond`` setup step deals a known Pond: see :func:`stacked_setup`.
"""

from __future__ import annotations

import pytest

from conftest import REPO_ROOT, TF_STARTING, tf_centre, zone  # noqa: F401  (re-exported for the tests)
from interpreter import load_game


def gnats(state, seat):
    return state.counters["gnats"]["player"][seat - 1]


def card_gnats(state, name):
    return state.counters["gnats"]["card"][state.game.card_names.index(name)]


def space_gnats(state, sp):
    return state.counters["gnats"]["space"][state.game.board.spaces.index(sp)]


def all_gnats(state):
    """Every Gnat out of the supply: on players, cards and blank spaces."""
    rows = state.counters["gnats"]
    return sum(rows["player"]) + sum(rows["card"]) + sum(rows["space"])


def cell(state, sp):
    return zone(state, f"cell({sp})")


def on(state, sp):
    """Gnats on a space: on its card, or on the blank space."""
    names = cell(state, sp)
    return card_gnats(state, names[0]) if names else space_gnats(state, sp)


def where(state, seat):
    for index in range(state.game.zone_count):
        label = state.game.zone_label(index)
        if label.startswith("stand(") and f"meeple {seat}" in zone(state, label):
            return label[6:-1]
    return None


def choose(state, picks):
    """Apply {seat: action} for every seat of ``picks`` (seats from 1); each must be asked now."""
    for seat, action in picks.items():
        assert seat - 1 in state.current_players(), (seat, state.current_players(), state.prompt())
        state.apply(seat - 1, action)


def select(state, picks):
    """The secret Action Selection: {seat: "play Catch"}; seats not asked (a single option) are skipped."""
    assert state.prompt() == "play", (state.prompt(), state.current_players())
    choose(state, {s: a for s, a in picks.items() if s - 1 in state.current_players()})


APART = {1: "r2c2", 2: "r1c1", 3: "r4c4"}   # 3 players on three spaces, none adjacent to another


def play_held(tf_table, frog, stack, zones=None, meeples=None, seat_picks=None, **kw):
    """Player 1 holds ``frog`` and plays it onto ``stack`` (1-3); players 2 and 3 Rest alone.

    Returns the state right after the placement resolved (ability choices may still be pending).
    """
    laid = {"held(1)": [frog]}
    laid.update(zones or {})
    state = tf_table(3, zones=laid, meeples=meeples or APART, **kw)
    picks = {1: f"play {frog}", 2: "play Rest", 3: "play Rest"}
    picks.update(seat_picks or {})
    select(state, picks)
    place = f"place {frog} on stack {stack}"
    if 0 in state.current_players() and place in state.legal_actions(0):
        state.apply(0, place)
    else:   # the only place: taken without a question
        assert frog in zone(state, f"stack{stack}(1)"), (state.prompt(), state.legal_actions(0))
    return state


def catch_and_place(tf_table, frog, stack, zones=None, meeples=None, **kw):
    """Player 1 Catches ``frog`` on r2c2 and places it on ``stack``; players 2 and 3 Rest alone."""
    state = tf_table(3, cells={"r2c2": frog}, zones=zones, meeples=meeples or APART, **kw)
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    choose(state, {1: f"place {frog} on stack {stack}"})
    return state


def rest_all(state, seats=(1, 2, 3)):
    select(state, {s: "play Rest" for s in seats})


def end_now(tf_table, zones, counters=None, display=("Crown",), players=3, table=None):
    """A finished game with the given Stacks: everyone Catches the Hat Coupon on the centre space, a
    Squander sends it to the Pond Deck, and its refill finds the River empty: the game ends at once."""
    build = table or tf_table
    centre = tf_centre(players)
    hands = {s: ["Catch"] for s in range(1, players + 1)}
    meeples = {s: centre for s in range(1, players + 1)}
    state = build(players, cells={centre: "Hat Coupon"}, meeples=meeples, hands=hands,
                  zones=zones, river=[], counters=counters, display=display)
    assert state.is_terminal(), state.legal_actions()
    return state


def parts(state, seat):
    """(frogs, hats, Lily Pad, Gnats) of a finished game built on ``tf_parts``."""
    n = state.scores()[seat - 1]
    return n // 1_000_000, n // 10_000 % 100, n // 100 % 100, n % 100


PARTS_VARIANT = """\
variant: score parts (tests)
game: Top Frog
replace:
  scoring:
    frogs: "frog_points(p) * 1000000 + hats_points(p) * 10000 + lily_points(p) * 100 + gnats(p)"
    hats: "0"
    lily_pad: "0"
    gnats: "0"
"""

STACKED_VARIANT = """\
variant: stacked pond (tests)
game: Top Frog
add:
  setup:
    - step: stack_pond
      after: plus_frogs
      do: |
        for name in {names}:
          move first(each c in deck where c.name == name) to deck
"""


def _builder(game):
    """conftest's ``tf_table`` builder over another load of the game (a variant of it)."""
    import conftest
    return conftest.tf_table.__wrapped__(game)


@pytest.fixture(scope="session")
def tf_parts(tmp_path_factory):
    """A ``tf_table``-like builder on the score-parts game (:func:`parts` reads the four terms)."""
    folder = tmp_path_factory.mktemp("tf_parts")
    (folder / "parts.yaml").write_text(PARTS_VARIANT)
    game = load_game(str(REPO_ROOT / "definitions" / "top_frog.yaml"), variants=[str(folder / "parts.yaml")])
    return _builder(game)


def stacked_setup(folder, pond, players=3, seed=0):
    """A new game whose Pond is dealt by the real setup from a Pond Deck with ``pond`` on top, in reading
    order (the first name goes to r1c1)."""
    import json
    path = folder / "stacked.yaml"
    path.write_text(STACKED_VARIANT.format(names=json.dumps(list(reversed(pond)))))
    game = load_game(str(REPO_ROOT / "definitions" / "top_frog.yaml"), variants=[str(path)])
    return game.new_game(players, seed=seed)
