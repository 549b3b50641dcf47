"""The effect grammar's cached tables: plain JSON in the user's own folder, never a pickle, never in the temp dir."""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from lark import Lark

from interpreter.dsl import parser as dsl_parser
from interpreter.dsl import tables

REPO_ROOT = Path(__file__).resolve().parents[2]
FROG_TOWER = str(REPO_ROOT / "definitions" / "frog_tower.yaml")
SAMPLE = "x = 1\nif x > 0:\n    y = x + 2\n"


class _Planted:
    """Unpickling this creates the marker file: proof that planted code ran."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


def planted_pickle(marker: Path) -> bytes:
    return b"0" * 64 + b"\n" + pickle.dumps(_Planted(marker)) + pickle.dumps(_Planted(marker))


def lark_cache_name(tmp_path: Path, monkeypatch) -> str:
    """The name lark's own cache (cache=True) gave the tables when Ribbit built them that way."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    Lark(dsl_parser.GRAMMAR.read_text(encoding="utf-8"), parser="lalr", postlex=dsl_parser._Indenter(),
         propagate_positions=True, cache=True, maybe_placeholders=True)
    monkeypatch.undo()
    (name,) = os.listdir(scratch)
    return name


def validate_in_subprocess(temp: Path, cache: Path):
    env = {k: v for k, v in os.environ.items() if k not in ("TMPDIR", "TEMP", "TMP")}
    env.update(TMPDIR=str(temp), XDG_CACHE_HOME=str(cache), PYTHONPATH=str(REPO_ROOT))
    return subprocess.run([sys.executable, "-m", "interpreter.cli", "validate", FROG_TOWER], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_planted_pickle_in_the_temp_dir_is_never_unpickled_and_validate_writes_nothing_there(tmp_path, monkeypatch):
    name = lark_cache_name(tmp_path, monkeypatch)
    temp = tmp_path / "temp"
    temp.mkdir()
    marker = tmp_path / "planted-code-ran"
    (temp / name).write_bytes(planted_pickle(marker))
    result = validate_in_subprocess(temp, tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert not marker.exists()
    assert os.listdir(temp) == [name]


def test_planted_pickle_in_the_cache_folder_is_never_unpickled(tmp_path):
    key = tables.table_key(dsl_parser.GRAMMAR.read_text(encoding="utf-8"), dsl_parser._Indenter(),
                           {"propagate_positions": True, "maybe_placeholders": True})
    cache = tmp_path / "cache"
    planted = tables.cache_file(key, cache / "ribbit")
    planted.parent.mkdir(parents=True, mode=0o700)
    marker = tmp_path / "planted-code-ran"
    planted.write_bytes(planted_pickle(marker))
    planted.chmod(0o600)
    result = validate_in_subprocess(tmp_path / "temp-unused", cache)
    assert result.returncode == 0, result.stderr
    assert not marker.exists()
    assert planted.read_bytes().startswith(b"{")  # replaced by real JSON tables


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "ribbit"


def build(**kwargs):
    return tables.load_parser(dsl_parser.GRAMMAR.read_text(encoding="utf-8"), dsl_parser._Indenter(),
                              propagate_positions=True, maybe_placeholders=True)


def test_cache_folder_is_private_and_the_tables_are_json(cache_home):
    build()
    assert stat.S_IMODE(cache_home.stat().st_mode) == 0o700
    (file,) = cache_home.iterdir()
    assert file.suffix == ".json" and not stat.S_IMODE(file.stat().st_mode) & 0o077
    assert file.read_text(encoding="utf-8").startswith('{"key":')


def test_cached_tables_parse_like_freshly_built_ones_without_building(cache_home, monkeypatch):
    fresh = build()
    assert list(cache_home.iterdir())

    def no_build(*args, **kwargs):
        raise AssertionError("the tables were built again instead of read from the cache")
    monkeypatch.setattr(tables, "Lark", type("NoBuild", (Lark,), {"__init__": no_build}))
    cached = build()
    assert cached.parse(SAMPLE) == fresh.parse(SAMPLE)
    assert {t.name for t in cached.terminals} == {t.name for t in fresh.terminals}


def unusable(cache_home, change) -> bool:
    """Whether a cache file, once ``change`` has been applied to it, is ignored (not read)."""
    build()
    (file,) = cache_home.iterdir()
    key = tables.table_key(dsl_parser.GRAMMAR.read_text(encoding="utf-8"), dsl_parser._Indenter(),
                           {"propagate_positions": True, "maybe_placeholders": True})
    assert tables.read_tables(file, key) is not None
    change(file)
    return tables.read_tables(file, key) is None


def test_cache_file_writable_by_others_is_ignored(cache_home):
    assert unusable(cache_home, lambda f: f.chmod(0o666))


def test_cache_file_in_a_folder_writable_by_others_is_ignored(cache_home):
    assert unusable(cache_home, lambda f: f.parent.chmod(0o777))


def test_cache_file_that_is_a_symlink_is_ignored(cache_home):
    def swap(file):
        real = file.with_name("elsewhere.json")
        file.rename(real)
        file.symlink_to(real)
    assert unusable(cache_home, swap)


def test_cache_file_that_is_a_fifo_is_ignored_without_hanging(cache_home):
    def swap(file):
        file.unlink()
        os.mkfifo(file, 0o600)
    assert unusable(cache_home, swap)


def test_cache_file_for_another_grammar_is_ignored(cache_home):
    def other_key(file):
        file.write_text(file.read_text(encoding="utf-8").replace('{"key":"', '{"key":"0', 1), encoding="utf-8")
    assert unusable(cache_home, other_key)


def test_damaged_cache_file_is_rebuilt(cache_home):
    build()
    (file,) = cache_home.iterdir()
    file.write_text('{"key": 1, "data": {"__d": [[[1], 2]]}}', encoding="utf-8")
    assert build().parse(SAMPLE)
    assert file.read_text(encoding="utf-8").startswith('{"key":"')


def test_unwritable_cache_folder_still_loads(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not-a-folder"))
    (tmp_path / "not-a-folder").write_text("a file where the folder should be", encoding="utf-8")
    assert build().parse(SAMPLE)


def test_the_cache_files_layout_is_named_by_a_hash_of_the_code_that_writes_it(monkeypatch):
    # nothing to bump by hand: the module that writes and reads the file names it by its own text
    assert tables._FORMAT == hashlib.sha256(Path(tables.__file__).read_bytes()).hexdigest()
    options = {"propagate_positions": True, "maybe_placeholders": True}
    grammar = dsl_parser.GRAMMAR.read_text(encoding="utf-8")
    before = tables.table_key(grammar, dsl_parser._Indenter(), options)
    monkeypatch.setattr(tables, "_FORMAT", tables._FORMAT[::-1])  # as if the writing code had changed
    assert tables.table_key(grammar, dsl_parser._Indenter(), options) != before
