"""Rules that would run away (huge loops, lists, numbers, texts, choices) stop with a located error, fast.

Each game below runs the rule under test when player 1 picks "go"; the error must
name the offending statement (file:line:col with a caret) and leave the state as
it was before the action.  Budgets are small where a test only needs to show that
the work is charged, and the default where it shows a real runaway stops.
"""

from __future__ import annotations

import json
import time

import pytest

from interpreter import DefinitionError, DSLSyntaxError, DSLTypeError, RuleError, load_game

# Thirteen coins in the deck, one 'low' and one 'high' card in each hand.
GAME = """\
game: Bounds
players: {min: 2, max: 3}
LIMITS
properties:
  value: 0
components:
  - {name: low, value: 1, zone: hand, per_player: true}
  - {name: high, value: 3, zone: hand, per_player: true}
  - {name: coin, value: 1, count: COINS, zone: deck}
zones:
  deck: {}
  pile: {}
  hand: {per: player}
game_variables:
  n: 0
  big: 0
player_variables:
  points: 0
procedures:
  take_turn(player p): |
    ask p:
      "go":
BODY
      "wait":
        pass
flow:
  - phase: play
    turn: take_turn
"""


def make(tmp_path, body: str, steps: int | None = None, coins: int = 13, extra: str = "") -> tuple[str, str]:
    """Write the game with ``body`` (indented under "go") and return (path, text)."""
    lines = "".join("        " + line + "\n" for line in body.strip("\n").split("\n"))
    text = GAME.replace("BODY\n", lines).replace("COINS", str(coins))
    text = text.replace("LIMITS\n", f"limits: {{steps: {steps}}}\n" if steps else "")
    text = text.replace("procedures:\n", extra + "procedures:\n") if extra else text
    path = tmp_path / "bounds.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path), text


def located(path, text, needle, message, nth=1, key="procedures.take_turn(player p)") -> str:
    index = -1
    for _ in range(nth):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    source_line = text.split("\n")[line - 1]
    return f"{path}:{line}:{column}: {key}: {message}\n    {source_line}\n    {' ' * (column - 1)}^"


def run_go(path, seconds=5.0):
    """Play "go" for player 1 expecting a RuleError, within ``seconds``; the state must be unchanged."""
    game = load_game(path)
    state = game.new_game(2, seed=1)
    before = json.dumps(state.to_json(), sort_keys=True)
    start = time.perf_counter()
    with pytest.raises(RuleError) as info:
        state.apply(0, "go")
    assert time.perf_counter() - start < seconds
    assert json.dumps(state.to_json(), sort_keys=True) == before
    return info.value


def go_ok(path):
    state = load_game(path).new_game(2, seed=1)
    state.apply(0, "go")
    return state


LOOP = "this loop ran too long without a decision (an endless loop?)"
WORK = ("this rule does more work than the step budget allows between two decisions ({:,} steps: "
        "a huge list or an endless loop? if the rule is right, raise 'limits: {{steps: N}}')")

# The same 'repeat' in every compiled form: direct, in a procedure that may wait (resumable),
# inlined into its caller, spliced into its caller.
REPEAT_FORMS = {
    "direct": ("repeat 1000000000 times:\n  game.n += 1", ""),
    "resumable": ("repeat 1000000000 times:\n  if game.n < 0:\n    ask p to choose one of hand(p) as c\n  game.n += 1", ""),
    "inlined": ("spin()", "  spin(): |\n    repeat 1000000000 times:\n      game.n += 1\n"),
    "spliced": ("spin_or_ask(p)", "  spin_or_ask(player q): |\n    repeat 1000000000 times:\n      if game.n < 0:\n"
                "        ask q to choose one of hand(q) as c\n      game.n += 1\n"),
}


@pytest.mark.parametrize("form", REPEAT_FORMS)
def test_repeat_a_billion_times_stops_at_the_step_budget_in_every_compiled_form(tmp_path, form):
    body, procs = REPEAT_FORMS[form]
    path, text = make(tmp_path, body)
    if procs:
        text = text.replace("procedures:\n", "procedures:\n" + procs)
        (tmp_path / "bounds.yaml").write_text(text)
    err = run_go(path)
    key = "procedures.take_turn(player p)" if not procs else f"procedures.{procs.split(':')[0].strip()}"
    assert str(err) == located(path, text, "repeat 1000000000", LOOP, key=key)


@pytest.mark.parametrize("waits", [False, True])
def test_nested_for_loops_are_charged_a_step_per_iteration(tmp_path, waits):
    ask = "\n    if game.n < 0:\n      ask p to choose one of hand(p) as c" if waits else ""
    path, text = make(tmp_path, f"let xs = range(100)\nfor a in xs:\n  for b in xs:\n    game.n += 1{ask}", steps=5000)
    err = run_go(path)
    assert str(err) == located(path, text, "for b in", LOOP)


def test_loops_within_the_budget_run_to_the_end(tmp_path):
    path, _ = make(tmp_path, "for a in range(40):\n  repeat 40 times:\n    game.n += 1", steps=5000)
    assert go_ok(path).gv["n"] == 1600


def test_range_of_a_billion_is_refused_before_the_list_is_made(tmp_path):
    path, text = make(tmp_path, "let xs = range(1000000000)\ngame.n = size(xs)")
    err = run_go(path)
    assert str(err) == located(path, text, "range(", "range() of 1,000,000,000 numbers does more work than the step "
                               "budget allows between two decisions (200,000 steps: a huge list or an endless loop? "
                               "if the rule is right, raise 'limits: {steps: N}')")


def test_a_list_doubled_in_a_loop_stops_at_the_step_budget(tmp_path):
    path, text = make(tmp_path, "let xs = [1]\nloop:\n  xs = xs + xs")
    err = run_go(path)
    assert str(err) == located(path, text, "xs + xs", WORK.format(200_000))


def test_each_items_are_charged_so_nested_lists_stop(tmp_path):
    path, text = make(tmp_path, "let xs = range(300)\nlet grid = [each a in xs: [each b in xs: a + b]]", steps=20_000)
    err = run_go(path)
    assert str(err) == located(path, text, "each b", WORK.format(20_000))


def test_counting_cards_of_a_zone_in_a_loop_is_charged_per_card(tmp_path):
    path, text = make(tmp_path, "repeat 100 times:\n  game.n = count(each c in deck where c.value == 1)",
                      steps=1000, coins=50)
    err = run_go(path)
    assert str(err) == located(path, text, "each c", WORK.format(1000))


def test_shuffling_a_big_zone_in_a_loop_is_charged_per_card(tmp_path):
    path, text = make(tmp_path, "repeat 100 times:\n  shuffle deck", steps=2000, coins=100)
    err = run_go(path)
    assert str(err) == located(path, text, "shuffle deck", WORK.format(2000))


def test_moving_many_cards_is_charged_per_card(tmp_path):
    path, text = make(tmp_path, "repeat 100 times:\n  move deck to pile\n  move pile to deck", steps=2000, coins=100)
    err = run_go(path)
    assert str(err) in (located(path, text, "move deck", WORK.format(2000)),
                        located(path, text, "move pile", WORK.format(2000)))


def test_logging_a_huge_list_in_a_loop_is_charged_per_item(tmp_path):
    path, text = make(tmp_path, 'let xs = range(500)\nrepeat 100 times:\n  log "{xs}"', steps=5000)
    err = run_go(path)
    assert str(err) == located(path, text, "log ", WORK.format(5000))


def test_a_log_line_longer_than_the_text_limit_is_refused(tmp_path):
    path, text = make(tmp_path, 'let xs = range(9000)\nlog "{xs}"')
    err = run_go(path)
    assert str(err) == located(path, text, "log ", "this log line would be 52,888 characters long; a line is at most "
                               "10,000 (log a count, or fewer items)")


def test_a_text_doubled_in_a_loop_stops_at_the_text_limit(tmp_path):
    path, text = make(tmp_path, 'let t = "ab"\nloop:\n  t = t + t')
    err = run_go(path)
    assert str(err) == located(path, text, "t + t", "this text would be 16,384 characters long; texts in rules are "
                               "at most 10,000")


def test_a_text_longer_than_the_text_limit_written_in_a_rule_is_a_located_syntax_error(tmp_path):
    # it went into variables, views and saves whole (1.5 million characters from one literal)
    path, text = make(tmp_path, 'let t = "' + "b" * 10_001 + '"')
    with pytest.raises(DSLSyntaxError) as info:
        load_game(path)
    assert str(info.value).split("\n")[0] == located(path, text, '"bbb', "").split("\n")[0] + \
        "this text has 10,001 characters; texts in rules have at most 10,000"
    path, _ = make(tmp_path, 'let t = "' + "b" * 10_000 + '"')
    go_ok(path)


def test_a_choice_of_one_text_too_long_to_save_is_refused_at_its_ask(tmp_path):
    # offered, it was played, and the save of the game could not be loaded again (an action is at most 10,000)
    half = "b" * 5_000
    path, text = make(tmp_path, f'let t = "{half}" + "{half}"\nask p to choose one of [t, "c"] as x "pick"')
    err = run_go(path)
    assert str(err) == located(path, text, '[t, "c"]', "an option of this decision reads 10,005 characters, more than "
                               "the 10,000 an action may have (a save keeps every action's text); show less of the "
                               "item in the text")


def test_a_choice_of_one_card_whose_name_is_too_long_to_save_is_a_load_error_at_its_ask(tmp_path):
    path, text = make(tmp_path, 'ask p to choose one of hand(p) as c "pick"')
    text = text.replace("{name: low,", "{name: " + "l" * 9_996 + ",")
    open(path, "w", encoding="utf-8").write(text)
    with pytest.raises(DSLTypeError) as info:
        load_game(path)
    assert str(info.value).split("\n")[0] == located(path, text, "hand(p) as c", "").split("\n")[0] + \
        "an option of this choice could read 10,001 characters (its text and the longest name of a card), more " \
        "than the 10,000 a save keeps for one action; give the card a shorter name"


@pytest.mark.parametrize("op", ["x * x", "x + x"])
def test_a_number_growing_without_end_stops_past_ten_to_the_eighteen(tmp_path, op):
    path, text = make(tmp_path, f"let x = 2\nrepeat 200 times:\n  x = {op}")
    err = run_go(path)
    assert err.message.endswith("beyond the limit of numbers in rules (-10^18 to 10^18)")
    assert str(err).startswith(located(path, text, op, "").split(": procedures")[0])


def test_a_number_added_in_place_stops_past_ten_to_the_eighteen(tmp_path):
    path, text = make(tmp_path, "game.big = 1\nrepeat 100 times:\n  game.big += game.big")
    err = run_go(path)
    assert str(err) == located(path, text, "game.big += game.big", "'+=' gives 1152921504606846976, beyond the "
                               "limit of numbers in rules (-10^18 to 10^18)")


DROPS = "counters:\n  drops: {on: [player]}\n"


def test_a_counter_doubled_in_a_loop_stops_past_ten_to_the_eighteen(tmp_path):
    """Before, a counter's '+=' was not held to the limit: doubled 20,000 times per action it grew without end, each
    action slower than the last (a hang), and a view of it could not even be written out."""
    path, text = make(tmp_path, "drops(p) += 1\nrepeat 20000 times:\n  drops(p) += drops(p)", extra=DROPS)
    err = run_go(path)
    assert str(err) == located(path, text, "drops(p) += drops(p)", "drops(player 1) += 576460752303423488 gives "
                               "1152921504606846976, beyond the limit of numbers in rules (-10^18 to 10^18)")


def test_a_counter_moved_past_ten_to_the_eighteen_or_changed_by_none_is_a_located_rule_error(tmp_path):
    big = "drops(p) += 999999999999999999\ndrops(seat(2)) += 5\n"
    path, text = make(tmp_path, big + "move 3 of drops(seat(2)) to drops(p)", extra=DROPS)
    assert str(run_go(path)) == located(path, text, "move 3", "moving 3 of drops to a place that holds "
                                        "999999999999999999 gives 1000000000000000002, beyond the limit of numbers in "
                                        "rules (-10^18 to 10^18)")
    path, text = make(tmp_path, "drops(p) += first(each c in pile: c.value)", extra=DROPS)
    assert str(run_go(path)) == located(path, text, "drops(p) +=", "cannot change drops(player 1) by none: the amount "
                                        "is not a number (the item of an empty list, or of a place past its end?)")
    path, _ = make(tmp_path, big + "move 1 of drops(seat(2)) to drops(p)", extra=DROPS)
    assert go_ok(path).counters["drops"]["player"] == [10 ** 18, 4]  # the limit itself is a number of rules


def test_moving_none_of_a_counter_is_a_located_rule_error_not_all_of_them(tmp_path):
    """Before, an amount that was none (the item of an empty list) moved every one, as 'move drops(p) to ...' does."""
    path, text = make(tmp_path, "drops(p) += 5\nmove first(each c in pile: c.value) of drops(p) to drops(seat(2))",
                      extra=DROPS)
    assert str(run_go(path)) == located(path, text, "move first", "cannot move none of drops(player 1): the amount "
                                        "is not a number (the item of an empty list, or of a place past its end?)")
    path, _ = make(tmp_path, "drops(p) += 5\nmove drops(p) to drops(seat(2))", extra=DROPS)
    assert go_ok(path).counters["drops"]["player"] == [0, 5]


def test_numbers_up_to_ten_to_the_eighteen_are_fine(tmp_path):
    path, _ = make(tmp_path, "let x = 1000000000\ngame.big = x * x - 1 + 1")
    assert go_ok(path).gv["big"] == 10 ** 18


CHOOSE = "more than 100,000 options to choose from ({} of 30, 30 different); ask for fewer at a time"


def test_choosing_12_of_30_different_items_is_refused_before_listing_them(tmp_path):
    path, text = make(tmp_path, "game.n = 30\nask p to choose 12 of range(game.n) as xs")
    err = run_go(path, seconds=2)
    assert str(err) == located(path, text, "range(game.n)", CHOOSE.format(12))


def test_choosing_any_number_of_30_different_items_is_refused_before_listing_them(tmp_path):
    path, text = make(tmp_path, "game.n = 30\nask p to choose any number of range(game.n) as xs")
    err = run_go(path, seconds=2)
    assert str(err) == located(path, text, "range(game.n)", CHOOSE.format("any number"))


def test_choosing_among_many_identical_items_is_counted_by_kind(tmp_path):
    # 4 of 13 identical coins and 2 cards: few distinct options, however many cards
    path, _ = make(tmp_path, "ask p to choose 4 of deck + hand(p) as xs\nmove xs to pile")
    state = load_game(path).new_game(2, seed=1)
    state.apply(0, "go")
    assert state.legal_actions(0) == ["4 x coin", "3 x coin, low", "3 x coin, high", "2 x coin, low, high"]


def test_a_fixed_choice_that_can_never_be_served_is_a_load_error(tmp_path):
    path, text = make(tmp_path, "ask p to choose 20 of range(40) as xs")
    with pytest.raises(DSLTypeError) as info:
        load_game(path)
    assert str(info.value) == located(path, text, "range(40)", "more than 100,000 options to choose from "
                                      "(20 of 40, 40 different); ask for fewer at a time")


def test_too_many_cards_is_a_load_error_at_the_count(tmp_path):
    path, text = make(tmp_path, "pass", extra="")
    text = text.replace("  - {name: high, value: 3, zone: hand, per_player: true}\n",
                        "  - {name: high, value: 3, zone: hand, per_player: true}\n"
                        + "".join(f"  - {{name: pawn{i}, count: 10000, zone: deck}}\n" for i in range(10)))
    (tmp_path / "bounds.yaml").write_text(text)
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert str(info.value) == located(path, text, "10000, zone: deck}\n  - {name: coin", "this makes 100,006 cards "
                                      "in all (with 3 players); a game has at most 100,000", key="components[11].count")


# ---------------------------------------------------------------- parser limits
@pytest.mark.parametrize("expr, needle", [
    (" + ".join(["1"] * 600), None),
    ("not " * 2000 + "true", "not "),
    ("size(" + "[" * 1000 + "]" * 1000 + ")", "["),
    ("- " * 800 + "1", "- "),
])
def test_nesting_past_the_limit_is_a_located_syntax_error_not_a_crash(tmp_path, expr, needle):
    path, text = make(tmp_path, f"let x = {expr}")
    with pytest.raises(DSLSyntaxError) as info:
        load_game(path)
    message = str(info.value)
    assert message.split("\n")[0].endswith("this is nested more than 200 levels deep (brackets, operators or "
                                           "blocks inside each other); split it with 'let' or a function")
    line = text.count("\n", 0, text.index("let x")) + 1
    assert message.startswith(f"{path}:{line}:") and message.count("\n") == 2


@pytest.mark.parametrize("expr", [
    " + ".join(["1"] * 150),
    " and ".join(["true"] * 2000),
    " or ".join(["false"] * 2000) + " or true",
    "not " * 150 + "true",
    "size(" + "[" * 150 + "]" * 150 + ")",
    "(" * 1000 + "1" + ")" * 1000,
])
def test_long_chains_and_deep_nesting_within_the_limit_load_and_run(tmp_path, expr):
    path, _ = make(tmp_path, f"let x = {expr}\ngame.n = 1")
    assert go_ok(path).gv["n"] == 1


def test_a_number_literal_of_thousands_of_digits_is_a_located_syntax_error(tmp_path):
    path, text = make(tmp_path, "let x = 1 + " + "9" * 5000)
    with pytest.raises(DSLSyntaxError) as info:
        load_game(path)
    assert str(info.value).split("\n")[0] == located(path, text, "9999", "").split("\n")[0] + \
        "this number has 5,000 digits; numbers in rules have at most 18 (up to 10^18)"


def test_a_constant_beyond_ten_to_the_eighteen_is_a_load_error(tmp_path):
    path, text = make(tmp_path, "let x = 1000000000000 * 1000000000000")
    with pytest.raises(DSLTypeError) as info:
        load_game(path)
    assert "is beyond the limit of numbers in rules (-10^18 to 10^18)" in str(info.value)


# ---------------------------------------------------------------- decisions and comparisons
def test_ask_each_naming_a_player_twice_is_a_located_rule_error(tmp_path):
    path, text = make(tmp_path, "ask each q in [p, p] to choose one of hand(q) as picks\nmove picks[0] to pile")
    err = run_go(path)
    assert str(err) == located(path, text, "ask each", "'ask each' names player 1 more than once; each player makes "
                               "one choice (use distinct(...) on the list)")


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_none_compared_with_a_number_is_a_located_rule_error(tmp_path, op):
    path, text = make(tmp_path, f"let v = first(range(0))\nif v {op} 3:\n  game.n = 1")
    err = run_go(path)
    assert str(err) == located(path, text, f"v {op}", f"'{op}' cannot compare none and a number "
                               "(is a value none here?)")


def test_none_compared_with_a_number_in_two_variables_is_a_located_rule_error(tmp_path):
    path, text = make(tmp_path, "let k = 3\nlet v = first(range(0))\nif v < k:\n  game.n = 1")
    err = run_go(path)
    assert str(err) == located(path, text, "v < k", "'<' cannot compare none and a number "
                               "(is a value none here?)")


def test_none_literal_compared_with_a_number_is_a_load_error(tmp_path):
    path, text = make(tmp_path, "if none < 3:\n  game.n = 1")
    with pytest.raises(DSLTypeError) as info:
        load_game(path)
    assert str(info.value) == located(path, text, "none < 3", "'<' compares numbers, not none and a number")


# ---------------------------------------------------------------- top and bottom
@pytest.mark.parametrize("end", ["top", "bottom"])
@pytest.mark.parametrize("n", range(0, 16))
def test_top_and_bottom_take_all_the_cards_there_are_when_the_zone_is_short(tmp_path, end, n):
    # the deck holds 13 coins; a mark says which are which: positions 0 (bottom) to 12 (top)
    path, _ = make(tmp_path, f"let xs = {end}(deck, {n})\ngame.n = size(xs)\nmove xs to pile")
    state = go_ok(path)
    deck_before = load_game(path).new_game(2, seed=1).zones[0]
    k = min(n, 13)
    assert state.gv["n"] == k
    expected = (deck_before[len(deck_before) - k:] if k else []) if end == "top" else deck_before[:k]
    assert state.zones[1] == expected


@pytest.mark.parametrize("end", ["top", "bottom"])
def test_top_and_bottom_of_a_negative_count_is_a_located_rule_error(tmp_path, end):
    path, text = make(tmp_path, f"let xs = {end}(deck, 0 - 2)")
    err = run_go(path)
    assert str(err) == located(path, text, f"{end}(deck", f"{end}(zone, n) needs n of 0 or more, not -2")


def test_simulate_with_ask_each_naming_a_player_twice_reports_the_ask_not_a_traceback(tmp_path, capsys):
    from interpreter.cli import main

    path, text = make(tmp_path, "ask each q in [p, p] to choose one of hand(q) as picks")
    # the broken ask runs at the start of every turn, before the "go"/"wait" menu
    text = text.replace('    ask p:\n      "go":\n', '    ask each q in [p, p] to choose one of hand(q) as picks\n'
                        '    ask p:\n      "go":\n', 1)
    (tmp_path / "bounds.yaml").write_text(text)
    code = main(["simulate", path, "--players", "2", "--games", "3"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "'ask each' names player 1 more than once" in err and f"{path}:" in err


def test_a_recursion_error_while_compiling_is_a_located_definition_error(tmp_path):
    import sys

    path, text = make(tmp_path, "let x = " + " + ".join(["1"] * 150))
    from interpreter.dsl.parser import _parser
    _parser()  # built first: only the compiling runs short of stack
    depth = len(__import__("inspect").stack())
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 150)  # far less than the 150 nested '+' need to compile
    try:
        with pytest.raises(DefinitionError) as info:
            load_game(path)
    finally:
        sys.setrecursionlimit(old)
    assert "this effect is nested too deeply to compile; split it with 'let', functions or procedures" \
        in str(info.value)
    assert str(info.value).startswith(f"{path}:")


# An endless loop in each compiled form, and endless recursion, played by a playout in each build.
RUNAWAYS = {**REPEAT_FORMS,
            "recursion": ("spin()", "  spin(): |\n    game.n += 1\n    spin()\n"),
            "waiting recursion": ("spin_or_ask(p)", "  spin_or_ask(player q): |\n    if game.n < 0:\n"
                                  "      ask q to choose one of hand(q) as c\n    game.n += 1\n    spin_or_ask(q)\n")}


@pytest.mark.parametrize("form", RUNAWAYS)
def test_a_runaway_rule_stops_a_playout_with_the_same_located_error_in_either_build(tmp_path, form):
    """A playout runs the game's playout build (dsl/playout_build.py): it must stop where the normal build stops,
    with the same error, the state rewound to before the decision, in about the same time."""
    import random

    body, procs = RUNAWAYS[form]
    path, text = make(tmp_path, body, extra="")
    (tmp_path / "bounds.yaml").write_text(text.replace("procedures:\n", "procedures:\n" + procs))
    game = load_game(path)
    errors = {}
    for build in ("normal", "playout"):
        state = game.new_game(2, seed=1, log=False)
        before = json.dumps(state.to_json(), sort_keys=True)
        start = time.process_time()  # (this process's time: the machine may be busy with others)
        with pytest.raises(RuleError) as info:
            state.playout(random.Random(1), policy=lambda s, player, count, rng: 0)  # "go"
        assert time.process_time() - start < 5.0
        assert json.dumps(state.to_json(), sort_keys=True) == before and state.game is game
        errors[build] = str(info.value)
    assert game.playout_build() is not game
    assert errors["playout"] == errors["normal"]
    assert "endless" in errors["normal"] or "step budget" in errors["normal"]
