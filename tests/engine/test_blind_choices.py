"""An option never names a card its chooser cannot see.

``ask p to choose one of hand(q)`` (a card taken from another's hand without looking) offers p cards it may not
see: each reads as its place (``"take card 2 from the top of hand(2)"``), and two alike cards there are two
options (one option for both would tell p they are alike).  The test-only definition
``tests/definitions/blind_picks.yaml`` also has a secret simultaneous pick of one's own cards, named as usual.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from invariants import seen_cards

ROOT = Path(__file__).resolve().parents[2]
BLIND = ROOT / "tests" / "definitions" / "blind_picks.yaml"


@pytest.fixture(scope="module")
def game():
    return load_game(BLIND)


def decisions(game, players: int, seeds=range(4)):
    """(position, a seat asked) at every decision of seeded random games (the position a copy)."""
    for seed in seeds:
        state, rng = game.new_game(players, seed), random.Random(seed)
        while not state.is_terminal():
            for seat in state.current_players():
                yield state.clone(), seat
            seat = state.current_players()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def unseen_names(state, seat) -> set:
    """Names of the cards in play ``seat`` cannot see that no card it sees shares."""
    names = state.game.card_names
    seen = seen_cards(state, seat)
    in_play = {c for cards in state.zones for c in cards}
    return {names[c] for c in in_play - seen} - {names[c] for c in seen}


@pytest.mark.parametrize("players", [2, 3])
def test_an_option_never_names_a_card_its_chooser_cannot_see(game, players):
    blind = 0
    for state, seat in decisions(game, players):
        secret = unseen_names(state, seat)
        for text in state.legal_actions(seat):
            assert not any(name in text.split(" ", 1)[-1].split(", ") for name in secret), (seat, text)
        if state.pending["prompt"] == "take":
            taken_from = state.zones[state.game.zone_index(f"hand({(seat + 1) % players + 1})")]
            assert len(state.legal_actions(seat)) == len(taken_from)  # alike cards unseen: still one option each
            blind += 1
    assert blind


def test_a_bot_at_a_blind_choice_decides_the_same_when_the_cards_it_cannot_see_are_permuted(game):
    """In a determinised copy an option read as a place takes the card dealt there, not the real one: a search
    that took the real card would learn it (and decide by it)."""
    from interpreter.agents.search import ISMCTSAgent
    from invariants import with_cards_permuted

    checked = 0
    for state, seat in decisions(game, 2, seeds=range(6)):
        if state.pending["prompt"] != "take" or len(state.legal_actions(seat)) < 2:
            continue
        unseen = sorted({c for cards in state.zones for c in cards} - seen_cards(state, seat))
        chosen = set()
        for k in range(3):
            world, _ = with_cards_permuted(state, unseen, random.Random(k))
            chosen.add(ISMCTSAgent(1, iterations=30, rollout=10).act(world, seat))
        assert len(chosen) == 1, chosen
        checked += 1
    assert checked >= 4
