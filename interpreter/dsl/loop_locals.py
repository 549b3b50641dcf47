"""The loop variable of a generated comprehension as a Python local, when nothing else reads it from ``e``.

``[each c in X where P(c)]`` is lowered to ``[c for e['c.1'] in X if P]`` with ``P`` reading
``e['c.1']``: the variable lives in the frame's env dict, so helpers and closures handed ``e`` see it.
When every use of ``e`` inside the element and the condition is a read of one entry (``e[...]``)
and ``e`` itself is never handed on, nothing but that code reads the variable: it becomes a Python
local of the comprehension (``[v0 for v0 in X if P]``), a store and reads in fast locals instead of
dict operations on every item.  The env dict then no longer keeps the last item after the loop,
which nothing reads (the key is the comprehension's own).

Names are the backend's: ``v`` and a number, the smallest not used inside (so nested
comprehensions get distinct names, the same in every process).
"""

from __future__ import annotations

import ast
import copy
import re

_LOOP_NAME = re.compile(r"v(\d+)\Z")


def loop_local(key: str, parts: list):
    """A fresh Python name for the loop variable ``e[key]`` of a comprehension over ``parts`` (its element
    and condition trees), or None if some part hands ``e`` itself on (the variable must stay in ``e``)."""
    names, reads, used = 0, 0, set()
    for part in parts:
        for node in ast.walk(part):
            kind = type(node)
            if kind is ast.Name:
                if node.id == "e":
                    names += 1
                else:
                    found = _LOOP_NAME.match(node.id)
                    if found:
                        used.add(int(found.group(1)))
            elif kind is ast.Subscript and type(node.value) is ast.Name and node.value.id == "e" \
                    and type(node.slice) is ast.Constant and type(node.slice.value) is str:
                reads += 1
    if names != reads:  # 'e' handed on (a helper or closure call, a whole-env read): keep the variable in e
        return None
    return f"v{min(set(range(len(used) + 1)) - used)}"


def read_as_local(tree, key: str, var: str):
    """A copy of ``tree`` with every read of ``e[key]`` made a read of the local ``var``."""
    return _Reads(key, var).visit(copy.deepcopy(tree))


class _Reads(ast.NodeTransformer):
    def __init__(self, key, var):
        self.key, self.var = key, var

    def visit_Subscript(self, node):
        if type(node.value) is ast.Name and node.value.id == "e" and type(node.slice) is ast.Constant \
                and node.slice.value == self.key and type(node.ctx) is ast.Load:
            return ast.copy_location(ast.Name(self.var, ast.Load()), node)
        return self.generic_visit(node)
