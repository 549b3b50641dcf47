"""The code-generation core: functions from Python ast nodes, author values only as constants."""

import ast
import traceback

import pytest

from interpreter.dsl.codegen import SAFE_BUILTINS, CodeUnit


def _return(expr):
    return [ast.Return(expr)]


def test_generated_function_reports_the_definition_file_and_line():
    unit = CodeUnit("games/mine.yaml")
    table = {"a": 3}
    read = ast.Subscript(unit.constant(table), ast.Subscript(ast.Name("e", ast.Load()), ast.Constant("x"), ast.Load()),
                         ast.Load())
    fn = unit.function("expr", _return(read), line=12)
    assert fn(None, {"x": "a"}) == 3
    with pytest.raises(KeyError) as info:
        fn(None, {"x": "b"})
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (last.filename, last.lineno) == ("games/mine.yaml", 12)


def test_author_texts_are_constants_never_code():
    unit = CodeUnit("x.yaml")
    evil = "__import__('os').system('true')"
    fn = unit.function("expr", _return(unit.constant(evil)))
    assert fn(None, {}) == evil
    assert "__import__(" not in unit.source().replace(repr(evil), "")


def test_non_scalar_values_go_to_the_constants_table_once():
    unit = CodeUnit("x.yaml")
    table = [1, 2]
    first, second = unit.constant(table), unit.constant(table)
    assert ast.unparse(first) == ast.unparse(second) == "K[0]"
    assert unit.constants == [table]


def test_generated_code_sees_only_the_restricted_builtins():
    unit = CodeUnit("x.yaml")
    fn = unit.function("expr", _return(ast.Call(ast.Name("open", ast.Load()), [ast.Constant("/etc/passwd")], [])))
    assert "open" not in SAFE_BUILTINS and "__import__" not in SAFE_BUILTINS
    with pytest.raises(NameError):
        fn(None, {})


def test_function_names_are_the_backends_own():
    unit = CodeUnit("x.yaml")
    with pytest.raises(ValueError):
        unit.function("x; import os", _return(ast.Constant(1)))
