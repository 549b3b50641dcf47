"""``ask P to choose one of CARDS``, the commonest decision, is listed by one helper, called from generated code.

Identical cards (the same name) are one option, whose value is the first of them in the list; a single
option is taken without asking; no option is a located error.  The procedure's generated code calls the
runtime's ``chooser_card_options`` itself (no option builder in between: ``one_card_options`` for a chooser who
sees every card); ``ask each`` of one card, whose options an option builder (``decisions.options_builder``)
makes, lists them with the same helper.
"""

from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.errors import RuleError

GAME = """\
game: Pick
players: {min: 2, max: 2}
components:
  - {name: ace, count: 2, zone: table}
  - {name: king, zone: table}
  - {name: queen, count: 2, zone: table}
zones:
  table: {visibility: public}
  hand: {per: player, visibility: public}
procedures:
  take_turn(player p): |
    ask p to choose one of table as picked "take"
    move picked to hand(p)
setup: |
  pass
flow:
  - turn: take_turn
    until: size(table) == 0
scoring:
  score: size(hand(p))
"""


def load(tmp_path, text=GAME):
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(path)


def test_identical_cards_are_one_option_whose_value_is_the_first_of_them(tmp_path):
    game = load(tmp_path)
    state = game.new_game(2, seed=1)  # nothing shuffles: the table holds ace, ace, king, queen, queen (ids 0-4)
    table, hand = game.zone_index("table"), game.zone_index("hand(1)")
    assert state.zones[table] == [0, 1, 2, 3, 4]
    assert state.legal_actions(0) == ["take ace", "take king", "take queen"]  # in the order the table lists them
    state.apply(0, "take queen")
    assert state.zones[hand] == [3]  # the first queen of the table, not the second
    assert state.legal_actions(1) == ["take ace", "take king", "take queen"]
    state.apply_id(1, 0)
    assert state.zones[hand + 1] == [0] and state.zones[table] == [1, 2, 4]


def test_a_single_option_is_taken_without_asking(tmp_path):
    game = load(tmp_path, GAME.replace("  - {name: king, zone: table}\n  - {name: queen, count: 2, zone: table}\n", ""))
    state = game.new_game(2, seed=1)  # two aces: one option each turn, taken at once
    assert state.is_terminal() and state.history == []
    assert [state.zones[game.zone_index(f"hand({seat})")] for seat in (1, 2)] == [[0], [1]]


def test_no_option_is_a_located_rule_error(tmp_path):
    game = load(tmp_path, GAME.replace("zone: table}", "zone: box}").replace("  table: {visibility: public}\n",
                                                                          "  table: {visibility: public}\n  box: {}\n")
                .replace("until: size(table) == 0", "until: size(hand(seat(1))) > 0"))
    with pytest.raises(RuleError) as info:
        game.new_game(2, seed=1)
    assert str(info.value).split("\n")[0].endswith(
        ":13:5: procedures.take_turn(player p): player 1 has nothing to choose from")


def test_the_choice_is_listed_by_generated_code_without_an_option_builder(tmp_path):
    from interpreter.runtime.decisions import chooser_card_options

    game = load(tmp_path)
    builders = [k for k in game.code.constants if getattr(k, "__name__", "") == "build_one_card"]
    assert builders == [] and chooser_card_options in game.code.constants


def test_ask_each_of_one_card_lists_the_options_alike(tmp_path):
    """The same table, asked of everyone at once: the same options, in the same order, the same values."""
    game = load(tmp_path, GAME.replace('ask p to choose one of table as picked "take"\n    move picked to hand(p)',
                                       'ask each q in [p] to choose one of table as picked "take"\n'
                                       '    move picked[p] to hand(p)'))
    state = game.new_game(2, seed=1)
    assert state.pending.each and state.legal_actions(0) == ["take ace", "take king", "take queen"]
    state.apply(0, "take queen")
    assert state.zones[game.zone_index("hand(1)")] == [3]
