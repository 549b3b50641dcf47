"""What one game's compilation shares: the :class:`CompileContext` every pass is built with.

The compiler is a chain of passes (``compiler.py``): analysis (``analysis.py``, ``stmt_analysis.py``,
``check.py``), the optimisations that rewrite calls (``inline.py``, ``splice.py``), the lowering of
expressions and statements (``lower_expr.py``, ``statements.py``, with the feature helpers
``decisions.py``, ``counters.py``, ``ordering.py``, ``showing.py``, ``coverage.py``), the layout of
waiting code (``resumable.py``) and code emission (``codegen.py``).  A pass holds nothing but this
context; it reaches another pass through it (``ctx.exprs.expr_code(node, scope)``) and keeps every
table it fills here, where each is declared once, with the pass that writes it.
"""

from __future__ import annotations

import itertools

from . import ast as A
from .codegen import CodeUnit
from .loop_locals import LoopReads
from .options import ALL_ON
from .procedures import CompileError
from .static import LOAD_STEPS, NO_CARD_USES

# Inlining a function or procedure, or splicing a procedure, copies its body to the call site, and copies
# nest (a body copied into a body copied into ...): a small file could make millions of syntax nodes to
# compile.  One game's compilation copies at most this many (the largest shipped game copies about 4,300);
# past it, calls stay ordinary calls, which run the same.
MAX_COPIED_NODES = 20_000
# Syntax nodes of all a definition's effects, expressions, conditions and the {...} parts of its texts
# together: compiling costs about a tenth of a millisecond and a few kilobytes per node, so the 2 MB a
# file may hold would take minutes and gigabytes.  The largest shipped game has about 2,600.
MAX_SYNTAX_NODES = 30_000
TOO_MANY_NODES = (f"with this text the rules hold more than {MAX_SYNTAX_NODES:,} syntax nodes (names, numbers, "
                  "operators, statements) in all; a definition's rules are at most that large, so that it loads in "
                  "seconds (the largest shipped game has about 2,600)")


class CompileContext:
    """The shared state of one game's compilation, and its passes."""

    __slots__ = (
        # ---- the game (set at construction; read by every pass)
        "m",  # the model being built (loader/build.py): its tables, zones, procedures, locate()
        "options",  # which optimisations to apply (options.py)
        "board",  # the model's board, or None
        "zone_owner",  # the model's zone -> owner table
        # ---- set by whoever compiles a snippet (loader/build.py, the passes entering a procedure)
        "where",  # where the snippet being compiled lives (for load and run-time error locations)
        # ---- the analysis (analysis.py, stmt_analysis.py)
        "builtin_kinds",  # (builtin, argument kinds, constants, names) -> (result kind, reads): analysis
        "notes",  # the annotated IR of the expression being lowered, {id(node): Note}: expression lowering
        "_wait_notes",  # id(statement) -> (it, whether it may wait for a player): analysis (waits_at)
        "_stmt_notes",  # id(statement) -> (it, its StmtNote): statement analysis (statement_notes)
        "_expr_notes",  # id(expression) -> (it, its procedure, its notes), as the statement walk made them
        "_owner",  # the procedure whose statements are being analysed (whose kind a 'return' gives)
        # ---- the optimisations (inline.py, splice.py)
        "inlining",  # the procedures being inlined right now, innermost last: inliner
        "splicing",  # the procedure being compiled, then those spliced into it, innermost last: splicer
        "_inline_sizes",  # function name -> its syntax nodes with its calls inlined: expression lowering
        "_copies_left",  # syntax nodes the inliner, the splicer and function inlining may still copy: may_copy()
        "_body_sizes",  # id(body) -> (body, its syntax nodes): may_copy()
        "_syntax_left",  # syntax nodes the definition's texts may still add (MAX_SYNTAX_NODES): count_syntax()
        "pushed_ids",  # procedures entered by an ordinary waiting call (they need resumable code): layout
        "spliced_ids",  # procedures spliced into a caller somewhere (so compiled, and checked, there): splicer
        # ---- the lowering (lower_expr.py, statements.py and their helpers)
        "tables",  # id(condition node) -> its per-card table: expression lowering (static_table)
        "readers",  # id(per-card table) -> (table, its reader(s)): expression lowering (reader)
        "templates",  # id(log statement or option) -> (it, its text's pieces): template() below
        "assigned",  # id(procedure body) -> (body, its locals' assignments), for narration: statement lowering
        # numbers the env keys of 'each' variables and of inlined and spliced bodies, and the Python locals
        # of generated code: owned by this game's compilation, so a game's keys (and the layout hash) do
        # not depend on what else this process compiled before it
        "key_numbers",  # env keys: expression and statement lowering, inliner, splicer
        "temp_numbers",  # Python locals of generated code: statement lowering (tmp)
        "_load_steps",  # the step budget of everything worked out at load (static.LoadBudget): lowering
        "_positions",  # (where, line, column) -> (file, line, 0-based column): expression lowering
        "_locations",  # (where, line, column) -> its Location, one object per place: expression lowering
        "_node_locations",  # (where, id(node)) -> (node, its Location): location() below
        "call_loc",  # K[i] of the builtin call being lowered, where its run-time errors point: lowering
        "card_uses",  # what the code being built does with card variables (static.CardUses): expression lowering
        "loop_reads",  # the reads made of the variables of the scans being lowered (loop_locals.py): expression lowering
        "zone_shows",  # per zone index, how much of it everyone sees, for the playout build's movers (playout_build.py)
        # ---- the layout of waiting code (resumable.py, decisions.py)
        "label_nodes",  # (ast constant, label) of jumps in the procedure being laid out: layout
        "fixups",  # what runs once that procedure's code is laid out (menus learn their options' pcs)
        "entries",  # the pcs that procedure's code may be entered at, as its instructions declare them: layout
        # ---- emission (codegen.py)
        "code",  # the generated functions: the CodeUnit every lowering adds to
        # ---- the passes, each built with this context (compiler.py)
        "analysis",  # ExpressionAnalysis (analysis.py)
        "stmt_analysis",  # StatementAnalysis (stmt_analysis.py)
        "checker",  # ExpressionChecker (check.py)
        "inliner",  # Inliner (inline.py)
        "splicer",  # Splicer (splice.py)
        "exprs",  # ExpressionLowering (lower_expr.py)
        "stmts",  # StatementLowering (statements.py)
        "layout",  # WaitingLayout (resumable.py)
        "decisions",  # DecisionCompiler (decisions.py)
        "counters",  # CounterCompiler (counters.py)
        "ordering",  # OrderingCompiler (ordering.py)
        "showing",  # ShowCompiler (showing.py)
        "coverage",  # CoverageCompiler (coverage.py)
    )

    def __init__(self, model):
        self.m = model
        self.options = getattr(model, "compile_options", None) or ALL_ON
        self.board = model.board
        self.zone_owner = model.zone_owner
        self.where = None
        self.builtin_kinds = {}
        self.notes = None
        self._wait_notes = {}
        self._stmt_notes = {}
        self._expr_notes = {}
        self._owner = None
        self.inlining = ()
        self.splicing = ()
        self._inline_sizes = {}
        self._copies_left = MAX_COPIED_NODES
        self._body_sizes = {}
        self._syntax_left = MAX_SYNTAX_NODES
        self.pushed_ids = set()
        self.spliced_ids = set()
        self.tables = {}
        self.readers = {}
        self.templates = {}
        self.assigned = {}
        self.key_numbers = itertools.count()
        self.temp_numbers = itertools.count()
        self._load_steps = [LOAD_STEPS]
        self._positions = {}
        self._locations = {}
        self._node_locations = {}
        self.call_loc = None
        self.card_uses = NO_CARD_USES
        self.loop_reads = LoopReads()
        self.zone_shows = None
        self.label_nodes = []
        self.fixups = []
        self.entries = set()
        self.code = CodeUnit(getattr(model, "file", "") or "<definition>")
        # the passes (set by compiler.Compiler, which builds them with this context)
        self.analysis = self.stmt_analysis = self.checker = self.inliner = self.splicer = None
        self.exprs = self.stmts = self.layout = None
        self.decisions = self.counters = self.ordering = self.showing = self.coverage = None

    # ---------------------------------------------------------------- what every pass asks
    def count_syntax(self, parsed) -> bool:
        """Count the syntax nodes of a text just parsed (a node, or a tuple of them); False once the
        definition's texts hold more than MAX_SYNTAX_NODES in all."""
        self._syntax_left -= sum(1 for _ in A.walk(parsed))
        return self._syntax_left >= 0

    def may_copy(self, body) -> bool:
        """Whether ``body`` (a node, or a tuple of them) may be copied to one more call site: yes while the
        game's copies stay within MAX_COPIED_NODES (the copy is then counted), else no (an ordinary call)."""
        found = self._body_sizes.get(id(body))
        if found is None or found[0] is not body:
            found = self._body_sizes[id(body)] = (body, sum(1 for _ in A.walk(body)))
        if found[1] > self._copies_left:
            return False
        self._copies_left -= found[1]
        return True

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
                part = placed(parse_expression(text[j + 1:k]), node.line, start + j)
            except SnippetSyntaxError as exc:
                raise self.err(f"in '{{{text[j + 1:k]}}}': {exc.message}", node, "syntax") from None
            if not self.count_syntax(part):
                raise self.err(TOO_MANY_NODES, node, "syntax")
            pieces.append((j, part))
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
