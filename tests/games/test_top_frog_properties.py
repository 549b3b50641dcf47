"""Top Frog properties in random play: Gnats are never made or lost outside the supply, a selection stays
secret until the Reveal, saves round-trip at every decision, and every random game ends.

The shared invariants (cards, views, saves, clones, replays) run over Top Frog in test_conformance.py at 2, 4
and 6 players; this file adds what only this game has.  Gnats are accounted for action by action from the
trace (``trace=True``: every card move, event and log line in order), independently of the definition's
code: the only ways into the game are a gain narrated as "X gains N gnats.", a Squander (1 on each
orthogonal neighbour), the Butler (1 on a space) and the When Added to Pond texts of top_frog_cards.md §3,
each worked out from the zones at the moment it happens; the only way out is a Refresh (exactly 1).
Everything else (Catch, Marquis, Laser, Flytrap, Steal, Heiress, Lavender, Bluebell, Snapdragon, Cleanup)
moves Gnats without changing their number.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from conftest import zone
from interpreter import State
from interpreter.views import seen_cards as view_seen_cards
from invariants import check_secret_choice_is_invisible, random_playout, snapshot, with_cards_permuted
from invariants import seen_cards as invariant_seen_cards
from public_recall import recalled

GAIN = re.compile(r" gains (\d+) gnats?\.$")
SQUANDER = re.compile(r"^Squander on (r\d+c\d+):")
REFRESH = re.compile(r" refreshes: pays 1 gnat and takes back ")
SIZE = {2: 3, 3: 4, 4: 4, 5: 5, 6: 5}
FLOWERS_THAT_ADD = {"Dandelion", "Iris", "Sunflower", "Lotus", "Rose", "Poppy", "Daisy", "Clover", "Marigold",
                    "Hibiscus"}


def rc(space):
    r, c = space[1:].split("c")
    return int(r), int(c)


def orthogonal(space, n):
    r, c = rc(space)
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if 1 <= r + dr <= n and 1 <= c + dc <= n]


def diagonal(space, n):
    r, c = rc(space)
    return [(r + dr, c + dc) for dr in (-1, 1) for dc in (-1, 1) if 1 <= r + dr <= n and 1 <= c + dc <= n]


def zones_by_label(state) -> dict[str, Counter]:
    g = state.game
    return {g.zone_label(i): Counter(g.card_names[c] for c in state.zones[i]) for i in range(g.zone_count)}


def fashion(game, name):
    table, _kind = game.properties["fashion"]
    return table[game.card_names.index(name)]


def flower_adds(game, name, space, zones, n) -> int:
    """Gnats a When Added to Pond text puts into the game, read from top_frog_cards.md §3 (not the YAML)."""
    cells = {label[5:-1]: cards for label, cards in zones.items() if label.startswith("cell(")}
    if name in ("Dandelion", "Lotus"):
        return 4                                      # one per direction / one per corner
    if name == "Rose":
        return 2
    if name == "Sunflower":
        return n - 1                                  # each other space of its row
    if name == "Clover":
        return len(diagonal(space, n))
    if name == "Iris":
        return sum(zones["river"].values())           # each card in the River
    if name == "Poppy":
        return sum(1 for label, cards in zones.items() if label.startswith("stand(") and sum(cards.values()))
    if name == "Hibiscus":
        return 1 if sum(zones[f"stand({space})"].values()) else 3
    if name == "Daisy":                               # each other Flower Frog in the Pond
        return sum(k for cards in cells.values() for card, k in cards.items()
                   if card != name and fashion(game, card) == "flower")
    if name == "Marigold":                            # each Hat Coupon in the Pond, else 1 on itself
        return sum(cards["Hat Coupon"] for cards in cells.values()) or 1
    return 0


def total_gnats(state) -> int:
    return sum(sum(row) for row in state.counters["gnats"].values())


def check_gnats_only_where_they_can_be(state):
    """Gnats lie on Pond and River cards, on blank spaces and in players' piles: nowhere else."""
    g, rows = state.game, state.counters["gnats"]
    assert min(min(row) for row in rows.values()) >= 0, "a negative number of gnats"
    for card, k in enumerate(rows["card"]):
        if k:
            label = g.zone_label(state.loc[card]) if state.loc[card] >= 0 else "out of play"
            assert label.startswith("cell(") or label == "river", \
                f"{k} gnats on {g.card_names[card]} in {label}: gnats travel only with Pond and River cards"
    for i, k in enumerate(rows["space"]):
        if k:
            sp = g.board.spaces[i]
            assert not zone(state, f"cell({sp})"), f"{k} gnats on {sp} under a card: they belong on it"


def expected_change(state, records, before_zones) -> tuple[int, list]:
    """The change of the total of Gnats the records explain, and what explained it."""
    n, game = SIZE[state.n], state.game
    zones = {label: Counter(cards) for label, cards in before_zones.items()}
    zones.setdefault("out of play", Counter())
    change, why = 0, []
    for r in records:
        if r["type"] == "move":
            zones[r["from"] or "out of play"][r["card"]] -= 1
            zones[r["to"]][r["card"]] += 1
        elif r["type"] == "log":
            text = r["text"]
            if m := GAIN.search(text):
                change += int(m[1])
                why.append(text)
            elif m := SQUANDER.search(text):
                change += len(orthogonal(m[1], n))
                why.append(text)
            elif REFRESH.search(text):
                change -= 1
                why.append(text)
        elif r["type"] == "event":
            args = r["args"]
            if r["name"] == "added_to_pond" and args["card"] in FLOWERS_THAT_ADD:
                k = flower_adds(game, args["card"], args["space"], zones, n)
                change += k
                why.append(f"{args['card']} added on {args['space']}: +{k}")
        elif r["type"] == "decision" and r["prompt"] == "put a gnat on":  # the Butler's space, once chosen
            change += 1
            why.append("Butler: +1 on a space")
    return change, why


def before_records(state, records) -> dict[str, Counter]:
    """The zones before ``records``, by undoing their moves on the zones now."""
    zones = zones_by_label(state)
    zones["out of play"] = Counter()
    for r in reversed(records):
        if r["type"] == "move":
            zones[r["to"]][r["card"]] -= 1
            zones[r["from"] or "out of play"][r["card"]] += 1
    return zones


def accounted_game(game, players, seed):
    """Play a random traced game, checking after setup and after each action that the Gnats add up."""
    state = game.new_game(players, seed, trace=True)
    moves = random.Random(seed)
    records = [r for r in state.trace]
    change, why = expected_change(state, records, before_records(state, records))
    assert total_gnats(state) == change, f"setup: {total_gnats(state)} gnats, explained {change}: {why}"
    check_gnats_only_where_they_can_be(state)
    explained = Counter()
    while not state.is_terminal():
        total, mark = total_gnats(state), len(state.trace)
        player = moves.choice(state.current_players())
        action = moves.choice(state.legal_actions(player))
        state.apply(player, action)
        records = state.trace[mark:]
        change, why = expected_change(state, records, before_records(state, records))
        assert total_gnats(state) - total == change, \
            f"{action!r} by player {player + 1} changed the gnats by {total_gnats(state) - total}; explained {change}: {why}"
        check_gnats_only_where_they_can_be(state)
        explained.update(w.split(":")[0].split(" ")[0] if w.startswith(("Squander", "Butler")) else
                         "refresh" if "refreshes" in w else "gain" if "gains" in w else w.split(" ")[0] for w in why)
        assert len(state.history) < 5000, "no end"
    return state, explained


@pytest.mark.parametrize("players", [2, 4, 6])
def test_gnats_enter_only_by_gains_squanders_butler_and_flowers_and_leave_only_by_refresh(top_frog, players):
    seen = Counter()
    for seed in range(3):
        _state, explained = accounted_game(top_frog, players, seed)
        seen.update(explained)
    assert seen["gain"] and seen["refresh"] and seen["Squander"]  # the accounting was exercised


def test_the_gnat_accounting_catches_a_gnat_lost_unexplained(top_frog, monkeypatch):
    """Were a Refresh not a way out, its gnat would be unexplained: the check says so."""
    monkeypatch.setitem(globals(), "REFRESH", re.compile("a line never written"))
    with pytest.raises(AssertionError, match="changed the gnats by -1; explained 0"):
        for seed in range(6):
            accounted_game(top_frog, 2, seed)


def test_the_gnat_place_check_catches_gnats_left_on_a_card_in_a_stack(tf_table):
    state = tf_table(3, zones={"stack1(1)": ["Lily Pad #1", "Planet"]},
                     counters={"gnats": {"cards": {"stack1(1)": [0, 2]}}})
    with pytest.raises(AssertionError, match="2 gnats on Planet in stack1"):
        check_gnats_only_where_they_can_be(state)


# ---------------------------------------------------------------- secrecy of the selection (ruling 1)

def at_selection(game, players, seed, chosen):
    """A random game played up to an Action Selection at which ``chosen`` players have already chosen."""
    moves = random.Random(seed)
    state = game.new_game(players, seed)
    while not (state.prompt() == "play" and len(state.current_players()) == players - chosen):
        assert not state.is_terminal()
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
    return state


@pytest.mark.parametrize("players", [2, 4, 6])
def test_before_the_reveal_no_view_or_narration_shows_another_players_selection(top_frog, players):
    for seed in range(3):
        state = at_selection(top_frog, players, seed, chosen=0)
        for chooser in state.current_players()[:-1]:
            others = [q for q in state.players if q != chooser] + [None]
            options = state.legal_actions(chooser)
            assert len(options) > 1
            seen = set()
            for action in options:
                branch = state.clone()
                branch.apply(chooser, action)
                seen.add(json.dumps([[branch.view(q) for q in others], [branch.narration(q) for q in others]],
                                    sort_keys=True))
                for q in others:  # the chooser's selection shows nowhere: no card left the hand yet
                    zones, before = branch.view(q)["zones"], state.view(q)["zones"]
                    assert zones[f"selected({chooser + 1})"] == {"count": 0}
                    assert zones[f"hand({chooser + 1})"] == before[f"hand({chooser + 1})"]
                    assert zones[f"hand({chooser + 1})"]["count"] == len(zone(state, f"hand({chooser + 1})"))
            assert len(seen) == 1, "another player's view or narration depends on a selection"
            state.apply(chooser, options[0])
        assert check_secret_choice_is_invisible(state, state.current_players()[0]) is False  # the last one alone
        last = state.current_players()[0]
        state.apply(last, state.legal_actions(last)[0])
        revealed = [line for line in state.narration(None) if " reveals " in line]
        assert revealed, "the Reveal shows every selection to everyone"


def rule_seen(state, viewer, public) -> set:
    """The cards ``viewer`` may see by the rules of the view (invariants.seen_cards) with ``public`` (the cards
    public where they lie, by public_recall's own bookkeeping) in place of the engine's."""
    plain = state.clone()
    plain.public = set()
    return invariant_seen_cards(plain, viewer) | public


@pytest.mark.parametrize("players", [2, 4])
def test_a_view_shows_another_seats_hand_held_frogs_or_selection_only_where_everyone_saw_them_go(
        top_frog, monkeypatch, players):
    """The owner's ruling, perfect recall of public events (docs/dsl.md, "Public reveals"): a view lists a card
    of another seat's hand, held frogs or selection only when that card is public there, that is everyone saw
    it where it lay (the Pond, the River, a revealed card) and it went straight into that zone, and since then
    no card left that zone and it was not shuffled (public_recall keeps that by its own bookkeeping).  Such a
    card is marked public; the Pond Deck's order never shows, except a card everyone saw put there or a
    Telescope's top card to its owner.  Permuting the cards a viewer cannot see by that rule (never public
    since they entered their zone) changes nothing in that viewer's view."""
    moves, worlds = random.Random(players), random.Random(f"worlds {players}")
    listed = 0
    with recalled(monkeypatch) as recall:
        state = top_frog.new_game(players, players, trace=True)
        for step in range(400):
            public = recall.public_cards(state)
            for viewer in state.players + [None]:
                zones = state.view(viewer)["zones"]
                assert set(zones["deck"]) <= {"count", "shown"}
                for seat in range(players):
                    if seat == viewer:
                        continue
                    for name in ("hand", "held", "selected"):
                        label = f"{name}({seat + 1})"
                        entry = zones[label]
                        assert "cards" not in entry and all(item.get("public") for item in entry.get("shown", ()))
                        names = sorted(item["card"] for item in entry.get("shown", ()))
                        assert names == sorted(state.game.card_names[c] for c in state.zones[state.game.zone_index(label)]
                                               if c in public)
                        listed += len(names)
                seen = rule_seen(state, viewer, public)
                assert view_seen_cards(state, viewer) == seen
                if step % 7 == 0:
                    unseen = [c for cards in state.zones for c in cards if c not in seen]
                    world, _ = with_cards_permuted(state, unseen, worlds)
                    assert world.view(viewer) == state.view(viewer), "a view depends on a card it may not see"
            if state.is_terminal():
                break
            player = moves.choice(state.current_players())
            state.apply(player, moves.choice(state.legal_actions(player)))
    assert listed > 20  # held frogs and action cards back in hand, listed for the others


# ---------------------------------------------------------------- saves and the end

def test_a_short_game_round_trips_through_json_at_every_decision(tf_table):
    """A Pond Deck of 2 cards and a River of 1: the game ends within a few rounds; every decision saved,
    loaded and compared, with the same options for everyone."""
    state = tf_table(3, river=["Tycoon"], zones={"deck": ["Duchess", "Prince"]})
    moves = random.Random(4)
    decisions = 0
    while True:
        text = json.dumps(state.to_json())
        loaded = State.from_json(state.game, json.loads(text))
        assert snapshot(loaded) == snapshot(state)
        assert [loaded.legal_actions(p) for p in state.players] == [state.legal_actions(p) for p in state.players]
        if state.is_terminal():
            break
        decisions += 1
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
    assert decisions > 10 and state.ended_by == "end game"


ENDINGS = {"The Pond needs a card but The River is empty: the game ends.",   # immediately
           "Every Hat is gained: the game ends.",                            # after the round
           "The round after a third Hat is over: the game ends."}            # after the next round


def test_random_games_end_within_a_bounded_number_of_decisions_by_every_end_path(top_frog):
    """20 random games at each of 2, 4 and 6 players end (an 'end game', well under 1500 decisions), and
    among them every printed Game End condition ends some game."""
    endings = Counter()
    for players in (2, 4, 6):
        for seed in range(20):
            state = random_playout(top_frog, players, seed, checks=(), max_actions=1500)
            assert state.is_terminal() and state.ended_by == "end game"
            endings[next(line for line in reversed(state.log) if line in ENDINGS)] += 1
    assert set(endings) == ENDINGS, endings


def test_a_squandered_frog_sent_to_the_pond_deck_takes_no_gnats_with_it(tf_table):
    """2 players: the squandered Frog goes to the bottom of the Pond Deck; its Gnats stay on the space (they
    pass to the card that fills it, as a blank space's do), so none hide in the deck to come back later."""
    state = tf_table(2, cells={"r2c2": "Planet"}, meeples={1: "r2c2", 2: "r2c2"},
                     river=["Tycoon", "Duchess", "Prince"], counters={"gnats": {"cards": {"cell(r2c2)": [3]}}})
    total = total_gnats(state)
    for seat in state.current_players():
        state.apply(seat, "play Catch")
    check_gnats_only_where_they_can_be(state)
    assert total_gnats(state) == total + 4  # the Squander's 4 gnats on the neighbours; the 3 are kept
    prince = state.game.card_names.index("Prince")
    assert state.counters["gnats"]["card"][prince] == 3  # the new card on r2c2 carries the space's 3 gnats
