"""The kind rules of expressions: what each name refers to, and which kinds fit together.

The analysis pass (:mod:`interpreter.dsl.analysis`) asks these questions of every
node before any code is built, and only it; each answer comes with the same
located :class:`CompileError` texts the tests pin:

* :meth:`ExpressionChecker.resolve_name` / :meth:`resolve_attr` say what a name
  or ``x.name`` refers to, as a :class:`Ref` (a local variable and its env key,
  an inlined parameter, a zone, a parameter, a game or player variable, a card
  property table...) with its kind;
* ``check_*`` refuse operands of the wrong kinds and give the result's kind.

Nothing here builds code; the lowering (lower_expr.py) reads the analysis's notes.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import ast as A
from . import types as T
from .procedures import suggest
from .visitor import NodeVisitor

BUILTIN_NAMES = ("players", "player_count", "active")


@dataclass(frozen=True)
class Ref:
    """What a name refers to: ``what`` (see below), its ``kind``, and ``data``.

    ``what`` is one of ``local`` (data: the env key; None for an 'each' variable, whose
    key is numbered when it is lowered), ``alias`` (an inlined function's parameter;
    data: the caller's argument tree and its kind), ``players``,
    ``player_count``, ``active``, ``spaces``, ``zone`` (data: the zone's index),
    ``parameter`` (data: its value), ``game_variable``, ``player_variable``,
    ``card_property`` (data: the property's name) or ``card_name``.
    """

    what: str
    kind: str
    data: object = None


class ExpressionChecker(NodeVisitor):
    """The static checks the expression analysis asks (names, attributes, calls, operators).
    Reached as ``ctx.checker``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    # ---------------------------------------------------------------- names
    def resolve_name(self, node: A.Name, scope) -> Ref:
        name = node.name
        if name in scope.aliases:
            return Ref("alias", scope.aliases[name][1], scope.aliases[name])
        if name in scope.names:
            return Ref("local", scope.names[name], scope.keys.get(name, name))
        m = self.ctx.m
        if name == "players":
            return Ref("players", "list:player")
        if name == "player_count":
            return Ref("player_count", "int")
        if name == "active":
            return Ref("active", "player")
        if name == "spaces" and self.ctx.board is not None:
            return Ref("spaces", "list:space")
        if name in m.zones:
            spec = m.zones[name]
            if spec.per != "game":
                raise self.ctx.err(f"zone {name!r} belongs to each {spec.per}; say whose: {name}({spec.per[0]})", node,
                               "name")
            return Ref("zone", "zone", spec.base)
        if name in m.params:
            v = m.params[name]
            return Ref("parameter", T.kind_of_value(v), v)
        if name in m.gvars:
            raise self.ctx.err(f"{name!r} is a game variable; write game.{name}", node, "name")
        if name in m.pvars:
            raise self.ctx.err(f"{name!r} is a player variable; write p.{name} for a player p", node, "name")
        known = list(scope.names) + list(m.zones) + list(m.params) + list(BUILTIN_NAMES)
        raise self.ctx.err(f"unknown name {name!r}{suggest(name, known)}", node, "name")

    def game_attr(self, node: A.Attr, scope) -> Ref | None:
        """``game.x``: a game variable (None if ``node`` is not of that form)."""
        if not (isinstance(node.obj, A.Name) and node.obj.name == "game" and "game" not in scope.names):
            return None
        attr = node.name
        if attr not in self.ctx.m.gvars:
            raise self.ctx.err(f"unknown game variable {attr!r}{suggest(attr, self.ctx.m.gvars)}", node, "name")
        return Ref("game_variable", self.ctx.m.gvars[attr], attr)

    def resolve_attr(self, node: A.Attr, kind: str) -> Ref:
        """``x.name`` for a value ``x`` of ``kind``: a card's name or property, a player's variable."""
        attr = node.name
        if kind == "card":
            if attr == "name":
                return Ref("card_name", "str")
            if attr not in self.ctx.m.properties:
                raise self.ctx.err(f"cards have no property {attr!r}{suggest(attr, self.ctx.m.properties)}", node, "name")
            return Ref("card_property", self.ctx.m.properties[attr][1], attr)
        if kind == "player":
            if attr not in self.ctx.m.pvars:
                raise self.ctx.err(f"players have no variable {attr!r}{suggest(attr, self.ctx.m.pvars)}", node, "name")
            return Ref("player_variable", self.ctx.m.pvars[attr], attr)
        if kind == T.ANY:
            raise self.ctx.err(f"cannot tell what .{attr} means here: the value's kind is unknown "
                           "(give the parameter a kind, e.g. card c)", node)
        raise self.ctx.err(f"{T.describe(kind)} has no .{attr}", node)

    def resolve_call(self, node: A.Call, scope) -> str:
        """What ``name(...)`` calls: ``zone`` (a zone of each player or space), ``counter``, ``function``,
        ``quantity``, ``sort_by`` or ``builtin``."""
        from .builtins import BUILTINS

        name, m = node.func, self.ctx.m
        if name in scope.names:
            raise self.ctx.err(f"{name!r} is a variable, not a function", node, "name")
        for what, table in (("zone", m.zones), ("counter", m.counters), ("function", m.functions),
                            ("quantity", m.quantities)):
            if name in table:
                return what
        if name in m.procedures:
            raise self.ctx.err(f"{name}() is a procedure (it changes the game); call it as a statement, "
                           f"e.g. 'let x = {name}(...)'", node)
        if name == "sort_by":
            return "sort_by"
        if name in BUILTINS:
            return "builtin"
        known = list(m.functions) + list(m.procedures) + list(BUILTINS) + list(m.zones) + list(m.quantities)
        hint = suggest(name, known)
        if hint and hint[len("; did you mean '"):-2] in m.zones:  # a misspelt zone of each player or space
            raise self.ctx.err(f"unknown zone or function {name!r}{hint} (a zone of each player or space is "
                               "written with its owner: zone(p), zone(space))", node, "name")
        raise self.ctx.err(f"unknown function {name!r}{hint}", node, "name")

    # ---------------------------------------------------------------- operators
    def check_index(self, node: A.Index, kind: str, key_kind: str) -> tuple[str, str]:
        """``x[k]``: ('table', value kind), ('zone', 'card') or ('list', item kind)."""
        vkind = T.table_value(kind)
        if vkind is not None:  # the loader gave every table one kind of value
            return "table", vkind
        if T.is_list(kind):
            if not T.fits(key_kind, "int") and not T.fits(key_kind, "player"):
                raise self.ctx.err(f"a list is indexed by a number or a player, not {T.describe(key_kind)}", node.key)
            return ("zone", "card") if kind == "zone" else ("list", T.element(kind))
        items = T.tuple_items(kind)
        if items is not None:  # pick[0], pick[1]: a part of a pair, by a number written in the rule
            at = node.key.value if isinstance(node.key, A.Const) and type(node.key.value) is int else None
            if at is None or not 0 <= at < len(items):
                raise self.ctx.err(f"a part of {T.describe(kind)} is read by a number from 0 to {len(items) - 1} "
                               f"written in the rule (or take it apart: 'for a, b in [pair]')", node.key)
            return "list", items[at]
        raise self.ctx.err(f"cannot index {T.describe(kind)}", node)

    def check_list(self, items, kinds) -> str:
        """The kind of a list written ``[a, b, ...]``: its items must have one kind."""
        kind = "none"  # '[]' takes the kind of what it is joined with or replaced by
        for k, item in zip(kinds, items):
            joined = T.unify(kind, k)
            if joined is None:
                raise self.ctx.err(f"a list holds values of one kind; this item is {T.describe(k)}, but the items "
                               f"before it make {T.describe(T.list_of(kind))}", item)
            kind = joined
        return T.list_of(kind)

    def check_binop(self, node: A.BinOp, lk: str, rk: str) -> tuple[str, str]:
        """``a op b``: ('join_lists', kind), ('join_texts', 'str') or ('arith', 'int')."""
        op = node.op
        if op == "+" and T.is_list(lk) and T.is_list(rk):
            joined = T.unify(T.element(lk), T.element(rk))
            if joined is None:
                raise self.ctx.err(f"'+' joins lists of one kind, not {T.plural(T.element(lk))} and "
                               f"{T.plural(T.element(rk))}", node)
            return "join_lists", T.list_of(joined)
        if op == "+" and lk == "str" and rk == "str":
            return "join_texts", "str"
        for k, n in ((lk, node.left), (rk, node.right)):
            if not T.fits(k, "int"):
                raise self.ctx.err(f"'{op}' needs numbers, not {T.describe(k)}", n)
        return "arith", "int"

    def check_membership(self, node: A.Compare, lk: str, rk: str) -> None:
        """``a in list`` / ``a not in list``."""
        if not T.fits(lk, T.element(rk)):
            raise self.ctx.err(f"'{node.op}' compares {T.describe(lk)} with {T.describe(T.list_of(T.element(rk)))}", node)

    def check_compare(self, node: A.Compare, lk: str, rk: str) -> None:
        """``a == b``, ``a < b``...: comparable kinds; numbers for an order."""
        op = node.op
        if not (T.fits(lk, rk) or T.fits(rk, lk)):
            raise self.ctx.err(f"cannot compare {T.describe(lk)} with {T.describe(rk)}", node)
        for kind, other_kind, other in ((lk, rk, node.right), (rk, lk, node.left)):
            if kind == "space" and other_kind == "str" and isinstance(other, A.Const):
                raise self.ctx.err(f'no space is called "{other.value}", so this comparison is never true', other)
        if op in ("<", "<=", ">", ">=") and (not (T.fits(lk, "int") and T.fits(rk, "int")) or "none" in (lk, rk)):
            raise self.ctx.err(f"'{op}' compares numbers, not {T.describe(lk)} and {T.describe(rk)}", node)

    def check_kind(self, node, kind: str, expected: str, what: str) -> None:
        if not T.fits(kind, expected):
            raise self.ctx.err(f"{what} must be {T.describe(expected)}, not {T.describe(kind)}", node)

    def check_args(self, node: A.Call, params, name: str) -> list:
        """The positional arguments of a call of a user function, procedure or quantity (their number checked)."""
        positional = [a for a in node.args if not isinstance(a, tuple)]
        if len(positional) != len(node.args):
            raise self.ctx.err(f"{name}() takes positional arguments only", node)
        if len(positional) != len(params):
            raise self.ctx.err(f"{name}() takes {len(params)} argument{'s' if len(params) != 1 else ''} "
                           f"({', '.join(f'{T.DECLARED.get(k, k)} {n}' for n, k in params)}), got {len(positional)}",
                           node)
        return positional

    def check_arg(self, arg, kind: str, pname: str, pkind: str, name: str) -> None:
        if not T.fits(kind, pkind):
            raise self.ctx.err(f"argument {pname!r} of {name}() must be {T.describe(pkind)}, "
                           f"not {T.describe(kind)}", arg)
