"""Start Ray inside a private network namespace that has an outward interface, and report what listens.

Run by tests/cli/test_ray_loopback.py as ``unshare --net --pid --mount ... python3 tests/ray_loopback_probe.py
local|head``, never on its own: it changes the network and mounts of the namespace it runs in.

It first gives the namespace what a machine on a network has: ``lo`` up, and a veth pair with
one end at 10.213.7.2/24 and the default route through the other, so Ray finds an address other
than loopback to call its own.  Nothing leaves the namespace: the peer is in it too, and answers
nothing.  ``/tmp`` is a fresh tmpfs, so Ray's session files stay out of the machine's ``/tmp``
(a checkout under ``/tmp``, this script's own, is mounted back at its place, so the engine and the
tests can still be imported), and ``HOME`` is a fresh folder in it, so Ray's token
(``~/.ray/auth_token``) is never the machine user's.
Then it starts Ray as the product does (``local``: the local instance of ``--backend ray``) or as
the tests do (``head``: ``ray start --head`` of tests/ray_head.py, joined by a run with
``--address``), runs a few tasks so that workers are listening too, and prints one JSON object:
the listening TCP sockets and unconnected UDP sockets of the namespace (protocol, address, port,
process), the node addresses Ray registered, the address Ray would have taken on its own, the
packets sent on the outward interface while Ray ran, and the modes of Ray's token file and its
folder after the run (null when there is none).  Exits with SETUP_FAILED, the reason on stderr,
when the namespace cannot be set up.
"""

from __future__ import annotations

import ipaddress
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

SETUP_FAILED = 77
OUTWARD, GATEWAY, DEVICE, PEER = "10.213.7.2", "10.213.7.1", "rbt0", "rbt1"
TASKS = 4
CHECKOUT = Path(__file__).resolve().parents[1]
HOME = Path("/tmp/home")  # in the namespace's own /tmp


def setup_network() -> None:
    """``lo`` and an outward interface with a default route; no IPv6, whose link-local chatter would be counted."""
    for name in ("all", "default"):
        switch = Path(f"/proc/sys/net/ipv6/conf/{name}/disable_ipv6")
        if switch.exists():  # absent where the kernel has no IPv6 at all
            switch.write_text("1")
    for command in (["ip", "link", "set", "lo", "up"],
                    ["ip", "link", "add", DEVICE, "type", "veth", "peer", "name", PEER],
                    ["ip", "addr", "add", f"{OUTWARD}/24", "dev", DEVICE],
                    ["ip", "link", "set", DEVICE, "up"],
                    ["ip", "link", "set", PEER, "up"],
                    ["ip", "route", "add", "default", "via", GATEWAY, "dev", DEVICE]):
        subprocess.run(command, check=True, capture_output=True, text=True)
    fresh_tmp()


def fresh_tmp() -> None:
    """A tmpfs over ``/tmp``, with the checkout mounted back at its place if it is under ``/tmp`` (a test run from
    a copy of the checkout there would otherwise find no engine to import), and a fresh home folder in it."""
    tmp = Path("/tmp").resolve()
    kept = os.open(CHECKOUT, os.O_RDONLY | os.O_DIRECTORY) if CHECKOUT.is_relative_to(tmp) else None
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1g,mode=1777", "ribbit-probe", str(tmp)], check=True,
                   capture_output=True, text=True)
    if kept is not None:  # the folder under the tmpfs, reached through this process's handle on it
        CHECKOUT.mkdir(parents=True)
        # --no-canonicalize: mount would resolve the handle's path to the new, empty folder of the same name
        subprocess.run(["mount", "--no-canonicalize", "--bind", f"/proc/{os.getpid()}/fd/{kept}", str(CHECKOUT)],
                       check=True, capture_output=True, text=True)
        os.close(kept)
    HOME.mkdir(mode=0o700)
    os.environ["HOME"] = str(HOME)


def packets_sent(device: str) -> int:
    """Packets sent on ``device`` so far (this namespace's /proc/net/dev)."""
    for line in Path("/proc/net/dev").read_text().splitlines():
        name, sep, counters = line.partition(":")
        if sep and name.strip() == device:
            return int(counters.split()[9])
    raise LookupError(f"no device {device} in /proc/net/dev")


def _address(hex_address: str) -> str:
    """An address of /proc/net/{tcp,udp}[6]: 32-bit words in this machine's byte order."""
    words = [int(hex_address[i:i + 8], 16) for i in range(0, len(hex_address), 8)]
    packed = b"".join(struct.pack("=I", word) for word in words)
    return str(ipaddress.ip_address(packed))


def _processes_by_inode() -> dict[str, str]:
    """Socket inode -> the name of a process that holds it (this namespace's processes: /proc is its own)."""
    owners = {}
    for fds in Path("/proc").glob("[0-9]*/fd"):
        try:
            name = (fds.parent / "comm").read_text().strip()
            for fd in fds.iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    owners[target[8:-1]] = name
        except OSError:  # the process ended meanwhile
            continue
    return owners


def listening_sockets() -> list[list]:
    """[protocol, address, port, process] of every listening TCP socket and unconnected UDP socket here."""
    owners = _processes_by_inode()
    found = []
    for protocol in ("tcp", "tcp6", "udp", "udp6"):
        lines = Path(f"/proc/net/{protocol}").read_text().splitlines()[1:]
        for line in lines:
            fields = line.split()
            local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
            address, port = local.split(":")
            remote_address, remote_port = remote.split(":")
            listening = state == "0A" if protocol.startswith("tcp") else int(remote_port, 16) == 0
            if listening:
                found.append([protocol, _address(address), int(port, 16), owners.get(inode, "?")])
    return found


def _add(x: int) -> int:
    return x + 1


def main(how: str) -> int:
    try:
        setup_network()
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or ""
        print(f"cannot set up the network namespace: {exc} {detail}".strip(), file=sys.stderr)
        return SETUP_FAILED
    import ray

    from interpreter import ray_backend
    from tests.ray_head import ray_head

    chosen_alone = ray.util.get_node_ip_address()  # what Ray calls this machine's address before any setting
    sent_before = packets_sent(DEVICE)
    if how == "local":
        ray_backend._connect(ray, None, 2)
        report = run_and_look(ray)
    else:
        with ray_head() as address:  # joined with token authentication (RAY_AUTH_MODE=token, set by the test)
            ray_backend._connect(ray, address, 2)
            report = run_and_look(ray)
    report.update(chosen_alone=chosen_alone, sent=packets_sent(DEVICE) - sent_before, **token_modes())
    print(json.dumps(report))
    return 0


def token_modes() -> dict:
    """The permission bits of Ray's token file and of its folder (None where there is none)."""
    token = HOME / ".ray" / "auth_token"
    return {name: (path.stat().st_mode & 0o777 if path.exists() else None)
            for name, path in (("token_mode", token), ("token_folder_mode", token.parent))}


def run_and_look(ray) -> dict:
    """Tasks on the workers, then what listens while they are up, then Ray stopped (this driver's part)."""
    try:
        assert ray.get([ray.remote(_add).remote(i) for i in range(TASKS)]) == list(range(1, TASKS + 1))
        return {"listening": listening_sockets(), "nodes": [node["NodeManagerAddress"] for node in ray.nodes()]}
    finally:
        ray.shutdown()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
