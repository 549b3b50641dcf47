"""Properties every game must keep, checked after every action of random playouts.

Conformance in the style of OpenSpiel's random_sim_test: Frog Tower for 2-5
players and each test-only definition, thousands of games in all.  After every
action: cards are conserved, views hide what they must, illegal actions change
nothing, a clone is independent, a JSON save reloads to the same state; at a
few points and at the end the game replays bit for bit from its seed and
actions; every finished game has winners and returns that sum to 1.

Two depths keep the suite fast: every game gets the cheap checks after every
action (cards, views, secret-choice counterfactuals, illegal actions, replay at
the end), and a smaller sample, drawn by hypothesis, also gets the expensive
ones (clone independence, save/reload after every action, a reloaded save and a
clone continuing in lockstep with the original, replays at midpoints).
"""

from __future__ import annotations

import json
import math
import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from interpreter import IllegalActionError, State, load_game, replay

ROOT = Path(__file__).parent.parent
GAMES = {  # name -> (definition, fewest players, most players)
    "frog_tower": (ROOT / "definitions" / "frog_tower.yaml", 2, 5),
    "simultaneous": (ROOT / "tests" / "definitions" / "simultaneous.yaml", 2, 4),
    "hidden_hands": (ROOT / "tests" / "definitions" / "hidden_hands.yaml", 2, 4),
    "triggers": (ROOT / "tests" / "definitions" / "triggers.yaml", 2, 4),
    "modifiers": (ROOT / "tests" / "definitions" / "modifiers.yaml", 2, 4),
    "board_ring": (ROOT / "tests" / "definitions" / "board_ring.yaml", 2, 4),
    "board_grid": (ROOT / "tests" / "definitions" / "board_grid.yaml", 2, 4),
    "rounds": (ROOT / "tests" / "definitions" / "rounds.yaml", 2, 4),
}
# Games per definition for the cheap checks (the expensive sample is on top of these).
CHEAP_GAMES = {"frog_tower": 200}
CHEAP_GAMES_DEFAULT = 250
DEEP_EXAMPLES = 25
MAX_ACTIONS = 2000  # no playout of these games comes near this; reaching it means the flow never ends


@cache
def game(name: str):
    return load_game(GAMES[name][0])


def snapshot(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def reload(state) -> State:
    return State.from_json(state.game, json.loads(json.dumps(state.to_json())))


# ==================================================================== the invariants
def check_cards(state, in_play: frozenset) -> None:
    """Every card is in exactly one zone or out of the game, loc agrees, and none appears or vanishes."""
    seen = set()
    for index, cards in enumerate(state.zones):
        for card in cards:
            assert card not in seen, f"card {card} is in two zones"
            seen.add(card)
            assert state.loc[card] == index, f"card {card} is in zone {index} but loc says {state.loc[card]}"
    assert len(state.loc) == len(state.game.card_names)
    out = {card for card, where in enumerate(state.loc) if where == -1}
    assert seen.isdisjoint(out)
    assert seen | out == set(range(len(state.loc)))
    assert seen == in_play


@cache
def zone_layout(name: str, players: int) -> tuple:
    """(index, label, visibility, owner) of every zone in a game of that many players."""
    g = game(name)
    return tuple((i, g.zone_label(i), g.zone_spec[i].visibility, g.zone_owner[i]) for i in range(g.zone_count)
                 if g.zone_owner[i] is None or g.zone_owner[i] < players)


def expected_zone_views(state, name: str) -> list[dict]:
    """What each viewer (players, then a spectator) must see of the zones, worked out from the raw state."""
    names = state.game.card_names
    seen = [{} for _ in range(state.n + 1)]
    for index, label, visibility, owner in zone_layout(name, state.n):
        cards = state.zones[index]
        if visibility == "public":
            closed = opened = {"cards": [names[c] for c in cards]}
        elif visibility == "top":
            closed = opened = {"count": len(cards), "top": names[cards[-1]] if cards else None}
        else:
            closed = {"count": len(cards)}
            opened = {"cards": [names[c] for c in cards]} if visibility == "owner" else closed
        for viewer, zones in enumerate(seen):
            zones[label] = opened if viewer == owner else closed
    return seen


def check_views(state, name: str) -> None:
    """Hidden zones show counts, others' owner zones counts, top zones their top card; private variables stay private."""
    hidden_vars = state.game.hidden_pvars
    expected = expected_zone_views(state, name)
    waiting = state.current_players()
    for viewer in state.players + [None]:
        view = state.view(viewer)
        assert view["you"] == viewer
        assert view["zones"] == expected[state.n if viewer is None else viewer], f"zones as seen by {viewer}"
        for p, row in enumerate(view["player_variables"]):
            assert set(row) == {v for v in state.pv if v not in hidden_vars or p == viewer}
        decision = view.get("decision")
        if state.is_terminal():
            assert decision is None
            continue
        assert decision["waiting_for"] == waiting
        if viewer in waiting:
            assert decision["your_options"] == state.legal_actions(viewer)
        elif viewer in state.pending["players"]:
            assert decision["your_options"] == []  # already chosen at a simultaneous decision
        else:
            assert "your_options" not in decision


def check_secret_choice_is_invisible(state, player: int) -> None:
    """Whatever ``player`` picks at a secret decision, nobody else's view can tell (until all have chosen)."""
    pend = state.pending
    if not (pend and pend["secret"] and len(state.current_players()) > 1):
        return
    others = [q for q in state.players if q != player] + [None]
    seen = set()
    for action in state.legal_actions(player):
        branch = state.clone()
        branch.apply(player, action)
        seen.add(json.dumps([branch.view(q) for q in others], sort_keys=True))
    assert len(seen) == 1, "another player's view depends on a secret choice"


def check_illegal_actions_change_nothing(state, before: str, rng: random.Random, stale: list[str]) -> None:
    """Unknown actions, unknown players, stale actions and acting out of turn all raise and change nothing."""
    waiting = state.current_players()
    attempts = [(waiting[0] if waiting else 0, "an action nobody can play"), (state.n, "x"), (-1, "x"), (True, "x")]
    if waiting:
        legal = state.legal_actions(waiting[0])
        attempts += [(waiting[0], a) for a in stale if a not in legal][:1]  # legal earlier, not now
        idle = [p for p in state.players if p not in waiting]
        if idle:
            attempts.append((rng.choice(idle), rng.choice(legal)))
    for player, action in attempts:
        with pytest.raises(IllegalActionError):
            state.apply(player, action)
    assert snapshot(state) == before


def check_clone_is_independent(state, before: str, rng: random.Random) -> None:
    if state.is_terminal():
        return
    copy = state.clone()
    p = rng.choice(copy.current_players())
    copy.apply(p, rng.choice(copy.legal_actions(p)))
    assert snapshot(state) == before


def check_reload(state, before: str) -> State:
    loaded = reload(state)
    assert snapshot(loaded) == before
    for p in state.players:
        assert loaded.legal_actions(p) == state.legal_actions(p)
    assert loaded.current_players() == state.current_players()
    return loaded


def check_replay(name: str, players: int, seed: int, state) -> None:
    assert snapshot(replay(game(name), players, seed, state.history)) == snapshot(state)


def check_result(state) -> None:
    assert state.is_terminal()
    assert state.current_players() == [] and state.legal_actions() == []
    winners = state.winners()
    assert winners and set(winners) <= set(state.players)
    assert math.isclose(sum(state.returns()), 1.0)
    assert [p for p, r in enumerate(state.returns()) if r > 0] == sorted(winners)
    assert len(state.scores()) == state.n


# ==================================================================== playouts
def playout(name: str, players: int, seed: int, deep: bool, clones: bool = True) -> State:
    """Play one random game, checking the invariants after every action; return the finished state.

    ``deep`` adds the expensive checks; ``clones=False`` leaves out the clone-independence one.
    """
    rng = random.Random(seed)
    state = game(name).new_game(players, seed)
    in_play = frozenset(c for z in state.zones for c in z)
    followers: list[State] = []  # deep: a reloaded save and a clone, fed the same actions in lockstep
    fork_at = rng.randrange(0, 30)
    replay_at = {rng.randrange(1, 40), rng.randrange(1, 40)}
    stale: list[str] = []
    for step in range(MAX_ACTIONS):
        check_cards(state, in_play)
        check_views(state, name)
        before = snapshot(state)
        check_illegal_actions_change_nothing(state, before, rng, stale)
        if deep and clones:
            check_clone_is_independent(state, before, rng)
        if deep:
            loaded = check_reload(state, before)
            if step == fork_at:
                followers = [loaded] + ([state.clone()] if clones else [])
            if step in replay_at:
                check_replay(name, players, seed, state)
        if state.is_terminal():
            break
        player = rng.choice(state.current_players())
        actions = state.legal_actions(player)
        assert actions, f"player {player} must act but has no legal action"
        action = rng.choice(actions)
        check_secret_choice_is_invisible(state, player)
        stale = [a for a in actions if a != action]
        state.apply(player, action)
        for follower in followers:
            follower.apply(player, action)
            assert snapshot(follower) == snapshot(state)
    else:
        pytest.fail(f"{name} with {players} players, seed {seed}: no end after {MAX_ACTIONS} actions")
    check_result(state)
    check_replay(name, players, seed, state)
    return state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts_keep_the_invariants_after_every_action(name):
    low, high = GAMES[name][1:]
    count = CHEAP_GAMES.get(name, CHEAP_GAMES_DEFAULT)
    finished = [playout(name, low + seed % (high - low + 1), seed, deep=False) for seed in range(count)]
    assert len({tuple(s.winners()) for s in finished}) > 1  # the random games are not all alike


# The deep checks of the secret-choice game fail on a known engine bug; they run as a plain loop (a failing
# hypothesis test would drag in hypothesis's patch writer) and move back into DEEP_GAMES once it is fixed.
KNOWN_DEEP_FAILURES = {"simultaneous"}
DEEP_GAMES = sorted(set(GAMES) - KNOWN_DEEP_FAILURES)


@pytest.mark.parametrize("name", DEEP_GAMES)
@settings(max_examples=DEEP_EXAMPLES, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate, Phase.shrink],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_saves_clones_replays_and_secrets_hold_in_random_playouts(name, data):
    low, high = GAMES[name][1:]
    players = data.draw(st.integers(low, high), label="players")
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    playout(name, players, seed, deep=True)


def test_clones_are_independent_in_secret_choice_playouts():
    for seed in range(DEEP_EXAMPLES):
        playout("simultaneous", 2 + seed % 3, seed, deep=True)


def test_saves_and_replays_hold_in_secret_choice_playouts():
    for seed in range(DEEP_EXAMPLES):
        playout("simultaneous", 2 + seed % 3, seed, deep=True, clones=False)


# ==================================================================== the same properties, pinned
def test_a_saved_state_shares_nothing_with_the_live_state():
    state = game("frog_tower").new_game(3, 1)
    loaded = reload(state)
    loaded.apply(loaded.current_players()[0], loaded.legal_actions()[0])
    assert snapshot(state) == snapshot(reload(state))
    assert state.history == []


def test_to_json_is_a_snapshot_that_later_actions_do_not_change():
    state = game("frog_tower").new_game(3, 1)
    saved = state.to_json()
    text = json.dumps(saved, sort_keys=True)
    state.apply(state.current_players()[0], state.legal_actions()[0])
    assert json.dumps(saved, sort_keys=True) == text


def test_actions_after_the_end_are_illegal_and_change_nothing():
    state = playout("hidden_hands", 2, 3, deep=False)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(0, "discard ant")
    assert snapshot(state) == before


# ==================================================================== the checks themselves can fail
def test_view_check_catches_a_view_that_shows_a_hidden_zone(monkeypatch):
    state = game("hidden_hands").new_game(2, 0)
    honest = State.view

    def leaky(self, player):
        view = honest(self, player)
        view["zones"]["deck"] = {"cards": [self.game.card_names[c] for c in self.zones[0]]}
        return view
    monkeypatch.setattr(State, "view", leaky)
    with pytest.raises(AssertionError, match="zones as seen by 0"):
        check_views(state, "hidden_hands")


def test_secret_check_catches_a_view_that_shows_a_pick(monkeypatch):
    state = game("simultaneous").new_game(3, 0)
    honest = State.view

    def leaky(self, player):
        view = honest(self, player)
        if self.pending:
            view["decision"]["picked"] = [c for c in self.pending["chosen"] if c is not None]
        return view
    monkeypatch.setattr(State, "view", leaky)
    with pytest.raises(AssertionError, match="depends on a secret choice"):
        check_secret_choice_is_invisible(state, 0)
