"""Frog Tower: one group of tests per project ruling (shared/design/rulings/frog_tower.md, rulings 1-10).

Positions are stacked with scenarios; seats are 0-based as in ``state.apply`` and seat 0 has the
first turn.  The player on the left of seat k is seat k + 1.
"""

import pytest

from interpreter import IllegalActionError, RuleError

from conftest import card_type, garden, holding, play, points, start, towers, zone

STOP = "stop and take the cards"
FLIP = "flip another card"
REFILL_LOG = "The Pond is empty: the set-aside cards join it. This is the last turn."


def busts(state, seat=0):
    return [line for line in state.log if line.startswith(f"player {seat + 1} busts on ")]


def decide_first_options(state):
    """Play the first legal action while the Holding area is being shared; return [(seat, prompt, action)]."""
    seen = []
    while state.current_players() and state.prompt() in ("take", "discard"):
        seat = state.current_players()[0]
        action = state.legal_actions(seat)[0]
        seen.append((seat, state.prompt(), action))
        state.apply(seat, action)
    return seen


# ---------------------------------------------------------------- ruling 1: One more! forces a flip

def test_one_more_on_the_first_flip_of_a_turn_forces_a_second_flip(frog_tower):
    state = start(frog_tower, 3, pond=["yellow frog (One more!)", "green frog", "red frog"])
    assert state.history == []
    assert holding(state) == ["yellow frog (One more!)", "green frog"]
    assert state.current_players() == [0]
    assert state.legal_actions(0) == [FLIP, STOP]


def test_one_more_on_a_chosen_flip_forces_the_next_flip(frog_tower):
    state = start(frog_tower, 3, pond=["green frog", "blue frog (One more!)", "red frog", "leaf"])
    play(state, [(0, FLIP)])
    assert holding(state) == ["green frog", "blue frog (One more!)", "red frog"]
    assert state.history == [[0, FLIP]]
    assert state.legal_actions(0) == [FLIP, STOP]


def test_one_more_chain_keeps_flipping_while_each_new_card_has_the_icon(frog_tower):
    state = start(frog_tower, 3, pond=["leaf (One more!)", "green frog (One more!)", "blue frog (One more!)",
                                       "red frog", "yellow frog"])
    assert holding(state) == ["leaf (One more!)", "green frog (One more!)", "blue frog (One more!)", "red frog"]
    assert state.history == [] and state.current_players() == [0]


def test_one_more_flip_is_skipped_when_no_card_is_left(frog_tower):
    state = start(frog_tower, 3, pond=["blue frog (One more!)"], only_these=True, zones={"set_aside": []})
    # the forced flip finds no card; stopping is then the only choice, so nobody is asked anything
    assert state.history == []
    assert garden(state, 0) == ["blue frog (One more!)"]
    assert holding(state) == [] and zone(state, "pond") == []
    assert state.is_terminal()


# ---------------------------------------------------------------- ruling 2: bust + One more!

def test_bust_on_a_one_more_card_flips_one_more_card_without_a_bust_check(frog_tower):
    # the extra blue matches the blue already there, but is not checked: the Holding area is shared as is
    state = start(frog_tower, 3, pond=["green frog", "blue frog", "green frog (One more!)", "blue frog (pink flower)",
                                       "yellow frog"])
    play(state, [(0, FLIP), (0, FLIP)])
    assert busts(state) == ["player 1 busts on green frog (One more!)."]
    assert holding(state) == ["green frog", "blue frog", "green frog (One more!)", "blue frog (pink flower)"]
    assert zone(state, "pond")[-1] == "yellow frog"
    assert state.current_players() == [1] and state.prompt() == "take"


def test_bust_one_more_chain_repeats_while_the_extra_card_has_the_icon(frog_tower):
    state = start(frog_tower, 3, pond=["green frog", "green frog (One more!)", "leaf (One more!)",
                                       "blue frog (One more!)", "red frog", "yellow frog"])
    play(state, [(0, FLIP)])
    assert busts(state) == ["player 1 busts on green frog (One more!)."]
    assert holding(state) == ["green frog", "green frog (One more!)", "leaf (One more!)",
                              "blue frog (One more!)", "red frog"]
    assert zone(state, "pond")[-1] == "yellow frog"


def test_bust_without_one_more_flips_nothing_more(frog_tower):
    state = start(frog_tower, 3, pond=["green frog", "green frog (pink flower)", "yellow frog"])
    play(state, [(0, FLIP)])
    assert holding(state) == ["green frog", "green frog (pink flower)"]
    assert zone(state, "pond")[-1] == "yellow frog"


# ---------------------------------------------------------------- ruling 3: same type

@pytest.mark.parametrize("frog", ["green frog", "blue frog", "yellow frog", "red frog", "rainbow frog"])
@pytest.mark.parametrize("rainbow_first", [True, False], ids=["rainbow-first", "rainbow-second"])
def test_rainbow_matches_every_frog_colour_and_another_rainbow(frog_tower, frog, rainbow_first):
    cards = ["rainbow frog (purple flower)", frog] if rainbow_first else [frog, "rainbow frog (purple flower)"]
    state = start(frog_tower, 3, pond=cards + ["leaf"])
    play(state, [(0, FLIP)])
    assert busts(state) == [f"player 1 busts on {cards[1]}."]
    assert holding(state) == cards
    assert state.current_players() == [1]


@pytest.mark.parametrize("cards", [["rainbow frog", "leaf"], ["leaf", "rainbow frog"]])
def test_rainbow_never_matches_a_leaf(frog_tower, cards):
    state = start(frog_tower, 3, pond=cards + ["red frog"])
    play(state, [(0, FLIP)])
    assert busts(state) == []
    assert holding(state) == cards
    assert state.current_players() == [0] and state.legal_actions(0) == [FLIP, STOP]


def test_two_leaves_are_the_same_type_and_bust(frog_tower):
    state = start(frog_tower, 3, pond=["leaf (green flower)", "leaf", "red frog"])
    play(state, [(0, FLIP)])
    assert busts(state) == ["player 1 busts on leaf."]
    assert state.current_players() == [1]
    assert state.legal_actions(1) == ["take leaf (green flower)", "take leaf"]


def test_two_frogs_of_one_colour_bust_whatever_their_flowers(frog_tower):
    state = start(frog_tower, 3, pond=["red frog (pink flower)", "red frog (yellow flower)", "leaf"])
    play(state, [(0, FLIP)])
    assert busts(state) == ["player 1 busts on red frog (yellow flower)."]


def test_four_colours_and_a_leaf_never_bust(frog_tower):
    cards = ["green frog", "blue frog", "yellow frog", "red frog", "leaf"]
    state = start(frog_tower, 3, pond=cards + ["green frog"])
    play(state, [(0, FLIP)] * 4)
    assert busts(state) == []
    assert holding(state) == cards
    assert state.current_players() == [0]
    play(state, [(0, FLIP)])
    assert busts(state) == ["player 1 busts on green frog."]


# ---------------------------------------------------------------- ruling 4: distribution with 3-5 players

SIX_CARD_BUST = ["green frog", "blue frog", "yellow frog", "red frog", "leaf", "green frog (pink flower)"]


@pytest.mark.parametrize("players, order", [
    (3, [1, 2, 0, 1, 2]),
    (4, [1, 2, 3, 0, 1]),
    (5, [1, 2, 3, 4, 0]),
])
def test_distribution_goes_clockwise_from_the_busters_left_with_the_buster_in_the_cycle(
        frog_tower, players, order):
    state = start(frog_tower, players, pond=SIX_CARD_BUST + ["yellow frog (pink flower)"])
    play(state, [(0, FLIP)] * 5)
    assert busts(state) == ["player 1 busts on green frog (pink flower)."]
    seen = decide_first_options(state)
    assert [seat for seat, _, _ in seen] == order
    assert all(prompt == "take" for _, prompt, _ in seen)
    # the first legal option is always the earliest card left, so the cards go out in Holding order
    takers = order + [(order[-1] + 1) % players]  # the sixth card goes to the next seat without a decision
    expected = {seat: [] for seat in range(players)}
    for seat, card in zip(takers, SIX_CARD_BUST):
        expected[seat].append(card)
    assert {seat: garden(state, seat) for seat in range(players)} == expected
    assert state.current_players() == [1] and holding(state) == ["yellow frog (pink flower)"]


def test_distribution_with_fewer_cards_than_players_leaves_the_buster_without_a_card(frog_tower):
    state = start(frog_tower, 4, pond=["red frog", "red frog (pink flower)", "leaf"])
    play(state, [(0, FLIP)])
    assert decide_first_options(state) == [(1, "take", "take red frog")]
    assert [garden(state, s) for s in range(4)] == [[], ["red frog"], ["red frog (pink flower)"], []]


def test_distribution_of_identical_cards_needs_no_decision(frog_tower):
    state = start(frog_tower, 3, pond=["green frog", "green frog", "leaf"])
    play(state, [(0, FLIP)])
    assert state.history == [[0, FLIP]]
    assert [garden(state, s) for s in range(3)] == [[], ["green frog"], ["green frog"]]
    assert state.current_players() == [1] and holding(state) == ["leaf"]


# ---------------------------------------------------------------- ruling 5: distribution with 2 players

@pytest.mark.parametrize("cards, decisions, buster_gets, opponent_gets, boxed", [
    # 2 cards: take, discard (the only card left: no decision); the buster gets nothing
    (["green frog", "green frog (pink flower)"],
     [(1, "take", "take green frog")],
     [], ["green frog"], ["green frog (pink flower)"]),
    # 3 cards: take, discard, the buster takes the last
    (["red frog", "leaf", "rainbow frog"],
     [(1, "take", "take red frog"), (1, "discard", "discard leaf")],
     ["rainbow frog"], ["red frog"], ["leaf"]),
    # 4 cards: take, discard, take, then the opponent takes again
    (["red frog", "leaf", "yellow frog", "red frog (pink flower)"],
     [(1, "take", "take red frog"), (1, "discard", "discard leaf"), (0, "take", "take yellow frog")],
     ["yellow frog"], ["red frog", "red frog (pink flower)"], ["leaf"]),
    # 5 cards: take, discard, take, take, discard: it stops as soon as the Holding area is empty
    (["red frog", "leaf", "yellow frog", "blue frog", "blue frog (pink flower)"],
     [(1, "take", "take red frog"), (1, "discard", "discard leaf"), (0, "take", "take yellow frog"),
      (1, "take", "take blue frog")],
     ["yellow frog"], ["red frog", "blue frog"], ["leaf", "blue frog (pink flower)"]),
], ids=["2-cards", "3-cards", "4-cards", "5-cards"])
def test_two_player_distribution_opponent_takes_discards_buster_takes_until_empty(
        frog_tower, cards, decisions, buster_gets, opponent_gets, boxed):
    state = start(frog_tower, 2, pond=cards + ["leaf (green flower)"], zones={"box": []})
    play(state, [(0, FLIP)] * (len(cards) - 1))
    assert busts(state) == [f"player 1 busts on {cards[-1]}."]
    assert holding(state) == cards
    assert decide_first_options(state) == decisions
    assert garden(state, 0) == buster_gets
    assert garden(state, 1) == opponent_gets
    assert zone(state, "box") == boxed
    assert state.current_players() == [1] and holding(state) == ["leaf (green flower)"]


# ---------------------------------------------------------------- ruling 6: towers

def test_tower_is_forced_and_its_owner_chooses_the_four_frogs(frog_tower):
    state = start(frog_tower, 3, pond=["yellow frog", "leaf"],
                  zones={"garden(1)": ["starting leaf", "green frog", "green frog", "blue frog", "red frog"]})
    play(state, [(0, STOP)])
    assert state.current_players() == [0]
    assert state.prompt() == "build a tower with"
    # no way to decline: every option builds a tower, one per distinct set of four frogs
    assert state.legal_actions(0) == [
        "build a tower with 2 x green frog, blue frog, red frog",
        "build a tower with 2 x green frog, blue frog, yellow frog",
        "build a tower with 2 x green frog, red frog, yellow frog",
        "build a tower with green frog, blue frog, red frog, yellow frog",
    ]
    play(state, [(0, "build a tower with green frog, blue frog, red frog, yellow frog")])
    assert towers(state, 0) == ["starting leaf", "green frog", "blue frog", "red frog", "yellow frog"]
    assert garden(state, 0) == ["green frog"]
    assert points(state) == [5, 0, 0]
    assert state.pv["tower_count"] == [1, 0, 0]
    assert state.current_players() == [1]


def test_no_tower_without_a_leaf_even_with_five_frogs(frog_tower):
    frogs = ["green frog", "blue frog", "yellow frog", "red frog"]
    state = start(frog_tower, 3, pond=["green frog (pink flower)", "leaf", "blue frog (pink flower)"],
                  zones={"garden(1)": list(frogs)})
    play(state, [(0, STOP)])
    assert garden(state, 0) == frogs + ["green frog (pink flower)"]
    assert towers(state, 0) == [] and state.pv["tower_count"] == [0, 0, 0]
    assert state.current_players() == [1] and holding(state) == ["leaf"]


def test_taking_a_leaf_completes_the_tower_of_a_player_with_four_frogs(frog_tower):
    frogs = ["green frog", "blue frog", "yellow frog", "red frog"]
    state = start(frog_tower, 3, pond=["leaf", "green frog (pink flower)"], zones={"garden(1)": list(frogs)})
    play(state, [(0, STOP)])
    assert towers(state, 0) == ["leaf"] + frogs
    assert garden(state, 0) == []
    assert points(state) == [5, 0, 0]


def test_every_player_builds_in_turn_order_from_the_active_player_after_a_distribution(frog_tower):
    # Seat 0 plays a quiet turn, so that seat 1 is the active player when the leaves are shared out.
    state = start(frog_tower, 3,
                  pond=["red frog", "leaf", "leaf (One more!)", "leaf (yellow flower)", "yellow frog"],
                  zones={"garden(1)": ["green frog", "green frog", "blue frog", "blue frog", "yellow frog"],
                         "garden(2)": ["green frog", "blue frog", "yellow frog", "red frog", "red frog"],
                         "garden(3)": ["blue frog", "blue frog", "yellow frog", "yellow frog", "green frog"]})
    play(state, [(0, STOP)])  # six frogs, no leaf: no tower
    assert towers(state, 0) == [] and state.current_players() == [1]
    play(state, [(1, FLIP)])  # leaf, leaf (One more!): bust, and one more leaf
    assert holding(state) == ["leaf", "leaf (One more!)", "leaf (yellow flower)"]
    play(state, [(2, "take leaf"), (0, "take leaf (One more!)")])  # seat 1 gets the last leaf
    order = []
    while state.current_players() and state.prompt() == "build a tower with":
        seat = state.current_players()[0]
        order.append(seat)
        state.apply(seat, state.legal_actions(seat)[-1])
    assert order == [1, 2, 0]
    assert [len(towers(state, s)) for s in range(3)] == [5, 5, 5]
    assert [line.split(" builds")[0] for line in state.log if " builds a tower" in line] == \
        ["player 2", "player 3", "player 1"]
    assert state.current_players() == [2] and holding(state) == ["yellow frog"]


def test_a_player_builds_every_tower_they_must_before_the_next_player_checks(frog_tower):
    state = start(frog_tower, 3, pond=["red frog", "leaf", "red frog (pink flower)", "blue frog (pink flower)"],
                  zones={"garden(1)": ["starting leaf", "starting leaf", "green frog", "green frog", "green frog",
                                       "green frog", "blue frog", "blue frog", "yellow frog"],
                         "garden(2)": ["green frog", "blue frog", "yellow frog", "red frog", "red frog"]})
    play(state, [(0, FLIP), (0, FLIP)])  # red, leaf, red: bust
    play(state, [(1, "take leaf"), (2, "take red frog (pink flower)")])  # seat 0 gets the last red
    assert garden(state, 0).count("starting leaf") == 2 and len(garden(state, 0)) == 10
    assert state.current_players() == [0] and state.prompt() == "build a tower with"
    play(state, [(0, "build a tower with green frog, blue frog, yellow frog, red frog")])
    # the second tower uses the four frogs left (no decision), then seat 1 builds
    assert towers(state, 0) == ["starting leaf", "green frog", "blue frog", "yellow frog", "red frog",
                                "starting leaf", "green frog", "green frog", "green frog", "blue frog"]
    assert garden(state, 0) == []
    assert state.current_players() == [1] and state.prompt() == "build a tower with"
    play(state, [(1, "build a tower with green frog, blue frog, yellow frog, red frog")])
    assert towers(state, 1) == ["leaf", "green frog", "blue frog", "yellow frog", "red frog"]
    assert garden(state, 1) == ["red frog"]
    assert points(state) == [5 + 1, 5, 0]
    assert state.pv["tower_count"] == [2, 1, 0]
    assert garden(state, 2) == ["red frog (pink flower)"]
    assert state.current_players() == [1] and holding(state) == ["blue frog (pink flower)"]


def test_a_completed_tower_is_never_rebuilt_and_spare_cards_stay_in_the_garden(frog_tower):
    state = start(frog_tower, 3, pond=["red frog", "blue frog", "leaf"],
                  zones={"garden(1)": ["starting leaf", "starting leaf", "green frog", "green frog", "green frog"],
                         "towers(1)": ["starting leaf", "blue frog", "blue frog", "red frog", "red frog"]},
                  player_variables={0: {"points": 1, "tower_count": 1}})
    play(state, [(0, FLIP), (0, STOP)])
    assert state.legal_actions(0) == ["build a tower with 3 x green frog, red frog",
                                      "build a tower with 3 x green frog, blue frog",
                                      "build a tower with 2 x green frog, red frog, blue frog"]
    play(state, [(0, "build a tower with 3 x green frog, red frog")])
    assert towers(state, 0) == ["starting leaf", "blue frog", "blue frog", "red frog", "red frog",
                                "starting leaf", "green frog", "green frog", "green frog", "red frog"]
    assert garden(state, 0) == ["starting leaf", "blue frog"]
    assert points(state) == [2, 0, 0] and state.pv["tower_count"] == [2, 0, 0]


def test_owner_chooses_four_frogs_even_from_a_garden_of_every_frog_kind(frog_tower):
    # Reachable: with 4-5 players a player starts with 2 leaves; after two towers they may hoard frogs leaflessly.
    kinds = list(dict.fromkeys(n for n in frog_tower.card_names if card_type(frog_tower, n) != "leaf"))
    assert len(kinds) == 21
    state = start(frog_tower, 4, pond=["leaf", "red frog"], zones={"garden(1)": kinds})
    play(state, [(0, STOP)])
    assert state.prompt() == "build a tower with"
    assert len(state.legal_actions(0)) == 5985
    play(state, [(0, "build a tower with green frog, blue frog, yellow frog, red frog")])
    assert towers(state, 0) == ["leaf", "green frog", "blue frog", "yellow frog", "red frog"]
    assert len(garden(state, 0)) == 17 and points(state) == [5, 0, 0, 0]


# ---------------------------------------------------------------- ruling 7: tower score

@pytest.mark.parametrize("tower, colours, score", [
    (["rainbow frog", "green frog", "green frog", "yellow frog"], 3, 3),   # the ruling's example
    (["rainbow frog", "green frog", "green frog", "green frog"], 2, 1),    # one colour with a rainbow: 1 point
    (["rainbow frog", "rainbow frog", "green frog", "green frog"], 3, 3),
    (["rainbow frog", "green frog", "yellow frog", "red frog"], 4, 5),     # the rainbow is the blue
    (["rainbow frog", "rainbow frog", "rainbow frog", "green frog"], 4, 5),
    (["rainbow frog", "rainbow frog", "rainbow frog", "rainbow frog (purple flower)"], 4, 5),
    (["green frog", "green frog", "blue frog", "blue frog"], 2, 1),
    (["green frog", "blue frog", "yellow frog", "yellow frog"], 3, 3),
])
def test_tower_score_counts_each_rainbow_as_its_best_colour(frog_tower, tower, colours, score):
    state = start(frog_tower, 3, pond=[tower[-1], "leaf"], zones={"garden(1)": ["starting leaf"] + tower[:3]})
    play(state, [(0, STOP)])
    assert towers(state, 0) == ["starting leaf"] + tower
    assert points(state) == [score, 0, 0]
    assert state.pv["legendary"] == [False, False, False]
    assert state.log[-1] == f"player 1 builds a tower of {colours} colours: {', '.join(tower)}."
    assert not state.is_terminal()


# ---------------------------------------------------------------- ruling 8: the Legendary tower

def test_legendary_tower_ends_the_game_at_once_whatever_the_points(frog_tower):
    state = start(frog_tower, 3, pond=["green frog (pink flower)", "leaf", "red frog"],
                  zones={"garden(1)": ["starting leaf", "green frog", "green frog", "green frog"]},
                  player_variables={1: {"points": 15, "tower_count": 3}})
    play(state, [(0, STOP)])
    assert state.is_terminal()
    assert state.current_players() == [] and state.legal_actions(0) == []
    assert zone(state, "pond")[-2:] == ["red frog", "leaf"]  # the Pond was not empty
    assert towers(state, 0) == ["starting leaf", "green frog", "green frog", "green frog", "green frog (pink flower)"]
    assert state.pv["legendary"] == [True, False, False]
    assert state.winners() == [0]
    assert state.returns() == [1.0, 0.0, 0.0]
    assert state.scores() == [0, 15, 0]
    with pytest.raises(IllegalActionError):
        state.apply(1, FLIP)


def test_legendary_towers_in_the_same_check_share_the_win_whatever_the_points(frog_tower):
    state = start(frog_tower, 3, pond=["blue frog", "yellow frog", "leaf", "leaf (green flower)", "red frog"],
                  zones={"garden(1)": ["green frog", "yellow frog", "red frog", "rainbow frog"],
                         "garden(2)": ["starting leaf", "blue frog", "blue frog", "blue frog"],
                         "garden(3)": ["starting leaf", "yellow frog", "yellow frog", "yellow frog"]},
                  player_variables={0: {"points": 20, "tower_count": 4}})
    play(state, [(0, FLIP), (0, FLIP), (0, FLIP)])  # blue, yellow, leaf, leaf: bust
    play(state, [(1, "take blue frog"), (2, "take yellow frog"), (0, "take leaf")])
    # seat 0 (active) builds a 5-point tower first; seats 1 and 2 complete Legendary towers in the same check
    assert state.is_terminal()
    assert towers(state, 0) == ["leaf", "green frog", "yellow frog", "red frog", "rainbow frog"]
    assert towers(state, 1) == ["starting leaf", "blue frog", "blue frog", "blue frog", "blue frog"]
    assert towers(state, 2) == ["starting leaf", "yellow frog", "yellow frog", "yellow frog", "yellow frog"]
    assert garden(state, 1) == ["leaf (green flower)"]
    assert state.scores() == [25, 0, 0]
    assert state.winners() == [1, 2]
    assert state.returns() == [0.0, 0.5, 0.5]


# ---------------------------------------------------------------- ruling 9: the empty Pond

def test_set_aside_cards_join_the_pond_the_moment_it_empties_and_the_turn_goes_on(frog_tower):
    state = start(frog_tower, 3, pond=["blue frog"], only_these=True, zones={"set_aside": ["green frog"]})
    assert zone(state, "pond") == ["green frog"] and zone(state, "set_aside") == []
    assert state.gv["refilled"] is True and state.gv["last_turn"] is True
    assert state.log == [REFILL_LOG]
    assert state.current_players() == [0] and state.legal_actions(0) == [FLIP, STOP]


def test_game_ends_at_the_end_of_the_turn_that_emptied_the_pond(frog_tower):
    state = start(frog_tower, 3, pond=["blue frog"], only_these=True, zones={"set_aside": ["green frog"]})
    play(state, [(0, STOP)])
    assert state.is_terminal()
    assert garden(state, 0) == ["blue frog"]
    assert zone(state, "pond") == ["green frog"]
    assert state.winners() == [0, 1, 2]


def test_set_aside_cards_join_the_pond_only_the_first_time_it_empties(frog_tower):
    state = start(frog_tower, 3, pond=["blue frog"], only_these=True, zones={"set_aside": ["green frog"]})
    play(state, [(0, FLIP)])  # the green from the set-aside cards; the Pond is empty again
    # no card to flip: stopping is the only choice and is taken without asking
    assert state.history == [[0, FLIP]]
    assert state.is_terminal()
    assert garden(state, 0) == ["blue frog", "green frog"]
    assert state.log.count(REFILL_LOG) == 1


def test_set_aside_cards_stay_out_once_the_pond_was_refilled(frog_tower):
    state = start(frog_tower, 3, pond=["blue frog"], only_these=True, zones={"set_aside": ["green frog"]},
                  game_variables={"refilled": True, "last_turn": True})
    assert state.is_terminal()
    assert zone(state, "set_aside") == ["green frog"]
    assert garden(state, 0) == ["blue frog"]
    assert REFILL_LOG not in state.log


def test_pond_refills_in_the_middle_of_a_one_more_chain(frog_tower):
    state = start(frog_tower, 3, pond=["blue frog (One more!)"], only_these=True,
                  zones={"set_aside": ["green frog", "green frog"]})
    # the forced flip takes a set-aside card; one card is left, so the player may go on
    assert holding(state) == ["blue frog (One more!)", "green frog"]
    assert zone(state, "pond") == ["green frog"]
    assert state.log == [REFILL_LOG]
    assert state.current_players() == [0] and state.legal_actions(0) == [FLIP, STOP]
    play(state, [(0, STOP)])
    assert state.is_terminal()


def test_pond_refills_in_the_middle_of_a_bust_one_more_chain(frog_tower):
    state = start(frog_tower, 3, pond=["green frog", "green frog (One more!)"], only_these=True,
                  zones={"set_aside": ["blue frog"]})
    play(state, [(0, FLIP)])
    assert busts(state) == ["player 1 busts on green frog (One more!)."]
    assert holding(state) == ["green frog", "green frog (One more!)", "blue frog"]
    assert state.current_players() == [1]
    play(state, [(1, "take blue frog"), (2, "take green frog")])
    assert [garden(state, s) for s in range(3)] == [["green frog (One more!)"], ["blue frog"], ["green frog"]]
    assert state.is_terminal()


def test_bust_one_more_with_no_card_left_skips_the_extra_flip(frog_tower):
    state = start(frog_tower, 3, pond=["green frog", "green frog (One more!)"], only_these=True,
                  zones={"set_aside": []})
    play(state, [(0, FLIP)])
    assert holding(state) == ["green frog", "green frog (One more!)"]
    play(state, [(1, "take green frog")])
    assert [garden(state, s) for s in range(3)] == [[], ["green frog"], ["green frog (One more!)"]]
    assert state.is_terminal()


# ---------------------------------------------------------------- ruling 10: final scoring

def finish(game, player_variables, last_garden=None, last_cards=("blue frog",)):
    """A 3-player game on its last card: seat 0 flips it and must stop, which ends the game."""
    zones = {"set_aside": []}
    if last_garden is not None:
        zones["garden(1)"] = last_garden
    return start(game, 3, pond=list(last_cards), only_these=True, zones=zones, player_variables=player_variables)


def test_final_score_is_the_sum_of_tower_scores_and_garden_cards_do_not_count(frog_tower):
    state = finish(frog_tower, {0: {"points": 4, "tower_count": 2}, 1: {"points": 6, "tower_count": 2},
                                2: {"points": 3, "tower_count": 1}},
                   last_garden=["starting leaf", "green frog", "yellow frog", "yellow frog"])
    assert state.is_terminal()
    assert towers(state, 0) == ["starting leaf", "green frog", "yellow frog", "yellow frog", "blue frog"]
    assert state.scores() == [7, 6, 3]
    assert state.winners() == [0]
    assert state.returns() == [1.0, 0.0, 0.0]


def test_tied_score_goes_to_the_player_with_fewer_towers(frog_tower):
    state = finish(frog_tower, {0: {"points": 6, "tower_count": 2}, 1: {"points": 6, "tower_count": 1},
                                2: {"points": 2, "tower_count": 1}},
                   last_garden=["green frog", "green frog", "red frog", "red frog"])
    assert state.is_terminal()
    assert garden(state, 0) == ["green frog", "green frog", "red frog", "red frog", "blue frog"]
    assert state.scores() == [6, 6, 2]
    assert state.winners() == [1]
    assert state.returns() == [0.0, 1.0, 0.0]


def test_tied_score_and_towers_share_the_win(frog_tower):
    state = finish(frog_tower, {0: {"points": 6, "tower_count": 2}, 1: {"points": 6, "tower_count": 2},
                                2: {"points": 6, "tower_count": 3}})
    assert state.is_terminal()
    assert state.scores() == [6, 6, 6]
    assert state.winners() == [0, 1]
    assert state.returns() == [0.5, 0.5, 0.0]
