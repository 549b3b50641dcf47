"""`simulate --backend ray`: games as Ray tasks on a real (local) Ray instance, same results as `--jobs 1`.

Skipped only when Ray is not installed (the optional ``ray`` extra).  Starting Ray
costs several seconds, so each test plays few games but enough chunks to check
that they are merged in game order.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import private_network
from interpreter import load_game, ray_backend, sim
from interpreter.cli import main
from tests.ray_head import free_port, ray_head

# The head node of these tests uses token authentication; Ray reads RAY_AUTH_MODE when it is imported
# (a local instance turns it on later for the whole process, which a test that joins the head alone
# cannot count on).
os.environ.setdefault("RAY_AUTH_MODE", "token")
ray = pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[ray]'")

ROOT = Path(__file__).resolve().parents[2]
FROG_TOWER = str(ROOT / "definitions" / "frog_tower.yaml")
KAERU = str(ROOT / "definitions" / "kaeru.yaml")


def test_the_tests_that_start_ray_pass_inside_a_private_network_namespace():
    """The tests marked ``private_network`` start Ray (a local instance, a head node): they run here, in a pytest
    of their own inside ``unshare --net``, where loopback is the only interface, never in the suite's process."""
    if private_network.inside():
        pytest.skip("already inside a private network namespace (this is the runner's own run)")
    reason = private_network.why_not()
    if reason:
        pytest.skip(reason)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-m", "private_network",
               "-o", "addopts=", str(Path(__file__).resolve())]
    environment = private_network.environment()
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environment.get("PYTHONPATH")]))
    result = subprocess.run(private_network.wrapped(command), cwd=ROOT, env=environment, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    assert re.search(r"\b3 passed\b", result.stdout) and "skipped" not in result.stdout, result.stdout[-2000:]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.private_network
def test_ray_backend_on_a_local_instance_gives_the_statistics_of_one_job(capsys):
    common = ["simulate", FROG_TOWER, "--players", "3", "--games", "150", "--seed", "5", "--variant", "crayfish",
              "--json", "-"]
    code, one, _ = run(capsys, *common)
    assert code == 0
    assert not ray.is_initialized()
    code, on_ray, err = run(capsys, *common, "--backend", "ray", "--jobs", "2")
    assert code == 0, err
    assert json.loads(on_ray) == json.loads(one)
    assert not ray.is_initialized()  # the local instance this run started is shut down


@pytest.fixture(scope="module")
def head():
    """A Ray head node on loopback (tests/ray_head.py), started once for the tests of this module that
    join a cluster (starting Ray costs seconds)."""
    with ray_head() as address:
        yield address


@pytest.fixture
def cluster(head, monkeypatch):
    """The address of the running head node, for a test that joins it (with its token authentication)."""
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    return head


@pytest.mark.private_network
def test_ray_backend_joins_a_running_cluster_by_address_with_the_results_of_one_job(cluster, tmp_path, monkeypatch):
    # a variant given as a relative PATH: the Ray workers, whose working folder is not ours, still find it
    monkeypatch.chdir(ROOT / "definitions")
    variant = "variants/kaeru/frightened_prey.yaml"
    one = sim.simulate(KAERU, 2, 120, seed=9, variants=[variant])
    done = []
    on_ray = sim.simulate(KAERU, 2, 120, seed=9, variants=[variant], backend="ray", address=cluster,
                          progress=done.append)
    assert on_ray.to_json() == one.to_json()
    assert done == sorted(done) and done[-1] == 120 and len(done) > 4  # several chunks, merged in order
    assert not ray.is_initialized()  # disconnected from the cluster, which keeps running


@pytest.mark.private_network
def test_compare_on_a_ray_cluster_gives_the_comparison_of_one_job(cluster, capsys):
    # configurations paired game by game (a variant, another bot in one seat), over many chunks
    common = ["compare", KAERU, "--players", "2", "--games", "60", "--seed", "11", "--config", "",
              "--config", "variant=frightened_prey", "--config", "bot=2=greedy", "--json", "-"]
    code, one, err = run(capsys, *common)
    assert code == 0, err
    code, on_ray, err = run(capsys, *common, "--backend", "ray", "--address", cluster)
    assert code == 0, err
    assert json.loads(on_ray) == json.loads(one)
    assert not ray.is_initialized()


def test_a_ray_worker_refuses_a_definition_that_differs_from_the_run_s():
    fingerprint = "0" * 16  # not the fingerprint of the file the worker finds
    play = functools.partial(sim._simulate_chunk, 2, 0, "random", 100)
    status, message = ray_backend._play_chunk(KAERU, [[]], [fingerprint], play, (0, 1))
    assert status == "error"
    assert "differs from the one this run started with" in message and "same path" in message


def test_a_ray_worker_loads_the_definition_once_for_all_its_chunks(monkeypatch):
    import interpreter.loader
    from interpreter.state import fingerprint

    game = load_game(KAERU)
    real_load, loads = interpreter.loader.load_game, []

    def counting_load(*args, **kwargs):
        loads.append(args)
        return real_load(*args, **kwargs)
    monkeypatch.setattr(interpreter.loader, "load_game", counting_load)
    monkeypatch.setattr(ray_backend, "_games", {})
    parts = sim.SimStats(2)
    play = functools.partial(sim._simulate_chunk, 2, 4, "random", 10_000)
    for start, stop in ((0, 2), (2, 5)):
        status, stats = ray_backend._play_chunk(KAERU, [[]], [fingerprint(game)], play, (start, stop))
        assert status == "ok"
        parts.merge(stats)
    assert len(loads) == 1
    assert parts.to_json() == sim.run_chunk(game, 2, 4, 0, 5).to_json()


def test_an_address_where_nothing_answers_fails_at_once_with_a_message(capsys):
    started = time.monotonic()
    code, _, err = run(capsys, "simulate", KAERU, "--players", "2", "--games", "2", "--backend", "ray",
                       "--address", f"127.0.0.1:{free_port()}")
    assert code == 2 and time.monotonic() - started < 20
    assert "nothing answers at 127.0.0.1:" in err and "ray start --head" in err and "Traceback" not in err


def test_a_malformed_address_is_refused(capsys):
    code, _, err = run(capsys, "simulate", KAERU, "--players", "2", "--games", "2", "--backend", "ray",
                       "--address", "no-port-here")
    assert code == 2 and "give the Ray cluster's address as HOST:PORT" in err


def test_address_without_the_ray_backend_is_refused(capsys):
    code, _, err = run(capsys, "simulate", KAERU, "--players", "2", "--games", "2", "--address", "127.0.0.1:6379")
    assert code == 2 and "--address is the address of a Ray cluster: give it with --backend ray" in err


def test_the_ray_backend_without_ray_installed_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    code, _, err = run(capsys, "simulate", KAERU, "--players", "2", "--games", "2", "--backend", "ray")
    assert code == 2 and "pip install -e '.[ray]'" in err and "Traceback" not in err


def test_a_local_instance_that_took_an_outward_address_is_refused_with_a_message():
    ray_backend.refuse_unless_on_loopback(["127.0.0.1", "::1"], ray.__version__)  # loopback either way: kept
    with pytest.raises(ray_backend.RayUnavailableError) as caught:
        ray_backend.refuse_unless_on_loopback(["127.0.0.1", "10.1.2.3"], "2.60.0")
    message = str(caught.value)
    assert "took the address 10.1.2.3 rather than 127.0.0.1" in message and "listen on the network" in message
    assert "Ray version (2.60.0)" in message and "--jobs" in message


def test_the_loopback_settings_last_only_while_a_local_instance_starts(monkeypatch):
    from ray._private import ray_constants

    monkeypatch.setattr(ray_constants, "ENABLE_RAY_CLUSTER", True)  # Ray's default on Linux
    monkeypatch.delenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", raising=False)
    monkeypatch.setenv("https_proxy", "http://proxy.example:3128")  # the user's own, put back afterwards
    with ray_backend.loopback_only():
        assert ray_constants.ENABLE_RAY_CLUSTER is False
        assert {name: os.environ.get(name) for name in ray_backend.LOOPBACK_ENVIRONMENT} == \
            ray_backend.LOOPBACK_ENVIRONMENT
    assert ray_constants.ENABLE_RAY_CLUSTER is True
    assert "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER" not in os.environ
    assert os.environ["https_proxy"] == "http://proxy.example:3128"


# ---------------------------------------------------------------- Ray's token file (no Ray is started here)
@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home folder of the test's own, no token given in the environment: where Ray looks for its token."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_AUTH_MODE"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def mode(path: Path) -> int:
    return os.lstat(path).st_mode & 0o777


def test_before_a_local_start_ray_s_token_is_made_readable_by_this_user_only(home):
    ray_backend.private_auth_token(create=True)
    token = home / ".ray" / "auth_token"
    assert mode(token) == 0o600 and mode(token.parent) == 0o700
    assert len(token.read_text()) == 64 and int(token.read_text(), 16) > 0  # as Ray makes them: 256 bits in hex


@pytest.mark.parametrize("create", [True, False], ids=["local start", "join"])
def test_a_token_others_may_read_is_made_private_and_kept(home, create):
    token = home / ".ray" / "auth_token"
    token.parent.mkdir()
    token.write_text("f" * 64)
    token.chmod(0o644)
    ray_backend.private_auth_token(create=create)
    assert mode(token) == 0o600 and token.read_text() == "f" * 64


@pytest.mark.parametrize("setting", [{"RAY_AUTH_MODE": "disabled"}, {"RAY_AUTH_TOKEN": "a" * 64},
                                     {"RAY_AUTH_TOKEN_PATH": "/elsewhere/token"}])
def test_no_token_is_made_when_ray_is_told_not_to_use_one_or_given_one_elsewhere(home, monkeypatch, setting):
    for name, value in setting.items():
        monkeypatch.setenv(name, value)
    ray_backend.private_auth_token(create=True)
    assert not (home / ".ray" / "auth_token").exists()


def test_a_link_where_the_token_goes_is_neither_followed_nor_changed(home, tmp_path):
    target = tmp_path / "someone_s_file"
    target.write_text("x")
    target.chmod(0o644)
    (home / ".ray").mkdir()
    (home / ".ray" / "auth_token").symlink_to(target)
    ray_backend.private_auth_token(create=True)
    assert mode(target) == 0o644 and target.read_text() == "x"
