"""Parse effect text into the AST of :mod:`interpreter.dsl.ast`.

The LALR parser is built once per process from ``grammar.lark``.  Every lark
exception is turned into a :class:`DSLSyntaxError` whose position is inside the
snippet; the caller (the model builder) shifts it onto the YAML file.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter
from lark.lexer import BasicLexer, PatternRE, PatternStr, Scanner
from lark.parse_tree_builder import ExpandSingleChild, PropagatePositions

from . import ast as A
from ..runtime.limits import MAX_TEXT
from .tables import load_parser

GRAMMAR = resources.files(__package__).joinpath("grammar.lark")  # package data, also in a wheel or zip


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token: Token):
        """Like lark's, but a line that dedents to no open block says where it is."""
        levels = list(self.indent_level)
        try:
            yield from super().handle_NL(token)
        except DedentError:
            indent_str = token.rsplit("\n", 1)[1]
            width = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
            open_blocks = " or ".join(str(n) for n in levels)
            raise SnippetSyntaxError(
                f"this line is indented by {width} space{'s' if width != 1 else ''}, which lines up with no "
                f"enclosing block (blocks here are indented by {open_blocks})",
                token.end_line or 1, token.end_column or 1) from None

    def _process(self, stream):
        last = []

        def remember(tokens):
            for count, token in enumerate(tokens):
                if count == MAX_TOKENS:  # before lark builds a tree of them (see MAX_TOKENS)
                    raise SnippetSyntaxError(f"this text has more than {MAX_TOKENS:,} words and symbols; an effect "
                                             "is at most that long (split it into procedures)",
                                             token.line or 1, token.column or 1)
                last[:] = [token]
                yield token
        try:
            yield from super()._process(remember(stream))
        except AssertionError:  # lark asserts on a ')' or ']' that closes nothing
            token = last[0] if last else None
            raise SnippetSyntaxError(f"{str(token)!r} closes a bracket that was never opened",
                                     getattr(token, "line", 1) or 1, getattr(token, "column", 1) or 1) from None


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # The tables come from a JSON cache in the user's own folder (see tables.py), never lark's pickle in /tmp.
    parser = load_parser(GRAMMAR.read_text(encoding="utf-8"), _Indenter(), propagate_positions=True,
                         maybe_placeholders=True)
    _quicken_positions(parser)
    _quicken_lexers(parser)
    return parser


class _KeywordTypes:
    """lark's UnlessCallback for literal keywords (a NAME that is a keyword here gets the keyword's type),
    looked up in a dict instead of matched by a regular expression compiled for each lexer."""

    __slots__ = ("types",)

    def __init__(self, types: dict):
        self.types = types

    def __call__(self, token):
        found = self.types.get(token.value)
        if found is not None:
            token.type = found
        return token


class _QuickLexer(BasicLexer):
    """lark's lexer for one parser state, its keywords found by :class:`_KeywordTypes` (lark compiles a
    second regular expression per state for them: a few ms at each process's first load)."""

    def _build_scanner(self):
        strings = [t for t in self.terminals if isinstance(t.pattern, PatternStr)]
        self.callback, embedded = {}, set()
        for retok in self.terminals:  # as lark's _create_unless: literals its pattern matches whole
            if not isinstance(retok.pattern, PatternRE):
                continue
            regexp, types = retok.pattern.to_regexp(), {}
            for strtok in strings:
                value = strtok.pattern.value
                if strtok.priority == retok.priority:
                    found = self.re.match(regexp, value, self.g_regex_flags)
                    if found is not None and found.group(0) == value:
                        types.setdefault(value, strtok.name)
                        if strtok.pattern.flags <= retok.pattern.flags:
                            embedded.add(strtok)
            if types:
                self.callback[retok.name] = _KeywordTypes(types)
        return Scanner([t for t in self.terminals if t not in embedded], self.g_regex_flags, self.re, self.use_bytes)


def _quicken_lexers(parser: Lark) -> None:
    """Give the contextual lexer's per-state lexers :class:`_QuickLexer` (when no flag or callback of
    their own makes lark's way differ; a lark laid out otherwise keeps its own)."""
    try:
        contextual = parser.parser.lexer.lexer
        lexers = set(contextual.lexers.values()) | {contextual.root_lexer}
    except AttributeError:  # pragma: no cover - another lark layout
        return
    for lexer in lexers:
        if type(lexer) is BasicLexer and lexer._scanner is None and not lexer.user_callbacks \
                and not lexer.g_regex_flags and not any(t.pattern.flags for t in lexer.terminals):
            lexer.__class__ = _QuickLexer


class _QuickPositions(PropagatePositions):
    """lark's position keeping, less its work where it changes nothing.

    Most reductions of an expression pass their one child on unchanged (``?sum: product`` and
    the like, about 60% of them): that child already carries its start, end and container
    positions, and lark's pass over it would write the same values back.  Every other
    reduction is placed exactly as lark places it.
    """

    def __call__(self, children):
        res = self.node_builder(children)
        if len(children) == 1 and res is children[0]:
            return res
        if isinstance(res, Tree):
            res_meta = res.meta
            first_meta = self._pp_get_meta(children)
            if first_meta is not None:
                if not hasattr(res_meta, "line"):
                    res_meta.line = getattr(first_meta, "container_line", first_meta.line)
                    res_meta.column = getattr(first_meta, "container_column", first_meta.column)
                    res_meta.start_pos = getattr(first_meta, "container_start_pos", first_meta.start_pos)
                    res_meta.empty = False
                res_meta.container_line = getattr(first_meta, "container_line", first_meta.line)
                res_meta.container_column = getattr(first_meta, "container_column", first_meta.column)
                res_meta.container_start_pos = getattr(first_meta, "container_start_pos", first_meta.start_pos)
            last_meta = self._pp_get_meta(reversed(children))
            if last_meta is not None:
                if not hasattr(res_meta, "end_line"):
                    res_meta.end_line = getattr(last_meta, "container_end_line", last_meta.end_line)
                    res_meta.end_column = getattr(last_meta, "container_end_column", last_meta.end_column)
                    res_meta.end_pos = getattr(last_meta, "container_end_pos", last_meta.end_pos)
                    res_meta.empty = False
                res_meta.container_end_line = getattr(last_meta, "container_end_line", last_meta.end_line)
                res_meta.container_end_column = getattr(last_meta, "container_end_column", last_meta.end_column)
                res_meta.container_end_pos = getattr(last_meta, "container_end_pos", last_meta.end_pos)
        return res


def _quicken_positions(parser: Lark) -> None:
    """Give the LALR parser's reductions :class:`_QuickPositions` (a lark laid out otherwise keeps its own).

    A rule that only renames its one part (``?sum: product``: nothing filtered, the child passed on
    as it is) reduces to that child with no call at all.
    """
    try:
        callbacks = parser.parser.parser.parser.callbacks
    except AttributeError:  # pragma: no cover - another lark layout
        return
    for rule, callback in callbacks.items():
        if type(callback) is PropagatePositions and callback.node_filter is None:
            if type(callback.node_builder) is ExpandSingleChild and len(rule.expansion) == 1:
                callbacks[rule] = _first
            else:
                callback.__class__ = _QuickPositions


_first = itemgetter(0)  # what ExpandSingleChild makes of one child, positions unchanged (see _QuickPositions)


# Readable names for the tokens lark reports as expected (keywords and symbols read as themselves).
_TOKEN_NAMES = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a quoted string", "_NL": "end of line",
    "_INDENT": "an indented block", "_DEDENT": "end of block", "$END": "end of text",
    "COMPOP": "a comparison", "ADDOP": "'+' or '-'", "MULOP": "'*', '//' or '%'", "AUGOP": "'+=' or '-='",
    "PLACE": "'at bottom' or 'at top'", "__ANON_0": "'number'",
}
MAX_EXPECTED = 10


@lru_cache(maxsize=1)
def _literal_names() -> dict:
    """Terminal name -> its literal text quoted, e.g. MINUS -> "'-'", AND -> "'and'"."""
    from lark.lexer import PatternStr

    return {t.name: f"'{t.pattern.value}'" for t in _parser().terminals if isinstance(t.pattern, PatternStr)}


# Tokens that can go on with an expression already read: listed as one "an operator".
_GOES_ON = {"ADDOP", "MULOP", "COMPOP", "AND", "OR", "IN", "NOT", "DOT", "LSQB", "LPAR"}


def _accepted(exc) -> set:
    """The tokens that could really come here (lark's ``expected`` also lists ones from merged states)."""
    try:
        return set(exc.interactive_parser.accepts()) or set(exc.expected)
    except Exception:  # pragma: no cover - no parser state to ask
        return set(exc.expected)


def _describe(expected) -> str:
    """The tokens lark expected, in words: kinds of value first, then keywords, then symbols.

    After a complete expression the operators that could go on with it read as one "an operator".
    """
    expected = set(expected)
    goes_on = expected & _GOES_ON
    if goes_on and expected - _GOES_ON and "COMPOP" in goes_on:
        rest = _describe(expected - _GOES_ON)
        return f"{rest} or an operator"
    literal = _literal_names()
    names = {_TOKEN_NAMES.get(t) or literal.get(t) or t.lower().strip("_") for t in expected}

    def order(name):
        word = name.strip("'")
        return (0 if not name.startswith("'") else 1 if word[:1].isalpha() else 2, name)
    names = sorted(names, key=order)
    if len(names) > MAX_EXPECTED:
        names = names[:MAX_EXPECTED] + ["..."]
    return ", ".join(names)


class SnippetSyntaxError(Exception):
    """A syntax error with a 1-based line/column inside the snippet."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


# Limits checked on the parse tree before anything recursive walks it (the compiler and the compiled
# closures recurse once per level): far above what rules need, far below Python's stack.
# Words and symbols in one text (the longest shipped one has 327): the rules hold at most 30,000 syntax nodes in
# all (loader/build.py), and a text far longer would cost seconds and megabytes to parse before that is known.
MAX_TOKENS = 20_000
MAX_NESTING = 200  # brackets, operators and blocks inside each other; 'a and b and c ...' is one level
MAX_DIGITS = 18  # a number literal has at most 18 digits (numbers in rules stay within 10^18)
_CHAINS = {"and_", "or_"}  # a chain of the same one of these is one flat node in the AST


def _to_ast(tree):
    """The AST of a parse tree, after refusing a number literal over MAX_DIGITS digits or nesting over
    MAX_NESTING levels, with its position.

    One walk with an explicit stack lists the nodes (so a tree of any depth is checked without
    recursion, and the first node over a limit in that order is the one reported); the nodes are
    then built children first, each rule by its :class:`_ToAst` method.
    """
    return _built(_checked_nodes(tree))


def _checked_nodes(tree) -> list:
    """Every node of ``tree``, each parent before its children (a depth-first walk with an explicit stack),
    refusing the first number over MAX_DIGITS digits, text over MAX_TEXT characters or node nested over
    MAX_NESTING levels met in that order."""
    order = []
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        order.append(node)
        if isinstance(node, Token):
            _check_token(node)
            continue
        if not isinstance(node, Tree):
            continue
        children = node.children
        if all(not isinstance(c, Tree) for c in children):
            stack.extend((c, depth) for c in children)  # a token (a number, a name) nests nothing
            continue
        if depth > MAX_NESTING:
            raise _nested_too_deep(node)
        for i, child in enumerate(children):
            flat = i == 0 and node.data in _CHAINS and isinstance(child, Tree) and child.data == node.data
            stack.append((child, depth if flat else depth + 1))
    return order


def _check_token(token: Token) -> None:
    """Refuse a number over MAX_DIGITS digits, or a text over MAX_TEXT characters (as a constant text, or one built
    with '+', may have)."""
    if token.type == "NUMBER" and len(token.lstrip("0")) > MAX_DIGITS:
        raise _too_many_digits(token)
    if token.type == "STRING" and len(token) - 2 > MAX_TEXT:
        raise SnippetSyntaxError(f"this text has {len(token) - 2:,} characters; texts in rules have at most "
                                 f"{MAX_TEXT:,}", token.line or 1, token.column or 1)


def _too_many_digits(token: Token) -> SnippetSyntaxError:
    return SnippetSyntaxError(f"this number has {len(token):,} digits; numbers in rules have at most "
                              f"{MAX_DIGITS} (up to 10^18)", token.line or 1, token.column or 1)


def _nested_too_deep(node: Tree) -> SnippetSyntaxError:
    """Nesting over the limit, reported at the node's operator (or the node itself)."""
    at = next((c for c in node.children if isinstance(c, Token) and c.line), None)
    line = at.line if at is not None else getattr(node.meta, "line", 1)
    column = at.column if at is not None else getattr(node.meta, "column", 1)
    return SnippetSyntaxError(f"this is nested more than {MAX_NESTING} levels deep (brackets, operators "
                              "or blocks inside each other); split it with 'let' or a function", line or 1, column or 1)


def _built(order: list):
    """The AST of the nodes listed parents first (:func:`_checked_nodes`): built in reverse, each node from the
    values of its children, which its subtree's walk left last on the stack of values."""
    values = []
    for node in reversed(order):
        if isinstance(node, Tree):
            size = len(node.children)
            if size:
                args = values[-size:]
                del values[-size:]
            else:
                args = []
            step = _STEPS.get(node.data)
            values.append(step(node.meta, args) if step is not None else Tree(node.data, args, node.meta))
        else:
            values.append(node)
    return values[0]


@lru_cache(maxsize=2048)
def parse(text: str) -> tuple:
    """Parse statements; returns a tuple of statement nodes.

    Cached (the nodes are frozen): a game whose board depends on the player count is
    compiled once per board from the same texts, and tests load the same games often.
    """
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = _parser().parse(text)
    except SnippetSyntaxError:
        raise
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc) from None
    except Exception as exc:  # pragma: no cover - anything else lark raises is still a syntax problem
        raise SnippetSyntaxError(f"cannot read this text ({exc})", 1, 1) from None
    return _to_ast(tree)


def _syntax_error(text: str, exc: UnexpectedInput) -> SnippetSyntaxError:
    """What lark could not read in ``text``, said for the author, at its line and column in the snippet."""
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream]
        hint = " (text is written in double quotes)" if char == "'" else ""
        return SnippetSyntaxError(f"unexpected character {char!r}{hint}", exc.line, exc.column)
    if isinstance(exc, UnexpectedToken):
        return _unexpected_token(text, exc)
    if isinstance(exc, UnexpectedEOF):
        line, col = _end_position(text)
        return SnippetSyntaxError(f"the text ends too early; expected {_describe(exc.expected)}", line, col)
    return SnippetSyntaxError(str(exc).splitlines()[0], getattr(exc, "line", 1) or 1,  # pragma: no cover - others
                              getattr(exc, "column", 1) or 1)


def _unexpected_token(text: str, exc: UnexpectedToken) -> SnippetSyntaxError:
    """A token the grammar does not accept where it stands: the end of the text, a block opened or closed
    where none may be, a missing block after ':', or a word (see :func:`_unexpected_word`)."""
    tok = exc.token
    if tok.type == "$END":
        line, col = _end_position(text)
        return SnippetSyntaxError(f"the text ends too early; expected {_describe(exc.expected)}", line, col)
    line = tok.line if tok.line is not None else 1
    col = tok.column if tok.column is not None else 1
    if tok.type == "_INDENT":  # borrowed from the newline before it: point at the indented line itself
        return SnippetSyntaxError("unexpected indentation: only a line ending with ':' opens an indented block",
                                  tok.end_line or line, tok.end_column or col)
    if tok.type == "_DEDENT":
        return SnippetSyntaxError(f"the block ends too early; expected {_describe(exc.expected)}",
                                  tok.end_line or line, tok.end_column or col)
    if set(exc.expected) <= {"_NL", "_INDENT"} and _after_colon_line(text, line):
        return SnippetSyntaxError("expected an indented block after the line ending with ':'", line, col)
    return _unexpected_word(text, exc, line, col)


_CLOSERS = {"(": ")", "[": "]", "{": "}"}


def _unclosed(text: str, end: int) -> tuple | None:
    """(bracket, line, column) of the innermost bracket still open at offset ``end`` of ``text`` (texts in
    quotes and comments skipped), or None."""
    stack, quoted, comment, line, column = [], False, False, 1, 1
    for i in range(min(end, len(text))):
        ch = text[i]
        if ch == "\n":
            comment, line, column = False, line + 1, 1
            continue
        if quoted:
            quoted = ch != '"' or text[i - 1] == "\\"
        elif not comment:
            if ch == '"':
                quoted = True
            elif ch == "#":
                comment = True
            elif ch in _CLOSERS:
                stack.append((ch, line, column))
            elif ch in ")]}" and stack:
                stack.pop()
        column += 1
    return stack[-1] if stack else None


def _unexpected_word(text: str, exc: UnexpectedToken, line: int, col: int) -> SnippetSyntaxError:
    """A word or symbol out of place: what was expected instead, with the likely intent for '=' and 'ask'; a
    bracket left open on an earlier line (the text reads on inside it) is reported where it was opened."""
    accepted = _accepted(exc)
    tok = exc.token
    what = "end of line" if tok.type == "_NL" else repr(str(tok))
    opened = _unclosed(text, tok.start_pos) if tok.start_pos is not None else None
    if opened is not None and opened[1] < line:
        bracket, at_line, at_column = opened
        return SnippetSyntaxError(f"this {bracket} is never closed: the text reads on inside it into the next lines, "
                                  f"where {what} is out of place; add its closing {_CLOSERS[bracket]}",
                                  at_line, at_column)
    if str(tok) == "=" and "COMPOP" in accepted:
        return SnippetSyntaxError("unexpected '='; did you mean '=='? ('==' compares two values; a single '=' "
                                  "gives a variable a new value, on a line of its own)", line, col)
    if "AS" in accepted and _first_word(text, line) == "ask":
        return SnippetSyntaxError(f"unexpected {what}; expected 'as' and the name that receives the choice, "
                                  'as in: ask p to choose one of hand(p) as card "play"', line, col)
    return SnippetSyntaxError(f"unexpected {what}; expected {_describe(accepted)}", line, col)


@lru_cache(maxsize=65536)
def parse_expression(text: str) -> A.Node:
    """Parse a single expression (as used in YAML keys such as ``until:``).

    Cached (the nodes are frozen): a log text's ``{...}`` parts are parsed again each
    time its procedure is compiled or inlined, and the same ones recur across a game.
    """
    if "\n" in text.strip():
        raise SnippetSyntaxError("an expression must be on one line", 1, 1)
    body = text.strip()
    lead = len(text) - len(text.lstrip())
    try:
        stmts = parse(f"return {body}\n")
    except SnippetSyntaxError as exc:  # report the column in the caller's text, not in "return ..."
        column = min(max(exc.column - len("return ") + lead, 1), len(text) + 1)
        raise SnippetSyntaxError(exc.message, 1, column) from None
    stmt = stmts[0] if stmts else None
    if len(stmts) != 1 or not isinstance(stmt, A.Return) or stmt.value is None:
        raise SnippetSyntaxError("expected one expression", 1, 1)
    return _shift(stmt.value, lead - len("return "))


_STATEMENT_WORDS = {"let": "'let'", "move": "'move'", "shuffle": "'shuffle'", "emit": "'emit'", "log": "'log'",
                    "ask": "'ask'", "if": "'if'", "for": "'for'", "while": "'while'", "repeat": "'repeat'",
                    "loop": "'loop'", "return": "'return'", "end": "'end game'", "pass": "'pass'"}


def parse_function_body(text: str) -> A.Node:
    """A function's text: one expression.  Statements there are refused saying that functions are pure."""
    try:
        return parse_expression(text)
    except SnippetSyntaxError as exc:
        if "'=='" in exc.message:
            raise
        lines = text.split("\n")
        row = next((i for i, raw in enumerate(lines) if raw.strip()), 0)
        word = lines[row].split()[0] if lines[row].split() else ""
        if word in _STATEMENT_WORDS:
            what = f"{_STATEMENT_WORDS[word]} is a statement"
        else:
            try:
                stmts = parse(text)
            except SnippetSyntaxError:
                raise exc from None
            if not stmts or not isinstance(stmts[0], A.Assign):
                raise
            what = "this is an assignment"
        column = len(lines[row]) - len(lines[row].lstrip()) + 1
        raise SnippetSyntaxError(f"a function is one expression that computes a value and changes nothing; {what} "
                                 "(write it in a procedure, under 'procedures:')", row + 1, column) from None


def _shift(node, delta, line=1):
    """Move a node's column (used when the text was wrapped before parsing): a copy of every node on
    line 1, its column moved by ``delta`` and its line made ``line`` (the fields as they are, each node
    and tuple of nodes copied)."""
    if not isinstance(node, A.Node):
        return node
    fields = dict(node.__dict__)  # (frozen dataclasses without __post_init__: their fields are their dict)
    for name, value in fields.items():
        if isinstance(value, A.Node):
            fields[name] = _shift(value, delta, line)
        elif isinstance(value, tuple):
            fields[name] = tuple(_shift(v, delta, line) if isinstance(v, A.Node) else
                                 tuple(_shift(x, delta, line) for x in v) if isinstance(v, tuple) else v
                                 for v in value)
    if node.line == 1:
        fields["column"] = node.column + delta
        fields["line"] = line
    new = object.__new__(type(node))
    new.__dict__.update(fields)
    return new


def placed(expression, line: int, delta: int):
    """An expression parsed alone (one line, see :func:`parse_expression`) placed inside a text on
    ``line`` of a snippet, ``delta`` columns to the right: where its errors are then reported."""
    return _shift(expression, delta, line)


def _after_colon_line(text: str, line: int) -> bool:
    """Is the last code line before ``line`` one that ends with ':' (so it opens a block)?"""
    for raw in reversed(text.split("\n")[: line - 1]):
        code = raw.split("#", 1)[0].strip() if '"' not in raw else raw.strip()
        if code:
            return code.endswith(":")
    return False


def _first_word(text: str, line: int) -> str:
    """The first word of the statement on ``line`` (the line itself, or the one it continues)."""
    words = text.split("\n")[line - 1].split()
    return words[0] if words else ""


def _end_position(text: str) -> tuple[int, int]:
    lines = text.rstrip("\n").split("\n")
    return len(lines), len(lines[-1]) + 1


def _pos(meta_or_token) -> dict:
    line = getattr(meta_or_token, "line", None)
    column = getattr(meta_or_token, "column", None)
    return {"line": line or 0, "column": column or 0}


def _string(token: Token) -> str:
    return str(token)[1:-1]


def _bool(op: str, children, meta) -> A.BoolOp:
    """``a or b or c`` as one node with three items."""
    left, right = children
    items = left.items if isinstance(left, A.BoolOp) and left.op == op else (left,)
    return A.BoolOp(op, items + (right,), **_pos(meta))


class _ToAst:
    """lark tree -> frozen dataclasses, keeping each node's position: one method per rule of the grammar,
    given the rule's meta (its position) and its children already built."""

    # statements ---------------------------------------------------------------
    def start(self, meta, children):
        return tuple(s for c in children for s in (c if isinstance(c, tuple) else (c,)))

    def simple_line(self, meta, children):
        return tuple(children)

    def suite(self, meta, children):
        return tuple(s for c in children for s in (c if isinstance(c, tuple) else (c,)))

    def let(self, meta, c):
        return A.Let(str(c[0]), c[1], **_pos(meta))

    def assign(self, meta, c):
        return A.Assign(c[0], "=", c[1], **_pos(meta))

    def augassign(self, meta, c):
        return A.Assign(c[0], str(c[1]), c[2], **_pos(meta))

    def name_target(self, meta, c):
        return A.Name(str(c[0]), **_pos(meta))

    def attr_target(self, meta, c):
        return A.Attr(c[0], str(c[1]), **_pos(meta))

    def call_target(self, meta, c):
        return A.Call(str(c[0]), tuple(c[1] or ()), **_pos(meta))

    def move(self, meta, c):
        return A.Move(c[0], c[1], bool(c[2]) and str(c[2]).endswith("bottom"), **_pos(meta))

    def shuffle(self, meta, c):
        return A.Shuffle(c[0], **_pos(meta))

    def show(self, meta, c):
        return A.Show(c[0], c[1], **_pos(meta))

    def emit(self, meta, c):
        return A.Emit(str(c[0]), tuple(c[1] or ()), **_pos(meta))

    def kwargs(self, meta, c):
        return tuple(c)

    def kwarg(self, meta, c):
        return (str(c[0]), c[1])

    def call_stmt(self, meta, c):
        return A.CallStmt(A.Call(str(c[0]), tuple(c[1] or ()), **_pos(meta)), **_pos(meta))

    def break_(self, meta, c):
        return A.Break(**_pos(meta))

    def continue_(self, meta, c):
        return A.Continue(**_pos(meta))

    def return_(self, meta, c):
        return A.Return(c[0], **_pos(meta))

    def pass_(self, meta, c):
        return A.Pass(**_pos(meta))

    def end_game(self, meta, c):
        return A.EndGame(c[0], **_pos(meta))

    def log(self, meta, c):
        to, text = c
        return A.Log(_string(text), to, text.column + 1, **_pos(meta))

    def counter_move(self, meta, c):
        return A.CounterMove(c[0], False, c[1], c[2], **_pos(meta))

    def counter_move_up_to(self, meta, c):
        return A.CounterMove(c[0], True, c[1], c[2], **_pos(meta))

    def ask(self, meta, c):
        return A.Ask(c[0], c[1], c[2], str(c[3]), _string(c[4]) if c[4] else None, **_pos(meta))

    def ask_each(self, meta, c):
        return A.AskEach(str(c[0]), c[1], bool(c[2]), c[3], c[4], str(c[5]),
                         _string(c[6]) if c[6] else None, **_pos(meta))

    def ask_plus(self, meta, c):
        return A.Ask(c[0], c[1], c[2], str(c[4]), _string(c[6]) if c[6] else None, rest=c[3],
                     rest_name=str(c[5]), **_pos(meta))

    def ask_each_plus(self, meta, c):
        return A.AskEach(str(c[0]), c[1], bool(c[2]), c[3], c[4], str(c[6]), _string(c[8]) if c[8] else None,
                         rest=c[5], rest_name=str(c[7]), **_pos(meta))

    def count_one(self, meta, c):
        return "one"

    def count_any(self, meta, c):
        return "any"

    def count_n(self, meta, c):
        return c[0]

    def ask_menu(self, meta, c):
        return A.AskMenu(c[0], tuple(c[1:]), **_pos(meta))

    def option(self, meta, c):
        label, var, items, condition, body = c
        return A.MenuOption(_string(label), condition, body, var, items,
                            **_pos(meta))

    def if_(self, meta, c):
        branches = [(c[0], c[1])]
        orelse = ()
        for extra in c[2:]:
            if extra is None:
                continue
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                orelse = extra[1]
        return A.If(tuple(branches), orelse, **_pos(meta))

    def elif_(self, meta, c):
        return ("elif", c[0], c[1])

    def else_(self, meta, c):
        return ("else", c[0])

    def while_(self, meta, c):
        return A.While(c[0], c[1], **_pos(meta))

    def loop(self, meta, c):
        return A.While(None, c[0], **_pos(meta))

    def for_(self, meta, c):
        return A.For(c[0], c[1], c[2], **_pos(meta))

    def names(self, meta, c):
        """One loop variable (a name), or the names a tuple is taken apart into (a tuple of them)."""
        return str(c[0]) if len(c) == 1 else tuple(str(n) for n in c)

    def repeat(self, meta, c):
        return A.Repeat(c[0], c[-1], **_pos(meta))

    # expressions ------------------------------------------------------------
    def or_(self, meta, c):
        return _bool("or", c, meta)

    def and_(self, meta, c):
        return _bool("and", c, meta)

    def not_(self, meta, c):
        return A.Not(c[0], **_pos(meta))

    def compare(self, meta, c):
        return A.Compare(str(c[1]), c[0], c[2], **_pos(meta))

    def contains(self, meta, c):
        return A.Compare("in", c[0], c[1], **_pos(meta))

    def not_contains(self, meta, c):
        return A.Compare("not in", c[0], c[1], **_pos(meta))

    def binop(self, meta, c):
        return A.BinOp(str(c[1]), c[0], c[2], **_pos(meta))

    def neg(self, meta, c):
        return A.Neg(c[0], **_pos(meta))

    def attr(self, meta, c):
        return A.Attr(c[0], str(c[1]), **_pos(meta))

    def index(self, meta, c):
        return A.Index(c[0], c[1], **_pos(meta))

    def call(self, meta, c):
        return A.Call(str(c[0]), tuple(c[1] or ()), **_pos(meta))

    def args(self, meta, c):
        return tuple(c)

    def each(self, meta, c):
        return A.Each(str(c[0]), c[1], c[2], c[3], **_pos(meta))

    def number(self, meta, c):
        return A.Const(int(c[0]), **_pos(meta))

    def string(self, meta, c):
        return A.Const(_string(c[0]), **_pos(meta))

    def true(self, meta, c):
        return A.Const(True, **_pos(meta))

    def false(self, meta, c):
        return A.Const(False, **_pos(meta))

    def none(self, meta, c):
        return A.Const(None, **_pos(meta))

    def name(self, meta, c):
        return A.Name(str(c[0]), **_pos(meta))

    def list_(self, meta, c):
        return A.ListLit(tuple(x for x in c if x is not None), **_pos(meta))

    def list_each(self, meta, c):
        return c[0]


_STEPS = {name: getattr(_ToAst(), name) for name in vars(_ToAst) if not name.startswith("_")}
