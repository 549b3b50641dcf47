"""Saves written before the pending decision became a record still load, and save again the same.

The files in tests/saves/ were written by the engine as it was before (a pending decision held as a
dict): a secret simultaneous decision partly chosen, the three forms of a large choice kept as an option
space, a plain decision and a finished game.  A save is loaded by replaying it; the replay must show
exactly what the file says, and saving the loaded state must write the same file (the compiled layout's
hash aside, which saves record but never check).
"""

from __future__ import annotations

import json

import pytest

from conftest import REPO_ROOT
from interpreter import State, load_game

SAVES = REPO_ROOT / "tests" / "saves"
GAMES = {"secret_each_partly_chosen": "simultaneous", "option_space_form1": "large_choice",
         "option_space_form2": "large_choice", "option_space_form3": "large_choice",
         "selection_mid": "selection", "selection_over": "selection"}


def without_layout(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "layout"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_save_written_before_the_pending_record_loads_and_saves_the_same(name):
    data = json.loads((SAVES / f"{name}.json").read_text())
    game = load_game(REPO_ROOT / "tests" / "definitions" / f"{GAMES[name]}.yaml")
    state = State.from_json(game, data)
    assert without_layout(json.loads(json.dumps(state.to_json()))) == without_layout(data)
    if not state.is_terminal():  # the loaded game goes on: its decision is the saved one
        player = state.current_players()[0]
        assert state.legal_actions(player) == data["pending"]["labels"][data["pending"]["players"].index(player)]
        state.apply(player, state.legal_actions(player)[-1])
