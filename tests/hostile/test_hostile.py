"""Hostile inputs: every one is accepted and runs, or is refused with exit 2 and one located paragraph.

A seeded generator (``tests/hostile/cases.py``) makes the inputs: hostile YAML (tags, alias bombs,
deep nesting, huge scalars, bad encodings, control characters), structured and textual mutants of
every shipped definition and variant, test-only rules that never reach a decision or fail at run
time, author text carrying terminal control sequences, command-line abuse (bad numbers, special
files, outputs pointed at inputs, a closed or hostile terminal), tampered saves of random games of
every shipped game, and misuse of the Python API.

The oracle (``tests/hostile/worker.py``): exit status 0 or 2, never anything else; no traceback;
on 2 a message of at most a paragraph naming the file (or the option) and showing no Python error
class; no terminal control character in any output; inputs not overwritten; each case within
RIBBIT_HOSTILE_TIMEOUT seconds and its memory growth bounded, under an address-space limit.  A save
is refused with SaveFileError or loads as exactly the replay of its own seed and history; a refused
API call raises a RibbitError and leaves the state as it was.

Cases run in batches: a few worker processes (RLIMIT_AS 1.5 GiB each) run many cases in-process,
one JSON line per case; a hang or a crash is charged to its case and the batch goes on in a fresh
worker.  Each case is its own test, with a reproduction in its failure message.

    RIBBIT_HOSTILE_CASES=2000 python3 -m pytest tests/hostile/test_hostile.py   # a bigger local fuzzing run
    RIBBIT_HOSTILE_TIMEOUT=10   per-case time bound, seconds (default 10)
    RIBBIT_HOSTILE_JOBS=2       worker processes running batches side by side (default 2)
    RIBBIT_HOSTILE_REPORT=F     also write every case's result to the JSON file F
    python3 tests/hostile/worker.py --case ID                           # re-run one case, verbosely
"""

from __future__ import annotations

import json
import os
import pickle
import queue
import resource
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.hostile.cases import ROOT, all_cases, materialize  # noqa: E402

WORKER = ROOT / "tests" / "hostile" / "worker.py"
MEMORY_LIMIT = 1536 * 1024 * 1024
FILE_LIMIT = 256 * 1024 * 1024
CASE_SECONDS = float(os.environ.get("RIBBIT_HOSTILE_TIMEOUT", "10"))
JOBS = int(os.environ.get("RIBBIT_HOSTILE_JOBS", "2"))
GRACE = 20  # seconds past the per-case bound before the parent kills a worker stuck outside Python

CASES = all_cases()


def limit_resources():  # runs in the worker process before it starts (preexec_fn)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def worker_env(tmp: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(tmp), PYTHONHASHSEED="0",
               RIBBIT_HOSTILE_TIMEOUT=str(CASE_SECONDS), COLUMNS="100")
    env.pop("PYTHONSTARTUP", None)
    return env


def run_batch(cases: list, folder: Path, results: dict) -> None:
    """Run ``cases`` in worker processes, restarting after a crash, a kill or a requested restart."""
    batch_file = folder / "batch.json"
    batch_file.write_text(json.dumps([{k: v for k, v in c.items() if k != "files"} for c in cases]))
    index = {c["id"]: i for i, c in enumerate(cases)}
    tmp = folder / "tmp"
    tmp.mkdir(exist_ok=True)
    k = 0
    while k < len(cases):
        log = open(folder / f"worker-{k}.stderr", "w+b")
        proc = subprocess.Popen([sys.executable, str(WORKER), str(batch_file), str(k)], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL,
                                env=worker_env(tmp), preexec_fn=limit_resources)
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: ([lines.put(line) for line in proc.stdout], lines.put(None)),
                         daemon=True).start()
        current, deadline = None, time.monotonic() + 60  # start-up: imports, and the grammar once
        while True:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                proc.kill()
                proc.wait()
                victim = current or cases[k]["id"]
                results[victim] = {"id": victim, "status": "killed", "stderr": "", "problems": [
                    f"did not finish in {CASE_SECONDS + GRACE:g} s and ignored the timer (stuck outside Python?)"]}
                k = index[victim] + 1
                break
            if line is None:
                code = proc.wait()
                if current is not None:
                    log.seek(0)
                    tail = log.read().decode("utf-8", "replace")[-2000:]
                    results[current] = {"id": current, "status": code, "stderr": tail, "problems": [
                        f"the worker process died during this case (exit status {code}; negative: a signal)"]}
                    k = index[current] + 1
                elif code not in (0, 3):
                    log.seek(0)
                    raise RuntimeError(f"hostile worker failed outside any case ({code}): {log.read()[-3000:]!r}")
                else:
                    k = len(cases) if code == 0 else k
                break
            message = json.loads(line)
            if "start" in message:
                current, deadline = message["start"], time.monotonic() + CASE_SECONDS + GRACE
            else:
                results[message["id"]] = message
                current, k = None, index[message["id"]] + 1
        log.close()


@pytest.fixture(scope="module")
def hostile_results(request, tmp_path_factory):
    """Run every selected case once, in JOBS parallel batches; results by case id."""
    selected = [item.callspec.params["case"] for item in request.session.items
                if item.module is request.module and hasattr(item, "callspec") and "case" in item.callspec.params]
    base = tmp_path_factory.mktemp("hostile")
    for case in selected:
        case["dir"] = str(materialize(case, base / case["id"])) if case["kind"] == "cli" else None
    results: dict = {}
    # interleave: each batch gets its share of every family
    batches = [selected[j::JOBS] for j in range(JOBS)]
    threads = []
    for j, cases in enumerate(batches):
        folder = base / f"_batch{j}"
        folder.mkdir()
        threads.append(threading.Thread(target=run_batch, args=(cases, folder, results)))
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results["_seconds"] = time.monotonic() - started
    if os.environ.get("RIBBIT_HOSTILE_REPORT"):  # every result as JSON, for sorting failures by cause
        Path(os.environ["RIBBIT_HOSTILE_REPORT"]).write_text(json.dumps(results, indent=1, default=repr))
    return results


def reproduction(case: dict, result: dict) -> str:
    lines = [f"case {case['id']}: {case['about']}", "problems:"]
    lines += [f"  - {p}" for p in result["problems"]]
    if case["kind"] == "cli":
        argv = [a.replace("{dir}", case["dir"]) for a in case["argv"]]
        stdin = case["stdin"]
        feed = "" if stdin is None else " < /dev/null" if stdin == "" else " <&-" if stdin == "<closed>" else \
            f"  (stdin: {len(stdin)} characters, starting {stdin[:40]!r})"
        lines += ["reproduce:", f"  cd {case['dir']} && PYTHONPATH={ROOT} python3 -m interpreter.cli "
                  f"{shlex.join(argv)}{feed}"]
        lines.append(f"exit status: {result.get('status')!r}")
    lines.append(f"  or: PYTHONPATH={ROOT} python3 tests/hostile/worker.py --case {shlex.quote(case['id'])}")
    if result.get("did"):
        lines.append(f"tampering: {result['did']}")
    if result.get("stderr"):
        lines += ["stderr (end):", result["stderr"][-1500:]]
    return "\n".join(lines)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_hostile_input_is_accepted_or_refused_cleanly(case, hostile_results):
    result = hostile_results.get(case["id"])
    assert result is not None, f"case {case['id']} produced no result (the batch stopped early)"
    assert not result["problems"], reproduction(case, result)


# ---------------------------------------------------------------- a planted cache file
class _Marker:
    """Unpickling this creates a file: proof that a planted cache was loaded as code."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _cache_dirs(tmp_path: Path) -> dict:
    dirs = {"TMPDIR": tmp_path / "tmp", "HOME": tmp_path / "home", "XDG_CACHE_HOME": tmp_path / "cache"}
    for d in dirs.values():
        d.mkdir()
    return dirs


def _files(dirs: dict) -> set:
    return {p for d in dirs.values() for p in d.rglob("*") if p.is_file()}


def test_a_cache_file_planted_by_another_user_is_never_unpickled(tmp_path):
    """Ribbit may cache its grammar, but a cache file someone else wrote must not run code when loaded."""
    dirs = _cache_dirs(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{k: str(v) for k, v in dirs.items()})
    command = [sys.executable, "-m", "interpreter.cli", "validate", str(ROOT / "definitions" / "frog_tower.yaml")]
    first = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    marker = tmp_path / "PLANTED-PICKLE-RAN"
    planted = sorted(_files(dirs))
    for path in planted:  # keep a first line (a cache's checksum line), then a hostile pickle
        head = path.read_bytes().split(b"\n", 1)[0]
        path.write_bytes(head + b"\n" + pickle.dumps(_Marker(str(marker))) + pickle.dumps(_Marker(str(marker))))
    second = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert not marker.exists(), f"a planted cache file was unpickled: {[str(p) for p in planted]}"
    assert second.returncode == 0 and "Traceback" not in second.stderr, second.stderr


def test_the_family_runs_in_bounded_time(hostile_results):
    """The whole family stays well inside the CI budget (it runs on every push)."""
    if len(CASES) > 1000:
        pytest.skip("a large local fuzzing run")
    assert hostile_results["_seconds"] < 240, f"the hostile family took {hostile_results['_seconds']:.0f} s"
