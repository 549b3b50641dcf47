"""The `ribbit` command facing hostile input: author text printed inert, outputs that never
destroy inputs, a terminal that leaves or cannot show Unicode, arguments out of any range."""

from __future__ import annotations

import builtins
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import DefinitionError, sim
from interpreter.cli import main
from interpreter.errors import inert

ROOT = Path(__file__).resolve().parents[2]
FROG_TOWER = str(ROOT / "definitions" / "frog_tower.yaml")

TITLE = "Evil\x1b]0;pwned\x07\x1b[2J [bold red]Title[/bold red] [link=http://evil.example]click[/link] \x9b31m \u202eright"
CARD = "[bold red]Bad\x1b[2J card"
OTHER_CARD = "plain\x9b card\u202e"

# Every author-written place that gets printed holds a terminal control or rich markup.
HOSTILE_GAME = r"""
game: "Evil\e]0;pwned\a\e[2J [bold red]Title[/bold red] [link=http://evil.example]click[/link] \x9b31m \u202eright"
description: "A \e[5mgame\e[0m with [blink]markup[/blink] and \x9b2J in its description."
players: {min: 2, max: 2}
properties:
  motto: "\e[31mred\e[0m"
components:
  - {name: "[bold red]Bad\e[2J card", motto: "\e]8;;http://x\e\\link", count: 3, zone: deck}
  - {name: "plain\x9b card\u202e", count: 3, zone: deck}
zones:
  deck: {visibility: public, description: "the \e[2J deck"}
  hand: {per: player, visibility: owner}
procedures:
  turn(player p): |
    ask p:
      "take [bold]it[/bold]":
        log "took {top(deck)}"
        move top(deck) to hand(p)
      "pass [link=http://evil.example]x[/link]":
        pass
flow:
  - phase: "main\e[2J phase"
    turn: turn
    until: game.turn >= 4
scoring:
  score: count(hand(p))
"""

# What a terminal acts on: C0 but newline/tab, DEL, C1, bidi controls.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_inert(text: str) -> None:
    assert RAW_CONTROL.findall(text) == []


@pytest.fixture
def hostile(tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE_GAME, encoding="utf-8")
    return path


def answers(monkeypatch, replies, then="1"):
    replies = list(replies)

    def fake_input(prompt=""):
        assert_inert(prompt)
        if replies:
            reply = replies.pop(0)
            if isinstance(reply, BaseException):
                raise reply
            return reply
        return then
    monkeypatch.setattr(builtins, "input", fake_input)


# ---------------------------------------------------------------- author text is printed inert
def test_inert_shows_terminal_controls_as_visible_escapes_and_keeps_layout_characters():
    assert inert("a\x1b[2Jb\x07\x9b\x7f\u202e\ud800") == "a\\x1b[2Jb\\x07\\x9b\\x7f\\u202e\\ud800"
    assert inert("line\n\ttab é ✓ [bold]x[/bold]") == "line\n\ttab é ✓ [bold]x[/bold]"
    assert inert(inert("\x1b")) == "\\x1b"


def test_validate_prints_a_hostile_title_inert(capsys, hostile):
    code, out, err = run(capsys, "validate", hostile)
    assert code == 0 and err == ""
    assert_inert(out)
    assert inert(TITLE) in out


def test_rules_print_hostile_names_inert_and_markup_literally(capsys, hostile):
    code, out, err = run(capsys, "rules", hostile)
    assert code == 0 and err == ""
    assert_inert(out)
    for text in (TITLE, CARD, OTHER_CARD, "\x1b]8;;http://x\x1b\\link", "main\x1b[2J phase", "the \x1b[2J deck",
                 "[blink]markup[/blink]"):
        assert inert(text) in out


# The hostile game with a `table:` section whose every label holds a terminal control or rich markup.
HOSTILE_TABLE = HOSTILE_GAME.replace("scoring:\n  score: count(hand(p))\n",
                                     "scoring:\n  score: {held: count(hand(p)), none: 0}\n"
                                     ).replace("zones:\n", "game_variables:\n  n: 0\nzones:\n", 1) + r"""
table:
  zones:
    deck: {at: shared, label: "the \e[2J [bold]pile[/bold]"}
    hand: {at: player, label: "hand \x9b31m \u202eright"}
  cards:
    badges: [motto]
  variables:
    n: "\e]0;pwned\a turns"
  score:
    held: "\e[5mheld\e[0m [blink]cards[/blink]"
"""


def test_rules_print_the_table_section_s_labels_inert(capsys, tmp_path):
    path = tmp_path / "hostile_table.yaml"
    path.write_text(HOSTILE_TABLE, encoding="utf-8")
    code, out, err = run(capsys, "rules", path)
    assert code == 0 and err == ""
    assert "The table (how it is drawn)" in out
    assert_inert(out)
    for label in ("the \x1b[2J [bold]pile[/bold]", "hand \x9b31m \u202eright", "\x1b]0;pwned\x07 turns",
                  "\x1b[5mheld\x1b[0m [blink]cards[/blink]"):
        assert inert(label) in out


def test_rules_on_a_colour_terminal_emit_only_the_consoles_own_styles(capsys, hostile, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, out, _ = run(capsys, "rules", hostile)
    assert code == 0 and "\x1b[" in out  # styled output
    assert re.sub(r"\x1b\[[0-9;]*m", "", out).count("\x1b") == 0  # every ESC starts an SGR style, none is the author's
    assert "Evil\\x1b]0;pwned\\x07\\x1b[2J [bold red]Title" in re.sub(r"\x1b\[[0-9;]*m", "", out)


def test_bot_play_prints_hostile_names_and_narration_inert(capsys, hostile, tmp_path):
    log = tmp_path / "g.jsonl"
    code, out, err = run(capsys, "play", hostile, "--players", "2", "--seed", "1", "--log", log)
    assert code == 0 and err == ""
    assert_inert(out)
    assert inert(TITLE) in out and "took " + inert(OTHER_CARD) in out


def test_human_play_shows_hostile_view_options_and_prompt_inert(capsys, hostile, monkeypatch):
    answers(monkeypatch, [])
    code, out, err = run(capsys, "play", hostile, "--players", "2", "--human", "1", "--seed", "1", "--log", "-")
    assert code == 0 and err == ""
    assert_inert(out)
    assert "take [bold]it[/bold]" in out and "pass [link=http://evil.example]x[/link]" in out
    assert inert(CARD) in out or inert(OTHER_CARD) in out


def test_simulate_prints_a_hostile_title_inert_and_its_json_keeps_it_exact(capsys, hostile, tmp_path):
    code, out, err = run(capsys, "simulate", hostile, "--players", "2", "--games", "3")
    assert code == 0 and err == ""
    assert_inert(out)
    code, out, _ = run(capsys, "simulate", hostile, "--players", "2", "--games", "3", "--json", "-")
    assert code == 0 and out.isascii()
    assert_inert(out)
    assert json.loads(out)["game"] == TITLE
    target = tmp_path / "stats.json"
    assert run(capsys, "simulate", hostile, "--players", "2", "--games", "3", "--json", target)[0] == 0
    assert json.loads(target.read_text(encoding="utf-8"))["game"] == TITLE


def test_game_log_keeps_hostile_text_exact_and_inert_to_cat(capsys, hostile, tmp_path):
    log = tmp_path / "g.jsonl"
    assert run(capsys, "play", hostile, "--players", "2", "--seed", "1", "--log", log)[0] == 0
    raw = log.read_text(encoding="utf-8")
    assert_inert(raw)
    records = [json.loads(line) for line in raw.splitlines()]
    assert records[0]["game"] == TITLE
    assert "took " + OTHER_CARD in [r.get("text") for r in records]


def test_error_messages_quoting_author_text_are_printed_inert(capsys, monkeypatch):
    def hostile_error(path, variants=None, verbose=False):
        raise DefinitionError(f"bad name {CARD} [link=http://evil.example]x[/link] \x9b2J")
    monkeypatch.setattr("interpreter.cli.load_game", hostile_error)
    for argv in (["validate", "g.yaml"], ["rules", "g.yaml"], ["play", "g.yaml", "--players", "2"],
                 ["simulate", "g.yaml", "--players", "2", "--games", "1"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == ""
        assert_inert(err)
        assert err == inert(f"bad name {CARD} [link=http://evil.example]x[/link] \x9b2J") + "\n"


def test_a_real_definition_error_about_hostile_text_is_printed_inert(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(HOSTILE_GAME.replace("turn: turn", 'turn: "t\\e[2Jurn"'), encoding="utf-8")
    code, out, err = run(capsys, "validate", bad)
    assert code == 2 and out == ""
    assert_inert(err)
    assert "Traceback" not in err


# ---------------------------------------------------------------- the terminal leaves, or answers nonsense
def test_closed_standard_input_ends_play_with_status_130_saying_the_player_left(tmp_path):
    log = tmp_path / "g.jsonl"
    command = (f"exec '{sys.executable}' -m interpreter.cli play '{FROG_TOWER}' --players 2 --human 1 "
               f"--seed 4 --log '{log}' <&-")
    result = subprocess.run(["sh", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr and "player 1 left" in result.stderr
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert records[0]["event"] == "start" and records[-1] == {"event": "interrupted", "decisions": 0, "seed": 4}


def test_lost_standard_input_in_process_ends_play_with_status_130(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    code, _, err = run(capsys, "play", FROG_TOWER, "--players", "2", "--human", "1", "--seed", "4", "--log", "-")
    assert code == 130 and "player 1 left" in err and "Traceback" not in err


def test_an_answer_of_thousands_of_digits_is_not_one_of_the_options(capsys, monkeypatch):
    answers(monkeypatch, ["9" * 5000, "\u00b2", "1"])
    code, out, err = run(capsys, "play", FROG_TOWER, "--players", "2", "--human", "1", "--seed", "4", "--log", "-")
    assert code == 0 and "Traceback" not in err
    assert out.count("Please answer with a number from 1 to 2") == 2


def test_ctrl_c_at_the_prompt_exits_130_and_the_log_so_far_is_in_place(capsys, monkeypatch, tmp_path):
    answers(monkeypatch, ["1", KeyboardInterrupt()])
    log = tmp_path / "g.jsonl"
    code, _, err = run(capsys, "play", FROG_TOWER, "--players", "2", "--human", "1", "--seed", "4", "--log", log)
    assert code == 130 and "Interrupted." in err
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert records[-1]["event"] == "interrupted" and records[-1]["decisions"] >= 1
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]  # no temporary file left behind


# ---------------------------------------------------------------- worker processes
def test_jobs_are_capped_by_the_cpus_and_the_games(capsys, monkeypatch):
    started = []
    real_pool = sim.multiprocessing.Pool

    def spy_pool(processes, *args, **kwargs):
        started.append(processes)
        return real_pool(processes, *args, **kwargs)
    monkeypatch.setattr(sim.multiprocessing, "Pool", spy_pool)
    monkeypatch.setattr(sim, "available_cpus", lambda: 64)
    code, _, _ = run(capsys, "simulate", FROG_TOWER, "--players", "2", "--games", "2", "--jobs", "1000")
    assert code == 0 and started == [2]
    assert sim.worker_count(1000, 10**9) == 64 and sim.worker_count(1000, 1) == 1
    monkeypatch.setattr(sim, "available_cpus", lambda: 3)
    assert sim.worker_count(1000, 10**9) == 3


def test_jobs_help_says_it_is_capped(capsys):
    assert main(["simulate", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "at most one per CPU" in out and "one per game" in out


def test_a_run_of_a_billion_games_is_split_lazily_and_stops_on_ctrl_c(capsys, monkeypatch):
    work = sim.chunks(10**8, 2)
    assert not isinstance(work, list) and next(iter(work)) == (0, 200)  # not half a million chunks at once
    played = []

    def one_chunk(game, players, seed, start, stop, bot="random", max_decisions=sim.MAX_DECISIONS):
        played.append(start)
        if len(played) == 3:
            raise KeyboardInterrupt
        return sim.SimStats(players)
    monkeypatch.setattr(sim, "run_chunk", one_chunk)
    code, _, err = run(capsys, "simulate", FROG_TOWER, "--players", "2", "--games", str(10**9))
    assert code == 130 and "Interrupted." in err and len(played) == 3


# ---------------------------------------------------------------- outputs never destroy inputs, never half-written
@pytest.fixture
def game_copy(tmp_path):
    """frog_tower.yaml and its variants folder, copied where a test may harm them."""
    folder = tmp_path / "defs"
    (folder / "variants" / "frog_tower").mkdir(parents=True)
    for source in [ROOT / "definitions" / "frog_tower.yaml", *(ROOT / "definitions" / "variants" / "frog_tower").glob("*")]:
        target = folder / source.relative_to(ROOT / "definitions")
        target.write_bytes(source.read_bytes())
    return folder


@pytest.mark.parametrize("argv, output", [
    (["play", "frog_tower.yaml", "--players", "2", "--seed", "1", "--log"], "frog_tower.yaml"),
    (["play", "frog_tower.yaml", "--players", "2", "--seed", "1", "--log"], "variants/../frog_tower.yaml"),
    (["play", "variants/frog_tower/flower.yaml", "--players", "2", "--seed", "1", "--log"], "frog_tower.yaml"),
    (["simulate", "frog_tower.yaml", "--variant", "flower", "--players", "2", "--games", "1", "--json"],
     "variants/frog_tower/flower.yaml"),
    (["simulate", "frog_tower.yaml", "--players", "2", "--games", "1", "--json"], "link.yaml"),
])
def test_an_output_naming_an_input_of_the_run_is_refused_before_anything_is_written(
        capsys, monkeypatch, game_copy, argv, output):
    monkeypatch.chdir(game_copy)
    (game_copy / "link.yaml").symlink_to(game_copy / "frog_tower.yaml")
    before = {p: p.read_bytes() for p in game_copy.rglob("*.yaml")}
    code, out, err = run(capsys, *argv, output)
    assert code == 2 and "an input of this run" in err and "nothing was written" in err
    assert {p: p.read_bytes() for p in game_copy.rglob("*.yaml")} == before
    assert sorted(p.name for p in game_copy.iterdir()) == ["frog_tower.yaml", "link.yaml", "variants"]


def test_statistics_of_an_interrupted_run_leave_no_file_at_all(capsys, monkeypatch, tmp_path):
    target = tmp_path / "stats.json"
    target.write_text("old statistics\n")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr("interpreter.cli.simulate", interrupted)
    code, _, _ = run(capsys, "simulate", FROG_TOWER, "--players", "2", "--games", "5", "--json", target)
    assert code == 130
    assert target.read_text() == "old statistics\n" and [p.name for p in tmp_path.iterdir()] == ["stats.json"]


def test_an_unwritable_json_place_is_reported_before_the_games_are_played(capsys, monkeypatch, tmp_path):
    played = []
    monkeypatch.setattr("interpreter.cli.simulate", lambda *a, **k: played.append(1))

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr("interpreter.cli.tempfile.mkstemp", refused)
    code, _, err = run(capsys, "simulate", FROG_TOWER, "--players", "2", "--games", "5", "--json",
                       tmp_path / "s.json")
    assert code == 2 and "--json" in err and "Permission denied" in err and "Traceback" not in err
    assert played == []


# ---------------------------------------------------------------- terminals that are not UTF-8
def test_an_ascii_terminal_gets_escapes_instead_of_a_traceback(tmp_path):
    game = tmp_path / "unicode.yaml"
    game.write_text(HOSTILE_GAME.replace("[bold red]Bad", "Café ✓"), encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C", "PYTHONPATH": str(ROOT)}
    for argv in (["validate", game], ["rules", game], ["play", game, "--players", "2", "--seed", "1", "--log", "-"],
                 ["play", game, "--players", "2", "--human", "1", "--seed", "1", "--log", "-"],
                 ["simulate", game, "--players", "2", "--games", "2"]):
        result = subprocess.run([sys.executable, "-m", "interpreter.cli", *map(str, argv)], cwd=ROOT, env=env,
                                input=b"1\n" * 10, capture_output=True, timeout=120)
        assert result.returncode == 0, result.stderr.decode("ascii", "replace")
        assert result.stdout.isascii() and b"Traceback" not in result.stderr
        if argv[0] == "rules":
            assert b"Caf\\xe9 \\u2713" in result.stdout


# ---------------------------------------------------------------- arguments
def test_a_variant_giving_one_setting_twice_is_refused_naming_both(capsys):
    code, out, err = run(capsys, "validate", FROG_TOWER, "--variant", "crayfish:rule=pass_left,rule=random")
    assert code == 2 and out == ""
    assert "variant 'crayfish' sets 'rule' twice" in err


@pytest.mark.parametrize("argv, message", [
    (["play", FROG_TOWER, "--players", "1" + "0" * 5000], "--players: a number of at most 18 digits"),
    (["play", FROG_TOWER, "--players", "0"], "--players: must be at least 1, got 0"),
    (["play", FROG_TOWER, "--players", "2", "--seed", "9" * 5000], "--seed: a number of at most 18 digits"),
    (["play", FROG_TOWER, "--players", "2", "--seed", "-1"], "--seed: must be at least 0, got -1"),
    (["play", FROG_TOWER, "--players", "2", "--human", "1", "--human", "1"], "--human 1: that seat is given twice"),
    (["play", FROG_TOWER, "--players", "2", "--human", "0"], "--human: must be at least 1, got 0"),
    (["simulate", FROG_TOWER, "--players", "2", "--games", "1", "--jobs", "0"], "--jobs: must be at least 1"),
    (["simulate", FROG_TOWER, "--players", "2", "--games", "x" * 10000], "expected a whole number, got 'xxxx"),
])
def test_arguments_out_of_any_range_exit_2_with_a_short_message(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err
    assert len(err) < 2000


def test_the_largest_seed_accepted_plays(capsys):
    code, out, _ = run(capsys, "play", FROG_TOWER, "--players", "2", "--seed", "9" * 18, "--log", "-")
    assert code == 0 and "final result" in out


# ---------------------------------------------------------------- validating long log texts
def many_interpolations(tmp_path, count: int, distinct: bool) -> Path:
    parts = [("{game.x + %d}" % i) if distinct else "{game.x}" for i in range(count)]
    lines = "".join(f'    log "{" ".join(parts[i:i + 50])}"\n' for i in range(0, count, 50))  # 50 parts a line
    path = tmp_path / f"log{count}{distinct}.yaml"
    path.write_text("game: Many\nplayers: {min: 2, max: 2}\nzones:\n  deck: {}\ngame_variables:\n  x: 0\n"
                    f"procedures:\n  turn(player p): |\n{lines}flow:\n  - turn: turn\n"
                    "    until: game.turn >= 2\n", encoding="utf-8")
    return path


def test_a_log_text_with_more_than_a_hundred_parts_is_refused_where_it_is_written(capsys, tmp_path):
    path = tmp_path / "long_log.yaml"
    parts = " ".join("{game.x}" for _ in range(101))
    path.write_text("game: Many\nplayers: {min: 2, max: 2}\nzones:\n  deck: {}\ngame_variables:\n  x: 0\n"
                    f"procedures:\n  turn(player p): |\n    log \"{parts}\"\nflow:\n  - turn: turn\n"
                    "    until: game.turn >= 2\n", encoding="utf-8")
    code, out, err = run(capsys, "validate", path)
    assert code == 2 and err.startswith(f"{path}:9:5: procedures.turn(player p): this log text has 101 {{...}} "
                                        "parts; a line has at most 100 (split it, or log a list)")


@pytest.mark.parametrize("count, distinct", [(2000, False), (300, True)])  # 4 x 2,000 parts: within 30,000 nodes
def test_validating_log_interpolations_takes_time_linear_in_their_number(capsys, tmp_path, count, distinct):
    import gc
    import time
    timings = []
    gc.disable()  # the work's growth is measured, not the collector's scans of the suite's whole heap
    try:
        for n in (count, 4 * count):
            path = many_interpolations(tmp_path, n, distinct)
            best = float("inf")
            for _ in range(3):  # the best of three: a busy machine slows one run, not all alike
                started = time.perf_counter()
                assert run(capsys, "validate", path)[0] == 0
                best = min(best, time.perf_counter() - started)
            timings.append(best)
    finally:
        gc.enable()
    assert timings[1] / timings[0] < 8  # 4 times the text: about 4 times the time, not 16


def test_each_distinct_log_interpolation_is_parsed_once(capsys, tmp_path, monkeypatch):
    from interpreter.dsl import parser
    parser.parse_expression.cache_clear()
    parsed = []
    real_parse = parser.parse

    def counting_parse(text):
        parsed.append(text)
        return real_parse(text)
    monkeypatch.setattr(parser, "parse", counting_parse)
    assert run(capsys, "validate", many_interpolations(tmp_path, 200, False))[0] == 0
    assert parsed.count("return game.x\n") == 1


@pytest.mark.parametrize("make", ["folder", "fifo", "link to a device"])
def test_an_output_that_is_not_a_regular_file_is_refused_before_anything_is_played(capsys, tmp_path, make):
    """Outputs are renamed into place: renaming onto a folder fails late, onto a device node would replace it."""
    target = tmp_path / "out"
    if make == "folder":
        target.mkdir()
    elif make == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/full")
    for command in (["play", str(FROG_TOWER), "--players", "3", "--seed", "1", "--log", str(target)],
                    ["simulate", str(FROG_TOWER), "--players", "3", "--games", "2", "--json", str(target)]):
        assert main(command) == 2
        out, err = capsys.readouterr()
        assert "it is not a regular file" in err and "busts" not in out and "stops" not in out
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no temporary file left behind
