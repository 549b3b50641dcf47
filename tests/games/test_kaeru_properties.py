"""Kaeru under random play: Kaeru's own invariants after every action, for the game and each variant.

Cards are conserved (40 element cards, 5 goals, 6 frogs, each in exactly one
zone), the face-down zones never reach a view, an empty lily always shows its
prey, the game ends exactly when a stack is empty, players alternate, and the
score is the rulebook's (computed here independently).  The invariants every
game keeps (views, saves, clones, replays) are checked by test_conformance.py
for the game and each variant alone, and here for both variants together.
"""

from __future__ import annotations

import json
from functools import cache, partial

import pytest

from conftest import REPO_ROOT
from interpreter import load_game
from invariants import ALL_CHECKS, random_playout

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


def check_players_alternate(state) -> None:
    """Player 1 moves first, then the players take turns."""
    if not state.is_terminal():
        assert state.current_players() == [len(state.history) % 2]


def random_game(variant: str, seed: int, checks=()):
    """A random game with Kaeru's own checks after every action (and ``checks`` besides)."""
    own = (partial(check_position, variant=variant), check_players_alternate)
    return random_playout(game(variant), 2, seed, own + tuple(checks), max_actions=1000)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_games_keep_every_invariant_and_score_by_the_rulebook(variant):
    for seed in range(GAMES):
        state = random_game(variant, seed)
        assert state.scores() == [rulebook_score(state, 0), rulebook_score(state, 1)]
        best = max(state.scores())
        assert state.winners() == [p for p in (0, 1) if state.scores()[p] == best]


def test_random_games_with_both_variants_keep_the_invariants_every_game_keeps():
    """Each variant alone is in the conformance test; together they get the same checks here."""
    for seed in range(6):
        random_game("both", seed, ALL_CHECKS)


def test_frightened_prey_games_do_hide_prey_under_frogs():
    """The variant really differs: some positions have a frog-occupied lily with no prey showing."""
    hidden = []

    def count_hidden_prey(state):
        hidden.extend(sp for sp in LILIES if not names(state, f"prey({sp})") and names(state, f"stack({sp})"))
    for seed in range(5):
        random_playout(game("frightened_prey"), 2, seed, checks=(count_hidden_prey,))
    assert hidden
