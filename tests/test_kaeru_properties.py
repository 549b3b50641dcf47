"""Kaeru under random play: invariants after every action, for the game and each variant.

Cards are conserved (40 element cards, 5 goals, 6 frogs, each in exactly one
zone), face-down cards never reach a view, an empty lily always shows its prey,
the game ends exactly when a stack is empty, the score is the rulebook's
(computed here independently), and a game replays bit for bit from its seed
and actions.
"""

from __future__ import annotations

import json
import random
from functools import cache

import pytest

from conftest import REPO_ROOT
from interpreter import load_game, replay

KAERU = REPO_ROOT / "definitions" / "kaeru.yaml"
VARIANTS = {"standard": [], "frightened_prey": ["frightened_prey"], "unknown_tastes": ["unknown_tastes"],
            "both": ["frightened_prey", "unknown_tastes"]}
LILIES = ["l1", "l2", "l3", "l4", "l5"]
HIDDEN = {"deck", "goal_deck", "out_of_game"} | {f"stack({sp})" for sp in LILIES}
GAMES = 40  # per variant; each action is checked, so this is a few thousand positions


@cache
def game(variant: str):
    return load_game(KAERU, variants=VARIANTS[variant])


@cache
def label_index(g) -> dict:
    return {g.zone_label(i): i for i in range(g.zone_count)}


def names(state, label) -> list[str]:
    return [state.game.card_names[c] for c in state.zones[label_index(state.game)[label]]]


def is_frog(name: str) -> bool:
    return "frog" in name


def favourite_points(panel: str) -> int:
    return {"whole": 4, "half": 3, "quarter": 2}[panel]


def common_points(panel: str) -> int:
    return {"whole": 3, "half": 2, "quarter": 1}[panel]


def rulebook_score(state, seat: int) -> int:
    """Ruling 5, written out independently of the definition."""
    g = state.game
    elements, panel = g.properties["elements"][0], g.properties["panel"][0]
    mine = g.properties["element"][0][state.zones[label_index(g)[f"goal({seat + 1})"]][0]]
    common = g.properties["element"][0][state.zones[label_index(g)["common_goal"]][0]]
    total = 0
    for card in state.zones[label_index(g)[f"eaten({seat + 1})"]]:
        if mine in elements[card]:
            total += favourite_points(panel[card])
        elif common in elements[card]:
            total += common_points(panel[card])
    return total


def check_position(state, variant: str) -> None:
    g = state.game
    frightened, unknown = ("frightened_prey" in VARIANTS[variant]), ("unknown_tastes" in VARIANTS[variant])
    # Conservation: every card in exactly one zone, none ever leaves the game.
    seen = [c for zone in state.zones for c in zone]
    assert sorted(seen) == list(range(len(g.card_names)))
    element_count = sum(len(names(state, f"{z}({sp})")) for z in ("prey", "stack") for sp in LILIES) \
        + len(names(state, "eaten(1)")) + len(names(state, "eaten(2)"))
    assert element_count == 40
    frogs = names(state, "gap") + [f for sp in LILIES for f in names(state, f"lily({sp})")]
    assert len(frogs) == 6 and all(is_frog(f) for f in frogs)
    # A lily with no frog on it always shows its prey (in the standard game every lily does).
    for sp in LILIES:
        if not state.is_terminal() and (not frightened or not names(state, f"lily({sp})")):
            assert len(names(state, f"prey({sp})")) == 1, sp
    # The game ends exactly when a stack is empty.
    empty = [sp for sp in LILIES if not names(state, f"prey({sp})") and not names(state, f"stack({sp})")]
    assert state.is_terminal() == bool(empty)
    # Views: face-down cards appear only as counts; with Unknown tastes the other goal is hidden.
    for seat in (0, 1, None):
        view = state.view(seat)
        for label in HIDDEN:
            assert set(view["zones"][label]) == {"count"}, label
        if unknown:
            for other in (0, 1):
                if other != seat:
                    goal = names(state, f"goal({other + 1})")[0]
                    assert view["zones"][f"goal({other + 1})"] == {"count": 1}
                    assert goal not in json.dumps(view)


def random_game(variant: str, seed: int):
    state = game(variant).new_game(2, seed=seed)
    rng = random.Random(seed)
    check_position(state, variant)
    while not state.is_terminal():
        assert len(state.history) < 1000, "the game should have ended"
        seat = state.current_players()[0]
        assert seat == len(state.history) % 2  # players alternate, player 1 first
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.randrange(len(actions))])
        check_position(state, variant)
    return state


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_games_keep_every_invariant_and_score_by_the_rulebook(variant):
    for seed in range(GAMES):
        state = random_game(variant, seed)
        assert state.scores() == [rulebook_score(state, 0), rulebook_score(state, 1)]
        best = max(state.scores())
        assert state.winners() == [p for p in (0, 1) if state.scores()[p] == best]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_random_game_replays_bit_for_bit_from_its_seed_and_actions(variant):
    for seed in (100, 101, 102):
        state = random_game(variant, seed)
        again = replay(game(variant), 2, seed, state.history)
        assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)
        assert again.log == state.log


def test_frightened_prey_games_do_hide_prey_under_frogs():
    """The variant really differs: some positions have a frog-occupied lily with no prey showing."""
    hidden = 0
    for seed in range(5):
        state = game("frightened_prey").new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_players()[0]
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.randrange(len(actions))])
            hidden += sum(1 for sp in LILIES if not names(state, f"prey({sp})") and names(state, f"stack({sp})"))
    assert hidden > 0
