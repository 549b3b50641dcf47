"""Compile effect ASTs into Python code, once, at load: the entry point the model builder calls.

Two shapes come out of here, both generated Python functions (``codegen.py``;
statements are lowered in ``statements.py``):

* **direct functions** ``f(state, env) -> value`` for procedures that never wait
  for a player (and for inlined bodies that stop at a 'return'); expressions are
  lowered into them as Python expressions (``lower_expr.py``);
* **resumable functions** for procedures that may wait: one function
  ``f(state, frame, pc) -> TRANSFER | SUSPEND`` per procedure, a state machine
  over a frame of plain data (``runtime.records.Frame``: procedure id, pc, locals, return slot) stored in
  the state, so a game suspended at a decision is still JSON-serialisable and
  clones cheaply (``resumable.py``).  Procedures never entered in a frame of
  their own get a one-instruction stub instead.

:class:`Compiler` is a façade: it builds the game's :class:`~interpreter.dsl.context.CompileContext`
and one object per pass, each holding only that context (``context.py`` lists them), and answers
the few calls the model builder makes.  Each snippet goes through the passes in order: the analysis
(``analysis.py``, ``stmt_analysis.py``) checks it and notes what the lowering needs, raising
:class:`CompileError` with the offending node (the model builder turns that into a located
:class:`DefinitionError`); the lowering (``lower_expr.py``, ``statements.py``) turns it into Python
``ast``, inlining and splicing the calls it may (``inline.py``, ``splice.py``); the layout
(``resumable.py``) makes a waiting procedure a state machine; ``codegen.py`` emits the functions.
"""

from __future__ import annotations

from .analysis import ExpressionAnalysis
from .check import ExpressionChecker
from .context import CompileContext
from .counters import CounterCompiler
from .coverage import CoverageCompiler
from .decisions import DecisionCompiler
from .inline import Inliner
from .lower_expr import ExpressionLowering
from .ordering import OrderingCompiler
from .resumable import WaitingLayout
from .showing import ShowCompiler
from .splice import Splicer
from .statements import StatementLowering
from .stmt_analysis import StatementAnalysis
from ..runtime.control import SUSPEND, TRANSFER, GameOver  # noqa: F401 (re-exported)
from .procedures import CompileError, Func, Label, Proc, Scope, suggest  # noqa: F401 (re-exported)


class Compiler:
    """One game's compiler: its context, its passes, and the entry points of the model builder."""

    __slots__ = ("ctx",)

    def __init__(self, model):
        ctx = self.ctx = CompileContext(model)
        ctx.analysis = ExpressionAnalysis(ctx)
        ctx.stmt_analysis = StatementAnalysis(ctx)
        ctx.checker = ExpressionChecker(ctx)
        ctx.inliner = Inliner(ctx)
        ctx.splicer = Splicer(ctx)
        ctx.exprs = ExpressionLowering(ctx)
        ctx.stmts = StatementLowering(ctx)
        ctx.layout = WaitingLayout(ctx)
        ctx.decisions = DecisionCompiler(ctx)
        ctx.counters = CounterCompiler(ctx)
        ctx.ordering = OrderingCompiler(ctx)
        ctx.showing = ShowCompiler(ctx)
        ctx.coverage = CoverageCompiler(ctx)

    @property
    def where(self):
        """Where the snippet being compiled lives (set by the model builder before each)."""
        return self.ctx.where

    @where.setter
    def where(self, where):
        self.ctx.where = where

    @property
    def code(self):
        """The generated functions (codegen.CodeUnit)."""
        return self.ctx.code

    @property
    def pushed_ids(self) -> set:
        return self.ctx.pushed_ids

    @property
    def spliced_ids(self) -> set:
        return self.ctx.spliced_ids

    # ---------------------------------------------------------------- entry points
    def suspends(self, stmts) -> bool:
        """Whether ``stmts`` may wait for a player (the analysis)."""
        return self.ctx.analysis.suspends(stmts)

    def function_kind(self, func):
        """Analyse a user function's body; its result's kind (the analysis)."""
        return self.ctx.analysis.function_kind(func)

    def expr(self, node, scope: Scope):
        """An expression compiled to a function ``f(state, env)``, and its kind."""
        return self.ctx.exprs.expr(node, scope)

    def expr_code(self, node, scope: Scope, expect=None):
        """An expression as a Python ``ast`` expression over ``s`` and ``e``, and its kind."""
        return self.ctx.exprs.expr_code(node, scope, expect)

    def function_of(self, tree, node, what: str = "expression"):
        """A compiled function ``f(state, env)`` whose value is ``tree``."""
        return self.ctx.exprs.function_of(tree, node, what)

    def compile_proc(self, proc: Proc, resumable: bool = True):
        """A procedure's code: resumable (a state machine) when it may wait, else direct."""
        return self.ctx.layout.compile_proc(proc, resumable)
