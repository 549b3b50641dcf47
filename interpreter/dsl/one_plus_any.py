"""Compile 'choose one of X plus any number of Y as a, b': one card of one list and any others of another, in one step.

Each option is one distinct card of X (identical cards are one option) with any
distinct selection of the cards of Y other than that very card; it reads
``"<one> + <others>"`` ("first + second, 2 x third"), or just ``"<one>"`` when
nothing else is taken.  The options are counted before any is listed (the
decision cap of ``runtime.decisions.MAX_OPTIONS``).  A chosen option's value is the flat
list ``[one, other, ...]`` of cards (plain data: it travels in the pending
decision and the trace redacts it like any list of chosen cards); the
instruction after the decision splits it into the two names.
"""

from __future__ import annotations

import ast

from ..errors import RuleError
from ..runtime.decisions import MAX_OPTIONS, savable_labels
from ..runtime.option_spaces import PLUS, SEPARATOR, names_can_collide
from .pyast import local, name, shape
from ..runtime.selections import combo_shapes, count_any_shapes
from .procedures import Op


def plus_options(ctx, st, scope):
    """What a player chooses among: returns f(s, e) -> (labels, values) for an Ask or AskEach with ``rest``.

    With two options or more and card names that cannot make two options read alike, it returns
    (None, option space) instead: the options are counted, not listed (runtime/option_spaces.py).
    """

    # (one of the first list, two names, lists of cards: checked by the statement analysis)
    ones, k1 = ctx.exprs.as_list(st.options, scope, "what one is chosen of")
    others, k2 = ctx.exprs.as_list(st.rest, scope, "what any number are chosen of")
    names = ctx.m.card_names
    prefix = f"{st.verb} " if st.verb else ""
    loc = ctx.location(st.options)
    as_space = not names_can_collide(names)

    def group(pool, c):
        """(names, cards, sizes) of the groups of identical cards of ``pool``, in the order each name
        first appears, without the first occurrence of ``c`` (the card chosen as the one is not also
        one of the others).  The groups are only read afterwards, so first cards that are not in the
        pool share those of the whole pool, made once."""
        groups = {}
        skipped = c is None
        for x in pool:
            if x == c and not skipped:
                skipped = True
                continue
            groups.setdefault(names[x], []).append(x)
        members = list(groups.values())
        return list(groups), members, tuple(map(len, members))

    def build(s, e):
        firsts = {}
        for c in ones(s, e):
            firsts.setdefault(names[c], c)
        pool = others(s, e)
        plans, total = [], 0
        whole = None  # the groups of the whole pool: those of every first card that is not in it
        for name, c in firsts.items():
            if c in pool:
                grouped = group(pool, c)
            else:
                if whole is None:
                    whole = group(pool, None)
                grouped = whole
            keys, members, caps = grouped
            n = count_any_shapes(caps)
            total += n  # counted before any is listed
            if total > MAX_OPTIONS:
                raise RuleError(f"more than {MAX_OPTIONS:,} options to choose from (one of {len(firsts)} different "
                                f"plus any number of {len(pool)}); ask for fewer at a time", loc)
            savable_labels(prefix + name + SEPARATOR, keys, caps, sum(caps),
                           f"one of {len(firsts)} different plus any number of {len(pool)}", loc)
            plans.append((name, c, keys, members, caps, n))
        if as_space and total > 1:
            return None, [PLUS, prefix, [[c, members, n] for _, c, _, members, _, n in plans], total]
        labels, values, seen = [], [], set()
        for name, c, keys, members, caps, _ in plans:
            for k in range(sum(caps) + 1):
                for shape in combo_shapes(caps, k):
                    picked = [c]
                    for i, times in shape:
                        picked += members[i][:times]
                    text = ", ".join(keys[i] if times == 1 else f"{times} x {keys[i]}" for i, times in shape)
                    label = prefix + name + (SEPARATOR + text if text else "")
                    if label in seen:
                        raise RuleError(f"two options of this decision read {label!r} (a card's name contains "
                                        f"{SEPARATOR.strip()!r} or ', '); the choice cannot be told apart", loc)
                    seen.add(label)
                    labels.append(label)
                    values.append(picked)
        return labels, values
    return build


def split_one(dest, one_key, rest_key):
    """The instruction after a one-player decision: ``[one, *others]`` -> the two names."""
    return Op(lambda k: shape("""
        V = e.pop(DEST)
        ONE = V[0]
        REST = V[1:]
    """, V=name("v"), DEST=ast.Constant(dest), ONE=local(one_key, True), REST=local(rest_key, True)), None)


def split_each(dest, one_key, rest_key):
    """The instruction after 'ask each': per player ``[one, *others]`` (none if not asked) -> two lists by player."""
    return Op(lambda k: shape("""
        GOT = e.pop(DEST)
        ONE = [None if v is None else v[0] for v in GOT]
        REST = [[] if v is None else v[1:] for v in GOT]
    """, GOT=name("got"), DEST=ast.Constant(dest), ONE=local(one_key, True), REST=local(rest_key, True)), None)
