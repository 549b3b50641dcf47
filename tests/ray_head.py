"""A Ray head node for the tests that join a cluster: `ray start --head`, listening on loopback only.

Every test that starts a head starts it here, with the loopback settings of a local run
(:data:`interpreter.ray_backend.LOOPBACK_ENVIRONMENT`, node address 127.0.0.1, no dashboard, no
usage reports), so no test opens a port beyond loopback or talks to another machine.  The head
uses token authentication, as Ray sets up by default: a driver that joins it needs
RAY_AUTH_MODE=token (and finds the token in ~/.ray/auth_token, made here as a local run makes it,
readable by its user only, when there is none yet: `ray start` makes none).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from interpreter.ray_backend import LOOPBACK, LOOPBACK_ENVIRONMENT, private_auth_token

START_TIMEOUT = 60.0  # seconds for the head to answer on its port


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


def head_command(port: int, cpus: int = 2) -> list[str]:
    """`ray start --head` for a head node on loopback (in the foreground: its process group is the cluster)."""
    ray_command = shutil.which("ray") or str(Path(sys.executable).with_name("ray"))
    return [ray_command, "start", "--head", "--block", f"--port={port}", f"--num-cpus={cpus}",
            f"--node-ip-address={LOOPBACK}", "--include-dashboard=false", "--disable-usage-stats"]


@contextmanager
def ray_head(cpus: int = 2):
    """A running head node, as its address HOST:PORT; it and every Ray process it started stop afterwards."""
    port = free_port()
    private_auth_token(create=True)
    environment = {**os.environ, **LOOPBACK_ENVIRONMENT, "RAY_AUTH_MODE": "token"}
    head = subprocess.Popen(head_command(port, cpus), env=environment, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                socket.create_connection((LOOPBACK, port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or head.poll() is not None:
                    raise RuntimeError(f"the Ray head node did not start: {' '.join(head_command(port, cpus))}")
                time.sleep(0.2)
        yield f"{LOOPBACK}:{port}"
    finally:  # the head and every Ray process it started are in its own session: stop them all now
        os.killpg(head.pid, signal.SIGKILL)
        head.wait()
        current = Path("/tmp/ray/ray_current_cluster")  # what `ray stop` would tidy: the head's address
        if current.exists() and current.read_text().strip().endswith(f":{port}"):
            current.unlink()
