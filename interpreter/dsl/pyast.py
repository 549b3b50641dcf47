"""Python ``ast`` built from the backend's own code shapes, and small readers of such trees.

:func:`shape` parses a fixed piece of Python written in the backend (never text
from a definition) once, and returns a fresh copy of its statements with the
upper-case placeholder names replaced by ``ast`` nodes: an expression for a
name (``VALUE``), a list of statements for a placeholder standing alone as a
statement (``BODY``).  :func:`expr` does the same for one expression, and
:func:`py` is its positional form for the expression lowering
(``py("len(s.zones[_0])", zone)``: ``_0``, ``_1``... are the parts).  Author
values only arrive as those nodes (constants, ``K[i]`` entries, keys of ``e``),
so a shape is code the backend wrote, filled with values.  The copies carry no
positions: the statement compiler gives them the YAML line of the statement
they come from (:func:`locate`), the expression compiler the expression's, and
:meth:`CodeUnit.located` gives what is left its nearest located ancestor's.
"""

from __future__ import annotations

import ast
import copy
import functools
import textwrap

_POSITIONS = ("lineno", "col_offset", "end_lineno", "end_col_offset")


class StateReads:
    """How many state reads (``s.<anything but steps>``, or ``s`` handed to a call) were built so far.

    The expression lowering compares the count before and after an expression: an expression
    that built none is a candidate for a per-card table (see ``static_table``).
    """

    count = 0


@functools.lru_cache(maxsize=None)
def _parsed(source: str) -> tuple:
    """(statements of ``source`` without positions, whether it reads the state ``s``)."""
    body = ast.parse(textwrap.dedent(source)).body
    for node in body:
        for sub in ast.walk(node):
            for attr in _POSITIONS:
                if attr in sub._attributes:
                    setattr(sub, attr, None)
    reads = any(isinstance(n, ast.Name) and n.id == "s" for node in body for n in ast.walk(node))
    return tuple(body), reads


def _build(node, subs: dict):
    """A copy of template ``node`` with its placeholders filled (statement placeholders give lists)."""
    cls = node.__class__
    if cls is ast.Name and node.id in subs:
        value = subs[node.id]  # a placeholder used twice shares its node (compile reads trees, never changes them)
        if isinstance(node.ctx, ast.Store) and hasattr(value, "ctx"):
            value = copy.copy(value)
            value.ctx = ast.Store()
        return value
    if cls is ast.Expr and node.value.__class__ is ast.Name and isinstance(subs.get(node.value.id), list):
        return list(subs[node.value.id]) or [ast.Pass()]
    new = cls.__new__(cls)
    for field in node._fields:
        value = getattr(node, field, None)
        if value.__class__ is list:
            items = []
            for item in value:
                if isinstance(item, ast.AST):
                    made = _build(item, subs)
                    if made.__class__ is list:
                        items.extend(made)
                    else:
                        items.append(made)
                else:
                    items.append(item)
            value = items
        elif isinstance(value, ast.AST) and not isinstance(value, (ast.expr_context, ast.operator, ast.cmpop,
                                                                   ast.unaryop, ast.boolop)):
            value = _build(value, subs)
        setattr(new, field, value)
    for attr in _POSITIONS:
        if attr in node._attributes:
            setattr(new, attr, None)
    return new


def shape(source: str, **subs) -> list:
    """The statements of ``source`` with its placeholders replaced (see the module docstring)."""
    body, reads = _parsed(source)
    if reads:
        StateReads.count += 1
    out = []
    for node in body:
        made = _build(node, subs)
        out.extend(made if made.__class__ is list else [made])
    return out


def expr(source: str, **subs) -> ast.expr:
    """One expression written as backend code, placeholders replaced."""
    return shape(source, **subs)[0].value


def py(pattern: str, *parts: ast.expr) -> ast.expr:
    """The expression ``pattern`` with ``_i`` replaced by ``parts[i]`` (fresh nodes, no positions)."""
    return expr(pattern, **{f"_{i}": part for i, part in enumerate(parts)})


def locate(node, line: int, col: int) -> None:
    """Give ``node`` the position (line, 0-based col) if it has none yet.

    Only the node itself: when its function is compiled, every node under it without a position
    takes the one of its nearest located ancestor (``CodeUnit.located``, one pass over the function),
    so a statement's parts get its line and an expression's parts the expression's."""
    if getattr(node, "lineno", None) is None:
        node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = line, col, line, col


def name(n: str, store: bool = False) -> ast.Name:
    """A Python local of generated code (names the backend chose)."""
    return ast.Name(n, ast.Store() if store else ast.Load())


def local(key: str, store: bool = False) -> ast.Subscript:
    """``e['key']``: a local variable of the rule (its env key is a constant, never a name)."""
    return ast.Subscript(ast.Name("e", ast.Load()), ast.Constant(key), ast.Store() if store else ast.Load())


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
