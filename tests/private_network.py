"""Run a command inside a private network namespace: loopback only, nothing reaches another address.

The house rule: whatever may bind wider than loopback (a Ray instance, whose node address follows the
default route unless told otherwise) runs in the tests inside ``unshare --net``, where the only interface
is a loopback brought up for it.  The namespace shares the file system, users and processes with the
test, so the command sees the checkout, the temp folder and the installed packages as they are.
Making one needs Linux, ``unshare`` and ``ip``, and the right to make namespaces (root, or user
namespaces); elsewhere :func:`why_not` says why and the caller skips.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys

INSIDE = "RIBBIT_PRIVATE_NETWORK"  # set to "1" in the environment of what runs inside a namespace


def inside() -> bool:
    """Whether this process already runs inside a private network namespace made by :func:`wrapped`."""
    return os.environ.get(INSIDE) == "1"


@functools.lru_cache(maxsize=None)
def why_not() -> str | None:
    """Why no private network namespace can be made here, or None when one can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are a Linux feature"
    missing = [tool for tool in ("unshare", "ip") if shutil.which(tool) is None]
    if missing:
        return f"a private network namespace needs {', '.join(missing)} (util-linux, iproute2), not found here"
    trial = subprocess.run(wrapped(["true"]), capture_output=True, text=True, timeout=60)
    if trial.returncode != 0:
        return f"no private network namespace here: {(trial.stderr.strip().splitlines() or ['(no message)'])[-1]}"
    return None


def wrapped(argv: list[str]) -> list[str]:
    """``argv`` run inside a new network namespace whose one interface, loopback, is up."""
    return ["unshare", "--net", "--fork", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *argv]


def environment(base: dict | None = None) -> dict:
    """``base`` (or this process's environment) marked as inside the namespace."""
    return {**(os.environ if base is None else base), INSIDE: "1"}
