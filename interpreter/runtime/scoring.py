"""Scores, tie-breaks and modified quantities: the rules' expressions, wrapped with what they need at run time.

Each is a small callable record ``f(state, env)`` built once by the loader: a scoring expression that
explains its own failure (scores are read after the last action, outside the guard ``apply`` puts around
rules), the sum of named score terms, and a quantity with its modifiers (passive abilities of cards in play).
"""

from __future__ import annotations

from ..errors import RibbitError, RuleError, quote
from .sandbox import in_ribbit_words


class Scored:
    """A scoring expression that fails, or yields no whole number, as a RuleError at its place in the YAML."""

    __slots__ = ("fn", "loc", "what")

    def __init__(self, fn, loc, what: str):
        self.fn, self.loc, self.what = fn, loc, what

    def __call__(self, s, e):
        try:
            value = self.fn(s, e)
        except RibbitError:
            raise
        except RecursionError:
            raise RuleError(f"{self.what} nests too deeply (endless recursion?)", self.loc) from None
        except Exception as exc:
            raise RuleError(f"{self.what} failed for player {e['p']}: {in_ribbit_words(exc)}", self.loc) from None
        if type(value) is not int and type(value) is not bool:
            raise RuleError(f"{self.what} is not a whole number for player {e['p']} (it is {quote(value)})", self.loc)
        return value


class Summed:
    """A score made of several terms: their sum."""

    __slots__ = ("terms",)

    def __init__(self, terms: list):
        self.terms = terms

    def __call__(self, s, e):
        return sum(term(s, e) for term in self.terms)


class Modified:
    """A quantity's value: its base plus every active modifier on a card in play.

    ``mods``: ``(card ids, add, condition or None)`` per modifier; each card of a modifier that is in
    some zone, and whose condition holds (``card`` bound to it), adds ``add``."""

    __slots__ = ("base", "mods")

    def __init__(self, base, mods: list):
        self.base, self.mods = base, mods

    def __call__(self, s, e):
        value = self.base(s, e)
        loc = s.loc
        for ids, add, cond in self.mods:
            for card in ids:
                if loc[card] < 0:
                    continue
                e["card"] = card
                if cond is None or cond(s, e):
                    value += add(s, e)
        return value
