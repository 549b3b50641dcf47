"""A zone's ``show_text``: the terminal prints the text property of the zone's top card (a card's rules
text, such as the ability a card on top of a pile has) to whoever sees that card, and nobody else."""

from __future__ import annotations

import pytest
from rich.console import Console

from interpreter import load_game
from interpreter.errors import DefinitionError
from interpreter.render import render_view

GAME = """\
game: Shown texts
players: {min: 2, max: 2}
properties:
  text: ""
  power: 0
components:
  - {name: owl, text: "Sees in the dark.", zone: deck}
  - {name: fox, text: "Outfoxes a hound.", zone: deck}
  - {name: mole, text: "Digs.", zone: deck}
zones:
  deck: {visibility: hidden, show_text: text}
  hand: {per: player, visibility: owner, show_text: text}
  row: {per: player, visibility: public, show_text: text}
  table: {visibility: public, show_text: text}
procedures:
  turn(player p): |
    pass
flow:
  - phase: play
    turn: turn
    until: game.turn >= 1
scoring:
  score: 0
"""


def drawn(tmp_path, zones: dict, seat) -> str:
    path = tmp_path / "shown.yaml"
    path.write_text(GAME, encoding="utf-8")
    state = load_game(path).new_game(2, 0, scenario={"zones": zones})
    console = Console(width=120, record=True, color_system=None, file=open("/dev/null", "w"))
    render_view(console, state.game, state.view(seat), seat)
    return console.export_text()


def test_the_top_card_of_a_public_zone_shows_its_text_to_everyone(tmp_path):
    for seat in (0, 1, None):
        text = drawn(tmp_path, {"row(1)": ["owl", "fox"], "table": ["mole"]}, seat)
        assert "↳ Outfoxes a hound." in text      # the top of player 1's row: the fox
        assert "Sees in the dark" not in text     # the owl is under it
        assert "↳ Digs." in text                  # the table's only card


def test_a_card_only_its_owner_sees_shows_its_text_to_its_owner_only(tmp_path):
    assert "↳ Outfoxes a hound." in drawn(tmp_path, {"hand(1)": ["fox"]}, 0)
    for seat in (1, None):
        assert "Outfoxes" not in drawn(tmp_path, {"hand(1)": ["fox"]}, seat)


def test_a_hidden_zone_never_shows_the_text_of_its_top_card(tmp_path):
    for seat in (0, 1, None):
        text = drawn(tmp_path, {"deck": ["owl", "fox"]}, seat)
        assert "Outfoxes" not in text and "Sees in the dark" not in text


@pytest.mark.parametrize("value, expected", [
    ("power", "show_text names 'power', which is not a text property of the cards (text properties: text)"),
    ("colour", "show_text names 'colour', which is not a text property of the cards (text properties: text)"),
])
def test_show_text_must_name_a_text_property_of_the_cards(tmp_path, value, expected):
    path = tmp_path / "bad.yaml"
    path.write_text(GAME.replace("row: {per: player, visibility: public, show_text: text}",
                                 f"row: {{per: player, visibility: public, show_text: {value}}}"), encoding="utf-8")
    with pytest.raises(DefinitionError) as error:
        load_game(path)
    message = str(error.value)
    assert expected in message and "bad.yaml:" in message and "zones.row.show_text" in message
