"""Where a variant's setting of a game parameter is shown: `ribbit validate`'s OK line, `ribbit rules`
(the variant's line, the parameter's value and mark, the list of changes), a replay log's start record,
`ribbit compare --config` configurations; the game is tests/definitions/set_parameters.yaml."""

from __future__ import annotations

import json
import re

import pytest

from interpreter.cli import main

from conftest import REPO_ROOT

GAME = "tests/definitions/set_parameters.yaml"
VARIANTS = "tests/definitions/variants/set_parameters"


@pytest.fixture(autouse=True)
def in_the_repository(monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setenv("COLUMNS", "120")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_names_the_setting_of_a_game_parameter_with_its_value(capsys):
    code, out, err = run(capsys, "validate", GAME, "--variant", "hand:hand_size=5")
    assert (code, err) == (0, "") and out.startswith(f"OK {GAME} with hand:hand_size=5: Set Parameters: ")
    code, out, err = run(capsys, "validate", GAME, "--variant", "hand")
    assert (code, err) == (0, "") and out.startswith(f"OK {GAME} with hand:hand_size=3: Set Parameters: ")


def test_rules_show_the_value_a_setting_gives_a_game_parameter_and_the_variant_that_set_it(capsys):
    code, out, err = run(capsys, "rules", GAME, "--variant", "hand:hand_size=5")
    assert (code, err) == (0, "")
    assert "Variant: Hand size [hand] with hand_size = 5\n" in out
    assert re.search(r"^ hand_size +\[hand\] +5 *$", out, re.M)
    assert out.rstrip().endswith(f"hand sets parameter 'hand_size' to 5 ({VARIANTS}/hand.yaml:5:3)")


def test_rules_show_a_setting_only_with_the_variant_whose_value_is_in_force(capsys):
    # bigger_hand extends hand and sets hand_size again: hand's own value (3) is not the game's any more.
    code, out, err = run(capsys, "rules", GAME, "--variant", "bigger_hand:hand_size=4")
    assert (code, err) == (0, "")
    assert "Variant: Hand size [hand]\n" in out and "Variant: Bigger hand [bigger_hand] with hand_size = 4\n" in out
    assert re.search(r"^ hand_size +\[bigger_hand\] +4 *$", out, re.M)


def test_a_replay_log_carries_the_setting_and_replays_only_with_it(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, _, err = run(capsys, "play", GAME, "--players", 2, "--seed", 3, "--bot", "random",
                       "--variant", "hand:hand_size=5", "--log", log)
    assert code == 0, err
    start = json.loads(log.read_text().splitlines()[0])
    assert start["variants"] == ["hand:hand_size=5"]
    assert run(capsys, "replay", "--check", log)[0] == 0
    other = tmp_path / "other.jsonl"
    other.write_text(log.read_text().replace("hand:hand_size=5", "hand:hand_size=3", 1))
    code, out, err = run(capsys, "replay", "--check", other)
    assert code == 1 and "does not replay to what it records" in out + err


def test_compare_configurations_that_differ_in_a_setting_play_the_game_each_sets(capsys):
    code, out, err = run(capsys, "compare", GAME, "--players", 2, "--games", 2, "--json", "-",
                         "--config", "name=small; variant=hand:hand_size=1",
                         "--config", "name=big; variant=hand:hand_size=5")
    assert code == 0, err
    configurations = json.loads(out)["configurations"]
    assert [(c["name"], c["variants"]) for c in configurations] == \
        [("small", ["hand:hand_size=1"]), ("big", ["hand:hand_size=5"])]
    assert [c["turns"]["histogram"] for c in configurations] == [{"2": 2}, {"10": 2}]  # every card dealt is played
