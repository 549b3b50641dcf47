"""Reading a kind's parts at run time: the kinds of a tuple's values, for the code that shows a pair.

Kinds themselves are the checker's (:mod:`interpreter.dsl.types`); this part is here because the
core shows values by kind too (``Game.describe_value``) and sits below the compiler.
"""

from __future__ import annotations


def tuple_items(kind: str) -> list | None:
    """The kinds of a tuple's values in order ('tuple:(player,str)' -> ['player', 'str']); None if not a tuple."""
    if not kind.startswith("tuple:("):
        return None
    items, depth, start = [], 0, 7
    for i, ch in enumerate(kind[7:-1], 7):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(kind[start:i])
            start = i + 1
    items.append(kind[start:-1])
    return items
