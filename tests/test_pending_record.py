"""The pending decision is one typed record (runtime/records.py), plain data inside.

It is made by one constructor wherever the rules stop for a player, copied by a clone so that a choice in
one copy is not seen in the other, written to plain JSON data exactly, and still read by key by readers
written for the dict it was (a UI reading ``state.pending["secret"]``).
"""

from __future__ import annotations

import json
import random
import re

from conftest import REPO_ROOT
from interpreter import load_game
from interpreter.runtime.records import Pending

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
