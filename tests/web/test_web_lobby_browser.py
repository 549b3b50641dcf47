"""The lobby in a real browser: Playwright drives Debian's Chromium against `ribbit serve FOLDER` run as a
separate process.  A table is started from the lobby page, joined by its seat link and played; the server
is stopped and started again on the same tables folder, and the table is listed again and goes on from
the same link."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")
playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (in the dev extra)")

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's Chromium is not installed (apt-get install chromium)", allow_module_level=True)

expect = playwright.expect
pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
HEAD_START = """\
variant: Head start
game: Secret Selection
parameters:
  start: {default: 1, one_of: [0, 1, 2], description: "Points each player starts with"}
add:
  setup:
    - step: head_start
      do: |
        for p in players:
          p.points += start
"""


class Lobby:
    """`ribbit serve FOLDER --tables DIR` in a child process, on 127.0.0.1."""

    def __init__(self, cwd: Path, games: Path, tables: Path, port: int = 0):
        argv = [sys.executable, "-m", "interpreter.cli", "serve", str(games), "--tables", str(tables),
                "--port", str(port), "--bot-delay", "0"]
        self.proc = subprocess.Popen(argv, cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)},
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        self.url = None
        while time.monotonic() < deadline and self.url is None:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"ribbit serve stopped: {self.proc.stderr.read()}")
            found = re.search(r"open (http://127\.0\.0\.1:\d+/lobby)", line)
            self.url = found and found.group(1)
        assert self.url, "no lobby address printed"
        self.port = int(re.search(r":(\d+)/", self.url).group(1))

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        errors = self.proc.stderr.read()
        assert "Traceback" not in errors and "unexpected" not in errors, errors


@pytest.fixture
def browser():
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def history(tables: Path, table_id: str) -> list:
    return json.loads((tables / f"{table_id}.save.json").read_text())["history"]


def act(page) -> None:
    """Click one of the seat's options and wait for the page to take it."""
    options = page.locator("#decision button.option:not([disabled])")
    options.first.click()
    expect(page.locator("#decision button.option[disabled]")).to_have_count(0, timeout=10_000)


def test_a_table_started_in_the_lobby_is_played_and_resumed_after_a_restart(browser, tmp_path):
    games = tmp_path / "games"
    (games / "variants" / "selection").mkdir(parents=True)
    shutil.copy(ROOT / "definitions" / "crazy_eights.yaml", games / "crazy_eights.yaml")
    shutil.copy(ROOT / "tests" / "definitions" / "selection.yaml", games / "selection.yaml")
    (games / "variants" / "selection" / "head_start.yaml").write_text(HEAD_START)
    tables = tmp_path / "tables"
    server = Lobby(tmp_path, games, tables)
    errors: list[str] = []
    try:
        context = browser.new_context(viewport={"width": 1360, "height": 900})
        context.on("page", lambda page: page.on("pageerror", lambda exc: errors.append(str(exc))))
        lobby = context.new_page()
        lobby.goto(server.url)
        # a table with a variant and its setting: listed with them
        lobby.select_option("#game", "selection")
        lobby.check("input[name=variant-head_start]")
        lobby.select_option("select[name=head_start-start]", "2")
        lobby.click("#start")
        expect(lobby.locator("#links li")).to_have_count(3)
        expect(lobby.locator("#tables tbody tr")).to_have_count(1)
        expect(lobby.locator("#tables tbody tr").first).to_contain_text("head_start:start=2")
        # a refusal is a message on the page
        lobby.select_option("select[name=seat2]", "ismcts")
        lobby.fill("input[name=params2]", "iterations=lots")
        lobby.click("#start")
        expect(lobby.locator("#error")).to_contain_text("iterations must be a whole number")
        expect(lobby.locator("#tables tbody tr")).to_have_count(1)
        # the table to play: Crazy Eights, seat 2 a bot
        lobby.select_option("#game", "crazy_eights")
        lobby.fill("#players", "2")
        lobby.dispatch_event("#players", "input")
        lobby.select_option("select[name=seat2]", "random")
        lobby.click("#start")
        expect(lobby.locator("#error")).to_be_hidden()
        expect(lobby.locator("#tables tbody tr")).to_have_count(2)
        links = lobby.locator("#links a")
        expect(links).to_have_count(2)  # player 1 and the spectators; player 2 is the bot
        seat_link = links.nth(0).get_attribute("href")
        watch_link = links.nth(1).get_attribute("href")
        assert "#seat=" in seat_link and "#watch=" in watch_link
        table_id = watch_link.split("#watch=")[1]

        seat = context.new_page()
        seat.goto(seat_link)
        seat.wait_for_selector(".player", timeout=10_000)
        for _ in range(3):
            expect(seat.locator("#decision button.option:not([disabled])").first).to_be_visible(timeout=10_000)
            act(seat)
        played = history(tables, table_id)
        assert sum(1 for player, _ in played if player == 0) >= 3

        server.stop()
        seat.wait_for_selector("text=reconnecting…")
        server = Lobby(tmp_path, games, tables, port=server.port)
        lobby.goto(server.url)
        expect(lobby.locator(f"#tables tbody tr[data-table='{table_id}']")).to_have_count(1)
        expect(lobby.locator("#tables tbody tr")).to_have_count(2)
        seat.wait_for_selector("#conn.ok", timeout=15_000)
        expect(seat.locator("#decision button.option:not([disabled])").first).to_be_visible(timeout=10_000)
        act(seat)
        again = history(tables, table_id)
        assert again[:len(played)] == played and len(again) > len(played)
        assert not errors, errors
        context.close()
    finally:
        server.stop()
