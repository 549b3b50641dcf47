"""``roll(n)``: a die of ``n`` sides, 1 to ``n`` from the game's seeded random numbers; a die of no sides
is a located error, not a silent 1."""

from __future__ import annotations

import pytest

from interpreter import RuleError, load_game

GAME = """\
game: Dice
players: {min: 1, max: 1}
components:
  - {name: token, zone: box}
zones:
  box: {}
game_variables:
  sides: 6
  total: 0
procedures:
  take_turn(player p): |
    repeat 600 times:
      game.total += roll(game.sides)
    log "{game.total}"
    ask p to choose one of ["roll again"] as x "go"
    end game
flow:
  - turn: take_turn
"""


def dice(tmp_path, sides):
    path = tmp_path / "dice.yaml"
    path.write_text(GAME.replace("sides: 6", f"sides: {sides}"), encoding="utf-8")
    return load_game(path)


def test_a_roll_is_a_number_from_one_to_the_sides_of_the_die_and_the_same_for_the_same_seed(tmp_path):
    game = dice(tmp_path, 6)
    totals = [game.new_game(1, seed=seed).gv["total"] for seed in range(5)]
    assert totals == [game.new_game(1, seed=seed).gv["total"] for seed in range(5)]
    assert all(600 * 3 <= t <= 600 * 4 for t in totals), totals  # the mean of 600 rolls of a d6 is 3.5
    assert dice(tmp_path, 1).new_game(1, seed=3).gv["total"] == 600


@pytest.mark.parametrize("sides", [0, -5])
def test_a_die_of_no_sides_is_a_located_error(tmp_path, sides):
    with pytest.raises(RuleError) as err:
        dice(tmp_path, sides).new_game(1, seed=1)
    assert str(err.value).startswith(f"{tmp_path / 'dice.yaml'}:13:21: procedures.take_turn(player p): "
                                     f"roll(n) needs n of 1 or more (the sides of a die), not {sides}")
