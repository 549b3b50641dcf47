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
