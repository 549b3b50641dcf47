"""Exit statuses and file modes are what the README and --help say: `replay --check` on a log it cannot check
exits 2 and says so (documented), and `--plot` writes its figures with the permissions of the umask, as `--json`."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys

import pytest

from interpreter.cli import main

from conftest import REPO_ROOT
from test_replay import one_paragraph, run, secret_log

FROG_TOWER = REPO_ROOT / "definitions" / "frog_tower.yaml"


def test_replay_check_of_a_log_it_cannot_check_exits_2_as_documented(project, capsys):
    """A person's log that hides another seat's secret choice neither matches (0) nor differs (1): status 2."""
    log, hidden = secret_log(capsys)
    code, out, err = run(capsys, "replay", log, "--check")
    assert code == 2 and out == "" and one_paragraph(err)
    assert err.startswith(f"{log}:") and "this log cannot be checked to its end: decision" in err
    assert main(["replay", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "exit 0 if it does, 1 if not, 2 if the log cannot be checked" in shown
    readme = " ".join((REPO_ROOT / "README.md").read_text(encoding="utf-8").split())
    assert re.search(r"`--check` replays the log .*?exit 2, naming the line, when the log cannot be checked", readme)


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077], ids=["022", "002", "077"])
def test_plot_files_get_the_umask_s_permissions_like_json(capsys, tmp_path, umask):
    pytest.importorskip("matplotlib", reason="figures need the 'plot' extra (matplotlib)")
    old = os.umask(umask)
    try:
        code = main(["simulate", str(FROG_TOWER), "--players", "3", "--games", "4", "--plot", str(tmp_path / "figs"),
                     "--json", str(tmp_path / "stats.json")])
    finally:
        os.umask(old)
    assert code == 0, capsys.readouterr().err
    expected = 0o666 & ~umask
    assert stat.S_IMODE(os.stat(tmp_path / "stats.json").st_mode) == expected
    figures = sorted((tmp_path / "figs").iterdir())
    assert len(figures) == 6
    assert {f.name: stat.S_IMODE(os.stat(f).st_mode) for f in figures} == {f.name: expected for f in figures}


def test_play_whose_output_is_closed_stops_as_interrupted_and_its_log_ends_with_that_record(tmp_path):
    """`ribbit play ... | head -1`: the reader leaves. It exited 1 in silence (rich's own SystemExit), and the log,
    put in place anyway, ended mid-game without the "interrupted" record an interrupted game's log ends with."""
    log = tmp_path / "game.jsonl"
    top_frog = REPO_ROOT / "definitions" / "top_frog.yaml"  # with --trace, far more output than a pipe buffers
    with subprocess.Popen([sys.executable, "-m", "interpreter.cli", "play", str(top_frog), "--players", "4", "--seed",
                           "1", "--trace", "--log", str(log)], cwd=REPO_ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as process:
        assert process.stdout.readline().startswith(b"Top Frog, 4 players")
        process.stdout.close()
        err = process.stderr.read().decode()
        code = process.wait(timeout=300)
    assert code == 130 and err == "ribbit play: stopped: the output was closed\n"
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert records[0]["event"] == "start" and records[-1]["event"] == "interrupted"
    readme = " ".join((REPO_ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "130 interrupted (Ctrl-C, a player at the terminal left: end of input or no input at all, or the " \
           "output was closed: `| head`)" in readme
