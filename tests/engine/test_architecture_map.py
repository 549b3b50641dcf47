"""docs/architecture.md is a map that cannot drift: its module table names every module of the package,
and nothing else; its layers are those tests/engine/test_layering.py checks; it stays short."""

from __future__ import annotations

import re

from conftest import REPO_ROOT
from test_layering import LAYERS

MAP = REPO_ROOT / "docs" / "architecture.md"
PACKAGE = REPO_ROOT / "interpreter"


def table_entries(text: str) -> list[str]:
    """The first cell of each row of the module table (between '## Modules' and the next heading)."""
    section = text.split("## Modules", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, flags=re.M)


def modules() -> set[str]:
    return {path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py")}


def test_every_module_of_the_package_is_in_the_map_and_every_entry_exists():
    entries = table_entries(MAP.read_text(encoding="utf-8"))
    assert len(entries) == len(set(entries)), "a module is listed twice"
    listed = {e for e in entries if e.endswith(".py")}
    assert sorted(modules() - listed) == [], "modules missing from the table of docs/architecture.md"
    assert sorted(listed - modules()) == [], "the table of docs/architecture.md names modules that do not exist"
    for entry in entries:
        assert (PACKAGE / entry).is_file(), f"{entry} is in the table but not in interpreter/"


def test_the_map_lists_the_layers_the_layering_test_checks():
    section = MAP.read_text(encoding="utf-8").split("## Layering", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\d+\. (\w+): (.*)$", section, flags=re.M)
    assert [name for name, _ in rows] == [name for name, _ in LAYERS]
    for (name, members), (_, line) in zip(LAYERS, rows):
        named = {m.strip("/") for m in re.findall(r"`([^`]+)`", line)} - {"__init__.py"}
        expected = {m.removeprefix("interpreter.").replace(".", "/") for m in members} - {"interpreter"}
        assert named == expected, f"layer {name}"


def test_the_map_stays_a_map():
    words = len(MAP.read_text(encoding="utf-8").split())
    assert words <= 1500, f"docs/architecture.md has {words} words: move design notes to their own file in docs/"


def test_the_table_reader_sees_a_missing_module():
    text = ("## Modules\n\n| module | what |\n|---|---|\n| `state.py` | x |\n| `gone.py` | y |\n\n"
            "## Next\n| `no.py` | z |\n")
    assert table_entries(text) == ["state.py", "gone.py"]


TEST_FOLDERS = {"engine", "compiler", "games", "cli", "web", "agents", "hostile"}


def test_every_test_file_lives_in_a_folder_the_map_names():
    tests = REPO_ROOT / "tests"
    loose = sorted(p.name for p in tests.glob("test_*.py"))
    assert loose == [], f"tests outside the folders of docs/architecture.md: {loose}"
    folders = {p.parent.name for p in tests.rglob("test_*.py")}
    assert folders <= TEST_FOLDERS, f"test folders the map does not name: {sorted(folders - TEST_FOLDERS)}"
    section = MAP.read_text(encoding="utf-8").split("## Tests", 1)[1]
    assert {f for f in TEST_FOLDERS if f"`{f}/`" in section} == TEST_FOLDERS
