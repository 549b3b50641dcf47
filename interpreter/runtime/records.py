"""The typed records of a game in progress: the pending decision, and a frame of suspended rule code.

A record holds plain data only (lists, ints, texts, booleans, None), so the state stays
plain data at every decision point: :meth:`Pending.to_json` is exact, and a clone copies
what a choice may change.
"""

from __future__ import annotations


class Pending:
    """A decision waiting for players: who is asked, their options, and what they chose so far.

    Made by the rules' code when it stops for a player (``s.pending = Pending(...)``, then
    ``SUSPEND``); read and filled by ``State`` as the players choose.

    * ``players``: the players asked, in order; seat ``i`` of the decision is ``players[i]``;
    * ``labels[i]``, ``values[i]``: seat ``i``'s option texts and values (both None when its options
      are an option space, ``lazy[i]``);
    * ``chosen[i]``: None until seat ``i`` chose, then ``[value]`` (``ask each`` only);
    * ``dest``: the env key of the frame that receives the choice (None: a menu, whose values are
      the code positions its options start at);
    * ``each``: everyone asked chooses (``ask each``), else one player;
    * ``secret``: the choices stay hidden until all are in;
    * ``prompt``: what it is about (``take``, ``choose``), for UIs and the trace;
    * ``lazy``: None, or per seat an option space (``runtime/option_spaces.py``) or None.
    """

    __slots__ = ("players", "labels", "values", "chosen", "dest", "each", "secret", "prompt", "lazy")

    def __init__(self, players: list, labels: list, values: list, chosen: list, dest, each: bool, secret: bool,
                 prompt: str, lazy):
        self.players, self.labels, self.values, self.chosen = players, labels, values, chosen
        self.dest, self.each, self.secret, self.prompt, self.lazy = dest, each, secret, prompt, lazy

    def copy(self) -> "Pending":
        """A copy for a clone: its own record of choices (choosing fills it); the options are shared (never changed)."""
        return Pending(self.players, self.labels, self.values, self.chosen[:], self.dest, self.each, self.secret,
                       self.prompt, self.lazy)

    def to_json(self) -> dict:
        """Every field, as plain data (the form the pending decision had as a dict)."""
        return {field: getattr(self, field) for field in Pending.__slots__}

    @classmethod
    def from_json(cls, data: dict) -> "Pending":
        """The record :meth:`to_json` made (the data is trusted: saves are loaded by replay, not from this)."""
        return cls(**{field: data[field] for field in Pending.__slots__})

    # Readers written for the dict it used to be (``state.pending["secret"]``, ``.get("prompt")``): read only.
    def __getitem__(self, field: str):
        if field not in Pending.__slots__:
            raise KeyError(field)
        return getattr(self, field)

    def get(self, field: str, default=None):
        return getattr(self, field) if field in Pending.__slots__ else default

    def __eq__(self, other) -> bool:
        return type(other) is Pending and all(getattr(self, f) == getattr(other, f) for f in Pending.__slots__)

    __hash__ = None  # mutable (choices are recorded in it)

    def __repr__(self) -> str:
        return f"Pending({', '.join(f'{f}={getattr(self, f)!r}' for f in Pending.__slots__)})"


class Frame:
    """A procedure running (or waiting) in the state: the rule code that resumes at a decision.

    * ``pid``: the procedure's id (``Game.codes[pid]`` is its function ``f(state, frame, pc)``);
    * ``pc``: the instruction it resumes at;
    * ``env``: its locals (a dict of plain data, keyed by the compiler's env keys);
    * ``ret``: the env key of the caller's frame that receives its return value (None: dropped).
    """

    __slots__ = ("pid", "pc", "env", "ret")

    def __init__(self, pid: int, pc: int, env: dict, ret):
        self.pid, self.pc, self.env, self.ret = pid, pc, env, ret

    def copy(self) -> "Frame":
        """A copy for a clone: its own locals (their values are shared immutables or copied on change)."""
        return Frame(self.pid, self.pc, dict(self.env), self.ret)

    def to_json(self) -> list:
        """As plain data: ``[procedure id, pc, locals, return slot]`` (the list a frame once was)."""
        return [self.pid, self.pc, self.env, self.ret]

    @classmethod
    def from_json(cls, data: list) -> "Frame":
        return cls(*data)

    def __eq__(self, other) -> bool:
        return type(other) is Frame and self.to_json() == other.to_json()

    __hash__ = None  # mutable (its pc and locals change as it runs)

    def __repr__(self) -> str:
        return f"Frame(pid={self.pid!r}, pc={self.pc!r}, env={self.env!r}, ret={self.ret!r})"
