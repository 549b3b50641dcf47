"""Top Frog: the worked examples of shared/design/rulings/top_frog_cards.md §8 (S1-S6) and its
clarification checks C1-C10, each from a hand-built position with its exact outcome.

Positions come from conftest's ``tf_table`` (see tests/top_frog_helpers.py for the helpers and the
score-parts variant ``tf_parts``). Seats are 1-based in the helpers and zone labels.
"""

from __future__ import annotations

import pytest

from top_frog_helpers import (APART, all_gnats, card_gnats, catch_and_place, cell, choose, end_now, gnats,
                              on, parts, play_held, select, space_gnats, tf_parts, where, zone)

__all__ = ["tf_parts"]   # the fixture, imported for pytest

# Players 2 (on r1c1) and 3 (on r4c4) of APART idle in the rounds between Rests: a Leap off an edge with
# no Whirlpool moves nowhere and returns nothing; the next Rest takes the Leap back.
IDLE = {2: "play Leap West", 3: "play Leap East"}
IDLE2 = {2: "play Leap North", 3: "play Leap South"}


# ---------------------------------------------------------------- S1: scoring, total 31

S1_STACKS = {"stack1(1)": ["Lily Pad #1", "Groom", "Dandy", "Rose", "Daisy", "Clover", "Bonnet"],
             "stack2(1)": ["Planet"]}


def test_s1_scoring_is_18_frogs_4_lily_pad_6_bonnet_3_gnats_total_31(tf_parts):
    state = end_now(None, S1_STACKS, counters={"gnats": {"players": {"1": 3}}}, table=tf_parts)
    assert parts(state, 1) == (18, 6, 4, 3)


def test_s1_total_is_31_in_the_real_game(tf_table):
    state = end_now(tf_table, S1_STACKS, counters={"gnats": {"players": {"1": 3}}})
    assert state.scores()[0] == 31


# ---------------------------------------------------------------- S2: Unicorn placement

S2_STACKS = {"stack1(1)": ["Lily Pad #1", "Pegasus"], "stack2(1)": ["Bride"], "stack3(1)": ["Rose", "Flytrap"]}


def s2(tf_table, river=None, zones=None):
    laid = dict(S2_STACKS)
    laid.update(zones or {})
    state = tf_table(3, cells={"r2c2": "Unicorn"}, meeples=APART, zones=laid, river=river)
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    return state


def test_s2_unicorn_offers_stack_1_stack_2_hold_discard_only(tf_table):
    state = s2(tf_table)
    # Stack 3 is illegal (3 > Flytrap's 2); no new Stack (already 3).
    assert state.legal_actions(0) == ["place Unicorn on stack 1", "place Unicorn on stack 2", "hold Unicorn",
                                      "discard Unicorn"]


def test_s2_unicorn_on_stack_1_gives_a_gallop_and_the_pile_drops_from_3_to_2(tf_table):
    state = s2(tf_table)
    assert zone(state, "abilities").count("Gallop") == 3
    state.apply(0, "place Unicorn on stack 1")
    assert zone(state, "stack1(1)") == ["Lily Pad #1", "Pegasus", "Unicorn"]
    assert zone(state, "abilities").count("Gallop") == 2
    assert zone(state, "hand(1)").count("Gallop") == 1
    assert gnats(state, 1) == 0                       # the Pegasus has no When Stacked On


def test_s2_later_round_groom_on_bride_gives_4_gnats(tf_table):
    # The River's rightmost card (the Groom) fills r2c2 in Cleanup; next round the player Catches it.
    state = s2(tf_table, river=["Tycoon", "Duchess", "Groom"],
               zones={"hand(1)": ["Catch", "Catch (Fantasy)", "Leap North"]})
    state.apply(0, "place Unicorn on stack 1")
    assert cell(state, "r2c2") == ["Groom"]
    select(state, {1: "play Catch (Fantasy)", **IDLE})
    choose(state, {1: "place Groom on stack 2"})
    assert zone(state, "stack2(1)") == ["Bride", "Groom"]
    assert gnats(state, 1) == 4


def test_s2_variant_unicorn_on_the_bride_gives_2_gnats_first_then_the_gallop(tf_table):
    state = s2(tf_table)
    state.apply(0, "place Unicorn on stack 2")
    assert gnats(state, 1) == 2 and zone(state, "hand(1)").count("Gallop") == 1
    assert state.log.index("player 1 gains 2 gnats.") < state.log.index("player 1 gains Gallop.")


def test_s2_variant_gallop_pile_empty_the_unicorn_gives_nothing(tf_table):
    state = s2(tf_table, zones={"box": ["Gallop", "Gallop", "Gallop"]})
    hand = sorted(zone(state, "hand(1)"))
    state.apply(0, "place Unicorn on stack 1")
    assert sorted(zone(state, "hand(1)")) == hand and gnats(state, 1) == 0
    assert "No gallop card is left for player 1." in state.log


# ---------------------------------------------------------------- S3: Tin Foil Hat

S3_STACKS = {"stack1(1)": ["Lily Pad #2", "Planet", "Mech", "Specimen", "Unicorn", "Fairy", "Leprechaun"],
             "stack2(1)": ["Bride", "Groom", "Rose"]}


def s3(table, stack):
    state = table(3, cells={"r2c2": "Hat Coupon"}, meeples=APART, zones=dict(S3_STACKS),
                  display=("Tin Foil Hat",))
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    # The only Hat on display is taken without a question; then: which Stack?
    assert state.legal_actions(0) == ["put Tin Foil Hat on stack 1", "put Tin Foil Hat on stack 2"]
    state.apply(0, f"put Tin Foil Hat on stack {stack}")
    return state


def test_s3_tin_foil_hat_on_stack_1_scores_7_token_on_the_leprechaun(tf_parts):
    state = s3(tf_parts, 1)
    assert zone(state, "stack1(1)")[-2:] == ["Leprechaun", "Tin Foil Hat"]
    assert "Hat Coupon" in zone(state, "box") and zone(state, "hat_display") == []
    assert state.is_terminal()                         # every Hat gained: the game ends after the round
    assert parts(state, 1)[1] == 7                      # Future x3 -> 4, Fantasy x3 -> 3


def test_s3_tin_foil_hat_on_stack_2_scores_0(tf_parts):
    state = s3(tf_parts, 2)
    assert zone(state, "stack2(1)") == ["Bride", "Groom", "Rose", "Tin Foil Hat"]
    assert parts(state, 1)[1] == 0


# ---------------------------------------------------------------- S4: Dandelion cleanup

def s4(tf_table):
    return tf_table(3, cells={"r3c4": None, "r4c4": None, "r2c4": "Groom", "r3c3": "Bride"},
                    meeples={1: "r1c1", 2: "r1c2", 3: "r2c1"},
                    river=["Lotus", "Hat Coupon", "Dandelion"], deck=["Rose", "Poppy"],
                    counters={"gnats": {"cards": {"river": [0, 0, 1]}}})


def test_s4_dandelion_cleanup_every_number(tf_table):
    state = s4(tf_table)
    before = all_gnats(state)
    select(state, {1: "play Rest", 2: "play Rest", 3: "play Rest"})
    assert cell(state, "r3c4") == ["Dandelion"] and cell(state, "r4c4") == ["Hat Coupon"]
    assert card_gnats(state, "Dandelion") == 2         # its own, plus the east Gnat (edge beside the Whirlpool)
    assert card_gnats(state, "Hat Coupon") == 1        # the blank space's Gnat, taken by the card
    assert space_gnats(state, "r4c4") == 0
    assert card_gnats(state, "Groom") == 1 and card_gnats(state, "Bride") == 1     # r2c4 and r3c3
    assert zone(state, "river") == ["Poppy", "Rose", "Lotus"]
    assert card_gnats(state, "Lotus") == 0 and card_gnats(state, "Rose") == 0     # the Lotus did nothing
    assert all_gnats(state) - before == 4


def test_s4_the_river_slides_and_draws_before_the_dandelion_resolves(tf_table):
    state = s4(tf_table)
    rest = {1: "play Rest", 2: "play Rest", 3: "play Rest"}
    select(state, rest)
    log = state.log
    assert log.index("Dandelion fills r3c4.") < log.index("Dandelion puts 4 gnats into the Pond.") \
        < log.index("Hat Coupon fills r4c4.")


# ---------------------------------------------------------------- S5: Planet refresh

def s5(tf_table, pink_hand=None, zones=None, players=3):
    laid = {"discard(1)": ["Catch"], "stack1(1)": ["Lily Pad #1"], "held(1)": ["Fairy"]}
    laid.update(zones or {})
    hands = {1: ["Leap North", "Leap South", "Leap East", "Leap West", "Rest", "Catch (Fantasy)"]}
    if pink_hand:
        hands[2] = pink_hand
    meeples = {1: "r2c2", 2: "r2c2", 3: "r4c4"} if players == 3 else {1: "r2c2", 2: "r2c2"}
    return tf_table(players, cells={"r2c2": "Planet"}, meeples=meeples, hands=hands, zones=laid,
                    river=["Tycoon", "Duchess", "Groom"], counters={"gnats": {"players": {"1": 1}}})


def test_s5_planet_refresh_round(tf_table):
    state = s5(tf_table)
    # 1. Green Refreshes: 1 Gnat for the Catch, in public.
    assert state.current_players() == [0] and state.legal_actions(0) == ["refresh Catch", "no refresh"]
    state.apply(0, "refresh Catch")
    assert gnats(state, 1) == 0 and "Catch" in zone(state, "hand(1)") and zone(state, "discard(1)") == []
    for seat in (1, 2, None):
        assert "player 1 refreshes: pays 1 gnat and takes back Catch." in state.narration(seat)
    # 2-3. Green Catch, Pink Rest, Blue a Leap; Reveal; Leaps.
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Leap North"})
    assert where(state, 3) == "r3c4"
    # 4. Pink: +1 (Green on the space) +1 (Green Catches there).
    assert gnats(state, 2) == 2
    # 5. Green is the only catcher and gains the Planet with 0 Gnats.
    assert gnats(state, 1) == 0
    state.apply(0, "place Planet on stack 1")
    assert zone(state, "stack1(1)") == ["Lily Pad #1", "Planet"]
    # 6. Cleanup: the River's rightmost card fills r2c2, both meeples stand on it.
    assert cell(state, "r2c2") == ["Groom"]
    assert sorted(zone(state, "stand(r2c2)")) == ["meeple 1", "meeple 2"]
    # Pink took back her other discarded cards: her Rest alone is in the discard pile.
    assert zone(state, "discard(2)") == ["Rest"]
    # The hold limit is now 2: Green Catches the Groom and may hold it beside the Fairy.
    choose(state, {2: "no refresh"})
    select(state, {1: "play Catch (Fantasy)", 2: "play Leap North", 3: "play Rest"})
    assert state.legal_actions(0) == ["place Groom on stack 1", "place Groom on stack 2", "hold Groom",
                                      "discard Groom"]


def test_s5_variant_pink_catches_too_squander_puts_a_gnat_on_the_four_neighbours(tf_table):
    state = s5(tf_table)
    state.apply(0, "refresh Catch")
    around = {sp: cell(state, sp)[0] for sp in ("r1c2", "r3c2", "r2c1", "r2c3")}
    diagonal = cell(state, "r1c1")[0]
    select(state, {1: "play Catch", 2: "play Catch", 3: "play Rest"})
    assert {sp: card_gnats(state, name) for sp, name in around.items()} == {sp: 1 for sp in around}
    assert card_gnats(state, diagonal) == 0 and card_gnats(state, "Planet") == 0
    assert cell(state, "r2c2") == ["Planet"]           # the Planet stays
    assert zone(state, "stack1(1)") == ["Lily Pad #1"] and gnats(state, 1) == 0 and gnats(state, 2) == 0


def test_s5_variant_two_players_squander_sends_the_planet_to_the_bottom_of_the_pond_deck(tf_table):
    state = s5(tf_table, players=2)
    state.apply(0, "refresh Catch")
    select(state, {1: "play Catch", 2: "play Catch"})
    assert zone(state, "deck")[0] == "Planet" and cell(state, "r2c2") == ["Groom"]


def test_s5_variant_pink_with_a_specimen_showing_gains_3(tf_table):
    state = s5(tf_table, zones={"stack2(2)": ["Specimen"]})
    state.apply(0, "refresh Catch")
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Leap North"})
    assert gnats(state, 2) == 3


# ---------------------------------------------------------------- S6: Mech

def test_s6_round_a_mech_goes_on_the_unicorn_as_3(tf_table):
    state = tf_table(3, cells={"r2c2": "Mech"}, meeples=APART, zones={"stack2(1)": ["Unicorn"],
                                                                      "stack3(1)": ["Fairy"]})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert state.legal_actions(0) == ["place Mech on stack 1", "place Mech on stack 2", "hold Mech",
                                      "discard Mech"]


def test_s6_round_b_planet_goes_on_the_mech_as_6_never_on_the_unicorn(tf_table):
    state = catch_and_place(tf_table, "Planet", 2, zones={"stack2(1)": ["Unicorn", "Mech"],
                                                           "stack3(1)": ["Witch"]})
    assert zone(state, "stack2(1)") == ["Unicorn", "Mech", "Planet"]
    control = tf_table(3, cells={"r2c2": "Planet"}, meeples=APART, zones={"stack2(1)": ["Unicorn"],
                                                                         "stack3(1)": ["Witch"]})
    select(control, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert control.legal_actions(0) == ["place Planet on stack 1", "hold Planet", "discard Planet"]


@pytest.mark.parametrize("pad, frogs, points", [
    ("Lily Pad #1", ["Mech", "Unicorn", "Fairy"], 4),      # Mech counts as 3
    ("Lily Pad #8", ["Mech", "Unicorn", "Witch"], 5),      # all count as 3
    ("Lily Pad #9", ["Planet", "Mech", "Unicorn"], 0),     # Mech is 3 or 6, never both
    ("Lily Pad #9", ["Planet", "Mech", "Fairy"], 3),       # 6, 3, 1
])
def test_s6_lily_pad_rows_with_the_mech(tf_parts, pad, frogs, points):
    state = end_now(None, {"stack1(1)": [pad] + frogs}, table=tf_parts)
    assert parts(state, 1)[2] == points


# ---------------------------------------------------------------- Clarification checks C1-C10

def test_c1_specimen_and_clone_showing_rest_with_one_other_meeple_gains_3(tf_table):
    hands = {s: ["Rest"] for s in range(1, 6)}
    state = tf_table(5, meeples={1: "r3c3", 2: "r3c3", 3: "r1c1", 4: "r1c5", 5: "r5c1"}, hands=hands,
                     zones={"stack2(1)": ["Specimen"], "stack3(1)": ["Clone"]})
    assert gnats(state, 1) == 3 and gnats(state, 2) == 1


def test_c2_satellite_and_specimen_showing_rest_alone_gains_2(tf_table):
    state = tf_table(3, meeples=APART, zones={"stack2(1)": ["Satellite"], "stack3(1)": ["Specimen"]})
    select(state, {1: "play Rest", 2: "play Rest", 3: "play Rest"})
    assert (gnats(state, 1), gnats(state, 2), gnats(state, 3)) == (2, 0, 0)


def test_c3_two_held_frogs_under_a_covered_planet_stay_held_but_nothing_more_is_held(tf_table):
    # Round 1: a Baron is placed on the Planet; round 2: a caught Tycoon can only be placed or discarded;
    # round 3: the Fairy is played from the hand; round 4: a caught Prince may be held again (replacing).
    state = tf_table(3, cells={"r2c2": "Baron"}, meeples=APART,
                     hands={1: ["Catch", "Catch (Fantasy)", "Catch (Fantasy)"]},
                     zones={"held(1)": ["Fairy", "Imp"], "stack2(1)": ["Planet"]},
                     river=["Duchess", "Prince", "Tycoon"])
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    state.apply(0, "place Baron on stack 2")
    assert zone(state, "held(1)") == ["Fairy", "Imp"]            # both stay held
    select(state, {1: "play Catch (Fantasy)", **IDLE})
    assert state.legal_actions(0) == ["place Tycoon on stack 1", "place Tycoon on stack 3", "discard Tycoon"]
    state.apply(0, "discard Tycoon")
    select(state, {1: "play Fairy", **IDLE2})
    state.apply(0, "place Fairy on stack 2")
    assert zone(state, "held(1)") == ["Imp"]
    choose(state, {1: "no refresh"})               # the Baron gave 1 Gnat for the Fairy
    select(state, {1: "play Catch (Fantasy)", 2: "play Leap South", 3: "play Leap North"})
    assert "hold Prince, returning Imp" in state.legal_actions(0)


def test_c4_leap_east_with_gallop_from_r2c3_stops_on_r2c4_and_the_gallop_comes_back(tf_table):
    state = tf_table(3, meeples={1: "r2c3", 2: "r1c1", 3: "r4c4"}, hands={1: ["Leap East", "Gallop"]},
                     zones={"discard(1)": ["Catch", "Rest"]})
    select(state, {1: "play Leap East + Gallop", 2: "play Rest", 3: "play Rest"})
    assert where(state, 1) == "r2c4"
    assert sorted(zone(state, "hand(1)")) == ["Catch", "Gallop", "Rest"]
    assert zone(state, "discard(1)") == ["Leap East"]


@pytest.mark.parametrize("start", ["r1c1", "r3c4"])
def test_c5_two_flys_onto_the_west_whirlpool_land_on_r3c4_and_both_are_discarded(tf_table, start):
    state = tf_table(3, meeples={1: start, 2: "r1c4", 3: "r4c4"}, hands={1: ["Leap North", "Fly", "Fly"]},
                     zones={"discard(1)": ["Catch", "Rest"]})
    select(state, {1: "play Leap North + 2 x Fly", 2: "play Rest", 3: "play Rest"})
    assert state.prompt() == "fly to" and state.current_players() == [0]
    state.apply(0, "fly to r3c4")
    assert where(state, 1) == "r3c4"
    assert sorted(zone(state, "discard(1)")) == ["Fly", "Fly", "Leap North"]
    assert sorted(zone(state, "hand(1)")) == ["Catch", "Rest"]


def test_c6_two_steals_take_1_from_a_player_with_1_and_0_from_a_force_field(tf_table):
    # Everyone on r1c1 plays Leap West: no move, nothing gained; the Steals come at the end of the round.
    state = tf_table(3, meeples={1: "r1c1", 2: "r1c1", 3: "r1c1"},
                     hands={1: ["Leap West", "Steal", "Steal"], 2: ["Leap West"], 3: ["Leap West"]},
                     zones={"stack2(3)": ["Force Field"]}, counters={"gnats": {"players": {"2": 1, "3": 4}}})
    select(state, {1: "play Leap West + 2 x Steal"})
    assert (gnats(state, 1), gnats(state, 2), gnats(state, 3)) == (1, 0, 4)


def test_c7_rearrange_onto_the_bride_gains_nothing_and_the_hatted_stack_is_untouched(tf_table):
    state = tf_table(3, meeples=APART, hands={1: ["Rearrange"]},
                     zones={"stack1(1)": ["Lily Pad #1", "Bride"], "stack2(1)": ["Groom"],
                            "stack3(1)": ["Planet", "Top Hat"]}, display=("Crown",))
    select(state, {1: "play Rearrange", 2: "play Rest", 3: "play Rest"})
    assert sorted(state.legal_actions(0)) == ["put back Bride", "put back Groom"]
    state.apply(0, "put back Bride")
    assert state.legal_actions(0) == ["put Bride on stack 1", "put Bride on stack 2"]
    state.apply(0, "put Bride on stack 1")
    assert state.legal_actions(0) == ["put Groom on stack 1", "put Groom on stack 2"]   # never stack 3
    state.apply(0, "put Groom on stack 1")
    assert zone(state, "stack1(1)") == ["Lily Pad #1", "Bride", "Groom"]
    assert zone(state, "stack2(1)") == [] and zone(state, "stack3(1)") == ["Planet", "Top Hat"]
    assert gnats(state, 1) == 0


def test_c8_a_leap_returns_one_catch_and_one_rest_a_rest_returns_both_catches(tf_table):
    state = tf_table(3, meeples=APART, hands={1: ["Leap North"]},
                     zones={"discard(1)": ["Catch", "Catch (Fantasy)", "Rest"]})
    select(state, {1: "play Leap North", 2: "play Rest", 3: "play Rest"})
    assert sorted(zone(state, "hand(1)")) == ["Catch", "Rest"]
    assert sorted(zone(state, "discard(1)")) == ["Catch (Fantasy)", "Leap North"]
    state = tf_table(3, meeples=APART, hands={1: ["Rest"]},
                     zones={"discard(1)": ["Catch", "Catch (Fantasy)", "Leap North"]})
    select(state, {1: "play Rest", 2: "play Rest", 3: "play Rest"})
    assert sorted(zone(state, "hand(1)")) == ["Catch", "Catch (Fantasy)", "Leap North"]


def test_c9_dragon_with_no_fly_left_gains_2_gnats_and_genie_with_nothing_left_gains_nothing(tf_table):
    everything = ["Gallop"] * 3 + ["Steal"] * 3 + ["Rearrange"] * 2 + ["Catch (Fantasy)"] * 2
    state = play_held(tf_table, "Dragon", 2, zones={"hand(2)": ["Rest", "Fly", "Fly", "Fly"], "box": everything})
    assert gnats(state, 1) == 2 and zone(state, "abilities") == []
    hand = sorted(zone(state, "hand(1)"))
    state = play_held(tf_table, "Genie", 2, zones={"hand(2)": ["Rest", "Fly", "Fly", "Fly"], "box": everything})
    assert sorted(zone(state, "hand(1)")) == hand and gnats(state, 1) == 0
    assert zone(state, "stack2(1)") == ["Genie"] and state.prompt() == "play"


def test_c10_rocket_showing_leap_with_one_gallop_moves_3_spaces(tf_table):
    state = tf_table(3, meeples={1: "r1c1", 2: "r2c2", 3: "r4c4"}, hands={1: ["Leap South", "Gallop"]},
                     zones={"stack2(1)": ["Rocket"]})
    select(state, {1: "play Leap South + Gallop", 2: "play Rest", 3: "play Rest"})
    assert where(state, 1) == "r4c1"
    assert zone(state, "discard(1)") == ["Leap South", "Gallop"]
