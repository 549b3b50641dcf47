"""The engine's general mechanisms, each proved on a tiny test-only game in tests/definitions/.

Frog Tower alone does not exercise secret simultaneous choices, private
information, triggers, modifiers, boards or multi-phase flows; Top Frog and
Kaeru need all of them.  Each game here isolates one mechanism so that a
failure points at it, and every test asserts an exact outcome.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter import DefinitionError, IllegalActionError, RuleError, State, load_game

DEFINITIONS = Path(__file__).parents[1] / "definitions"


def load(name: str):
    return load_game(DEFINITIONS / f"{name}.yaml")


def zone(state, label: str) -> list[str]:
    """The card names in a zone, bottom to top, by its label (e.g. 'hand(1)')."""
    g = state.game
    index = next(i for i in range(g.zone_count) if g.zone_label(i) == label)
    return [g.card_names[c] for c in state.zones[index]]


def board_query(game, text: str, **spaces):
    """Evaluate an effect-language expression in which every keyword argument is a board space."""
    from interpreter.dsl.compiler import Compiler, Scope
    from interpreter.dsl.parser import parse_expression

    fn, _ = Compiler(game).expr(parse_expression(text), Scope({n: "space" for n in spaces}, None))
    return fn(game.new_game(game.min_players, 0), dict(spaces))


def quantity(state, name: str, player: int) -> int:
    """The current value of a declared quantity for a player (base plus active modifiers)."""
    return state.game.quantities[name].compute(state, {"p": player})


def visible_cards(view) -> set[str]:
    """Every card name a view shows in its zones."""
    names = set()
    for shown in view["zones"].values():
        names.update(shown.get("cards", []))
        if shown.get("top"):
            names.add(shown["top"])
    return names


def snapshot(state) -> str:
    """The whole state as text (to_json() shares lists with the live state, so compare copies)."""
    return json.dumps(state.to_json(), sort_keys=True)


def play_until_over(state, pick=lambda actions: actions[0]):
    while not state.is_terminal():
        p = state.current_players()[0]
        state.apply(p, pick(state.legal_actions(p)))
    return state


def line_of(path: Path, text: str) -> int:
    """1-based line number of the first line of a file containing ``text``."""
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def write_definition(tmp_path, name: str, base: str, old: str, new: str) -> Path:
    """A copy of a test definition with one piece of text replaced (for small engine repros)."""
    text = (DEFINITIONS / f"{base}.yaml").read_text()
    assert old in text
    path = tmp_path / f"{name}.yaml"
    path.write_text(text.replace(old, new))
    return path


# ==================================================================== simultaneous secret choice
DUEL_HANDS = {"zones": {"hand(1)": ["one", "five", "nine"],
                        "hand(2)": ["two", "six", "ten"],
                        "hand(3)": ["three", "seven", "eleven"]}}


@pytest.fixture
def duel():
    return load("simultaneous").new_game(3, 0, scenario=DUEL_HANDS)


def test_secret_choice_asks_every_player_at_once(duel):
    assert duel.current_players() == [0, 1, 2]
    assert duel.legal_actions(0) == ["play one", "play five", "play nine"]
    assert duel.legal_actions(1) == ["play two", "play six", "play ten"]
    assert duel.legal_actions(2) == ["play three", "play seven", "play eleven"]
    assert duel.prompt() == "play"


def test_secret_pick_is_not_in_other_players_views_until_all_have_chosen(duel):
    duel.apply(0, "play nine")
    for viewer in (1, 2, None):
        view = duel.view(viewer)
        assert view["decision"]["decided"] == [0]
        assert view["decision"]["waiting_for"] == [1, 2]
        assert view["zones"]["hand(1)"] == {"count": 3}  # the picked card has not left the hand yet
        assert "nine" not in json.dumps(view)
    own = duel.view(0)
    assert own["decision"]["your_options"] == []
    assert own["zones"]["hand(1)"] == {"cards": ["one", "five", "nine"]}
    own["zones"].pop("hand(1)")
    assert "nine" not in json.dumps(own)  # not even in the chooser's decision section


def test_secret_choices_may_be_made_in_any_order():
    game = load("simultaneous")
    picks = {0: "play five", 1: "play ten", 2: "play seven"}
    outcomes = set()
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        state = game.new_game(3, 0, scenario=DUEL_HANDS)
        for p in order:
            assert p in state.current_players()
            state.apply(p, picks[p])
        assert state.log == ["player 2 wins the round with ten."]
        assert state.pv["points"] == [0, 1, 0]
        outcomes.add(json.dumps([state.zones, state.loc, [f.to_json() for f in state.frames], state.pending and state.pending.to_json()]))
    assert len(outcomes) == 1  # the same position whatever the order


def test_highest_secret_pick_wins_the_round_once_all_have_chosen(duel):
    duel.apply(1, "play ten")
    duel.apply(0, "play five")
    assert duel.log == []  # nothing is resolved while player 3 is still choosing
    duel.apply(2, "play seven")
    assert duel.log == ["player 2 wins the round with ten."]
    assert duel.pv["points"] == [0, 1, 0]
    assert [zone(duel, f"played({s})") for s in (1, 2, 3)] == [["five"], ["ten"], ["seven"]]
    assert duel.current_players() == [0, 1, 2]  # the next round asks everyone again
    assert duel.legal_actions(0) == ["play one", "play nine"]


def test_last_card_is_played_without_asking_and_the_game_ends(duel):
    for picks in (("play nine", "play two", "play three"), ("play five", "play ten", "play eleven")):
        for p, action in enumerate(picks):
            duel.apply(p, action)
    assert duel.is_terminal()
    assert duel.log == ["player 1 wins the round with nine.", "player 3 wins the round with eleven.",
                        "player 3 wins the round with seven."]
    assert [zone(duel, f"played({s})") for s in (1, 2, 3)] == [["nine", "five", "one"], ["two", "ten", "six"],
                                                                ["three", "eleven", "seven"]]
    assert duel.scores() == [1, 0, 2]
    assert duel.winners() == [2]


def test_a_player_who_has_chosen_cannot_choose_again(duel):
    duel.apply(0, "play one")
    before = snapshot(duel)
    for action in ("play five", "play one"):
        with pytest.raises(IllegalActionError, match=r"not player 0's \(seat 1\) decision; waiting for player 1 \(seat 2\), player 2 \(seat 3\)"):
            duel.apply(0, action)
        assert snapshot(duel) == before
    assert duel.legal_actions(0) == []
    assert duel.current_players() == [1, 2]


def test_completing_a_secret_choice_on_a_clone_leaves_the_original(duel):
    duel.apply(0, "play one")
    duel.apply(1, "play two")
    before = snapshot(duel)
    copy = duel.clone()
    copy.apply(2, "play three")
    assert snapshot(duel) == before


# ==================================================================== hidden hands
@pytest.fixture
def hidden():
    return load("hidden_hands").new_game(3, 0, scenario={
        "zones": {"hand(1)": ["ant", "bee"], "hand(2)": ["cricket", "dragonfly"], "hand(3)": ["firefly", "gnat"]},
        "on_top": {"deck": ["earwig", "hornet"]}})


def test_each_player_sees_only_their_own_hand(hidden):
    assert hidden.legal_actions(0) == ["discard ant", "discard bee", "discard earwig"]
    zones = hidden.view(0)["zones"]
    assert zones["hand(1)"] == {"cards": ["ant", "bee", "earwig"]}
    assert zones["hand(2)"] == {"count": 2}
    assert zones["hand(3)"] == {"count": 2}
    assert zones["deck"] == {"count": 7}
    assert zones["discard"] == {"count": 0, "top": None}
    assert visible_cards(hidden.view(1)) == {"cricket", "dragonfly"}
    assert visible_cards(hidden.view(2)) == {"firefly", "gnat"}
    spectator = hidden.view(None)["zones"]
    assert [spectator[f"hand({s})"] for s in (1, 2, 3)] == [{"count": 3}, {"count": 2}, {"count": 2}]


def test_hidden_deck_shows_only_its_count(hidden):
    for viewer in (0, 1, 2, None):
        view = hidden.view(viewer)
        assert view["zones"]["deck"] == {"count": 7}
        assert "hornet" not in json.dumps(view)  # the next card of the deck


def test_discard_pile_shows_only_its_top_card(hidden):
    hidden.apply(0, "discard bee")
    hidden.apply(1, "discard cricket")
    assert zone(hidden, "discard") == ["bee", "cricket"]
    for viewer in (0, 1, 2, None):
        view = hidden.view(viewer)
        assert view["zones"]["discard"] == {"count": 2, "top": "cricket"}
        assert "bee" not in json.dumps(view)


def test_private_player_variable_is_absent_from_other_players_views(hidden):
    hidden.apply(0, "discard earwig")
    assert hidden.pv["tally"] == [5, 0, 0]
    assert hidden.view(0)["player_variables"][0] == {"tally": 5, "discards": 1}
    assert hidden.view(1)["player_variables"][0] == {"discards": 1}
    assert hidden.view(1)["player_variables"][1] == {"tally": 0, "discards": 0}
    assert hidden.view(None)["player_variables"] == [{"discards": 1}, {"discards": 0}, {"discards": 0}]


# ==================================================================== events, triggers, abilities
TRIGGERS = DEFINITIONS / "triggers.yaml"


def trigger_game(hand: list[str], draw: str = "pebble"):
    """Player 1 holds ``hand`` and draws ``draw``; player 2 will have a real choice on their turn."""
    return load("triggers").new_game(2, 0, scenario={"zones": {"hand(1)": hand, "hand(2)": ["pebble", "boulder"]},
                                                     "on_top": {"deck": [draw, "pebble"]}})


def test_game_triggers_run_in_order_before_the_card_ability():
    state = trigger_game(["echo"])
    state.apply(0, "play echo")
    assert state.log == ["trigger 1: player 1 played echo", "trigger 2: echo is big", "player 1 scores 1",
                         "echo chains for player 1", "player 1 scores 4"]
    assert state.pv["points"] == [5, 0]
    assert state.pv["big_plays"] == [1, 0]


def test_trigger_condition_reads_the_event_arguments():
    state = trigger_game(["boulder"])
    state.apply(0, "play pebble")
    assert state.log == ["trigger 1: player 1 played pebble"]
    assert state.pv["big_plays"] == [0, 0]
    state.apply(1, state.legal_actions(1)[0])
    state.apply(0, "play boulder")
    assert state.log[-3:] == ["trigger 1: player 1 played boulder", "trigger 2: boulder is big", "player 1 scores 1"]
    assert state.pv["big_plays"][0] == 1


def test_card_ability_can_ask_its_player_and_waits_for_the_answer():
    state = trigger_game(["oracle"], draw="boulder")
    state.apply(0, "play oracle")
    assert state.log == ["trigger 1: player 1 played oracle", "oracle asks player 1"]
    assert state.current_players() == [0]
    assert state.legal_actions(0) == ["gain 2", "draw a card"]
    state.apply(0, "gain 2")
    assert state.log[2] == "player 1 scores 2"
    assert state.pv["points"][0] == 2
    assert state.current_players() == [1]  # the turn ended after the ability


def test_suspended_ability_resumes_after_a_save_and_reload():
    state = trigger_game(["oracle"], draw="boulder")
    state.apply(0, "play oracle")
    loaded = State.from_json(state.game, json.loads(json.dumps(state.to_json())))
    assert loaded.legal_actions(0) == ["gain 2", "draw a card"]
    for s in (state, loaded):
        s.apply(0, "draw a card")
    assert snapshot(loaded) == snapshot(state)
    assert zone(loaded, "hand(1)") == ["boulder", "pebble"]


def test_endless_chain_of_asking_events_is_a_located_rule_error():
    state = trigger_game(["mirror"])
    before = snapshot(state)
    with pytest.raises(RuleError, match="an endless chain of events") as info:
        state.apply(0, "play mirror")
    loc = info.value.location
    assert (Path(loc.file).name, loc.key) == ("triggers.yaml", "components[4].when_played")
    assert loc.line == line_of(TRIGGERS, "emit played(card=card, player=player)")
    assert snapshot(state) == before


def test_endless_chain_of_direct_events_is_a_located_rule_error():
    state = trigger_game(["bell"])
    before = snapshot(state)
    with pytest.raises(RuleError) as info:
        state.apply(0, "play bell")
    assert snapshot(state) == before
    loc = info.value.location
    assert loc is not None and loc.key == "components[5].when_rung"


def test_trigger_event_key_needs_no_quotes(tmp_path):
    """YAML 1.1 would read a plain 'on' key as true; the loader keeps keys as the words written."""
    path = write_definition(tmp_path, "unquoted_on", "triggers", '- "on": scored', "- on: scored")
    game = load_game(path)
    assert [p.name for p in game.triggers["scored"]] == ["on scored"]


# ==================================================================== quantities and modifiers
def pockets_game(zones: dict):
    """Player 1 to play, with the given zones and two stones on top of the deck."""
    return load("modifiers").new_game(2, 0, scenario={"zones": zones, "on_top": {"deck": ["stone", "stone"]}})


def test_quantity_is_its_base_with_no_modifier_showing():
    state = pockets_game({"hand(1)": ["pocket", "stone"], "left(1)": ["stone"], "discard": ["lens"]})
    assert quantity(state, "hand_limit", 0) == 2  # a pocket in hand or a lens in the discard is not showing
    assert quantity(state, "draw_count", 0) == 1
    assert zone(state, "hand(1)") == ["pocket", "stone", "stone"]  # drew one card


def test_showing_card_raises_its_owners_quantity_only():
    state = pockets_game({"left(2)": ["pocket"]})
    assert [quantity(state, "hand_limit", p) for p in (0, 1)] == [2, 3]


def test_two_showing_copies_of_a_modifier_apply_twice():
    state = pockets_game({"hand(1)": ["pocket"] + ["stone"] * 4, "left(1)": ["pocket"], "right(1)": ["stone"]})
    state.apply(0, "play pocket")
    state.apply(0, "on the right pile")
    assert quantity(state, "hand_limit", 0) == 4
    assert state.pv["last_limit"][0] == 4
    assert zone(state, "hand(1)") == ["stone"] * 4  # five cards left, limit four: one was discarded
    assert zone(state, "discard") == ["stone"]
    assert state.current_players() == [1]


def test_covering_a_showing_card_switches_its_modifier_off():
    state = pockets_game({"hand(1)": ["stone"] * 4, "left(1)": ["pocket"], "right(1)": ["pocket"]})
    assert quantity(state, "hand_limit", 0) == 4
    state.apply(0, "on the left pile")  # the only card in hand is a stone, played without asking
    assert zone(state, "left(1)") == ["pocket", "stone"]
    assert quantity(state, "hand_limit", 0) == 3
    assert state.pv["last_limit"][0] == 3
    assert zone(state, "hand(1)") == ["stone"] * 3
    assert zone(state, "discard") == ["stone"]


def test_modifier_amount_can_read_its_card():
    state = pockets_game({"left(1)": ["lens"]})
    assert quantity(state, "draw_count", 0) == 2  # lens value 3, adds value - 2
    assert zone(state, "hand(1)") == ["stone", "stone"]  # drew two at the start of the turn


# ==================================================================== boards
def ring_game(position="a"):
    piles = {"pile(a)": ["berry", "berry"], "pile(b)": ["berry", "plum"], "pile(c)": ["berry", "plum"],
             "pile(d)": ["berry", "plum"], "pile(e)": ["berry", "melon"]}
    return load("board_ring").new_game(2, 0, scenario={"zones": piles,
                                                        "player_variables": {"1": {"position": position}}})


def test_ring_steps_wrap_around_through_the_graph():
    game = load("board_ring")
    assert board_query(game, 'step(x, "clockwise")', x="e") == "a"
    assert board_query(game, 'step(x, "counterclockwise")', x="a") == "e"
    assert board_query(game, 'step(step(x, "clockwise"), "counterclockwise")', x="c") == "c"


def test_ring_spaces_each_have_two_neighbours_and_distance_goes_the_short_way():
    game = load("board_ring")
    assert board_query(game, "adjacent(x)", x="a") == ["b", "e"]
    assert board_query(game, "distance(x, y)", x="a", y="d") == 2
    assert board_query(game, "distance(x, y)", x="b", y="d") == 2
    assert board_query(game, "distance(x, y)", x="c", y="c") == 0


def test_hopping_clockwise_past_the_last_space_wraps_to_the_first_spaces():
    state = ring_game(position="e")
    state.apply(0, "hop 2")
    state.apply(0, "clockwise")
    assert state.log == ["player 1 hops from e to b"]
    assert state.pv["position"][0] == "b"
    assert state.pv["travelled"][0] == 2
    assert zone(state, "basket(1)") == ["plum"]
    assert zone(state, "pile(b)") == ["berry"]


def test_per_space_pile_shows_only_its_top_card():
    state = ring_game()
    zones = state.view(1)["zones"]
    assert [label for label in zones if label.startswith("pile")] == [f"pile({sp})" for sp in "abcde"]
    assert zones["pile(e)"] == {"count": 2, "top": "melon"}
    assert zones["pile(a)"] == {"count": 2, "top": "berry"}


def test_grid_corners_have_two_neighbours_and_extra_edges_add_neighbours():
    game = load("board_grid")
    assert board_query(game, "adjacent(x)", x="r1c1") == ["r1c2", "r2c1"]
    assert board_query(game, "adjacent(x)", x="r3c3") == ["r2c3", "r3c2"]
    assert board_query(game, "size(adjacent(x))", x="r2c2") == 4
    # an extra edge joins the middle of each side to the opposite side
    assert board_query(game, "adjacent(x)", x="r1c2") == ["r1c1", "r1c3", "r2c2", "r3c2"]


def test_stepping_off_the_grid_gives_none_except_through_an_extra_edge():
    game = load("board_grid")
    assert board_query(game, 'step(x, "north")', x="r1c1") is None
    assert board_query(game, 'step(x, "west")', x="r1c1") is None
    assert board_query(game, 'step(x, "east")', x="r1c1") == "r1c2"
    assert board_query(game, 'step(x, "north")', x="r1c2") == "r3c2"
    assert board_query(game, 'step(x, "east")', x="r2c3") == "r2c1"
    assert board_query(game, 'step(x, "south")', x="r1c2") == "r2c2"  # the grid edge is still there


def test_grid_distance_counts_steps_including_extra_edges():
    game = load("board_grid")
    assert board_query(game, "distance(x, y)", x="r1c1", y="r2c2") == 2
    assert board_query(game, "distance(x, y)", x="r1c1", y="r3c3") == 3  # r1c2, then across to r3c2
    assert board_query(game, "distance(x, y)", x="r1c2", y="r3c2") == 1


def test_leap_offers_only_directions_that_stay_on_the_board():
    game = load("board_grid")
    corner = game.new_game(2, 0, scenario={"player_variables": {"1": {"position": "r1c1"}}})
    assert corner.legal_actions(0) == ["leap east", "leap south"]
    middle_edge = game.new_game(2, 0, scenario={"player_variables": {"1": {"position": "r1c2"}}})
    assert middle_edge.legal_actions(0) == ["leap north", "leap east", "leap south", "leap west"]


def test_leap_through_an_extra_edge_collects_the_card_on_the_far_side():
    state = load("board_grid").new_game(2, 0, scenario={"zones": {"cell(r3c2)": ["moth"], "cell(r1c1)": ["fly"]},
                                                        "player_variables": {"1": {"position": "r1c2"}}})
    state.apply(0, "leap north")
    assert state.pv["position"][0] == "r3c2"
    assert zone(state, "catch(1)") == ["moth"]
    assert zone(state, "cell(r3c2)") == []
    assert state.pv["points"] == [2, 0]


def test_a_space_can_be_named_in_effect_text(tmp_path):
    path = write_definition(tmp_path, "named_space", "board_ring", "    let start = p.position\n",
                            '    let start = p.position\n    let corner = step("e", "clockwise")\n')
    game = load_game(path)
    assert game.name == "Ring Hop"


def test_a_space_variable_default_must_be_a_space_of_the_board(tmp_path):
    path = write_definition(tmp_path, "bad_space", "board_ring", "{default: a, kind: space}",
                            "{default: zz, kind: space}")
    with pytest.raises(DefinitionError, match="zz"):
        load_game(path)


# ==================================================================== phases, rounds and turn order
def rounds_game(players: int, deck: list[int]):
    """A game whose deck deals the given card values, in seat order, round after round."""
    return load("rounds").new_game(players, 0, scenario={"on_top": {"deck": [f"card {v}" for v in deck]}})


def test_round_phase_repeats_until_its_condition_then_the_next_phase_starts():
    state = rounds_game(3, [1, 2, 9, 4, 5, 6])
    assert state.log == ["deal round 1", "deal round 2"]
    assert [zone(state, f"hand({s})") for s in (1, 2, 3)] == [["card 1", "card 4"], ["card 2", "card 5"],
                                                               ["card 9", "card 6"]]
    assert state.gv["starter"] == 2
    assert state.gv["round"] == 3  # two deal rounds and the single starter round


def test_turns_go_counterclockwise_from_the_first_expression():
    state = rounds_game(3, [1, 2, 9, 4, 5, 6])
    order = []
    while not state.is_terminal():
        (p,) = state.current_players()
        order.append(p)
        state.apply(p, state.legal_actions(p)[-1])
    assert order == [2, 1, 0]  # then each holds one card, played without asking, in the same order
    assert state.log[2:] == ["turn 1: player 3 plays card 6", "turn 2: player 2 plays card 5",
                             "turn 3: player 1 plays card 4", "turn 4: player 3 plays card 9",
                             "turn 5: player 2 plays card 2", "turn 6: player 1 plays card 1",
                             "bonus round 4: player 3 gains 10"]


def test_counterclockwise_order_from_the_second_seat_wraps_to_the_last_seat():
    state = rounds_game(4, [1, 9, 2, 3, 4, 5, 6, 7])
    assert state.gv["starter"] == 1
    order = []
    while not state.is_terminal():
        (p,) = state.current_players()
        order.append(p)
        state.apply(p, state.legal_actions(p)[0])
    assert order == [1, 0, 3, 2]
    turns = [line.split(": ")[1].split(" plays")[0] for line in state.log if line.startswith("turn")]
    assert turns == ["player 2", "player 1", "player 4", "player 3"] * 2


def test_single_round_phase_runs_once_after_the_turns():
    state = play_until_over(rounds_game(2, [1, 2, 9, 4]))
    assert state.log[-1] == "bonus round 4: player 1 gains 10"
    assert state.gv["turn"] == 4
    assert state.scores() == [1 + 9 + 10, 2 + 4]
    assert state.winners() == [0]


ONCE_THEN_TURNS = """
game: Once then turns
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {opened: 0, turns_begun: 0}
procedures:
  opening(): |
    game.opened += 1
  take_turn(player p): |
    game.turns_begun += 1
    ask p:
      "go":
        pass
      "stop":
        end game
flow:
  - phase: opening
    round: [opening]
    repeat: false
    until: %s
  - phase: play
    turn: take_turn
scoring:
  score: 0
"""


@pytest.mark.parametrize("until", ["game.opened == 1", "game.opened == 5"])
def test_a_round_played_once_goes_on_into_the_next_phase_whether_or_not_its_until_holds(tmp_path, until):
    """'until' on a round that is not repeated ends a phase that ends anyway: the next phase's first turn begins
    either way (once, the until that held skipped the start of the next phase)."""
    path = tmp_path / "once.yaml"
    path.write_text(ONCE_THEN_TURNS % until)
    for build in (load_game(path), load_game(path).playout_build()):
        state = build.new_game(2, 0)
        assert (state.gv["opened"], state.gv["turns_begun"], state.gv["turn"]) == (1, 1, 1)
        assert state.current_players() == [0] and state.legal_actions(0) == ["go", "stop"]


# ==================================================================== failing rules
def test_a_rule_reading_a_property_of_nothing_is_a_located_rule_error_and_changes_nothing(tmp_path):
    path = write_definition(tmp_path, "empty_top", "hidden_hands", "    p.tally += dropped.value\n",
                            "    p.tally += top(deck).value\n")
    state = load_game(path).new_game(2, 0, scenario={"zones": {"deck": ["nit"], "hand(1)": ["ant"]}})
    before = snapshot(state)
    with pytest.raises(RuleError) as info:
        state.apply(0, "discard ant")  # the deck is empty now: top(deck) is none
    assert snapshot(state) == before
    assert info.value.location is not None and info.value.location.key == "procedures.take_turn(player p)"


@pytest.mark.parametrize("text, expected", [
    ("above(c)", ["cricket", "dragonfly"]),
    ("below(c)", ["ant"]),
    ("position(c)", 1),
])
def test_above_below_and_position_read_a_card_s_place_in_its_pile(text, expected):
    from interpreter.dsl.compiler import Compiler, Scope
    from interpreter.dsl.parser import parse_expression

    game = load_game(DEFINITIONS / "hidden_hands.yaml")
    state = game.new_game(2, seed=0)
    pile = game.zones["deck"].base  # lay a known pile out by hand: bottom to top
    ids = [game.card_names.index(name) for name in ("ant", "bee", "cricket", "dragonfly")]
    for card in ids:
        state.zones[state.loc[card]].remove(card)
        state.loc[card] = pile
    state.zones[pile] = list(ids)
    bee = ids[1]
    fn, _ = Compiler(game).expr(parse_expression(text), Scope({"c": "card"}, None))
    value = fn(state, {"c": bee})
    assert (value if isinstance(value, int) else [game.card_names[x] for x in value]) == expected


MOVES = """game: Moves
players: {min: 2, max: 2}
components:
  - {name: a, zone: deck}
  - {name: b, zone: deck}
  - {name: c, zone: deck}
  - {name: d, zone: deck}
  - {name: e, zone: deck}
  - {name: x, zone: pile}
zones:
  deck: {}
  pile: {}
  spare: {}
setup: |
  MOVES
procedures:
  take_turn(player p): |
    ask p:
      "a":
        pass
      "b":
        pass
flow:
  - phase: play
    turn: take_turn
"""


@pytest.mark.parametrize("moves, pile, deck", [
    ("move top(deck) to pile", ["x", "e"], ["a", "b", "c", "d"]),
    ("move top(deck) to pile at bottom", ["e", "x"], ["a", "b", "c", "d"]),
    ("move top(deck, 2) to pile", ["x", "d", "e"], ["a", "b", "c"]),            # the top two, in bulk, order kept
    ("move top(deck, 2) to pile at bottom", ["d", "e", "x"], ["a", "b", "c"]),
    ("move [bottom(deck), top(deck)] to pile", ["x", "a", "e"], ["b", "c", "d"]),  # not a top run: one by one
    ("move deck to pile at bottom", ["a", "b", "c", "d", "e", "x"], []),         # a whole zone
    ("move deck to pile", ["x", "a", "b", "c", "d", "e"], []),
])
def test_moves_keep_order_and_put_cards_on_top_or_at_the_bottom(tmp_path, moves, pile, deck):
    path = tmp_path / "moves.yaml"
    path.write_text(MOVES.replace("MOVES", moves), encoding="utf-8")
    state = load_game(path).new_game(2, seed=0)
    assert zone(state, "pile") == pile and zone(state, "deck") == deck
    assert all(state.zones[state.loc[c]].count(c) == 1 for z in state.zones for c in z)


@pytest.mark.parametrize("k, seat", [(1, 0), (3, 2), (4, 0), (0, 2), (-1, 1), (7, 0)])
def test_seat_counts_around_the_table_so_seat_0_is_the_last_player(k, seat):
    """docs/dsl.md: ``seat(1)`` is the first player and ``seat`` counts around the table (3 players here)."""
    from test_list_properties import evaluate

    state = load("hidden_hands").new_game(3, 0)
    assert evaluate(state, f"seat({k})") == seat
