"""Bot parameters: typed, bounded, and read from text (``--bot 2=ismcts:iterations=400,seed=3``).

Each bot class lists its parameters as ``PARAMS = {name: Param(...)}``; ``seed`` is accepted by every
bot and handled by :func:`interpreter.agents.make_agent`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import RibbitError, quote

WHOLE = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


class BotSpecError(RibbitError, ValueError):
    """A bot name, parameter or value that is not accepted."""


@dataclass(frozen=True)
class Param:
    """A number a bot can be tuned with: its kind (int or float), its bounds, its default and what it does."""

    kind: type
    low: float
    high: float
    default: object
    help: str

    def expected(self) -> str:
        what = "a whole number" if self.kind is int else "a number"
        return f"{what} from {self.low:,} to {self.high:,} ({self.help})"

    def check(self, name: str, value):
        """``value`` as this parameter's kind, or BotSpecError."""
        kind = type(value)
        ok = kind is int if self.kind is int else kind in (int, float)
        if not ok or not self.low <= value <= self.high:
            raise BotSpecError(f"{name} must be {self.expected()}, not {quote(value)}")
        return self.kind(value)

    def read(self, name: str, text: str):
        """The value written as ``text``, or BotSpecError."""
        written = WHOLE if self.kind is int else DECIMAL  # ASCII digits only: int() reads '١٢' and '1_000' too
        if not written.fullmatch(text):
            raise BotSpecError(f"{name} must be {self.expected()}, not {quote(text)}")
        value = int(text) if self.kind is int else float(text)
        if value != value:  # NaN
            raise BotSpecError(f"{name} must be {self.expected()}, not {quote(text)}")
        return self.check(name, value)


def read_seed(text: str):
    """A seed as written: a whole number when it is one, else the text itself."""
    try:
        return int(text)
    except ValueError:
        return text
