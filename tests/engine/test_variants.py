"""Variants as overlays: naming, composing, parameters, and located errors for conflicts and dangling targets.

The base game is Frog Tower; the overlays are the shipped variants or small files written to a temporary
folder, referred to by path.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from interpreter import errors

from interpreter import DefinitionError, DSLNameError, RuleError, SaveFileError, State, load_game
from interpreter.state import fingerprint

from conftest import REPO_ROOT, zone

BASE = REPO_ROOT / "definitions" / "frog_tower.yaml"
SHIPPED = REPO_ROOT / "definitions" / "variants" / "frog_tower"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def variant(folder: Path, name: str, body: str) -> Path:
    """A variant file for Frog Tower with ``body`` under the header."""
    return write(folder, name, "variant: Test\ngame: Frog Tower\n" + textwrap.dedent(body).lstrip())


def error_of(variants, base=BASE) -> str:
    with pytest.raises(DefinitionError) as info:
        load_game(base, variants=[str(v) for v in variants])
    return str(info.value)


# ---------------------------------------------------------------- naming and composing
def test_a_variant_is_found_by_name_in_the_games_variants_folder_or_by_path():
    by_name = load_game(BASE, variants=["flower"])
    by_path = load_game(BASE, variants=[str(SHIPPED / "flower.yaml")])
    assert by_name.variants == by_path.variants == ["flower"]
    assert fingerprint(by_name) == fingerprint(by_path)


def test_flower_adds_a_score_term_to_the_named_terms_of_the_base_game():
    game = load_game(BASE, variants=["flower"])
    assert game.source.data["scoring"]["score"] == {"towers": "p.points", "flowers": "flower_score(p)"}
    assert load_game(BASE).source.data["scoring"]["score"] == {"towers": "p.points"}


def test_a_variant_file_given_as_the_game_is_applied_to_the_game_of_its_folder():
    game = load_game(SHIPPED / "flower.yaml")
    assert game.name == "Frog Tower" and game.variants == ["flower"]
    assert fingerprint(game) == fingerprint(load_game(BASE, variants=["flower"]))


def test_variants_compose_in_the_order_given(tmp_path):
    first = variant(tmp_path, "first.yaml", """
        add:
          setup:
            - {step: first_step, after: shuffle_pond, do: pass}
        """)
    second = variant(tmp_path, "second.yaml", """
        add:
          setup:
            - {step: second_step, after: shuffle_pond, do: pass}
        """)
    steps = [s["step"] for s in load_game(BASE, variants=[str(first), str(second)]).source.data["setup"]]
    assert steps == ["shuffle_pond", "second_step", "first_step", "starting_leaves", "set_aside"]
    steps = [s["step"] for s in load_game(BASE, variants=[str(second), str(first)]).source.data["setup"]]
    assert steps == ["shuffle_pond", "first_step", "second_step", "starting_leaves", "set_aside"]


def test_an_added_step_can_go_before_a_named_step_and_runs_there(tmp_path):
    # Dealing one more starting leaf before the normal deal: each Garden gets 1 + 4 leaves in 2 players.
    extra = variant(tmp_path, "extra_leaf.yaml", """
        add:
          setup:
            - step: one_more_leaf
              before: starting_leaves
              do: |
                for p in players:
                  move top(box) to garden(p)
        """)
    state = load_game(BASE, variants=[str(extra)]).new_game(2, seed=1)
    assert [len(zone(state, f"garden({p})")) for p in (1, 2)] == [5, 5]
    assert zone(state, "box") == []


def test_removing_a_setup_step_skips_it(tmp_path):
    keep_all = variant(tmp_path, "keep_all.yaml", "remove:\n  setup: [set_aside]\n")
    state = load_game(BASE, variants=[str(keep_all)]).new_game(3, seed=1)
    assert zone(state, "set_aside") == []
    assert len(zone(state, "pond")) + len(zone(state, "holding")) == 75  # the first card is flipped


def test_replacing_a_parameter_changes_the_rules_that_read_it(tmp_path):
    rich = variant(tmp_path, "rich.yaml", "replace:\n  parameters:\n    tower_points: {2: 1, 3: 3, 4: 7}\n")
    game = load_game(BASE, variants=[str(rich)])
    assert game.params["tower_points"] == {2: 1, 3: 3, 4: 7}


def test_components_are_replaced_and_removed_by_name(tmp_path):
    deck = variant(tmp_path, "deck.yaml", """
        replace:
          components:
            - {name: red frog, type: red, one_more: true, count: 6, zone: pond}
        remove:
          components: [rainbow frog, rainbow frog (purple flower)]
        """)
    game = load_game(BASE, variants=[str(deck)])
    one_more, _ = game.properties["one_more"]
    reds = [c for c, name in enumerate(game.card_names) if name == "red frog"]
    assert len(reds) == 6 and all(one_more[c] for c in reds)
    assert "rainbow frog" not in game.card_names and len(game.card_names) == 85 - 4


def test_a_procedure_is_replaced_by_its_name_whatever_its_parameters(tmp_path):
    quiet = variant(tmp_path, "quiet.yaml", """
        replace:
          procedures:
            refill_pond(): |
              if size(pond) == 0 and not game.refilled:
                move set_aside to pond
                game.refilled = true
                game.last_turn = true
        """)
    game = load_game(BASE, variants=[str(quiet)])
    assert "log" not in game.source.data["procedures"]["refill_pond()"]


def test_an_extending_variant_may_change_what_its_parent_added():
    game = load_game(BASE, variants=["crayfish2"])
    assert game.variants == ["crayfish:rule=random", "crayfish2"]
    trigger, = game.source.data["triggers"]
    assert "move top(crayfish_rules) to rule_in_force" in trigger["do"]
    assert "rule" not in game.params  # crayfish2 removes the setting it does not use


def test_a_variant_asked_for_twice_is_applied_once():
    assert load_game(BASE, variants=["crayfish", "crayfish2"]).variants == ["crayfish:rule=random", "crayfish2"]
    assert load_game(BASE, variants=["flower", "flower"]).variants == ["flower"]


# ---------------------------------------------------------------- parameters
def test_a_variant_parameter_becomes_a_game_parameter_with_its_default_or_the_given_value():
    assert load_game(BASE, variants=["crayfish"]).params["rule"] == "random"
    assert load_game(BASE, variants=["crayfish:rule=pass_left"]).params["rule"] == "pass_left"


def test_a_bad_parameter_value_is_located_at_the_declaration_and_lists_the_allowed_values():
    message = error_of(["crayfish:rule=pass_up"])
    assert message == (
        f"{SHIPPED / 'crayfish.yaml'}:10:3: parameters.rule: 'pass_up' is not an allowed value of parameter 'rule' "
        "(given as crayfish:rule=pass_up); allowed: pass_right, pass_left, everyone_flips, pick_from_right, random\n"
        "      rule:\n"
        "      ^")


def test_an_unknown_parameter_is_rejected_with_a_suggestion():
    assert "variant 'crayfish' has no parameter 'rul'; did you mean 'rule'? (its parameters are rule)" \
        in error_of(["crayfish:rul=pass_left"])


def test_whole_number_and_true_false_parameters_are_converted_from_the_command_line(tmp_path):
    bonus = variant(tmp_path, "bonus.yaml", """
        parameters:
          bonus: {default: 1, description: points per tower}
          doubled: {default: false, description: twice the bonus}
        add:
          scoring:
            bonus: "p.tower_count * bonus * (2 if doubled else 1)"
        """)
    # the score term above is not valid effect text; the parameters are checked before it
    assert "'many' is not an allowed value of parameter 'bonus' (given as bonus:bonus=many); allowed: any whole " \
           "number" in error_of([f"{bonus}:bonus=many"])
    write(tmp_path, "bonus.yaml", bonus.read_text().replace('"p.tower_count * bonus * (2 if doubled else 1)"',
                                                            '"p.tower_count * bonus"'))
    game = load_game(BASE, variants=[f"{bonus}:bonus=3,doubled=yes"])
    assert game.params["bonus"] == 3 and game.params["doubled"] is True
    assert game.variants == ["bonus:bonus=3,doubled=true"]


def test_an_allowed_value_of_another_kind_than_the_default_is_refused_where_it_is_written(tmp_path):
    # One allowed value that no setting could ever take: the setting 'three' is read as the default's kind
    # (a whole number), so it failed as "'three' is not an allowed value ...; allowed: 1, 2, three".
    mixed = variant(tmp_path, "mixed.yaml", """
        parameters:
          bonus: {default: 2, one_of: [1, 2, "three"]}
        add:
          scoring:
            bonus: bonus
        """)
    message = error_of([mixed])
    assert message.startswith(f"{mixed}:4:38: parameters.bonus.one_of[2]: the allowed value 'three' is a text, "
                              "but the default 2 is a whole number: every allowed value must be of the default's "
                              "kind")
    flags = variant(tmp_path, "flags.yaml", """
        parameters:
          on: {default: true, one_of: [true, 1]}
        """)
    assert "parameters.on.one_of[1]: the allowed value '1' is a whole number, but the default true is true/false" \
        in error_of([flags])


def test_a_setting_of_an_extended_variant_given_to_the_extending_one_says_where_it_goes(tmp_path):
    variant(tmp_path, "bonus.yaml", """
        parameters:
          bonus: {default: 1, one_of: [1, 2]}
        """)
    child = variant(tmp_path, "child.yaml", "extends: [bonus]\n")
    assert error_of([f"{child}:bonus=2"]).splitlines()[0].endswith(
        "variant 'child' has no parameter 'bonus' (it has no parameters; the variants it extends take their own "
        "settings: --variant bonus:bonus=... before it, or in its extends entry)")
    game = load_game(BASE, variants=[f"{tmp_path / 'bonus.yaml'}:bonus=2", str(child)])
    assert game.params["bonus"] == 2


def test_a_game_parameter_given_the_name_of_a_setting_is_refused_where_it_is_written(tmp_path):
    # It held the text 'bonus', and the error came from a rule of the game that compares it with a number.
    named = variant(tmp_path, "named.yaml", """
        parameters:
          bonus: {default: 5, one_of: [4, 5]}
        replace:
          parameters:
            tower_frogs: bonus
        """)
    assert error_of([named]).splitlines()[0] == (
        f"{named}:7:18: replace.parameters.tower_frogs: parameter 'tower_frogs' would hold the text 'bonus', not the "
        "value of the setting 'bonus' of variant 'named': a parameter's value is a constant; name the setting in the "
        "rule that reads the parameter instead")
    path = variant(tmp_path, "path.yaml", """
        parameters:
          bonus: {default: 5}
        replace:
          parameters.tower_points.4: bonus
        """)
    assert "replace.parameters.tower_points.4: parameter 'tower_points.4' would hold the text 'bonus'" in error_of([path])


SIZED = """
    parameters:
      bonus: {default: 1, description: points per tower}
      label: {default: "x", description: a text}
    """


@pytest.mark.parametrize("number", ["99999999999999999999999", "1000000000000000000", "-1000000000000000000",
                                    "+1000000000000000000",
                                    pytest.param("9" * 100_000, id="100000-digits")])
def test_a_number_setting_is_held_to_the_digit_limit_of_the_same_constant_in_the_file(tmp_path, number):
    sized = variant(tmp_path, "sized.yaml", SIZED)
    message = error_of([f"{sized}:bonus={number}"])
    assert message.startswith(f"{sized}:4:3: parameters.bonus: {errors.quote(number)} cannot be the value of "
                              "parameter 'bonus' (given as sized:bonus=")
    assert message.splitlines()[0].endswith("this number is too large: whole numbers in a definition have at most "
                                            "18 digits (numbers in rules stay within 10^18)")
    written = variant(tmp_path, "written.yaml", SIZED.replace("default: 1,", f"default: {number},"))
    assert "at most 18 digits" in error_of([written])  # the same number written in the file


def test_a_number_setting_of_eighteen_digits_is_accepted(tmp_path):
    sized = variant(tmp_path, "sized.yaml", SIZED)
    game = load_game(BASE, variants=[f"{sized}:bonus=-999999999999999999"])
    assert game.params["bonus"] == -999_999_999_999_999_999


@pytest.mark.parametrize("number", ["１２", "١٢", "1_000", "12.0", "0x10", "1e3", "--1"])
def test_only_ascii_digits_make_a_number_setting(tmp_path, number):
    sized = variant(tmp_path, "sized.yaml", SIZED)
    assert error_of([f"{sized}:bonus={number}"]).startswith(
        f"{sized}:4:3: parameters.bonus: {errors.quote(number)} is not an allowed value of parameter 'bonus' "
        f"(given as sized:bonus={number}); allowed: any whole number")


def test_a_text_setting_is_held_to_the_length_limit_of_the_same_constant_in_the_file(tmp_path):
    sized = variant(tmp_path, "sized.yaml", SIZED)
    assert load_game(BASE, variants=[f"{sized}:label={'a' * 10_000}"]).params["label"] == "a" * 10_000
    message = error_of([f"{sized}:label={'a' * 10_001}"])
    assert message.startswith(f"{sized}:5:3: parameters.label: 'aaaa")
    assert "this text has 10,001 characters; texts in a definition have at most 10,000" in message
    assert len(message) < 600  # the setting is not echoed whole
    written = variant(tmp_path, "written.yaml", SIZED.replace('"x"', '"' + "a" * 10_001 + '"'))
    assert error_of([written]).startswith(f"{written}:5:10: parameters.label: parameter 'label': this text has "
                                          "10,001 characters; texts in a definition have at most 10,000")


def test_a_setting_in_an_extends_entry_is_checked_like_one_on_the_command_line(tmp_path):
    variant(tmp_path, "sized.yaml", SIZED)
    child = variant(tmp_path, "child.yaml", "extends: [\"sized.yaml:bonus=1000000000000000000\"]\n")
    assert "this number is too large: whole numbers in a definition have at most 18 digits" in error_of([child])


# ---------------------------------------------------------------- conflicts and dangling targets
def test_two_variants_replacing_the_same_procedure_fail_naming_both_files_and_lines(tmp_path):
    a = variant(tmp_path, "a.yaml", """
        replace:
          procedures:
            refill_pond(): pass
        """)
    b = variant(tmp_path, "b.yaml", """
        replace:
          procedures:
            refill_pond(): pass
        """)
    assert error_of([a, b]) == (
        f"{b}:5:5: replace.procedures.refill_pond(): variants 'a' and 'b' both change procedure 'refill_pond': "
        f"{a}:5:5 replaces it, and {b}:5:5 replaces it. Use only one of the two variants, or make 'b' extend 'a'\n"
        "        refill_pond(): pass\n"
        "        ^")


def test_a_variant_cannot_replace_what_another_removed(tmp_path):
    a = variant(tmp_path, "a.yaml", "remove:\n  setup: [set_aside]\n")
    b = variant(tmp_path, "b.yaml", "replace:\n  setup:\n    - {step: set_aside, do: pass}\n")
    assert error_of([a, b]).startswith(
        f"{b}:5:7: replace.setup[0]: variants 'a' and 'b' both change setup step 'set_aside': "
        f"{a}:4:11 removes it, so {b}:5:7 cannot replace it.")


def test_a_variant_cannot_add_what_another_variant_added(tmp_path):
    a = variant(tmp_path, "a.yaml", "add:\n  zones:\n    pile: {}\n")
    b = variant(tmp_path, "b.yaml", "add:\n  zones:\n    pile: {visibility: hidden}\n")
    assert f"{b}:5:5: add.zones.pile: variants 'a' and 'b' both change zone 'pile': {a}:5:5 adds it, and " \
           f"{b}:5:5 adds it." in error_of([a, b])


def test_adding_a_part_the_game_has_says_where_it_is_and_to_use_replace(tmp_path):
    a = variant(tmp_path, "a.yaml", "add:\n  functions:\n    is_leaf(card c): true\n")
    assert error_of([a]).splitlines()[0] == (
        f"{a}:5:5: add.functions.is_leaf(card c): cannot add function 'is_leaf': the game already has it at "
        f"{BASE}:77:3; use 'replace' to change it")


def test_replacing_a_part_that_does_not_exist_is_located_with_a_suggestion(tmp_path):
    a = variant(tmp_path, "a.yaml", """
        replace:
          procedures:
            flp(player p) -> card: return top(pond)
        """)
    assert error_of([a]) == (
        f"{a}:5:5: replace.procedures.flp(player p) -> card: there is no procedure 'flp' to replace in "
        f"'Frog Tower' (looked in {BASE}); did you mean 'flip'?\n"
        "        flp(player p) -> card: return top(pond)\n"
        "        ^")


def test_placing_a_step_next_to_a_missing_step_is_located_at_the_anchor(tmp_path):
    a = variant(tmp_path, "a.yaml", """
        add:
          setup:
            - step: extra
              after: shufle_pond
              do: pass
        """)
    assert error_of([a]).splitlines()[0] == (
        f"{a}:6:14: add.setup[0].after: there is no setup step 'shufle_pond' to place an entry next to in "
        f"'Frog Tower' (looked in {BASE}); did you mean 'shuffle_pond'?")


def test_a_variant_may_not_change_the_same_part_twice(tmp_path):
    a = variant(tmp_path, "a.yaml", """
        remove:
          scoring: [towers]
        add:
          scoring:
            towers: p.points * 2
        """)
    assert error_of([a]).splitlines()[0] == (
        f"{a}:7:5: add.scoring.towers: this variant changes score term 'towers' twice (it already removes it at "
        f"{a}:4:13)")


def test_a_variant_for_another_game_is_rejected(tmp_path):
    other = write(tmp_path, "other.yaml", "variant: Other\ngame: Top Frog\n")
    assert error_of([other]).splitlines()[0] == (
        f"{other}:2:7: game: this variant is for 'Top Frog', but {BASE} is 'Frog Tower'")


def test_an_unknown_variant_name_lists_the_variants_there():
    message = error_of(["flowr"])
    assert message == (f"{SHIPPED}: no variant called 'flowr' in {SHIPPED}; did you mean 'flower'?; variants there: "
                       "consolation, crayfish, crayfish2, extra_card, flower, greedy_frog, leaf_to_box, legendary_points, prince, "
                       "tall_towers (give a NAME from that folder or "
                       "a PATH to a variant file)")


def test_a_misspelt_part_is_rejected_by_the_variant_schema(tmp_path):
    a = variant(tmp_path, "a.yaml", "add:\n  procedure:\n    x(): pass\n")
    assert error_of([a]).splitlines()[0] == (
        f"{a}:4:3: add.procedure: unknown key 'procedure'; did you mean 'procedures'? Expected one of: components, counters, "
        "events, flow, functions, game_variables, parameters, player_variables, procedures, properties, quantities, "
        "scoring, setup, tiebreaks, triggers, zones")


def test_a_bad_value_in_a_variant_is_located_in_the_variant_file(tmp_path):
    a = variant(tmp_path, "a.yaml", "add:\n  zones:\n    pile: {visibility: secret}\n")
    assert error_of([a]).splitlines()[0].startswith(
        f"{a}:5:24: add.zones.pile.visibility: 'secret' is not one of: public, hidden, owner, top")


def test_an_effect_error_in_a_variant_is_located_in_the_variant_file(tmp_path):
    a = variant(tmp_path, "a.yaml", """
        add:
          procedures:
            tidy(player p): |
              move nothing_here to garden(p)
        """)
    with pytest.raises(DSLNameError) as info:
        load_game(BASE, variants=[str(a)])
    assert str(info.value).splitlines()[0] == f"{a}:6:12: add.procedures.tidy(player p): unknown name 'nothing_here'"


def test_an_extends_cycle_is_rejected(tmp_path):
    write(tmp_path, "a.yaml", "variant: A\ngame: Frog Tower\nextends: [b.yaml]\n")
    write(tmp_path, "b.yaml", "variant: B\ngame: Frog Tower\nextends: [a.yaml]\n")
    assert error_of([tmp_path / "a.yaml"]).splitlines()[0] == (
        f"{tmp_path / 'b.yaml'}:3:10: extends: variant 'a' extends itself (a -> b -> a)")


def test_a_rule_that_runs_forever_in_a_variant_is_located_in_the_variant_file(tmp_path):
    a = variant(tmp_path, "a.yaml", """
        add:
          setup:
            - step: spin
              do: |
                while true:
                  shuffle pond
        """)
    game = load_game(BASE, variants=[str(a)])
    with pytest.raises(RuleError) as info:
        game.new_game(3)
    assert info.value.location.file == str(a)


# ---------------------------------------------------------------- saves
def test_the_fingerprint_covers_the_variants_and_their_settings():
    prints = {tuple(v): fingerprint(load_game(BASE, variants=v)) for v in
              ([], ["flower"], ["crayfish"], ["crayfish:rule=pass_left"], ["flower", "crayfish"],
               ["crayfish", "flower"])}
    assert len(set(prints.values())) == len(prints)
    assert fingerprint(load_game(BASE, variants=["crayfish:rule=random"])) == prints[("crayfish",)]


def test_a_save_made_with_a_variant_does_not_load_into_the_plain_game():
    saved = json.loads(json.dumps(load_game(BASE, variants=["flower"]).new_game(3, seed=2).to_json()))
    with pytest.raises(SaveFileError, match="different definition"):
        State.from_json(load_game(BASE), saved)
    assert State.from_json(load_game(BASE, variants=["flower"]), saved).to_json() == saved


# ---------------------------------------------------------------- every kind of part, on a small game
SMALL_GAME = """\
game: Small
players: {min: 2, max: 3}
components:
  - {name: stone, count: 6, zone: deck}
zones:
  deck: {visibility: hidden}
  hand: {per: player}
player_variables:
  points: 0
events:
  drawn: {player: player}
triggers:
  - name: first
    on: drawn
    do: player.points += 1
setup: shuffle deck
flow:
  - phase: draw
    turn: draw
    until: size(deck) == 0
procedures:
  draw(player p): |
    move top(deck) to hand(p)
    emit drawn(player=p)
scoring:
  score: p.points
  tiebreaks:
    - {lowest: size(hand(p))}
"""


@pytest.fixture
def small(tmp_path):
    return write(tmp_path, "small.yaml", SMALL_GAME)


def small_variant(folder: Path, name: str, body: str) -> Path:
    return write(folder, name, "variant: Test\ngame: Small\n" + textwrap.dedent(body).lstrip())


def test_a_setup_written_as_one_effect_is_the_step_called_setup(small, tmp_path):
    v = small_variant(tmp_path, "deal.yaml", """
        add:
          setup:
            - step: deal
              after: setup
              do: |
                for p in players:
                  move top(deck) to hand(p)
        """)
    game = load_game(small, variants=[str(v)])
    assert game.source.data["setup"] == [{"step": "setup", "do": "shuffle deck"},
                                         {"step": "deal", "do": "for p in players:\n  move top(deck) to hand(p)\n"}]
    state = game.new_game(2, seed=1)
    assert state.is_terminal() and state.scores() == [2, 2]  # two dealt, then two draws each


def test_a_score_written_as_one_expression_is_the_term_called_score(small, tmp_path):
    v = small_variant(tmp_path, "bonus.yaml", "add:\n  scoring:\n    hand: size(hand(p)) * 10\n")
    game = load_game(small, variants=[str(v)])
    assert game.source.data["scoring"]["score"] == {"score": "p.points", "hand": "size(hand(p)) * 10"}
    assert game.new_game(2, seed=1).scores() == [33, 33]


def test_triggers_are_added_before_or_after_a_named_one_and_run_in_that_order(small, tmp_path):
    v = small_variant(tmp_path, "log.yaml", """
        add:
          triggers:
            - {name: before_first, before: first, on: drawn, do: 'log "{player} before: {player.points}"'}
            - {name: after_first, after: first, on: drawn, do: 'log "{player} after: {player.points}"'}
        """)
    state = load_game(small, variants=[str(v)]).new_game(2, seed=1)
    assert state.log[:2] == ["player 1 before: 0", "player 1 after: 1"]


def test_a_trigger_is_removed_by_name(small, tmp_path):
    v = small_variant(tmp_path, "quiet.yaml", "remove:\n  triggers: [first]\n")
    assert load_game(small, variants=[str(v)]).new_game(2, seed=1).scores() == [0, 0]


def test_a_phase_is_found_by_its_name_and_a_new_one_placed_before_it(small, tmp_path):
    v = small_variant(tmp_path, "warmup.yaml", """
        add:
          flow:
            - {phase: warm_up, before: draw, turn: draw, until: size(deck) <= 4}
        replace:
          flow:
            - {phase: draw, turn: draw, until: size(deck) <= 1}
        """)
    game = load_game(small, variants=[str(v)])
    assert [p["phase"] for p in game.source.data["flow"]] == ["warm_up", "draw"]
    state = game.new_game(2, seed=1)
    assert state.is_terminal() and len(zone(state, "deck")) == 1


def test_players_limits_and_tiebreaks_are_replaced_whole_and_tiebreaks_added_after(small, tmp_path):
    v = small_variant(tmp_path, "more.yaml", """
        replace:
          players: {min: 2, max: 4}
          tiebreaks:
            - {highest: size(hand(p))}
        """)
    w = small_variant(tmp_path, "last.yaml", "add:\n  tiebreaks:\n    - {lowest: p.points}\n")
    game = load_game(small, variants=[str(v), str(w)])
    assert game.max_players == 4
    assert game.source.data["scoring"]["tiebreaks"] == [{"highest": "size(hand(p))"}, {"lowest": "p.points"}]
    assert error_of([v, small_variant(tmp_path, "again.yaml", "replace:\n  players: {min: 1, max: 2}\n")],
                    base=small).splitlines()[0].endswith(
        "variants 'more' and 'again' both change the player count: "
        f"{v}:4:3 replaces it, and {tmp_path / 'again.yaml'}:4:3 replaces it. Use only one of the two variants, "
        "or make 'again' extend 'more'")


def test_removing_a_part_still_in_use_is_reported_where_it_is_used(small, tmp_path):
    v = small_variant(tmp_path, "no_events.yaml", "remove:\n  events: [drawn]\n")
    with pytest.raises(DefinitionError) as info:
        load_game(small, variants=[str(v)])
    assert str(info.value).splitlines()[0].startswith(f"{small}:14:9: triggers[0].on: unknown event 'drawn'")


def test_every_key_of_the_variant_schema_is_described():
    schema = json.loads((REPO_ROOT / "schemas" / "variant.schema.json").read_text(encoding="utf-8"))
    undescribed = []

    def walk(node, path):
        for name, sub in (node.get("properties") or {}).items():
            if "description" not in sub:
                undescribed.append(f"{path}.{name}")
            walk(sub, f"{path}.{name}")
        for key in ("items", "additionalProperties", "not", "propertyNames"):
            if isinstance(node.get(key), dict):
                walk(node[key], f"{path}.{key}")
        for key in ("allOf", "oneOf", "anyOf"):
            for i, sub in enumerate(node.get(key) or []):
                walk(sub, f"{path}.{key}[{i}]")
        for name, sub in (node.get("$defs") or {}).items():
            walk(sub, f"$defs.{name}")
    walk(schema, "$")
    assert undescribed == []


# ---------------------------------------------------------------- errors a variant brings about
def test_an_error_in_the_games_text_that_a_variant_brought_about_names_the_variant(tmp_path):
    wordy = variant(tmp_path, "wordy.yaml", """
        replace:
          parameters:
            tower_frogs: ["four"]
        """)
    message = error_of([wordy])
    assert message.startswith(f"{BASE}:85:25: functions.must_build(player p): cannot compare a number with "
                              "a list of texts (with the variant wordy applied)")


def test_a_variant_that_removes_what_the_game_must_have_is_named_in_the_schema_error(tmp_path):
    bare = variant(tmp_path, "bare.yaml", """
        remove:
          flow: [play]
        """)
    assert error_of([bare]).startswith(f"{BASE}:4:1: missing required key 'flow' (the phases of the game, played "
                                       "in order) (with the variant bare applied)")


def test_an_error_in_the_variants_own_text_is_not_told_twice_where_it_is(tmp_path):
    broken = variant(tmp_path, "broken.yaml", """
        replace:
          procedures:
            refill_pond(): |
              log "{nowhere}"
        """)
    message = error_of([broken])
    assert message.startswith(str(broken)) and "applied)" not in message
