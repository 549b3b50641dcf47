"""Shared fixtures and helpers for the game tests: load a definition once, build positions, read zones."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from interpreter import load_game

import private_network

REPO_ROOT = Path(__file__).resolve().parent.parent

# Tests live in folders that mirror the package (engine, compiler, games, cli, web, agents, hostile);
# a few import another test module's tables (``from test_conformance import CONFIGURATIONS``), so
# every folder is importable by module name, whichever file pytest is asked to run.
for _folder in sorted(p for p in Path(__file__).resolve().parent.iterdir() if p.is_dir() and p.name.isidentifier()):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))


def pytest_configure(config):
    config.addinivalue_line("markers", "private_network: starts what may listen beyond loopback (Ray); runs only inside "
                            "a private network namespace, where the module's runner test puts it (tests/private_network.py)")


# ---------------------------------------------------------------- running in parallel (pytest-xdist)
# `-n auto --dist loadgroup` (pyproject's addopts) sends each group of tests to one worker process, whole.
# A group is a test file, so module fixtures are built once (tests/hostile/test_hostile.py runs all its
# cases in one fixture, which must see every case of its module), except that the files that start a
# local Ray cluster form one group: two clusters at once would compete for the machine's CPUs and for
# /tmp/ray's record of the current cluster.
RAY_FILES = {"test_ray_backend.py", "test_ray_loopback.py", "test_readme_commands.py"}


def xdist_group(nodeid: str) -> str:
    """The group of a test, by its node id ("tests/cli/test_cli.py::test_x[1]"): its file, or "ray"."""
    path = nodeid.split("::")[0]
    return "ray" if Path(path).name in RAY_FILES else path


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the marks into each test's node id
def pytest_collection_modifyitems(config, items):
    """Each test's xdist group; and outside a private network namespace, a ``private_network`` test is not run
    here: its module's runner test runs it inside one (``unshare --net``), so nothing it starts can listen or
    talk beyond loopback."""
    outside = not private_network.inside()
    grouped = config.pluginmanager.hasplugin("xdist")
    for item in items:
        if outside and item.get_closest_marker("private_network"):
            item.add_marker(pytest.mark.skip(reason="run inside a private network namespace by its module's runner test"))
        if grouped:
            item.add_marker(pytest.mark.xdist_group(xdist_group(item.nodeid)))


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


# ---------------------------------------------------------------- Top Frog
# Hand-built Top Frog positions (definitions/top_frog.yaml, whose header lists its zones, variables and
# action labels).  A scenario skips setup, so a position must name what setup would have laid out: the
# builder below fills every Pond space the test does not name with an inert Frog, puts every meeple on
# the centre space, gives each player the 6 Starting Action Cards and a River of 3 inert Frogs.

TF_POND_SIZE = {2: 3, 3: 4, 4: 4, 5: 5, 6: 5}
TF_STARTING = ["Leap North", "Leap South", "Leap East", "Leap West", "Catch", "Rest"]
# Frogs with no effect while in the Pond or the River (no When Added to Pond), least used by tests first.
TF_INERT = ["Tycoon", "Duchess", "Prince", "Banker", "Maestro", "Centaur", "Goblin", "Wizard", "Witch",
            "Griffin", "Genie", "Oracle", "Telescope", "Hoverboard", "Laser", "Robot", "Satellite",
            "Rocket", "Time Machine", "Portal", "Teleporter", "Specimen", "Planet", "Mech", "Groom",
            "Bride", "Dandy", "Baron", "Butler", "Marquis", "Ballerina", "Unicorn", "Pegasus", "Fairy",
            "Leprechaun", "Mermaid"]


def tf_spaces(players):
    n = TF_POND_SIZE[players]
    return [f"r{r}c{c}" for r in range(1, n + 1) for c in range(1, n + 1)]


def tf_centre(players):
    n = TF_POND_SIZE[players]
    return f"r{(n + 1) // 2}c{(n + 1) // 2}"


@pytest.fixture(scope="session")
def top_frog():
    """The Top Frog definition, loaded once for the whole session."""
    return load_game(str(REPO_ROOT / "definitions" / "top_frog.yaml"))


@pytest.fixture(scope="session")
def tf_table(top_frog):
    """A builder of Top Frog positions: ``tf_table(players, cells={"r2c2": "Planet"}, ...)`` -> a State.

    cells: space -> card name (None: a blank space); unnamed spaces get inert Frogs.
    meeples: seat (from 1) -> space (default: all on the centre space).
    hands: seat -> card names (default: the 6 Starting Action Cards).
    zones: any other zone label -> card names, bottom to top ("stack1(1)": ["Lily Pad #1", "Planet"]).
    river: card names, left to right (the last is the next to enter the Pond; default 3 inert Frogs).
    deck: card names on top of the Pond Deck, the first named drawn first.
    display: the Hats on display (default Top Hat, Crown, Tiara).
    counters: the scenario's counters ({"gnats": {"players": {"1": 2}, "spaces": {...}, "cards": {...}}}).
    """
    def build(players=3, cells=None, meeples=None, hands=None, zones=None, river=None, deck=None,
              display=("Top Hat", "Crown", "Tiara"), counters=None, game_variables=None, seed=0, trace=False):
        cells = dict(cells or {})
        zones = dict(zones or {})
        named = set(n for n in cells.values() if n) | set(river or []) | set(deck or [])
        for names in zones.values():
            named |= set(names)
        inert = iter([f for f in TF_INERT if f not in named])
        laid = {}
        for sp in tf_spaces(players):
            if sp in cells:
                laid[f"cell({sp})"] = [cells[sp]] if cells[sp] else []
            else:
                laid[f"cell({sp})"] = [next(inert)]
        stands = {}
        for seat in range(1, players + 1):
            sp = (meeples or {}).get(seat, tf_centre(players))
            stands.setdefault(sp, []).append(f"meeple {seat}")
        for sp, names in stands.items():
            laid[f"stand({sp})"] = names
        for seat in range(1, players + 1):
            laid[f"hand({seat})"] = list((hands or {}).get(seat, TF_STARTING))
        laid["river"] = list(river) if river is not None else [next(inert) for _ in range(3)]
        laid["hat_display"] = list(display)
        laid.update(zones)
        scenario = {"zones": laid}
        if deck:
            scenario["on_top"] = {"deck": list(deck)}
        if counters:
            scenario["counters"] = counters
        if game_variables:
            scenario["game_variables"] = game_variables
        return top_frog.new_game(players, seed=seed, scenario=scenario, trace=trace)
    return build


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project folder with the shipped definitions, as the current directory, at a fixed terminal width."""
    shutil.copytree(REPO_ROOT / "definitions", tmp_path / "definitions")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "120")
    return tmp_path
