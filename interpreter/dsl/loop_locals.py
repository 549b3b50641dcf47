"""The loop variable of a generated comprehension as a Python local, when nothing else reads it from ``e``.

``[each c in X where P(c)]`` is lowered to ``[c for e['c.1'] in X if P]`` with ``P`` reading
``e['c.1']``: the variable lives in the frame's env dict, so helpers and closures handed ``e`` see it.
When the code of the element and the condition never hands ``e`` itself on, nothing but that code
reads the variable: it becomes a Python local of the comprehension (``[v0 for v0 in X if P]``), a
store and reads in fast locals instead of dict operations on every item.  The env dict then no longer
keeps the last item after the loop, which nothing reads (the key is the comprehension's own).

Both are decided from what the lowering recorded as it built that code (static.CardUses), never by
reading the code: ``whole`` (``e`` handed on: to sort_by, or by a comprehension inside kept in ``e``)
and ``deepest``, the highest number of a loop local inside.  Names are the backend's: ``v`` and a
number, one more than the deepest comprehension inside (so nested comprehensions get distinct names,
the same in every process).

The reads of the variable are built as ``e[key]``, as every local's: the probes that tabulate a
condition per card run that code against an env dict before the comprehension around it is decided.
The lowering keeps the nodes it made for them (:class:`LoopReads`); a variable made a local has each
turned into a read of the local where it stands, in the trees already built around it.  No other
code holds them: code that does (sort_by's key and condition, functions of their own) hands ``e`` on.
"""

from __future__ import annotations

import ast

from .pyast import local


class LoopReads:
    """The reads of the variables of the 'each' scans being lowered, by env key, as the lowering makes them.
    Reached as ``ctx.loop_reads``."""

    __slots__ = ("_reads",)

    def __init__(self):
        self._reads: dict = {}  # env key of a scan being lowered -> the e[key] nodes made for its variable

    def open(self, key: str) -> None:
        """A scan whose variable has the env key ``key`` is being lowered: keep the reads made of it."""
        self._reads[key] = []

    def drop(self, key: str) -> None:
        """The scan of ``key`` became no comprehension (a per-card table, a copy): its reads stay as they are."""
        self._reads.pop(key, None)

    def read(self, key: str) -> ast.Subscript:
        """``e[key]``: a read of a local variable, kept if it is the variable of a scan being lowered."""
        node = local(key)
        found = self._reads.get(key)
        if found is not None:
            found.append(node)
        return node

    def close(self, key: str, uses) -> str | None:
        """The Python local the comprehension of ``key`` loops with, every read made of its variable now a
        read of it; None when ``uses`` (the record of the code of its element and condition) says that code
        hands ``e`` on, the variable then kept in ``e``.  ``uses`` then also records the local, for the code
        around it."""
        reads = self._reads.pop(key)
        if uses.whole:
            return None
        number = uses.deepest + 1
        var = f"v{number}"
        for node in reads:
            _read_local(node, var)
        uses.holds_local(number)
        return var


def _read_local(node: ast.Subscript, var: str) -> None:
    """Make the read ``e[key]`` a read of the Python local ``var``, in place: it keeps its position, and
    every tree built around it now reads the local."""
    node.__class__ = ast.Name
    del node.value, node.slice
    node.id = var
