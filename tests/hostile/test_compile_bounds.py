"""A definition's load does bounded work however its rules are written (docs/security.md, "Bounded work").

The compiler copies the body of a function or procedure to each place that calls it (inlining a
function or a procedure, splicing a waiting procedure), and copies nest: a turn calling a procedure
twenty times, which calls another twenty times, which calls a third twenty times, makes 8,000 copies
of the innermost body from a file of a hundred lines.  One game's
compilation copies at most ``MAX_COPIED_NODES`` syntax nodes; past that, calls stay ordinary calls,
which run the same.  Each load runs in a child process with a time and memory limit, so a runaway
fails the test instead of stopping the run.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from interpreter import DefinitionError, DSLSyntaxError, load_game
from test_errors import TINY_DUEL

ROOT = Path(__file__).resolve().parents[2]


def nested_calls(fan_out: int, body_lines: int, terms: int) -> str:
    """Tiny Duel whose turn calls p1 ``fan_out`` times, which calls p2 as often, which calls p3 as often;
    p3 adds 1 to the player's points through a function of ``terms`` terms (then passes ``body_lines`` times)."""
    function = "functions:\n  one(player q): \"" + " + ".join(["q.points - q.points"] * terms) + " + 1\"\n"
    procs = "  p3(player q): |\n    q.points += one(q) + one(q) - one(q)\n" + "    pass\n" * body_lines
    procs += "  p2(player q): |\n" + "    p3(q)\n" * fan_out
    procs += "  p1(player q): |\n" + "    p2(q)\n" * fan_out
    procs += ("  take_turn(player p): |\n    ask p to choose one of hand(p) as card \"play\"\n    move card to pile\n"
              + "    p1(p)\n" * fan_out)
    old = TINY_DUEL.split("procedures:\n")[1].split("setup:")[0]
    return TINY_DUEL.replace(old, procs).replace("procedures:\n", function + "procedures:\n")


def load_and_play_in_a_child(path: Path, seconds: float = 60, memory: int = 1_500_000_000) -> dict:
    """Load ``path`` and play one action in a fresh process limited in time and address space:
    {"code": characters of generated code, "points": player 1's points after the action}."""
    code = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(ROOT)!r})
        from interpreter import load_game
        game = load_game({str(path)!r})
        size = 0
        for _, compiled in game.every_count():
            compiled.code.compile_pending()
            size += len(compiled.code.source())
        state = game.new_game(2, seed=1)
        state.apply(0, state.legal_actions(0)[0])
        print(json.dumps({{"code": size, "points": state.to_json()["pv"]["points"][0]}}))
    """)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=seconds,
                              preexec_fn=limit)
    except subprocess.TimeoutExpired:
        pytest.fail(f"loading and playing {path.name} took more than {seconds} s")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_nested_calls_copy_a_bounded_amount_of_code_and_run_the_same(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(nested_calls(fan_out=20, body_lines=60, terms=3), encoding="utf-8")
    assert len(path.read_bytes()) < 5_000
    result = load_and_play_in_a_child(path)  # before the bound: 8,000 copies of p3, a minute and gigabytes
    assert result["code"] < 1_000_000
    assert result["points"] == 20 ** 3  # every call ran, copied or not


# ---------------------------------------------------------------- the size of the rules
# Compiling costs about a tenth of a millisecond and a few kilobytes per syntax node: the 2 MB a file may
# hold would take minutes and gigabytes.  A definition's rules hold at most 30,000 syntax nodes, and one
# text at most 20,000 words and symbols (refused while it is read, before a tree of them is built).
def with_functions(count: int, items: int) -> str:
    """Tiny Duel with ``count`` functions, each the sum of a list of ``items`` ones (``items`` + 2 nodes)."""
    ones = ", ".join(["1"] * items)
    functions = "functions:\n" + "".join(f"  f{i}(player q): \"sum([{ones}])\"\n" for i in range(count))
    return TINY_DUEL.replace("procedures:\n", functions + "procedures:\n")


def test_rules_of_more_than_30000_syntax_nodes_are_refused_at_the_text_that_passes_the_limit(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(with_functions(count=7, items=4_500), encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert str(info.value).splitlines()[0] == (
        f"{path}:26:17: functions.f6(player q): with this text the rules hold more than 30,000 syntax nodes "
        "(names, numbers, operators, statements) in all; a definition's rules are at most that large, so that it "
        "loads in seconds (the largest shipped game has about 2,600)")


def test_rules_of_fewer_syntax_nodes_load(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(with_functions(count=6, items=4_500), encoding="utf-8")
    assert load_game(path).name == "Tiny Duel"


def test_an_effect_of_more_than_20000_words_and_symbols_is_refused_where_it_passes_the_limit(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(with_functions(count=1, items=10_001), encoding="utf-8")
    with pytest.raises(DSLSyntaxError) as info:
        load_game(path)
    message = str(info.value).splitlines()[0]
    assert message == (f"{path}:20:30017: functions.f0(player q): this text has more than 20,000 words and symbols; "
                       "an effect is at most that long (split it into procedures)")


def test_the_parts_of_log_texts_count_towards_the_30000_syntax_nodes(tmp_path):
    part = "{" + "+".join(["1"] * 40) + "}"  # 79 nodes
    logs = "".join("    log \"" + part * 100 + "\"\n" for _ in range(4))
    path = tmp_path / "game.yaml"
    path.write_text(TINY_DUEL.replace("    game.plays += 1\n", "    game.plays += 1\n" + logs), encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert str(info.value).splitlines()[0] == (
        f"{path}:28:5: procedures.take_turn(player p): with this text the rules hold more than 30,000 syntax nodes "
        "(names, numbers, operators, statements) in all; a definition's rules are at most that large, so that it "
        "loads in seconds (the largest shipped game has about 2,600)")
