"""The bounds rules run within (numbers, texts, work between two decisions), and their located errors."""

from __future__ import annotations

import operator

from ..errors import RuleError

# The step budget (``s.steps``, reset to ``limits: steps`` before each action) pays for real work:
# one step per loop iteration, procedure call and event, and one per item of every list built or
# gone through (``each``, ``range``, ``+`` of lists, ``for``, moves and shuffles of many cards).
# A rule that does too much between two decisions stops with a located RuleError.
TOO_MUCH_WORK = ("{what} does more work than the step budget allows between two decisions ({limit:,} steps: "
                 "a huge list or an endless loop? if the rule is right, raise 'limits: {{steps: N}}')")
MAX_INT = 10 ** 18  # numbers in rules stay within -MAX_INT..MAX_INT (repeated squaring stops here)
MAX_TEXT = 10_000  # characters in one log line or one text built with '+'
MAX_ACTION_TEXT = 10_000  # characters in one action's text (a save keeps each: see State.load)
MAX_LOG_PARTS = 100  # {expression} parts in one log text (each costs work at load)


def over_budget(s, loc, what="this rule"):
    """The located error when work (items gone through or built) runs past the step budget."""
    return RuleError(TOO_MUCH_WORK.format(what=what, limit=s.game.step_limit), loc)


def too_big(value, loc, what):
    """The located error for a number beyond MAX_INT."""
    return RuleError(f"{what} gives {'a huge number' if abs(value) > 10 ** 40 else value}, beyond the "
                     f"limit of numbers in rules (-10^18 to 10^18)", loc)


def not_added(label, old, hint, loc):
    """The located error of a '+=' or '-=' on ``label`` (which holds ``old``) that failed: the variable
    is not a number, or else the amount is not (none: an item of an empty list, say)."""
    if type(old) is int:
        return RuleError(f"cannot add to {label}: the amount is none, not a number (the item of an empty "
                         "list, or of a place past its end?)", loc)
    shown = {None: "none", True: "true", False: "false"}.get(old, old) if type(old) in (bool, type(None)) else repr(old)
    return RuleError(f"cannot add to {label}: it holds {shown}, not a number{hint}", loc)


def kind_name(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def operand_error(op, a, b, loc):
    """The located error for an operator given values it cannot work on (a none where a number goes...)."""
    verb = "compare" if op in COMPARE else "work on"
    return RuleError(f"'{op}' cannot {verb} {kind_name(a)} and {kind_name(b)} (is a value none here?)", loc)


COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}
