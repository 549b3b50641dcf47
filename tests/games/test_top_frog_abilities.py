"""Top Frog abilities (top_frog_cards.md §3-4): each Frog's ability from a hand-built position, with its
exact outcome. When Stacked On / When Placed are triggered by playing a held Frog; When Added to Pond by
a Cleanup fill from the River; When Showing by the action it modifies."""

from __future__ import annotations

import pytest

from conftest import zone
from test_top_frog_rules import card_gnats, cell, gnats, select, space_gnats, where

RESTS = {2: "play Rest", 3: "play Rest"}


def place_held(tf_table, frog, stack, zones=None, players=3, counters=None, meeples=None, **extra):
    """Player 1 plays the held ``frog`` onto ``stack`` (the others Rest on other spaces); returns the state."""
    laid = {"held(1)": [frog]}
    laid.update(zones or {})
    where_ = {1: "r2c2", 2: "r1c1", 3: "r4c4", 4: "r1c4"}
    where_.update(meeples or {})
    state = tf_table(players, hands={1: ["Catch"]}, zones=laid, counters=counters,
                     meeples={s: where_[s] for s in range(1, players + 1)}, **extra)
    select(state, {s: "play Rest" for s in range(2, players + 1)} | {1: f"play {frog}"})
    if state.legal_actions(0) and state.prompt() != "play":
        state.apply(0, f"place {frog} on stack {stack}")
    return state


# ---------------------------------------------------------------- Fancy: When Stacked On

def test_bride_gives_4_when_the_groom_is_placed_on_her(tf_table):
    state = place_held(tf_table, "Groom", 2, {"stack2(1)": ["Bride"]})
    assert gnats(state, 1) == 4


def test_groom_gives_one_more_when_the_bride_is_in_one_of_your_stacks(tf_table):
    assert gnats(place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Groom"]}), 1) == 2
    assert gnats(place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Groom"], "stack3(1)": ["Bride"]}), 1) == 3


def test_duchess_counts_the_fancy_frogs_of_her_stack_with_the_new_one(tf_table):
    assert gnats(place_held(tf_table, "Groom", 2, {"stack2(1)": ["Duchess"]}), 1) == 2


def test_tycoon_counts_your_stacks_holding_a_frog(tf_table):
    assert gnats(place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Tycoon"], "stack1(1)": ["Lily Pad #1"],
                                                    "stack3(1)": ["Planet"]}), 1) == 2


def test_prince_gives_one_more_when_his_stack_is_now_the_tallest(tf_table):
    assert gnats(place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Prince"], "stack3(1)": ["Planet"]}), 1) == 3
    assert gnats(place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Prince"], "stack3(1)": ["Planet", "Mech"]}), 1) == 2


def test_banker_pays_one_per_two_gnats_at_most_three(tf_table):
    assert gnats(place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Banker"]},
                            counters={"gnats": {"players": {"1": 5}}}), 1) == 7
    assert gnats(place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Banker"]},
                            counters={"gnats": {"players": {"1": 9}}}), 1) == 12


def test_ambassador_gives_every_player_one_and_the_owner_one_more(tf_table):
    state = place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Ambassador"]})
    assert [gnats(state, s) for s in (1, 2, 3)] == [2, 1, 1]


def test_dandy_and_baron_give_3_for_a_future_frog_or_a_weight_3(tf_table):
    assert gnats(place_held(tf_table, "Mech", 2, {"stack2(1)": ["Dandy"]}), 1) == 3      # Mech: Future
    assert gnats(place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Dandy"]}), 1) == 1
    assert gnats(place_held(tf_table, "Mech", 2, {"stack2(1)": ["Baron"]}), 1) == 3      # Mech counts as 3
    assert gnats(place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Baron"]}), 1) == 1


def test_maestro_counts_the_fashions_of_its_stack(tf_table):
    assert gnats(place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Planet", "Maestro"]}), 1) == 3


def test_butler_gains_one_and_puts_one_on_a_space_of_the_owners_choice(tf_table):
    state = place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Butler"]}, cells={"r3c3": "Groom"})
    assert state.prompt() == "put a gnat on" and len(state.legal_actions(0)) == 16
    state.apply(0, "put a gnat on r3c3")
    assert gnats(state, 1) == 1 and card_gnats(state, "Groom") == 1


def test_marquis_takes_one_from_each_adjacent_space_that_has_any(tf_table):
    state = place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Marquis"]},
                       cells={"r1c2": "Groom", "r2c1": "Bride", "r3c3": "Dandy"},
                       counters={"gnats": {"cards": {"cell(r1c2)": [3], "cell(r2c1)": [1], "cell(r3c3)": [2]}}})
    assert gnats(state, 1) == 3 and card_gnats(state, "Groom") == 2 and card_gnats(state, "Bride") == 0
    assert card_gnats(state, "Dandy") == 2          # diagonal: untouched


def test_socialite_counts_other_meeples_on_or_next_to_your_space(tf_table):
    state = place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Socialite"]}, players=4,
                       meeples={2: "r2c2", 3: "r2c3", 4: "r4c4"})
    assert gnats(state, 1) == 2                       # players 2 (same space) and 3 (adjacent), not 4


def test_heiress_takes_one_from_each_richer_player_or_gains_two(tf_table):
    state = place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Heiress"]},
                       counters={"gnats": {"players": {"1": 1, "2": 3, "3": 1}}})
    assert state.legal_actions(0) == ["gain 2 gnats", "take 1 gnat from each player with more"]
    state.apply(0, "take 1 gnat from each player with more")
    assert [gnats(state, s) for s in (1, 2, 3)] == [2, 2, 1]


def test_ballerina_gives_three_and_only_weight_1_goes_on_her(tf_table):
    state = place_held(tf_table, "Fairy", 2, {"stack2(1)": ["Ballerina"]})
    assert gnats(state, 1) == 3
    state = tf_table(3, hands={1: ["Catch"]}, zones={"held(1)": ["Groom"], "stack1(1)": ["Ballerina"],
                                                     "stack2(1)": ["Fairy"], "stack3(1)": ["Clover"]})
    assert "play Groom" not in state.legal_actions(0)       # nowhere to place it: not playable
    state = place_held(tf_table, "Tulip", 2, {"stack2(1)": ["Ballerina"]})
    assert zone(state, "stack2(1)") == ["Ballerina", "Tulip"]


# ---------------------------------------------------------------- Flower: When Added to Pond

def fill(tf_table, flower, blank="r2c2", cells=None, river=None, players=3, counters=None, meeples=None,
         stays=True):
    """A Cleanup where ``flower`` (the rightmost River card) fills ``blank``; everyone Rests on r4c4."""
    laid = {blank: None}
    laid.update(cells or {})
    state = tf_table(players, cells=laid, river=(river or ["Tycoon", "Duchess"]) + [flower],
                     meeples=meeples or {s: "r4c4" for s in range(1, players + 1)}, counters=counters)
    select(state, {s: "play Rest" for s in range(1, players + 1)})
    if stays:
        assert cell(state, blank) == [flower]
    return state


def test_flytrap_gathers_the_gnats_of_its_adjacent_spaces(tf_table):
    state = fill(tf_table, "Flytrap", cells={"r1c2": "Groom", "r3c3": "Bride"},
                 counters={"gnats": {"cards": {"cell(r1c2)": [2], "cell(r3c3)": [1]}}})
    assert card_gnats(state, "Flytrap") == 2 and card_gnats(state, "Groom") == 0 and card_gnats(state, "Bride") == 1


def test_iris_puts_a_gnat_on_each_river_card(tf_table):
    state = fill(tf_table, "Iris", river=["Tycoon", "Duchess"])
    river = zone(state, "river")
    assert len(river) == 3 and all(card_gnats(state, c) == 1 for c in river)


def test_sunflower_puts_a_gnat_on_each_other_space_of_its_row(tf_table):
    state = fill(tf_table, "Sunflower", blank="r2c3")
    assert [card_gnats(state, cell(state, f"r2c{c}")[0]) for c in (1, 2, 3, 4)] == [1, 1, 0, 1]


def test_bluebell_shifts_its_row_east_with_blank_gnats_and_meeples_stay(tf_table):
    # 5x5, blanks r3c2 (2 Gnats) and r3c5. The Bluebell fills r3c2 and takes its Gnats, then row 3 turns
    # east: the blank r3c5 comes round to r3c1, which the Tycoon fills next.
    state = tf_table(5, cells={"r3c1": "Groom", "r3c2": None, "r3c3": "Bride", "r3c4": "Dandy", "r3c5": None},
                     river=["Tycoon", "Bluebell"], meeples={1: "r3c1", 2: "r1c1", 3: "r1c1", 4: "r1c1", 5: "r1c1"},
                     counters={"gnats": {"spaces": {"r3c2": 2}}}, deck=["Baron", "Maestro"])
    select(state, {s: "play Rest" for s in range(1, 6)})
    assert [cell(state, f"r3c{c}")[0] for c in range(1, 6)] == ["Tycoon", "Groom", "Bluebell", "Bride", "Dandy"]
    assert card_gnats(state, "Bluebell") == 2 and space_gnats(state, "r3c1") == 0
    assert where(state, 1) == "r3c1"
    assert zone(state, "river") == ["Maestro", "Baron"]


def test_lotus_puts_a_gnat_on_each_corner(tf_table):
    state = fill(tf_table, "Lotus")
    assert [card_gnats(state, cell(state, sp)[0]) for sp in ("r1c1", "r1c4", "r4c1", "r4c4")] == [1, 1, 1, 1]


def test_rose_puts_two_gnats_on_itself(tf_table):
    assert card_gnats(fill(tf_table, "Rose"), "Rose") == 2


def test_poppy_puts_one_gnat_on_each_space_with_meeples(tf_table):
    state = fill(tf_table, "Poppy", meeples={1: "r4c4", 2: "r4c4", 3: "r1c1"})
    assert card_gnats(state, cell(state, "r4c4")[0]) == 1 and card_gnats(state, cell(state, "r1c1")[0]) == 1
    assert card_gnats(state, "Poppy") == 0


def test_lavender_swaps_with_the_card_holding_most_gnats_first_in_reading_order(tf_table):
    state = fill(tf_table, "Lavender", cells={"r1c3": "Groom", "r3c3": "Bride"}, stays=False,
                 counters={"gnats": {"cards": {"cell(r1c3)": [2], "cell(r3c3)": [2]}}})
    assert cell(state, "r1c3") == ["Lavender"] and cell(state, "r2c2") == ["Groom"]
    assert card_gnats(state, "Groom") == 2


def test_daisy_puts_a_gnat_on_each_other_flower_in_the_pond(tf_table):
    state = fill(tf_table, "Daisy", cells={"r1c1": "Rose", "r4c1": "Tulip"})
    assert card_gnats(state, "Rose") == 1 and card_gnats(state, "Tulip") == 1 and card_gnats(state, "Daisy") == 0


def test_clover_puts_a_gnat_on_each_diagonal_space(tf_table):
    state = fill(tf_table, "Clover", blank="r1c1")
    assert card_gnats(state, cell(state, "r2c2")[0]) == 1
    assert card_gnats(state, cell(state, "r1c2")[0]) == 0


def test_snapdragon_shifts_its_column_south(tf_table):
    state = tf_table(5, cells={"r5c2": None, "r1c2": "Groom", "r4c2": "Bride"}, river=["Tycoon", "Snapdragon"],
                     meeples={s: "r1c1" for s in range(1, 6)})
    select(state, {s: "play Rest" for s in range(1, 6)})
    assert cell(state, "r1c2") == ["Snapdragon"] and cell(state, "r2c2") == ["Groom"]
    assert cell(state, "r5c2") == ["Bride"]


def test_marigold_puts_a_gnat_on_each_hat_coupon_or_on_itself(tf_table):
    state = fill(tf_table, "Marigold", cells={"r1c1": "Hat Coupon"})
    coupon = state.game.card_names.index("Hat Coupon")
    assert state.counters["gnats"]["card"][coupon] == 1 and card_gnats(state, "Marigold") == 0
    assert card_gnats(fill(tf_table, "Marigold"), "Marigold") == 1


def test_hibiscus_puts_three_on_itself_without_meeples_else_one(tf_table):
    assert card_gnats(fill(tf_table, "Hibiscus"), "Hibiscus") == 3
    assert card_gnats(fill(tf_table, "Hibiscus", meeples={1: "r2c2", 2: "r4c4", 3: "r4c4"}), "Hibiscus") == 1


# ---------------------------------------------------------------- Future: When Showing

def test_clone_and_specimen_each_add_one_to_a_rest(tf_table):
    # C1: Specimen and Clone showing, Rest with one other meeple on the space: 1 + 2.
    state = tf_table(5, meeples={1: "r3c3", 2: "r3c3", 3: "r1c1", 4: "r1c5", 5: "r5c5"},
                     zones={"stack2(1)": ["Specimen"], "stack3(1)": ["Clone"]})
    select(state, {s: "play Rest" for s in range(1, 6)})
    assert gnats(state, 1) == 3 and gnats(state, 2) == 1


def test_laser_takes_a_gnat_from_each_adjacent_space_on_a_successful_catch(tf_table):
    state = tf_table(3, cells={"r1c2": "Groom", "r2c3": "Bride", "r3c3": "Dandy"},
                     meeples={1: "r2c2", 2: "r4c4", 3: "r4c4"}, zones={"stack2(1)": ["Laser"]},
                     counters={"gnats": {"cards": {"cell(r1c2)": [2], "cell(r2c3)": [1], "cell(r3c3)": [1]}}})
    select(state, {1: "play Catch", 2: "play Rest", 3: "play Rest"})
    assert gnats(state, 1) == 2 and card_gnats(state, "Dandy") == 1


def test_hoverboard_returns_one_more_card_after_a_leap_that_moves(tf_table):
    state = tf_table(3, hands={1: ["Leap East"]}, zones={"stack2(1)": ["Hoverboard"],
                                                         "discard(1)": ["Catch", "Rest", "Leap West", "Gallop"]})
    select(state, RESTS)
    assert state.prompt() == "also return" and state.legal_actions(0) == ["also return Leap West",
                                                                            "also return Gallop"]
    state.apply(0, "also return Gallop")
    assert sorted(zone(state, "hand(1)")) == ["Catch", "Gallop", "Rest"]


def test_telescope_owner_alone_sees_the_top_card_of_the_pond_deck(tf_table):
    state = tf_table(3, zones={"stack2(1)": ["Telescope"]}, deck=["Groom"])
    assert state.view(0)["zones"]["deck"]["shown"] == [{"card": "Groom", "from_top": 0}]
    assert "shown" not in state.view(1)["zones"]["deck"] and "shown" not in state.view(None)["zones"]["deck"]
    covered = tf_table(3, zones={"stack2(1)": ["Telescope", "Top Hat"]}, deck=["Groom"], display=("Crown",))
    assert "shown" not in covered.view(0)["zones"]["deck"]


def test_teleporter_moves_the_owners_meeple_anywhere(tf_table):
    state = place_held(tf_table, "Teleporter", 2)
    assert state.prompt() == "move your meeple to"
    state.apply(0, "move your meeple to r4c1")
    assert where(state, 1) == "r4c1"


# ---------------------------------------------------------------- Fantasy: When Placed

def test_pegasus_and_fairy_gain_a_fly(tf_table):
    state = place_held(tf_table, "Pegasus", 2)
    assert zone(state, "hand(1)").count("Fly") == 1 and zone(state, "abilities").count("Fly") == 2


def test_griffin_chooses_a_gallop_or_a_fly_among_those_left(tf_table):
    state = place_held(tf_table, "Griffin", 2)
    assert state.legal_actions(0) == ["gain Gallop", "gain Fly"]


def test_dragon_gains_2_gnats_when_no_fly_is_left(tf_table):
    # C9: the 3 Flys already gained; Dragon: 2 Gnats.
    state = place_held(tf_table, "Dragon", 2, {"hand(2)": ["Fly", "Fly", "Fly", "Rest"]})
    assert gnats(state, 1) == 2


def test_leprechaun_gains_a_steal_and_a_gnat(tf_table):
    state = place_held(tf_table, "Leprechaun", 2)
    assert "Steal" in zone(state, "hand(1)") and gnats(state, 1) == 1


def test_mermaid_gains_the_extra_catch(tf_table):
    state = place_held(tf_table, "Mermaid", 2)
    assert "Catch (Fantasy)" in zone(state, "hand(1)")


def test_siren_draws_the_meeples_on_adjacent_spaces_to_yours(tf_table):
    state = place_held(tf_table, "Siren", 2, players=4, meeples={2: "r2c3", 3: "r3c3", 4: "r1c2"})
    assert [where(state, s) for s in (1, 2, 3, 4)] == ["r2c2", "r2c2", "r3c3", "r2c2"]


def test_genie_chooses_any_ability_card_left(tf_table):
    state = place_held(tf_table, "Genie", 2)
    assert state.legal_actions(0) == ["gain Gallop", "gain Fly", "gain Steal", "gain Rearrange",
                                      "gain Catch (Fantasy)"]


def test_oracle_shows_the_top_three_to_its_owner_who_puts_them_back_in_any_order(tf_table):
    state = place_held(tf_table, "Oracle", 2, deck=["Groom", "Bride", "Dandy"])
    assert state.prompt() == "put on top"
    assert sorted(state.legal_actions(0)) == ["put on top Bride", "put on top Dandy", "put on top Groom"]
    assert "Groom" not in " ".join(state.narration(1))
    state.apply(0, "put on top Groom")
    state.apply(0, "put on top Dandy")
    assert zone(state, "deck")[-3:] == ["Groom", "Dandy", "Bride"]


def test_rearrange_rebuilds_unhatted_stacks_without_triggering_abilities(tf_table):
    # C7: moving a Frog onto the Bride gives no Gnats... here the Groom goes into a new Stack and the Bride
    # onto the Lily Pad; the hatted Stack 3 is untouched and nothing goes into it.
    state = tf_table(3, hands={1: ["Rearrange"]}, meeples={1: "r2c2", 2: "r4c4", 3: "r4c4"},
                     zones={"stack1(1)": ["Lily Pad #1", "Groom"], "stack2(1)": ["Bride"],
                            "stack3(1)": ["Planet", "Top Hat"]}, display=("Crown",))
    select(state, RESTS)
    assert state.prompt() == "put back" and state.legal_actions(0) == ["put back Groom", "put back Bride"]
    state.apply(0, "put back Bride")
    assert state.legal_actions(0) == ["put Bride on stack 1", "put Bride on stack 2"]
    state.apply(0, "put Bride on stack 2")
    assert state.legal_actions(0) == ["put Groom on stack 1", "put Groom on stack 2"]   # the last Frog
    state.apply(0, "put Groom on stack 2")
    assert zone(state, "stack1(1)") == ["Lily Pad #1"] and zone(state, "stack2(1)") == ["Bride", "Groom"]
    assert zone(state, "stack3(1)") == ["Planet", "Top Hat"]
    assert gnats(state, 1) == 0                       # no When Stacked On during a Rearrange
    assert zone(state, "discard(1)") == ["Rearrange"] and zone(state, "hand(1)") == []


def test_rearrange_reverts_everything_when_no_remaining_frog_can_be_put_back(tf_table):
    before = {"stack1(1)": ["Lily Pad #1", "Planet", "Fairy"], "stack2(1)": ["Ballerina"], "stack3(1)": ["Leprechaun"]}
    state = tf_table(3, hands={1: ["Rearrange"]}, meeples={1: "r2c2", 2: "r4c4", 3: "r4c4"}, zones=before)
    select(state, RESTS)
    for frog, stack in (("Fairy", 1), ("Ballerina", 2), ("Leprechaun", 3)):
        state.apply(0, f"put back {frog}")
        state.apply(0, f"put {frog} on stack {stack}")
    assert "player 1 is stuck: the stacks return to how they were." in state.log
    for label, cards in before.items():
        assert zone(state, label) == cards
