"""A call of a procedure that waits for players runs its callee straight from the caller's code.

The callee still gets a frame of its own (so a decision inside it suspends the game as plain data),
but the caller's generated function calls the callee's function itself instead of handing over to
``State._run`` and being entered again when the callee returns (``resumable.push_call``).
"""

from __future__ import annotations

import random
import re

import pytest

from interpreter import load_game
from interpreter.dsl.options import CompileOptions
from interpreter.dsl.resumable import MAX_DIRECT
from interpreter.errors import RuleError

# 'main' calls 'tally' (which may wait: it asks when the hand holds three cards or more) and goes on after it.
GAME = """\
game: Calls
players: {min: 2, max: 2}
components:  # six different cards: a choice among two or more is asked, not taken at once
  - {name: ace, zone: deck}
  - {name: two, zone: deck}
  - {name: three, zone: deck}
  - {name: four, zone: deck}
  - {name: five, zone: deck}
  - {name: six, zone: deck}
zones:
  deck: {visibility: public}
  hand: {per: player, visibility: public}
game_variables:
  calls: 0
  after: 0
player_variables:
  points: 0
procedures:
  tally(player q): |
    game.calls += 1
    if size(hand(q)) >= 3:
      ask q to choose one of hand(q) as c "drop"
      move c to deck
  take_turn(player p): |
    move top(deck) to hand(p)
    tally(p)
    game.after += 1
    ask p:
      "go on":
        pass
      "stop":
        p.points += 1
setup: |
  pass
flow:
  - turn: take_turn
    until: game.after >= 8
scoring:
  score: p.points
"""


def write(tmp_path, text: str):
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def counts(state, *names):
    """The game variables ``names`` (default: calls, after) of ``state``."""
    return {name: state.gv[name] for name in names or ("calls", "after")}


def entries_from_run_loop(game, state_actions):
    """How many times ``State._run`` calls a procedure's function, while ``state_actions`` plays."""
    calls = []
    for pid, fn in enumerate(game.codes):
        if fn is None:
            continue

        def counted(s, fr, pc, fn=fn, pid=pid):
            calls.append((pid, pc))
            return fn(s, fr, pc)
        game.codes[pid] = counted  # the run loop's table only: the procedures' own code (what a call runs) is kept
    state_actions()
    return calls


def test_a_waiting_call_that_ends_at_once_goes_on_in_the_callers_code_without_the_run_loop(tmp_path):
    game = load_game(write(tmp_path, GAME), options=CompileOptions(splice=False))  # an ordinary call of 'tally'
    played = []

    def play():
        state = game.new_game(2, seed=1)
        played.append(state)
        state.apply(0, "go on")
    calls = entries_from_run_loop(game, play)
    state = played[0]
    assert counts(state) == {"calls": 2, "after": 2}  # two turns: each ran 'tally', then went on after it
    main, take_turn = game.procs.index(game.main), game.procedures["take_turn"].id
    # the run loop entered the flow once to start the game (tally ran from inside it, and the turn went on to
    # its menu), and once to resume the menu's choice: never to run 'tally', nor to come back from it
    setup, main = game.setup.id, game.main.id
    take_turn, tally = game.procedures["take_turn"].id, game.procedures["tally"].id
    # the run loop entered the setup and the flow once to start the game (tally ran from inside the turn,
    # which went on to its menu), then the turn to resume at the menu's choice, and the flow after it: never
    # to run 'tally' nor to come back from it (through the run loop: setup, main, take_turn, tally, take_turn...)
    assert [pid for pid, _ in calls] == [setup, main, take_turn, main]
    assert tally not in (setup, main, take_turn)


def test_a_callee_that_waits_suspends_the_game_with_its_own_frame_and_the_caller_resumes_after_it(tmp_path):
    game = load_game(write(tmp_path, GAME), options=CompileOptions(splice=False))
    state = game.new_game(2, seed=1)
    for _ in range(4):  # seats alternate; the third card in a hand makes 'tally' ask
        state.apply(state.current_players()[0], "go on")
    tally = game.procedures["tally"].id
    assert state.prompt() == "drop" and state.frames[-1].pid == tally  # the decision waits in tally's frame
    assert counts(state) == {"calls": 5, "after": 4}
    state.apply(state.current_players()[0], state.legal_actions()[0])
    assert counts(state) == {"calls": 5, "after": 5} and state.prompt() == "choose"  # back in the caller, after the call
    assert [f.pid for f in state.frames].count(tally) == 0


def test_the_same_games_with_and_without_splicing(tmp_path):
    """Splicing off makes every waiting call an ordinary (direct) call: the games are the same, move for move."""
    path = write(tmp_path, GAME)
    games = [load_game(path), load_game(path, options=CompileOptions(splice=False))]
    for seed in range(20):
        rng = [random.Random(seed), random.Random(seed)]
        states = [g.new_game(2, seed=seed) for g in games]
        while not states[0].is_terminal():
            for state, r in zip(states, rng):
                player = state.current_players()[0]
                state.apply_id(player, state.sample_action_id(player, r))
        assert states[1].is_terminal()
        assert states[0].history == states[1].history and states[0].gv == states[1].gv
        assert states[0].zones == states[1].zones and states[0].returns() == states[1].returns()


DEEP = """\
game: Deep
players: {min: 2, max: 2}
components:
  - {name: red, zone: deck}
  - {name: blue, zone: deck}
  - {name: green, zone: deck}
zones:
  deck: {visibility: public}
  hand: {per: player, visibility: public}
game_variables:
  depth: 0
  back: 0
procedures:
  dive(player p, int n): |
    game.depth += 1
    if n > 0:
      dive(p, n - 1)
    else:
      ask p to choose one of deck as c "take"
      move c to hand(p)
    game.back += 1
  take_turn(player p): |
    dive(p, DEPTH)
setup: |
  pass
flow:
  - turn: take_turn
    until: size(deck) == 0
scoring:
  score: size(hand(p))
"""


@pytest.mark.parametrize("depth", [MAX_DIRECT - 2, MAX_DIRECT * 3])
def test_recursive_waiting_calls_nest_frames_beyond_the_direct_limit(tmp_path, depth):
    game = load_game(write(tmp_path, DEEP.replace("DEPTH", str(depth))), options=CompileOptions(splice=False))
    state = game.new_game(2, seed=1)
    dive = game.procedures["dive"].id
    assert [f.pid for f in state.frames].count(dive) == depth + 1  # one frame per call, the decision in the last
    assert counts(state, "depth", "back") == {"depth": depth + 1, "back": 0}
    state.apply(0, "take red")
    assert counts(state, "depth", "back") == {"depth": 2 * (depth + 1), "back": depth + 1}  # every call came back, the next turn dived
    assert [f.pid for f in state.frames].count(dive) == depth + 1


def test_an_unforeseen_error_in_a_called_waiting_procedure_is_located_in_it(tmp_path):
    # 'x' is bound only in a branch not taken: a KeyError no check at load sees, raised inside the callee
    text = GAME.replace("    game.calls += 1\n", "    if game.calls > 100:\n      let x = 1\n    game.calls += 1\n"
                        "    game.calls += x\n")
    path = write(tmp_path, text)
    game = load_game(path, options=CompileOptions(splice=False))
    with pytest.raises(RuleError) as info:
        game.new_game(2, seed=1)
    line = text.split("\n").index("    game.calls += x") + 1
    assert re.sub(r"'x\.\d+'", "'x'", str(info.value)).split("\n")[0] == (
        f"{path}:{line}:19: procedures.tally(player q): a rule failed while setting up the game: the variable 'x' has no value "
        "here (it is given one only on a path not taken: give it a value with 'let' before the 'if' or loop)")
