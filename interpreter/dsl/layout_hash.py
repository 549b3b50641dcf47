"""The compiled layout of a game, and its hash.

A state's plain data points into the compiled game: zones by index, cards by
id, and each frame (procedure id, pc, locals, return slot) names a
procedure by its id, an instruction by its position, and locals by the env
keys the compiler chose.  The *layout* is all of that: the zones, cards,
variables and counters in order, and for every procedure its id, name and
instructions, with every value the compiled code holds (env keys, jump
targets, labels...).  It is computed from the compiled code itself, not
declared, so any change in how Ribbit compiles a game (another version, a new
optimisation) changes the hash without anyone bumping a number.

The compiler numbers env keys per game, so the layout of a game does not
depend on what else the process compiled before it: the same definition gives
the same layout, hence the same hash, in every process.

A save records the hash it was made under (``"layout"``) but never positions
in the compiled code: it is loaded by replaying its seed and actions, so a save
whose rules are the same but whose layout differs (made by another version of
Ribbit) is resumed just the same.  Plain data that *does* hold positions
(frames) is only meaningful for a game of the same layout hash.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import types

from .codegen import unparse
from .procedures import Label


def describe(game) -> dict:
    """The compiled layout of ``game`` as plain, deterministic data (see the module docstring)."""
    seen: set = set()
    procedures = []
    for proc in game.procs:
        code = _values(proc.code, seen)
        direct = _values(proc.direct, seen) if proc.direct is not None else None
        procedures.append([proc.id, proc.name, list(map(str, proc.where)) if isinstance(proc.where, tuple)
                           else str(proc.where), proc.suspends, code, direct])
    return {**describe_parts(game), "procedures": procedures}


def layout_hash(game) -> str:
    """A short hash of :func:`describe`: equal for two games exactly when their frames mean the same."""
    text = json.dumps(describe(game), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def frame_layout(game) -> dict:
    """What a state's plain data means in ``game``, without what its code does: the zones, cards, variables and
    counters; every procedure's id, name and functions; and every generated function (in the order made) by its
    name, its rule and what it says of frames: the pcs it tests, stores and jumps to, and the env keys it writes
    or removes.  Two builds of one game (the playout build, ``playout_build.py``) must agree on it for a state
    made by one to run on in the other."""
    described = describe_parts(game)
    procedures = [[proc.id, proc.name, proc.suspends, _function_name(proc.code), _function_name(proc.direct)]
                  for proc in game.procs]
    functions = [[str(what), fdef.name, _frame_parts(fdef)] for what, fdef in game.code.functions]
    return {**described, "procedures": procedures, "functions": functions}


def describe_parts(game) -> dict:
    """The layout's parts that are no code: zones, cards, variables, counters, main and setup."""
    return {
        "zones": [game.zone_label(i) for i in range(game.zone_count)],
        "cards": list(game.card_names),
        "game_variables": list(game.gvar_defaults),
        "player_variables": list(game.pvar_defaults),
        "counters": {name: list(c.on) for name, c in game.counters.items()},
        "main": getattr(game.main, "id", None), "setup": getattr(game.setup, "id", None),
    }


def _function_name(fn):
    if fn is None:
        return None
    tree = getattr(fn, "generated_tree", None)
    return tree.name if tree is not None else fn.__qualname__


def _frame_parts(fdef) -> list:
    """What a generated function says of frames, in the order of its tree: ``pc`` constants (tested, stored,
    ``fr.pc = k``) and the env keys it stores, deletes or pops (``e['k'] = ...``, ``e.pop('k', ...)``)."""
    return [part for part in map(_frame_part, ast.walk(fdef)) if part is not None]


def _frame_part(node):
    kind = node.__class__
    if kind is ast.Assign:
        return f"pc={node.value.value}" if len(node.targets) == 1 and _is_pc(node.targets[0]) \
            and _is_constant(node.value) else None
    if kind is ast.Compare:
        return f"pc?{node.comparators[0].value}" if _is_pc(node.left) and _is_constant(node.comparators[0]) else None
    if kind is ast.Subscript:
        return f"e[{node.slice.value!r}]" if not isinstance(node.ctx, ast.Load) and _is_env(node.value) \
            and _is_constant(node.slice) else None
    if kind is ast.Call:
        return _env_pop(node)
    return None


def _env_pop(call):
    """``e-'k'`` for ``e.pop('k', ...)``, else None."""
    func = call.func
    if func.__class__ is ast.Attribute and func.attr == "pop" and _is_env(func.value) and call.args \
            and _is_constant(call.args[0]):
        return f"e-{call.args[0].value!r}"
    return None


def _is_constant(node) -> bool:
    return node.__class__ is ast.Constant


def _is_pc(node) -> bool:
    return (node.__class__ is ast.Name and node.id == "pc") or (
        node.__class__ is ast.Attribute and node.attr == "pc" and _is_name(node.value, "fr"))


def _is_env(node) -> bool:
    return _is_name(node, "e")


def _is_name(node, name: str) -> bool:
    return node.__class__ is ast.Name and node.id == name


def _values(root, seen: set) -> list:
    """What one piece of compiled code is and holds: the names of its functions and every text and whole
    number reachable from it through closures, defaults, code constants and containers, sorted (so the
    order in which sets and dicts were filled does not matter).  Objects already described are skipped."""
    found = []
    stack = [root]
    while stack:
        obj = stack.pop()
        kind = type(obj)
        if kind is str:
            found.append("s" + obj)
            continue
        if kind is int or kind is bool:
            found.append(f"i{int(obj)}")
            continue
        if obj is None or kind is float or id(obj) in seen:
            continue
        seen.add(id(obj))
        parts = _PARTS.get(kind)
        if parts is None:
            continue
        what, held = parts(obj)
        if what is not None:
            found.append(what)
        stack.extend(held)
    found.sort()
    return found


def _function_parts(fn) -> tuple:
    """(what a function is, what it holds): generated code by its tree, any other function by its name, code,
    closure and defaults."""
    if hasattr(fn, "generated_tree"):
        # generated code: its tree says what it does whether or not it was compiled yet (lazily)
        return "g" + unparse(fn.generated_tree), [fn.__globals__.get("K")]
    held = [fn.__code__]
    held.extend(cell.cell_contents for cell in fn.__closure__ or () if _filled(cell))
    held.extend(fn.__defaults__ or ())
    if fn.__module__ is None:  # made by the code generator: its constants table is part of it
        held.append(fn.__globals__.get("K"))
    return "f" + fn.__qualname__, held


def _code_parts(code) -> tuple:
    return None, code.co_consts + code.co_names


def _partial_parts(partial) -> tuple:
    return None, [partial.func, *partial.args, *partial.keywords.values()]


def _container_parts(items) -> tuple:
    return None, items


def _dict_parts(mapping) -> tuple:
    return None, [*mapping.keys(), *mapping.values()]


def _label_parts(label) -> tuple:  # a jump target inside resumable code
    return f"pc{label.pc}", ()


# What each kind of object :func:`_values` walks is and holds: (its own entry or None, what it holds).
_PARTS = {
    types.FunctionType: _function_parts,
    types.CodeType: _code_parts,
    functools.partial: _partial_parts,
    list: _container_parts, tuple: _container_parts, set: _container_parts, frozenset: _container_parts,
    dict: _dict_parts,
    Label: _label_parts,
}


def _filled(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True
