"""A per-space zone of a space value (``pile(sp)``) is a dict lookup in the generated code, with no
helper call; a value that is not a space is still a located error there (runtime/values.py, SpaceIndex)."""

from __future__ import annotations

import pickle

import pytest

from interpreter import RuleError, load_game
from interpreter.runtime import values as X

GAME = """\
game: Token ring
players: {min: 1, max: 1}
components:
  - {name: red token, zone: supply}
board:
  ring: {spaces: [a, b, c]}
zones:
  supply: {}
  pile: {per: space}
game_variables:
  target: b
procedures:
  take_turn(player p): |
    let sp = first([each x in spaces where x == game.target])
    move first(supply) to pile(sp)
    log "{size(pile(sp))} on {sp}"
    end game
flow:
  - turn: take_turn
"""


def load(tmp_path, text=GAME):
    path = tmp_path / "ring.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(path), path


def test_the_zone_of_a_space_is_looked_up_in_the_generated_code_without_a_call(tmp_path):
    game, _ = load(tmp_path)
    source = game.code.source()
    assert "[e['sp']]" in source
    index = [k for k in game.code.constants if isinstance(k, X.SpaceIndex)]
    assert index and not any(k is getattr(X, "space_zone", None) for k in game.code.constants)
    assert game.new_game(1).log == ["1 on b"]


def test_a_value_that_is_not_a_space_is_a_located_error_at_the_zone(tmp_path):
    game, path = load(tmp_path, GAME.replace("target: b", "target: d"))
    with pytest.raises(RuleError) as info:
        game.new_game(1)
    assert str(info.value).startswith(f"{path}:15:27: procedures.take_turn(player p): the space is none, so it has no zone here\n")


def test_a_space_index_survives_pickling_with_its_place():
    index = X.SpaceIndex({"a": 3}, "here")
    again = pickle.loads(pickle.dumps(index))
    assert again == {"a": 3} and again.loc == "here"
    with pytest.raises(RuleError, match="'z' is not a space of the board"):
        again["z"]
