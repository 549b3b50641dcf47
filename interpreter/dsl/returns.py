"""Returns checked at load: a rule that declares ``-> kind`` gives a value of that kind on every path,
and one that declares none gives no value.

:func:`check_returns` runs once per procedure, right after its statements are analysed
(``StatementAnalysis.statement_notes``, whose notes give each ``return``'s kind).  It walks the
statement tree as control flows through it, conservatively:

* a path ends properly at ``return VALUE`` or ``end game`` (which ends the game there);
* ``if`` / ``elif`` covers every path only with an ``else``, and only if each branch does;
* a menu (``ask p:``) always runs one of its options (with none open it is a rule error), so it
  covers every path if every option does;
* a loop's body does not cover the path where the loop does not run: ``for`` (the list may be
  empty), ``while COND`` (the condition may be false at once) and ``repeat N`` (N may be 0) all
  fall through.  Only loops that provably run are counted: ``loop:`` and ``while true:`` end only
  by ``break`` (a path goes on after each ``break``), and ``repeat N`` with a whole number N of 1 or
  more runs its body once at least (a path goes on after its last turn unless every turn ends);
* any other statement (a procedure call included, even one that always ends the game) goes on.

A path that can reach the end of the rule without a ``return`` is an error located where it ends.
The kind check is stricter than elsewhere: a number does not pass for true/false here (``stop ->
bool`` returning 5 is refused), nor the reverse.
"""

from __future__ import annotations

from . import ast as A
from . import types as T
from .procedures import CompileError

# Why a path can reach the end of its rule: the text after "... every path, but ".
_ENDS = {
    "after": "this path ends after this line without a 'return'",
    "empty": "its body is empty",
    "no else": "when no condition of this 'if' holds (it has no 'else'), the path ends without a 'return'",
    "for": "when this 'for' goes through no item, the path ends without a 'return' (a 'return' inside a "
           "loop does not cover the path where the loop does not run)",
    "while": "when the condition of this 'while' is false from the start, the path ends without a 'return' "
             "(a 'return' inside a loop does not cover the path where the loop does not run)",
    "repeat": "when this 'repeat' runs zero times, the path ends without a 'return' (a 'return' inside a "
              "loop does not cover the path where the loop does not run)",
    "repeat done": "once this 'repeat' has run its last time, the path ends without a 'return'",
    "break": "after this 'break' exits its loop, the path ends without a 'return'",
}


class _Exits:
    """How a statement (or block) can finish: ``falls`` is where a path goes on past it (a
    (node, reason) pair, None if no path does); ``breaks`` the 'break's leaving the innermost
    loop around it; ``continues`` whether a 'continue' does."""

    __slots__ = ("falls", "breaks", "continues")

    def __init__(self, falls=None, breaks=(), continues=False):
        self.falls, self.breaks, self.continues = falls, list(breaks), continues


def check_returns(proc, notes) -> None:
    """Raise a located CompileError if ``proc`` can end without the value it declares, or gives one it
    does not declare, or one of another kind.  ``notes`` are its statements' notes (their kinds)."""
    declared = proc.declares_result  # (the loader's: '-> any' too)
    if declared is None:  # made by the engine (a hooked procedure's wrapper): nothing an author wrote
        return
    for st in A.walk(proc.body):
        if not isinstance(st, A.Return):
            continue
        if not declared:
            if st.value is not None:
                raise CompileError(f"{_no_result(proc)}: 'return' cannot give a value here "
                                   "(a bare 'return' ends it early)", st.value)
            continue
        if st.value is None:
            raise CompileError(f"{subject(proc)} must return {T.describe(proc.returns)}; a bare 'return' gives "
                               "no value (write 'return none' to give nothing)", st)
        note = notes.get(id(st))
        kind = getattr(note, "kind", None) or T.ANY
        if not _fits(kind, proc.returns):
            raise CompileError(f"{subject(proc)} returns {T.describe(proc.returns)}, not {T.describe(kind)}",
                               st.value)
    if not declared:
        return
    ends = _block(proc.body).falls
    if ends is not None:
        node, reason = ends
        raise CompileError(f"{subject(proc)} must return {T.describe(proc.returns)} on every path, but "
                           f"{_ENDS[reason]}", node)


# ---------------------------------------------------------------- how statements finish
def _block(stmts) -> _Exits:
    out = _Exits(falls=(None, "empty"))
    for st in stmts:
        exits = _statement(st)
        out.breaks += exits.breaks
        out.continues = out.continues or exits.continues
        out.falls = exits.falls
        if exits.falls is None:  # what follows is never reached
            break
    return out


def _statement(st) -> _Exits:
    if isinstance(st, (A.Return, A.EndGame)):
        return _Exits()
    if isinstance(st, A.Break):
        return _Exits(breaks=[st])
    if isinstance(st, A.Continue):
        return _Exits(continues=True)
    if isinstance(st, A.If):
        return _branches([body for _, body in st.branches] + [st.orelse], None if st.orelse else (st, "no else"))
    if isinstance(st, A.AskMenu):  # one option always runs (none open is a rule error)
        return _branches([opt.body for opt in st.options], None)
    if isinstance(st, A.While):
        return _while(st)
    if isinstance(st, A.For):
        return _Exits(falls=(st, "for"))
    if isinstance(st, A.Repeat):
        return _repeat(st)
    return _Exits(falls=(st, "after"))


def _while(st) -> _Exits:
    """A 'while' whose condition is not always true may be left at its test; one that is, only by a 'break'."""
    body = _block(st.body)
    if st.condition is None or (isinstance(st.condition, A.Const) and st.condition.value is True):
        return _Exits(falls=(body.breaks[0], "break") if body.breaks else None)
    return _Exits(falls=(st, "while"))


def _repeat(st) -> _Exits:
    """A 'repeat' of a fixed count of 1 or more runs its body: it goes on as the body does."""
    times = st.times
    if isinstance(times, A.Const) and type(times.value) is int and times.value >= 1:
        body = _block(st.body)
        if body.falls is not None or body.continues:
            return _Exits(falls=(st, "repeat done"))
        return _Exits(falls=(body.breaks[0], "break") if body.breaks else None)
    return _Exits(falls=(st, "repeat"))


def _branches(bodies, no_else) -> _Exits:
    """Several bodies of which one runs (an 'if' with its 'else', a menu's options); ``no_else`` is
    where the path goes on when none runs (an 'if' without 'else'), or None."""
    out = _Exits(falls=None)
    for body in bodies:
        if not body:
            continue
        exits = _block(body)
        out.breaks += exits.breaks
        out.continues = out.continues or exits.continues
        out.falls = out.falls or exits.falls
    out.falls = out.falls or no_else
    return out


# ---------------------------------------------------------------- kinds and names
def _fits(actual: str, expected: str) -> bool:
    """``T.fits``, except that a number is not true/false nor the reverse (at any depth of lists)."""
    if not T.fits(actual, expected):
        return False
    if {actual, expected} == {"int", "bool"}:
        return False
    if T.is_list(actual) and T.is_list(expected):
        return _fits(T.element(actual), T.element(expected))
    return True


def _hook(proc):
    """(procedure, 'before' / 'instead' / 'after') for a variant's hook, else None."""
    return proc.hook


def subject(proc) -> str:
    """How a message names a rule that returns: ``stop()``, or ``this instead hook of stop()``."""
    hook = _hook(proc)
    if hook is not None:
        return f"this {hook[1]} hook of {hook[0]}()"
    return f"{proc.name}()"


def _no_result(proc) -> str:
    hook = _hook(proc)
    if hook is not None:
        name, when = hook
        if when == "instead":
            return f"{name}() declares no result, so neither does this instead hook"
        return f"a {when} hook gives no result (an instead hook answers for {name}())"
    if isinstance(proc.where, tuple) and proc.where[:1] == ("procedures",):
        return f"{proc.name}() declares no result (add '-> kind' after its parameters to give one)"
    return "this rule gives no result (only a procedure declared with '-> kind' does)"
