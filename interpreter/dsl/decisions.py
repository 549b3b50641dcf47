"""Compile 'ask': enumerate a decision's distinct options, and suspend until they are chosen.

Options that lead to the same state are one action (identical cards are one
'take ...'); a decision with a single option is taken without asking.
"""

from __future__ import annotations

from ..errors import RuleError
from . import ast as A
from . import types as T
from .runtime import SUSPEND, Poisoned, combo_shapes, count_any_shapes, count_shapes, jump
from .units import Label

MAX_OPTIONS = 100_000  # e.g. choosing 4 of 24 distinct cards is 10,626 options


class DecisionCompiler:
    """Mixin of :class:`interpreter.dsl.compiler.Compiler` (uses its ``m``, ``where``, ``location``, ``err``)."""

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
                if k == len(items):  # only one way: take them all (taken without asking, so no text is made)
                    return [prefix + "all"], [[c for g in groups.values() for c in g]]
                sizes = (k,)
            labels, vals = [], []
            keys = list(groups)
            members = list(groups.values())
            caps = tuple(map(len, members))
            # counted before any is listed: choosing 12 of 30 different cards must not build 86 million
            total = count_any_shapes(caps) if n_fn == "any" else count_shapes(caps, sizes[0], MAX_OPTIONS)
            if total > MAX_OPTIONS:
                raise RuleError(f"more than {MAX_OPTIONS:,} options to choose from ("
                                + ("any number" if n_fn == "any" else f"{sizes[0]}") + f" of {len(items)}, "
                                f"{len(keys)} different); ask for fewer at a time", self_loc)
            for k in sizes:
                for shape in combo_shapes(caps, k):
                    picked = []
                    for i, times in shape:
                        picked += members[i][:times]
                    text = ", ".join(keys[i] if times == 1 else f"{times} x {keys[i]}" for i, times in shape)
                    labels.append(prefix + (text or "nothing"))
                    vals.append(picked)
            return labels, vals
        self_loc = self.location(options_node)
        self.static_choice(build, count, options_node)
        return build, (elem if count == "one" else T.list_of(elem))

    def static_choice(self, build, count, options_node):
        """A choice whose count and options are fixed (``choose 20 of range(40)``) is checked once, at load."""
        if not isinstance(count, A.Const) or type(count.value) is not int:
            return
        if count.value < 0:
            raise self.err(f"cannot choose {count.value} items; the count must be 0 or more", count)
        try:
            build(Poisoned(), {})
        except RuleError as exc:
            if exc.message.startswith("more than"):
                raise self.err(exc.message, options_node) from None
        except Exception:  # it reads the game (the usual case): checked when it runs
            pass

    def r_Ask(self, st, scope, code):
        player = self.expect(st.player, scope, "player", "who is asked")[0]
        pk = getattr(player, "local_key", None)
        build, kind = self.options_builder(st.count, st.options, scope, st.verb)
        scope.names[st.name] = kind
        dest, prompt = scope.keys.get(st.name, st.name), st.verb or st.name.replace("_", " ")
        loc = self.location(st)

        def ask(s, fr, pc):
            e = fr[2]
            p = e[pk] if pk is not None else player(s, e)  # most often a local: no call
            labels, values = build(s, e)
            if not labels:
                raise RuleError(f"player {p + 1} has nothing to choose from", loc)
            return decide_one(s, fr, pc, p, labels, values, dest, prompt)
        code.append(ask)

    def r_AskEach(self, st, scope, code):
        players = self.expect(st.players, scope, "list:player", "who is asked")[0]
        inner = scope.child()
        inner.names[st.var] = "player"
        build, kind = self.options_builder(st.count, st.options, inner, st.verb)
        scope.names[st.name] = T.list_of(kind)
        dest, var, secret = scope.keys.get(st.name, st.name), inner.keys.get(st.var, st.var), st.secret
        prompt = st.verb or st.name.replace("_", " ")
        loc = self.location(st)

        def ask_each(s, fr, pc):
            e = fr[2]
            who, labels, values, chosen = [], [], [], []
            result = [None] * s.n
            asked = players(s, e)
            if len(set(asked)) != len(asked):
                twice = sorted({p + 1 for p in asked if asked.count(p) > 1})
                raise RuleError(f"'ask each' names player {', '.join(map(str, twice))} more than once; "
                                "each player makes one choice (use distinct(...) on the list)", loc)
            for p in asked:
                e[var] = p
                ls, vs = build(s, e)
                if not ls:
                    continue
                if len(ls) == 1:
                    if s.trace is not None: s.traced_decision(p, prompt, ls, vs, 0, True)  # noqa: E701
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
        pk = getattr(player, "local_key", None)
        seen = set()
        conds = []
        for opt in st.options:
            if opt.label in seen:
                raise self.err(f"two options are called {opt.label!r}; each option needs its own text", opt)
            seen.add(opt.label)
            conds.append(self.expect(opt.condition, scope, "bool", "the condition of an option")[0]
                         if opt.condition else None)
        labels_all = [o.label for o in st.options]
        loc = self.location(st)
        # A menu's values are where each option's code starts: choosing one resumes right there
        # (no dispatch step).  The positions are known once the procedure is laid out.
        targets = [Label() for _ in st.options]
        pcs = []
        self.fixups.append(lambda: pcs.extend(t.pc for t in targets))

        if all(c is None for c in conds) and len(conds) > 1:
            labels_fixed, values_fixed = [labels_all], [pcs]  # shared: never mutated

            def ask_fixed(s, fr, pc):
                fr[1] = pc + 1
                e = fr[2]
                s.pending = {"players": [e[pk] if pk is not None else player(s, e)], "labels": labels_fixed, "values": values_fixed,
                             "chosen": [None], "dest": None, "each": False, "secret": False, "prompt": "choose"}
                return SUSPEND
            code.append(ask_fixed)
        else:
            code.append(self._menu_ask(player, conds, labels_all, pcs, loc))
        end = Label()
        for i, (opt, target) in enumerate(zip(st.options, targets)):
            target.pc = len(code)
            self.resumable(opt.body, scope, code)
            if len(code) == target.pc:
                targets[i] = end  # an option with nothing to do goes straight on
            else:
                code.append(jump(end))
        end.pc = len(code)

    def _menu_ask(self, player, conds, labels_all, pcs, loc):
        pk = getattr(player, "local_key", None)
        if len(conds) <= 10:
            # Which options are open is a bit mask; each mask's option lists are made once (never mutated).
            always = sum(1 << i for i, c in enumerate(conds) if c is None)
            tests = [(1 << i, c) for i, c in enumerate(conds) if c is not None]
            table = []
            for mask in range(1 << len(conds)):
                open_ = [i for i in range(len(conds)) if mask >> i & 1]
                table.append(([labels_all[i] for i in open_], open_))

            def resolve():  # option numbers -> code positions, once they are known
                for _, values in table:
                    values[:] = [pcs[i] for i in values]
            self.fixups.append(resolve)

            def ask_masked(s, fr, pc):
                e = fr[2]
                p = e[pk] if pk is not None else player(s, e)  # most often a local: no call
                mask = always
                for bit, c in tests:
                    if c(s, e):
                        mask |= bit
                labels, values = table[mask]
                if not labels:
                    raise RuleError(f"none of the options is open to player {p + 1}", loc)
                return decide_one(s, fr, pc, p, labels, values, None, "choose")
            return ask_masked

        def ask(s, fr, pc):
            e = fr[2]
            p = e[pk] if pk is not None else player(s, e)  # most often a local: no call
            labels, values = [], []
            for i, c in enumerate(conds):
                if c is None or c(s, e):
                    labels.append(labels_all[i])
                    values.append(pcs[i])
            if not labels:
                raise RuleError(f"none of the options is open to player {p + 1}", loc)
            return decide_one(s, fr, pc, p, labels, values, None, "choose")
        return ask


def decide_one(s, fr, pc, player, labels, values, dest, prompt):
    """A one-player decision: a single option is taken at once; otherwise suspend until it is chosen.

    ``dest`` is the local that receives the choice; None for a menu, whose values are code positions.
    """
    if len(labels) == 1:
        if s.trace is not None: s.traced_decision(player, prompt, labels, None if dest is None else values, 0, True)  # noqa: E701
        if dest is None:
            return values[0]
        fr[2][dest] = values[0]
        return pc + 1
    fr[1] = pc + 1
    s.pending = {"players": [player], "labels": [labels], "values": [values], "chosen": [None],
                 "dest": dest, "each": False, "secret": False, "prompt": prompt}
    return SUSPEND
