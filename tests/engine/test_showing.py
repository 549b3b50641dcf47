"""'show CARDS to PLAYERS': a private reveal, visible to those players until the cards move.

Top Frog's Oracle (look at the top cards of the hidden deck, put them back in any order) and
Telescope (its owner sees the top card of the deck) need it; tests/definitions/showing.yaml
isolates it.  Every test asserts an exact outcome.
"""

from __future__ import annotations

import json

import pytest

from interpreter import DefinitionError, SaveFileError, State, load_game
from invariants import check_views, reload, snapshot
from test_mechanisms import line_of, load, write_definition, zone

TOP_THREE = {"on_top": {"deck": ["one", "two", "three"]}}  # 'one' on top


@pytest.fixture
def peeking():
    state = load("showing").new_game(2, 0, trace=True, scenario=TOP_THREE)
    state.apply(0, "peek")
    return state


def test_shown_cards_appear_in_the_viewers_view_only_beside_the_hidden_zone(peeking):
    assert peeking.view(0)["zones"]["deck"] == {"count": 8, "shown": [
        {"card": "one", "from_top": 0}, {"card": "two", "from_top": 1}, {"card": "three", "from_top": 2}]}
    assert peeking.view(1)["zones"]["deck"] == {"count": 8}
    assert peeking.view(None)["zones"]["deck"] == {"count": 8}
    check_views(peeking)


def test_shown_cards_are_named_in_the_viewers_narration_and_trace_only(peeking):
    assert peeking.log == ["player 1 peeks at three, two, one."]
    assert peeking.narration(0) == ["player 1 peeks at three, two, one."]
    assert peeking.narration(1) == peeking.narration(None) == ["player 1 peeks at some cards."]
    shows = [[r for r in peeking.trace_for(v) if r["type"] == "show"] for v in (0, 1, None)]
    assert shows == [[{"type": "show", "cards": ["three", "two", "one"], "to": [1]}],
                     [{"type": "show", "cards": "some cards", "to": [1]}],
                     [{"type": "show", "cards": "some cards", "to": [1]}]]


def test_putting_shown_cards_back_in_any_order_with_repeated_choices(peeking):
    assert peeking.legal_actions(0) == ["put on top three", "put on top two", "put on top one"]
    peeking.apply(0, "put on top two")  # the deepest of the three first
    assert peeking.view(0)["zones"]["deck"]["shown"] == [  # 'two' moved: no longer shown, until shown again
        {"card": "one", "from_top": 1}, {"card": "three", "from_top": 2}]
    peeking.apply(0, "put on top three")  # the last one, 'one', goes on top without asking
    assert zone(peeking, "deck")[-3:] == ["two", "three", "one"]
    assert peeking.view(0)["zones"]["deck"]["shown"] == [  # shown again at the end of the peek
        {"card": "one", "from_top": 0}, {"card": "three", "from_top": 1}, {"card": "two", "from_top": 2}]
    assert peeking.current_players() == [1]
    decisions = [r["chosen"] for r in peeking.trace_for(1) if r["type"] == "decision" and r["player"] == 1]
    assert decisions == ["peek", "(secret)", "(secret)", "(secret)"]


def test_a_shown_card_stops_being_shown_when_it_moves_even_into_a_zone_the_player_sees(peeking):
    peeking.apply(0, "put on top two")
    peeking.apply(0, "put on top three")
    peeking.apply(1, "draw")  # player 2 takes 'one', shown to player 1
    assert zone(peeking, "hand(2)") == ["one"]
    assert peeking.shown == {zone_card(peeking, "three"): [0], zone_card(peeking, "two"): [0]}
    assert peeking.view(0)["zones"]["hand(2)"] == {"count": 1}
    assert peeking.view(0)["zones"]["deck"]["shown"] == [{"card": "three", "from_top": 0},
                                                        {"card": "two", "from_top": 1}]


def zone_card(state, name):
    return state.game.card_names.index(name)


def test_a_shuffle_of_the_zone_ends_what_was_shown(tmp_path):
    path = write_definition(tmp_path, "shuffled", "showing", '    show top(deck, 3) to p\n',
                            '    show top(deck, 3) to p\n    shuffle deck\n')
    state = load_game(path).new_game(2, 0, scenario=TOP_THREE)
    state.apply(0, "peek")
    for action in state.legal_actions(0)[:2]:
        state.apply(0, action)
    assert state.shown == {}
    assert "shown" not in state.view(0)["zones"]["deck"]


def test_the_lens_holder_is_shown_the_top_card_at_the_start_of_their_turn():
    state = load("showing").new_game(2, 0, scenario={**TOP_THREE, "zones": {"lenses(2)": ["lens"]}})
    assert "shown" not in state.view(1)["zones"]["deck"]
    state.apply(0, "draw")
    assert state.view(1)["zones"]["deck"] == {"count": 7, "shown": [{"card": "two", "from_top": 0}]}
    assert state.view(0)["zones"]["deck"] == {"count": 7}


def test_what_is_shown_survives_save_clone_and_replay(peeking):
    before = snapshot(peeking)
    saved = peeking.to_json()
    assert saved["shown"] == [[zone_card(peeking, n), [0]] for n in ("one", "two", "three")]
    assert snapshot(reload(peeking)) == before
    copy = peeking.clone()
    copy.apply(0, "put on top two")
    assert snapshot(peeking) == before
    tampered = json.loads(json.dumps(saved))
    tampered["shown"][0][1] = [0, 1]
    with pytest.raises(SaveFileError, match="which cards are shown to which players differs"):
        State.from_json(peeking.game, tampered)
    assert "shown" not in load("showing").new_game(2, 0).to_json()  # nothing shown: saved as before


@pytest.mark.parametrize("statement, message, at", [
    ("show 3 to p", "'show' shows a card, a list of cards or a zone, not a number", "3"),
    ("show top(deck) to deck", "'show ... to' names a player or a list of players, not a zone", "deck"),
])
def test_misused_show_is_refused_at_load_where_it_is(tmp_path, statement, message, at):
    path = write_definition(tmp_path, "bad_show", "showing", "    show left to p\n", f"    {statement}\n")
    line = line_of(path, statement)
    column = path.read_text().splitlines()[line - 1].rindex(at) + 1
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert f"bad_show.yaml:{line}:{column}:" in str(info.value)
    assert message in str(info.value)
