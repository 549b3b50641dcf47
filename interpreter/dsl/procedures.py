"""The pieces compilation works with: procedures, functions, scopes, labels, and the compile error."""

from __future__ import annotations

import difflib
import itertools

from . import ast as A
from . import types as T


class CompileError(Exception):
    def __init__(self, message: str, node: A.Node | None = None, cls: str = "type"):
        super().__init__(message)
        self.message, self.node, self.cls = message, node, cls


def suggest(name: str, candidates) -> str:
    close = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


class Proc:
    """A compiled procedure, trigger or card ability."""

    def __init__(self, pid: int, name: str, params: list, body: tuple, where, returns: str = T.ANY):
        self.id, self.name, self.params, self.body, self.where = pid, name, params, body, where
        self.returns = returns
        self.suspends = False
        self.direct = None  # f(state, env) -> value, for procedures that never wait
        self.code = None  # its resumable function f(s, fr, pc) (resumable.assemble), or resumable.NEVER_ENTERED
        self.spliced: list = []  # (first pc, end pc, where) of each procedure spliced into ``code``, for errors
        self.instructions = 0  # how many instructions ``code`` has (its pcs are 0 up to that; resumable.py)
        self.entries: tuple = ()  # the pcs ``code`` may be entered at, in order: those its dispatch tests (resumable.py)
        self.stmt_notes = None  # {id(statement): StmtNote}, once the statement analysis has walked the body
        # {pc a frame of it waits at: (how the values of the decision pending there hold cards, or None; {env key:
        # kind} of its locals that hold cards)}: what a determinised copy deals again (WaitingLayout.holding)
        self.held_cards: dict = {}
        self.hook = None  # (hook name, when) of a hook's procedure (loader/build.py; read by dsl/returns.py)
        # whether its 'return's must give a value (dsl/returns.py): the loader says True where the author wrote
        # '->' (even '-> any'), None for a procedure the engine made (a hooked procedure's wrapper: not checked)
        self.declares_result = returns != T.ANY

    def where_at(self, pc: int):
        """The key of the rule whose code instruction ``pc`` runs: the innermost spliced procedure there, or this one."""
        inside = [(end - start, where) for start, end, where in self.spliced if start <= pc < end]
        return min(inside, key=lambda found: found[0])[1] if inside else self.where


class Func:
    """A pure user function: an expression with typed parameters."""

    def __init__(self, name: str, params: list, body: A.Node, where):
        self.name, self.params, self.body, self.where = name, params, body, where
        self.fn = None
        self.kind = None
        self.compiling = False
        self.analysed = False  # its body analysed against its declared parameter kinds (ExpressionAnalysis.function_kind)
        self.reads = True  # whether its body reads the state (known once analysed)
        self.notes = None  # the analysis of its body, {id(node): Note} (known once analysed)


class Scope:
    """Local variables visible at a point: their kinds, and the env keys that hold them.

    ``aliases`` maps the parameters of an inlined function to the caller's
    argument trees, with their kinds (see ``ExpressionAnalysis.function_notes`` and ``Inliner``).
    """

    def __init__(self, names: dict, proc: Proc | None, aliases: dict | None = None):
        self.names = dict(names)
        self.keys: dict = {}
        self.aliases = dict(aliases or {})
        self.proc = proc
        self.loops: list = []  # (continue_label, exit_label) in resumable code
        self.counter = itertools.count()
        self.ret_key = "$ret"  # where 'return' puts its value (an inlined procedure gets its own key)
        self.ret_signal = None  # where 'return' goes: out of the procedure (None), or the end Label of a spliced one
        self.internal: dict = {}  # env keys the compiler made that hold cards ('for' lists), and their kinds

    def child(self):
        s = Scope(self.names, self.proc, self.aliases)
        s.keys = dict(self.keys)
        s.ret_key = self.ret_key
        s.ret_signal = self.ret_signal
        s.internal = dict(self.internal)
        s.loops = self.loops
        s.counter = self.counter
        return s



class Label:
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = None


class Op:
    """An instruction of a procedure that may wait, as Python statements: ``make(k)`` gives them for
    position ``k``, once the code is laid out (its labels known); ``at`` is their Location."""

    __slots__ = ("make", "at")

    def __init__(self, make, at):
        self.make, self.at = make, at


class Jump:
    """An instruction that only goes on at ``target`` (a Label)."""

    __slots__ = ("target",)

    def __init__(self, target: Label):
        self.target = target


def jump(label):
    """An instruction that goes on at ``label``."""
    return Jump(label)


def thread_jumps(code):
    """Point every jump that lands on another jump straight at the final target (one step less at run time)."""
    for ins in code:
        label = getattr(ins, "target", None)
        if label is None:
            continue
        for _ in range(len(code)):
            nxt = getattr(code[label.pc], "target", None)
            if nxt is None or nxt is label:
                break
            label.pc = nxt.pc
