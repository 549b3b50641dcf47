"""Files a user or a definition names: only regular YAML files of bounded size, only inside the game's folders
when a definition names them, and never an error that prints a file that is not a definition."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from interpreter import DefinitionError, load_game
from interpreter.cli import main
from interpreter.loader.source import MAX_FILE_BYTES

REPO_ROOT = Path(__file__).resolve().parents[2]
BASE = REPO_ROOT / "definitions" / "frog_tower.yaml"
SECRET = "SECRET-TOKEN-8f3a"
NOT_REGULAR = "is not a regular file (it is {}); expected a YAML file"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out + err


def variant_text(extends: list[str]) -> str:
    return f"variant: Child\ngame: Frog Tower\nextends: {extends!r}\n"


def release_after(fifo: Path, seconds: float = 3.0) -> threading.Timer:
    """If a reader is stuck on the pipe (the bug), open and close its write end so the test fails instead of hanging."""
    def release():
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # nobody is reading it: nothing to release
            pass
    timer = threading.Timer(seconds, release)
    timer.start()
    return timer


# ================================================================ 9. files that are not files
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_definition_that_is_a_named_pipe_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "game.yaml"
    os.mkfifo(fifo)
    timer = release_after(fifo)
    try:
        with pytest.raises(DefinitionError) as info:
            load_game(fifo)
    finally:
        timer.cancel()
    assert str(info.value) == f"{fifo}: {NOT_REGULAR.format('a named pipe')}"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_variant_that_is_a_named_pipe_is_refused_without_waiting(tmp_path, capsys):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    timer = release_after(fifo)
    try:
        code, output = run(capsys, "validate", BASE, "--variant", fifo)
    finally:
        timer.cancel()
    assert (code, output) == (2, f"{fifo}: {NOT_REGULAR.format('a named pipe')}\n")


def test_variant_dev_null_is_not_a_regular_file_rather_than_missing(capsys):
    code, output = run(capsys, "validate", BASE, "--variant", "/dev/null")
    assert (code, output) == (2, f"/dev/null: {NOT_REGULAR.format('a device')}\n")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_definition_linked_to_an_endless_device_is_refused_before_reading(tmp_path, device):
    """Run apart, with a memory cap, so a regression fails this test instead of eating the machine's memory."""
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    link = tmp_path / "game.yaml"
    link.symlink_to(device)
    cap = "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
    code = cap + "import sys; from interpreter.cli import main; sys.exit(main(sys.argv[1:]))"
    for argv in (["validate", str(link)], ["validate", str(BASE), "--variant", str(link)]):
        result = subprocess.run([sys.executable, "-c", code, *argv], cwd=REPO_ROOT, capture_output=True, text=True,
                                timeout=60, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
        assert (result.returncode, result.stdout, result.stderr) == \
            (2, "", f"{link}: {NOT_REGULAR.format('a device')}\n")


def test_over_size_definition_and_variant_are_refused_before_reading(tmp_path, capsys):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)  # sparse: no need to write 2 MB
    expected = f"{big}: file is {MAX_FILE_BYTES + 1} bytes; definitions are limited to {MAX_FILE_BYTES} bytes\n"
    assert run(capsys, "validate", big) == (2, expected)
    assert run(capsys, "validate", BASE, "--variant", big) == (2, expected)


def test_variant_that_is_a_directory_is_refused(tmp_path, capsys):
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    assert run(capsys, "validate", BASE, "--variant", folder) == (2, f"{folder}: is a directory; expected a YAML file\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_extends_naming_a_named_pipe_is_refused_without_waiting(tmp_path, capsys):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    child = tmp_path / "child.yaml"
    child.write_text(variant_text(["pipe"]), encoding="utf-8")
    timer = release_after(fifo)
    try:
        code, output = run(capsys, "validate", BASE, "--variant", child)
    finally:
        timer.cancel()
    assert (code, output.splitlines()[0]) == \
        (2, f"{child}:3:11: extends[0]: {fifo}: {NOT_REGULAR.format('a named pipe')} (extended here)")


# ================================================================ 3. references written in a variant
def test_extends_with_dotdot_leaving_the_game_folders_is_refused_at_the_extends_entry(tmp_path, capsys):
    (tmp_path / "secret.yaml").write_text(f"variant: {SECRET}\ngame: Frog Tower\n", encoding="utf-8")
    folder = tmp_path / "house"
    folder.mkdir()
    child = folder / "child.yaml"
    child.write_text(variant_text(["ok_name", "../secret.yaml"]), encoding="utf-8")
    (folder / "ok_name.yaml").write_text("variant: Fine\ngame: Frog Tower\n", encoding="utf-8")
    code, output = run(capsys, "validate", BASE, "--variant", child)
    assert code == 2
    assert output.splitlines()[0] == (
        f"{child}:3:22: extends[1]: '../secret.yaml' leads outside the game's folders; a variant extends only "
        f"variants in its own folder or the game's variants folder ({folder} or "
        f"{REPO_ROOT / 'definitions' / 'variants' / 'frog_tower'}), named by NAME or by a relative PATH ending "
        "in .yaml")
    assert SECRET not in output


@pytest.mark.parametrize("target", ["/etc/passwd", "/tmp/x.yaml", "C:\\\\x.yaml"])
def test_extends_with_an_absolute_path_is_refused_at_the_extends_entry(tmp_path, capsys, target):
    child = tmp_path / "child.yaml"
    child.write_text(variant_text([target]), encoding="utf-8")
    code, output = run(capsys, "validate", BASE, "--variant", child)
    assert code == 2
    first = output.splitlines()[0]
    assert first.startswith(f"{child}:3:") and ": extends[0]: " in first and "is an absolute path;" in first


def test_extends_through_a_link_leading_out_of_the_folder_is_refused(tmp_path, capsys):
    (tmp_path / "outside.yaml").write_text(f"variant: {SECRET}\ngame: Frog Tower\n", encoding="utf-8")
    folder = tmp_path / "house"
    folder.mkdir()
    (folder / "inside.yaml").symlink_to(tmp_path / "outside.yaml")
    child = folder / "child.yaml"
    child.write_text(variant_text(["inside"]), encoding="utf-8")
    code, output = run(capsys, "validate", BASE, "--variant", child)
    assert code == 2 and "'inside' leads outside the game's folders" in output and SECRET not in output


def test_extends_inside_the_games_variants_folder_still_works(capsys):
    code, output = run(capsys, "validate", BASE, "--variant", "crayfish2")
    assert code == 0, output


# Files that are not variants (or not definitions), holding something secret-looking.
NOT_DEFINITIONS = {
    "scalar": f"{SECRET}\n",
    "mapping": f"password: {SECRET}\nuser: me\n",
    "yaml_error": f"token: [{SECRET}\n  other: x: y\n",
    "tab": f"\t{SECRET}: 1\n",
    "tag": f"key: !python/object {SECRET}\n",
    "alias": f"key: *{SECRET}\n",
    "control": f"key: {SECRET}\x00\n",
    "private_key": f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET}\n-----END OPENSSH PRIVATE KEY-----\n",
}


@pytest.fixture(params=sorted(NOT_DEFINITIONS) + ["not_utf8"])
def secret_file(request, tmp_path):
    path = tmp_path / "secret.yaml"
    if request.param == "not_utf8":
        path.write_bytes(f"key: {SECRET} \xff\n".encode("latin-1"))
    else:
        path.write_text(NOT_DEFINITIONS[request.param], encoding="utf-8")
    return path


def test_secret_file_given_as_a_variant_is_never_quoted(secret_file, capsys):
    code, output = run(capsys, "validate", BASE, "--variant", secret_file)
    assert code == 2 and SECRET not in output, output


def test_secret_file_given_as_the_game_is_never_quoted(secret_file, capsys):
    code, output = run(capsys, "validate", secret_file)
    assert code == 2 and SECRET not in output, output


def test_secret_file_reached_by_extends_is_never_quoted(secret_file, capsys):
    child = secret_file.with_name("child.yaml")
    child.write_text(variant_text(["secret"]), encoding="utf-8")
    code, output = run(capsys, "validate", BASE, "--variant", child)
    assert code == 2 and SECRET not in output, output


def test_refusing_a_mapping_that_is_not_a_variant_says_why_without_quoting(tmp_path, capsys):
    path = tmp_path / "config.yaml"
    path.write_text(f"password: {SECRET}\n", encoding="utf-8")
    assert run(capsys, "validate", BASE, "--variant", path) == (
        2, f"{path}:1:1: not a variant: a YAML mapping with no 'variant' key (text is quoted only from a file that "
           "declares itself a variant with a top-level 'variant' key)\n")


def test_a_real_variant_with_a_yaml_error_is_still_quoted(tmp_path, capsys):
    path = tmp_path / "typo.yaml"
    path.write_text("variant: Typo\ngame: Frog Tower\nadd: [oops\n", encoding="utf-8")
    code, output = run(capsys, "validate", BASE, "--variant", path)
    assert code == 2 and "add: [oops" in output


def test_a_deeply_nested_file_that_is_not_a_variant_is_refused_quickly(tmp_path):
    """Looking for a 'variant' key stops at the nesting limit (PyYAML slows down with depth: 100,000 took 21 s)."""
    import time

    folder = tmp_path / "variants" / "frog_tower"
    folder.mkdir(parents=True)
    game = tmp_path / "frog_tower.yaml"
    game.write_text((Path(__file__).resolve().parents[2] / "definitions" / "frog_tower.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    (folder / "deep.yaml").write_bytes(b"game: " + b"[" * 100_000 + b"\n")
    started = time.perf_counter()
    with pytest.raises(DefinitionError, match="not a variant"):
        load_game(game, variants=["deep"])
    assert time.perf_counter() - started < 5
