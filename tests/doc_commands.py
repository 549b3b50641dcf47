"""The `ribbit` commands the documentation shows, read from its fenced shell blocks, and a runner for them.

Conventions of the documents' fenced blocks (the first word is the language, as Markdown renderers expect):

- ```` ```sh ```` (or ``shell``, ``bash``): lines a reader types, in order; a line ending in ``\\`` goes on on
  the next. Commands are joined by ``&&``; a ``python3 -m pip install ... '.[EXTRA]'`` in the block is that
  block's install, and a ``ribbit ...`` command (after an optional ``yes 1 |``, its answers) is run. Any other
  command (``python3 -m pytest``, ``ray start``) is the reader's business and not run here.
- ```` ```console ````: ``$ ribbit ...`` lines, each followed by its output (docs/authoring.md; its outputs are
  checked by tests/games/test_authoring_guide.py).
- ```` ```sh not-run: REASON ````: a block that cannot run on one machine (a cluster's commands); it is read,
  never run, and must say why.
- ```` ```yaml file=PATH ```` / ```` ```yaml part=PATH ````: a file the reader writes (docs/authoring.md),
  written before the commands that follow it read it.

A trailing ``# exits with N`` gives a command's documented exit status (0 otherwise). ``ribbit serve`` runs
until stopped: it is started on 127.0.0.1 on a free port, probed and stopped with Ctrl-C (status 130).
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import private_network

DOCUMENTS = ("README.md", "docs/serve.md", "docs/authoring.md")
SHELL = {"sh", "shell", "bash", "console"}
BLOCK = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S)
EXIT = re.compile(r"#\s*exits with (\d+)\s*$")
INSTALL = re.compile(r"^python3 -m pip install (.+)$")
TRACEBACK = "Traceback (most recent call last)"
ANSWERS = "1\n" * 20_000  # a seat held at the terminal (--human) with no answers of the document's own
SERVE_START = 60  # seconds for `ribbit serve` to print its links
TIMEOUT = 600  # seconds for any one command


def extras_needed(argv: list[str]) -> set[str]:
    """The extras (pyproject's optional dependencies) a ``ribbit`` command needs: what the engine imports only
    where used. The fresh-venv test checks each both ways: without its extra, the command says to install it."""
    needed = set()
    if argv[1:2] == ["serve"]:
        needed.add("web")
    if "--plot" in argv or any(a.startswith("--plot=") for a in argv):
        needed.add("plot")
    if any(a == "--backend=ray" or (a == "--backend" and argv[i + 1:i + 2] == ["ray"]) for i, a in enumerate(argv)):
        needed.add("ray")
    return needed


@dataclass
class Command:
    """One ``ribbit`` command of a document, as the reader types it."""

    where: str  # file:line
    line: str  # what runs in the shell: the answers' pipe, if any, and the command
    argv: list[str]  # the ribbit command alone, split as the shell does
    status: int  # the documented exit status
    piped: bool  # the document gives the answers (``yes 1 | ribbit ...``)
    block_extras: set[str]  # the extras the command's block installs

    @property
    def extras(self) -> set[str]:
        return extras_needed(self.argv)

    @property
    def serves(self) -> bool:
        return self.argv[1:2] == ["serve"]


@dataclass
class WriteFile:
    """A file the reader writes, as a document shows it."""

    where: str
    path: str
    text: str


@dataclass
class Block:
    """A fenced block: its language, info string, text and first line (1-based) in its document."""

    document: str
    language: str
    info: str
    text: str
    line: int

    @property
    def where(self) -> str:
        return f"{self.document}:{self.line}"

    @property
    def not_run(self) -> bool:
        return self.info.startswith("not-run")


def blocks(root: Path, document: str) -> list[Block]:
    text = (root / document).read_text(encoding="utf-8")
    return [Block(document, m.group(1), m.group(2).strip(), m.group(3), text.count("\n", 0, m.start()) + 1)
            for m in BLOCK.finditer(text)]


def logical_lines(block: Block):
    """(line number, text) of a shell block's lines, continuation lines joined; console blocks: ``$`` lines."""
    pending, start = "", None
    for offset, raw in enumerate(block.text.splitlines(), 1):
        if block.language == "console":
            if raw.startswith("$ "):
                yield block.line + offset, raw[2:]
            continue
        if start is None:
            start = block.line + offset
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        yield start, pending + raw
        pending, start = "", None


def block_extras(block: Block) -> set[str]:
    """The extras the block's ``python3 -m pip install`` commands install (``'.[web]'``: web)."""
    found = set()
    for _, line in logical_lines(block):
        for segment in line.split("&&"):
            install = INSTALL.match(segment.strip())
            if install:
                for word in shlex.split(install.group(1), comments=True):
                    bracket = re.fullmatch(r"[^\[\]]*\[([\w,\s-]+)\]", word)
                    if bracket:
                        found |= {name.strip() for name in bracket.group(1).split(",")}
    return found


def commands_of(block: Block) -> list[Command]:
    """The ``ribbit`` commands of a shell block, in order."""
    extras = block_extras(block)
    found = []
    for number, line in logical_lines(block):
        for segment in line.split("&&"):
            segment = segment.strip()
            words = shlex.split(segment, comments=True)
            if "|" in words:  # the answers, then the command: `yes 1 | ribbit ...`
                piped, words = True, words[words.index("|") + 1:]
            else:
                piped = False
            if not words or words[0] != "ribbit":
                continue
            status = EXIT.search(segment)
            found.append(Command(f"{block.document}:{number}", segment, words, int(status.group(1)) if status else 0,
                                 piped, extras))
    return found


def steps(root: Path, document: str) -> list:
    """What a reader of the document does, in order: files written (WriteFile) and commands (Command)."""
    done, pieces = [], {}
    for block in blocks(root, document):
        if block.language == "yaml" and block.info.startswith(("file=", "part=")):
            kind, _, path = block.info.partition("=")
            if kind == "file":
                pieces[path] = []
            pieces.setdefault(path, []).append(block.text)
            done.append(WriteFile(block.where, path, "\n".join(pieces[path])))
        elif block.language in SHELL and not block.not_run:
            done.extend(commands_of(block))
    return done


def stray_commands(root: Path, document: str) -> list[str]:
    """Lines that look like a ``ribbit`` command a reader would type but sit in a block that is not run."""
    stray = []
    for block in blocks(root, document):
        if block.language in SHELL:
            continue
        for offset, line in enumerate(block.text.splitlines(), 1):
            if re.match(r"^(\$ )?ribbit\s", line):
                stray.append(f"{document}:{block.line + offset}: {line}")
    return stray


# ---------------------------------------------------------------- running them
@dataclass
class Ran:
    command: Command
    status: int
    output: str


def run_step(step, folder: Path, env: dict) -> Ran | None:
    """Do one step in ``folder``: write the file, or run the command (``ribbit`` found on env's PATH)."""
    if isinstance(step, WriteFile):
        path = folder / step.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(step.text, encoding="utf-8")
        return None
    if step.serves:
        return serve(step, folder, env)
    answers = ANSWERS if "--human" in step.argv and not step.piped else ""
    argv = ["bash", "-c", step.line]
    if "ray" in step.extras:  # a local Ray instance: started inside a private network namespace, never outside
        reason = private_network.why_not()
        if reason:
            return Ran(step, expected_status(step), f"(not run: {reason})")
        argv, env = private_network.wrapped(argv), private_network.environment(env)
    result = subprocess.run(argv, cwd=folder, env=env, input=answers, capture_output=True, text=True,
                            timeout=TIMEOUT)
    return Ran(step, result.returncode, result.stdout + result.stderr)


def serve(step: Command, folder: Path, env: dict) -> Ran:
    """Start ``ribbit serve`` on a free loopback port, fetch its page, stop it with Ctrl-C."""
    host = [a for i, a in enumerate(step.argv) if step.argv[i - 1:i] == ["--host"] or a.startswith("--host=")]
    assert not host, f"{step.where}: the test starts servers on 127.0.0.1 only, not {host}"
    argv = step.argv + (["--port", "0"] if "--port" not in step.argv else [])  # never a port someone else uses
    process = subprocess.Popen(argv, cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + SERVE_START
        url = None
        while url is None and time.monotonic() < deadline and process.poll() is None:
            found = [re.search(r"http://127\.0\.0\.1:\d+/", line) for line in list(lines)]
            url = next((m.group(0) for m in found if m), None)
            time.sleep(0.1)
        if url is None:
            process.kill()
            process.wait(timeout=10)
            reader.join(timeout=10)
            return Ran(step, process.returncode, "".join(lines) + "\n(no link on 127.0.0.1 was printed)")
        with urllib.request.urlopen(url, timeout=30) as response:  # loopback only: the url matched 127.0.0.1
            page = response.read().decode("utf-8", "replace")
        assert response.status == 200 and "<html" in page.lower(), f"{step.where}: {url} answered {response.status}"
        process.send_signal(signal.SIGINT)  # Ctrl-C
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
    reader.join(timeout=10)
    return Ran(step, process.returncode, "".join(lines))


SERVE_STOPPED = 130  # Ctrl-C: the documented status of an interrupted command
MISSING_EXTRA = 2  # bad input: the one-paragraph message saying which extra to install


def expected_status(command: Command) -> int:
    return SERVE_STOPPED if command.serves else command.status


def run_without_extra(step: Command, folder: Path, env: dict) -> Ran:
    """A command whose extra is not installed: it must stop at once, saying which extra to install."""
    result = subprocess.run(["bash", "-c", step.line], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=120)
    return Ran(step, result.returncode, result.stdout + result.stderr)


def run_document(root: Path, document: str, folder: Path, env: dict, installed_extras: set[str]) -> int:
    """Do every step of the document in ``folder``, failing at the first command that does not end as documented
    (or, when its extra is not installed, that does not say which to install). Returns how many commands ran."""
    ran_commands = 0
    for step in steps(root, document):
        if isinstance(step, Command) and step.extras - installed_extras:
            ran = run_without_extra(step, folder, env)
            assert ran.status == MISSING_EXTRA and TRACEBACK not in ran.output, \
                f"{step.where}: {step.line} (without {sorted(step.extras - installed_extras)})\n{ran.output[-3000:]}"
            assert all(f"[{extra}]" in ran.output for extra in step.extras - installed_extras), \
                f"{step.where}: {step.line}: does not say which extra to install\n{ran.output[-3000:]}"
        else:
            ran = run_step(step, folder, env)
            if ran is None:
                continue
            assert TRACEBACK not in ran.output, f"{step.where}: {step.line}\n{ran.output[-3000:]}"
            assert ran.status == expected_status(step), \
                f"{step.where}: {step.line} exited with {ran.status}\n{ran.output[-3000:]}"
        ran_commands += 1
    return ran_commands


def installed_extras(root: Path) -> set[str]:
    """The extras of pyproject.toml whose every package is installed where this test runs."""
    import importlib.metadata
    import tomllib

    extras = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    found = set()
    for extra, requirements in extras.items():
        names = [re.match(r"[A-Za-z0-9_.-]+", requirement).group(0) for requirement in requirements]
        try:
            for name in names:
                importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        found.add(extra)
    return found


def environment(path_first: Path, cache: Path) -> dict:
    """The commands' environment: ``path_first`` first on PATH (where ``ribbit`` is), private cache and state
    folders (``ribbit serve`` saves in the state folder).
    The temp folder stays the system's: a local Ray's socket paths must be short."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(PATH=f"{path_first}{os.pathsep}{env.get('PATH', '')}", XDG_CACHE_HOME=str(cache),
               XDG_STATE_HOME=str(cache.with_name(cache.name + "-state")), COLUMNS="120", PYTHONDONTWRITEBYTECODE="1")
    return env
