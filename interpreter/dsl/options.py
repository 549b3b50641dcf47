"""Which optimisations the compiler applies: all of them unless a test or a developer says otherwise.

Every optimisation must leave a game exactly as it would be without it: the same
legal actions, the same random numbers drawn, the same narration and the same end.
Each can be switched off when a game is loaded, so the differential tests
(``tests/compiler/test_differential.py``) can play the same seeded games under every
combination and compare them move for move, and a developer chasing a bug can
see whether an optimisation is to blame::

    from interpreter import CompileOptions, load_game
    plain = load_game("definitions/<game>.yaml", options=CompileOptions.none())
    no_inlining = load_game("definitions/<game>.yaml", options=CompileOptions(inline=False))

Players never need this: ``ribbit`` always loads games with every optimisation on.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class CompileOptions:
    """The optimisations the compiler may apply (each one is chosen at one place, named below)."""

    # Calls of procedures that never wait for a player, and of functions with cheap arguments,
    # compiled into their caller (Inliner.inline_proc; function_call and filtered_call in
    # ExpressionLowering).
    inline: bool = True
    # Calls of procedures that may wait for a player compiled into the caller's resumable code
    # (Splicer._spliceable).
    splice: bool = True
    # Work done once at load instead of at every run: per-card tables of expressions that read
    # only fixed card properties (ExpressionLowering.static_table), and a menu's open options
    # listed per combination of its conditions (DecisionCompiler._menu_ask).
    tables: bool = True
    # Arithmetic on two constants worked out at load (ExpressionLowering.visit_BinOp).
    fold: bool = True
    # Straight runs of statements that never wait fused into one resumable instruction, and jumps
    # to jumps pointed at their final target (WaitingLayout.resumable_run and compile_proc).
    fuse: bool = True
    # Not an optimisation: every procedure, hook, trigger, ability, listener and menu option entered bumps a
    # counter (dsl/coverage.py), for `ribbit simulate --coverage`.  Off, the generated code is unchanged.
    coverage: bool = False
    # Not an optimisation: the playout build (dsl/playout_build.py), the same code without what only a traced
    # state or one keeping a log needs; compiled lazily by Game.playout_build and run only by interpreter.playout.
    playout: bool = False

    @classmethod
    def none(cls) -> "CompileOptions":
        """Every optimisation off."""
        return cls(**{name: False for name in cls.names()})

    @classmethod
    def names(cls) -> list[str]:
        """The optimisations' names (coverage counting and the playout build are not ones)."""
        return [f.name for f in fields(cls) if f.name not in ("coverage", "playout")]

    def without(self, name: str) -> "CompileOptions":
        """These options with ``name`` off."""
        return replace(self, **{name: False})

    def describe(self) -> str:
        """'all on', 'all off' or the names of those that are off ('inline, fold off')."""
        off = [name for name in self.names() if not getattr(self, name)]
        if not off:
            return "all on"
        if len(off) == len(self.names()):
            return "all off"
        return ", ".join(off) + " off"


ALL_ON = CompileOptions()
