"""The trace: every card move, shuffle, decision (automatic ones marked), event, variable change and log line,
each saying what it reveals to whom; scenario files that load a hand-built position.

The secrecy property is narration's (see test_narration.py), carried over to the trace: when a move or an
event is recorded, recording it again in a world where the cards a reader cannot see are permuted gives
that reader the same record.  It is checked on random games of every shipped game and variant.
"""

from __future__ import annotations

import json
import random

import pytest

from conftest import REPO_ROOT
from interpreter import DefinitionError, State, load_game, load_scenario
from interpreter import trace as TR
from interpreter.cli import main
from invariants import random_playout, seen_cards, with_cards_permuted
from test_conformance import SWEEP_CONFIGURATIONS as CONFIGURATIONS, shipped_game

WHISPERS = REPO_ROOT / "tests" / "definitions" / "narration.yaml"
FROG_TOWER = REPO_ROOT / "definitions" / "frog_tower.yaml"


@pytest.fixture(scope="module")
def whispers():
    return load_game(WHISPERS)


@pytest.fixture(scope="module")
def frog_tower():
    return load_game(FROG_TOWER)


def whispers_first_turn(game):
    state = game.new_game(2, 0, trace=True)
    state.apply(0, "play mantis")
    return state


# ==================================================================== what is recorded
def test_a_game_without_trace_records_nothing_and_reads_an_empty_trace(whispers):
    state = whispers.new_game(2, 0)
    assert state.trace is None and state.trace_for(0) == [] and state.trace_for(None) == []


def test_each_move_is_recorded_with_the_seats_that_see_the_card(whispers):
    state = whispers_first_turn(whispers)
    moves = [r for r in state.trace if r["type"] == "move"]
    assert moves[:4] == [
        {"type": "move", "card": "mantis", "from": "deck", "to": "hand(1)", "at": "top", "seen_by": {"card": [1]}},
        {"type": "move", "card": "hornet", "from": "deck", "to": "hand(2)", "at": "top", "seen_by": {"card": [2]}},
        {"type": "move", "card": "firefly", "from": "deck", "to": "hand(1)", "at": "top", "seen_by": {"card": [1]}},
        {"type": "move", "card": "mantis", "from": "hand(1)", "to": "discard", "at": "top"},  # face up: public
    ]


def test_a_reader_who_cannot_see_a_moved_card_reads_a_card(whispers):
    state = whispers_first_turn(whispers)
    draws = [[r["card"] for r in state.trace_for(viewer) if r["type"] == "move" and r["from"] == "deck"]
             for viewer in (0, 1, None)]
    assert draws == [["mantis", "a card", "firefly", "a card"], ["a card", "hornet", "a card", "earwig"], ["a card"] * 4]


def test_a_private_variable_change_reaches_only_its_owner(whispers):
    state = whispers_first_turn(whispers)
    change = {"type": "variable", "name": "tally", "player": 1, "old": 0, "new": 6}
    assert {**change, "for": [1]} in state.trace
    assert change in state.trace_for(0)
    assert not [r for r in state.trace_for(1) + state.trace_for(None) if r.get("name") == "tally" and r["player"] == 1]


def test_game_variable_changes_are_recorded_with_old_and_new_values(whispers):
    state = whispers_first_turn(whispers)
    changes = [r for r in state.trace if r["type"] == "variable" and "player" not in r]
    assert changes == [{"type": "variable", "name": "turn", "old": 0, "new": 1},
                       {"type": "variable", "name": "active", "old": 1, "new": 2},  # players read as seats
                       {"type": "variable", "name": "turn", "old": 1, "new": 2}]


def test_a_decision_is_recorded_and_its_hidden_card_is_secret_to_the_others(whispers):
    state = whispers_first_turn(whispers)
    decision = {"type": "decision", "player": 1, "prompt": "play", "options": 2, "chosen": "play mantis",
                "automatic": False}
    assert {**decision, "seen_by": {"chosen": [1]}} in state.trace
    assert decision in state.trace_for(0)
    assert {**decision, "chosen": "(secret)"} in state.trace_for(1)


def test_log_lines_are_in_the_trace_as_each_reader_reads_them(whispers):
    state = whispers_first_turn(whispers)
    for viewer in (0, 1, None):
        assert [r["text"] for r in state.trace_for(viewer) if r["type"] == "log"] == state.narration(viewer)


def test_a_decision_with_one_option_is_taken_automatically_and_recorded_as_such(frog_tower):
    """Two players: after a bust the opponent takes, then discards; one card left to discard is no choice."""
    state = frog_tower.new_game(2, 0, trace=True, scenario={"on_top": {"pond": ["blue frog", "red frog", "red frog"]}})
    state.apply(0, "flip another card")  # red frog: no bust yet
    state.apply(0, "flip another card")  # red frog again: bust
    state.apply(1, "take blue frog")
    decisions = [r for r in state.trace if r["type"] == "decision"]
    assert decisions[-3:] == [
        {"type": "decision", "player": 2, "prompt": "take", "options": 2, "chosen": "take blue frog",
         "automatic": False},
        {"type": "decision", "player": 2, "prompt": "discard", "options": 1, "chosen": "discard red frog",
         "automatic": True},  # two red frogs are one option
        {"type": "decision", "player": 1, "prompt": "take", "options": 1, "chosen": "take red frog",
         "automatic": True}]
    assert decisions[-1] in state.trace_for(1)  # the holding area is public


def test_shuffles_and_events_are_recorded(frog_tower):
    state = frog_tower.new_game(2, 5, trace=True)
    assert state.trace[0] == {"type": "shuffle", "zone": "pond", "cards": 75}
    flip = next(r for r in state.trace if r["type"] == "event")
    card = state.zones[frog_tower.zone_index("holding")][0]
    assert flip == {"type": "event", "name": "flipped", "args": {"card": frog_tower.card_names[card], "player": 1}}


def test_an_event_nobody_handles_is_traced_without_changing_the_game(tmp_path):
    path = tmp_path / "quiet.yaml"
    path.write_text("""game: Quiet
players: {min: 1, max: 1}
components:
  - {name: pebble, zone: bag}
zones:
  bag: {visibility: hidden}
  table: {visibility: public}
events:
  drawn: {card: card, roll: int}
procedures:
  take_turn(player p): |
    emit drawn(card=top(bag), roll=roll(6))
    ask p:
      "draw":
        move top(bag) to table
        emit drawn(card=top(table), roll=roll(6))
      "wait":
        pass
flow:
  - phase: play
    turn: take_turn
    until: size(bag) == 0
""", encoding="utf-8")
    game = load_game(path)
    traced, plain = game.new_game(1, 3, trace=True), game.new_game(1, 3)
    for state in (traced, plain):
        state.apply(0, "draw")
    assert traced.rng == plain.rng and traced.zones == plain.zones
    events = [r for r in traced.trace if r["type"] == "event"]
    assert [e["args"]["card"] for e in events] == ["pebble", "pebble"]
    assert [e["args"]["card"] for e in traced.trace_for(0) if e["type"] == "event"] == ["a card", "pebble"]


# ==================================================================== tracing changes nothing
@pytest.mark.parametrize("stem, variants", CONFIGURATIONS,
                         ids=[stem + "".join(f"+{v}" for v in variants) for stem, variants in CONFIGURATIONS])
def test_a_traced_game_plays_exactly_as_an_untraced_one(stem, variants):
    game = shipped_game(stem, variants)
    for players in (game.min_players, game.max_players):
        plain = random_playout(game, players, players, checks=())
        traced = game.new_game(players, players, trace=True)
        for player, action in plain.history:
            traced.apply(player, action)
        assert traced.to_json() == plain.to_json()
        assert traced.is_terminal() and traced.trace and traced.clone().trace == traced.trace


def test_a_rewound_action_rewinds_the_trace(whispers):
    """An action whose rules fail is undone by replaying the game: with its trace switched on."""
    state = whispers.new_game(2, 0, trace=True)
    before = list(state.trace)
    state.apply(0, "play mantis")
    assert len(state.trace) > len(before)
    state._rewind()
    assert state.trace == before


# ==================================================================== the secrecy property
def shows(g, zone, on_top, viewer, state=None) -> bool:
    """Does the zone show the viewer this card (the rules ``view`` documents, written out independently)?
    With ``state``, also the top card of a zone whose ``seen_by`` holds for the viewer."""
    vis, owner = g.zone_spec[zone].visibility, g.zone_owner[zone]
    if vis == "public" or (vis == "owner" and viewer is not None and owner == viewer) or (vis == "top" and on_top):
        return True
    watch = g.seen_zone[zone] if state is not None and g.seen_zone is not None else None
    return bool(watch and on_top and viewer is not None and watch[1](state.clone(), {"p": viewer}))


def permuted(state, viewer, keep, rng):
    """A copy of ``state`` where the cards ``viewer`` cannot see (but those in ``keep``) swapped places."""
    seen = seen_cards(state, viewer)
    unseen = [c for cards in state.zones for c in cards if c not in keep and c not in seen]
    return with_cards_permuted(state, unseen, rng)


def recorded(state, record, args, viewer):
    """What ``viewer`` reads of one record made on a copy of ``state``."""
    copy = state.clone()
    copy.trace, copy.trace_vars = [], TR._snapshot(copy)
    record(copy, *args)
    return copy.trace_for(viewer)


def check_records_as_made(monkeypatch, rng, worlds=2):
    moved, emitted, checked = TR.moved, TR.emitted, []

    def checked_moved(s, cards, src, top, dest, bottom):
        g = s.game
        for viewer in s.players + [None]:
            seen_before = {c for c in cards if src >= 0 and (shows(g, src, c == top, viewer, s)
                                                            or viewer in s.shown.get(c, ()))}
            real = recorded(s, moved, (cards, src, top, dest, bottom), viewer)
            for _ in range(worlds):
                world, sigma = permuted(s, viewer, seen_before, rng)
                other = recorded(world, moved, ([sigma.get(c, c) for c in cards], src, sigma.get(top, top), dest,
                                                bottom), viewer)
                assert other == real, f"the trace of {viewer} depends on cards they cannot see: {real} / {other}"
        checked.append(cards)
        moved(s, cards, src, top, dest, bottom)

    def checked_emitted(s, name, kinds, env):
        for viewer in s.players + [None]:
            real = recorded(s, emitted, (name, kinds, env), viewer)
            for _ in range(worlds):
                world, sigma = permuted(s, viewer, (), rng)
                mapped = None if env is None else {k: [sigma.get(c, c) for c in v] if kind == "list:card" else
                                                   sigma.get(v, v) if kind == "card" else v
                                                   for (k, kind), v in zip(kinds, (env[k] for k, _ in kinds))}
                other = recorded(world, emitted, (name, kinds, mapped), viewer)
                assert other == real, f"the trace of {viewer} depends on cards they cannot see: {real} / {other}"
        emitted(s, name, kinds, env)

    monkeypatch.setattr(TR, "moved", checked_moved)
    monkeypatch.setattr(TR, "emitted", checked_emitted)
    start = State.start
    monkeypatch.setattr(State, "start", classmethod(lambda cls, game, players, seed, log=True, scenario=None,
                                                    trace=False, source=None, chance=False:
                                                    start.__func__(cls, game, players, seed, log, scenario, True,
                                                                   source, chance)))
    return checked


@pytest.mark.parametrize("stem, variants", CONFIGURATIONS,
                         ids=[stem + "".join(f"+{v}" for v in variants) for stem, variants in CONFIGURATIONS])
def test_a_trace_does_not_change_when_the_cards_a_reader_cannot_see_are_permuted(monkeypatch, stem, variants):
    game = shipped_game(stem, variants)
    checked = check_records_as_made(monkeypatch, random.Random(f"{stem}{variants}"), worlds=1)
    random_playout(game, game.min_players, 1, checks=())
    assert checked


def test_test_game_trace_does_not_change_when_unseen_cards_are_permuted(monkeypatch, whispers):
    checked = check_records_as_made(monkeypatch, random.Random(1))
    for seed in range(3):
        random_playout(whispers, 2 + seed % 2, seed, checks=())
    assert len(checked) > 10


def test_the_secrecy_check_catches_a_trace_that_shows_every_card(monkeypatch, whispers):
    monkeypatch.setattr(TR, "_audience", lambda s, sees: None)  # everyone reads everything
    check_records_as_made(monkeypatch, random.Random(1), worlds=8)
    with pytest.raises(Exception, match="depends on cards they cannot see"):
        random_playout(whispers, 2, 0, checks=())


# ==================================================================== scenario files
def write(tmp_path, text, name="position.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_scenario_file_lays_out_the_position(tmp_path, frog_tower):
    path = write(tmp_path, "on_top:\n  pond: [red frog, blue frog]\nplayer_variables:\n  '2': {points: 3}\n")
    state = frog_tower.new_game(2, 0, scenario=load_scenario(path))
    assert state.view(None)["zones"]["holding"]["cards"] == ["red frog"]  # seat 1 flipped the top card
    assert state.pv["points"] == [0, 3] and state.current_players() == [0]
    assert state.scenario == {"on_top": {"pond": ["red frog", "blue frog"]}, "player_variables": {"2": {"points": 3}}}


def test_a_scenario_says_whose_turn_comes_first(tmp_path, frog_tower):
    path = write(tmp_path, "first_player: 2\non_top:\n  pond: [red frog, blue frog, green frog]\n")
    state = frog_tower.new_game(3, 0, scenario=load_scenario(path))
    assert state.current_players() == [1] and state.gv["active"] == 1  # seat 2 flipped the red frog
    assert state.view(None)["zones"]["holding"]["cards"] == ["red frog"]
    state.apply(1, "stop and take the cards")
    assert state.current_players() == [2]  # then the turn order goes on from there
    again = State.from_json(frog_tower, json.loads(json.dumps(state.to_json())))  # a save replays it alike
    assert again.current_players() == [2] and again.gv["active"] == 2


TRICKS = REPO_ROOT / "tests" / "definitions" / "tricks.yaml"


def test_a_scenario_writes_a_player_variable_as_a_seat_from_1_and_a_card_variable_as_a_card_name(tmp_path):
    """As everywhere in a scenario (player_variables' keys, first_player), seats count from 1, and a card is its
    name: 'leader: 1' gave the lead to seat 2 (a 0-based number), and a card variable took an internal card id."""
    game = load_game(TRICKS)
    path = write(tmp_path, "game_variables:\n  leader: 3\nplayer_variables:\n  '1': {played: 2 of suns}\n"
                           "zones:\n  hand(3): [1 of suns, 4 of moons]\n")
    state = game.new_game(3, 0, scenario=load_scenario(path))
    assert state.current_players() == [2] and state.legal_actions(2) == ["play 1 of suns", "play 4 of moons"]
    assert state.gv["leader"] == 2 and game.card_names[state.pv["played"][0]] == "2 of suns"


@pytest.mark.parametrize("text, message", [
    ("game_variables:\n  leader: 0\n", ":2:11: game_variables.leader: scenario: game variable 'leader' holds a player "
                                       "(its seat, from 1 to 3), not 0"),
    ("game_variables:\n  leader: '1'\n", ":2:11: game_variables.leader: scenario: game variable 'leader' holds a "
                                         "player (its seat, from 1 to 3), not '1'"),
    ("player_variables:\n  '2': {played: 9 of suns}\n", ":2:17: player_variables.2.played: scenario: player variable "
                                                         "'played' of seat 2 holds a card (its name), not '9 of suns'"),
    ("player_variables:\n  '2': {played: 4}\n", ":2:17: player_variables.2.played: scenario: player variable 'played' "
                                                 "of seat 2 holds a card (its name), not 4"),
])
def test_a_scenario_player_or_card_variable_of_another_form_is_refused_saying_how_to_write_it(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(DefinitionError) as caught:
        load_game(TRICKS).new_game(3, 0, scenario=load_scenario(path))
    assert str(caught.value).startswith(str(path) + message)


def test_a_scenario_first_player_in_a_game_without_a_phase_of_turns_is_refused_at_its_line(tmp_path):
    """In a flow of rounds only no turn starts with a first player: the key was taken and did nothing."""
    rounds_only = tmp_path / "rounds_only.yaml"
    rounds_only.write_text("game: Rounds Only\nplayers: {min: 2, max: 2}\ncomponents:\n  - {name: chip, zone: pile}\n"
                           "zones:\n  pile: {visibility: public}\nprocedures:\n  tick(): |\n"
                           "    ask each q in players secretly to choose one of [\"a\", \"b\"] as pick \"say\"\n"
                           "flow:\n  - phase: ticks\n    round: [tick]\n    until: game.round >= 2\n"
                           "scoring:\n  score: 0\n", encoding="utf-8")
    path = write(tmp_path, "first_player: 2\n")
    with pytest.raises(DefinitionError) as caught:
        load_game(rounds_only).new_game(2, 0, scenario=load_scenario(path))
    assert str(caught.value).startswith(
        f"{path}:1:15: first_player: scenario first_player: the flow of 'Rounds Only' has no phase of turns, so no "
        "turn starts with a first player (every player acts in a round: the rules decide their order)")


@pytest.mark.parametrize("text, message", [
    ("on_top:\n  pond: [red frog, bleu frog]\n",
     ":2:20: on_top.pond[1]: scenario pond: there is no card called 'bleu frog'"),
    ("zones:\n  pnd: [red frog]\n", ":2:3: zones.pnd: scenario: unknown zone 'pnd'"),
    ("game_variables:\n  refilled: 3\n", ":2:13: game_variables.refilled: scenario: game variable 'refilled' holds "
                                         "true/false, not 3"),
    ("player_variables:\n  '7': {points: 1}\n", ":2:3: player_variables.7: scenario: no player '7' in a 2-player"),
    ("zones: {}\nplayers: 2\n", ":2:1: players: unknown scenario key 'players'; expected zones, on_top"),
    ("players: 2\n", ":1:1: not a scenario: its first key is none of zones, on_top"),
    ("- a\n", ":1:1: not a scenario: a scenario file must be a YAML mapping"),
    ("first_player: 3\n", ":1:15: first_player: scenario first_player: expected a seat from 1 to 2, not 3"),
    ("first_player: '2'\n", ":1:15: first_player: scenario first_player: expected a seat from 1 to 2, not '2'"),
    ("on_top: [x\n", ":1:9: YAML syntax error"),
])
def test_a_bad_scenario_file_is_refused_with_its_place(tmp_path, frog_tower, text, message):
    path = write(tmp_path, text)
    with pytest.raises(DefinitionError) as caught:
        frog_tower.new_game(2, 0, scenario=load_scenario(path))
    assert str(caught.value).startswith(str(path) + message)


@pytest.mark.parametrize("text, message", [
    ("player_variables:\n  1: {points: 3}\n",
     ':2:3: player_variables[1]: the key 1 must be text (write it in quotes: "1")\n      1: {points: 3}\n      ^'),
    ("player_variables:\n  '1':\n    points: 1.5\n",
     ":3:13: player_variables.1.points: 1.5 is not a whole number (numbers in a scenario are whole numbers)"),
    ("zones:\n  pond: [red frog, 2.0]\n", ":2:20: zones.pond[1]: 2.0 is not a whole number"),
])
def test_a_scenario_files_number_key_or_fraction_is_refused_at_its_line(tmp_path, frog_tower, text, message):
    path = write(tmp_path, text)
    with pytest.raises(DefinitionError) as caught:
        load_scenario(path)
    assert str(caught.value).startswith(str(path) + message)


def test_a_scenario_variable_beyond_the_number_limit_is_refused(frog_tower):
    with pytest.raises(DefinitionError) as caught:
        frog_tower.new_game(2, 0, scenario={"game_variables": {"turn": 2 ** 63 - 1}})
    assert str(caught.value) == ("the scenario: game_variables.turn: 9223372036854775807 is beyond the limit of "
                                 "numbers in rules (-10^18 to 10^18)")


def test_a_scenario_file_that_is_not_a_regular_file_is_refused(tmp_path):
    with pytest.raises(DefinitionError, match="is a directory"):
        load_scenario(tmp_path)


# ==================================================================== ribbit play
def play(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_scenario_trace_shows_and_logs_the_trace(capsys, tmp_path):
    scenario = write(tmp_path, "on_top:\n  pond: [red frog, blue frog]\n")
    log = tmp_path / "game.jsonl"
    code, out, err = play(capsys, "play", FROG_TOWER, "--players", "2", "--seed", "1", "--scenario", scenario,
                          "--trace", "--log", log)
    assert code == 0, err
    assert "move red frog: pond -> holding\nevent flipped(card=red frog, player=1)\n" in out
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert records[0]["scenario"] == str(scenario) and records[0]["trace"] is True
    traced = [r for r in records if r["event"] == "trace"]
    assert traced[0] == {"event": "trace", "turn": 1, "type": "variable", "name": "turn", "old": 0, "new": 1}
    assert {"type", "turn", "event"} <= set(traced[1]) and not [r for r in records if r["event"] == "log"]


def test_play_trace_for_a_human_shows_and_logs_only_what_they_see(capsys, monkeypatch, tmp_path):
    import builtins

    monkeypatch.setattr(builtins, "input", lambda prompt="": "1")
    log = tmp_path / "game.jsonl"
    code, out, err = play(capsys, "play", WHISPERS, "--players", "2", "--human", "1", "--seed", "0", "--trace",
                          "--log", log)
    assert code == 0, err
    assert "move a card: deck -> hand(2)" in out and "move hornet: deck" not in out
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    moves = [r["card"] for r in records if r["event"] == "trace" and r["type"] == "move" and r["to"] == "hand(2)"]
    assert moves and set(moves) == {"a card"}
    assert not [r for r in records if "seen_by" in r or "for" in r]


def test_play_with_a_bad_scenario_file_says_where_and_exits_2(capsys, tmp_path):
    scenario = write(tmp_path, "zones:\n  pnd: [red frog]\n")
    code, out, err = play(capsys, "play", FROG_TOWER, "--players", "2", "--seed", "1", "--scenario", scenario,
                          "--log", "-")
    assert code == 2 and err.startswith(f"{scenario}:2:3: zones.pnd: scenario: unknown zone 'pnd'")
    assert "Traceback" not in err
