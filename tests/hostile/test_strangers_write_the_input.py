"""House rule "strangers write the input": holes found by fuzzing the rule compiler, the
integer-action API and saves (``tests/hostile/fuzz_rules.py``), each kept closed by a test named
after the guarantee it keeps (docs/security.md)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from interpreter import IllegalActionError, RibbitError, RuleError, load_game
from test_errors import TINY_DUEL

ROOT = Path(__file__).resolve().parents[2]


def load_in_a_child(path: Path, seconds: float = 30) -> subprocess.CompletedProcess:
    """Load ``path`` in a fresh process (so a hang fails the test instead of stopping the run)."""
    code = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from interpreter import load_game
        started = time.perf_counter()
        load_game({str(path)!r})
        print(round(time.perf_counter() - started, 3))
    """)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=seconds)


# ---------------------------------------------------------------- bounded work at load
# A list that reads nothing of the game is worked out once, when the definition loads (and a
# per-card table, and a fixed choice).  That work is charged to one budget per definition
# (runtime.LOAD_STEPS); what does not fit is left to run time, where the game's step budget stops it.
NESTED_FIXED_SCANS = "sum(each a in range(100000) where sum(each b in range(100000) where true) > 0) > 0"


def test_a_fixed_list_too_big_to_work_out_at_load_does_not_hang_the_load(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(TINY_DUEL.replace("until: size(hand(seat(2))) == 0", f"until: {NESTED_FIXED_SCANS}"),
                    encoding="utf-8")
    try:
        done = load_in_a_child(path)
    except subprocess.TimeoutExpired:
        pytest.fail("loading a definition with 10^10 steps of fixed work did not finish in 30 s")
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) < 5
    # at run time the game's own budget stops it, at its place
    state = load_game(path).new_game(2, seed=1)
    with pytest.raises(RuleError) as info:
        state.apply(0, state.legal_actions(0)[0])
    assert str(info.value).splitlines()[0] == (
        f"{path}:30:60: flow[0].until: range() of 100,000 numbers does more work than the step budget allows between "
        "two decisions (200,000 steps: a huge list or an endless loop? if the rule is right, raise "
        "'limits: {steps: N}')")
    assert state.legal_actions(0)  # rewound: the action can be played again


# ---------------------------------------------------------------- the integer-action API
class LooksLikeZero:
    """Claims to equal anything and converts to 0: still not a player."""

    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0

    def __index__(self):
        return 0


@pytest.fixture(scope="module")
def finished_game():
    game = load_game(ROOT / "definitions" / "crazy_eights.yaml")
    state = game.new_game(2, seed=4)
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply_id(player, 0)
    return state


@pytest.mark.parametrize("player, kind", [("0", "str '0'"), (0.0, "float 0.0"), (True, "bool True"),
                                          (LooksLikeZero(), "a LooksLikeZero")])
@pytest.mark.parametrize("call", ["legal_actions", "legal_action_ids", "sample_action_id"])
def test_a_player_must_be_exactly_an_int_after_the_end_of_the_game_too(finished_game, call, player, kind):
    before = finished_game.to_json()
    args = (player, __import__("random").Random(1)) if call == "sample_action_id" else (player,)
    with pytest.raises(IllegalActionError) as info:
        getattr(finished_game, call)(*args)
    assert str(info.value).startswith(f"a player must be exactly an int, numbered 0 to 1 (seats 1 to 2), not {kind}")
    assert finished_game.to_json() == before


def test_a_player_beyond_the_table_is_refused_after_the_end_of_the_game_too(finished_game):
    with pytest.raises(IllegalActionError) as info:
        finished_game.sample_action_id(7, __import__("random").Random(1))
    assert str(info.value) == ("there is no player 7 in this 2-player game (players are numbered 0 to 1: "
                               "seats 1 to 2)")
    assert finished_game.legal_action_ids(1) == range(0)  # a real player: nothing to decide


# ---------------------------------------------------------------- narration of what chance gave
# "A log text may not use chance": the log's own {expression} may not draw a random number (a game
# played without a log would go differently).  A local that a roll gave earlier may be narrated: it is
# a value like any other, traced back (for secrecy) to what it was given, without drawing again.
def rolled(tmp_path, lines: str):
    path = tmp_path / "rolled.yaml"
    path.write_text(TINY_DUEL.replace("    game.plays += 1\n", "    game.plays += 1\n" + textwrap.indent(lines, "    ")),
                    encoding="utf-8")
    return load_game(path)


def play_first_card(game, log=True):
    state = game.new_game(2, seed=3, log=log)
    state.apply(0, state.legal_actions(0)[0])
    return state


def test_a_number_a_roll_gave_before_the_log_line_may_be_narrated_to_everyone(tmp_path):
    game = rolled(tmp_path, 'let n = roll(6)\nn += roll(6)\nlog "{p} rolls {n}."\n')
    state = play_first_card(game)
    line = state.log[-1]
    assert line.startswith("player 1 rolls ") and line == state.narration(1)[-1] == state.narration(None)[-1]
    # narrating drew nothing: the game without a log goes the same way
    assert play_first_card(game, log=False).to_json()["rng"] == state.to_json()["rng"]


def test_a_value_read_from_a_randomly_drawn_hidden_card_is_narrated_to_nobody_without_drawing_again(tmp_path):
    game = rolled(tmp_path, 'let n = random(hand(p)).value\nlog "{p} draws a value of {n}."\n')
    state = play_first_card(game)
    assert state.log[-1] in ("player 1 draws a value of 1.", "player 1 draws a value of 3.")
    assert state.narration(1)[-1] == state.narration(0)[-1] == "player 1 draws a value of (hidden)."
    assert play_first_card(game, log=False).to_json()["rng"] == state.to_json()["rng"]


def test_chance_in_the_log_text_itself_is_still_refused(tmp_path):
    with pytest.raises(RibbitError) as info:
        rolled(tmp_path, 'log "{p} rolls {roll(6)}."\n')
    assert str(info.value).splitlines()[0] == (
        f"{tmp_path / 'rolled.yaml'}:25:21: procedures.take_turn(player p): roll() cannot be used in a log text: "
        "writing narration must not change the game (games played without a log would go differently)")


# ---------------------------------------------------------------- '+=' says which side is not a number
@pytest.mark.parametrize("lines, line, message", [
    ("p.points += random(each c in pile where c.value > 100: c.value)\n", 25,
     "cannot add to .points: the amount is none, not a number (the item of an empty list, or of a place past its end?)"),
    ("game.plays -= first(each c in pile where c.value > 100: c.value)\n", 25,
     "cannot add to game.plays: the amount is none, not a number (the item of an empty list, or of a place past its "
     "end?)"),
    ("let n = first(each c in pile where c.value > 100: c.value)\nn += 1\n", 26,
     "cannot add to n: it holds none, not a number"),
])
def test_an_addition_that_meets_none_names_the_side_that_is_not_a_number(tmp_path, lines, line, message):
    game = rolled(tmp_path, lines)
    state = game.new_game(2, seed=3)
    with pytest.raises(RuleError) as info:
        state.apply(0, state.legal_actions(0)[0])
    assert str(info.value).splitlines()[0] == (
        f"{tmp_path / 'rolled.yaml'}:{line}:5: procedures.take_turn(player p): {message}")


# ---------------------------------------------------------------- option spaces stay small
# A choice is counted before any option is listed (at most 100,000 options), and a bot's option is
# made alone.  Making it must cost about the option itself, not options x cards: picking 1,499 of
# 1,500 different cards has only 1,500 options.
ALL_BUT_ONE = """\
game: All but one
players: {{min: 2, max: 2}}
properties:
  value: 0
components:
  - family: {{v: [{values}]}}
    name: "chip {{v}}"
    value: "{{v}}"
    zone: deck
zones:
  deck: {{visibility: public}}
  pile: {{visibility: public}}
procedures:
  take_turn(player p): |
    ask p to choose {k} of deck as picked "keep"
    move picked to pile
flow:
  - turn: take_turn
    until: size(deck) < 2
scoring:
  score: 0
"""


def test_one_option_of_a_choice_of_all_but_one_of_many_cards_is_made_in_bounded_memory(tmp_path):
    import random
    import tracemalloc

    path = tmp_path / "all_but_one.yaml"
    path.write_text(ALL_BUT_ONE.format(values=", ".join(map(str, range(900))), k=899), encoding="utf-8")
    state = load_game(path).new_game(2, seed=1)
    assert state.legal_action_ids(0) == range(900)
    tracemalloc.start()
    try:
        option = state.sample_action_id(0, random.Random(1))
        label = state.action_to_string(0, option)
        state.apply_id(0, option)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert label.startswith("keep chip ") and label.count(", ") == 898
    assert len(state.zones[state.game.zone_index("pile")]) == 899
    assert peak < 8 * 2 ** 20, f"making one option took {peak / 2 ** 20:.0f} MB"


def test_a_choice_whose_option_text_a_save_could_not_hold_is_refused_before_any_text_is_made(tmp_path):
    # 1,499 of 1,500 chips: each option lists ~12,000 characters, and a save keeps at most 10,000 per action
    import tracemalloc

    path = tmp_path / "all_but_one.yaml"
    path.write_text(ALL_BUT_ONE.format(values=", ".join(map(str, range(1500))), k=1499), encoding="utf-8")
    game = load_game(path)
    tracemalloc.start()
    try:
        with pytest.raises(RuleError) as err:
            game.new_game(2, seed=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(err.value).startswith(f"{path}:15:29: procedures.take_turn(player p): an option of this choice "
                                     "(1499 of 1500) could list ")
    assert "more than the 10,000 an action may have (a save keeps every action's text); ask for fewer" in str(err.value)
    assert peak < 8 * 2 ** 20, f"refusing the choice took {peak / 2 ** 20:.0f} MB"


@pytest.mark.parametrize("windowed", [False, True])
def test_one_option_is_unranked_in_the_order_of_the_listing_with_full_or_windowed_tables(monkeypatch, windowed):
    import random

    from interpreter.runtime import option_spaces
    from interpreter.runtime import selections as runtime
    monkeypatch.setattr(option_spaces, "BIG_TABLE", 0 if windowed else 10 ** 9)
    rng = random.Random(7)
    for _ in range(200):
        caps = tuple(rng.randint(1, 3) for _ in range(rng.randint(1, 6)))
        k = rng.randint(0, sum(caps))
        listed = [list(way) for way in runtime.combo_shapes(caps, k)]
        assert [list(map(tuple, option_spaces._shape(caps, k, i))) for i in range(len(listed))] == listed


def test_a_large_listing_of_ways_to_pick_is_not_kept_in_memory():
    from interpreter.runtime import selections as runtime

    kept = runtime._kept_combo_shapes.cache_info
    before = kept()
    for _ in range(2):
        ways = runtime.combo_shapes((1,) * 400, 2)  # 79,800 ways: made each time, never looked up in the cache
        assert len(ways) == 79_800 and ways[0] == ((0, 1), (1, 1)) and ways[-1] == ((398, 1), (399, 1))
    assert (kept().hits, kept().misses) == (before.hits, before.misses)
    assert runtime.combo_shapes((4, 5, 4), 3) == runtime.combo_shapes((4, 5, 4), 3)  # small ones are kept:
    assert kept().hits > before.hits  # the second listing at least came from the cache
    many_alike = kept().hits  # 27 ways to pick 4 of 26 cards, 20 of them alike: few ways, so kept too
    assert len(runtime.combo_shapes((20, 1, 1, 1, 3), 4)) == len(runtime.combo_shapes((20, 1, 1, 1, 3), 4)) == 27
    assert kept().hits > many_alike


# ---------------------------------------------------------------- functions that double
# A function calling another twice, which calls another twice, thirty deep, is 2^30 calls: inlining
# them all would make code without end, and calling them would run without a decision.  A function
# inlines at most lower_expr.MAX_INLINED syntax nodes (its own calls inlined too), a call that is not
# inlined is a step of the budget (more for a big body), so the rule stops at its place.
@pytest.mark.parametrize("argument", ["x", "x + 1"])
def test_functions_that_double_at_every_level_stop_at_the_step_budget(tmp_path, argument):
    functions = "functions:\n" + "".join(f"  f{i}(int x): f{i + 1}({argument}) + f{i + 1}({argument})\n"
                                         for i in range(30)) + "  f30(int x): x\n"
    path = tmp_path / "doubling.yaml"
    path.write_text(TINY_DUEL.replace("events:\n", functions + "events:\n").replace(
        "    game.plays += 1\n", "    game.plays += 1\n    p.points += f0(1)\n"), encoding="utf-8")
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from interpreter import RuleError, load_game
        state = load_game({str(path)!r}).new_game(2, seed=1)
        try:
            state.apply(0, state.legal_actions(0)[0])
        except RuleError as exc:
            print(str(exc).splitlines()[0])
    """)
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("2^30 function calls did not stop in 30 s")
    assert done.returncode == 0, done.stderr[-2000:]
    line = done.stdout.strip()
    assert line.startswith(f"{path}:") and line.endswith(
        "effects ran too long without a decision (endless recursion?)"), line
    assert ": functions.f" in line
