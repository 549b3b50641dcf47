"""Public reveals: what every player is shown is public, spectators included, in narration and in the view alike.

A card shown to every player ('show CARDS to players') is seen by spectators too until it moves, a card
everyone watched go from a public zone into a hidden one stays public there (the owner's ruling: perfect
recall of public events) until it moves, its zone is shuffled or another card leaves that zone, and a
``log to`` line told to every player reaches spectators.  Narration and the table follow one rule
(``can_see`` / ``State.view``), so a value read from a shown card ("asks for moths") or from a card laid
in a public zone ("a book of moths") reads in the clear for everyone, while permuting the cards an
audience cannot see still changes no line it receives (``tests/definitions/public_reveals.yaml``).
"""

from __future__ import annotations

import random

from conftest import REPO_ROOT
from interpreter import load_game
from invariants import check_cards, random_playout, seen_cards
from test_narration import check_lines_as_written, log_game

FISH = REPO_ROOT / "tests" / "definitions" / "public_reveals.yaml"


def first_ask(seed=0):
    """A 2-player game of Public Fish after player 1's first ask (the card asked with is their first)."""
    game = load_game(FISH)
    state = game.new_game(2, seed)
    state.apply(0, state.legal_actions(0)[0])
    return game, state


def lines_with(state, viewer, word):
    return [line for line in state.narration(viewer) if word in line]


def test_a_rank_asked_for_with_a_card_shown_to_every_player_reads_in_the_clear_for_spectators_too():
    game, state = first_ask()
    asked = [line for line in state.log if " asks " in line][0]
    assert "(hidden)" not in asked and "showing" in asked
    for viewer in (0, 1, None):
        assert asked in state.narration(viewer)


def test_a_rank_thought_of_before_the_card_is_shown_stays_hidden_from_others_and_spectators():
    game, state = first_ask()
    thought = [line for line in state.log if " thinks of " in line][0]
    assert thought in state.narration(0)
    for viewer in (1, None):
        assert "player 1 thinks of (hidden)s." in state.narration(viewer)


def test_the_spectator_view_lists_a_card_shown_to_every_player_as_the_narration_names_it():
    for seed in range(20):  # a game where the card asked with is still in player 1's hand at the next decision
        game, state = first_ask(seed)
        hand = state.zones[game.zone_index("hand(1)")]
        shown = sorted(game.card_names[c] for c in hand if c in state.shown)
        if shown:
            break
    assert shown and all(name in state.narration(None)[1] for name in shown)
    for viewer in (1, None):
        listed = [item["card"] for item in state.view(viewer)["zones"]["hand(1)"].get("shown", ())]
        assert sorted(listed) == shown
        assert {c for c in hand if c in state.shown} <= seen_cards(state, viewer)


def test_a_card_shown_to_some_players_only_is_not_seen_by_spectators(tmp_path):
    game = load_game(log_game(tmp_path, "    show card to p\n"))
    state = game.new_game(3, 0)
    assert state.shown and all(state.n not in players for players in state.shown.values())
    assert not any("shown" in entry for entry in state.view(None)["zones"].values())


def test_a_book_laid_in_a_public_zone_names_its_rank_to_everyone():
    for seed in range(12):
        state = random_playout(load_game(FISH), 2, seed, checks=())
        books = [line for line in state.log if "lays down a book of" in line]
        for viewer in (0, 1, None):
            assert [line for line in state.narration(viewer) if "lays down a book of" in line] == books
        if books:
            assert not any("(hidden)" in line for line in books)
            return
    raise AssertionError("no book was laid in 12 games")


def a_game_with_a_book(players=2):
    for seed in range(40):
        state = random_playout(load_game(FISH), players, seed, checks=())
        if any("keeps" in line for line in state.log):
            return state
    raise AssertionError("no book was laid in 40 games")


def kept_cards(state) -> set:
    g = state.game
    return {c for q in range(state.n) for c in state.zones[g.zone_index(f"kept({q + 1})")]}


def test_a_card_everyone_saw_moved_into_a_hidden_zone_is_named_to_everyone_and_listed_in_every_view():
    state = a_game_with_a_book()
    g = state.game
    kept = [line for line in state.log if " keeps " in line]
    assert kept and not any("a card" in line for line in kept)
    for viewer in (0, 1, None):
        assert [line for line in state.narration(viewer) if " keeps " in line] == kept
        zones = state.view(viewer)["zones"]
        listed = {item["card"] for label, entry in zones.items() if label.startswith("kept")
                  for item in entry.get("shown", ()) if item.get("public")}
        listed |= {name for label, entry in zones.items() if label.startswith("kept") for name in entry.get("cards", ())}
        held = {g.card_names[c] for c in kept_cards(state)}
        assert held and listed == held, "the table hides a card the narration named"
    assert kept_cards(state) <= state.public and not state.shown.keys() & state.public


def test_a_card_public_by_its_move_stops_being_public_when_it_moves_again():
    state = a_game_with_a_book()
    g = state.game
    card = max(kept_cards(state))
    assert card in state.public
    from interpreter.runtime.moves import move_card
    move_card(state, card, g.zone_index("deck"), False)
    assert card not in state.public and card not in seen_cards(state, None)


def test_a_card_public_in_a_hand_stops_being_public_when_another_card_leaves_that_hand():
    """Else the cards still listed would tell everyone which card its owner took (a secret choice)."""
    from interpreter.runtime.moves import move_card
    game = load_game(FISH)
    state = game.new_game(2, 0)
    hand = state.zones[game.zone_index("hand(1)")]
    public, other = hand[0], hand[1]
    state.public.add(public)  # as a move out of a public zone leaves it
    assert public in seen_cards(state, None) and public in seen_cards(state, 1)
    move_card(state, other, game.zone_index("kept(1)"), False)
    assert public not in state.public and public not in seen_cards(state, None) and public not in seen_cards(state, 1)
    assert not any("shown" in entry for entry in state.view(None)["zones"].values())


def test_a_card_public_in_a_hand_stops_being_public_when_the_hand_is_shuffled():
    from interpreter.runtime.moves import shuffle_zone
    game = load_game(FISH)
    state = game.new_game(2, 0)
    hand = game.zone_index("hand(1)")
    card = state.zones[hand][0]
    state.public.add(card)
    shuffle_zone(state, hand, None)
    assert card not in state.public and card not in seen_cards(state, 1)


def test_a_card_shown_to_every_player_does_not_stay_public_where_it_is_moved_from_a_hidden_zone():
    """Which card left a hand may be its owner's secret choice: only a card everyone saw where it lay, by its
    zone's visibility, stays public in the zone it moves to."""
    from interpreter.runtime.moves import move_card
    game, state = first_ask()
    hand = state.zones[game.zone_index("hand(1)")]
    card = next(c for c in hand if len(state.shown.get(c, ())) == state.n + 1)
    move_card(state, card, game.zone_index("kept(1)"), False)
    assert card not in state.public and card not in seen_cards(state, None) and card not in seen_cards(state, 1)


def test_cards_dealt_from_a_hidden_deck_into_hands_stay_hidden_from_others_and_spectators():
    state = load_game(FISH).new_game(3, 0)  # dealt face down: nobody but the owner ever saw them
    assert not state.shown and sum(map(len, state.zones)) == 12
    assert all(entry.get("cards") is None for label, entry in state.view(None)["zones"].items()
               if label.startswith("hand"))


def test_log_to_every_player_reaches_spectators(tmp_path):
    game = load_game(log_game(tmp_path, '    log to players: "{p} whispers {card}."\n'))
    state = game.new_game(3, 0)
    line = "player 1 whispers earwig."
    for viewer in (0, 1, 2, None):
        assert line in state.narration(viewer)


def test_log_to_some_players_still_never_reaches_spectators(tmp_path):
    game = load_game(log_game(tmp_path, '    log to [p, next_player(p)]: "{p} whispers {card}."\n'))
    state = game.new_game(3, 0)
    assert not lines_with(state, None, "whispers") and not lines_with(state, 2, "whispers")


def test_public_fish_narration_does_not_change_when_unseen_cards_are_permuted(monkeypatch):
    game = load_game(FISH)
    checked = check_lines_as_written(monkeypatch, random.Random(2), worlds=3)
    for seed in range(6):
        random_playout(game, 2 + seed % 2, seed, checks=(check_cards,))
    assert any("book" in line for line in checked) and len(checked) > 50


def test_the_terminal_lists_a_public_card_as_known_to_all_and_a_card_shown_to_one_seat_as_shown_to_you(tmp_path):
    from interpreter.render import zone_contents
    state = a_game_with_a_book()
    g = state.game
    label = next(f"kept({q + 1})" for q in range(state.n) if state.zones[g.zone_index(f"kept({q + 1})")])
    owner = int(label[5:-1]) - 1
    for viewer in [q for q in range(state.n) if q != owner] + [None]:
        text = zone_contents(state.view(viewer)["zones"][label], g).plain
        assert "known to all: " in text and "shown to you" not in text and "(hidden)" not in text
    game = load_game(log_game(tmp_path, "    show card to next_player(p)\n"))  # a card of p's hand, to one seat
    private = game.new_game(3, 0)
    texts = [zone_contents(entry).plain for viewer in range(3) for entry in private.view(viewer)["zones"].values()
             if entry.get("shown")]
    assert texts and all("shown to you: " in text and "known to all" not in text for text in texts)


def test_a_public_card_shown_to_one_player_stays_public_for_everyone_else():
    game = load_game(FISH)
    state = game.new_game(2, 0)
    card = state.zones[game.zone_index("hand(1)")][0]
    state.public.add(card)  # as a move out of a public zone leaves it
    state.shown[card] = [1]  # and a 'show' to seat 2 alone
    for viewer in (1, None):
        items = state.view(viewer)["zones"]["hand(1)"]["shown"]
        assert items == [{"card": game.card_names[card], "from_top": len(state.zones[game.zone_index("hand(1)")]) - 1,
                          "public": True}]
