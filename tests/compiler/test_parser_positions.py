"""The parser places every node exactly where lark's own position keeping would, at less cost."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml
from lark.lexer import BasicLexer
from lark.parse_tree_builder import PropagatePositions

from interpreter.dsl import parser as dsl_parser
from interpreter.dsl.tables import load_parser

REPO_ROOT = Path(__file__).resolve().parents[2]

# Parentheses and brackets are where a node's position is its container's, not its first child's.
TRICKY = [
    "x = (a + b) * c\n",
    "let y = ((p.score)) + [1, (2), -(3)][0] + sum([each c in hand(p) where (c.rank > 1) : (c.rank)])\n",
    "if not (a and (b or c)) and d:\n    move top(deck) to (hand(p)) at bottom\nelif -(x) < 2:\n    pass\n",
    "return ( (1) )\n",
    "log to p: \"{x}\"\nemit done(a=(1), b=[x])\n",
    "let number = each\nlet times = one + any\nrepeat times times:\n    move up to number of game.plus to at\n",
    "ask p to choose one of hand(p) plus any number of hand(p) as c, rest \"pick\"\nmove c to pile at top\n",
]


def _snippets() -> list[tuple[str, str]]:
    """Every text the loader parses in the shipped games, with the parser it uses."""
    import interpreter
    from interpreter.loader import build

    found = set()
    parsed = build.Builder.parsed

    def recording(self, parser, text, path):
        found.add((parser.__name__, text))
        return parsed(self, parser, text, path)
    build.Builder.parsed = recording
    try:
        for path in sorted((REPO_ROOT / "definitions").glob("*.yaml")):
            interpreter.load_game(path)
    finally:
        build.Builder.parsed = parsed
    return sorted(found)


def _dump(node):
    """A node with every field and its position (the AST's equality leaves positions out)."""
    if dataclasses.is_dataclass(node):
        return (type(node).__name__, node.line, node.column,
                tuple((f.name, _dump(getattr(node, f.name))) for f in dataclasses.fields(node)))
    if isinstance(node, (tuple, list)):
        return tuple(_dump(n) for n in node)
    return node


@pytest.fixture(scope="module")
def lark_placed():
    """The same grammar parsed with lark's own PropagatePositions on every reduction."""
    parser = load_parser(dsl_parser.GRAMMAR.read_text(encoding="utf-8"), dsl_parser._Indenter(),
                         propagate_positions=True, maybe_placeholders=True)
    assert all(type(c) is PropagatePositions for c in parser.parser.parser.parser.callbacks.values())
    assert all(type(lexer) is BasicLexer for lexer in parser.parser.lexer.lexer.lexers.values())
    return parser


def test_reductions_skip_position_work_that_changes_nothing():
    callbacks = dsl_parser._parser().parser.parser.parser.callbacks
    assert {type(c) for c in callbacks.values()} == {dsl_parser._QuickPositions, type(dsl_parser._first)}
    renames = {str(rule) for rule, c in callbacks.items() if c is dsl_parser._first}
    assert {"<sum : product>", "<postfix : atom>", "<expr : or_expr>"} <= renames
    assert not any(rule.alias for rule, c in callbacks.items() if c is dsl_parser._first)


def test_keywords_are_found_without_a_regular_expression_per_state():
    contextual = dsl_parser._parser().parser.lexer.lexer
    assert {type(lexer) for lexer in contextual.lexers.values()} == {dsl_parser._QuickLexer}
    statements = dsl_parser.parse.__wrapped__("let number = 1\nrepeat number times:\n    pass\n")
    assert statements[0].name == "number" and statements[1].times.name == "number"  # a keyword elsewhere


def test_every_node_is_placed_as_lark_places_it(lark_placed):
    texts = [text for text in TRICKY]
    texts += [text if kind == "parse" else f"return {text.strip()}\n" for kind, text in _snippets()]
    assert len(texts) > 150
    for text in texts:
        text = text if text.endswith("\n") else text + "\n"
        expected = dsl_parser._to_ast(lark_placed.parse(text))
        assert _dump(dsl_parser.parse.__wrapped__(text)) == _dump(expected), text


def test_quick_positions_only_skip_a_child_passed_on_unchanged():
    """A reduction that makes a node (one child or more) still gets its start and its container's."""
    statements = dsl_parser.parse.__wrapped__("x = (a)\ny = (b + c) * d\n")
    binop = statements[1].value
    assert (binop.line, binop.column) == (2, 5)  # the '(' that contains b + c, as lark places it
    assert (binop.left.line, binop.left.column) == (2, 6)


def _moved(dump, delta):
    """A _dump with every column of a node on line 1 moved by ``delta``."""
    if isinstance(dump, tuple) and len(dump) == 4 and isinstance(dump[0], str) and isinstance(dump[1], int) \
            and isinstance(dump[3], tuple):
        name, line, column, fields = dump
        moved = column + delta if line == 1 else column
        return (name, line, moved, tuple((f, moved if f == "column" else _moved(v, delta)) for f, v in fields))
    if isinstance(dump, tuple):
        return tuple(_moved(v, delta) for v in dump)
    return dump


def test_an_expression_s_nodes_sit_where_they_are_in_its_own_text():
    texts = [text for kind, text in _snippets() if kind == "parse_expression" and "\n" not in text.strip()]
    texts += ["  a + (b * c)", "[each c in hand(p) where c.rank > 1 : c.rank][0]", "not x and y or -z"]
    assert len(texts) > 20
    for text in texts:
        alone = dsl_parser.parse_expression.__wrapped__(text)
        lead = len(text) - len(text.lstrip())
        in_statement = dsl_parser.parse.__wrapped__(f"let x = {text.strip()}\n")[0].value
        assert type(alone) is type(in_statement)
        assert _dump(alone) == _moved(_dump(in_statement), lead - len("let x = ")), text
