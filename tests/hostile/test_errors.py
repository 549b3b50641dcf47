"""Every bad input gets a located, one-paragraph error -- never a traceback -- and loses nothing.

Bad definitions are small edits of TINY_DUEL, a two-player card game written here
so these tests do not depend on Frog Tower, plus a few copies of frog_tower.yaml
with one line broken.  Positions are checked against where the offending text
really is in the file (``position``), and whole messages are asserted.
"""

from __future__ import annotations

import copy
import json
import random
import re
import tracemalloc
from pathlib import Path

import pytest

from interpreter import (DefinitionError, DSLNameError, DSLSyntaxError, DSLTypeError, IllegalActionError,
                         RuleError, SaveFileError, State, load_game)
from interpreter.loader.source import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES

BAD = Path(__file__).parents[1] / "bad"
FROG_TOWER = Path(__file__).parents[2] / "definitions" / "frog_tower.yaml"

# Each player holds a low and a high card and plays one per turn; a deck of coins sits unused.
TINY_DUEL = """\
game: Tiny Duel
players: {min: 2, max: 2}
properties:
  value: 0
components:
  - {name: low, value: 1, zone: hand, per_player: true}
  - {name: high, value: 3, zone: hand, per_player: true}
  - {name: coin, value: 1, count: 4, zone: deck}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  pile: {visibility: public}
game_variables:
  plays: 0
player_variables:
  points: 0
events:
  played: {card: card, player: player}
procedures:
  take_turn(player p): |
    ask p to choose one of hand(p) as card "play"
    move card to pile
    p.points += card.value
    game.plays += 1
    emit played(card=card, player=p)
setup: |
  shuffle deck
flow:
  - turn: take_turn
    until: size(hand(seat(2))) == 0
scoring:
  score: p.points
"""


# ---------------------------------------------------------------- helpers
def variant(old: str, new: str, text: str = TINY_DUEL) -> str:
    """``text`` with the one occurrence of ``old`` replaced by ``new``."""
    assert text.count(old) == 1, f"{old!r} must occur exactly once"
    return text.replace(old, new)


def write(tmp_path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path, text: str, cls=DefinitionError):
    """Load ``text`` as a definition; return (path, error), checking the error's exact class."""
    path = write(tmp_path, text)
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert type(info.value) is cls, f"{type(info.value).__name__}: {info.value}"
    return path, info.value


def position(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the nth occurrence of ``needle`` in ``text``."""
    index = -1
    for _ in range(nth):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def located(path, text: str, needle: str, key: str | None, message: str, nth: int = 1, shift: int = 0) -> str:
    """The full expected message: ``file:line:col: key: message`` and a caret under ``needle`` (+ shift),
    or under the ``^`` inside ``needle`` ("n += ^x": the caret under x)."""
    if "^" in needle:
        shift += needle.index("^")
        needle = needle.replace("^", "")
    line, column = position(text, needle, nth)
    column += shift
    source_line = text.split("\n")[line - 1]
    head = f"{path}:{line}:{column}: " + (f"{key}: " if key else "") + message
    return f"{head}\n    {source_line}\n    {' ' * (column - 1)}^"


def snapshot(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


# ================================================================ 1. malformed YAML
def test_misaligned_key_is_a_yaml_syntax_error_at_that_key(tmp_path):
    text = variant("  pile: {visibility: public}", "   pile: {visibility: public}")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "pile:", None,
                               "YAML syntax error: this line is not indented like the keys of the mapping that "
                               "starts at line 10, column 3; check the indentation (or quote a value that "
                               "contains ': ')")


def test_line_indented_under_a_plain_value_is_a_yaml_syntax_error_at_its_colon(tmp_path):
    text = variant("  points: 0\n", "  points: 0\n    bonus: 1\n")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, ": 1\n", None,
                               "YAML syntax error: a ':' that YAML cannot read here: the line may be indented too "
                               "far, or a value that contains ': ' needs quotes")


def test_unclosed_quote_at_the_end_points_at_the_opening_quote(tmp_path):
    text = variant("score: p.points", 'score: "p.points')
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, '"p.points', None,
                               'YAML syntax error: this quoted text is never closed: add the matching " at its end')


def test_unclosed_quote_that_swallows_lines_points_at_the_opening_quote(tmp_path):
    text = variant("game: Tiny Duel", 'game: "Tiny Duel')
    path, err = load_error(tmp_path, text)
    runs_to, _ = position(text, '"play"')
    assert str(err) == located(path, text, '"Tiny', None,
                               f"YAML syntax error: the quoted text that starts here runs on to line {runs_to}; "
                               "is its closing \" missing?")


ESCAPE_HELP = ("is not an escape that YAML reads in double quotes (escapes are such as \\\\, \\\", \\n, \\t, "
               "\\xHH, \\uHHHH or \\UHHHHHHHH, naming a Unicode character other than a surrogate); write a backslash as \\\\, or put the text "
               "in single quotes, where a backslash is itself")


@pytest.mark.parametrize("written, escape", [("C:\\Games\\duel", "\\G"), ("a \\q b", "\\q"), ("\\xZZ", "\\xZZ"),
                                             ("\\ud800 half", "\\ud800"), ("\\U00110000", "\\U00110000")])
def test_a_backslash_starting_no_escape_in_double_quotes_is_named_at_the_backslash_not_as_an_unclosed_quote(
        tmp_path, written, escape):
    text = variant("game: Tiny Duel", f'game: "Tiny {written}"')
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, escape, None, f"YAML syntax error: '{escape}' {ESCAPE_HELP}")


def test_tab_indentation_is_refused_at_the_tab(tmp_path):
    text = variant("  pile: {visibility: public}", "\tpile: {visibility: public}")
    path, err = load_error(tmp_path, text)
    line, _ = position(text, "\tpile")
    assert str(err) == (f"{path}:{line}:1: YAML syntax error: a tab character; YAML indentation must use spaces, "
                        "never tabs\n"
                        "     pile: {visibility: public}\n"
                        "    ^")


def test_duplicate_key_points_at_the_second_occurrence(tmp_path):
    text = variant("  pile: {visibility: public}\n", "  pile: {visibility: public}\n  deck: {visibility: public}\n")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "deck:", "zones.deck", "duplicate key 'deck'", nth=2)


def test_unclosed_flow_mapping_names_where_it_was_opened(tmp_path):
    text = variant("players: {min: 2, max: 2}", "players: {min: 2, max: 2")
    path, err = load_error(tmp_path, text)
    line, column = position(text, "{min")
    assert str(err).startswith(f"{path}:3:11: YAML syntax error: did not find expected ',' or '}}' to close the "
                               f"'{{' at line {line}, column {column}\n")


def test_key_without_its_colon_points_at_that_line(tmp_path):
    text = variant("scoring:\n", "scoring\n")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "scoring\n", None,
                               "YAML syntax error: this line is not 'key: value'; is its ':' missing?")


def test_expression_starting_with_a_star_says_to_quote_it(tmp_path):
    text = variant("score: p.points", "score: *p.points")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "*p", None,
                               "YAML syntax error: a value that starts with '*' is a YAML alias or anchor; "
                               "put text that starts with it in quotes")


def test_unquoted_list_expression_says_to_quote_it(tmp_path):
    text = variant("score: p.points", "score: [each c in pile: c.value]")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "[each", "scoring.score",
                               "expected text or a whole number, not a list; YAML reads a value that starts with "
                               "'[' or '{' as a list or mapping, so put an expression that starts with one in quotes")


def test_windows_line_endings_keep_positions_right(tmp_path):
    text = variant("    move card to pile\n", "    move crad to pile\n").replace("\n", "\r\n")
    path = tmp_path / "game.yaml"
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(DSLNameError) as info:
        load_game(path)
    assert (info.value.location.line, info.value.location.column) == position(text.replace("\r", ""), "crad")


def test_a_second_yaml_document_is_refused(tmp_path):
    text = TINY_DUEL + "---\ngame: Other\n"
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "---", None, "YAML syntax error: a definition is one YAML document, "
                                                        "but a second one starts here ('---')")


# ================================================================ 2. hostile YAML
def test_alias_bomb_is_refused_before_it_expands():
    tracemalloc.start()
    try:
        with pytest.raises(DefinitionError) as info:
            load_game(BAD / "alias_bomb.yaml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    text = (BAD / "alias_bomb.yaml").read_text()
    err = info.value
    assert err.message == (f"the document expands to more than {MAX_NODES} values (aliases repeating aliases?); "
                           "write the values out instead of nesting aliases")
    # the first alias of e (66 430 values each) that pushes the total over the limit
    assert (err.location.line, err.location.column) == position(text, "*e", nth=2)
    assert peak < 10_000_000  # nothing was expanded: 9**9 strings would need gigabytes


def test_alias_inside_its_own_anchor_is_refused(tmp_path):
    text = "game: &loop [Tiny, *loop]\n"
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "*loop", None,
                               "the alias *loop is used inside the value it names; that value would never end")


def test_alias_to_an_undefined_anchor_is_refused(tmp_path):
    text = "game: *name\n"
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "*name", None,
                               "the alias *name refers to no anchor &name defined before it")


def test_nesting_deeper_than_the_limit_is_refused_where_it_gets_too_deep(tmp_path):
    text = "game: " + "[" * 100 + "]" * 100 + "\n"
    path, err = load_error(tmp_path, text)
    column = len("game: ") + MAX_DEPTH + 1  # the first list nested MAX_DEPTH + 1 deep
    assert str(err).startswith(f"{path}:1:{column}: nesting deeper than {MAX_DEPTH} levels\n")


def test_nesting_that_would_overflow_the_parser_is_refused_not_crashed(tmp_path):
    depth = 300_000  # composing this many nested lists overflows libyaml's C stack
    path, err = load_error(tmp_path, "game: " + "[" * depth + "]" * depth + "\n")
    assert err.message == f"nesting deeper than {MAX_DEPTH} levels"
    assert err.excerpt.startswith("    ...[[[[") and len(err.excerpt.splitlines()[0]) < 120


def test_file_over_the_size_limit_is_refused_unread(tmp_path):
    path = write(tmp_path, "game: Tiny Duel\n" + "#" * MAX_FILE_BYTES)
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert str(info.value) == (f"{path}: file is {MAX_FILE_BYTES + 16} bytes; definitions are limited to "
                               f"{MAX_FILE_BYTES} bytes")


def test_non_utf8_byte_is_located_with_its_value():
    with pytest.raises(DefinitionError) as info:
        load_game(BAD / "latin1.yaml")
    assert str(info.value) == (f"{BAD / 'latin1.yaml'}:2:10: not UTF-8 text: byte 0xe9 cannot be decoded; "
                               "save the file as UTF-8\n"
                               "    game: Caf\N{REPLACEMENT CHARACTER} Duel\n"
                               "             ^")


def test_control_character_is_located(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_bytes(b"game: Tiny\x00Duel\n")
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert str(info.value) == (f"{path}:1:11: the control character '\\x00' is not allowed in YAML; remove it\n"
                               "    game: Tiny?Duel\n"
                               "              ^")


def test_python_object_tag_is_refused_by_safe_loading():
    text = (BAD / "python_object.yaml").read_text()
    with pytest.raises(DefinitionError) as info:
        load_game(BAD / "python_object.yaml")
    assert str(info.value) == located(BAD / "python_object.yaml", text, "!!python", "game",
                                      "the YAML tag '!!python/object/apply:os.system' is not allowed: a definition "
                                      "is plain data (text, numbers, true/false, lists and mappings), and tags "
                                      "that build objects are refused")


@pytest.mark.parametrize("tagged", ["!!python/object:os.system {}", "!!python/name:os.system", "!custom text",
                                    "!!set {a, b}", "!!binary aGVsbG8="])
def test_every_tag_that_builds_objects_is_refused(tmp_path, tagged):
    text = f"game: {tagged}\n"
    path, err = load_error(tmp_path, text)
    assert err.location.line == 1 and err.location.column == 7 and err.location.key == "game"
    assert err.message.startswith(f"the YAML tag '{tagged.split()[0]}' is not allowed")


def test_yaml_merge_keys_are_refused(tmp_path):
    text = "game: Merge\nbase: &base {min: 2}\nplayers:\n  <<: *base\n  max: 2\n"
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "<<", "players",
                               "YAML merge keys (<<) are not supported; write the keys out")


@pytest.mark.parametrize("text", ["", "# only a comment\n", "just some words\n"])
def test_empty_or_scalar_file_is_not_a_definition(tmp_path, text):
    path, err = load_error(tmp_path, text)
    assert str(err) == (f"{path}:1:1: a game definition must be a YAML mapping with keys such as game, players, "
                        "zones, flow")


def test_top_level_list_is_not_a_definition():
    with pytest.raises(DefinitionError) as info:
        load_game(BAD / "top_level_list.yaml")
    assert str(info.value) == (f"{BAD / 'top_level_list.yaml'}:1:1: a game definition must be a YAML mapping with "
                               "keys such as game, players, zones, flow")


def test_missing_file_and_directory_are_definition_errors(tmp_path):
    with pytest.raises(DefinitionError) as info:
        load_game(tmp_path / "nowhere.yaml")
    assert str(info.value) == f"{tmp_path / 'nowhere.yaml'}: cannot read the file: No such file or directory"
    with pytest.raises(DefinitionError) as info:
        load_game(tmp_path)
    assert str(info.value) == f"{tmp_path}: is a directory; expected a YAML file"


# ================================================================ 3. schema violations
def test_missing_flow_names_the_key_and_what_it_is(tmp_path):
    text = variant("flow:\n  - turn: take_turn\n    until: size(hand(seat(2))) == 0\n", "")
    path, err = load_error(tmp_path, text)
    assert str(err) == (f"{path}:1:1: missing required key 'flow' (the phases of the game, played in order)\n"
                        "    game: Tiny Duel\n"
                        "    ^")


def test_unknown_top_level_key_points_at_it_and_suggests_the_close_one(tmp_path):
    text = variant("scoring:", "scorring:")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "scorring", "scorring",
                               "unknown key 'scorring'; did you mean 'scoring'? Expected one of: board, components, counters, "
                               "description, events, flow, functions, game, game_variables, limits, parameters, "
                               "player_variables, players, procedures, properties, quantities, scoring, setup, "
                               "table, triggers, zones")


def test_unknown_key_with_no_close_match_lists_the_allowed_keys(tmp_path):
    text = variant("  pile: {visibility: public}", "  pile: {visibility: public, colour: red}")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "colour", "zones.pile.colour",
                               "unknown key 'colour'; expected one of: description, per, seen_by, show_text, visibility")


def test_players_min_of_the_wrong_type_says_a_whole_number_is_expected(tmp_path):
    text = variant("{min: 2, max: 2}", "{min: two, max: 2}")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "two", "players.min", "expected a whole number, not the text 'two'")


def test_bad_zone_visibility_lists_the_choices_and_the_closest(tmp_path):
    text = variant("pile: {visibility: public}", "pile: {visibility: hiden}")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "hiden", "zones.pile.visibility",
                               "'hiden' is not one of: public, hidden, owner, top; did you mean 'hidden'?")


def test_several_schema_errors_report_the_best_first_and_count_the_rest(tmp_path):
    text = variant("pile: {visibility: public}", "pile: {visibility: secret, per: everyone}")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "secret", "zones.pile.visibility",
                               "'secret' is not one of: public, hidden, owner, top "
                               "(1 more error; use --verbose to see all)")


def test_verbose_lists_every_schema_error_with_its_location(tmp_path):
    text = variant("pile: {visibility: public}", "pile: {visibility: secret, per: everyone}")
    path = write(tmp_path, text)
    with pytest.raises(DefinitionError) as info:
        load_game(path, verbose=True)
    line, column = position(text, "everyone")
    assert info.value.message == ("'secret' is not one of: public, hidden, owner, top\n"
                                  f"  {path}:{line}:{column}: zones.pile.per: 'everyone' is not one of: game, "
                                  "player, space")


def test_phase_with_both_turn_and_round_says_to_pick_one(tmp_path):
    text = variant("  - turn: take_turn\n", "  - turn: take_turn\n    round: [take_turn]\n")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "turn: take_turn", "flow[0]",
                               "use only one of 'turn' or 'round', not 'turn' and 'round' together")


def test_phase_with_neither_turn_nor_round_names_both(tmp_path):
    text = variant("  - turn: take_turn\n    until:", "  - until:")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "until:", "flow[0]", "needs one of 'turn' or 'round'")


def test_malformed_procedure_name_points_at_the_key(tmp_path):
    text = variant("take_turn(player p): |", "take turn: |")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "take turn", "procedures.take turn",
                               "'take turn' is not a valid name here; expected 'name(kind parameter, ...)', "
                               "optionally followed by '-> kind', e.g. 'deal(player p)'")


def test_a_signature_has_one_form_kind_then_name_and_name_first_is_refused_with_the_fix(tmp_path):
    text = variant("take_turn(player p): |", '"take_turn(p: player)": |')
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, '"take_turn', "procedures.take_turn(p: player)",
                               "'take_turn(p: player)' is not a valid name here; expected 'name(kind parameter, ...)', "
                               "optionally followed by '-> kind', e.g. 'deal(player p)'; write each parameter as its "
                               "kind, then its name: 'take_turn(player p)'")


def test_the_game_schema_writes_every_signature_kind_first():
    import re

    from interpreter.loader.schema import load_schema

    schema = load_schema("game.schema.json")
    text = json.dumps(schema)
    assert not re.findall(r"[a-z_]\((?:[a-z_]+: [a-z_]+)", text), "a description writes 'name(a: card)'"
    for part in ("functions", "procedures", "quantities"):
        assert schema["properties"][part]["propertyNames"] == {"$ref": "#/$defs/signature"}
        assert "(player p)" in schema["properties"][part]["description"] \
            or "(card a, card b)" in schema["properties"][part]["description"]
    pattern = re.compile(schema["$defs"]["signature"]["pattern"])
    assert all(pattern.match(key) for key in ("f()", "worth(card c) -> int", "move_all(player p, cards cs)"))
    assert not any(pattern.match(key) for key in ("worth(c: card)", "worth(card)", "worth(card c,)"))


def test_players_min_above_max_is_refused(tmp_path):
    text = variant("{min: 2, max: 2}", "{min: 3, max: 2}")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "{min", "players", "players.min is larger than players.max")


# ================================================================ 4. effect language at load
def test_syntax_error_in_a_literal_block_points_at_the_bad_token_in_the_file(tmp_path):
    text = variant("    move card to pile\n", "    move card pile\n")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "pile\n", "procedures.take_turn(player p)",
                               "unexpected 'pile'; expected 'of', 'to' or an operator")


def test_syntax_error_at_the_end_of_a_line_points_just_after_it(tmp_path):
    text = variant("    p.points += card.value\n", "    p.points += card.value +\n")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "+\n", "procedures.take_turn(player p)",
                               "unexpected end of line; expected a name, a number, a quoted string, 'false', "
                               "'none', 'true', '(', '-', '['", shift=1)


def test_syntax_error_in_a_plain_one_line_expression_points_at_the_token(tmp_path):
    text = variant("until: size(hand(seat(2))) == 0", "until: size(hand(seat(2))) == = 0")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "= 0", "flow[0].until",
                               "unexpected '='; expected a name, a number, a quoted string, 'false', "
                               "'none', 'true', '(', '-', '['")


def test_syntax_error_in_a_double_quoted_expression_counts_escapes(tmp_path):
    text = variant("score: p.points", 'score: "size([each c in pile where c.name == \\"low\\"]) + * 2"')
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert (err.location.line, err.location.column) == position(text, "* 2")
    assert err.message.startswith("unexpected '*'; expected a name")


def test_syntax_error_in_a_folded_block_points_at_the_line_it_is_on(tmp_path):
    text = variant("score: p.points", "score: >-\n    p.points +\n    * 2")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "* 2", "scoring.score",
                               "unexpected '*'; expected a name, a number, a quoted string, 'false', "
                               "'none', 'true', '(', '-', '['")


def test_name_error_in_a_plain_multiline_expression_points_at_the_line_it_is_on(tmp_path):
    text = variant("score: p.points", "score: p.points\n    + sise(pile)")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "sise", "scoring.score", "unknown function 'sise'; did you mean 'size'?")


def test_unexpected_indentation_points_at_the_indented_line(tmp_path):
    text = variant("    move card to pile\n", "      move card to pile\n")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "move card", "procedures.take_turn(player p)",
                               "unexpected indentation: only a line ending with ':' opens an indented block")


def test_dedent_to_no_open_block_points_at_that_line(tmp_path):
    text = variant("    game.plays += 1\n", "    if true:\n      game.plays += 1\n     pass\n")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "pass", "procedures.take_turn(player p)",
                               "this line is indented by 1 space, which lines up with no enclosing block "
                               "(blocks here are indented by 0 or 2)")


def test_missing_block_after_a_colon_says_so(tmp_path):
    text = variant("    game.plays += 1\n", "    if true:\n    game.plays += 1\n")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "game.plays", "procedures.take_turn(player p)",
                               "expected an indented block after the line ending with ':'")


def test_single_quoted_text_in_an_effect_hints_at_double_quotes(tmp_path):
    text = variant("    game.plays += 1\n", "    log 'played'\n")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "'played'", "procedures.take_turn(player p)",
                               "unexpected character \"'\" (text is written in double quotes)")


def test_unknown_name_suggests_the_close_one(tmp_path):
    text = variant("    move card to pile\n", "    move crad to pile\n")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "crad", "procedures.take_turn(player p)",
                               "unknown name 'crad'; did you mean 'card'?")


def test_unknown_function_suggests_the_builtin(tmp_path):
    text = variant("until: size(hand(seat(2))) == 0", "until: sise(hand(seat(2))) == 0")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "sise", "flow[0].until", "unknown function 'sise'; did you mean 'size'?")


def test_builtin_called_with_too_many_arguments(tmp_path):
    text = variant("until: size(hand(seat(2))) == 0", "until: size(hand(seat(2)), 1) == 0")
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "size", "flow[0].until", "size() takes 1 argument, got 2")


def test_user_function_called_with_the_wrong_number_of_arguments(tmp_path):
    text = variant("procedures:\n", "functions:\n  worth(card c): c.value * 2\nprocedures:\n")
    text = variant("    p.points += card.value\n", "    p.points += worth(card, 1)\n", text)
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "worth(card, 1)", "procedures.take_turn(player p)",
                               "worth() takes 1 argument (card c), got 2")


def test_card_where_a_player_is_needed(tmp_path):
    text = variant("    move card to pile\n", "    move card to hand(card)\n")
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "card)", "procedures.take_turn(player p)",
                               "the argument of hand() must be a player, not a card")


def test_card_passed_to_a_procedure_parameter_that_is_a_player(tmp_path):
    text = variant("procedures:\n", "procedures:\n  score_of(player q): |\n    q.points += 1\n")
    text = variant("    game.plays += 1\n", "    score_of(card)\n", text)
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "card)", "procedures.take_turn(player p)",
                               "argument 'q' of score_of() must be a player, not a card")


def test_comparing_a_card_with_a_player(tmp_path):
    text = variant("    game.plays += 1\n", "    if card == p:\n      game.plays += 1\n")
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "card == p", "procedures.take_turn(player p)",
                               "cannot compare a card with a player")


def test_sum_of_cards_asks_for_numbers(tmp_path):
    text = variant("until: size(hand(seat(2))) == 0", "until: sum(hand(seat(2))) == 0")
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "hand(seat", "flow[0].until",
                               "sum() adds numbers; give it a list of numbers, e.g. sum(each c in zone: c.value)")


def test_unknown_card_property_suggests_the_declared_one(tmp_path):
    text = variant("    p.points += card.value\n", "    p.points += card.vlue\n")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "card.vlue", "procedures.take_turn(player p)",
                               "cards have no property 'vlue'; did you mean 'value'?")


def test_unknown_zone_suggests_the_declared_one(tmp_path):
    text = variant("    move card to pile\n", "    move card to piles\n")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "piles", "procedures.take_turn(player p)",
                               "unknown name 'piles'; did you mean 'pile'?")


def test_per_player_zone_without_its_player_says_whose(tmp_path):
    text = variant("    move card to pile\n", "    move card to hand\n")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "hand\n", "procedures.take_turn(player p)",
                               "zone 'hand' belongs to each player; say whose: hand(p)")


def test_unknown_event_in_a_trigger_suggests_the_declared_one(tmp_path):
    text = variant("scoring:", "triggers:\n  - on: plaid\n    do: pass\nscoring:")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "plaid", "triggers[0].on",
                               "unknown event 'plaid'; did you mean 'played'? (events are declared under 'events:')")


def test_unknown_event_in_emit_is_a_name_error_at_the_emit(tmp_path):
    text = variant("    emit played(card=card, player=p)\n", "    emit plaid(card=card, player=p)\n")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert (err.location.line, err.location.column) == position(text, "emit plaid")
    assert err.message.startswith("unknown event 'plaid'; did you mean 'played'?")


def test_unknown_event_in_emit_reads_as_one_sentence(tmp_path):
    text = variant("    emit played(card=card, player=p)\n", "    emit plaid(card=card, player=p)\n")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert "?;" not in err.message


def test_procedure_used_inside_an_expression_says_to_call_it_as_a_statement(tmp_path):
    text = variant("until: size(hand(seat(2))) == 0", "until: take_turn(seat(1)) == 0")
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "take_turn(seat", "flow[0].until",
                               "take_turn() is a procedure (it changes the game); call it as a statement, "
                               "e.g. 'let x = take_turn(...)'")


def test_assigning_an_undeclared_variable_says_to_declare_it(tmp_path):
    text = variant("    game.plays += 1\n", "    total = 3\n")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "total", "procedures.take_turn(player p)",
                               "'total' is not a variable here; declare it first with 'let total = ...'")


def test_assigning_an_undeclared_game_variable_suggests_the_declared_one(tmp_path):
    text = variant("    game.plays += 1\n", "    game.ploys += 1\n")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "game.ploys", "procedures.take_turn(player p)",
                               "unknown game variable 'ploys'; did you mean 'plays'?")


def test_assigning_an_undeclared_player_variable_suggests_the_declared_one(tmp_path):
    text = variant("    p.points += card.value\n", "    p.pionts += card.value\n")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "p.pionts", "procedures.take_turn(player p)",
                               "players have no variable 'pionts'; did you mean 'points'?")


def test_card_properties_cannot_be_assigned(tmp_path):
    text = variant("    game.plays += 1\n", "    card.value = 3\n")
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "card.value = 3", "procedures.take_turn(player p)",
                               "card properties are fixed; keep changing values in player or game variables")


def test_duplicated_component_name_points_at_the_second_one(tmp_path):
    text = variant("  - {name: coin, value: 1, count: 4, zone: deck}\n",
                   "  - {name: coin, value: 1, count: 4, zone: deck}\n  - {name: low, zone: deck}\n")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "low", "components[3].name",
                               "component 'low' is declared twice (first at components[0])", nth=2)


def test_component_property_not_declared_in_properties(tmp_path):
    text = variant("{name: coin, value: 1, count: 4", "{name: coin, value: 1, colour: red, count: 4")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "red", "components[2].colour",
                               "unknown property 'colour' (every property is declared under 'properties:' "
                               "with its default value)")


def test_number_key_among_named_keys_is_read_as_a_name(tmp_path):
    text = variant("{name: high, value: 3, zone: hand", "{name: high, value: 3, 4: 5, zone: hand")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "4: 5", "components[1].4",
                               "unknown property '4' (every property is declared under 'properties:' "
                               "with its default value)", shift=3)


def test_misspelt_variable_next_to_a_number_named_variable_is_a_name_error(tmp_path):
    text = variant("player_variables:\n  points: 0", "player_variables:\n  5: 0")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert (err.location.line, err.location.column) == position(text, "p.points")


def test_component_starting_in_an_unknown_zone_suggests_the_declared_one(tmp_path):
    text = variant("count: 4, zone: deck}", "count: 4, zone: dek}")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "dek}", "components[2].zone", "unknown zone 'dek'; did you mean 'deck'?")


def test_flow_turn_naming_a_missing_procedure_suggests_the_declared_one(tmp_path):
    text = variant("turn: take_turn", "turn: take_trun")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "take_trun", "flow[0].turn",
                               "unknown procedure 'take_trun'; did you mean 'take_turn'?")


def test_flow_turn_procedure_must_take_one_player(tmp_path):
    text = variant("procedures:\n", "procedures:\n  tidy(): |\n    shuffle deck\n")
    text = variant("turn: take_turn", "turn: tidy", text)
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "tidy\n", "flow[0].turn",
                               "procedure 'tidy' must take one player parameter, e.g. take_turn(player p)")


def test_a_procedure_cannot_reuse_a_function_name(tmp_path):
    text = variant("procedures:\n", "functions:\n  take_turn(player p): p.points\nprocedures:\n")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "take_turn(player p): |", "procedures.take_turn(player p)",
                               "'take_turn' is already a function; names must be unique")


def test_unknown_parameter_kind_lists_the_kinds(tmp_path):
    text = variant("take_turn(player p): |", "take_turn(person p): |")
    path, err = load_error(tmp_path, text)
    assert str(err) == located(path, text, "take_turn(person", "procedures.take_turn(person p)",
                               "unknown kind 'person' for parameter 'p'; kinds are any, bool, card, cards, int, "
                               "ints, list, player, players, space, spaces, str, strs, zone")


def test_score_must_be_a_number(tmp_path):
    text = variant("score: p.points", "score: p")
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "p\n", "scoring.score", "expected a number, got a player")


def test_name_error_inside_log_braces_points_at_the_name(tmp_path):
    text = variant("    game.plays += 1\n", '    log "{p} now has {p.poinst} points"\n')
    path, err = load_error(tmp_path, text, DSLNameError)
    assert (err.location.line, err.location.column) == position(text, "p.poinst")


# ---------------------------------------------------------------- Frog Tower with one line broken
def frog_tower_error(tmp_path, old, new, cls):
    text = variant(old, new, FROG_TOWER.read_text(encoding="utf-8"))
    path, err = load_error(tmp_path, text, cls)
    return text, path, err


def test_frog_tower_misspelt_zone_in_a_procedure(tmp_path):
    text, path, err = frog_tower_error(tmp_path, "    move card to holding\n", "    move card to holdin\n",
                                       DSLNameError)
    assert str(err) == located(path, text, "holdin\n", "procedures.flip(player p) -> card",
                               "unknown name 'holdin'; did you mean 'holding'?")


def test_frog_tower_misspelt_function_on_the_second_line_of_a_folded_scalar(tmp_path):
    text, path, err = frog_tower_error(tmp_path, "(is_frog(a) and is_frog(b)", "(is_frog(a) and is_frg(b)",
                                       DSLNameError)
    assert str(err) == located(path, text, "is_frg", "functions.same_type(card a, card b)",
                               "unknown function 'is_frg'; did you mean 'is_frog'?")


def test_frog_tower_player_count_written_as_a_word(tmp_path):
    text, path, err = frog_tower_error(tmp_path, "players: {min: 2, max: 5}", "players: {min: 2, max: five}",
                                       DefinitionError)
    assert str(err) == located(path, text, "five", "players.max", "expected a whole number, not the text 'five'")


def test_frog_tower_tab_inside_a_procedure_block(tmp_path):
    text, path, err = frog_tower_error(tmp_path, "  take_turn(player p): |", "\ttake_turn(player p): |",
                                       DefinitionError)
    line, _ = position(text, "\ttake_turn")
    assert (err.location.line, err.location.column) == (line, 1)
    assert err.message == "YAML syntax error: a tab character; YAML indentation must use spaces, never tabs"


def test_frog_tower_unknown_game_variable_in_until(tmp_path):
    text, path, err = frog_tower_error(tmp_path, "until: game.last_turn", "until: game.last_trun", DSLNameError)
    assert str(err) == located(path, text, "game.last_trun", "flow[0].until",
                               "unknown game variable 'last_trun'; did you mean 'last_turn'?")


# ---------------------------------------------------------------- kinds checked everywhere (issue 10)
TAKE_TURN = "procedures.take_turn(player p)"


def test_a_list_mixing_cards_and_texts_is_refused_at_the_item_that_differs(tmp_path):
    text = variant("    move card to pile\n", '    let choices = [card, "draw"]\n    move card to pile\n')
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, '"draw"]', TAKE_TURN,
                               "a list holds values of one kind; this item is a text, but the items before it "
                               "make a list of cards")


def test_joining_cards_and_texts_with_plus_is_refused(tmp_path):
    # the example: 'playable(p) + ["draw"]' once offered 'play 47' and stopped with a TypeError
    text = variant('    ask p to choose one of hand(p) as card "play"\n',
                   '    ask p to choose one of hand(p) + ["draw"] as card "play"\n')
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, 'hand(p) + ["draw"]', TAKE_TURN,
                               "'+' joins lists of one kind, not cards and texts")


def test_a_variable_given_a_value_of_another_kind_is_refused(tmp_path):
    text = variant("    move card to pile\n", "    move card to pile\n    card = p\n")
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "p\n    p.points", TAKE_TURN,
                               "'card' holds a card; it cannot also hold a player (use another variable)")


def test_a_procedure_returning_a_text_where_it_declares_a_card_is_refused(tmp_path):
    text = variant("procedures:\n", 'procedures:\n  pick(player q) -> card: |\n    return "low"\n')
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, '"low"', "procedures.pick(player q) -> card",
                               "pick() returns a card, not a text")


def test_asking_among_values_of_unknown_kind_is_refused_as_labels_would_show_numbers(tmp_path):
    text = variant("procedures:\n", "procedures:\n  offer(player q, list xs): |\n"
                   "    ask q to choose one of xs as x\n")
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "xs as x", "procedures.offer(player q, list xs)",
                               "players choose among cards, players, spaces, numbers, texts or lists of them; "
                               "this is a list, which an action text cannot show")


def test_a_menu_entry_over_something_that_is_not_a_list_is_refused(tmp_path):
    text = variant('    ask p to choose one of hand(p) as card "play"\n',
                   '    ask p:\n      "play {card}" for card in p:\n        pass\n'
                   '    ask p to choose one of hand(p) as card "play"\n')
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, "p:\n        pass", TAKE_TURN,
                               "what a menu entry goes through must be a list or a zone, not a player")


def test_an_unknown_name_in_an_option_text_points_into_the_text(tmp_path):
    text = variant('    ask p to choose one of hand(p) as card "play"\n',
                   '    ask p:\n      "play {crad}" for card in hand(p):\n        pass\n'
                   '    ask p to choose one of hand(p) as card "play"\n')
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "crad}", TAKE_TURN, "unknown name 'crad'; did you mean 'card'?")


# ---------------------------------------------------------------- messages that say what was meant
def test_a_single_equals_in_a_condition_suggests_the_double_one(tmp_path):
    text = variant("until: size(hand(seat(2))) == 0", "until: size(hand(seat(2))) = 0")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "= 0", "flow[0].until",
                               "unexpected '='; did you mean '=='? ('==' compares two values; a single '=' "
                               "gives a variable a new value, on a line of its own)")


def test_a_statement_in_a_function_says_functions_change_nothing(tmp_path):
    text = variant("procedures:\n", "functions:\n  worth(card c): move c to pile\nprocedures:\n")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "move c to pile", "functions.worth(card c)",
                               "a function is one expression that computes a value and changes nothing; "
                               "'move' is a statement (write it in a procedure, under 'procedures:')")


def test_an_assignment_in_a_function_says_functions_change_nothing(tmp_path):
    text = variant("procedures:\n", "functions:\n  worth(card c): game.plays += 1\nprocedures:\n")
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, "game.plays += 1", "functions.worth(card c)",
                               "a function is one expression that computes a value and changes nothing; "
                               "this is an assignment (write it in a procedure, under 'procedures:')")


def test_a_forgotten_as_in_an_ask_shows_how_an_ask_is_written(tmp_path):
    text = variant('    ask p to choose one of hand(p) as card "play"\n',
                   '    ask p to choose one of hand(p) "play"\n')
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, '"play"', TAKE_TURN,
                               "unexpected '\"play\"'; expected 'as' and the name that receives the choice, "
                               'as in: ask p to choose one of hand(p) as card "play"')


GRID = Path(__file__).parents[1] / "definitions" / "board_grid.yaml"


@pytest.mark.parametrize("old, new, needle, message", [
    ("p.position = step(p.position, way)", 'p.position = step("r2c9", way)', '"r2c9"',
     'argument 1 of step() must be a space, not a text; did you mean "r2c3"?'),
    ("    for c in cell(p.position):", '    if p.position == "r2c9":\n      pass\n    for c in cell(p.position):',
     '"r2c9"', 'no space is called "r2c9", so this comparison is never true; did you mean "r2c3"?'),
], ids=["argument", "comparison"])
def test_a_misspelt_space_name_in_quotes_suggests_the_close_one(tmp_path, old, new, needle, message):
    text = variant(old, new, GRID.read_text(encoding="utf-8"))
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, needle, TAKE_TURN, message)


LOOSE_MESSAGE = ("'{}' outside a loop: it must be inside 'loop:', 'while', 'for' or 'repeat' "
                 "(to end a procedure early, use 'return')")


@pytest.mark.parametrize("old, new, key", [
    ("    game.plays += 1\n", "    game.plays += 1\n    if game.plays > 1:\n      break\n", TAKE_TURN),
    ("    game.plays += 1\n", '    ask p:\n      "go":\n        pass\n      "rest":\n        break\n', TAKE_TURN),
    ("setup: |\n", "triggers:\n  - on: played\n    do: |\n      game.plays += 1\n      break\nsetup: |\n", "triggers[0].do"),
    ("  - {name: low, value: 1, zone: hand, per_player: true}\n",
     "  - {name: low, value: 1, zone: hand, per_player: true, when_played: break}\n", "components[0].when_played"),
    ("  - {name: coin, value: 1, count: 4, zone: deck}\n",
     "  - {name: coin, value: 1, count: 4, zone: deck, listeners: [{on: played, do: break}]}\n",
     "components[2].listeners[0].do"),
    ("setup: |\n  shuffle deck\n", "setup: |\n  shuffle deck\n  break\n", "setup"),
    ("setup: |\n  shuffle deck\n", "setup:\n  - step: deal\n    do: |\n      shuffle deck\n      break\n",
     "setup[0].do"),
], ids=["procedure", "menu option", "trigger", "ability", "listener", "setup", "setup step"])
@pytest.mark.parametrize("word", ["break", "continue"])
def test_break_or_continue_outside_a_loop_is_a_load_error_at_the_statement(tmp_path, old, new, key, word):
    text = variant(old, new.replace("break", word))
    path, err = load_error(tmp_path, text, DSLSyntaxError)
    assert str(err) == located(path, text, word, key, LOOSE_MESSAGE.format(word))


@pytest.mark.parametrize("when", ["before", "after", "instead"])
def test_break_outside_a_loop_in_a_variant_hook_is_a_load_error_in_the_variant(tmp_path, when):
    base = write(tmp_path, TINY_DUEL)
    hook = (f"variant: Loose\ngame: Tiny Duel\n{when}:\n  take_turn:\n    do: |\n"
            "      game.plays += 1\n      continue\n")
    hook_path = write(tmp_path, hook, "loose.yaml")
    with pytest.raises(DSLSyntaxError) as info:
        load_game(base, [str(hook_path)])
    assert str(info.value) == located(hook_path, hook, "continue", f"{when}.take_turn.do",
                                      LOOSE_MESSAGE.format("continue"))


def test_break_in_a_menu_option_inside_a_loop_leaves_that_loop(tmp_path):
    text = variant("    game.plays += 1\n",
                   '    loop:\n      ask p:\n        "more":\n          game.plays += 1\n        "enough":\n'
                   '          break\n    p.points += 10\n')
    state = load_game(write(tmp_path, text)).new_game(2, seed=1)
    for action in ("play low", "more", "more", "enough"):
        state.apply(0, action)
    assert (state.gv["plays"], state.pv["points"][0], state.current_players()) == (2, 11, [1])


def with_modifier(add="1", cond="owner_of(card) == p", base="1") -> str:
    """Tiny Duel with a quantity 'reach' and a modifier on the high cards."""
    text = variant("procedures:\n", f"quantities:\n  reach(player p): {base}\nprocedures:\n")
    return variant("  - {name: high, value: 3, zone: hand, per_player: true}\n",
                   "  - name: high\n    value: 3\n    zone: hand\n    per_player: true\n    modifiers:\n"
                   f"      - quantity: reach\n        add: {add}\n        if: {cond}\n", text)


@pytest.mark.parametrize("edit, needle, key, message", [
    ({"add": "'\"lots\"'"}, "'\"lots", "components[1].modifiers[0].add", "expected a number, got a text"),
    ({"add": "card"}, "card\n", "components[1].modifiers[0].add", "expected a number, got a card"),
    ({"cond": "'\"yes\"'"}, "'\"yes", "components[1].modifiers[0].if", "expected true/false, got a text"),
    ({"base": "'\"far\"'"}, "'\"far", "quantities.reach(player p)", "expected a number, got a text"),
], ids=["text added", "card added", "text as condition", "text as base"])
def test_a_quantity_and_its_modifiers_are_kind_checked_at_their_keys(tmp_path, edit, needle, key, message):
    text = with_modifier(**edit)
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert str(err) == located(path, text, needle, key, message)


def test_a_well_kinded_modifier_loads(tmp_path):
    game = load_game(write(tmp_path, with_modifier()))
    state = game.new_game(2, seed=1)
    assert [game.quantities["reach"].compute(state, {"p": p}) for p in (0, 1)] == [2, 2]


# ================================================================ 5. rules that fail while running
def duel(tmp_path, old, new, steps=1000):
    """A Tiny Duel with one edit and a small step limit, started with seed 1 (player 1 to play)."""
    text = variant("players: {min: 2, max: 2}\n", f"players: {{min: 2, max: 2}}\nlimits: {{steps: {steps}}}\n")
    text = variant(old, new, text)
    path = write(tmp_path, text)
    return text, path, load_game(path)


def assert_rule_error_leaves_state_unchanged(game, action="play low"):
    state = game.new_game(2, seed=1)
    before = snapshot(state)
    legal = state.legal_actions(0)
    with pytest.raises(RuleError) as info:
        state.apply(0, action)
    assert snapshot(state) == before
    assert state.legal_actions(0) == legal and state.current_players() == [0]
    return info.value


def test_endless_loop_without_a_decision_names_the_loop_and_changes_nothing(tmp_path):
    text, path, game = duel(tmp_path, "    game.plays += 1\n", "    loop:\n      pass\n")
    err = assert_rule_error_leaves_state_unchanged(game)
    assert str(err) == located(path, text, "loop:", "procedures.take_turn(player p)",
                               "this loop ran too long without a decision (an endless loop?)")


def test_while_true_without_a_decision_names_the_loop_and_changes_nothing(tmp_path):
    text, path, game = duel(tmp_path, "    game.plays += 1\n", "    while true:\n      game.plays += 1\n")
    err = assert_rule_error_leaves_state_unchanged(game)
    assert str(err) == located(path, text, "while true", "procedures.take_turn(player p)",
                               "this loop ran too long without a decision (an endless loop?)")


def test_endless_loop_in_the_default_step_budget_still_stops(tmp_path):
    text = variant("    game.plays += 1\n", "    while true:\n      game.plays += 1\n")
    game = load_game(write(tmp_path, text))
    err = assert_rule_error_leaves_state_unchanged(game)
    assert err.message == "this loop ran too long without a decision (an endless loop?)"


# A phase whose rounds (or turns) ask nobody and whose 'until' never holds loops for ever: the step budget runs
# out in whatever statement happens to pay the last step, perhaps an innocent one (the 'for' of 'tick'), so
# the message names the phase first, with the place where the budget ran out after it.
IDLE_TICK = "  tick(): |\n    for c in deck:\n      game.plays += 1\n"


def test_a_round_phase_that_never_asks_anyone_and_never_ends_is_named_as_the_endless_loop(tmp_path):
    text, path, game = duel(tmp_path, "procedures:\n", "procedures:\n" + IDLE_TICK)
    text = variant("flow:\n", "flow:\n  - phase: idle\n    round: [tick]\n    until: game.plays < 0\n", text)
    game = load_game(write(tmp_path, text))
    with pytest.raises(RuleError) as info:
        game.new_game(2, seed=1)
    line, column = position(text, "- phase: idle")
    head, _, rest = str(info.value).partition(" rounds in a row")
    assert re.fullmatch(rf"{re.escape(str(path))}:{line}:{column + 2}: flow\[0\]: phase 'idle' played [0-9,]+", head)
    assert rest.startswith(" without anyone deciding (an endless flow? its 'until' never holds, and nothing in its "
                           "rounds asks a player); the step budget ran out at ")
    # (where the last step was paid: the 'for' of tick, or the phase's own loop, as the counts fall)
    assert re.search(rf"ran out at {re.escape(str(path))}:[0-9]+:[0-9]+: (procedures.tick\(\)|flow): this loop ran "
                     r"too long without a decision \(an endless loop\?\)\n", rest)


def test_a_turn_phase_that_never_asks_anyone_after_a_decision_is_named_and_changes_nothing(tmp_path):
    text, path, game = duel(tmp_path, "procedures:\n", "procedures:\n  idle_turn(player p): |\n"
                                                          "    for c in deck:\n      game.plays += 1\n")
    text = variant("  - turn: take_turn\n    until: size(hand(seat(2))) == 0\n",
                   "  - turn: take_turn\n    until: game.plays >= 1\n  - phase: idle\n    turn: idle_turn\n"
                   "    until: game.plays < 0\n", text)
    game = load_game(write(tmp_path, text))
    err = assert_rule_error_leaves_state_unchanged(game)
    assert re.match(r"flow\[1\]: phase 'idle' played [0-9,]+ turns in a row without anyone deciding", str(err)
                    .split(": ", 1)[1])
    playing = game.new_game(2, seed=1)  # a random playout (simulate's random bots) says the same
    with pytest.raises(RuleError) as info:
        playing.playout(random.Random(1))
    assert info.value.message.startswith("phase 'idle' played ")


def test_a_misspelt_zone_of_each_player_is_named_as_a_zone_not_only_a_function(tmp_path):
    """'move card to hnad(p)' said "unknown function 'hnad'": the author wrote a zone."""
    text = variant("    move card to pile\n", "    move card to hnad(p)\n")
    path, err = load_error(tmp_path, text, DSLNameError)
    assert str(err) == located(path, text, "hnad", "procedures.take_turn(player p)",
                               "unknown zone or function 'hnad'; did you mean 'hand'? (a zone of each player or space "
                               "is written with its owner: zone(p), zone(space))")


def test_a_list_longer_than_its_schema_allows_says_how_long_it_may_be(tmp_path):
    """It said "['value', 'value', 'value', 'value'] is too long": the list back, and no bound."""
    text = TINY_DUEL + "table:\n  cards:\n    badges: [value, value, value, value]\n"
    path, err = load_error(tmp_path, text)
    line, column = position(text, "[value, value")
    assert str(err).startswith(f"{path}:{line}:{column}: table.cards.badges: has 4 items; at most 3 allowed")


def test_a_misspelt_key_in_a_setup_step_is_named_not_taken_for_a_setup_of_text(tmp_path):
    """Setup is a text or a list of steps: a step's misspelt key said "setup: expected text, not a list"."""
    text = variant("setup: |\n  shuffle deck\n", "setup:\n  - stepp: shuffle\n    do: shuffle deck\n")
    path, err = load_error(tmp_path, text)
    line, column = position(text, "stepp")
    assert str(err).startswith(f"{path}:{line}:{column}: setup[0]: missing required key 'step' (the step's name "
                               "(lower_case)); is 'stepp' a misspelling of it?")


def test_a_fraction_where_a_whole_number_goes_says_numbers_are_whole(tmp_path):
    text = variant("  points: 0\n", "  points: 0.5\n")
    path, err = load_error(tmp_path, text)
    assert str(err).startswith(f"{path}:{position(text, '0.5')[0]}:{position(text, '0.5')[1]}: player_variables.points: "
                               "expected ")
    assert str(err).splitlines()[0].endswith("not the number 0.5; numbers in a definition are whole numbers")


MUTUAL_RECURSION = "procedures:\n  ping(player q): |\n    pong(q)\n  pong(player q): |\n    ping(q)\n"


def assert_names_a_call_of_the_cycle(err, path, text,
                                     message="procedures call each other without end (endless recursion?)"):
    """Which of the two calls trips the limit depends on how deep Python's stack already is
    (and, for procedures that may ask, on which of them were spliced into their caller)."""
    assert str(err) in (located(path, text, "pong(q)", "procedures.ping(player q)", message),
                        located(path, text, "ping(q)", "procedures.pong(player q)", message))


def test_procedures_calling_each_other_forever_name_the_call(tmp_path):
    text, path, game = duel(tmp_path, "procedures:\n", MUTUAL_RECURSION)
    text = variant("    game.plays += 1\n", "    ping(p)\n", text)
    game = load_game(write(tmp_path, text))
    err = assert_rule_error_leaves_state_unchanged(game)
    assert_names_a_call_of_the_cycle(err, path, text)


def test_recursion_through_a_procedure_that_may_ask_names_the_call(tmp_path):
    asking = ("procedures:\n  ping(player q): |\n    if size(deck) > 100:\n      ask q to choose one of hand(q) as c\n"
              "    pong(q)\n  pong(player q): |\n    ping(q)\n")
    text, path, game = duel(tmp_path, "procedures:\n", asking)
    text = variant("    game.plays += 1\n", "    ping(p)\n", text)
    game = load_game(write(tmp_path, text))
    err = assert_rule_error_leaves_state_unchanged(game)
    assert_names_a_call_of_the_cycle(err, path, text, "effects ran too long without a decision (endless recursion?)")


def test_moving_the_top_card_of_an_empty_zone_names_the_move_and_changes_nothing(tmp_path):
    text, path, game = duel(tmp_path, "    game.plays += 1\n", "    move top(pile) to deck\n    move top(pile) to deck\n")
    err = assert_rule_error_leaves_state_unchanged(game)
    assert str(err) == located(path, text, "move top(pile)", "procedures.take_turn(player p)",
                               "nothing to move (the card is none: is the zone empty?)", nth=2)


def test_endless_loop_during_setup_raises_a_rule_error_from_new_game(tmp_path):
    text, path, game = duel(tmp_path, "  shuffle deck\n", "  shuffle deck\n  loop:\n    pass\n")
    with pytest.raises(RuleError) as info:
        game.new_game(2, seed=1)
    assert str(info.value) == located(path, text, "loop:", "setup",
                                      "this loop ran too long without a decision (an endless loop?)")


def test_endless_recursion_during_setup_raises_a_rule_error_from_new_game(tmp_path):
    text, path, game = duel(tmp_path, "procedures:\n", MUTUAL_RECURSION)
    text = variant("  shuffle deck\n", "  shuffle deck\n  ping(seat(1))\n", text)
    game = load_game(write(tmp_path, text))
    with pytest.raises(RuleError) as info:
        game.new_game(2, seed=1)
    assert_names_a_call_of_the_cycle(info.value, path, text)


def test_empty_zone_move_during_setup_raises_a_rule_error_from_new_game(tmp_path):
    text, path, game = duel(tmp_path, "  shuffle deck\n", "  shuffle deck\n  repeat 5 times:\n    move top(deck) to pile\n")
    with pytest.raises(RuleError) as info:
        game.new_game(2, seed=1)
    assert str(info.value) == located(path, text, "move top(deck)", "setup",
                                      "nothing to move (the card is none: is the zone empty?)")


def test_adding_to_a_variable_declared_without_a_value_is_a_rule_error(tmp_path):
    text, path, game = duel(tmp_path, "  plays: 0\n", "  plays:\n")
    err = assert_rule_error_leaves_state_unchanged(game)
    assert (err.location.line, err.location.column) == position(text, "game.plays += 1")


UNFORESEEN = ("    game.plays += 1\n", "    if game.plays > 100:\n      let x = 1\n    game.plays += x\n")


# What a read of a local that has no value on this path says: Ribbit's words, never Python's (issue 25, item 4).
NO_X = ("the variable 'x' has no value here (it is given one only on a path not taken: give it a value with 'let' "
        "before the 'if' or loop)")


def test_an_unforeseen_python_error_names_the_statement_that_failed_and_keeps_its_cause(tmp_path):
    # a local bound only in a branch not taken: no check at load sees it (a KeyError in play)
    text, path, game = duel(tmp_path, *UNFORESEEN)
    err = assert_rule_error_leaves_state_unchanged(game)
    # generated code is located at the innermost part that failed: the read of 'x' (the caret's '^x')
    assert re.sub(r"'x\.\d+'", "'x'", str(err)) == located(path, text, "game.plays += ^x", TAKE_TURN,
                               "a rule failed after player 1's action: " + NO_X + "; "
                               "the game is back where it was before that action")
    assert type(err.__cause__) is KeyError


def test_an_unforeseen_failure_names_whose_action_it_followed_never_its_text(tmp_path):
    # the message may reach every seat (a bot's action stops a web table for all), and an action's text may be
    # a secret choice or name cards some of them cannot see: "bury clover" is for its readers only
    text, path, game = duel(tmp_path, *UNFORESEEN)
    state = game.new_game(2, seed=1)
    with pytest.raises(RuleError) as info:
        state.apply(0, "play high")
    assert "a rule failed after player 1's action: " in str(info.value) and "high" not in str(info.value)


def test_an_unforeseen_python_error_during_setup_names_the_statement_and_keeps_its_cause(tmp_path):
    text, path, game = duel(tmp_path, "  shuffle deck\n", "  shuffle deck\n  if size(deck) > 100:\n    let x = 1\n"
                            "  game.plays += x\n")
    with pytest.raises(RuleError) as info:
        game.new_game(2, seed=1)
    assert str(info.value) == located(path, text, "game.plays += ^x", "setup", "a rule failed while setting up the game: "
                                      + NO_X)
    assert type(info.value.__cause__) is KeyError


TALLY = ("setup: |\n", "  tally(player p): |\n    if game.plays > 100:\n      let x = 1\n    p.points += x\nsetup: |\n")
UNBOUND = "    if game.plays > 100:\n      let x = 1\n"


@pytest.mark.parametrize("edits, needle, key", [
    ([("    game.plays += 1\n", UNBOUND + "    for c in hand(p):\n      if c != card:\n        game.plays += x\n")],
     "game.plays += ^x", TAKE_TURN),
    ([("    game.plays += 1\n", UNBOUND + "    for c in hand(p):\n      game.plays += x\n"
       '      ask p to choose one of hand(p) as d "again"\n')], "game.plays += ^x", TAKE_TURN),
    ([("    game.plays += 1\n", "    tally(p)\n"), TALLY], "p.points += ^x", "procedures.tally(player p)"),
    ([("    game.plays += 1\n", "    tally(p)\n    tally(p)\n"), TALLY], "p.points += ^x", "procedures.tally(player p)"),
    ([("    game.plays += 1\n", '    tally(p)\n    ask p to choose one of hand(p) as d "again"\n'), TALLY],
     "p.points += ^x", "procedures.tally(player p)"),
], ids=["in a branch in a loop", "in a loop that waits", "in a called procedure", "in a procedure called twice",
        "in a procedure called before a decision"])
def test_an_unforeseen_python_error_is_located_at_the_innermost_statement(tmp_path, edits, needle, key):
    text = TINY_DUEL.replace("players: {min: 2, max: 2}\n", "players: {min: 2, max: 2}\nlimits: {steps: 1000}\n")
    for old, new in edits:
        text = variant(old, new, text)
    path = write(tmp_path, text)
    err = assert_rule_error_leaves_state_unchanged(load_game(path))
    assert re.sub(r"'x\.\d+'", "'x'", str(err)) == located(path, text, needle, key,
                               "a rule failed after player 1's action: " + NO_X + "; "
                               "the game is back where it was before that action")
    assert type(err.__cause__) is KeyError and err.__cause__.__traceback__ is not None


def test_an_unforeseen_python_error_names_which_of_two_identical_rule_texts_failed(tmp_path):
    body = "      if game.plays > 100:\n        let x = 1\n      game.plays += x\n"
    text = variant("  played: {card: card, player: player}\n", "  played: {card: card, player: player}\n"
                   "  other: {player: player}\n")
    text = variant("setup: |\n", f"triggers:\n  - on: other\n    do: |\n{body}  - on: played\n    do: |\n{body}"
                   "setup: |\n", text)
    path = write(tmp_path, text)
    err = assert_rule_error_leaves_state_unchanged(load_game(path))
    assert str(err) == located(path, text, "game.plays += ^x", "triggers[1].do",
                               "a rule failed after player 1's action: " + NO_X + "; "
                               "the game is back where it was before that action", nth=2)


def test_an_unforeseen_error_in_generated_code_is_located_at_the_line_its_code_was_made_from(tmp_path):
    import ast

    from interpreter.dsl.codegen import CodeUnit
    from interpreter.runtime.sandbox import failed_at

    game = load_game(write(tmp_path, TINY_DUEL))
    line, column = position(TINY_DUEL, "p.points += card.value")
    unit = CodeUnit(game.file)
    division = CodeUnit.located(ast.BinOp(ast.Constant(1), ast.Div(), ast.Name("e", ast.Load())), line, column)
    fn = unit.function("boom", [ast.Return(division)], line=line - 3)
    with pytest.raises(ZeroDivisionError) as info:
        fn(None, 0)
    proc = game.procedures["take_turn"]
    where = failed_at(game, info.value, proc, 0)
    assert (where.file, where.line, where.column, where.key) == (game.file, line, column, TAKE_TURN)


def generated_frames(exc) -> list:
    """(file, line) of every frame of generated rule code in the traceback of ``exc``."""
    from interpreter.dsl.codegen import SAFE_BUILTINS

    frames, tb = [], exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_globals.get("__builtins__") is SAFE_BUILTINS:
            frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    return frames


def test_an_unforeseen_python_error_has_a_traceback_frame_at_the_yaml_line_of_its_statement(tmp_path):
    text, path, game = duel(tmp_path, *UNFORESEEN)
    err = assert_rule_error_leaves_state_unchanged(game)
    assert generated_frames(err.__cause__)[-1] == (str(path), position(text, "game.plays += x")[0])


def test_an_unforeseen_python_error_in_a_procedure_that_never_waits_has_a_frame_at_its_statement(tmp_path):
    # the statement runs in the direct function of 'bump' (its loop keeps it from being inlined)
    text = variant("procedures:\n", "procedures:\n  bump(player q): |\n    if game.plays > 100:\n      let x = 1\n"
                   "    while true:\n      game.plays += x\n", variant("    game.plays += 1\n", "    bump(p)\n"))
    path = write(tmp_path, text)
    err = assert_rule_error_leaves_state_unchanged(load_game(path))
    assert generated_frames(err.__cause__)[-1] == (str(path), position(text, "game.plays += x")[0])
    line, column = position(text, "game.plays += x")
    assert (err.location.line, err.location.column) == (line, column + len("game.plays += "))  # at the 'x'


def test_an_unforeseen_error_prints_as_one_located_paragraph_in_the_cli(tmp_path, capsys):
    from interpreter import cli

    text, path, game = duel(tmp_path, *UNFORESEEN)
    code = cli.main(["play", str(path), "--players", "2", "--seed", "1", "--log", "-"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert f"{path}:{position(text, 'game.plays += x')[0]}:" in err and NO_X in err and "KeyError" not in err


# ================================================================ 6. illegal actions
@pytest.fixture
def tiny_game(tmp_path):
    return load_game(write(tmp_path, TINY_DUEL))


def assert_illegal(state, player, action, message):
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(player, action)
    assert str(info.value) == message
    assert snapshot(state) == before


def test_unknown_action_text_lists_the_legal_actions(tiny_game):
    state = tiny_game.new_game(2, seed=1)
    assert_illegal(state, 0, "play medium",
                   "'play medium' is not a legal action for player 0 (seat 1) now. Legal actions: play low; play high")


def test_action_that_is_not_exactly_a_str_is_refused_naming_its_type(tiny_game):
    state = tiny_game.new_game(2, seed=1)
    assert_illegal(state, 0, 3, "an action must be exactly a str (its text), not int 3")


def test_acting_out_of_turn_says_whose_decision_it_is(tiny_game):
    state = tiny_game.new_game(2, seed=1)
    assert_illegal(state, 1, "play low", "it is not player 1's (seat 2) decision; waiting for player 0 (seat 1)")


@pytest.mark.parametrize("player", [2, -1])
def test_player_that_is_not_a_seat_number_is_refused(tiny_game, player):
    state = tiny_game.new_game(2, seed=1)
    assert_illegal(state, player, "play low",
                   f"there is no player {player!r} in this 2-player game (players are numbered 0 to 1: seats 1 to 2)")


@pytest.mark.parametrize("player", ["0", None, True, 0.0])
def test_player_that_is_not_exactly_an_int_is_refused_naming_its_type(tiny_game, player):
    state = tiny_game.new_game(2, seed=1)
    assert_illegal(state, player, "play low", "a player must be exactly an int, numbered 0 to 1 (seats 1 to 2), "
                                              f"not {type(player).__name__} {player!r}")


def test_acting_after_the_game_is_over_is_refused(tiny_game):
    state = tiny_game.new_game(2, seed=1)
    state.apply(0, "play low")
    state.apply(1, "play high")
    assert state.is_terminal()
    assert_illegal(state, 0, "play high", "the game is over; 'play high' cannot be played")


# ================================================================ 7. save files
@pytest.fixture
def saved(tiny_game):
    return tiny_game.new_game(2, seed=1).to_json()


@pytest.mark.parametrize("data", ["garbage", None, [1, 2], {}, {"format": "ribbit/2"}])
def test_data_that_is_not_a_save_file_is_refused(tiny_game, data):
    with pytest.raises(SaveFileError) as info:
        State.from_json(tiny_game, data)
    assert str(info.value) == "not a Ribbit save file (expected format 'ribbit-state/2')"


def test_truncated_save_names_the_missing_part(tiny_game, saved):
    truncated = dict(list(saved.items())[:6])  # format, game, fingerprint, layout, players, seed
    with pytest.raises(SaveFileError) as info:
        State.from_json(tiny_game, truncated)
    assert info.value.message == "the save file is incomplete: it has no 'zones'"
    assert "'zones'" in info.value.message


def test_save_from_a_different_definition_is_refused(tmp_path, saved):
    changed = load_game(write(tmp_path, variant("value: 3", "value: 4"), "changed.yaml"))
    with pytest.raises(SaveFileError) as info:
        State.from_json(changed, saved)
    assert str(info.value) == ("this save was made with a different definition of 'Tiny Duel' "
                               "(the rules or the variants changed since)")


def test_save_in_an_older_format_is_refused_naming_its_format(tiny_game, saved):
    with pytest.raises(SaveFileError) as info:
        State.from_json(tiny_game, dict(saved, format="ribbit-state/1"))
    assert str(info.value) == ("this save is in format 'ribbit-state/1', which this version of Ribbit cannot load "
                               "(it reads 'ribbit-state/2')")


def test_save_with_a_card_moved_to_another_zone_is_refused_naming_the_zone(tiny_game, saved):
    damaged = copy.deepcopy(saved)
    card = damaged["zones"][0][0]
    damaged["zones"][1].append(card)
    with pytest.raises(SaveFileError) as info:
        State.from_json(tiny_game, damaged)
    assert str(info.value) == (f"this save does not match its own game: zone {tiny_game.zone_label(1)!r} differs "
                               "from the replay of the save's own seed and actions")


def test_save_with_a_card_id_out_of_range_is_refused(tiny_game, saved):
    damaged = copy.deepcopy(saved)
    damaged["zones"][0].append(999)
    with pytest.raises(SaveFileError, match=f"zone {tiny_game.zone_label(0)!r} differs from the replay"):
        State.from_json(tiny_game, damaged)


def test_save_with_the_wrong_number_of_zones_is_refused(tiny_game, saved):
    damaged = copy.deepcopy(saved)
    damaged["zones"].pop()
    with pytest.raises(SaveFileError) as info:
        State.from_json(tiny_game, damaged)
    assert str(info.value) == f"the zones do not match the definition (it has {tiny_game.zone_count} zones)"


def test_save_with_a_garbled_decision_is_refused(tiny_game, saved):
    damaged = dict(saved, pending="x")
    with pytest.raises(SaveFileError):
        State.from_json(tiny_game, damaged)


def test_save_with_a_player_variable_missing_a_player_is_refused(tiny_game, saved):
    damaged = copy.deepcopy(saved)
    damaged["pv"]["points"] = [0]
    with pytest.raises(SaveFileError):
        State.from_json(tiny_game, damaged)


def test_dividing_by_a_constant_zero_is_refused_at_load_where_the_zero_is(tmp_path):
    text = variant("    game.plays += 1\n", "    let x = 1 // 0\n")
    path, err = load_error(tmp_path, text, DSLTypeError)
    assert err.message == "division by zero"
    assert (err.location.line, err.location.column) == position(text, "1 // 0")[0:1] + (position(text, "1 // 0")[1] + 5,)


@pytest.mark.parametrize("until, needle, message", [
    ("p.points >= 5", "until: ^p.points", "unknown name 'p' ('until' is worked out for the whole table, with no player 'p' "
     "in scope: name the player whose turn it is 'active', or go through the players: any(each q in players where ...))"),
    ("points >= 5", "until: ^points", "'points' is a player variable, and 'until' is worked out for the whole table, with "
     "no player 'p' in scope: name the player whose turn it is 'active' (active.points), or go through the players: "
     "any(each q in players where q.points ...)"),
    ("size(hand(seat(2))) == 0 and game.plays == size(plyers)", "^plyers", "unknown name 'plyers'; did you mean 'players'?")])
def test_a_flow_key_naming_a_player_it_does_not_have_says_how_to_name_one(tmp_path, until, needle, message):
    # A stranger writes `until: p.points >= 5` as in a procedure: 'unknown name p' alone did not say why.
    text = variant("until: size(hand(seat(2))) == 0", f"until: {until}")
    path, error = load_error(tmp_path, text, DSLNameError)
    assert str(error) == located(path, text, needle, "flow[0].until", message)


def test_a_bracket_left_open_is_reported_where_it_opens_not_on_the_line_it_swallows(tmp_path):
    # The text reads on inside an open bracket, so the parser stumbles on the next line: the message named
    # only a token there, far from the missing ')'.
    text = variant("    p.points += card.value\n", "    p.points += max(card.value, 1\n")
    path, error = load_error(tmp_path, text, DSLSyntaxError)
    assert str(error) == located(path, text, "max^(card", "procedures.take_turn(player p)",
                                 "this ( is never closed: the text reads on inside it into the next lines, where "
                                 "'game' is out of place; add its closing )")
