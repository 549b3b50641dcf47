"""Procedures that wait for players are spliced into their callers; splicing must not change what a rule means.

Every test runs twice: with splicing (the engine's default) and with every
call kept an ordinary call, and asserts the same exact outcome for both.
"""

from __future__ import annotations

import pytest

from interpreter import RuleError, State, load_game
from interpreter.dsl import splice


@pytest.fixture(params=[True, False], ids=["spliced", "ordinary calls"])
def load(request, monkeypatch, tmp_path):
    if not request.param:
        monkeypatch.setattr(splice, "MAX_SPLICED", -1)

    def load_text(text):
        path = tmp_path / "splice.yaml"
        path.write_text(text, encoding="utf-8")
        return load_game(path)
    return load_text


def spliced_procedures(game):
    """How many procedures were spliced into the code that runs (so each test also proves which way it ran)."""
    return len({where for proc in game.procs for _, _, where in proc.spliced})


RETURNS = """game: Returns
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {total: 0, nones: 0, fell: 0}
procedures:
  pick(player p) -> int: |
    ask p:
      "one":
        return 1
      "loop":
        let k = 0
        while k < 5:
          k += 1
          if k == 3:
            return k * 10
      "fall through":
        pass
    game.fell += 1
    return none
  take_turn(player p): |
    let v = pick(p)
    if v == none:
      game.nones += 1
    else:
      game.total += v
flow:
  - phase: play
    turn: take_turn
"""


def test_a_spliced_procedure_returns_from_a_menu_from_a_loop_or_falls_through_to_none(load):
    game = load(RETURNS)
    state = game.new_game(2, seed=1)
    for player, action in [(0, "one"), (1, "loop"), (0, "fall through"), (1, "one")]:
        state.apply(player, action)
    assert (state.gv["total"], state.gv["nones"], state.gv["fell"]) == (1 + 30 + 1, 1, 1)


LOCALS = """game: Locals
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {n: 0, sum: 0}
procedures:
  advance(player p, int start) -> int: |
    if game.n == 0:
      let x = 5
    game.n = start + 1
    ask p:
      "go":
        pass
      "wait":
        pass
    return x + start
  take_turn(player p): |
    let first = advance(p, game.n)
    game.sum += first
flow:
  - phase: play
    turn: take_turn
"""


def test_arguments_are_read_once_at_the_call_and_locals_do_not_outlive_it(load):
    game = load(LOCALS)
    state = game.new_game(2, seed=1)
    state.apply(0, "go")  # game.n was 0 at the call: x = 5, start = 0 (not the 1 the body wrote)
    assert state.gv["sum"] == 5
    # The next call skips the branch: reading x must fail as it does in a fresh call, not see 5.
    with pytest.raises(RuleError, match=r"the variable 'x' has no value here"):
        state.apply(1, "go")
    assert state.gv["sum"] == 5 and state.current_players() == [1]


LOOPS = """game: Loops
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {inner: 0, outer: 0}
procedures:
  count_up(player p, int n): |
    let k = 0
    while true:
      k += 1
      game.inner += 1
      if k >= n:
        break
    ask p:
      "ok":
        pass
      "no":
        pass
  take_turn(player p): |
    let round = 0
    while round < 2:
      round += 1
      count_up(p, 3)
      game.outer += 1
flow:
  - phase: play
    turn: take_turn
"""


def test_a_break_in_a_called_procedures_loop_leaves_only_that_loop(load):
    game = load(LOOPS)
    state = game.new_game(2, seed=1)
    for _ in range(2):  # count_up asks once, twice round the caller's loop
        state.apply(0, "ok")
    # two rounds of seat 1 counted 3 each, and seat 2's turn has counted its first 3 before asking
    assert (state.gv["inner"], state.gv["outer"]) == (9, 2)
    assert state.current_players() == [1]


def test_a_game_saved_inside_a_spliced_procedure_resumes_there(load):
    game = load(LOOPS)
    state = game.new_game(2, seed=1)
    state.apply(0, "ok")
    restored = State.from_json(game, state.to_json())
    restored.apply(0, "ok")
    assert (restored.gv["inner"], restored.gv["outer"]) == (9, 2)


def test_every_call_of_these_games_is_spliced_unless_splicing_is_off(load):
    counts = [spliced_procedures(load(text)) for text in (RETURNS, LOCALS, LOOPS)]
    assert counts in ([2, 2, 2], [0, 0, 0])  # take_turn into the flow, and the procedure it calls into that


ENTRIES = """game: Entries
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {n: 0}
events: {poked: {player: player}}
procedures:
  bump(player p): |
    game.n += 1
  take_turn(player p): |
    bump(p)
    emit poked(player=p)
    ask p:
      "go":
        pass
      "stay":
        pass
triggers:
  - on: poked
    do: |
      game.n += 10
flow:
  - phase: play
    turn: take_turn
    until: game.n >= 22
"""


def test_only_code_that_runs_in_a_frame_of_its_own_is_compiled_as_resumable_code(load):
    from interpreter.dsl.resumable import NEVER_ENTERED

    game = load(RETURNS)
    spliced = bool(spliced_procedures(game))
    for name in ("pick", "take_turn"):  # spliced at their one call each: they run inside main's code
        assert (game.procedures[name].code is NEVER_ENTERED) is spliced
    assert game.main.code is not NEVER_ENTERED
    game = load(ENTRIES)
    assert game.procedures["bump"].code is NEVER_ENTERED  # never waits: always called directly
    assert game.triggers["poked"][0].code is not NEVER_ENTERED  # a handler runs in a frame of its own
    state = game.new_game(2, seed=1)
    assert state.gv["n"] == 11
    state.apply(0, "go")
    state.apply(1, "go")
    assert state.gv["n"] == 22 and state.is_terminal()
