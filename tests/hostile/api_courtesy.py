"""The hostile suite's calls of the Python API's courtesy checks (issue 20, items 6-8).

Each call must raise a RibbitError (with a one-paragraph message) and leave the state it was given as
it was: ``refused_unchanged`` is the worker's own judge, passed in so a case's timer stays the worker's.
The cases are listed in ``tests/hostile/cases.py`` (``COURTESY``); an extra that is not installed
(PettingZoo, OpenSpiel) leaves its cases with nothing to judge.
"""

from __future__ import annotations

import math
import random
import tempfile
from pathlib import Path

from interpreter import RibbitError, load_game

from tests.hostile import cases as C

ROOT = Path(__file__).resolve().parents[2]
_GAMES: dict = {}


def game(name: str, variants=()):
    key = (name, tuple(variants))
    if key not in _GAMES:
        path = ROOT / "tests" / "definitions" / f"{name}.yaml" if name == "counters" else \
            C.DEFINITIONS / f"{name}.yaml"
        _GAMES[key] = load_game(path, variants=list(variants))
    return _GAMES[key]


class LookAlike:
    """Has a generator's methods, but is not a random.Random."""

    def randrange(self, n):
        return 0

    def getrandbits(self, k):
        return 0

    def random(self):
        return 0.0


class StrSub(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


def value(name: str):
    if name.startswith("numpy_"):  # only the PettingZoo cases use these, and PettingZoo brings NumPy
        import numpy as np

        return {"numpy_float": np.float64(1.0), "numpy_bool": np.bool_(True)}[name]
    return {"none": None, "int": 3, "text": "seed", "float": 1.5, "look_alike": LookAlike(), "minus_one": -1,
            "true": True, "text_zero": "0", "too_big": 99, "huge": 2 ** 70, "float_zero": 0.0, "fraction": 1.9,
            "list": [0], "bytes": b"0", "nan": math.nan, "inf": math.inf, "unknown": "player_9",
            "str_subclass": StrSub("player_1")}[name]


def refused(call, what: str, problems: list) -> None:
    """``call()`` must raise a RibbitError (there is no state to compare)."""
    try:
        call()
    except RibbitError:
        return
    except Exception as exc:  # noqa: BLE001 - a bare Python error is what this looks for
        problems.append(f"{what} raised {type(exc).__name__} (expected a RibbitError): {str(exc)[:300]}")
        return
    problems.append(f"{what} was accepted")


def pettingzoo_env(max_actions=None):
    try:
        from interpreter.adapters.pettingzoo import RibbitEnv
    except ImportError:
        return None
    env = RibbitEnv(game("kaeru"), 2, max_actions=max_actions or 8)
    env.reset(seed=3)
    return env


def run(spec: dict, refused_unchanged) -> list:
    problems: list = []
    what, name = spec["what"], spec["value"]
    if what == "sample_action_id_rng":
        state = game("kaeru").new_game(2, seed=1)
        refused_unchanged(state, lambda: state.sample_action_id(0, value(name)), f"sample_action_id(0, {name})",
                          problems)
    elif what == "determinised_seat":
        state = game("kaeru").new_game(2, seed=1)
        refused_unchanged(state, lambda: state.determinised(value(name), random.Random(0)),
                          f"determinised({name}, rng)", problems)
    elif what == "determinised_rng":
        state = game("kaeru").new_game(2, seed=1)
        refused_unchanged(state, lambda: state.determinised(0, value(name)), f"determinised(0, {name})", problems)
    elif what == "pettingzoo_step":
        env = pettingzoo_env()
        if env is not None:
            agent = env.agent_selection
            refused_unchanged(env.state, lambda: env.step(value(name)), f"env.step({name})", problems)
            if env.agent_selection != agent:
                problems.append(f"env.step({name}) was refused but the agent to act changed")
    elif what == "pettingzoo_agent":
        env = pettingzoo_env()
        if env is not None:
            for call in ("observe", "action_space", "observation_space", "legal_actions"):
                refused_unchanged(env.state, lambda: getattr(env, call)(value(name)), f"env.{call}({name})",
                                  problems)
    elif what == "pettingzoo_after_end":
        env = pettingzoo_env()
        if env is not None:
            rng = random.Random(name)
            while not all(env.terminations.values()):
                env.step(rng.choice(sorted(env.legal_actions(env.agent_selection))))  # fixed action ids
            if name == "step_dead_agent":
                agents = list(env.agents)
                refused_unchanged(env.state, lambda: env.step(0), "env.step(0) for a finished agent", problems)
                if env.agents != agents:
                    problems.append("a refused step for a finished agent removed agents")
            else:
                while env.agents:
                    env.step(None)
                for action in (None, 0):
                    refused_unchanged(env.state, lambda: env.step(action), f"env.step({action}) after the game",
                                      problems)
    elif what == "adapter_size":
        option = next(o for o in ("max_actions", "max_decisions", "seeds") if name.startswith(o))
        kind = name[len(option) + 1:]
        given = {"zero": 0, "negative": -1, "true": True, "float": 8.0, "text": "8", "huge": 10 ** 12}[kind]
        try:
            from interpreter.adapters.pettingzoo import RibbitEnv
        except ImportError:
            RibbitEnv = None
        if RibbitEnv is not None and option != "seeds":
            refused(lambda: RibbitEnv(game("kaeru"), 2, **{option: given}), f"RibbitEnv({option}={given!r})",
                    problems)
        try:
            from interpreter.adapters.openspiel import RibbitSpielGame
        except ImportError:
            RibbitSpielGame = None
        if RibbitSpielGame is not None:
            refused(lambda: RibbitSpielGame(game("kaeru"), 2, **{option: given}),
                    f"RibbitSpielGame({option}={given!r})", problems)
    elif what == "simulate_cap":
        from interpreter.sim import simulate

        cap = {"zero": 0, "none": None, "float": 2.5}[name]
        refused(lambda: simulate(C.DEFINITIONS / "kaeru.yaml", 2, 1, max_decisions=cap),
                f"simulate(max_decisions={cap!r})", problems)
    elif what == "scenario_number":
        scenarios = {
            "counter_huge": ("counters", {"counters": {"drops": {"players": {"1": 10 ** 18 + 1}}}}),
            "counter_negative_huge": ("counters", {"counters": {"drops": {"players": {"1": -(10 ** 19)}}}}),
            "counter_bits": ("counters", {"counters": {"drops": {"players": {"2": 2 ** 63 - 1}}}}),
            "variable_huge": ("frog_tower", {"game_variables": {"turn": 2 ** 62}}),
            "int_key": ("frog_tower", {"player_variables": {1: {"points": 1}}}),
            "float_value": ("frog_tower", {"player_variables": {"1": {"points": 1.0}}}),
        }
        stem, scenario = scenarios[name]
        refused(lambda: game(stem).new_game(2 if stem == "counters" else 3, 0, scenario=scenario),
                f"new_game(scenario={name})", problems)
    elif what == "variant_setting":
        with tempfile.TemporaryDirectory() as folder:
            sized = Path(folder) / "sized.yaml"
            sized.write_bytes(C.SIZED_VARIANT)
            setting = C.HUGE_SETTINGS[name]
            refused(lambda: load_game(C.DEFINITIONS / "frog_tower.yaml", variants=[f"{sized}:{setting}"]),
                    f"load_game(variants=['sized:{setting[:40]}'])", problems)
    else:
        problems.append(f"unknown courtesy case {what!r}")
    return problems
