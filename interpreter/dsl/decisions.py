"""Compile 'ask': enumerate a decision's distinct options, and suspend until they are chosen.

Options that lead to the same state are one action (identical cards are one
'take ...'); a decision with a single option is taken without asking.
"""

from __future__ import annotations

import ast

from ..errors import RuleError
from ..runtime.control import SUSPEND
from ..runtime.decisions import (NOT_DRAWN, asked_twice, bind_parts, card_text, chooser_card_options, decide_space,
                                 one_card_options, value_text)
from ..runtime.option_lists import ChoiceSpec, MenuSpec, choose_options, menu_decide, menu_entry, menu_item
from ..runtime.values import paid
from ..runtime.option_spaces import names_can_collide
from ..runtime.records import Pending
from . import ast as A
from . import types as T
from .one_plus_any import plus_options, split_each, split_one
from .pyast import local, name, py, shape
from .static import LoadBudget
from .procedures import Label, Op, jump
from .visitor import NodeVisitor

# The end of a one-player decision written out in a procedure's code (after its options are made): a
# single option is taken at once; in a playout (``s.drawing``, interpreter/playout.py) an option is drawn
# and taken at once too (J: where its value is; -1 once the playout's decisions are used up); else the
# procedure waits until one is chosen (the pending decision).  TRACED: DecisionCompiler.traced_single.
# PENDING is runtime.records.Pending, given its fields in order (players, labels, values, chosen, dest,
# each, secret, prompt, lazy): a positional call costs what the dict it replaced did.
DECIDE_ONE = """
            if len(LABELS) == 1:
                TRACED
                DEST = VALUES[0]
            elif s.drawing is not None and (J := s.drawing.one(P, LABELS)) >= 0:
                DEST = VALUES[J]
            else:
                fr.pc = NEXT
                s.pending = PENDING([P], [LABELS], [VALUES], [None], DEST_KEY, False, False, PROMPT, None)
                return SUSPEND
"""

# A choice of one card listed by one_card_options (then DECIDE_ONE), as written at DECIDE_ONE's indentation.
ONE_CARD_LISTED = """
            LABELS, VALUES = ONE_CARD(s, P, CARDS, LABELS_OF)
            if not LABELS:
                raise RE(f"player {P + 1} has nothing to choose from", LOC)
"""


class DecisionCompiler(NodeVisitor):
    """Lowering helper of the decision statements ('ask', 'ask each', menus).  Reached as ``ctx.decisions``."""

    __slots__ = ()  # a pass keeps no state of its own: it is all in self.ctx (context.py)

    def traced_single(self, p, prompt, labels, values, secret: bool = False) -> tuple:
        """The trace of a decision with one option, taken at once (a shape's statement placeholder, pyast.py):
        none in the playout build (``StatementLowering.watched``).  ``secret``: one seat's part of an ``ask each
        ... secretly``, whose pick only that seat reads, even a pick it had no choice about."""
        if secret:
            return tuple(self.ctx.stmts.watched(shape("""
                if s.trace is not None:
                    s.traced_decision(P, PROMPT, LABELS, VALUES, 0, True, True)
            """, P=p, PROMPT=prompt, LABELS=labels, VALUES=values)))
        return tuple(self.ctx.stmts.watched(shape("""
            if s.trace is not None:
                s.traced_decision(P, PROMPT, LABELS, VALUES, 0, True)
        """, P=p, PROMPT=prompt, LABELS=labels, VALUES=values)))

    def options_builder(self, count, options_node, scope, verb, listed=None, chooser=None):
        """Compile what a player chooses among: returns (what makes the options, the kind chosen).

        What makes the options is generated code giving (labels, values): for one card, the call of
        ``one_card_options`` (as :meth:`ask_one_card` writes it), else the call of
        ``runtime.option_lists.choose_options`` with the list, the count and a ``ChoiceSpec``.  A choice
        of several cards with two options or more gives (None, option space) instead: its options are
        counted, not listed (see runtime/option_spaces.py).  ``listed``: the list, already
        lowered by :meth:`list_code` (tree, kind).  ``chooser``: code reading who chooses, if known: the options
        are then made as that player may read them (a card it cannot see reads as its place:
        ``chooser_card_options``, ``runtime.decisions.unseen_places``).
        """
        fixed = False  # the options read nothing of the state (their note): a fixed choice is checked at load
        if listed is None:
            tree, kind, note = self.ctx.exprs.expr_note(options_node, scope, ("list", "what is chosen among"))
            fixed = not note.reads and kind != "zone"
            if kind == "zone":
                tree, kind = py("s.zones[_0]", tree), "list:card"
            listed = tree, kind
        kind = listed[1]
        elem = T.element(kind)  # what an action text can show (the statement analysis)
        prefix = f"{verb} " if verb else ""
        names = self.ctx.m.card_names
        if count == "one" and elem == "card":  # listed by generated code (identical cards are one option)
            return self.one_card_builder(listed[0], prefix, chooser), elem
        # Several cards at once: kept as an option space (runtime/option_spaces.py), each option made on demand,
        # unless two selections could read alike (a card name with a separator of the labels).
        as_space = elem == "card" and count != "one" and not names_can_collide(names)
        if count in ("one", "any"):
            k = ast.Constant(None)
        else:
            k = self.ctx.exprs.expect_code(count, scope, "int", "how many to choose")[0]
        spec = ChoiceSpec(prefix, elem, count if count in ("one", "any") else "n", names, self.ctx.m.describe_value,
                          as_space, self.ctx.location(options_node))
        if fixed:
            self.static_choice(spec, listed[0], count, options_node)
        K = self.ctx.stmts.K
        chooser_args = [] if chooser is None else [name("s"), chooser]  # (cards it cannot see read as places)
        return ast.Call(K(choose_options), [K(spec), listed[0], k] + chooser_args, []), \
            (elem if count == "one" else T.list_of(elem))

    def one_card_builder(self, items, prefix: str, chooser) -> ast.expr:
        """The call listing a choice of one of the cards ``items``: ``chooser_card_options`` as ``chooser`` may read
        them, or ``one_card_options`` when nobody in particular chooses."""
        labels_of = [prefix + name for name in self.ctx.m.card_names]  # every card's action text, made once
        K = self.ctx.stmts.K
        if chooser is not None:
            return ast.Call(K(chooser_card_options), [name("s"), chooser, items, K(labels_of)], [])
        return ast.Call(K(one_card_options), [items, K(labels_of)], [])

    def static_choice(self, spec, items, count, options_node):
        """A choice whose count and options are fixed (``choose 20 of range(40)``) is checked once, at load
        (the options' note said they read nothing of the state)."""
        if not isinstance(count, A.Const) or type(count.value) is not int:
            return  # (a count below 0: refused by the statement analysis)
        try:
            choose_options(spec, self.ctx.exprs.function_of(items, options_node)(LoadBudget(self.ctx.exprs.load_steps()), {}),
                           count.value)
        except RuleError as exc:
            if exc.message.startswith("more than"):
                raise self.ctx.err(exc.message, options_node) from None
        except Exception:  # it fails otherwise (a variable of the rule): checked when it runs
            pass

    def ask_options(self, st, options_scope, scope, each: bool, listed=None, chooser=None):
        """The options of an ask (built in ``options_scope``), where the choice goes, and what splits it.

        ``each``: an ``ask each``, whose variables hold one choice per player (a list of them).
        Returns (build, dest, after): ``after`` splits a one-plus-others pick into its two variables.
        """
        if st.rest is not None:  # one of X plus any number of Y (one_plus_any.py)
            build = plus_options(self.ctx, st, options_scope, chooser)
            one, rest = ("list:card", "list:list:card") if each else ("card", "list:card")
            scope.names[st.name], scope.names[st.rest_name] = one, rest
            dest = f"$plus{next(scope.counter)}"
            split = split_each if each else split_one
            return build, dest, split(dest, scope.keys.get(st.name, st.name), scope.keys.get(st.rest_name, st.rest_name))
        build, kind = self.options_builder(st.count, st.options, options_scope, st.verb, listed, chooser)
        scope.names[st.name] = self.ctx.stmt_analysis.stmt_note(st).kind
        return build, scope.keys.get(st.name, st.name), None

    def ask(self, st, scope, code):
        player = self.ctx.exprs.expect_code(st.player, scope, "player", "who is asked")[0]
        listed = None
        if st.rest is None and st.count == "one":
            listed = self.ctx.exprs.list_code(st.options, scope, "what is chosen among")
            if T.element(listed[1]) == "card":  # the commonest choice: its options listed by generated code
                return self.ask_one_card(st, scope, code, player, listed[0])
        p = self.ctx.stmts.tmp()  # (who chooses: read by the options it may read, made after it is known)
        build, dest, after = self.ask_options(st, scope, scope, each=False, listed=listed, chooser=name(p))
        prompt = st.verb or st.name.replace("_", " ")
        loc = self.ctx.location(st)
        labels, values, drawn = (self.ctx.stmts.tmp() for _ in range(3))
        picked = "list:card" if st.rest is not None else scope.names[st.name]  # (a 'plus' pick: [one, *others])
        held = self.ctx.layout.holding(scope, picked if T.holds_cards(picked) else None)
        # decide_one, written out: a single option is taken at once; otherwise wait until it is chosen
        code.append(Op(lambda k: shape("""
            P = PLAYER
            LABELS, VALUES = OPTIONS
            if not LABELS:
                if LABELS is None:  # an option space (option_spaces.py): nothing listed
                    return SPACE(s, fr, PC, P, VALUES, DEST_KEY, PROMPT)
                raise RE(f"player {P + 1} has nothing to choose from", LOC)
        """ + DECIDE_ONE, P=name(p), PLAYER=player, LABELS=name(labels), VALUES=name(values), OPTIONS=build, J=name(drawn),
            TRACED=self.traced_single(name(p), ast.Constant(prompt), name(labels), name(values)),
            RE=self.ctx.stmts.K(RuleError), LOC=self.ctx.stmts.K(loc), PROMPT=ast.Constant(prompt), DEST=local(dest, True),
            NEXT=self.ctx.layout.resumed_holding(k, held), DEST_KEY=ast.Constant(dest), SUSPEND=ast.Constant(SUSPEND),
            SPACE=self.ctx.stmts.K(decide_space), PC=ast.Constant(k), PENDING=self.ctx.stmts.K(Pending)), loc))
        if after is not None:
            code.append(after)

    def ask_one_card(self, st, scope, code, player, items):
        """``ask P to choose one of CARDS``: the options listed by ``one_card_options`` (identical cards are one
        option, the first of them its value), as :meth:`options_builder` lists them, and ``decide_one`` written out."""
        scope.names[st.name] = self.ctx.stmt_analysis.stmt_note(st).kind
        dest = scope.keys.get(st.name, st.name)
        prefix = f"{st.verb} " if st.verb else ""
        labels_of = [prefix + name for name in self.ctx.m.card_names]  # every card's action text, made once
        prompt = st.verb or st.name.replace("_", " ")
        loc = self.ctx.location(st)
        p, cards, labels, values, drawn, card = (self.ctx.stmts.tmp() for _ in range(6))
        K = self.ctx.stmts.K
        parts = dict(P=name(p), CARDS=name(cards), LABELS_OF=K(labels_of), DEST=local(dest, True))
        held = self.ctx.layout.holding(scope, "card")

        def make(k):
            listed = shape(ONE_CARD_LISTED + DECIDE_ONE, ONE_CARD=K(chooser_card_options), J=name(drawn), LABELS=name(labels), VALUES=name(values),
                TRACED=self.traced_single(parts["P"], ast.Constant(prompt), name(labels), name(values)),
                RE=K(RuleError), LOC=K(loc), PROMPT=ast.Constant(prompt), NEXT=self.ctx.layout.resumed_holding(k, held),
                DEST_KEY=ast.Constant(dest), SUSPEND=ast.Constant(SUSPEND), PENDING=K(Pending), **parts)
            # in a playout (s.drawing) the card is drawn from the list itself, its options never listed
            return shape("""
                P = PLAYER
                CARDS = ITEMS
                if s.drawing is not None and (X := s.drawing.card(P, CARDS, LABELS_OF)) is not NOT_DRAWN:
                    DEST = X
                else:
                    LISTED
            """, PLAYER=player, ITEMS=items, X=name(card), NOT_DRAWN=K(NOT_DRAWN), LISTED=listed, **parts)
        code.append(Op(make, loc))

    def ask_each(self, st, scope, code):
        players = self.ctx.exprs.expect_code(st.players, scope, "list:player", "who is asked")[0]
        inner = scope.child()
        inner.names[st.var] = "player"
        build, dest, after = self.ask_options(st, inner, scope, each=True, chooser=local(inner.keys.get(st.var, st.var)))
        held = self.ctx.layout.holding(scope)
        var, secret = inner.keys.get(st.var, st.var), st.secret
        prompt = st.verb or st.name.replace("_", " ")
        loc = self.ctx.location(st)
        who, labels, values, chosen, result, asked, p, ls, vs, spaces = (self.ctx.stmts.tmp() for _ in range(10))
        # an entry point itself, not only the pc after it: a determinisation asks everyone again by running the
        # decision's instruction once more (determinise._asked_again: the frame's pc less one)
        code.append(Op(lambda k: shape("""
            WHO, LABELS, VALUES, CHOSEN, SPACES = [], [], [], [], []
            RESULT = [None] * s.n
            ASKED = PLAYERS
            if len(set(ASKED)) != len(ASKED):
                raise TWICE(ASKED, LOC)
            for P in ASKED:
                VAR = P
                LS, VS = OPTIONS
                if LS is None:  # an option space (option_spaces.py): labels and values made on demand
                    SPACES.append(VS)
                    VS = None
                elif not LS:
                    continue
                elif len(LS) == 1:
                    TRACED
                    RESULT[P] = VS[0]
                    continue
                else:
                    SPACES.append(None)
                WHO.append(P)
                LABELS.append(LS)
                VALUES.append(VS)
                CHOSEN.append(None)
            DEST = RESULT
            if WHO and (s.drawing is None or not s.drawing.each(WHO, LABELS, VALUES, SPACES, RESULT)):
                fr.pc = NEXT
                s.pending = PENDING(WHO, LABELS, VALUES, CHOSEN, DEST_KEY, True, SECRET, PROMPT,
                                    SPACES if SPACES.count(None) < len(SPACES) else None)
                return SUSPEND
        """, WHO=name(who), LABELS=name(labels), VALUES=name(values), CHOSEN=name(chosen), RESULT=name(result),
            ASKED=name(asked), PLAYERS=players, TWICE=self.ctx.stmts.K(asked_twice), LOC=self.ctx.stmts.K(loc), P=name(p),
            VAR=local(var, True), LS=name(ls), VS=name(vs), OPTIONS=build, PROMPT=ast.Constant(prompt),
            DEST=local(dest, True), NEXT=self.ctx.layout.resumed_holding(self.ctx.layout.entered(k), held), DEST_KEY=ast.Constant(dest),
            SECRET=ast.Constant(secret), SUSPEND=ast.Constant(SUSPEND), SPACES=name(spaces),
            PENDING=self.ctx.stmts.K(Pending),
            TRACED=self.traced_single(name(p), ast.Constant(prompt), name(ls), name(vs), secret)),
            loc))
        if after is not None:
            code.append(after)

    def ask_menu(self, st, scope, code):
        if any(opt.items is not None or "{" in opt.label for opt in st.options):  # some text is made at run time
            return self.built_menu(st, scope, code)
        player = self.ctx.exprs.expect_code(st.player, scope, "player", "who is asked")[0]
        conds = []
        for opt in st.options:  # (each with its own text: the statement analysis)
            conds.append(self.ctx.exprs.expect_code(opt.condition, scope, "bool", "the condition of an option")[0]
                         if opt.condition else None)
        labels_all = [o.label for o in st.options]
        loc = self.ctx.location(st)
        # A menu's values are where each option's code starts: choosing one resumes right there
        # (no dispatch step).  The positions are known once the procedure is laid out.
        targets = [Label() for _ in st.options]
        pcs = []
        held = self.ctx.layout.holding(scope)
        self.ctx.fixups.append(lambda: pcs.extend(self.ctx.layout.entered(t.pc) for t in targets))

        if all(c is None for c in conds) and len(conds) > 1:
            labels_fixed, values_fixed = [labels_all], [pcs]  # shared: never mutated
            p, drawn = self.ctx.stmts.tmp(), self.ctx.stmts.tmp()
            code.append(Op(lambda k: shape("""
                P = PLAYER
                if s.drawing is not None and (J := s.drawing.one(P, ALL)) >= 0:
                    pc = PCS[J]
                    continue
                fr.pc = NEXT
                s.pending = PENDING([P], LABELS, VALUES, [None], None, False, False, "choose", None)
                return SUSPEND
            """, NEXT=self.ctx.layout.resumed_holding(k, held), P=name(p), PLAYER=player, LABELS=self.ctx.stmts.K(labels_fixed),
                VALUES=self.ctx.stmts.K(values_fixed), ALL=self.ctx.stmts.K(labels_all), PCS=self.ctx.stmts.K(pcs),
                J=name(drawn), SUSPEND=ast.Constant(SUSPEND), PENDING=self.ctx.stmts.K(Pending)), loc))
        else:
            code.append(self._menu_ask(player, conds, labels_all, pcs, loc, held))
        end = Label()
        for i, (opt, target) in enumerate(zip(st.options, targets)):
            target.pc = len(code)
            self.ctx.layout.counted(opt.body, scope, code, self.ctx.coverage.count_option(opt), opt)
            if len(code) == target.pc:
                targets[i] = end  # an option with nothing to do goes straight on
            else:
                code.append(jump(end))
        end.pc = len(code)

    def _menu_ask(self, player, conds, labels_all, pcs, loc, held):
        # Which options are open is a bit mask; each mask's option lists are made once (never mutated).
        always = sum(1 << i for i, c in enumerate(conds) if c is None)
        tests = [(1 << i, c) for i, c in enumerate(conds) if c is not None]
        if len(conds) > 10 or not self.ctx.options.tables:  # too many masks to list (or tables off): listed when asked
            table = None
        else:
            table = []
            for mask in range(1 << len(conds)):
                open_ = [i for i in range(len(conds)) if mask >> i & 1]
                table.append(([labels_all[i] for i in open_], open_))

            def resolve():  # option numbers -> code positions, once they are known
                for _, values in table:
                    values[:] = [pcs[i] for i in values]
            self.ctx.fixups.append(resolve)
        p, mask, labels, values, drawn = (self.ctx.stmts.tmp() for _ in range(5))

        def make(k):
            if table is not None:
                find = [ast.Assign([name(mask, True)], ast.Constant(always))] + [
                    ast.If(c, shape("M |= BIT", M=name(mask), BIT=ast.Constant(bit)), []) for bit, c in tests] \
                    + shape("LABELS, VALUES = TABLE[M]", LABELS=name(labels), VALUES=name(values), TABLE=self.ctx.stmts.K(table),
                            M=name(mask))
            else:
                find = shape("LABELS, VALUES = [], []", LABELS=name(labels), VALUES=name(values))
                for i, c in enumerate(conds):
                    add = shape("""
                        LABELS.append(LABEL)
                        VALUES.append(PCS[I])
                    """, LABELS=name(labels), VALUES=name(values), LABEL=ast.Constant(labels_all[i]), PCS=self.ctx.stmts.K(pcs),
                        I=ast.Constant(i))
                    find += add if c is None else [ast.If(c, add, [])]
            # decide_one, written out: a single open option is taken at once (its code starts there)
            return shape("P = PLAYER", P=name(p), PLAYER=player) + find + shape("""
                if not LABELS:
                    raise RE(f"none of the options is open to player {P + 1}", LOC)
                if len(LABELS) == 1:
                    TRACED
                    pc = VALUES[0]
                    continue
                if s.drawing is not None and (J := s.drawing.one(P, LABELS)) >= 0:
                    pc = VALUES[J]
                    continue
                fr.pc = NEXT
                s.pending = PENDING([P], [LABELS], [VALUES], [None], None, False, False, "choose", None)
                return SUSPEND
            """, P=name(p), LABELS=name(labels), VALUES=name(values), RE=self.ctx.stmts.K(RuleError), LOC=self.ctx.stmts.K(loc),
                NEXT=self.ctx.layout.resumed_holding(k, held), SUSPEND=ast.Constant(SUSPEND), PENDING=self.ctx.stmts.K(Pending), J=name(drawn),
                TRACED=self.traced_single(name(p), ast.Constant("choose"), name(labels), ast.Constant(None)))
        return Op(make, loc)

    # ------------------------------------------------------------ menus with entries built from lists
    def built_menu(self, st, scope, code):
        """A menu where some entries are one option per item: ``"play {c}" for c in hand(p) [if COND]:``.

        Generated code goes through the entries' lists and offers each open option with the run-time
        functions of ``runtime.option_lists`` (identical cards are one option), then asks.  The chosen
        option's value is (entry number, item); the instruction after the decision binds the entry's
        variable to the item and goes to the entry's code.
        """
        player = self.ctx.exprs.expect_code(st.player, scope, "player", "who is asked")[0]
        # who chooses, and the options made so far: a card in an option's text reads as that player may read it
        p, labels = self.ctx.stmts.tmp(), self.ctx.stmts.tmp()
        entries = [self.menu_entry(opt, scope, (name(p), name(labels))) for opt in st.options]
        loc = self.ctx.location(st)
        slot = f"$menu{next(scope.counter)}"  # holds (entry, item) from the choice until the next instruction
        spec = MenuSpec(self.ctx.m.card_names, self.ctx.m.describe_value, [entry[2] for entry in entries],
                        [self.ctx.location(opt) for opt in st.options], loc, slot)
        targets = [Label() for _ in st.options]
        held = self.ctx.layout.holding(scope, ("menu", tuple(elem if elem and T.holds_cards(elem) else None
                                                             for _, _, elem, _, _ in entries)))
        code.append(Op(lambda k: self.menu_options_code(k, p, labels, player, entries, spec, held), None))

        keys = [entry[1] for entry in entries]
        which, item = self.ctx.stmts.tmp(), self.ctx.stmts.tmp()
        # after the choice: the entry's variable gets the item (its variables its parts), and its code runs
        if any(key.__class__ is tuple for key in keys):
            code.append(Op(lambda k: shape("""
                I, X = e.pop(SLOT)
                if KEYS[I] is not None:
                    UNPACK(e, KEYS[I], X)
                pc = PCS[I]
                continue
            """, I=name(which), X=name(item), SLOT=ast.Constant(slot), KEYS=self.ctx.stmts.K(keys), UNPACK=self.ctx.stmts.K(bind_parts),
                PCS=self.ctx.stmts.K([self.ctx.layout.entered(target.pc) for target in targets])), loc))
        else:
            code.append(Op(lambda k: shape("""
            I, X = e.pop(SLOT)
            if KEYS[I] is not None:
                e[KEYS[I]] = X
            pc = PCS[I]
            continue
        """, I=name(which), X=name(item), SLOT=ast.Constant(slot), KEYS=self.ctx.stmts.K(keys),
            PCS=self.ctx.stmts.K([self.ctx.layout.entered(target.pc) for target in targets])), loc))
        end = Label()
        for i, (opt, target) in enumerate(zip(st.options, targets)):
            target.pc = len(code)
            self.ctx.layout.counted(opt.body, scope, code, self.ctx.coverage.count_option(opt), opt)
            if len(code) == target.pc:
                targets[i] = end
            else:
                code.append(jump(end))
        end.pc = len(code)

    def menu_entry(self, opt, scope, chooser) -> tuple:
        """One entry of a built menu as generated trees: (items, env key, kind of the items, condition, text);
        a fixed entry has no items, key or kind.  ``chooser``: code reading who chooses and the options made so
        far (see :meth:`label_code`)."""
        cond_of = lambda: self.ctx.exprs.expect_code(opt.condition, scope, "bool", "the condition of an option")[0] \
            if opt.condition else None  # noqa: E731
        if opt.items is None:
            cond = cond_of()
            # A fixed option's text may show values too ("keep {card}"): its {...} are filled in.
            return None, None, None, cond, self.label_code(self.label_template(opt, scope) if "{" in opt.label
                                                           else [opt.label], chooser)
        items, kind = self.ctx.exprs.list_code(opt.items, scope, "what a menu entry goes through")
        elem = T.element(kind)
        scope.names.update(T.unpacked(opt.var, elem))
        key = scope.keys.get(opt.var, opt.var) if isinstance(opt.var, str) else \
            tuple(scope.keys.get(n, n) for n in opt.var)  # "ask {q} for {r}" for q, r in pairs
        cond = cond_of()
        parts = self.label_template(opt, scope)
        if not any(isinstance(part, tuple) for part in parts):  # "play" for c in ...: reads "play red king"
            whole = local(key) if key.__class__ is str else ast.List([local(k) for k in key], ast.Load())
            parts = ([opt.label + " "] if opt.label else []) + [(whole, elem)]
        return items, key, elem, cond, self.label_code(parts, chooser)

    def label_code(self, parts, chooser) -> ast.expr:
        """An option's text in generated code: its literal strings and its parts, each as it reads to the player
        ``chooser[0]`` reads (``chooser[1]``: the options made so far): a card it cannot see where it lies by its
        place (``runtime.decisions.card_text``), in a list or a pair too (``value_text``)."""
        if all(part.__class__ is str for part in parts):
            return ast.Constant("".join(parts))
        K = self.ctx.stmts.K
        describe = K(self.ctx.m.describe_value)
        pieces = [ast.Constant(part) if part.__class__ is str else
                  ast.Call(K(card_text), [name("s"), chooser[0], part[0], self.card_texts(), chooser[1]], [])
                  if part[1] == "card" else
                  ast.Call(K(value_text), [name("s"), chooser[0], part[0], ast.Constant(part[1]), chooser[1]], [])
                  if T.holds_cards(part[1]) else
                  ast.Call(describe, [part[0], ast.Constant(part[1])], [])
                  for part in parts]
        text = pieces[0]
        for piece in pieces[1:]:  # (every piece a string: one '+' each)
            text = ast.BinOp(text, ast.Add(), piece)
        return text

    def card_texts(self) -> ast.expr:
        """How each card reads in an option's text, as ``describe_value`` has it (a card's name; none: "none"),
        looked up in one table: ``K[i][card]``."""
        texts = self.ctx.tables.get("card texts")  # one table for the definition (tables: ids of nodes, this name)
        if texts is None:
            texts = self.ctx.tables["card texts"] = {None: self.ctx.m.describe_value(None, "card"),
                                                     **dict(enumerate(self.ctx.m.card_names))}
        return self.ctx.stmts.K(texts)

    def menu_options_code(self, k, p, labels, player, entries, spec, held) -> list:
        """The menu's instruction at pc ``k``: who chooses put in ``p``, its open options made in ``labels`` (each
        entry's items gone through), then ``menu_decide`` gives the pc to go on at, or SUSPEND."""
        K = self.ctx.stmts.K
        values, same = (self.ctx.stmts.tmp() for _ in range(2))
        offered = dict(SPEC=K(spec), LABELS=name(labels), VALUES=name(values), SAME=name(same))
        body = shape("""
            P = PLAYER
            LABELS, VALUES, SAME = [], [], {}
        """, P=name(p), PLAYER=player, **offered)
        for i, (items, key, elem, cond, label) in enumerate(entries):
            if items is None:
                offer = shape("ENTRY(SPEC, LABELS, VALUES, SAME, I, LABEL)", ENTRY=K(menu_entry), I=ast.Constant(i),
                              LABEL=label, **offered)
                body += offer if cond is None else [ast.If(cond, offer, [])]
                continue
            x = self.ctx.stmts.tmp()
            bind = shape("e[KEY] = X", KEY=ast.Constant(key), X=name(x)) if key.__class__ is str else \
                shape("UNPACK(e, KEY, X)", UNPACK=K(bind_parts), KEY=K(key), X=name(x))
            offer = shape("ITEM(SPEC, LABELS, VALUES, SAME, I, X, LABEL)", ITEM=K(menu_item), I=ast.Constant(i),
                          X=name(x), LABEL=label, **offered)
            # one step per item, paid before any text is made
            body.append(ast.For(name(x, True), ast.Call(K(paid), [name("s"), items, K(spec.loc)], []),
                                bind + (offer if cond is None else [ast.If(cond, offer, [])]), []))
        return body + shape("""
            pc = DECIDE(s, fr, PC, P, SPEC, LABELS, VALUES)
            if pc != NEXT:
                if pc < 0:
                    return pc
                continue
        """, DECIDE=K(menu_decide), P=name(p), PC=ast.Constant(k), NEXT=self.ctx.layout.resumed_holding(k, held), **offered)

    def label_template(self, opt, scope):
        """An option's text as literal strings and (tree, kind) parts for its ``{expression}`` s."""
        parts = []  # (each part's errors, and whether a text can show it: the statement analysis's)
        for piece in self.ctx.template(opt.label, opt, "the option's text", opt.column + 1):
            if piece.__class__ is str:
                parts.append(piece)
                continue
            tree, kind = self.ctx.exprs.expr_code(piece[1], scope)
            if kind == "zone":
                tree, kind = py("list(s.zones[_0])", tree), "list:card"
            parts.append((tree, kind))
        return parts
