"""One decision mixing options built from lists with fixed options (tests/definitions/decisions.yaml).

``"play {c}" for c in hand(p) if c.value > 0:`` is one option per card, next to ``"draw a card"`` and
``"pass"``; labels name cards and players, never internal numbers.
"""

from __future__ import annotations

from collections import Counter

import pytest

from interpreter import RuleError, State, load_game
from interpreter.agents import RandomAgent
from test_mechanisms import load, play_until_over, snapshot, write_definition, zone


def fresh(players=3, **scenario):
    return load("decisions").new_game(players, seed=0, scenario=scenario or None)


def test_a_menu_offers_one_option_per_card_beside_its_fixed_options():
    state = fresh()
    # two identical lows are one option; the blank (value 0) fails the entry's condition; no points: no gifts
    assert state.legal_actions(0) == ["play low", "play high", "draw a card", "pass"]


def test_choosing_a_built_option_runs_its_entry_with_that_item():
    state = fresh()
    state.apply(0, "play high")
    assert zone(state, "pile") == ["high"] and sorted(zone(state, "hand(1)")) == ["blank", "low", "low"]
    assert state.pv["points"] == [3, 0, 0]
    state.apply(1, "pass")
    state.apply(2, "pass")
    assert state.legal_actions(0) == ["play low", "give a point to player 2", "give a point to player 3",
                                      "draw a card", "pass"]
    state.apply(0, "give a point to player 3")
    assert state.pv["points"] == [2, 0, 1] and state.gv["gifts"] == 1


def test_a_fixed_option_chosen_in_a_mixed_menu_runs_only_its_own_code():
    state = fresh()
    state.apply(0, "draw a card")
    assert sorted(zone(state, "hand(1)")) == ["blank", "coin", "high", "low", "low"]
    assert zone(state, "pile") == [] and state.pv["points"] == [0, 0, 0]


def test_a_mixed_decision_with_one_option_is_taken_without_asking():
    state = fresh(zones={"hand(1)": ["blank"], "deck": []})
    # seat 1 can only pass: it is taken at once, and seat 2 is asked
    assert state.current_players() == [1]
    assert state.legal_actions(1) == ["play low", "play high", "pass"]


def test_a_save_at_a_pending_mixed_decision_resumes_it():
    game = load("decisions")
    state = game.new_game(3, seed=0)
    for action in ("play high", "pass", "draw a card"):
        state.apply(state.current_players()[0], action)
    restored = State.from_json(game, state.to_json())
    assert restored.legal_actions(0) == state.legal_actions(0) == [
        "play low", "give a point to player 2", "give a point to player 3", "draw a card", "pass"]
    for s in (state, restored):
        s.apply(0, "give a point to player 2")
    assert snapshot(restored) == snapshot(state)
    assert restored.pv["points"] == [2, 1, 0]


def test_the_random_bot_plays_uniformly_over_a_mixed_decision():
    state = fresh()
    state.apply(0, "play high")
    state.apply(1, "pass")
    state.apply(2, "pass")
    options = state.legal_actions(0)
    assert len(options) == 5
    bot = RandomAgent(seed=11)
    outcomes = Counter()
    draws = 3000
    for _ in range(draws):
        s = state.clone()
        s.apply(0, bot.choose(None, s.legal_actions(0)))
        outcomes[(tuple(zone(s, "pile")), tuple(s.pv["points"]), len(zone(s, "hand(1)")))] += 1
    # five different outcomes, each about a fifth of the draws (4 standard deviations: 3000/5 +- 88)
    assert len(outcomes) == 5
    assert all(abs(n - draws / 5) < 4 * (draws * 0.2 * 0.8) ** 0.5 for n in outcomes.values()), outcomes


def test_a_card_chosen_in_a_menu_is_narrated_with_its_zones_secrecy():
    state = fresh()
    state.apply(0, "play low")  # the log line is written while the card is still in the owner's hand
    assert state.narration(0) == ["player 1 plays low"]
    assert state.narration(1) == ["player 1 plays a card"]


def test_random_games_of_a_mixed_menu_end():
    for seed in range(5):
        state = load("decisions").new_game(3, seed=seed)
        bots = [RandomAgent(seed=seed * 10 + i) for i in range(3)]
        play_until_over(state, lambda actions: bots[state.current_players()[0]].choose(None, actions))
        assert state.is_terminal() and state.gv["gifts"] >= 0


def test_a_menu_entry_in_a_procedure_called_twice_binds_its_item_each_time(tmp_path):
    path = write_definition(tmp_path, "twice", "decisions", "  take_turn(player p): |\n    ask p:\n",
                            "  take_turn(player p): |\n    let c = 5\n    choose(p)\n    choose(p)\n"
                            "    game.gifts += c\n  choose(player p): |\n    ask p:\n")
    state = load_game(path).new_game(2, seed=0)
    state.apply(0, "play high")
    assert state.legal_actions(0) == ["play low", "give a point to player 2", "draw a card", "pass"]
    state.apply(0, "play low")
    assert zone(state, "pile") == ["high", "low"] and state.pv["points"] == [4, 0]
    assert state.gv["gifts"] == 5  # the caller's own 'c' is untouched by the entry's variable


def test_two_options_that_read_the_same_stop_the_rules_naming_the_entry(tmp_path):
    path = write_definition(tmp_path, "same", "decisions", '"play {c}" for c', '"play for {p}" for c')
    game = load_game(path)
    with pytest.raises(RuleError) as info:
        game.new_game(3, seed=0)
    line = path.read_text().splitlines().index('      "play for {p}" for c in hand(p) if c.value > 0:') + 1
    assert str(info.value) == (
        f"{path}:{line}:7: procedures.take_turn(player p): two options of this decision read 'play for player 1'; "
        "give each its own text (name the item in it, as in \"play {c}\")\n"
        "          \"play for {p}\" for c in hand(p) if c.value > 0:\n"
        "          ^")


def test_a_text_item_shown_as_an_empty_label_stops_the_rules(tmp_path):
    path = write_definition(tmp_path, "empty", "decisions", '      "pass":\n',
                            '      "{t}" for t in ["", "wait"]:\n        pass\n      "pass":\n')
    with pytest.raises(RuleError, match=r"an option of this decision reads '' \(an empty text\); players "
                                        r"could not name it"):
        load_game(path).new_game(3, seed=0)


def test_choosing_among_texts_offers_the_texts_themselves(tmp_path):
    path = write_definition(tmp_path, "texts", "decisions", '      "pass":\n',
                            '      "{t}" for t in ["wait", "sleep"]:\n        if t == "sleep":\n'
                            '          game.gifts += 5\n')
    state = load_game(path).new_game(3, seed=0)
    assert state.legal_actions(0) == ["play low", "play high", "draw a card", "wait", "sleep"]
    state.apply(0, "sleep")
    assert state.gv["gifts"] == 5


def test_a_fixed_option_fills_in_the_values_its_text_shows(tmp_path):
    path = write_definition(tmp_path, "fixed_text", "decisions", '      "pass":\n',
                            '      "pass with {size(hand(p))} cards":\n')
    state = load_game(path).new_game(3, seed=0)
    assert state.legal_actions(0)[-1] == "pass with 4 cards"  # low, low, high, blank
    state.apply(0, "play high")
    state.apply(1, "draw a card")
    assert state.legal_actions(2)[-1] == "pass with 4 cards"
    state.apply(2, "play high")
    assert state.legal_actions(0)[-1] == "pass with 3 cards"  # made when the decision is made


def test_a_fixed_option_showing_an_unknown_name_is_refused_at_load(tmp_path):
    from interpreter import DefinitionError
    path = write_definition(tmp_path, "fixed_typo", "decisions", '      "pass":\n', '      "pass with {hnad}":\n')
    with pytest.raises(DefinitionError, match="unknown name 'hnad'"):
        load_game(path)


def test_an_option_text_showing_two_zones_shows_each_of_them(tmp_path):
    path = write_definition(tmp_path, "two_zones", "decisions", '      "pass":\n',
                            '      "pass holding {hand(p)} beside {pile}":\n')
    state = load_game(path).new_game(3, seed=0)
    state.apply(0, "play high")
    state.apply(1, "draw a card")
    assert state.legal_actions(2)[-1] == "pass holding low, low, high, blank beside high"


def test_a_choice_of_one_card_offers_each_text_once_valued_by_its_first_card_in_order():
    from interpreter.runtime.decisions import one_card_options

    labels_of = ["take frog", "take newt", "take frog", "take toad", "take newt"]
    assert one_card_options([4, 2, 3, 0, 1], labels_of) == (["take newt", "take frog", "take toad"], [4, 2, 3])
    assert one_card_options([3, 0, 1], labels_of) == (["take toad", "take frog", "take newt"], [3, 0, 1])
    cards = [1, 0]
    labels, values = one_card_options(cards, labels_of)
    values.append(9)
    assert cards == [1, 0]  # the values are a list of their own, never the zone itself
    assert one_card_options([], labels_of) == ([], [])


def test_a_card_an_option_text_shows_reads_as_its_name_and_none_as_none(tmp_path):
    # (the texts are read from one table of the cards' texts: it must read as describe_value does)
    path = write_definition(tmp_path, "card_texts", "decisions", '      "pass":\n',
                            '      "pass under {top(pile)}":\n')
    state = load_game(path).new_game(3, seed=0)
    assert state.legal_actions(0)[-1] == "pass under none"  # the pile is empty
    state.apply(0, "play high")
    assert state.legal_actions(1)[-1] == "pass under high"
    assert state.legal_actions(1)[:2] == ["play low", "play high"]
