"""Located run-time errors, always (issue 25, item 4): a rule that fails while the game runs is a Ribbit
error at the line of the rule that caused it (a flow key's expression at its own line, not at 'flow:'),
in the effect language's words: no Python class name, no Python message, no Python 'None'.

The hostile suite runs the same oracle for every flow key and every builtin (tests/hostile/cases.py,
located_runtime_error_cases); these tests pin the exact messages.
"""

from __future__ import annotations

import re

import pytest

from interpreter import RuleError, load_game
from interpreter.runtime.sandbox import in_ribbit_words

GAME = """\
game: Located
players: {min: 2, max: 2}
properties:
  value: 0
components:
  - {name: low, value: 1, zone: hand, per_player: true}
  - {name: high, value: 3, zone: hand, per_player: true}
zones:
  hand: {per: player, visibility: owner}
  pile: {visibility: public}
  box: {visibility: public}
procedures:
  take_turn(player p): |
    TURN
    ask p to choose one of hand(p) as card "play"
    move card to pile
  tally(): |
    pass
flow:
  - turn: take_turn
    first: "FIRST"
    until: "UNTIL"
ROUNDS
scoring:
  score: 0
"""
NONE_INT = "first(each c in box: c.value)"  # a number to the checks at load; none while the game runs
PYTHON = re.compile(r"Error|Exception|NoneType|None\b|unsupported operand|object is not")


def write(tmp_path, turn="pass", first="seat(1)", until="size(pile) == 2", rounds=""):
    text = (GAME.replace("TURN", turn).replace("FIRST", first).replace("UNTIL", until)
            .replace("ROUNDS\n", rounds))
    path = tmp_path / "located.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def line_of(text, needle):
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_first_that_fails_is_located_at_its_own_line_in_ribbit_words(tmp_path):
    path, text = write(tmp_path, first=f"seat(1 + {NONE_INT})")
    game = load_game(path)
    with pytest.raises(RuleError) as info:
        game.new_game(2, seed=1)
    message = str(info.value)
    assert message.splitlines()[0] == (f"{path}:{line_of(text, 'first:')}:18: flow[0].first: '+' cannot work on "
                                       "a number and none (is a value none here?)")
    assert not PYTHON.search(message)


def test_an_until_that_fails_is_located_at_its_own_line_and_the_action_is_undone(tmp_path):
    path, text = write(tmp_path, until=f"size(pile) + {NONE_INT} == 2")
    state = load_game(path).new_game(2, seed=1)
    with pytest.raises(RuleError) as info:
        state.apply(0, "play low")
    assert str(info.value).splitlines()[0] == (f"{path}:{line_of(text, 'until:')}:13: flow[0].until: '+' cannot "
                                               "work on a number and none (is a value none here?)")
    assert state.history == [] and state.current_players() == [0]


def test_the_until_of_a_second_phase_is_located_at_that_phase(tmp_path):
    rounds = f'  - round: [tally]\n    until: "game.round + {NONE_INT} > 2"\n'
    path, text = write(tmp_path, until="size(pile) == 1", rounds=rounds)
    state = load_game(path).new_game(2, seed=1)
    with pytest.raises(RuleError) as info:
        state.apply(0, "play low")
    assert str(info.value).splitlines()[0].startswith(f"{path}:{line_of(text, 'game.round')}:13: flow[1].until: ")


def test_an_unforeseen_failure_is_told_in_ribbit_words_at_its_statement(tmp_path):
    path, text = write(tmp_path, turn=f"let n = abs({NONE_INT})")
    with pytest.raises(RuleError) as info:
        load_game(path).new_game(2, seed=1)
    message = str(info.value)
    assert message.splitlines()[0] == (
        f"{path}:{line_of(text, 'abs(')}:13: procedures.take_turn(player p): a rule failed while setting up the "
        "game: a value is of the wrong kind here (none, or a text, where a number or a card is needed?)")
    assert not PYTHON.search(message)
    assert type(info.value.__cause__) is TypeError  # the Python error stays the cause, for whoever debugs Ribbit


def test_sort_by_names_none_keys_as_the_effect_language_writes_them(tmp_path):
    path, _ = write(tmp_path, turn=f"let order = sort_by(each x in [1, 2]: {NONE_INT})")
    with pytest.raises(RuleError) as info:
        load_game(path).new_game(2, seed=1)
    assert "sort_by() cannot compare the keys none, none (keys must" in str(info.value)


@pytest.mark.parametrize("exc", [TypeError("unsupported operand type(s) for +: 'int' and 'NoneType'"),
                                 KeyError("x.3"), KeyError(("a", 1)), IndexError("list index out of range"),
                                 ZeroDivisionError("division by zero"), OverflowError("int too large"),
                                 ValueError("math domain error"), AttributeError("'NoneType' object has no attribute"),
                                 RuntimeError("boom")])
def test_every_python_error_is_described_without_python_words(exc):
    words = in_ribbit_words(exc)
    assert words and not PYTHON.search(words)
