"""`ribbit replay LOG`: a `ribbit play` log replayed from its seed, shown as one seat saw it; `--check` says
whether it replays to the outcome it records; hostile logs are refused in one located paragraph."""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil

import pytest

from interpreter.cli import main
from interpreter.errors import quote
from interpreter.render import SafeConsole
from interpreter.log_replay import Replay, load_logged_game, read_log
from interpreter.render import show_position
from invariants import with_cards_permuted
from test_conformance import SWEEP_CONFIGURATIONS as CONFIGURATIONS
from test_narration import unseen_cards

from conftest import REPO_ROOT

PLAYERS = {"frog_tower": 3, "kaeru": 2, "crazy_eights": 3, "top_frog": 4}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def play_log(capsys, stem, variants=(), seed=3, name="game.jsonl", extra=()):
    argv = ["play", f"definitions/{stem}.yaml", "--players", str(PLAYERS[stem]), "--seed", str(seed), "--log", name]
    for variant in variants:
        argv += ["--variant", variant]
    code, out, err = run(capsys, *argv, *extra)
    assert code == 0, err
    return name


def records(path):
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def write_records(path, rows):
    with open(path, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
    return path


def one_paragraph(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


# ---------------------------------------------------------------- --check
@pytest.mark.parametrize("stem, variants", CONFIGURATIONS,
                         ids=[s + "".join(f"+{v}" for v in vs) for s, vs in CONFIGURATIONS])
def test_check_passes_on_the_log_of_every_shipped_game_and_variant(project, capsys, stem, variants):
    log = play_log(capsys, stem, variants)
    code, out, err = run(capsys, "replay", log, "--check")
    assert code == 0, err
    assert out.startswith(f"OK {log}: ") and "replay to its recorded result" in out


def test_check_fails_on_a_log_whose_result_was_changed(project, capsys):
    rows = records(play_log(capsys, "frog_tower"))
    rows[-1]["scores"] = [s + 1 for s in rows[-1]["scores"]]
    write_records("tampered.jsonl", rows)
    code, out, err = run(capsys, "replay", "tampered.jsonl", "--check")
    assert code == 1 and out == "" and one_paragraph(err)
    assert err.startswith("tampered.jsonl: does not replay to what it records: scores: the log says [")


def test_check_fails_on_a_log_whose_action_was_changed(project, capsys):
    rows = records(play_log(capsys, "frog_tower"))
    second = [i for i, r in enumerate(rows) if r["event"] == "action"][1]
    rows[second]["action"] = "fly away"
    write_records("tampered.jsonl", rows)
    code, out, err = run(capsys, "replay", "tampered.jsonl", "--check")
    assert code == 1 and one_paragraph(err)
    assert f"tampered.jsonl:{second + 1}: decision 2: player {rows[second]['player']} cannot play 'fly away', " \
           "which is not legal there (the legal actions: '" in err


def test_an_illegal_action_in_a_log_is_a_located_error_when_stepping_through(project, capsys):
    rows = records(play_log(capsys, "frog_tower", seed=4))  # decision 2 is player 2's
    second = [i for i, r in enumerate(rows) if r["event"] == "action"][1]
    rows[second]["player"] = 3
    write_records("tampered.jsonl", rows)
    code, out, err = run(capsys, "replay", "tampered.jsonl", "--to", "1")
    assert code == 2 and one_paragraph(err)
    assert err.startswith(f"tampered.jsonl:{second + 1}: decision 2: it is not player 3's decision (waiting for "
                          "player 2); the log does not match the game")


# ---------------------------------------------------------------- logs that hide secret choices
def secret_log(capsys, seat=0):
    """A Crayfish (pass left) game log as a person in ``seat`` would have it: others' secret choices hidden."""
    for seed in range(40):
        name = play_log(capsys, "frog_tower", ["crayfish:rule=pass_left"], seed=seed, name="all.jsonl")
        rows = records(name)
        log = read_log(name)
        game, _ = load_logged_game(log)
        state = game.new_game(3, seed=seed)
        hidden = 0
        for row in rows:
            if row["event"] != "action":
                continue
            secret = state.pending["secret"]
            state.apply(row["player"] - 1, row["action"])
            if secret and row["player"] - 1 != seat:
                row["action"], row["secret"] = None, True
                hidden = hidden or sum(1 for r in rows[:rows.index(row) + 1] if r["event"] == "action")
        if hidden:
            rows[0]["narration"] = f"player {seat + 1}"
            return write_records("seat1.jsonl", rows), hidden
    pytest.fail("no game of the first 40 seeds had a secret choice")


def test_a_log_that_hides_secret_choices_cannot_be_checked_and_says_why(project, capsys):
    log, hidden = secret_log(capsys)
    code, out, err = run(capsys, "replay", log, "--check")
    assert code == 2 and one_paragraph(err)
    assert f"decision {hidden} (line " in err and "secret choice, which this log does not hold" in err
    assert "--log-omniscient" in err and "only bots play" in err


def test_a_hidden_choice_names_whose_log_it_is_only_as_play_writes_it(project, capsys):
    # the start record's "narration" is the log's own text: a 3 MB one was quoted whole in the message
    log, hidden = secret_log(capsys)
    rows = records(log)
    for written_for, shown in [("player 1", "player 1"), ("spectator", "spectator"),
                               ("\x1b[31m[bold]" + "x" * 3_000_000, "one seat"), ({"a": list(range(1000))}, "one seat")]:
        rows[0]["narration"] = written_for
        write_records(log, rows)
        code, out, err = run(capsys, "replay", log, "--check")
        assert code == 2 and one_paragraph(err) and len(err) < 1000
        assert f"which this log does not hold (it was written for {shown}), so the game" in err


def test_a_log_that_hides_secret_choices_replays_up_to_the_first_hidden_one(project, capsys):
    log, hidden = secret_log(capsys)
    code, out, err = run(capsys, "replay", log, "--to", hidden - 1, "--seat", "1")
    assert code == 0, err
    assert f"Decision {hidden - 1} of {hidden - 1}:" in out
    code, out, err = run(capsys, "replay", log, "--to", hidden)
    assert code == 2 and one_paragraph(err) and "cannot be replayed past it" in err


def test_other_seats_secret_choices_are_shown_as_secret_even_from_an_omniscient_log(project, capsys):
    log, hidden = secret_log(capsys)
    code, out, err = run(capsys, "replay", "all.jsonl", "--to", hidden, "--seat", "1")
    assert code == 0 and "(a secret choice)" in out.splitlines()[0]


# ---------------------------------------------------------------- what a position shows
def render(replay, state, n, seat) -> str:
    console = SafeConsole(file=io.StringIO(), width=120, color_system=None)
    show_position(console, replay, state, n, seat)
    return console.file.getvalue()


@pytest.mark.parametrize("stem", sorted(PLAYERS))
def test_a_position_shows_the_same_whatever_the_cards_the_seat_cannot_see(project, capsys, stem):
    """The secrecy property: permuting the cards a seat cannot see does not change what --to N prints for it."""
    log = read_log(play_log(capsys, stem, seed=11))
    game, scenario = load_logged_game(log)
    replay = Replay(log, game, scenario)
    rng = random.Random(5)
    checked = 0
    for n in sorted({0, 1, replay.decisions // 3, replay.decisions // 2, replay.decisions - 1}):
        state = replay.state_at(n)
        for seat in [None, *range(state.n)]:
            unseen = unseen_cards(state, seat)
            if len(unseen) < 2:
                continue
            world, sigma = with_cards_permuted(state, unseen, rng)
            if all(a == b for a, b in sigma.items()):
                continue
            assert render(replay, world, n, seat) == render(replay, state, n, seat), (n, seat)
            checked += 1
    assert checked


def test_to_n_prints_the_seats_own_view_and_narration(project, capsys):
    log = play_log(capsys, "frog_tower", seed=4)
    code, out, err = run(capsys, "replay", log, "--to", "3", "--seat", "2")
    assert code == 0, err
    first = out.splitlines()[0]
    assert "Decision 3 of " in first and "as player 2 saw it" in first
    assert "player 2 (you)" in out and "the Pond (face down)" in out and "(hidden)" in out  # the table's label


def test_the_last_position_ends_with_each_score_by_the_definitions_terms(project, capsys):
    """TABLE.md: the end shows the winner and each player's score by the definition's own terms, in a replay
    as at the table (Top Frog's Frogs, Hats, Lily Pad, Gnats; the seat's own row says "(you)")."""
    log = play_log(capsys, "top_frog", seed=5)
    end = records(log)[-1]
    code, out, err = run(capsys, "replay", log, "--to", str(end["decisions"]), "--seat", "2")
    assert code == 0, err
    result = out[out.index("final result"):]
    header = next(line for line in result.splitlines() if "seat" in line)
    assert header.split() == ["seat", "Frogs", "Hats", "Lily", "Pad", "Gnats", "score"]
    mine = next(line for line in result.splitlines() if "player 2 (you)" in line)
    assert mine.split()[3:7] == [str(v) for v in end["breakdown"][1].values()]


def test_stepping_through_goes_forward_back_and_jumps(project, capsys, monkeypatch):
    log = play_log(capsys, "frog_tower", seed=4)
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n\np\ng 7\nwhat\ng 9999\nq\n"))
    code, out, err = run(capsys, "replay", log)
    assert code == 0, err
    heads = re.findall(r"(Start of the game \(decision 0 of 59\)|Decision \d+ of 59)[^\n]* - as a spectator saw it", out)
    assert heads == \
        ["Start of the game (decision 0 of 59)", "Decision 1 of 59", "Decision 2 of 59", "Decision 1 of 59",
         "Decision 7 of 59"]
    assert "Answer n (or Enter), p, g N or q." in out
    assert "There is no decision 9999: the replay has decisions 0 to 59." in out


# ---------------------------------------------------------------- hostile logs
START = {"event": "start", "format": "ribbit-log/1", "game": "Frog Tower", "file": "definitions/frog_tower.yaml",
         "variants": [], "players": 3, "seed": 1, "humans": [], "bot": "random", "narration": "omniscient"}


def hostile(project, rows=None, text=None):
    path = project / "hostile.jsonl"
    if text is not None:
        path.write_text(text)
    else:
        write_records(path, rows)
    return "hostile.jsonl"


@pytest.mark.parametrize("make, message", [
    (lambda p: hostile(p, text='{"event": "start"\n'), "hostile.jsonl:1: is not valid JSON ("),
    (lambda p: hostile(p, text="[1, 2]\n"), "hostile.jsonl:1: is a JSON list, not an object"),
    (lambda p: hostile(p, text="[" * 100000 + "\n"), "hostile.jsonl:1: is not valid JSON (nested too deeply)"),
    (lambda p: hostile(p, text='{"seed": ' + "9" * 5000 + "}\n"),
     "hostile.jsonl:1: is not valid JSON (a number too long to read); every line of a game log is one JSON object"),
    (lambda p: hostile(p, [{"event": "start", "format": "ribbit-log/9"}]),
     "hostile.jsonl:1: a game log starts with {\"event\": \"start\", \"format\": \"ribbit-log/1\", ...}"),
    (lambda p: hostile(p, [START, {"event": "teleport"}]), "hostile.jsonl:2: unknown event 'teleport'"),
    (lambda p: hostile(p, [START, {"event": "action", "player": 7, "action": "x"}]),
     "hostile.jsonl:2: \"player\" must be a seat from 1 to 3, got 7"),
    (lambda p: hostile(p, [START, {"event": "action", "player": 1, "action": None}]),
     "hostile.jsonl:2: an action record without an action must be a hidden secret choice"),
    (lambda p: hostile(p, [{**START, "players": "3"}]),
     "hostile.jsonl:1: \"players\" must be the number of players (a whole number), got '3'"),
    (lambda p: hostile(p, [{**START, "file": "/etc/passwd"}]),
     "hostile.jsonl:1: file: the game file '/etc/passwd' is not a YAML file name (.yaml or .yml)"),
    (lambda p: hostile(p, [{**START, "file": "definitions/nothing.yaml"}]),
     "hostile.jsonl:1: file: the game file 'definitions/nothing.yaml' was not found in the current folder or "
     "the log's folder"),
    (lambda p: hostile(p, [{**START, "variants": ["../../elsewhere/x.yaml"]}]),
     "hostile.jsonl:1: variants[0]: the variant file '../../elsewhere/x.yaml' was not found"),
    (lambda p: hostile(p, [{**START, "players": 9}]),
     "hostile.jsonl:1: players: the log is of a 9-player game; Frog Tower is for 2-5 players"),
    (lambda p: hostile(p, [{**START, "seed": None}]),
     "hostile.jsonl:1: the log does not hold the game's seed"),
    (lambda p: hostile(p, [{**START, "variants": ["x.yaml"] * 10 ** 6}]),
     "hostile.jsonl:1: \"variants\" must be a list of at most 100 variant references (texts)"),
    (lambda p: hostile(p, [START, {"event": "action", "player": 1, "action": [[[[[[[["x"] * 1000]]]]]]]}]),
     "hostile.jsonl:2: \"action\" must be the action's text, got "),
    (lambda p: hostile(p, [START, {"event": "undo", "player": True}]),
     "hostile.jsonl:2: \"player\" must be a seat from 1 to 3, got True"),
    (lambda p: hostile(p, [START, {"event": "end", "scores": [1, 2, 3], "winners": [0]}]),
     "hostile.jsonl:2: \"ended_by\" must be \"end game\", \"flow\" or \"decision cap\", got None"),
    (lambda p: hostile(p, text=""), "hostile.jsonl: is empty; expected a game log"),
    (lambda p: (p / "hostile.jsonl").write_bytes(b"\xff\n") and "hostile.jsonl", "hostile.jsonl: is not UTF-8 text"),
    (lambda p: (p / "folder").mkdir() or "folder", "folder: is a directory; expected a game log"),
    (lambda p: "/dev/zero", "/dev/zero: is not a regular file (it is a device); expected a game log (the JSON-lines "
                            "file `ribbit play --log` writes)"),
    (lambda p: os.mkfifo(p / "pipe.jsonl") or "pipe.jsonl",
     "pipe.jsonl: is not a regular file (it is a named pipe); expected a game log"),
])
def test_a_hostile_log_is_refused_in_one_located_paragraph(project, capsys, make, message):
    code, out, err = run(capsys, "replay", make(project), "--to", "0")
    assert code == 2 and out == "" and one_paragraph(err), err
    assert err.startswith(message), err


def test_a_log_cannot_make_replay_read_a_game_outside_its_folders(project, capsys, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    shutil.copy(project / "definitions" / "frog_tower.yaml", elsewhere / "frog_tower.yaml")
    (project / "link.yaml").symlink_to(elsewhere / "frog_tower.yaml")
    for named in (str(elsewhere / "frog_tower.yaml"), "link.yaml"):
        code, out, err = run(capsys, "replay", hostile(project, [{**START, "file": named}]), "--to", "0")
        assert code == 2 and one_paragraph(err)
        assert "is outside the folders a log may read from (the current folder and the log's own folder)" in err
    code, out, err = run(capsys, "replay", "hostile.jsonl", "--to", "0", "--game", elsewhere / "frog_tower.yaml")
    assert code == 0, err  # the person replaying may name any game


def test_a_log_in_another_folder_finds_its_game_beside_it(project, capsys, tmp_path_factory, monkeypatch):
    log = play_log(capsys, "frog_tower")
    monkeypatch.chdir(tmp_path_factory.mktemp("somewhere"))
    code, out, err = run(capsys, "replay", project / log, "--check")
    assert code == 0, err


def test_seat_and_decision_out_of_range_are_refused(project, capsys):
    log = play_log(capsys, "frog_tower", seed=4)
    code, _, err = run(capsys, "replay", log, "--seat", "4")
    assert code == 2 and "--seat 4: the game of this log has 3 seats (1 to 3)" in err
    code, _, err = run(capsys, "replay", log, "--to", "60")
    assert code == 2 and "--to 60: the log holds 59 decisions (0 to 59)" in err


def test_an_interrupted_log_checks_up_to_where_it_stopped(project, capsys):
    rows = records(play_log(capsys, "frog_tower", seed=4))
    actions = [i for i, r in enumerate(rows) if r["event"] == "action"]
    rows = rows[:actions[10] + 1] + [{"event": "interrupted", "decisions": 11, "seed": 4}]
    write_records("stopped.jsonl", rows)
    code, out, err = run(capsys, "replay", "stopped.jsonl", "--check")
    assert code == 0, err
    assert "11 decisions replay to where it stopped (interrupted)" in out


def test_no_file_is_read_through_a_hostile_log_before_it_is_checked(project, capsys):
    secret = project / "secret.yaml"
    secret.write_text("password: hunter2\n")
    code, out, err = run(capsys, "replay", hostile(project, [{**START, "file": "secret.yaml"}]), "--to", "0")
    assert code == 2 and "hunter2" not in out + err and os.path.exists(secret)


# ---------------------------------------------------------------- files a log names, reported at the log's line
SIZED = "variant: Sized\ngame: Frog Tower\nparameters:\n  bonus: {default: 1, description: a number}\n"


def start_on_line_2(project, **changes) -> str:
    """A log whose start record is on line 2 (a blank line first), with ``changes`` to it."""
    return hostile(project, text="\n" + json.dumps({**START, **changes}) + "\n")


@pytest.mark.parametrize("ref, place, message", [
    ("crayfish:rule=sideways", "definitions/variants/frog_tower/crayfish.yaml:10:3: parameters.rule",
     "'sideways' is not an allowed value of parameter 'rule'"),
    ("sized.yaml:bonus=99999999999999999999999", "sized.yaml:4:3: parameters.bonus",
     "'99999999999999999999999' cannot be the value of parameter 'bonus'"),
    ("sized.yaml:bonus=１２", "sized.yaml:4:3: parameters.bonus", "'１２' is not an allowed value of parameter 'bonus'"),
    ("pipe.yaml", "pipe.yaml", "is not a regular file (it is a named pipe); expected a YAML file"),
    ("plain.yaml", "plain.yaml:1:1", "not a variant: a YAML mapping with no 'variant' key"),
    ("nope", "definitions/variants/frog_tower", "no variant called 'nope'"),
])
def test_a_bad_variant_a_log_names_is_reported_at_the_logs_start_record(project, capsys, ref, place, message):
    (project / "sized.yaml").write_text(SIZED)
    (project / "plain.yaml").write_text("password: hunter2\n")
    os.mkfifo(project / "pipe.yaml")
    code, out, err = run(capsys, "replay", start_on_line_2(project, variants=["flower", ref]), "--check")
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith(f"hostile.jsonl:2: variants[1]: the variant {quote(ref)} cannot be used: {project}/{place}: "
                          f"{message}"), err
    assert "hunter2" not in err


@pytest.mark.parametrize("key, named", [("file", "pipe.yaml"), ("file", "plain.yaml"), ("scenario", "pipe.yaml")])
def test_a_game_or_scenario_file_a_log_names_is_reported_at_the_logs_start_record(project, capsys, key, named):
    (project / "plain.yaml").write_text("password: hunter2\n")
    os.mkfifo(project / "pipe.yaml")
    code, out, err = run(capsys, "replay", start_on_line_2(project, **{key: named}), "--check")
    what = "the game file" if key == "file" else "the scenario file"
    assert code == 2 and out == "" and one_paragraph(err), err
    assert err.startswith(f"hostile.jsonl:2: {key}: {what} cannot be used: {project}/{named}"), err
    assert "hunter2" not in err


def test_the_log_schema_shipped_in_the_package_names_every_event_and_the_format():
    from interpreter.loader.data_schemas import LOG_SCHEMA, first_error
    from interpreter.loader.schema import load_schema
    from interpreter.log_replay import EVENTS, LOG_FORMAT
    schema = load_schema(LOG_SCHEMA)
    assert set(schema["properties"]["event"]["enum"]) == EVENTS
    assert schema["$defs"]["start"]["properties"]["format"]["const"] == LOG_FORMAT
    assert first_error(LOG_SCHEMA, {**START}) is None
    assert list(first_error(LOG_SCHEMA, {**START, "players": 0}).absolute_path) == ["players"]
