"""Ribbit's exceptions: one class per cause, each able to say where it happened.

Every error that can reach a user carries a one-paragraph message naming the
place (``file:line:col``, the YAML key, the action) and what was expected.  The
CLI prints ``str(error)`` and exits with status 2; nothing here ever needs a
traceback to be understood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Location:
    """A place in a source file: 1-based line and column, plus the YAML key path.

    ``excerpt`` (the quoted line with a caret) rides along when the loader knows the
    text, so an error raised at run time can still show the line it comes from.
    """

    file: str = "<string>"
    line: int | None = None
    column: int | None = None
    key: str | None = None
    excerpt: str | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        text = self.file
        if self.line is not None:
            text += f":{self.line}"
            if self.column is not None:
                text += f":{self.column}"
        if self.key:
            text += f": {shorten(self.key, KEY_WIDTH)}"
        return text


class RibbitError(Exception):
    """Base class of every error Ribbit reports to a user."""

    def __init__(self, message: str, location: Location | None = None, excerpt: str | None = None):
        self.message = message
        self.location = location
        self.excerpt = excerpt if excerpt is not None else getattr(location, "excerpt", None)
        super().__init__(self.__str__())

    def __str__(self) -> str:
        head = f"{self.location}: {self.message}" if self.location else self.message
        return f"{head}\n{self.excerpt}" if self.excerpt else head


class DefinitionError(RibbitError):
    """The game or variant definition is malformed: bad YAML, schema violation, bad reference."""


class DSLSyntaxError(DefinitionError):
    """An effect snippet does not parse."""


class DSLNameError(DefinitionError):
    """An effect snippet names something that does not exist."""


class DSLTypeError(DefinitionError):
    """An effect snippet uses a value of the wrong kind (a card where a player is needed...)."""


class RuleError(RibbitError):
    """A rule failed while running (step limit exceeded, nothing to choose...).

    The state is rolled back to what it was before the action that caused it.
    """


class IllegalActionError(RibbitError):
    """An action that is not legal for that player at this point of the game."""


class UndoRefusedError(IllegalActionError):
    """A player asked to take back a decision that may not be taken back (see ``State.can_undo``).

    The state is unchanged.
    """


class SaveFileError(RibbitError):
    """A saved state or game log that cannot be read back."""


EXCERPT_WIDTH = 100
QUOTE_WIDTH = 60  # characters of author or user text quoted in a message
KEY_WIDTH = 120  # characters of a YAML key path shown in a location


def shorten(text: str, width: int = QUOTE_WIDTH) -> str:
    """Text from outside cut to ``width`` characters for a message, saying how long it really was.

    A 20 000-character key or a megabyte of action text must not be echoed whole.
    """
    text = str(text)
    return text if len(text) <= width else f"{text[:width]}... ({len(text)} characters)"


_LONG_QUOTED = re.compile("'([^'\n]{%d,})'" % (QUOTE_WIDTH + 1))


def bound_quotes(message: str) -> str:
    """A message from the DSL passes with every over-long quoted name or token cut by :func:`quote`.

    The compiler's messages quote what the author wrote ('unknown name ...'); this is where
    they become errors, so one place keeps a 100 000-character name from being echoed.
    """
    return _LONG_QUOTED.sub(lambda m: quote(m.group(1)), message)


def quote(value, width: int = QUOTE_WIDTH) -> str:
    """A short description of a value read from outside: its repr when short, never a foreign ``__repr__``."""
    if value is None or type(value) in (bool, float):
        return repr(value)
    if type(value) is int:
        return repr(value) if value.bit_length() <= 64 else f"a {value.bit_length()}-bit number"
    if type(value) is str:
        return repr(value) if len(value) <= width else repr(value[:width]) + f"... ({len(value)} characters)"
    if type(value) in (list, dict):
        shown = _short_repr(value, width)
        if shown is not None:
            return shown
        return f"a {'list' if type(value) is list else 'mapping'} of {len(value)} item{'' if len(value) == 1 else 's'}"
    return f"a {type(value).__name__}"


_SURROGATE = re.compile("[\ud800-\udfff]")


def not_text_problem(text: str) -> str | None:
    """Why ``text`` is not Unicode text, or None: a lone surrogate is half of a character, never one.

    Python lets one into a ``str`` (a byte that is not UTF-8 in a command-line argument or a file name,
    a ``\\ud800`` escape in JSON), but it cannot be written as UTF-8: a save, a hash, a seed or a web
    frame holding it would fail far from where it came in.  No file can hold one (files are UTF-8).
    """
    found = _SURROGATE.search(text)
    if found is None:
        return None
    return (f"it holds \\u{ord(found.group()):04x}, which is not a character (half of a UTF-16 pair, or a byte "
            "that is not UTF-8 text); write text in UTF-8")


def _short_repr(value, budget: int):
    """The repr of plain data if it fits in ``budget`` characters, else None (stops as soon as it cannot fit)."""
    parts: list = []
    used = 0

    def add(text: str) -> bool:
        nonlocal used
        used += len(text)
        parts.append(text)
        return used <= budget

    def walk_list(v: list) -> bool:
        return add("[") and all((i == 0 or add(", ")) and walk(x) for i, x in enumerate(v)) and add("]")

    def walk_dict(v: dict) -> bool:
        return add("{") and all((i == 0 or add(", ")) and walk(k) and add(": ") and walk(x)
                                for i, (k, x) in enumerate(v.items())) and add("}")

    def walk(v) -> bool:
        kind = type(v)
        if kind is list:
            return walk_list(v)
        if kind is dict:
            return walk_dict(v)
        if v is None or kind in (bool, float, str) or kind is int and v.bit_length() <= 64:
            return add(repr(v[:budget + 1] if kind is str else v))
        return False
    return "".join(parts) if walk(value) else None


def shown_line(source_line: str) -> str:
    """A source line as an excerpt shows it: a tab as one space, any other control character as ``?``
    (one character for one, so columns stay put)."""
    line = source_line.rstrip("\r\n")
    if line.isprintable():  # the usual line: nothing to replace
        return line
    return "".join(ch if ch.isprintable() else (" " if ch == "\t" else "?") for ch in line)


def caret_excerpt(source_line: str, column: int, shown: bool = False) -> str:
    """Quote one source line with a caret under the (1-based) column.

    A tab shows as one space and any other control character as ``?``, so the
    caret stays under its column; a very long line is cut to a window around it.
    ``shown``: the line has already been through :func:`shown_line` (the loader
    caches that per line, since every compiled operator keeps an excerpt).
    """
    line = source_line.rstrip("\r\n")
    col = max(column - 1, 0)
    if len(line) > EXCERPT_WIDTH:
        start = max(0, min(col - EXCERPT_WIDTH // 2, len(line) - EXCERPT_WIDTH))
        shown = line[start:start + EXCERPT_WIDTH]
        left = "..." if start > 0 else ""
        right = "..." if start + EXCERPT_WIDTH < len(line) else ""
        line, col = left + shown + right, col - start + len(left)
    if not shown:
        line = shown_line(line)  # the window only
    return f"    {line}\n    {' ' * col}^"


# C0 controls but newline and tab, DEL, C1 (\x9b is a one-byte CSI), bidi overrides and
# isolates, line/paragraph separators, and lone surrogates (an undecodable file name).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                     "\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str) -> str:
    """Author text made safe to print: characters a terminal acts on shown as visible escapes.

    A definition's names and texts reach the terminal; an ESC, a one-byte CSI or a
    bidi override in them would otherwise retitle the window, clear the screen or
    reorder what is read.  Newlines and tabs stay (layout needs them).  Idempotent.
    """
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def type_of(value) -> str:
    """The type of a wrong argument, and its value when that is a plain builtin."""
    kind = type(value)
    if kind is int and value.bit_length() > 64:
        return f"an int of {value.bit_length()} bits"
    if kind in (int, bool, float, str, type(None)):
        return f"{kind.__name__} {quote(value)}"
    base = next((b.__name__ for b in (str, int) if issubclass(kind, b)), None)
    return f"a {kind.__name__}" + (f" (a subclass of {base})" if base else "")


def not_a_generator(call: str, rng):
    """Refuse an ``rng`` argument that is not a ``random.Random`` (for the calls that draw from it)."""
    raise IllegalActionError(f"{call} draws from rng, which must be a random.Random (random.Random(seed)), "
                             f"not {type_of(rng)}")
