"""A scenario file's text is quoted in a message only once the file has declared itself a scenario (a scenario key
at its top level before the error), as for games and variants: `--scenario` may name any file, and a replay log
names its scenario, so a message must never become a way to print a key or password file."""

from __future__ import annotations

import json

import pytest

from interpreter import DefinitionError, load_scenario
from interpreter.cli import main

from conftest import REPO_ROOT

SECRET = "hunter2-SECRET"
NOT_SCENARIOS = {  # files that never say they are scenarios, each with an error a scenario file could have
    "shadow": f"root:$6$salt${SECRET}:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n",
    "scalar": f"{SECRET} is the password\n",
    "list": f"- {SECRET}\n",
    "unknown_key_first": f"password: {SECRET}\nzones: {{}}\n",
    "yaml_error": f"api_key: [{SECRET}\n",
    "tag": f"key: !secret {SECRET}\n",
    "huge_number": f"pin: 1{'0' * 30}  # {SECRET}\n",
    "tab": f"key:\n\t{SECRET}\n",
    "control_character": f"key: {SECRET}\x07\n",
    "tag_before_the_key": f"password: !vault {SECRET}\nzones: {{}}\n",
    "number_before_the_key": f"pin: 1{'0' * 30}  # {SECRET}\non_top: {{}}\n",
}


@pytest.mark.parametrize("kind", sorted(NOT_SCENARIOS))
def test_play_quotes_nothing_of_a_file_that_never_said_it_is_a_scenario(tmp_path, capsys, kind):
    path = tmp_path / "id_secret"
    path.write_text(NOT_SCENARIOS[kind], encoding="utf-8")
    code = main(["play", str(REPO_ROOT / "definitions" / "frog_tower.yaml"), "--players", "2", "--seed", "1",
                 "--scenario", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and err.startswith(f"{path}:") and "not a scenario" in err, err
    assert SECRET not in out + err and "hunter2" not in out + err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_declared_scenario_is_still_quoted_where_it_is_wrong(tmp_path):
    path = tmp_path / "position.yaml"
    path.write_text("zones: {}\npassword: x\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as caught:
        load_scenario(path)
    assert str(caught.value).startswith(f"{path}:2:1: password: unknown scenario key 'password'")
    assert "    password: x\n    ^" in str(caught.value)


def test_a_replay_log_cannot_print_a_yaml_file_beside_it_by_naming_it_as_its_scenario(project, capsys):
    assert main(["play", "definitions/frog_tower.yaml", "--players", "3", "--seed", "3", "--log", "game.jsonl"]) == 0
    rows = [json.loads(line) for line in open("game.jsonl", encoding="utf-8")]
    rows[0]["scenario"] = "credentials.yaml"
    with open("game.jsonl", "w", encoding="utf-8") as out:
        out.writelines(json.dumps(row) + "\n" for row in rows)
    (project / "credentials.yaml").write_text(f"aws_secret_access_key: {SECRET}\n", encoding="utf-8")
    capsys.readouterr()
    for extra in (["--check"], ["--to", "0"]):
        code = main(["replay", "game.jsonl", *extra])
        out, err = capsys.readouterr()
        assert code == 2 and "credentials.yaml:1:1: not a scenario" in err, err
        assert SECRET not in out + err and "aws_secret" not in out + err


@pytest.mark.parametrize("declaration", ["game: x", "variant: x"])
def test_a_key_written_after_the_error_does_not_make_a_definition_quotable(tmp_path, capsys, declaration):
    """A tag or a too-large number is found after the whole text is parsed: a `game:` further down the file
    must not make the line above it quotable."""
    path = tmp_path / "notes.yaml"
    path.write_text(f"password: !vault {SECRET}\n{declaration}\n", encoding="utf-8")
    code = main(["validate", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"{path}:1:11: not a game definition or variant") and SECRET not in err
