"""At a secret simultaneous decision, a seat with a single option has it taken at once; the trace still keeps it
secret from everyone else ("until all have chosen": its options may follow from what only it knows)."""

from __future__ import annotations

from interpreter import load_game

ONE_OPTION_FOR_SOME = """\
game: Secret Single
players: {min: 2, max: 3}
components:
  - {name: token, zone: box}
zones:
  box: {visibility: public}
player_variables:
  points: 0
  daring: {default: false, visibility: owner}
setup: |
  seat(1).daring = true
procedures:
  round(): |
    ask each q in players secretly to choose one of [each x in ["rock", "paper"] where q.daring or x == "rock"] as pick "throw"
    for q in players:
      if pick[q] == "paper":
        q.points += 1
flow:
  - phase: main
    round: [round]
    until: game.round >= 2
scoring:
  score: p.points
"""


def test_a_secret_pick_taken_at_once_is_traced_for_its_chooser_only(tmp_path):
    path = tmp_path / "single.yaml"
    path.write_text(ONE_OPTION_FOR_SOME, encoding="utf-8")
    state = load_game(path).new_game(3, 1, trace=True)
    assert state.current_players() == [0]  # seats 2 and 3 could only throw rock: taken at once
    for reader in (0, 1, 2, None):
        automatic = [r for r in state.trace_for(reader) if r["type"] == "decision" and r["automatic"]]
        assert [r["player"] for r in automatic] == [2, 3]
        for record in automatic:
            expected = "throw rock" if record["player"] - 1 == reader else "(secret)"
            assert record["chosen"] == expected, (reader, record)
