"""Shared fixtures and helpers for the game tests: load a definition once, build positions, read zones."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_game

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def frog_tower():
    """The Frog Tower definition, loaded once for the whole session (loading compiles every rule)."""
    return load_game(str(REPO_ROOT / "definitions" / "frog_tower.yaml"))


def start(game, players, pond=None, zones=None, game_variables=None, player_variables=None, seed=0,
          only_these=False):
    """A game from a hand-built position: ``pond`` is flipped first to last, ``zones`` are exact (bottom to top).

    With ``only_these`` the Pond holds nothing but ``pond`` (the rest of the deck leaves the game), so a
    test can run the Pond dry.  Player variables are keyed by 0-based seat, like ``state.apply``.
    """
    scenario = {"zones": dict(zones or {}), "on_top": {"pond": list(pond or [])}}
    if only_these:
        scenario["zones"]["pond"] = []
    if game_variables:
        scenario["game_variables"] = dict(game_variables)
    if player_variables:
        scenario["player_variables"] = {str(p + 1): dict(v) for p, v in player_variables.items()}
    return game.new_game(players, seed=seed, scenario=scenario)


def play(state, moves):
    """Apply ``[(seat, action), ...]`` in order (seats are 0-based)."""
    for seat, action in moves:
        state.apply(seat, action)
    return state


def zone(state, label):
    """Card names in a zone by its label (``"holding"``, ``"garden(2)"``), bottom to top."""
    game = state.game
    for index in range(game.zone_count):
        if game.zone_label(index) == label:
            return [game.card_names[c] for c in state.zones[index]]
    raise KeyError(label)


def garden(state, seat):
    """Card names in the Garden of 0-based ``seat``, in the order they arrived."""
    return zone(state, f"garden({seat + 1})")


def towers(state, seat):
    """Card names in the completed towers of 0-based ``seat`` (each tower: its leaf, then its four frogs)."""
    return zone(state, f"towers({seat + 1})")


def holding(state):
    return zone(state, "holding")


def points(state):
    return list(state.pv["points"])


def card_type(game, name):
    """The type icon of the card called ``name``."""
    table, _kind = game.properties["type"]
    return table[game.card_names.index(name)]
