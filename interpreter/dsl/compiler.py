"""Compile effect ASTs into Python closures, once, at load.

Two shapes come out of here:

* **direct closures** ``f(state, env)`` for expressions and for statements that
  never wait for a player.  They run at full Python speed with no tree walking.
* **resumable code**: for procedures that may wait for a decision, a flat list of
  instructions ``ins(state, frame, pc) -> next pc``.  A frame is plain data
  ``[procedure id, pc, locals, return slot]`` stored in the state, so a game
  suspended at a decision is still JSON-serialisable and clones cheaply.
  Straight runs of non-waiting statements are fused into a single instruction.

Static checks (unknown names, arity, kinds) happen here and raise
:class:`CompileError` with the offending node; the model builder turns that
into a located :class:`DefinitionError`.
"""

from __future__ import annotations

import difflib
import itertools
import math
import operator
from itertools import compress

from .. import rng as RNG
from ..errors import RuleError
from . import ast as A
from . import types as T
from .builtins import BUILTINS, BuiltinError

BREAK, CONTINUE, RETURN = 1, 2, 3
TRANSFER, SUSPEND = -1, -2
MAX_OPTIONS = 100_000  # e.g. choosing 4 of 24 distinct cards is 10,626 options


class CompileError(Exception):
    def __init__(self, message: str, node: A.Node | None = None, cls: str = "type"):
        super().__init__(message)
        self.message, self.node, self.cls = message, node, cls


class GameOver(Exception):
    """Raised by ``end game`` inside direct code to unwind to the run loop."""


def suggest(name: str, candidates) -> str:
    close = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


class Proc:
    """A compiled procedure, trigger or card ability."""

    def __init__(self, pid: int, name: str, params: list, body: tuple, where, returns: str = T.ANY):
        self.id, self.name, self.params, self.body, self.where = pid, name, params, body, where
        self.returns = returns
        self.suspends = False
        self.direct = None  # f(state, env) -> value, for procedures that never wait
        self.code: list = []


class Func:
    """A pure user function: an expression with typed parameters."""

    def __init__(self, name: str, params: list, body: A.Node, where):
        self.name, self.params, self.body, self.where = name, params, body, where
        self.fn = None
        self.kind = None
        self.compiling = False


class Scope:
    """Local variables visible at a point: their kinds, and the env keys that hold them.

    ``aliases`` maps the parameters of an inlined function to the caller's
    compiled argument closures (see :meth:`Compiler.function_call`).
    """

    def __init__(self, names: dict, proc: Proc | None, aliases: dict | None = None):
        self.names = dict(names)
        self.keys: dict = {}
        self.aliases = dict(aliases or {})
        self.proc = proc
        self.loops: list = []  # (continue_label, exit_label) in resumable code
        self.counter = itertools.count()

    def child(self):
        s = Scope(self.names, self.proc, self.aliases)
        s.keys = dict(self.keys)
        s.loops = self.loops
        s.counter = self.counter
        return s


_each_keys = itertools.count()


class Label:
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = None


class Compiler:
    """Holds the model's tables and compiles snippets against them."""

    def __init__(self, model):
        self.m = model
        self.board = model.board
        self.zone_owner = model.zone_owner
        self.where = None  # where the snippet being compiled lives (for runtime error locations)

    # ---------------------------------------------------------------- helpers
    def location(self, node):
        """A Location for a node of the snippet being compiled (for runtime errors)."""
        return self.m.locate(self.where, node)

    def err(self, message, node, cls="type"):
        return CompileError(message, node, cls)

    # ============================================================ expressions
    def expr(self, node, scope: Scope):
        """Compile an expression: returns (closure, kind)."""
        method = getattr(self, "x_" + type(node).__name__, None)
        if method is None:
            raise self.err(f"{type(node).__name__} is not an expression", node, "syntax")
        return method(node, scope)

    def expect(self, node, scope, kind, what):
        fn, k = self.expr(node, scope)
        if not T.fits(k, kind):
            raise self.err(f"{what} must be {T.describe(kind)}, not {T.describe(k)}", node)
        return fn, k

    def as_list(self, node, scope, what):
        fn, k = self.expr(node, scope)
        if k == "zone":
            return zone_cards(fn), "list:card"
        if not T.is_list(k) and k != T.ANY:
            raise self.err(f"{what} must be a list or a zone, not {T.describe(k)}", node)
        return fn, k

    def x_Const(self, node, scope):
        value = node.value
        if isinstance(value, str) and self.board is not None and value in self.board.space_set:
            return _const(value), "space"  # a quoted space name: "r2c2"
        return _const(value), T.kind_of_value(value)

    def x_Name(self, node, scope):
        name = node.name
        if name in scope.aliases:
            return scope.aliases[name]
        if name in scope.names:
            key = scope.keys.get(name, name)
            fn = lambda s, e: e[key]  # noqa: E731
            fn.local_key = key  # lets callers fuse 'e[key]' into their own closure
            return fn, scope.names[name]
        m = self.m
        if name == "players":
            return (lambda s, e: s.players), "list:player"
        if name == "player_count":
            return (lambda s, e: s.n), "int"
        if name == "active":
            return (lambda s, e: s.gv["active"]), "player"
        if name == "spaces" and self.board is not None:
            spaces = list(self.board.spaces)
            return (lambda s, e: list(spaces)), "list:space"
        if name in m.zones:
            spec = m.zones[name]
            if spec.per != "game":
                raise self.err(f"zone {name!r} belongs to each {spec.per}; say whose: {name}({spec.per[0]})", node,
                               "name")
            return _const(spec.base), "zone"
        if name in m.params:
            v = m.params[name]
            return _const(v), T.kind_of_value(v)
        if name in m.gvars:
            raise self.err(f"{name!r} is a game variable; write game.{name}", node, "name")
        if name in m.pvars:
            raise self.err(f"{name!r} is a player variable; write p.{name} for a player p", node, "name")
        known = list(scope.names) + list(m.zones) + list(m.params) + ["players", "player_count", "active"]
        raise self.err(f"unknown name {name!r}{suggest(name, known)}", node, "name")

    def x_Attr(self, node, scope):
        attr = node.name
        if isinstance(node.obj, A.Name) and node.obj.name == "game" and "game" not in scope.names:
            if attr not in self.m.gvars:
                raise self.err(f"unknown game variable {attr!r}{suggest(attr, self.m.gvars)}", node, "name")
            return (lambda s, e: s.gv[attr]), self.m.gvars[attr]
        obj, kind = self.expr(node.obj, scope)
        if kind == "card":
            if attr == "name":
                names = self.m.card_names
                return (lambda s, e: "none" if (c := obj(s, e)) is None else names[c]), "str"
            if attr not in self.m.properties:
                raise self.err(f"cards have no property {attr!r}{suggest(attr, self.m.properties)}", node, "name")
            table, pkind = self.m.properties[attr]
            key = getattr(obj, "local_key", None)
            loc = self.location(node)
            if key is not None:
                def prop_of_local(s, e):
                    try:
                        return table[e[key]]
                    except TypeError:
                        raise RuleError(f"cannot read .{attr}: the card is none (is the zone empty?)", loc) from None
                return prop_of_local, pkind

            def prop(s, e):
                try:
                    return table[obj(s, e)]
                except TypeError:
                    raise RuleError(f"cannot read .{attr}: the card is none (is the zone empty?)", loc) from None
            return prop, pkind
        if kind == "player":
            if attr not in self.m.pvars:
                raise self.err(f"players have no variable {attr!r}{suggest(attr, self.m.pvars)}", node, "name")
            key = getattr(obj, "local_key", None)
            if key is not None:
                return (lambda s, e: s.pv[attr][e[key]]), self.m.pvars[attr]
            loc = self.location(node)

            def player_var(s, e):
                try:
                    return s.pv[attr][obj(s, e)]
                except TypeError:
                    raise RuleError(f"cannot read .{attr}: the player is none", loc) from None
            return player_var, self.m.pvars[attr]
        if kind == T.ANY:
            raise self.err(f"cannot tell what .{attr} means here: the value's kind is unknown "
                           "(give the parameter a kind, e.g. c: card)", node)
        raise self.err(f"{T.describe(kind)} has no .{attr}", node)

    def x_Index(self, node, scope):
        obj, kind = self.expr(node.obj, scope)
        key, kkind = self.expr(node.key, scope)
        if kind == "table":
            loc = self.location(node)
            if isinstance(node.obj, A.Name) and node.obj.name in self.m.params:
                table = self.m.params[node.obj.name]
                kinds = {T.kind_of_value(v) for v in table.values()}
                vkind = kinds.pop() if len(kinds) == 1 else T.ANY
                keys = ", ".join(map(str, table))

                def lookup(s, e):
                    k = key(s, e)
                    try:
                        return table[k]
                    except KeyError:
                        raise RuleError(f"the table {node.obj.name!r} has no entry {k!r} (it has {keys})",
                                        loc) from None
                return lookup, vkind
            return (lambda s, e: obj(s, e)[key(s, e)]), T.ANY
        if T.is_list(kind):
            if not T.fits(kkind, "int") and not T.fits(kkind, "player"):
                raise self.err(f"a list is indexed by a number or a player, not {T.describe(kkind)}", node.key)
            if kind == "zone":
                return (lambda s, e: s.zones[obj(s, e)][key(s, e)]), "card"
            loc = self.location(node)

            def item(s, e):
                try:
                    return obj(s, e)[key(s, e)]
                except IndexError:
                    raise RuleError("index out of range", loc) from None
            return item, T.element(kind)
        raise self.err(f"cannot index {T.describe(kind)}", node)

    def x_Each(self, node, scope):
        src, skind = self.as_list(node.source, scope, "the list after 'in'")
        inner = scope.child()
        inner.names[node.var] = T.element(skind)
        inner.aliases.pop(node.var, None)
        # Each 'each' gets its own env key, so it never clobbers a variable of the same name.
        key = f"{node.var}.{next(_each_keys)}"
        inner.keys[node.var] = key
        where = self.expect(node.where, inner, "bool", "the condition after 'where'")[0] if node.where else None
        if node.result is not None:
            res, rkind = self.expr(node.result, inner)
            out_kind = T.list_of(rkind)
        else:
            res, out_kind = None, T.list_of(T.element(skind))
        if T.element(skind) == "card":
            fast = self.static_each(src, key, where, res, inner)
            if fast is not None:
                return fast, out_kind
        return self._each(src, key, where, res), out_kind

    def static_each(self, src, key, where, res, scope):
        """'each c in cards where ... : ...' with tabulated condition and result, if they are static."""
        ok = self.static_table(where, key, scope) if where is not None else ([True] * len(self.m.card_names), None)
        if ok is None:
            return None
        values = None
        if res is not None:
            values = self.static_table(res, key, None, as_bool=False)
            if values is None:
                return None
            values = values[0]
        ok, other = ok
        # map/compress run the per-card lookups in C: no Python frame per card
        if other is None:
            okget = ok.__getitem__
            if values is None:
                return lambda s, e: list(compress(z := src(s, e), map(okget, z)))
            valget = values.__getitem__
            return lambda s, e: list(map(valget, compress(z := src(s, e), map(okget, z))))
        if values is None:
            return lambda s, e: list(compress(z := src(s, e), map(ok[e[other]].__getitem__, z)))
        valget = values.__getitem__
        return lambda s, e: list(map(valget, compress(z := src(s, e), map(ok[e[other]].__getitem__, z))))

    def static_table(self, fn, key, scope=None, as_bool=True):
        """Tabulate a per-card expression that reads only fixed card properties.

        Card properties never change, so ``c.suit != "hearts"`` is a fact about card
        ids: a table replaces a closure call per card at run time.  If the
        expression also reads one other card variable (``same_type(c, card)``),
        the table has two dimensions: ``table[other][c]``.  Returns
        ``(table, other_key)`` or None when the expression reads the game state.
        """
        cards = range(len(self.m.card_names))
        poisoned = _Poisoned()
        convert = bool if as_bool else (lambda v: v)
        try:
            return [convert(fn(poisoned, {key: c})) for c in cards], None
        except KeyError as missing:
            other = missing.args[0] if missing.args else None
        except Exception:  # it reads the state: not static
            return None
        names = {scope.keys.get(n, n): k for n, k in scope.names.items()} if scope is not None else {}
        if names.get(other) != "card" or len(cards) > 400:
            return None
        try:
            return [[convert(fn(poisoned, {key: c, other: o})) for c in cards] for o in cards], other
        except Exception:
            return None

    def filtered_call(self, node, scope):
        """If ``node`` is a call of a user function whose body is 'each ... where ...' (and can be
        inlined), return that Each node and the scope to compile it in; else None."""
        if not isinstance(node, A.Call) or node.func not in self.m.functions or node.func in scope.names:
            return None
        func = self.m.functions[node.func]
        body = func.body
        if not (isinstance(body, A.Each) and body.where is not None and body.result is None):
            return None
        if not all(_cheap(a) for a in node.args):
            return None
        self.ensure_function(func)
        args = self.bind_args(node, func.params, scope, node.func, with_kinds=True)
        aliases = {n: a for (n, _), a in zip(func.params, args)}
        return body, Scope({}, None, aliases), func.where

    def each_reduction(self, name, node, scope, where_=None):
        """count/any/all of 'each c in X where cond' without building the list."""
        saved = self.where
        if where_ is not None:
            self.where = where_
        try:
            src, skind = self.as_list(node.source, scope, "the list after 'in'")
            inner = scope.child()
            inner.names[node.var] = T.element(skind)
            inner.aliases.pop(node.var, None)
            key = f"{node.var}.{next(_each_keys)}"
            inner.keys[node.var] = key
            cond = self.expect(node.where, inner, "bool", "the condition after 'where'")[0]
        finally:
            self.where = saved
        table = self.static_table(cond, key, inner) if T.element(skind) == "card" else None
        if table is not None:
            ok, other = table
            # sum/any/all over map(table lookup): the per-card work runs in C
            if other is not None:
                if name in ("count", "size"):
                    return (lambda s, e: sum(map(ok[e[other]].__getitem__, src(s, e)))), "int"
                if name == "any":
                    return (lambda s, e: any(map(ok[e[other]].__getitem__, src(s, e)))), "bool"
                return (lambda s, e: all(map(ok[e[other]].__getitem__, src(s, e)))), "bool"
            okget = ok.__getitem__
            if name in ("count", "size"):
                if hasattr(src, "zone_of_local"):  # count(each c in hand(p) where ...): one closure
                    base, zkey = src.zone_of_local
                    fn = lambda s, e: sum(map(okget, s.zones[base + e[zkey]]))  # noqa: E731
                    fn.static_count = (okget, base, zkey)
                    return fn, "int"
                if hasattr(src, "zone_index"):
                    zi = src.zone_index
                    fn = lambda s, e: sum(map(okget, s.zones[zi]))  # noqa: E731
                    fn.static_count = (okget, zi, None)
                    return fn, "int"
                return (lambda s, e: sum(map(okget, src(s, e)))), "int"
            if name == "any":
                return (lambda s, e: any(map(okget, src(s, e)))), "bool"
            return (lambda s, e: all(map(okget, src(s, e)))), "bool"
        if name in ("count", "size"):
            def count(s, e):
                n = 0
                for x in src(s, e):
                    e[key] = x
                    if cond(s, e):
                        n += 1
                return n
            return count, "int"
        if name == "any":
            def any_(s, e):
                for x in src(s, e):
                    e[key] = x
                    if cond(s, e):
                        return True
                return False
            return any_, "bool"

        def all_(s, e):
            for x in src(s, e):
                e[key] = x
                if not cond(s, e):
                    return False
            return True
        return all_, "bool"

    @staticmethod
    def _each(src, var, where, res):
        if where is None and res is None:
            return lambda s, e: list(src(s, e))
        if res is None:
            def filt(s, e):
                out = []
                for x in src(s, e):
                    e[var] = x
                    if where(s, e):
                        out.append(x)
                return out
            return filt
        if where is None:
            def mapped(s, e):
                out = []
                for x in src(s, e):
                    e[var] = x
                    out.append(res(s, e))
                return out
            return mapped

        def both(s, e):
            out = []
            for x in src(s, e):
                e[var] = x
                if where(s, e):
                    out.append(res(s, e))
            return out
        return both

    def x_ListLit(self, node, scope):
        items = [self.expr(x, scope) for x in node.items]
        fns = [f for f, _ in items]
        kinds = {k for _, k in items}
        kind = T.list_of(kinds.pop() if len(kinds) == 1 else T.ANY)
        if all(isinstance(x, A.Const) for x in node.items):
            values = [x.value for x in node.items]
            return (lambda s, e: list(values)), kind
        return (lambda s, e: [f(s, e) for f in fns]), kind

    def x_BinOp(self, node, scope):
        left, lk = self.expr(node.left, scope)
        right, rk = self.expr(node.right, scope)
        op = node.op
        if op == "+" and T.is_list(lk) and T.is_list(rk):
            lf = (lambda s, e: s.zones[left(s, e)]) if lk == "zone" else left
            rf = (lambda s, e: s.zones[right(s, e)]) if rk == "zone" else right
            return (lambda s, e: lf(s, e) + rf(s, e)), T.list_of(T.join(T.element(lk), T.element(rk)))
        if op == "+" and lk == "str" and rk == "str":
            return (lambda s, e: left(s, e) + right(s, e)), "str"
        for k, n in ((lk, node.left), (rk, node.right)):
            if not T.fits(k, "int"):
                raise self.err(f"'{op}' needs numbers, not {T.describe(k)}", n)
        if isinstance(node.left, A.Const) and isinstance(node.right, A.Const):
            v = _arith(op, node.left.value, node.right.value)
            return (lambda s, e: v), "int"
        if op == "+":
            return (lambda s, e: left(s, e) + right(s, e)), "int"
        if op == "-":
            return (lambda s, e: left(s, e) - right(s, e)), "int"
        if op == "*":
            return (lambda s, e: left(s, e) * right(s, e)), "int"
        loc = self.location(node)

        def div(s, e):
            b = right(s, e)
            if b == 0:
                raise RuleError("division by zero", loc)
            return left(s, e) // b if op == "//" else left(s, e) % b
        return div, "int"

    def x_Compare(self, node, scope):
        op = node.op
        if op in ("in", "not in"):
            left, lk = self.expr(node.left, scope)
            right, rk = self.as_list(node.right, scope, f"the right side of '{op}'")
            if not T.fits(lk, T.element(rk)):
                raise self.err(f"'{op}' compares {T.describe(lk)} with a list of {T.element(rk)}s", node)
            if op == "in":
                return (lambda s, e: left(s, e) in right(s, e)), "bool"
            return (lambda s, e: left(s, e) not in right(s, e)), "bool"
        left, lk = self.expr(node.left, scope)
        right, rk = self.expr(node.right, scope)
        if not (T.fits(lk, rk) or T.fits(rk, lk)):
            raise self.err(f"cannot compare {T.describe(lk)} with {T.describe(rk)}", node)
        if op in ("<", "<=", ">", ">=") and not (T.fits(lk, "int") and T.fits(rk, "int")):
            raise self.err(f"'{op}' compares numbers, not {T.describe(lk)} and {T.describe(rk)}", node)
        if hasattr(right, "const_value") and hasattr(left, "static_count"):
            # count(each c in zone where <fixed property test>) >= n: one closure, the counting in C
            okget, base, zkey = left.static_count
            cmp, v = _COMPARE[op], right.const_value
            if zkey is None:
                return (lambda s, e: cmp(sum(map(okget, s.zones[base])), v)), "bool"
            return (lambda s, e: cmp(sum(map(okget, s.zones[base + e[zkey]])), v)), "bool"
        if hasattr(right, "const_value"):
            v = right.const_value
            if op == "==":
                return (lambda s, e: left(s, e) == v), "bool"
            if op == "!=":
                return (lambda s, e: left(s, e) != v), "bool"
            if op == "<":
                return (lambda s, e: left(s, e) < v), "bool"
            if op == "<=":
                return (lambda s, e: left(s, e) <= v), "bool"
            if op == ">":
                return (lambda s, e: left(s, e) > v), "bool"
            return (lambda s, e: left(s, e) >= v), "bool"
        lk_, rk_ = getattr(left, "local_key", None), getattr(right, "local_key", None)
        if lk_ is not None and rk_ is not None and op in ("==", "!="):
            if op == "==":
                return (lambda s, e: e[lk_] == e[rk_]), "bool"
            return (lambda s, e: e[lk_] != e[rk_]), "bool"
        if op == "==":
            return (lambda s, e: left(s, e) == right(s, e)), "bool"
        if op == "!=":
            return (lambda s, e: left(s, e) != right(s, e)), "bool"
        if op == "<":
            return (lambda s, e: left(s, e) < right(s, e)), "bool"
        if op == "<=":
            return (lambda s, e: left(s, e) <= right(s, e)), "bool"
        if op == ">":
            return (lambda s, e: left(s, e) > right(s, e)), "bool"
        return (lambda s, e: left(s, e) >= right(s, e)), "bool"

    def x_BoolOp(self, node, scope):
        fns = [self.expect(x, scope, "bool", f"each side of '{node.op}'")[0] for x in node.items]
        if node.op == "and":
            if len(fns) == 2:
                a, b = fns
                return (lambda s, e: a(s, e) and b(s, e)), "bool"
            return (lambda s, e: all(f(s, e) for f in fns)), "bool"
        if len(fns) == 2:
            a, b = fns
            return (lambda s, e: a(s, e) or b(s, e)), "bool"
        return (lambda s, e: any(f(s, e) for f in fns)), "bool"

    def x_Not(self, node, scope):
        fn = self.expect(node.operand, scope, "bool", "the value after 'not'")[0]
        return (lambda s, e: not fn(s, e)), "bool"

    def x_Neg(self, node, scope):
        fn = self.expect(node.operand, scope, "int", "the value after '-'")[0]
        return (lambda s, e: -fn(s, e)), "int"

    def x_Call(self, node, scope):
        name = node.func
        m = self.m
        if name in scope.names:
            raise self.err(f"{name!r} is a variable, not a function", node, "name")
        if name in m.zones:
            return self.zone_call(node, scope)
        if name in m.functions:
            return self.function_call(node, scope)
        if name in m.quantities:
            return self.quantity_call(node, scope)
        if name in m.procedures:
            raise self.err(f"{name}() is a procedure (it changes the game); call it as a statement, "
                           f"e.g. 'let x = {name}(...)'", node)
        if name in ("count", "size", "any", "all") and len(node.args) == 1 and name not in m.functions:
            arg = node.args[0]
            if isinstance(arg, A.Each) and arg.where is not None and arg.result is None:
                return self.each_reduction(name, arg, scope)
            inlined = self.filtered_call(arg, scope)
            if inlined is not None:
                return self.each_reduction(name, inlined[0], inlined[1], inlined[2])
        if name in BUILTINS:
            args = []
            for a in node.args:
                if isinstance(a, tuple):
                    raise self.err(f"{name}() takes no named arguments", node)
                fn, kind = self.expr(a, scope)
                args.append((fn, kind, a))
            try:
                return BUILTINS[name](self, args)
            except BuiltinError as exc:
                raise self.err(str(exc), exc.node or node) from None
        known = list(m.functions) + list(m.procedures) + list(BUILTINS) + list(m.zones) + list(m.quantities)
        raise self.err(f"unknown function {name!r}{suggest(name, known)}", node, "name")

    def zone_call(self, node, scope):
        spec = self.m.zones[node.func]
        if spec.per == "game":
            raise self.err(f"zone {node.func!r} is shared; write it without parentheses", node)
        if len(node.args) != 1:
            raise self.err(f"{node.func}(...) takes one {spec.per}", node)
        fn, kind = self.expect(node.args[0], scope, spec.per, f"the argument of {node.func}()")
        base = spec.base
        if spec.per == "player":
            key = getattr(fn, "local_key", None)
            if key is not None:
                zf = lambda s, e: base + e[key]  # noqa: E731
                zf.zone_of_local = (base, key)
                return zf, "zone"
            return (lambda s, e: base + fn(s, e)), "zone"
        index = {sp: base + i for i, sp in enumerate(self.board.spaces)}
        loc = self.location(node)

        def space_zone(s, e):
            sp = fn(s, e)
            try:
                return index[sp]
            except KeyError:
                raise RuleError(f"{sp!r} is not a space of the board", loc) from None
        return space_zone, "zone"

    def function_call(self, node, scope):
        func = self.m.functions[node.func]
        self.ensure_function(func)  # checks the body once, on its own, with located errors
        args = self.bind_args(node, func.params, scope, node.func, with_kinds=True)
        names = [n for n, _ in func.params]
        if all(_cheap(a) for a in node.args):
            # Inline: compile the body again with each parameter bound to the caller's argument
            # closure, so a call costs no env dict and no extra call layer.
            aliases = {n: (fn, kind) for n, (fn, kind) in zip(names, args)}
            saved = self.where
            self.where = func.where
            try:
                return self.expr(func.body, Scope({}, None, aliases))[0], func.kind
            finally:
                self.where = saved
        body = func.fn
        fns = [fn for fn, _ in args]
        if len(fns) == 1:
            (a,), (n,) = fns, names
            return (lambda s, e: body(s, {n: a(s, e)})), func.kind
        pairs = list(zip(names, fns))
        return (lambda s, e: body(s, {n: f(s, e) for n, f in pairs})), func.kind

    def quantity_call(self, node, scope):
        q = self.m.quantities[node.func]
        args = self.bind_args(node, q.params, scope, node.func)
        names = [n for n, _ in q.params]
        compute = q.compute  # (state, env) -> value, set up by the model

        def read(s, e):
            return compute(s, {n: f(s, e) for n, f in zip(names, args)})
        return read, "int"

    def ensure_function(self, func: Func):
        if func.fn is not None:
            return
        if func.compiling:
            raise self.err(f"function {func.name!r} calls itself; functions cannot be recursive", None)
        func.compiling = True
        saved = self.where
        self.where = func.where
        try:
            scope = Scope(dict(func.params), None)
            fn, kind = self.expr(func.body, scope)
        except CompileError as exc:
            if exc.node is not None and not getattr(exc, "located", False):
                exc.where = func.where
                exc.located = True
            raise
        finally:
            self.where = saved
            func.compiling = False
        func.fn, func.kind = fn, kind

    def bind_args(self, node, params, scope, name, with_kinds=False):
        positional = [a for a in node.args if not isinstance(a, tuple)]
        if len(positional) != len(node.args):
            raise self.err(f"{name}() takes positional arguments only", node)
        if len(positional) != len(params):
            raise self.err(f"{name}() takes {len(params)} argument{'s' if len(params) != 1 else ''} "
                           f"({', '.join(f'{n}: {k}' for n, k in params)}), got {len(positional)}", node)
        fns = []
        for (pname, pkind), arg in zip(params, positional):
            fn, kind = self.expr(arg, scope)
            if not T.fits(kind, pkind):
                raise self.err(f"argument {pname!r} of {name}() must be {T.describe(pkind)}, "
                               f"not {T.describe(kind)}", arg)
            if kind == "zone" and pkind.startswith("list:"):
                zf = fn
                fn = (lambda s, e, zf=zf: list(s.zones[zf(s, e)]))
            fns.append((fn, pkind if kind == T.ANY else kind) if with_kinds else fn)
        return fns

    # ============================================================ statements
    def suspends(self, stmts) -> bool:
        """Can running these statements stop to wait for a player?"""
        return any(self._suspends(st) for st in stmts)

    def _suspends(self, st) -> bool:
        m = self.m
        if isinstance(st, (A.Ask, A.AskEach, A.AskMenu)):
            return True
        if isinstance(st, A.CallStmt):
            return st.call.func in m.procedures and m.procedures[st.call.func].suspends
        if isinstance(st, (A.Let, A.Assign)):
            v = st.value
            return isinstance(v, A.Call) and v.func in m.procedures and m.procedures[v.func].suspends
        if isinstance(st, A.Emit):
            return any(h.suspends for h in m.handlers_for(st.event))
        if isinstance(st, A.If):
            return any(self.suspends(b) for _, b in st.branches) or self.suspends(st.orelse)
        if isinstance(st, (A.While, A.For, A.Repeat)):
            return self.suspends(st.body)
        return False

    # ---------------------------------------------------------------- direct
    def block(self, stmts, scope):
        """Compile non-waiting statements into one closure returning a control signal or None."""
        fns = [self.stmt(st, scope) for st in stmts]
        fns = [f for f in fns if f is not None]
        if not fns:
            return lambda s, e: None
        if len(fns) == 1:
            return fns[0]
        if len(fns) == 2:
            f1, f2 = fns

            def two(s, e):
                r = f1(s, e)
                if r is not None:
                    return r
                return f2(s, e)
            return two

        def run(s, e):
            for f in fns:
                r = f(s, e)
                if r is not None:
                    return r
            return None
        return run

    def stmt(self, st, scope):
        method = getattr(self, "s_" + type(st).__name__)
        return method(st, scope)

    def s_Pass(self, st, scope):
        return None

    def s_Let(self, st, scope):
        if isinstance(st.value, A.Call) and st.value.func in self.m.procedures:
            call = self.proc_call(st.value, scope)
            proc = self.m.procedures[st.value.func]
            scope.names[st.name] = proc.returns
            name = st.name

            def let_call(s, e):
                e[name] = call(s, e)
            return let_call
        fn, kind = self.expr(st.value, scope)
        if kind == "zone":
            zf = fn
            fn, kind = (lambda s, e: list(s.zones[zf(s, e)])), "list:card"
        if st.name in self.reserved():
            raise self.err(f"{st.name!r} is a reserved name; pick another", st, "name")
        prev = scope.names.get(st.name)
        scope.names[st.name] = kind if prev is None else T.join(prev, kind)
        name = st.name

        def let(s, e):
            e[name] = fn(s, e)
        return let

    def reserved(self):
        return {"game", "players", "player_count", "active"} | set(self.m.zones) | set(self.m.params)

    def s_Assign(self, st, scope):
        target = st.target
        if isinstance(st.value, A.Call) and st.value.func in self.m.procedures and st.op == "=":
            value = self.proc_call(st.value, scope)
            vkind = self.m.procedures[st.value.func].returns
        else:
            value, vkind = self.expr(st.value, scope)
        if vkind == "zone":
            zf = value
            value, vkind = (lambda s, e: list(s.zones[zf(s, e)])), "list:card"
        op = st.op
        if op != "=" and not T.fits(vkind, "int"):
            raise self.err(f"'{op}' needs a number, not {T.describe(vkind)}", st.value)
        if isinstance(target, A.Name):
            name = target.name
            if name not in scope.names:
                raise self.err(f"{name!r} is not a variable here; declare it first with 'let {name} = ...'"
                               + suggest(name, scope.names), target, "name")
            if not T.fits(vkind, scope.names[name]):
                scope.names[name] = T.join(scope.names[name], vkind)
            if op == "=":
                return _set_local(name, value)
            sign = 1 if op == "+=" else -1
            loc = self.location(st)

            def add_local(s, e):
                try:
                    e[name] = e[name] + sign * value(s, e)
                except TypeError:
                    raise RuleError(f"cannot add to {name}: it holds {e[name]!r}, not a number", loc) from None
            return add_local
        if isinstance(target.obj, A.Name) and target.obj.name == "game" and "game" not in scope.names:
            attr = target.name
            if attr not in self.m.gvars:
                raise self.err(f"unknown game variable {attr!r}{suggest(attr, self.m.gvars)}", target, "name")
            if not T.fits(vkind, self.m.gvars[attr]):
                raise self.err(f"game.{attr} holds {T.describe(self.m.gvars[attr])}, not {T.describe(vkind)}",
                               st.value)
            if op == "=":
                return lambda s, e: s.gv.__setitem__(attr, value(s, e))
            sign = 1 if op == "+=" else -1
            loc = self.location(st)

            def add_gv(s, e):
                try:
                    s.gv[attr] = s.gv[attr] + sign * value(s, e)
                except TypeError:
                    raise RuleError(f"cannot add to game.{attr}: it holds {s.gv[attr]!r}, not a number "
                                    "(give it a starting value under game_variables)", loc) from None
            return add_gv
        obj, okind = self.expr(target.obj, scope)
        attr = target.name
        if okind != "player":
            what = "card properties are fixed; keep changing values in player or game variables" \
                if okind == "card" else f"cannot assign to .{attr} of {T.describe(okind)}"
            raise self.err(what, target)
        if attr not in self.m.pvars:
            raise self.err(f"players have no variable {attr!r}{suggest(attr, self.m.pvars)}", target, "name")
        if not T.fits(vkind, self.m.pvars[attr]):
            raise self.err(f"{attr} holds {T.describe(self.m.pvars[attr])}, not {T.describe(vkind)}", st.value)
        if op == "=":
            def set_pv(s, e):
                s.pv[attr][obj(s, e)] = value(s, e)
            return set_pv
        sign = 1 if op == "+=" else -1

        loc = self.location(st)

        def add_pv(s, e):
            row = s.pv[attr]
            p = obj(s, e)
            try:
                row[p] = row[p] + sign * value(s, e)
            except TypeError:
                raise RuleError(f"cannot add to .{attr}: it holds {row[p]!r}, not a number "
                                "(give it a starting value under player_variables)", loc) from None
        return add_pv

    def s_Move(self, st, scope):
        dest = self.expect(st.dest, scope, "zone", "the destination of 'move'")[0]
        what, kind = self.expr(st.what, scope)
        bottom = st.bottom
        loc = self.location(st)
        if kind == "card" or kind == "none":
            key = getattr(what, "local_key", None)
            if hasattr(dest, "const_value") and key is not None:  # move card to holding
                d = dest.const_value

                def move_local(s, e):
                    c = e[key]
                    if c is None:
                        raise RuleError("nothing to move (the card is none: is the zone empty?)", loc)
                    _move(s, c, d, bottom)
                return move_local

            def move_one(s, e):
                c = what(s, e)
                if c is None:
                    raise RuleError("nothing to move (the card is none: is the zone empty?)", loc)
                _move(s, c, dest(s, e), bottom)
            return move_one
        if kind == "zone":
            def move_zone(s, e):
                src = what(s, e)
                d = dest(s, e)
                if src == d:
                    return
                cards = s.zones[src]
                s.zones[src] = []
                loc_ = s.loc
                for c in cards:
                    loc_[c] = d
                if bottom:
                    s.zones[d][:0] = cards
                else:
                    s.zones[d].extend(cards)
            return move_zone
        if not T.fits(kind, "list:card"):
            raise self.err(f"'move' moves a card, a list of cards or a whole zone, not {T.describe(kind)}", st.what)

        def move_list(s, e):
            d = dest(s, e)
            cards = list(what(s, e))
            if cards and cards[0] is not None:
                src = s.loc[cards[0]]
                zone = s.zones[src] if src >= 0 else None
                k = len(cards)
                if zone is not None and src != d and zone[-k:] == cards:  # the top k of one zone: move in bulk
                    del zone[-k:]
                    loc = s.loc
                    for c in cards:
                        loc[c] = d
                    if bottom:
                        s.zones[d][:0] = cards
                    else:
                        s.zones[d].extend(cards)
                    return
            for c in cards:
                if c is not None:
                    _move(s, c, d, bottom)
        return move_list

    def s_Shuffle(self, st, scope):
        zone = self.expect(st.zone, scope, "zone", "what 'shuffle' shuffles")[0]

        def shuffle(s, e):
            s.rng = RNG.shuffle(s.rng, s.zones[zone(s, e)])
        return shuffle

    def emit_args(self, st, scope):
        event = self.m.events.get(st.event)
        if event is None:
            raise self.err(f"unknown event {st.event!r}{suggest(st.event, self.m.events)} "
                           "(events are declared under 'events:')", st, "name")
        given = dict(st.args)
        for name in given:
            if name not in dict(event):
                raise self.err(f"event {st.event!r} has no parameter {name!r} (it has "
                               f"{', '.join(n for n, _ in event) or 'none'})", st, "name")
        fns = []
        for pname, pkind in event:
            if pname not in given:
                raise self.err(f"emit {st.event}(...) must give {pname}=...", st)
            fn, kind = self.expr(given[pname], scope)
            if not T.fits(kind, pkind):
                raise self.err(f"{pname} of event {st.event!r} must be {T.describe(pkind)}, not {T.describe(kind)}",
                               given[pname])
            fns.append((pname, fn))
        return fns

    def s_Emit(self, st, scope):
        args = self.emit_args(st, scope)
        handlers = self.m.triggers_for(st.event)
        abilities = self.m.abilities_for(st.event)  # list indexed by card id -> Proc or None
        if not handlers and abilities is None:
            return None
        budget_loc = self.location(st)

        def emit(s, e):
            env = {n: f(s, e) for n, f in args}
            try:
                for h in handlers:
                    h.direct(s, dict(env))
                if abilities is not None and env.get("card") is not None:
                    ab = abilities[env["card"]]
                    if ab is not None:
                        ab.direct(s, dict(env))
            except RecursionError:
                raise RuleError("events set each other off without end (an endless chain of events?)",
                                budget_loc) from None
            s.steps -= 1
            if s.steps < 0:
                raise RuleError("effects ran too long without a decision (an endless chain of events?)", budget_loc)
        return emit

    def proc_call(self, call: A.Call, scope):
        proc = self.m.procedures[call.func]
        args = self.bind_args(call, proc.params, scope, call.func)
        names = [n for n, _ in proc.params]
        pairs = list(zip(names, args))
        loc = self.location(call)

        if not pairs:
            def invoke0(s, e):
                s.steps -= 1
                if s.steps < 0:
                    raise RuleError("effects ran too long without a decision (endless recursion?)", loc)
                try:
                    return proc.direct(s, {})
                except RecursionError:
                    raise RuleError("procedures call each other without end (endless recursion?)", loc) from None
            return invoke0
        if len(pairs) == 1:
            (n, f), = pairs
            k = getattr(f, "local_key", None)
            if k is not None:
                def invoke_local(s, e):
                    s.steps -= 1
                    if s.steps < 0:
                        raise RuleError("effects ran too long without a decision (endless recursion?)", loc)
                    try:
                        return proc.direct(s, {n: e[k]})
                    except RecursionError:
                        raise RuleError("procedures call each other without end (endless recursion?)", loc) from None
                return invoke_local

            def invoke1(s, e):
                s.steps -= 1
                if s.steps < 0:
                    raise RuleError("effects ran too long without a decision (endless recursion?)", loc)
                try:
                    return proc.direct(s, {n: f(s, e)})
                except RecursionError:
                    raise RuleError("procedures call each other without end (endless recursion?)", loc) from None
            return invoke1

        def invoke(s, e):
            s.steps -= 1
            if s.steps < 0:
                raise RuleError("effects ran too long without a decision (endless recursion?)", loc)
            try:
                return proc.direct(s, {n: f(s, e) for n, f in pairs})
            except RecursionError:
                raise RuleError("procedures call each other without end (endless recursion?)", loc) from None
        return invoke

    def s_CallStmt(self, st, scope):
        if st.call.func in self.m.procedures:
            return _discard(self.proc_call(st.call, scope))
        fn, _ = self.expr(st.call, scope)
        return _discard(fn)

    def s_Break(self, st, scope):
        return lambda s, e: BREAK

    def s_Continue(self, st, scope):
        return lambda s, e: CONTINUE

    def s_Return(self, st, scope):
        if st.value is None:
            def ret_none(s, e):
                e["$ret"] = None
                return RETURN
            return ret_none
        fn, _ = self.expr(st.value, scope)
        key = getattr(fn, "local_key", None)
        if key is not None:
            def ret_local(s, e):
                e["$ret"] = e[key]
                return RETURN
            return ret_local

        def ret(s, e):
            e["$ret"] = fn(s, e)
            return RETURN
        return ret

    def s_EndGame(self, st, scope):
        winners = self.expect(st.winners, scope, "list:player", "the winners")[0] if st.winners else None

        def end(s, e):
            s.over = True
            s.forced_winners = sorted(set(winners(s, e))) if winners else None
            raise GameOver
        return end

    def s_Log(self, st, scope):
        parts = self.interpolate(st, scope)

        def log(s, e):
            if s.log is not None:
                s.log.append("".join(p if isinstance(p, str) else s.game.describe(p[0](s, e), p[1])
                                     for p in parts))
        return log

    def interpolate(self, st, scope):
        from .parser import SnippetSyntaxError, parse_expression

        parts, text, i = [], st.text, 0
        while i < len(text):
            j = text.find("{", i)
            if j < 0:
                parts.append(text[i:])
                break
            parts.append(text[i:j])
            k = text.find("}", j)
            if k < 0:
                raise self.err("'{' without a closing '}' in the log text", st, "syntax")
            try:
                node = parse_expression(text[j + 1:k])
            except SnippetSyntaxError as exc:
                raise self.err(f"in '{{{text[j + 1:k]}}}': {exc.message}", st, "syntax") from None
            try:
                fn, kind = self.expr(node, scope)
            except CompileError as exc:  # point into the log text: after 'log "' and the '{'
                inner = exc.node or node
                exc.node = A.Pass(line=st.line, column=st.column + len('log "') + j + max(inner.column, 1))
                raise
            if kind == "zone":
                zf = fn
                fn, kind = (lambda s, e, zf=zf: s.zones[zf(s, e)]), "list:card"
            parts.append((fn, kind))
            i = k + 1
        return parts

    def s_If(self, st, scope):
        branches = []
        for cond, body in st.branches:
            c = self.expect(cond, scope, "bool", "the condition of 'if'")[0]
            branches.append((c, self.block(body, scope)))
        orelse = self.block(st.orelse, scope) if st.orelse else None
        if len(branches) == 1:
            (c, b), = branches
            if orelse is None:
                return lambda s, e: b(s, e) if c(s, e) else None
            return lambda s, e: b(s, e) if c(s, e) else orelse(s, e)

        def if_chain(s, e):
            for c, b in branches:
                if c(s, e):
                    return b(s, e)
            if orelse is not None:
                return orelse(s, e)
            return None
        return if_chain

    def s_While(self, st, scope):
        cond = self.expect(st.condition, scope, "bool", "the condition of 'while'")[0] if st.condition else None
        body = self.block(st.body, scope)
        loc = self.location(st)

        def loop(s, e):
            while cond is None or cond(s, e):
                s.steps -= 1
                if s.steps < 0:
                    raise RuleError("this loop ran too long without a decision (an endless loop?)", loc)
                r = body(s, e)
                if r is not None:
                    if r == BREAK:
                        break
                    if r == RETURN:
                        return r
            return None
        return loop

    def s_For(self, st, scope):
        items, kind = self.as_list(st.iterable, scope, "what 'for' goes through")
        scope.names[st.var] = T.element(kind)
        body = self.block(st.body, scope)
        var = st.var

        def for_each(s, e):
            for x in list(items(s, e)):
                e[var] = x
                r = body(s, e)
                if r is not None:
                    if r == BREAK:
                        break
                    if r == RETURN:
                        return r
            return None
        return for_each

    def s_Repeat(self, st, scope):
        times = self.expect(st.times, scope, "int", "the count of 'repeat'")[0]
        body = self.block(st.body, scope)

        def repeat(s, e):
            for _ in range(times(s, e)):
                r = body(s, e)
                if r is not None:
                    if r == BREAK:
                        break
                    if r == RETURN:
                        return r
            return None
        return repeat

    # ---------------------------------------------------------------- resumable
    def resumable(self, stmts, scope, code: list):
        """Append instructions for ``stmts`` to ``code`` (procedures that may wait for players)."""
        pending = []  # a run of direct statements, fused into one instruction

        def flush():
            if pending:
                self.emit_block(list(pending), scope, code)
                pending.clear()
        for st in stmts:
            if self._suspends(st):
                flush()
                getattr(self, "r_" + type(st).__name__)(st, scope, code)
            else:
                pending.append(st)
        flush()

    def emit_block(self, stmts, scope, code):
        fn = self.block(stmts, scope)
        loops = scope.loops[-1] if scope.loops else None

        def run_block(s, fr, pc):
            r = fn(s, fr[2])
            if r is None:
                return pc + 1
            if r == RETURN:
                return _return(s, fr, fr[2].get("$ret"))
            if loops is None:
                return pc + 1
            return loops[1].pc if r == BREAK else loops[0].pc
        code.append(run_block)

    def r_If(self, st, scope, code):
        end = Label()
        for cond, body in st.branches:
            c = self.expect(cond, scope, "bool", "the condition of 'if'")[0]
            skip = Label()
            code.append(_jump_unless(c, skip))
            self.resumable(body, scope, code)
            code.append(_jump(end))
            skip.pc = len(code)
        if st.orelse:
            self.resumable(st.orelse, scope, code)
        end.pc = len(code)

    def r_While(self, st, scope, code):
        head, exit_ = Label(), Label()
        head.pc = len(code)
        cond = self.expect(st.condition, scope, "bool", "the condition of 'while'")[0] if st.condition else None
        loc = self.location(st)
        check = _loop_head(cond, exit_, loc)
        code.append(check)
        scope.loops.append((head, exit_))
        self.resumable(st.body, scope, code)
        scope.loops.pop()
        body = Label()
        body.pc = head.pc + 1

        def back(s, fr, pc):  # the jump back runs the loop test itself: one step instead of two
            return check(s, fr, head.pc)
        code.append(back)
        exit_.pc = len(code)

    def r_For(self, st, scope, code):
        items, kind = self.as_list(st.iterable, scope, "what 'for' goes through")
        scope.names[st.var] = T.element(kind)
        n = next(scope.counter)
        lst, idx, var = f"$for{n}", f"$i{n}", st.var

        def start(s, fr, pc):
            fr[2][lst] = list(items(s, fr[2]))
            fr[2][idx] = -1
            return pc + 1
        code.append(start)
        head, exit_ = Label(), Label()
        head.pc = len(code)

        def step(s, fr, pc):
            e = fr[2]
            i = e[idx] + 1
            if i >= len(e[lst]):
                return exit_.pc
            e[idx] = i
            e[var] = e[lst][i]
            return pc + 1
        code.append(step)
        scope.loops.append((head, exit_))
        self.resumable(st.body, scope, code)
        scope.loops.pop()
        code.append(_jump(head))
        exit_.pc = len(code)

    def r_Repeat(self, st, scope, code):
        times = self.expect(st.times, scope, "int", "the count of 'repeat'")[0]
        n = next(scope.counter)
        key = f"$rep{n}"

        def start(s, fr, pc):
            fr[2][key] = times(s, fr[2])
            return pc + 1
        code.append(start)
        head, exit_ = Label(), Label()
        head.pc = len(code)

        def step(s, fr, pc):
            e = fr[2]
            if e[key] <= 0:
                return exit_.pc
            e[key] -= 1
            return pc + 1
        code.append(step)
        scope.loops.append((head, exit_))
        self.resumable(st.body, scope, code)
        scope.loops.pop()
        code.append(_jump(head))
        exit_.pc = len(code)

    def r_CallStmt(self, st, scope, code):
        code.append(self.push_call(st.call, scope, None))

    def r_Let(self, st, scope, code):
        proc = self.m.procedures[st.value.func]
        scope.names[st.name] = proc.returns
        code.append(self.push_call(st.value, scope, st.name))

    def r_Assign(self, st, scope, code):
        if not isinstance(st.target, A.Name) or st.op != "=":
            raise self.err("a procedure that asks players can only be assigned to a local variable with '='", st)
        if st.target.name not in scope.names:
            raise self.err(f"{st.target.name!r} is not a variable here; declare it with 'let'", st.target, "name")
        code.append(self.push_call(st.value, scope, st.target.name))

    def push_call(self, call, scope, dest):
        proc = self.m.procedures[call.func]
        args = self.bind_args(call, proc.params, scope, call.func)
        pairs = list(zip([n for n, _ in proc.params], args))
        pid = proc.id
        loc = self.location(call)

        if len(pairs) == 1 and getattr(pairs[0][1], "local_key", None) is not None:
            (name, f), = pairs
            key = f.local_key

            def push_local(s, fr, pc):
                s.steps -= 1
                if s.steps < 0:
                    raise RuleError("effects ran too long without a decision (endless recursion?)", loc)
                fr[1] = pc + 1
                s.frames.append([pid, 0, {name: fr[2][key]}, dest])
                return TRANSFER
            return push_local

        def push(s, fr, pc):
            s.steps -= 1
            if s.steps < 0:
                raise RuleError("effects ran too long without a decision (endless recursion?)", loc)
            env = {n: f(s, fr[2]) for n, f in pairs}
            fr[1] = pc + 1
            s.frames.append([pid, 0, env, dest])
            return TRANSFER
        return push

    def r_Emit(self, st, scope, code):
        args = self.emit_args(st, scope)
        handlers = self.m.triggers_for(st.event)
        abilities = self.m.abilities_for(st.event)
        loc = self.location(st)

        def emit(s, fr, pc):
            s.steps -= 1
            if s.steps < 0:
                raise RuleError("effects ran too long without a decision (an endless chain of events?)", loc)
            env = {n: f(s, fr[2]) for n, f in args}
            fr[1] = pc + 1
            todo = [h.id for h in handlers]
            if abilities is not None and env.get("card") is not None and abilities[env["card"]] is not None:
                todo.append(abilities[env["card"]].id)
            for pid in reversed(todo):
                s.frames.append([pid, 0, dict(env), None])
            return TRANSFER
        code.append(emit)

    # ---------------------------------------------------------------- decisions
    def options_builder(self, count, options_node, scope, verb):
        """Compile what a player chooses among: returns f(s, e) -> (labels, values)."""
        values, kind = self.as_list(options_node, scope, "what is chosen among")
        elem = T.element(kind)
        describe = self.m.describe_value
        prefix = f"{verb} " if verb else ""
        names = self.m.card_names
        if count == "one":
            n_fn = None
        elif count == "any":
            n_fn = "any"
        else:
            n_fn = self.expect(count, scope, "int", "how many to choose")[0]

        if count == "one" and elem == "card":
            labels_of = [prefix + name for name in names]  # every card's action text, made once

            def build_one_card(s, e):
                seen = {}
                for c in values(s, e):
                    label = labels_of[c]
                    if label not in seen:
                        seen[label] = c
                return list(seen), list(seen.values())
            return build_one_card, elem

        def build(s, e):
            items = values(s, e)
            if elem == "card":
                groups = {}
                for c in items:
                    groups.setdefault(names[c], []).append(c)
            else:
                groups = {}
                for v in items:
                    groups.setdefault(describe(v, elem), []).append(v)
            if n_fn is None:
                return [prefix + k for k in groups], [g[0] for g in groups.values()]
            if n_fn == "any":
                sizes = range(0, len(items) + 1)
            else:
                k = n_fn(s, e)
                if k == len(items):  # only one way: take them all
                    text = ", ".join(key if len(g) == 1 else f"{len(g)} x {key}" for key, g in groups.items())
                    return [prefix + (text or "nothing")], [[c for g in groups.values() for c in g]]
                sizes = (k,)
            labels, vals = [], []
            keys = list(groups)
            for k in sizes:
                for combo in _combos(keys, [len(groups[x]) for x in keys], k):
                    picked = []
                    for key, times in combo:
                        picked.extend(groups[key][:times])
                    text = ", ".join(key if times == 1 else f"{times} x {key}" for key, times in combo)
                    labels.append(prefix + (text or "nothing"))
                    vals.append(picked)
                    if len(labels) > MAX_OPTIONS:
                        raise RuleError(f"more than {MAX_OPTIONS} options to choose from", self_loc)
            return labels, vals
        self_loc = self.location(options_node)
        return build, (elem if count == "one" else T.list_of(elem))

    def r_Ask(self, st, scope, code):
        player = self.expect(st.player, scope, "player", "who is asked")[0]
        build, kind = self.options_builder(st.count, st.options, scope, st.verb)
        scope.names[st.name] = kind
        dest, prompt = st.name, st.verb or st.name.replace("_", " ")
        loc = self.location(st)

        def ask(s, fr, pc):
            e = fr[2]
            p = player(s, e)
            labels, values = build(s, e)
            if not labels:
                raise RuleError(f"player {p + 1} has nothing to choose from", loc)
            if len(labels) == 1:
                e[dest] = values[0]
                return pc + 1
            fr[1] = pc + 1
            s.pending = {"players": [p], "labels": [labels], "values": [values], "chosen": [None],
                         "dest": dest, "each": False, "secret": False, "prompt": prompt}
            return SUSPEND
        code.append(ask)

    def r_AskEach(self, st, scope, code):
        players = self.expect(st.players, scope, "list:player", "who is asked")[0]
        inner = scope.child()
        inner.names[st.var] = "player"
        build, kind = self.options_builder(st.count, st.options, inner, st.verb)
        scope.names[st.name] = T.list_of(kind)
        dest, var, secret = st.name, st.var, st.secret
        prompt = st.verb or st.name.replace("_", " ")

        def ask_each(s, fr, pc):
            e = fr[2]
            who, labels, values, chosen = [], [], [], []
            result = [None] * s.n
            for p in players(s, e):
                e[var] = p
                ls, vs = build(s, e)
                if not ls:
                    continue
                if len(ls) == 1:
                    result[p] = vs[0]
                    continue
                who.append(p)
                labels.append(ls)
                values.append(vs)
                chosen.append(None)
            e[dest] = result
            if not who:
                return pc + 1
            fr[1] = pc + 1
            s.pending = {"players": who, "labels": labels, "values": values, "chosen": chosen,
                         "dest": dest, "each": True, "secret": secret, "prompt": prompt}
            return SUSPEND
        code.append(ask_each)

    def r_AskMenu(self, st, scope, code):
        player = self.expect(st.player, scope, "player", "who is asked")[0]
        seen = set()
        conds = []
        for opt in st.options:
            if opt.label in seen:
                raise self.err(f"two options are called {opt.label!r}; each option needs its own text", opt)
            seen.add(opt.label)
            conds.append(self.expect(opt.condition, scope, "bool", "the condition of an option")[0]
                         if opt.condition else None)
        n = next(scope.counter)
        dest = f"$menu{n}"
        labels_all = [o.label for o in st.options]
        loc = self.location(st)

        if all(c is None for c in conds) and len(conds) > 1:
            labels_fixed, values_fixed = [labels_all], [list(range(len(conds)))]  # shared: never mutated

            def ask_fixed(s, fr, pc):
                fr[1] = pc + 1
                s.pending = {"players": [player(s, fr[2])], "labels": labels_fixed, "values": values_fixed,
                             "chosen": [None], "dest": dest, "each": False, "secret": False, "prompt": "choose"}
                return SUSPEND
            code.append(ask_fixed)
        else:
            code.append(self._menu_ask(player, conds, labels_all, dest, loc))
        targets = [Label() for _ in st.options]
        end = Label()
        code.append(lambda s, fr, pc: targets[fr[2][dest]].pc)
        for opt, target in zip(st.options, targets):
            target.pc = len(code)
            self.resumable(opt.body, scope, code)
            code.append(_jump(end))
        end.pc = len(code)

    @staticmethod
    def _menu_ask(player, conds, labels_all, dest, loc):
        def ask(s, fr, pc):
            e = fr[2]
            p = player(s, e)
            labels, values = [], []
            for i, c in enumerate(conds):
                if c is None or c(s, e):
                    labels.append(labels_all[i])
                    values.append(i)
            if not labels:
                raise RuleError(f"none of the options is open to player {p + 1}", loc)
            if len(labels) == 1:
                e[dest] = values[0]
                return pc + 1
            fr[1] = pc + 1
            s.pending = {"players": [p], "labels": [labels], "values": [values], "chosen": [None],
                         "dest": dest, "each": False, "secret": False, "prompt": "choose"}
            return SUSPEND
        return ask

    def r_Ask_direct_error(self, st):  # pragma: no cover - guarded by _suspends
        raise self.err("internal: ask compiled as direct code", st)

    # ---------------------------------------------------------------- procedures
    def compile_proc(self, proc: Proc):
        """Compile a procedure's direct closure (if it never waits) and its resumable code."""
        saved = self.where
        self.where = proc.where
        try:
            scope = Scope(dict(proc.params), proc)
            if not proc.suspends:
                body = self.block(proc.body, scope)

                def direct(s, e):
                    r = body(s, e)
                    return e.get("$ret") if r == RETURN else None
                proc.direct = direct
                scope = Scope(dict(proc.params), proc)
            code = []
            self.resumable(proc.body, scope, code)
            code.append(lambda s, fr, pc: _return(s, fr, None))
            proc.code = code
        finally:
            self.where = saved


# ---------------------------------------------------------------- run-time helpers
def _arith(op, a, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise CompileError("division by zero")
    return a // b if op == "//" else a % b


def zone_cards(zone_fn):
    """A closure returning the card list of a zone, fused with how the zone is found."""
    if hasattr(zone_fn, "const_value"):
        index = zone_fn.const_value
        fn = lambda s, e: s.zones[index]  # noqa: E731
        fn.zone_index = index
        return fn
    if hasattr(zone_fn, "zone_of_local"):
        base, key = zone_fn.zone_of_local
        fn = lambda s, e: s.zones[base + e[key]]  # noqa: E731
        fn.zone_of_local = (base, key)
        return fn
    return lambda s, e: s.zones[zone_fn(s, e)]


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


class _NotStatic(Exception):
    pass


class _Poisoned:
    """A stand-in state that refuses every read: evaluating against it proves an expression is static."""

    def __getattr__(self, name):
        raise _NotStatic(name)


def _const(value):
    fn = lambda s, e: value  # noqa: E731
    fn.const_value = value
    return fn


def _cheap(node) -> bool:
    """Arguments that are safe and cheap to evaluate more than once (for inlining)."""
    if isinstance(node, (A.Const, A.Name)):
        return True
    return isinstance(node, A.Attr) and isinstance(node.obj, A.Name)


def _set_local(name, value):
    def set_local(s, e):
        e[name] = value(s, e)
    return set_local


def _discard(fn):
    def call(s, e):
        fn(s, e)
    return call


def _move(s, card, dest, bottom):
    src = s.loc[card]
    if src >= 0:
        zone = s.zones[src]
        if zone[-1] == card:  # most moves take the top card
            zone.pop()
        else:
            zone.remove(card)
    s.loc[card] = dest
    if bottom:
        s.zones[dest].insert(0, card)
    else:
        s.zones[dest].append(card)


def _jump(label):
    return lambda s, fr, pc: label.pc


def _jump_unless(cond, label):
    return lambda s, fr, pc: pc + 1 if cond(s, fr[2]) else label.pc


def _loop_head(cond, exit_, loc):
    def head(s, fr, pc):
        s.steps -= 1
        if s.steps < 0:
            raise RuleError("this loop ran too long without a decision (an endless loop?)", loc)
        if cond is None or cond(s, fr[2]):
            return pc + 1
        return exit_.pc
    return head


def _return(s, fr, value):
    s.frames.pop()
    dest = fr[3]
    if dest is not None and s.frames:
        s.frames[-1][2][dest] = value
    return TRANSFER


def _combos(keys, caps, k):
    """Like :func:`_multisets` (same options, same order), via itertools when that is small enough."""
    n = sum(caps)
    if k < 0 or k > n:
        return []
    if math.comb(n, k) > 20_000:
        return list(_multisets(keys, caps, k))
    expanded = [i for i, cap in enumerate(caps) for _ in range(cap)]
    out = []
    for combo in dict.fromkeys(itertools.combinations(expanded, k)):
        counts = {}
        for i in combo:
            counts[i] = counts.get(i, 0) + 1
        out.append([(keys[i], t) for i, t in counts.items()])
    return out


def _multisets(keys, caps, k, start=0):
    """All ways to pick k items from groups (key, cap), as [(key, times), ...] in group order."""
    if k == 0:
        yield []
        return
    if start >= len(keys):
        return
    remaining = sum(caps[start:])
    if remaining < k:
        return
    key, cap = keys[start], caps[start]
    for times in range(min(cap, k), -1, -1):
        for rest in _multisets(keys, caps, k - times, start + 1):
            yield ([(key, times)] if times else []) + rest
