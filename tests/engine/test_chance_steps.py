"""How chance mode runs a step (interpreter/chance.py): however it is run, a step gives what a replay gives.

A step's first run is made on the state itself (a copy is kept as its boundary), and a step run again after
a chance outcome runs on a copy of that boundary.  Whatever the path, the same decisions and outcomes must
give the same state: a random playthrough of every shipped game and variant and of every test definition,
in chance mode, is compared point by point (the save, the narration of every seat and of a spectator, the
legal actions, the outcomes listed) with the same history replayed on a fresh chance-mode game.  A step that
fails, on its first run or after an outcome, leaves the state exactly as it was before its action.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter import RuleError, load_game
from interpreter.chance import CHANCE_PLAYER
from configurations import every_configuration

ROOT = Path(__file__).resolve().parents[2]
DECISIONS = 40  # decisions per playthrough (with every chance outcome on the way): enough to reach draws


CONFIGURATIONS = every_configuration(test_definitions_at_most=False)


def digest(state) -> str:
    """Everything a caller can read of a chance-mode state, as one text."""
    seats = range(state.n)
    waiting = [] if state.is_chance() or state.is_terminal() else state.current_players()
    return json.dumps({
        "save": state.to_json(),
        "history": state.history,
        "narration": [state.narration(None)] + [state.narration(p) for p in seats],
        "chance": state.chance_outcomes(),
        "node": state.chance_node(),
        "terminal": state.is_terminal(),
        "waiting": waiting,
        "legal": [state.legal_actions(p) for p in waiting],
    }, sort_keys=True, default=repr)


def playthrough(game, players: int, seed: int, decisions: int = DECISIONS) -> tuple[object, list[str]]:
    """A random chance-mode game of ``decisions`` decisions (outcomes drawn by their probabilities):
    the final state and the digest after setup and after every decision and outcome."""
    rng, bot = random.Random(seed), random.Random(seed + 1)
    state = game.new_game(players, chance=True)
    seen = [digest(state)]
    for _ in range(decisions):
        while state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            seen.append(digest(state))
        if state.is_terminal():
            break
        player = state.current_players()[0]
        state.apply_id(player, state.sample_action_id(player, bot))
        seen.append(digest(state))
    return state, seen


def replayed(game, players: int, history) -> list[str]:
    """The digests of ``history`` applied entry by entry on a fresh chance-mode game."""
    state = game.new_game(players, chance=True)
    seen = [digest(state)]
    for player, action in history:
        if player == CHANCE_PLAYER:
            state.apply_chance(action)
        else:
            state.apply(player, action)
        seen.append(digest(state))
    return seen


@pytest.mark.parametrize("path, variants, players", CONFIGURATIONS,
                         ids=[f"{p.stem}{''.join('+' + v for v in vs)}-{n}p" for p, vs, n in CONFIGURATIONS])
def test_a_chance_mode_playthrough_reads_as_its_history_replayed_on_a_fresh_game(path, variants, players):
    game = load_game(path, variants=variants)
    state, seen = playthrough(game, players, seed=players)
    assert len(seen) == len(state.history) + 1  # one digest per history entry: each decision and outcome
    assert replayed(game, players, state.history) == seen


def test_the_playthroughs_draw_outcomes_and_reach_decisions_that_draw_nothing():
    """The comparison covers both paths of a step: steps that drew (run again on a copy of their boundary)
    and steps that drew nothing (run once, on the state itself)."""
    game = load_game(ROOT / "definitions" / "crazy_eights.yaml")
    state, _ = playthrough(game, 2, seed=2)
    kinds = [player == CHANCE_PLAYER for player, _ in state.history]
    drew = sum(1 for a, b in zip(kinds, kinds[1:]) if not a and b)
    quiet = sum(1 for a, b in zip(kinds, kinds[1:]) if not a and not b)
    assert drew >= 3 and quiet >= 3


FAILING = """\
game: Failing steps
players: {min: 1, max: 1}
components:
  - {name: card, count: 6, zone: deck}
  - {name: token, zone: box}
zones:
  deck: {visibility: hidden}
  box: {visibility: public}
  table: {visibility: public}
game_variables:
  zero: 0
  moved: 0
setup:
  - step: deal
    do: |
      shuffle deck
procedures:
  take_turn(player p): |
    ask p to choose one of ["quiet", "draw", "stop"] as what "go"
    if what == "stop":
      end game
    log "{p} goes {what}"
    game.moved = game.moved + 1
    if what == "draw":
      move top(deck) to table
    move top(box) to table
    game.moved = game.moved // game.zero
flow:
  - turn: take_turn
"""


@pytest.fixture
def failing(tmp_path):
    path = tmp_path / "failing.yaml"
    path.write_text(FAILING, encoding="utf-8")
    return load_game(path)


def everything(state) -> str:
    return json.dumps([state.to_json(), state.log, state.history, state.chance_outcomes(),
                       state.legal_actions(0)], sort_keys=True, default=repr)


def test_a_step_that_fails_on_its_first_run_leaves_the_state_as_before_its_action(failing):
    state = failing.new_game(1, chance=True)
    assert not state.is_chance()  # the shuffled deck is left undecided: setup drew nothing
    before = everything(state)
    with pytest.raises(RuleError, match="division by zero"):
        state.apply(0, "go quiet")  # narrates, sets a variable, moves a card, then fails
    assert everything(state) == before
    assert state.gv["moved"] == 0


def test_a_step_that_fails_after_a_draw_leaves_the_state_as_before_its_action(failing):
    state = failing.new_game(1, chance=True)
    before = everything(state)
    state.apply(0, "go draw")
    assert state.is_chance()
    outcome = state.chance_outcomes()[0][0]
    with pytest.raises(RuleError, match="division by zero"):
        state.apply_chance(outcome)
    assert everything(state) == before
    state.apply(0, "go stop")  # and the game goes on from there
    assert state.is_terminal()
