"""Honest statistics: how each game ended (``state.ended_by``), games with no winner, a cap on endless
games, and a JSON report whose numbers are numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.sim import MAX_DECISIONS, SimStats, play_bot_game, run_chunk

from conftest import REPO_ROOT

FROG_TOWER = REPO_ROOT / "definitions" / "frog_tower.yaml"
KAERU = REPO_ROOT / "definitions" / "kaeru.yaml"

# A game that may run forever: each turn the player may pass, and only a lucky 'win' ends it.
ENDLESS = """\
game: Endless
players: {min: 2, max: 2}
zones:
  box: {}
procedures:
  take_turn(player p): |
    ask p:
      "pass":
        pass
      "pass again":
        pass
flow:
  - phase: play
    turn: take_turn
"""

# A game of three turns: 'quit' ends it at once with nobody winning; otherwise the phase ends by its 'until'.
SHORT = """\
game: Short
players: {min: 2, max: 2}
zones:
  box: {}
player_variables:
  points: 0
procedures:
  take_turn(player p): |
    ask p:
      "score":
        p.points += 1
      "quit":
        end game winners [each q in players where q.points > 99]
flow:
  - phase: play
    turn: take_turn
    until: game.turn >= 3
scoring:
  score: p.points
"""


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def short_game(tmp_path):
    path = tmp_path / "short.yaml"
    path.write_text(SHORT)
    return path


def test_a_game_ended_by_the_last_phase_records_flow(short_game):
    state = load_game(short_game).new_game(2, seed=0)
    assert state.ended_by is None
    for seat in (0, 1, 0):
        state.apply(seat, "score")
    assert state.is_terminal() and state.ended_by == "flow" and state.winners() == [0]


def test_an_end_game_statement_is_recorded_even_when_it_names_no_winners(short_game):
    state = load_game(short_game).new_game(2, seed=0)
    state.apply(0, "quit")
    assert state.is_terminal() and state.ended_by == "end game"
    assert state.winners() == []
    assert state.clone().ended_by == "end game"


def test_every_kaeru_game_ends_by_an_end_game_statement():
    # Kaeru's only phase has no 'until': the rules end every game with a plain 'end game'.
    stats = run_chunk(load_game(KAERU), 2, 1, 0, 10)
    assert stats.endings == {"end_game": 10, "flow": 0, "decision_cap": 0}


def test_a_game_that_never_ends_is_stopped_at_the_cap_with_no_winner(tmp_path):
    path = tmp_path / "endless.yaml"
    path.write_text(ENDLESS)
    state = play_bot_game(load_game(path), 2, 5, 0, max_decisions=40)
    assert state.is_terminal() and state.ended_by == "decision cap"
    assert len(state.history) == 40 and state.winners() == [] and state.returns() == [0.0, 0.0]
    assert state.current_players() == [] and state.legal_actions(0) == []


def test_the_default_cap_is_ten_thousand_decisions():
    assert MAX_DECISIONS == 10_000


def test_simulate_reports_games_stopped_at_the_cap_and_plays_on(capsys, tmp_path):
    path = tmp_path / "endless.yaml"
    path.write_text(ENDLESS)
    code, out, _ = run(capsys, "simulate", path, "--players", "2", "--games", "3", "--max-decisions", "30",
                       "--json", "-")
    report = json.loads(out)
    assert code == 0 and report["max_decisions"] == 30
    assert report["ended_by"]["decision_cap"] == {"games": 3, "share": 1.0}
    assert [seat["wins"] for seat in report["seats"]] == [0, 0]
    assert report["decisions"]["max"] == 30 and report["seats"][0]["score"]["mean"] is None
    code, out, _ = run(capsys, "simulate", path, "--players", "2", "--games", "3", "--max-decisions", "30")
    assert re.search(r"\n  stopped at the cap of 30 decisions \(no winner\) +3 +100\.0%", out)
    assert re.search(r"\n  finished with no winner +0 +0\.0%", out)


def test_simulate_counts_endings_no_winner_and_shared_victories(capsys, short_game):
    code, out, _ = run(capsys, "simulate", short_game, "--players", "2", "--games", "200", "--seed", "4",
                       "--json", "-")
    report = json.loads(out)
    ended = {key: value["games"] for key, value in report["ended_by"].items()}
    assert code == 0 and ended["decision_cap"] == 0 and ended["end_game"] + ended["flow"] == 200
    # 'quit' on any of the three turns ends the game with nobody winning; otherwise p1 scores 2 of the 3 turns
    assert report["no_winner"]["games"] == ended["end_game"] > 0
    assert report["shared_victories"]["games"] == 0
    assert sum(seat["wins"] for seat in report["seats"]) == 200 - report["no_winner"]["games"]


def test_the_json_report_writes_numbers_as_numbers(capsys):
    code, out, _ = run(capsys, "simulate", FROG_TOWER, "--players", "3", "--games", "30", "--seed", "1",
                       "--json", "-")
    report = json.loads(out)
    assert code == 0
    for seat in report["seats"]:
        assert type(seat["wins"]) in (int, float) and type(seat["win_share"]) is float
        assert seat["wins"] == pytest.approx(seat["win_share"] * 30)
    assert any(type(seat["wins"]) is float for seat in report["seats"])  # a shared victory splits a win
    for key in ("no_winner", "shared_victories", *(f"ended_by.{k}" for k in report["ended_by"])):
        part = report
        for step in key.split("."):
            part = part[step]
        assert type(part["games"]) is int and type(part["share"]) is float


def test_kaeru_statistics_say_every_game_ended_by_end_game(capsys):
    code, out, _ = run(capsys, "simulate", KAERU, "--players", "2", "--games", "10", "--seed", "1")
    assert code == 0
    assert re.search(r"\n  ended by an `end game` statement +10 +100\.0%", out)
    assert re.search(r"\n  ended when the last phase ended \(its `until`\) +0 +0\.0%", out)


def test_endings_merge_across_chunks():
    game = load_game(KAERU)
    whole = run_chunk(game, 2, 3, 0, 4)
    parts = SimStats(2)
    parts.merge(run_chunk(game, 2, 3, 0, 1))
    parts.merge(run_chunk(game, 2, 3, 1, 4))
    assert whole.to_json() == parts.to_json() and whole.endings["end_game"] == 4


def test_the_play_log_says_how_the_game_ended(capsys, tmp_path):
    from interpreter.cli import main
    import json
    path = tmp_path / "kaeru.jsonl"
    assert main(["play", str(REPO_ROOT / "definitions" / "kaeru.yaml"), "--players", "2", "--seed", "3",
                 "--log", str(path)]) == 0
    end = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    assert end["event"] == "end" and end["ended_by"] == "end game"
