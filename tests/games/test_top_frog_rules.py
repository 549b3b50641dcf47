"""Top Frog (definitions/top_frog.yaml): one test per printed rule and per ruling 1-9 of
shared/design/rulings/top_frog.md, each from a hand-built position with its exact outcome.

Positions come from the ``tf_table`` fixture of conftest.py (inert Frogs fill the Pond spaces a test
does not name, every meeple starts on the centre space, hands hold the 6 Starting Action Cards).
Seats are 1-based in zone labels and in the helpers below, 0-based in ``state.apply``.
"""

from __future__ import annotations

import json

import pytest

from conftest import zone  # noqa: F401
from top_frog_helpers import card_gnats, cell, choose, gnats, select, space_gnats, where  # noqa: F401


# The position helpers are shared with the worked-example and card tests.


# ---------------------------------------------------------------- Refresh (ruling 2)

def test_refresh_spends_one_gnat_for_one_discarded_card_once_per_round(tf_table):
    state = tf_table(3, hands={1: ["Leap North", "Leap South", "Leap East", "Leap West"]},
                     zones={"discard(1)": ["Catch", "Rest"]}, counters={"gnats": {"players": {"1": 2}}})
    assert state.current_players() == [0]
    assert state.legal_actions(0) == ["refresh Catch", "refresh Rest", "no refresh"]
    state.apply(0, "refresh Catch")
    assert state.log[-1] == "player 1 refreshes: pays 1 gnat and takes back Catch."  # public
    assert gnats(state, 1) == 1 and zone(state, "discard(1)") == ["Rest"]
    assert "Catch" in zone(state, "hand(1)")
    # Once per round: with a Gnat and a discarded card left, player 1 is not asked again.
    assert state.prompt() == "play"


def test_refresh_is_offered_again_after_another_players_refresh(tf_table):
    state = tf_table(3, zones={"discard(1)": ["Rest"], "discard(2)": ["Rest"]},
                     hands={1: ["Catch"], 2: ["Catch"]},
                     counters={"gnats": {"players": {"1": 1, "2": 1}}})
    state.apply(0, "no refresh")
    state.apply(1, "refresh Rest")     # player 2 refreshes: player 1 is no longer ready
    assert state.current_players() == [0] and state.legal_actions(0) == ["refresh Rest", "no refresh"]
    state.apply(0, "no refresh")
    assert state.prompt() == "play"


def test_time_machine_showing_allows_a_second_refresh(tf_table):
    state = tf_table(3, hands={1: ["Leap North"]}, zones={"discard(1)": ["Catch", "Rest"],
                                                          "stack2(1)": ["Time Machine"]},
                     counters={"gnats": {"players": {"1": 3}}})
    state.apply(0, "refresh Catch")
    state.apply(0, "refresh Rest")
    assert gnats(state, 1) == 1 and zone(state, "discard(1)") == []
    assert state.prompt() == "play"


# ---------------------------------------------------------------- Action Selection and Reveal (ruling 1)

def test_selection_offers_one_action_or_held_frog_plus_any_bonus_cards(tf_table):
    state = tf_table(3, hands={1: ["Leap East", "Catch", "Gallop", "Steal"]}, zones={"held(1)": ["Fairy"]})
    assert state.legal_actions(0) == [
        "play Leap East", "play Leap East + Gallop", "play Leap East + Steal", "play Leap East + Gallop, Steal",
        "play Catch", "play Catch + Gallop", "play Catch + Steal", "play Catch + Gallop, Steal",
        "play Fairy", "play Fairy + Gallop", "play Fairy + Steal", "play Fairy + Gallop, Steal"]


def test_selection_is_secret_until_the_reveal(tf_table):
    seen = set()
    for pick in ("play Catch", "play Rest", "play Leap North"):
        state = tf_table(3)
        state.apply(0, pick)
        assert state.current_players() == [1, 2]
        seen.add(json.dumps([[state.view(q), state.narration(q)] for q in (1, 2, None)], sort_keys=True))
    assert len(seen) == 1   # what the others see does not depend on player 1's pick
    state.apply(1, "play Rest")
    state.apply(2, "play Rest")
    assert "player 1 reveals Leap North." in state.narration(1)
    assert zone(state, "discard(1)") == ["Leap North"]


# ---------------------------------------------------------------- Leaps (ruling 3)

def test_leaps_resolve_simultaneously_and_return_a_catch_and_a_rest(tf_table):
    state = tf_table(3, meeples={1: "r2c2", 2: "r2c3", 3: "r4c4"},
                     hands={1: ["Leap East", "Leap West"], 2: ["Leap West"], 3: ["Rest"]},
                     zones={"discard(1)": ["Catch", "Catch (Fantasy)", "Rest"], "discard(2)": ["Rest"]})
    select(state, {1: "play Leap East"})
    assert where(state, 1) == "r2c3" and where(state, 2) == "r2c2"   # each from where it stood
    assert sorted(zone(state, "hand(1)")) == ["Catch", "Leap West", "Rest"]   # exactly 1 Catch and 1 Rest
    assert sorted(zone(state, "discard(1)")) == ["Catch (Fantasy)", "Leap East"]
    assert zone(state, "hand(2)") == ["Rest"]


def test_a_leap_off_an_edge_without_whirlpool_does_not_move_and_returns_nothing(tf_table):
    state = tf_table(3, meeples={1: "r1c1"}, hands={1: ["Leap West", "Leap South"]},
                     zones={"discard(1)": ["Catch", "Rest"]})
    select(state, {1: "play Leap West", 2: "play Rest", 3: "play Rest"})
    assert where(state, 1) == "r1c1"
    assert zone(state, "hand(1)") == ["Leap South"]
    assert zone(state, "discard(1)") == ["Catch", "Rest", "Leap West"]
    assert "player 1 cannot leap west out of the Pond: no move, nothing returned." in state.log


def test_gallop_moves_one_more_space_and_goes_back_to_hand_when_it_would_leave_the_pond(tf_table):
    # C4: 4x4, meeple on r2c3, Leap East + Gallop: to r2c4; east of it is an edge with no Whirlpool.
    state = tf_table(3, meeples={1: "r2c3"}, hands={1: ["Leap East", "Gallop"]},
                     zones={"discard(1)": ["Catch", "Rest"]})
    select(state, {1: "play Leap East + Gallop", 2: "play Rest", 3: "play Rest"})
    assert where(state, 1) == "r2c4"
    assert sorted(zone(state, "hand(1)")) == ["Catch", "Gallop", "Rest"]
    assert zone(state, "discard(1)") == ["Leap East"]


def test_gallops_add_up_and_rocket_steps_come_first(tf_table):
    # C10: Rocket showing, Leap with 1 Gallop: 3 spaces.
    state = tf_table(3, meeples={1: "r1c1"}, hands={1: ["Leap South", "Gallop"]},
                     zones={"stack2(1)": ["Rocket"]})
    select(state, {1: "play Leap South + Gallop", 2: "play Rest", 3: "play Rest"})
    assert where(state, 1) == "r4c1"
    assert "Gallop" in zone(state, "discard(1)")


def test_gallop_without_a_leap_does_nothing_and_is_discarded(tf_table):
    state = tf_table(3, hands={1: ["Rest", "Gallop"]})
    select(state, {1: "play Rest + Gallop", 2: "play Rest", 3: "play Rest"})
    assert where(state, 1) == "r2c2"
    assert zone(state, "discard(1)") == ["Rest", "Gallop"]


def test_fly_lands_on_any_other_space_chosen_secretly_and_together(tf_table):
    # C5 (without the whirlpool): several Flys are one Fly, all discarded; the Leap returns Catch and Rest.
    state = tf_table(3, hands={1: ["Leap North", "Fly", "Fly"], 2: ["Leap South", "Fly"], 3: ["Rest"]},
                     zones={"discard(1)": ["Catch", "Rest"]})
    select(state, {1: "play Leap North + 2 x Fly", 2: "play Leap South + Fly"})
    assert state.prompt() == "fly to" and state.current_players() == [0, 1]
    assert "fly to r2c2" not in state.legal_actions(0)     # not your own space
    state.apply(0, "fly to r4c4")
    state.apply(1, "fly to r1c1")
    assert where(state, 1) == "r4c4" and where(state, 2) == "r1c1"
    assert sorted(zone(state, "discard(1)")) == ["Fly", "Fly", "Leap North"]
    assert sorted(zone(state, "hand(1)")) == ["Catch", "Rest"]


def test_portal_wraps_a_leap_around_an_edge_without_whirlpool(tf_table):
    state = tf_table(3, meeples={1: "r2c1"}, hands={1: ["Leap West"]}, zones={"stack2(1)": ["Portal"]})
    select(state, {2: "play Rest", 3: "play Rest"})
    assert where(state, 1) == "r2c4"


# ---------------------------------------------------------------- Rest

def test_rest_alone_gains_nothing_and_takes_back_the_other_discarded_cards(tf_table):
    state = tf_table(3, meeples={1: "r1c1"}, hands={1: ["Rest"]},
                     zones={"discard(1)": ["Catch", "Leap North", "Gallop"]})
    select(state, {2: "play Rest", 3: "play Rest"})
    assert gnats(state, 1) == 0
    assert zone(state, "hand(1)") == ["Catch", "Leap North", "Gallop"]
    assert zone(state, "discard(1)") == ["Rest"]


def test_rest_with_another_meeple_on_the_space_gains_1_and_2_if_it_catches_there(tf_table):
    state = tf_table(3, meeples={1: "r2c2", 2: "r2c2", 3: "r2c2"})
    select(state, {1: "play Rest", 2: "play Rest", 3: "play Leap North"})
    assert gnats(state, 1) == 1 and gnats(state, 2) == 1
    state = tf_table(3, meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"})
    select(state, {1: "play Rest", 2: "play Catch", 3: "play Rest"})
    assert gnats(state, 1) == 2 and gnats(state, 3) == 0


def test_specimen_and_satellite_add_to_a_rest(tf_table):
    # S5 variant: a Specimen showing turns 2 into 3; C2: Satellite + Specimen alone: 1 + 1.
    state = tf_table(3, meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"}, zones={"stack2(1)": ["Specimen"]})
    select(state, {1: "play Rest", 2: "play Catch", 3: "play Rest"})
    assert gnats(state, 1) == 3
    state = tf_table(3, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"},
                     zones={"stack2(1)": ["Satellite"], "stack3(1)": ["Specimen"]})
    select(state, {1: "play Rest", 2: "play Rest", 3: "play Rest"})
    assert gnats(state, 1) == 2


# ---------------------------------------------------------------- Catch and Squander

def test_a_lone_catch_takes_the_card_and_its_gnats(tf_table):
    state = tf_table(3, cells={"r2c2": "Planet"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     counters={"gnats": {"cards": {"cell(r2c2)": [2]}}})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert gnats(state, 1) == 2
    assert state.legal_actions(0) == ["place Planet on stack 1", "place Planet on stack 2", "hold Planet",
                                      "discard Planet"]


def test_squander_with_3_players_puts_a_gnat_on_each_orthogonal_neighbour_and_the_frog_stays(tf_table):
    state = tf_table(3, cells={"r2c2": "Planet"}, meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"})
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    assert cell(state, "r2c2") == ["Planet"]
    for sp, name in (("r1c2", cell(state, "r1c2")), ("r3c2", cell(state, "r3c2")),
                     ("r2c1", cell(state, "r2c1")), ("r2c3", cell(state, "r2c3"))):
        assert card_gnats(state, name[0]) == 1, sp
    assert card_gnats(state, cell(state, "r1c1")[0]) == 0      # not diagonal
    assert card_gnats(state, "Planet") == 0                     # not the space itself
    assert zone(state, "discard(1)") == ["Catch"] and zone(state, "discard(2)") == ["Catch"]


def test_squander_on_a_hat_coupon_sends_it_to_the_bottom_of_the_pond_deck(tf_table):
    state = tf_table(3, cells={"r2c2": "Hat Coupon"}, meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"},
                     river=["Tycoon", "Duchess", "Prince"])
    deck_before = len(zone(state, "deck"))
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    assert zone(state, "deck")[0] == "Hat Coupon" and len(zone(state, "deck")) == deck_before   # +1 -1 drawn
    assert cell(state, "r2c2") == ["Prince"]                     # refilled in Cleanup


def test_squander_with_2_players_sends_the_frog_to_the_bottom_too(tf_table):
    state = tf_table(2, cells={"r2c2": "Planet"}, meeples={1: "r2c2", 2: "r2c2"},
                     river=["Tycoon", "Duchess", "Prince"])
    select(state, {1: "play Catch", 2: "play Catch"})
    assert zone(state, "deck")[0] == "Planet"
    assert cell(state, "r2c2") == ["Prince"]


def test_robot_gains_a_gnat_when_its_owner_is_in_a_squander(tf_table):
    state = tf_table(3, cells={"r2c2": "Planet"}, meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"},
                     zones={"stack2(1)": ["Robot"]})
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    assert gnats(state, 1) == 1 and gnats(state, 2) == 0


# ---------------------------------------------------------------- Gaining a Frog: place, hold, discard

def test_place_follows_the_weight_rule_and_the_three_stack_limit(tf_table):
    # S2: Stack 1 Pegasus (4), Stack 2 Bride (5), Stack 3 Rose, Flytrap (2); the Unicorn (3) is caught.
    state = tf_table(3, cells={"r2c2": "Unicorn"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"stack1(1)": ["Lily Pad #1", "Pegasus"], "stack2(1)": ["Bride"],
                            "stack3(1)": ["Rose", "Flytrap"]})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert state.legal_actions(0) == ["place Unicorn on stack 1", "place Unicorn on stack 2", "hold Unicorn",
                                      "discard Unicorn"]
    state.apply(0, "place Unicorn on stack 1")
    assert zone(state, "stack1(1)") == ["Lily Pad #1", "Pegasus", "Unicorn"]
    assert "Gallop" in zone(state, "hand(1)") and zone(state, "abilities").count("Gallop") == 2


def test_the_covered_frogs_when_stacked_on_comes_before_the_new_frogs_when_placed(tf_table):
    state = tf_table(3, cells={"r2c2": "Unicorn"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"stack2(1)": ["Bride"]})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    state.apply(0, "place Unicorn on stack 2")
    i, j = state.log.index("player 1 gains 2 gnats."), state.log.index("player 1 gains Gallop.")
    assert i < j and gnats(state, 1) == 2


def test_two_weight_frogs_use_the_lighter_weight_to_go_on_and_the_heavier_to_hold(tf_table):
    # S6: Unicorn (3), Mech (3/6) on it, the Planet (6) on the Mech; the Planet never directly on the Unicorn.
    state = tf_table(3, cells={"r2c2": "Planet"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"stack1(1)": ["Lily Pad #1", "Duchess"], "stack2(1)": ["Unicorn", "Mech"],
                            "stack3(1)": ["Unicorn"][:0] + ["Fairy"]})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert state.legal_actions(0)[:2] == ["place Planet on stack 1", "place Planet on stack 2"]
    assert "place Planet on stack 3" not in state.legal_actions(0)


def test_hold_up_to_the_limit_then_replace_sending_the_old_frog_to_the_bottom(tf_table):
    state = tf_table(3, cells={"r2c2": "Groom"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"held(1)": ["Fairy"]})
    select(state, {1: "play Leap North", 2: "play Rest", 3: "play Rest"})
    state = tf_table(3, cells={"r2c2": "Groom"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"held(1)": ["Fairy"]})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert state.legal_actions(0) == ["place Groom on stack 1", "place Groom on stack 2",
                                      "hold Groom, returning Fairy", "discard Groom"]
    state.apply(0, "hold Groom, returning Fairy")
    assert zone(state, "held(1)") == ["Groom"] and zone(state, "deck")[0] == "Fairy"


def test_planet_raises_the_hold_limit_and_over_the_limit_nothing_is_held(tf_table):
    state = tf_table(3, cells={"r2c2": "Groom"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"held(1)": ["Fairy"], "stack2(1)": ["Planet"]})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert "hold Groom" in state.legal_actions(0)
    # C3: two held under a covered Planet: no hold, no replace; place and discard still allowed.
    state = tf_table(3, cells={"r2c2": "Groom"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"held(1)": ["Fairy", "Imp"], "stack2(1)": ["Planet", "Baron"]})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert state.legal_actions(0) == ["place Groom on stack 1", "place Groom on stack 3", "discard Groom"]


def test_discard_puts_the_frog_at_the_bottom_of_the_pond_deck(tf_table):
    state = tf_table(3, cells={"r2c2": "Groom"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    state.apply(0, "discard Groom")
    assert zone(state, "deck")[0] == "Groom"


def test_a_held_frog_is_played_as_the_action_and_placed(tf_table):
    state = tf_table(3, hands={1: ["Catch"]}, zones={"held(1)": ["Unicorn"], "stack2(1)": ["Bride"]},
                     meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"})
    select(state, {1: "play Unicorn", 2: "play Rest", 3: "play Rest"})
    assert state.legal_actions(0) == ["place Unicorn on stack 1", "place Unicorn on stack 2",
                                      "place Unicorn on stack 3"]
    state.apply(0, "place Unicorn on stack 2")
    assert zone(state, "stack2(1)") == ["Bride", "Unicorn"] and gnats(state, 1) == 2
    assert zone(state, "held(1)") == [] and zone(state, "discard(1)") == []


# ---------------------------------------------------------------- Hats

def test_a_hat_coupon_is_never_held_the_hat_goes_on_top_and_the_coupon_to_the_box(tf_table):
    state = tf_table(3, cells={"r2c2": "Hat Coupon"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"stack1(1)": ["Lily Pad #1"], "stack2(1)": ["Planet", "Mech"],
                            "stack3(1)": ["Bride", "Top Hat"]}, display=("Crown", "Tiara"))
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert state.legal_actions(0) == ["take Crown", "take Tiara"]
    state.apply(0, "take Crown")    # stack 2 is the only Stack with a Frog and no Hat: no question
    assert zone(state, "stack2(1)") == ["Planet", "Mech", "Crown"]
    assert zone(state, "hat_display") == ["Tiara"] and "Hat Coupon" in zone(state, "box")
    assert "player 1 puts Crown on stack 2." in state.log


def test_a_hat_on_a_frog_stops_its_when_showing(tf_table):
    # The Planet under a Hat no longer raises the hold limit: 2 held, nothing more can be held.
    state = tf_table(3, cells={"r2c2": "Groom"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"stack2(1)": ["Planet", "Top Hat"], "held(1)": ["Fairy", "Imp"]}, display=("Crown",))
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert state.legal_actions(0) == ["place Groom on stack 1", "place Groom on stack 3", "discard Groom"]


def test_with_no_stack_holding_a_frog_the_coupon_goes_to_the_bottom_of_the_pond_deck(tf_table):
    state = tf_table(3, cells={"r2c2": "Hat Coupon"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"stack1(1)": ["Lily Pad #1"]})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert zone(state, "deck")[0] == "Hat Coupon"
    assert zone(state, "hat_display") == ["Top Hat", "Crown", "Tiara"]
    assert "player 1 cannot place a Hat: Hat Coupon goes to the bottom of the Pond Deck." in state.log


def two_coupons(tf_table, seed=0, zones=None, **extra):
    laid = {"stack2(1)": ["Planet"], "stack2(2)": ["Duchess"]}
    laid.update(zones or {})
    return tf_table(3, cells={"r1c1": "Hat Coupon", "r4c4": "Hat Coupon"},
                    meeples={1: "r1c1", 2: "r4c4", 3: "r2c2"}, zones=laid, seed=seed, **extra)


def test_hat_choice_goes_to_the_player_with_fewer_hats_first(tf_table):
    state = two_coupons(tf_table, zones={"stack3(1)": ["Bride", "Bonnet"]})
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    assert state.current_players() == [1]          # player 2 has no Hat: first
    state.apply(1, "take Crown")
    assert state.legal_actions(0) == ["take Top Hat", "take Tiara"]


def test_hat_choice_tie_goes_to_fewer_frogs_in_the_tallest_stack_then_in_all(tf_table):
    state = two_coupons(tf_table, zones={"stack2(1)": ["Planet", "Mech"]})
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    assert state.current_players() == [1]          # tallest 2 against 1
    state = two_coupons(tf_table, zones={"stack3(1)": ["Groom"]})
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    assert state.current_players() == [1]          # tallest 1 each; 2 Frogs in all against 1


def test_hat_choice_full_tie_is_a_seeded_coin(tf_table):
    firsts = set()
    for seed in range(12):
        state = two_coupons(tf_table, seed=seed)
        select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
        firsts.add(state.current_players()[0])
        again = two_coupons(tf_table, seed=seed)
        select(again, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
        assert again.current_players() == state.current_players()    # the same seed, the same coin
    assert firsts == {0, 1}


def test_antenna_showing_comes_first_in_the_gain_order(tf_table):
    state = two_coupons(tf_table, zones={"stack3(1)": ["Antenna"], "stack1(1)": ["Lily Pad #1", "Groom", "Bonnet"]})
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    assert state.current_players() == [0]          # more Hats and taller, but the Antenna goes first


# ---------------------------------------------------------------- Cleanup

def test_cleanup_fills_blanks_in_reading_order_from_the_right_of_the_river_with_slide_and_draw(tf_table):
    # S4: blanks r3c4 and r4c4; River Lotus, Hat Coupon, Dandelion (1 Gnat); deck Rose then Poppy.
    state = tf_table(3, cells={"r3c4": None, "r4c4": None, "r2c4": "Groom", "r3c3": "Bride"},
                     meeples={1: "r1c1", 2: "r1c1", 3: "r4c4"},
                     river=["Lotus", "Hat Coupon", "Dandelion"], deck=["Rose", "Poppy"],
                     counters={"gnats": {"cards": {"river": [0, 0, 1]}}})
    select(state, {1: "play Rest", 2: "play Rest", 3: "play Rest"})
    assert cell(state, "r3c4") == ["Dandelion"] and cell(state, "r4c4") == ["Hat Coupon"]
    assert zone(state, "river") == ["Poppy", "Rose", "Lotus"]
    assert card_gnats(state, "Dandelion") == 2 and card_gnats(state, "Hat Coupon") == 1
    assert card_gnats(state, "Groom") == 1 and card_gnats(state, "Bride") == 1
    assert card_gnats(state, "Lotus") == 0 and space_gnats(state, "r4c4") == 0
    assert where(state, 3) == "r4c4"                 # the meeple stayed on the space
    log = state.log
    assert log.index("Dandelion fills r3c4.") < log.index("Dandelion puts 4 gnats into the Pond.") \
        < log.index("Hat Coupon fills r4c4.")


def test_cleanup_discards_the_played_cards(tf_table):
    state = tf_table(3, hands={1: ["Catch", "Steal", "Fly"]}, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"})
    select(state, {1: "play Catch + Steal, Fly", 2: "play Rest", 3: "play Rest"})
    state.apply(0, "discard Tycoon")
    assert zone(state, "discard(1)") == ["Catch", "Steal", "Fly"]


# ---------------------------------------------------------------- Steal

def test_steals_come_at_the_very_end_of_the_round_after_the_rest_gains(tf_table):
    # C6-like: two Steals; player 2 has 1 Gnat after Resting, player 3 has a Force Field showing.
    state = tf_table(3, hands={1: ["Rest", "Steal", "Steal"]}, meeples={1: "r2c2", 2: "r2c2", 3: "r2c2"},
                     zones={"stack2(3)": ["Force Field"]}, counters={"gnats": {"players": {"3": 4}}})
    select(state, {1: "play Rest + 2 x Steal", 2: "play Rest", 3: "play Rest"})
    assert (gnats(state, 1), gnats(state, 2), gnats(state, 3)) == (2, 0, 5)
    assert "player 1 steals 1 gnat from player 2." in state.log
    assert state.log.index("player 1 steals 1 gnat from player 2.") > \
        max(i for i, line in enumerate(state.log) if line.endswith(" fills r2c2.") or line == "player 3 gains 1 gnat.")


# ---------------------------------------------------------------- Game end (ruling 6)

def test_the_game_ends_at_once_when_the_pond_needs_a_card_and_the_river_is_empty(tf_table):
    state = tf_table(3, cells={"r2c2": "Planet"}, meeples={1: "r2c2", 2: "r2c2", 3: "r2c2"},
                     hands={1: ["Catch"], 2: ["Rest", "Steal"], 3: ["Rest"]}, river=[],
                     counters={"gnats": {"players": {"1": 3}}})
    select(state, {2: "play Rest + Steal"})
    state.apply(0, "place Planet on stack 2")
    assert state.is_terminal() and state.ended_by == "end game"
    assert gnats(state, 1) == 3                      # no Steal after an immediate end
    assert state.log[-1] == "The Pond needs a card but The River is empty: the game ends."


def test_the_game_ends_after_the_round_in_which_the_last_hat_is_gained(tf_table):
    state = tf_table(3, cells={"r2c2": "Hat Coupon"}, meeples={1: "r2c2", 2: "r2c2", 3: "r4c4"},
                     hands={1: ["Catch"], 2: ["Rest", "Steal"]}, zones={"stack2(1)": ["Planet"]},
                     display=("Crown",), counters={"gnats": {"players": {"1": 1}}})
    select(state, {2: "play Rest + Steal", 3: "play Rest"})
    assert state.is_terminal()
    assert zone(state, "stack2(1)") == ["Planet", "Crown"]
    assert (gnats(state, 1), gnats(state, 2)) == (0, 3)      # Rest 2, then the Steal of the same round
    assert state.log[-1] == "Every Hat is gained: the game ends."


def test_three_hats_end_the_game_after_the_next_round(tf_table):
    state = tf_table(3, cells={"r2c2": "Hat Coupon"}, meeples={1: "r2c2", 2: "r1c1", 3: "r4c4"},
                     zones={"stack1(1)": ["Lily Pad #1", "Groom", "Top Hat"], "stack2(1)": ["Planet", "Tiara"],
                            "stack3(1)": ["Bride"]}, display=("Crown", "Bonnet"))
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    state.apply(0, "take Crown")
    assert "A player has 3 Hats: the next round is the last." in state.log
    assert not state.is_terminal()
    select(state, {1: "play Rest", 2: "play Leap North", 3: "play Leap South"})
    assert state.is_terminal()
    assert state.log[-1] == "The round after a third Hat is over: the game ends."


# ---------------------------------------------------------------- Scoring (ruling 7)

def final_scores(tf_table, zones, counters=None, display=("Crown",), players=3):
    """Score a position: everyone Catches the Hat Coupon on r2c2, a Squander sends it to the Pond Deck,
    and its refill finds the River empty: the game ends at once."""
    hands = {s: ["Catch"] for s in range(1, players + 1)}
    meeples = {s: "r2c2" for s in range(1, players + 1)}
    state = tf_table(players, cells={"r2c2": "Hat Coupon"}, meeples=meeples, hands=hands,
                     zones=zones, river=[], counters=counters, display=display)
    assert state.is_terminal(), state.legal_actions()
    return state


def test_scoring_adds_frogs_hats_lily_pad_and_gnats(tf_table):
    # S1: 18 + Lily Pad #1 4 + Bonnet (Flower x3 -> 4, Fancy x2 -> 2) 6 + 3 Gnats = 31.
    state = final_scores(tf_table, {"stack1(1)": ["Lily Pad #1", "Groom", "Dandy", "Rose", "Daisy", "Clover", "Bonnet"],
                                    "stack2(1)": ["Planet"]},
                         counters={"gnats": {"players": {"1": 3}}})
    assert state.scores()[0] == 31


def test_ties_go_to_most_hats_then_the_tallest_stack_then_shared(tf_table):
    state = final_scores(tf_table, {"stack1(1)": ["Groom"], "stack1(2)": ["Bride"], "stack1(3)": ["Dandy"]})
    assert state.scores() == [4, 4, 4] and sorted(state.winners()) == [0, 1, 2]
    state = final_scores(tf_table, {"stack1(1)": ["Groom"], "stack1(2)": ["Unicorn", "Leprechaun"],
                                    "stack1(3)": ["Dandy"]}, counters={"gnats": {"players": {"2": 1}}})
    assert state.scores() == [4, 4, 4] and state.winners() == [1]            # the tallest stack
    state = final_scores(tf_table, {"stack1(1)": ["Groom"], "stack1(2)": ["Unicorn", "Leprechaun"],
                                    "stack1(3)": ["Fairy", "Wizard Hat"]},
                         counters={"gnats": {"players": {"2": 1, "3": 1}}})
    assert state.scores() == [4, 4, 4] and state.winners() == [2]            # most Hats first


# ---------------------------------------------------------------- Whirlpools (top_frog.md, Reconstructed)

@pytest.mark.parametrize("players, start, action, landing", [
    (3, "r1c3", "Leap North", "r4c3"), (3, "r4c3", "Leap South", "r1c3"),
    (3, "r3c1", "Leap West", "r3c4"), (3, "r3c4", "Leap East", "r3c1"),
    (2, "r1c2", "Leap North", "r3c2"), (2, "r2c3", "Leap East", "r2c1"),
    (6, "r3c1", "Leap West", "r3c5"), (6, "r5c3", "Leap South", "r1c3"),
])
def test_a_leap_onto_a_whirlpool_lands_beside_the_opposite_one(tf_table, players, start, action, landing):
    hands = {s: ["Rest"] for s in range(1, players + 1)}
    hands[1] = [action]
    state = tf_table(players, meeples={1: start}, hands=hands, zones={"discard(1)": ["Catch", "Rest"]})
    assert where(state, 1) == landing
    assert sorted(zone(state, "hand(1)")) == ["Catch", "Rest"]


def test_whirlpools_add_no_adjacency_for_a_squander(tf_table):
    # r1c3 on 4x4: its neighbours are r1c2, r1c4 and r2c3; the space beyond the North Whirlpool is not one.
    state = tf_table(3, meeples={1: "r1c3", 2: "r1c3", 3: "r2c2"})
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    gnat_cards = {name for sp in ("r1c2", "r1c4", "r2c3") for name in cell(state, sp)}
    assert all(card_gnats(state, n) == 1 for n in gnat_cards)
    assert card_gnats(state, cell(state, "r4c3")[0]) == 0


def test_gallop_carries_on_through_a_whirlpool(tf_table):
    state = tf_table(3, meeples={1: "r1c3"}, hands={1: ["Leap North", "Gallop"], 2: ["Rest"], 3: ["Rest"]})
    select(state, {1: "play Leap North + Gallop"})
    assert where(state, 1) == "r3c3"


def test_fly_onto_a_whirlpool_lands_beside_the_opposite_one(tf_table):
    # C5: two Flys with a Leap, destination the West Whirlpool: one Fly, the meeple on r3c4, both discarded.
    state = tf_table(3, meeples={1: "r3c4"}, hands={1: ["Leap North", "Fly", "Fly"], 2: ["Rest"], 3: ["Rest"]})
    select(state, {1: "play Leap North + 2 x Fly"})
    assert "fly to r3c4" in state.legal_actions(0)      # own space, reached through the West Whirlpool
    state.apply(0, "fly to r3c4")
    assert where(state, 1) == "r3c4"
    assert sorted(zone(state, "discard(1)")) == ["Fly", "Fly", "Leap North"]


# ---------------------------------------------------------------- Gain order (ruling 8)

def test_gains_resolve_one_player_at_a_time_in_the_who_chooses_first_order(tf_table):
    state = tf_table(3, cells={"r1c1": "Groom", "r4c4": "Bride"}, meeples={1: "r1c1", 2: "r4c4", 3: "r2c2"},
                     zones={"stack2(1)": ["Planet", "Top Hat"]}, display=("Crown",))
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    # both Catches are determined before any gain: both cards have left the Pond
    assert zone(state, "caught(1)") == ["Groom"] and zone(state, "caught(2)") == ["Bride"]
    assert cell(state, "r1c1") == [] and cell(state, "r4c4") == []
    assert state.current_players() == [1]                # player 2 (no Hat) resolves in full first
    state.apply(1, "hold Bride")
    assert state.current_players() == [0]
    state.apply(0, "hold Groom")
    assert zone(state, "held(1)") == ["Groom"] and zone(state, "held(2)") == ["Bride"]


def test_steals_resolve_in_the_gain_order(tf_table):
    # Player 2 (no Hat) steals first: player 1's only Gnat; then player 1 steals it back.
    state = tf_table(3, meeples={1: "r1c1", 2: "r1c1", 3: "r4c4"},
                     hands={1: ["Leap North", "Steal"], 2: ["Leap North", "Steal"], 3: ["Rest"]},
                     zones={"stack2(1)": ["Planet", "Top Hat"]}, display=("Crown",),
                     counters={"gnats": {"players": {"1": 1}}})
    select(state, {1: "play Leap North + Steal", 2: "play Leap North + Steal"})
    assert state.log[-3:-1] == ["player 2 steals 1 gnat from player 1.", "player 1 steals 1 gnat from player 2."]
    assert (gnats(state, 1), gnats(state, 2)) == (1, 0)
