"""The compiler is passes with an explicit context: each pass holds only the game's CompileContext,
reaches the others through it, and walks the syntax tree by one visitor convention (dsl/visitor.py)."""

import re
from pathlib import Path

import pytest

import interpreter.dsl as dsl
from interpreter.dsl import ast as A
from interpreter.dsl.compiler import Compiler
from interpreter.dsl.context import CompileContext
from interpreter.dsl.visitor import NodeVisitor
from interpreter.loader import load_game

DEFINITION = Path(__file__).parents[1] / "definitions" / "modifiers.yaml"
PASSES = ("analysis", "stmt_analysis", "checker", "inliner", "splicer", "exprs", "stmts", "layout",
          "decisions", "counters", "ordering", "showing", "coverage")


def test_every_pass_holds_the_context_and_nothing_else():
    compiler = Compiler(load_game(DEFINITION))
    for name in PASSES:
        compiled = getattr(compiler.ctx, name)
        assert isinstance(compiled, NodeVisitor) and compiled.ctx is compiler.ctx, name
        assert not hasattr(compiled, "__dict__"), name  # no attribute can be created on first use
        with pytest.raises(AttributeError):
            compiled.tables = {}


def test_the_context_declares_every_field_once_and_sets_each_when_made():
    ctx = Compiler(load_game(DEFINITION)).ctx
    assert not hasattr(ctx, "__dict__")
    assert len(CompileContext.__slots__) == len(set(CompileContext.__slots__))
    for field in CompileContext.__slots__:
        getattr(ctx, field)  # an unset slot would raise
    assert all(getattr(ctx, name) is not None for name in PASSES)


def test_the_passes_dispatch_by_one_visitor_convention():
    # Five prefixes (a_, st_, x_, s_, r_) each had its getattr(self, prefix + class name) dispatch.
    folder = Path(dsl.__file__).parent
    nodes = "|".join(name for name, value in vars(A).items() if isinstance(value, type) and issubclass(value, A.Node))
    for path in folder.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"getattr\(self, \"\w+_\" \+ type\(", text), path.name
        assert not re.search(rf"def (?:a|st|x|s|r)_(?:{nodes})\(", text), path.name


def test_a_node_a_pass_does_not_handle_is_a_clear_error():
    compiler = Compiler(load_game(DEFINITION))
    with pytest.raises(TypeError, match="WaitingLayout has no visit_Const: this pass does not handle Const nodes"):
        compiler.ctx.layout.visit(A.Const(1), None, [])
    with pytest.raises(dsl.procedures.CompileError, match="Pass is not an expression"):
        compiler.ctx.analysis.analyse(A.Pass(), None)


def test_procedures_and_functions_declare_what_the_passes_keep_on_them():
    # proc.stmt_notes, proc.hook, proc.declares_result and func.notes were created on first use (read back
    # with getattr).
    from interpreter.dsl.procedures import Func, Proc

    assert {"stmt_notes", "hook", "declares_result"} <= set(vars(Proc(0, "p", [], (), ("procedures", "p"))))
    assert Proc(0, "p", [], (), ("procedures", "p"), "int").declares_result is True  # (the loader: '->' written)
    assert "notes" in vars(Func("f", [], A.Const(1), ("functions", "f")))
    loader = Path(dsl.__file__).parents[1] / "loader"
    for path in [*Path(dsl.__file__).parent.glob("*.py"), *loader.glob("*.py")]:
        assert not re.search(r"getattr\((?:proc|func), \"(?:stmt_notes|hook|notes|declares_result)\"",
                             path.read_text(encoding="utf-8")), path.name


def test_no_attribute_is_created_on_first_use_anywhere_in_the_package():
    # a quantity's modifiers (loader) and an OpenSpiel game's tensor observers were made with __dict__.setdefault
    package = Path(dsl.__file__).parents[1]
    found = [str(path.relative_to(package)) for path in package.rglob("*.py")
             if "__dict__.setdefault" in path.read_text(encoding="utf-8")]
    assert found == []
