"""The playout build (dsl/playout_build.py): the same layout as a game's own code, the same games played.

A playout of an untraced state that keeps no log runs the game's playout build, compiled the first time one
is needed; the state goes on in it from whatever decision it was at (frames made by the normal build) and gets
its own game back when the playout ends.  So the two builds must mean the same by every frame (their frame
layouts are equal) and play the same games from the same seeds, from the start and from the middle of a game,
for every shipped game and variant at every player count and every test definition.
"""

from __future__ import annotations

import json
import random

import pytest

from configurations import ROOT, every_configuration
from interpreter import load_game
from interpreter.cli import main
from interpreter.coverage import COUNTING
from interpreter.dsl.layout_hash import frame_layout, layout_hash
from interpreter.playout import NORMAL_BUILD, PLAYOUT_BUILD

CONFIGURATIONS = every_configuration(settings=True)
DECISIONS = 3000  # a bound on each playout (a test definition's game may never end)


def _id(config) -> str:
    path, variants, n = config
    return f"{path.stem}{'+' + variants[0] if variants else ''}-{n}p"


_LOADED: dict = {}


def _game(path, variants, n):
    """The game of a configuration, loaded once for every test here (its playout build made once too)."""
    key = (str(path), tuple(variants))
    if key not in _LOADED:
        _LOADED[key] = load_game(path, variants=variants)
    return _LOADED[key] if n is None else _LOADED[key].for_players(n)


def played(state, seed: int, build: str):
    """The state played on by a seeded playout in ``build``, and what it ended as: its data, or its error."""
    try:
        state.playout(random.Random(seed), decisions=DECISIONS, build=build)
    except Exception as exc:  # noqa: BLE001 - a definition's rule error is an outcome to compare
        return [type(exc).__name__, str(exc), json.dumps(state.to_json(), sort_keys=True)]
    results = [state.scores(), state.winners(), state.returns()] if state.over else None
    return [json.dumps(state.to_json(), sort_keys=True), state.zones, state.gv, state.pv, state.counters,
            state.over, state.ended_by, results]


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=[_id(c) for c in CONFIGURATIONS])
def test_the_playout_build_plays_the_games_the_normal_build_plays(config):
    path, variants, n = config
    game = _game(path, variants, n)
    for seed in range(3):
        normal = played(game.new_game(n, seed, log=False), seed, NORMAL_BUILD)
        fast = played(game.new_game(n, seed, log=False), seed, PLAYOUT_BUILD)
        assert fast == normal, f"seed {seed}"
    assert game._playout_build is not None and game._playout_build is not game  # (it was the one played)


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=[_id(c) for c in CONFIGURATIONS])
def test_the_playout_build_goes_on_from_the_middle_of_a_game_made_by_the_normal_build(config):
    path, variants, n = config
    game = _game(path, variants, n)
    for seed, first in ((5, 8),):
        state = game.new_game(n, seed, log=False)
        rng = random.Random(seed)
        for _ in range(first):  # a few decisions through the public API: frames with pcs and locals of the normal build
            if state.over:
                break
            seat = state.current_players()[0]
            try:
                state.apply_id(seat, state.sample_action_id(seat, rng))
            except Exception:  # noqa: BLE001 - a test definition whose rules fail: the playouts start from here
                break
        normal = played(state.clone(), seed, NORMAL_BUILD)
        fast = played(state.clone(), seed, PLAYOUT_BUILD)
        assert fast == normal, f"seed {seed}, after {first} decisions"


SHIPPED = sorted({(path, tuple(variants)) for path, variants, _ in CONFIGURATIONS
                  if path.parent == ROOT / "definitions"})


@pytest.mark.parametrize("shipped", SHIPPED, ids=[f"{p.stem}{'+' + v[0] if v else ''}" for p, v in SHIPPED])
def test_the_playout_build_has_the_layout_of_the_normal_build(shipped):
    path, variants = shipped
    loaded = _game(path, list(variants), None)
    # each board of a board per player count, for the game itself (a variant changes rules, not how boards compile)
    for game in [game for _, game in loaded.every_count()] if not variants else [loaded]:
        before = game.code.source()
        fast = game.playout_build()
        assert fast is not game and fast.compile_options.playout
        assert frame_layout(fast) == frame_layout(game)  # the same procedures, functions, pcs and env keys
        assert layout_hash(fast) != layout_hash(game)  # (what the code does differs: the layout hash says so)
        assert game.code.source() == before  # the normal build's code is untouched by making the other
        assert game.playout_build() is fast  # made once


def test_the_playout_build_leaves_out_trace_and_narration_and_charges_every_step():
    game = load_game(ROOT / "definitions" / "frog_tower.yaml")
    normal, fast = game.code.source(), game.playout_build().code.source()
    assert "s.trace is not None" in normal and "s.log is not None" in normal
    assert "s.trace" not in fast and "s.log" not in fast
    assert [line for line in fast.splitlines() if line.startswith("# ") and "constants" not in line] == \
        [line for line in normal.splitlines() if line.startswith("# ") and "constants" not in line]  # same functions
    assert fast.count("s.steps -=") == normal.count("s.steps -=")  # every charge kept, none added


def test_a_playout_gives_the_state_its_own_game_back():
    game = load_game(ROOT / "definitions" / "kaeru.yaml")
    state = game.new_game(2, 1, log=False)
    state.playout(random.Random(1), decisions=5)
    assert state.game is game and not state.over
    state.playout(random.Random(1))
    assert state.game is game and state.over


def test_a_traced_state_a_state_keeping_a_log_and_a_coverage_build_run_the_normal_code():
    game = load_game(ROOT / "definitions" / "kaeru.yaml")
    game.new_game(2, 1, log=True).playout(random.Random(1))
    game.new_game(2, 1, log=False, trace=True).playout(random.Random(1))
    assert game._playout_build is None  # never needed
    counting = load_game(ROOT / "definitions" / "kaeru.yaml", options=COUNTING)
    assert counting.playout_build() is counting  # its counters live in its own code


def test_a_playout_refuses_an_unknown_build():
    from interpreter import IllegalActionError

    state = load_game(ROOT / "definitions" / "kaeru.yaml").new_game(2, 1, log=False)
    with pytest.raises(IllegalActionError, match="'playout' or 'normal'"):
        state.playout(random.Random(1), build="fast")


def test_debug_code_playout_prints_the_playout_build(capsys):
    path = str(ROOT / "definitions" / "frog_tower.yaml")
    assert main(["debug", "--code", path]) == 0
    normal = capsys.readouterr().out
    assert main(["debug", "--code", "--playout", path]) == 0
    fast = capsys.readouterr().out
    assert "s.log is not None" in normal and "s.log" not in fast and "def proc_" in fast


def test_debug_playout_without_code_is_a_usage_error(capsys):
    assert main(["debug", "--playout", str(ROOT / "definitions" / "frog_tower.yaml")]) == 2
    assert "--code" in capsys.readouterr().err


def test_compiling_before_forking_workers_makes_the_playout_build_too():
    game = load_game(ROOT / "definitions" / "frog_tower.yaml")
    game.compile_pending()  # (what a simulation does before its worker processes fork: they inherit the code)
    fast = game._playout_build
    assert fast is not None and fast is not game
    assert all(fn.__defaults__ is None for fn in [p.code for p in fast.procs] if hasattr(fn, "generated_tree"))
