"""A ``{expression}`` inside a log text or an option's text is an expression like any other: an error
it raises while the game runs is located at that expression, on the line and column of the text where
it is written, not at the procedure's first statement."""

from __future__ import annotations

import pytest

from interpreter import RuleError, load_game

GAME = """\
game: Text parts
players: {min: 1, max: 1}
components:
  - {name: one, zone: pile}
zones:
  pile: {}
game_variables:
  n: 1
procedures:
  take_turn(player p): |
    let a = 1
    let b = 2
    if game.n == 1:
      log "top: {top(pile, 0 - 1)}"
    ask p:
      "take {top(pile, game.n - 3)}" if game.n == 2:
        pass
      "pass":
        pass
    end game
flow:
  - turn: take_turn
"""


def load(tmp_path):
    path = tmp_path / "parts.yaml"
    path.write_text(GAME, encoding="utf-8")
    return load_game(path)


def test_an_error_in_a_log_text_part_points_at_that_part(tmp_path):
    with pytest.raises(RuleError) as err:
        load(tmp_path).new_game(1, seed=1)
    assert str(err.value).startswith(f"{tmp_path / 'parts.yaml'}:14:18: ") and "top(zone, n) needs n of 0 or more, not -1" in str(err.value)


def test_an_error_in_an_option_text_part_points_at_that_part(tmp_path):
    path = tmp_path / "parts2.yaml"
    path.write_text(GAME.replace("  n: 1", "  n: 2"), encoding="utf-8")  # (no log line: the option is offered)
    with pytest.raises(RuleError) as err:
        load_game(path).new_game(1, seed=1).legal_actions()
    assert str(err.value).startswith(f"{path}:16:14: ") and "needs n of 0 or more, not -1" in str(err.value)
