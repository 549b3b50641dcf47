"""The playout build: the same compiled rules without what only a watched game needs.

A playout (``interpreter/playout.py``) plays an untraced state that keeps no log on to its end: nobody reads
its trace or its narration.  So a second build of the game (``CompileOptions(playout=True)``, made by
``Game.playout_build`` the first time a playout needs it) is compiled from the same rules by the same passes,
and only each generated function's tree is rewritten, in place, as it is handed to the code unit
(:func:`rewrite`): the trace blocks (``if s.trace is not None: ...``) and the narration
(``if s.log is not None: ...``) go.  Both only read the state (a trace block puts the generator and the step
budget back as it found them), so on a state with neither the two builds do exactly the same work.

What the rewrite keeps, so that a state made by one build runs on in the other (``playout`` switches a
state's game to this build at a decision and back when it ends):

* the layout: the same procedures, functions, instructions (pcs), jumps and env keys, made by the same
  passes in the same order (``layout_hash.frame_layout`` describes it; a test compares the two builds);
* every step charged (loops, calls and the run-time helpers charge the same), so a definition that
  loops or recurses without end stops with the same located error in both;
* every check that raises (none checks, bounds, located errors) and every option's text.
"""

from __future__ import annotations

import ast

# The state's attributes whose blocks (``if s.<name> is not None: ...``) only a watched game runs.
WATCHED = ("trace", "log")


def rewrite(fdef: ast.FunctionDef) -> ast.FunctionDef:
    """``fdef`` without its trace and narration blocks, changed in place (the nodes it keeps are the same
    objects: the layout fills jump targets into them after this).  Returns ``fdef``."""
    stack = [fdef]
    while stack:
        node = stack.pop()
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, field, None)
            if block.__class__ is not list or not block:
                continue
            if field != "handlers":
                _drop_watched(node, field, block)
            stack.extend(block)
    return fdef


def _drop_watched(node, field: str, block: list) -> None:
    """The watched blocks of one statement list dropped; an ``elif`` that is one becomes an empty ``else``."""
    kept = [st for st in block if not _watched(st)]
    if len(kept) == len(block):
        return
    if not kept and field == "orelse":
        node.orelse = []  # (an 'elif s.log is not None: ...' with nothing after it)
        return
    block[:] = kept or [ast.Pass()]


def _watched(st) -> bool:
    """Whether ``st`` is ``if s.trace is not None: ...`` or ``if s.log is not None: ...`` with no else."""
    if st.__class__ is not ast.If or st.orelse:
        return False
    test = st.test
    return (test.__class__ is ast.Compare and len(test.ops) == 1 and test.ops[0].__class__ is ast.IsNot
            and test.comparators[0].__class__ is ast.Constant and test.comparators[0].value is None
            and test.left.__class__ is ast.Attribute and test.left.attr in WATCHED
            and test.left.value.__class__ is ast.Name and test.left.value.id == "s")
