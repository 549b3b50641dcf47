"""The process-pool backend of `simulate`: workers forked from a process that holds the compiled definition use it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load_game, sim

ROOT = Path(__file__).resolve().parents[2]


def test_forked_workers_play_the_parent_s_compiled_definition_without_loading_it_again(tmp_path):
    if sim.multiprocessing.get_start_method() != "fork":
        pytest.skip("workers are forked only where fork is the start method; elsewhere each loads the definition")
    copy = tmp_path / "kaeru.yaml"
    shutil.copy(ROOT / "definitions" / "kaeru.yaml", copy)
    game = load_game(copy)
    copy.unlink()  # a worker that loaded the definition itself would fail now
    one = sim.simulate(copy, 2, 40, seed=2, jobs=1, game=game)
    two = sim.simulate(copy, 2, 40, seed=2, jobs=2, game=game)
    assert two.to_json() == one.to_json()
    assert sim._worker_games is None  # the parent does not keep the definition after the run


def _uncompiled(game) -> int:
    return sum(batch.waiting is not None for batch in game.code._batches)


def test_the_parent_compiles_the_code_its_forked_workers_inherit():
    game = load_game(ROOT / "definitions" / "kaeru.yaml")
    assert _uncompiled(game) > 0  # code is compiled when it first runs...
    sim.simulate(ROOT / "definitions" / "kaeru.yaml", 2, 4, seed=1, jobs=2, game=game)
    assert _uncompiled(game) == 0  # ...or, before workers are forked, all at once in the parent


def test_workers_without_a_loaded_definition_load_it_themselves():
    path = ROOT / "definitions" / "kaeru.yaml"
    assert sim.simulate(path, 2, 30, seed=4, jobs=2).to_json() == sim.simulate(path, 2, 30, seed=4).to_json()


def test_an_unknown_backend_is_refused():
    with pytest.raises(sim.SimulationError, match="unknown backend 'cloud'; the backends are: process, ray"):
        sim.simulate(ROOT / "definitions" / "kaeru.yaml", 2, 1, backend="cloud")
