"""Save files are checked against the game they claim to be, and actions and players are exactly what the API says.

A save is loaded by replaying its own players, seed, scenario and history; every part it shows must equal
that replay.  So a tampered save is refused naming what differs, and a save resumes the same in any
process.  Actions are exact ``str`` and players exact ``int``: look-alikes that claim to equal anything
are refused before they can touch the state.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import subprocess
import sys
import time

import pytest

from conftest import REPO_ROOT
from interpreter import DefinitionError, IllegalActionError, SaveFileError, State, load_game
from interpreter.state import fingerprint
from interpreter.agents import UnknownAgentError, make_agent
from invariants import snapshot
from test_conformance import SWEEP_CONFIGURATIONS as CONFIGURATIONS, playout_plan, shipped_game

FROG_TOWER = REPO_ROOT / "definitions" / "frog_tower.yaml"
KAERU = REPO_ROOT / "definitions" / "kaeru.yaml"
SIMULTANEOUS = REPO_ROOT / "tests" / "definitions" / "simultaneous.yaml"
DIFFERS = "differs from the replay of the save's own seed and actions"


def played(game, players: int, seed: int, actions: int):
    """A game after ``actions`` random actions (fewer if it ends first)."""
    moves = random.Random(seed)
    state = game.new_game(players, seed)
    for _ in range(actions):
        if state.is_terminal():
            break
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
    return state


def as_file(state) -> dict:
    """The save as it comes back from a file."""
    return json.loads(json.dumps(state.to_json()))


def refused(game, data) -> str:
    with pytest.raises(SaveFileError) as info:
        State.from_json(game, data)
    return str(info.value)


def partial_secret_picks():
    """Secret Duel with seat 1 having picked and seats 2 and 3 still to pick."""
    game = load_game(SIMULTANEOUS)
    state = game.new_game(3, seed=4)
    state.apply(0, state.legal_actions(0)[1])
    assert state.current_players() == [1, 2]
    return state


@pytest.fixture(scope="module")
def frog_tower_game():
    return load_game(FROG_TOWER)


@pytest.fixture(scope="module")
def mid_game(frog_tower_game):
    return played(frog_tower_game, 3, seed=5, actions=20)


# ==================================================================== tampered saves are refused
def tampered(data):
    """Every save that differs from ``data`` in one place: each value changed, each list grown and shrunk."""
    def walk(value, path):
        if type(value) is dict:
            for key, inner in value.items():
                yield from walk(inner, path + [key])
            return
        if type(value) is list:
            yield path, value + [value[-1] if value else 0]
            if value:
                yield path, value[:-1]
            for index, inner in enumerate(value):
                yield from walk(inner, path + [index])
            return
        if type(value) is bool:
            yield path, not value
        elif type(value) is int:
            yield path, value + 1
        elif type(value) is str:
            yield path, value + "x"
        else:
            yield path, 0

    for path, new in walk(data, []):
        if not path:
            continue
        damaged = copy.deepcopy(data)
        where = damaged
        for key in path[:-1]:
            where = where[key]
        where[path[-1]] = new
        yield path, damaged


@pytest.mark.parametrize("make", [
    lambda: played(load_game(FROG_TOWER), 3, seed=5, actions=20),
    lambda: played(load_game(FROG_TOWER, variants=["crayfish"]), 4, seed=2, actions=30),
    lambda: played(load_game(KAERU), 2, seed=3, actions=25),
    partial_secret_picks,
], ids=["frog tower", "crayfish", "kaeru", "partial secret picks"])
def test_a_save_changed_anywhere_is_refused(make):
    state = make()
    data = as_file(state)
    loaded_anyway = []
    for path, damaged in tampered(data):
        try:
            State.from_json(state.game, damaged)
        except SaveFileError:
            continue
        loaded_anyway.append(path)
    # only the layout hash may differ: the same rules compiled another way resume by replay (see below)
    assert loaded_anyway == [["layout"]], f"tampered saves loaded: {loaded_anyway[:10]}"


def test_a_forged_decision_option_is_refused_naming_the_decision(mid_game):
    data = as_file(mid_game)
    player_index = 0
    data["pending"]["labels"][player_index].append("win the game")
    assert refused(mid_game.game, data) == \
        f"this save does not match its own game: the option list of the pending decision {DIFFERS}"


def test_swapped_cards_are_refused_naming_the_zone(mid_game):
    data = as_file(mid_game)
    game = mid_game.game
    full = [i for i, cards in enumerate(data["zones"]) if cards]
    first, second = full[0], full[-1]
    data["zones"][first][-1], data["zones"][second][-1] = data["zones"][second][-1], data["zones"][first][-1]
    assert refused(game, data) == f"this save does not match its own game: zone {game.zone_label(first)!r} {DIFFERS}"


def add_to_seat_2(points):
    return [points[0], points[1] + 7] + points[2:]


@pytest.mark.parametrize("part, change, what", [
    ("gv", lambda gv: dict(gv, turn=gv["turn"] + 1), "game variable 'turn'"),
    ("pv", lambda pv: dict(pv, points=add_to_seat_2(pv["points"])), "player variable 'points' of seat 2"),
    ("rng", lambda rng: str(int(rng) + 1), "the state of the random number generator"),
    ("over", lambda over: True, "whether the game is over"),
    ("forced_winners", lambda winners: [1], "the list of declared winners"),
    ("log", lambda log: log + ["player 1 wins."], "the log"),
])
def test_an_edited_part_is_refused_naming_it(mid_game, part, change, what):
    data = as_file(mid_game)
    data[part] = change(data[part])
    assert refused(mid_game.game, data) == f"this save does not match its own game: {what} {DIFFERS}"


def test_another_seed_or_history_is_refused(mid_game):
    data = as_file(mid_game)
    with pytest.raises(SaveFileError):
        State.from_json(mid_game.game, dict(data, seed=data["seed"] + 1))
    with pytest.raises(SaveFileError):
        State.from_json(mid_game.game, dict(data, history=data["history"][:-1]))


def test_an_illegal_action_in_the_history_is_refused_naming_it(mid_game):
    data = as_file(mid_game)
    data["history"][3] = [data["history"][3][0], "win the game"]
    message = refused(mid_game.game, data)
    assert message.startswith(f"action 4 of the save's history (player {data['history'][3][0]}, 'win the game') "
                              "cannot be played: 'win the game' is not a legal action")


@pytest.mark.parametrize("entry", [[0], [True, "x"], ["0", "x"], [0, 3], (0, "x"), None])
def test_a_history_entry_that_is_not_a_player_and_an_action_is_refused(mid_game, entry):
    data = as_file(mid_game)
    data["history"][0] = entry
    assert refused(mid_game.game, data) == ("action 1 of the save's history is not [player number, action text] "
                                            "(with at most 10000 characters of text)")


@pytest.mark.parametrize("seed", ["7", 7.0, True, None, 2 ** 2000], ids=["str", "float", "bool", "None", "2^2000"])
def test_a_seed_that_is_not_an_int_is_refused(mid_game, seed):
    message = refused(mid_game.game, dict(as_file(mid_game), seed=seed))
    assert message.startswith("the save's seed ") and "is not a whole number of at most 1024 bits" in message


@pytest.mark.parametrize("players", ["3", 3.0, True, 9])
def test_a_player_count_that_is_not_an_int_of_the_game_is_refused(mid_game, players):
    assert refused(mid_game.game, dict(as_file(mid_game), players=players)).startswith("the save's player count")


@pytest.mark.parametrize("scenario, message", [
    ("x", "a scenario must be a mapping"),
    ({"zones": {"nowhere": []}}, "unknown zone 'nowhere'"),
    ({"zones": {"pond": "cards"}}, "expected a list of card names"),
    ({"game_variables": {"turn": "many"}}, "game variable 'turn' holds a number, not 'many'"),
    ({"game_variables": {"active": 7}}, "game variable 'active' holds a player (its seat, from 1 to 3), not 7"),
    ({"player_variables": {"one": {"points": 1}}}, "no player 'one'"),
    ({"player_variables": {"1": {"points": [1]}}}, "player variable 'points' of seat 1 holds a number"),
    ({"zones": {"pond": [[]] * 3}}, "expected a list of card names"),
])
def test_a_scenario_that_is_not_valid_is_refused(frog_tower_game, scenario, message):
    data = as_file(frog_tower_game.new_game(3, seed=1))
    text = refused(frog_tower_game, dict(data, scenario=scenario))
    assert text.startswith("the save's game cannot be started again from its seed and scenario: ")
    assert message in text


def test_a_save_with_parts_ribbit_does_not_write_is_refused(mid_game):
    data = dict(as_file(mid_game), frames=[[0, 5, {}, None]])
    assert refused(mid_game.game, data) == "the save file has parts Ribbit does not write: 'frames'"


def test_a_save_holds_no_positions_in_the_compiled_rules(mid_game):
    data = mid_game.to_json()
    assert "frames" not in data
    assert set(data["pending"]) == {"players", "labels", "chosen", "each", "secret", "prompt"}


@pytest.mark.parametrize("part, make", [  # built inside the test, so they are not all held at once
    ("history", lambda: [[0, "x"]] * 10 ** 7),
    ("history", lambda: [[0, "x" * 10 ** 7]]),
    ("log", lambda: ["x"] * 10 ** 7),
    ("zones", lambda: [[0] * 10 ** 7] * 14),
    ("scenario", lambda: {"zones": {"pond": ["x"] * 10 ** 6}}),
    ("seed", lambda: 10 ** 100_000),
], ids=["10^7 actions", "an action of 10^7 characters", "a log of 10^7 lines", "zones of 10^7 cards",
        "a scenario of 10^6 cards", "a seed of 10^5 digits"])
def test_absurd_sizes_are_refused_quickly(mid_game, part, make):
    data = dict(as_file(mid_game), **{part: make()})
    began = time.perf_counter()
    with pytest.raises(SaveFileError):
        State.from_json(mid_game.game, data)
    assert time.perf_counter() - began < 1.0


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("part, value, message", [
    ("zones", "pond", "the save's part zones is damaged: expected a list, not the text 'pond'"),
    ("over", 1, "the save's part over is damaged: expected true or false, not the number 1"),
    ("gv", [1], "the save's part gv is damaged: expected a mapping, not a list"),
    ("rng", 7, "the save's part rng is damaged: expected text, not the number 7"),
    ("pending", {"players": [0]}, "the saved decision is damaged (expected null or the keys players, labels, "
                                  "chosen, each, secret, prompt)"),
    ("history", [[0, "x"], [True, "y"]], "action 2 of the save's history is not [player number, action text]"),
    ("zones", {"x": nested(100_000)}, "the save's part zones is damaged: expected a list, not a mapping"),
])
def test_a_save_part_of_the_wrong_kind_is_refused_by_the_save_schema_naming_the_part(mid_game, part, value,
                                                                                      message):
    assert refused(mid_game.game, dict(as_file(mid_game), **{part: value})).startswith(message)


def test_the_save_schema_agrees_with_the_save_format():
    from interpreter.loader.schema import load_schema
    from interpreter.rng import MAX_SEED_BITS  # noqa: F401 (the seed's bound stays a check of the loader)
    from interpreter.runtime.limits import MAX_ACTION_TEXT
    from interpreter.saves import (MAX_LAYOUT_TEXT, MAX_SAVED_ACTIONS, OPTIONAL_SAVE_KEYS, SAVE_FORMAT, SAVE_KEYS,
                                   SAVED_DECISION_KEYS)
    schema = load_schema("save.schema.json")
    parts = schema["properties"]
    assert schema["required"] == list(SAVE_KEYS) and set(parts) == set(SAVE_KEYS + OPTIONAL_SAVE_KEYS)
    assert parts["format"]["const"] == SAVE_FORMAT and parts["layout"]["maxLength"] == MAX_LAYOUT_TEXT
    assert parts["history"]["maxItems"] == MAX_SAVED_ACTIONS
    assert parts["history"]["items"]["prefixItems"][1]["maxLength"] == MAX_ACTION_TEXT
    assert parts["pending"]["required"] == list(SAVED_DECISION_KEYS)


class EqualsEverything:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = object.__hash__


class SneakyText(str):
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


@pytest.mark.parametrize("part", ["zones", "gv", "pv", "rng", "pending", "over", "log", "game"])
def test_objects_that_equal_everything_cannot_pass_for_a_saved_part(mid_game, part):
    data = dict(as_file(mid_game), **{part: EqualsEverything()})
    with pytest.raises(SaveFileError):
        State.from_json(mid_game.game, data)


def test_text_look_alikes_cannot_pass_for_saved_text(mid_game):
    data = as_file(mid_game)
    data["history"][0][1] = SneakyText(data["history"][0][1])
    with pytest.raises(SaveFileError):
        State.from_json(mid_game.game, data)
    data = as_file(mid_game)
    data["gv"] = {SneakyText(k): v for k, v in data["gv"].items()}
    with pytest.raises(SaveFileError):
        State.from_json(mid_game.game, data)


# ==================================================================== a save resumes exactly
def check_same_position(loaded, state) -> None:
    assert loaded.current_players() == state.current_players()
    assert loaded.prompt() == state.prompt()
    for viewer in state.players + [None]:
        assert loaded.view(viewer) == state.view(viewer)
    for p in state.players:
        assert loaded.legal_actions(p) == state.legal_actions(p)
    assert snapshot(loaded) == snapshot(state)


def play_on(state, moves: random.Random) -> list:
    """Play ``state`` to the end; returns the actions played."""
    actions = []
    while not state.is_terminal():
        player = moves.choice(state.current_players())
        action = moves.choice(state.legal_actions(player))
        state.apply(player, action)
        actions.append((player, action))
    return actions


@pytest.mark.parametrize("stem, variants", CONFIGURATIONS,
                         ids=[stem + "".join(f"+{v}" for v in variants) for stem, variants in CONFIGURATIONS])
def test_a_save_made_at_any_decision_continues_like_the_game_itself(stem, variants):
    """Every decision of short games; a long game (``playout_plan``) saves and loads at every decision
    early on and at a sample later (each load replays the game so far), and plays on from a few."""
    game = shipped_game(stem, variants)
    counts, _seeds, sample = playout_plan(stem, variants)
    for seed in range(1 if variants or sample < 1 else 3):  # each variant setting once, short games more
        players = game.min_players + seed % (game.max_players - game.min_players + 1) if sample >= 1 else counts[1]
        state = played(game, players, seed, 0)
        moves, checks = random.Random(seed), random.Random(f"saves {seed}")
        while True:
            step = len(state.history)
            if sample < 1 and not state.is_terminal() and step >= 20 and checks.random() >= 20 / step:
                player = moves.choice(state.current_players())
                state.apply(player, moves.choice(state.legal_actions(player)))
                continue
            saved = state.to_json()
            assert json.loads(json.dumps(saved)) == saved, "a save is not plain JSON"
            loaded = State.from_json(game, json.loads(json.dumps(saved)))
            check_same_position(loaded, state)
            if state.is_terminal():
                assert (loaded.winners(), loaded.scores()) == (state.winners(), state.scores())
                break
            if sample < 1 and checks.random() >= sample / 2:
                player = moves.choice(state.current_players())
                state.apply(player, moves.choice(state.legal_actions(player)))
                continue
            branch = state.clone()
            continuation = play_on(loaded, random.Random(len(state.history)))
            for player, action in continuation:
                branch.apply(player, action)
            assert snapshot(loaded) == snapshot(branch), "a loaded save went its own way"
            player = moves.choice(state.current_players())
            state.apply(player, moves.choice(state.legal_actions(player)))


def test_partial_secret_picks_survive_a_save_exactly():
    state = partial_secret_picks()
    loaded = State.from_json(state.game, as_file(state))
    check_same_position(loaded, state)
    assert loaded.pending["chosen"] == state.pending["chosen"]
    for s in (state, loaded):
        s.apply(2, s.legal_actions(2)[0])
    check_same_position(loaded, state)
    for s in (state, loaded):
        s.apply(1, s.legal_actions(1)[-1])
    check_same_position(loaded, state)


def test_a_save_resumes_in_a_game_compiled_after_others():
    first = load_game(FROG_TOWER)
    load_game(KAERU)
    again = load_game(FROG_TOWER)  # its rule code was compiled later in this process
    state = played(first, 3, seed=8, actions=15)
    loaded = State.from_json(again, as_file(state))
    play_on(loaded, random.Random(1))
    play_on(state, random.Random(1))
    assert snapshot(loaded) == snapshot(state)


CHILD = """
import json, random, sys
from interpreter import State, load_game
load_game(sys.argv[2])  # another game first: its rule code is compiled before this one's
game = load_game(sys.argv[1])
state = State.from_json(game, json.loads(sys.stdin.read()))
moves = random.Random(1)
while not state.is_terminal():
    player = moves.choice(state.current_players())
    state.apply(player, moves.choice(state.legal_actions(player)))
print(json.dumps(state.to_json(), sort_keys=True))
"""


def test_a_save_resumes_in_a_fresh_process_that_loaded_another_game_first():
    state = played(load_game(FROG_TOWER), 3, seed=8, actions=15)
    save = json.dumps(state.to_json())
    done = subprocess.run([sys.executable, "-c", CHILD, str(FROG_TOWER), str(KAERU)], input=save, text=True,
                          capture_output=True, cwd=REPO_ROOT, env={"PYTHONPATH": str(REPO_ROOT)}, timeout=120)
    assert done.returncode == 0, done.stderr
    play_on(state, random.Random(1))
    assert done.stdout.strip() == snapshot(state)


LAYOUT_CHILD = """
import json, random, sys
from interpreter import load_game
from interpreter.dsl.layout_hash import describe
for other in sys.argv[2:]:  # other games first: their rule code is compiled before this one's
    load_game(other)
game = load_game(sys.argv[1])
moves, state = random.Random(8), game.new_game(3, 8)
for _ in range(15):
    player = moves.choice(state.current_players())
    state.apply(player, moves.choice(state.legal_actions(player)))
print(json.dumps({"hash": game.layout_hash(), "layout": describe(game), "frames": [frame.to_json() for frame in state.frames]}))
"""


def layout_in_a_fresh_process(*games) -> dict:
    done = subprocess.run([sys.executable, "-c", LAYOUT_CHILD, *map(str, games)], text=True, capture_output=True,
                          cwd=REPO_ROOT, env={"PYTHONPATH": str(REPO_ROOT)}, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_game_compiles_to_the_same_layout_and_env_keys_whatever_was_compiled_before_it():
    # The frames of a state (procedure id, pc, locals by env key) mean the same in every process that
    # compiled the same game: env keys are numbered per game, not by a counter of the whole process.
    alone = layout_in_a_fresh_process(FROG_TOWER)
    after = layout_in_a_fresh_process(FROG_TOWER, KAERU, SIMULTANEOUS)
    assert any(len(frame[2]) > 1 for frame in alone["frames"]), "the position should hold locals"
    assert after["frames"] == alone["frames"]
    assert after["layout"] == alone["layout"]
    assert after["hash"] == alone["hash"]
    here = load_game(FROG_TOWER)  # this process has compiled many games already
    assert here.layout_hash() == alone["hash"]


def renumbered_env_keys(monkeypatch):
    """Compile as another version of Ribbit might: the same rules, other env keys."""
    from interpreter.dsl.compiler import Compiler

    real = Compiler.__init__

    def init(self, model):
        real(self, model)
        self.ctx.key_numbers = itertools.count(1000)
    monkeypatch.setattr(Compiler, "__init__", init)


def test_the_layout_hash_follows_the_compiled_layout_not_the_rules(monkeypatch):
    game = load_game(FROG_TOWER)
    renumbered_env_keys(monkeypatch)
    other = load_game(FROG_TOWER)
    assert fingerprint(other) == fingerprint(game)
    assert other.layout_hash() != game.layout_hash()
    assert load_game(FROG_TOWER).layout_hash() == other.layout_hash()


def test_a_save_of_the_same_rules_with_another_compiled_layout_resumes_by_replaying_it(monkeypatch):
    state = played(load_game(FROG_TOWER), 3, seed=8, actions=15)
    data = as_file(state)
    renumbered_env_keys(monkeypatch)
    other = load_game(FROG_TOWER)  # the same rules, laid out differently: the save's frames would not fit
    assert data["layout"] != other.layout_hash()
    assert {key for frame in state.frames for key in frame.env} != \
        {key for frame in State.from_json(other, data).frames for key in frame.env}
    for save in (data, dict(data, layout="made by another Ribbit"), {k: v for k, v in data.items() if k != "layout"}):
        loaded = State.from_json(other, save)
        assert without_layout(loaded) == without_layout(state)
        assert all(loaded.view(p) == state.view(p) and loaded.legal_actions(p) == state.legal_actions(p)
                   for p in state.players)
        copy_of_state = state.clone()
        play_on(loaded, random.Random(1))
        play_on(copy_of_state, random.Random(1))
        assert without_layout(loaded) == without_layout(copy_of_state)
        assert loaded.to_json()["layout"] == other.layout_hash()


def without_layout(state) -> dict:
    data = state.to_json()
    assert data.pop("layout") == state.game.layout_hash()
    return data


@pytest.mark.parametrize("layout", [5, None, ["x"], "x" * 65])
def test_a_damaged_layout_hash_is_refused(mid_game, layout):
    assert refused(mid_game.game, dict(as_file(mid_game), layout=layout)) == \
        "the save's layout is damaged (expected a text of at most 64 characters)"


def test_loading_leaves_the_callers_save_untouched_and_can_be_repeated(mid_game):
    data = as_file(mid_game)
    before = copy.deepcopy(data)
    loaded = State.from_json(mid_game.game, data)
    play_on(loaded, random.Random(2))
    assert data == before, "playing a loaded save changed the save"
    again = State.from_json(mid_game.game, data)
    assert snapshot(again) == snapshot(mid_game)


def test_a_scenario_given_to_new_game_is_copied(frog_tower_game):
    scenario = {"game_variables": {"turn": 3}}
    state = frog_tower_game.new_game(3, seed=1, scenario=scenario)
    scenario["game_variables"]["turn"] = 4
    assert state.scenario == {"game_variables": {"turn": 3}}
    assert State.from_json(frog_tower_game, as_file(state)).gv["turn"] == state.gv["turn"]


# ==================================================================== actions and players are exact types
class IntLookAlike(int):
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


@pytest.mark.parametrize("action, kind", [
    (EqualsEverything(), "a EqualsEverything"),
    (SneakyText("anything"), "a SneakyText (a subclass of str)"),
    (3, "int 3"),
    (None, "NoneType None"),
    (b"take", "a bytes"),
])
def test_apply_accepts_only_an_exact_str_as_the_action(mid_game, action, kind):
    state = mid_game.clone()
    before = snapshot(state)
    player = state.current_players()[0]
    with pytest.raises(IllegalActionError) as info:
        state.apply(player, action)
    assert str(info.value) == f"an action must be exactly a str (its text), not {kind}"
    assert snapshot(state) == before


def test_a_str_subclass_is_refused_even_when_its_text_is_legal(mid_game):
    state = mid_game.clone()
    before = snapshot(state)
    player = state.current_players()[0]
    with pytest.raises(IllegalActionError):
        state.apply(player, SneakyText(state.legal_actions(player)[0]))
    assert snapshot(state) == before


@pytest.mark.parametrize("player", [IntLookAlike(0), True, 0.0, "0"])
def test_apply_accepts_only_an_exact_int_as_the_player(mid_game, player):
    state = mid_game.clone()
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="a player must be exactly an int"):
        state.apply(player, state.legal_actions()[0])
    assert snapshot(state) == before


@pytest.mark.parametrize("player", [IntLookAlike(1), True, 1.0, "1", 3, -1])
def test_legal_actions_and_view_accept_only_a_seat_number(mid_game, player):
    with pytest.raises(IllegalActionError):
        mid_game.legal_actions(player)
    with pytest.raises(IllegalActionError):
        mid_game.view(player)


def test_view_of_true_does_not_show_the_hand_of_seat_2():
    game = load_game(REPO_ROOT / "tests" / "definitions" / "hidden_hands.yaml")
    state = game.new_game(2, seed=0)
    with pytest.raises(IllegalActionError, match="not bool True"):
        state.view(True)


@pytest.mark.parametrize("seed", ["7", 7.0, True, None, IntLookAlike(7), 2 ** 1025],
                         ids=["str", "float", "bool", "None", "int look-alike", "2^1025"])
def test_new_game_accepts_only_an_int_seed(frog_tower_game, seed):
    with pytest.raises(DefinitionError, match="the seed must be a whole number"):
        frog_tower_game.new_game(3, seed)


@pytest.mark.parametrize("players", [True, 3.0, "3", IntLookAlike(3)])
def test_new_game_accepts_only_an_int_player_count(frog_tower_game, players):
    with pytest.raises(DefinitionError, match="players must be a whole number"):
        frog_tower_game.new_game(players, 1)


def test_make_agent_accepts_only_exact_names_and_seeds():
    with pytest.raises(UnknownAgentError):
        make_agent(SneakyText("mcts"), 1)
    with pytest.raises(UnknownAgentError):
        make_agent("random", 1.5)
    assert make_agent("random", "seat 1").choose(None, ["a", "b"]) in ("a", "b")


def test_a_game_played_without_a_log_loads_without_one(frog_tower_game):
    state = frog_tower_game.new_game(3, seed=2, log=False)
    state.apply(state.current_players()[0], state.legal_actions()[0])
    loaded = State.from_json(frog_tower_game, as_file(state))
    assert loaded.log is None and snapshot(loaded) == snapshot(state)
    with pytest.raises(SaveFileError, match="the save's log is damaged"):
        State.from_json(frog_tower_game, dict(as_file(state), log={}))
