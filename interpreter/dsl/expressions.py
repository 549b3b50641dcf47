"""Compile expressions to closures ``f(state, env)``: names, properties, operators, calls, 'each' lists.

Checks kinds as it goes, fuses common shapes (a local read inside a property
lookup, a count compared with a constant) and tabulates per-card expressions
of fixed properties, so the closures do as little as possible at run time.
"""

from __future__ import annotations

from itertools import compress

from ..errors import RuleError
from . import ast as A
from . import types as T
from .builtins import BUILTINS, BuiltinError
from .runtime import COMPARE, MAX_INT, MAX_TEXT, operand_error, over_budget, paid_scan, too_big, fold_arith, is_cheap, const, Poisoned, zone_cards
from .units import CompileError, Func, Scope, each_keys, suggest


NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "in": "not in", "not in": "in"}


class ExpressionCompiler:
    """Mixin of :class:`interpreter.dsl.compiler.Compiler` (uses its ``m``, ``where``, ``location``, ``err``)."""

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
            return const(value), "space"  # a quoted space name: "r2c2"
        if isinstance(value, str) and value in self.m.other_spaces:
            return self.absent_space(value, node), "space"
        return const(value), T.kind_of_value(value)

    def absent_space(self, value, node):
        """A quoted space of another player count's board: an error only if a game of this count runs it."""
        loc, counts = self.location(node), self.m.board_counts
        players = f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else str(counts[0])
        message = (f"{value!r} is not a space of the board for {players} players "
                   f"(its spaces: {', '.join(self.board.spaces)})")

        def absent(s, e):
            raise RuleError(message, loc)
        return absent

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
            return const(spec.base), "zone"
        if name in m.params:
            v = m.params[name]
            return const(v), T.kind_of_value(v)
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
            fn = lambda s, e: s.gv[attr]  # noqa: E731
            fn.game_var = attr
            return fn, self.m.gvars[attr]
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
                           "(give the parameter a kind, e.g. card c)", node)
        raise self.err(f"{T.describe(kind)} has no .{attr}", node)

    def x_Index(self, node, scope):
        obj, kind = self.expr(node.obj, scope)
        key, kkind = self.expr(node.key, scope)
        vkind = T.table_value(kind)
        if vkind is not None:  # the loader gave every table one kind of value
            loc = self.location(node)
            what = f"the table {node.obj.name!r}" if isinstance(node.obj, A.Name) else "the table"

            def lookup(s, e):
                table, k = obj(s, e), key(s, e)
                try:
                    return table[k]
                except (KeyError, TypeError):
                    keys = ", ".join(map(str, list(table)[:20])) + (", ..." if len(table) > 20 else "")
                    raise RuleError(f"{what} has no entry {k!r} (it has {keys})", loc) from None
            return lookup, vkind
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

    def each_scope(self, node, scope):
        """Compile an 'each' source; return (source closure, its kind, the inner scope, the variable's env key)."""
        src, skind = self.as_list(node.source, scope, "the list after 'in'")
        inner = scope.child()
        inner.names[node.var] = T.element(skind)
        inner.aliases.pop(node.var, None)
        # Each 'each' gets its own env key, so it never clobbers a variable of the same name.
        key = f"{node.var}.{next(each_keys)}"
        inner.keys[node.var] = key
        return src, skind, inner, key

    def x_Each(self, node, scope):
        src, skind, inner, key = self.each_scope(node, scope)
        where = self.expect(node.where, inner, "bool", "the condition after 'where'")[0] if node.where else None
        if node.result is not None:
            res, rkind = self.expr(node.result, inner)
            out_kind = T.list_of(rkind)
        else:
            res, out_kind = None, T.list_of(T.element(skind))
        loc = self.location(node)
        if T.element(skind) == "card":
            fast = self.static_each(src, key, where, res, inner, node.where, loc)
            if fast is not None:
                return fast, out_kind
        return self._each(src, key, where, res, loc), out_kind

    def static_each(self, src, key, where, res, scope, where_node=None, loc=None):
        """'each c in cards where ... : ...' with tabulated condition and result, if they are static."""
        ok = self.static_table(where, key, scope, node=where_node) if where is not None else ([True] * len(self.m.card_names), None)
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
        valget = values.__getitem__ if values is not None else None

        def static_each(s, e):
            z = src(s, e)
            s.steps -= len(z)
            if s.steps < 0:
                raise over_budget(s, loc)
            kept = compress(z, map((ok if other is None else ok[e[other]]).__getitem__, z))
            return list(kept) if valget is None else list(map(valget, kept))
        return static_each

    def static_table(self, fn, key, scope=None, as_bool=True, node=None):
        """Tabulate a per-card expression that reads only fixed card properties.

        Card properties never change, so ``c.suit != "hearts"`` is a fact about card
        ids: a table replaces a closure call per card at run time.  If the
        expression also reads one other card variable (``same_type(c, card)``),
        the table has two dimensions: ``table[other][c]``.  Returns
        ``(table, other_key)`` or None when the expression reads the game state.
        """
        # The same condition is compiled again where its procedure is spliced: tabulate it once.
        # (Only without aliases: an inlined function's condition can mean something else per call.)
        if not self.options.tables:
            return None
        cached = node is not None and scope is not None and not scope.aliases
        if cached and id(node) in self.tables:
            kept, table, two_d = self.tables[id(node)]
            if not two_d:
                return table
            try:
                fn(Poisoned(), {key: 0})
            except KeyError as missing:  # the other card variable's key in this scope
                return table[0], missing.args[0]
        result = self._static_table(fn, key, scope, as_bool)
        if cached and result is not None:
            self.tables[id(node)] = (node, result, result[1] is not None)  # keeps the node: its id stays unique
        return result

    def _static_table(self, fn, key, scope, as_bool):
        cards = range(len(self.m.card_names))
        poisoned = Poisoned()
        convert = bool if as_bool else (lambda v: v)
        try:
            return [convert(fn(poisoned, {key: c})) for c in cards], None
        except KeyError as missing:
            other = missing.args[0] if missing.args else None
        except Exception:  # it reads the state: not static
            return None
        names = {scope.keys.get(n, n): k for n, k in scope.names.items()} if scope is not None else {}
        if scope is not None:  # an inlined function's card parameter that is the caller's local variable
            for alias_fn, alias_kind in scope.aliases.values():
                alias_key = getattr(alias_fn, "local_key", None)
                if alias_key is not None:
                    names.setdefault(alias_key, alias_kind)
        if names.get(other) != "card" or len(cards) > 400:
            return None
        try:
            return [[convert(fn(poisoned, {key: c, other: o})) for c in cards] for o in cards], other
        except Exception:
            return None

    def filtered_call(self, node, scope):
        """If ``node`` is a call of a user function whose body is 'each ... where ...' (and can be
        inlined), return that Each node and the scope to compile it in; else None."""
        if not self.options.inline or not isinstance(node, A.Call) or node.func not in self.m.functions or node.func in scope.names:
            return None
        func = self.m.functions[node.func]
        body = func.body
        if not (isinstance(body, A.Each) and body.where is not None and body.result is None):
            return None
        if not all(is_cheap(a) for a in node.args):
            return None
        self.ensure_function(func)
        args = self.bind_args(node, func.params, scope, node.func, with_kinds=True)
        aliases = {n: a for (n, _), a in zip(func.params, args)}
        return body, Scope({}, None, aliases), func.where

    def each_reduction(self, name, node, scope, where_=None):
        """count/any/all of 'each c in X where cond' without building the list (each item costs a step)."""
        saved = self.where
        if where_ is not None:
            self.where = where_
        try:
            src, skind, inner, key = self.each_scope(node, scope)
            cond = self.expect(node.where, inner, "bool", "the condition after 'where'")[0]
            loc = self.location(node)
        finally:
            self.where = saved
        table = self.static_table(cond, key, inner, node=node.where) if T.element(skind) == "card" else None
        if table is not None:
            ok, other = table
            # sum/any/all over map(table lookup): the per-card work runs in C
            if other is not None:
                reduce = {"count": sum, "size": sum, "any": any}.get(name, all)

                def reduce_2d(s, e):
                    xs = src(s, e)
                    s.steps -= len(xs)
                    if s.steps < 0:
                        raise over_budget(s, loc)
                    return reduce(map(ok[e[other]].__getitem__, xs))
                return reduce_2d, ("int" if reduce is sum else "bool")
            okget = ok.__getitem__
            if name in ("count", "size"):
                if hasattr(src, "zone_of_local"):  # count(each c in hand(p) where ...): one closure
                    base, zkey = src.zone_of_local

                    def fn(s, e):
                        z = s.zones[base + e[zkey]]
                        s.steps -= len(z)
                        if s.steps < 0:
                            raise over_budget(s, loc)
                        return sum(map(okget, z))
                    fn.static_count = (okget, base, zkey, loc)
                    return fn, "int"
                if hasattr(src, "zone_index"):
                    zi = src.zone_index

                    def fn(s, e):
                        z = s.zones[zi]
                        s.steps -= len(z)
                        if s.steps < 0:
                            raise over_budget(s, loc)
                        return sum(map(okget, z))
                    fn.static_count = (okget, zi, None, loc)
                    return fn, "int"
            reduce = {"count": sum, "size": sum, "any": any}.get(name, all)

            def reduce_1d(s, e):
                xs = src(s, e)
                s.steps -= len(xs)
                if s.steps < 0:
                    raise over_budget(s, loc)
                return reduce(map(okget, xs))
            return reduce_1d, ("int" if reduce is sum else "bool")
        if name in ("count", "size"):
            def count(s, e):
                xs = src(s, e)
                s.steps -= len(xs)
                if s.steps < 0:
                    raise over_budget(s, loc)
                n = 0
                for x in xs:
                    e[key] = x
                    if cond(s, e):
                        n += 1
                return n
            return count, "int"
        both = getattr(cond, "both", None)
        if name == "any" and both is not None:  # 'where a and b': test both sides here, one call layer fewer
            c1, c2 = both

            def any_both(s, e):
                xs = src(s, e)
                s.steps -= len(xs)
                if s.steps < 0:
                    raise over_budget(s, loc)
                for x in xs:
                    e[key] = x
                    if c1(s, e) and c2(s, e):
                        return True
                return False
            return any_both, "bool"
        if name == "any":
            def any_(s, e):
                xs = src(s, e)
                s.steps -= len(xs)
                if s.steps < 0:
                    raise over_budget(s, loc)
                for x in xs:
                    e[key] = x
                    if cond(s, e):
                        return True
                return False
            return any_, "bool"

        def all_(s, e):
            xs = src(s, e)
            s.steps -= len(xs)
            if s.steps < 0:
                raise over_budget(s, loc)
            for x in xs:
                e[key] = x
                if not cond(s, e):
                    return False
            return True
        return all_, "bool"

    @staticmethod
    def _each(src, var, where, res, loc):
        """The list 'each' builds; every item gone through costs a step."""
        if where is None and res is None:
            return paid_scan(src, list, loc)
        if res is None:
            def filt(s, e):
                xs = src(s, e)
                s.steps -= len(xs)
                if s.steps < 0:
                    raise over_budget(s, loc)
                out = []
                for x in xs:
                    e[var] = x
                    if where(s, e):
                        out.append(x)
                return out
            return filt
        if where is None:
            def mapped(s, e):
                xs = src(s, e)
                s.steps -= len(xs)
                if s.steps < 0:
                    raise over_budget(s, loc)
                out = []
                for x in xs:
                    e[var] = x
                    out.append(res(s, e))
                return out
            return mapped

        def both(s, e):
            xs = src(s, e)
            s.steps -= len(xs)
            if s.steps < 0:
                raise over_budget(s, loc)
            out = []
            for x in xs:
                e[var] = x
                if where(s, e):
                    out.append(res(s, e))
            return out
        return both

    def x_ListLit(self, node, scope):
        items = [self.expr(x, scope) for x in node.items]
        fns = [f for f, _ in items]
        kind = "none"  # '[]' takes the kind of what it is joined with or replaced by
        for (_, k), item in zip(items, node.items):
            joined = T.unify(kind, k)
            if joined is None:
                raise self.err(f"a list holds values of one kind; this item is {T.describe(k)}, but the items "
                               f"before it make {T.describe(T.list_of(kind))}", item)
            kind = joined
        kind = T.list_of(kind)
        if all(isinstance(x, A.Const) for x in node.items):
            values = [x.value for x in node.items]
            return (lambda s, e: list(values)), kind
        return (lambda s, e: [f(s, e) for f in fns]), kind

    def x_BinOp(self, node, scope):
        left, lk = self.expr(node.left, scope)
        right, rk = self.expr(node.right, scope)
        op = node.op
        loc = self.location(node)
        if op == "+" and T.is_list(lk) and T.is_list(rk):
            lf = (lambda s, e: s.zones[left(s, e)]) if lk == "zone" else left
            rf = (lambda s, e: s.zones[right(s, e)]) if rk == "zone" else right

            def join_lists(s, e):
                a, b = lf(s, e), rf(s, e)
                s.steps -= len(a) + len(b)  # paid before the joined list is built
                if s.steps < 0:
                    raise over_budget(s, loc)
                return a + b
            joined = T.unify(T.element(lk), T.element(rk))
            if joined is None:
                raise self.err(f"'+' joins lists of one kind, not {T.plural(T.element(lk))} and {T.plural(T.element(rk))}", node)
            return join_lists, T.list_of(joined)
        if op == "+" and lk == "str" and rk == "str":
            def join_texts(s, e):
                a, b = left(s, e), right(s, e)
                if len(a) + len(b) > MAX_TEXT:
                    raise RuleError(f"this text would be {len(a) + len(b):,} characters long; "
                                    f"texts in rules are at most {MAX_TEXT:,}", loc)
                return a + b
            return join_texts, "str"
        for k, n in ((lk, node.left), (rk, node.right)):
            if not T.fits(k, "int"):
                raise self.err(f"'{op}' needs numbers, not {T.describe(k)}", n)
        if isinstance(node.left, A.Const) and isinstance(node.right, A.Const):
            if op in ("//", "%") and node.right.value == 0:
                raise self.err("division by zero", node.right)
            v = fold_arith(op, node.left.value, node.right.value)
            if not -MAX_INT <= v <= MAX_INT:
                raise self.err(f"{node.left.value} {op} {node.right.value} is beyond the limit of numbers in rules "
                               "(-10^18 to 10^18)", node)
            if self.options.fold:
                return (lambda s, e: v), "int"
        # Results are kept within MAX_INT: repeated squaring stops with an error, not a number of a
        # million digits.  A TypeError is a none (or a text) where a number was needed: say which.
        if op == "+":
            def add(s, e):
                a, b = left(s, e), right(s, e)
                try:
                    v = a + b
                except TypeError:
                    raise operand_error(op, a, b, loc) from None
                if -MAX_INT <= v <= MAX_INT:
                    return v
                raise too_big(v, loc, "'+'")
            return add, "int"
        if op == "-":
            def sub(s, e):
                a, b = left(s, e), right(s, e)
                try:
                    v = a - b
                except TypeError:
                    raise operand_error(op, a, b, loc) from None
                if -MAX_INT <= v <= MAX_INT:
                    return v
                raise too_big(v, loc, "'-'")
            return sub, "int"
        if op == "*":
            def mul(s, e):
                a, b = left(s, e), right(s, e)
                try:
                    if a and b and abs(a).bit_length() + abs(b).bit_length() > 64:  # never multiply huge
                        raise too_big(10 ** 41, loc, "'*'")
                    v = a * b
                except TypeError:
                    raise operand_error(op, a, b, loc) from None
                if -MAX_INT <= v <= MAX_INT:
                    return v
                raise too_big(v, loc, "'*'")
            return mul, "int"

        def div(s, e):
            a, b = left(s, e), right(s, e)
            if b == 0:
                raise RuleError("division by zero", loc)
            try:
                return a // b if op == "//" else a % b
            except TypeError:
                raise operand_error(op, a, b, loc) from None
        return div, "int"

    def x_Compare(self, node, scope):
        op = node.op
        if op in ("in", "not in"):
            left, lk = self.expr(node.left, scope)
            right, rk = self.as_list(node.right, scope, f"the right side of '{op}'")
            if not T.fits(lk, T.element(rk)):
                raise self.err(f"'{op}' compares {T.describe(lk)} with {T.describe(T.list_of(T.element(rk)))}", node)
            loc = self.location(node)
            negate = op == "not in"
            if isinstance(node.right, A.ListLit) and all(isinstance(x, A.Const) for x in node.right.items):
                # 'c.type in ["a", "b"]': a fixed list, searched in place (no copy, nothing to charge)
                fixed = tuple(x.value for x in node.right.items)
                if negate:
                    return (lambda s, e: left(s, e) not in fixed), "bool"
                return (lambda s, e: left(s, e) in fixed), "bool"

            def contains(s, e):
                x, xs = left(s, e), right(s, e)
                s.steps -= len(xs)  # a search through the list: a step per item
                if s.steps < 0:
                    raise over_budget(s, loc)
                return (x in xs) is not negate
            return contains, "bool"
        left, lk = self.expr(node.left, scope)
        right, rk = self.expr(node.right, scope)
        if not (T.fits(lk, rk) or T.fits(rk, lk)):
            raise self.err(f"cannot compare {T.describe(lk)} with {T.describe(rk)}", node)
        for kind, other_kind, other in ((lk, rk, node.right), (rk, lk, node.left)):
            if kind == "space" and other_kind == "str" and isinstance(other, A.Const):
                raise self.err(f'no space is called "{other.value}", so this comparison is never true', other)
        if op in ("<", "<=", ">", ">=") and (not (T.fits(lk, "int") and T.fits(rk, "int")) or "none" in (lk, rk)):
            raise self.err(f"'{op}' compares numbers, not {T.describe(lk)} and {T.describe(rk)}", node)
        loc = self.location(node)
        if hasattr(right, "const_value") and hasattr(left, "static_count"):
            # count(each c in zone where <fixed property test>) >= n: one closure, the counting in C
            okget, base, zkey, cloc = left.static_count
            cmp, v = COMPARE[op], right.const_value
            if (op, v) in ((">=", 1), (">", 0)):  # 'at least one': any() stops at the first match
                def any_local(s, e):
                    z = s.zones[base + e[zkey]] if zkey is not None else s.zones[base]
                    s.steps -= len(z)
                    if s.steps < 0:
                        raise over_budget(s, cloc)
                    return any(map(okget, z))
                return any_local, "bool"

            def count_cmp(s, e):
                z = s.zones[base + e[zkey]] if zkey is not None else s.zones[base]
                s.steps -= len(z)
                if s.steps < 0:
                    raise over_budget(s, cloc)
                return cmp(sum(map(okget, z)), v)
            return count_cmp, "bool"
        if hasattr(right, "const_value") and hasattr(left, "size_of_zone"):
            # size(zone) == n: one closure
            cmp, v, zi = COMPARE[op], right.const_value, left.size_of_zone
            if op == "==":
                return (lambda s, e: len(s.zones[zi]) == v), "bool"
            if op == ">":
                return (lambda s, e: len(s.zones[zi]) > v), "bool"
            return (lambda s, e: cmp(len(s.zones[zi]), v)), "bool"
        if hasattr(right, "const_value"):
            v = right.const_value
            if op == "==":
                return (lambda s, e: left(s, e) == v), "bool"
            if op == "!=":
                return (lambda s, e: left(s, e) != v), "bool"
            return ordered(op, left, const(v), loc, v), "bool"
        lk_, rk_ = getattr(left, "local_key", None), getattr(right, "local_key", None)
        if lk_ is not None and rk_ is not None and op in ("==", "!="):
            if op == "==":
                return (lambda s, e: e[lk_] == e[rk_]), "bool"
            return (lambda s, e: e[lk_] != e[rk_]), "bool"
        if op == "==":
            return (lambda s, e: left(s, e) == right(s, e)), "bool"
        if op == "!=":
            return (lambda s, e: left(s, e) != right(s, e)), "bool"
        return ordered(op, left, right, loc), "bool"

    def x_BoolOp(self, node, scope):
        fns = [self.expect(x, scope, "bool", f"each side of '{node.op}'")[0] for x in node.items]
        if node.op == "and":
            if len(fns) == 2:
                a, b = fns
                fn = lambda s, e: a(s, e) and b(s, e)  # noqa: E731
                fn.both = (a, b)  # lets an 'if' test the two sides itself
                return fn, "bool"
            if len(fns) == 3:
                a, b, c = fns
                return (lambda s, e: True if a(s, e) and b(s, e) and c(s, e) else False), "bool"  # all() gives a bool
            return (lambda s, e: all(f(s, e) for f in fns)), "bool"
        if len(fns) == 2:
            a, b = fns
            return (lambda s, e: a(s, e) or b(s, e)), "bool"
        if len(fns) == 3:
            a, b, c = fns
            return (lambda s, e: True if a(s, e) or b(s, e) or c(s, e) else False), "bool"  # any() gives a bool
        return (lambda s, e: any(f(s, e) for f in fns)), "bool"

    def x_Not(self, node, scope):
        fn = self.expect(node.operand, scope, "bool", "the value after 'not'")[0]
        inner = node.operand
        if isinstance(inner, A.Compare) and inner.op in NEGATED:
            # 'not a < b' is 'a >= b': one closure instead of two (checked above with the author's operator)
            flipped = A.Compare(NEGATED[inner.op], inner.left, inner.right, line=inner.line, column=inner.column)
            return self.x_Compare(flipped, scope)
        attr = getattr(fn, "game_var", None)
        if attr is not None:
            return (lambda s, e: not s.gv[attr]), "bool"
        negation = lambda s, e: not fn(s, e)  # noqa: E731
        negation.negated = fn  # lets an 'if' test the operand itself
        return negation, "bool"

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
        if name in m.counters:
            return self.counter_call(node, scope)
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
        if name == "sort_by":  # its 'each' binds a variable for the key: compiled as a whole
            return self.sort_by_call(node, scope)
        if name in BUILTINS:
            args = []
            for a in node.args:
                if isinstance(a, tuple):
                    raise self.err(f"{name}() takes no named arguments", node)
                fn, kind = self.expr(a, scope)
                args.append((fn, kind, a))
            self.call_loc = self.location(node)  # where a builtin's run-time errors point
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
        if self.options.inline and all(is_cheap(a) for a in node.args):
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

        def read(s, e):  # q.compute is read here: a function's body is compiled before the quantities are
            return q.compute(s, {n: f(s, e) for n, f in zip(names, args)})
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
                           f"({', '.join(f'{T.DECLARED.get(k, k)} {n}' for n, k in params)}), got {len(positional)}", node)
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


def ordered(op, left, right, loc, v=None):
    """'<', '<=', '>' or '>=' of two numbers; a none on either side is a located RuleError.

    With ``v`` (a constant right side) the constant is used directly, the commonest shape.
    """
    def fail(a, b):
        return operand_error(op, a, b, loc)
    if v is not None:
        if op == "<":
            def lt_const(s, e):
                a = left(s, e)
                try:
                    return a < v
                except TypeError:
                    raise fail(a, v) from None
            return lt_const
        if op == "<=":
            def le_const(s, e):
                a = left(s, e)
                try:
                    return a <= v
                except TypeError:
                    raise fail(a, v) from None
            return le_const
        if op == ">":
            def gt_const(s, e):
                a = left(s, e)
                try:
                    return a > v
                except TypeError:
                    raise fail(a, v) from None
            return gt_const

        def ge_const(s, e):
            a = left(s, e)
            try:
                return a >= v
            except TypeError:
                raise fail(a, v) from None
        return ge_const
    cmp = COMPARE[op]

    def compare(s, e):
        a, b = left(s, e), right(s, e)
        try:
            return cmp(a, b)
        except TypeError:
            raise fail(a, b) from None
    return compare
