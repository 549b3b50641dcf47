"""A variant's setting named like a game parameter sets that parameter's value (docs/authoring.md, "`parameters`
of a variant").

The game is tests/definitions/set_parameters.yaml: ``hand_size`` is read in setup, ``play_bonus``, ``doubled``
and ``greeting`` in an effect; ``tables_by_count`` and ``seat_names`` are a table and a list.  Its variants
(tests/definitions/variants/set_parameters/) set them; hostile ones are written to a temporary folder.
"""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest

from interpreter import DefinitionError, SaveFileError, State, load_game
from interpreter.state import fingerprint

from conftest import REPO_ROOT, zone

GAME = REPO_ROOT / "tests" / "definitions" / "set_parameters.yaml"
VARIANTS = REPO_ROOT / "tests" / "definitions" / "variants" / "set_parameters"
HAND = VARIANTS / "hand.yaml"
SCORES = VARIANTS / "scores.yaml"


def variant(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text("variant: Test\ngame: Set Parameters\n" + textwrap.dedent(body).lstrip(), encoding="utf-8")
    return path


def error_of(*refs) -> str:
    with pytest.raises(DefinitionError) as info:
        load_game(GAME, variants=[str(r) for r in refs])
    return str(info.value)


def dealt(state) -> int:
    """Cards out of the deck (in hands, or already played: a choice among equal cards plays itself)."""
    return 15 - len(zone(state, "deck"))


def played_out(game, players=3, seed=1) -> State:
    state, rng = game.new_game(players, seed=seed), random.Random(seed)
    while not state.is_terminal():
        seat = state.current_players()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


# ---------------------------------------------------------------- a setting sets the game's parameter
def test_a_setting_named_like_a_game_parameter_sets_it_for_the_rule_that_reads_it_in_setup():
    assert dealt(load_game(GAME).new_game(3, seed=1)) == 3 * 2  # the game's own hand_size
    game = load_game(GAME, variants=["hand:hand_size=5"])
    assert game.params["hand_size"] == 5
    assert dealt(game.new_game(3, seed=1)) == 3 * 5


def test_without_a_setting_the_variants_default_applies_even_where_it_differs_from_the_games():
    game = load_game(GAME, variants=["hand"])
    assert game.params["hand_size"] == 3 and game.variants == ["hand:hand_size=3"]
    assert dealt(game.new_game(2, seed=1)) == 2 * 3


@pytest.mark.parametrize("settings, per_card", [("", 1), (":play_bonus=3", 3), (":play_bonus=3,doubled=true", 6),
                                                (":doubled=yes", 2)])
def test_settings_of_a_whole_number_and_a_true_false_parameter_reach_the_effect_that_reads_them(settings, per_card):
    state = played_out(load_game(GAME, variants=[f"scores{settings}"]))
    values = {"one": 1, "two": 2, "three": 3}
    cards = zone(state, "table")
    assert len(cards) == 6 and sum(state.scores()) == sum(values[c] for c in cards) + per_card * len(cards)


def test_a_text_setting_sets_a_text_parameter_and_the_log_says_it():
    plain = played_out(load_game(GAME, variants=["scores"]))
    greeted = played_out(load_game(GAME, variants=["scores:greeting=ahoy"]))
    assert all(line.startswith("hello: ") for line in plain.log if "plays" in line)
    assert [line.startswith("ahoy: ") for line in greeted.log if "plays" in line] == [True] * 6


def test_a_setting_of_its_own_beside_settings_of_game_parameters_is_still_a_new_parameter():
    game = load_game(GAME, variants=["scores:end_bonus=1"])
    assert game.params["end_bonus"] == 1 and "end_bonus" not in load_game(GAME).params


# ---------------------------------------------------------------- composing
def test_an_extending_variant_sets_again_what_the_variant_it_extends_set_and_its_value_wins():
    assert load_game(GAME, variants=["bigger_hand"]).params["hand_size"] == 5
    assert load_game(GAME, variants=["bigger_hand:hand_size=4"]).params["hand_size"] == 4
    game = load_game(GAME, variants=["hand:hand_size=1", "bigger_hand"])
    assert game.params["hand_size"] == 5 and dealt(game.new_game(2, seed=0)) == 2 * 5
    assert game.variants == ["hand:hand_size=1", "bigger_hand:hand_size=5"]


def test_two_variants_setting_the_same_parameter_conflict_naming_both_places(tmp_path):
    other = variant(tmp_path, "other.yaml", """
        parameters:
          hand_size: {default: 1, one_of: [1, 2]}
        """)
    assert error_of("hand", other).splitlines()[0] == (
        f"{other}:4:3: parameters.hand_size: variants 'hand' and 'other' both change parameter 'hand_size': "
        f"{HAND}:5:3 sets it, and {other}:4:3 sets it. Use only one of the two variants, "
        "or make 'other' extend 'hand'")


def test_a_setting_of_a_parameter_another_variant_replaced_conflicts_unless_it_extends_that_variant(tmp_path):
    replaced = variant(tmp_path, "replaced.yaml", """
        replace:
          parameters:
            hand_size: 4
        """)
    setting = variant(tmp_path, "setting.yaml", """
        parameters:
          hand_size: {default: 1, one_of: [1, 2]}
        """)
    assert error_of(replaced, setting).splitlines()[0] == (
        f"{setting}:4:3: parameters.hand_size: variants 'replaced' and 'setting' both change parameter 'hand_size': "
        f"{replaced}:5:5 replaces it, and {setting}:4:3 sets it. Use only one of the two variants, or make "
        "'setting' extend 'replaced'")
    extending = variant(tmp_path, "extending.yaml", """
        extends: [replaced]
        parameters:
          hand_size: {default: 1, one_of: [1, 2]}
        """)
    assert load_game(GAME, variants=[str(extending)]).params["hand_size"] == 1


def test_a_variant_that_replaces_and_sets_the_same_parameter_is_refused_at_the_setting(tmp_path):
    both = variant(tmp_path, "both.yaml", """
        replace:
          parameters:
            hand_size: 4
        parameters:
          hand_size: {default: 1}
        """)
    assert error_of(both).splitlines()[0] == (
        f"{both}:7:3: parameters.hand_size: this variant changes parameter 'hand_size' twice: {both}:5:5 replaces "
        "it, and its setting 'hand_size' sets it; drop the 'replace' and give the value as the setting's default")


def test_a_setting_in_an_extends_entry_sets_the_game_parameter():
    game = load_game(GAME, variants=["one_card"])
    assert game.params["hand_size"] == 1 and dealt(game.new_game(2, seed=0)) == 2 * 1
    assert game.variants == ["hand:hand_size=1", "one_card"]


# ---------------------------------------------------------------- saves
def test_a_save_made_with_a_setting_does_not_reload_with_another_value_of_it():
    five = load_game(GAME, variants=["hand:hand_size=5"])
    saved = json.loads(json.dumps(five.new_game(2, seed=2).to_json()))
    for other in (["hand:hand_size=3"], ["hand"], [], ["bigger_hand:hand_size=5"]):
        with pytest.raises(SaveFileError, match="different definition"):
            State.from_json(load_game(GAME, variants=other), saved)
    assert State.from_json(load_game(GAME, variants=["hand:hand_size=5"]), saved).to_json() == saved


def test_the_fingerprint_tells_the_values_of_a_setting_apart_and_a_default_from_its_value_given():
    prints = {ref: fingerprint(load_game(GAME, variants=[ref])) for ref in
              ("hand:hand_size=1", "hand:hand_size=2", "hand:hand_size=3", "hand:hand_size=5")}
    assert len(set(prints.values())) == 4 and fingerprint(load_game(GAME)) not in prints.values()
    assert fingerprint(load_game(GAME, variants=["hand"])) == prints["hand:hand_size=3"]  # the default, spelt out
