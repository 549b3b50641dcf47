#!/usr/bin/env python3
"""Load test of the `ribbit serve` lobby: many tables of bots in one server, one WebSocket client each.

    python3 tools/web_load.py                             # 50 Frog Tower tables for 60 s
    python3 tools/web_load.py --tables 5,20,50 --duration 60   # the same load at three sizes, one after another
    python3 tools/web_load.py --definition definitions/kaeru.yaml --players 2 --tables 10 --duration 20

For each table count N a lobby server is started as its own process, exactly as `ribbit serve DEFINITION
--tables DIR` runs (on 127.0.0.1 only, a temporary tables folder, every table saved after every action),
and N tables are created through the lobby's own request (``POST /api/tables``): seat 1 a person, the
other seats bots (``--bot``, random by default) paced by ``--bot-delay`` as in real play.  One WebSocket
client per table holds seat 1's link and picks a random legal option whenever it may act; a finished game
is started again, so every table plays for the whole ``--duration``.

**Action latency** is the time from a client sending an action to receiving the server's reply to it: the
first frame after the action (the state with it applied, or a refusal; a refusal as stale, which a
server that checks state ids may send, is counted apart and is not an error).  It covers the message's way in,
the engine applying and checking the action, the save written to disk, the views built for every
connection and the frame's way out.  It is measured while the table's bots are idle (seat 1 acts only when
it is its turn), so it does not include a bot's thinking.

The client acts ``--think`` seconds (1 by default) after it may, as a person would; ``--think 0`` acts at
once, which also shows whether a person's action ever waits for the bots' pacing (``--bot-delay``) after
the bots' last move: it must not.

It prints, per table count, the actions taken, p50/p95/max latency, the server's CPU use (share of one
core over the run) and the client's, the machine's load average, and the server's resident memory
(RSS) at the end; and exits non-zero if any error came back or any client stopped.  The server and the
clients share this machine: on a loaded machine say so next to the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    """The resident memory of a process in KiB, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Server:
    """`ribbit serve DEFINITION --tables DIR` as a child process on 127.0.0.1, port chosen by the system."""

    def __init__(self, args, tables: int, folder: str):
        argv = [sys.executable, "-m", "interpreter.cli", "serve", args.definition, "--tables", folder,
                "--host", "127.0.0.1", "--port", "0", "--max-tables", str(tables),
                "--create-per-minute", str(tables), "--bot-delay", str(args.bot_delay)]
        self.proc = subprocess.Popen(argv, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.base = None
        deadline = time.monotonic() + 60
        while self.base is None and time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"the server stopped: {self.proc.stderr.read()}")
            found = re.search(r"open (http://127\.0\.0\.1:\d+)/lobby", line)
            self.base = found and found.group(1)

    def create(self, players: int, bot: str) -> str:
        """A new table through the lobby's request; seat 1's token."""
        body = json.dumps({"game": Path(ARGS.definition).stem, "players": players, "variants": [],
                           "bots": {str(seat): bot for seat in range(2, players + 1)}}).encode()
        request = urllib.request.Request(f"{self.base}/api/tables", body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            reply = json.load(response)
        return reply["seats"][0]["token"]

    def stop(self) -> str:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.proc.stderr.read()


async def seat_client(port: int, token: str, rng: random.Random, tally: dict, until: float, think: float) -> None:
    """Seat 1 of one table: a random legal option ``think`` seconds after it may act; a new game when one ends."""
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=2 ** 22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at = None  # when the action awaiting its reply was sent
        options, act_at, state_id = [], None, None  # what the seat may do now, when it will, and on what state
        again_sent = False
        while time.monotonic() < until:
            wait = (act_at if act_at is not None else until) - time.monotonic()
            try:
                text = await asyncio.wait_for(ws.recv(), max(0.001, min(wait, until - time.monotonic())))
            except asyncio.TimeoutError:
                if act_at is not None and time.monotonic() >= act_at and time.monotonic() < until:
                    sent_at, act_at = time.perf_counter(), None
                    await ws.send(json.dumps({"type": "act", "action": rng.choice(options)["label"],
                                              "state_id": state_id}))
                    tally["actions"] += 1
                continue
            received = time.perf_counter()
            message = json.loads(text)
            tally["messages"] += 1
            if sent_at is not None and message["type"] in ("state", "error"):
                tally["latencies"].append(received - sent_at)
                sent_at = None
            if message["type"] == "error":
                if "the game changed after this page showed it" in message["message"]:  # stale: choose again
                    tally["stale"] += 1
                else:
                    tally["errors"].append(message["message"])
                continue
            if message["type"] != "state":
                continue
            if message["view"]["over"]:
                act_at = None
                if not again_sent:
                    tally["games"] += 1
                    again_sent = True
                    await ws.send(json.dumps({"type": "again"}))
                continue
            again_sent = False
            options = (message["decision"] or {}).get("options") or []
            state_id = message.get("state_id")  # servers that refuse stale actions want the id of the state
            if not options:
                act_at = None
            elif act_at is None:
                act_at = time.monotonic() + think


async def drive(port: int, tokens: list[str], seed: int, duration: float, think: float) -> dict:
    tally = {"messages": 0, "actions": 0, "games": 0, "stale": 0, "errors": [], "latencies": []}
    rng = random.Random(seed)
    until = time.monotonic() + duration
    results = await asyncio.gather(*(seat_client(port, token, random.Random(rng.random()), tally, until, think)
                                     for token in tokens), return_exceptions=True)
    tally["errors"] += [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    return tally


def run(args, tables: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="ribbit-load-") as folder:
        server = Server(args, tables, folder)
        try:
            tokens = [server.create(args.players, args.bot) for _ in range(tables)]
            port = int(server.base.rsplit(":", 1)[1])
            cpu_before, client_before = cpu_seconds(server.proc.pid), resource.getrusage(resource.RUSAGE_SELF)
            start = time.monotonic()
            tally = asyncio.run(drive(port, tokens, args.seed, args.duration, args.think))
            elapsed = time.monotonic() - start
            client_after = resource.getrusage(resource.RUSAGE_SELF)
            tally["server_cpu"] = (cpu_seconds(server.proc.pid) - cpu_before) / elapsed
            tally["client_cpu"] = (client_after.ru_utime + client_after.ru_stime - client_before.ru_utime
                                   - client_before.ru_stime) / elapsed
            tally["rss"] = rss_kib(server.proc.pid)
            tally["load"] = os.getloadavg()[0]
            tally["elapsed"] = elapsed
        finally:
            errors = server.stop()
        if "Traceback" in errors:
            tally["errors"].append(f"the server printed a traceback: {errors[-500:]}")
    return tally


def main(argv=None) -> int:
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50", help="table counts, comma-separated, run one after another "
                                                       "(default 50; e.g. 5,20,50)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds each run plays (default 60)")
    parser.add_argument("--definition", default=str(ROOT / "definitions" / "frog_tower.yaml"))
    parser.add_argument("--players", type=int, default=3, help="seats per table: seat 1 the client, the rest bots")
    parser.add_argument("--bot", default="random", help="the bots' spec, as for --seat (default random)")
    parser.add_argument("--bot-delay", type=float, default=0.5, help="the server's pause between bot moves")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds the client waits before acting, as a person would (default 1; see below)")
    parser.add_argument("--seed", type=int, default=0)
    args = ARGS = parser.parse_args(argv)
    args.definition = str(Path(args.definition).resolve())
    counts = [int(n) for n in args.tables.split(",")]
    print(f"{Path(args.definition).name}, {args.players} seats a table (seat 1 a WebSocket client, the others "
          f"{args.bot} bots, --bot-delay {args.bot_delay}, the client thinks {args.think} s), "
          f"{args.duration:.0f} s a run, "
          f"{os.cpu_count()} CPUs")
    print(f"{'tables':>6} {'actions':>8} {'games':>6} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'server CPU':>10} "
          f"{'client CPU':>10} {'load':>5} {'RSS MiB':>8} errors")
    failed = False
    for tables in counts:
        tally = run(args, tables)
        latencies = [1000 * x for x in tally["latencies"]]
        print(f"{tables:>6} {tally['actions']:>8} {tally['games']:>6} {percentile(latencies, .5):>7.1f} "
              f"{percentile(latencies, .95):>7.1f} {max(latencies, default=float('nan')):>7.1f} "
              f"{100 * tally['server_cpu']:>9.0f}% {100 * tally['client_cpu']:>9.0f}% {tally['load']:>5.1f} "
              f"{tally['rss'] / 1024:>8.0f} {len(tally['errors'])}" +
              (f", {tally['stale']} stale" if tally["stale"] else "") +
              (f" (first: {tally['errors'][0]})" if tally["errors"] else ""), flush=True)
        failed = failed or bool(tally["errors"]) or not tally["actions"]
    return 1 if failed else 0


ARGS = None

if __name__ == "__main__":
    sys.exit(main())
