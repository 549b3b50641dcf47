"""Frog Tower's optional rules as variants: Flower Collection (ruling 11), Crayfish (12), Crayfish Rule 2 (13).

Positions are stacked with scenarios (setup does not run, so the Crayfish rule card in force is put in
``rule_in_force`` by hand). Seats are 0-based; the player on the right of seat k is seat k - 1.
"""

from __future__ import annotations

import json
from functools import cache

import pytest

from interpreter import load_game

from conftest import REPO_ROOT, garden, holding, play, points, start, towers, zone

BASE = REPO_ROOT / "definitions" / "frog_tower.yaml"
PRINTED_FLOWERS = REPO_ROOT / "tests" / "variants" / "printed_flowers.yaml"
FLIP = "flip another card"
STOP = "stop and take the cards"
LEAF = "starting leaf"


@cache
def variant_game(*variants):
    return load_game(BASE, variants=list(variants))


def crayfish_start(rule_card, players=3, pond=(), zones=None, variants=("crayfish",), **kwargs):
    """A game where ``rule_card`` is in force and seat 0 is about to flip ``pond`` (first named first)."""
    zones = {"rule_in_force": [rule_card], **(zones or {})}
    return start(variant_game(*variants), players, pond=list(pond), zones=zones, **kwargs)


def finished(game, players, zones, points_by_seat=None):
    """A game that ends at once: seat 0 flips the only Pond card (a red frog) on the last turn and stops."""
    zones = {"set_aside": [], **zones}
    state = start(game, players, pond=["red frog"], zones=zones, only_these=True,
                  game_variables={"refilled": True, "last_turn": True},
                  player_variables={p: {"points": v} for p, v in (points_by_seat or {}).items()})
    assert state.is_terminal()
    return state


def other_views(state, seat):
    return json.dumps([state.view(q) for q in state.players + [None] if q != seat], sort_keys=True)


# ==================================================================== ruling 11: Flower Collection
def test_printed_flower_example_three_types_score_three_points():
    # "2 green flowers, 2 yellow flowers and 1 blue flower: 3 types, 3 points" - with its own flower set,
    # spread over a tower and the Garden.
    game = variant_game("flower", str(PRINTED_FLOWERS))
    tower = [LEAF, "green frog (green flower)", "green frog (green flower)", "yellow frog (yellow flower)",
             "blue frog (blue flower)"]
    state = finished(game, 3, {"towers(1)": tower, "garden(1)": [LEAF, "yellow frog (yellow flower)"]},
                     {0: 3})
    assert garden(state, 0) == [LEAF, "yellow frog (yellow flower)", "red frog"]
    assert state.scores() == [3 + 3, 0, 0]


@pytest.mark.parametrize("cards, flower_points", [
    ([], 0),
    (["green frog (green flower)", "green frog (green flower)"], 0),  # one type, counted once
    (["green frog (green flower)", "red frog (pink flower)"], 1),
    (["green frog (green flower)", "red frog (pink flower)", "yellow frog (purple flower)"], 3),
    (["green frog (green flower)", "red frog (pink flower)", "yellow frog (purple flower)",
      "leaf (yellow flower)"], 5),  # a leaf's flower counts
])
def test_flower_types_score_zero_one_three_five(cards, flower_points):
    state = finished(variant_game("flower"), 3, {"garden(2)": [LEAF] + cards})
    assert state.scores() == [0, flower_points, 0]


def test_flowers_only_count_in_the_players_own_towers_and_garden():
    zones = {"garden(2)": [LEAF, "green frog (green flower)"], "holding": [],
             "box": ["red frog (pink flower)"], "garden(3)": [LEAF, "yellow frog (purple flower)"]}
    state = finished(variant_game("flower"), 3, zones)
    assert state.scores() == [0, 0, 0]


def test_without_the_flower_variant_flowers_score_nothing(frog_tower):
    cards = ["green frog (green flower)", "red frog (pink flower)", "yellow frog (purple flower)"]
    assert finished(frog_tower, 3, {"garden(2)": [LEAF] + cards}).scores() == [0, 0, 0]


# ==================================================================== ruling 12: Crayfish
def test_a_flipped_crayfish_goes_to_the_box_and_the_player_goes_on_choosing():
    state = crayfish_start("Pass to the Right", pond=["green frog", "crayfish", "blue frog"])
    play(state, [(0, FLIP)])
    assert holding(state) == ["green frog"]
    assert zone(state, "box")[-1] == "crayfish"
    assert state.log == ["player 1 flips a Crayfish: Pass to the Right."]
    assert state.current_players() == [0] and state.legal_actions(0) == [FLIP, STOP]


def test_a_crayfish_never_busts_even_with_a_rainbow_in_the_holding_area():
    state = crayfish_start("Pass to the Right", pond=["rainbow frog", "crayfish", "blue frog"])
    play(state, [(0, FLIP)])
    assert holding(state) == ["rainbow frog"]
    assert not any("busts" in line for line in state.log)
    assert state.legal_actions(0) == [FLIP, STOP]


def test_a_crayfish_as_the_turns_first_card_offers_no_stop_and_the_player_flips_again():
    # Ruling 12 (amended): the Holding area is empty after the Crayfish, so the player must flip again,
    # as at the start of a turn; the only option is taken by itself.
    state = crayfish_start("Pass to the Right", pond=["crayfish", "green frog", "blue frog"])
    assert zone(state, "box")[-1] == "crayfish"
    assert holding(state) == ["green frog"] and zone(state, "pond")[-1] == "blue frog"
    assert state.current_players() == [0] and state.legal_actions(0) == [FLIP, STOP]
    assert state.history == []  # nobody was asked: flipping again was the only choice


def test_a_crayfish_as_the_turns_first_card_is_followed_by_a_start_of_turn_one_more_chain():
    # The card flipped after the Crayfish is the turn's first card: its One more! forces another flip,
    # and the two cards are not compared for a bust before the second is flipped.
    state = crayfish_start("Pass to the Right", pond=["crayfish", "green frog (One more!)", "blue frog", "red frog"])
    assert holding(state) == ["green frog (One more!)", "blue frog"]
    assert state.legal_actions(0) == [FLIP, STOP]


def test_a_crayfish_after_other_cards_offers_stop_and_a_crayfish_has_no_one_more():
    state = crayfish_start("Pass to the Right", pond=["green frog", "crayfish", "blue frog"])
    play(state, [(0, FLIP)])
    assert holding(state) == ["green frog"] and zone(state, "pond")[-1] == "blue frog"
    assert state.legal_actions(0) == [FLIP, STOP]
    play(state, [(0, STOP)])
    assert garden(state, 0) == ["green frog"] and state.current_players() == [1]


def test_a_crayfish_that_is_the_last_card_to_flip_leaves_stopping_with_nothing_as_the_only_choice():
    # Ruling 9 still holds: with no card left to flip, stopping is the only choice, even with nothing to take.
    state = crayfish_start("Pass to the Right", pond=["crayfish"], zones={"set_aside": []}, only_these=True,
                           game_variables={"refilled": True, "last_turn": True})
    assert holding(state) == [] and garden(state, 0) == []
    assert state.is_terminal()


def test_rule_2_a_crayfish_as_the_turns_first_card_offers_no_stop_either():
    state = start(variant_game("crayfish2"), 3, pond=["crayfish", "green frog", "blue frog"],
                  zones={"rule_in_force": [], "crayfish_rules": ["Pick from the Right"]})
    assert zone(state, "rule_in_force") == ["Pick from the Right"]
    assert holding(state) == ["green frog"] and state.legal_actions(0) == [FLIP, STOP]


GARDENS = {"garden(1)": [LEAF, "green frog", "red frog"], "garden(2)": [LEAF, "blue frog", "yellow frog"],
           "garden(3)": [LEAF]}


def test_pass_to_the_right_is_one_secret_decision_for_every_player_with_a_frog():
    state = crayfish_start("Pass to the Right", pond=["crayfish", "green frog"], zones=GARDENS)
    assert state.current_players() == [0, 1]
    assert state.prompt() == "pass" and state.view(2)["decision"]["secret"] is True
    # leaves are never offered
    assert state.legal_actions(0) == ["pass green frog", "pass red frog"]
    assert state.legal_actions(1) == ["pass blue frog", "pass yellow frog"]


def test_pass_to_the_right_moves_every_chosen_frog_at_once_and_a_frogless_player_only_receives():
    state = crayfish_start("Pass to the Right", pond=["crayfish", "green frog"], zones=GARDENS)
    play(state, [(1, "pass yellow frog"), (0, "pass red frog")])
    assert garden(state, 0) == [LEAF, "green frog", "yellow frog"]
    assert garden(state, 1) == [LEAF, "blue frog"]
    assert garden(state, 2) == [LEAF, "red frog"]
    assert state.current_players() == [0] and state.legal_actions(0) == [FLIP, STOP]


def test_pass_to_the_left_sends_each_frog_to_the_next_player_clockwise():
    state = crayfish_start("Pass to the Left", pond=["crayfish", "green frog"], zones=GARDENS)
    play(state, [(0, "pass red frog"), (1, "pass yellow frog")])
    assert garden(state, 0) == [LEAF, "green frog"]
    assert garden(state, 1) == [LEAF, "blue frog", "red frog"]
    assert garden(state, 2) == [LEAF, "yellow frog"]


def test_an_empty_garden_passes_nothing_but_receives():
    zones = {"garden(1)": [], "garden(2)": [LEAF, "blue frog"], "garden(3)": []}
    state = crayfish_start("Pass to the Right", pond=["crayfish", "green frog"], zones=zones)
    # nobody has a choice to make: seat 1 passes its only frog, the others have none
    assert state.history == [] and state.current_players() == [0]
    assert [garden(state, p) for p in range(3)] == [["blue frog"], [LEAF], []]


def test_leaves_are_never_passed():
    zones = {"garden(1)": [LEAF, "leaf (green flower)"], "garden(2)": [LEAF, "blue frog"], "garden(3)": [LEAF]}
    state = crayfish_start("Pass to the Left", pond=["crayfish", "green frog"], zones=zones)
    assert [garden(state, p) for p in range(3)] == [[LEAF, "leaf (green flower)"], [LEAF], [LEAF, "blue frog"]]


@pytest.mark.parametrize("rule_card", ["Pass to the Right", "Pass to the Left"])
def test_no_view_shows_a_passed_card_before_everyone_has_chosen(rule_card):
    state = crayfish_start(rule_card, pond=["crayfish", "green frog"], zones=GARDENS)
    seen = set()
    for action in state.legal_actions(0):
        branch = state.clone()
        branch.apply(0, action)
        assert branch.current_players() == [1]
        seen.add(other_views(branch, 0))
    assert len(seen) == 1  # seat 0's choice changes nothing anyone else can see
    before = state.view(1)
    state.apply(0, "pass green frog")
    after = state.view(1)
    assert after["decision"]["decided"] == [0] and before["decision"]["decided"] == []
    for view in (before, after):
        del view["decision"]["decided"], view["decision"]["waiting_for"]
    assert before == after


def test_everyone_flips_gives_each_player_a_pond_card_in_turn_order_from_the_flipper():
    state = crayfish_start("Everyone Flips", pond=["crayfish", "red frog", "blue frog", "green frog", "leaf"])
    assert state.log == ["player 1 flips a Crayfish: Everyone Flips."]
    assert [garden(state, p) for p in range(3)] == [["red frog"], ["blue frog"], ["green frog"]]
    # the Crayfish was the turn's first card: the Holding area is empty, so the player flipped again
    assert holding(state) == ["leaf"]
    assert state.legal_actions(0) == [FLIP, STOP]


def test_a_crayfish_taken_by_everyone_flips_is_discarded_with_no_effect():
    state = crayfish_start("Everyone Flips", pond=["crayfish", "red frog", "crayfish", "green frog", "leaf"])
    assert [garden(state, p) for p in range(3)] == [["red frog"], [], ["green frog"]]
    assert zone(state, "box")[-2:] == ["crayfish", "crayfish"]
    assert state.log == ["player 1 flips a Crayfish: Everyone Flips.",
                         "player 2 takes a Crayfish: it is discarded with no effect."]
    assert holding(state) == ["leaf"]  # then the player flipped again (the Holding area was empty)


def test_everyone_flips_with_fewer_pond_cards_than_players_does_nothing_and_leaves_the_set_aside_cards():
    state = crayfish_start("Everyone Flips", pond=["crayfish", "red frog", "blue frog"], only_these=True,
                           zones={"set_aside": ["leaf", "leaf"]})
    assert [garden(state, p) for p in range(3)] == [[], [], []]
    assert zone(state, "set_aside") == ["leaf", "leaf"]
    assert holding(state) == ["red frog"] and zone(state, "pond") == ["blue frog"]  # then the player flipped again
    assert state.log[-1] == "The Pond holds fewer cards than players: Everyone Flips does nothing."


def test_pick_from_the_right_decides_every_draw_before_any_card_moves():
    zones = {"garden(1)": [LEAF, "green frog"], "garden(2)": [LEAF, "blue frog"], "garden(3)": [LEAF, "red frog"]}
    state = crayfish_start("Pick from the Right", pond=["crayfish", "leaf"], zones=zones)
    # seat 0 draws from seat 2, seat 1 from seat 0, seat 2 from seat 1: each gets its right neighbour's frog
    assert [garden(state, p) for p in range(3)] == [[LEAF, "red frog"], [LEAF, "green frog"], [LEAF, "blue frog"]]


def test_pick_from_the_right_of_a_frogless_garden_draws_nothing():
    zones = {"garden(1)": [LEAF, "green frog"], "garden(2)": [LEAF, "blue frog"], "garden(3)": [LEAF]}
    state = crayfish_start("Pick from the Right", pond=["crayfish", "leaf"], zones=zones)
    assert [garden(state, p) for p in range(3)] == [[LEAF], [LEAF, "green frog"], [LEAF, "blue frog"]]


def test_pick_from_the_right_draws_at_random_among_the_frogs():
    zones = {"garden(1)": [LEAF, "green frog", "blue frog", "red frog"], "garden(2)": [], "garden(3)": []}
    drawn = {garden(crayfish_start("Pick from the Right", pond=["crayfish", "leaf"], zones=zones, seed=seed), 1)[0]
             for seed in range(30)}
    assert drawn == {"green frog", "blue frog", "red frog"}


def test_towers_are_checked_after_a_crayfish_effect():
    zones = {"garden(1)": [LEAF, "green frog", "blue frog", "yellow frog"], "garden(2)": [], "garden(3)": []}
    state = crayfish_start("Everyone Flips", pond=["crayfish", "red frog", "leaf", "leaf (One more!)"],
                           zones=zones)
    assert garden(state, 0) == [] and points(state) == [5, 0, 0]
    assert sorted(towers(state, 0)) == sorted([LEAF, "green frog", "blue frog", "yellow frog", "red frog"])


@pytest.mark.parametrize("rule, card", [("pass_right", "Pass to the Right"), ("pass_left", "Pass to the Left"),
                                        ("everyone_flips", "Everyone Flips"),
                                        ("pick_from_right", "Pick from the Right")])
def test_the_rule_setting_puts_that_rule_card_in_force_and_the_others_in_the_box(rule, card):
    state = variant_game(f"crayfish:rule={rule}").new_game(3, seed=5)
    assert zone(state, "rule_in_force") == [card] and zone(state, "crayfish_rules") == []
    others = {"Pass to the Right", "Pass to the Left", "Everyone Flips", "Pick from the Right"} - {card}
    assert others <= set(zone(state, "box"))


def test_a_random_rule_card_is_drawn_at_setup():
    game = variant_game("crayfish")
    assert {zone(game.new_game(3, seed=s), "rule_in_force")[0] for s in range(40)} == \
        {"Pass to the Right", "Pass to the Left", "Everyone Flips", "Pick from the Right"}


def test_the_four_crayfish_join_the_pond_before_it_is_shuffled():
    state = variant_game("crayfish").new_game(4, seed=3)
    names = [state.game.card_names[c] for label in ("pond", "set_aside", "holding") for c in
             state.zones[[i for i in range(state.game.zone_count) if state.game.zone_label(i) == label][0]]]
    assert names.count("crayfish") == 4 and len(names) == 79


# ==================================================================== ruling 13: Crayfish Rule 2
def test_rule_2_keeps_the_four_rule_cards_face_down_at_setup():
    state = variant_game("crayfish2").new_game(3, seed=2)
    assert zone(state, "rule_in_force") == []
    assert state.view(0)["zones"]["crayfish_rules"] == {"count": 4}


def test_rule_2_each_crayfish_turns_the_next_rule_card_face_up_and_applies_it():
    pond = ["crayfish", "red frog", "blue frog", "green frog", "crayfish", "leaf"]
    state = start(variant_game("crayfish2"), 3, pond=pond,
                  zones={"rule_in_force": [], "crayfish_rules": ["Pass to the Left", "Everyone Flips"]})
    # the first Crayfish, Everyone Flips, gives out red, blue and green; the Holding area is empty, so the
    # player flips again: the second Crayfish, Pass to the Left (everyone has one frog), then the leaf
    assert zone(state, "rule_in_force") == ["Everyone Flips", "Pass to the Left"]
    assert holding(state) == ["leaf"]
    assert [garden(state, p) for p in range(3)] == [["green frog"], ["red frog"], ["blue frog"]]
    assert state.log == ["player 1 flips a Crayfish: Everyone Flips.", "player 1 flips a Crayfish: Pass to the Left."]


def test_rule_2_after_the_rule_deck_is_exhausted_a_crayfish_has_no_effect():
    used = ["Pass to the Right", "Pass to the Left", "Everyone Flips", "Pick from the Right"]
    zones = {"rule_in_force": used, "crayfish_rules": [], "garden(1)": [LEAF, "green frog"],
             "garden(2)": [LEAF, "blue frog"], "garden(3)": [LEAF, "red frog"]}
    state = start(variant_game("crayfish2"), 3, pond=["crayfish", "leaf"], zones=zones)
    assert state.log == ["player 1 flips a Crayfish, but no rule card is left: no effect."]
    assert zone(state, "box")[-1] == "crayfish" and holding(state) == ["leaf"]  # then the player flipped again
    assert [garden(state, p) for p in range(3)] == [[LEAF, "green frog"], [LEAF, "blue frog"], [LEAF, "red frog"]]
    assert zone(state, "rule_in_force") == used


# ==================================================================== composed
def test_flower_and_crayfish_compose_passed_flowers_score_for_their_new_owner():
    game = variant_game("flower", "crayfish:rule=pass_right")
    assert game.variants == ["flower", "crayfish:rule=pass_right"]
    zones = {"rule_in_force": ["Pass to the Right"], "set_aside": [],
             "garden(1)": ["leaf (green flower)", "green frog (pink flower)"],
             "garden(2)": ["leaf (yellow flower)", "blue frog (purple flower)"], "garden(3)": [LEAF]}
    # seat 0 flips the only Pond card, a Crayfish, on the last turn: each passes its only frog, then the game ends
    state = start(game, 3, pond=["crayfish"], zones=zones, only_these=True,
                  game_variables={"refilled": True, "last_turn": True})
    assert state.is_terminal()
    assert garden(state, 0) == ["leaf (green flower)", "blue frog (purple flower)"]
    assert garden(state, 2) == [LEAF, "green frog (pink flower)"]
    assert state.scores() == [1, 0, 0]  # green and purple: two types, one point
