"""The compiler never pattern-matches its own output: what it needs to know about an expression is in the
analysis notes (issue 22).  Each reader of generated ``ast`` that went stays gone."""

from __future__ import annotations

import re
from pathlib import Path

DSL = Path(__file__).resolve().parents[2] / "interpreter" / "dsl"


def test_no_lowering_asks_whether_generated_code_calls_a_helper():
    # 'is this code a call of count_in / an arithmetic helper / len()' is the note's shape and number now
    found = {p.name for p in DSL.glob("*.py") if re.search(r"\bself\.calls\(|def calls\(|def is_number\(",
                                                            p.read_text(encoding="utf-8"))}
    assert found == set()


def test_no_lowering_asks_whether_generated_code_is_simple():
    # 'may this code be written twice' is the note's ``cheap`` (ExpressionLowering.repeatable), 'is it one
    # local' its ``local``: pyast's readers of generated trees (simple, local_key, game_var) are gone
    found = {p.name for p in DSL.glob("*.py")
             if re.search(r"\bsimple\(|local_key|game_var\(", p.read_text(encoding="utf-8"))}
    assert found == set()


def test_the_inliner_reads_no_generated_code():
    # which arguments are one local or a constant is BoundArg's key and fixed, from the notes
    text = (DSL / "inline.py").read_text(encoding="utf-8")
    assert "local_key" not in text and "static_value" not in text


def test_the_analysis_reads_no_generated_code():
    # an inlined parameter's note is made of its argument's (BoundArg), not of local_key/static_value of its tree
    text = (DSL / "analysis.py").read_text(encoding="utf-8")
    assert not re.search(r"local_key|static_value|\bsimple\(", text)


def test_no_pass_asks_whether_generated_code_is_a_constant():
    # a constant of the rules is its note's ``const`` (an argument's: BoundArg.const); builtins read it too
    found = {p.name for p in DSL.glob("*.py") if re.search(r"static_value|constant_of|_value_slots",
                                                            p.read_text(encoding="utf-8"))}
    assert found == set()


def test_two_card_tables_read_the_lowerings_record_not_the_code():
    # which per-card tables a card variable indexes, and whether it is used otherwise, is what the lowering
    # recorded as it built the code (static.CardUses); card_reads walked the generated tree for it
    text = (DSL / "lower_expr.py").read_text(encoding="utf-8")
    assert not re.search(r"generated_tree|local_key|ast\.walk|iter_child_nodes|def card_reads", text)


def test_only_emission_and_the_layout_hash_read_a_functions_generated_tree():
    # codegen.py keeps each function's tree; layout_hash.py describes the compiled code by it
    found = {p.name for p in DSL.glob("*.py") if "generated_tree" in p.read_text(encoding="utf-8")}
    assert found <= {"codegen.py", "layout_hash.py"}


def test_an_order_comparison_asks_the_notes_which_side_needs_a_none_guard():
    # a side that is always a number (its note's ``number``) needs no 'is not None' guard; the lowering
    # asked whether the side's generated code was an ast.Constant
    text = (DSL / "lower_expr.py").read_text(encoding="utf-8")
    assert not re.search(r"isinstance\([^)]*ast\.", text)


def test_no_pass_walks_generated_code_to_decide_a_loop_local():
    # whether a comprehension's variable may be a Python local, and its name, come from the lowering's record
    # (static.CardUses: whole, deepest) and the reads it made (loop_locals.LoopReads); as_locals walked the
    # generated element and condition for a bare 'e' and the highest vN
    found = {p.name for p in DSL.glob("*.py")
             if re.search(r"\bas_locals\b|_HandedOn|def _mark\b", p.read_text(encoding="utf-8"))}
    assert found == set()
    text = (DSL / "loop_locals.py").read_text(encoding="utf-8")
    assert not re.search(r"_fields|ast\.walk|iter_child_nodes|NodeVisitor|NodeTransformer|isdigit", text)


# A reader of a Python tree's shape: a walk over it, a visitor or transformer over it, a test of a node's class.
TREE_READING = re.compile(r"ast\.walk|iter_child_nodes|ast\.NodeVisitor|ast\.NodeTransformer|\._fields\b"
                          r"|\bis (not )?ast\.[A-Z]|isinstance\([^)]*\bast\.[A-Z]")


def test_no_pass_walks_or_rewrites_the_code_it_generated():
    # the playout build is decided where the code is made (StatementLowering.watched leaves trace and narration
    # out, known_zone names a move's zones from the IR's notes); it walked each generated function to drop those
    # blocks, match move destinations and write helpers out (issue 23).  codegen.py emits and locates trees,
    # layout_hash.py describes them, pyast.py builds from the templates it parses itself.
    found = {p.name for p in DSL.glob("*.py") if TREE_READING.search(p.read_text(encoding="utf-8"))}
    assert found <= {"codegen.py", "layout_hash.py", "pyast.py"}
    assert not re.search(r"\brewrite\b", (DSL / "codegen.py").read_text(encoding="utf-8"))  # no hook for one
