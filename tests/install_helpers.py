"""Helpers of the tests that install Ribbit somewhere new: a copy of the checkout, a fresh virtual environment.

Installing from a copy keeps build/ and egg-info out of the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SOURCE = ("pyproject.toml", "README.md", "interpreter")  # what pip needs to build the package


def run(args, cwd, env, timeout=300):
    """Run ``args``; fail the test with both outputs unless it exits 0."""
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{args} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def copy_checkout(destination: Path, also=()) -> Path:
    """The package's source (and the folders named in ``also``, e.g. ``definitions``) copied to ``destination``."""
    destination.mkdir(parents=True)
    for name in (*SOURCE, *also):
        source = REPO_ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, destination / name)
    return destination


def clean_environment(temp: Path) -> dict:
    """This process's environment without what would let another Python's packages in; private temp and cache."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    pip_cache = env.get("PIP_CACHE_DIR") or str(Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pip")
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", TMPDIR=str(temp), XDG_CACHE_HOME=str(temp / "cache"),
               PIP_CACHE_DIR=pip_cache)  # pip's own download cache, as a user's install would use it
    return env


def fresh_venv(path: Path, env: dict, system_site_packages: bool = False) -> Path:
    """A new virtual environment at ``path``; returns its scripts folder (``bin``). Without
    ``system_site_packages`` it holds nothing but pip: whatever a command needs must be installed in it."""
    args = [sys.executable, "-m", "venv", *(["--system-site-packages"] if system_site_packages else []), str(path)]
    run(args, path.parent, env)
    return path / ("Scripts" if os.name == "nt" else "bin")
