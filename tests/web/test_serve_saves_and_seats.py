"""ribbit serve's files are untrusted input: the save and seats file read at --resume, the save and seats file it
writes, and the bots a seats file names.  Each server here binds 127.0.0.1 (port 0) and is closed at once."""

from __future__ import annotations

import json
import os
import random
import re
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")

from interpreter import load_game  # noqa: E402
from interpreter.cli import main  # noqa: E402
from interpreter.errors import SaveFileError  # noqa: E402
from interpreter.web.table import Table, new_token, seats_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EIGHTS = ROOT / "definitions" / "crazy_eights.yaml"


@pytest.fixture
def serve(monkeypatch, capsys, tmp_path):
    """``serve(*argv)`` -> (status, stderr, the tables served): the command runs until it would serve, then stops
    (its stdout is then ``serve.out``).  A save without ``--save`` goes to a state folder of the test's own."""
    import interpreter.web.app as web_app

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    served = []

    def run(tables, sock):
        served.extend(tables)
        sock.close()

    monkeypatch.setattr(web_app, "run", run)

    def call(*argv):
        served.clear()
        code = main(["serve", *map(str, argv), "--host", "127.0.0.1", "--port", "0"])
        said = capsys.readouterr()
        call.out = said.out
        return code, said.err, list(served)
    return call


def limited_cli(*argv, cwd=ROOT, seconds=30):
    """The command in a child process with 1 GiB of memory and a time limit: a hang or a memory flood fails the
    test instead of stopping the run.  Only refusals are run this way (an accepted serve would listen on
    127.0.0.1 until the time limit)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    try:
        done = subprocess.run([sys.executable, "-m", "interpreter.cli", *map(str, argv), "--host", "127.0.0.1",
                               "--port", "0"], cwd=cwd, capture_output=True, text=True, timeout=seconds,
                              preexec_fn=limit, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    except subprocess.TimeoutExpired:
        pytest.fail(f"ribbit {' '.join(map(str, argv))} did not stop within {seconds} s")
    return done.returncode, done.stderr


def new_save(serve, folder: Path, *extra) -> Path:
    save = folder / "game.json"
    code, err, _ = serve(EIGHTS, "--players", "3", "--seat", "2=random", "--save", save, *extra)
    assert code == 0, err
    return save


# ---------------------------------------------------------------- item: a bot's own seed
def test_a_bot_seat_given_its_own_seed_is_seeded_by_it(serve, tmp_path):
    code, err, tables = serve(EIGHTS, "--players", "3", "--seat", "2=random:seed=3", "--save", tmp_path / "g.json")
    assert code == 0, err
    assert tables[0].bots[1].rng.getstate() == random.Random(3).getstate()
    assert tables[0].bot_specs[1] == ("random", {"seed": 3})


def test_a_resumed_bot_with_its_own_seed_is_seeded_by_it(serve, tmp_path):
    save = new_save(serve, tmp_path, "--seed", "4")
    seats = json.loads(seats_path(save).read_text())
    seats["bots"]["2"] = ["greedy", {"seed": "three", "samples": 2}]
    seats_path(save).write_text(json.dumps(seats))
    code, err, tables = serve(EIGHTS, "--resume", save)
    assert code == 0, err
    bot = tables[0].bots[1]
    assert bot.rng.getstate() == random.Random("three").getstate() and bot.samples == 2
    assert json.loads(seats_path(save).read_text())["bots"]["2"] == ["greedy", {"seed": "three", "samples": 2}]


def test_a_bot_without_a_seed_is_still_seeded_from_the_deal(serve, tmp_path):
    code, err, tables = serve(EIGHTS, "--players", "3", "--seat", "2=random", "--seed", "8",
                              "--save", tmp_path / "g.json")
    assert code == 0, err
    assert tables[0].bots[1].rng.getstate() == random.Random("8:1").getstate()


# ---------------------------------------------------------------- item: the files --resume reads
@pytest.mark.parametrize("special", ["dev_zero", "fifo", "folder"])
def test_resume_reads_the_save_only_from_a_regular_file(tmp_path, special):
    target = {"dev_zero": "/dev/zero", "fifo": tmp_path / "pipe.json", "folder": tmp_path}[special]
    if special == "fifo":
        os.mkfifo(target)
    code, err = limited_cli("serve", EIGHTS, "--resume", target, "--save", tmp_path / "out.json")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"{target}: ") and "expected a save (JSON)" in err
    assert not (tmp_path / "out.json").exists()


def test_resume_reads_the_seats_file_only_from_a_regular_file(serve, tmp_path):
    save = new_save(serve, tmp_path)
    side = seats_path(save)
    side.unlink()
    os.mkfifo(side)
    code, err = limited_cli("serve", EIGHTS, "--resume", save, "--save", tmp_path / "other.json")
    assert code == 2 and err.startswith(f"{side}: is not a regular file") and "expected a seats file (JSON)" in err
    assert stat.S_ISFIFO(os.lstat(side).st_mode)


def test_a_save_larger_than_the_limit_is_not_read(tmp_path, monkeypatch):
    import interpreter.web.table as table

    monkeypatch.setattr(table, "MAX_SAVE_BYTES", 100)
    save = tmp_path / "big.json"
    save.write_text(json.dumps({"x": "y" * 200}))
    with pytest.raises(SaveFileError, match="saves are limited to 100 bytes"):
        Table.resume(load_game(EIGHTS), save)


# ---------------------------------------------------------------- item: the files --save writes
@pytest.mark.parametrize("which", ["save", "seats file"])
def test_save_refuses_to_replace_a_pipe_or_a_link(serve, tmp_path, which):
    save = tmp_path / "g.json"
    special = save if which == "save" else seats_path(save)
    os.mkfifo(special)
    code, err, tables = serve(EIGHTS, "--players", "2", "--save", save)
    assert code == 2 and not tables
    assert f"cannot write the {which} to {special}: it is not a regular file" in err
    assert stat.S_ISFIFO(os.lstat(special).st_mode)
    special.unlink()
    special.symlink_to("/dev/null")
    code, err, tables = serve(EIGHTS, "--players", "2", "--save", save)
    assert code == 2 and "not a regular file" in err and os.path.islink(special)


def test_save_never_overwrites_an_input_through_its_seats_file(serve, tmp_path):
    """A definition named g.yaml.seats.json is the seats file of --save g.yaml: it must survive."""
    game = tmp_path / "g.yaml.seats.json"
    game.write_bytes(EIGHTS.read_bytes())
    code, err, tables = serve(game, "--players", "2", "--save", tmp_path / "g.yaml")
    assert code == 2 and not tables
    assert "the seats file" in err and "an input of this run" in err
    assert game.read_bytes() == EIGHTS.read_bytes() and not (tmp_path / "g.yaml").exists()


def test_save_never_overwrites_the_resumed_save_or_seats_file(serve, tmp_path):
    save = new_save(serve, tmp_path)
    before = save.read_bytes(), seats_path(save).read_bytes()
    code, err, tables = serve(EIGHTS, "--resume", save, "--save", seats_path(save))
    assert code == 2 and not tables and f"that is {seats_path(save)}, an input of this run" in err, err
    assert (save.read_bytes(), seats_path(save).read_bytes()) == before


def test_save_whose_seats_file_is_the_resumed_save_is_refused(serve, tmp_path):
    """--resume g.seats.json --save g: the new save's seats file would be written over the save being resumed."""
    resumed = tmp_path / "g.seats.json"
    first = new_save(serve, tmp_path)
    os.rename(seats_path(first), seats_path(resumed))
    os.rename(first, resumed)
    before = resumed.read_bytes()
    code, err, tables = serve(EIGHTS, "--resume", resumed, "--save", tmp_path / "g")
    assert code == 2 and not tables and "the seats file" in err and "an input of this run" in err, err
    assert resumed.read_bytes() == before


def test_resume_in_place_rewrites_the_resumed_save_and_its_seats(serve, tmp_path):
    save = new_save(serve, tmp_path)
    code, err, tables = serve(EIGHTS, "--resume", save)
    assert code == 0, err
    assert tables[0].save == save


# ---------------------------------------------------------------- item: seats files
def seats_of(save):
    return json.loads(seats_path(save).read_text())


BAD_SEATS = {
    "empty_token": (lambda s: s["tokens"].update({"1": ""}), "tokens.1", "32 letters, digits"),
    "short_token": (lambda s: s["tokens"].update({"1": "abc"}), "tokens.1", "32 letters, digits"),
    "padded_token": (lambda s: s["tokens"].update({"1": s["tokens"]["1"][:31] + " "}), "tokens.1", "32 letters"),
    "long_token": (lambda s: s["tokens"].update({"1": s["tokens"]["1"] + "A"}), "tokens.1", "32 letters"),
    "number_token": (lambda s: s["tokens"].update({"1": 12345}), "tokens.1", "32 letters"),
    "shared_token": (lambda s: s["tokens"].update({"3": s["tokens"]["1"]}), "tokens.3", "also another seat's"),
    "missing_seat": (lambda s: s["tokens"].pop("3"), "tokens", "seat 3 has neither a token nor a bot"),
    "unknown_seat": (lambda s: s["tokens"].update({"9": new_token()}), "tokens.'9'", "no seat '9'"),
    "spaced_seat": (lambda s: s["tokens"].update({" 3": s["tokens"].pop("3")}), "tokens.' 3'", "no seat ' 3'"),
    "token_and_bot": (lambda s: s["tokens"].update({"2": new_token()}), "bots.2", "both a token and a bot"),
    "tokens_not_a_map": (lambda s: s.update(tokens=["x"]), "tokens", "a mapping of seats"),
    "table_id": (lambda s: s.update(table=""), "table", "12 letters"),
    "game_number": (lambda s: s.update(game_number=True), "game_number", "whole number from 1"),
    "format": (lambda s: s.update(format="ribbit-web-seats/9"), "format", "not a seats file"),
    "unknown_bot": (lambda s: s["bots"].update({"2": ["genius", {}]}), "bots.2", "unknown bot 'genius'"),
    "bad_bot_param": (lambda s: s["bots"].update({"2": ["ismcts", {"iterations": -1}]}), "bots.2", "iterations"),
    "bot_not_a_pair": (lambda s: s["bots"].update({"2": "random"}), "bots.2", "[NAME, {PARAMETER"),
    "bot_seed_float": (lambda s: s["bots"].update({"2": ["random", {"seed": 1.5}]}), "bots.2", "a bot's seed"),
    "not_a_mapping": (lambda s: s.clear(), "format", "not a seats file"),
}


@pytest.mark.parametrize("case", sorted(BAD_SEATS))
def test_a_seats_file_with_a_token_or_bot_the_server_would_not_write_is_refused(serve, tmp_path, case):
    save = new_save(serve, tmp_path)
    change, key, words = BAD_SEATS[case]
    seats = seats_of(save)
    change(seats)
    seats_path(save).write_text(json.dumps(seats))
    code, err, tables = serve(EIGHTS, "--resume", save)
    assert code == 2 and not tables and err.count("\n") == 1, err
    assert err.startswith(f"{seats_path(save)}: {key}: ") and words in err


def test_an_empty_token_opens_no_seat(serve, tmp_path):
    """The reason for the rule: with "" accepted, anyone saying hello with an empty token would play seat 1."""
    save = new_save(serve, tmp_path)
    seats = seats_of(save)
    seats["tokens"]["1"] = ""
    seats_path(save).write_text(json.dumps(seats))
    with pytest.raises(SaveFileError, match="tokens.1"):
        Table.resume(load_game(EIGHTS), save)


def test_resume_without_the_seats_file_is_refused_and_says_what_is_missing(serve, tmp_path):
    """docs/serve.md promises the same seats, bots and links: without the seats file they cannot be kept."""
    save = new_save(serve, tmp_path)
    seats_path(save).unlink()
    before = save.read_bytes()
    code, err, tables = serve(EIGHTS, "--resume", save)
    assert code == 2 and not tables and err.count("\n") == 1
    assert err.startswith(f"{save}: the seats file of this save is missing: {seats_path(save)} holds the seats' "
                          "links and bots")
    assert save.read_bytes() == before and not seats_path(save).exists()


def test_a_pipe_put_where_the_save_goes_while_serving_is_not_replaced(tmp_path):
    """The check at start is not all: each write refuses to rename over anything but a regular file."""
    table = Table(load_game(EIGHTS), 3, {1: ("random", {})}, tmp_path / "g.json", seed=2)
    table.write_save()
    (tmp_path / "g.json").unlink()
    os.mkfifo(tmp_path / "g.json")
    with pytest.raises(OSError, match="not a regular file"):
        table.apply(0, table.state.legal_actions(0)[0])
    assert stat.S_ISFIFO(os.lstat(tmp_path / "g.json").st_mode) and not list(tmp_path.glob(".*.part"))


def test_a_save_that_is_not_json_is_refused_at_its_line_and_column_without_quoting_it(tmp_path):
    save = tmp_path / "game.json"
    save.write_text('{\n  "secret": "hunter2", oops\n}\n')
    with pytest.raises(SaveFileError) as caught:
        Table.resume(load_game(EIGHTS), save)
    assert str(caught.value).startswith(f"{save}:2:24: the save is not valid JSON (")
    assert "hunter2" not in str(caught.value)


# ---------------------------------------------------------------- item: where a save goes without --save
@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """The command runs in an empty folder (a checkout, a shared folder) with this user's state folder set."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return here, tmp_path / "state" / "ribbit"


def private(path: Path) -> bool:
    return stat.S_IMODE(path.stat().st_mode) == 0o700


def test_a_game_served_without_save_is_kept_in_the_user_s_state_folder_not_the_current_one(serve, elsewhere):
    here, state = elsewhere
    code, err, tables = serve(EIGHTS, "--players", "3", "--seat", "2=random", "--seed", "5")
    assert code == 0, err
    save = tables[0].save
    assert list(here.iterdir()) == []
    assert save.parent == state / "serve" and save.name.startswith("crazy-eights-") and save.name.endswith(".save.json")
    assert save.is_file() and seats_path(save).is_file() and private(state) and private(state / "serve")
    out = serve.out
    assert f"Saved after every action to {save} (links in {save}.seats.json)" in out and f"--resume {save}" in out
    code, err, resumed = serve(EIGHTS, "--resume", save)  # the printed command goes on from anywhere
    assert code == 0, err
    assert resumed[0].state.to_json() == tables[0].state.to_json() and resumed[0].tokens == tables[0].tokens


def test_without_xdg_state_home_the_state_folder_is_in_the_home_folder(serve, elsewhere, tmp_path, monkeypatch):
    here, _ = elsewhere
    monkeypatch.setenv("XDG_STATE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    code, err, tables = serve(EIGHTS, "--players", "2")
    assert code == 0, err
    assert tables[0].save.parent == tmp_path / "home" / ".local" / "state" / "ribbit" / "serve"
    assert list(here.iterdir()) == []


def test_two_games_started_in_the_same_second_get_their_own_saves(serve, elsewhere, monkeypatch):
    import interpreter.cli as cli

    monkeypatch.setattr(cli.time, "strftime", lambda form, *when: "20261201-120000")
    saves = []
    for _ in range(3):
        code, err, tables = serve(EIGHTS, "--players", "2")
        assert code == 0, err
        saves.append(tables[0].save)
    assert len(set(saves)) == 3 and all(save.is_file() for save in saves)
    assert [save.name for save in saves] == ["crazy-eights-20261201-120000.save.json",
                                             "crazy-eights-20261201-120000-2.save.json",
                                             "crazy-eights-20261201-120000-3.save.json"]


def test_with_no_home_and_no_state_folder_serve_asks_for_save(serve, elsewhere, monkeypatch):
    here, _ = elsewhere
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)  # as with no HOME and no password entry
    code, err, tables = serve(EIGHTS, "--players", "2")
    assert code == 2 and not tables and err.count("\n") == 1
    assert "--save FILE is needed: there is no state folder for this user" in err
    assert list(here.iterdir()) == []


def test_a_lobby_without_tables_keeps_them_in_the_state_folder_one_folder_per_games_folder(elsewhere, monkeypatch,
                                                                                          capsys, tmp_path):
    import shutil

    import interpreter.web.app as web_app

    here, state = elsewhere
    monkeypatch.setattr(web_app, "run", lambda tables, sock, lobby=None: sock.close())
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(EIGHTS, games / "crazy_eights.yaml")
    other = tmp_path / "other"
    shutil.copytree(games, other)

    def tables_folder(*argv):
        assert main(["serve", *argv, "--host", "127.0.0.1", "--port", "0"]) == 0
        return re.search(r"Tables are saved after every action in (\S+) ", capsys.readouterr().out).group(1)

    first = tables_folder(str(games))
    assert Path(first).parent == state / "tables" and Path(first).name.startswith("games-")
    assert Path(first).is_dir() and private(Path(first)) and private(state / "tables")
    monkeypatch.chdir(tmp_path)
    assert tables_folder("games") == first  # the same games folder, named from elsewhere: the same tables
    assert tables_folder(str(other)) != first
    assert list(here.iterdir()) == []
