"""A wheel of the project, installed in a fresh virtual environment, loads and plays the shipped games.

This is what a user's ``pip install ribbit`` gets: no checkout next to it, so
schemas and grammar must come from inside the package.  Building the wheel
fetches setuptools from PyPI (pip's build isolation); the run takes ~30 s.
Deselect it while iterating with ``-m 'not install'``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.install


def run(args, cwd, env, timeout=300):
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{args} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def test_wheel_installed_in_a_fresh_venv_validates_and_simulates_a_shipped_game(tmp_path):
    source = tmp_path / "src"  # built from a copy, so the checkout gets no build/ or egg-info
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO_ROOT / name, source / name)
    shutil.copytree(REPO_ROOT / "interpreter", source / "interpreter",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    games = tmp_path / "games"
    shutil.copytree(REPO_ROOT / "definitions", games)
    work = tmp_path / "elsewhere"
    work.mkdir()
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", TMPDIR=str(temp), XDG_CACHE_HOME=str(tmp_path / "cache"))

    built = run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "wheels"),
                 str(source)], work, env)
    wheels = list((tmp_path / "wheels").glob("ribbit-*.whl"))
    assert len(wheels) == 1, built.stdout + built.stderr
    venv = tmp_path / "venv"
    # --system-site-packages: the dependencies are already there, nothing else is downloaded.
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], work, env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = str(bin_dir / "python")
    installed = run([python, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--force-reinstall",
                     str(wheels[0])], work, env)
    assert installed.stdout.strip() == "", installed.stdout  # quiet enough for a CI log

    where = run([python, "-c", "import interpreter; print(interpreter.__file__)"], work, env).stdout.strip()
    assert Path(where).resolve().is_relative_to(venv.resolve()), where  # the wheel, not the checkout
    ribbit = str(bin_dir / "ribbit")
    game = str(games / "frog_tower.yaml")
    checked = run([ribbit, "validate", game, "--variant", "flower"], work, env)
    assert "frog_tower.yaml" in checked.stdout + checked.stderr
    run([ribbit, "simulate", game, "--players", "3", "--games", "5", "--seed", "1"], work, env)
    run([ribbit, "validate", str(games / "kaeru.yaml")], work, env)


def test_ci_script_runs_exactly_the_readme_test_command():
    """`.ci/run` is the README's test command (pip may be told to be quiet), so the install test runs in CI."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    commands = [line.strip() for line in readme.splitlines() if line.startswith("python3 -m pip install") and "pytest" in line]
    assert commands == ["python3 -m pip install -e '.[dev]' && python3 -m pytest"]
    script = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    runs = [line.strip() for line in script if line.strip() and not line.lstrip().startswith("#")]
    assert runs[-1].replace("pip install -q ", "pip install ") == commands[0]
    assert not any("-m 'not install'" in line or "deselect" in line for line in runs)
