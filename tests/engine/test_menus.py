"""'ask p:' menus: the open options are offered in order, and choosing one runs exactly that option's code."""

from __future__ import annotations

import pytest

from interpreter import State, load_game


def menu_game(tmp_path, options: int, conditional: set):
    """A menu of numbered options; option i adds i to game.total; conditional ones are open while total < 5."""
    lines = []
    for i in range(1, options + 1):
        cond = " if game.total < 5" if i in conditional else ""
        lines.append(f'      "option {i}"{cond}:\n        game.total += {i}\n')
    text = ("game: Menu\nplayers: {min: 2, max: 2}\nzones: {deck: {}}\ngame_variables: {total: 0, after: 0}\n"
            "procedures:\n  take_turn(player p): |\n    ask p:\n" + "".join(lines) + "    game.after += 1\n"
            "flow:\n  - phase: play\n    turn: take_turn\n    until: game.turn >= 4\n")
    path = tmp_path / "menu.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(path)


@pytest.mark.parametrize("options, conditional", [(3, set()), (3, {2}), (12, set()), (12, {1, 7, 12})],
                         ids=["fixed", "with a condition", "twelve options", "twelve with conditions"])
def test_choosing_an_option_runs_that_option_and_then_what_follows_the_menu(tmp_path, options, conditional):
    game = menu_game(tmp_path, options, conditional)
    state = game.new_game(2, seed=0)
    assert state.legal_actions(0) == [f"option {i}" for i in range(1, options + 1)]
    state.apply(0, "option 3")
    assert (state.gv["total"], state.gv["after"]) == (3, 1)
    # a save made at a menu resumes at the same menu
    state = State.from_json(game, state.to_json())
    state.apply(1, f"option {options}")
    assert (state.gv["total"], state.gv["after"]) == (3 + options, 2)
    closed = {i for i in conditional}  # total is now >= 5: conditional options are closed
    assert state.legal_actions(0) == [f"option {i}" for i in range(1, options + 1) if i not in closed]


def test_a_menu_with_one_open_option_runs_it_without_asking(tmp_path):
    game = menu_game(tmp_path, 2, {1})
    state = game.new_game(2, seed=0)
    state.apply(0, "option 2")  # total 2: both still open for seat 2
    state.apply(1, "option 2")  # total 4
    state.apply(0, "option 2")  # total 6: on turn 4 only option 2 is open, taken at once, and the game ends
    assert state.is_terminal()
    assert (state.gv["total"], state.gv["after"]) == (8, 4)


OTHER_PLAYER = """game: Other
players: {min: 3, max: 3}
components: [{name: chip, count: 2, zone: pool}, {name: coin, count: 1, zone: pool}]
zones: {pool: {}, pile: {}}
game_variables: {picked_by: 0}
procedures:
  take_turn(player p): |
    ask next_player(p):
      "yes":
        game.picked_by = 1
      "no" if size(pool) > 0:
        pass
    ask previous_player(p) to choose one of pool as taken "take"
    move taken to pile
flow:
  - phase: play
    turn: take_turn
"""


def test_the_player_asked_can_be_any_player_expression(tmp_path):
    path = tmp_path / "other.yaml"
    path.write_text(OTHER_PLAYER, encoding="utf-8")
    state = load_game(path).new_game(3, seed=0)
    assert state.current_players() == [1] and state.legal_actions(1) == ["yes", "no"]
    state.apply(1, "no")
    assert state.current_players() == [2] and state.legal_actions(2) == ["take chip", "take coin"]
