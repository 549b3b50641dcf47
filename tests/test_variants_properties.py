"""Random playouts of Frog Tower under every combination of its variants, checking after every action that
cards are conserved, views hide what they must (secret passes included), and that games replay and reload.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from functools import cache

import pytest

from interpreter import State, load_game, replay

from conftest import REPO_ROOT

BASE = REPO_ROOT / "definitions" / "frog_tower.yaml"
VARIANTS = ["flower", "crayfish", "crayfish2"]
COMBINATIONS = [list(c) for n in range(1, len(VARIANTS) + 1) for c in itertools.combinations(VARIANTS, n)]
COMBINATIONS += [[f"crayfish:rule={rule}"] for rule in ("pass_right", "pass_left", "everyone_flips",
                                                        "pick_from_right")]
GAMES_PER_COMBINATION = 20
MAX_ACTIONS = 2000


@cache
def game(variants: tuple):
    return load_game(BASE, variants=list(variants))


def snapshot(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_cards(state, in_play: set) -> None:
    """Every card is in exactly one zone, where ``loc`` says, and the cards in play never change."""
    seen = []
    for index, cards in enumerate(state.zones):
        seen.extend(cards)
        assert all(state.loc[c] == index for c in cards)
    assert len(seen) == len(set(seen)) and set(seen) == in_play


def check_views(state) -> None:
    """Hidden zones show only their size to every viewer; public zones show their cards."""
    g = state.game
    for viewer in state.players + [None]:
        zones = state.view(viewer)["zones"]
        for index, cards in enumerate(state.zones):
            owner = g.zone_owner[index]
            if owner is not None and owner >= state.n:
                continue
            shown = zones[g.zone_label(index)]
            if g.zone_spec[index].visibility == "hidden":
                assert shown == {"count": len(cards)}
            else:
                assert shown == {"cards": [g.card_names[c] for c in cards]}


def check_secret_choice_is_invisible(state, player: int) -> None:
    """At a secret decision still open for others, no one else's view depends on ``player``'s choice."""
    pend = state.pending
    if not (pend and pend["secret"] and len(state.current_players()) > 1):
        return False
    others = [q for q in state.players if q != player] + [None]
    seen = set()
    for action in state.legal_actions(player):
        branch = state.clone()
        branch.apply(player, action)
        seen.add(json.dumps([branch.view(q) for q in others], sort_keys=True))
    assert len(seen) == 1, "another player's view depends on a secret choice"
    return True


def playout(variants: tuple, players: int, seed: int):
    """One random game with every check after every action; returns (final state, secret decisions seen)."""
    rng = random.Random(seed)
    state = game(variants).new_game(players, seed)
    in_play = {c for z in state.zones for c in z}
    secrets = 0
    for _ in range(MAX_ACTIONS):
        check_cards(state, in_play)
        check_views(state)
        if state.is_terminal():
            break
        player = rng.choice(state.current_players())
        secrets += check_secret_choice_is_invisible(state, player)
        state.apply(player, rng.choice(state.legal_actions(player)))
    else:
        pytest.fail(f"{variants} with {players} players, seed {seed}: no end after {MAX_ACTIONS} actions")
    winners = state.winners()
    assert winners and math.isclose(sum(state.returns()), 1.0)
    assert snapshot(replay(state.game, players, seed, state.history)) == snapshot(state)
    assert snapshot(State.from_json(state.game, json.loads(state.dumps()))) == snapshot(state)
    return state, secrets


@pytest.mark.parametrize("variants", COMBINATIONS, ids=["+".join(c) for c in COMBINATIONS])
def test_random_playouts_under_variants_conserve_cards_hide_secrets_and_replay(variants):
    results = [playout(tuple(variants), 2 + seed % 4, seed) for seed in range(GAMES_PER_COMBINATION)]
    assert len({tuple(s.winners()) for s, _ in results}) > 1  # the random games are not all alike
    if any(v.startswith("crayfish") for v in variants):
        assert sum(sum(s.game.card_names[c] == "crayfish" for c in s.zones[s.game.zones["box"].base])
                   for s, _ in results) > 0  # Crayfish cards were flipped
    if variants in (["crayfish:rule=pass_right"], ["crayfish:rule=pass_left"]):
        assert sum(secrets for _, secrets in results) > 0  # secret passes were checked


def test_crayfish_and_flower_change_the_results_of_the_same_seeds():
    plain = [playout(("flower",), 3, seed)[0].scores() for seed in range(10)]
    assert plain != [playout(("crayfish:rule=everyone_flips",), 3, seed)[0].scores() for seed in range(10)]


def test_the_secret_check_catches_a_view_that_shows_a_pass(monkeypatch):
    game_ = game(("crayfish:rule=pass_right",))
    zones = {"rule_in_force": ["Pass to the Right"], "garden(1)": ["green frog", "red frog"],
             "garden(2)": ["blue frog", "yellow frog"]}
    state = game_.new_game(3, scenario={"zones": zones, "on_top": {"pond": ["crayfish"]}})
    assert state.current_players() == [0, 1]
    honest = State.view

    def leaky(self, player):
        view = honest(self, player)
        if self.pending:
            view["decision"]["passed"] = [c for c in self.pending["chosen"] if c is not None]
        return view
    monkeypatch.setattr(State, "view", leaky)
    with pytest.raises(AssertionError, match="depends on a secret choice"):
        check_secret_choice_is_invisible(state, 0)
