"""Taking a decision back (``State.can_undo`` / ``State.undo``): allowed only while nothing new has been
revealed to anyone and no one else has acted since; the state then is exactly the one before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.errors import RibbitError, UndoRefusedError
from interpreter.state import State

ROOT = Path(__file__).resolve().parents[2]
SELECTION = ROOT / "tests" / "definitions" / "selection.yaml"
LOOK = ROOT / "tests" / "definitions" / "undo.yaml"
EIGHTS = ROOT / "definitions" / "crazy_eights.yaml"


def saved(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def refused(state, player, why: str):
    before = saved(state)
    assert not state.can_undo(player)
    with pytest.raises(UndoRefusedError, match=why) as caught:
        state.undo(player)
    assert isinstance(caught.value, RibbitError) and saved(state) == before  # nothing changed
    return caught.value


def test_a_secret_pick_may_be_taken_back_before_the_others_have_chosen_and_the_state_is_exactly_as_before():
    state = load_game(SELECTION).new_game(3, seed=1)
    before = saved(state)
    history, log = [list(h) for h in state.history], list(state.log)
    pick = state.legal_actions(0)[-1]
    state.apply(0, pick)
    assert state.can_undo(0) and state.undo_refusal(0) is None
    assert state.undo(0) == pick
    assert saved(state) == before and state.history == history and state.log == log
    assert state.current_players() == [0, 1, 2] and pick in state.legal_actions(0)
    state.apply(0, state.legal_actions(0)[0])  # the game goes on as if the pick had never been made
    state.apply(1, state.legal_actions(1)[0])
    assert state.can_undo(1)  # the second pick too, while a third player has still to choose
    reloaded = State.from_json(state.game, json.loads(saved(state)))
    assert saved(reloaded) == saved(state)


def test_a_decision_cannot_be_taken_back_once_another_player_has_acted():
    state = load_game(SELECTION).new_game(3, seed=1)
    state.apply(0, state.legal_actions(0)[0])
    state.apply(1, state.legal_actions(1)[0])
    error = refused(state, 0, "no one else has acted since")
    assert "the last one was seat 2's" in str(error)


def test_a_pick_that_reveals_the_others_picks_cannot_be_taken_back():
    state = load_game(SELECTION).new_game(3, seed=1)
    for seat in (0, 1, 2):
        state.apply(seat, state.legal_actions(seat)[0])
    refused(state, 2, "showed seat 1 something new")


def test_a_draw_from_a_hidden_deck_cannot_be_taken_back():
    state = load_game(EIGHTS).new_game(2, seed=1)
    seat = state.current_players()[0]
    state.apply(seat, "draw a card")
    refused(state, seat, "something new")


def test_a_card_shown_to_the_player_alone_cannot_be_taken_back_but_a_move_nobody_saw_can():
    game = load_game(LOOK)
    looked = game.new_game(2, seed=1)
    looked.apply(0, "decide look")
    refused(looked, 0, "showed them a card they had not seen")
    waited = game.new_game(2, seed=1)
    before = saved(waited)
    waited.apply(0, "decide wait")
    assert waited.undo(0) == "decide wait" and saved(waited) == before
    ended = game.new_game(2, seed=1)
    ended.apply(0, "decide end")  # the turn passes: player 2 now has a decision they did not have
    refused(ended, 0, "showed seat 2 something new")


def test_nothing_to_take_back_and_a_finished_game_are_refused_with_a_message():
    game = load_game(LOOK)
    state = game.new_game(2, seed=1)
    refused(state, 0, "none has been made yet")
    while not state.is_terminal():
        seat = state.current_players()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    refused(state, state.history[-1][0], "the game is over")
    with pytest.raises(RibbitError, match="no player 7"):
        state.can_undo(7)


def test_knowledge_leaves_out_only_who_has_chosen_at_a_simultaneous_decision():
    state = load_game(SELECTION).new_game(3, seed=1)
    seen = state.knowledge(1)
    state.apply(0, state.legal_actions(0)[0])
    assert state.view(1)["decision"]["decided"] == [0] and state.knowledge(1) == seen
    sequential = load_game(LOOK).new_game(2, seed=1)
    assert sequential.knowledge(1) == sequential.view(1)  # one player deciding: whose decision it is counts
