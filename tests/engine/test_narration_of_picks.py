"""Narration of the picks of a simultaneous secret decision (``ask each ... as chosen``): ``chosen[q]`` reveals
player q's pick, checked where it lies, and never the other players' picks."""

from __future__ import annotations

import pytest

from conftest import REPO_ROOT
from interpreter import load_game

DRAFTING = REPO_ROOT / "tests" / "definitions" / "drafting.yaml"
PICK = """    ask each q in players secretly to choose one of hand(q) as chosen "keep"
    for q in players:
      move chosen[q] to kept(q)
      log "{q} keeps {chosen[q]}."
"""


def first_round(game, players=3):
    """The first round's picks: each player keeps the first card offered."""
    state = game.new_game(players, seed=4)
    for p in range(players):
        assert state.current_players()[0] == p
        state.apply(p, state.legal_actions(p)[0])
    return state


def lines(state, reader, start):
    return [line for line in state.narration(reader) if start in line]


def drafting_with(tmp_path, pick: str):
    text = DRAFTING.read_text()
    assert PICK in text
    path = tmp_path / "drafting.yaml"
    path.write_text(text.replace(PICK, pick))
    return load_game(path)


def test_a_pick_moved_where_everyone_sees_it_is_named_to_everyone_though_the_others_are_still_hidden():
    state = first_round(load_game(DRAFTING))
    omniscient = [line for line in state.log if " keeps " in line]
    assert len(omniscient) == 3 and not any("a card" in line for line in omniscient)
    for reader in (0, 1, 2, None):  # each pick was moved to a public zone before its line was written
        assert lines(state, reader, " keeps ") == omniscient


def test_a_pick_still_in_a_hand_is_named_only_to_the_player_who_holds_it(tmp_path):
    game = drafting_with(tmp_path, """    ask each q in players secretly to choose one of hand(q) as chosen "keep"
    for q in players:
      log "{q} picks {chosen[q]}."
      move chosen[q] to kept(q)
""")
    state = first_round(game)
    omniscient = [line for line in state.log if " picks " in line]
    for reader in (0, 1, 2):
        expected = [line if line.startswith(f"player {reader + 1} ") else line.split(" picks ")[0] + " picks a card."
                    for line in omniscient]
        assert lines(state, reader, " picks ") == expected
    assert lines(state, None, " picks ") == [line.split(" picks ")[0] + " picks a card." for line in omniscient]


@pytest.mark.parametrize("text", ['{count(each r in players where chosen[r].kind == first(kinds))}',
                                  '{[each r in players: chosen[r]]}', '{chosen}'])
def test_what_reads_every_pick_is_hidden_while_some_pick_is(tmp_path, text):
    game = drafting_with(tmp_path, f"""    ask each q in players secretly to choose one of hand(q) as chosen "keep"
    move chosen[seat(1)] to kept(seat(1))
    log "seen: {text}."
    for q in players:
      if q != seat(1):
        move chosen[q] to kept(q)
""")
    state = first_round(game)
    for reader in (1, 2, None):  # seat 1's pick is public, the others' still in hands
        assert lines(state, reader, "seen: ") == ["seen: (hidden)." if "count" in text else "seen: some cards."]


def test_a_value_read_from_a_pick_into_a_local_stays_hidden_while_any_pick_is(tmp_path):
    # The local is traced back to what it was given, `chosen[r]`, but r may name another player by the time the
    # line is written: that trace counts every pick, as before.
    game = drafting_with(tmp_path, """    ask each q in players secretly to choose one of hand(q) as chosen "keep"
    let r = seat(2)
    let k = chosen[r].kind
    move chosen[seat(1)] to kept(seat(1))
    r = seat(1)
    log "seen: {k}."
    for q in players:
      if q != seat(1):
        move chosen[q] to kept(q)
""")
    state = first_round(game)
    assert [line for line in state.log if line.startswith("seen: ")] != ["seen: (hidden)."]
    for reader in (0, 2, None):  # seat 2's pick is still in its hand
        assert lines(state, reader, "seen: ") == ["seen: (hidden)."]


def test_a_parameter_an_ask_each_later_reuses_is_read_as_the_list_it_holds(tmp_path):
    # `chosen` is a list of cards passed in until the 'ask each' gives it the picks: reading chosen[0] before
    # reads that list, hidden cards included, as any list (docs/dsl.md, "Narration and secrecy").
    text = DRAFTING.read_text().replace("  pick(): |\n    ask each", """  pick(): |
    move top(hand(seat(1))) to kept(seat(1))
    pick_from(kept(seat(1)) + hand(seat(2)))
  pick_from(cards chosen): |
    log "first: {chosen[0]}."
    ask each""")
    path = tmp_path / "drafting.yaml"
    path.write_text(text)
    state = load_game(path).new_game(3, seed=4)
    assert [line for line in state.log if line.startswith("first: ")] != ["first: some cards."]
    for reader in (0, 2, None):  # the list holds seat 2's hand
        assert lines(state, reader, "first: ") == ["first: a card."]
