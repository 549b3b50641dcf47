"""Ribbit's exceptions: one class per cause, each able to say where it happened.

Every error that can reach a user carries a one-paragraph message naming the
place (``file:line:col``, the YAML key, the action) and what was expected.  The
CLI prints ``str(error)`` and exits with status 2; nothing here ever needs a
traceback to be understood.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """A place in a source file: 1-based line and column, plus the YAML key path."""

    file: str = "<string>"
    line: int | None = None
    column: int | None = None
    key: str | None = None

    def __str__(self) -> str:
        text = self.file
        if self.line is not None:
            text += f":{self.line}"
            if self.column is not None:
                text += f":{self.column}"
        if self.key:
            text += f": {self.key}"
        return text


class RibbitError(Exception):
    """Base class of every error Ribbit reports to a user."""

    def __init__(self, message: str, location: Location | None = None, excerpt: str | None = None):
        self.message = message
        self.location = location
        self.excerpt = excerpt
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


class SaveFileError(RibbitError):
    """A saved state or game log that cannot be read back."""


def caret_excerpt(source_line: str, column: int) -> str:
    """Quote one source line with a caret under the (1-based) column."""
    line = source_line.rstrip("\n").expandtabs(1)
    return f"    {line}\n    {' ' * max(column - 1, 0)}^"
