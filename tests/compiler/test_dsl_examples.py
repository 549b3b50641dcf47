"""docs/dsl.md is run, so its examples cannot rot: every plain ```ribbit block is the turn of a small game.

(The other blocks of docs/dsl.md carry a ``check=`` in their info string: tests/compiler/test_dsl_reference.py runs them.)

The game (described in the doc where the examples start): three players, each holding two ``low`` cards
(value 1) and a ``high`` (value 3), a hidden ``deck`` of coins, a public ``pile``, a ring of four spaces; one turn each.
A ``# offers: "a", "b"`` comment gives the exact action texts player 1 is offered first; each example then
plays a whole game with random bots.
"""

from __future__ import annotations

import re
import textwrap

import pytest

from interpreter import load_game
from interpreter.agents import RandomAgent

from conftest import REPO_ROOT

DOC = REPO_ROOT / "docs" / "dsl.md"
BLOCK = re.compile(r"^```ribbit[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
OFFERS = re.compile(r"#\s*offers:\s*(.*)$", re.M)

GAME = """\
game: Asking
players: {min: 3, max: 3}
properties:
  value: 0
components:
  - {name: low, value: 1, count: 2, zone: hand, per_player: true}
  - {name: high, value: 3, zone: hand, per_player: true}
  - {name: coin, value: 1, count: 4, zone: deck}
board:
  ring: {spaces: [north, east, south, west], forward: clockwise, backward: counterclockwise}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  pile: {visibility: public}
player_variables:
  points: 0
procedures:
  take_turn(player p): |
%s
flow:
  - turn: take_turn
    until: game.turn >= 3
scoring:
  score: p.points
"""


def examples():
    text = DOC.read_text(encoding="utf-8")
    return [pytest.param(m.group(1), id=f"dsl.md:{text.count(chr(10), 0, m.start()) + 1}")
            for m in BLOCK.finditer(text)]


def test_the_asking_section_has_an_example_of_every_form():
    bodies = "\n".join(p.values[0] for p in examples())
    for form in ("to choose one of", "to choose 2 of", "to choose any number of", 'as stance ""',
                 "ask p:", '" for c in', "ask each q in players secretly",
                 "plus any number of"):
        assert form in bodies, form


@pytest.mark.parametrize("body", examples())
def test_a_dsl_example_offers_what_it_says_and_plays_to_the_end(tmp_path, body):
    path = tmp_path / "asking.yaml"
    path.write_text(GAME % textwrap.indent(body, "    "), encoding="utf-8")
    game = load_game(path)
    state = game.new_game(3, seed=0)
    said = OFFERS.search(body)
    if said:
        assert state.current_players()[0] == 0
        assert state.legal_actions(0) == re.findall(r'"([^"]*)"', said.group(1))
    bots = [RandomAgent(seed=i) for i in range(3)]
    for _ in range(1000):
        if state.is_terminal():
            break
        seat = state.current_players()[0]
        state.apply(seat, bots[seat].choose(None, state.legal_actions(seat)))
    assert state.is_terminal()
