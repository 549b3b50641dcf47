"""Compile statements that never wait for a player into direct closures.

A direct statement returns None, or BREAK / CONTINUE / RETURN for its enclosing
loop or procedure to act on.
"""

from __future__ import annotations

from .. import rng as RNG
from ..errors import RuleError
from . import ast as A
from . import types as T
from .runtime import forget_shown
from .runtime import ENDLESS_RECURSION, MAX_INT, MAX_LOG_PARTS, MAX_TEXT, TOO_LONG_LOOP, over_budget, too_big, TOO_LONG_CALLS, BREAK, place_cards, CONTINUE, GameOver, discard_result, if_then, move_card, set_local_fn
from .listeners import active_listeners
from .narration import Dependencies, Line, Opaque, Part, assignments
from .units import CompileError, Flat, suggest


class StatementCompiler:
    """Mixin of :class:`interpreter.dsl.compiler.Compiler` (uses its ``m``, ``where``, ``location``, ``err``)."""

    def block_fns(self, stmts, scope):
        """The closures of non-waiting statements, leaving out those that do nothing."""
        fns = []
        for st in stmts:
            fn = self.stmt(st, scope)
            if type(fn) is Flat:  # an inlined procedure's statements
                fns.extend(fn)
            elif fn is not None:
                fns.append(fn)
        return fns

    def block(self, stmts, scope):
        """Compile non-waiting statements into one closure returning a control signal or None."""
        fns = self.block_fns(stmts, scope)
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
        if len(fns) == 3:
            f1, f2, f3 = fns

            def three(s, e):
                r = f1(s, e)
                if r is not None:
                    return r
                r = f2(s, e)
                if r is not None:
                    return r
                return f3(s, e)
            return three

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
        name = scope.keys.get(st.name, st.name)
        if isinstance(st.value, A.Call) and st.value.func in self.m.procedures:
            proc = self.m.procedures[st.value.func]
            inlined = self.inline_proc(st.value, scope, name)
            scope.names[st.name] = proc.returns
            if inlined is not None:
                return inlined
            call = self.proc_call(st.value, scope)

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
        scope.names[st.name] = kind if prev is None else self.rebind(st.name, prev, kind, st.value)

        def let(s, e):
            e[name] = fn(s, e)
        return let

    def rebind(self, name, had, kind, node):
        """The kind of a variable given a value of ``kind`` after values of ``had``; a clash is an error."""
        joined = T.unify(had, kind)
        if joined is None:
            raise self.err(f"{name!r} holds {T.describe(had)}; it cannot also hold {T.describe(kind)} "
                           "(use another variable)", node)
        return joined

    def reserved(self):
        return {"game", "players", "player_count", "active"} | set(self.m.zones) | set(self.m.params)

    def s_Assign(self, st, scope):
        target = st.target
        if isinstance(target, A.Call):  # marks(x) += n
            return self.counter_assign(st, scope)
        if isinstance(target, A.Name) and target.name in scope.names and st.op == "=" \
                and isinstance(st.value, A.Call) and st.value.func in self.m.procedures:
            inlined = self.inline_proc(st.value, scope, scope.keys.get(target.name, target.name))
            if inlined is not None:
                vkind = self.m.procedures[st.value.func].returns
                if not T.fits(vkind, scope.names[target.name]):
                    scope.names[target.name] = self.rebind(target.name, scope.names[target.name], vkind, st.value)
                return inlined
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
        sign = -1 if op == "-=" else 1
        # 'x += 1': a fixed amount is added without calling its closure (amount None: call it)
        const = getattr(value, "const_value", None)
        delta, amount = (sign * const, None) if type(const) is int else (0, value)
        if isinstance(target, A.Name):
            name = target.name
            if name not in scope.names:
                raise self.err(f"{name!r} is not a variable here; declare it first with 'let {name} = ...'"
                               + suggest(name, scope.names), target, "name")
            if not T.fits(vkind, scope.names[name]):
                scope.names[name] = self.rebind(name, scope.names[name], vkind, st.value)
            name = scope.keys.get(name, name)
            if op == "=":
                return set_local_fn(name, value)
            loc = self.location(st)

            label = target.name

            def add_local(s, e):
                try:
                    v = e[name] + (delta if amount is None else sign * amount(s, e))
                except TypeError:
                    raise RuleError(f"cannot add to {label}: it holds {e[name]!r}, not a number", loc) from None
                if not -MAX_INT <= v <= MAX_INT:
                    raise too_big(v, loc, f"'{op}'")
                e[name] = v
            return add_local
        if isinstance(target.obj, A.Name) and target.obj.name == "game" and "game" not in scope.names:
            attr = target.name
            if attr not in self.m.gvars:
                raise self.err(f"unknown game variable {attr!r}{suggest(attr, self.m.gvars)}", target, "name")
            if not T.fits(vkind, self.m.gvars[attr]):
                raise self.err(f"game.{attr} holds {T.describe(self.m.gvars[attr])}, not {T.describe(vkind)}",
                               st.value)
            if op == "=":
                source = getattr(value, "local_key", None)
                if source is not None:  # 'game.x = a_local': no call to read it
                    return lambda s, e: s.gv.__setitem__(attr, e[source])
                return lambda s, e: s.gv.__setitem__(attr, value(s, e))
            loc = self.location(st)

            def add_gv(s, e):
                try:
                    v = s.gv[attr] + (delta if amount is None else sign * amount(s, e))
                    if not -MAX_INT <= v <= MAX_INT:
                        raise too_big(v, loc, f"'{op}'")
                    s.gv[attr] = v
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
        loc = self.location(st)
        pk = getattr(obj, "local_key", None)

        def add_pv(s, e):
            row = s.pv[attr]
            p = e[pk] if pk is not None else obj(s, e)
            try:
                v = row[p] + (delta if amount is None else sign * amount(s, e))
                if not -MAX_INT <= v <= MAX_INT:
                    raise too_big(v, loc, f"'{op}'")
                row[p] = v
            except TypeError:
                raise RuleError(f"cannot add to .{attr}: it holds {row[p]!r}, not a number "
                                "(give it a starting value under player_variables)", loc) from None
        return add_pv

    def s_Move(self, st, scope):
        if self.is_counter(st.what) or self.is_counter(st.dest):  # move marks(a) to marks(b): all of them
            return self.counter_move(st, scope)
        dest = self.expect(st.dest, scope, "zone", "the destination of 'move'")[0]
        what, kind = self.expr(st.what, scope)
        bottom = st.bottom
        loc = self.location(st)
        if kind == "card" or kind == "none":
            key = getattr(what, "local_key", None)
            if hasattr(dest, "const_value") and key is not None and not bottom:
                d = dest.const_value

                def move_local(s, e):  # move_card, inlined: the commonest move
                    c = e[key]
                    if c is None:
                        raise RuleError("nothing to move (the card is none: is the zone empty?)", loc)
                    src = s.loc[c]
                    top = None
                    if src >= 0:
                        zone = s.zones[src]
                        if zone[-1] == c:
                            zone.pop()
                            top = c
                        else:
                            zone.remove(c)
                    s.loc[c] = d
                    s.zones[d].append(c)
                    if s.shown:
                        s.shown.pop(c, None)
                    if s.trace is not None:
                        s.traced_move(c, src, top, d, False)
                return move_local
            if hasattr(dest, "zone_of_local") and key is not None:  # a local card to a zone of a local player
                base, pkey = dest.zone_of_local

                def move_local_to_own(s, e):
                    c = e[key]
                    if c is None:
                        raise RuleError("nothing to move (the card is none: is the zone empty?)", loc)
                    move_card(s, c, base + e[pkey], bottom)
                return move_local_to_own

            def move_one(s, e):
                c = what(s, e)
                if c is None:
                    raise RuleError("nothing to move (the card is none: is the zone empty?)", loc)
                move_card(s, c, dest(s, e), bottom)
            return move_one
        if kind == "zone":
            fixed = getattr(what, "const_value", None)  # 'move pile to ...': the usual, a named zone

            def move_zone(s, e):
                src = fixed if fixed is not None else what(s, e)
                d = dest(s, e)
                if src == d:
                    return
                cards = s.zones[src]
                s.steps -= len(cards)  # a step per card moved
                if s.steps < 0:
                    raise over_budget(s, loc)
                s.zones[src] = []
                place_cards(s, cards, d, bottom)
                if s.trace is not None:
                    s.traced_moves(cards, src, cards[-1] if cards else None, d, bottom)
            return move_zone
        if not T.fits(kind, "list:card"):
            raise self.err(f"'move' moves a card, a list of cards or a whole zone, not {T.describe(kind)}", st.what)

        def move_list(s, e):
            d = dest(s, e)
            cards = list(what(s, e))
            s.steps -= len(cards)  # a step per card moved
            if s.steps < 0:
                raise over_budget(s, loc)
            if cards and cards[0] is not None:
                src = s.loc[cards[0]]
                zone = s.zones[src] if src >= 0 else None
                k = len(cards)
                if zone is not None and src != d and zone[-k:] == cards:  # the top k of one zone: move in bulk
                    del zone[-k:]
                    place_cards(s, cards, d, bottom)
                    if s.trace is not None:
                        s.traced_moves(cards, src, cards[-1], d, bottom)
                    return
            for c in cards:
                if c is not None:
                    move_card(s, c, d, bottom)
        return move_list

    def s_Shuffle(self, st, scope):
        zone = self.expect(st.zone, scope, "zone", "what 'shuffle' shuffles")[0]
        loc = self.location(st)

        def shuffle(s, e):
            z = zone(s, e)
            cards = s.zones[z]
            s.steps -= len(cards)  # a step per card shuffled
            if s.steps < 0:
                raise over_budget(s, loc)
            s.rng = RNG.shuffle(s.rng, cards)
            if s.shown:
                forget_shown(s, cards)
            if s.trace is not None:
                s.traced_shuffle(z)
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
        listeners = self.m.listeners.get(st.event) or ()  # see listeners.py
        name, kinds = st.event, self.m.events[st.event]
        if not handlers and abilities is None and not listeners:  # nothing happens: only a trace hears it
            def emit_unheard(s, e):
                if s.trace is not None:
                    s.traced_event(name, kinds, unheard_args(s, e, args))
            return emit_unheard
        budget_loc = self.location(st)

        def emit(s, e):
            env = {n: f(s, e) for n, f in args}
            if s.trace is not None:
                s.traced_event(name, kinds, env)
            active = active_listeners(s, env, listeners) if listeners else ()  # asked before any handler runs
            try:
                for h in handlers:
                    h.direct(s, dict(env))
                if abilities is not None and env.get("card") is not None:
                    ab = abilities[env["card"]]
                    if ab is not None:
                        ab.direct(s, dict(env))
                for proc, listener_env in active:
                    proc.direct(s, listener_env)
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
            make_env = _empty_env
        elif len(pairs) == 1 and getattr(pairs[0][1], "local_key", None) is not None:
            (n, f), = pairs
            k = f.local_key
            make_env = lambda s, e: {n: e[k]}  # noqa: E731
        else:
            make_env = lambda s, e: {n: f(s, e) for n, f in pairs}  # noqa: E731

        def invoke(s, e):
            s.steps -= 1
            if s.steps < 0:
                raise RuleError(TOO_LONG_CALLS, loc)
            try:
                return proc.direct(s, make_env(s, e))
            except RecursionError:
                raise RuleError(ENDLESS_RECURSION, loc) from None
        return invoke

    def s_CallStmt(self, st, scope):
        if st.call.func in self.m.procedures:
            inlined = self.inline_proc(st.call, scope, None)
            if inlined is not None:
                return inlined
            return discard_result(self.proc_call(st.call, scope))
        fn, _ = self.expr(st.call, scope)
        return discard_result(fn)

    def s_Break(self, st, scope):
        fn = lambda s, e: BREAK  # noqa: E731
        fn.signal = BREAK
        return fn

    def s_Continue(self, st, scope):
        fn = lambda s, e: CONTINUE  # noqa: E731
        fn.signal = CONTINUE
        return fn

    def s_Return(self, st, scope):
        slot, signal = scope.ret_key, scope.ret_signal
        if st.value is None:
            def ret_none(s, e):
                e[slot] = None
                return signal
            return ret_none
        fn, kind = self.expr(st.value, scope)
        owner = self.inlining[-1] if self.inlining else self.splicing[-1] if self.splicing else scope.proc
        if owner is not None and not T.fits(kind, owner.returns):
            raise self.err(f"{owner.name}() returns {T.describe(owner.returns)}, not {T.describe(kind)}", st.value)
        key = getattr(fn, "local_key", None)
        if key is not None:
            def ret_local(s, e):
                e[slot] = e[key]
                return signal
            return ret_local

        def ret_value(s, e):
            e[slot] = fn(s, e)
            return signal
        return ret_value

    def s_EndGame(self, st, scope):
        winners = self.expect(st.winners, scope, "list:player", "the winners")[0] if st.winners else None

        def end(s, e):
            s.over = True
            s.forced_winners = sorted(set(winners(s, e))) if winners else None
            raise GameOver
        return end

    def s_Log(self, st, scope):
        to = to_kind = None
        if st.to is not None:
            to, to_kind = self.expr(st.to, scope)
            if not (T.fits(to_kind, "player") or T.fits(to_kind, "list:player")):
                raise self.err(f"'log to' needs a player or a list of players, not {T.describe(to_kind)}", st.to)
        owner = self.inlining[-1] if self.inlining else scope.proc
        line = Line(self.interpolate(st, scope, self.assignments_in(owner.body if owner is not None else ())),
                    to, to_kind, self.location(st))

        def log(s, e):
            if s.log is not None:  # games played without a log (simulations) pay nothing more
                line.write(s, e)
        log.line = line
        return log

    def assignments_in(self, body) -> dict:
        """What each local of ``body`` is ever assigned, worked out once per body (a body may hold many logs)."""
        cached = self.assigned.get(id(body))
        if cached is None or cached[0] is not body:
            cached = self.assigned[id(body)] = (body, assignments(body))
        return cached[1]

    def interpolate(self, st, scope, defs):
        """The log text as literal strings and :class:`Part` s (each knowing what it may reveal)."""
        text = st.text
        start = st.text_column or st.column + len('log "')
        if text.count("{") > MAX_LOG_PARTS:  # each part is parsed, checked and traced for secrecy at load
            raise self.err(f"this log text has {text.count('{'):,} {{...}} parts; a line has at most "
                           f"{MAX_LOG_PARTS} (split it, or log a list)", st)
        parts = []
        for piece in self.template(text, st, "the log text"):
            if piece.__class__ is str:
                parts.append(piece)
                continue
            j, node = piece
            try:
                fn, kind = self.expr(node, scope)
                deps = Dependencies(self, scope, defs)
                try:
                    deps.collect(node)
                    opaque = False
                except Opaque:
                    opaque = True
            except CompileError as exc:  # point into the log text: after 'log "' and the '{'
                inner = exc.node or node
                exc.node = A.Pass(line=st.line, column=start + j + max(inner.column, 1))
                raise
            if kind == "zone":
                zf = fn
                fn, kind = (lambda s, e, zf=zf: s.zones[zf(s, e)]), "list:card"
            parts.append(Part(fn, kind, deps.checks, deps.private, opaque))
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
                return if_then(c, b)
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
                    raise RuleError(TOO_LONG_LOOP, loc)
                r = body(s, e)
                if r is not None:
                    if r == BREAK:
                        break
                    if r != CONTINUE:  # a return, from this procedure or a spliced one
                        return r
            return None
        return loop

    def s_For(self, st, scope):
        items, kind = self.as_list(st.iterable, scope, "what 'for' goes through")
        scope.names[st.var] = T.element(kind)
        body = self.block(st.body, scope)
        var = scope.keys.get(st.var, st.var)
        loc = self.location(st)

        def for_each(s, e):
            xs = list(items(s, e))
            s.steps -= len(xs)  # one step per iteration, paid up front (a 'break' is rare)
            if s.steps < 0:
                raise RuleError(TOO_LONG_LOOP, loc)
            for x in xs:
                e[var] = x
                r = body(s, e)
                if r is not None:
                    if r == BREAK:
                        break
                    if r != CONTINUE:  # a return, from this procedure or a spliced one
                        return r
            return None
        return for_each

    def s_Repeat(self, st, scope):
        times = self.expect(st.times, scope, "int", "the count of 'repeat'")[0]
        body = self.block(st.body, scope)
        loc = self.location(st)

        def repeat(s, e):
            for _ in range(times(s, e)):
                s.steps -= 1
                if s.steps < 0:
                    raise RuleError(TOO_LONG_LOOP, loc)
                r = body(s, e)
                if r is not None:
                    if r == BREAK:
                        break
                    if r != CONTINUE:  # a return, from this procedure or a spliced one
                        return r
            return None
        return repeat


def _empty_env(s, e):
    return {}


def unheard_args(s, e, args):
    """The arguments of an event nobody handles, worked out for the trace only: they change nothing
    (not the random numbers, not the step budget), and an argument that fails drops them all."""
    rng, steps = s.rng, s.steps
    try:
        return {n: f(s, e) for n, f in args}
    except Exception:  # noqa: BLE001 - the game goes on exactly as it would without a trace
        return None
    finally:
        s.rng, s.steps = rng, steps
