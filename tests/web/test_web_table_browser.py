"""The table in a real browser: a whole game of each shipped game played by clicking (seat 1, bots at
the other seats), pictured at 1360 px and on a 390 px phone, where nothing may scroll sideways and the
decision stays in view; the end shows the winner and each player's score by the definition's terms.

Every WebSocket frame seat 1 receives is kept: no card seat 1 never saw (replaying the game, its views)
is named in any of them, whatever the definition's ``table:`` hints say about the zones.

The screenshots in docs/img/ are taken here: run with RIBBIT_UPDATE_SCREENSHOTS=1 to refresh them.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from test_web_browser import DEFS, Seat, browser, expect, play, saved, screenshot, serve  # noqa: F401 (fixtures)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1360, "height": 900}

# (definition, players, bots, seed, decisions before the mid-game pictures, whether some card stays unseen:
# a long game of Crazy Eights may show seat 1 every card of the deck, and then there is nothing to leak)
GAMES = [
    ("crazy_eights", 2, ["2=random"], 5, 6, False),
    ("frog_tower", 3, ["2=random", "3=random"], 11, 12, True),
    ("kaeru", 2, ["2=random"], 3, 10, True),
    ("top_frog", 2, ["2=random"], 2, 30, True),
]


CONTRAST = (Path(__file__).parent / "contrast.js").read_text()


def low_contrast(page) -> list:
    """The texts on the page below WCAG AA contrast (4.5:1, large text 3:1) against their background."""
    return page.evaluate(CONTRAST)


def overflow(page) -> int:
    """How far the page scrolls sideways (0: not at all)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def decision_in_view(page) -> bool:
    box = page.locator("#decision").bounding_box()
    return box is not None and box["y"] < PHONE["height"] and box["y"] + box["height"] > 0


def never_seen(game, players: int, data: dict, seat: int = 0) -> set[str]:
    """The card names ``seat`` was never shown: in no view of it, at no point of the game (replayed)."""
    state = game.new_game(players, data["seed"])
    seen: set[str] = set()

    def look():
        text = json.dumps([state.view(seat), state.decision_for(seat)])
        seen.update(name for name in set(game.card_names) if json.dumps(name) in text)
    look()
    for player, action in data["history"]:
        state.apply(player, action)
        look()
    return set(game.card_names) - seen


def last_state(seat) -> dict:
    return [m for m in map(json.loads, seat.frames) if m["type"] == "state"][-1]


def folded_zones_stay_readable(seat):
    """The zones the table puts under the table are folded away, not taken away: opened, the section
    shows every card the seat's view holds of them."""
    page = seat.page
    page.locator("#under-table summary").click()
    view = last_state(seat)["view"]
    box = view["zones"]["box"]["cards"]  # Top Frog's game box is public
    assert box
    shown = set(page.locator('#under-table .card[data-zone="box"]').evaluate_all("cs => cs.map(c => c.dataset.name)"))
    assert shown == set(box)
    page.locator("#under-table summary").click()


def any_public(seat) -> bool:
    """Does seat 1's last view list a card public in a zone hiding it?"""
    return any(item.get("public") for entry in last_state(seat)["view"]["zones"].values()
               for item in entry.get("shown", ()))


def public_cards_read_known_to_all(seat):
    """Cards public in another seat's zone (everyone watched them go there: a frog held, an action card back
    in hand) are drawn beside that zone under "known to all", never "shown to you"."""
    page = seat.page
    listed = 0
    for label, entry in last_state(seat)["view"]["zones"].items():
        public = sorted(item["card"] for item in entry.get("shown", ()) if item.get("public"))
        private = sorted(item["card"] for item in entry.get("shown", ()) if not item.get("public"))
        box = page.locator(f'.zone[data-zone="{label}"]')
        if public:
            expect(box.locator(".shown.public .shown-label")).to_have_text("known to all:")
            expect(box.locator(".shown.public .card")).to_have_count(len(public))
        drawn = box.locator(".shown.public .card").evaluate_all("cs => cs.map(c => c.dataset.name)") if public else []
        assert sorted(drawn) == public
        alone = box.locator(".shown:not(.public) .card").evaluate_all("cs => cs.map(c => c.dataset.name)") \
            if box.count() else []
        assert sorted(alone) == private
        if public and "cards" not in entry and "top" not in entry:  # a hidden zone: backs only for the unseen
            unseen = entry["count"] - len(entry["shown"])
            backs = box.locator(":scope > .cards .card.back .back-count")
            if unseen:
                expect(backs).to_have_text(f"×{unseen}")
            else:
                expect(backs).to_have_count(0)
        listed += len(public)
    assert listed, "no card was public in another seat's zone at this point of the game"


def a_card_reads_whole_on_its_i(seat, zone):
    """A card's "i" opens the whole card: every property, its text in full."""
    page = seat.page
    card = page.locator(f'.zone[data-zone="{zone}"] .card[data-name]').first
    name = card.get_attribute("data-name")
    card.locator(".card-info").click()
    detail = page.locator("#card-detail")
    expect(detail).to_be_visible()
    props = last_state(seat)["cards"][name]
    text = detail.inner_text()
    for value in props.values():
        if isinstance(value, str):
            assert value in text
    detail.locator("button", has_text="Close").click()
    expect(detail).to_be_hidden()


@pytest.mark.parametrize("name, players, bots, seed, middle, unseen_left", GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_through_the_page_at_desktop_and_phone_width(browser, serve, tmp_path, name, players, bots,  # noqa: F811
                                                                  seed, middle, unseen_left):
    from interpreter import load_game

    args = ["--players", str(players), "--seed", str(seed)]
    for bot in bots:
        args += ["--seat", bot]
    server = serve(DEFS / f"{name}.yaml", *args)
    seat = Seat(browser, server.links["player 1"])
    page = seat.page
    rng = random.Random(seed)
    if name == "top_frog":  # the first decision picks a Lily Pad: each option shows the pad's face, its condition
        faces = page.locator("#decision button.option .option-cards .card-text")
        expect(faces).to_have_count(2)
        assert all(re.search(r"Frogs?\b.*: \d+$", text) for text in faces.all_inner_texts())
    play([seat], rng, until=lambda: len(saved(server)["history"]) >= middle or seat.over())
    assert not seat.over()
    screenshot(page, f"{name}_desktop.png", tmp_path)
    assert overflow(page) <= 0
    assert not low_contrast(page), f"{name}: text below AA contrast: {low_contrast(page)[:5]}"
    board_texts = page.locator("#board-area .cards.compact > .card > .card-text")
    if name == "top_frog":  # a face on the board shows its ability's text (its start) beside name and badges
        assert board_texts.count() and board_texts.first.is_visible()
        river = last_state(seat)["view"]["zones"]["river"]["cards"]  # next: top, the River's last card
        marked = page.locator('.zone[data-zone="river"] .card.next-card')
        expect(marked).to_have_count(1 if river else 0)
        if river:
            assert marked.get_attribute("data-index") == str(len(river) - 1)
            expect(marked.locator(".next-mark")).to_have_text("next")
    if name == "top_frog":
        play([seat], rng, until=lambda: any_public(seat) or seat.over())  # (a selection empties a hand's list)
        assert not seat.over()
        public_cards_read_known_to_all(seat)
        folded_zones_stay_readable(seat)
        a_card_reads_whole_on_its_i(seat, "river")
    page.set_viewport_size(PHONE)
    assert overflow(page) <= 0, f"{name}: the page scrolls sideways at 390 px"
    assert decision_in_view(page), f"{name}: the decision is not in view on a phone"
    page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    assert decision_in_view(page), f"{name}: the decision scrolls away on a phone"
    screenshot(page, f"{name}_phone.png", tmp_path, full_page=False)
    if board_texts.count():  # a phone's board keeps its faces short: the text is behind the card's "i"
        assert not board_texts.first.is_visible()

    page.set_viewport_size(DESKTOP)
    play([seat], rng, limit=240, max_actions=5000)
    data = saved(server)
    assert data["over"]
    # the ending: a banner naming the winner, one row per player, the definition's terms when there are several
    banner = page.locator(".winner-banner").inner_text()
    assert "wins" in banner or "share the victory" in banner or "Nobody" in banner
    rows = page.locator("#decision table.scores tr[data-seat]")
    assert rows.count() == players
    game = load_game(DEFS / f"{name}.yaml")
    terms = game.presentation["score"]
    if len(terms) > 1:
        headers = page.locator("#decision table.scores th.term").all_inner_texts()
        assert headers == [label for _, label in terms]
    else:  # the one term is the score itself: its label heads the score ("towers", "meals")
        expect(page.locator("#decision table.scores th.total")).to_have_text(terms[0][1])
    assert not low_contrast(page), f"{name}: text below AA contrast at the end: {low_contrast(page)[:5]}"
    assert overflow(page) <= 0
    page.set_viewport_size(PHONE)
    assert overflow(page) <= 0, f"{name}: the end of the game scrolls sideways at 390 px"
    page.set_viewport_size(DESKTOP)
    if name == "top_frog":
        screenshot(page, "top_frog_end.png", tmp_path)

    # secrecy: no frame names a card seat 1 never saw, whatever the table hints placed where
    unseen = never_seen(game, players, data)
    assert bool(unseen) == unseen_left, "which cards stay unseen changed: pick a game that leaves some"
    frames = "".join(seat.frames)
    leaked = sorted(card for card in unseen if json.dumps(card, ensure_ascii=False) in frames)
    assert not leaked, f"{name}: frames name cards seat 1 never saw: {leaked[:5]}"
    seat.close()


def test_a_person_picks_cards_with_the_keyboard_and_keeps_their_place(browser, serve):  # noqa: F811
    """A card to pick is a button to assistive technology (pressed when selected), and the page, redrawn
    after each key, gives the keyboard back to the card it was on: Enter, Tab, Enter selects two cards."""
    server = serve(DEFS / "top_frog.yaml", "--players", "2", "--seed", "2", "--seat", "2=random")
    seat = Seat(browser, server.links["player 1"])
    page = seat.page
    pad = page.locator(".card.pickable").first  # keep a Lily Pad: one card, Enter picks it
    expect(pad).to_have_attribute("role", "button")
    pad.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#decision button.confirm")).to_have_count(1, timeout=10_000)  # play: several cards
    first = page.locator(".card.pickable").first
    expect(first).to_have_attribute("aria-pressed", "false")
    first.focus()
    page.keyboard.press("Enter")
    focused = "(() => { const a = document.activeElement; return a && a.dataset.index !== undefined"
    focused += " ? [a.dataset.zone, a.dataset.index, a.getAttribute('aria-pressed')] : null; })()"
    expect(page.locator(".card.selected")).to_have_count(1)
    zone, index, pressed = page.evaluate(focused)
    assert pressed == "true" and page.locator(".card.selected").get_attribute("data-index") == index
    page.keyboard.press("Tab")  # the card's own "i": Enter there opens the card and leaves the selection alone
    assert page.evaluate("document.activeElement.classList.contains('card-info')")
    page.keyboard.press("Enter")
    expect(page.locator("#card-detail")).to_be_visible()
    page.keyboard.press("Escape")  # closed, the card gives the keyboard back to its "i"
    expect(page.locator(".card.selected")).to_have_count(1)
    assert page.evaluate("document.activeElement.classList.contains('card-info')")
    page.keyboard.press("Tab")  # on to the next card
    assert page.evaluate(focused)[2] == "false"
    page.keyboard.press("Enter")
    expect(page.locator(".card.selected")).to_have_count(2)
    assert page.evaluate(focused)[2] == "true"
    seat.close()
