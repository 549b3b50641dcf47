"""docs/authoring.md is run, so it cannot rot: every YAML file it writes, every fragment it shows, every
command and its output, and every Python snippet.

Conventions in the guide's fenced blocks (the first word is the language, as Markdown renderers expect):

- ```` ```yaml file=PATH ```` - a whole file the reader writes, at PATH (relative to the project folder);
- ```` ```yaml part=PATH ```` - one piece of a whole file the reader writes piece by piece: the pieces of PATH,
  in order and joined by an empty line, are written to PATH as they come, and are the shipped file exactly;
- ```` ```yaml fragment ```` - part of a Frog Tower variant: it is completed with ``variant:`` and ``game:``,
  loaded, and one bot game is played with it (```` ```yaml fragment=kaeru ````: a variant of another game of
  ``definitions/``, by its file name);
- ```` ```console ```` - ``$ ribbit ...`` commands, each followed by its output; a line ``...`` stands for any
  number of lines and ``...`` inside a line for any text; ``# exits with N`` after a command gives its status;
- ```` ```python ```` - run as is, in order, in the project folder;
- ```` ```python file=PATH ```` - a pytest file the reader writes, at PATH: written, then each of its ``test_``
  functions is called, as pytest would.

The blocks run in order in a copy of the project's definitions, in a temporary folder.
"""

from __future__ import annotations

import random
import re
import shlex
import textwrap

import pytest

from interpreter import load_game
from interpreter.cli import main

from conftest import REPO_ROOT

GUIDE = REPO_ROOT / "docs" / "authoring.md"
BLOCK = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S)
EXIT = re.compile(r"\s+#\s*exits with (\d+)\s*$")


def blocks():
    """(language, info, text, line) of every fenced block of the guide, in order."""
    text = GUIDE.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2).strip(), m.group(3), text.count("\n", 0, m.start()) + 1)
            for m in BLOCK.finditer(text)]


def commands(text: str):
    """(command line, expected exit status, expected output lines) for each ``$`` line of a console block."""
    found = []
    for line in text.splitlines():
        if line.startswith("$ "):
            command = line[2:]
            status = EXIT.search(command)
            found.append([EXIT.sub("", command), int(status.group(1)) if status else 0, []])
        else:
            assert found, f"output before any command: {line!r}"
            found[-1][2].append(line)
    return found


def matches(expected: list[str], actual: str) -> bool:
    """Does the output match, with '...' lines standing for any lines and '...' in a line for any text?"""
    pattern = ""
    for line in expected:
        line = line.rstrip()
        if line.strip() == "...":
            pattern += r"(?:[^\n]*\n)*?"
        else:
            pattern += ".*".join(re.escape(part) for part in line.split("...")) + r"[ \t]*\n"
    actual = "".join(line.rstrip() + "\n" for line in actual.splitlines())
    return re.fullmatch(pattern, actual, re.S) is not None


def play_one_game(game) -> None:
    rng = random.Random(0)
    state = game.new_game(min(max(3, game.min_players), game.max_players), seed=0)
    for _ in range(5000):
        if state.is_terminal():
            return
        player = state.current_players()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    pytest.fail("the game did not end")


def test_the_guide_has_files_fragments_commands_and_python():
    kinds = [(lang, info.split(" ")[0].split("=")[0]) for lang, info, _, _ in blocks()]
    assert {("yaml", "file"), ("yaml", "part"), ("yaml", "fragment"), ("console", ""), ("python", "")} <= set(kinds)
    unknown = [(lang, info, line) for lang, info, _, line in blocks()
               if (lang, info.split("=")[0]) not in {("yaml", "file"), ("yaml", "part"), ("yaml", "fragment"),
                                                    ("console", ""), ("python", ""), ("python", "file"),
                                                    ("text", "")}]
    assert unknown == [], "blocks the test would not run"


def test_every_block_of_the_guide_runs_as_shown(project, capsys):
    capsys.readouterr()
    pieces: dict[str, list[str]] = {}
    printed = ""
    for number, (lang, info, text, line) in enumerate(blocks()):
        where = f"docs/authoring.md:{line}"
        if lang == "yaml" and info.startswith("part="):
            pieces.setdefault(info[len("part="):], []).append(text)
            (project / info[len("part="):]).write_text("\n".join(pieces[info[len("part="):]]), encoding="utf-8")
        elif lang == "yaml" and info.startswith("file="):
            path = project / info[len("file="):]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        elif lang == "yaml" and info.split("=")[0] == "fragment":
            stem = info.partition("=")[2] or "frog_tower"
            base = project / "definitions" / f"{stem}.yaml"
            path = project / "definitions" / "variants" / stem / f"fragment_{number}.yaml"
            path.write_text(f"variant: Fragment at line {line}\ngame: {load_game(base).name}\n" + textwrap.dedent(text),
                            encoding="utf-8")
            play_one_game(load_game(base, variants=[str(path)]))
            path.unlink()
        elif lang == "console":
            for command, status, expected in commands(text):
                argv = shlex.split(command)
                assert argv[0] == "ribbit", f"{where}: only ribbit commands are run"
                code = main(argv[1:])
                out, err = capsys.readouterr()
                assert code == status, f"{where}: {command} exited with {code}:\n{out}{err}"
                assert matches(expected, out + err), f"{where}: {command} printed:\n{out}{err}"
        elif lang == "python" and info.startswith("file="):
            path = project / info[len("file="):]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            names: dict = {"__name__": path.stem}
            exec(compile(text, str(path), "exec"), names)  # noqa: S102 - the guide's own example
            tests = [fn for name, fn in names.items() if name.startswith("test_") and callable(fn)]
            assert tests, f"{where}: a test file with no test"
            for test in tests:
                test()
            capsys.readouterr()
        elif lang == "python":
            exec(compile(text, where, "exec"), {"__name__": "guide"})  # noqa: S102 - the guide's own example
            printed = capsys.readouterr().out
        elif lang == "text":  # what the python block before it prints
            assert matches(text.splitlines(), printed), f"{where}: the python block before it printed:\n{printed}"
            printed = ""


def test_the_pieces_of_a_file_in_the_guide_are_the_shipped_file():
    """A game built piece by piece in the guide (``yaml part=PATH``) is, piece for piece, the file that ships."""
    pieces: dict[str, list[str]] = {}
    for lang, info, text, _ in blocks():
        if lang == "yaml" and info.startswith("part="):
            pieces.setdefault(info[len("part="):], []).append(text)
    assert "definitions/crazy_eights.yaml" in pieces
    for path, texts in pieces.items():
        assert "\n".join(texts) == (REPO_ROOT / path).read_text(encoding="utf-8"), f"the guide's pieces of {path}"


def test_the_output_matcher_can_fail():
    assert matches(["OK a", "...", "end ... here"], "OK a\nx\ny\nend of it here\n")
    assert not matches(["OK a", "end"], "OK a\nx\nend\n")
    assert not matches(["OK ...s"], "OK b\n")
