"""Listeners: card abilities that react to events about other cards while a condition holds
(tests/definitions/listeners.yaml; a card shows while it tops a player's pile)."""

from __future__ import annotations

import json

import pytest

from interpreter import DefinitionError, State, load_game
from interpreter.errors import DSLTypeError
from test_mechanisms import DEFINITIONS, load, quantity, snapshot, write_definition

LISTENERS = DEFINITIONS / "listeners.yaml"


def chorus(**zones):
    hands = {"hand(1)": ["gong", "pebble"], "hand(2)": ["pebble", "echo"]}
    return load("listeners").new_game(2, 0, scenario={"zones": {**hands, **zones}})


def test_trigger_then_the_event_cards_ability_then_listeners_in_card_order():
    state = chorus(**{"pile(1)": ["echo"], "pile(2)": ["gong"]})
    state.apply(0, "play gong")
    assert state.log == ["player 1 plays gong", "gong is struck",  # the trigger, then the played card's own ability
                         "echo echoes gong",                        # echo (declared before gong) listens first
                         "gong rings for player 2"]                 # the other player's showing gong
    assert state.pv["points"] == [1, 2]


def test_a_covered_card_does_not_listen():
    state = chorus(**{"pile(1)": ["echo", "pebble"], "pile(2)": ["gong", "pebble"]})
    state.apply(0, "play gong")
    assert state.log == ["player 1 plays gong", "gong is struck"]
    assert state.pv["points"] == [0, 0]


def test_a_card_out_of_every_zone_does_not_listen():
    state = chorus(**{"pile(1)": [], "pile(2)": ["pebble"]})
    assert state.zones[state.game.zone_index("deck")]  # the other echo and gong lie in the deck: not showing
    state.apply(0, "play pebble")
    assert state.log == ["player 1 plays pebble"]


def test_the_condition_is_read_when_the_event_is_emitted():
    state = chorus(**{"pile(1)": ["echo"], "pile(2)": ["pebble"]})
    state.apply(0, "play pebble")  # the pebble covers the echo only after the event: the echo still reacts
    assert state.log == ["player 1 plays pebble", "echo echoes pebble"]
    state.apply(1, "play echo")  # player 2's echo is not showing while it is being played
    assert state.log[2:] == ["player 2 plays echo",
                             "player 1 plays gong", "gong is struck",  # the last cards are played without asking
                             "player 2 plays pebble", "echo echoes pebble", "gong rings for player 1"]
    assert state.is_terminal() and state.scores() == [1 + 2, 1]


def test_a_listener_that_asks_waits_for_its_owner_and_survives_a_save():
    state = chorus(**{"pile(1)": ["echo"], "pile(2)": ["bell"]})
    state.apply(0, "play pebble")
    assert state.log == ["player 1 plays pebble", "echo echoes pebble"]
    assert state.current_players() == [1]
    assert state.legal_actions(1) == ["ring", "stay quiet"]
    loaded = State.from_json(state.game, json.loads(json.dumps(state.to_json())))
    for s in (state, loaded):
        s.apply(1, "ring")
        assert s.log[-1] == "bell rings"
        assert s.pv["points"] == [1, 3]
        assert s.current_players() == [1] and s.legal_actions(1) == ["play pebble", "play echo"]
    assert snapshot(loaded) == snapshot(state)


def test_a_modifier_can_name_its_card_self():
    state = chorus(**{"pile(1)": ["charm"]})
    assert [quantity(state, "bonus", p) for p in (0, 1)] == [1, 0]
    state.apply(0, "play pebble")  # the bonus is read after the pebble covers the charm
    assert state.pv["points"] == [0, 0]


def test_a_game_without_listeners_compiles_its_emits_as_before():
    game = load("triggers")
    assert game.listeners == {}


@pytest.mark.parametrize("old, new, message, cls", [
    ("while: showing(self) and owner_of(self) == player", "while: owner_of(self)",
     "a listener's 'while' must be true/false, not a player", DSLTypeError),
    ("while: showing(self) and owner_of(self) == player", "while: showing(me)", "unknown name 'me'", DefinitionError),
    ("      - on: played\n        while: showing(self) and owner_of(self) != player\n        do: |\n          owner_of",
     "      - on: plaied\n        while: showing(self) and owner_of(self) != player\n        do: |\n          owner_of",
     "unknown event 'plaied'; did you mean 'played'?", DefinitionError),
    ("played: {card: card, player: player}", "played: {card: card, player: player, self: card}",
     "event 'played' has a parameter called 'self'", DefinitionError),
    ("          player.points += 1\n", "          player.points += self\n", "'+=' needs a number, not a card",
     DSLTypeError),
])
def test_misused_listeners_are_located_load_errors(tmp_path, old, new, message, cls):
    path = write_definition(tmp_path, "bad_chorus", "listeners", old, new)
    with pytest.raises(cls) as info:
        load_game(path)
    assert message in info.value.message
    assert info.value.location.file == str(path) and info.value.location.line
    assert "listeners" in info.value.location.key
