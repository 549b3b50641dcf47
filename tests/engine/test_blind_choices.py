"""An option never names a card its chooser cannot see.

``ask p to choose one of hand(q)`` (a card taken from another's hand without looking) offers p cards it may not
see: each reads as its place (``"take card 2 from the top of hand(2)"``), and two alike cards there are two
options (one option for both would tell p they are alike).  The test-only definition
``tests/definitions/blind_picks.yaml`` also has a secret simultaneous pick of one's own cards, named as usual.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter import load_game
from invariants import seen_cards

ROOT = Path(__file__).resolve().parents[2]
BLIND = ROOT / "tests" / "definitions" / "blind_picks.yaml"


@pytest.fixture(scope="module")
def game():
    return load_game(BLIND)


def decisions(game, players: int, seeds=range(4)):
    """(position, a seat asked) at every decision of seeded random games (the position a copy)."""
    for seed in seeds:
        state, rng = game.new_game(players, seed), random.Random(seed)
        while not state.is_terminal():
            for seat in state.current_players():
                yield state.clone(), seat
            seat = state.current_players()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def unseen_names(state, seat) -> set:
    """Names of the cards in play ``seat`` cannot see that no card it sees shares."""
    names = state.game.card_names
    seen = seen_cards(state, seat)
    in_play = {c for cards in state.zones for c in cards}
    return {names[c] for c in in_play - seen} - {names[c] for c in seen}


@pytest.mark.parametrize("players", [2, 3])
def test_an_option_never_names_a_card_its_chooser_cannot_see(game, players):
    blind = 0
    for state, seat in decisions(game, players):
        secret = unseen_names(state, seat)
        for text in state.legal_actions(seat):
            assert not any(name in text.split(" ", 1)[-1].split(", ") for name in secret), (seat, text)
        if state.pending["prompt"] == "take":
            taken_from = state.zones[state.game.zone_index(f"hand({(seat + 1) % players + 1})")]
            assert len(state.legal_actions(seat)) == len(taken_from)  # alike cards unseen: still one option each
            blind += 1
    assert blind


def test_a_bot_at_a_blind_choice_decides_the_same_when_the_cards_it_cannot_see_are_permuted(game):
    """In a determinised copy an option read as a place takes the card dealt there, not the real one: a search
    that took the real card would learn it (and decide by it)."""
    from interpreter.agents.search import ISMCTSAgent
    from invariants import with_cards_permuted

    checked = 0
    for state, seat in decisions(game, 2, seeds=range(6)):
        if state.pending["prompt"] != "take" or len(state.legal_actions(seat)) < 2:
            continue
        unseen = sorted({c for cards in state.zones for c in cards} - seen_cards(state, seat))
        chosen = set()
        for k in range(3):
            world, _ = with_cards_permuted(state, unseen, random.Random(k))
            chosen.add(ISMCTSAgent(1, iterations=30, rollout=10).act(world, seat))
        assert len(chosen) == 1, chosen
        checked += 1
    assert checked >= 4


# ---------------------------------------------------------------- several cards, 'plus' and menu texts
SEVERAL = ROOT / "tests" / "definitions" / "blind_several.yaml"
PLACE = re.compile(r"card (\d+) from the top of ([\w()]+)")


@pytest.fixture(scope="module")
def several():
    """Takes two of the next hand, points at one of the rest (a pair), discards any number of it, plays one of its own cards plus any of the next
    hand's, buries one of them from a menu ("bury {b}"), may keep the top card of the deck ("keep {hidden} in the
    deck"), and everyone secretly gives two cards of the next hand at once."""
    return load_game(SEVERAL)


def named(text: str, names) -> set:
    """The names of ``names`` that ``text`` holds as words."""
    return {name for name in names if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)}


def options_of(state, seat):
    """(text, value) of every option of ``seat`` at the pending decision (an option space made whole)."""
    p = state.pending
    labels, values = state._options(p, p.players.index(seat))
    return list(zip(labels, values))


def at_places(state, text) -> list:
    """The cards at the places an option's text names ("card 2 from the top of hand(2)")."""
    out = []
    for n, zone in PLACE.findall(text):
        cards = state.zones[state.game.zone_index(zone)]
        out.append(cards[len(cards) - int(n)])
    return out


def cards_of(value, prompt: str = "") -> list:
    """The cards an option's value picks: a list of them ('choose 2', 'plus'), a menu's (entry, item), or the
    card of a pair (player, card) pointed at."""
    if prompt == "point at":
        return value[1:]
    if type(value) is tuple:
        return [] if value[1] is None else [value[1]]
    return value if type(value) is list else [value]


@pytest.mark.parametrize("players", [2, 3])
def test_no_option_of_several_cards_plus_or_a_menu_names_a_card_its_chooser_cannot_see(several, players):
    prompts = set()
    for state, seat in decisions(several, players):
        secret = unseen_names(state, seat)
        for text in state.legal_actions(seat):
            assert not named(text, secret), (seat, text)
        assert state.view(seat)["decision"]["your_options"] == state.legal_actions(seat)
        prompts.add(state.pending["prompt"])
    assert {"take", "point at", "discard", "play", "choose", "give"} <= prompts


def test_an_option_read_as_places_picks_exactly_the_unseen_cards_at_those_places(several):
    checked = 0
    for state, seat in decisions(several, 3):
        unseen = {c for cards in state.zones for c in cards} - seen_cards(state, seat)
        for text, value in options_of(state, seat):
            if type(value) is tuple and value[1] is None:
                continue  # a menu's fixed entry ("keep {hidden} in the deck"): it picks nothing
            picked = cards_of(value, state.pending["prompt"])
            assert sorted(at_places(state, text)) == sorted(c for c in picked if c in unseen), text
            checked += bool(PLACE.search(text))
    assert checked > 100


def test_alike_cards_the_chooser_cannot_see_are_options_of_their_own(several):
    """Two alike unseen cards made one option would tell the chooser they are alike: every selection of places
    is an option (``choose 2 of`` n cards: n(n-1)/2; ``any number``: 2^n)."""
    from math import comb

    seen = set()
    for state, seat in decisions(several, 2):
        prompt, q = state.pending["prompt"], (seat + 1) % 2
        n = len(state.zones[state.game.zone_index(f"hand({q + 1})")])
        texts = state.legal_actions(seat)
        assert len(set(texts)) == len(texts)
        if prompt in ("take", "give"):
            assert len(texts) == comb(n, 2)
        elif prompt == "discard":
            assert len(texts) == 2 ** n
        elif prompt == "choose":  # one option per card of the next hand, and keeping the deck's top card
            assert len(texts) == n + (len(state.zones[state.game.zone_index("deck")]) > 0)
        else:
            continue
        seen.add(prompt)
    assert seen == {"take", "give", "discard", "choose"}


def test_the_fixed_action_ids_of_options_read_as_places_name_no_card(several):
    """Adapters number an option by its text (adapters/actions.py): an option read as places gets no item's id."""
    from interpreter.adapters.actions import ActionTable

    table = ActionTable(several, 2, 64)
    for state, seat in decisions(several, 2, seeds=range(2)):
        secret = unseen_names(state, seat)
        for action in table.ids(state, seat):
            assert not named(table.describe(action), secret), table.describe(action)


# ---------------------------------------------------------------- determinised copies (search)
def test_in_a_determinised_copy_an_option_read_as_places_picks_the_cards_dealt_there(several):
    """A search bot's copy deals the cards its seat cannot see again: an option reading "card 2 from the top of
    hand(2)" must pick the card dealt there, not the real one (a search that took the real card would learn it)."""
    checked = 0
    for state, seat in decisions(several, 3, seeds=range(3)):
        if state.pending["each"]:
            continue  # (asked again in the new deal: test_hidden_choices.py)
        copy = state.determinised(seat, random.Random(checked))
        assert copy.legal_actions(seat) == state.legal_actions(seat)
        for text, value in options_of(copy, seat):
            if type(value) is tuple and value[1] is None:
                continue
            placed_cards = at_places(copy, text)
            assert all(c in cards_of(value, copy.pending["prompt"]) for c in placed_cards), text
            checked += bool(placed_cards)
    assert checked > 50


def test_a_rule_local_holding_a_card_holds_in_a_determinised_copy_the_card_dealt_to_its_place(several):
    """``let hidden = top(deck)`` while the rule waits: the copy's local is the copy's top card, so what the rule
    does with it later (``move hidden to hand(p)``) moves the card dealt there, never the real one."""
    checked = 0
    for state, seat in decisions(several, 2, seeds=range(4)):
        if state.pending["prompt"] != "choose" or not any(t.startswith("keep") for t in state.legal_actions(seat)):
            continue
        deck = state.game.zone_index("deck")
        for k in range(3):
            copy = state.determinised(seat, random.Random(k))
            top = copy.zones[deck][-1]
            hand = state.game.zone_index(f"hand({seat + 1})")
            copy.apply(seat, next(t for t in copy.legal_actions(seat) if t.startswith("keep")))
            assert top not in copy.zones[deck] and copy.loc[top] != deck
            assert copy.loc[top] in (hand, copy.game.zone_index("pile"))  # drawn (then maybe given away)
            checked += 1
    assert checked >= 6

