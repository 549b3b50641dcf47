"""Run hostile cases in this process and judge each one: one JSON line per case on stdout.

    python3 tests/hostile/worker.py BATCH.json START     # used by tests/hostile/test_hostile.py
    python3 tests/hostile/worker.py --case ID [--dir D]  # re-run one case and show everything

Batch mode prints ``{"start": id}`` before a case and ``{"id": ..., "problems": [...]}`` after it,
so the parent knows which case a crash or a hang belongs to.  A case that hangs is stopped by an
interval timer; after a hang, an exhausted memory limit or an exception that escaped, the worker
exits with status 3 and the parent starts a fresh one at the next case.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import re
import resource
import signal
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import RibbitError, SaveFileError, State, load_game  # noqa: E402
from interpreter import cli  # noqa: E402

from tests.hostile import cases as C  # noqa: E402

CASE_SECONDS = float(os.environ.get("RIBBIT_HOSTILE_TIMEOUT", "10"))
MEMORY_GROWTH_MB = 512  # more than this above the worker's high-water mark is "unbounded memory"
MAX_MESSAGE_LINES, MAX_MESSAGE_CHARS = 25, 6000
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
PYTHON_ERROR = re.compile(r"\b(Traceback|[A-Z][A-Za-z]*(Error|Exception)\b(?<!RibbitError)|"
                          r"Stop(Async)?Iteration|KeyboardInterrupt|SystemExit)")
RESTART = 3


class CaseTimeout(BaseException):
    """Raised by the interval timer inside a case that runs too long (a BaseException: nothing may absorb it)."""


def _alarm(signum, frame):
    raise CaseTimeout()


def maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---------------------------------------------------------------- CLI cases
def judge_message(status, err: str, names: list, problems: list, statuses=(0, 2)) -> None:
    if status not in statuses:
        problems.append(f"exit status {status!r} (expected one of {', '.join(map(str, statuses))}: "
                        "0 accepted, 2 refused, 130 the player left)")
    if "Traceback" in err:
        problems.append("a Python traceback on stderr")
    if status == 2:
        text = err.strip()
        if names and not any(n in text for n in names):
            problems.append(f"the message names none of {names}")
        lines = text.count("\n") + 1
        if lines > MAX_MESSAGE_LINES or len(text) > MAX_MESSAGE_CHARS:
            problems.append(f"the message is {lines} lines / {len(text)} characters, not a paragraph")
        leaked = PYTHON_ERROR.search(text)
        if leaked:
            problems.append(f"the message shows a Python internal error ({leaked.group(0)})")
        if not text:
            problems.append("exit status 2 with an empty message")


def run_cli(case: dict, folder: Path) -> dict:
    argv = [a.replace("{dir}", str(folder)) for a in case["argv"]]
    guard = {name: (folder / name).read_bytes() for name in case["guard"]}
    raw_out = io.BytesIO()
    out = io.TextIOWrapper(raw_out, encoding=case["encoding"], errors="strict", write_through=True)
    err = io.StringIO()
    stdin = case["stdin"]
    fake_in = None if stdin == "<closed>" else io.StringIO(stdin or "")
    problems, status = [], None
    saved = sys.stdin, sys.stdout, sys.stderr, os.getcwd()
    try:
        os.chdir(folder)
        sys.stdin, sys.stdout, sys.stderr = fake_in, out, err
        try:
            status = cli.main(argv)
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved[:3]
            os.chdir(saved[3])
    except CaseTimeout:
        raise
    except SystemExit as exc:
        status = exc.code
        problems.append(f"SystemExit({exc.code!r}) escaped cli.main")
    except BaseException as exc:  # noqa: BLE001 - anything escaping main is what we look for
        problems.append(f"{type(exc).__name__} escaped cli.main: {str(exc)[:300]}")
        err.write("\n" + traceback.format_exc())
    stdout = raw_out.getvalue().decode(case["encoding"], "replace")
    stderr = err.getvalue()
    judge_message(status, stderr, case["names"], problems, case.get("statuses", (0, 2)))
    for stream, text in (("stdout", stdout), ("stderr", stderr)):
        bad = CONTROL.search(text)
        if bad:
            problems.append(f"terminal control character {bad.group(0)!r} on {stream}")
    for secret in case.get("forbidden", []):
        if secret in stdout or secret in stderr:
            problems.append(f"the output shows {secret!r}, from a file outside the game's folder")
    for name, before in guard.items():
        path = folder / name
        if not path.is_file() or path.read_bytes() != before:
            problems.append(f"the input file {name} was overwritten")
    if (folder / "PWNED").exists():
        problems.append("the YAML ran a command (PWNED exists)")
    return {"status": status, "stderr": stderr[-2000:], "stdout": stdout[-600:], "problems": problems}


# ---------------------------------------------------------------- saves
_GAMES: dict = {}


def game_for(path: str, variant: str | None):
    key = (path, variant)
    if key not in _GAMES:
        _GAMES[key] = load_game(path, variants=[variant] if variant else [])
    return _GAMES[key]


def random_game(game, players: int, seed: int, moves: int, rng: random.Random):
    state = game.new_game(players, seed=seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        player = state.current_players()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    return state


ODD_JSON = [None, -1, 0, 1, 2 ** 63, 2 ** 70, "x", "", [], {}, True, False, 1.5, "0", [0], {"a": 1}]


def leaves(data, path=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield from leaves(v, path + (k,))
    elif isinstance(data, list) and data:
        for i, v in enumerate(data):
            yield from leaves(v, path + (i,))
    else:
        yield path, data


def tamper(rng: random.Random, data: dict, op: str, game) -> str:
    """Change ``data`` (a save) as ``op`` says; returns what was done (falls back to a random leaf)."""
    hist, zones, pend = data["history"], data["zones"], data["pending"]
    nonempty = [i for i, z in enumerate(zones) if z]
    if op == "identity":
        return op
    if op == "seed":
        data["seed"] = rng.choice([data["seed"] + 1, -1, 2 ** 64, "1", 1.5, None, True])
    elif op == "players":
        data["players"] = rng.choice([data["players"] + 1, data["players"] - 1, 0, str(data["players"]), 2.0])
    elif op == "history_drop" and hist:
        del hist[rng.randrange(len(hist))]
    elif op == "history_swap" and len(hist) >= 2:
        i = rng.randrange(len(hist) - 1)
        hist[i], hist[i + 1] = hist[i + 1], hist[i]
    elif op == "history_player" and hist:
        hist[rng.randrange(len(hist))][0] = rng.choice([-1, 1, 2, 99, "0", None, 0.0])
    elif op == "history_action" and hist:
        entry = hist[rng.randrange(len(hist))]
        entry[1] = rng.choice([entry[1] + " ", entry[1].upper(), "", 0, None, ["x"], hist[0][1], "win"])
    elif op == "history_append":
        hist.extend([[0, "stop and take the cards"], [1, "take leaf"]] * rng.choice([1, 1000]))
    elif op == "history_junk":
        data["history"] = rng.choice([None, "x", [1, 2], [[0]], [[0, "a", "b"]], {"0": "a"}])
    elif op == "zones_move" and nonempty:
        src = rng.choice(nonempty)
        card = zones[src].pop()
        zones[rng.randrange(len(zones))].append(card)
    elif op == "zones_reorder" and any(len(z) >= 2 for z in zones):
        z = rng.choice([z for z in zones if len(z) >= 2])
        z.reverse()
    elif op == "zones_dup" and nonempty:
        zones[rng.choice(nonempty)].append(zones[rng.choice(nonempty)][0])
    elif op == "zones_junk":
        i = rng.randrange(len(zones))
        zones[i] = rng.choice([None, "x", [-1], [10 ** 6], [True], [1.5], {}, [[0]]])
    elif op == "gv" and data["gv"]:
        k = rng.choice(sorted(data["gv"]))
        data["gv"][k] = rng.choice([not data["gv"][k] if isinstance(data["gv"][k], bool) else 7, None, "x", [1], 10 ** 30])
    elif op == "pv" and data["pv"]:
        k = rng.choice(sorted(data["pv"]))
        values = data["pv"][k]
        i = rng.randrange(len(values))
        values[i] = rng.choice([100, -5, None, "x", [], 10 ** 30, True])
    elif op == "rng":
        data["rng"] = rng.choice([str(int(data["rng"]) + 1), "-1", "x", 5, None, "9" * 5000, str(2 ** 200)])
    elif op == "frames_forged":  # saves hold no rule positions; one that brings its own must be refused
        data["frames"] = rng.choice([[[0, 0, {}, None]], [[1, 10 ** 9, {"x": 1}, "win"]], None])
    elif op == "log_seen" and data.get("log_seen"):
        entry = data["log_seen"][rng.randrange(len(data["log_seen"]))]
        entry[1][rng.randrange(len(entry[1]))] = rng.choice(["player 2 holds the ace.", None, 5])
    elif op == "log_seen":
        data["log_seen"] = rng.choice([[[0, ["forged"] * (data["players"] + 1)]], None, "x", [[10 ** 6, []]]])
    elif op == "pending_labels" and pend:
        labels = pend["labels"][rng.randrange(len(pend["labels"]))]
        if labels:
            labels[rng.randrange(len(labels))] = rng.choice(["win the game", "", None, 5])
        else:
            labels.append("win the game")
    elif op == "pending_values" and pend and pend.get("values"):
        values = pend["values"][rng.randrange(len(pend["values"]))]
        if values:
            values[rng.randrange(len(values))] = rng.choice([len(game.card_names) - 1, 10 ** 6, -1, None, "x",
                                                               [0, 1, 2, 3], 0])
    elif op == "pending_players" and pend:
        pend["players"] = rng.choice([[0, 0], list(reversed(pend["players"])), [data["players"] - 1], [], [1.0]])
    elif op == "pending_chosen" and pend:
        pend["chosen"] = [rng.choice([None, [0], 0, "x"]) for _ in pend["chosen"]]
    elif op == "pending_flags" and pend:
        k = rng.choice([k for k in ("each", "secret", "prompt") if k in pend])
        pend[k] = rng.choice([not pend[k] if isinstance(pend[k], bool) else None, "x", 1, None, ["a"]])
    elif op == "over":
        data["over"] = not data["over"]
    elif op == "forced_winners":
        data["forced_winners"] = rng.choice([[0], [99], "x", [], [0, 0]])
    elif op == "log" and data["log"] is not None:
        data["log"] = rng.choice([data["log"] + ["player 2 wins everything."], [], None, "x", [5]])
    elif op == "scenario":
        data["scenario"] = rng.choice([{}, {"zones": {}}, [], "x", {"zones": {"nowhere": []}}])
    elif op == "drop_key":
        del data[rng.choice(sorted(k for k in data if k not in ("format", "fingerprint")))]
    elif op == "fingerprint":
        data["fingerprint"] = rng.choice(["0" * 16, None, 5])
    elif op == "part_kind":  # a part of another kind than the save schema's (a value, a list, a mapping)
        part = rng.choice(sorted(data))
        data[part] = rng.choice([None, 7, "x", [], {}, [[[]]], {"x": [1]}, True])
        return f"{op}:{part}"
    elif op == "part_deep":  # a part nested far deeper than any save writes
        part = rng.choice(sorted(data))
        value = []
        for _ in range(500):
            value = [value]
        data[part] = value
        return f"{op}:{part}"
    else:
        paths = [p for p, _ in leaves(data) if p and p[0] not in ("format", "fingerprint", "game")]
        path = rng.choice(paths)
        node = data
        for k in path[:-1]:
            node = node[k]
        old = node[path[-1]]
        node[path[-1]] = old + rng.choice([1, -1]) if type(old) is int else rng.choice(ODD_JSON)
        return f"random_leaf at {'/'.join(map(str, path))}"
    return op


def diff_keys(a: dict, b: dict) -> list:
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


def run_save(case: dict) -> dict:
    spec = case["spec"]
    problems = []
    game = game_for(spec["game"], spec["variant"])
    rng = random.Random(spec["rng"])
    state = random_game(game, spec["players"], spec["seed"], spec["moves"], rng)
    data = json.loads(json.dumps(state.to_json()))
    done = tamper(rng, data, spec["op"], game)
    data = json.loads(json.dumps(data))
    try:
        loaded = State.from_json(game, data)
    except CaseTimeout:
        raise
    except SaveFileError as exc:
        if spec["op"] == "identity":
            problems.append(f"an untampered save was refused: {exc}")
        judge_message(2, str(exc), [], problems)
        return {"status": "refused", "stderr": str(exc)[:2000], "problems": problems, "did": done}
    except BaseException as exc:  # noqa: BLE001
        problems.append(f"{type(exc).__name__} from State.from_json (expected SaveFileError): {str(exc)[:300]}")
        return {"status": "crashed", "stderr": traceback.format_exc()[-2000:], "problems": problems, "did": done}
    try:
        # a save of a game played without a log (``log: null``) is a real kind of save: it replays without one
        expected = game.new_game(loaded.n, seed=loaded.seed, scenario=loaded.scenario, log=loaded.log is not None)
        for player, action in loaded.history:
            expected.apply(player, action)
    except CaseTimeout:
        raise
    except BaseException as exc:  # noqa: BLE001
        problems.append(f"the save loaded, but its own seed and history do not replay ({type(exc).__name__}: "
                        f"{str(exc)[:200]})")
        return {"status": "loaded", "stderr": "", "problems": problems, "did": done}
    got, want = loaded.to_json(), expected.to_json()
    if got != want:
        problems.append("the tampered save loaded as a state that differs from the replay of its seed and "
                        f"history in: {', '.join(diff_keys(got, want))}")
    try:  # whatever loaded must play on with nothing but Ribbit's own errors
        for _ in range(5):
            if loaded.is_terminal():
                loaded.winners()
                break
            player = loaded.current_players()[0]
            legal = loaded.legal_actions(player)
            if not legal:
                problems.append(f"the loaded state waits for player {player}, who has no legal action")
                break
            loaded.apply(player, rng.choice(legal))
        json.dumps(loaded.to_json())
    except CaseTimeout:
        raise
    except RibbitError:
        pass
    except BaseException as exc:  # noqa: BLE001
        problems.append(f"{type(exc).__name__} while playing on from the loaded save: {str(exc)[:300]}")
    return {"status": "loaded", "stderr": "", "problems": problems, "did": done}


# ---------------------------------------------------------------- API misuse
def deep_list(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


class AlwaysEqual:
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


class RaisingEq:
    def __eq__(self, other):
        raise ValueError("hostile __eq__")

    def __hash__(self):
        return 0


class EvilIndex:
    def __index__(self):
        raise ValueError("hostile __index__")

    __int__ = __index__


class StrSub(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


def odd_value(name: str, legal: list | None = None, state=None):
    first = legal[0] if legal else "x"
    if name == "other_player":
        waiting = state.current_players()
        return next(p for p in state.players if p not in waiting) if len(waiting) < state.n else 99
    return {"str_digit": "1", "float": 1.0, "true": True, "none": None, "negative": -1, "huge": 2 ** 70,
            "list": [1], "nan": math.nan, "inf": math.inf, "evil_index": EvilIndex(), "bytes": b"1",
            "str_subclass": StrSub(first), "always_equal": AlwaysEqual(), "raising_eq": RaisingEq(), "int": 0,
            "padded": first + " ", "upper": first.upper() if first.upper() != first else first + "!",
            "empty": "", "nul": first + "\x00", "megabyte": "x" * 1_000_000, "other_label": "win the game",
            }[name]


def definition(name: str) -> str:
    if name == "simultaneous":
        return str(ROOT / "tests" / "definitions" / "simultaneous.yaml")
    return str(C.DEFINITIONS / f"{name}.yaml")


def refused_unchanged(state, call, what: str, problems: list) -> None:
    """``call()`` must raise a RibbitError and leave ``state`` as it was."""
    before = state.to_json()
    try:
        call()
    except CaseTimeout:
        raise
    except RibbitError as exc:
        judge_message(2, str(exc), [], problems)
        if state.to_json() != before:
            problems.append(f"{what} was refused but the state changed: "
                            f"{', '.join(diff_keys(state.to_json(), before))}")
        return
    except BaseException as exc:  # noqa: BLE001
        problems.append(f"{what} raised {type(exc).__name__} (expected a RibbitError): {str(exc)[:300]}")
        return
    problems.append(f"{what} was accepted")


def run_api(case: dict) -> dict:
    spec, problems = case["spec"], []
    op = spec["op"]
    if op == "courtesy":  # issue 20, items 6-8: tests/hostile/api_courtesy.py
        from tests.hostile import api_courtesy

        return {"status": "done", "stderr": "", "problems": api_courtesy.run(spec, refused_unchanged)}
    ft = game_for(definition("frog_tower"), None)
    if op in ("new_game_players", "new_game_seed"):
        value = odd_value(spec["value"])
        kwargs = {"players": value, "seed": 1} if op == "new_game_players" else {"players": 3, "seed": value}
        try:
            state = ft.new_game(**kwargs)
        except CaseTimeout:
            raise
        except RibbitError as exc:
            judge_message(2, str(exc), [], problems)
        except BaseException as exc:  # noqa: BLE001
            problems.append(f"new_game({kwargs!r}) raised {type(exc).__name__}: {str(exc)[:300]}")
        else:
            if op == "new_game_players":
                problems.append(f"new_game accepted players={value!r}")
            elif type(state.seed) is not int:
                problems.append(f"new_game accepted seed={value!r} and kept a seed of type {type(state.seed).__name__}")
            else:
                json.dumps(state.to_json())
    elif op in ("apply_action", "apply_player", "view", "legal_actions"):
        game = game_for(definition("simultaneous"), None) if op != "apply_action" else ft
        state = game.new_game(2 if op != "apply_action" else 3, seed=3)
        player = state.current_players()[0]
        legal = state.legal_actions(player)
        if op == "apply_action":
            action = odd_value(spec["value"], legal, state)
            refused_unchanged(state, lambda: state.apply(player, action), f"apply({player}, {spec['value']})",
                              problems)
        elif op == "apply_player":
            who = odd_value(spec["value"], legal, state)
            if spec["value"] == "other_player":  # a seat that is done choosing
                state.apply(player, legal[0])
                who = player
            refused_unchanged(state, lambda: state.apply(who, legal[0]), f"apply({spec['value']}, ...)", problems)
        else:
            who = odd_value(spec["value"], legal, state)
            if spec["value"] == "other_player":
                who = 99
            try:
                result = getattr(state, op)(who)
            except CaseTimeout:
                raise
            except RibbitError:
                result = None
            except BaseException as exc:  # noqa: BLE001
                problems.append(f"{op}({spec['value']}) raised {type(exc).__name__}: {str(exc)[:300]}")
                result = None
            if result is not None:
                try:
                    json.dumps(result)
                except (TypeError, ValueError) as exc:
                    problems.append(f"{op}({spec['value']}) returned data that is not plain JSON ({exc})")
                if op == "view":
                    spectator = state.view(None)
                    for label, shown in result["zones"].items():
                        if "cards" in shown and "cards" not in spectator["zones"].get(label, {}):
                            problems.append(f"view({spec['value']}) shows {label}, which a spectator cannot see")
                elif not all(type(a) is str for a in result):
                    problems.append(f"legal_actions({spec['value']}) returned non-text actions")
    elif op in ("after_over", "wrong_player", "twice"):
        game = game_for(definition(spec["game"]), None)
        rng = random.Random(case["id"])
        state = game.new_game(game.min_players if spec["game"] != "frog_tower" else 3, seed=5)
        if op == "after_over":
            last = None
            while not state.is_terminal():
                player = state.current_players()[0]
                last = rng.choice(state.legal_actions(player))
                state.apply(player, last)
            refused_unchanged(state, lambda: state.apply(0, last), "the last action again after the end", problems)
            refused_unchanged(state, lambda: state.apply(0, "x"), "an action after the end", problems)
        elif op == "wrong_player":
            waiting = state.current_players()
            others = [p for p in state.players if p not in waiting]
            if others:
                action = state.legal_actions(waiting[0])[0]
                refused_unchanged(state, lambda: state.apply(others[0], action), "a waiting player's action "
                                  "played by another seat", problems)
        else:
            player = state.current_players()[0]
            action = state.legal_actions(player)[0]
            state.apply(player, action)
            if not state.is_terminal() and player not in state.current_players():
                refused_unchanged(state, lambda: state.apply(player, action), "the same seat deciding twice",
                                  problems)
    elif op == "scenario":
        scenarios = {
            "zones_list": {"zones": []}, "zones_string": {"zones": {"holding": "leaf"}},
            "unknown_card": {"zones": {"holding": ["nope"]}}, "unknown_zone": {"zones": {"nowhere": []}},
            "gv_type": {"game_variables": {"refilled": "yes"}},
            "pv_seat": {"player_variables": {"9": {"points": 1}}}, "on_top_int": {"on_top": {"pond": [1]}},
            "not_a_dict": [1], "huge_list": {"zones": {"holding": ["leaf"] * 100000}},
            "pv_unknown": {"player_variables": {"1": {"nope": 1}}},
            "counters_kind": {"counters": {"drops": {"players": {"1": "many"}}}},
            "counters_holder": {"counters": {"drops": {"seats": {}}}}, "first_player_bool": {"first_player": True},
            "unknown_key": {"players": 3}, "deep": {"game_variables": {"turn": deep_list(500)}},
        }
        try:
            state = ft.new_game(3, seed=1, scenario=scenarios[spec["value"]])
        except CaseTimeout:
            raise
        except RibbitError as exc:
            judge_message(2, str(exc), [], problems)
        except BaseException as exc:  # noqa: BLE001
            problems.append(f"a hostile scenario raised {type(exc).__name__}: {str(exc)[:300]}")
        else:
            for name, default in ft.gvar_defaults.items():
                if type(state.gv[name]) is not type(default):
                    problems.append(f"the scenario set game variable {name} to {state.gv[name]!r}, "
                                    f"not a {type(default).__name__}")
            for name, default in ft.pvar_defaults.items():
                for value in state.pv[name]:
                    if type(value) is not type(default):
                        problems.append(f"the scenario set player variable {name} to {value!r}")
    return {"status": "done", "stderr": "", "problems": problems}


# ---------------------------------------------------------------- driver
def run_case(case: dict, folder: Path | None) -> dict:
    started, rss = time.perf_counter(), maxrss_mb()
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    try:
        if case["kind"] == "cli":
            result = run_cli(case, folder)
        elif case["kind"] == "save":
            result = run_save(case)
        else:
            result = run_api(case)
    except CaseTimeout:
        result = {"status": "timeout", "stderr": "", "problems": [f"did not finish in {CASE_SECONDS:g} s (a hang)"]}
    except MemoryError:
        result = {"status": "memory", "stderr": "", "problems": ["MemoryError: ran out of the memory limit"]}
    except BaseException as exc:  # noqa: BLE001 - the harness itself must report, not die
        result = {"status": "harness", "stderr": traceback.format_exc()[-2000:],
                  "problems": [f"{type(exc).__name__} outside the judged call: {str(exc)[:300]}"]}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    result["seconds"] = round(time.perf_counter() - started, 3)
    growth = maxrss_mb() - rss
    if growth > MEMORY_GROWTH_MB:
        result["problems"].append(f"memory grew by {growth:.0f} MB (bound: {MEMORY_GROWTH_MB} MB)")
    result["id"] = case["id"]
    return result


def needs_restart(result: dict) -> bool:
    return result["status"] in ("timeout", "memory", "harness") or any(
        "memory grew" in p or "escaped" in p for p in result["problems"])


def batch(path: str, start: int) -> int:
    signal.signal(signal.SIGALRM, _alarm)
    cases = json.loads(Path(path).read_text(encoding="utf-8"))
    for case in cases[start:]:
        print(json.dumps({"start": case["id"]}), flush=True)
        result = run_case(case, Path(case["dir"]) if case.get("dir") else None)
        print(json.dumps(result, default=repr), flush=True)
        if needs_restart(result):
            return RESTART
    return 0


def one(case_id: str, folder: str | None) -> int:
    signal.signal(signal.SIGALRM, _alarm)
    case = next((c for c in C.all_cases() if c["id"] == case_id), None)
    if case is None:
        print(f"no case {case_id!r} (set RIBBIT_HOSTILE_CASES as in the run that found it)", file=sys.stderr)
        return 2
    target = Path(folder or f"/tmp/ribbit-hostile-{os.getpid()}")
    if case["kind"] == "cli":
        C.materialize(case, target)
        print("files in", target)
        print("command: python3 -m interpreter.cli", " ".join(repr(a.replace("{dir}", str(target)))
                                                             for a in case["argv"]))
    result = run_case(case, target)
    print(json.dumps(result, indent=2, default=repr))
    return 1 if result["problems"] else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--case"]:
        sys.exit(one(sys.argv[2], sys.argv[4] if sys.argv[3:4] == ["--dir"] else None))
    sys.exit(batch(sys.argv[1], int(sys.argv[2])))
