"""ribbit serve in a real browser: Playwright drives Debian's Chromium against `ribbit serve` run as a
separate process, as a person would use it.  Whole games are played by clicking (buttons, cards,
multi-select with confirm); secrecy is checked on the page's HTML and on every WebSocket frame.

The screenshots in docs/img/ are taken here: run with RIBBIT_UPDATE_SCREENSHOTS=1 to refresh them.
"""

from __future__ import annotations

import json
import os
import random
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
DEFS = ROOT / "definitions"
TEST_DEFS = ROOT / "tests" / "definitions"
IMAGES = ROOT / "docs" / "img"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1360, "height": 900}


class Served:
    """`ribbit serve` in a child process; its links as printed."""

    def __init__(self, tmp_path, definition, *args, resume=False, port=0):
        self.save = tmp_path / "game.json"
        self.definition = definition
        argv = [sys.executable, "-m", "interpreter.cli", "serve", str(definition), "--port", str(port),
                "--bot-delay", "0"]
        argv += ["--resume", str(self.save)] if resume else ["--save", str(self.save), *args]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.links = {}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"ribbit serve stopped: {self.proc.stderr.read()}")
            found = re.match(r"\s+(player \d+|spectators)\s+(http\S+)", line)
            if found:
                self.links[found.group(1)] = found.group(2)
            if line.startswith("Saved after every action"):
                break
        self.port = int(re.search(r":(\d+)/", self.links["spectators"]).group(1))

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        errors = self.proc.stderr.read()
        assert "Traceback" not in errors and "unexpected" not in errors, errors


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def serve(tmp_path):
    servers = []

    def start(definition, *args, **kwargs):
        server = Served(tmp_path, definition, *args, **kwargs)
        servers.append(server)
        return server
    yield start
    for server in servers:
        if server.proc.poll() is None:
            server.stop()


class Seat:
    """One person's browser tab, recording every WebSocket frame it receives."""

    def __init__(self, browser, link):
        self.context = browser.new_context(viewport=VIEWPORT)
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda data: self.frames.append(str(data))))
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.goto(link)
        self.page.wait_for_selector(".player", timeout=10_000)

    def can_act(self) -> bool:
        return self.page.locator("#decision button.option:not([disabled])").count() > 0

    def over(self) -> bool:
        return self.page.locator("#decision .winner-banner").count() > 0

    def act(self, rng: random.Random) -> str:
        """One decision, as a person would take it: clicking cards where the options are cards."""
        page = self.page
        pickable = page.locator(".card.pickable")
        confirm = page.locator("button.confirm")
        if confirm.count() and pickable.count():  # choose several: select cards until an option matches
            order = list(range(pickable.count()))
            rng.shuffle(order)
            for i in order:
                pickable.nth(i).click()
                if confirm.is_enabled():
                    label = confirm.inner_text()
                    confirm.click()
                    return label
            page.locator("button", has_text="Clear").click()
            page.locator(".all-options summary").click()
        elif pickable.count() and rng.random() < 0.8:
            card = pickable.nth(rng.randrange(pickable.count()))
            name = card.locator(".card-name").inner_text()
            card.click()
            return name
        options = page.locator("#decision button.option:not([disabled])")
        choice = options.nth(rng.randrange(options.count()))
        label = choice.inner_text()
        choice.click()
        return label

    def names_shown(self) -> set[str]:
        return set(self.page.locator(".card-name").all_inner_texts()) | set(
            self.page.locator("button.option").all_inner_texts())

    def close(self):
        assert not self.errors, self.errors
        self.context.close()


def play(seats, rng, until=None, limit=120.0, max_actions=2000):
    """Click through the game: whichever seat may act, acts; until ``until()`` or the game is over."""
    deadline = time.monotonic() + limit
    actions = 0
    while time.monotonic() < deadline and actions < max_actions:
        if until is not None and until():
            return actions
        if seats[0].over():
            return actions
        acted = False
        for seat in seats:
            if seat.can_act():
                seat.act(rng)
                actions += 1
                acted = True
                expect(seat.page.locator("#decision button.option[disabled]")).to_have_count(0, timeout=10_000)
        if not acted:
            time.sleep(0.02)
    if until is None:
        assert seats[0].over(), "the game did not end in time"
    return actions


def screenshot(page, name, tmp_path, full_page=True):
    path = tmp_path / name
    page.evaluate("window.scrollTo(0, 0)")  # the side panel is sticky: draw it where it starts
    page.screenshot(path=str(path), full_page=full_page)
    assert path.stat().st_size > 10_000  # a real picture, not a blank page
    if os.environ.get("RIBBIT_UPDATE_SCREENSHOTS"):
        IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, IMAGES / name)


def saved(server) -> dict:
    return json.loads(server.save.read_text())


# ---------------------------------------------------------------- whole games
def test_three_people_play_frog_tower_to_the_end_in_three_browsers(browser, serve, tmp_path):
    server = serve(DEFS / "frog_tower.yaml", "--players", "3", "--seed", "11")
    seats = [Seat(browser, server.links[f"player {i}"]) for i in (1, 2, 3)]
    rng = random.Random(1)
    shot = {}

    def mid_game():  # a picture once a tower can be built (cards to select), then go on
        if "taken" not in shot:
            for seat in seats:
                if seat.page.locator("button.confirm").count():
                    seat.page.locator(".card.pickable").first.click()
                    screenshot(seat.page, "frog_tower.png", tmp_path)
                    seat.page.locator("button", has_text="Clear").click()
                    shot["taken"] = True
        return False
    play(seats, rng, until=mid_game)
    assert all(seat.over() for seat in seats)
    state = saved(server)
    assert state["over"] and len(state["history"]) > 20
    winners = seats[0].page.locator(".result").inner_text()
    assert "win" in winners or "share" in winners or "Nobody" in winners
    assert seats[0].page.locator("#narration li").count() > 10
    if "taken" not in shot:
        screenshot(seats[0].page, "frog_tower.png", tmp_path)
    with seats[1].page.expect_download() as download:  # the finished game's log
        seats[1].page.locator("button", has_text="Download the game log").click()
    lines = Path(download.value.path()).read_text().splitlines()
    assert json.loads(lines[0])["narration"] == "player 2" and json.loads(lines[-1])["event"] == "end"
    seats[2].page.locator("button", has_text="Play again").click()  # every person must agree
    seats[0].page.wait_for_selector("text=Waiting for player 1, player 2 to agree to play again.")
    assert seats[0].page.locator(".result").count() == 1
    for seat in seats[:2]:
        seat.page.locator("button", has_text="Play again").click()
    expect(seats[0].page.locator(".result")).to_have_count(0, timeout=10_000)
    assert (tmp_path / "game.game1.json").exists() and (tmp_path / "game.game1.jsonl").exists()
    assert saved(server)["history"] == [] or not saved(server)["over"]
    for seat in seats:
        seat.close()


def test_a_kaeru_game_against_a_bot_on_the_ring(browser, serve, tmp_path):
    server = serve(DEFS / "kaeru.yaml", "--players", "2", "--seat", "2=random", "--seed", "3")
    assert "player 2" not in server.links
    seat = Seat(browser, server.links["player 1"])
    assert seat.page.locator(".ring .space.on-ring").count() == 5
    rng = random.Random(2)
    play([seat], rng, until=lambda: len(saved(server)["history"]) >= 6 or seat.over())
    screenshot(seat.page, "kaeru.png", tmp_path)
    play([seat], rng)
    assert saved(server)["over"]
    seat.close()


def test_crazy_eights_hands_stay_secret_in_the_page_and_the_frames(browser, serve, tmp_path):
    server = serve(DEFS / "crazy_eights.yaml", "--players", "2", "--seed", "5")
    one, two = Seat(browser, server.links["player 1"]), Seat(browser, server.links["player 2"])
    spectator = Seat(browser, server.links["spectators"])
    rng = random.Random(3)

    def hidden():
        """Cards in player 1's hand now that were in it from the start (never shown to anyone else)."""
        return set(one.page.locator('.zone[data-zone="hand(1)"] .card-name').all_inner_texts()) & first_hand

    first_hand = set(one.page.locator('.zone[data-zone="hand(1)"] .card-name').all_inner_texts())
    assert len(first_hand) == 7
    for _ in range(4):
        play([one, two], rng, until=lambda: False, limit=3, max_actions=4)
        secret = hidden()
        assert secret
        for watcher in (two, spectator):
            page_text = watcher.page.content()
            assert not (watcher.names_shown() & secret)
            for name in secret:
                assert f">{name}<" not in page_text and json.dumps(name) not in "".join(watcher.frames)
        if one.over():
            break
    screenshot(one.page, "crazy_eights.png", tmp_path)
    for seat in (one, two, spectator):
        seat.close()


def test_a_secret_selection_is_never_seen_by_the_other_seat_until_all_have_chosen(browser, serve, tmp_path):
    from interpreter import load_game

    game = load_game(TEST_DEFS / "selection.yaml")
    seed = next(s for s in range(200) if "jump" in game.new_game(3, s).view(0)["zones"]["hand(1)"]["cards"])
    server = serve(TEST_DEFS / "selection.yaml", "--players", "3", "--seat", "3=random", "--seed", str(seed))
    one, two = Seat(browser, server.links["player 1"]), Seat(browser, server.links["player 2"])
    assert "jump" in one.names_shown() and "jump" not in two.names_shown()
    one.page.locator('.card.pickable[data-name="jump"]').first.click()
    bonus = one.page.locator('.card.pickable:not([data-name="jump"]):not([data-name="walk"]):not([data-name="run"])')
    bonus.first.click()
    confirm = one.page.locator("button.confirm")
    assert confirm.is_enabled() and "jump + " in confirm.inner_text()
    screenshot(one.page, "secret_selection.png", tmp_path)
    confirm.click()
    one.page.wait_for_selector("text=Your choice is in.")
    two.page.wait_for_selector(".player[data-seat='0'] >> text=has chosen")
    assert two.page.locator("#banner").inner_text().startswith("Your decision")
    assert "jump" not in two.page.content() and '"jump"' not in "".join(two.frames)
    assert "Waiting for 1 player: player 2" in one.page.locator("#decision").inner_text()
    two.act(random.Random(4))
    two.page.wait_for_selector('.zone[data-zone="played(1)"] .card[data-name="jump"]')  # revealed to all at once
    for seat in (one, two):
        seat.close()


def state_frames(seat) -> list[dict]:
    return [m for m in map(json.loads, seat.frames) if m["type"] == "state"]


def test_a_top_frog_round_keeps_the_secret_picks_off_the_other_seat_s_page_and_frames(browser, serve, tmp_path):
    """Four players (two people, two bots): the Lily Pad kept at setup (a secret card pick), the secret
    selection of an action card (multi-select with confirm), then the round resolves up to a menu.  Before
    each Reveal, player 2's page and WebSocket frames say only that player 1 has chosen: the Lily Pads' names
    appear nowhere, and the frames are exactly those player 2 would have had had player 1 picked otherwise."""
    from interpreter import load_game, replay
    from interpreter.web.layout import CardInfo

    game = load_game(DEFS / "top_frog.yaml")
    server = serve(DEFS / "top_frog.yaml", "--players", "4", "--seat", "3=random", "--seat", "4=random", "--seed", "1")
    one, two = Seat(browser, server.links["player 1"]), Seat(browser, server.links["player 2"])
    page = one.page
    assert page.locator(".grid .space").count() == 16 and page.locator(".edge-marker").count() == 4
    assert page.locator(".space .piece, .space .card[data-name]").count() >= 16

    def all_seen(seat, then):  # the other three have chosen: seat's page shows it (so its frames are current)
        for other in then:
            seat.page.wait_for_selector(f".player[data-seat='{other}'] >> text=has chosen")

    # a secret card pick: the two Lily Pads dealt to player 1 are named nowhere else
    pads = page.locator('.zone[data-zone="lily_choice(1)"] .card-name').all_inner_texts()
    assert len(pads) == 2
    page.locator(f'.card.pickable[data-name="{pads[0]}"]').click()
    page.wait_for_selector("text=Your choice is in.")
    all_seen(two, (0, 2, 3))
    for name in pads:
        assert f">{name}<" not in two.page.content() and json.dumps(name) not in "".join(two.frames)
    two.act(random.Random(8))
    two.page.wait_for_selector(f'.zone[data-zone="stack1(1)"] .card[data-name="{pads[0]}"]')  # revealed to all

    # the secret selection: one action card (plus any bonus cards), selected by clicking, then confirmed
    page.wait_for_selector("button.confirm")
    pick = "Catch"
    page.locator(f'.card.pickable[data-name="{pick}"]').click()
    expect(page.locator("button.confirm")).to_have_text(f"Confirm: play {pick}")
    page.locator("button.confirm").click()
    page.wait_for_selector("text=Your choice is in.")
    all_seen(two, (0, 2, 3))
    frames = state_frames(two)
    saved_now = saved(server)
    history = [tuple(h) for h in saved_now["history"]]
    mine = max(i for i, (p, _) in enumerate(history) if p == 0)
    assert history[mine] == (0, f"play {pick}")
    for other in ("play Rest", "play Leap North"):  # what player 2 would have been sent had player 1 chosen otherwise
        alt = replay(game, 4, saved_now["seed"], history[:mine] + [(0, other)] + history[mine + 1:])
        view, decision = json.loads(json.dumps(alt.view(1))), json.loads(json.dumps(alt.decision_for(1)))
        assert frames[-1]["view"] == view and frames[-1]["decision"] == decision
        options = [c for o in decision["options"] for c in o["cards"]]
        assert frames[-1]["cards"] == json.loads(json.dumps(CardInfo(game).for_view(view, options)))
        assert [line for f in frames for line in f["narration"]] == alt.narration(1)
    assert all("cards" not in f["view"]["zones"]["selected(1)"] for f in frames)
    assert set(frames[-1]) == {"type", "game_number", "view", "decision", "narration", "bots", "humans", "cards", "reset",
                                "state_id", "answered", "thinking", "can_undo"}
    two.act(random.Random(9))
    two.page.wait_for_selector(f"#narration li >> text=player 1 reveals {pick}")

    # the round goes on: the catches are gained, which asks (at least) one of the people a menu question
    rng, kinds = random.Random(10), set()
    deadline = time.monotonic() + 30
    while "menu" not in kinds and time.monotonic() < deadline:
        for seat in (one, two):
            if seat.can_act():
                kinds.add("cards" if seat.page.locator(".card.pickable").count() else "menu")
                seat.act(rng)
                expect(seat.page.locator("#decision button.option[disabled]")).to_have_count(0, timeout=10_000)
        time.sleep(0.02)
    assert "menu" in kinds
    play([one, two], rng, until=lambda: one.page.locator("button.confirm").count() > 0, limit=30)
    page.locator(".card.pickable").first.click()
    screenshot(page, "top_frog.png", tmp_path)
    for seat in (one, two):
        seat.close()


def test_a_grid_board_with_wrapping_edges_and_pieces(browser, serve, tmp_path):
    server = serve(TEST_DEFS / "board_grid.yaml", "--players", "2", "--seat", "2=random", "--seed", "2")
    seat = Seat(browser, server.links["player 1"])
    page = seat.page
    assert page.locator(".grid .space").count() == 9
    assert page.locator(".edge-marker").count() == 4  # the four wrapping edges, not the grid's own steps
    assert page.locator('.space[data-space="r2c2"] .piece').count() == 2  # both players stand in the middle
    play([seat], random.Random(5), until=lambda: len(saved(server)["history"]) >= 4)
    screenshot(page, "grid_board.png", tmp_path)
    seat.close()


# ---------------------------------------------------------------- durable and safe
def test_a_reloaded_page_and_a_restarted_server_resume_the_game(browser, serve, tmp_path):
    server = serve(DEFS / "crazy_eights.yaml", "--players", "2", "--seed", "9")
    one, two = Seat(browser, server.links["player 1"]), Seat(browser, server.links["player 2"])
    rng = random.Random(6)
    play([one, two], rng, until=lambda: len(saved(server)["history"]) >= 5)
    lines = one.page.locator("#narration li").all_inner_texts()
    one.page.reload()
    one.page.wait_for_selector(".player")
    expect(one.page.locator("#narration li")).to_have_count(len(lines))
    assert one.page.locator("#narration li").all_inner_texts() == lines
    history = saved(server)["history"]
    server.stop()
    one.page.wait_for_selector("text=reconnecting…")
    again = serve(DEFS / "crazy_eights.yaml", resume=True, port=server.port)
    assert again.links == server.links  # the same links after a restart
    one.page.wait_for_selector("#conn.ok", timeout=15_000)
    two.page.wait_for_selector("#conn.ok", timeout=15_000)
    play([one, two], rng, until=lambda: len(saved(again)["history"]) >= len(history) + 3 or one.over())
    assert saved(again)["history"][:len(history)] == history
    for seat in (one, two):
        seat.close()


def test_a_wrong_token_shows_nothing_and_hostile_messages_do_not_stop_the_game(browser, serve, tmp_path):
    server = serve(DEFS / "crazy_eights.yaml", "--players", "2", "--seed", "4")
    stranger = browser.new_context().new_page()
    stranger.goto(server.links["player 1"][:-3] + "xyz")
    stranger.wait_for_selector("#banner.bad")
    assert "not valid" in stranger.locator("#banner").inner_text()
    assert stranger.locator(".card").count() == 0
    replies = stranger.evaluate("""async () => {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        const got = [];
        ws.onmessage = (e) => got.push(JSON.parse(e.data));
        await new Promise((ok) => { ws.onopen = ok; });
        ws.send(JSON.stringify({type: "hello", watch: %s}));
        for (const bad of ["not json", "[]", "{\\"type\\": 5}", JSON.stringify({type: "act", action: "x"}),
                           JSON.stringify({type: "again"}), "\\u0000".repeat(100)]) ws.send(bad);
        await new Promise((ok) => setTimeout(ok, 500));
        ws.close();
        return got;
    }""" % json.dumps(re.search(r"#watch=(\S+)", server.links["spectators"]).group(1)))
    errors = [r for r in replies if r["type"] == "error"]
    assert len(errors) == 6 and any("spectators cannot" in e["message"] for e in errors)
    stranger.context.close()
    one, two = Seat(browser, server.links["player 1"]), Seat(browser, server.links["player 2"])
    play([one, two], random.Random(7), until=lambda: len(saved(server)["history"]) >= 3)
    for seat in (one, two):
        seat.close()
