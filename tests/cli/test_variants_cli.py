"""`ribbit` with variants, run in-process: validating a variant on its own, conflicts, the rules summary's marks."""

from __future__ import annotations

import json
import re
import textwrap

from interpreter.cli import main

from conftest import REPO_ROOT

BASE = REPO_ROOT / "definitions" / "frog_tower.yaml"
FOLDER = REPO_ROOT / "definitions" / "variants" / "frog_tower"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_checks_a_variant_file_on_its_own_against_its_game(capsys):
    code, out, err = run(capsys, "validate", FOLDER / "flower.yaml")
    assert (code, err) == (0, "")
    assert out == (f"OK {FOLDER / 'flower.yaml'} (a variant of {BASE}) with flower: Frog Tower: 2-5 players, "
                   "26 components (85 cards), 6 zones, 8 procedures, 10 functions, 1 phase\n")


def test_validate_names_the_variants_and_their_settings(capsys):
    code, out, _ = run(capsys, "validate", BASE, "--variant", "flower", "--variant", "crayfish:rule=pass_left")
    assert code == 0
    assert out.startswith(f"OK {BASE} with flower, crayfish:rule=pass_left: Frog Tower: 2-5 players, "
                          "31 components (93 cards), 8 zones, 12 procedures, 10 functions")


def test_validate_reports_a_bad_variant_setting_with_the_allowed_values(capsys):
    code, out, err = run(capsys, "validate", BASE, "--variant", "crayfish:rule=sideways")
    assert (code, out) == (2, "")
    assert err.startswith(f"{FOLDER / 'crayfish.yaml'}:10:3: parameters.rule: 'sideways' is not an allowed value "
                          "of parameter 'rule' (given as crayfish:rule=sideways); allowed: pass_right, pass_left, "
                          "everyone_flips, pick_from_right, random\n")


def test_validate_rejects_two_variants_that_change_the_same_part_naming_both(capsys, tmp_path):
    folder = tmp_path / "variants" / "frog_tower"
    folder.mkdir(parents=True)
    game = tmp_path / "frog_tower.yaml"
    game.write_text(BASE.read_text(encoding="utf-8"), encoding="utf-8")
    for name, points in (("big", 7), ("small", 4)):
        (folder / f"{name}.yaml").write_text(textwrap.dedent(f"""\
            variant: {name.title()} towers
            game: Frog Tower
            replace:
              parameters:
                tower_points: {{2: 1, 3: 3, 4: {points}}}
            """), encoding="utf-8")
    code, _, err = run(capsys, "validate", game, "--variant", "big", "--variant", "small")
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[0] == (
        f"{folder / 'small.yaml'}:5:5: replace.parameters.tower_points: variants 'big' and 'small' both change "
        f"parameter 'tower_points': {folder / 'big.yaml'}:5:5 replaces it, and {folder / 'small.yaml'}:5:5 "
        "replaces it. Use only one of the two variants, or make 'small' extend 'big'")


def test_validate_of_a_variant_outside_a_variants_folder_says_how_to_check_it(capsys, tmp_path):
    loose = tmp_path / "house_rule.yaml"
    loose.write_text("variant: House rule\ngame: Frog Tower\n", encoding="utf-8")
    code, _, err = run(capsys, "validate", loose)
    assert code == 2
    assert err == (f"{loose}: cannot tell which game this variant belongs to: variants live in "
                   "<games folder>/variants/<game file name>/; validate it with its game instead: "
                   f"ribbit validate GAME.yaml --variant {loose}\n")
    code, out, _ = run(capsys, "validate", BASE, "--variant", loose)
    assert code == 0 and out.startswith(f"OK {BASE} with house_rule: Frog Tower")


def test_rules_mark_what_the_variants_added_and_list_every_change(capsys):
    code, out, _ = run(capsys, "rules", BASE, "--variant", "flower", "--variant", "crayfish2")
    assert code == 0
    lines = [line.rstrip() for line in out.splitlines()]
    assert "Variant: Flower Collection [flower]" in lines
    assert "Variant: Crayfish [crayfish]" in lines  # its 'rule' setting is removed by Crayfish Rule 2
    assert "Variant: Crayfish Rule 2 [crayfish2]" in lines
    assert "  flowers: flower_score(p)  [flower]" in lines and "  towers: p.points" in lines
    assert "4. crayfish_rule  [crayfish2]" in lines
    assert "crayfish: on flipped if card.type == \"crayfish\"  [crayfish2]" in lines
    assert any(line.startswith(" crayfish  [crayfish]") for line in lines)
    changes = lines[lines.index(next(x for x in lines if x.startswith("Changed by variants (22)"))) + 1:]
    assert changes[0] == f"flower adds parameter 'flower_points' ({FOLDER / 'flower.yaml'}:12:5)"
    assert f"crayfish2 removes parameter 'rule' ({FOLDER / 'crayfish2.yaml'}:14:16)" in changes
    assert not [change for change in changes if "take_turn" in change]  # ruling 12 is the game's own stop condition


def test_rules_of_the_plain_game_mark_nothing(capsys):
    code, out, _ = run(capsys, "rules", BASE)
    assert code == 0
    assert "Variant:" not in out and "Changed by variants" not in out
    assert not [line for line in out.splitlines() if re.search(r"  \[[a-z0-9_]+\]", line)]


def test_simulate_plays_the_game_with_the_variants(capsys):
    code, out, _ = run(capsys, "simulate", BASE, "--variant", "crayfish:rule=everyone_flips", "--players", "3",
                       "--games", "5", "--seed", "3", "--json", "-")
    assert code == 0
    report = json.loads(out)
    assert report["variants"] == ["crayfish:rule=everyone_flips"] and report["games"] == 5
