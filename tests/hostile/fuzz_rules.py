"""A fuzzer aimed at the rule compiler, the integer-action API and saves (run by hand, not by CI).

    python3 tests/hostile/fuzz_rules.py [--cases N] [--seed S] [--only KIND]

Each case runs in a forked child (1.5 GiB address space, 10 s): a mutated definition is
validated, loaded, played a little (with random calls of the integer-action API), printed by
``debug --code``, saved and resumed.  The parent flags an exit by a signal, a hang, a Python
traceback, a message that names no file, a refused call that changed the state, a save that
does not resume.  Failing cases are written to ``/tmp/ribbit-fuzz/<id>/``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import resource
import signal
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from interpreter import RibbitError, State, load_game  # noqa: E402
from interpreter import cli  # noqa: E402
from tests.hostile import cases as C  # noqa: E402

DEF = ROOT / "definitions"
PYTHON_ERROR = re.compile(r"\b(Traceback|[A-Z][A-Za-z]*(Error|Exception)\b(?<!RibbitError)(?<!RuleError)|"
                          r"Stop(Async)?Iteration)")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
GENERATED_NAMES = ["e", "s", "K", "fr", "pc", "t0", "t1", "v0", "__class__", "__import__", "__builtins__", "self",
                   "state", "game", "None", "True", "lambda", "print", "len", "range", "x_", "_", "R", "G", "rt",
                   "OPT", "env", "frames", "ret", "it", "n", "i", "j", "yield", "await", "async", "match", "case",
                   "type", "object", "__dict__", "__init__", "__getattr__", "mro", "__subclasses__"]
HOSTILE_STRINGS = ['"\\x1b[2J"', '"\u202egnirts"', '"{{"', '"}}"', '"{e}"', '"{K}"', '"\\""', '"\'\'\'"',
                   '"\\\\"', '"a\\nb"', '"{__class__}"', '"%s"', '"{0}"', '"\\u0000"', '"x" * 100']
HOSTILE_NUMBERS = ["999999999999999999", "-999999999999999999", "1000000000000000000", "0", "-1",
                   "999999999999999999 * 999999999999999999", "999999999999999999 + 1", "2 ** 62",
                   "0 - 999999999999999999 - 999999999999999999", "100000 // 0", "7 % 0", "10 ** 18"]
IDENT = re.compile(r"\b[a-z_][a-z_0-9]*\b")
NUMBER = re.compile(r"\b\d+\b")
STRING = re.compile(r'"[^"\n]*"')


def shipped():
    out = []
    for game in sorted(DEF.glob("*.yaml")):
        out.append((game, None))
        for variant in sorted((DEF / "variants" / game.stem).glob("*.yaml")) if (DEF / "variants" / game.stem).is_dir() else []:
            out.append((game, variant))
    return out


def code_paths(data, path=()):
    for p, v in C.walk(data):
        if isinstance(v, str) and (C.looks_like_code(p, v) or "\n" in v.strip()):
            yield p, v


def mutate_code(rng: random.Random, text: str) -> tuple[str, str]:
    op = rng.choice(["rename", "string", "number", "nest_parens", "nest_blocks", "recurse", "wide", "dup_line",
                     "swap_lines", "list_bomb", "each_bomb", "long_chain", "unicode_name", "keyword"])
    lines = text.split("\n")
    if op == "rename":
        names = sorted(set(IDENT.findall(text)))
        if names:
            old, new = rng.choice(names), rng.choice(GENERATED_NAMES)
            return f"rename {old} -> {new}", re.sub(rf"\b{re.escape(old)}\b", new, text)
    if op == "string":
        spots = list(STRING.finditer(text))
        new = rng.choice(HOSTILE_STRINGS)
        if spots:
            m = rng.choice(spots)
            return f"string {m.group(0)} -> {new}", text[:m.start()] + new + text[m.end():]
    if op == "number":
        spots = list(NUMBER.finditer(text))
        new = rng.choice(HOSTILE_NUMBERS)
        if spots:
            m = rng.choice(spots)
            return f"number {m.group(0)} -> {new}", text[:m.start()] + "(" + new + ")" + text[m.end():]
    if op == "nest_parens":
        spots = list(NUMBER.finditer(text)) or list(IDENT.finditer(text))
        depth = rng.choice([50, 150, 199, 200, 201, 400, 3000])
        if spots:
            m = rng.choice(spots)
            wrap = rng.choice(["(", "-(", "not (", "[", "size(["])
            close = {"(": ")", "-(": ")", "not (": ")", "[": "]", "size([": "])"}[wrap]
            return f"nest {wrap} x{depth}", text[:m.start()] + wrap * depth + m.group(0) + close * depth + text[m.end():]
    if op == "nest_blocks" and len(lines) > 0:
        depth = rng.choice([20, 60, 100, 300])
        i = rng.randrange(len(lines))
        indent = len(lines[i]) - len(lines[i].lstrip())
        block = []
        for d in range(depth):
            block.append(" " * (indent + 2 * d) + rng.choice(["if true:", "repeat 1 times:", "for q in players:"]))
        block.append(" " * (indent + 2 * depth) + (lines[i].strip() or "pass"))
        return f"nest blocks x{depth}", "\n".join(lines[:i] + block + lines[i + 1:])
    if op == "wide":
        n = rng.choice([1000, 5000, 20000])
        return f"wide + x{n}", text + "\n" + "let zz = " + " + ".join(["1"] * n) if "\n" in text else \
            "(" + text + ")" + " + 0" * n
    if op == "dup_line" and lines:
        i = rng.randrange(len(lines))
        return f"dup line {i} x200", "\n".join(lines[:i] + [lines[i]] * 200 + lines[i + 1:])
    if op == "swap_lines" and len(lines) > 1:
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return f"swap lines {i}", "\n".join(lines)
    if op == "list_bomb":
        return "list bomb", text + "\nlet big = range(999999999999999999)" if "\n" in text else \
            "size(range(999999999999999999)) + " + text
    if op == "each_bomb":
        return "each bomb", "sum(each a in range(100000) where sum(each b in range(100000) where true) > 0) + (" + text + ")" \
            if "\n" not in text else text + "\nfor a in range(100000):\n  for b in range(100000):\n    pass"
    if op == "long_chain":
        n = rng.choice([500, 5000])
        return f"and chain x{n}", "(" + " and ".join(["true"] * n) + ") and (" + text + ")" if "\n" not in text \
            else text + "\nif " + " or ".join(["false"] * n) + ":\n  pass"
    if op == "unicode_name":
        names = sorted(set(IDENT.findall(text)))
        if names:
            old = rng.choice(names)
            new = rng.choice(["é", "ℌ", "ﬁ", "K\u200b", "a\u202eb", "ǅ", "Ⅸ"])
            return f"rename {old} -> {new!r}", re.sub(rf"\b{re.escape(old)}\b", old + new, text, count=1)
    if op == "keyword":
        names = sorted(set(IDENT.findall(text)))
        if names:
            old = rng.choice(names)
            return f"rename {old} -> keyword", re.sub(rf"\b{re.escape(old)}\b", rng.choice(
                ["if", "for", "each", "ask", "let", "return", "move", "true", "null", "and", "not", "game",
                 "player", "players", "card", "emit", "log"]), text)
    return "identity", text


def mutate_structure(rng: random.Random, data) -> str:
    op = rng.choice(["dup_proc", "recurse_proc", "recurse_fn", "proc_named", "param_named", "many_procs",
                     "choose_many", "var_named", "zone_named", "card_named", "structural"])
    home = data.get("add", data) if isinstance(data, dict) and "variant" in data else data
    home = home if isinstance(home, dict) else {}
    procs, funcs = home.get("procedures"), home.get("functions")
    if op == "dup_proc" and isinstance(procs, dict) and procs:
        name = rng.choice(sorted(procs))
        base = name.split("(")[0]
        procs[base + "(player p, card c)" if "(" not in name else base + "()"] = procs[name]
        return f"duplicate procedure {base}"
    if op == "recurse_proc" and isinstance(procs, dict) and procs:
        name = rng.choice(sorted(procs))
        base, args = name.split("(")[0], name[name.index("(") + 1:-1] if "(" in name else ""
        call_args = ", ".join(a.split()[-1] for a in args.split(",") if a.strip())
        procs[name] = f"{base}({call_args})\n" + str(procs[name])
        return f"procedure {base} calls itself first"
    if op == "recurse_fn" and isinstance(funcs, dict) and funcs:
        name = rng.choice(sorted(funcs))
        base, args = name.split("(")[0], name[name.index("(") + 1:-1] if "(" in name else ""
        call_args = ", ".join(a.split()[-1] for a in args.split(",") if a.strip())
        funcs[name] = f"{base}({call_args})"
        return f"function {base} is itself"
    if op == "proc_named" and isinstance(procs, dict):
        new = rng.choice(GENERATED_NAMES)
        procs[f"{new}()"] = "pass"
        return f"procedure named {new}"
    if op == "param_named" and isinstance(procs, dict) and procs:
        name = rng.choice(sorted(k for k in procs if "(" in k and not k.endswith("()")) or sorted(procs))
        if "(" in name and not name.endswith("()"):
            args = name[name.index("(") + 1:-1].split(",")
            k = rng.randrange(len(args))
            old = args[k].split()[-1]
            new = rng.choice(GENERATED_NAMES)
            args[k] = args[k].rsplit(old, 1)[0] + new
            body = re.sub(rf"\b{re.escape(old)}\b", new, str(procs.pop(name)))
            procs[name.split("(")[0] + "(" + ",".join(args) + ")"] = body
            return f"parameter {old} -> {new}"
    if op == "many_procs" and isinstance(data, dict):
        n = rng.choice([300, 3000])
        data.setdefault("procedures", {})
        if isinstance(data["procedures"], dict):
            for i in range(n):
                data["procedures"][f"p{i}()"] = f"p{i + 1}()" if i + 1 < n else "pass"
            return f"{n} procedures in a chain"
    if op == "choose_many" and isinstance(procs, dict) and procs:
        name = rng.choice(sorted(procs))
        body = str(procs[name])
        k = rng.choice([2, 5, 12, 30, 100])
        procs[name] = (f"ask current_player to choose {k} of each c in cards where true:\n  \"take {{c}}\":\n"
                       f"    pass\n" + body)
        return f"choose {k} of all cards"
    if op == "var_named" and isinstance(data, dict) and isinstance(data.get("game_variables"), dict):
        new = rng.choice(GENERATED_NAMES)
        data["game_variables"][new] = 0
        return f"game variable {new}"
    if op == "zone_named" and isinstance(data, dict) and isinstance(data.get("zones"), dict) and data["zones"]:
        old = rng.choice(sorted(data["zones"]))
        new = rng.choice(GENERATED_NAMES)
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10 ** 6)
        text = re.sub(rf"\b{re.escape(old)}\b", new, text)
        data.clear()
        data.update(yaml.safe_load(text))
        return f"zone {old} -> {new}"
    if op == "card_named" and isinstance(data, dict):
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10 ** 6)
        new = rng.choice(["{e}", "{K}", "\u202e", "x\x1b[2J", "{{", "%s", "__class__"])
        text = text.replace("name: ", "name: " + json.dumps(new)[1:-1], 1)
        try:
            data.clear()
            data.update(yaml.safe_load(text))
        except yaml.YAMLError:
            pass
        return f"card name gets {new!r}"
    about, new = C.mutate_structure(rng, data)
    data.clear()
    data.update(new)
    return f"structural {about}"


def make_case(seed: int) -> dict:
    rng = random.Random(f"fuzz:{seed}")
    game, variant = rng.choice(shipped())
    target = variant or game
    data = yaml.safe_load(target.read_text(encoding="utf-8"))
    did = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if rng.random() < 0.6:
            spots = list(code_paths(data))
            if spots:
                path, text = rng.choice(spots)
                about, new = mutate_code(rng, text)
                C.put(data, path, new)
                did.append(f"{'/'.join(map(str, path))}: {about}")
                continue
        try:
            did.append(mutate_structure(rng, data))
        except (IndexError, ValueError, KeyError, AttributeError, TypeError, yaml.YAMLError):
            did.append("(no structural mutation fits)")
    raw = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10 ** 6).encode("utf-8")
    return {"seed": seed, "game": str(game), "variant": str(variant) if variant else None, "did": did, "raw": raw}


# ---------------------------------------------------------------- the child
def check_message(text: str, names, problems, what):
    if PYTHON_ERROR.search(text):
        problems.append(f"{what}: a Python error shows: {PYTHON_ERROR.search(text).group(0)}")
    if names and not any(n in text for n in names):
        problems.append(f"{what}: the message names none of {names}")
    if CONTROL.search(text):
        problems.append(f"{what}: control character {CONTROL.search(text).group(0)!r}")


def run_cli(argv, names, problems, what):
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(argv)
    except SystemExit as exc:
        status = exc.code
    except BaseException as exc:  # noqa: BLE001
        problems.append(f"{what}: {type(exc).__name__} escaped: {str(exc)[:300]}")
        return None, ""
    if status not in (0, 2):
        problems.append(f"{what}: exit status {status}")
    if status == 2:
        check_message(err.getvalue(), names, problems, what)
    if "Traceback" in err.getvalue():
        problems.append(f"{what}: traceback on stderr")
    bad = CONTROL.search(out.getvalue().replace("\n", "").replace("\t", ""))
    if bad:
        problems.append(f"{what}: control character {bad.group(0)!r} on stdout")
    return status, err.getvalue()


class Odd:
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0

    def __index__(self):
        return 0


ODD_PLAYERS = [True, False, -1, 99, 2 ** 70, None, "0", 0.0, Odd()]
ODD_IDS = [True, False, -1, 10 ** 6, 2 ** 70, -(2 ** 70), None, "0", 0.0, Odd(), 1.5, [0]]


def refused(state, call, what, problems):
    before = json.dumps(state.to_json(), sort_keys=True, default=repr)
    try:
        result = call()
    except RibbitError as exc:
        check_message(str(exc), [], problems, what)
        if json.dumps(state.to_json(), sort_keys=True, default=repr) != before:
            problems.append(f"{what}: refused but the state changed")
        return
    except BaseException as exc:  # noqa: BLE001
        problems.append(f"{what}: {type(exc).__name__}: {str(exc)[:200]}")
        return
    if json.dumps(state.to_json(), sort_keys=True, default=repr) != before and not what.startswith("ok"):
        problems.append(f"{what}: accepted ({result!r:.60}) and changed the state")


def fuzz_api(state, rng, problems):
    for _ in range(6):
        kind = rng.choice(["ids", "sample", "apply_id", "to_string", "apply"])
        p = rng.choice(ODD_PLAYERS + list(range(state.n)))
        a = rng.choice(ODD_IDS)
        if kind == "ids":
            try:
                r = state.legal_action_ids(p)
                if type(p) is not int and p is not None:
                    problems.append(f"legal_action_ids({p!r}) accepted")
                elif type(r) is not range:
                    problems.append("legal_action_ids returned a non-range")
            except RibbitError:
                pass
            except BaseException as exc:  # noqa: BLE001
                problems.append(f"legal_action_ids({p!r}): {type(exc).__name__}: {exc}")
        elif kind == "sample":
            try:
                k = state.sample_action_id(p, random.Random(1))
                if (p is not None and type(p) is not int) or k not in state.legal_action_ids(p):
                    problems.append(f"sample_action_id({p!r}) gave {k!r}")
            except RibbitError:
                pass
            except BaseException as exc:  # noqa: BLE001
                problems.append(f"sample_action_id({p!r}): {type(exc).__name__}: {exc}")
        elif kind == "apply_id":
            refused(state, lambda: state.apply_id(p, a), f"apply_id({p!r}, {a!r})", problems)
        elif kind == "to_string":
            refused(state, lambda: state.action_to_string(p, a), f"action_to_string({p!r}, {a!r})", problems)
        else:
            refused(state, lambda: state.apply(p, rng.choice(["", "x" * 100000, "\x00", str(a)])),
                    f"apply({p!r}, odd)", problems)


def play(game, players, seed, problems, names, moves=60):
    rng = random.Random(seed)
    try:
        state = game.new_game(players, seed=seed)
    except RibbitError as exc:
        check_message(str(exc), names, problems, "new_game")
        return None
    except BaseException as exc:  # noqa: BLE001
        problems.append(f"new_game: {type(exc).__name__}: {str(exc)[:300]}")
        return None
    for _ in range(moves):
        if state.is_terminal():
            fuzz_api(state, rng, problems)
            break
        fuzz_api(state, rng, problems)
        p = state.current_players()[0]
        ids = state.legal_action_ids(p)
        try:
            label = state.action_to_string(p, ids[-1])
            if label != state.legal_actions(p)[-1]:
                problems.append("action_to_string differs from legal_actions")
            k = state.sample_action_id(p, rng)
            state.apply_id(p, k)
        except RibbitError as exc:
            check_message(str(exc), names, problems, "apply_id")
            break
        except BaseException as exc:  # noqa: BLE001
            problems.append(f"playing: {type(exc).__name__}: {str(exc)[:300]}\n{traceback.format_exc()[-1500:]}")
            return None
    try:
        data = json.loads(json.dumps(state.to_json()))
        again = State.from_json(game, data)
        if again.to_json() != state.to_json():
            problems.append("a save does not resume as itself")
        for n in range(players):  # (exact text, as JSON: the terminal shows it through render.SafeConsole)
            state.narration(n)
    except RibbitError as exc:
        problems.append(f"a save of a playable game was refused: {str(exc)[:300]}")
    except BaseException as exc:  # noqa: BLE001
        problems.append(f"save/resume: {type(exc).__name__}: {str(exc)[:300]}")
    return state


def child(case: dict, folder: Path) -> dict:
    problems = []
    game, variant = Path(case["game"]), Path(case["variant"]) if case["variant"] else None
    files = C.layout_files(game, variant, case["raw"])
    for rel, raw in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(raw)
    gpath = folder / "definitions" / game.name
    vargs = ["--variant", str(folder / "definitions" / "variants" / game.stem / variant.name)] if variant else []
    names = sorted({Path(rel).name for rel in files})  # a variant's rule may fail in the game's text, or one it extends
    status, err = run_cli(["validate", str(gpath)] + vargs, names, problems, "validate")
    if status != 0:
        return {"problems": problems, "status": status, "err": err[-1500:]}
    run_cli(["debug", "--code", str(gpath)] + vargs, names, problems, "debug --code")
    try:
        g = load_game(str(gpath), variants=[str(folder / "definitions" / "variants" / game.stem / variant.name)]
                      if variant else [])
    except RibbitError as exc:
        problems.append(f"validate passed but load_game refused: {str(exc)[:200]}")
        return {"problems": problems, "status": "load"}
    except BaseException as exc:  # noqa: BLE001
        problems.append(f"load_game: {type(exc).__name__}: {str(exc)[:300]}")
        return {"problems": problems, "status": "load"}
    for players in sorted({g.min_players, g.max_players}):
        play(g, players, case["seed"], problems, names)
    run_cli(["simulate", str(gpath)] + vargs + ["--players", str(g.min_players), "--games", "2", "--seed", "1"], names, problems, "simulate")
    return {"problems": problems, "status": 0}


def run_one(case: dict, base: Path, seconds: float) -> dict:
    folder = base / f"case{case['seed']}"
    folder.mkdir(parents=True, exist_ok=True)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))
            signal.alarm(int(seconds))
            result = child(case, folder)
        except MemoryError:
            result = {"problems": ["MemoryError"], "status": "memory"}
        except BaseException as exc:  # noqa: BLE001
            result = {"problems": [f"harness: {type(exc).__name__}: {exc}\n{traceback.format_exc()[-1500:]}"],
                      "status": "harness"}
        with os.fdopen(w, "w") as f:
            f.write(json.dumps(result, default=repr))
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        text = f.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return {"problems": ["hang (more than %gs)" % seconds if sig == signal.SIGALRM else f"killed by signal {sig}"],
                "status": "signal"}
    try:
        return json.loads(text)
    except ValueError:
        return {"problems": [f"child died without a result ({status})"], "status": "died"}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--out", default="/tmp/ribbit-fuzz")
    args = ap.parse_args()
    base = Path(args.out)
    base.mkdir(parents=True, exist_ok=True)
    bad = 0
    counts = {}
    for i in range(args.seed, args.seed + args.cases):
        case = make_case(i)
        result = run_one(case, base, args.seconds)
        counts[result.get("status")] = counts.get(result.get("status"), 0) + 1
        if result["problems"]:
            bad += 1
            print(json.dumps({"seed": i, "file": case["variant"] or case["game"], "did": case["did"],
                              "problems": result["problems"][:3]}, default=repr)[:3000], flush=True)
        else:
            import shutil
            shutil.rmtree(base / f"case{i}", ignore_errors=True)
    print(f"{args.cases} cases, {bad} with problems; statuses {counts}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
