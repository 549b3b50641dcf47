"""Where a rule failed, for a Python error no check foresaw (a bug in Ribbit, or a case its checks miss).

Nothing is recorded while rules run: the error's own traceback says where it
happened.  Walking its frames from the innermost out, the first one that runs
compiled rule code names the statement:

* generated code (:mod:`interpreter.dsl.codegen`) carries the definition's
  file, line and column in its code object, so such a frame is located as is;
* a closure is recognised by its code and the values it closes over, which the
  compiler noted for each statement's closure and instruction
  (``game.statement_code``).

Failing both, the error is located at the rule (procedure, trigger, ability...)
whose instruction was running.
"""

from __future__ import annotations

from dataclasses import replace

from .dsl.codegen import SAFE_BUILTINS
from .errors import Location


def failed_at(game, exc: BaseException, proc, pc: int) -> Location:
    """The Location of the statement whose code raised ``exc``, or of the rule running instruction ``pc``."""
    where = proc.where_at(pc)
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        code = frame.f_code
        if frame.f_globals.get("__builtins__") is SAFE_BUILTINS:  # generated from the definition
            return _generated(game, frame, where)
        known = game.statement_code.get(code)
        if not known:
            continue
        names = code.co_freevars
        values = frame.f_locals
        for fn, rule, statement in known:
            if all(_holds(cell, values.get(name, _MISSING)) for name, cell in zip(names, fn.__closure__)):
                return game.locate(rule, statement)
    return game.source.location(where)


_MISSING = object()


def _holds(cell, value) -> bool:
    try:
        return cell.cell_contents is value
    except ValueError:  # an empty cell
        return value is _MISSING


def _generated(game, frame, where) -> Location:
    line, column = frame.f_lineno, None
    try:
        positions = list(frame.f_code.co_positions())
        found = positions[frame.f_lasti // 2]
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
