"""Procedures that never wait are inlined into their callers; inlining must not change what a rule means."""

from __future__ import annotations

import pytest

from interpreter import RuleError, load_game

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
    with pytest.raises(RuleError, match=r"\(KeyError: 'x'\)"):
        game.new_game(2, seed=1)
