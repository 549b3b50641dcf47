"""Frog Tower house rules written as hooks and joints (definitions/variants/frog_tower/): each rule from a
hand-built position with exact outcomes, the same position in the plain game for contrast, and the four
rules together in one game.

Seats are 0-based as in ``state.apply``; seat 0 has the first turn, seat k + 1 is on the left of seat k.
"""

from pathlib import Path

import pytest

from interpreter import load_game

from conftest import REPO_ROOT, garden, holding, play, points, start, towers, zone

STOP = "stop and take the cards"
FLIP = "flip another card"
GAME = str(REPO_ROOT / "definitions" / "frog_tower.yaml")
HOUSE_RULES = ["leaf_to_box", "extra_card", "tall_towers", "prince"]
EMPTY_GARDENS = {"garden(1)": [], "garden(2)": [], "garden(3)": []}


@pytest.fixture(scope="module")
def games():
    """The plain game, each house rule alone, and all four together (loaded once)."""
    found = {name: load_game(GAME, variants=[name]) for name in HOUSE_RULES}
    found["plain"] = load_game(GAME)
    found["all"] = load_game(GAME, variants=HOUSE_RULES)
    return found


def busts(state):
    return [line for line in state.log if " busts on " in line]


# ---------------------------------------------------------------- the files themselves

@pytest.mark.parametrize("name", HOUSE_RULES)
def test_each_house_rule_is_under_15_lines_and_copies_no_procedure(name):
    path = REPO_ROOT / "definitions" / "variants" / "frog_tower" / f"{name}.yaml"
    text = path.read_text()
    assert len(text.splitlines()) < 15
    assert "procedures:" not in text and "replace:\n  procedures" not in text


def test_the_four_house_rules_load_together_in_any_order(games):
    assert games["all"].variants == HOUSE_RULES
    assert load_game(GAME, variants=list(reversed(HOUSE_RULES))).variants == list(reversed(HOUSE_RULES))


# ---------------------------------------------------------------- a leaf that would bust goes to the box

def test_a_leaf_that_would_bust_goes_to_the_box_and_the_turn_goes_on(games):
    state = start(games["leaf_to_box"], 3, pond=["leaf", "green frog", "leaf (green flower)", "blue frog"],
                  zones=dict(EMPTY_GARDENS))
    play(state, [(0, FLIP), (0, FLIP)])
    assert busts(state) == []
    assert state.log == ["leaf (green flower) goes to the box: player 1 does not bust."]
    assert holding(state) == ["leaf", "green frog"]
    assert zone(state, "box")[-1] == "leaf (green flower)"
    assert state.current_players() == [0] and state.legal_actions(0) == [FLIP, STOP]
    play(state, [(0, FLIP), (0, STOP)])
    assert garden(state, 0) == ["leaf", "green frog", "blue frog"]


def test_without_the_house_rule_the_same_leaf_busts(games):
    state = start(games["plain"], 3, pond=["leaf", "green frog", "leaf (green flower)", "blue frog"],
                  zones=dict(EMPTY_GARDENS))
    play(state, [(0, FLIP), (0, FLIP)])
    assert busts(state) == ["player 1 busts on leaf (green flower)."]
    assert state.current_players() == [1] and state.prompt() == "take"


def test_a_frog_still_busts_with_the_leaf_rule(games):
    state = start(games["leaf_to_box"], 3, pond=["leaf", "green frog", "green frog (pink flower)"],
                  zones=dict(EMPTY_GARDENS))
    play(state, [(0, FLIP), (0, FLIP)])
    assert busts(state) == ["player 1 busts on green frog (pink flower)."]
    assert "leaf" not in zone(state, "box")


def test_the_one_more_icon_of_a_leaf_sent_to_the_box_still_forces_a_flip(games):
    state = start(games["leaf_to_box"], 3, pond=["leaf", "leaf (One more!)", "red frog", "blue frog"],
                  zones=dict(EMPTY_GARDENS))
    play(state, [(0, FLIP)])
    assert zone(state, "box")[-1] == "leaf (One more!)"
    assert holding(state) == ["leaf", "red frog"]  # the forced flip happened, with no bust
    assert state.current_players() == [0] and state.legal_actions(0) == [FLIP, STOP]


# ---------------------------------------------------------------- stopping with 5+ cards takes one more

FIVE = ["leaf", "green frog", "blue frog", "yellow frog", "red frog"]


def test_stopping_with_five_cards_takes_the_next_pond_card_too(games):
    state = start(games["extra_card"], 3, pond=FIVE + ["green frog (pink flower)", "blue frog (pink flower)"],
                  zones=dict(EMPTY_GARDENS))
    play(state, [(0, FLIP)] * 4 + [(0, STOP)])
    assert state.log == ["player 1 stops with 5 cards and flips one more.",
                         "player 1 stops and takes leaf, green frog, blue frog, yellow frog, red frog, "
                         "green frog (pink flower)."]
    assert garden(state, 0) == FIVE + ["green frog (pink flower)"]
    assert zone(state, "pond")[-1] == "blue frog (pink flower)"
    assert state.prompt() == "build a tower with"  # the towers are built after the extra card is in


def test_stopping_with_four_cards_takes_no_extra_card(games):
    state = start(games["extra_card"], 3, pond=FIVE[:4] + ["green frog (pink flower)"], zones=dict(EMPTY_GARDENS))
    play(state, [(0, FLIP)] * 3 + [(0, STOP)])
    assert state.log == ["player 1 stops and takes leaf, green frog, blue frog, yellow frog."]
    assert garden(state, 0) == FIVE[:4]
    assert holding(state) == ["green frog (pink flower)"]  # still in the Pond: the next player's first flip
    assert state.current_players() == [1]


def test_without_the_house_rule_stopping_with_five_cards_takes_five(games):
    state = start(games["plain"], 3, pond=FIVE + ["green frog (pink flower)"], zones=dict(EMPTY_GARDENS))
    play(state, [(0, FLIP)] * 4 + [(0, STOP)])
    assert state.log == ["player 1 stops and takes leaf, green frog, blue frog, yellow frog, red frog.",
                         "player 1 builds a tower of 4 colours: green frog, blue frog, yellow frog, red frog."]
    assert towers(state, 0) == FIVE and garden(state, 0) == []
    assert holding(state) == ["green frog (pink flower)"]  # the next player's first flip


# ---------------------------------------------------------------- towers of 4 frogs and 2 leaves

FROGS = ["green frog", "blue frog", "yellow frog", "red frog"]


def test_four_frogs_and_one_leaf_make_no_tower_with_tall_towers(games):
    state = start(games["tall_towers"], 3, pond=["leaf", "green frog (pink flower)"],
                  zones={**EMPTY_GARDENS, "garden(1)": list(FROGS)})
    play(state, [(0, STOP)])
    assert towers(state, 0) == [] and garden(state, 0) == FROGS + ["leaf"]
    assert points(state) == [0, 0, 0]


def test_four_frogs_and_two_leaves_make_a_tower_of_both_leaves_and_the_frogs(games):
    state = start(games["tall_towers"], 3, pond=["leaf", "green frog (pink flower)"],
                  zones={**EMPTY_GARDENS, "garden(1)": ["starting leaf"] + FROGS})
    play(state, [(0, STOP)])
    assert towers(state, 0) == ["starting leaf", "leaf"] + FROGS
    assert garden(state, 0) == []
    assert points(state) == [5, 0, 0] and state.pv["tower_count"] == [1, 0, 0]


def test_without_the_house_rule_one_leaf_is_enough(games):
    state = start(games["plain"], 3, pond=["leaf", "green frog (pink flower)"],
                  zones={**EMPTY_GARDENS, "garden(1)": list(FROGS)})
    play(state, [(0, STOP)])
    assert towers(state, 0) == ["leaf"] + FROGS


# ---------------------------------------------------------------- the Prince

def test_the_prince_makes_every_other_player_with_a_frog_give_one_of_their_choice(games):
    state = start(games["prince"], 4, pond=["prince frog", "green frog (pink flower)"],
                  zones={"garden(1)": ["leaf"], "garden(2)": ["green frog", "blue frog"],
                         "garden(3)": ["starting leaf"], "garden(4)": ["red frog", "yellow frog"]})
    # asked in turn order from the flipper's left; seat 2 has no frog and is not asked
    assert state.current_players() == [1] and state.prompt() == "give"
    assert state.legal_actions(1) == ["give green frog", "give blue frog"]
    play(state, [(1, "give blue frog")])
    assert state.current_players() == [3]
    assert state.legal_actions(3) == ["give red frog", "give yellow frog"]
    play(state, [(3, "give yellow frog")])
    assert garden(state, 0) == ["leaf", "blue frog", "yellow frog"]
    assert garden(state, 1) == ["green frog"]
    assert garden(state, 2) == ["starting leaf"]
    assert garden(state, 3) == ["red frog"]
    assert holding(state) == ["prince frog"]  # the Prince stays: its own type never busts
    assert state.current_players() == [0] and state.legal_actions(0) == [FLIP, STOP]


def test_a_player_with_one_frog_gives_it_without_being_asked(games):
    state = start(games["prince"], 3, pond=["prince frog", "green frog (pink flower)"],
                  zones={"garden(1)": [], "garden(2)": ["red frog"], "garden(3)": ["leaf"]})
    assert state.history == [] and state.current_players() == [0]
    assert garden(state, 0) == ["red frog"] and garden(state, 1) == [] and garden(state, 2) == ["leaf"]


# ---------------------------------------------------------------- the four together

def test_a_leaf_sent_to_the_box_does_not_count_towards_the_extra_card(games):
    # leaf_to_box and extra_card both change what was one procedure (take_turn): they combine
    pond = ["leaf", "green frog", "blue frog", "yellow frog", "leaf (green flower)", "red frog", "rainbow frog"]
    state = start(games["all"], 3, pond=pond, zones=dict(EMPTY_GARDENS))
    play(state, [(0, FLIP)] * 4)
    assert zone(state, "box")[-1] == "leaf (green flower)"
    assert holding(state) == ["leaf", "green frog", "blue frog", "yellow frog"]
    play(state, [(0, STOP)])  # four cards: no extra card
    assert garden(state, 0) == ["leaf", "green frog", "blue frog", "yellow frog"]
    assert holding(state) == ["red frog"] and state.current_players() == [1]  # the next turn's first flip


def test_the_extra_card_can_be_the_prince_and_tall_towers_wait_for_a_second_leaf(games):
    # extra_card flips the Prince; the Prince's gift gives a fourth frog; tall_towers needs a second leaf
    state = start(games["all"], 3, pond=["green frog", "blue frog", "yellow frog", "leaf (One more!)", "prince frog",
                                         "red frog"],
                  zones={"garden(1)": [], "garden(2)": ["red frog (pink flower)", "rainbow frog"], "garden(3)": []})
    play(state, [(0, FLIP), (0, FLIP), (0, FLIP)])  # the One more! leaf forces the Prince: seat 1 gives
    assert holding(state) == ["green frog", "blue frog", "yellow frog", "leaf (One more!)", "prince frog"]
    play(state, [(1, "give rainbow frog")])
    assert garden(state, 0) == ["rainbow frog"]
    play(state, [(0, STOP)])  # five cards: the extra card (red frog) comes too
    assert garden(state, 0) == ["rainbow frog", "green frog", "blue frog", "yellow frog", "leaf (One more!)",
                                "prince frog", "red frog"]
    assert towers(state, 0) == []  # five frogs but one leaf: no tower with tall towers
    assert state.current_players() == [1]


def test_the_authoring_guide_shows_the_shipped_files_as_they_are():
    guide = (REPO_ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    for name in ("leaf_to_box", "extra_card"):
        shipped = (REPO_ROOT / "definitions" / "variants" / "frog_tower" / f"{name}.yaml").read_text(encoding="utf-8")
        assert f"```yaml file=definitions/variants/frog_tower/{name}.yaml\n{shipped}```" in guide


def test_the_house_rules_combine_with_the_crayfish_rules(games):
    """The Crayfish rules change no procedure of the game (ruling 12 is the game's own stop condition),
    so a hook of a house rule still applies beside them."""
    game = load_game(GAME, variants=["crayfish:rule=pass_left", "leaf_to_box"])
    state = start(game, 3, pond=["leaf", "green frog", "leaf (green flower)", "blue frog"], zones=dict(EMPTY_GARDENS))
    play(state, [(0, FLIP), (0, FLIP)])
    assert busts(state) == []
    assert holding(state) == ["leaf", "green frog"]
    assert zone(state, "box")[-1] == "leaf (green flower)"
