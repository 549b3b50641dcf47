"""Kaeru's two rulebook variants, Frightened prey and Unknown tastes, from hand-built positions.

The variant files are overlays in definitions/variants/kaeru/; positions are built
as in test_kaeru_rulings.py (player 1 likes fire, player 2 earth, water is the common goal).
"""

from __future__ import annotations

import json

import pytest

from interpreter import load_game
from test_kaeru_rulings import KAERU, LARGE1, MEDIUM2, SMALL1, SMALL2, kaeru, move, position, zone  # noqa: F401


# ==================================================================== variant: Frightened prey
@pytest.fixture(scope="module")
def frightened():
    return load_game(KAERU, variants=["frightened_prey"])


def test_frightened_prey_keeps_the_next_card_face_down_while_the_eater_is_on_the_lily(frightened):
    state = position(frightened, prey={"l2": "whole card: fire"},
                     stacks={"l2": ["half card: air + earth", "whole card: air"]})
    move(state, 1, SMALL1)
    assert zone(state, "eaten(1)") == ["whole card: fire"]
    assert zone(state, "prey(l2)") == []
    assert zone(state, "stack(l2)") == ["half card: air + earth", "whole card: air"]
    assert state.view(1)["zones"]["prey(l2)"] == {"cards": []}
    assert state.view(1)["zones"]["stack(l2)"] == {"count": 2}


def test_frightened_prey_turns_the_card_face_up_when_the_last_frog_leaves(frightened):
    state = position(frightened, lilies={"l4": [MEDIUM2]}, prey={"l2": "whole card: fire"},
                     stacks={"l2": ["half card: air + earth", "whole card: air"]})
    move(state, 1, SMALL1)   # eats on l2
    move(state, 2, MEDIUM2)  # l4 -> l3 -> l2: onto the small frog, and no prey showing to eat
    assert zone(state, "lily(l2)") == [SMALL1, MEDIUM2] and zone(state, "prey(l2)") == []
    move(state, 1, LARGE1)
    move(state, 2, MEDIUM2)  # the medium frog leaves, the small frog stays: still face down
    assert zone(state, "lily(l2)") == [SMALL1] and zone(state, "prey(l2)") == []
    move(state, 1, SMALL1)   # the last frog leaves: the prey comes back
    assert zone(state, "lily(l2)") == [] and zone(state, "prey(l2)") == ["whole card: air"]
    assert zone(state, "stack(l2)") == ["half card: air + earth"]


def test_frightened_prey_a_frog_landing_where_no_prey_shows_eats_nothing(frightened):
    state = position(frightened, lilies={"l2": [SMALL2]}, prey={"l2": None}, stacks={"l2": ["whole card: air"]})
    move(state, 1, SMALL1)
    assert zone(state, "lily(l2)") == [SMALL2, SMALL1]
    assert zone(state, "eaten(1)") == [] and zone(state, "stack(l2)") == ["whole card: air"]


def test_frightened_prey_the_game_ends_when_the_last_card_is_eaten(frightened):
    state = position(frightened, prey={"l2": "whole card: fire"}, stacks={"l2": []})
    move(state, 1, SMALL1)
    assert state.is_terminal() and state.scores() == [4, 0]


# ==================================================================== variant: Unknown tastes
@pytest.fixture(scope="module")
def unknown():
    return load_game(KAERU, variants=["unknown_tastes"])


def test_unknown_tastes_each_player_sees_only_their_own_goal_and_the_common_one(unknown):
    state = position(unknown)
    for seat, mine, theirs in ((0, "goal(1)", "goal(2)"), (1, "goal(2)", "goal(1)")):
        view = state.view(seat)
        assert view["zones"][mine] == {"cards": zone(state, mine)}
        assert view["zones"][theirs] == {"count": 1}
        assert view["zones"]["common_goal"] == {"cards": ["goal: water"]}
        assert zone(state, theirs)[0] not in json.dumps(view)
    spectator = state.view(None)
    assert spectator["zones"]["goal(1)"] == spectator["zones"]["goal(2)"] == {"count": 1}


def test_unknown_tastes_scores_as_the_standard_game(unknown, kaeru):
    eaten = {1: ["half card: fire + water"], 2: ["whole card: earth", "whole card: water"]}
    results = []
    for game in (unknown, kaeru):
        state = position(game, prey={"l2": "whole card: fire"}, stacks={"l2": []}, eaten=eaten)
        move(state, 1, SMALL1)
        results.append(state.scores())
    assert results == [[7, 7], [7, 7]]
