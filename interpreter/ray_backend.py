"""The ``ray`` backend of a run of games (``simulate``, ``compare``): chunks as Ray tasks (the optional ``ray`` extra).

A task plays one chunk of consecutive games (``runs.chunks``: tens to hundreds of
games, so Ray's per-task cost, a few milliseconds, is spread over all of them) with
the run's ``play`` function (:func:`interpreter.sim.run_chunks`) and returns only
what it measured.  The compiled definitions are not sent with the task (they hold
compiled code, which does not pickle): each Ray worker process loads them from the
same files the first time it needs them and keeps them for the next chunks, after
checking that what it loaded is exactly what the run started with (same texts, same
fingerprints).  At most a few chunks per CPU are in flight at once, so a run of any
length holds little memory, and chunks are merged in game order.

Without an address, a local Ray instance is started for the run (``jobs`` CPUs, or
all of them), listening on loopback only (:func:`loopback_only`), and shut down after
it; with one (``ray start --head`` prints it), the run joins that cluster, whose nodes
need Ribbit's dependencies installed and the definition files at the same absolute
paths (a shared folder or the same checkout).
The package itself is shipped to the cluster with the job, so the workers run the
same engine code as the driver.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import stat
from contextlib import contextmanager, nullcontext
from pathlib import Path

from .errors import RibbitError
from .runs import SimulationError, available_cpus, chunks, load_definitions

CONNECT_TIMEOUT = 5.0  # seconds to wait for a cluster's address to answer
IN_FLIGHT_PER_CPU = 2  # chunks submitted ahead per CPU: enough to keep every worker busy

# The environment of a Ray node that listens and talks on loopback only (a local run's, and the tests').
# On Linux, Ray takes the address of the interface with the default route as a node's address, even
# when given 127.0.0.1 (``_node_ip_address``, ``--node-ip-address``: Ray "resolves" loopback to it),
# and its servers then listen on every interface.  With the setting meant for Windows and macOS,
# where Ray keeps single-machine instances on loopback, a node's address stays 127.0.0.1 and every
# server Ray starts (GCS, raylet, object manager, workers, agents) binds to it.  Ray's usage reports
# are turned off; but its head process still asks the cloud metadata addresses (169.254.169.254,
# metadata.google.internal) which cloud it runs on, and a `ray start` head still reports that usage
# reports are off, over HTTP, whatever the settings: the proxy variables send any HTTP request of
# Ray's beyond loopback to a loopback port where nothing listens, so it fails at once.
LOOPBACK = "127.0.0.1"
NOWHERE = "http://127.0.0.1:9"  # the discard port: nothing listens there
LOOPBACK_ENVIRONMENT = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_USAGE_STATS_ENABLED": "0",
    **{name: NOWHERE for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY")},
    **{name: "127.0.0.1,localhost,::1" for name in ("no_proxy", "NO_PROXY")},
}

_games: dict = {}  # in a Ray worker: (path, variant lists, fingerprints) -> the compiled definitions


class RayUnavailableError(RibbitError):
    """The ``ray`` backend was asked for, but Ray is not installed or cannot start."""


def import_ray():
    try:
        import ray
    except ImportError:
        raise RayUnavailableError("the ray backend needs Ray, which is not installed here: "
                                  "pip install -e '.[ray]' (or pip install 'ray>=2.9')") from None
    return ray


def absolute_refs(variants) -> list[str]:
    """Variant references with PATHs made absolute: a Ray worker's working directory is not ours."""
    from .loader.variants import is_path_ref, parse_ref

    refs = []
    for ref in variants:
        target, _ = parse_ref(ref)
        if is_path_ref(target) and not Path(target).is_absolute():
            ref = str(Path(target).resolve()) + ref[len(target):]
        refs.append(ref)
    return refs


def _play_chunk(path: str, variant_lists: list, expected: list, play, span: tuple):
    """In a Ray worker: ``play(definitions, *span)``.  Returns ("ok", its result) or ("error", message)."""
    from .state import fingerprint

    key = (path, tuple(map(tuple, variant_lists)), tuple(expected))
    games = _games.get(key)
    if games is None:
        where = f"on the Ray node {os.uname().nodename}"
        try:
            games = load_definitions(path, variant_lists)
        except (RibbitError, OSError) as exc:
            return "error", f"a Ray worker {where} could not load the definition {path}: {exc}"
        if [fingerprint(game) for game in games] != list(expected):
            return "error", (f"the definition {path} (with its variants) {where} differs from the one this run "
                             "started with; every machine of the cluster needs the same files at the same path")
        _games.clear()  # one run's definitions per worker at a time: a long-lived cluster does not accumulate them
        _games[key] = games
    try:
        return "ok", play(games, *span)
    except SimulationError as exc:
        return "error", str(exc)


@contextmanager
def _environment(values: dict):
    """``os.environ`` with ``values`` set, for the processes started meanwhile; put back as it was afterwards."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def loopback_only():
    """While a local Ray instance starts: its node address is loopback, and its servers listen there only.

    The processes Ray starts inherit :data:`LOOPBACK_ENVIRONMENT`; this driver, which read that
    setting when it imported Ray, is given its value for as long as the instance starts.  Both are
    put back afterwards, so a later run in this process may still join a cluster.
    """
    from ray._private import ray_constants  # where Ray keeps the setting it read at import

    saved = getattr(ray_constants, "ENABLE_RAY_CLUSTER", None)
    with _environment(LOOPBACK_ENVIRONMENT):
        ray_constants.ENABLE_RAY_CLUSTER = False
        try:
            yield
        finally:
            ray_constants.ENABLE_RAY_CLUSTER = saved


def private_auth_token(create: bool) -> None:
    """Ray's token for its clusters, in the file Ray keeps it in (``~/.ray/auth_token``), readable by this user only.

    Ray (2.5x and later) starts a local instance with token authentication and writes a new token with the
    default mode, 0644 under the usual umask: anyone on the machine could read it, and whoever holds it may
    run code on this user's instances.  So before a local start (``create``) the file is made here, 0600 in
    a folder made 0700, with a token as Ray makes them (Ray then uses it); before any start or join, an
    existing one of this user's that others may read is made 0600.  A token given elsewhere (RAY_AUTH_TOKEN,
    RAY_AUTH_TOKEN_PATH), authentication turned off (RAY_AUTH_MODE), or a Ray without tokens: nothing is made.
    """
    try:
        from ray._private.authentication.authentication_token_generator import generate_new_authentication_token
        from ray._private.authentication.authentication_token_setup import _get_default_token_path
        path = _get_default_token_path()
    except (ImportError, RuntimeError):  # a Ray without token authentication; no home folder
        return
    _tighten(path)
    if not create or os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH") \
            or os.environ.get("RAY_AUTH_MODE", "token").lower() != "token":
        return
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except OSError:  # there already (made private above), or the folder cannot be written: Ray says why
        return
    with os.fdopen(handle, "w") as out:
        out.write(generate_new_authentication_token())
    try:
        from ray._raylet import AuthenticationTokenLoader

        AuthenticationTokenLoader.instance().reset_cache()  # it may have looked for the file before it was there
    except (ImportError, AttributeError):
        pass


def _tighten(path: Path) -> None:
    """This user's regular file at ``path`` (never a link's target) made readable by this user only."""
    try:
        info = os.lstat(path)
        if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and info.st_mode & 0o077:
            os.chmod(path, 0o600)
    except OSError:  # not there, or not ours to change
        pass


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # another host name
        return False


def refuse_unless_on_loopback(node_addresses, version: str) -> None:
    """A local instance whose node took an address other than loopback listens beyond it: refuse to use it."""
    outward = sorted(address for address in set(node_addresses) if not _is_loopback(address))
    if outward:
        raise RayUnavailableError(
            f"the local Ray instance took the address {', '.join(outward)} rather than {LOOPBACK}, so it would listen "
            f"on the network: this Ray version ({version}) does not keep a local instance on loopback when "
            "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0; use the process backend (--jobs) instead, or a Ray cluster of "
            "your own (--address)")


def _host_and_port(address: str) -> tuple[str, int]:
    host, sep, port = address.strip().removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        raise RayUnavailableError(f"--address {address!r}: give the Ray cluster's address as HOST:PORT (the "
                                  "address `ray start --head` prints), or 'auto' for a cluster on this machine")
    return host.strip("[]"), int(port)


def _check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail fast, with a message, when nothing answers at ``address`` (Ray itself would retry for minutes)."""
    import socket

    try:
        socket.create_connection(_host_and_port(address), timeout=timeout).close()
    except OSError as exc:
        raise RayUnavailableError(f"nothing answers at {address} ({exc.strerror or exc}): is a Ray cluster "
                                  "running there (`ray start --head` on its head machine)?") from None


def _connect(ray, address, jobs: int) -> bool:
    """Join the cluster at ``address`` or start a local instance; True if we started it (and must stop it).

    The workers must run this very engine: a cluster is sent the package with the job
    (Ray's ``py_modules``); a local instance, whose workers start on this machine, finds
    it on the ``PYTHONPATH`` its processes inherit, which spares the upload and the
    slower start of workers with a job-specific environment.  A cluster at a loopback
    address is joined over loopback (Ray would otherwise go to this machine's outward
    address, where a head started on loopback does not listen).
    """
    if ray.is_initialized():  # a caller that set Ray up itself keeps its instance
        return False
    import interpreter

    options = dict(logging_level=logging.ERROR, log_to_driver=False, include_dashboard=False)
    if address and address != "auto":
        _check_reachable(address)
    private_auth_token(create=not address)
    try:
        if address:
            on_loopback = address != "auto" and _is_loopback(_host_and_port(address)[0])
            with loopback_only() if on_loopback else nullcontext():
                ray.init(address=address, runtime_env={"py_modules": [interpreter]}, **options)
        else:
            cpus = available_cpus() if jobs <= 1 else min(jobs, available_cpus())
            here = str(Path(interpreter.__file__).resolve().parent.parent)
            path = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
            with _environment({"PYTHONPATH": path}), loopback_only():  # a new instance of our own, not one found here
                ray.init(address="local", num_cpus=cpus, _node_ip_address=LOOPBACK, **options)
            try:
                refuse_unless_on_loopback((node["NodeManagerAddress"] for node in ray.nodes()), ray.__version__)
            except RayUnavailableError:
                ray.shutdown()
                raise
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        if not address:
            raise RayUnavailableError(f"could not start a local Ray instance: {exc}") from None
        raise RayUnavailableError(f"could not join the Ray cluster at {address!r}: {exc} (a cluster that uses "
                                  "token authentication needs RAY_AUTH_MODE=token here, and its token in "
                                  "~/.ray/auth_token or RAY_AUTH_TOKEN)") from None
    return True


def run_chunks(path, variant_lists, loaded, play, games, jobs, address=None):
    """``play(definitions, start, stop)`` of each chunk, in game order, as Ray tasks (see the module docstring
    and :func:`interpreter.sim.run_chunks`, whose arguments these are)."""
    ray = import_ray()
    from .state import fingerprint

    path = str(Path(path).resolve())
    variant_lists = [absolute_refs(variants) for variants in variant_lists]
    if loaded is None:
        loaded = load_definitions(path, variant_lists)
    expected = [fingerprint(game) for game in loaded]  # what every worker must load
    started = _connect(ray, address, jobs)
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(num_cpus=1, max_retries=0)(_play_chunk)
        shared = [ray.put(value) for value in (variant_lists, expected, play)]  # sent once, not with every task
        work = iter(chunks(games, cpus))
        waiting = {}  # object ref -> chunk number
        finished = {}  # chunk number -> result, until the chunks before it are in
        submitted = merged = 0
        while True:
            while len(waiting) + len(finished) < IN_FLIGHT_PER_CPU * cpus:
                span = next(work, None)
                if span is None:
                    break
                waiting[remote.remote(path, *shared, span)] = submitted
                submitted += 1
            if not waiting:
                break
            ready, _ = ray.wait(list(waiting), num_returns=1)
            for ref in ready:
                try:
                    status, result = ray.get(ref)
                except ray.exceptions.RayError as exc:  # a worker died or could not start (a missing dependency)
                    raise SimulationError(f"a Ray task failed: {str(exc).strip().splitlines()[-1]}") from None
                if status == "error":
                    raise SimulationError(result)
                finished[waiting.pop(ref)] = result
            while merged in finished:
                yield finished.pop(merged)
                merged += 1
    finally:
        if started:
            ray.shutdown()
