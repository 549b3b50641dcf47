"""Public cards change what each audience sees, never what happens (docs/dsl.md, "Public reveals").

Every shipped game and variant setting, at its fewest and most players, and the Go-Fish-like test game are
played from a seed by the same random choices twice: with the rule (a card everyone watched go into a zone
hiding it stays public there) and with an engine that never keeps a card public.  The histories, the omniscient
narration, the zones and the scores are the same; only what the views list differs.
"""

from __future__ import annotations

import random

import pytest

from conftest import REPO_ROOT
from interpreter import State, load_game
from interpreter import trace as TR
from test_conformance import CONFIGURATIONS, shipped_game

FISH = REPO_ROOT / "tests" / "definitions" / "public_reveals.yaml"


class Forgetful(set):
    """A State.public that never keeps a card: the engine without the rule."""

    def add(self, card):
        pass

    def update(self, *cards):
        pass


def played(game, players, seed):
    moves = random.Random(seed)
    state = game.new_game(players, seed, trace=True)  # traced: the Forgetful set is put in before setup runs
    public = 0
    for _ in range(3000):
        if state.is_terminal():
            break
        public = max(public, len(state.public))
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
    return state, public


def forgetting(monkeypatch):
    start, clone = TR.start, State.clone

    def forgetful_start(s):
        s.public = Forgetful()
        start(s)

    def forgetful_clone(s):
        c = clone(s)
        c.public = Forgetful()
        return c
    monkeypatch.setattr(TR, "start", forgetful_start)
    monkeypatch.setattr(State, "clone", forgetful_clone)


GAMES = [(stem, variants) for stem, variants in CONFIGURATIONS if not variants] + [("public_reveals", ())]


@pytest.mark.parametrize("stem, variants", GAMES, ids=[stem for stem, _ in GAMES])
def test_the_same_seed_and_choices_play_the_same_game_with_and_without_public_cards(monkeypatch, stem, variants):
    game = load_game(FISH) if stem == "public_reveals" else shipped_game(stem, variants)
    seeds = range(1 if stem == "top_frog" else 3)  # a game of Top Frog is long
    runs = [(players, seed) for players in sorted({game.min_players, game.max_players}) for seed in seeds]
    with_rule = [played(game, players, seed) for players, seed in runs]
    forgetting(monkeypatch)
    without = [played(game, players, seed) for players, seed in runs]
    for (state, _), (other, public) in zip(with_rule, without):
        assert public == 0
        assert state.history == other.history and state.log == other.log and state.zones == other.zones
        assert state.is_terminal() == other.is_terminal()
        if state.is_terminal():
            assert state.scores() == other.scores() and state.winners() == other.winners()
    if stem in ("top_frog", "public_reveals"):
        assert any(public for _, public in with_rule), "the rule never made a card public: nothing was compared"
