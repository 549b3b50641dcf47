"""Cards public where they lie (everyone watched them go there: docs/dsl.md, "Public reveals") are known to
every seat in a determinised position and in the adapters' observations, and nothing else is.

* ``State.determinised(seat, rng)`` never deals a public card again: it stays where everyone saw it go, and
  the seat's view of the copy is its view of the game.
* The PettingZoo encoding and OpenSpiel's observation and information-state strings of a seat hold the
  public cards of the other seats' zones, and do not change when the cards the seat may not see (by the
  rule) are permuted.

Positions come from random games of Top Frog, where caught frogs are held and revealed action cards go back
to hands: both are public in those hidden zones.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from conftest import REPO_ROOT
from interpreter import load_game
from invariants import check_cards, seen_cards, with_cards_permuted

TOP_FROG = REPO_ROOT / "definitions" / "top_frog.yaml"


def others_public(state, seat) -> list[int]:
    """Public cards in zones that hide them from ``seat`` (another seat's hand, held frogs...)."""
    g = state.game
    return sorted(c for c in state.public if state.loc[c] >= 0
                  and g.zone_spec[state.loc[c]].visibility != "public"
                  and not (g.zone_spec[state.loc[c]].visibility == "owner" and g.zone_owner[state.loc[c]] == seat))


def positions_with_public_cards(game, players=2, seed=0, wanted=6):
    """(state, seat) at decisions of a random game where another seat holds cards public where they lie."""
    moves = random.Random(seed)
    state = game.new_game(players, seed, log=True)
    found = 0
    while not state.is_terminal() and found < wanted:
        seat = state.current_players()[0]
        if others_public(state, seat) and len(state.history) % 3 == 0:
            found += 1
            yield state.clone(), seat
        state.apply(seat, moves.choice(state.legal_actions(seat)))
    assert found, "no position had a card public in another seat's zone"


def unseen_by_rule(state, seat) -> list[int]:
    seen = seen_cards(state, seat)  # zones, 'show', seen_by and the public cards
    return [c for cards in state.zones for c in cards if c not in seen]


@pytest.fixture(scope="module")
def top_frog_game():
    return load_game(TOP_FROG)


def test_a_determinised_copy_keeps_every_public_card_where_everyone_saw_it_go(top_frog_game):
    redealt = 0
    for state, seat in positions_with_public_cards(top_frog_game):
        public = others_public(state, seat)
        in_play = frozenset(c for z in state.zones for c in z)
        for k in range(4):
            world = state.determinised(seat, random.Random(k))
            check_cards(world, in_play)
            for card in public:
                assert world.loc[card] == state.loc[card]
                assert world.zones[state.loc[card]].index(card) == state.zones[state.loc[card]].index(card)
            assert world.public == state.public
            assert world.view(seat)["zones"] == state.view(seat)["zones"]  # (others who chose are asked again)
            redealt += world.zones != state.zones
    assert redealt, "no determinisation dealt the unseen cards again"


def test_the_encoded_view_holds_the_public_cards_of_other_seats_and_nothing_the_seat_may_not_see(top_frog_game):
    from interpreter.adapters.encoding import ViewEncoder
    from interpreter.adapters.state_encoding import StateEncoder
    encoder, rng = ViewEncoder(top_frog_game, 2), random.Random(3)
    fast = StateEncoder(encoder)  # the environments' path: read from the state, without the view
    for state, seat in positions_with_public_cards(top_frog_game):
        vector = encoder.encode(state.view(seat))
        assert np.array_equal(fast.encode(state, seat), vector)
        private = state.clone()
        private.public = set()  # the same position had nobody watched the cards go
        assert not np.array_equal(vector, encoder.encode(private.view(seat))), "the public cards are not encoded"
        assert not np.array_equal(vector, fast.encode(private, seat)), "the public cards are not encoded"
        for _ in range(3):
            world, _ = with_cards_permuted(state, unseen_by_rule(state, seat), rng)
            assert np.array_equal(encoder.encode(world.view(seat)), vector)
            assert np.array_equal(fast.encode(world, seat), vector)


def test_openspiel_observations_and_information_states_hold_public_cards_and_nothing_hidden(top_frog_game):
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]'")
    from interpreter.adapters.openspiel import RibbitSpielGame
    from interpreter.runtime.chance import raw
    spiel = RibbitSpielGame(top_frog_game, 2)
    state = spiel.new_initial_state()
    rng, checked = random.Random(5), 0
    while not state.is_terminal() and checked < 4:
        if state.is_chance_node():  # a card drawn (chance is explicit): an outcome by its probability
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        ribbit = state.ribbit
        for seat in range(2):
            public = others_public(ribbit, seat)
            if not public:
                continue
            names = {top_frog_game.card_names[c] for c in public}
            for text in (state.observation_string(seat), state.information_state_string(seat)):
                view = json.loads(text.split("\n", 1)[0])
                listed = {item["card"] for entry in view["zones"].values() for item in entry.get("shown", ())
                          if item.get("public")}
                assert names <= listed
            world = state.clone()
            unseen = [c for cards in ribbit.zones for c in raw(cards) if c not in seen_cards(ribbit, seat)]
            world._state.state, _ = with_cards_permuted(ribbit, unseen, rng)
            assert world.observation_string(seat) == state.observation_string(seat)
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked, "no position had a card public in another seat's zone"
