"""The loop variable of a generated comprehension as a Python local, when nothing else reads it from ``e``.

``[each c in X where P(c)]`` is lowered to ``[c for e['c.1'] in X if P]`` with ``P`` reading
``e['c.1']``: the variable lives in the frame's env dict, so helpers and closures handed ``e`` see it.
When every use of ``e`` inside the element and the condition is a read of one entry (``e[...]``)
and ``e`` itself is never handed on, nothing but that code reads the variable: it becomes a Python
local of the comprehension (``[v0 for v0 in X if P]``), a store and reads in fast locals instead of
dict operations on every item.  The env dict then no longer keeps the last item after the loop,
which nothing reads (the key is the comprehension's own).

Names are the backend's: ``v`` and a number, one more than the deepest comprehension inside (so
nested comprehensions get distinct names, the same in every process).
"""

from __future__ import annotations

import ast
import copy

_Name, _Subscript, _Constant, _Load, _AST = ast.Name, ast.Subscript, ast.Constant, ast.Load, ast.AST


class _HandedOn(Exception):
    """``e`` itself is used (not one of its entries): the loop variable must stay in ``e``."""


def as_locals(key: str, parts: list):
    """(name, parts rewritten) with every read of ``e[key]`` in ``parts`` (a comprehension's element and
    condition trees) made a read of a fresh local ``name``; None if some part hands ``e`` itself on.

    The rewritten trees are new nodes on the paths to the reads, the rest shared: the trees given
    are left as they were (other code may hold their nodes).
    """
    found = [-1]  # the highest number of a loop local inside, then the placeholder names made
    try:
        marked = [_mark(part, key, found) for part in parts]
    except _HandedOn:
        return None
    var = f"v{found[0] + 1}"
    for made in found[1:]:
        made.id = var
    return var, [part if new is None else new for part, new in zip(parts, marked)]


_VAR = "\0"  # placeholder name while the local's number is not yet known


def _mark(node, key, found):
    """``node`` rewritten with reads of ``e[key]`` as the placeholder name, or None if it holds none."""
    kind = type(node)
    if kind is _Name:
        _note_name(node.id, found)
        return None
    if kind is _Subscript and type(node.value) is _Name and node.value.id == "e":
        return _mark_entry(node, key, found)
    changed = None
    for field in node._fields:
        value = getattr(node, field, None)
        if value.__class__ is list:
            new = _mark_items(value, key, found)
        elif isinstance(value, _AST):
            new = _mark(value, key, found)
        else:
            continue
        if new is not None:
            if changed is None:
                changed = copy.copy(node)
            setattr(changed, field, new)
    return changed


def _note_name(name: str, found) -> None:
    """A plain name: ``e`` itself handed on (the entry cannot become a local), else the highest ``vN`` noted."""
    if name == "e":
        raise _HandedOn
    if name[:1] == "v" and name[1:].isdigit() and int(name[1:]) > found[0]:
        found[0] = int(name[1:])


def _mark_entry(node, key, found):
    """An ``e[...]`` subscript: a read of ``e[key]`` as the placeholder, another entry as it was (None)."""
    if type(node.slice) is not _Constant:
        raise _HandedOn
    if node.slice.value == key:
        if type(node.ctx) is not _Load:  # the variable written inside: it stays in e
            raise _HandedOn
        made = ast.copy_location(_Name(_VAR, _Load()), node)
        found.append(made)
        return made
    return None  # another entry of e: read (or written) as it was


def _mark_items(items: list, key, found):
    """A list field rewritten item by item (a copy, only if an item changed), or None if none did."""
    new = None
    for i, item in enumerate(items):
        if isinstance(item, _AST):
            got = _mark(item, key, found)
            if got is not None:
                if new is None:
                    new = items[:]
                new[i] = got
    return new

