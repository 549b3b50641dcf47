#!/usr/bin/env python3
"""Load test of `ribbit serve`: many games at once, each seat a WebSocket client, every game to its end.

    python3 tools/web_load.py                      # 50 Frog Tower games of 3 seats
    python3 tools/web_load.py --games 20 --definition definitions/kaeru.yaml --players 2

A server process hosting all the games is started on 127.0.0.1 (only there), saving each game after
every action as `ribbit serve` does; the clients choose random legal options.  It prints the time,
the actions per second, the errors and the server's memory (resident set, sampled, and its peak),
and exits non-zero if any game did not finish or any error came back.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def serve_child(args) -> None:
    """The server: one process, ``--games`` tables, tokens and port on stdout as one JSON line."""
    from interpreter import load_game
    from interpreter.web.app import bind, run
    from interpreter.web.table import Table

    game = load_game(args.definition)
    tables = [Table(game, args.players, {}, Path(args.save_dir) / f"game{i}.json", seed=i) for i in range(args.games)]
    sock = bind("127.0.0.1", 0)
    print(json.dumps({"port": sock.getsockname()[1], "tables": [[t.tokens[p] for p in range(args.players)]
                                                                 for t in tables]}), flush=True)
    run(tables, sock)


def rss_kib(pid: int) -> tuple[int, int]:
    """(resident, peak resident) of a process in KiB, from /proc."""
    found = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return found.get("VmRSS", 0), found.get("VmHWM", 0)


async def seat_client(port: int, token: str, rng: random.Random, tally: dict, timeout: float) -> None:
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=2 ** 22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        deadline = time.monotonic() + timeout
        last_sent = None
        while time.monotonic() < deadline:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
            tally["messages"] += 1
            if message["type"] == "error":
                if "the game changed after this page showed it" not in message["message"]:  # a stale action: choose again
                    tally["errors"].append(message["message"])
                continue
            if message["type"] != "state":
                continue
            if message["view"]["over"]:
                tally["finished"] += 1
                return
            options = (message["decision"] or {}).get("options") or []
            if options and len(message["view"].get("zones", {})) and last_sent != message["state_id"]:
                last_sent = message["state_id"]
                await ws.send(json.dumps({"type": "act", "action": rng.choice(options)["label"],
                                          "state_id": message["state_id"]}))
                tally["actions"] += 1
        tally["errors"].append("a seat timed out")


async def drive(port: int, tables, seed: int, timeout: float, pid: int, samples: list) -> dict:
    tally = {"messages": 0, "actions": 0, "finished": 0, "errors": []}
    rng = random.Random(seed)
    clients = [seat_client(port, token, random.Random(rng.random()), tally, timeout)
               for tokens in tables for token in tokens]

    async def sample():
        while True:
            samples.append(rss_kib(pid)[0])
            await asyncio.sleep(0.25)
    sampler = asyncio.create_task(sample())
    results = await asyncio.gather(*clients, return_exceptions=True)
    sampler.cancel()
    tally["errors"] += [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    return tally


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--definition", default=str(ROOT / "definitions" / "frog_tower.yaml"))
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a seat may wait for one message")
    parser.add_argument("--serve-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--save-dir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_child:
        serve_child(args)
        return 0
    with tempfile.TemporaryDirectory(prefix="ribbit-load-") as folder:
        child = subprocess.Popen([sys.executable, __file__, "--serve-child", "--games", str(args.games),
                                  "--definition", args.definition, "--players", str(args.players),
                                  "--save-dir", folder], stdout=subprocess.PIPE, text=True,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            hello = json.loads(child.stdout.readline())
            before = rss_kib(child.pid)[0]
            samples: list = []
            start = time.monotonic()
            tally = asyncio.run(drive(hello["port"], hello["tables"], args.seed, args.timeout, child.pid, samples))
            elapsed = time.monotonic() - start
            now, peak = rss_kib(child.pid)
            saves = len(list(Path(folder).glob("game*.json")))
        finally:
            child.terminate()
            child.wait(10)
    seats = args.games * args.players
    print(f"{args.games} games of {Path(args.definition).name} ({args.players} seats each, {seats} WebSocket clients)")
    print(f"  finished: {tally['finished'] // args.players}/{args.games} games in {elapsed:.1f} s; "
          f"{tally['actions']} actions ({tally['actions'] / elapsed:.0f}/s), {tally['messages']} messages received")
    print(f"  errors: {len(tally['errors'])}" + (f" (first: {tally['errors'][0]})" if tally["errors"] else ""))
    print(f"  server memory: {before / 1024:.0f} MiB with the games dealt, {max(samples or [now]) / 1024:.0f} MiB at "
          f"most while playing (peak resident {peak / 1024:.0f} MiB), {now / 1024:.0f} MiB at the end; "
          f"{saves} save files")
    ok = tally["finished"] == seats and not tally["errors"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
