"""The kinds of value an effect can hold, for static checks at load time.

Kinds are short strings: ``int``, ``bool``, ``str``, ``card``, ``player``,
``space``, ``zone``, ``table``, ``none``, ``any`` and ``list:<kind>``.  At run
time cards and players are both plain ints, so the checker is what stops an
author from passing a card where a player is expected.
"""

from __future__ import annotations

ANY = "any"
SCALARS = ("int", "bool", "str", "card", "player", "space")

# Names an author may write in a signature such as ``flip(p: player) -> card``.
DECLARABLE = {
    "int": "int", "bool": "bool", "str": "str", "card": "card", "player": "player", "space": "space",
    "zone": "zone", "cards": "list:card", "players": "list:player", "spaces": "list:space",
    "ints": "list:int", "strs": "list:str", "list": "list:any", "any": ANY,
}


def list_of(kind: str) -> str:
    return f"list:{kind}"


def is_list(kind: str) -> bool:
    return kind.startswith("list:") or kind == "zone"


def element(kind: str) -> str:
    """The kind of the items of a list (a zone holds cards)."""
    if kind == "zone":
        return "card"
    if kind.startswith("list:"):
        return kind[5:]
    return ANY


def fits(actual: str, expected: str) -> bool:
    """Can a value of kind ``actual`` be used where ``expected`` is required?"""
    if actual == expected or ANY in (actual, expected) or actual == "none" or expected == "none":
        return True
    if expected.startswith("list:") and (actual.startswith("list:") or actual == "zone"):
        return fits(element(actual), element(expected))
    if {actual, expected} == {"int", "bool"}:
        return True
    if actual == "space" and expected == "str":  # a space is its name
        return True
    return False


def join(a: str, b: str) -> str:
    """The kind of a variable that may hold either kind (for re-assignment)."""
    if a == b or b == "none":
        return a
    if a == "none":
        return b
    if a.startswith("list:") and b.startswith("list:"):
        return list_of(join(element(a), element(b)))
    return ANY


def describe(kind: str) -> str:
    """'list:card' -> 'a list of cards'."""
    if kind.startswith("list:"):
        inner = kind[5:]
        if inner.startswith("list:"):
            return "a list of lists" if inner == "list:any" else f"a list of lists of {inner[5:]}s"
        return "a list" if inner == ANY else f"a list of {inner}s"
    return {"int": "a number", "bool": "true/false", "str": "a text", "none": "none", ANY: "any value",
            "zone": "a zone", "table": "a table"}.get(kind, f"a {kind}")


def kind_of_value(value) -> str:
    """The kind of a constant from the YAML (parameters, property defaults)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, dict):
        return "table"
    if isinstance(value, list):
        kinds = {kind_of_value(v) for v in value}
        return list_of(kinds.pop() if len(kinds) == 1 else ANY)
    if value is None:
        return "none"
    return ANY
