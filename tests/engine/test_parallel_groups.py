"""Under pytest-xdist (pyproject's addopts) each worker runs whole groups of tests, as tests/conftest.py
assigns them: a test file stays on one worker (its module fixtures are built once, and
tests/hostile/test_hostile.py runs all its cases in one fixture), and the files that start a local Ray
cluster share one group, so two clusters never run at once."""

from __future__ import annotations

import re

import pytest

from conftest import RAY_FILES, REPO_ROOT, xdist_group

# what starts a Ray cluster in a test file: the loopback head node, the network-namespace probe, or the
# documents' shell blocks (README.md runs `--backend ray`)
STARTS_RAY = re.compile(r"from tests(?:\.ray_head| import ray_head)|ray_loopback_probe|run_document\(")


def test_every_test_file_that_starts_a_ray_cluster_is_in_the_ray_group():
    starting = {path.name for path in (REPO_ROOT / "tests").glob("*/test_*.py")
                if path.name != __file__.rsplit("/", 1)[-1] and STARTS_RAY.search(path.read_text(encoding="utf-8"))}
    assert starting == RAY_FILES


def test_a_file_is_one_group_and_the_ray_files_are_one_group():
    assert xdist_group("tests/cli/test_cli.py::test_a[1]") == xdist_group("tests/cli/test_cli.py::test_b")
    assert xdist_group("tests/cli/test_cli.py::test_a") != xdist_group("tests/cli/test_compare.py::test_a")
    assert {xdist_group(f"tests/cli/{name}::test_a") for name in RAY_FILES} == {"ray"}
    assert xdist_group("tests/hostile/test_hostile.py::test_x[case-1]") == "tests/hostile/test_hostile.py"


def test_every_test_carries_its_group_to_xdist(request):
    """The groups reach xdist (its own hook turns the marks into node ids "...@group"; it runs after ours)."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("the tests run in one process here (-n 0): no groups are handed out")
    wrong = [item.nodeid for item in request.session.items
             if not item.nodeid.endswith("@" + xdist_group(item.nodeid.rsplit("@", 1)[0]))]
    assert wrong == []
