"""The sandbox of generated code: the builtins it sees, and where a rule failed when it raised.

Generated functions see :data:`SAFE_BUILTINS` only (no ``open``, ``__import__``, ``eval``, ``getattr``).

A Python error no check foresaw (a bug in Ribbit, or a case its checks miss) is located here.

Nothing is recorded while rules run: the error's own traceback says where it
happened.  Rule code is generated code (:mod:`interpreter.dsl.codegen`), which
carries the definition's file, line and column in its code objects, so walking
the traceback's frames from the innermost out, the first generated frame names
the statement (and ``CodeUnit.origins`` the rule its function was made from).
Failing that, the error is located at the rule (procedure, trigger, ability...)
whose instruction was running.

:func:`in_ribbit_words` says what went wrong without a Python class name or a Python message:
the person reading it wrote YAML, not Python (the exception stays the error's ``__cause__``).
"""

from __future__ import annotations

import builtins
import re
from dataclasses import replace

from ..errors import Location, quote, shorten

SAFE_BUILTINS = {name: getattr(builtins, name) for name in (
    "abs", "all", "any", "bool", "dict", "enumerate", "int", "isinstance", "iter", "len", "list", "max",
    "min", "next", "range", "reversed", "set", "sorted", "str", "sum", "tuple", "type", "zip",
    "IndexError", "KeyError", "OverflowError", "RecursionError", "TypeError", "ValueError", "ZeroDivisionError",
)}

_LOCAL_KEY = re.compile(r"([a-z_][a-z0-9_]*)(\.\d+)?")  # an env key: a local's name (numbered when inlined)


def in_ribbit_words(exc: BaseException) -> str:
    """What an error no check foresaw means for the rules, in the words of the effect language."""
    if isinstance(exc, KeyError) and len(exc.args) == 1 and type(exc.args[0]) is str:
        found = _LOCAL_KEY.fullmatch(exc.args[0])
        if found:
            return (f"the variable {quote(found.group(1))} has no value here (it is given one only on a path "
                    "not taken: give it a value with 'let' before the 'if' or loop)")
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, TypeError):
        return "a value is of the wrong kind here (none, or a text, where a number or a card is needed?)"
    if isinstance(exc, (KeyError, IndexError)):
        return "a value is not there (an empty list or zone, or a table without that entry?)"
    if isinstance(exc, OverflowError):
        return "a number is too large"
    if isinstance(exc, (ValueError, ArithmeticError)):
        return "a value is out of range here"
    if type(exc) in (AssertionError, RuntimeError) and exc.args and type(exc.args[0]) is str:
        # raised by Ribbit's own code (an invariant, a check of its own): its words, not Python's
        return f"an internal check of Ribbit failed: {shorten(exc.args[0], 300)} (please report it)"
    return "the rule could not be carried out (a case Ribbit's checks missed: please report it)"


def failed_at(game, exc: BaseException, proc, pc: int) -> Location:
    """The Location of the statement whose code raised ``exc``, or of the rule running instruction ``pc``."""
    where = proc.where_at(pc)
    found = None
    tb = exc.__traceback__
    while tb is not None:  # the innermost generated frame: where the traceback says it was, not where the
        if tb.tb_frame.f_globals.get("__builtins__") is SAFE_BUILTINS:  # frame ended (an 'except' it passed)
            found = tb
        tb = tb.tb_next
    if found is not None:
        return _generated(game, found, where)
    return game.source.location(where)


def _generated(game, tb, where) -> Location:
    frame = tb.tb_frame
    line, column = tb.tb_lineno, None
    try:
        positions = list(frame.f_code.co_positions())
        found = positions[tb.tb_lasti // 2]
        if found[0] == line and found[2] is not None:
            column = found[2] + 1
    except (AttributeError, IndexError):
        pass
    origin = getattr(game, "code", None) and game.code.origins.get(frame.f_code.co_name)
    known = game.source.location(origin or where)  # the rule the code was made from, else the running one
    loc = Location(frame.f_code.co_filename, line, column, known.key)
    if loc.file == game.source.file:  # the caret line, as for any other located error
        loc = replace(loc, excerpt=game.source.excerpt(loc))
    return loc
