"""A seeded generator of hostile inputs for Ribbit: every case is plain data, the same on every run.

Each case has a stable id that does not depend on how many cases are drawn (case ``i`` of a family
is drawn from ``random.Random(f"{family}:{i}")``), so a failure seen in a large local run can be
re-run alone: ``python3 tests/hostile/worker.py --case ID``.

A case is a dict:

* ``kind``: ``cli`` (run ``interpreter.cli.main(argv)``), ``save`` (tamper with a save, load it back)
  or ``api`` (misuse the Python API);
* ``files``: ``{relative path: bytes}`` written into the case's own folder; ``{dir}`` in ``argv`` is
  that folder;
* ``names``: on exit status 2 the message must contain one of these (the file's name, or the option);
* ``guard``: files that must be unchanged afterwards (outputs pointed at inputs);
* ``stdin``: text typed at the terminal (``None``: nothing, then end of input; ``"<closed>"``: no stdin).
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEFINITIONS = ROOT / "definitions"

# Per-family case counts of the default CI run (about 400 cases); RIBBIT_HOSTILE_CASES scales them.
DEFAULT_COUNTS = {"mutant": 16, "text": 8, "save": 14}
DEFAULT_TOTAL = 400


# ---------------------------------------------------------------- shipped definitions
def shipped():
    """(label, game file, variant file or None, players) for every shipped definition and variant."""
    games = {"frog_tower": 3, "kaeru": 2}
    out = []
    for stem, players in games.items():
        out.append((stem, DEFINITIONS / f"{stem}.yaml", None, players))
        for variant in sorted((DEFINITIONS / "variants" / stem).glob("*.yaml")):
            out.append((f"{stem}.{variant.stem}", DEFINITIONS / f"{stem}.yaml", variant, players))
    return out


def layout_files(game: Path, variant: Path | None, mutated: bytes | None = None) -> dict:
    """The game and all its variants under ``definitions/`` as in the repository, one file replaced."""
    files = {f"definitions/{game.name}": game.read_bytes()}
    for other in sorted((DEFINITIONS / "variants" / game.stem).glob("*.yaml")):
        files[f"definitions/variants/{game.stem}/{other.name}"] = other.read_bytes()
    if mutated is not None:
        target = game if variant is None else variant
        key = f"definitions/{game.name}" if variant is None else f"definitions/variants/{game.stem}/{variant.name}"
        assert target.exists()
        files[key] = mutated
    return files


def target_path(game: Path, variant: Path | None) -> str:
    if variant is None:
        return f"{{dir}}/definitions/{game.name}"
    return f"{{dir}}/definitions/variants/{game.stem}/{variant.name}"


# ---------------------------------------------------------------- YAML dumping
class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper, value):
    block = "\n" in value and all(ch == "\n" or ch.isprintable() for ch in value) \
        and not any(line.endswith(" ") for line in value.split("\n"))
    style = "|" if block else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def dump(data) -> bytes:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100000).encode("utf-8")


# ---------------------------------------------------------------- mutating effect text
HUGE_NUMBERS = ["9" * 5000, "1" + "0" * 40, "99999999999999999999", "-" + "9" * 30, "1e308", "0x10", "1_000"]
OPERATORS = ["+", "-", "*", "//", "%", "==", "!=", "<", ">=", "and", "or", "not", "in", "not in", "(", ")", "[",
             "]", ":", ",", ".", "=", "+=", "each", "where", "if", "else", "none", '"', "{", "}", "\\", "#", ";"]
UNKNOWN = ["hodling", "__import__", "__class__", "os", "eval", "exec", "self", "state", "lambda", "None", "True",
           "import", "print", "open", "globals", "_", "game.__dict__", "p.__class__"]
RUNAWAY_STATEMENTS = {
    "while_true": "while true:\n  pass\n",
    "loop_forever": "loop:\n  pass\n",
    "repeat_billion": "repeat 1000000000 times:\n  pass\n",
    "for_range_billion": "for hostile_i in range(1000000000):\n  pass\n",
    "list_doubling": "let hostile_l = [1]\nloop:\n  hostile_l = hostile_l + hostile_l\n",
    "int_squaring": "let hostile_n = 2\nloop:\n  hostile_n = hostile_n * hostile_n\n",
    "recursion": "hostile_spin()\n",
}
TOKEN = re.compile(r'"[^"\n]*"|\d+|\w+|==|!=|<=|>=|\+=|-=|//|\S')


def mutate_code(rng: random.Random, text: str) -> tuple[str, str]:
    """One mutation of an effect or expression: (operation, new text)."""
    tokens = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
    op = rng.choice(["swap", "truncate", "operator", "unknown", "huge", "parens", "delete", "duplicate",
                     "statement", "statement", "statement"])
    if not tokens:
        op = "operator"
    if op == "swap" and len(tokens) >= 2:
        (a0, a1), (b0, b1) = sorted(rng.sample(tokens, 2))
        return op, text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]
    if op == "truncate":
        return op, text[:rng.randrange(len(text) + 1)]
    if op == "unknown":
        s, e = rng.choice(tokens)
        return op, text[:s] + rng.choice(UNKNOWN) + text[e:]
    if op == "huge":
        numbers = [(s, e) for s, e in tokens if text[s:e].isdigit()] or tokens
        s, e = rng.choice(numbers)
        return op, text[:s] + rng.choice(HUGE_NUMBERS) + text[e:]
    if op == "parens":
        s, e = rng.choice(tokens)
        depth = rng.choice([100, 1000, 5000])
        return op, text[:s] + "(" * depth + text[s:e] + ")" * depth + text[e:]
    if op == "delete":
        s, e = rng.choice(tokens)
        return op, text[:s] + text[e:]
    if op == "duplicate":
        s, e = rng.choice(tokens)
        return op, text[:e] + " " + text[s:e] + text[e:]
    if op == "statement":
        name = rng.choice(sorted(RUNAWAY_STATEMENTS))
        return name, RUNAWAY_STATEMENTS[name] + text
    at = rng.randrange(len(text) + 1)
    return op, text[:at] + " " + rng.choice(OPERATORS) + " " + text[at:]


# ---------------------------------------------------------------- structured mutations of a definition
ODD_VALUES = [None, 0, -1, 2 ** 70, 10 ** 400, 1.5, float("inf"), float("nan"), True, "", "x", "none", [], {},
              [[[]]], {"a": {"b": None}}, ["x"] * 3, "\x1b[2J\x1b[31mred", "😀" * 10, "a" * 5000]


def walk(data, path=()):
    """Every (path, value) in a YAML tree, the root included."""
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from walk(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from walk(v, path + (i,))


def get(data, path):
    for k in path:
        data = data[k]
    return data


def put(data, path, value):
    get(data, path[:-1])[path[-1]] = value


def looks_like_code(path, value) -> bool:
    if not isinstance(value, str) or not path:
        return False
    top = path[0]
    inner = path[1] if len(path) > 1 and top in ("add", "replace") else None
    section = inner if inner is not None else top
    last = path[-1]
    return section in ("procedures", "functions", "setup", "flow", "scoring", "triggers", "quantities") \
        or (isinstance(last, str) and (last.startswith("when_") or last in ("do", "if", "until", "first")))


def mutate_structure(rng: random.Random, data) -> tuple[str, object]:
    """One structured mutation of a parsed definition or variant: (operation, new data)."""
    data = copy.deepcopy(data)
    nodes = list(walk(data))
    op = rng.choice(["delete_key", "retype", "code", "code", "code", "rename_key", "empty", "procedure_call"])
    if op == "delete_key":
        maps = [(p, v) for p, v in nodes if isinstance(v, dict) and v]
        path, node = rng.choice(maps)
        del node[rng.choice(list(node))]
        return op, data
    if op == "retype":
        path, _ = rng.choice([(p, v) for p, v in nodes if p])
        put(data, path, copy.deepcopy(rng.choice(ODD_VALUES)))
        return op, data
    if op in ("code", "procedure_call"):
        code = [(p, v) for p, v in nodes if looks_like_code(p, v)] or [(p, v) for p, v in nodes
                                                                      if isinstance(v, str) and p]
        path, text = rng.choice(code)
        if op == "procedure_call":
            sub, text2 = "recursion", RUNAWAY_STATEMENTS["recursion"] + text
        else:
            sub, text2 = mutate_code(rng, text)
        put(data, path, text2)
        if sub == "recursion" or "hostile_spin" in text2:
            procedures = data.setdefault("add", {}).setdefault("procedures", {}) if "variant" in data \
                else data.setdefault("procedures", {})
            if isinstance(procedures, dict):
                procedures["hostile_spin()"] = "hostile_spin()\n"
        return f"{op}_{sub}", data
    if op == "rename_key":
        keyed = [(p, v) for p, v in nodes if p and isinstance(p[-1], str)]
        path, value = rng.choice(keyed)
        parent = get(data, path[:-1])
        _, new_key = mutate_code(rng, path[-1])
        items = [(new_key if k == path[-1] else k, v) for k, v in parent.items()]
        parent.clear()
        parent.update(items)
        return op, data
    # empty: a list or mapping emptied
    containers = [(p, v) for p, v in nodes if p and isinstance(v, (dict, list)) and v]
    path, node = rng.choice(containers)
    node.clear()
    return op, data


# ---------------------------------------------------------------- textual mutations of a YAML file
def mutate_text(rng: random.Random, raw: bytes) -> tuple[str, bytes]:
    text = raw.decode("utf-8")
    lines = text.splitlines(keepends=True)
    op = rng.choice(["delete_line", "duplicate_line", "swap_lines", "truncate", "insert_byte", "indent",
                     "special_char", "bom_inside", "utf16", "latin1", "tab_indent", "nul_line", "crlf_mix"])
    i = rng.randrange(len(lines))
    if op == "delete_line":
        del lines[i]
    elif op == "duplicate_line":
        lines.insert(i, lines[i])
    elif op == "swap_lines" and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif op == "truncate":
        return op, raw[:rng.randrange(len(raw))]
    elif op == "insert_byte":
        at = rng.randrange(len(raw))
        return op, raw[:at] + bytes([rng.choice([0, 1, 7, 8, 0x1b, 0x7f, 0x80, 0x9b, 0xc3, 0xff])]) + raw[at:]
    elif op == "indent":
        lines[i] = " " * rng.choice([1, 2, 3]) + lines[i]
    elif op == "special_char":
        line = lines[i]
        at = rng.randrange(len(line) + 1)
        lines[i] = line[:at] + rng.choice(list(":{}[]&*!|>'\"%@`#-?,")) + line[at:]
    elif op == "bom_inside":
        lines[i] = "\ufeff" + lines[i]
    elif op == "utf16":
        return op, text.encode("utf-16")
    elif op == "latin1":
        return op, text.replace("e", "\xe9", 3).encode("latin-1", "replace")
    elif op == "tab_indent":
        lines[i] = "\t" + lines[i].lstrip(" ")
    elif op == "nul_line":
        lines.insert(i, "\x00\n")
    elif op == "crlf_mix":
        lines[i] = lines[i].replace("\n", "\r")
    return op, "".join(lines).encode("utf-8")


# ---------------------------------------------------------------- case families
def cli_case(case_id, about, argv, files=None, names=(), guard=(), stdin=None, encoding="utf-8", forbidden=(),
             statuses=(0, 2)):
    """``statuses``: the exit statuses that are right for this case (130 where the player leaves)."""
    return {"id": case_id, "kind": "cli", "about": about, "argv": list(argv), "files": dict(files or {}),
            "names": list(names), "guard": list(guard), "stdin": stdin, "encoding": encoding,
            "forbidden": list(forbidden), "statuses": list(statuses)}


def run_args(game: Path, variant: Path | None, players: int, i: int) -> list:
    """simulate 2 games for even cases, validate for odd ones (every mutant is at least validated)."""
    target = target_path(game, variant)
    if i % 2:
        return ["validate", target]
    return ["simulate", target, "--players", str(players), "--games", "2", "--seed", str(i)]


def mutant_cases(count: int) -> list:
    out = []
    for label, game, variant, players in shipped():
        source = variant or game
        data = yaml.safe_load(source.read_text(encoding="utf-8"))
        names = [source.name] if variant is None else [source.name, game.name]
        for i in range(count):
            rng = random.Random(f"mutant:{label}:{i}")
            op, mutated = mutate_structure(rng, data)
            case_id = f"mutant-{label}-{i}-{op}"
            out.append(cli_case(case_id, f"structured mutation ({op}) of {source.name}",
                                run_args(game, variant, players, i), layout_files(game, variant, dump(mutated)),
                                names=names))
    return out


def text_cases(count: int) -> list:
    out = []
    for label, game, variant, players in shipped():
        source = variant or game
        names = [source.name] if variant is None else [source.name, game.name]
        for i in range(count):
            rng = random.Random(f"text:{label}:{i}")
            op, mutated = mutate_text(rng, source.read_bytes())
            out.append(cli_case(f"text-{label}-{i}-{op}", f"textual mutation ({op}) of {source.name}",
                                run_args(game, variant, players, i), layout_files(game, variant, mutated),
                                names=names))
    return out


def hostile_yaml() -> dict:
    """name -> bytes of a hostile YAML document."""
    bomb = ["game: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for n in range(1, 9):
        bomb.append(f"l{n}: &{chr(97 + n)} [" + ", ".join([f"*{chr(96 + n)}"] * 9) + "]")
    wide = "game: &a [" + ", ".join(["x"] * 1000) + "]\n" + \
        "".join(f"k{i}: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" for i in range(100))
    docs = {
        "python_object": b"game: !!python/object/apply:os.system ['touch PWNED']\n",
        "python_name": b"game: !!python/name:os.system\n",
        "python_module": b"game: !!python/module:os\n",
        "custom_tag": b"game: !ribbit Frog\nplayers: !!set {a, b}\n",
        "binary_tag": b"game: !!binary aGVsbG8=\n",
        "omap_tag": b"game: !!omap [a: 1, b: 2]\n",
        "alias_bomb": "\n".join(bomb).encode() + b"\n",
        "alias_wide": wide.encode(),
        "merge_bomb": b"a: &a {x: 1}\n" + b"".join(b"m%d: &m%d {<<: [*%s, *%s]}\n" % (i, i, b"a" if i == 0 else
                                                       b"m%d" % (i - 1), b"a" if i == 0 else b"m%d" % (i - 1))
                                                      for i in range(40)),
        "deep_lists": b"game: " + b"[" * 5000 + b"]" * 5000 + b"\n",
        "deep_maps": b"game: " + b"{a: " * 3000 + b"1" + b"}" * 3000 + b"\n",
        "deep_block": "".join(" " * i + f"k{i}:\n" for i in range(400)).encode(),
        "deep_flow_unclosed": b"game: " + b"[" * 100000 + b"\n",
        "huge_scalar": b"game: " + b"a" * 1_900_000 + b"\n",
        "oversize": b"game: x\n# " + b"x" * 2_100_000 + b"\n",
        "many_keys": b"".join(b"k%d: %d\n" % (i, i) for i in range(150000)),
        "long_key": b"? " + b"k" * 500000 + b"\n: 1\n",
        "duplicate_keys": b"game: A\ngame: B\nplayers: {min: 2, max: 2}\nplayers: {min: 3, max: 3}\n",
        "latin1": "game: Fr\xf6g\n".encode("latin-1"),
        "invalid_utf8": b"game: \xff\xfe\xfd\n",
        "nul_bytes": b"game: Frog\x00 Tower\nplayers: {min: 2, max: 2}\n",
        "bom": "\ufeffgame: Frog\n".encode("utf-8"),
        "bom_twice": "\ufeff\ufeffgame: Frog\n".encode("utf-8"),
        "utf16": "game: Frog\n".encode("utf-16"),
        "utf32": "game: Frog\n".encode("utf-32"),
        "tabs": b"game: Frog\nplayers:\n\tmin: 2\n\tmax: 2\n",
        "control_in_key": b"\"ga\\x1bme\\x07\": Frog\n\"\\x1b[2J\": 1\n",
        "escape_in_value": b"game: \"\\x1b]0;pwned\\x07\\x1b[2J\"\n",
        "empty": b"",
        "only_comment": b"# nothing\n",
        "null_document": b"null\n",
        "scalar_document": b"42\n",
        "list_document": b"- game\n- Frog\n",
        "many_documents": b"game: A\n---\ngame: B\n---\n" * 100,
        "binary_junk": bytes(random.Random("junk").randrange(256) for _ in range(4096)),
        "png_header": b"\x89PNG\r\n\x1a\n" + b"\x00" * 100,
        "unclosed_quote": b"game: \"Frog\nplayers: {min: 2, max: 2}\n" + b"x: y\n" * 10000,
        "huge_int": b"game: Frog\nplayers: {min: 2, max: " + b"9" * 100000 + b"}\n",
        "huge_float": b"game: Frog\nplayers: {min: 2, max: 1e999}\n",
        "nan_players": b"game: Frog\nplayers: {min: .nan, max: .inf}\n",
        "timestamp": b"game: 2001-12-14t21:59:43.10-05:00\nplayers: {min: 2, max: 2}\n",
        "non_string_keys": b"? [a, b]\n: 1\n1: 2\nnull: 3\ngame: Frog\n",
        "anchor_cycle": b"a: &a [*a]\n",
        "directive": b"%YAML 1.1\n%TAG ! tag:evil.example,2000:\n---\ngame: !x Frog\n",
        "long_line": b"game: " + b"x " * 900000 + b"\n",
    }
    return docs


def yaml_cases() -> list:
    out = []
    for name, raw in hostile_yaml().items():
        for command in (["validate"], ["simulate", "--players", "2", "--games", "2"]) if name in (
                "escape_in_value", "control_in_key", "bom", "duplicate_keys") else (["validate"],):
            files = {"hostile.yaml": raw}
            argv = [command[0], "{dir}/hostile.yaml"] + command[1:]
            out.append(cli_case(f"yaml-{name}-{command[0]}", f"hostile YAML: {name}", argv, files,
                                names=["hostile.yaml"]))
        # the same document as a variant of a shipped game, and as a variant NAME on the command line
        game = DEFINITIONS / "frog_tower.yaml"
        files = layout_files(game, None)
        files["definitions/variants/frog_tower/hostile.yaml"] = raw
        out.append(cli_case(f"yaml-{name}-as-variant", f"hostile YAML as a variant: {name}",
                            ["validate", "{dir}/definitions/frog_tower.yaml", "--variant", "hostile"], files,
                            names=["hostile.yaml"]))
    return out


# Test-only game: each player plays one of two cards per turn (a real decision); 30 distinct chips wait in a deck.  {SETUP} and {TURN} receive the hostile rule.
MINI = """\
game: Runaway {NAME}
players: {{min: 2, max: 2}}
properties:
  value: 0
components:
  - {{name: low, value: 1, zone: hand, per_player: true}}
  - {{name: high, value: 3, zone: hand, per_player: true}}
{CHIPS}
zones:
  deck: {{visibility: hidden}}
  hand: {{per: player, visibility: owner}}
  pile: {{visibility: public}}
player_variables:
  points: 0
events:
  ping: {{player: player}}
  pong: {{player: player}}
{EXTRA}
procedures:
  spin(): |
    spin()
  take_turn(player p): |
    ask p to choose one of hand(p) as card "play"
    move card to pile
{TURN}
    p.points += card.value
setup: |
  shuffle deck
{SETUP}
flow:
  - turn: take_turn
    until: size(hand(seat(2))) == 0
scoring:
  score: p.points
"""

CHIPS = "\n".join(f"  - {{name: chip {i}, value: {i}, zone: deck}}" for i in range(1, 31))

PING_PONG = """\
triggers:
  - on: ping
    do: emit pong(player=player)
  - on: pong
    do: emit ping(player=player)
"""

RUNAWAY_RULES = {
    **{k: v for k, v in RUNAWAY_STATEMENTS.items() if k != "recursion"},
    "recursion": "spin()\n",
    "ping_pong_events": "emit ping(player=seat(1))\n",
    "int_tower": "let n = 2\nrepeat 64 times:\n  n = n * n\n",
    "power_literal": "let n = 99999999999999999999 * 99999999999999999999 * 99999999999999999999\n"
                     "repeat 40 times:\n  n = n * n * n\n",
    "huge_range_list": "let l = range(1000000000)\n",
    "range_count": "let n = count(range(100000000))\n",
    "nested_repeat": "repeat 100000 times:\n  repeat 100000 times:\n    pass\n",
    "log_forever": "loop:\n  log \"again\"\n",
    "log_growth": "let s = [\"ab\"]\nloop:\n  s = s + s\n  log \"{s}\"\n",
    "choose_combinations": "ask seat(1) to choose 12 of deck as chosen \"pick\"\n",
    "choose_any_number": "ask seat(1) to choose any number of deck as chosen \"pick\"\n",
    "ask_each_duplicates": "ask each q in [seat(1), seat(1)] secretly to choose one of hand(q) as pick \"pick\"\n",
    "none_less_than_int": "if first(each c in pile: c.value) < 3:\n  pass\n",
    "top_too_few": "move top(pile, 100) to deck\n",
    "top_negative": "move top(deck, -1) to pile\n",
    "divide_by_zero": "let z = 0\nlet x = 1 // z\n",
    "modulo_zero": "let z = 0\nlet x = 1 % z\n",
    "index_out_of_range": "let x = [1, 2, 3][10]\n",
    "seat_zero": "let q = seat(0)\nq.points += 1\n",
    "seat_huge": "let q = seat(1000000)\nq.points += 1\n",
    "next_player_huge": "let q = next_player(seat(1), 1000000000000)\nq.points += 1\n",
    "repeat_negative": "repeat -5 times:\n  pass\n",
    "range_negative": "for i in range(-5):\n  pass\n",
    "first_of_empty": "move first(each c in pile: c) to deck\n",
    "move_none": "move top(pile) to deck\n",
    "random_empty": "move random(pile) to deck\n",
    "interpolation_100k": "log \"" + "{player_count}" * 100000 + "\"\n",
}


def indent(text: str, by: int) -> str:
    return "".join(" " * by + line if line.strip() else line for line in text.splitlines(keepends=True))


def runaway_cases() -> list:
    out = []
    for name, rule in RUNAWAY_RULES.items():
        extra = PING_PONG if name == "ping_pong_events" else ""
        where_rules = {"setup": (indent(rule, 2), ""), "turn": ("", indent(rule, 4))}
        for where, (setup, turn) in where_rules.items():
            text = MINI.format(NAME=name, EXTRA=extra, SETUP=setup, TURN=turn, CHIPS=CHIPS)
            files = {"runaway.yaml": text.encode()}
            if where == "setup":
                argv = ["simulate", "{dir}/runaway.yaml", "--players", "2", "--games", "2"]
            else:
                argv = ["play", "{dir}/runaway.yaml", "--players", "2", "--seed", "1", "--log", "-"]
            out.append(cli_case(f"runaway-{name}-{where}", f"a rule in {where} that {name.replace('_', ' ')}",
                                argv, files, names=["runaway.yaml"]))
    return out


ESC = "\x1b]0;owned\x07\x1b[2J\x1b[31m\x9b1m\r\x08"


def escape_cases() -> list:
    """Author text carrying terminal control sequences, shown by every command."""
    base = yaml.safe_load((DEFINITIONS / "frog_tower.yaml").read_text(encoding="utf-8"))
    turn = "take_turn(player p)"

    def game_name(d):
        d["game"] += ESC

    def card_name(d):
        d["components"][0]["name"] += ESC

    def log_text(d):
        d["procedures"][turn] = d["procedures"][turn].replace("busts on {card}.", "busts" + ESC)

    def prompt(d):
        d["procedures"][turn] = d["procedures"][turn].replace('"flip another card"', '"flip' + ESC + '"')

    def description(d):
        d["description"] = ESC + d["description"]

    def zone_description(d):
        d["zones"]["holding"]["description"] += ESC

    out = []
    for change in (game_name, card_name, log_text, prompt, description, zone_description):
        data = copy.deepcopy(base)
        change(data)
        files = {"escape.yaml": dump(data)}
        for command in ("validate", "rules", "play", "simulate"):
            argv = [command, "{dir}/escape.yaml"]
            stdin = None
            if command == "play":
                argv += ["--players", "3", "--seed", "2", "--log", "-", "--human", "1"]
                stdin = "1\n" * 400
            elif command == "simulate":
                argv += ["--players", "3", "--games", "2"]
            place = change.__name__
            out.append(cli_case(f"escape-{place}-{command}", f"terminal control sequences in the {place}",
                                argv, files, names=["escape.yaml"], stdin=stdin))
    return out


def cli_abuse_cases() -> list:
    ft = "{dir}/definitions/frog_tower.yaml"
    flower = "{dir}/definitions/variants/frog_tower/flower.yaml"
    files = layout_files(DEFINITIONS / "frog_tower.yaml", None)
    c = []

    def add(name, argv, names, guard=(), stdin=None, encoding="utf-8", extra=None, forbidden=(), statuses=(0, 2)):
        f = dict(files)
        f.update(extra or {})
        c.append(cli_case(f"cli-{name}", f"command line: {name.replace('_', ' ')}", argv, f, names=names,
                          guard=guard, stdin=stdin, encoding=encoding, forbidden=forbidden, statuses=statuses))

    # references from a stranger's variant must stay inside the game's folder (and be regular files)
    secret = {"secret.yaml": b"SECRET-TOKEN: 1\n"}
    for name, target in [("relative", "../../../secret.yaml"), ("absolute", "/etc/passwd"),
                         ("proc", "/proc/self/environ"), ("fifo", "pipe")]:
        variant = (f"variant: Escape\ngame: Frog Tower\nextends: [{target!r}]\n"
                   "add:\n  game_variables:\n    escaped: true\n").replace("'", '"').encode()
        extra = {**secret, "definitions/variants/frog_tower/escape.yaml": variant,
                 "definitions/variants/frog_tower/pipe.yaml": b"@fifo"}
        add(f"extends_{name}", ["validate", ft, "--variant", "escape"], ["escape.yaml"], extra=extra,
            forbidden=["SECRET-TOKEN", "root:", "PATH="])
    add("variant_name_fifo", ["validate", ft, "--variant", "pipe"], ["pipe"],
        extra={"definitions/variants/frog_tower/pipe.yaml": b"@fifo"})

    for value in ["abc", "-1", "0", "99", "1e3", "", "3.0", "0x3", "9" * 5000, "\x1b[2J", "٣"]:
        add(f"players_{value[:8]!r}", ["simulate", ft, "--players", value, "--games", "2"], ["--players"])
    for value in ["0", "-5", "abc", "9" * 5000, "2.5"]:
        add(f"games_{value[:8]!r}", ["simulate", ft, "--players", "3", "--games", value], ["--games"])
    for value in ["-1", "abc", "9" * 5000, "1e5", "18446744073709551617"]:
        add(f"seed_{value[:8]!r}", ["simulate", ft, "--players", "3", "--games", "2", "--seed", value], ["--seed"])
    for value in ["0", "-2", "abc", "16"]:
        add(f"jobs_{value}", ["simulate", ft, "--players", "3", "--games", "2", "--jobs", value], ["--jobs"])
    for value in ["0", "7", "abc"]:
        add(f"human_{value}", ["play", ft, "--players", "3", "--human", value, "--log", "-"], ["--human"],
            stdin="1\n" * 400)
    add("missing_file", ["validate", "{dir}/nope.yaml"], ["nope.yaml"])
    add("directory_as_file", ["validate", "{dir}/definitions"], ["definitions"])
    add("empty_path", ["validate", ""], ["''", "\"\"", "file", "FILE"])
    add("long_path", ["validate", "{dir}/" + "x" * 5000 + ".yaml"], ["xxxx"])
    add("dev_zero", ["validate", "/dev/zero"], ["zero"])
    add("dev_null", ["validate", "/dev/null"], ["null"])
    add("oversize_file", ["validate", "{dir}/big.yaml"], ["big.yaml"],
        extra={"big.yaml": b"game: x\n# " + b"x" * 3_000_000 + b"\n"})
    add("symlink_zero", ["validate", "{dir}/link.yaml"], ["link.yaml"], extra={"link.yaml": b"@symlink:/dev/zero"})
    add("fifo", ["validate", "{dir}/pipe.yaml"], ["pipe.yaml"], extra={"pipe.yaml": b"@fifo"})
    add("symlink_loop", ["validate", "{dir}/loop.yaml"], ["loop.yaml"], extra={"loop.yaml": b"@symlink:loop.yaml"})
    add("unknown_variant", ["validate", ft, "--variant", "nope"], ["nope"])
    add("variant_path_missing", ["validate", ft, "--variant", "{dir}/none/x.yaml"], ["x.yaml"])
    add("variant_dup_setting", ["validate", ft, "--variant", "crayfish:rule=pass_left,rule=pass_right"],
        ["crayfish", "rule"])
    add("variant_bad_setting", ["validate", ft, "--variant", "crayfish:rule=explode"], ["crayfish", "rule"])
    add("variant_empty_setting", ["validate", ft, "--variant", "crayfish:=3"], ["crayfish"])
    add("variant_unknown_setting", ["validate", ft, "--variant", "flower:x=1"], ["flower"])
    add("variant_twice", ["simulate", ft, "--variant", "flower", "--variant", "flower", "--players", "3",
                          "--games", "2"], ["flower"])
    add("variant_is_game", ["validate", ft, "--variant", ft], ["frog_tower.yaml"])
    # outputs pointed at inputs: the definition must survive
    add("log_onto_definition", ["play", ft, "--players", "3", "--seed", "1", "--log", ft], ["frog_tower.yaml"],
        guard=["definitions/frog_tower.yaml"])
    add("json_onto_definition", ["simulate", ft, "--players", "3", "--games", "2", "--json", ft],
        ["frog_tower.yaml"], guard=["definitions/frog_tower.yaml"])
    add("log_onto_variant", ["play", ft, "--variant", "flower", "--players", "3", "--seed", "1", "--log", flower],
        ["flower.yaml"], guard=["definitions/variants/frog_tower/flower.yaml"])
    add("json_onto_variant", ["simulate", flower, "--players", "3", "--games", "2", "--json", flower],
        ["flower.yaml"], guard=["definitions/variants/frog_tower/flower.yaml"])
    add("log_to_directory", ["play", ft, "--players", "3", "--seed", "1", "--log", "{dir}/definitions"],
        ["--log", "definitions"])
    add("json_to_missing_folder", ["simulate", ft, "--players", "3", "--games", "2", "--json", "{dir}/no/x.json"],
        ["--json"])
    # outputs onto files that are not regular: refused before writing, never renamed over (a device node
    # of the machine would be replaced: the cases use a link to one and a pipe inside their own folder)
    add("json_to_device_link", ["simulate", ft, "--players", "3", "--games", "2", "--json", "{dir}/full"],
        ["--json", "regular file"], extra={"full": b"@symlink:/dev/full"})
    add("log_to_fifo", ["play", ft, "--players", "3", "--seed", "1", "--log", "{dir}/out.jsonl"],
        ["--log", "regular file"], extra={"out.jsonl": b"@fifo"})
    # the person at the terminal
    # the end of input is the player leaving: status 130, as for Ctrl-C (docs/security.md)
    add("stdin_eof", ["play", ft, "--players", "3", "--seed", "1", "--human", "1", "--log", "-"], [], stdin="",
        statuses=(130,))
    add("stdin_closed", ["play", ft, "--players", "3", "--seed", "1", "--human", "1", "--log", "-"], [],
        stdin="<closed>", statuses=(130,))
    add("answer_huge_number", ["play", ft, "--players", "3", "--seed", "1", "--human", "1", "--log", "-"], [],
        stdin="9" * 10000 + "\n" + "1\n" * 400)
    add("answer_huge_line", ["play", ft, "--players", "3", "--seed", "1", "--human", "1", "--log", "-"], [],
        stdin="a" * 5_000_000 + "\n" + "1\n" * 400)
    add("answer_escapes", ["play", ft, "--players", "3", "--seed", "1", "--human", "1", "--log", "-"], [],
        stdin=ESC + "\n" + "1\n" * 400)
    add("answer_zero_and_negative", ["play", ft, "--players", "3", "--seed", "1", "--human", "1", "--log", "-"],
        [], stdin="0\n-1\n" + "1\n" * 400)
    add("ascii_terminal", ["play", ft, "--players", "3", "--seed", "1", "--human", "1", "--human", "2",
                           "--log", "-"], [], stdin="1\n" * 400, encoding="ascii")
    add("ascii_terminal_rules", ["rules", "{dir}/kaeru.yaml"], [], encoding="ascii",
        extra={"kaeru.yaml": (DEFINITIONS / "kaeru.yaml").read_text(encoding="utf-8")
               .replace("game: Kaeru", "game: カエル").encode()})
    return c


def save_cases(count: int) -> list:
    ops = ["identity", "seed", "players", "history_drop", "history_swap", "history_player", "history_action",
           "history_append", "history_junk", "zones_move", "zones_reorder", "zones_dup", "zones_junk", "gv", "pv",
           "rng", "frames_forged", "log_seen", "log_seen", "pending_labels", "pending_values",
           "pending_players", "pending_chosen", "pending_flags", "over", "forced_winners", "log", "scenario",
           "random_leaf", "random_leaf", "drop_key", "fingerprint", "part_kind", "part_deep"]
    out = []
    for label, game, variant, players in shipped():
        for i in range(count):
            rng = random.Random(f"save:{label}:{i}")
            op = ops[i] if i < len(ops) and count >= len(ops) else rng.choice(ops)
            if i == 0:
                op = "identity"
            out.append({"id": f"save-{label}-{i}-{op}", "kind": "save",
                        "about": f"a save of a random {label} game with {op} tampered",
                        "spec": {"game": str(game), "variant": str(variant) if variant else None,
                                 "players": players, "seed": i, "moves": rng.randrange(0, 80), "op": op,
                                 "rng": f"save:{label}:{i}"}})
    return out


API_VALUES = ["str_digit", "float", "true", "none", "negative", "huge", "list", "nan", "inf", "evil_index",
              "bytes", "str_subclass"]
ACTION_VALUES = ["int", "none", "bytes", "list", "padded", "upper", "empty", "nul", "megabyte", "str_subclass",
                 "always_equal", "raising_eq", "other_label"]
PLAYER_VALUES = ["str_digit", "float", "true", "none", "negative", "huge", "always_equal", "other_player"]


def api_cases() -> list:
    out = []
    for value in API_VALUES:
        out.append({"id": f"api-new_game-players-{value}", "kind": "api", "about": f"new_game(players={value})",
                    "spec": {"op": "new_game_players", "value": value}})
        out.append({"id": f"api-new_game-seed-{value}", "kind": "api", "about": f"new_game(seed={value})",
                    "spec": {"op": "new_game_seed", "value": value}})
    for value in ACTION_VALUES:
        out.append({"id": f"api-apply-action-{value}", "kind": "api", "about": f"apply(player, {value})",
                    "spec": {"op": "apply_action", "value": value}})
    for value in PLAYER_VALUES:
        out.append({"id": f"api-apply-player-{value}", "kind": "api", "about": f"apply({value}, action)",
                    "spec": {"op": "apply_player", "value": value}})
        out.append({"id": f"api-view-{value}", "kind": "api", "about": f"view({value})",
                    "spec": {"op": "view", "value": value}})
        out.append({"id": f"api-legal_actions-{value}", "kind": "api", "about": f"legal_actions({value})",
                    "spec": {"op": "legal_actions", "value": value}})
    for game in ("frog_tower", "kaeru"):
        out.append({"id": f"api-after_over-{game}", "kind": "api", "about": "actions after the game is over",
                    "spec": {"op": "after_over", "game": game}})
        out.append({"id": f"api-simultaneous-{game}", "kind": "api", "about": "apply the same action twice",
                    "spec": {"op": "twice", "game": game}})
    for value in ["zones_list", "zones_string", "unknown_card", "unknown_zone", "gv_type", "pv_seat", "on_top_int",
                  "not_a_dict", "huge_list", "pv_unknown", "counters_kind", "counters_holder", "first_player_bool",
                  "unknown_key", "deep"]:
        out.append({"id": f"api-scenario-{value}", "kind": "api", "about": f"a hostile scenario ({value})",
                    "spec": {"op": "scenario", "value": value}})
    return out


# ================================================================ issue 20, items 3, 4, 5 and 9: files named by
# untrusted input (scenarios, serve's saves and seats files), bots' own seeds, replay --check's exit status.
# Self-contained: each family builds its own files.  A serve case never serves: it either is refused, or
# gets as far as listening and then fails on --port 70000 (beyond the last port, refused before any socket
# is bound or any name looked up), so "cannot listen" is how an accepted serve case ends.
NEVER_SERVES = ["--host", "127.0.0.1", "--port", "70000"]
ACCEPTED_SERVE = ["cannot listen on 127.0.0.1 port 70000", "needs the web extra"]
FILE_SECRET = "hunter2-FILE-SECRET"


def scenario_quoting_cases() -> list:
    """Files that never declare themselves scenarios, named by --scenario or by a replay log: nothing of them
    may be printed (item 3)."""
    ft = "{dir}/definitions/frog_tower.yaml"
    secret = FILE_SECRET
    documents = {
        "shadow_line": f"root:$6$salt${secret}:19000:0:99999:7:::\n",
        "scalar": f"{secret} is the password\n",
        "list": f"- {secret}\n",
        "key_first": f"password: {secret}\nzones: {{}}\n",
        "flow_error": f"api_key: [{secret}\n",
        "tag": f"key: !vault {secret}\n",
        "huge_number": f"pin: 1{'0' * 40}  # {secret}\n",
        "tab": f"key:\n\t{secret}\n",
        "control_char": f"key: {secret}\x1b[2J\n",
        "latin1": None,
        "private_key": f"-----BEGIN OPENSSH PRIVATE KEY-----\n{secret}\n-----END OPENSSH PRIVATE KEY-----\n",
        "tag_then_key": f"password: !vault {secret}\nzones: {{}}\n",
        "number_then_key": f"pin: 1{'0' * 40}  # {secret}\nfirst_player: 1\n",
    }
    out = []
    files = layout_files(DEFINITIONS / "frog_tower.yaml", None)
    for name, text in documents.items():
        raw = f"key: caf\xe9 {secret}\n".encode("latin-1") if text is None else text.encode("utf-8")
        out.append(cli_case(f"scenario-quote-{name}-play", f"--scenario names a file that is no scenario ({name})",
                            ["play", ft, "--players", "3", "--seed", "1", "--scenario", "{dir}/id_secret"],
                            {**files, "id_secret": raw}, names=["id_secret"], forbidden=[secret, "hunter2"]))
        start = {"event": "start", "format": "ribbit-log/1", "file": "definitions/frog_tower.yaml", "variants": [],
                 "players": 3, "seed": 1, "scenario": "creds.yaml"}
        log = (json.dumps(start) + "\n").encode()
        for mode in (["--check"], ["--to", "0"]):
            out.append(cli_case(f"scenario-quote-{name}-replay{mode[0]}",
                                f"a replay log names a .yaml beside it as its scenario ({name})",
                                ["replay", "{dir}/game.jsonl", *mode], {**files, "game.jsonl": log, "creds.yaml": raw},
                                names=["creds.yaml", "game.jsonl"], forbidden=[secret, "hunter2"]))
    for name, text in (("tag_then_game", f"password: !vault {secret}\ngame: x\n"),
                       ("number_then_variant", f"pin: 1{'0' * 40}  # {secret}\nvariant: x\n")):
        out.append(cli_case(f"definition-quote-{name}", "a file that says it is a game only after its error",
                            ["validate", "{dir}/notes.yaml"], {"notes.yaml": text.encode()}, names=["notes.yaml"],
                            forbidden=[secret, "hunter2"]))
    return out


def _frog_tower_save() -> bytes:
    """A save of a fresh 3-player Frog Tower game, as `ribbit serve` writes it."""
    from interpreter import load_game

    return json.dumps(load_game(DEFINITIONS / "frog_tower.yaml").new_game(3, seed=1).to_json()).encode()


def _seats(tokens=None, bots=None, **extra) -> bytes:
    tokens = {"1": "A" * 32, "3": "B" * 32} if tokens is None else tokens
    bots = {"2": ["random", {}]} if bots is None else bots
    return json.dumps({"format": "ribbit-web-seats/1", "table": "T" * 12, "game_number": 1, "tokens": tokens,
                       "bots": bots, **extra}).encode()


def serve_file_cases() -> list:
    """serve --resume reads only regular files of bounded size, --save replaces no special file and no input
    (item 3), a bot's own seed works (item 4), a seats file is checked before its tokens are trusted (item 5)."""
    ft = "{dir}/definitions/frog_tower.yaml"
    files = layout_files(DEFINITIONS / "frog_tower.yaml", None)
    save = _frog_tower_save()
    out = []

    def add(name, argv, extra, names, guard=(), statuses=(2,)):
        out.append(cli_case(f"serve-{name}", f"serve: {name.replace('_', ' ')}", ["serve", *argv, *NEVER_SERVES],
                            {**files, **extra}, names=names, guard=guard, statuses=statuses))

    resume = [ft, "--resume", "{dir}/game.json", "--save", "{dir}/out.json"]
    # the files --resume reads
    add("resume_dev_zero", [ft, "--resume", "/dev/zero", "--save", "{dir}/out.json"], {}, ["zero"])
    add("resume_fifo", resume, {"game.json": b"@fifo"}, ["game.json"])
    add("resume_folder", [ft, "--resume", "{dir}/definitions", "--save", "{dir}/out.json"], {}, ["definitions"])
    add("resume_link_to_zero", resume, {"game.json": b"@symlink:/dev/zero"}, ["game.json"])
    add("resume_huge_number", resume, {"game.json": b"[" + b"9" * 100_000 + b"]"}, ["game.json"])
    add("resume_deep_json", resume, {"game.json": b"[" * 100_000 + b"]" * 100_000}, ["game.json"])
    add("resume_not_utf8", resume, {"game.json": b"{\"a\": \"\xff\"}"}, ["game.json"])
    add("seats_fifo", resume, {"game.json": save, "game.json.seats.json": b"@fifo"}, ["game.json.seats.json"])
    add("seats_link_to_zero", resume, {"game.json": save, "game.json.seats.json": b"@symlink:/dev/zero"},
        ["game.json.seats.json"])
    add("seats_missing", resume, {"game.json": save}, ["seats file of this save is missing"])
    # the files --save writes
    add("save_onto_fifo", [ft, "--players", "3", "--save", "{dir}/out.json"], {"out.json": b"@fifo"},
        ["--save", "regular file"])
    add("save_seats_onto_fifo", [ft, "--players", "3", "--save", "{dir}/out.json"],
        {"out.json.seats.json": b"@fifo"}, ["--save", "regular file"])
    add("save_onto_device_link", [ft, "--players", "3", "--save", "{dir}/out.json"],
        {"out.json": b"@symlink:/dev/null"}, ["--save", "regular file"])
    add("save_seats_onto_definition", ["{dir}/g.yaml.seats.json", "--players", "3", "--save", "{dir}/g.yaml"],
        {"g.yaml.seats.json": files["definitions/frog_tower.yaml"]}, ["an input of this run"],
        guard=["g.yaml.seats.json"])
    add("save_onto_definition", [ft, "--players", "3", "--save", ft], {}, ["an input of this run"],
        guard=["definitions/frog_tower.yaml"])
    add("save_onto_resumed_seats", [ft, "--resume", "{dir}/game.json", "--save", "{dir}/game.json.seats.json"],
        {"game.json": save, "game.json.seats.json": _seats()}, ["an input of this run"],
        guard=["game.json", "game.json.seats.json"])
    # a bot's own seed, given on the command line or in a seats file (accepted: the case ends at listening)
    for seed in ("3", "-1", "text", "9" * 40):
        add(f"seat_seed_{seed[:8]}", [ft, "--players", "3", "--seat", f"2=random:seed={seed}", "--save",
                                      "{dir}/out.json"], {}, ACCEPTED_SERVE, statuses=(2,))
    add("seat_seed_ismcts", [ft, "--players", "3", "--seat", "2=ismcts:iterations=5,seed=3", "--save",
                             "{dir}/out.json"], {}, ACCEPTED_SERVE)
    for name, bots in (("int", {"2": ["random", {"seed": 3}]}), ("text", {"2": ["greedy", {"seed": "x"}]})):
        add(f"resume_bot_seed_{name}", resume, {"game.json": save, "game.json.seats.json": _seats(bots=bots)},
            ACCEPTED_SERVE)
    # seats files the server would not have written
    token = "A" * 32
    bad = {
        "empty_token": _seats(tokens={"1": "", "3": "B" * 32}),
        "short_token": _seats(tokens={"1": "abc", "3": "B" * 32}),
        "shared_token": _seats(tokens={"1": token, "3": token}),
        "token_with_space": _seats(tokens={"1": "A" * 31 + " ", "3": "B" * 32}),
        "token_number": _seats(tokens={"1": 1, "3": "B" * 32}),
        "token_megabyte": _seats(tokens={"1": "A" * 900_000, "3": "B" * 32}),
        "missing_seat": _seats(tokens={"1": token}),
        "seat_out_of_range": _seats(tokens={"1": token, "3": "B" * 32, "4": "C" * 32}),
        "seat_zero": _seats(tokens={"0": token, "1": "C" * 32, "3": "B" * 32}),
        "seat_and_bot": _seats(tokens={"1": token, "2": "C" * 32, "3": "B" * 32}),
        "bot_unknown": _seats(bots={"2": ["genius", {}]}),
        "bot_bad_param": _seats(bots={"2": ["mcts", {"iterations": 10 ** 12}]}),
        "bot_seed_list": _seats(bots={"2": ["random", {"seed": [1]}]}),
        "bot_not_pair": _seats(bots={"2": "random"}),
        "table_empty": _seats(table=""),
        "game_number_bool": _seats(game_number=True),
        "format_other": _seats(format="ribbit-web-seats/2"),
        "not_object": b"[]",
        "bad_json": b"{\"format\": ",
    }
    for name, seats in bad.items():
        add(f"seats_{name}", resume, {"game.json": save, "game.json.seats.json": seats}, ["game.json.seats.json"])
    return out


def replay_unchecked_cases() -> list:
    """replay --check of a log it cannot check (a hidden secret choice) exits 2 saying so, never 0 or 1 (item 9)."""
    files = layout_files(DEFINITIONS / "frog_tower.yaml", None)
    start = {"event": "start", "format": "ribbit-log/1", "file": "definitions/frog_tower.yaml", "variants": [],
             "players": 3, "seed": 1, "narration": "player 1"}
    hidden = {"event": "action", "player": 2, "action": None, "secret": True}
    end = {"event": "end", "scores": [0, 0, 0], "winners": [1], "ended_by": "flow"}
    out = []
    for name, rows in (("hidden_first", [start, hidden]), ("hidden_then_end", [start, hidden, end]),
                       ("hidden_twice", [start, hidden, hidden, end])):
        log = "".join(json.dumps(row) + "\n" for row in rows).encode()
        out.append(cli_case(f"replay-unchecked-{name}", f"replay --check of a log hiding a choice ({name})",
                            ["replay", "{dir}/seat1.jsonl", "--check"], {**files, "seat1.jsonl": log},
                            names=["cannot be checked"], statuses=(2,)))
    return out


def files_named_by_strangers_cases() -> list:
    return scenario_quoting_cases() + serve_file_cases() + replay_unchecked_cases()


# ============================================================ issue 20, items 6-8: variant settings, places, the API
# Each family below is self-contained.  Settings must be held to the checks of the same constant written in
# the file (so these cases must be refused: status 2 only); a log's bad files are reported at the log's own
# line; a scenario's number key or fraction at its line; the API refuses with Ribbit's own errors.
SIZED_VARIANT = (b"variant: Sized\ngame: Frog Tower\nparameters:\n"
                 b"  bonus: {default: 1, description: a number}\n  label: {default: x, description: a text}\n"
                 b"add:\n  scoring:\n    bonus: \"bonus\"\n")
HUGE_SETTINGS = {"huge": "bonus=99999999999999999999999", "limit": "bonus=1000000000000000000",
                 "minus_limit": "bonus=-1000000000000000000", "100k_digits": "bonus=" + "9" * 100_000,
                 "fullwidth": "bonus=\uff11\uff12", "arabic_indic": "bonus=\u0661\u0662", "underscore": "bonus=1_000",
                 "long_text": "label=" + "a" * 10_001}


def setting_cases() -> list:
    """Item 6: a variant setting beyond the constant limits, or not in ASCII digits, is refused at load."""
    ft = "{dir}/definitions/frog_tower.yaml"
    files = {**layout_files(DEFINITIONS / "frog_tower.yaml", None),
             "definitions/variants/frog_tower/sized.yaml": SIZED_VARIANT}
    out = []
    for name, setting in HUGE_SETTINGS.items():
        for command in ("validate", "simulate"):
            argv = [command, ft, "--variant", f"sized:{setting}"]
            if command == "simulate":
                argv += ["--players", "3", "--games", "2"]
            out.append(cli_case(f"setting-{name}-{command}", f"variant setting {name} ({command})", argv, files,
                                names=["sized.yaml:4:3: parameters.bonus", "sized.yaml:5:3: parameters.label"],
                                statuses=(2,)))
        extends = (f"variant: Child\ngame: Frog Tower\nextends: [{json.dumps('sized.yaml:' + setting)}]\n").encode()
        out.append(cli_case(f"setting-{name}-extends", f"variant setting {name} in an extends entry",
                            ["validate", ft, "--variant", "child"],
                            {**files, "definitions/variants/frog_tower/child.yaml": extends},
                            names=["sized.yaml:4:3: parameters.bonus", "sized.yaml:5:3: parameters.label"],
                            statuses=(2,)))
    return out


def log_place_cases() -> list:
    """Item 7: what is wrong with a file a replay log names is reported at the log's start record (line 2
    here, after a blank line); a log that is not a regular file is called what it is."""
    files = {**layout_files(DEFINITIONS / "frog_tower.yaml", None),
             "definitions/variants/frog_tower/sized.yaml": SIZED_VARIANT, "pipe.yaml": b"@fifo",
             "plain.yaml": b"password: hunter2\n", "dir.yaml/x": b"x"}
    start = {"event": "start", "format": "ribbit-log/1", "game": "Frog Tower", "file": "definitions/frog_tower.yaml",
             "variants": [], "players": 3, "seed": 1, "humans": [], "bot": "random", "narration": "omniscient"}
    named = {"bad_setting": {"variants": ["flower", "sized:bonus=99999999999999999999999"]},
             "fullwidth_setting": {"variants": ["sized:bonus=\uff11"]},
             "bad_choice": {"variants": ["crayfish:rule=sideways"]},
             "long_text": {"variants": ["sized:label=" + "b" * 10_001]},
             "fifo_variant": {"variants": ["pipe.yaml"]}, "plain_variant": {"variants": ["plain.yaml"]},
             "folder_variant": {"variants": ["dir.yaml"]}, "unknown_variant": {"variants": ["nope"]},
             "fifo_game": {"file": "pipe.yaml"}, "plain_game": {"file": "plain.yaml"},
             "fifo_scenario": {"scenario": "pipe.yaml"}, "folder_scenario": {"scenario": "dir.yaml"}}
    out = []
    for name, change in named.items():
        log = ("\n" + json.dumps({**start, **change}) + "\n").encode()
        for flag in ("--check", "--to"):
            argv = ["replay", "{dir}/game.jsonl", flag] + (["0"] if flag == "--to" else [])
            out.append(cli_case(f"logplace-{name}{flag}", f"a log naming a bad file ({name})", argv,
                                {**files, "game.jsonl": log}, names=["game.jsonl:2:"], statuses=(2,),
                                forbidden=["hunter2"]))
    for name, path, kind in [("fifo", "{dir}/pipe.jsonl", "is not a regular file (it is a named pipe); expected a "
                              "game log"), ("folder", "{dir}/definitions", "is a directory; expected a game log"),
                             ("device", "/dev/null", "is not a regular file (it is a device); expected a game log")]:
        out.append(cli_case(f"logplace-log_is_{name}", f"a log that is a {name}", ["replay", path, "--check"],
                            {**files, "pipe.jsonl": b"@fifo"}, names=[kind], statuses=(2,)))
    return out


def scenario_place_cases() -> list:
    """Item 7: a scenario file's number key or fraction is refused at its line."""
    ft = "{dir}/definitions/frog_tower.yaml"
    files = layout_files(DEFINITIONS / "frog_tower.yaml", None)
    texts = {"int_key": (b"player_variables:\n  1: {points: 3}\n", "s.yaml:2:3"),
             "bool_key": (b"player_variables:\n  '1': {true: 3}\n", "s.yaml:2:9"),
             "float_value": (b"player_variables:\n  '1':\n    points: 1.5\n", "s.yaml:3:13"),
             "float_in_list": (b"zones:\n  pond: [red frog, 2.0]\n", "s.yaml:2:20"),
             "huge_value": (b"game_variables:\n  turn: 999999999999999999999\n", "s.yaml:2:9"),
             "exp_value": (b"game_variables:\n  turn: 1e3\n", "s.yaml:2:9")}
    return [cli_case(f"scenplace-{name}", f"a scenario file with a {name.replace('_', ' ')}",
                     ["play", ft, "--players", "3", "--seed", "1", "--scenario", "{dir}/s.yaml", "--log", "-"],
                     {**files, "s.yaml": text}, names=[place], statuses=(2,))
            for name, (text, place) in texts.items()]


COURTESY = {  # what: the values each call is given (tests/hostile/api_courtesy.py makes them)
    "sample_action_id_rng": ["none", "int", "text", "float", "look_alike"],
    "determinised_seat": ["minus_one", "true", "text_zero", "too_big", "float", "none", "huge"],
    "determinised_rng": ["none", "int", "look_alike"],
    "pettingzoo_step": ["text_zero", "float_zero", "true", "fraction", "none", "minus_one", "too_big", "list", "bytes",
                        "numpy_float", "numpy_bool", "nan", "inf"],
    "pettingzoo_agent": ["unknown", "int", "none", "list", "str_subclass"],
    "pettingzoo_after_end": ["step_dead_agent", "step_after_everyone_left"],
    "adapter_size": ["max_actions_zero", "max_actions_negative", "max_actions_true", "max_actions_float",
                     "max_actions_text", "max_actions_huge", "max_decisions_zero", "seeds_zero"],
    "simulate_cap": ["zero", "none", "float"],
    "scenario_number": ["counter_huge", "counter_negative_huge", "counter_bits", "variable_huge", "int_key",
                        "float_value"],
    "variant_setting": list(HUGE_SETTINGS),
}


def courtesy_cases() -> list:
    """Item 8 (and items 6-7 through the Python API): each call must raise a RibbitError and change nothing."""
    return [{"id": f"api-courtesy-{what}-{value}", "kind": "api", "about": f"the API's courtesy: {what}({value})",
             "spec": {"op": "courtesy", "what": what, "value": value}}
            for what, values in COURTESY.items() for value in values]


def issue_20_api_cases() -> list:
    return setting_cases() + log_place_cases() + scenario_place_cases() + courtesy_cases()


# ---------------------------------------------------------------- located run-time errors (issue 25, item 4)
# Every run-time failure is a Ribbit error at the line of the rule that caused it, in Ribbit's words: for each
# flow key and each builtin, a test-only game whose expression there fails while the game runs (none where a
# number, a card, a player, a space or a list is wanted...).  The case must exit 2 naming that line
# (``located.yaml:LINE:``); the worker refuses any Python class name in the message.
LOCATED = """\
game: Located {NAME}
players: {{min: 2, max: 2}}
board:
  grid: {{rows: 2, columns: 2}}
parameters:
  ladder: {{1: 1, 2: 3}}
properties:
  value: 0
components:
  - {{name: low, value: 1, zone: hand, per_player: true}}
  - {{name: high, value: 3, zone: hand, per_player: true}}
zones:
  hand: {{per: player, visibility: owner}}
  pile: {{visibility: public}}
  box: {{visibility: public, description: always empty}}
  cell: {{per: space, visibility: public}}
player_variables:
  points: 0
procedures:
  take_turn(player p): |
    let hostile_x = {TURN}
    ask p to choose one of hand(p) as card "play"
    move card to pile
  hostile_round(): |
    let hostile_x = {ROUND}
    pass
flow:
  - turn: take_turn
    first: "{FIRST}"
    until: "{UNTIL}"
{ROUNDS}scoring:
  score: p.points
"""
LOCATED_LINES = {"turn": 21, "round": 25, "first": 29, "until": 30, "round_phase": 32}
ROUND_PHASE = "  - round: [hostile_round]\n    until: game.round >= 2\n"
# first, last and random of a none list, and step, adjacent, diagonals and distance of a none space, give none
# (or nothing) by design: their cases fail where that result is used, on the same line.
# Values the checks at load let through (their kind is known) that are none while the game runs: 'box' is empty.
NONE_INT = "first(each c in box: c.value)"
NONE_CARD = "top(box)"
NONE_PLAYER = "first(each q in players where q.points > 100)"
NONE_SPACE = "first(each sp in spaces where size(cell(sp)) > 100)"
NONE_INTS = "first(each c in box: [c.value])"
NONE_BOOLS = "first(each c in box: [c.value > 0])"
NONE_LISTS = "first(each c in box: [[c.value]])"
# Flow keys: those holding an expression fail in it; 'turn' and 'round' name a procedure, which fails in its own
# line; 'phase', 'order' and 'repeat' are fixed words checked at load, with nothing to evaluate while the game runs.
FLOW_KEY_EXPRESSIONS = {"first": f"seat(1 + {NONE_INT})", "until": f"size(pile) + {NONE_INT} == 4",
                        "turn": f"1 + {NONE_INT}", "round": f"1 + {NONE_INT}"}
FLOW_KEYS_WITHOUT_RUN_TIME = {"phase", "order", "repeat"}
BUILTIN_FAILURES = {
    "size": f"size({NONE_INTS})", "count": f"count({NONE_INTS})", "any": f"any({NONE_BOOLS})",
    "all": f"all({NONE_BOOLS})", "sum": f"sum([1, {NONE_INT}])", "max": f"max([1, {NONE_INT}])",
    "min": f"min([1, {NONE_INT}])", "distinct": f"distinct({NONE_INTS})", "first": f"1 + first({NONE_INTS})",
    "last": f"1 + last({NONE_INTS})", "reverse": f"reverse({NONE_INTS})", "range": f"range({NONE_INT})",
    "abs": f"abs({NONE_INT})", "product": f"product({NONE_LISTS})", "threshold": f"threshold(ladder, {NONE_INT})",
    "top": f"top(pile, {NONE_INT})", "bottom": f"bottom(pile, {NONE_INT})", "zone_of": f"zone_of({NONE_CARD})",
    "owner_of": f"owner_of({NONE_CARD})", "position": f"position({NONE_CARD})", "above": f"above({NONE_CARD})",
    "below": f"below({NONE_CARD})", "space_of": f"space_of({NONE_CARD})", "flatten": f"flatten({NONE_LISTS})",
    "next_player": f"next_player({NONE_PLAYER})", "previous_player": f"previous_player({NONE_PLAYER})",
    "players_from": f"players_from({NONE_PLAYER})", "seat": f"seat({NONE_INT})", "random": f"1 + random({NONE_INTS})",
    "roll": f"roll({NONE_INT})", "shuffled": f"shuffled({NONE_INTS})",
    "sort_by": f"sort_by(each x in [1, 2]: {NONE_INT})", "step": f'row(step({NONE_SPACE}, "north"))',
    "adjacent": f"column(first(adjacent({NONE_SPACE})))", "diagonals": f"row(first(diagonals({NONE_SPACE})))",
    "distance": f'1 + distance({NONE_SPACE}, "r1c1")', "row": f"row({NONE_SPACE})", "column": f"column({NONE_SPACE})",
}


def located_case(name: str, about: str, turn="1", round_="1", first="seat(1)", until="size(pile) == 4",
                 rounds=False, line_of="turn") -> dict:
    text = LOCATED.format(NAME=name, TURN=turn, ROUND=round_, FIRST=first, UNTIL=until,
                          ROUNDS=ROUND_PHASE if rounds else "")
    line = LOCATED_LINES[line_of]
    assert text.splitlines()[line - 1].strip().startswith(("let", "first:", "until:"))
    return cli_case(f"located-{name}", about,
                    ["simulate", "{dir}/located.yaml", "--players", "2", "--games", "1"],
                    {"located.yaml": text.encode()}, names=[f"located.yaml:{line}:"], statuses=(2,))


def located_runtime_error_cases() -> list:
    """One case per flow key and per builtin: the failure is named at its own line, in Ribbit's words."""
    from interpreter.dsl.builtins import BUILTINS

    schema = json.loads((ROOT / "interpreter" / "schemas" / "game.schema.json").read_text(encoding="utf-8"))
    flow_keys = set(schema["$defs"]["phase"]["properties"])
    assert flow_keys == set(FLOW_KEY_EXPRESSIONS) | FLOW_KEYS_WITHOUT_RUN_TIME, \
        f"a flow key without a located-error case: {sorted(flow_keys - set(FLOW_KEY_EXPRESSIONS))}"
    builtins = {name for name in BUILTINS if not name.startswith("$")}
    assert builtins == set(BUILTIN_FAILURES), f"builtins without a located-error case: " \
                                              f"{sorted(builtins ^ set(BUILTIN_FAILURES))}"
    out = [located_case("flow-first", "a first: that fails", first=FLOW_KEY_EXPRESSIONS["first"], line_of="first"),
           located_case("flow-until", "an until: that fails", until=FLOW_KEY_EXPRESSIONS["until"], line_of="until"),
           located_case("flow-turn", "the procedure of turn: fails", turn=FLOW_KEY_EXPRESSIONS["turn"]),
           located_case("flow-round", "the procedure of round: fails", round_=FLOW_KEY_EXPRESSIONS["round"],
                        rounds=True, line_of="round"),
           located_round_until_case()]
    for name, expression in sorted(BUILTIN_FAILURES.items()):
        out.append(located_case(f"builtin-{name}", f"{name}() fails while the game runs", turn=expression))
    return out


def located_round_until_case() -> dict:
    """The until: of a round phase (the second phase) fails: named at that until:'s line."""
    text = LOCATED.format(NAME="round-until", TURN="1", ROUND="1", FIRST="seat(1)", UNTIL="size(pile) == 4",
                          ROUNDS=f'  - round: [hostile_round]\n    until: "game.round + {NONE_INT} >= 2"\n')
    line = LOCATED_LINES["round_phase"]
    assert text.splitlines()[line - 1].strip().startswith("until:")
    return cli_case("located-flow-round-until", "the until: of a round phase fails",
                    ["simulate", "{dir}/located.yaml", "--players", "2", "--games", "1"],
                    {"located.yaml": text.encode()}, names=[f"located.yaml:{line}:"], statuses=(2,))


def scale_counts() -> dict:
    import os

    total = int(os.environ.get("RIBBIT_HOSTILE_CASES", DEFAULT_TOTAL))
    factor = max(total / DEFAULT_TOTAL, 0.1)
    return {k: max(1, round(v * factor)) for k, v in DEFAULT_COUNTS.items()}


def all_cases() -> list:
    counts = scale_counts()
    cases = (yaml_cases() + mutant_cases(counts["mutant"]) + text_cases(counts["text"]) + runaway_cases()
             + escape_cases() + cli_abuse_cases() + save_cases(counts["save"]) + api_cases())
    cases += files_named_by_strangers_cases()  # issue 20, items 3, 4, 5 and 9
    cases += issue_20_api_cases()
    cases += located_runtime_error_cases()  # issue 25, item 4
    seen = set()
    for case in cases:
        assert case["id"] not in seen, case["id"]
        seen.add(case["id"])
    return cases


def materialize(case: dict, folder: Path) -> Path:
    """Write a case's files into ``folder`` (``@symlink:TARGET`` and ``@fifo`` make special files)."""
    import os

    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in case.get("files", {}).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink() or path.exists():
            path.unlink()
        if raw.startswith(b"@symlink:"):
            path.symlink_to(raw[len(b"@symlink:"):].decode())
        elif raw == b"@fifo":
            os.mkfifo(path)
        else:
            path.write_bytes(raw)
    return folder
