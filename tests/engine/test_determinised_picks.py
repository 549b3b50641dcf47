"""A determinised copy at a simultaneous pick: the picks others already made were made from their cards in the
real deal, so in the new deal everyone is asked again, also those whose only option was taken for them (a seat
left with one kind of card in hand is not asked, and its pick named a card that the new deal moves)."""

from __future__ import annotations

import random

from conftest import REPO_ROOT

from interpreter import load_game

DRAFTING = REPO_ROOT / "tests" / "definitions" / "drafting.yaml"


def cards(state, zone: str, seat: int) -> list:
    return list(state.zones[state.game.zone_index(f"{zone}({seat + 1})")])  # (zone labels count seats from 1)


def positions_asking_one_seat_alone(game, players: int, seeds: range):
    """Positions of random games where a simultaneous pick asks one seat alone, the others' only options taken."""
    for seed in seeds:
        state, moves = game.new_game(players, seed), random.Random(seed)
        while not state.is_terminal():
            if state.pending.each and len(state.pending.players) == 1:  # the others had one option each
                yield state
            player = moves.choice(state.current_players())
            state.apply(player, moves.choice(state.legal_actions(player)))


def test_in_a_determinised_copy_everyone_with_a_choice_in_the_new_deal_picks_again_from_their_own_hand():
    game = load_game(DRAFTING)
    checked = 0
    for state in positions_asking_one_seat_alone(game, 3, range(40)):
        seat = state.current_players()[0]
        for k in range(3):
            world = state.determinised(seat, random.Random(k))
            choosing = {q for q in range(3) if len({game.card_names[card] for card in cards(world, "hand", q)}) > 1}
            assert set(world.current_players()) == choosing | {seat}  # the others' picks are not carried over
            hands = {f"player {q + 1}": {game.card_names[card] for card in cards(world, "hand", q)} for q in range(3)}
            told, asked = len(world.log), world.pending
            while world.pending is asked:  # everyone picks again (the seat as it may), once
                player = world.current_players()[0]
                world.apply(player, world.legal_actions(player)[0])
            for line in world.log[told:told + 3]:  # "player 2 keeps maki.", one a player, as the rule says
                who, kept = line.rstrip(".").split(" keeps ")
                assert kept in hands[who], (line, hands[who])
            checked += 1
    assert checked >= 12
