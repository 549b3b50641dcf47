"""interpreter.adapters.state_encoding: a seat's vector read from the state equals, bit for bit, the vector
of its view (``ViewEncoder.encode(state.view(seat))``), for every seat and the spectator, at every step.

Seeded random games of every shipped definition and variant at its fewest and most players, and of every
test definition (hidden and owner-only zones, top-only zones, private player variables, ``show ... to``,
public reveals, ``seen_by``, counters, boards per player count).  The secrecy permutation tests of the
encoding run on this path too (tests/agents/test_pettingzoo_adapter.py,
tests/engine/test_public_cards_in_search_and_adapters.py).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numpy", reason="NumPy is not installed: pip install -e '.[pettingzoo]'")

from interpreter import load_game  # noqa: E402
from interpreter.adapters.encoding import ViewEncoder  # noqa: E402
from interpreter.adapters.state_encoding import StateEncoder  # noqa: E402
from configurations import every_configuration  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAX_DECISIONS = 600  # a random game of any definition here ends well before (a cap, so a loop cannot hang the test)


CONFIGURATIONS = every_configuration()


def played(game, players: int, seed: int):
    """Every state of a seeded random game, one after another (the same object, changed in place)."""
    state, rng = game.new_game(players, seed, log=False), random.Random(seed)
    yield state
    while not state.is_terminal() and len(state.history) < MAX_DECISIONS:
        seat = state.current_players()[0]
        state.apply_id(seat, state.sample_action_id(seat, rng))
        yield state


def assert_same(encoder: ViewEncoder, fast: StateEncoder, state, seat) -> np.ndarray:
    expected = encoder.encode(state.view(seat))
    got = fast.encode(state, seat)
    assert got.dtype == np.float32 and got.shape == expected.shape
    if not np.array_equal(got.view(np.uint32), expected.view(np.uint32)):  # bit for bit (and -0.0 is not 0.0)
        wrong = np.flatnonzero(got.view(np.uint32) != expected.view(np.uint32))[:5]
        parts = [name for k in wrong for name, start, length in encoder.parts if start <= k < start + length]
        pytest.fail(f"seat {seat} after {len(state.history)} decisions: positions {list(wrong)} ({parts}) are "
                    f"{list(got[wrong])} read from the state, {list(expected[wrong])} from the view")
    return got


@pytest.mark.parametrize("path, variants, players", CONFIGURATIONS,
                         ids=[f"{p.stem}{''.join('+' + v for v in vs)}-{n}p" for p, vs, n in CONFIGURATIONS])
def test_the_state_encoding_equals_the_view_encoding_for_every_seat_at_every_step(path, variants, players):
    game = load_game(path, variants=variants)
    encoder = ViewEncoder(game, players)
    fast = StateEncoder(encoder)
    steps = 0
    for seed in range(2):
        for state in played(game, players, seed):
            assert state.game is fast.game and state.chance is None  # the state path, not its fallback to the view
            for seat in [*range(players), None]:
                assert_same(encoder, fast, state, seat)
            steps += 1
    assert steps > 2


def test_one_state_encoder_serves_states_in_any_order():
    """Seats asked out of turn, states of different games interleaved, a position asked again after others."""
    game = load_game(ROOT / "definitions" / "top_frog.yaml")
    encoder = ViewEncoder(game, 3)
    fast = StateEncoder(encoder)
    positions = [state.clone() for seed in range(2) for state in played(game, 3, seed)][::5]
    rng = random.Random(7)
    for _ in range(300):
        state = rng.choice(positions)
        assert_same(encoder, fast, state, rng.choice([0, 1, 2, None]))


SEEN = ROOT / "tests" / "definitions"


@pytest.mark.parametrize("stem, rule", [
    ("showing", "a card shown to a seat ('show ... to')"),
    ("public_reveals", "a card public in a zone hiding it (State.public)"),
    ("seen_by", "the top cards of a seen_by zone"),
    ("hidden_hands", "a private player variable, and owner-only and top-only zones"),
])
def test_the_equality_check_meets_the_rule(stem, rule):
    """The equality test above is only as good as the positions it meets: each visibility rule must give some seat
    a number another seat does not have."""
    game = load_game(SEEN / f"{stem}.yaml")
    players = game.max_players
    encoder = ViewEncoder(game, players)
    fast = StateEncoder(encoder)
    differ = 0
    for seed in range(4):
        for state in played(game, players, seed):
            seats = [assert_same(encoder, fast, state, seat)[players:] for seat in range(players)]
            spectator = assert_same(encoder, fast, state, None)[players:]
            differ += any(not np.array_equal(vector, spectator) for vector in seats)
            if stem != "hidden_hands":
                own = fast._seats[0]
                differ += bool(own.shown)  # cards listed as shown on top of what its zones show
    assert differ, f"no position where {rule} made a seat's vector differ"


def test_a_state_in_chance_mode_is_encoded_from_its_view():
    game = load_game(ROOT / "definitions" / "crazy_eights.yaml")
    encoder = ViewEncoder(game, 2)
    fast = StateEncoder(encoder)
    state = game.new_game(2, 3, log=False, chance=True)
    rng = random.Random(1)
    encoded = 0
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance(rng.choice(state.chance_outcomes())[0])
            continue
        for seat in (0, 1, None):
            assert_same(encoder, fast, state, seat)
        encoded += 1
        seat = state.current_players()[0]
        state.apply_id(seat, state.sample_action_id(seat, rng))
    assert encoded > 3


def test_a_state_in_chance_mode_is_encoded_from_its_view_even_right_after_a_state_read_from_itself(monkeypatch):
    """The encoder remembers the last state it could read from itself (one of its game and player count, not in
    chance mode); any other state is still encoded from its view, and the remembered one read again."""
    game = load_game(ROOT / "definitions" / "crazy_eights.yaml")
    encoder = ViewEncoder(game, 2)
    fast = StateEncoder(encoder)
    plain, in_chance = game.new_game(2, 3, log=False), game.new_game(2, 3, log=False, chance=True)
    from_view = []
    view = type(in_chance).view
    monkeypatch.setattr(type(in_chance), "view", lambda state, seat=None: from_view.append(state) or view(state, seat))
    for state in (plain, in_chance, plain, in_chance, in_chance, plain):
        for seat in (0, 1, None):
            fast.encode(state, seat)
    assert from_view == [in_chance] * 9 and fast.read is plain


def test_a_seat_that_is_not_a_player_is_refused_as_the_view_refuses_it():
    from interpreter import IllegalActionError

    game = load_game(ROOT / "definitions" / "kaeru.yaml")
    fast = StateEncoder(ViewEncoder(game, 2))
    state = game.new_game(2, 0, log=False)
    for seat in (2, -1, "0", 0.0, True):
        with pytest.raises(IllegalActionError):
            fast.encode(state, seat)


def test_cards_shown_or_public_in_any_zone_are_counted_once_as_the_view_lists_them(tmp_path):
    """Whatever the rules did: cards shown to some seats (the spectator too) or public on top of a top-only
    zone, in a seat's own hand, in a hidden deck, among the top cards of a ``seen_by`` zone that is top-only."""
    lens = (SEEN / "seen_by.yaml").read_text(encoding="utf-8").replace(
        "deck: {visibility: hidden, seen_by:", "deck: {visibility: top, seen_by:")
    assert "visibility: top, seen_by" in lens
    (tmp_path / "top_lens.yaml").write_text(lens, encoding="utf-8")
    rng, checked = random.Random(11), 0
    for path in (ROOT / "definitions" / "crazy_eights.yaml", SEEN / "hidden_hands.yaml", tmp_path / "top_lens.yaml"):
        game = load_game(path)
        players = game.max_players
        encoder = ViewEncoder(game, players)
        fast = StateEncoder(encoder)
        for state in played(game, players, 5):
            if len(state.history) % 3:
                continue
            marked = state.clone()
            cards = [zone[-1] for zone in marked.zones if zone] + rng.sample(range(len(marked.loc)), 6)
            marked.shown = {card: sorted(rng.sample(range(players + 1), rng.randint(1, players + 1)))
                            for card in cards[::2]}
            marked.public = set(cards[1::2])
            for seat in [*range(players), None]:
                assert_same(encoder, fast, marked, seat)
                assert_same(encoder, fast, state, seat)  # and back: what was shown is taken away again
                checked += 1
    assert checked > 50
