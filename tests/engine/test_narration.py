"""Narration has an audience: no player (nor a spectator) reads in the log what their view would not show.

The secrecy property is the views' one, carried over to narration: when a line is written, permuting the
cards a player cannot see (by the zones' visibility rules, worked out here independently of the engine)
must not change the text that player receives.  It is checked on every line of random games of every
shipped game and variant, and of the test-only game ``tests/definitions/narration.yaml``.
"""

from __future__ import annotations

import builtins
import json
import random

import pytest

from conftest import REPO_ROOT
from interpreter import DefinitionError, RuleError, SaveFileError, State, load_game
from interpreter.cli import main
from interpreter.runtime.visibility import Line, Part
from invariants import check_cards, random_playout, seen_cards, with_cards_permuted
from test_conformance import SWEEP_CONFIGURATIONS as CONFIGURATIONS, shipped_game

WHISPERS = REPO_ROOT / "tests" / "definitions" / "narration.yaml"


@pytest.fixture(scope="module")
def whispers():
    return load_game(WHISPERS)


def two_turns(game):
    """Whispers for 2 after both players played once (cards are not shuffled: the deck's last card is drawn first)."""
    state = game.new_game(2, 0)
    state.apply(0, "play mantis")
    state.apply(1, "play earwig")
    return state


# ==================================================================== exact texts per audience
OMNISCIENT = [
    "8 cards wait in the deck; mantis is on top.",
    "player 1 draws firefly.", "It is yellow.", "You drew firefly (6).", "player 1 adds 6 to a private tally.",
    "player 1 has a tally of 6 and 2 cards in hand.",
    "player 1 plays mantis; mantis shows on the discard pile.", "0 of the same colour stay in player 1's hand.",
    "player 2 draws earwig.", "It is red.", "You drew earwig (5).", "player 2 adds 5 to a private tally.",
    "player 2 has a tally of 5 and 2 cards in hand.",
    "player 2 plays earwig; earwig shows on the discard pile.", "0 of the same colour stay in player 2's hand.",
    "player 1 draws dragonfly.", "It is blue.", "You drew dragonfly (4).", "player 1 adds 4 to a private tally.",
    "player 1 has a tally of 10 and 2 cards in hand.",
]
HIDDEN_TURN = ["player {p} draws a card.", "It is (hidden).", "player {p} adds (hidden) to a private tally.",
               "player {p} has a tally of (hidden) and 2 cards in hand."]


def hidden_turn(p):
    return [line.format(p=p) for line in HIDDEN_TURN]


def test_state_log_stays_the_omniscient_narration(whispers):
    assert two_turns(whispers).log == OMNISCIENT


def test_each_player_reads_their_own_cards_and_private_lines_and_nobody_elses(whispers):
    state = two_turns(whispers)
    assert state.narration(0) == [
        "8 cards wait in the deck; a card is on top.",
        *OMNISCIENT[1:8],
        *hidden_turn(2),
        "player 2 plays earwig; earwig shows on the discard pile.",  # on top of the discard pile: seen by all
        "(hidden) of the same colour stay in player 2's hand.",
        *OMNISCIENT[15:],
    ]
    assert state.narration(1) == [
        "8 cards wait in the deck; a card is on top.",
        *hidden_turn(1),
        "player 1 plays mantis; mantis shows on the discard pile.",
        "(hidden) of the same colour stay in player 1's hand.",
        *OMNISCIENT[8:15],
        *hidden_turn(1),
    ]


def test_a_spectator_reads_no_hidden_card_and_no_private_line(whispers):
    assert two_turns(whispers).narration(None) == [
        "8 cards wait in the deck; a card is on top.",
        *hidden_turn(1),
        "player 1 plays mantis; mantis shows on the discard pile.",
        "(hidden) of the same colour stay in player 1's hand.",
        *hidden_turn(2),
        "player 2 plays earwig; earwig shows on the discard pile.",
        "(hidden) of the same colour stay in player 2's hand.",
        *hidden_turn(1),
    ]


def test_narration_can_be_read_from_a_line_on(whispers):
    state = two_turns(whispers)
    assert state.narration(0, since=15) == OMNISCIENT[15:]
    assert state.narration(1, since=15) == hidden_turn(1)


def test_narration_for_a_seat_that_does_not_exist_is_refused(whispers):
    from interpreter import IllegalActionError

    with pytest.raises(IllegalActionError, match="there is no player 2 in this 2-player game"):
        two_turns(whispers).narration(2)


def test_a_game_without_a_log_records_no_narration(whispers):
    state = whispers.new_game(2, 0, log=False)
    state.apply(0, "play mantis")
    assert state.log is None and state.log_seen == [] and state.narration(0) == []


def test_per_audience_narration_survives_a_save_and_a_clone(whispers):
    state = two_turns(whispers)
    loaded = State.from_json(whispers, json.loads(json.dumps(state.to_json())))
    copy = state.clone()
    for viewer in (0, 1, None):
        assert loaded.narration(viewer) == copy.narration(viewer) == state.narration(viewer)


def test_a_damaged_saved_narration_is_refused(whispers):
    data = json.loads(json.dumps(two_turns(whispers).to_json()))
    data["log_seen"][0][1] = ["too", "few"]
    with pytest.raises(SaveFileError, match="what each player read of the log differs"):
        State.from_json(whispers, data)


def log_game(tmp_path, line):
    text = WHISPERS.read_text().replace('    log "{p} adds {worth} to a private tally."\n', line)
    path = tmp_path / "game.yaml"
    path.write_text(text)
    return path


def test_a_log_text_that_draws_random_numbers_is_refused(tmp_path):
    with pytest.raises(DefinitionError, match=r"roll\(\) cannot be used in a log text"):
        load_game(log_game(tmp_path, '    log "{p} rolls {roll(6)}."\n'))


def test_a_log_text_that_shuffles_is_refused_like_any_random_number(tmp_path):
    # shuffled() draws from the game's random numbers as roll() does: which builtins draw is their
    # record's (dsl/builtins.py), so narration cannot miss one
    with pytest.raises(DefinitionError, match=r"shuffled\(\) cannot be used in a log text"):
        load_game(log_game(tmp_path, '    log "{p} names {first(shuffled(players))}."\n'))


def test_log_to_needs_players(tmp_path):
    with pytest.raises(DefinitionError, match="'log to' needs a player or a list of players, not a card"):
        load_game(log_game(tmp_path, '    log to card: "hello"\n'))


def test_log_to_a_list_of_players_reaches_exactly_them(tmp_path):
    game = load_game(log_game(tmp_path, '    log to [p, next_player(p)]: "{p} whispers {card}."\n'))
    state = game.new_game(3, 0)
    assert "player 1 whispers earwig." in state.narration(0) and "player 1 whispers earwig." in state.narration(1)
    assert not any("whispers" in line for line in state.narration(2) + state.narration(None))


# ==================================================================== the secrecy property
def unseen_cards(state, viewer) -> list[int]:
    """Cards in play the viewer cannot see (by the zones' visibility, 'show' and 'seen_by': ``seen_cards``)."""
    seen = seen_cards(state, viewer)
    return [card for cards in state.zones for card in cards if card not in seen]


def world_with_unseen_cards_permuted(state, viewer, rng) -> State:
    """A copy of the state where the cards ``viewer`` cannot see have swapped places among themselves."""
    return with_cards_permuted(state, unseen_cards(state, viewer), rng)[0]


def text_for(rendered, viewer, players):
    omniscient, seen = rendered
    return omniscient if seen is None else seen[players if viewer is None else viewer]


def check_lines_as_written(monkeypatch, rng, worlds=2):
    """Check every log line, when written, against worlds where each viewer's unseen cards are permuted."""
    write = Line.write
    checked = []

    def checked_write(self, s, e):
        if self.to is None:
            rendered = self.render(s, e)
            for viewer in s.players + [None]:
                text = text_for(rendered, viewer, s.n)
                for _ in range(worlds):
                    other = text_for(self.render(world_with_unseen_cards_permuted(s, viewer, rng), e), viewer, s.n)
                    assert other == text, f"the narration of {viewer} depends on cards they cannot see: " \
                                          f"{text!r} / {other!r}"
            checked.append(rendered[0])
        write(self, s, e)
    monkeypatch.setattr(Line, "write", checked_write)
    return checked


@pytest.mark.parametrize("stem, variants", CONFIGURATIONS,
                         ids=[stem + "".join(f"+{v}" for v in variants) for stem, variants in CONFIGURATIONS])
def test_narration_does_not_change_when_the_cards_a_player_cannot_see_are_permuted(monkeypatch, stem, variants):
    game = shipped_game(stem, variants)
    checked = check_lines_as_written(monkeypatch, random.Random(f"{stem}{variants}"))
    for players in range(game.min_players, game.max_players + 1):
        random_playout(game, players, players, checks=(check_cards,))
    assert checked  # the games do narrate


def test_test_game_narration_does_not_change_when_unseen_cards_are_permuted(monkeypatch, whispers):
    checked = check_lines_as_written(monkeypatch, random.Random(1))
    for seed in range(4):
        random_playout(whispers, 2 + seed % 2, seed, checks=(check_cards,))
    assert len(checked) > 50


def test_the_secrecy_check_catches_narration_that_shows_everything(monkeypatch, whispers):
    monkeypatch.setattr(Part, "audience", lambda self, s, e, table: [True] * (s.n + 1))
    check_lines_as_written(monkeypatch, random.Random(1), worlds=8)
    with pytest.raises(RuleError, match="depends on cards they cannot see"):  # the engine wraps the failure
        random_playout(whispers, 2, 0, checks=(check_cards,))


def test_shipped_narration_reads_the_same_for_every_seat():
    """Frog Tower and Kaeru only narrate cards already face up: every seat reads the whole story."""
    for stem in ("frog_tower", "kaeru"):
        game = shipped_game(stem, ())
        state = random_playout(game, 2, 3, checks=())
        assert state.log and state.log_seen == []
        assert all(state.narration(v) == state.log for v in (0, 1, None))


# ==================================================================== ribbit play
def feed(monkeypatch, reply="1"):
    monkeypatch.setattr(builtins, "input", lambda prompt="": reply)


def read_log(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def play(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def omniscient_only_lines(game, records):
    """Lines of the omniscient narration that seat 1 never reads (replayed from the log's actions)."""
    from interpreter import replay

    actions = [(r["player"] - 1, r["action"]) for r in records if r["event"] == "action"]
    state = replay(game, 2, 0, actions)
    return set(state.log) - set(state.narration(0)), state


def test_play_shows_a_human_only_their_own_narration(capsys, monkeypatch, tmp_path, whispers):
    feed(monkeypatch)
    path = tmp_path / "game.jsonl"
    out = play(capsys, "play", WHISPERS, "--players", "2", "--human", "1", "--seed", "0", "--log", path)
    records = read_log(path)
    secret, state = omniscient_only_lines(whispers, records)
    assert "player 2 draws earwig." in secret
    assert "It is (hidden)." in out and "player 2 draws a card." in out
    assert not [line for line in secret if line in out]
    assert records[0]["narration"] == "player 1"
    texts = [r["text"] for r in records if r["event"] == "log"]
    assert texts == state.narration(0) and not secret & set(texts)


def test_a_bot_game_log_records_what_each_seat_read(capsys, tmp_path, whispers):
    path = tmp_path / "game.jsonl"
    out = play(capsys, "play", WHISPERS, "--players", "2", "--seed", "0", "--log", path)
    records = read_log(path)
    assert records[0]["narration"] == "omniscient"
    lines = [r for r in records if r["event"] == "log"]
    assert "player 1 draws firefly." in out  # a demo shows the omniscient story
    assert lines[1] == {"event": "log", "turn": 1, "text": "player 1 draws firefly.",
                        "seen": {"player 1": "player 1 draws firefly.", "player 2": "player 1 draws a card.",
                                 "spectator": "player 1 draws a card."}}
    assert lines[3]["seen"] == {"player 1": "You drew firefly (6).", "player 2": None, "spectator": None}
    assert lines[0]["seen"]["spectator"] == "8 cards wait in the deck; a card is on top."


def test_log_omniscient_keeps_every_seat_s_narration_when_a_human_plays(capsys, monkeypatch, tmp_path):
    feed(monkeypatch)
    path = tmp_path / "game.jsonl"
    play(capsys, "play", WHISPERS, "--players", "2", "--human", "1", "--seed", "0", "--log", path,
         "--log-omniscient")
    records = read_log(path)
    assert records[0]["narration"] == "omniscient"
    assert any(r.get("text") == "player 2 draws earwig." for r in records)


def test_humans_sharing_the_screen_read_the_spectator_narration(capsys, monkeypatch, tmp_path):
    feed(monkeypatch)
    path = tmp_path / "game.jsonl"
    out = play(capsys, "play", WHISPERS, "--players", "2", "--human", "1", "--human", "2", "--seed", "0",
               "--log", path)
    assert "player 1 draws a card." in out and "player 1 draws firefly." not in out
    assert "You drew" not in out
    assert read_log(path)[0]["narration"] == "spectator"


def test_validating_many_log_lines_in_one_procedure_takes_linear_time(tmp_path):
    """What a procedure's locals are assigned is worked out once per body, not once per log line."""
    import time

    from interpreter.cli import main

    def definition(count: int):
        lines = "\n".join(f'    log "line {{game.x + {i}}}"' for i in range(count))
        path = tmp_path / f"lines{count}.yaml"
        path.write_text("game: Many\nplayers: {min: 2, max: 2}\nzones:\n  deck: {}\ngame_variables:\n  x: 0\n"
                        f"procedures:\n  turn(player p): |\n{lines}\nflow:\n  - turn: turn\n"
                        "    until: game.turn >= 2\n", encoding="utf-8")
        return str(path)

    import gc

    timings = []
    gc.disable()  # the work's growth is measured, not the collector's scans of the suite's whole heap
    try:
        for count in (250, 1000):
            path = definition(count)
            best = float("inf")
            for _ in range(3):  # the best of three: a busy machine slows one run, not all alike
                started = time.perf_counter()
                assert main(["validate", path]) == 0
                best = min(best, time.perf_counter() - started)
            timings.append(best)
    finally:
        gc.enable()
    assert timings[1] / timings[0] < 8  # 4 times the lines: about 4 times the time, not 16


def test_a_person_playing_sees_a_drawn_seed_only_when_the_game_ends(capsys, monkeypatch, tmp_path):
    """Whoever knows the seed can recompute the deal, so neither the screen nor the log shows it during play."""
    feed(monkeypatch)
    monkeypatch.setattr(random.SystemRandom, "randrange", lambda self, n: 424242)
    monkeypatch.chdir(tmp_path)
    out = play(capsys, "play", WHISPERS, "--players", "2", "--human", "1")
    before_end, _, after_end = out.partition("game over")
    assert "424242" not in before_end and "seed shown when the game ends" in before_end
    assert "The seed was 424242." in after_end
    [path] = tmp_path.glob("ribbit-*.jsonl")
    records = read_log(path)
    assert "424242" not in path.name and records[0]["seed"] is None and records[-1]["seed"] == 424242
    assert not any("424242" in json.dumps(r) for r in records[:-1])


def test_a_seed_given_on_the_command_line_is_shown_from_the_start(capsys, monkeypatch, tmp_path):
    feed(monkeypatch)
    out = play(capsys, "play", WHISPERS, "--players", "2", "--human", "1", "--seed", "7", "--log", tmp_path / "l")
    assert "), seed 7; log: " in out.splitlines()[0]
