"""Loading does no work it does not need: what a process has checked once is not checked again."""

from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.errors import DefinitionError
from interpreter.loader import schema
from turn_games import TURN_END

SMALL = """game: Small
players: {min: 2, max: 2}
components:
  - {name: token, count: 2, zone: deck}
zones: {deck: {}}
procedures:
  take_turn(player p): |
    pass
""" + TURN_END


def counted_validations(monkeypatch):
    """A list that grows by one each time a definition's data is checked against the schema."""
    runs = []
    load_schema = schema.load_schema

    def counted(name):
        runs.append(name)
        return load_schema(name)
    monkeypatch.setattr(schema, "load_schema", counted)
    monkeypatch.setattr(schema, "_VALID", set())
    return runs


def test_a_text_found_valid_is_not_validated_again_in_the_same_process(tmp_path, monkeypatch):
    runs = counted_validations(monkeypatch)
    path = tmp_path / "small.yaml"
    path.write_text(SMALL, encoding="utf-8")
    load_game(path)
    load_game(path)
    assert len(runs) == 1
    path.write_text(SMALL.replace("count: 2", "count: 3"), encoding="utf-8")  # another text: validated
    load_game(path)
    assert len(runs) == 2


def test_an_invalid_text_is_refused_every_time(tmp_path, monkeypatch):
    runs = counted_validations(monkeypatch)
    path = tmp_path / "small.yaml"
    path.write_text(SMALL.replace("players: {min: 2, max: 2}", "players: {min: two, max: 2}"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DefinitionError, match="players.min"):
            load_game(path)
    assert len(runs) == 2


def test_a_text_read_before_is_not_parsed_again_and_each_reader_gets_its_own_data(monkeypatch):
    from interpreter.loader import source as reading

    composed = []
    compose = reading.yaml.compose

    def counted(*args, **kwargs):
        composed.append(1)
        return compose(*args, **kwargs)
    monkeypatch.setattr(reading.yaml, "compose", counted)
    monkeypatch.setattr(reading, "_READ", {})
    first = reading.read_yaml_text(SMALL, "small.yaml")
    first.data["zones"]["deck"]["changed"] = True  # what one reader does to its data
    second = reading.read_yaml_text(SMALL, "small.yaml")
    assert len(composed) == 1
    assert second.data == reading.read_yaml_text(SMALL, "other.yaml").data  # (another file: parsed)
    assert "changed" not in second.data["zones"]["deck"] and second.marks == first.marks
    assert second.location(("zones", "deck")) == first.location(("zones", "deck"))
    assert len(composed) == 2


def test_a_text_read_before_is_located_by_the_positions_found_before(tmp_path, monkeypatch):
    from interpreter.loader import source as reading

    monkeypatch.setattr(reading, "_READ", {})
    worked = []
    locate = reading.Source._location

    def counted(self, *args):
        worked.append(args)
        return locate(self, *args)
    monkeypatch.setattr(reading.Source, "_location", counted)
    path = tmp_path / "small.yaml"
    path.write_text(SMALL, encoding="utf-8")
    with pytest.raises(DefinitionError) as first:
        load_game(path, variants=[str(tmp_path / "missing.yaml")])  # (a load that fails after locating)
    load_game(path)
    assert worked
    worked.clear()
    again = reading.read_yaml_file(path)
    load_game(path)
    assert worked == []  # every position found by the first loads
    assert again.location(("procedures",), 1, 1) == reading.read_yaml_text(SMALL, str(path)).location(
        ("procedures",), 1, 1)
    assert "missing.yaml" in str(first.value)


def test_a_position_inside_a_scalar_is_found_again_when_the_scalar_differs():
    from interpreter.loader import source as reading

    text = 'a:\n  b: "x = 1"\n'
    first = reading.read_yaml_text(text, "shared.yaml")
    second = reading.read_yaml_text(text, "shared.yaml")
    assert second.position(("a", "b"), 1, 5) == first.position(("a", "b"), 1, 5)
    second.data["a"]["b"] = "x=1"  # a value the loader rewrote: its own position, not the text's
    fresh = reading._read_yaml_text(text, "shared.yaml")
    fresh.data["a"]["b"] = "x=1"
    assert second.position(("a", "b"), 1, 3) == fresh.position(("a", "b"), 1, 3)
    assert first.position(("a", "b"), 1, 3) != second.position(("a", "b"), 1, 3)


LOGGED = """game: Logged
players: {min: 2, max: 2}
components:
  - {name: token, count: 2, zone: deck}
zones: {deck: {}, hand: {per: player}}
player_variables: {score: 0}
procedures:
  take_turn(player p): |
    log "{p} has {p.score + size(hand(p))} points and {top(deck)} on the deck"
""" + TURN_END


def test_a_log_part_s_pieces_that_are_no_cards_are_not_lowered_again_for_its_secrecy_check(tmp_path, monkeypatch):
    from interpreter.dsl import narration
    from interpreter.dsl.lower_expr import ExpressionLowering

    lowered = []
    collect, expr_code = narration.Dependencies.collect, ExpressionLowering.expr_code
    inside = []

    def collecting(self, node):
        inside.append(1)
        try:
            return collect(self, node)
        finally:
            inside.pop()

    def counted(self, node, scope, expect=None):
        if inside and inside[-1]:  # (not the parts of a piece being lowered)
            lowered.append(type(node).__name__)
        inside.append(0)
        try:
            return expr_code(self, node, scope, expect)
        finally:
            inside.pop()
    monkeypatch.setattr(narration.Dependencies, "collect", collecting)
    monkeypatch.setattr(ExpressionLowering, "expr_code", counted)
    path = tmp_path / "logged.yaml"
    path.write_text(LOGGED, encoding="utf-8")
    game = load_game(path)
    # hand(p) (to learn it is a zone), deck (a zone) and top(deck) (a card): their checks need their code;
    # p, p.score, size(hand(p)) and the sum are known from the analysis to be no card
    assert lowered == ["Call", "Name", "Call"]
    state = game.new_game(2, seed=1)
    assert state.narration(0)[-1] == "player 1 has 0 points and token on the deck"
