"""Returns checked at load (docs/dsl.md, "Returns"): a rule that declares ``-> kind`` gives a value of
that kind on every path, found by following the statements' control flow (not the last line only);
one that declares no result gives no value.  Base game, 'replace' and hooks alike.

The game is a test-only definition written here; each case adds one procedure to it (or a variant).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter import DefinitionError, load_game

GAME = """\
game: Returns
players: {min: 2, max: 2}
properties:
  value: 0
components:
  - {name: low, value: 1, zone: hand, per_player: true}
  - {name: high, value: 3, zone: hand, per_player: true}
zones:
  hand: {per: player, visibility: owner}
  pile: {visibility: public}
procedures:
  take_turn(player p): |
    ask p to choose one of hand(p) as card "play"
    move card to pile
    let ended = busts(p)
    if ended:
      pass
  busts(player p) -> bool: |
    return size(pile) > 3
PROCEDURE
flow:
  - turn: take_turn
    until: size(pile) == 4
scoring:
  score: 0
"""


def write_game(folder: Path, procedure: str = "") -> Path:
    path = folder / "returns.yaml"
    path.write_text(GAME.replace("PROCEDURE\n", textwrap.indent(textwrap.dedent(procedure).lstrip(), "  ")),
                    encoding="utf-8")
    return path


def variant(folder: Path, body: str) -> str:
    path = folder / "house.yaml"
    path.write_text("variant: house\ngame: Returns\n" + textwrap.dedent(body).lstrip(), encoding="utf-8")
    return str(path)


def error_of(path, variants=()) -> str:
    with pytest.raises(DefinitionError) as info:
        load_game(path, variants=list(variants))
    return str(info.value)


def first_line(message: str) -> str:
    return message.splitlines()[0]


def test_an_if_without_else_is_a_path_without_a_return(tmp_path):
    path = write_game(tmp_path, """
        pick(player p) -> card: |
          log "picking"
          if size(hand(p)) > 0:
            return top(hand(p))
        """)
    assert first_line(error_of(path)) == (
        f"{path}:22:5: procedures.pick(player p) -> card: pick() must return a card on every path, but when no "
        "condition of this 'if' holds (it has no 'else'), the path ends without a 'return'")


def test_every_branch_of_an_if_must_return_and_the_one_that_does_not_is_named(tmp_path):
    path = write_game(tmp_path, """
        pick(player p) -> card: |
          if size(hand(p)) > 1:
            return top(hand(p))
          elif size(hand(p)) == 1:
            log "one left"
          else:
            return none
        """)
    assert first_line(error_of(path)) == (
        f"{path}:24:7: procedures.pick(player p) -> card: pick() must return a card on every path, but this "
        "path ends after this line without a 'return'")


def test_if_elif_else_that_all_return_loads(tmp_path):
    path = write_game(tmp_path, """
        pick(player p) -> card: |
          if size(hand(p)) > 1:
            return top(hand(p))
          elif size(hand(p)) == 1:
            return bottom(hand(p))
          else:
            return none
        """)
    load_game(path)


def test_a_return_inside_a_for_does_not_cover_the_path_where_the_list_is_empty(tmp_path):
    path = write_game(tmp_path, """
        pick(player p) -> card: |
          for c in hand(p):
            return c
        """)
    assert first_line(error_of(path)) == (
        f"{path}:21:5: procedures.pick(player p) -> card: pick() must return a card on every path, but when this "
        "'for' goes through no item, the path ends without a 'return' (a 'return' inside a loop does not "
        "cover the path where the loop does not run)")


def test_a_return_inside_while_or_a_counted_repeat_does_not_cover_the_loop_not_running(tmp_path):
    path = write_game(tmp_path, """
        pick(player p) -> int: |
          while size(pile) < 10:
            return 1
        """)
    assert "when the condition of this 'while' is false from the start" in first_line(error_of(path))
    path = write_game(tmp_path, """
        pick(player p) -> int: |
          repeat size(pile) times:
            return 1
        """)
    assert first_line(error_of(path)).startswith(f"{path}:21:5: procedures.pick(player p) -> int: pick() must "
                                                 "return a number on every path, but when this 'repeat' runs "
                                                 "zero times")


def test_loops_that_provably_run_count_and_a_break_out_of_them_is_a_path(tmp_path):
    load_game(write_game(tmp_path, """
        pick(player p) -> int: |
          loop:
            if size(pile) > 0:
              return 1
            return 0
        """))
    load_game(write_game(tmp_path, """
        pick(player p) -> int: |
          repeat 2 times:
            return 1
        """))
    path = write_game(tmp_path, """
        pick(player p) -> int: |
          while true:
            if size(pile) > 0:
              break
            return 0
        """)
    assert first_line(error_of(path)) == (
        f"{path}:23:9: procedures.pick(player p) -> int: pick() must return a number on every path, but after "
        "this 'break' exits its loop, the path ends without a 'return'")


def test_end_game_ends_the_path(tmp_path):
    load_game(write_game(tmp_path, """
        pick(player p) -> card: |
          if size(hand(p)) > 0:
            return top(hand(p))
          log "no card left: the game ends."
          end game
        """))


def test_a_menu_returns_on_every_path_when_every_option_does(tmp_path):
    load_game(write_game(tmp_path, """
        pick(player p) -> card: |
          ask p:
            "the top" if size(hand(p)) > 0:
              return top(hand(p))
            "nothing":
              return none
        """))
    path = write_game(tmp_path, """
        pick(player p) -> card: |
          ask p:
            "the top" if size(hand(p)) > 0:
              return top(hand(p))
            "nothing":
              pass
        """)
    assert first_line(error_of(path)).startswith(f"{path}:25:9: procedures.pick(player p) -> card: pick() must "
                                                 "return a card on every path")


def test_a_value_returned_by_a_procedure_that_declares_no_result_is_refused(tmp_path):
    path = write_game(tmp_path, """
        tidy(player p): |
          if size(pile) > 0:
            return
          return 3
        """)
    assert first_line(error_of(path)) == (
        f"{path}:23:12: procedures.tidy(player p): tidy() declares no result (add '-> kind' after its parameters "
        "to give one): 'return' cannot give a value here (a bare 'return' ends it early)")


def test_a_bare_return_in_a_procedure_that_declares_a_result_is_refused(tmp_path):
    path = write_game(tmp_path, """
        pick(player p) -> card: |
          if size(hand(p)) > 0:
            return
          return none
        """)
    assert first_line(error_of(path)) == (
        f"{path}:22:7: procedures.pick(player p) -> card: pick() must return a card; a bare 'return' gives no "
        "value (write 'return none' to give nothing)")


def test_a_number_is_not_true_or_false_as_a_result(tmp_path):
    path = write_game(tmp_path, """
        full(player p) -> bool: |
          return 5
        """)
    assert first_line(error_of(path)) == (
        f"{path}:21:12: procedures.full(player p) -> bool: full() returns true/false, not a number")
    path = write_game(tmp_path, """
        count_of(player p) -> ints: |
          return [true, false]
        """)
    assert "count_of() returns a list of numbers, not a list of true/false" in first_line(error_of(path))


def test_an_instead_hook_must_return_on_every_path_and_the_right_kind(tmp_path):
    game = write_game(tmp_path)
    house = variant(tmp_path, """
        instead:
          busts:
            do: |
              log "never"
        """)
    assert first_line(error_of(game, [house])) == (
        f"{house}:6:7: instead.busts.do: this instead hook of busts() must return true/false on every path, but "
        "this path ends after this line without a 'return'")
    house = variant(tmp_path, """
        instead:
          busts:
            if: size(pile) > 1
            do: return 5
        """)
    assert first_line(error_of(game, [house])) == (
        f"{house}:6:16: instead.busts.do: this instead hook of busts() returns true/false, not a number")


def test_the_crazy_eights_style_instead_hook_that_ends_the_game_loads(tmp_path):
    game = write_game(tmp_path, """
        draw(player p) -> card: |
          return top(hand(p))
        """)
    load_game(game, variants=[variant(tmp_path, """
        instead:
          draw:
            if: size(hand(p)) == 0
            do: |
              log "The stock is empty: the game ends."
              end game
        """)])


def test_hooks_of_a_procedure_without_result_give_no_value(tmp_path):
    game = write_game(tmp_path, """
        tidy(player p): |
          pass
        """)
    for when, expected in (("instead", "tidy() declares no result, so neither does this instead hook"),
                           ("after", "a after hook gives no result (an instead hook answers for tidy())")):
        house = variant(tmp_path, f"""
            {when}:
              tidy:
                do: return 3
            """)
        assert first_line(error_of(game, [house])) == (
            f"{house}:5:16: {when}.tidy.do: {expected}: 'return' cannot give a value here (a bare 'return' ends "
            "it early)")


def test_a_replaced_procedure_is_checked_like_the_one_it_replaces(tmp_path):
    game = write_game(tmp_path)
    house = variant(tmp_path, """
        replace:
          procedures:
            busts(player p) -> bool: |
              if size(pile) > 3:
                return true
        """)
    assert first_line(error_of(game, [house])) == (
        f"{house}:6:7: replace.procedures.busts(player p) -> bool: busts() must return true/false on every path, "
        "but when no condition of this 'if' holds (it has no 'else'), the path ends without a 'return'")
