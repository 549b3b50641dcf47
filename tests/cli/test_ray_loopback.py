"""Ray listens and talks on loopback only: a local `--backend ray` run, and every head node the tests start.

Each test runs tests/ray_loopback_probe.py in private network, PID and mount namespaces that have
an outward interface (a veth with 10.213.7.2/24 and a default route), as a machine on a network
has, so that Ray finds an address other than loopback to call its own, and checks what listened
while Ray ran.  Nothing leaves the namespaces: the veth's peer is in them too.  Making namespaces
needs root and `unshare` and `ip`; elsewhere the tests are skipped, saying why.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import ray_loopback_probe as probe

pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[ray]'")

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 240  # seconds for the whole probe: one Ray start, a few tasks


def why_no_namespace() -> str | None:
    if not sys.platform.startswith("linux"):
        return "network namespaces are a Linux feature"
    if os.geteuid() != 0:
        return "making a network namespace with a veth pair needs root"
    missing = [tool for tool in ("unshare", "ip", "mount") if shutil.which(tool) is None]
    if missing:
        return f"making a network namespace needs {', '.join(missing)} (util-linux, iproute2), not found here"
    return None


def on_loopback(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    mapped = getattr(ip, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is 127.0.0.1 on a dual-stack socket
    return (mapped or ip).is_loopback


@functools.lru_cache(maxsize=None)  # one Ray start per way of starting it, whatever each test checks of it
def probe_ray(how: str) -> dict:
    reason = why_no_namespace()
    if reason:
        pytest.skip(reason)
    command = ["unshare", "--net", "--pid", "--fork", "--kill-child", "--mount-proc",
               sys.executable, str(ROOT / "tests" / "ray_loopback_probe.py"), how]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
                   "RAY_AUTH_MODE": "token"}  # Ray reads it when imported: a head node of the tests uses it
    result = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=TIMEOUT)
    if result.returncode == probe.SETUP_FAILED or (result.returncode and "unshare:" in result.stderr):
        last_line = (result.stderr.strip().splitlines() or ["(no message)"])[-1]
        pytest.skip(f"no private network namespace here: {last_line}")
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("how", ["local", "head"], ids=["a local run", "a test's head node"])
def test_ray_listens_and_talks_only_on_loopback_on_a_machine_with_an_outward_interface(how):
    report = probe_ray(how)
    assert report["chosen_alone"] == probe.OUTWARD  # Ray saw the outward interface: this test can fail
    assert report["listening"], "nothing listened: the probe did not look while Ray ran"
    beyond = [entry for entry in report["listening"] if not on_loopback(entry[1])]
    assert not beyond, f"listening beyond loopback ([protocol, address, port, process]): {beyond}"
    assert report["nodes"] and all(address == "127.0.0.1" for address in report["nodes"]), report["nodes"]
    assert report["sent"] == 0, f"{report['sent']} packets went out on the outward interface"


@pytest.mark.parametrize("how", ["local", "head"], ids=["a local run", "a test's head node"])
def test_ray_s_auth_token_is_readable_by_its_user_only(how):
    """Whoever reads the token may run code on this user's Ray instances: Ray itself writes it 0644."""
    report = probe_ray(how)
    assert report["token_mode"] == 0o600 and report["token_folder_mode"] == 0o700, report
