"""Python ``ast`` built from the backend's own code shapes.

:func:`shape` parses a fixed piece of Python written in the backend (never text
from a definition) once, and returns a fresh copy of its statements with the
upper-case placeholder names replaced by ``ast`` nodes: an expression for a
name (``VALUE``), a list of statements for a placeholder standing alone as a
statement (``BODY``; a tuple of statements where it may be none, the block holding others).  :func:`expr` does the same for one expression, and
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


@functools.lru_cache(maxsize=None)
def _parsed(source: str) -> tuple:
    """Recipes of the statements of ``source`` (see :func:`_recipe`)."""
    return tuple(_recipe(node) for node in ast.parse(textwrap.dedent(source)).body)


_SHARED = (ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop)  # no fields, no positions
_NODE, _NAME, _STATEMENT = 0, 1, 2
_MISSING = object()


def _recipe(node) -> tuple:
    """How to build a fresh copy of template ``node``, worked out once per template:
    ``(_NODE, class, [(field, how, what)])`` with ``how`` 0 (a value kept as it is: a name, a number,
    an operator), 1 (a node: its recipe) or 2 (a list: recipes, or (None, value) items); ``(_NAME,
    name, recipe, stored)`` for a name (a placeholder if ``subs`` has it); ``(_STATEMENT, name, recipe)`` for a
    name standing alone as a statement (a placeholder for a list of statements, or an expression)."""
    cls = node.__class__
    if cls is ast.Expr and node.value.__class__ is ast.Name:
        return _STATEMENT, node.value.id, _node_recipe(node)
    if cls is ast.Name:
        return _NAME, node.id, _node_recipe(node), isinstance(node.ctx, ast.Store)
    return _node_recipe(node)


def _node_recipe(node) -> tuple:
    fields = []
    for field in node._fields:
        value = getattr(node, field, None)
        if value.__class__ is list:
            fields.append((field, 2, [_recipe(item) if isinstance(item, ast.AST) else (None, item) for item in value]))
        elif isinstance(value, ast.AST) and not isinstance(value, _SHARED):
            fields.append((field, 1, _recipe(value)))
        else:
            fields.append((field, 0, value))
    return _NODE, node.__class__, fields


def _build(recipe, subs: dict):
    """A fresh node (or a list of statements, for a statement placeholder) made by ``recipe``, placeholders
    filled; no positions (the compiler gives them)."""
    tag = recipe[0]
    if tag == _NAME:
        value = subs.get(recipe[1], _MISSING)
        if value is _MISSING:
            recipe = recipe[2]
        else:  # a placeholder used twice shares its node (compile reads trees, never changes them)
            if recipe[3] and hasattr(value, "ctx"):
                value = copy.copy(value)
                value.ctx = ast.Store()
            return value
    elif tag == _STATEMENT:
        value = subs.get(recipe[1])
        if value.__class__ is list:
            return list(value) or [ast.Pass()]
        if value.__class__ is tuple:  # (maybe none: a block with other statements)
            return list(value)
        recipe = recipe[2]
    values = []  # the fields in order: the node's constructor takes them so
    for _, how, what in recipe[2]:
        if how == 0:
            values.append(what)
        elif how == 1:
            values.append(_build(what, subs))
        else:
            items = []
            for item in what:
                if item[0] is None:
                    items.append(item[1])
                    continue
                made = _build(item, subs)
                if made.__class__ is list:
                    items.extend(made)
                else:
                    items.append(made)
            values.append(items)
    return recipe[1](*values)


def shape(source: str, **subs) -> list:
    """The statements of ``source`` with its placeholders replaced (see the module docstring)."""
    out = []
    for recipe in _parsed(source):
        made = _build(recipe, subs)
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

