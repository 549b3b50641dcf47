"""Procedures that never wait are inlined into their callers; inlining must not change what a rule means."""

from __future__ import annotations

import pytest

from interpreter import DSLSyntaxError, RuleError, load_game
from turn_games import TURN_END


GAME = """game: Inline
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {n: 0, total: 0}
procedures:
  pick(player p) -> int: |
    if game.n == 0:
      let x = 5
    game.n += 1
    return x
  double(int v) -> int: |
    let twice = v + v
    return twice
  take_turn(player p): |
    let k = game.n
    let d = double(k)
    game.total += d
    CALL
    ask p:
      "a":
        game.n += 1
      "b":
        pass
flow:
  - phase: play
    turn: take_turn
"""


def load(tmp_path, call: str):
    path = tmp_path / "inline.yaml"
    path.write_text(GAME.replace("CALL", call), encoding="utf-8")
    return load_game(path)


def test_an_inlined_procedure_returns_its_own_value_on_every_call(tmp_path):
    state = load(tmp_path, "pass").new_game(2, seed=1)
    for player in (0, 1, 0):
        state.apply(player, "a")
    assert state.gv["total"] == 0 + 2 + 4 + 6  # double(k) for k = 0, 1, 2, 3


def test_a_local_bound_only_in_a_branch_not_taken_fails_instead_of_reading_an_old_value(tmp_path):
    # The first call binds x; the second, in the same turn, skips the branch and must not see that x.
    game = load(tmp_path, "let y = pick(p)\n    let z = pick(p)")
    with pytest.raises(RuleError, match=r"the variable 'x' has no value here"):
        game.new_game(2, seed=1)


RETURNS = """game: Returns
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {total: 0}
procedures:
  early(player p) -> int: |
    if p == seat(1):
      return 3 + game.total
    return 10
  nothing(player p): |
    if p == seat(1):
      return
    game.total += 1000
  take_turn(player p): |
    let a = early(p)
    let b = early(next_player(next_player(p)))
    nothing(p)
    game.total += a + b
""" + TURN_END


def test_procedures_return_computed_values_from_any_branch_inlined_or_not(tmp_path):
    # early(p) has a plain-local argument (inlined); early(next_player(...)) does not (an ordinary call).
    path = tmp_path / "returns.yaml"
    path.write_text(RETURNS, encoding="utf-8")
    state = load_game(path).new_game(2, seed=1)
    assert state.gv["total"] == 3 + 3  # seat 1's turn: both calls return 3 + 0; 'nothing' returns early
    state.apply(0, "a")
    assert state.gv["total"] == 6 + (10 + 10) + 1000  # seat 2's turn: 10 twice, and 'nothing' runs through


LOOSE_BREAK = """game: Loose
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {rounds: 0, calls: 0}
procedures:
  note(): |
    game.calls += 1
    if game.calls > 0:
      break
  take_turn(player p): |
    repeat 3:
      note()
      game.rounds += 1
""" + TURN_END


def test_a_break_outside_any_loop_in_a_called_procedure_is_refused_at_load(tmp_path):
    # it could only leave its caller's loop (splicing the call would make it do so): refused where it is written
    path = tmp_path / "loose.yaml"
    path.write_text(LOOSE_BREAK, encoding="utf-8")
    with pytest.raises(DSLSyntaxError, match=r"loose.yaml:9:7: procedures.note\(\): 'break' outside a loop"):
        load_game(path)


IN_PLACE = """game: InPlace
players: {min: 2, max: 2}
zones: {deck: {}}
game_variables: {same: 0, other: 0}
procedures:
  bump(int v) -> int: |
    let r = v + 1
    r = r + v
    return r
  take_turn(player p): |
    let x = 3
    x = bump(x)
    let y = 3
    let z = bump(y)
    game.same = x
    game.other = z * 10 + y
""" + TURN_END


def test_a_result_built_in_place_never_overwrites_an_argument_still_being_read(tmp_path):
    path = tmp_path / "in_place.yaml"
    path.write_text(IN_PLACE, encoding="utf-8")
    state = load_game(path).new_game(2, seed=1)
    assert (state.gv["same"], state.gv["other"]) == (7, 73)  # bump(3) = (3 + 1) + 3, whatever it is stored in
