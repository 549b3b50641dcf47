"""The kinds of value an effect can hold, for static checks at load time.

Kinds are short strings: ``int``, ``bool``, ``str``, ``card``, ``player``,
``space``, ``zone``, ``none``, ``any``, ``list:<kind>``, ``table:<kind>`` (a
parameter table, by the kind of its values) and ``tuple:(<kind>,<kind>...)`` (a
fixed number of values, such as the pairs ``product(xs, ys)`` makes; a list at run time).  At run
time cards and players are both plain ints, so the checker is what stops an
author from passing a card where a player is expected.
"""

from __future__ import annotations

from ..errors import not_text_problem
from ..runtime.kinds import tuple_items
from ..runtime.limits import MAX_INT, MAX_TEXT

ANY = "any"

# Names an author may write in a signature such as ``flip(player p) -> card``.
DECLARABLE = {
    "int": "int", "bool": "bool", "str": "str", "card": "card", "player": "player", "space": "space",
    "zone": "zone", "cards": "list:card", "players": "list:player", "spaces": "list:space",
    "ints": "list:int", "strs": "list:str", "list": "list:any", "any": ANY,
}
DECLARED = {kind: name for name, kind in DECLARABLE.items()}  # a kind as an author writes it: "list:card" -> "cards"


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


def holds_cards(kind: str) -> bool:
    """Does a value of this kind hold cards (a card, a list of them, a pair with one)?  (A zone is a place, not
    cards: ``list(zone)`` is a list of cards.)"""
    if kind == "card":
        return True
    if kind.startswith("list:"):
        return holds_cards(kind[5:])
    return kind.startswith("tuple:") and any(map(holds_cards, tuple_items(kind) or ()))


def tuple_of(kinds) -> str:
    return "tuple:(" + ",".join(kinds) + ")"


def unpacked(var, kind: str) -> list:
    """(name, kind) of each variable a loop or menu entry binds to an item of ``kind``: ``for c in`` binds
    one, ``for q, r in`` the values of a pair in order (checked at load by the statement analysis)."""
    if isinstance(var, str):
        return [(var, kind)]
    items = tuple_items(kind) or []
    return [(name, items[i] if i < len(items) else ANY) for i, name in enumerate(var)]


def fits(actual: str, expected: str) -> bool:
    """Can a value of kind ``actual`` be used where ``expected`` is required?"""
    if actual == expected or ANY in (actual, expected) or "none" in (actual, expected):
        return True
    if expected.startswith("list:") and (actual.startswith("list:") or actual == "zone"):
        return fits(element(actual), element(expected))
    if expected.startswith("table:") and actual.startswith("table:"):
        return fits(actual[6:], expected[6:])
    if expected.startswith("tuple:") and actual.startswith("tuple:"):
        mine, theirs = tuple_items(actual), tuple_items(expected)
        return len(mine) == len(theirs) and all(fits(a, b) for a, b in zip(mine, theirs))
    return (actual, expected) in _ALSO_FITS


_ALSO_FITS = {("int", "bool"), ("bool", "int"), ("space", "str")}  # (a space is its name)


def showable(kind: str) -> bool:
    """Can an action text show a value of this kind by name (never an internal number)?"""
    if kind.startswith("list:"):
        return kind[5:] != "zone" and showable(kind[5:])
    if kind.startswith("tuple:"):
        return all(item != "zone" and showable(item) for item in tuple_items(kind))
    return kind in ("card", "player", "space", "str", "int", "bool", "none", "zone")


def unify(a: str, b: str) -> str | None:
    """The kind of a list holding items of kinds ``a`` and ``b``, or None if they clash (a card and a text).

    ``none`` goes with anything; a value of unknown kind ('any') makes the whole unknown; a space
    joins texts (a space is its name) and a zone joins lists of cards.
    """
    if a == b or b == "none":
        return a
    if a == "none":
        return b
    if ANY in (a, b):
        return ANY
    if a.startswith("list:") and b.startswith("list:"):
        inner = unify(a[5:], b[5:])
        return None if inner is None else list_of(inner)
    if a.startswith("tuple:") and b.startswith("tuple:") and len(tuple_items(a)) == len(tuple_items(b)):
        joined = [unify(x, y) for x, y in zip(tuple_items(a), tuple_items(b))]
        return None if None in joined else tuple_of(joined)
    return _JOINED.get(frozenset((a, b)))


_JOINED = {frozenset(("int", "bool")): "int", frozenset(("space", "str")): "str",
           frozenset(("zone", "list:card")): "list:card"}


def plural(kind: str) -> str:
    """'card' -> 'cards', 'int' -> 'numbers'."""
    if kind.startswith("list:") or kind.startswith("table:") or kind == "zone":
        return describe(kind)[2:].replace("list", "lists", 1).replace("table", "tables", 1).replace("zone", "zones")
    return _PLURAL.get(kind, kind + "s")


def describe(kind: str) -> str:
    """'list:card' -> 'a list of cards'."""
    if kind.startswith("list:"):
        inner = kind[5:]
        if inner == "none":
            return "an empty list"
        if inner.startswith("list:"):
            return "a list of lists" if inner == "list:any" else f"a list of lists of {inner[5:]}s"
        if inner.startswith("tuple:"):
            items = tuple_items(inner)
            return (f"a list of {_TUPLES_PLURAL.get(len(items), f'tuples of {len(items)}')} "
                    f"({', '.join(describe(k) for k in items)})")
        return "a list" if inner == ANY else f"a list of {_PLURAL.get(inner, inner + 's')}"
    if kind.startswith("table:"):
        inner = kind[6:]
        return "a table" if inner == ANY else f"a table of {_PLURAL.get(inner, inner + 's')}"
    if kind.startswith("tuple:"):
        items = tuple_items(kind)
        return f"{_TUPLES.get(len(items), f'a tuple of {len(items)}')} ({', '.join(describe(k) for k in items)})"
    return {"int": "a number", "bool": "true/false", "str": "a text", "none": "none", ANY: "any value",
            "zone": "a zone"}.get(kind, f"a {kind}")


_TUPLES = {2: "a pair", 3: "a triple"}
_TUPLES_PLURAL = {2: "pairs", 3: "triples"}
_PLURAL = {"int": "numbers", "bool": "true/false values", "str": "texts", ANY: "values"}


def table_value(kind: str) -> str | None:
    """The kind of a table's values ('table:int' -> 'int'); None if ``kind`` is not a table."""
    return kind[6:] if kind.startswith("table:") else None


def kind_of_value(value) -> str:
    """The kind of a constant from the YAML (parameters, property defaults).

    A list or table whose items share one kind has that kind's items ('list:int',
    'table:int'); the loader refuses the others (:func:`constant_problem`), so what
    an effect reads from a constant is known exactly.
    """
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, dict):
        return "table:" + _items_kind(value.values())
    if isinstance(value, list):
        return list_of(_items_kind(value))
    if value is None:
        return "none"
    return ANY


def _items_kind(values) -> str:
    kind = "none"
    for value in values:
        kind = _unify(kind, kind_of_value(value))
        if kind is None:
            return ANY
    return ANY if kind == "none" else kind


def _unify(a: str, b: str) -> str | None:
    """The one kind that describes values of kinds ``a`` and ``b`` alike, or None if they clash.

    Null fits anything, and the items of an empty list or table ('any') take the other's kind.
    """
    if a == b or b == "none" or b == ANY:
        return a
    if a == "none" or a == ANY:
        return b
    for prefix in ("list:", "table:"):
        if a.startswith(prefix) and b.startswith(prefix):
            inner = _unify(a[len(prefix):], b[len(prefix):])
            return None if inner is None else prefix + inner
    return None


def constant_problem(value, path: tuple = ()):
    """Why a constant from the YAML cannot be given one exact kind, as (path inside it, reason); else None.

    A constant is a whole number, a text, true/false or null, or a list or table whose
    items all have one kind (null may stand among them).  A table that mixes numbers
    and mappings, say, would hand an effect a value its checks never saw.  Sizes are
    checked here too (numbers of at most 18 digits, texts of at most 10,000 characters),
    one check for the file's constants and for the values a variant's settings give.
    """
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        if -MAX_INT < value < MAX_INT:
            return None
        return path, ("this number is too large: whole numbers in a definition have at most 18 digits "
                      "(numbers in rules stay within 10^18)")
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            return path, (f"this text has {len(value):,} characters; texts in a definition have at most "
                          f"{MAX_TEXT:,}, as texts in rules")
        problem = not_text_problem(value)
        return None if problem is None else (path, f"this is not text: {problem}")
    if isinstance(value, float):
        return path, "this is not a whole number (numbers in a definition are whole numbers)"
    if isinstance(value, (list, dict)):
        return _collection_problem(value, path)
    return path, f"a value of type {type(value).__name__} cannot be a constant"  # pragma: no cover


def _collection_problem(value, path: tuple):
    """:func:`constant_problem` of a list or a table: each item's, then whether the items are of one kind."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    kind, first = "none", None
    for key, item in items:
        problem = constant_problem(item, path + (key,))
        if problem is not None:
            return problem
        item_kind = kind_of_value(item)
        joined = _unify(kind, item_kind)
        if joined is None:
            what = "table" if isinstance(value, dict) else "list"
            return path + (key,), (f"the values of a {what} must all be of one kind, but this one is "
                                   f"{describe(item_kind)} and the one at {first!r} is {describe(kind)}")
        if first is None and item_kind not in ("none", ANY):
            first = key
        kind = joined
    return None
