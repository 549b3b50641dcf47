"""A wheel of the project, installed in a fresh virtual environment, loads and plays the shipped games.

This is what a user's ``pip install ribbit`` gets: no checkout next to it, so
schemas and grammar must come from inside the package.  Building the wheel
fetches setuptools from PyPI (pip's build isolation); the run takes ~30 s.
Deselect it while iterating with ``-m 'not install'``.

The fresh environment takes Ribbit's dependencies from the environment the tests
run in, whether that is a plain interpreter or, as for most users, a virtual
environment (whose packages ``--system-site-packages`` alone does not reach: that
option reaches the base interpreter's).  A second test runs the first from inside
a virtual environment of its own.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
CORE = ("yaml", "jsonschema", "lark", "networkx", "rich")  # Ribbit's dependencies, as imported

pytestmark = pytest.mark.install


def run(args, cwd, env, timeout=300):
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{args} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def running_site_packages() -> list[str]:
    """The folders this environment imports installed packages from, in the order it looks in them."""
    folders = set(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        folders.add(site.getusersitepackages())
    return [entry for entry in dict.fromkeys(sys.path) if entry in folders]


def make_venv(venv: Path, cwd, env) -> Path:
    """A virtual environment that sees the packages this one sees; its ``bin`` folder.

    ``--system-site-packages`` gives it the *base* interpreter's packages only, so when the tests
    run in a virtual environment a ``.pth`` file lists that environment's folders too, as plain
    paths (their own ``.pth`` files, such as an editable install of Ribbit, stay out).
    """
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], cwd, env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    inside = run([str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                 cwd, env).stdout.strip()
    (Path(inside) / "ribbit-tests-running-environment.pth").write_text("\n".join(running_site_packages()) + "\n")
    return bin_dir


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
    bin_dir = make_venv(venv, work, env)  # the dependencies are already there, nothing else is downloaded
    python = str(bin_dir / "python")
    installed = run([python, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--force-reinstall",
                     str(wheels[0])], work, env)
    assert installed.stdout.strip() == "", installed.stdout  # quiet enough for a CI log

    where = run([python, "-c", "import interpreter; print(interpreter.__file__)"], work, env).stdout.strip()
    assert Path(where).resolve().is_relative_to(venv.resolve()), where  # the wheel, not the checkout
    found = run([python, "-c", f"import {', '.join(CORE)}; print('\\n'.join(m.__file__ for m in ({', '.join(CORE)})))"],
                work, env).stdout.splitlines()
    assert found == [importlib.import_module(name).__file__ for name in CORE]  # the ones this environment uses
    ribbit = str(bin_dir / "ribbit")
    game = str(games / "frog_tower.yaml")
    checked = run([ribbit, "validate", game, "--variant", "flower"], work, env)
    assert "frog_tower.yaml" in checked.stdout + checked.stderr
    run([ribbit, "simulate", game, "--players", "3", "--games", "5", "--seed", "1"], work, env)
    run([ribbit, "validate", str(games / "kaeru.yaml")], work, env)


def install_distribution(name: str, folder: Path) -> None:
    """Install the distribution ``name`` into the site-packages ``folder``, from its files here (no download)."""
    distribution = importlib.metadata.distribution(name)
    for file in distribution.files or ():
        source = Path(distribution.locate_file(file))
        if ".." not in file.parts and "__pycache__" not in file.parts and source.is_file():
            (folder / file).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / file)


def test_the_install_test_passes_inside_a_virtual_environment_with_its_own_packages(tmp_path):
    """The README's test command run inside a virtual environment, as most users run it.

    The install test runs here with the Python of a virtual environment that holds a dependency
    (lark) in its own site-packages, as ``pip install -e '.[dev]'`` in a venv leaves it.  The
    wheel's environment must import that very lark: ``--system-site-packages`` alone would reach
    only the base interpreter's packages (``No module named 'lark'`` where the base has none).
    """
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1")
    outer = tmp_path / "users-venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(outer)], tmp_path, env)
    python = str(outer / ("Scripts" if os.name == "nt" else "bin") / "python")
    folder = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path, env)
    install_distribution("lark", Path(folder.stdout.strip()))
    lark = run([python, "-c", "import lark; print(lark.__file__)"], tmp_path, env).stdout.strip()
    assert Path(lark).is_relative_to(outer), lark  # the venv's own lark, not the base interpreter's

    inner = run([python, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider", "--basetemp",
                 str(tmp_path / "inner"),
                 f"{Path(__file__).relative_to(REPO_ROOT)}::"
                 "test_wheel_installed_in_a_fresh_venv_validates_and_simulates_a_shipped_game"], REPO_ROOT, env)
    assert "1 passed" in inner.stdout, inner.stdout


def test_ci_script_runs_exactly_the_readme_test_command():
    """`.ci/run` is the README's test command (pip may be told to be quiet), so the install test runs in CI."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    commands = [line.strip() for line in readme.splitlines() if line.startswith("python3 -m pip install") and "pytest" in line]
    assert commands == ["python3 -m pip install -e '.[dev]' && python3 -m pytest"]
    script = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    runs = [line.strip() for line in script if line.strip() and not line.lstrip().startswith("#")]
    assert runs[-1].replace("pip install -q ", "pip install ") == commands[0]
    assert not any("-m 'not install'" in line or "deselect" in line for line in runs)
