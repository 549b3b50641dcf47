"""Top Frog setup by player count (the page-5 table, top_frog.md "Reconstructed", top_frog_cards.md §2
When Added to Pond at setup) and random games that must end, at 2, 4 and 6 players."""

from __future__ import annotations

import random

import pytest

from conftest import TF_POND_SIZE, tf_centre, tf_spaces, zone

TABLE = {  # players: Hat Coupons, Hat Display, River cards, "+" frogs in the game
    2: (3, 3, 3, False), 3: (5, 5, 3, False), 4: (6, 6, 3, False), 5: (8, 8, 4, True), 6: (9, 9, 4, True)}
PLUS = {"Ambassador", "Socialite", "Heiress", "Bluebell", "Snapdragon", "Hibiscus", "Clone", "Antenna",
        "Force Field", "Dragon", "Imp", "Siren"}


def pond_cards(state, players):
    return [c for sp in tf_spaces(players) for c in zone(state, f"cell({sp})")]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_lays_out_the_printed_table_for_each_player_count(top_frog, players):
    coupons, display, river, plus = TABLE[players]
    state = top_frog.new_game(players, seed=players)
    n = TF_POND_SIZE[players]
    assert len(state.game.board.spaces) == n * n
    pond = pond_cards(state, players)
    assert len(pond) == n * n and all(c != "Hat Coupon" for c in pond)   # the Pond is dealt from Frogs only
    assert len(zone(state, "river")) == river
    assert len(zone(state, "hat_display")) == display and len(zone(state, "hats")) == 12 - display
    in_game = zone(state, "deck") + zone(state, "river") + pond
    assert in_game.count("Hat Coupon") == coupons
    assert len(in_game) == (60 if plus else 48) + coupons
    assert (PLUS <= set(in_game)) if plus else not (PLUS & set(in_game))
    assert sorted(zone(state, "box")) == ([] if plus else sorted(PLUS))
    assert zone(state, f"stand({tf_centre(players)})") == [f"meeple {s}" for s in range(1, players + 1)]
    assert zone(state, "abilities").count("Gallop") == 3 and len(zone(state, "abilities")) == 13
    for seat in range(1, players + 1):
        assert zone(state, f"hand({seat})") == ["Leap North", "Leap South", "Leap East", "Leap West", "Catch", "Rest"]
        assert len(zone(state, f"lily_choice({seat})")) == 2
    # Lily Pads: dealt 2, each player keeps 1 (a secret simultaneous choice) as the base of Stack 1.
    assert state.prompt() == "keep" and state.current_players() == list(range(players))
    kept = {}
    for seat in range(1, players + 1):
        action = state.legal_actions(seat - 1)[1]
        kept[seat] = action[len("keep "):]
        state.apply(seat - 1, action)
    for seat in range(1, players + 1):
        assert zone(state, f"stack1({seat})") == [kept[seat]]
        assert zone(state, f"lily_choice({seat})") == []
    assert len(zone(state, "lily_pads")) == 12 - 2 * players
    assert sum(1 for c in zone(state, "box") if c.startswith("Lily Pad")) == players
    assert state.prompt() == "play"        # round 1: nobody has a discarded card to Refresh


def expected_setup_gnats(state, players):
    """What the dealt Flowers put into the Pond at setup (no meeples, no River yet, no Hat Coupon)."""
    pond = pond_cards(state, players)
    flowers = [c for c in pond if c in ("Dandelion", "Sunflower", "Lotus", "Rose", "Daisy", "Marigold", "Hibiscus")]
    n = TF_POND_SIZE[players]
    per = {"Dandelion": 4, "Sunflower": n - 1, "Lotus": 4, "Rose": 2, "Marigold": 1, "Hibiscus": 3,
           "Daisy": sum(1 for c in pond if state.game.properties["fashion"][0][state.game.card_names.index(c)]
                        == "flower") - 1}
    return sum(per[c] for c in flowers)


def test_when_added_to_pond_abilities_resolve_once_at_setup(top_frog):
    checked = 0
    for seed in range(40):
        state = top_frog.new_game(3, seed=seed)
        pond = pond_cards(state, 3)
        if {"Lavender", "Clover", "Flytrap"} & set(pond) or not {"Rose", "Dandelion", "Lotus"} & set(pond):
            continue      # moves and diagonals depend on positions: the plain sums are checked here
        counts = state.counters["gnats"]
        total = sum(counts["space"]) + sum(counts["card"][top_frog.card_names.index(c)] for c in pond)
        assert total == expected_setup_gnats(state, 3), seed
        assert sum(counts["card"][i] for i, _ in enumerate(top_frog.card_names)) == total   # none in the River
        checked += 1
    assert checked >= 3


def test_the_rose_dealt_at_setup_holds_two_gnats(top_frog):
    for seed in range(60):
        state = top_frog.new_game(3, seed=seed)
        pond = pond_cards(state, 3)
        if "Rose" in pond and not {"Lavender", "Flytrap", "Daisy", "Marigold"} & set(pond):
            rose = top_frog.card_names.index("Rose")
            assert state.counters["gnats"]["card"][rose] >= 2
            return
    pytest.fail("no seed dealt the Rose")


def random_game(game, players, seed, cap=5000):
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal():
        assert decisions < cap, f"{players} players, seed {seed}: no end after {cap} decisions"
        seat = state.current_players()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        decisions += 1
    return state, decisions


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_end_within_a_bounded_number_of_decisions(top_frog, players):
    for seed in range(2):
        state, decisions = random_game(top_frog, players, seed)
        assert state.ended_by == "end game"
        assert state.log[-1] in ("Every Hat is gained: the game ends.",
                                 "The round after a third Hat is over: the game ends.",
                                 "The Pond needs a card but The River is empty: the game ends.")
        assert len(state.winners()) >= 1


def test_the_card_set_is_the_one_of_top_frog_cards_md(top_frog):
    """Ruling 9: 60 Frogs (15 per Fashion, 3 "+" each; value totals Fancy 56, Flower 37, Future 41,
    Fantasy 22), 13 Fantasy Frog Ability Cards, 12 Hats, 12 Lily Pads, 9 Hat Coupons, 36 Starting cards."""
    g = top_frog
    prop = {name: table for name, (table, _kind) in g.properties.items()}
    cards = range(len(g.card_names))
    frogs = [c for c in cards if prop["kind"][c] == "frog"]
    assert len(frogs) == 60 and len({g.card_names[c] for c in frogs}) == 60
    for fashion, total in (("fancy", 56), ("flower", 37), ("future", 41), ("fantasy", 22)):
        mine = [c for c in frogs if prop["fashion"][c] == fashion]
        assert len(mine) == 15 and sum(prop["plus"][c] for c in mine) == 3
        assert sum(prop["value"][c] for c in mine) == total
    weights = {g.card_names[c]: list(prop["weights"][c]) for c in frogs}
    assert weights["Mech"] == [3, 6] and weights["Tulip"] == [1, 4] and weights["Ballerina"] == [1]
    kinds = [prop["kind"][c] for c in cards]
    names = list(g.card_names)
    assert kinds.count("hat") == 12 and kinds.count("lily") == 12 and kinds.count("coupon") == 9
    assert sum(1 for c in cards if prop["kind"][c] in ("action", "bonus")) == 36 + 13
    assert [names.count(n) for n in ("Gallop", "Fly", "Steal", "Rearrange", "Catch (Fantasy)")] == [3, 3, 3, 2, 2]
