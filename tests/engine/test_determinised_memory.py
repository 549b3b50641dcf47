"""state.determinised keeps what the seat remembers: the history of actions and the narration it was told
(so a searcher's information state reads as before), less the picks it undoes at a simultaneous decision."""

from __future__ import annotations

import random
from pathlib import Path

from interpreter import load_game

DEFINITIONS = Path(__file__).resolve().parents[2] / "definitions"


def test_a_determinised_copy_keeps_the_history_and_every_seat_s_narration():
    game = load_game(DEFINITIONS / "crazy_eights.yaml")
    state, rng = game.new_game(3, 2), random.Random(2)
    for _ in range(15):
        seat = state.current_players()[0]
        state.apply_id(seat, state.sample_action_id(seat, rng))
    world = state.determinised(1, random.Random(0))
    assert world.history == state.history and world.seed != state.seed
    assert all(world.narration(p) == state.narration(p) for p in range(3)) and state.narration(1)
    world.apply_id(world.current_players()[0], 0)  # the copy goes on narrating its own game
    assert len(world.log) > len(state.log) and len(state.history) == len(world.history) - 1


def test_at_a_half_made_secret_decision_the_undone_picks_leave_the_history_and_the_seat_s_own_stays():
    game = load_game(DEFINITIONS / "frog_tower.yaml", variants=["crayfish"])
    for seed in range(200):  # a secret decision where one seat has picked and another is still to pick
        state, rng = game.new_game(4, seed), random.Random(seed)
        while not state.is_terminal():
            p = state.pending
            if p.each and p.secret and 1 <= sum(done is not None for done in p.chosen) < len(p.players) - 1:
                break
            seat = state.current_players()[0]
            state.apply_id(seat, state.sample_action_id(seat, rng))
        if not state.is_terminal():
            break
    p = state.pending
    picked = [who for who, done in zip(p.players, p.chosen) if done is not None]
    waiting = state.current_players()[0]
    world = state.determinised(waiting, random.Random(0))  # the others' picks are undone
    assert world.history == state.history[:-len(picked)]
    assert world.narration(waiting) == state.narration(waiting)
    mine = state.determinised(picked[0], random.Random(0))  # a seat that picked keeps its own pick
    assert [a for a in mine.history if a[0] == picked[0]] == [a for a in state.history if a[0] == picked[0]]
