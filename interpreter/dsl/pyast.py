"""Small tools for building Python ``ast`` expressions in the backend.

:func:`py` fills a *backend-written* pattern such as ``"len(s.zones[_0])"`` with
ast nodes: the pattern text is a literal of this code base, parsed once; the
placeholders ``_0``, ``_1``... are replaced by trees the lowering built (author
values inside them are ``ast.Constant`` or ``K[i]``, see codegen.py).  No text
from a definition is ever parsed here.
"""

from __future__ import annotations

import ast

_PATTERNS: dict = {}


class StateReads:
    """How many state reads (``s.<anything but steps>``, or ``s`` handed to a call) were built so far.

    The lowering compares the count before and after an expression: an expression
    that built none is a candidate for a per-card table (see ``static_table``).
    """

    count = 0


def py(pattern: str, *parts: ast.expr) -> ast.expr:
    """The expression ``pattern`` with ``_i`` replaced by ``parts[i]`` (fresh nodes, no positions)."""
    found = _PATTERNS.get(pattern)
    if found is None:
        tree = ast.parse(pattern, mode="eval").body
        found = _PATTERNS[pattern] = (tree, any(isinstance(n, ast.Name) and n.id == "s" for n in ast.walk(tree)))
    tree, state = found
    if state:
        StateReads.count += 1
    return _fill(tree, parts)


def _fill(node, parts):
    cls = node.__class__
    if cls is ast.Name:
        name = node.id
        if name[0] == "_" and name[1:].isdigit():
            return parts[int(name[1:])]
        return ast.Name(name, node.ctx)
    new = cls.__new__(cls)
    for field in cls._fields:
        value = getattr(node, field, None)
        if value.__class__ is list:
            value = [_fill(v, parts) if isinstance(v, ast.AST) else v for v in value]
        elif isinstance(value, ast.AST) and not isinstance(value, ast.expr_context):
            value = _fill(value, parts)
        setattr(new, field, value)
    return new


S = "s"
E = "e"


def name(n: str) -> ast.Name:
    return ast.Name(n, ast.Load())


def local(key: str) -> ast.Subscript:
    """``e['key']``: a read of a local variable (its env key)."""
    return ast.Subscript(ast.Name("e", ast.Load()), ast.Constant(key), ast.Load())


def local_key(tree) -> str | None:
    """The env key if ``tree`` is ``e['key']``, else None."""
    if isinstance(tree, ast.Subscript) and isinstance(tree.value, ast.Name) and tree.value.id == "e" \
            and isinstance(tree.slice, ast.Constant) and isinstance(tree.slice.value, str):
        return tree.slice.value
    return None


def game_var(tree) -> str | None:
    """The variable name if ``tree`` is ``s.gv['name']``, else None."""
    if isinstance(tree, ast.Subscript) and isinstance(tree.value, ast.Attribute) and tree.value.attr == "gv" \
            and isinstance(tree.value.value, ast.Name) and tree.value.value.id == "s" \
            and isinstance(tree.slice, ast.Constant):
        return tree.slice.value
    return None


def simple(tree) -> bool:
    """Cheap to evaluate twice and free of effects: a constant, ``K[i]``, a local, a game variable, ``base + local``."""
    if isinstance(tree, ast.Constant):
        return True
    if isinstance(tree, ast.Subscript) and isinstance(tree.value, ast.Name) and tree.value.id == "K":
        return True
    if local_key(tree) is not None or game_var(tree) is not None:
        return True
    return isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Add) and isinstance(tree.left, ast.Constant) \
        and local_key(tree.right) is not None
