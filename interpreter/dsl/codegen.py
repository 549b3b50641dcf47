"""Make Python functions from Python ``ast`` nodes: the one way the backend creates code.

The backend lowers a rule to ``ast`` nodes built directly (never source text
assembled from author input), then :meth:`CodeUnit.function` compiles them once,
at load, with ``compile(tree, <the YAML file>, "exec")``.  Three rules keep this
safe and debuggable:

* **Author values are constants.**  Numbers, texts, booleans and None become
  ``ast.Constant``; anything else (a property table, a run-time helper, a
  compiled sub-rule) is an entry of the unit's constants table ``K`` and is read
  as ``K[i]``.  An author's text therefore never becomes a name or code.
* **Names are the backend's own.**  Generated code uses the parameter names it
  is given (``s`` for the state, ``e`` for the frame's locals, ``fr``/``pc`` for
  resumable code), ``K``, and function names the backend chooses (checked
  below).  Author identifiers only ever appear as constant *keys* (``e['x']``).
* **Restricted builtins.**  Generated functions see :data:`SAFE_BUILTINS` only.

Every node carries the line and column of the YAML text it came from (see
:meth:`CodeUnit.located`), so a Python traceback through generated code names
the definition's line, and ``ribbit debug --code`` can print what was made.

No ``exec``: the compiled module's function code object is taken out of its
constants and turned into a function over the unit's namespace.
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
import threading
import types

from ..errors import DefinitionError, Location
from ..runtime.sandbox import SAFE_BUILTINS

_NODE = ast.AST
_BACKEND_NAME = re.compile(r"[a-z][a-z0-9_]{0,40}\Z")  # names the backend picks; never author text


class CodeUnit:
    """One game's generated code: its constants table, its namespace and the functions made so far."""

    def __init__(self, filename: str):
        self.filename = filename or "<definition>"
        self.constants: list = []
        self._constant_index: dict = {}  # id(value) -> index in constants (values kept alive by the list)
        self.namespace = {"__builtins__": SAFE_BUILTINS, "K": self.constants}
        self.functions: list[tuple[str, ast.FunctionDef]] = []  # (what it is, its tree) for `debug --code`
        self._numbers = itertools.count()
        self.origins: dict = {}  # function name -> key path of the rule its code was made from (for errors)
        self._lazy: list = []  # functions compiled at their first call (see function)
        self._waiting: list = []  # (tree, function, file) of the batch not closed yet (see later, flush)
        self._batches: list = []  # closed batches (see flush, compile_pending)

    # ---------------------------------------------------------------- values
    def constant(self, value) -> ast.expr:
        """An expression reading ``value``: an ``ast.Constant`` for plain scalars, else ``K[i]``."""
        if value is None or type(value) in (bool, int, str, float):
            return ast.Constant(value)
        index = self._constant_index.get(id(value))
        if index is None:
            index = self._constant_index[id(value)] = len(self.constants)
            self.constants.append(value)
        return ast.Subscript(ast.Name("K", ast.Load()), ast.Constant(index), ast.Load())

    def call(self, fn, *args: str) -> ast.expr:
        """``K[i](s, e)``: a call of a Python callable (a run-time helper, a closure) kept in the table."""
        names = args or ("s", "e")
        return ast.Call(self.constant(fn), [ast.Name(a, ast.Load()) for a in names], [])

    # ---------------------------------------------------------------- positions
    @staticmethod
    def located(tree: ast.AST, line: int | None, column: int | None = None) -> ast.AST:
        """Give ``tree`` the YAML ``line``/``column`` if it has no position, and every node under it
        without one (absent or None, as templates leave them) the position of its nearest positioned
        ancestor; one pass over the tree."""
        line = line or 1
        col = max((column or 1) - 1, 0)
        stack = [(tree, line, col)]
        pop, push = stack.pop, stack.append
        while stack:
            node, ln, co = pop()
            if node._attributes:  # (operators and contexts have none, and no children)
                if getattr(node, "lineno", None) is None:
                    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = ln, co, ln, co
                else:
                    ln = node.lineno
                    co = node.col_offset
                    if co is None:
                        node.col_offset = co = 0
                    if getattr(node, "end_lineno", None) is None:
                        node.end_lineno, node.end_col_offset = ln, co
                    elif node.end_col_offset is None:
                        node.end_col_offset = co
            for field in node._fields:
                value = getattr(node, field, None)
                if value.__class__ is list:
                    for item in value:
                        if isinstance(item, _NODE):
                            push((item, ln, co))
                elif isinstance(value, _NODE) and value._fields:
                    push((value, ln, co))
        return tree

    # ---------------------------------------------------------------- functions
    def function(self, name: str, body: list[ast.stmt], args=("s", "e"), line: int | None = None,
                 what: str = "", filename: str | None = None, lazy: bool = False, where=None) -> types.FunctionType:
        """Compile ``body`` as ``def name(*args)`` and return the function.

        ``name`` is chosen by the backend (a short lower-case word); a number is
        appended so names stay unique in ``debug --code`` listings.  ``filename``
        (default: the unit's) is the YAML file the code comes from (a variant's rules
        come from the variant's file).  With ``lazy`` the function is compiled when it
        is first called (the same function object: its code is replaced), so code
        made at load but never run (a shape only inspected, a rule of a branch no
        game takes) costs no compilation.
        """
        fdef = self._definition(name, body, args, line, where)
        fname = fdef.name
        self.functions.append((what or name, fdef))
        if not lazy:
            fn = types.FunctionType(self._compiled(fdef, line, filename), self.namespace, fname)
            fn.generated_tree = fdef
            return fn
        fn = types.FunctionType(_stub(tuple(args)), self.namespace, fname)
        fn.generated_tree = fdef  # what it is, compiled or not yet (dsl/layout_hash.py describes it by this)

        def first_call():
            fn.__code__ = self._compiled(fdef, line, filename)
            fn.__defaults__ = None
            return fn
        fn.__defaults__ = (first_call,)
        self._lazy.append(fn)
        return fn

    def probe(self, tree: ast.expr, line: int | None, filename: str | None = None) -> types.FunctionType:
        """A function ``probe(s, e)`` returning ``tree``, compiled now, for work done at load (a per-card
        table is filled by calling it): not numbered, not listed by ``debug --code``, not kept."""
        fdef = _function_def("probe", [ast.Return(tree)], ("s", "e"), line)
        fn = types.FunctionType(self._compiled(fdef, line, filename), self.namespace, "probe")
        fn.generated_tree = fdef
        return fn

    def _definition(self, name: str, body: list[ast.stmt], args, line: int | None, where) -> ast.FunctionDef:
        """``def name_N(*args): body`` as a tree, its name checked and numbered, its rule noted in ``origins``."""
        if not _BACKEND_NAME.match(name):
            raise ValueError(f"generated function name {name!r} is not a backend name")
        fname = f"{name}_{next(self._numbers)}"
        if where is not None:
            self.origins[fname] = where
        return _function_def(fname, body, args, line)

    def _compiled(self, fdef: ast.FunctionDef, line: int | None, filename: str | None) -> types.CodeType:
        self.located(fdef, line)
        module = ast.Module(body=[fdef], type_ignores=[])
        code = _compile(module, filename or self.filename)
        return next(c for c in code.co_consts if isinstance(c, types.CodeType))

    def source(self) -> str:
        """The generated functions as Python text (``ast.unparse``), each after a comment saying what it is."""
        parts = []
        for what, fdef in self.functions:
            comment = " ".join(str(what).split())  # one line, whatever the name holds
            parts.append(f"# {comment}\n{unparse(fdef)}")
        parts.append(f"# constants table K: {len(self.constants)} entries")
        return "\n\n".join(parts) + "\n"

    # ---------------------------------------------------------------- functions compiled in batches
    # Compiling costs per call of ``compile``; a procedure's many small functions are compiled
    # together.  :meth:`later` returns the function at once (callers keep it in tables and
    # constants) with a placeholder body; :meth:`flush` closes the batch: the first call of any
    # of its functions compiles them all, in one module, and gives each its code.  Code a game
    # never runs (a procedure inlined at every call, a rule of a branch no game takes) is never
    # compiled; :meth:`compile_pending` compiles everything (``ribbit validate``).  Before its
    # batch is closed, a placeholder refuses to run: nothing calls generated code before its
    # procedure is compiled.
    def stub(self, name: str = "pending") -> types.FunctionType:
        """A function whose code :meth:`later` (with ``into``) will provide."""
        stub = types.FunctionType(_not_yet.__code__, self.namespace, name)
        stub.__kwdefaults__ = {"error": RuntimeError}  # the namespace's builtins have no RuntimeError
        return stub

    def later(self, name: str, body: list[ast.stmt], args=("s", "e"), line: int | None = None, what: str = "",
              into: types.FunctionType | None = None, filename: str | None = None,
              where=None) -> types.FunctionType:
        """Like :meth:`function`, compiled with its batch (see :meth:`flush`; ``into``: a :meth:`stub` to
        fill; ``filename``: the file its lines are in, when not the unit's, e.g. a variant's; ``where``:
        the key path of the rule it is made from, for errors)."""
        fdef = self._definition(name, body, args, line, where)
        fn = into if into is not None else self.stub(fdef.name)
        fn.generated_tree = fdef  # what it is, compiled or not yet (dsl/layout_hash.py describes it by this)
        self._waiting.append((fdef, fn, filename or self.filename))
        self.functions.append((what or name, fdef))
        return fn

    def flush(self) -> None:
        """Close the batch of the functions :meth:`later` made since the last flush: the first call of
        any of them compiles them all, in one module."""
        waiting = self._waiting
        if not waiting:
            return
        self._waiting = []
        batch = _Batch(waiting)
        self._batches.append(batch)
        for fdef, fn, _ in waiting:
            fn.__code__ = _stub(tuple(a.arg for a in fdef.args.args))
            fn.__defaults__ = (functools.partial(batch.first_call, fn),)
            fn.__kwdefaults__ = None
            fn.__name__ = fn.__qualname__ = fdef.name

    def compile_pending(self) -> None:
        """Compile every generated function not compiled yet (closed batches and lazy functions)."""
        self.flush()
        for batch in self._batches:
            batch.compile()
        for fn in self._lazy:
            if fn.__defaults__:  # (its first call)
                fn.__defaults__[0]()


class _Batch:
    """Functions compiled together (one module per file), on the first call of any of them."""

    __slots__ = ("waiting",)

    def __init__(self, waiting):
        self.waiting = waiting

    def first_call(self, fn):
        self.compile()
        return fn

    def compile(self):
        with _COMPILING:  # (threads running one game: the second waits for the code the first makes)
            waiting = self.waiting
            if waiting is None:
                return
            made = {}
            for fdef, _, _ in waiting:
                CodeUnit.located(fdef, fdef.lineno)
            for filename in dict.fromkeys(file for _, _, file in waiting):  # one module per file
                module = ast.Module(body=[fdef for fdef, _, file in waiting if file == filename], type_ignores=[])
                code = _compile(module, filename)  # (if it fails, the next call fails the same way)
                made.update((c.co_name, c) for c in code.co_consts if isinstance(c, types.CodeType))
            for fdef, fn, _ in waiting:
                fn.__code__ = made[fdef.name]
                fn.__defaults__ = None
            self.waiting = None


_COMPILING = threading.RLock()


def _function_def(fname: str, body: list[ast.stmt], args, line: int | None) -> ast.FunctionDef:
    fdef = ast.FunctionDef(
        name=fname,
        args=ast.arguments(posonlyargs=[], args=[ast.arg(a) for a in args], vararg=None, kwonlyargs=[],
                           kw_defaults=[], kwarg=None, defaults=[]),
        body=body or [ast.Pass()], decorator_list=[], returns=None, type_params=[])
    fdef.lineno = fdef.end_lineno = line or 1  # its parts get positions when it is compiled
    fdef.col_offset = fdef.end_col_offset = 0
    return fdef


def unparse(fdef: ast.FunctionDef) -> str:
    """A generated function's tree as Python text (``ast.unparse``), compiled yet or not: a tree not
    compiled yet is given its positions first, as compiling will (the same positions either way)."""
    return ast.unparse(CodeUnit.located(fdef, fdef.lineno))


def _compile(module: ast.Module, filename: str) -> types.CodeType:
    """``compile`` of generated code; what Python refuses to compile (more loops inside each other than
    it allows) is a located error of the definition, not a traceback."""
    try:
        return compile(module, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise DefinitionError(f"the code made from this rule cannot be compiled: {exc.msg} (put fewer loops, "
                              "'each' or asks inside each other)", Location(filename, exc.lineno, exc.offset)) from None


_STUBS: dict = {}


def _stub(args: tuple) -> types.CodeType:
    """The code of a not yet compiled function taking ``args``: compile, then run the real code.

    Its text is the backend's own (argument names are backend names, checked here).
    """
    code = _STUBS.get(args)
    if code is None:
        if not all(_BACKEND_NAME.match(a) for a in args):
            raise ValueError(f"generated argument names {args!r} are not backend names")
        params = ", ".join(args)
        module = compile(f"def stub({params}, first_call=None):\n    return first_call()({params})\n",
                         "<generated>", "exec", dont_inherit=True)
        code = _STUBS[args] = next(c for c in module.co_consts if isinstance(c, types.CodeType))
    return code


def _not_yet(*args, error):
    raise error("generated code ran before it was compiled")
