"""Compile effect ASTs into Python code, once, at load.

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

Static checks of expressions (unknown names, arity, kinds) are the analysis
pass's (``analysis.py``), run on each expression before it is lowered; they
raise :class:`CompileError` with the offending node, and the model builder
turns that into a located :class:`DefinitionError`.
"""

from __future__ import annotations

import itertools

from . import ast as A
from .analysis import Analysis
from .codegen import CodeUnit
from .counters import CounterCompiler
from .coverage import CoverageCompiler
from .decisions import DecisionCompiler
from .lower_expr import ExpressionCompiler
from .inline import ProcInliner
from .options import ALL_ON
from .static import LOAD_STEPS
from .ordering import OrderingCompiler
from .resumable import ResumableCompiler
from .showing import ShowCompiler
from .splice import ProcSplicer
from ..runtime.control import SUSPEND, TRANSFER, GameOver  # noqa: F401 (re-exported)
from .statements import StatementCompiler
from .procedures import CompileError, Func, Label, Proc, Scope, suggest  # noqa: F401 (re-exported)


class Compiler(Analysis, ExpressionCompiler, StatementCompiler, ProcInliner, ProcSplicer, ResumableCompiler, DecisionCompiler,
               CounterCompiler, OrderingCompiler, ShowCompiler, CoverageCompiler):
    """Holds the model's tables and compiles snippets against them."""

    def __init__(self, model):
        self.m = model
        self.options = getattr(model, "compile_options", None) or ALL_ON  # which optimisations to apply
        self.board = model.board
        self.zone_owner = model.zone_owner
        self.where = None  # where the snippet being compiled lives (for runtime error locations)
        self.tables = {}  # id(condition node) -> its per-card table (see ExpressionCompiler.static_table)
        self.readers = {}  # id(per-card table) -> (table, its reader(s)) (see ExpressionCompiler.reader)
        self.templates = {}  # id(log statement or option) -> (it, its text's pieces) (see template)
        self.assigned = {}  # id(procedure body) -> (body, its locals' assignments), for narration (see s_Log)
        # numbers the env keys of 'each' variables and of inlined and spliced bodies, and the Python locals
        # of generated code: owned by this game's compiler, so a game's keys (and the layout hash) do not
        # depend on what else this process compiled before it
        self.key_numbers = itertools.count()
        self.temp_numbers = itertools.count()
        self.pushed_ids: set = set()  # procedures entered by an ordinary waiting call (they need resumable code)
        self.spliced_ids: set = set()  # procedures spliced into a caller somewhere (so compiled, and checked, there)
        self.builtin_kinds = {}  # (builtin, argument kinds, constants, names) -> (result kind, reads) (Analysis)
        # The analysis's notes, kept while the game compiles (analysis.py, stmt_analysis.py):
        self.notes = None  # the annotated IR of the expression being lowered: {id(node): Note}
        self._wait_notes = {}  # id(statement) -> (it, whether it may wait for a player) (Analysis.waits_at)
        self._stmt_notes = {}  # id(statement) -> (it, its StmtNote) (StatementAnalysis.statement_notes)
        self._expr_notes = {}  # id(expression) -> (it, its procedure, its notes), as the statement walk made them
        self._owner = None  # the procedure whose statements are being analysed (whose kind a 'return' gives)
        # What the lowering keeps while the game compiles (lower_expr.py, resumable.py):
        self._load_steps = [LOAD_STEPS]  # the step budget of everything worked out at load (static.LoadBudget)
        self._positions = {}  # (where, line, column) -> (file, line, 0-based column)
        self._locations = {}  # (where, line, column) -> its Location, one object per place
        self._value_slots = set()  # indexes of K that hold author values (constants of the rules)
        self._inline_sizes = {}  # function name -> its syntax nodes with its calls inlined (inline_size)
        self.call_loc = None  # K[i] of the builtin call being lowered, where its run-time errors point
        self.inlining = ()  # the procedures being inlined right now, innermost last (inline.py)
        self.splicing = ()  # the procedure being compiled, then those spliced into it (splice.py)
        self.label_nodes = []  # (ast constant, label) of jumps in the procedure being laid out (resumable.py)
        self.fixups = []  # what runs once that procedure's code is laid out (menus learn their options' pcs)
        self._node_locations = {}  # (where, id(node)) -> (node, its Location)
        self.code = CodeUnit(getattr(model, "file", "") or "<definition>")  # the generated functions (codegen.py)

    # ---------------------------------------------------------------- helpers
    def location(self, node):
        """A Location for a node of the snippet being compiled (for runtime errors); each is worked out once."""
        key = (self.where if not isinstance(self.where, list) else tuple(self.where), id(node))
        found = self._node_locations.get(key)
        if found is None or found[0] is not node:
            found = self._node_locations[key] = (node, self.m.locate(self.where, node))
        return found[1]

    def template(self, text: str, node, what: str, start: int) -> list:
        """A text with ``{expression}`` s (a log line, an option's label) as literal strings and
        (offset of the ``{``, parsed expression) pairs; a syntax error names ``what`` and the part.

        ``start`` is the column where the text begins on ``node``'s line: each expression's nodes are
        placed there, so its load errors and run-time errors point into the text.  The pieces are made
        once per ``node`` (the analysis and the lowering then see the same nodes)."""
        found = self.templates.get(id(node))
        if found is None or found[0] is not node:
            found = self.templates[id(node)] = (node, self._template(text, node, what, start))
        return found[1]

    def _template(self, text, node, what, start):
        from .parser import SnippetSyntaxError, parse_expression, placed

        pieces, i = [], 0
        while i < len(text):
            j = text.find("{", i)
            if j < 0:
                pieces.append(text[i:])
                break
            pieces.append(text[i:j])
            k = text.find("}", j)
            if k < 0:
                raise self.err(f"'{{' without a closing '}}' in {what}", node, "syntax")
            try:
                pieces.append((j, placed(parse_expression(text[j + 1:k]), node.line, start + j)))
            except SnippetSyntaxError as exc:
                raise self.err(f"in '{{{text[j + 1:k]}}}': {exc.message}", node, "syntax") from None
            i = k + 1
        return [piece for piece in pieces if piece != ""]

    def err(self, message, node, cls="type"):
        if "space" in message and self.board is not None:
            message += self.space_hint(node)
        return CompileError(message, node, cls)

    def space_hint(self, node) -> str:
        """'; did you mean "r2c2"?' when a quoted text in ``node`` (or a side of it) is close to a space's name."""
        import difflib

        for n in (node, getattr(node, "left", None), getattr(node, "right", None)):
            if isinstance(n, A.Const) and isinstance(n.value, str):
                close = difflib.get_close_matches(n.value, [str(sp) for sp in self.board.spaces], n=1)
                if close:
                    return f'; did you mean "{close[0]}"?'
        return ""

