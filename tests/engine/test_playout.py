"""Playouts (interpreter/playout.py): a game played on by random choices straight from its pending decisions.

A playout must play exactly the game the integer API plays with the same draws (``sample_action_id`` +
``apply_id``, first current player first), so its choices are uniform over ``legal_actions``; it must
work for every kind of decision (one card, several cards as an option space, a card plus others, menus,
pairs, simultaneous decisions) and stay bounded.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from conftest import REPO_ROOT
from interpreter import IllegalActionError, RuleError, load_game
from interpreter.agents import RandomAgent
from interpreter import run_loop
from interpreter.playout import MAX_DECISIONS
from interpreter.runtime import option_lists, option_spaces, records
from interpreter.sim import play_out
from configurations import every_configuration


def position(s) -> str:
    return json.dumps([s.to_json(), [f.to_json() for f in s.frames], s.pending and s.pending.to_json(), s.over,
                       s.ended_by, s.history, s.over and (s.scores(), s.winners())])


def by_integer_api(state, rngs, decisions):
    """The loop a playout replaces: the first current player, ``sample_action_id`` + ``apply_id``."""
    for _ in range(decisions):
        if state.over:
            break
        seat = state.current_players()[0]
        state.apply_id(seat, state.sample_action_id(seat, rngs[seat]))
    return state


def assert_same_games(game, players, seed, decisions=400, per_seat=False):
    start = game.new_game(players, seed)
    rngs = [random.Random(seed * 10 + i) for i in range(players)] if per_seat else [random.Random(seed)] * players
    twins = [random.Random(seed * 10 + i) for i in range(players)] if per_seat else [random.Random(seed)] * players
    expected = by_integer_api(start.clone(), twins, decisions)
    played = start.clone().playout(rngs if per_seat else rngs[0], decisions=decisions)
    assert position(played) == position(expected), f"{game.source.path} {players}p seed {seed}"
    assert [r.random() for r in rngs] == [r.random() for r in twins]  # the same draws, no more
    return played


CONFIGURATIONS = every_configuration(settings=True)
# (seed, decisions, one generator per seat): whole games; a budget that stops inside simultaneous decisions
SEEDS = ((0, 400, False), (1, 400, True), (2, 37, True), (3, 61, False))


@pytest.mark.parametrize("path, variants, players", CONFIGURATIONS,
                         ids=[f"{p.stem}{''.join('+' + v for v in vs)}-{n}p" for p, vs, n in CONFIGURATIONS])
def test_a_playout_plays_the_game_the_integer_api_plays_in_every_configuration(path, variants, players):
    game = configured_game(path, tuple(variants))
    long_game = path.stem == "top_frog"  # hundreds of decisions a game: fewer of them
    finished = 0
    for seed, decisions, per_seat in SEEDS:
        budget = min(decisions, 150) if long_game else decisions
        finished += assert_same_games(game, players, seed, budget, per_seat).over
        if decisions != 400:  # a playout stopped early goes on to the same game as one never stopped
            start = game.new_game(players, seed)
            first, second = random.Random(seed), random.Random(seed)
            twice = start.clone().playout(first, decisions=budget)
            twice.playout(first, decisions=budget)
            once = start.clone().playout(second, decisions=2 * budget)
            assert position(twice) == position(once)
    if not long_game and path.parent.name == "definitions":
        assert finished  # at least one game played to its end


@cache
def configured_game(path, variants):
    return load_game(path, variants=list(variants))


@pytest.mark.parametrize("stem, players", [("top_frog", 4), ("frog_tower", 3), ("kaeru", 2)])
def test_an_untraced_playout_takes_each_decision_where_the_rules_make_it(stem, players, monkeypatch):
    """No pending record, no run through run_loop.play, no option listed or refused-in-advance text check
    for a decision of the playout: only the decision pending when it starts waits (then each is drawn in place)."""
    game = load_game(REPO_ROOT / "definitions" / f"{stem}.yaml")
    state = game.new_game(players, 5)
    made = []
    real_init = records.Pending.__init__
    monkeypatch.setattr(records.Pending, "__init__", lambda self, *args: made.append(args) or real_init(self, *args))

    def refused(*args):
        raise AssertionError("the playout went the long way")
    for module, name in ((run_loop, "play"), (option_spaces, "expand"), (option_lists, "plus_plans"),
                         (option_lists, "savable_labels"), (option_lists, "listed_plus")):
        monkeypatch.setattr(module, name, refused)
    state.playout(random.Random(5))
    assert state.over and len(state.history) > 20 and made == []


def test_a_simulation_of_random_bots_plays_the_games_their_decisions_would():
    game = load_game(REPO_ROOT / "definitions" / "kaeru.yaml")
    for seed in range(3):
        agents = {seat: RandomAgent(seed * 7 + seat) for seat in range(2)}
        twins = [RandomAgent(seed * 7 + seat) for seat in range(2)]
        played = play_out(game.new_game(2, seed, log=False), agents)
        expected = game.new_game(2, seed, log=False)
        while not expected.over:
            seat = expected.current_players()[0]
            expected.apply_id(seat, twins[seat].act_id(expected, seat))
        assert position(played) == position(expected)


# ---------------------------------------------------------------- uniform over legal_actions
stats = pytest.importorskip("scipy.stats", reason="the uniformity tests need scipy (the dev extra)")

# (definition, players, scenario or None): a first decision of each kind
FIRST_DECISIONS = [
    ("large_choice", 2, {"game_variables": {"form": 1}}),  # choose 4 of 12 (an option space)
    ("large_choice", 2, {"game_variables": {"form": 3}}),  # one card plus any number (a 'plus' space)
    ("selection", 2, None),  # a simultaneous choice of several cards
    ("simultaneous", 2, None),  # a simultaneous choice from a list
    ("differential", 2, None),  # a menu
    ("pairs", 2, None),  # pairs
    ("decisions", 2, None),  # one card
]


@pytest.mark.parametrize("stem, players, scenario", FIRST_DECISIONS, ids=[f"{s}-{i}" for i, (s, _, _) in
                                                                          enumerate(FIRST_DECISIONS)])
def test_a_playout_chooses_every_option_equally_often(stem, players, scenario):
    game = load_game(REPO_ROOT / "tests" / "definitions" / f"{stem}.yaml")
    start = game.new_game(players, 0, scenario=scenario)
    seat = start.current_players()[0]
    legal = start.legal_actions(seat)
    assert len(legal) > 1
    chosen = Counter()
    for n in range(30 * len(legal)):
        state = start.clone().playout(random.Random(n), decisions=1)
        assert len(state.history) == len(start.history) + 1
        chosen[state.history[-1][1]] += 1
    assert set(chosen) == set(legal)  # every option reached, nothing else
    assert stats.chisquare([chosen[label] for label in legal]).pvalue > 0.001


def test_a_policy_that_is_not_uniform_is_told_apart():  # the check above can fail
    game = load_game(REPO_ROOT / "tests" / "definitions" / "large_choice.yaml")
    start = game.new_game(2, 0, scenario={"game_variables": {"form": 1}})
    legal = start.legal_actions(0)
    chosen = Counter()
    for n in range(30 * len(legal)):
        state = start.clone().playout(random.Random(n), lambda s, p, count, rng: min(rng.randrange(count),
                                                                                      rng.randrange(count)),
                                      decisions=1)
        chosen[state.history[-1][1]] += 1
    assert stats.chisquare([chosen[label] for label in legal]).pvalue < 1e-9


# ---------------------------------------------------------------- the contract
def kaeru():
    return load_game(REPO_ROOT / "definitions" / "kaeru.yaml")


def test_a_playout_stops_after_the_decisions_it_is_given_and_leaves_the_game_running():
    start = kaeru().new_game(2, 3)
    state = start.clone().playout(random.Random(0), decisions=5)
    assert len(state.history) == 5 and not state.over
    assert position(state.playout(random.Random(1), decisions=0)) == position(state)
    rest = state.playout(random.Random(1))
    assert rest is state and state.over


def test_a_policy_chooses_by_number_and_a_wrong_number_changes_nothing():
    start = kaeru().new_game(2, 3)
    firsts = start.clone().playout(random.Random(0), lambda s, p, count, rng: 0, decisions=20)
    expected = start.clone()
    for _ in range(20):
        expected.apply_id(expected.current_players()[0], 0)
    assert position(firsts) == position(expected)
    for bad in (-1, 10_000, 1.0, True, "0"):
        state = start.clone()
        with pytest.raises(IllegalActionError, match="the playout's policy chose"):
            state.playout(random.Random(0), lambda s, p, count, rng: bad)
        assert position(state) == position(start)


@pytest.mark.parametrize("rng", [None, 3, "seed", [random.Random(0)], [random.Random(0), 4], random])
def test_a_playout_needs_a_generator_or_one_per_seat(rng):
    state = kaeru().new_game(2, 3)
    before = position(state)
    with pytest.raises(IllegalActionError, match="playout draws from rng"):
        state.playout(rng)
    assert position(state) == before


@pytest.mark.parametrize("decisions", [-1, 1.5, "3", True])
def test_a_playout_is_given_a_whole_number_of_decisions(decisions):
    with pytest.raises(IllegalActionError, match="decisions must be a whole number"):
        kaeru().new_game(2, 3).playout(random.Random(0), decisions=decisions)


def test_a_playout_of_a_finished_game_does_nothing():
    state = kaeru().new_game(2, 3).playout(random.Random(0))
    assert state.over
    again = position(state)
    assert position(state.playout(random.Random(1))) == again


def test_a_playout_keeps_the_trace_and_narration_the_api_keeps():
    game = kaeru()
    traced = game.new_game(2, 4, trace=True)
    expected = by_integer_api(traced.clone(), [random.Random(2)] * 2, 10_000)
    played = traced.clone().playout(random.Random(2))
    assert played.trace == expected.trace and played.log == expected.log and played.over


DIFFERENTIAL = (REPO_ROOT / "tests" / "definitions" / "differential.yaml").read_text()
# the menu's second option loops without a decision; a game whose flow never ends
HOSTILE_LOOP = DIFFERENTIAL.replace('"two":\n        p.points += 2', '"two":\n        while true:\n          p.points += 2')
ENDLESS = DIFFERENTIAL.replace("until: size(deck) == 0", "until: false").replace("move top(deck) to hand(p)", "pass")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(text)
    return path


def test_a_loop_without_a_decision_fails_located_and_rewinds_in_a_playout(tmp_path):
    game = load_game(write(tmp_path, HOSTILE_LOOP))
    for seed in range(20):
        state, twin = game.new_game(2, seed), game.new_game(2, seed)
        try:
            state.playout(random.Random(seed))
        except RuleError as exc:
            assert "too long without a decision" in str(exc) and "game.yaml" in str(exc.location)
            with pytest.raises(RuleError):
                by_integer_api(twin, [random.Random(seed)] * 2, 10_000)
            assert position(state) == position(twin)  # back before the decision that looped, as apply_id
            assert state.pending is not None and not state.over
            return
    raise AssertionError("no random game chose the looping option")


def test_a_game_that_never_ends_stops_at_the_playout_bound(tmp_path, monkeypatch):
    monkeypatch.setattr("interpreter.playout.MAX_DECISIONS", 500)
    state = load_game(write(tmp_path, ENDLESS)).new_game(2, 0)
    state.playout(random.Random(0))
    assert len(state.history) == 500 and not state.over
    assert MAX_DECISIONS >= 100_000
