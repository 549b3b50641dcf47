"""Python ``ast`` built from the backend's own code shapes.

:func:`shape` parses a fixed piece of Python written in the backend (never text
from a definition) once, and returns a fresh copy of its statements with the
upper-case placeholder names replaced by ``ast`` nodes: an expression for a
name (``VALUE``), a list of statements for a placeholder standing alone as a
statement (``BODY``).  Author values only arrive as those nodes (constants,
``K[i]`` entries, keys of ``e``), so a shape is code the backend wrote, filled
with values.  The copies carry no positions: the statement compiler gives them
the YAML line of the statement they come from (see ``CodeUnit.located``).
"""

from __future__ import annotations

import ast
import copy
import functools
import textwrap

_POSITIONS = ("lineno", "col_offset", "end_lineno", "end_col_offset")


@functools.lru_cache(maxsize=None)
def _parsed(source: str) -> tuple:
    body = ast.parse(textwrap.dedent(source)).body
    for node in body:
        for sub in ast.walk(node):
            for attr in _POSITIONS:
                if attr in sub._attributes:
                    setattr(sub, attr, None)
    return tuple(body)


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
    out = []
    for node in _parsed(source):
        made = _build(node, subs)
        out.extend(made if made.__class__ is list else [made])
    return out


def locate(node, line: int, col: int) -> None:
    """Give ``node`` and the nodes under it that have no position yet the position (line, 0-based col).

    A node that has one already (a statement lowered before, an expression located by its compiler)
    keeps it, with everything under it."""
    stack = [node]
    while stack:
        n = stack.pop()
        if "lineno" in n._attributes:
            if getattr(n, "lineno", None) is not None:
                continue
            n.lineno, n.col_offset, n.end_lineno, n.end_col_offset = line, col, line, col
        for field in n._fields:
            value = getattr(n, field, None)
            if value.__class__ is list:
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)


def expr(source: str, **subs) -> ast.expr:
    """One expression written as backend code, placeholders replaced."""
    made = shape(source, **subs)[0]
    return made.value


def local(key: str, store: bool = False) -> ast.expr:
    """``e[key]``: a local of the rule (its env key is a constant, never a name)."""
    return ast.Subscript(ast.Name("e", ast.Load()), ast.Constant(key), ast.Store() if store else ast.Load())


def name(py: str, store: bool = False) -> ast.expr:
    """A Python local of generated code (names the backend chose)."""
    return ast.Name(py, ast.Store() if store else ast.Load())
