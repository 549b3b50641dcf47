"""Frog Tower: setup and every worked example printed in the rulebook, with exact outcomes.

Rulebook: shared/seeds/000_34829e96fc9edc40.txt.  Each example starts from a stacked Pond
(scenario); the player whose turn it is always sits in seat 0, because a scenario starts with
the first seat's turn.  Seats are 0-based as in ``state.apply``; the player "on the left" of
seat k is seat k + 1 (clockwise).
"""

from collections import Counter

import pytest

from conftest import card_type, garden, holding, play, points, start, towers, zone

STOP = "stop and take the cards"
FLIP = "flip another card"


def leaves(n):
    return ["starting leaf"] * n


# ---------------------------------------------------------------- components and setup

def pond_cards(game):
    """Names of the 75 Pond cards: every component but the Starting Leaf cards."""
    return [name for name in game.card_names if name != "starting leaf"]


def test_pond_has_75_cards_21_green_16_blue_16_yellow_9_red_4_rainbow_9_leaves(frog_tower):
    types = Counter(card_type(frog_tower, name) for name in pond_cards(frog_tower))
    assert len(pond_cards(frog_tower)) == 75
    assert types == {"green": 21, "blue": 16, "yellow": 16, "red": 9, "rainbow": 4, "leaf": 9}


def test_pond_has_ten_one_more_icons_as_in_the_canonical_deck(frog_tower):
    one_more, _ = frog_tower.properties["one_more"]
    by_type = Counter(card_type(frog_tower, frog_tower.card_names[c])
                      for c in range(len(frog_tower.card_names)) if one_more[c])
    assert sum(by_type.values()) == 10
    assert by_type == {"green": 3, "blue": 2, "yellow": 2, "red": 1, "leaf": 2}


def test_pond_has_sixteen_flowers_four_of_each_type_never_with_one_more(frog_tower):
    flowers, _ = frog_tower.properties["flowers"]
    one_more, _ = frog_tower.properties["one_more"]
    flowered = [c for c in range(len(frog_tower.card_names)) if flowers[c]]
    assert len(flowered) == 16
    assert all(len(flowers[c]) == 1 for c in flowered)
    assert Counter(flowers[c][0] for c in flowered) == {"green": 4, "pink": 4, "purple": 4, "yellow": 4}
    assert not any(one_more[c] for c in flowered)
    by_card = Counter((card_type(frog_tower, frog_tower.card_names[c]), flowers[c][0]) for c in flowered)
    assert by_card == {("green", "green"): 2, ("green", "pink"): 1, ("green", "purple"): 1,
                       ("blue", "green"): 1, ("blue", "pink"): 1, ("blue", "purple"): 1,
                       ("yellow", "pink"): 1, ("yellow", "purple"): 1, ("yellow", "yellow"): 2,
                       ("red", "pink"): 1, ("red", "yellow"): 1,
                       ("rainbow", "purple"): 1,
                       ("leaf", "green"): 1, ("leaf", "yellow"): 1}


def test_ten_starting_leaves_are_plain_leaf_cards(frog_tower):
    names = frog_tower.card_names
    starting = [c for c in range(len(names)) if names[c] == "starting leaf"]
    types, _ = frog_tower.properties["type"]
    one_more, _ = frog_tower.properties["one_more"]
    flowers, _ = frog_tower.properties["flowers"]
    assert len(starting) == 10
    assert all(types[c] == "leaf" for c in starting)
    assert not any(one_more[c] or flowers[c] for c in starting)


@pytest.mark.parametrize("players, starting_leaves, set_aside", [(2, 4, 12), (3, 3, 12), (4, 2, 6), (5, 2, 6)])
def test_setup_deals_starting_leaves_and_sets_pond_cards_aside_by_player_count(
        frog_tower, players, starting_leaves, set_aside):
    state = frog_tower.new_game(players, seed=11)
    for seat in range(players):
        assert garden(state, seat).count("starting leaf") == starting_leaves
        assert towers(state, seat) == []
    assert zone(state, "box") == leaves(10 - players * starting_leaves)
    assert len(zone(state, "set_aside")) == set_aside
    assert "starting leaf" not in zone(state, "set_aside") + zone(state, "pond")
    # the first turn has begun: every Pond card not set aside is still in the Pond or flipped since
    flipped = holding(state) + [c for s in range(players) for c in garden(state, s) if c != "starting leaf"]
    assert len(flipped) >= 1
    assert len(zone(state, "pond")) + len(flipped) == 75 - set_aside
    assert Counter(zone(state, "pond") + zone(state, "set_aside") + flipped) == Counter(pond_cards(frog_tower))
    assert state.gv["refilled"] is False and state.gv["last_turn"] is False
    assert state.gv["active"] == 0  # the first seat has the first turn


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pond_and_set_aside_cards_are_hidden_in_every_view(frog_tower, players):
    state = frog_tower.new_game(players, seed=3)
    pond_size, aside_size = len(state.zones[_index(state, "pond")]), len(zone(state, "set_aside"))
    for viewer in list(range(players)) + [None]:
        view = state.view(viewer)
        assert view["zones"]["pond"] == {"count": pond_size}
        assert view["zones"]["set_aside"] == {"count": aside_size}
        assert view["zones"]["holding"] == {"cards": holding(state)}


def _index(state, label):
    return next(i for i in range(state.game.zone_count) if state.game.zone_label(i) == label)


def test_first_player_starts_and_the_first_flip_goes_to_the_holding_area_not_the_garden(frog_tower):
    state = start(frog_tower, 3, pond=["red frog"], zones={"garden(1)": leaves(3)})
    assert state.current_players() == [0]
    assert holding(state) == ["red frog"]
    assert garden(state, 0) == leaves(3)
    assert state.legal_actions(0) == [FLIP, STOP]


# ---------------------------------------------------------------- Flow of a Turn: the worked examples

def test_emma_flips_red_leaf_green_stops_and_takes_them_into_her_garden(frog_tower):
    emma = 0
    state = start(frog_tower, 3, pond=["red frog", "leaf", "green frog", "yellow frog"],
                  zones={f"garden({s})": leaves(3) for s in (1, 2, 3)})
    play(state, [(emma, FLIP), (emma, FLIP)])
    assert holding(state) == ["red frog", "leaf", "green frog"]
    play(state, [(emma, STOP)])
    # the frogs go to her Garden and the leaf joins her leaves
    assert garden(state, emma) == leaves(3) + ["red frog", "leaf", "green frog"]
    assert [card_type(frog_tower, c) for c in garden(state, emma)].count("leaf") == 4
    assert towers(state, emma) == []
    assert state.log[-1] == "player 1 stops and takes red frog, leaf, green frog."
    # the next player's turn: their first flip is in the Holding area
    assert state.current_players() == [1]
    assert holding(state) == ["yellow frog"]


def test_lucas_one_more_green_forces_a_flip_then_red_then_green_busts(frog_tower):
    lucas = 0
    state = start(frog_tower, 3, pond=["green frog (One more!)", "red frog", "green frog", "yellow frog"])
    # the One more! icon on his first card flipped the red for him: no decision was offered
    assert state.history == []
    assert holding(state) == ["green frog (One more!)", "red frog"]
    assert state.current_players() == [lucas]
    assert state.legal_actions(lucas) == [FLIP, STOP]
    play(state, [(lucas, FLIP)])
    assert state.log[-1] == "player 1 busts on green frog."
    assert holding(state) == ["green frog (One more!)", "red frog", "green frog"]
    assert state.current_players() == [1]
    assert state.prompt() == "take"
    play(state, [(1, "take red frog"), (2, "take green frog")])
    assert [garden(state, s) for s in range(3)] == [["green frog (One more!)"], ["red frog"], ["green frog"]]
    assert state.current_players() == [1] and holding(state) == ["yellow frog"]


def test_sophia_blue_green_then_rainbow_busts(frog_tower):
    sophia = 0
    state = start(frog_tower, 3, pond=["blue frog", "green frog", "rainbow frog", "yellow frog"])
    play(state, [(sophia, FLIP), (sophia, FLIP)])
    assert state.log[-1] == "player 1 busts on rainbow frog."
    assert holding(state) == ["blue frog", "green frog", "rainbow frog"]
    assert state.current_players() == [1]
    assert state.legal_actions(1) == ["take blue frog", "take green frog", "take rainbow frog"]


def test_noah_busts_on_a_second_leaf_with_one_more_and_flips_a_blue_into_the_holding_area(frog_tower):
    noah = 0
    state = start(frog_tower, 4, pond=["green frog", "leaf", "leaf (One more!)", "blue frog", "yellow frog"])
    play(state, [(noah, FLIP), (noah, FLIP)])
    assert state.log[-1] == "player 1 busts on leaf (One more!)."
    assert holding(state) == ["green frog", "leaf", "leaf (One more!)", "blue frog"]
    assert zone(state, "pond")[-1] == "yellow frog"  # exactly one extra card was flipped
    assert state.current_players() == [1]


def test_noah_four_player_distribution_emma_lucas_sophia_then_noah_takes_the_last_green(frog_tower):
    noah, emma, lucas, sophia = 0, 1, 2, 3  # clockwise: Emma sits on Noah's left
    state = start(frog_tower, 4, pond=["green frog", "leaf", "leaf (One more!)", "blue frog", "yellow frog"])
    play(state, [(noah, FLIP), (noah, FLIP)])
    assert state.current_players() == [emma]
    play(state, [(emma, "take leaf")])
    assert state.current_players() == [lucas]
    play(state, [(lucas, "take leaf (One more!)")])
    assert state.current_players() == [sophia]
    assert state.legal_actions(sophia) == ["take green frog", "take blue frog"]
    play(state, [(sophia, "take blue frog")])
    # Noah's last green comes to him with no decision: it is the only card left
    assert garden(state, emma) == ["leaf"]
    assert garden(state, lucas) == ["leaf (One more!)"]
    assert garden(state, sophia) == ["blue frog"]
    assert garden(state, noah) == ["green frog"]
    # Noah's turn ended: Emma flips next
    assert state.current_players() == [emma]
    assert holding(state) == ["yellow frog"]


def test_two_player_three_cards_opponent_takes_one_discards_one_buster_takes_the_last(frog_tower):
    buster, opponent = 0, 1
    state = start(frog_tower, 2, pond=["red frog", "leaf", "rainbow frog", "yellow frog"],
                  zones={"garden(1)": leaves(4), "garden(2)": leaves(4), "box": []})
    play(state, [(buster, FLIP), (buster, FLIP)])
    assert holding(state) == ["red frog", "leaf", "rainbow frog"]
    assert state.current_players() == [opponent] and state.prompt() == "take"
    play(state, [(opponent, "take rainbow frog")])
    assert state.current_players() == [opponent] and state.prompt() == "discard"
    assert state.legal_actions(opponent) == ["discard red frog", "discard leaf"]
    play(state, [(opponent, "discard red frog")])
    assert garden(state, opponent) == leaves(4) + ["rainbow frog"]
    assert zone(state, "box") == ["red frog"]
    assert garden(state, buster) == leaves(4) + ["leaf"]
    assert state.current_players() == [opponent] and holding(state) == ["yellow frog"]


# ---------------------------------------------------------------- Frog Tower Scoring

def build_tower(game, first_three, fourth):
    """Seat 0 holds a leaf and three frogs, flips the fourth and stops: the tower is built at once."""
    state = start(game, 3, pond=[fourth, "leaf"], zones={"garden(1)": ["starting leaf"] + first_three})
    play(state, [(0, STOP)])
    return state


def test_rainbow_rainbow_green_yellow_tower_counts_four_colours_for_five_points(frog_tower):
    state = build_tower(frog_tower, ["rainbow frog", "rainbow frog", "green frog"], "yellow frog")
    assert towers(state, 0) == ["starting leaf", "rainbow frog", "rainbow frog", "green frog", "yellow frog"]
    assert garden(state, 0) == []
    assert points(state) == [5, 0, 0]
    assert state.log[-1] == ("player 1 builds a tower of 4 colours: "
                             "rainbow frog, rainbow frog, green frog, yellow frog.")
    assert not state.is_terminal()


def test_one_colour_tower_with_a_rainbow_scores_one_point_and_is_not_the_win(frog_tower):
    state = build_tower(frog_tower, ["green frog", "green frog", "green frog"], "rainbow frog")
    assert towers(state, 0) == ["starting leaf", "green frog", "green frog", "green frog", "rainbow frog"]
    assert points(state) == [1, 0, 0]
    assert state.pv["legendary"] == [False, False, False]
    assert not state.is_terminal()
    assert state.current_players() == [1]


@pytest.mark.parametrize("frogs, fourth, score", [
    (["blue frog", "blue frog", "blue frog"], "blue frog", None),      # 1 colour: WIN
    (["blue frog", "blue frog", "red frog"], "red frog", 1),          # 2 colours: 1 point
    (["blue frog", "blue frog", "red frog"], "green frog", 3),        # 3 colours: 3 points
    (["blue frog", "yellow frog", "red frog"], "green frog", 5),      # 4 colours: 5 points
], ids=["1-colour-WIN", "2-colours-1", "3-colours-3", "4-colours-5"])
def test_tower_score_by_number_of_colours(frog_tower, frogs, fourth, score):
    state = build_tower(frog_tower, frogs, fourth)
    assert towers(state, 0) == ["starting leaf"] + frogs + [fourth]
    assert state.pv["tower_count"] == [1, 0, 0]
    if score is None:
        assert state.is_terminal()
        assert state.winners() == [0]
        assert points(state) == [0, 0, 0]
        assert state.log[-1] == "player 1 completes a Legendary Frog Tower: " + ", ".join(frogs + [fourth]) + "!"
    else:
        assert not state.is_terminal()
        assert points(state) == [score, 0, 0]
