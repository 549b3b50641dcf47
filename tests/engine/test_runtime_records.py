"""What the rules run with is made of typed runtime records, not dicts and closures.

The pending decision is one record (runtime/records.py), plain data inside: it is made by one
constructor wherever the rules stop for a player, copied by a clone so that a choice in one copy is not
seen in the other, written to plain JSON data exactly, and still read by key by readers written for the
dict it was (a UI reading ``state.pending["secret"]``).  A frame of suspended rule code is a record too,
read by name (``fr.pc``, ``fr.env``), not by position.  Scores, tie-breaks and modified quantities are
generated functions like every rule (dsl/scoring.py), listed by ``ribbit debug --code``.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from conftest import REPO_ROOT
from interpreter import load_game
from interpreter.runtime.records import Frame, Pending

SIMULTANEOUS = REPO_ROOT / "tests" / "definitions" / "simultaneous.yaml"
FIELDS = ("players", "labels", "values", "chosen", "dest", "each", "secret", "prompt", "lazy")


def test_every_decision_of_a_game_is_a_pending_record_of_plain_data():
    game = load_game(REPO_ROOT / "definitions" / "frog_tower.yaml")
    moves = random.Random(3)
    state = game.new_game(3, seed=3)
    while not state.is_terminal():
        p = state.pending
        assert type(p) is Pending
        data = p.to_json()
        assert tuple(data) == FIELDS and json.loads(json.dumps(data)) == data
        assert Pending.from_json(data) == p
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
    assert state.pending is None


def test_a_clone_records_its_own_choices():
    state = load_game(SIMULTANEOUS).new_game(3, seed=4)
    copy = state.clone()
    state.apply(0, state.legal_actions(0)[1])
    assert state.pending.chosen[0] is not None and copy.pending.chosen == [None, None, None]
    assert copy.current_players() == [0, 1, 2]


def test_a_reader_of_the_old_dict_reads_the_same_fields():
    state = load_game(SIMULTANEOUS).new_game(3, seed=4)
    p = state.pending
    for field in FIELDS:
        assert p[field] is getattr(p, field) and p.get(field) is getattr(p, field)
    assert p.get("nothing", "absent") == "absent"
    try:
        p["nothing"]
    except KeyError:
        pass
    else:
        raise AssertionError("an unknown field was read")


def test_the_engine_makes_no_pending_dict():
    made = [path.relative_to(REPO_ROOT) for path in (REPO_ROOT / "interpreter").rglob("*.py")
            if re.search(r"pending\s*=\s*\{", path.read_text(encoding="utf-8"))]
    assert made == []


def generated(fn) -> bool:
    """Is ``fn`` a function of the game's generated code (codegen.py), not a closure or a record?"""
    return type(fn).__name__ == "function" and hasattr(fn, "generated_tree") and fn.__closure__ is None


def test_scores_tiebreaks_and_modified_quantities_are_generated_code_like_every_rule():
    game = load_game(REPO_ROOT / "tests" / "definitions" / "modifiers.yaml")
    assert game.quantities and all(generated(q.compute) for q in game.quantities.values())
    source = game.code.source()
    assert "the quantity at quantities.hand_limit(player p)" in source  # its modifiers' loop, in generated code
    state = game.new_game(2, seed=0)
    assert [game.quantities["hand_limit"].compute(state, {"p": p}) for p in state.players] == [2, 2]
    frog_tower = load_game(REPO_ROOT / "definitions" / "frog_tower.yaml")
    assert generated(frog_tower.score_fn) and all(generated(fn) for _, fn in frog_tower.tiebreaks)
    assert "tie-break 1 at scoring.tiebreaks.0.lowest" in frog_tower.code.source()


def test_a_score_of_several_terms_is_their_sum_and_each_term_explains_its_failure(tmp_path):
    from interpreter import RuleError

    path = tmp_path / "terms.yaml"
    path.write_text("""game: Terms
players: {min: 2, max: 2}
zones: {table: {}}
player_variables: {a: 2, b: 3}
procedures:
  round(): |
    ask game.active:
      "stop":
        end game
flow:
  - phase: rounds
    round: [round]
scoring:
  score:
    first: p.a
    second: p.b
""")
    game = load_game(path)
    state = game.new_game(2, seed=0)
    assert generated(game.score_fn) and state.scores() == [5, 5]
    state = game.new_game(2, seed=0)
    state.pv["b"][1] = None
    with pytest.raises(RuleError, match=r"the score term 'second' is not a whole number for player 1 \(it is None\)"):
        state.scores()


def test_the_frames_of_a_waiting_game_are_frame_records_of_plain_data_and_a_clone_has_its_own_locals():
    game = load_game(REPO_ROOT / "definitions" / "kaeru.yaml")
    moves = random.Random(5)
    state = game.new_game(2, seed=5)
    for _ in range(12):
        assert state.frames and all(type(f) is Frame for f in state.frames)
        data = [f.to_json() for f in state.frames]
        assert json.loads(json.dumps(data)) == data and [Frame.from_json(d) for d in data] == state.frames
        assert all(game.codes[f.pid] is game.procs[f.pid].code for f in state.frames)
        copy = state.clone()
        assert copy.frames == state.frames and all(a.env is not b.env for a, b in zip(copy.frames, state.frames))
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
