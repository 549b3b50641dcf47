"""Kaeru: the components, the setup and every ruling, from hand-built positions.

Rulings: shared/design/rulings/kaeru.md (the variants are in test_kaeru_variants.py).  Positions are scenarios (setup does not
run, player 1 is to move); per-space zones are labelled ``lily(l3)``, ``prey(l3)``
(the face-up top card of the lily's stack) and ``stack(l3)`` (the face-down rest,
bottom to top).  Every lily not named gets a face-up prey and two cards beneath
it, so a frog landing anywhere has something to eat.  The ring runs l1 -> l2 ->
l3 -> l4 -> l5 -> l1 clockwise.
"""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import REPO_ROOT
from interpreter import load_game

KAERU = REPO_ROOT / "definitions" / "kaeru.yaml"
LILIES = ["l1", "l2", "l3", "l4", "l5"]

SMALL1, MEDIUM1, LARGE1 = "player 1 small frog (1 pip)", "player 1 medium frog (2 pips)", "player 1 large frog (3 pips)"
SMALL2, MEDIUM2, LARGE2 = "player 2 small frog (1 pip)", "player 2 medium frog (2 pips)", "player 2 large frog (3 pips)"
ELEMENTS = ["air", "earth", "ether", "fire", "water"]


@pytest.fixture(scope="module")
def kaeru():
    return load_game(KAERU)


def element_cards(game) -> list[str]:
    """The names of the 40 element cards, one entry per copy."""
    return [n for n in game.card_names if n.split(" card: ")[0] in ("whole", "half", "quarter")]


def position(game, lilies=None, prey=None, stacks=None, eaten=None, goals=("goal: fire", "goal: earth"),
             common="goal: water", gap_after="l1", game_variables=None):
    """A hand-built table: frogs on ``lilies``, the face-up ``prey`` and face-down ``stacks`` by lily.

    ``prey[sp]`` is a card name (or None for a face-down top); lilies left out get filler cards
    not named anywhere else.  Player 1 likes fire, player 2 earth, and water is the common goal.
    """
    lilies, prey, stacks, eaten = lilies or {}, prey or {}, stacks or {}, eaten or {}
    named = [c for c in prey.values() if c] + [c for cs in stacks.values() for c in cs] \
        + [c for cs in eaten.values() for c in cs]
    filler = Counter(element_cards(game)) - Counter(named)
    pool = sorted(filler.elements())
    zones = {}
    for sp in LILIES:
        zones[f"lily({sp})"] = list(lilies.get(sp, []))
        if sp in prey:
            zones[f"prey({sp})"] = [prey[sp]] if prey[sp] else []
        else:
            zones[f"prey({sp})"] = [pool.pop()]
        zones[f"stack({sp})"] = list(stacks[sp]) if sp in stacks else [pool.pop(), pool.pop()]
    for seat, cards in eaten.items():
        zones[f"eaten({seat})"] = list(cards)
    zones["goal(1)"], zones["goal(2)"] = [goals[0]], [goals[1]]
    zones["common_goal"] = [common]
    variables = {"gap_after": gap_after, **(game_variables or {})}
    return game.new_game(2, scenario={"zones": zones, "game_variables": variables})


def zone(state, label):
    game = state.game
    index = next(i for i in range(game.zone_count) if game.zone_label(i) == label)
    return [game.card_names[c] for c in state.zones[index]]


def move(state, seat, frog):
    """Player ``seat`` (1 or 2) moves ``frog``."""
    state.apply(seat - 1, f"move {frog}")
    return state


def options(state, seat):
    return sorted(a.removeprefix("move ") for a in state.legal_actions(seat - 1))


# ==================================================================== components and setup
def test_deck_has_ten_whole_twenty_half_and_ten_quarter_cards(kaeru):
    sizes = Counter(name.split(" card: ")[0] for name in element_cards(kaeru))
    assert sizes == {"whole": 10, "half": 20, "quarter": 10}


def test_each_element_shows_on_two_whole_eight_half_and_eight_quarter_cards(kaeru):
    elements, panel = kaeru.properties["elements"][0], kaeru.properties["panel"][0]
    for element in ELEMENTS:
        showing = Counter(panel[c] for c, name in enumerate(kaeru.card_names) if element in elements[c])
        assert showing == {"whole": 2, "half": 8, "quarter": 8}, element


def test_setup_makes_five_stacks_of_eight_with_only_the_top_card_face_up(kaeru):
    state = kaeru.new_game(2, seed=11)
    view = state.view(0)
    for sp in LILIES:
        assert len(zone(state, f"prey({sp})")) == 1 and len(zone(state, f"stack({sp})")) == 7
        assert view["zones"][f"stack({sp})"] == {"count": 7}
        assert view["zones"][f"prey({sp})"] == {"cards": zone(state, f"prey({sp})")}
    assert zone(state, "deck") == []


def test_setup_deals_a_goal_to_each_player_one_to_the_centre_and_sets_two_aside_face_down(kaeru):
    state = kaeru.new_game(2, seed=5)
    dealt = zone(state, "goal(1)") + zone(state, "goal(2)") + zone(state, "common_goal")
    assert len(dealt) == 3 and len(set(dealt)) == 3
    assert sorted(dealt + zone(state, "out_of_game")) == [f"goal: {e}" for e in ELEMENTS]
    view = state.view(0)
    assert view["zones"]["out_of_game"] == {"count": 2}
    assert view["zones"]["goal(2)"] == {"cards": zone(state, "goal(2)")}  # goals are shown to both


def test_all_six_frogs_start_in_the_same_gap_and_player_1_moves_first(kaeru):
    state = kaeru.new_game(2, seed=2)
    assert sorted(zone(state, "gap")) == sorted([SMALL1, MEDIUM1, LARGE1, SMALL2, MEDIUM2, LARGE2])
    assert state.current_players() == [0]
    assert options(state, 1) == sorted([SMALL1, MEDIUM1, LARGE1])


def test_the_starting_gap_is_chosen_at_random_among_the_five(kaeru):
    assert {kaeru.new_game(2, seed=s).gv["gap_after"] for s in range(40)} == set(LILIES)


# ==================================================================== ruling 1: moving
def test_from_the_gap_player_1_jumps_clockwise_and_player_2_counterclockwise(kaeru):
    # The gap lies between l1 and l2: a move of 1 reaches the first lily in each direction.
    state = position(kaeru, gap_after="l1")
    move(state, 1, SMALL1)
    move(state, 2, SMALL2)
    assert zone(state, "lily(l2)") == [SMALL1]
    assert zone(state, "lily(l1)") == [SMALL2]


def test_large_frogs_leaving_the_gap_both_reach_the_lily_opposite(kaeru):
    state = position(kaeru, gap_after="l3")  # gap between l3 and l4; l1 is three lilies from it either way
    move(state, 1, LARGE1)
    move(state, 2, LARGE2)
    assert zone(state, "lily(l1)") == [LARGE1, LARGE2]


def test_the_ring_closes_clockwise_from_the_last_lily_to_the_first(kaeru):
    state = position(kaeru, lilies={"l4": [MEDIUM1]})
    move(state, 1, MEDIUM1)
    assert zone(state, "lily(l1)") == [MEDIUM1]


def test_a_player_moves_only_their_own_frogs(kaeru):
    state = position(kaeru, lilies={"l3": [MEDIUM2, SMALL1]})
    assert options(state, 1) == sorted([SMALL1, MEDIUM1, LARGE1])
    assert state.legal_actions(1) == []


# ==================================================================== ruling 2: landing and eating
def test_landing_on_an_empty_lily_eats_the_top_card_and_turns_the_next_face_up(kaeru):
    state = position(kaeru, prey={"l2": "whole card: fire"},
                     stacks={"l2": ["half card: air + earth", "whole card: air"]})
    move(state, 1, SMALL1)
    assert zone(state, "eaten(1)") == ["whole card: fire"]
    assert zone(state, "prey(l2)") == ["whole card: air"]
    assert zone(state, "stack(l2)") == ["half card: air + earth"]
    assert state.view(1)["zones"]["prey(l2)"] == {"cards": ["whole card: air"]}


def test_landing_on_an_occupied_lily_piles_on_top_and_eats_nothing(kaeru):
    state = position(kaeru, lilies={"l2": [MEDIUM2]}, prey={"l2": "whole card: fire"})
    move(state, 1, SMALL1)
    assert zone(state, "lily(l2)") == [MEDIUM2, SMALL1]
    assert zone(state, "eaten(1)") == []
    assert zone(state, "prey(l2)") == ["whole card: fire"]


def test_landing_on_a_pile_of_two_stands_on_top_of_both(kaeru):
    state = position(kaeru, lilies={"l4": [MEDIUM2, SMALL2]})
    move(state, 1, LARGE1)
    assert zone(state, "lily(l4)") == [MEDIUM2, SMALL2, LARGE1]
    assert zone(state, "eaten(1)") == []


def test_jumping_over_piles_on_the_way_is_free_and_the_frog_eats_where_it_lands(kaeru):
    state = position(kaeru, lilies={"l2": [MEDIUM2], "l3": [SMALL2, LARGE2]}, prey={"l4": "half card: fire + water"})
    move(state, 1, LARGE1)
    assert zone(state, "lily(l4)") == [LARGE1]
    assert zone(state, "eaten(1)") == ["half card: fire + water"]
    assert zone(state, "lily(l2)") == [MEDIUM2] and zone(state, "lily(l3)") == [SMALL2, LARGE2]


def test_a_frog_leaving_a_lily_leaves_the_frogs_below_it_there(kaeru):
    state = position(kaeru, lilies={"l2": [SMALL2, MEDIUM1]})
    move(state, 1, MEDIUM1)
    assert zone(state, "lily(l2)") == [SMALL2]
    assert zone(state, "lily(l4)") == [MEDIUM1]


# ==================================================================== ruling 3: climbing
def test_climbing_with_points_left_over_jumps_the_remaining_lilies(kaeru):
    # The large frog pays 1 to climb over the small frog, then jumps 2 lilies: l3 -> l5.
    state = position(kaeru, lilies={"l3": [LARGE1, SMALL2]}, prey={"l5": "whole card: water"})
    move(state, 1, LARGE1)
    assert zone(state, "lily(l3)") == [SMALL2]
    assert zone(state, "lily(l5)") == [LARGE1]
    assert zone(state, "eaten(1)") == ["whole card: water"]


def test_climbing_over_two_frogs_with_three_pips_leaves_one_jump(kaeru):
    state = position(kaeru, lilies={"l3": [LARGE2, SMALL1, MEDIUM1]}, prey={"l2": "whole card: earth"})
    move(state, 1, LARGE1)  # player 1 moves its large frog out of the gap first (to l4)
    move(state, 2, LARGE2)
    assert zone(state, "lily(l3)") == [SMALL1, MEDIUM1]
    assert zone(state, "lily(l2)") == [LARGE2]
    assert zone(state, "eaten(2)") == ["whole card: earth"]


def test_climbing_with_no_points_left_stays_on_top_of_the_pile_and_eats_nothing(kaeru):
    state = position(kaeru, lilies={"l3": [MEDIUM1, SMALL2, LARGE2]})
    move(state, 1, MEDIUM1)
    assert zone(state, "lily(l3)") == [SMALL2, LARGE2, MEDIUM1]
    assert zone(state, "eaten(1)") == []
    assert all(zone(state, f"lily({sp})") == [] for sp in LILIES if sp != "l3")


def test_climbing_with_too_few_points_stops_inside_the_pile(kaeru):
    state = position(kaeru, lilies={"l3": [SMALL1, MEDIUM2, LARGE2]})
    move(state, 1, SMALL1)
    assert zone(state, "lily(l3)") == [MEDIUM2, SMALL1, LARGE2]


def test_a_frog_on_top_of_a_pile_jumps_at_once(kaeru):
    state = position(kaeru, lilies={"l3": [LARGE2, MEDIUM1]})
    move(state, 1, MEDIUM1)
    assert zone(state, "lily(l3)") == [LARGE2]
    assert zone(state, "lily(l5)") == [MEDIUM1]


# ==================================================================== ruling 4: no climbing back (small frogs)
def test_a_small_frog_climbed_over_by_the_other_small_frog_cannot_climb_back(kaeru):
    state = position(kaeru, lilies={"l3": [SMALL1, SMALL2]})
    move(state, 1, SMALL1)
    assert zone(state, "lily(l3)") == [SMALL2, SMALL1]
    assert options(state, 2) == sorted([MEDIUM2, LARGE2])


def test_a_small_frog_jumped_on_by_the_other_small_frog_may_climb_over_it(kaeru):
    state = position(kaeru, lilies={"l2": [SMALL2]})
    move(state, 1, SMALL1)  # from the gap onto l2: a landing, not a climb
    assert zone(state, "lily(l2)") == [SMALL2, SMALL1]
    assert options(state, 2) == sorted([SMALL2, MEDIUM2, LARGE2])
    move(state, 2, SMALL2)  # now player 2's small frog climbs over player 1's ...
    assert zone(state, "lily(l2)") == [SMALL1, SMALL2]
    assert options(state, 1) == sorted([MEDIUM1, LARGE1])  # ... which may not climb back


def test_a_frog_landing_on_top_does_not_free_the_small_frog_underneath(kaeru):
    state = position(kaeru, lilies={"l3": [SMALL1, SMALL2], "l1": [LARGE2]}, gap_after="l5")
    move(state, 1, SMALL1)
    move(state, 2, MEDIUM2)  # from the gap (l5|l1) counter-clockwise: l5, l4
    move(state, 1, LARGE1)   # from the gap clockwise: l1, l2, l3 -> onto the pile
    assert zone(state, "lily(l3)") == [SMALL2, SMALL1, LARGE1]
    assert options(state, 2) == sorted([MEDIUM2, LARGE2])


def test_the_small_frog_is_free_again_once_the_climber_leaves(kaeru):
    state = position(kaeru, lilies={"l3": [SMALL1, SMALL2]})
    move(state, 1, SMALL1)
    move(state, 2, MEDIUM2)
    move(state, 1, SMALL1)  # on top now: it jumps to l4
    assert zone(state, "lily(l3)") == [SMALL2] and zone(state, "lily(l4)") == [SMALL1]
    assert options(state, 2) == sorted([SMALL2, MEDIUM2, LARGE2])
    assert state.gv["climbed"] is None


def test_a_frog_climbing_from_below_past_both_small_frogs_does_not_free_the_covered_one(kaeru):
    # Climbing past them, the medium frog ends on top: the climber is still directly on top.
    state = position(kaeru, lilies={"l3": [MEDIUM2, SMALL1, SMALL2]})
    move(state, 1, SMALL1)
    move(state, 2, MEDIUM2)
    assert zone(state, "lily(l3)") == [SMALL2, SMALL1, MEDIUM2]
    move(state, 1, LARGE1)
    assert options(state, 2) == sorted([MEDIUM2, LARGE2])


def test_the_no_climbing_back_rule_is_only_for_two_small_frogs(kaeru):
    state = position(kaeru, lilies={"l3": [SMALL1, MEDIUM2]})
    move(state, 1, SMALL1)  # player 1's small frog climbs over player 2's medium frog
    assert zone(state, "lily(l3)") == [MEDIUM2, SMALL1]
    assert options(state, 2) == sorted([SMALL2, MEDIUM2, LARGE2])
    move(state, 2, MEDIUM2)  # climbs back over it (1 point) and jumps 1 lily counter-clockwise
    assert zone(state, "lily(l3)") == [SMALL1] and zone(state, "lily(l2)") == [MEDIUM2]


# ==================================================================== rulings 5 and 6: the end and scoring
def test_emptying_a_stack_ends_the_game_at_once(kaeru):
    state = position(kaeru, prey={"l2": "whole card: fire"}, stacks={"l2": []})
    assert not state.is_terminal()
    move(state, 1, SMALL1)
    assert zone(state, "eaten(1)") == ["whole card: fire"]
    assert state.is_terminal() and state.current_players() == []


def test_a_stack_with_cards_left_does_not_end_the_game(kaeru):
    state = position(kaeru, prey={"l2": "whole card: fire"}, stacks={"l2": ["whole card: air"]})
    move(state, 1, SMALL1)
    assert not state.is_terminal() and state.current_players() == [1]


def test_scoring_by_favourite_and_common_prey_with_card_sizes(kaeru):
    # Player 1 likes fire, player 2 earth; water is the common goal.
    state = position(kaeru, prey={"l2": "whole card: fire"}, stacks={"l2": []}, eaten={
        1: ["half card: fire + water",       # both favourite and common: counts as favourite only, 3
            "whole card: water",             # common, big: 3
            "quarter card: all but air",     # favourite fire, small: 2
            "half card: air + ether",        # neither: 0
            "quarter card: all but fire"],   # common water, small: 1
        2: ["whole card: earth",             # favourite, big: 4
            "half card: earth + water",      # favourite (and common), medium: 3
            "half card: air + water",        # common, medium: 2
            "whole card: fire"]})            # player 1's favourite, nothing for player 2: 0
    move(state, 1, SMALL1)                   # eats the last card of l2: whole card: fire, 4
    assert state.scores() == [3 + 3 + 2 + 0 + 1 + 4, 4 + 3 + 2 + 0]
    assert state.winners() == [0] and state.returns() == [1.0, 0.0]


def test_a_tie_is_a_shared_win(kaeru):
    state = position(kaeru, prey={"l2": "half card: air + fire"}, stacks={"l2": []},
                     eaten={2: ["whole card: earth", "half card: ether + water"]})
    move(state, 1, SMALL1)  # 3 for player 1; player 2 has 4 + 2
    assert state.scores() == [3, 6]
    state = position(kaeru, prey={"l2": "whole card: fire"}, stacks={"l2": []},
                     eaten={1: ["whole card: water"], 2: ["whole card: earth", "whole card: water"]})
    move(state, 1, SMALL1)
    assert state.scores() == [7, 7]
    assert state.winners() == [0, 1] and state.returns() == [0.5, 0.5]


# ==================================================================== the terminal
def test_the_terminal_draws_the_lilies_as_a_ring_with_each_pile_top_first(kaeru):
    from rich.console import Console

    from interpreter.render import render_view

    state = position(kaeru, lilies={"l3": [SMALL1, MEDIUM2, LARGE2]})
    console = Console(width=160, record=True)
    render_view(console, kaeru, state.view(0), 0)
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    assert "Board: a ring of 5 spaces, arrows point clockwise" in lines
    top = next(i for i, line in enumerate(lines) if "╭─ l1 " in line)
    # l1 -> l2 -> l3 along the top, then down to l4 and back along the bottom to l5, and up to l1
    assert [lines[top].index(f"╭─ {sp} ") for sp in ("l1", "l2", "l3")] == sorted(
        lines[top].index(f"╭─ {sp} ") for sp in ("l1", "l2", "l3"))
    bottom = next(i for i, line in enumerate(lines) if "╭─ l5 " in line)
    assert bottom > top and lines[bottom].index("╭─ l5 ") < lines[bottom].index("╭─ l4 ")
    assert lines[top + 1].count("→") == 2 and lines[bottom + 1].count("←") == 2
    pile = next(i for i, line in enumerate(lines) if "frogs: player 2 large frog (3 pips)" in line)  # the table's label
    assert "on player 2 medium frog (2 pips)" in lines[pile + 1]
    assert "on player 1 small frog (1 pip)" in lines[pile + 2]
