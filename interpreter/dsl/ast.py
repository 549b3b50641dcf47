"""The effect language's syntax tree: small frozen dataclasses that remember where they came from.

``line`` and ``column`` are 1-based positions *inside the snippet*; the compiler
maps them onto the YAML file through :class:`interpreter.loader.source.Source`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Node:
    line: int = field(default=0, kw_only=True, compare=False)
    column: int = field(default=0, kw_only=True, compare=False)


# ----------------------------------------------------------------- expressions
@dataclass(frozen=True)
class Const(Node):
    value: object


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    key: Node


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple


@dataclass(frozen=True)
class Each(Node):
    """``each c in cards where cond : result`` — a filtered (and optionally mapped) list."""

    var: str
    source: Node
    where: Node | None
    result: Node | None


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple


@dataclass(frozen=True)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Compare(Node):
    op: str  # == != < <= > >= in notin
    left: Node
    right: Node


@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # and / or
    items: tuple


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


# ------------------------------------------------------------------ statements
@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class Assign(Node):
    target: Node  # Name or Attr
    op: str  # "=", "+=", "-="
    value: Node


@dataclass(frozen=True)
class Move(Node):
    what: Node
    dest: Node
    bottom: bool


@dataclass(frozen=True)
class Shuffle(Node):
    zone: Node


@dataclass(frozen=True)
class Show(Node):
    """``show CARDS to PLAYERS``: those players see those cards until the cards move (showing.py)."""

    what: Node
    to: Node


@dataclass(frozen=True)
class Emit(Node):
    event: str
    args: tuple  # ((name, expr), ...)


@dataclass(frozen=True)
class CallStmt(Node):
    call: Call


@dataclass(frozen=True)
class Break(Node):
    pass


@dataclass(frozen=True)
class Continue(Node):
    pass


@dataclass(frozen=True)
class Return(Node):
    value: Node | None


@dataclass(frozen=True)
class Pass(Node):
    pass


@dataclass(frozen=True)
class EndGame(Node):
    winners: Node | None


@dataclass(frozen=True)
class Log(Node):
    """``log [to PLAYERS] "text with {expressions}"``; ``to`` is None for a line everyone may read (redacted)."""

    text: str
    to: Node | None = None
    text_column: int = field(default=0, compare=False)  # where the text starts in the snippet (its first letter)


@dataclass(frozen=True)
class CounterMove(Node):
    """``move [up to] N of marks(x) to marks(y)``: some of a counter's count from one holder to another."""

    amount: Node
    up_to: bool  # take what there is, at most the amount
    source: Node
    dest: Node


@dataclass(frozen=True)
class Ask(Node):
    """``ask p to choose COUNT of OPTIONS as NAME "verb"`` — one player decides."""

    player: Node
    count: Node | str  # "one", "any", or an expression
    options: Node
    name: str
    verb: str | None
    rest: Node | None = None  # "... plus any number of REST as NAME, REST_NAME": the others picked with it
    rest_name: str | None = None


@dataclass(frozen=True)
class AskEach(Node):
    """``ask each p in PLAYERS [secretly] to choose ...`` — several players decide at once."""

    var: str
    players: Node
    secret: bool
    count: Node | str
    options: Node
    name: str
    verb: str | None
    rest: Node | None = None
    rest_name: str | None = None


@dataclass(frozen=True)
class MenuOption(Node):
    """One entry of a menu: ``"label" [if COND]: body``, or one entry per item:
    ``"label {x}" for x in LIST [if COND]: body`` (``var`` and ``items`` set); ``for q, r in PAIRS``
    takes each item apart (``var`` is then the tuple of names, see :func:`names_of`)."""

    label: str
    condition: Node | None
    body: tuple
    var: str | tuple | None = None
    items: Node | None = None


@dataclass(frozen=True)
class AskMenu(Node):
    player: Node
    options: tuple


@dataclass(frozen=True)
class If(Node):
    branches: tuple  # ((condition, body), ...)
    orelse: tuple


@dataclass(frozen=True)
class While(Node):
    condition: Node | None  # None: loop forever (until break)
    body: tuple


@dataclass(frozen=True)
class For(Node):
    var: str | tuple  # a tuple of names: ``for q, r in PAIRS`` takes each item apart
    iterable: Node
    body: tuple


@dataclass(frozen=True)
class Repeat(Node):
    times: Node
    body: tuple


def names_of(var) -> tuple:
    """The names a loop or a menu entry binds: its one variable, or the names a tuple is taken apart into."""
    if var is None:
        return ()
    return (var,) if isinstance(var, str) else var


# ----------------------------------------------------------------- walking a tree
def walk(root):
    """Every node of ``root`` (a node, or a tuple of them, as fields hold), the root first, depth first in
    field order; the positions are not nodes."""
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(reversed(item))
        elif isinstance(item, Node):
            yield item
            stack.extend(reversed([v for k, v in item.__dict__.items() if k not in ("line", "column")]))
