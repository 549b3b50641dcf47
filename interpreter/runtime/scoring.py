"""What the generated functions of scores and tie-breaks raise when they fail (``dsl/scoring.py``).

Scores are read after the last action, outside the guard ``apply`` puts around rules: their functions
explain their own failures with these messages.
"""

from __future__ import annotations

import sys

from ..errors import RuleError, quote
from .sandbox import in_ribbit_words


def score_failure(what: str, e, loc) -> RuleError:
    """The error of a score or tie-break expression that failed (the exception being handled)."""
    exc = sys.exc_info()[1]
    if isinstance(exc, RecursionError):
        return RuleError(f"{what} nests too deeply (endless recursion?)", loc)
    return RuleError(f"{what} failed for player {e['p']}: {in_ribbit_words(exc)}", loc)


def not_whole(what: str, e, value, loc) -> RuleError:
    """The error of a score or tie-break that is not a whole number."""
    return RuleError(f"{what} is not a whole number for player {e['p']} (it is {quote(value)})", loc)
