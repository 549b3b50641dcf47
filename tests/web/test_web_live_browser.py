"""ribbit serve in a real browser, under concurrency: a stale click is refused, a bot thinking never
delays a person, and a player takes back a decision.  Same setup as tests/web/test_web_browser.py
(Playwright, Debian's Chromium, `ribbit serve` on 127.0.0.1 in a child process)."""

from __future__ import annotations

import time

import pytest

from test_web_browser import DEFS, TEST_DEFS, VIEWPORT, Seat, browser, expect, saved, serve  # noqa: F401

pytestmark = pytest.mark.browser


class HeldSeat(Seat):
    """A seat's tab whose incoming WebSocket messages the test can hold back and then let through one by one
    (as a slow network would), to make it click on a state that is no longer current."""

    def __init__(self, browser, link):  # noqa: F811 - the fixture's name, as Seat's
        self.holding = False
        self.held: list = []
        self.context = browser.new_context(viewport=VIEWPORT)
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.route_web_socket("**/ws", self.route)
        self.page.goto(link)
        self.page.wait_for_selector(".player", timeout=10_000)

    def route(self, ws):
        server = ws.connect_to_server()
        ws.on_message(server.send)

        def arrive(message):
            if self.holding:
                self.held.append(message)
            else:
                ws.send(message)
        self.to_page = ws.send
        server.on_message(arrive)

    def release_one(self):
        self.to_page(self.held.pop(0))
        self.page.wait_for_timeout(200)


def buttons_enabled(seat) -> int:
    return seat.page.locator("#decision button.option:not([disabled])").count()


def test_a_click_on_a_state_that_is_no_longer_current_is_refused_and_the_page_shows_the_game_now(browser, serve):
    from interpreter import load_game

    server = serve(DEFS / "crazy_eights.yaml", "--players", "2", "--seed", "5")
    first = load_game(DEFS / "crazy_eights.yaml").new_game(2, 5).current_players()[0]
    link = server.links[f"player {first + 1}"]
    one, two = Seat(browser, link), HeldSeat(browser, link)  # one seat open in two tabs
    assert buttons_enabled(one) and buttons_enabled(two)
    two.holding = True  # the second tab hears nothing for a while
    one.page.locator("#decision button.option", has_text="draw a card").click()
    deadline = time.monotonic() + 10
    while len(saved(server)["history"]) < 1 and time.monotonic() < deadline:
        one.page.wait_for_timeout(50)
    history = saved(server)["history"]
    assert len(history) == 1
    two.page.wait_for_timeout(300)
    two.page.locator("#decision button.option", has_text="draw a card").click()  # chosen on the old state
    two.page.wait_for_timeout(500)
    assert buttons_enabled(two) == 0  # in flight: nothing more can be sent until it is answered
    assert two.held  # the new state and the refusal, not yet seen by the page
    while two.held:  # the new state first (no answer to the click: the buttons stay disabled), then the refusal
        message = two.held[0]
        two.release_one()
        if '"type": "state"' in message:
            assert buttons_enabled(two) == 0
    expect(two.page.locator("#toast")).to_contain_text("changed after this page showed it")
    two.holding = False
    assert saved(server)["history"] == history  # the second click did nothing
    expect(two.page.locator("#narration li")).to_have_count(one.page.locator("#narration li").count())
    assert two.page.locator("#players-area").inner_text() == one.page.locator("#players-area").inner_text()
    for seat in (one, two):
        seat.close()


def test_a_person_s_secret_pick_is_taken_at_once_while_a_bot_thinks(browser, serve):
    server = serve(TEST_DEFS / "selection.yaml", "--players", "3", "--seat", "3=ismcts:time=4", "--seed", "2")
    one = Seat(browser, server.links["player 1"])
    thinking = one.page.locator("#thinking")
    expect(thinking).to_have_text("player 3 is thinking…", timeout=10_000)
    one.page.locator(".all-options summary").click()
    clicked = time.monotonic()
    one.page.locator("#decision button.option").first.click()
    expect(one.page.locator("#decision")).to_contain_text("Your choice is in.", timeout=5_000)
    took = time.monotonic() - clicked
    assert took < 1.5, f"the pick took {took:.2f} s to register while the bot thought"
    assert thinking.is_visible() and "player 3 is thinking" in thinking.inner_text()
    assert len(saved(server)["history"]) == 1
    expect(thinking).to_be_hidden(timeout=15_000)  # the bot has decided
    assert [p for p, _ in saved(server)["history"]] == [0, 2]
    one.close()


def test_undo_in_the_browser_takes_back_a_secret_pick_only_while_it_is_fair(browser, serve):
    server = serve(TEST_DEFS / "selection.yaml", "--players", "2", "--seed", "2")
    one, two = Seat(browser, server.links["player 1"]), Seat(browser, server.links["player 2"])
    undo_one, undo_two = one.page.locator("#undo"), two.page.locator("#undo")
    expect(undo_one).to_be_disabled()
    one.page.locator(".all-options summary").click()
    one.page.locator("#decision button.option").first.click()
    expect(one.page.locator("#decision")).to_contain_text("Your choice is in.")
    expect(undo_one).to_be_enabled()
    expect(two.page.locator(".player[data-seat='0']")).to_contain_text("has chosen")
    expect(undo_two).to_be_disabled()
    undo_one.click()
    expect(one.page.locator("#narration li.notice")).to_contain_text("You took back your last decision")
    expect(one.page.locator("#banner")).to_contain_text("Your decision")
    expect(undo_one).to_be_disabled()
    expect(two.page.locator(".player[data-seat='0']")).not_to_contain_text("has chosen")
    assert saved(server)["history"] == []
    assert "took back" not in two.page.locator("#narration").inner_text()
    one.page.locator(".all-options summary").click()
    one.page.locator("#decision button.option").first.click()
    expect(undo_one).to_be_enabled()
    two.page.locator(".all-options summary").click()
    two.page.locator("#decision button.option").first.click()  # the picks are revealed: no taking back now
    expect(one.page.locator("#decision")).not_to_contain_text("Your choice is in.")
    expect(undo_one).to_be_disabled()
    expect(undo_two).to_be_disabled()
    assert len(saved(server)["history"]) == 2
    for seat in (one, two):
        seat.close()
