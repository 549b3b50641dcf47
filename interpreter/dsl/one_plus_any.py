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

from ..runtime.option_lists import PlusSpec
from ..runtime.option_lists import plus_options as options_of_plus
from ..runtime.option_spaces import names_can_collide
from .pyast import local, name, shape
from .procedures import Op


def plus_options(ctx, st, scope, chooser=None) -> ast.expr:
    """What a player chooses among, for an Ask or AskEach with ``rest``: the generated call of
    ``runtime.option_lists.plus_options``, which gives (labels, values), or (None, option space) with two
    options or more and card names that cannot make two options read alike (runtime/option_spaces.py).
    ``chooser``: code reading who chooses: a card that player cannot see reads as its place."""
    # (one of the first list, two names, lists of cards: checked by the statement analysis)
    ones = ctx.exprs.list_code(st.options, scope, "what one is chosen of")[0]
    others = ctx.exprs.list_code(st.rest, scope, "what any number are chosen of")[0]
    names = ctx.m.card_names
    spec = PlusSpec(f"{st.verb} " if st.verb else "", names, not names_can_collide(names), ctx.location(st.options))
    K = ctx.code.constant
    return ast.Call(K(options_of_plus), [K(spec), ones, others] + ([] if chooser is None else [name("s"), chooser]), [])


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
