"""Public cards (everyone watched them go into a zone hiding them: ``State.public``) in saves and undo.

A save lists them (``"public"``, only when there are some) and is loaded by replaying, which works them out
again: a save that says otherwise is refused, and a save written before the key existed (no ``"public"``)
loads as it did, its replay deciding which cards are public.  Taking a decision back rebuilds the position
before it, public cards included.
"""

from __future__ import annotations

import json
import random

import pytest

from conftest import REPO_ROOT
from interpreter import SaveFileError, State, load_game
from invariants import snapshot

TOP_FROG = REPO_ROOT / "definitions" / "top_frog.yaml"


@pytest.fixture(scope="module")
def game():
    return load_game(TOP_FROG)


def with_public_cards(game, seed=1, players=2):
    """A random game of Top Frog played until some card is public in a hand or among held frogs."""
    moves = random.Random(seed)
    state = game.new_game(players, seed)
    while not any(state.game.zone_spec[state.loc[c]].visibility == "owner" for c in state.public):
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
    return state


def saved(state) -> dict:
    return json.loads(json.dumps(state.to_json()))


def test_a_save_lists_the_public_cards_and_loads_with_the_same_ones(game):
    state = with_public_cards(game)
    data = saved(state)
    assert data["public"] == sorted(state.public)
    loaded = State.from_json(game, data)
    assert loaded.public == state.public and snapshot(loaded) == snapshot(state)
    assert loaded.view(None) == state.view(None)


def test_a_save_without_public_cards_does_not_list_them():
    state = load_game(REPO_ROOT / "tests" / "definitions" / "public_reveals.yaml").new_game(2, 0)
    assert not state.public and "public" not in saved(state)


def test_a_save_written_before_public_cards_existed_loads_and_its_replay_works_them_out(game):
    """An old save has no "public": nothing there is claimed, the replay of its own actions decides."""
    state = with_public_cards(game)
    old = {key: value for key, value in saved(state).items() if key != "public"}
    loaded = State.from_json(game, old)
    assert loaded.public == state.public and snapshot(loaded) == snapshot(state)
    player = loaded.current_players()[0]
    loaded.apply(player, loaded.legal_actions(player)[0])  # and the game goes on


def test_a_save_whose_public_cards_differ_from_its_replay_is_refused(game):
    state = with_public_cards(game)
    for public in (saved(state)["public"][:-1], saved(state)["public"] + [max(state.public) + 1]):
        data = saved(state)
        data["public"] = public
        with pytest.raises(SaveFileError, match="which cards are public"):
            State.from_json(game, data)
    for public in ("all", None, [0.5]):  # not a list of card numbers: refused by the save schema first
        data = saved(state)
        data["public"] = public
        with pytest.raises(SaveFileError, match=r"the save's part public(\[0\])? is damaged"):
            State.from_json(game, data)


def test_taking_a_decision_back_restores_the_public_cards_as_they_were(game):
    state = with_public_cards(game)
    moves, undone = random.Random(7), 0
    for _ in range(200):
        if state.is_terminal() or undone >= 3:
            break
        before = snapshot(state)
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
        if state.can_undo(player):
            state.undo(player)
            assert snapshot(state) == before
            undone += "public" in json.loads(before)
            state.apply(player, moves.choice(state.legal_actions(player)))
    assert undone, "no decision could be taken back while cards were public"
