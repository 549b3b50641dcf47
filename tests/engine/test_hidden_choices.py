"""A choice's text is not told to a seat that sees none of it: "discard firefly", picked from a hand and put
face down, names a card the others never see, which the narration hides from them ("a card").

Before, only ``ask each ... secretly`` decisions were kept from the other seats: an open choice of a card from
an owner-only hand into a hidden pile reached the other players' screens, their logs, the browser's log
download and ``replay --seat`` as its text.  ``State.action_watch`` (before the choice) and
``State.action_readers`` (after it) say who may read a choice's text: nobody but the chooser at a secret
decision, and otherwise whoever saw each card it names where it was or sees it where it is after the choice (a
card played to a public pile is seen there, so naming it tells nothing).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.cli import main

# Test-only game: each turn a player draws, then discards one card of their hand, face down ('pile') or
# face up ('open'): the two discards differ only in where the card goes.
DISCARDS = """\
game: Face Down
players: {min: 2, max: 3}
components:
  - {name: ant, zone: deck}
  - {name: bee, zone: deck}
  - {name: cricket, zone: deck}
  - {name: dragonfly, zone: deck}
  - {name: earwig, zone: deck}
  - {name: firefly, zone: deck}
  - {name: gnat, zone: deck}
  - {name: hornet, zone: deck}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  pile: {visibility: hidden}
  open: {visibility: public}
player_variables:
  discards: 0
procedures:
  take_turn(player p): |
    move top(deck) to hand(p)
    ask p to choose one of hand(p) as dropped "discard"
    move dropped to WHERE
    p.discards += 1
setup: |
  shuffle deck
  for p in players:
    move top(deck) to hand(p)
flow:
  - turn: take_turn
    until: size(deck) == 0
scoring:
  score: p.discards
"""

def game_file(tmp_path, where="pile") -> Path:
    path = tmp_path / f"{where}.yaml"
    path.write_text(DISCARDS.replace("WHERE", where), encoding="utf-8")
    return path


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("where, told", [("pile", False), ("open", True)])
def test_a_card_put_face_down_is_hidden_from_the_others_and_one_put_face_up_is_not(tmp_path, where, told):
    state = load_game(game_file(tmp_path, where)).new_game(3, seed=1)
    seat = state.current_players()[0]
    action = state.legal_actions(seat)[0]
    watch = state.action_watch(seat, action)
    state.apply(seat, action)
    readers = state.action_readers(watch)  # each seat, then a spectator
    assert readers == [s == seat or told for s in range(3)] + [told]


def test_the_other_seat_at_the_terminal_and_in_its_log_is_not_told_a_face_down_discard(capsys, tmp_path,
                                                                                      monkeypatch):
    log = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", game_file(tmp_path), "--players", 2, "--human", 1, "--seed", 3,
                         "--log", log, stdin="1\n" * 20, monkeypatch=monkeypatch)
    assert code == 0, err
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    theirs = [row for row in rows if row["event"] == "action" and row["player"] == 2]
    assert theirs and all(row["action"] is None and row["secret"] is True for row in theirs)
    assert all(row["action"].startswith("discard ") for row in rows if row["event"] == "action" and row["player"] == 1)
    assert "player 2: (a choice of cards you cannot see)" in out and "player 2: discard" not in out
    state = load_game(game_file(tmp_path)).new_game(2, seed=3)  # what seat 2 really discarded, to look for
    mine = set()
    while not state.is_terminal():
        seat = state.current_players()[0]
        action = state.legal_actions(seat)[0]
        if seat == 1:
            mine.add(action)
        state.apply(seat, action)
    assert mine and not any(action in out for action in mine)


def test_replay_as_the_other_seat_and_the_browser_s_log_do_not_tell_a_face_down_discard(capsys, tmp_path):
    log = tmp_path / "omniscient.jsonl"
    code, _, err = run(capsys, "play", game_file(tmp_path), "--players", 2, "--seed", 3, "--log", log)
    assert code == 0, err
    code, out, err = run(capsys, "replay", log, "--seat", 1, "--to", 2)
    assert code == 0, err
    assert "player 2: (a choice of cards you cannot see)" in out and "player 2: discard" not in out
    assert "player 2: discard" in run(capsys, "replay", log, "--seat", 2, "--to", 2)[1]  # its own choice it knows
    assert "player 1: (a choice of cards you cannot see)" in run(capsys, "replay", log, "--seat", 2, "--to", 1)[1]
    pytest.importorskip("starlette", reason="the browser's log needs the web extra")
    from interpreter.web.table import Table

    table = Table(load_game(game_file(tmp_path)), 2, {1: ("random", {})}, tmp_path / "web.json", seed=3)
    table.apply(0, table.state.legal_actions(0)[0])
    while table.state.current_players() == [1]:
        table.apply(1, table.state.legal_actions(1)[0])
    lines = [json.loads(line) for line in table.log_lines(0).splitlines()]
    assert [row["action"] for row in lines if row["event"] == "action" and row["player"] == 2] == [None]
    theirs = [action for player, action in table.state.history if player == 1]
    assert theirs and not any(action in table.log_lines(0) for action in theirs)
    assert all(action in table.log_lines(1) for action in theirs)
