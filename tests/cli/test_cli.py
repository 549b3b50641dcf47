"""The `ribbit` command, run in-process: exit codes, output, game logs and simulation statistics."""

from __future__ import annotations

import builtins
import json
from fractions import Fraction
from pathlib import Path

import pytest

from interpreter import DefinitionError, load_game, replay
from interpreter.agents import RandomAgent, UnknownAgentError, make_agent
from interpreter.cli import main
from interpreter.render import describe_cards, render_decision
from interpreter.sim import SimStats, Tally, play_bot_game, run_chunk

FROG_TOWER = str(Path(__file__).resolve().parents[2] / "definitions" / "frog_tower.yaml")
CRAZY_EIGHTS = str(Path(__file__).resolve().parents[2] / "definitions" / "crazy_eights.yaml")

# A small game with a ring board, per-space, owner and top zones, a private variable,
# a trigger, a card ability, a secret simultaneous decision, rounds and `end game`.
RING_GAME = """\
game: Ring Test
description: A tiny game on a ring board.
players: {min: 2, max: 3}
properties:
  power: 1
components:
  - {name: token, count: 2, zone: hand, per_player: true}
  - {name: "[odd] card", power: 3, count: 2, zone: deck, when_played: 'log "{card} was played"'}
  - {name: plain card, count: 4, zone: deck}
board:
  ring: {spaces: [north, east, south, west]}
zones:
  deck: {visibility: hidden}
  discard: {visibility: top}
  hand: {per: player, visibility: owner, description: Cards in hand}
  spot: {per: space, visibility: public}
player_variables:
  secret_score: {default: 0, visibility: owner}
  laps: 0
events:
  played: {card: card, player: player}
triggers:
  - "on": played
    do: |
      player.laps += 1
procedures:
  deal(): |
    shuffle deck
    for p in players:
      move top(deck) to hand(p)
  place(): |
    ask each q in players secretly to choose one of hand(q) as picked "place"
    for q in players:
      move picked[q] to spot(spaces[0])
      emit played(card=picked[q], player=q)
    if count(spot(spaces[0])) >= 4:
      end game winners [seat(1)]
setup: |
  deal()
flow:
  - phase: placing
    round: [place]
    until: game.round >= 5
scoring:
  score: p.laps
"""

# A game whose second option spins forever: the step limit stops it.
STUCK_GAME = """\
game: Stuck
players: {min: 2, max: 2}
limits: {steps: 1000}
zones:
  deck: {}
game_variables:
  n: 0
procedures:
  turn(player p): |
    ask p:
      "wait":
        pass
      "spin":
        loop:
          game.n += 1
flow:
  - turn: turn
"""


def run(capsys, *argv):
    """Run the command; returns (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def ring_game(tmp_path):
    path = tmp_path / "ring.yaml"
    path.write_text(RING_GAME, encoding="utf-8")
    return path


def read_log(path):
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]


def answers(monkeypatch, replies, then="1"):
    """Feed the terminal: each input() returns the next reply, then ``then`` forever (None: end of input).

    Returns the list of prompts asked."""
    prompts, replies = [], list(replies)

    def fake_input(prompt=""):
        prompts.append(prompt)
        if replies:
            return replies.pop(0)
        if then is None:
            raise EOFError
        return then
    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


# ---------------------------------------------------------------- validate
def test_validate_prints_one_line_summary_of_a_good_definition(capsys):
    code, out, err = run(capsys, "validate", FROG_TOWER)
    game = load_game(FROG_TOWER)
    assert code == 0 and err == ""
    assert out == (f"OK {FROG_TOWER}: Frog Tower: 2-5 players, {len(game.kinds)} components "
                   f"({len(game.card_names)} cards), {len(game.zones)} zones, {len(game.procedures)} procedures, "
                   f"{len(game.functions)} functions, 1 phase\n")


def test_validate_reports_yaml_syntax_error_with_file_line_col_and_exit_2(capsys, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: Broken\nplayers: {min: 2, max: 3\nzones: {}\n", encoding="utf-8")
    code, out, err = run(capsys, "validate", broken)
    assert code == 2 and out == ""
    assert err.startswith(f"{broken}:3:6: YAML syntax error")
    assert err.endswith("\n    zones: {}\n         ^\n")
    assert "Traceback" not in err


def test_validate_reports_unknown_procedure_in_flow_with_its_location(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: Bad\nplayers: {min: 2, max: 3}\nzones: {a: {}}\nflow:\n  - turn: nothing\n")
    code, _, err = run(capsys, "validate", bad)
    assert code == 2
    assert err.startswith(f"{bad}:5:11: flow[0].turn: unknown procedure 'nothing'")
    assert "Traceback" not in err


@pytest.mark.parametrize("argv, message", [
    ([], "the following arguments are required: COMMAND"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["validate"], "the following arguments are required: FILE"),
    (["validate", "no/such/file.yaml"], "no/such/file.yaml: cannot read the file"),
    (["play", FROG_TOWER], "the following arguments are required: --players"),
    (["play", FROG_TOWER, "--players", "9"], "--players 9: Frog Tower is for 2-5 players"),
    (["play", FROG_TOWER, "--players", "2", "--human", "3"], "--human 3: there are only 2 seats"),
    (["play", FROG_TOWER, "--players", "2", "--seed", "seven"],
     "argument --seed: expected a whole number, got 'seven'"),
    (["play", FROG_TOWER, "--players", "2", "--bot", "genius"], "--bot 'genius': there is no bot 'genius'"),
    # only ASCII digits make a number, as in a variant's setting (int() reads other scripts' digits and '1_000')
    (["play", FROG_TOWER, "--players", "\u0662"], "argument --players: expected a whole number, got '\u0662'"),
    (["simulate", FROG_TOWER, "--players", "2", "--games", "1_0"], "argument --games: expected a whole number, "
                                                                     "got '1_0'"),
    (["play", FROG_TOWER, "--players", "2", "--bot", "ismcts:iterations=\u0661\u0660"],
     "iterations must be a whole number from 1 to 1,000,000 (searches per decision), not '\u0661\u0660'"),
    (["play", FROG_TOWER, "--players", "2", "--bot", "ismcts:time=1_0"],
     "time must be a number from 0.01 to 3,600.0"),
    (["simulate", FROG_TOWER, "--players", "3", "--games", "0"], "argument --games: must be at least 1, got 0"),
    (["simulate", FROG_TOWER, "--players", "1", "--games", "5"], "--players 1: Frog Tower is for 2-5 players"),
    (["simulate", FROG_TOWER, "--players", "3", "--games", "2", "--json", "no/such/dir/out.json"],
     "the folder 'no/such/dir' does not exist"),
])
def test_bad_arguments_exit_2_with_a_message_and_no_traceback(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", [["validate"], ["rules"], ["play", "--players", "2"],
                                     ["simulate", "--players", "2", "--games", "1"]])
def test_every_command_passes_its_variants_to_the_loader_in_order(capsys, monkeypatch, command):
    seen = []

    def fake_load_game(path, variants=None, verbose=False):
        seen.append((path, variants))
        raise DefinitionError("stop here")
    monkeypatch.setattr("interpreter.cli.load_game", fake_load_game)
    code, _, err = run(capsys, command[0], "game.yaml", *command[1:], "--variant", "a.yaml", "--variant", "b.yaml")
    assert (code, err) == (2, "stop here\n")
    assert seen == [("game.yaml", ["a.yaml", "b.yaml"])]


# ---------------------------------------------------------------- rules
def test_rules_summary_lists_every_component_zone_phase_procedure_and_the_scoring(capsys):
    code, out, _ = run(capsys, "rules", FROG_TOWER)
    game = load_game(FROG_TOWER)
    data = game.source.data
    assert code == 0
    assert f"Components ({len(game.kinds)} kinds, {len(game.card_names)} pieces in all)" in out
    assert all(kind["name"] in out for kind in game.kinds)
    assert "one_more: yes" in out and "starting leaf" in out
    assert all(name in out for name in game.zones) and "one per player" in out and "hidden (face down" in out
    assert f"Flow ({len(data['flow'])} phase" in out
    assert "1. play - turns: each player in clockwise order plays take_turn, starting with seat(1)" in out
    assert all(signature in out for signature in data["procedures"])
    assert "Score: p.points" in out and "Tiebreak 1: the lowest p.tower_count wins the tie" in out


def test_rules_summary_covers_boards_rounds_triggers_and_abilities_of_any_game(capsys, ring_game):
    code, out, _ = run(capsys, "rules", ring_game)
    assert code == 0
    assert "Board (4 spaces)" in out and "north: clockwise -> east; counterclockwise -> west" in out
    assert "one per board space" in out and "private to its owner" in out
    assert "1. placing - a round: place, again and again; the phase ends when game.round >= 5" in out
    assert "on played" in out and "player.laps += 1" in out
    assert "[odd] card - when played" in out  # brackets print as text, not as rich markup
    assert "token" in out and "2 each" in out


def test_rules_summary_says_who_sees_the_top_cards_of_a_zone_with_seen_by(capsys):
    # The deck is hidden, yet the lens holder sees its top two cards: "only the number of cards is known" alone
    # told the reader less than the rules say.
    code, out, _ = run(capsys, "rules", str(Path(__file__).resolve().parents[1] / "definitions" / "seen_by.yaml"))
    assert code == 0
    deck = " ".join(line for line in out.splitlines() if line.lstrip().startswith("deck ") or "holds_lens" in line)
    assert "its top 2 cards are seen by each player p for whom holds_lens(p)" in " ".join(deck.split())


# The ring game with a `table:` section: zones placed (one left to its default), a face, variables, score terms.
RING_TABLE = RING_GAME.replace("scoring:\n  score: p.laps\n",
                               "scoring:\n  score: {laps: p.laps, tokens: count(hand(p))}\n") + """\
table:
  zones:
    discard: {at: shared, label: the discard, show: stack}
    deck: {at: shared, label: draw deck}
    hand: {at: player, label: your hand, show: grouped}
  cards:
    badges: [power]
    band: power
    colours: {1: "#111111", 3: "#333333"}
  variables:
    laps: laps run
  score:
    tokens: tokens kept
"""


def test_rules_summary_says_where_the_table_draws_each_zone_and_how_faces_variables_and_score_read(capsys, tmp_path):
    path = tmp_path / "ring_table.yaml"
    path.write_text(RING_TABLE, encoding="utf-8")
    code, out, _ = run(capsys, "rules", path)
    assert code == 0
    section = out[out.index("The table (how it is drawn)"):]
    rows = [line.split() for line in section.splitlines() if line.split()[:1] in (["discard"], ["deck"], ["hand"],
                                                                                    ["spot"])]
    assert [row[0] for row in rows] == ["discard", "deck", "hand", "spot"]  # the drawing order: listed ones first
    assert " ".join(rows[0]) == ("discard in the middle of the table the discard a pile, bottom to top, "
                                 "its top card marked")
    assert " ".join(rows[1]) == "deck in the middle of the table draw deck face down, with its count"  # hidden
    assert " ".join(rows[2]) == "hand in each player's area your hand in groups by power"
    assert " ".join(rows[3]) == "spot on its board space (by default) spot the cards as they lie"
    assert ("Card faces: the title is the name; badges: power; a band coloured by power (1 #111111, 3 #333333)."
            in section)
    assert 'Variables drawn: each player\'s laps as "laps run"; no other.' in section
    assert 'End-of-game breakdown: tokens as "tokens kept", then laps as "laps".' in section
    assert "what each seat may see is set by the zones' visibility, never here" in section


def test_rules_summary_of_a_game_without_a_table_section_has_no_table_section(capsys, ring_game):
    code, out, _ = run(capsys, "rules", ring_game)
    assert code == 0 and "The table (how it is drawn)" not in out and "Card faces" not in out


# ---------------------------------------------------------------- play
def test_bot_game_log_records_every_action_and_replays_to_the_same_winners(capsys, tmp_path):
    log_path = tmp_path / "game.jsonl"
    code, out, _ = run(capsys, "play", FROG_TOWER, "--players", "3", "--seed", "5", "--log", log_path)
    assert code == 0
    records = read_log(log_path)
    assert records[0] == {"event": "start", "format": "ribbit-log/1", "game": "Frog Tower", "file": FROG_TOWER,
                          "variants": [], "players": 3, "seed": 5, "humans": [], "bot": "random",
                          "narration": "omniscient"}
    actions = [(r["player"] - 1, r["action"]) for r in records if r["event"] == "action"]
    state = replay(load_game(FROG_TOWER), 3, 5, actions)
    end = records[-1]
    assert end["event"] == "end" and end["winners"] == [w + 1 for w in state.winners()]
    assert end["scores"] == state.scores() and end["decisions"] == len(actions)
    assert [r["text"] for r in records if r["event"] == "log"] == state.log
    assert all(line in out for line in state.log)
    assert "final result" in out


def test_play_writes_the_log_to_a_default_path_named_after_game_and_seed(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "play", FROG_TOWER, "--players", "2", "--seed", "7")
    assert code == 0
    assert read_log(tmp_path / "ribbit-frog-tower-seed7.jsonl")[-1]["event"] == "end"
    assert "log: ribbit-frog-tower-seed7.jsonl" in out


def test_log_dash_writes_no_log_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, _ = run(capsys, "play", FROG_TOWER, "--players", "2", "--seed", "7", "--log", "-")
    assert code == 0 and list(tmp_path.iterdir()) == []


def test_human_answering_1_plays_the_first_option_to_the_end(capsys, tmp_path, monkeypatch):
    prompts = answers(monkeypatch, [])
    log_path = tmp_path / "human.jsonl"
    code, out, _ = run(capsys, "play", FROG_TOWER, "--players", "2", "--human", "1", "--seed", "4",
                       "--log", log_path)
    assert code == 0
    records = read_log(log_path)
    human_moves = [r for r in records if r["event"] == "action" and r["player"] == 1]
    assert len(prompts) == len(human_moves) > 0
    assert all(p.startswith("player 1, ") for p in prompts)
    assert "Decision:" in out and "1. " in out and "starting leaf x" in out  # identical cards grouped
    assert records[-1]["event"] == "end" and "final result" in out
    state = replay(load_game(FROG_TOWER), 2, 4, [(r["player"] - 1, r["action"]) for r in records
                                                  if r["event"] == "action"])
    assert records[-1]["winners"] == [w + 1 for w in state.winners()]


def test_invalid_human_answer_is_asked_again(capsys, monkeypatch):
    prompts = answers(monkeypatch, ["banana", "0", "99", "", "1"], then=None)
    code, out, _ = run(capsys, "play", FROG_TOWER, "--players", "2", "--human", "1", "--seed", "4", "--log", "-")
    assert code == 130  # the input ran out at the second decision
    assert out.count("Please answer with a number from 1 to 2 (or an option's text; ? explains the decision, "
                     "info NAME shows a card).") == 4
    assert prompts[0] == prompts[1] == prompts[2] == prompts[3] == prompts[4] == "player 1, choose [1-2]: "
    assert len(prompts) == 6


def test_human_may_answer_with_the_option_text(capsys, monkeypatch, tmp_path):
    answers(monkeypatch, ["Stop And Take The Cards"], then=None)
    log_path = tmp_path / "g.jsonl"
    code, _, _ = run(capsys, "play", FROG_TOWER, "--players", "2", "--human", "1", "--seed", "4", "--log", log_path)
    first = next(r for r in read_log(log_path) if r["event"] == "action")
    assert code == 130 and first == {"event": "action", "turn": 1, "player": 1, "action": "stop and take the cards"}


def test_end_of_input_stops_the_game_with_status_130_and_marks_the_log(capsys, monkeypatch, tmp_path):
    def no_more_input(prompt=""):
        raise EOFError
    monkeypatch.setattr(builtins, "input", no_more_input)
    log_path = tmp_path / "g.jsonl"
    code, _, err = run(capsys, "play", FROG_TOWER, "--players", "2", "--human", "1", "--seed", "4",
                       "--log", log_path)
    assert code == 130 and "Interrupted." in err and "Traceback" not in err
    assert read_log(log_path)[-1] == {"event": "interrupted", "decisions": 0, "seed": 4}


def test_human_view_shows_board_spaces_hidden_counts_and_hides_secret_choices(capsys, monkeypatch, ring_game):
    answers(monkeypatch, [])
    code, out, _ = run(capsys, "play", ring_game, "--players", "2", "--human", "2", "--seed", "1", "--log", "-")
    assert code == 0
    assert "Board" in out and "north" in out and "west" in out
    assert "Under the table: deck: 4 cards" in out  # the deck: hidden, so under the table by default, counted
    assert "3 cards (hidden)" in out  # the other player's hand
    assert "player 1: (a secret choice)" in out
    assert "Player 1 wins. (the rules ended the game with `end game`)" in out


def test_a_rule_that_runs_forever_stops_play_with_exit_2_and_the_log_keeps_the_failed_action(
        capsys, monkeypatch, tmp_path):
    stuck, log_path = tmp_path / "stuck.yaml", tmp_path / "stuck.jsonl"
    stuck.write_text(STUCK_GAME)
    answers(monkeypatch, ["spin"])
    code, _, err = run(capsys, "play", stuck, "--players", "2", "--human", "1", "--seed", "1", "--log", log_path)
    assert code == 2 and "Traceback" not in err
    assert err.startswith(f"{stuck}:14:9: procedures.turn(player p): ")  # the `loop:`
    failure = read_log(log_path)[-1]
    assert (failure["event"], failure["player"], failure["action"]) == ("error", 1, "spin")
    assert failure["message"] == err.rstrip("\n")


def test_simulate_names_the_seed_of_a_game_that_fails(capsys, tmp_path):
    stuck = tmp_path / "stuck.yaml"
    stuck.write_text(STUCK_GAME)
    code, _, err = run(capsys, "simulate", stuck, "--players", "2", "--games", "50", "--seed", "7")
    assert code == 2 and "Traceback" not in err
    assert "of the run (seed " in err and "--players 2 --seed " in err and "this loop ran too long" in err


# ---------------------------------------------------------------- simulate
def test_simulate_prints_win_shares_scores_and_game_length(capsys):
    code, out, _ = run(capsys, "simulate", FROG_TOWER, "--players", "3", "--games", "20", "--seed", "3")
    assert code == 0
    assert "Frog Tower: 20 games, 3 players" in out
    for heading in ("win share", "score mean", "median", "decisions", "turns", "How the games ended",
                    "ended by an `end game` statement", "finished with no winner", "shared victory"):
        assert heading in out
    assert all(f"player {seat}" in out for seat in (1, 2, 3))


def test_simulate_statistics_do_not_depend_on_the_number_of_jobs(capsys, tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    common = ["simulate", FROG_TOWER, "--players", "3", "--games", "20", "--seed", "3"]
    assert run(capsys, *common, "--json", one)[0] == 0
    assert run(capsys, *common, "--jobs", "2", "--json", two)[0] == 0
    assert json.loads(one.read_text()) == json.loads(two.read_text())


def test_simulate_statistics_are_internally_consistent(capsys):
    code, out, _ = run(capsys, "simulate", FROG_TOWER, "--players", "3", "--games", "20", "--seed", "3",
                       "--json", "-")
    report = json.loads(out)
    assert code == 0 and report["games"] == 20 and report["seed"] == 3
    assert sum(Fraction(seat["wins"]) for seat in report["seats"]) == 20 - report["ended_by"]["decision_cap"]["games"]
    assert sum(seat["win_share"] for seat in report["seats"]) == pytest.approx(1.0)
    for tally in [seat["score"] for seat in report["seats"]] + [report["decisions"], report["turns"]]:
        histogram = {int(k): v for k, v in tally["histogram"].items()}
        assert sum(histogram.values()) == 20
        assert tally["mean"] == pytest.approx(sum(k * v for k, v in histogram.items()) / 20)
        assert tally["min"] == min(histogram) <= tally["median"] <= tally["max"] == max(histogram)
    assert sum(ending["games"] for ending in report["ended_by"].values()) == 20
    assert report["max_decisions"] == 10_000


def test_simulated_game_i_is_dealt_with_seed_plus_i_whatever_the_chunking():
    game = load_game(FROG_TOWER)
    whole = run_chunk(game, 3, 11, 0, 6)
    parts = run_chunk(game, 3, 11, 0, 2)
    parts.merge(run_chunk(game, 3, 11, 2, 6))
    assert whole.to_json() == parts.to_json()
    assert whole.decisions.count == 6
    assert play_bot_game(game, 3, 11, 4).seed == 15


def test_simulated_game_i_is_the_game_that_play_shows_with_seed_s_plus_i(capsys, tmp_path):
    log_path = tmp_path / "g.jsonl"
    assert run(capsys, "play", FROG_TOWER, "--players", "3", "--seed", "15", "--log", log_path)[0] == 0
    played = [[r["player"] - 1, r["action"]] for r in read_log(log_path) if r["event"] == "action"]
    assert play_bot_game(load_game(FROG_TOWER), 3, 11, 4).history == played


def test_shared_victories_count_as_fractions_of_a_win():
    stats = SimStats(3)

    class Finished:  # the parts of a finished state that statistics read
        history = [[0, "a"]] * 4
        gv = {"turn": 2}
        ended_by = "flow"

        def winners(self):
            return [0, 2]

        def scores(self):
            return [5, 1, 5]
    stats.record(Finished())
    assert stats.win_shares == [Fraction(1, 2), 0, Fraction(1, 2)]
    assert stats.shared_victories == 1 and stats.endings == {"end_game": 0, "flow": 1, "decision_cap": 0}


def test_tally_median_is_the_middle_value_or_the_mean_of_the_two_middle_values():
    odd, even = Tally(), Tally()
    for value in (3, 1, 2):
        odd.add(value)
    for value in (7, 1, 5, 1):
        even.add(value)
    assert (odd.median, odd.mean, odd.minimum, odd.maximum) == (2, 2, 1, 3)
    assert (even.median, even.mean, even.histogram) == (3, 3.5, {7: 1, 1: 2, 5: 1})


# ---------------------------------------------------------------- agents and rendering helpers
def test_random_agent_with_the_same_seed_makes_the_same_choices():
    options = [f"option {i}" for i in range(10)]
    first, second = RandomAgent(42), RandomAgent(42)
    picks = [first.choose(None, options) for _ in range(20)]
    assert picks == [second.choose(None, options) for _ in range(20)]
    assert set(picks) <= set(options) and len(set(picks)) > 1


def test_make_agent_builds_registered_bots_and_names_the_known_ones_otherwise():
    assert isinstance(make_agent("random", 1), RandomAgent)
    with pytest.raises(UnknownAgentError, match=r"unknown bot 'alphazero'; the bots are: greedy, ismcts, mcts, random"):
        make_agent("alphazero", 1)


def test_identical_card_names_are_grouped_in_order_of_first_appearance():
    assert describe_cards(["leaf", "green frog", "leaf", "leaf"]) == "leaf x3, green frog"
    assert describe_cards([]) == "empty"


# ---------------------------------------------------------------- taking a decision back at the terminal
def test_undo_at_the_prompt_takes_back_one_s_own_last_decision_while_it_is_fair_and_the_log_replays(
        capsys, monkeypatch, tmp_path):
    from interpreter.log_replay import read_log as read_game_log

    game = str(Path(__file__).resolve().parents[1] / "definitions" / "undo.yaml")
    # player 1 waits, takes it back, looks at the deck's top card (shown to them alone), tries to take that
    # back (refused), and the game goes on; player 2 is a bot.
    prompts = answers(monkeypatch, ["2", "undo", "1", "undo"])
    log_path = tmp_path / "g.jsonl"
    code, out, err = run(capsys, "play", game, "--players", "2", "--human", "1", "--seed", "3", "--log", log_path)
    assert code == 0 and "Traceback" not in err
    assert "(undo: take back your last decision)" in out.split("took back")[0]  # offered after waiting
    assert "player 1 took back their last decision (decide wait)." in out
    assert "The last decision of seat 1 cannot be taken back: it showed them a card they had not seen." in out
    between = out.split("took back their last decision")[1].split("cannot be taken back")[0]
    assert "(undo:" not in between  # not offered after the first look: it showed a card
    records = read_log(log_path)
    assert [r["player"] for r in records if r["event"] == "undo"] == [1]
    actions = [r for r in records if r["event"] == "action"]
    assert [a["action"] for a in actions[:3]] == ["decide wait", "decide look", actions[2]["action"]]
    log = read_game_log(log_path)
    assert len(log.actions) == len(actions) - 1  # the decision taken back is not part of the game
    state = replay(load_game(game), 2, 3, [(a.player, a.action) for a in log.actions])
    assert state.is_terminal() and state.history[0] == [0, "decide look"]
    assert records[-1]["scores"] == state.scores()


def test_undo_at_a_prompt_never_takes_back_another_player_s_decision(capsys, monkeypatch, tmp_path):
    selection = str(Path(__file__).resolve().parents[1] / "definitions" / "selection.yaml")
    prompts = answers(monkeypatch, ["1", "undo"])  # player 1 picks; at player 2's prompt, undo
    code, out, _ = run(capsys, "play", selection, "--players", "2", "--human", "1", "--human", "2", "--seed", "3",
                       "--log", "-")
    assert code == 0 and "took back" not in out and "(undo:" not in out
    assert "Seat 2 cannot take back a decision: the last one was seat 1's" in out
    assert [p.split(",")[0] for p in prompts[:3]] == ["player 1", "player 2", "player 2"]


@pytest.mark.parametrize("seat, line", [(0, "waiting for player 1 (you), player 2, player 3"),
                                        (2, "waiting for player 1, player 2, player 3 (you)"),
                                        (None, "waiting for player 1, player 2, player 3")])
def test_a_decision_marks_you_beside_your_own_seat_among_those_it_waits_for(seat, line):
    # "waiting for player 1, player 2, player 3 (you)" read as if seat 3 were you, whichever seat you held.
    import io
    from rich.console import Console
    console = Console(width=120, record=True, file=io.StringIO())
    render_decision(console, {"prompt": "bid", "waiting_for": [0, 1, 2]}, seat)
    assert console.export_text().splitlines()[0] == f"Decision: bid - {line}"


@pytest.mark.parametrize("until, says", [
    ("false", "the phase never ends by itself (`until: false`): an effect ends the game with `end game`"),
    (None, "the phase never ends by itself: an effect ends the game with `end game`"),
    ("true", "the phase ends after its first turn (`until: true`)"),
    ("game.turn >= 4", "the phase ends when game.turn >= 4 (after each turn)")])
def test_rules_summary_says_when_a_phase_ends_in_the_words_of_the_rules(capsys, tmp_path, until, says):
    # `until: false` read as YAML is Python's False: the summary printed "the phase ends when False".
    text = Path(CRAZY_EIGHTS).read_text()
    assert "    until: false " in text
    path = tmp_path / "crazy.yaml"
    path.write_text(text.replace("    until: false ", "" if until is None else f"    until: {until} "))
    code, out, _ = run(capsys, "rules", str(path))
    assert code == 0
    flow = " ".join(out[out.index("Flow (1 phase)"):out.index("The game ends when")].split())
    assert says in flow and "False" not in flow and "True" not in flow
