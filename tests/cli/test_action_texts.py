"""An action's text that names cards reaches only the readers who see those cards (and the chooser).

A choice's text may name the cards it picks: ``choose one of hand(p)`` ("keep in mind clover"), a menu entry
built from a list (``"bury {b}" for b in hand(p)``: "bury clover").  When a bot buries a card from its hand
face down, the others must not read which one anywhere: not in the trace, not in a replay seen as their
seat, not in the web table's log for their seat (the narration already says "player 1 buries a card.").
The test-only definition ``tests/definitions/card_variables.yaml`` has both kinds of choice.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

from interpreter import load_game
from interpreter.cli import main
from interpreter.log_replay import Replay, action_text, load_logged_game, read_log

ROOT = Path(__file__).resolve().parents[2]
HELD = ROOT / "tests" / "definitions" / "card_variables.yaml"


def bury_when_possible(state, rng):
    """Play one decision: bury a card if that is open, else anything."""
    seat = state.current_players()[0]
    legal = state.legal_actions(seat)
    burying = [a for a in legal if a.startswith("bury ")]
    return seat, (burying or legal)[rng.randrange(len(burying or legal))]


def buried_names(game, state) -> set:
    return {game.card_names[c] for c in state.zones[game.zone_index("vault")]}


def test_a_choice_naming_cards_a_reader_cannot_see_is_traced_as_secret_for_that_reader():
    game = load_game(HELD)
    state, rng = game.new_game(2, 1, trace=True), random.Random(1)
    for _ in range(8):
        state.apply(*bury_when_possible(state, rng))
    assert buried_names(game, state)
    for reader in [0, 1, None]:
        for record in state.trace_for(reader):
            if record["type"] == "decision" and record["player"] - 1 != reader:
                assert record["chosen"] == "(secret)", record  # a card from a hand: to a vault or kept in mind
    chosen = [r["chosen"] for r in state.trace_for(0) if r["type"] == "decision" and r["player"] == 1]
    assert any(text.startswith("bury ") for text in chosen)  # the chooser reads its own choices


def test_a_replay_as_a_seat_hides_the_others_choices_naming_cards_it_cannot_see(tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdout", io.StringIO())
    log = tmp_path / "game.jsonl"
    assert main(["play", str(HELD), "--players", "2", "--seed", "4", "--log", str(log)]) == 0  # bots: omniscient
    logged = read_log(log)
    game, scenario = load_logged_game(logged)
    replay = Replay(logged, game, scenario)
    hidden = 0
    for step in replay.steps:
        for seat in (0, 1, None):
            text = action_text(step, seat)
            if seat == step.player:
                assert text.endswith(step.action)
            elif not step.action.startswith(("lay ", "discard ", "pass")):  # those cards go face up: named
                assert text.endswith("(a choice of cards you cannot see)"), (seat, text)
                hidden += 1
    assert hidden


def test_the_web_tables_log_for_a_seat_hides_the_others_choices_naming_cards_it_cannot_see(tmp_path):
    from interpreter.web.table import Table

    game = load_game(HELD)
    table = Table(game, 2, {}, tmp_path / "g.json", seed=3)
    rng = random.Random(3)
    while not table.state.is_terminal():
        table.apply(*bury_when_possible(table.state, rng))
    buried = buried_names(game, table.state)
    assert buried
    for seat in (0, 1, None):
        text = table.log_lines(seat)
        for line in text.splitlines():
            if '"event": "action"' in line and f'"player": {0 if seat is None else seat + 1}' not in line:
                assert not any(name in line for name in buried), (seat, line)
    assert any(name in table.log_lines(0) + table.log_lines(1) for name in buried)  # the choosers read theirs


def test_ribbit_play_shows_a_human_neither_on_screen_nor_in_the_log_a_bots_choice_naming_cards_it_cannot_see(
        tmp_path, monkeypatch, capsys):
    import builtins
    import json

    monkeypatch.setattr(builtins, "input", lambda prompt="": "1")  # the human (seat 2) takes the first option
    log = tmp_path / "human.jsonl"
    assert main(["play", str(HELD), "--players", "2", "--human", "2", "--seed", "5", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    bots = [r["action"] for r in records if r["event"] == "action" and r["player"] == 1]
    assert None in bots and not [a for a in bots if a and a.startswith(("keep in mind", "bury"))], bots
    assert any(a and a.startswith(("lay ", "discard ")) for a in bots)  # a card played face up is named
    assert "player 1: (a choice of cards you cannot see)" in out
    assert not [line for line in out.splitlines() if line.lstrip().startswith(("player 1: keep", "player 1: bury"))]
