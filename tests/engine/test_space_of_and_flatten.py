"""The builtins space_of() and flatten(): where a piece stands on the board, and every piece on it.

Pieces that move on a board live in per-space zones; rules need to ask which
space holds a piece (to ask the board where a step leads from there) and to
gather the pieces of every space into one list.  Proved on a tiny game.
"""

from __future__ import annotations

import pytest

from interpreter import DSLTypeError, load_game

TOKENS = """\
game: Token ring
players: {min: 1, max: 1}
components:
  - {name: red token, zone: supply}
  - {name: blue token, zone: supply}
  - {name: green token, zone: supply}
  - {name: yellow token, zone: supply}
board:
  ring: {spaces: [a, b, c]}
zones:
  supply: {}
  pile: {per: space}
procedures:
  report(player p): |
    for t in flatten(each sp in spaces: pile(sp)):
      log "{t} is on {space_of(t)}"
    log "{first(supply)} is on {space_of(first(supply))}"
    log "the second pile is on {space_of(pile(spaces[1]))}"
    log "numbers: {flatten([[1, 2], [], [3]])}"
    end game
flow:
  - turn: report
"""


def report(tmp_path, text=TOKENS):
    path = tmp_path / "tokens.yaml"
    path.write_text(text)
    game = load_game(path)
    state = game.new_game(1, scenario={"zones": {"pile(b)": ["red token", "blue token"], "pile(c)": ["green token"]}})
    return state.log


def test_space_of_names_the_space_whose_pile_holds_the_card_and_flatten_lists_piles_in_board_order(tmp_path):
    assert report(tmp_path)[:3] == ["red token is on b", "blue token is on b", "green token is on c"]


def test_space_of_a_card_off_the_board_is_none(tmp_path):
    assert report(tmp_path)[3] == "yellow token is on none"


def test_space_of_a_per_space_zone_is_its_space(tmp_path):
    assert report(tmp_path)[4] == "the second pile is on b"


def test_flatten_joins_lists_in_order(tmp_path):
    assert report(tmp_path)[5] == "numbers: 1, 2, 3"


def test_flatten_of_a_plain_list_of_cards_is_a_located_type_error(tmp_path):
    bad = TOKENS.replace("for t in flatten(each sp in spaces: pile(sp)):", "for t in flatten(supply):")
    with pytest.raises(DSLTypeError, match=r"tokens\.yaml:\d+:\d+.*flatten\(\) joins a list of lists or zones, "
                                           r"not a list of cards"):
        report(tmp_path, bad)
