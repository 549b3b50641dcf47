"""Every `ribbit` command the README, docs/serve.md and docs/authoring.md show works as written, after the
install the document shows (tests/doc_commands.py reads and runs them).

The commands run in order, as a reader types them, in a fresh folder holding a copy of ``definitions/`` (what a
checkout has), with answers for a seat held at the terminal, and must end with their documented status and no
traceback. Here they run with the suite's packages (every extra), the worktree's code standing in for
``ribbit``; the ``install`` test runs them once more in a fresh virtual environment made with the README's plain
install and nothing else, where a command whose block installs no extra must work, and a command that needs an
extra must say which one to install.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from doc_commands import (DOCUMENTS, Block, Command, block_extras, blocks, commands_of, environment, installed_extras,
                          run_document, steps, stray_commands)
from install_helpers import REPO_ROOT, clean_environment, copy_checkout, fresh_venv, run


def fresh_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "reader"
    shutil.copytree(REPO_ROOT / "definitions", folder / "definitions")
    return folder


@pytest.fixture
def worktree_ribbit(tmp_path) -> Path:
    """A folder with a ``ribbit`` that runs this checkout's interpreter (not whatever is installed)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "ribbit"
    shim.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(REPO_ROOT)!r})\n"
                    "from interpreter.cli import main\nsys.exit(main())\n", encoding="utf-8")
    shim.chmod(0o755)
    return bin_dir


def commands(document: str) -> list[Command]:
    return [step for step in steps(REPO_ROOT, document) if isinstance(step, Command)]


# ---------------------------------------------------------------- what the documents show
def test_the_documents_show_ribbit_commands_in_shell_blocks():
    assert len(commands("README.md")) >= 15
    assert any(c.serves for c in commands("docs/serve.md"))
    assert len(commands("docs/authoring.md")) >= 10


def test_the_tour_logs_a_game_before_replaying_it_and_answers_for_its_human_seats():
    tour = next(b for b in blocks(REPO_ROOT, "README.md") if "ribbit replay" in b.text)
    lines = [c.argv for c in commands_of(tour)]
    logged = [argv[argv.index("--log") + 1] for argv in lines if argv[1] == "play" and "--log" in argv]
    replays = [i for i, argv in enumerate(lines) if argv[1] == "replay"]
    assert replays and all(lines[i][2] in logged[:i + 1] for i in replays)
    assert all(c.piped for c in commands_of(tour) if "--human" in c.argv)
    assert any(argv[1] == "compare" for argv in lines)


def test_every_ribbit_command_in_a_fenced_block_is_in_a_shell_block():
    """A command in a block of another language (or none) would be skipped silently; tag the block ``sh``."""
    assert [line for document in DOCUMENTS for line in stray_commands(REPO_ROOT, document)] == []


def test_a_block_that_is_not_run_says_why():
    unrun = [b for document in DOCUMENTS for b in blocks(REPO_ROOT, document) if b.not_run]
    assert all(b.info.startswith("not-run:") and len(b.info) > len("not-run: ") + 10 for b in unrun), \
        [b.where for b in unrun]


def test_a_command_that_needs_an_extra_has_that_extra_s_install_in_its_own_block():
    missing = [f"{c.where}: {c.line} needs {sorted(c.extras - c.block_extras)}"
               for document in DOCUMENTS for c in commands(document) if c.extras - c.block_extras]
    assert missing == [], "add `python3 -m pip install -e '.[EXTRA]'` to the block"


def test_the_extras_check_sees_a_block_without_the_install():
    bare = Block("doc.md", "sh", "", "ribbit serve definitions/kaeru.yaml --players 2\n", 1)
    installed = Block("doc.md", "sh", "", "python3 -m pip install -e '.[web,plot]'\n"
                                           "ribbit simulate g.yaml --players 2 --plot figures\n", 1)
    assert commands_of(bare)[0].extras == {"web"} and commands_of(bare)[0].block_extras == set()
    assert block_extras(installed) == {"web", "plot"} and commands_of(installed)[0].extras == {"plot"}
    assert Command("x", "", ["ribbit", "compare", "g", "--backend", "ray"], 0, False, set()).extras == {"ray"}


# ---------------------------------------------------------------- running them here
@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_command_of_the_document_runs_as_written_in_a_fresh_folder(document, tmp_path, worktree_ribbit):
    env = environment(worktree_ribbit, tmp_path / "cache")
    assert run_document(REPO_ROOT, document, fresh_folder(tmp_path), env, installed_extras(REPO_ROOT)) > 0


def test_a_command_that_does_not_end_as_documented_fails_the_run(tmp_path, worktree_ribbit):
    (tmp_path / "doc.md").write_text("```sh\nribbit validate definitions/kaeru.yaml\n"
                                     "ribbit validate missing.yaml   # exits with 0\n```\n", encoding="utf-8")
    env = environment(worktree_ribbit, tmp_path / "cache")
    with pytest.raises(AssertionError, match="doc.md:3: ribbit validate missing.yaml .* exited with 2"):
        run_document(tmp_path, "doc.md", fresh_folder(tmp_path), env, set())


def test_a_piped_answer_is_shown_after_its_prompt(tmp_path):
    """``yes 1 | ribbit play ...`` reads like a game typed at the keyboard: each prompt ends with its answer."""
    result = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", REPO_ROOT / "definitions" / "kaeru.yaml",
                             "--players", "2", "--human", "1", "--seed", "3", "--log", "-"],
                            cwd=REPO_ROOT, input="1\n" * 500, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    prompts = [line for line in result.stdout.splitlines() if line.startswith("player 1, ")]
    assert prompts and all(line.endswith("]: 1") for line in prompts), prompts[:3]


# ---------------------------------------------------------------- after the plain install, nothing else
@pytest.mark.install
def test_the_documents_commands_run_after_the_plain_install_in_a_fresh_venv(tmp_path):
    """The README's own install (``python3 -m pip install -e .``, run in a copy of the checkout) in a virtual
    environment that sees none of the suite's packages: its dependencies come from PyPI."""
    install = plain_install()
    checkout = copy_checkout(tmp_path / "checkout", also=("definitions",))
    temp = tmp_path / "temp"
    temp.mkdir()
    bin_dir = fresh_venv(tmp_path / "venv", clean_environment(temp))
    env = environment(bin_dir, temp / "cache")
    env.update({key: value for key, value in clean_environment(temp).items() if key.startswith("PIP_")})
    run(["bash", "-c", install], checkout, env, timeout=600)
    where = run([str(bin_dir / "python"), "-c", "import interpreter, scipy; print(interpreter.__file__)"],
                tmp_path, env).stdout.strip()
    assert Path(where).resolve().is_relative_to(checkout.resolve()), where  # the copy, not the worktree
    for document in DOCUMENTS:
        folder = fresh_folder(tmp_path / document.replace("/", "-").replace(".", "-"))
        assert run_document(REPO_ROOT, document, folder, env, installed_extras=set()) > 0


def plain_install() -> str:
    """The README's first install command: the one before ``&&`` in its first shell block."""
    first = next(b for b in blocks(REPO_ROOT, "README.md") if b.language == "sh")
    line = first.text.splitlines()[0]
    install = line.split("&&")[0].strip()
    assert install == "python3 -m pip install -e .", line
    return install
