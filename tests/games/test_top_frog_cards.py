"""Top Frog: every card of shared/design/rulings/top_frog_cards.md (§3 the 60 Frogs, §4 the 13 Fantasy Frog
Ability Cards with the edge cases of their text and of §9, §5 the 12 Hats, §6 the 12 Lily Pads) and the
trigger rules of §2, each from a hand-built position with the card's exact effect.

When Stacked On and When Placed are triggered by playing a held Frog (``play_held``), When Added to Pond
by a Cleanup fill from the River (``added``), When Showing by the action it changes. Final scores are
read per part through the test-only variant ``tf_parts`` (see top_frog_helpers.py).
"""

from __future__ import annotations

import json

import pytest

from top_frog_helpers import (APART, all_gnats, card_gnats, catch_and_place, cell, choose, end_now, gnats, on,
                              parts, play_held, select, space_gnats, stacked_setup, tf_parts, where, zone)

__all__ = ["tf_parts"]   # the fixture, imported for pytest

RESTS = {2: "play Rest", 3: "play Rest"}


def seat_gnats(state, players=3):
    return tuple(gnats(state, s) for s in range(1, players + 1))


# ================================================================ §3 Fancy: When Stacked On
# (stacks of player 1, the held Frog placed, its stack, player 1's Gnats before, expected Gnats of seats 1-3)

FANCY = [
    ("Bride", {"stack2(1)": ["Bride"]}, "Groom", 2, 0, (4, 0, 0)),
    ("Bride", {"stack2(1)": ["Bride"]}, "Dandy", 2, 0, (2, 0, 0)),
    ("Groom", {"stack2(1)": ["Groom"]}, "Baron", 2, 0, (2, 0, 0)),
    ("Groom", {"stack2(1)": ["Groom"], "stack3(1)": ["Bride"]}, "Baron", 2, 0, (3, 0, 0)),
    ("Duchess", {"stack2(1)": ["Tycoon", "Duchess"]}, "Bride", 2, 0, (3, 0, 0)),     # Tycoon, Duchess, Bride
    ("Duchess", {"stack2(1)": ["Planet", "Duchess"]}, "Witch", 2, 0, (1, 0, 0)),     # the Duchess alone
    ("Tycoon", {"stack2(1)": ["Tycoon"], "stack1(1)": ["Lily Pad #1", "Fairy"]}, "Banker", 2, 0, (2, 0, 0)),
    ("Tycoon", {"stack2(1)": ["Tycoon"], "stack1(1)": ["Lily Pad #1", "Fairy"], "stack3(1)": ["Imp"]},
     "Banker", 2, 0, (3, 0, 0)),
    ("Prince", {"stack2(1)": ["Prince"], "stack1(1)": ["Lily Pad #1", "Fairy"]}, "Groom", 2, 0, (3, 0, 0)),
    ("Prince", {"stack2(1)": ["Prince"], "stack1(1)": ["Lily Pad #1", "Planet", "Fairy"]}, "Groom", 2, 0,
     (2, 0, 0)),                                                                     # 2 frogs is not more than 2
    ("Prince", {"stack2(1)": ["Prince"]}, "Groom", 2, 0, (3, 0, 0)),                 # no other Stack
    ("Banker", {"stack2(1)": ["Banker"]}, "Baron", 2, 5, (7, 0, 0)),                 # 5 // 2 = 2
    ("Banker", {"stack2(1)": ["Banker"]}, "Baron", 2, 9, (12, 0, 0)),                # at most 3
    ("Banker", {"stack2(1)": ["Banker"]}, "Baron", 2, 1, (1, 0, 0)),                 # 1 // 2 = 0
    ("Ambassador", {"stack2(1)": ["Ambassador"]}, "Fairy", 2, 0, (2, 1, 1)),
    ("Dandy", {"stack2(1)": ["Dandy"]}, "Mech", 2, 0, (3, 0, 0)),                    # a Future Frog
    ("Dandy", {"stack2(1)": ["Dandy"]}, "Witch", 2, 0, (1, 0, 0)),
    ("Baron", {"stack2(1)": ["Baron"]}, "Witch", 2, 0, (3, 0, 0)),                   # weight 3
    ("Baron", {"stack2(1)": ["Baron"]}, "Mech", 2, 0, (3, 0, 0)),                    # 3/6: either weight passes
    ("Baron", {"stack2(1)": ["Baron"]}, "Tulip", 2, 0, (1, 0, 0)),                   # 1/4: neither is 3
    ("Maestro", {"stack2(1)": ["Planet", "Maestro"]}, "Fairy", 2, 0, (3, 0, 0)),     # future, fancy, fantasy
    ("Maestro", {"stack2(1)": ["Maestro"]}, "Butler", 2, 0, (1, 0, 0)),              # fancy only
    ("Ballerina", {"stack2(1)": ["Ballerina"]}, "Fairy", 2, 0, (3, 0, 0)),
    ("Ballerina", {"stack2(1)": ["Ballerina"]}, "Tulip", 2, 0, (3, 0, 0)),
]


@pytest.mark.parametrize("card, zones, new, stack, before, after", FANCY,
                         ids=[f"{r[0]}-under-{r[2]}-{i}" for i, r in enumerate(FANCY)])
def test_fancy_when_stacked_on_gains_exactly(tf_table, card, zones, new, stack, before, after):
    counters = {"gnats": {"players": {"1": before}}} if before else None
    state = play_held(tf_table, new, stack, zones=zones, counters=counters)
    assert zone(state, f"stack{stack}(1)")[-2:] == [card, new]
    assert seat_gnats(state) == after


def test_ballerina_takes_only_a_weight_1_frog_or_the_tulip(tf_table):
    for frog, offered in (("Goblin", False), ("Fairy", True), ("Tulip", True)):
        state = tf_table(3, cells={"r2c2": frog}, meeples=APART, zones={"stack2(1)": ["Ballerina"],
                                                                        "stack3(1)": ["Planet"]})
        select(state, {1: "play Catch", **RESTS})
        assert ("place %s on stack 2" % frog in state.legal_actions(0)) is offered, frog


def test_butler_gains_1_then_puts_1_on_the_chosen_space(tf_table):
    state = play_held(tf_table, "Fairy", 2, zones={"stack2(1)": ["Butler"]})
    assert gnats(state, 1) == 1 and state.prompt() == "put a gnat on"
    assert len(state.legal_actions(0)) == 16
    target = cell(state, "r3c3")[0]
    state.apply(0, "put a gnat on r3c3")
    assert card_gnats(state, target) == 1 and gnats(state, 1) == 1


def test_marquis_gains_1_and_takes_1_from_each_adjacent_space_with_any(tf_table):
    # Meeple on r2c2: r1c2 has 2 (1 taken), r3c2 has 1, r2c1 none, r1c1 is diagonal (untouched).
    state = tf_table(3, zones={"held(1)": ["Fairy"], "stack2(1)": ["Marquis"]}, meeples=APART,
                     cells={"r1c2": "Groom", "r3c2": "Bride", "r1c1": "Dandy"},
                     counters={"gnats": {"spaces": {}, "cards": {"cell(r1c2)": [2], "cell(r3c2)": [1],
                                                                 "cell(r1c1)": [1]}}})
    select(state, {1: "play Fairy", **RESTS})
    state.apply(0, "place Fairy on stack 2")
    assert gnats(state, 1) == 3
    assert (card_gnats(state, "Groom"), card_gnats(state, "Bride"), card_gnats(state, "Dandy")) == (1, 0, 1)


@pytest.mark.parametrize("players, meeples, gained", [
    (3, {1: "r2c2", 2: "r2c2", 3: "r4c4"}, 1),                                   # one on the space
    (3, {1: "r2c2", 2: "r2c2", 3: "r2c3"}, 2),                                   # and one adjacent
    (3, {1: "r2c2", 2: "r1c1", 3: "r3c3"}, 0),                                   # diagonals do not count
    (5, {1: "r3c3", 2: "r3c3", 3: "r2c3", 4: "r3c2", 5: "r4c3"}, 3),             # 4 around: at most 3
])
def test_socialite_counts_the_other_meeples_on_or_next_to_your_space(tf_table, players, meeples, gained):
    hands = {s: ["Rest"] for s in range(2, players + 1)}
    hands[1] = ["Leap North"]
    state = tf_table(players, meeples=meeples, hands=hands,
                     zones={"held(1)": ["Fairy"], "stack2(1)": ["Socialite"]})
    select(state, {1: "play Fairy"})
    state.apply(0, "place Fairy on stack 2")
    assert gnats(state, 1) == gained


def test_heiress_either_gains_2_or_takes_1_from_each_richer_player(tf_table):
    counters = {"gnats": {"players": {"1": 1, "2": 3, "3": 1}}}
    state = play_held(tf_table, "Fairy", 2, zones={"stack2(1)": ["Heiress"]}, counters=counters)
    assert state.legal_actions(0) == ["gain 2 gnats", "take 1 gnat from each player with more"]
    state.apply(0, "take 1 gnat from each player with more")
    assert seat_gnats(state) == (2, 2, 1)          # player 3 has 1, not more than 1
    state = play_held(tf_table, "Fairy", 2, zones={"stack2(1)": ["Heiress"]}, counters=counters)
    state.apply(0, "gain 2 gnats")
    assert seat_gnats(state) == (3, 3, 1)


# ================================================================ §3 Flower: When Added to Pond

def added(tf_table, flower, space, cells=None, meeples=None, counters=None, river=None, deck=None, stays=True):
    """``flower`` fills the blank ``space`` from the River in Cleanup (everyone Rests alone first)."""
    laid = {space: None}
    laid.update(cells or {})
    state = tf_table(3, cells=laid, meeples=meeples or {1: "r1c1", 2: "r1c4", 3: "r4c1"},
                     river=river or ["Tycoon", "Duchess", flower], deck=deck, counters=counters)
    before = board_gnats(state)
    select(state, {1: "play Rest", 2: "play Rest", 3: "play Rest"})
    if stays:
        assert cell(state, space) == [flower]
    return state, board_gnats(state) - before


def board_gnats(state):
    """Gnats on cards and blank spaces (not the players' piles)."""
    rows = state.counters["gnats"]
    return sum(rows["card"]) + sum(rows["space"])


def gnat_map(state, spaces):
    return {sp: on(state, sp) for sp in spaces}


def test_dandelion_in_a_corner_puts_2_on_its_neighbours_and_2_on_itself(tf_table):
    state, added_gnats = added(tf_table, "Dandelion", "r1c1", meeples={1: "r4c4", 2: "r4c4", 3: "r4c3"})
    assert gnat_map(state, ["r1c1", "r1c2", "r2c1", "r2c2"]) == {"r1c1": 2, "r1c2": 1, "r2c1": 1, "r2c2": 0}
    assert added_gnats == 4


def test_flytrap_gathers_every_gnat_of_its_adjacent_spaces(tf_table):
    state, added_gnats = added(tf_table, "Flytrap", "r2c2", cells={"r1c2": "Groom", "r3c2": "Bride",
                                                                   "r1c1": "Dandy"},
                               counters={"gnats": {"cards": {"cell(r1c2)": [2], "cell(r3c2)": [1],
                                                             "cell(r1c1)": [1]}}})
    assert card_gnats(state, "Flytrap") == 3 and added_gnats == 0
    assert (card_gnats(state, "Groom"), card_gnats(state, "Bride"), card_gnats(state, "Dandy")) == (0, 0, 1)


def test_iris_puts_a_gnat_on_each_river_card_after_the_slide_and_draw(tf_table):
    state, added_gnats = added(tf_table, "Iris", "r2c2", river=["Tycoon", "Duchess", "Iris"], deck=["Rose"])
    assert zone(state, "river") == ["Rose", "Tycoon", "Duchess"]
    assert [card_gnats(state, c) for c in ("Rose", "Tycoon", "Duchess", "Iris")] == [1, 1, 1, 0]
    assert added_gnats == 3


def test_sunflower_puts_a_gnat_on_each_other_space_of_its_row(tf_table):
    state, _ = added(tf_table, "Sunflower", "r2c2")
    assert gnat_map(state, ["r2c1", "r2c2", "r2c3", "r2c4", "r1c2", "r3c2"]) == \
        {"r2c1": 1, "r2c2": 0, "r2c3": 1, "r2c4": 1, "r1c2": 0, "r3c2": 0}


def test_bluebell_shifts_its_row_one_space_east_and_the_meeples_stay(tf_table):
    state, _ = added(tf_table, "Bluebell", "r2c1", cells={"r2c2": "Groom", "r2c3": "Bride", "r2c4": "Dandy"},
                     meeples={1: "r2c1", 2: "r2c4", 3: "r4c1"},
                     counters={"gnats": {"cards": {"cell(r2c4)": [2]}}}, stays=False)
    assert [cell(state, f"r2c{c}") for c in (1, 2, 3, 4)] == [["Dandy"], ["Bluebell"], ["Groom"], ["Bride"]]
    assert card_gnats(state, "Dandy") == 2                   # its Gnats moved with it
    assert where(state, 1) == "r2c1" and where(state, 2) == "r2c4"


def test_lotus_puts_a_gnat_on_each_corner(tf_table):
    state, added_gnats = added(tf_table, "Lotus", "r2c2")
    assert gnat_map(state, ["r1c1", "r1c4", "r4c1", "r4c4", "r2c2", "r1c2"]) == \
        {"r1c1": 1, "r1c4": 1, "r4c1": 1, "r4c4": 1, "r2c2": 0, "r1c2": 0}
    assert added_gnats == 4


def test_rose_puts_2_gnats_on_itself(tf_table):
    state, added_gnats = added(tf_table, "Rose", "r3c3")
    assert card_gnats(state, "Rose") == 2 and added_gnats == 2


def test_poppy_puts_1_gnat_on_each_space_with_meeples_however_many(tf_table):
    state, added_gnats = added(tf_table, "Poppy", "r3c3", meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"})
    assert gnat_map(state, ["r2c2", "r4c4", "r3c3"]) == {"r2c2": 1, "r4c4": 1, "r3c3": 0}
    assert added_gnats == 2


def test_lavender_swaps_with_the_card_with_most_gnats_first_in_reading_order(tf_table):
    state, _ = added(tf_table, "Lavender", "r1c2", cells={"r2c4": "Groom", "r3c3": "Bride", "r4c4": "Dandy"},
                     counters={"gnats": {"cards": {"cell(r2c4)": [2], "cell(r3c3)": [2], "cell(r4c4)": [1]}}},
                     meeples={1: "r1c2", 2: "r2c4", 3: "r4c1"}, stays=False)
    assert cell(state, "r1c2") == ["Groom"] and cell(state, "r2c4") == ["Lavender"]
    assert card_gnats(state, "Groom") == 2 and card_gnats(state, "Lavender") == 0
    assert where(state, 1) == "r1c2" and where(state, 2) == "r2c4"      # meeples stay


def test_lavender_with_no_other_gnat_in_the_pond_does_nothing(tf_table):
    state, _ = added(tf_table, "Lavender", "r1c2")
    assert cell(state, "r1c2") == ["Lavender"]
    assert "swaps places" not in " ".join(state.log)


def test_daisy_puts_a_gnat_on_each_other_flower_in_the_pond(tf_table):
    state, added_gnats = added(tf_table, "Daisy", "r4c4", cells={"r1c1": "Rose", "r2c3": "Tulip", "r3c3": "Groom"})
    assert [card_gnats(state, c) for c in ("Rose", "Tulip", "Groom", "Daisy")] == [1, 1, 0, 0]
    assert added_gnats == 2


@pytest.mark.parametrize("space, diagonals", [("r2c2", ["r1c1", "r1c3", "r3c1", "r3c3"]), ("r1c1", ["r2c2"])])
def test_clover_puts_a_gnat_on_each_diagonal_space(tf_table, space, diagonals):
    state, added_gnats = added(tf_table, "Clover", space, meeples={1: "r4c4", 2: "r4c4", 3: "r4c4"})
    assert added_gnats == len(diagonals)
    assert all(on(state, sp) == 1 for sp in diagonals)


def test_snapdragon_shifts_its_column_one_space_south(tf_table):
    state, _ = added(tf_table, "Snapdragon", "r1c2", cells={"r2c2": "Groom", "r3c2": "Bride", "r4c2": "Dandy"},
                     stays=False)
    assert [cell(state, f"r{r}c2") for r in (1, 2, 3, 4)] == [["Dandy"], ["Snapdragon"], ["Groom"], ["Bride"]]


def test_marigold_puts_a_gnat_on_each_hat_coupon_or_else_on_itself(tf_table):
    state, added_gnats = added(tf_table, "Marigold", "r2c2", cells={"r3c3": "Hat Coupon", "r4c4": "Hat Coupon"},
                               meeples={1: "r1c1", 2: "r1c1", 3: "r1c1"})
    assert (on(state, "r3c3"), on(state, "r4c4"), card_gnats(state, "Marigold"), added_gnats) == (1, 1, 0, 2)
    state, added_gnats = added(tf_table, "Marigold", "r2c2")
    assert card_gnats(state, "Marigold") == 1 and added_gnats == 1


@pytest.mark.parametrize("meeples, expected", [({1: "r1c1", 2: "r1c4", 3: "r4c1"}, 3),
                                               ({1: "r2c2", 2: "r1c4", 3: "r4c1"}, 1)])
def test_hibiscus_puts_3_on_itself_with_no_meeple_there_else_1(tf_table, meeples, expected):
    state, _ = added(tf_table, "Hibiscus", "r2c2", meeples=meeples)
    assert card_gnats(state, "Hibiscus") == expected


def test_tulip_goes_on_any_frog_and_takes_any_frog_of_weight_4_or_less(tf_table):
    state = tf_table(3, cells={"r2c2": "Tulip"}, meeples=APART, zones={"stack2(1)": ["Ballerina"],
                                                                       "stack3(1)": ["Fairy"]})
    select(state, {1: "play Catch", **RESTS})
    assert state.legal_actions(0)[:3] == ["place Tulip on stack 1", "place Tulip on stack 2",
                                          "place Tulip on stack 3"]
    for frog, offered in (("Groom", True), ("Bride", False)):
        state = tf_table(3, cells={"r2c2": frog}, meeples=APART, zones={"stack2(1)": ["Fairy", "Tulip"],
                                                                        "stack3(1)": ["Ballerina"]})
        select(state, {1: "play Catch", **RESTS})
        assert (f"place {frog} on stack 2" in state.legal_actions(0)) is offered, frog


def test_a_flower_moved_inside_the_pond_does_not_trigger_again(tf_table):
    # The Bluebell shifts a Rose already in the Pond: the Rose gets no new Gnats.
    state, _ = added(tf_table, "Bluebell", "r2c1", cells={"r2c2": "Rose"}, stays=False)
    assert cell(state, "r2c3") == ["Rose"] and card_gnats(state, "Rose") == 0


# ================================================================ §3 Future: When Showing (and Teleporter)

def test_planet_showing_raises_the_hold_limit_to_2_and_covered_it_is_1(tf_table):
    for stack2, offers in ((["Planet"], "hold Groom"), (["Planet", "Baron"], "hold Groom, returning Fairy")):
        state = tf_table(3, cells={"r2c2": "Groom"}, meeples=APART, zones={"held(1)": ["Fairy"], "stack2(1)": stack2})
        select(state, {1: "play Catch", **RESTS})
        assert offers in state.legal_actions(0)


def test_rocket_showing_adds_one_space_covered_it_adds_none(tf_table):
    for stack2, landing in ((["Rocket"], "r3c1"), (["Rocket", "Fairy"], "r2c1")):
        state = tf_table(3, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"}, hands={1: ["Leap South"]},
                         zones={"stack2(1)": stack2})
        select(state, RESTS)
        assert where(state, 1) == landing, stack2


def test_satellite_gains_1_for_a_rest_alone_and_nothing_extra_with_company(tf_table):
    state = tf_table(3, meeples=APART, zones={"stack2(1)": ["Satellite"]})
    select(state, {1: "play Rest", **RESTS})
    assert seat_gnats(state) == (1, 0, 0)
    state = tf_table(3, meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"}, zones={"stack2(1)": ["Satellite"]})
    select(state, {1: "play Rest", **RESTS})
    assert seat_gnats(state) == (1, 1, 0)


def test_robot_gains_1_per_squander_and_nothing_when_covered(tf_table):
    for stack2, gained in ((["Robot"], 1), (["Robot", "Fairy"], 0)):
        state = tf_table(3, cells={"r2c2": "Planet"}, meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"},
                         zones={"stack2(1)": stack2})
        select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
        assert gnats(state, 1) == gained and gnats(state, 2) == 0


def test_laser_takes_1_from_each_adjacent_space_with_any_after_a_successful_catch(tf_table):
    state = tf_table(3, cells={"r2c2": "Groom", "r1c2": "Bride", "r2c3": "Dandy", "r1c1": "Baron"},
                     meeples=APART, zones={"stack2(1)": ["Laser"]},
                     counters={"gnats": {"cards": {"cell(r2c2)": [1], "cell(r1c2)": [2], "cell(r2c3)": [1],
                                                   "cell(r1c1)": [1]}}})
    select(state, {1: "play Catch", **RESTS})
    assert gnats(state, 1) == 3            # 1 on the Groom, 1 from the Bride, 1 from the Dandy
    assert (card_gnats(state, "Bride"), card_gnats(state, "Dandy"), card_gnats(state, "Baron")) == (1, 0, 1)


def test_time_machine_allows_two_refreshes_and_covered_only_one(tf_table):
    for stack2, refreshes in ((["Time Machine"], 2), (["Time Machine", "Fairy"], 1)):
        state = tf_table(3, hands={1: ["Leap North"]}, zones={"discard(1)": ["Catch", "Rest"],
                                                              "stack2(1)": stack2},
                         counters={"gnats": {"players": {"1": 3}}})
        for _ in range(refreshes):
            assert state.prompt() != "play"
            state.apply(0, state.legal_actions(0)[0])
        assert state.prompt() == "play" and gnats(state, 1) == 3 - refreshes


def test_hoverboard_returns_one_more_card_of_your_choice_after_a_leap_that_moves(tf_table):
    state = tf_table(3, meeples=APART, hands={1: ["Leap North"]},
                     zones={"stack2(1)": ["Hoverboard"], "discard(1)": ["Catch", "Rest", "Gallop", "Leap East"]})
    select(state, RESTS)
    assert state.prompt() == "also return"
    assert sorted(state.legal_actions(0)) == ["also return Gallop", "also return Leap East"]
    state.apply(0, "also return Gallop")
    assert sorted(zone(state, "hand(1)")) == ["Catch", "Gallop", "Rest"]
    # A Leap that does not move returns nothing, Hoverboard included.
    state = tf_table(3, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"}, hands={1: ["Leap West"]},
                     zones={"stack2(1)": ["Hoverboard"], "discard(1)": ["Gallop"]})
    select(state, RESTS)
    assert zone(state, "hand(1)") == [] and state.prompt() == "play"


def test_telescope_owner_sees_the_new_top_card_after_a_draw_and_nobody_else_reads_it(tf_table):
    state = tf_table(3, cells={"r2c2": None}, meeples=APART, zones={"stack2(1)": ["Telescope"]},
                     deck=["Groom", "Bride"], river=["Tycoon", "Duchess", "Prince"])
    assert state.view(0)["zones"]["deck"]["shown"] == [{"card": "Groom", "from_top": 0}]
    select(state, {1: "play Rest", **RESTS})          # the fill draws the Groom into the River
    assert zone(state, "river")[0] == "Groom"
    assert state.view(0)["zones"]["deck"]["shown"] == [{"card": "Bride", "from_top": 0}]
    for seat in (1, 2, None):
        view = json.dumps(state.view(seat)["zones"]["deck"])
        assert "Bride" not in view
        assert "Bride" not in " ".join(state.narration(seat))


@pytest.mark.parametrize("antenna_of, first", [(1, 0), (2, 1)])
def test_antenna_showing_puts_its_owner_first_in_the_gain_order(tf_table, antenna_of, first):
    # Both take a Hat Coupon; without the Antenna player 1 (fewer Frogs) would choose first.
    zones = {"stack2(1)": ["Planet"], "stack2(2)": ["Duchess", "Groom"]}
    zones[f"stack3({antenna_of})"] = ["Antenna"]
    state = tf_table(3, cells={"r1c1": "Hat Coupon", "r4c4": "Hat Coupon"},
                     meeples={1: "r1c1", 2: "r4c4", 3: "r2c2"}, zones=zones)
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    assert state.current_players() == [first]


def test_portal_wraps_only_while_showing(tf_table):
    for stack2, landing in ((["Portal"], "r1c4"), (["Portal", "Fairy"], "r1c1")):
        state = tf_table(3, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"}, hands={1: ["Leap West"]},
                         zones={"stack2(1)": stack2})
        select(state, RESTS)
        assert where(state, 1) == landing


def test_force_field_blocks_steals_only_while_showing(tf_table):
    for stack2, kept in ((["Force Field"], 4), (["Force Field", "Fairy"], 3)):
        state = tf_table(3, meeples={1: "r1c1", 2: "r1c1", 3: "r4c4"},
                         hands={1: ["Leap West", "Steal"], 2: ["Leap West"], 3: ["Rest"]},
                         zones={"stack2(2)": stack2}, counters={"gnats": {"players": {"2": 4}}})
        select(state, {1: "play Leap West + Steal"})
        assert gnats(state, 2) == kept and gnats(state, 1) == 4 - kept


def test_teleporter_when_placed_moves_the_meeple_to_any_space(tf_table):
    state = play_held(tf_table, "Teleporter", 2)
    assert state.prompt() == "move your meeple to" and len(state.legal_actions(0)) == 16
    state.apply(0, "move your meeple to r4c1")
    assert where(state, 1) == "r4c1"


# ================================================================ §3 Fantasy: When Placed

@pytest.mark.parametrize("frog, card, pile_after", [
    ("Unicorn", "Gallop", 2), ("Centaur", "Gallop", 2), ("Pegasus", "Fly", 2), ("Fairy", "Fly", 2),
    ("Goblin", "Steal", 2), ("Imp", "Steal", 2), ("Wizard", "Rearrange", 1), ("Witch", "Rearrange", 1),
    ("Mermaid", "Catch (Fantasy)", 1), ("Dragon", "Fly", 2), ("Leprechaun", "Steal", 2),
])
def test_fantasy_when_placed_gains_its_ability_card(tf_table, frog, card, pile_after):
    state = play_held(tf_table, frog, 2)
    assert zone(state, "hand(1)").count(card) == 1 and zone(state, "abilities").count(card) == pile_after
    assert gnats(state, 1) == (1 if frog == "Leprechaun" else 0)


@pytest.mark.parametrize("frog, card", [("Unicorn", "Gallop"), ("Pegasus", "Fly"), ("Goblin", "Steal"),
                                        ("Wizard", "Rearrange"), ("Mermaid", "Catch (Fantasy)")])
def test_fantasy_when_placed_with_none_left_gains_nothing(tf_table, frog, card):
    copies = {"Gallop": 3, "Fly": 3, "Steal": 3, "Rearrange": 2, "Catch (Fantasy)": 2}[card]
    state = play_held(tf_table, frog, 2, zones={"box": [card] * copies})
    assert zone(state, "hand(1)") == TF_HAND_AFTER_HELD and gnats(state, 1) == 0


TF_HAND_AFTER_HELD = ["Leap North", "Leap South", "Leap East", "Leap West", "Catch", "Rest"]


def test_leprechaun_gains_its_gnat_even_with_no_steal_left(tf_table):
    state = play_held(tf_table, "Leprechaun", 2, zones={"box": ["Steal"] * 3})
    assert gnats(state, 1) == 1 and "Steal" not in zone(state, "hand(1)")


def test_griffin_chooses_among_the_gallops_and_flys_left(tf_table):
    state = play_held(tf_table, "Griffin", 2, zones={"box": ["Fly"] * 3})
    assert zone(state, "hand(1)").count("Gallop") == 1 and zone(state, "abilities") .count("Gallop") == 2
    state = play_held(tf_table, "Griffin", 2)
    assert state.legal_actions(0) == ["gain Gallop", "gain Fly"]
    state.apply(0, "gain Fly")
    assert zone(state, "hand(1)").count("Fly") == 1 and zone(state, "abilities").count("Fly") == 2
    state = play_held(tf_table, "Griffin", 2, zones={"box": ["Fly"] * 3 + ["Gallop"] * 3})
    assert state.prompt() == "play" and zone(state, "hand(1)") == TF_HAND_AFTER_HELD


def test_dragon_with_a_fly_left_gains_the_fly_and_no_gnats(tf_table):
    state = play_held(tf_table, "Dragon", 2, zones={"box": ["Fly", "Fly"]})
    assert zone(state, "hand(1)").count("Fly") == 1 and gnats(state, 1) == 0


def test_genie_chooses_one_card_among_those_left(tf_table):
    state = play_held(tf_table, "Genie", 2, zones={"box": ["Gallop"] * 3 + ["Fly"] * 3 + ["Steal"] * 3})
    assert state.legal_actions(0) == ["gain Rearrange", "gain Catch (Fantasy)"]
    state.apply(0, "gain Rearrange")
    assert zone(state, "hand(1)").count("Rearrange") == 1 and zone(state, "abilities").count("Rearrange") == 1


def test_siren_draws_only_the_adjacent_meeples_onto_your_space(tf_table):
    state = tf_table(4, meeples={1: "r2c2", 2: "r1c2", 3: "r1c1", 4: "r2c3"},
                     hands={2: ["Rest"], 3: ["Rest"], 4: ["Rest"], 1: ["Catch"]},
                     zones={"held(1)": ["Siren"]})
    select(state, {1: "play Siren"})
    state.apply(0, "place Siren on stack 2")
    assert [where(state, s) for s in (1, 2, 3, 4)] == ["r2c2", "r2c2", "r1c1", "r2c2"]


def test_oracle_reorders_the_top_3_and_only_its_owner_sees_them(tf_table):
    state = play_held(tf_table, "Oracle", 2, deck=["Groom", "Bride", "Dandy", "Baron"])
    assert state.prompt() == "put on top"
    assert state.view(0)["zones"]["deck"]["shown"] == [{"card": "Groom", "from_top": 0},
                                                       {"card": "Bride", "from_top": 1},
                                                       {"card": "Dandy", "from_top": 2}]
    state.apply(0, "put on top Bride")      # deepest first
    state.apply(0, "put on top Groom")      # the Dandy, last, goes on top without a question
    assert zone(state, "deck")[-4:] == ["Baron", "Bride", "Groom", "Dandy"]   # Dandy on top
    for seat in (1, 2, None):
        assert "shown" not in state.view(seat)["zones"]["deck"]
        text = " ".join(state.narration(seat))
        assert not any(name in text for name in ("Groom", "Bride", "Dandy", "Baron")), seat
    assert [e["card"] for e in state.view(0)["zones"]["deck"]["shown"]] == ["Dandy", "Groom", "Bride"]


def test_oracle_with_a_short_deck_looks_at_fewer(tf_table):
    state = tf_table(3, meeples=APART, zones={"held(1)": ["Oracle"], "deck": ["Groom", "Bride"]})
    select(state, {1: "play Oracle", **RESTS})
    state.apply(0, "place Oracle on stack 2")
    assert sorted(state.legal_actions(0)) == ["put on top Bride", "put on top Groom"]


# ================================================================ §2 trigger rules

def test_covered_frogs_when_stacked_on_comes_before_the_new_frogs_when_placed(tf_table):
    # Banker with 3 Gnats, Leprechaun placed on it: Banker 3 // 2 = 1 first, then the Leprechaun's 1 -> 5.
    # (The other order would give 3 + 1 = 4, then 4 // 2 = 2 -> 6.)
    state = play_held(tf_table, "Leprechaun", 2, zones={"stack2(1)": ["Banker"]},
                      counters={"gnats": {"players": {"1": 3}}})
    assert gnats(state, 1) == 5


def test_two_identical_abilities_showing_apply_twice(tf_table):
    state = tf_table(3, meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"},
                     zones={"stack2(1)": ["Specimen"], "stack3(1)": ["Clone"]})
    select(state, {1: "play Rest", 2: "play Rest", 3: "play Rest"})
    assert seat_gnats(state) == (3, 1, 0)
    state = tf_table(3, meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"},
                     zones={"stack2(1)": ["Specimen"], "stack3(1)": ["Clone", "Fairy"]})
    select(state, {1: "play Rest", 2: "play Rest", 3: "play Rest"})
    assert seat_gnats(state) == (2, 1, 0)         # the covered Clone no longer counts


def test_when_added_to_pond_in_cleanup_resolves_before_the_next_blank_is_filled(tf_table):
    # Blanks r1c1 and r1c2: the Rose fills r1c1 and puts 2 on itself; then the Flytrap fills r1c2 and
    # gathers them. Were the Rose resolved after, the Flytrap would find nothing.
    state = tf_table(3, cells={"r1c1": None, "r1c2": None}, meeples={1: "r4c4", 2: "r4c4", 3: "r4c4"},
                     river=["Tycoon", "Flytrap", "Rose"])
    select(state, {1: "play Rest", 2: "play Rest", 3: "play Rest"})
    assert cell(state, "r1c1") == ["Rose"] and cell(state, "r1c2") == ["Flytrap"]
    assert card_gnats(state, "Rose") == 0 and card_gnats(state, "Flytrap") == 2


def test_when_added_to_pond_at_setup_resolves_once_each_in_reading_order_wherever_the_card_is(tmp_path):
    # Lotus r1c2 (corners +1), Daisy r1c3 (other Flowers +1), Lavender r2c1 (swaps with the Clover, the card
    # with most Gnats), Poppy r2c2 (no meeple yet: nothing), Iris r3c4 (no River yet: nothing), Clover r4c4:
    # it resolves last, from r2c1 where the Lavender moved it (diagonals r1c2 and r3c2).
    pond = ["Tycoon", "Lotus", "Daisy", "Duchess",
            "Lavender", "Poppy", "Prince", "Banker",
            "Maestro", "Centaur", "Goblin", "Iris",
            "Wizard", "Witch", "Griffin", "Clover"]
    state = stacked_setup(tmp_path, pond)
    layout = {f"r{r}c{c}": cell(state, f"r{r}c{c}")[0] for r in range(1, 5) for c in range(1, 5)}
    assert layout["r2c1"] == "Clover" and layout["r4c4"] == "Lavender"
    got = {name: card_gnats(state, name) for name in layout.values() if card_gnats(state, name)}
    assert got == {"Tycoon": 1, "Lotus": 2, "Duchess": 1, "Lavender": 1, "Poppy": 1, "Iris": 1,
                   "Centaur": 1, "Wizard": 1, "Clover": 2}
    assert all_gnats(state) == 11


def test_when_showing_needs_the_top_of_the_stack_with_no_hat(tf_table):
    for stack2, landing in ((["Rocket"], "r3c1"), (["Rocket", "Top Hat"], "r2c1"), (["Rocket", "Fairy"], "r2c1")):
        state = tf_table(3, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"}, hands={1: ["Leap South"]},
                         zones={"stack2(1)": stack2}, display=("Crown",))
        select(state, RESTS)
        assert where(state, 1) == landing, stack2


def test_a_frog_in_the_pond_or_held_has_no_active_ability(tf_table):
    state = tf_table(3, cells={"r1c1": "Rocket"}, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"},
                     hands={1: ["Leap South"]}, zones={"held(1)": ["Portal"]})
    select(state, {1: "play Leap South", **RESTS})
    assert where(state, 1) == "r2c1"


# ================================================================ §4 Fantasy Frog Ability Cards

def test_gallops_add_up(tf_table):
    state = tf_table(3, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"}, hands={1: ["Leap South", "Gallop", "Gallop"]})
    select(state, {1: "play Leap South + 2 x Gallop", **RESTS})
    assert where(state, 1) == "r4c1" and zone(state, "discard(1)") == ["Leap South", "Gallop", "Gallop"]


def test_a_gallop_past_the_edge_goes_back_while_the_others_move(tf_table):
    # r1c1 south with 3 Gallops: r2c1, then r3c1, r4c1, then the edge (no Whirlpool below c1): 1 Gallop back.
    state = tf_table(3, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"},
                     hands={1: ["Leap South", "Gallop", "Gallop", "Gallop"]})
    select(state, {1: "play Leap South + 3 x Gallop", **RESTS})
    assert where(state, 1) == "r4c1"
    assert zone(state, "hand(1)").count("Gallop") == 1 and zone(state, "discard(1)").count("Gallop") == 2


def test_every_gallop_goes_back_when_the_leap_itself_cannot_move(tf_table):
    state = tf_table(3, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"}, hands={1: ["Leap West", "Gallop", "Gallop"]})
    select(state, {1: "play Leap West + 2 x Gallop", **RESTS})
    assert where(state, 1) == "r1c1"
    assert sorted(zone(state, "hand(1)")) == ["Gallop", "Gallop"] and zone(state, "discard(1)") == ["Leap West"]


def test_a_gallop_with_a_fly_goes_back_to_the_hand(tf_table):
    state = tf_table(3, meeples=APART, hands={1: ["Leap North", "Gallop", "Fly"]})
    select(state, {1: "play Leap North + Gallop, Fly", **RESTS})
    state.apply(0, "fly to r4c1")
    assert where(state, 1) == "r4c1"
    assert zone(state, "hand(1)") == ["Gallop"] and sorted(zone(state, "discard(1)")) == ["Fly", "Leap North"]


def test_a_fly_ignores_the_rocket(tf_table):
    state = tf_table(3, meeples=APART, hands={1: ["Leap North", "Fly"]}, zones={"stack2(1)": ["Rocket"]})
    select(state, {1: "play Leap North + Fly", **RESTS})
    state.apply(0, "fly to r3c3")
    assert where(state, 1) == "r3c3"


def test_a_fly_without_a_leap_does_nothing_and_is_discarded(tf_table):
    state = tf_table(3, meeples=APART, hands={1: ["Rest", "Fly"]})
    select(state, {1: "play Rest + Fly", **RESTS})
    assert state.prompt() == "play" and where(state, 1) == "r2c2"
    assert zone(state, "discard(1)") == ["Rest", "Fly"]


def test_fly_destinations_are_chosen_together_and_secretly(tf_table):
    state = tf_table(3, meeples=APART, hands={1: ["Leap North", "Fly"], 2: ["Leap South", "Fly"], 3: ["Rest"]})
    seen = set()
    for target in ("r4c1", "r1c4"):
        table = tf_table(3, meeples=APART, hands={1: ["Leap North", "Fly"], 2: ["Leap South", "Fly"],
                                                  3: ["Rest", "Leap North"]})
        select(table, {1: "play Leap North + Fly", 2: "play Leap South + Fly", 3: "play Rest"})
        assert table.prompt() == "fly to" and table.current_players() == [0, 1]
        table.apply(0, f"fly to {target}")
        assert table.current_players() == [1]
        seen.add(json.dumps([[table.view(q), table.narration(q)] for q in (1, 2, None)], sort_keys=True))
    assert len(seen) == 1           # what the others see does not depend on player 1's destination
    table.apply(1, "fly to r1c4")
    assert where(table, 1) == "r1c4" and where(table, 2) == "r1c4"


def test_steal_with_a_held_frog_takes_from_each_other_player_on_the_space(tf_table):
    state = tf_table(3, meeples={1: "r2c2", 2: "r2c2", 3: "r2c2"}, hands={1: ["Catch", "Steal"],
                                                                        2: ["Leap West"], 3: ["Leap North"]},
                     zones={"held(1)": ["Fairy"]}, counters={"gnats": {"players": {"2": 2, "3": 0}}})
    select(state, {1: "play Fairy + Steal"})
    state.apply(0, "place Fairy on stack 2")
    # Player 2 Leaps west to r2c1 before the Steal: not on the space any more; player 3 is at r1c2.
    assert seat_gnats(state) == (0, 2, 0)
    state = tf_table(3, meeples={1: "r1c1", 2: "r1c1", 3: "r1c1"}, hands={1: ["Catch", "Steal"],
                                                                        2: ["Leap West"], 3: ["Leap West"]},
                     zones={"held(1)": ["Fairy"]}, counters={"gnats": {"players": {"2": 2, "3": 0}}})
    select(state, {1: "play Fairy + Steal"})
    state.apply(0, "place Fairy on stack 2")
    assert seat_gnats(state) == (1, 1, 0)          # player 3 has no Gnat to lose


def test_several_stealers_resolve_in_the_gain_order(tf_table):
    # Players 1 and 2 each Steal once; player 3 has 1 Gnat. Player 2 (no Frog) comes first in the order.
    state = tf_table(3, meeples={1: "r1c1", 2: "r1c1", 3: "r1c1"},
                     hands={1: ["Leap West", "Steal"], 2: ["Leap West", "Steal"], 3: ["Leap West"]},
                     zones={"stack2(1)": ["Planet"]}, counters={"gnats": {"players": {"3": 1}}})
    select(state, {1: "play Leap West + Steal", 2: "play Leap West + Steal"})
    # Player 2 steals 1 from player 3, then player 1 steals that 1 from player 2.
    assert seat_gnats(state) == (1, 0, 0)


def test_rearrange_returns_no_card_and_the_new_tops_show(tf_table):
    # The Planet under a Fairy is lifted and put back on top: it shows again (hold limit 2 next round).
    state = tf_table(3, meeples=APART, hands={1: ["Rearrange", "Catch (Fantasy)"]},
                     zones={"stack2(1)": ["Planet", "Fairy"], "discard(1)": ["Catch", "Rest"],
                            "held(1)": ["Imp"]}, river=["Tycoon", "Duchess", "Groom"], cells={"r2c2": None})
    select(state, {1: "play Rearrange", **RESTS})
    state.apply(0, "put back Fairy")
    state.apply(0, "put Fairy on stack 2")
    state.apply(0, "put Planet on stack 3")          # the last Frog is put back without a question
    assert zone(state, "stack2(1)") == ["Fairy"] and zone(state, "stack3(1)") == ["Planet"]
    assert sorted(zone(state, "discard(1)")) == ["Catch", "Rearrange", "Rest"]
    assert zone(state, "hand(1)") == ["Catch (Fantasy)"]
    select(state, {1: "play Catch (Fantasy)", 2: "play Leap West", 3: "play Leap East"})
    assert "hold Groom" in state.legal_actions(0)      # two held under a showing Planet


def test_rearrange_when_stuck_restores_every_stack(tf_table):
    # Lifted: Planet (6), Groom (4), Fairy (1); Stack 3 has a Hat, so two places for three Frogs.
    state = tf_table(3, meeples=APART, hands={1: ["Rearrange"]},
                     zones={"stack1(1)": ["Lily Pad #1", "Planet", "Groom"], "stack2(1)": ["Fairy"],
                            "stack3(1)": ["Bride", "Top Hat"]}, display=("Crown",))
    select(state, {1: "play Rearrange", **RESTS})
    state.apply(0, "put back Fairy")
    state.apply(0, "put Fairy on stack 1")
    assert sorted(state.legal_actions(0)) == ["put back Groom", "put back Planet"]
    state.apply(0, "put back Groom")       # its only place, Stack 2, is taken without a question
    # The Planet (6) fits on neither the Fairy (1) nor the Groom (4): stuck, everything returns.
    assert zone(state, "stack1(1)") == ["Lily Pad #1", "Planet", "Groom"]
    assert zone(state, "stack2(1)") == ["Fairy"] and zone(state, "stack3(1)") == ["Bride", "Top Hat"]
    assert zone(state, "lifted(1)") == [] and gnats(state, 1) == 0


def test_the_fantasy_catch_catches_like_the_starting_one(tf_table):
    state = tf_table(3, cells={"r2c2": "Groom"}, meeples=APART, hands={1: ["Catch (Fantasy)"]},
                     counters={"gnats": {"cards": {"cell(r2c2)": [2]}}})
    select(state, RESTS)
    assert gnats(state, 1) == 2
    assert state.legal_actions(0) == ["place Groom on stack 1", "place Groom on stack 2", "hold Groom",
                                      "discard Groom"]


# ================================================================ §5 Hats

HATS = [
    # hat, Stack 2 (the Hat on top is added), hat points
    ("Top Hat", ["Tycoon", "Bride", "Groom", "Dandy"], 7),               # Fancy x4+
    ("Top Hat", ["Tycoon", "Bride", "Rose"], 3),                         # Fancy x2
    ("Flower Crown", ["Rose", "Daisy", "Clover"], 5),                     # Flower x3
    ("Flower Crown", ["Tycoon", "Rose"], 1),
    ("Space Helmet", ["Planet", "Specimen", "Satellite", "Mech"], 7),     # Future x4
    ("Space Helmet", ["Bride"], 0),
    ("Wizard Hat", ["Centaur", "Unicorn", "Fairy"], 5),
    ("Wizard Hat", ["Centaur", "Wizard", "Unicorn", "Fairy", "Leprechaun"], 7),   # x5 is still x4+
    ("Tin Foil Hat", ["Planet", "Centaur"], 2),                          # Future 1 + Fantasy 1
    ("Tin Foil Hat", ["Planet", "Specimen", "Satellite", "Mech", "Unicorn", "Fairy", "Leprechaun"], 8),
    ("Propeller Cap", ["Planet", "Specimen", "Rose", "Daisy"], 4),      # Future x2 2 + Flower x2 2
    ("Propeller Cap", ["Rose", "Daisy", "Clover"], 3),                   # Flower (second) x3+ 3
    ("Bowler Hat", ["Planet", "Tycoon", "Bride", "Groom"], 5),           # Fancy x3 4 + Future x1 1
    ("Bowler Hat", ["Planet", "Specimen", "Satellite"], 3),
    ("Crown", ["Tycoon", "Bride", "Groom", "Dandy", "Unicorn", "Fairy"], 7),   # Fancy x4 5 + Fantasy x2 2
    ("Crown", ["Centaur"], 1),
    ("Bonnet", ["Groom", "Dandy", "Rose", "Daisy", "Clover"], 6),        # S1: Flower x3 4 + Fancy x2 2
    ("Bonnet", ["Tycoon", "Bride", "Groom", "Dandy"], 3),                 # Fancy (second) x3+ 3
    ("Sun Hat", ["Planet", "Rose"], 2),
    ("Sun Hat", ["Planet", "Specimen", "Satellite", "Rose", "Daisy"], 5),  # Flower x2 2 + Future x3 3
    ("Tiara", ["Centaur", "Unicorn", "Tycoon"], 3),                      # Fantasy x2 2 + Fancy x1 1
    ("Tiara", ["Tycoon", "Bride"], 2),
    ("Jester Hat", ["Centaur", "Unicorn", "Witch", "Fairy", "Rose"], 6),  # Fantasy x4 5 + Flower x1 1
    ("Jester Hat", ["Planet"], 0),
]


@pytest.mark.parametrize("hat, frogs, points", HATS, ids=[f"{h}-{i}" for i, (h, _f, _p) in enumerate(HATS)])
def test_hat_scores_its_table(tf_parts, hat, frogs, points):
    state = end_now(None, {"stack2(1)": frogs + [hat]}, table=tf_parts, display=("Crown",) if hat != "Crown"
                    else ("Top Hat",))
    assert parts(state, 1)[1] == points


def test_every_hat_is_in_the_table_above():
    assert {h for h, _f, _p in HATS} == {"Top Hat", "Flower Crown", "Space Helmet", "Wizard Hat", "Tin Foil Hat",
                                         "Propeller Cap", "Bowler Hat", "Crown", "Bonnet", "Sun Hat", "Tiara",
                                         "Jester Hat"}


# ================================================================ §6 Lily Pads

LILY = [
    ("Lily Pad #1", ["Groom", "Dandy", "Fairy"], 4),
    ("Lily Pad #1", ["Planet", "Bride", "Groom", "Dandy"], 0),           # only 2 of weight 4 or less
    ("Lily Pad #1", ["Planet", "Mech", "Dandy", "Fairy"], 4),            # Mech as 3
    ("Lily Pad #2", ["Planet", "Bride", "Groom"], 4),
    ("Lily Pad #2", ["Planet", "Bride", "Dandy"], 0),
    ("Lily Pad #2", ["Planet", "Mech", "Tulip"], 4),                     # Mech as 6, Tulip as 4
    ("Lily Pad #3", ["Witch", "Goblin", "Fairy", "Leprechaun"], 5),      # 3, then 2, 1, 1
    ("Lily Pad #3", ["Groom", "Witch", "Goblin", "Fairy"], 0),
    ("Lily Pad #3", ["Groom", "Tulip", "Goblin", "Fairy"], 5),           # Tulip as 1
    ("Lily Pad #4", ["Planet", "Bride", "Specimen"], 5),
    ("Lily Pad #4", ["Planet", "Mech", "Bride"], 5),                     # Mech as 6
    ("Lily Pad #4", ["Planet", "Bride", "Groom"], 0),
    ("Lily Pad #5", ["Tycoon", "Bride", "Dandy"], 4),
    ("Lily Pad #5", ["Tycoon", "Bride", "Unicorn", "Fairy"], 0),
    ("Lily Pad #6", ["Tycoon", "Mech", "Unicorn"], 4),
    ("Lily Pad #6", ["Tycoon", "Bride", "Unicorn", "Fairy"], 0),
    ("Lily Pad #7", ["Tycoon", "Mech", "Rose", "Unicorn"], 7),
    ("Lily Pad #7", ["Tycoon", "Mech", "Rose", "Sunflower"], 0),
    ("Lily Pad #8", ["Bride", "Prince", "Specimen"], 5),                 # all 5
    ("Lily Pad #8", ["Groom", "Mech", "Tulip"], 0),                      # 4, 3|6, 1|4: never three equal
    ("Lily Pad #8", ["Planet", "Mech", "Tulip", "Fairy"], 0),            # 6, 6, 4 / 1, 1 ... only two equal
    ("Lily Pad #8", ["Planet", "Mech", "Groom", "Tulip"], 0),
    ("Lily Pad #8", ["Planet", "Time Machine", "Mech"], 5),              # 6, 6, 6
    ("Lily Pad #9", ["Planet", "Groom", "Fairy"], 3),
    ("Lily Pad #9", ["Bride", "Prince", "Fairy", "Leprechaun"], 0),      # 5, 5, 1, 1
    ("Lily Pad #10", ["Centaur", "Wizard", "Witch"], 4),                 # values 1, 2, 1
    ("Lily Pad #10", ["Centaur", "Wizard", "Planet"], 0),
    ("Lily Pad #11", ["Tycoon", "Bride", "Groom"], 4),                   # values 5, 4, 4
    ("Lily Pad #11", ["Tycoon", "Bride", "Planet"], 0),
    ("Lily Pad #12", ["Planet", "Bride", "Groom", "Dandy", "Fairy"], 5),
    ("Lily Pad #12", ["Planet", "Bride", "Groom", "Dandy"], 0),
]


@pytest.mark.parametrize("pad, frogs, points", LILY, ids=[f"{p[10:]}-{i}" for i, (p, _f, _x) in enumerate(LILY)])
def test_lily_pad_scores_its_condition(tf_parts, pad, frogs, points):
    state = end_now(None, {"stack1(1)": [pad] + frogs}, table=tf_parts)
    assert parts(state, 1)[2] == points


def test_a_lily_pad_needs_3_frogs_in_its_stack_even_when_they_meet_the_condition_elsewhere(tf_parts):
    state = end_now(None, {"stack1(1)": ["Lily Pad #1", "Fairy", "Leprechaun"], "stack2(1)": ["Witch"]},
                    table=tf_parts)
    assert parts(state, 1)[2] == 0


def test_every_lily_pad_is_in_the_table_above():
    assert {p for p, _f, _x in LILY} == {f"Lily Pad #{i}" for i in range(1, 13)}


def test_when_placed_never_fires_when_the_frog_is_held_or_rearranged(tf_table):
    state = tf_table(3, cells={"r2c2": "Unicorn"}, meeples=APART)
    select(state, {1: "play Catch", **RESTS})
    state.apply(0, "hold Unicorn")
    assert zone(state, "held(1)") == ["Unicorn"] and "Gallop" not in zone(state, "hand(1)")
    state = tf_table(3, meeples=APART, hands={1: ["Rearrange"]}, zones={"stack2(1)": ["Bride", "Unicorn"]})
    select(state, {1: "play Rearrange", **RESTS})
    state.apply(0, "put back Bride")
    state.apply(0, "put Bride on stack 1")
    state.apply(0, "put Unicorn on stack 1")
    assert zone(state, "stack1(1)") == ["Bride", "Unicorn"]
    assert "Gallop" not in zone(state, "hand(1)") and gnats(state, 1) == 0
