"""Bots that play any game through the public state API.

Every agent has ``act(state, seat) -> action``.  The random bot only reads the legal actions (and
also has the older ``choose(view, legal_actions)``); the searching bots (``greedy``, ``mcts``,
``ismcts``) read the game only through ``state.determinised(seat, rng)``, a copy in which whatever
the seat cannot see is dealt again at random, so they never use hidden cards or the real future.
``make_agent(name, seed, **params)`` builds one by name, ``parse_bot_specs`` reads the command
line's ``--bot`` options, and ``build_agents`` gives each seat of a game its bot, seeded from the
game's seed and the seat (and the bot's own ``seed`` parameter, when given).
"""

from __future__ import annotations

import hashlib
import re

from ..errors import not_text_problem, quote
from .greedy import GreedyAgent
from .params import BotSpecError, Param, read_seed
from .random_agent import RandomAgent
from .search import ISMCTSAgent, MCTSAgent

AGENTS = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
    "ismcts": ISMCTSAgent,
}


class UnknownAgentError(BotSpecError):
    """A bot name that is not in the registry."""


def make_agent(name: str, seed: int | str | None = None, **params):
    """A new agent of the registered kind ``name``, with its own random seed and parameters.

    ``name`` must be exactly a str and ``seed`` an int, a str or None (no subclasses: a
    look-alike could pose as a registered name or seed the bot differently each time).
    Parameters are those of the bot's ``PARAMS`` (``make_agent("ismcts", 3, iterations=400)``);
    an unknown one or a value out of range raises BotSpecError.
    """
    known = ", ".join(sorted(AGENTS))
    if type(name) is not str or name not in AGENTS:
        shown = repr(name) if type(name) is str else f"a {type(name).__name__}"
        raise UnknownAgentError(f"unknown bot {shown}; the bots are: {known}")
    if seed is not None and type(seed) not in (int, str):
        raise UnknownAgentError(f"a bot's seed must be an int, a str or None, not a {type(seed).__name__}")
    if type(seed) is str and not_text_problem(seed):
        raise UnknownAgentError(f"a bot's seed text cannot be used: {not_text_problem(seed)}")
    kind = AGENTS[name]
    accepted = getattr(kind, "PARAMS", {})
    checked = {}
    for key, value in params.items():
        if key not in accepted:
            raise BotSpecError(f"the {name} bot has no parameter {quote(key)}; it takes "
                               f"{describe_params(kind)}")
        checked[key] = accepted[key].check(key, value)
    return kind(seed, **checked)


def describe_params(kind) -> str:
    """The parameters a bot class takes, for messages and help."""
    names = sorted(getattr(kind, "PARAMS", {})) + ["seed"]
    return ", ".join(names)


SPEC = re.compile(r"(?:(?P<seat>[0-9]+)=)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?::(?P<params>.*))?\Z", re.DOTALL)


def _unreadable_spec(text) -> str | None:
    """Why a bot spec cannot even be read (not a text, too long, not Unicode: a seed text is hashed as UTF-8)."""
    if type(text) is not str or len(text) > 1000:
        return "this is not a bot"
    return not_text_problem(text)


def parse_bot_spec(text: str) -> tuple:
    """``[SEAT=]NAME[:key=value,...]`` -> (seat number as written (1-based) or None, name, params).

    Values are checked against the bot's parameters; ``seed`` is an int when it reads as one, else text.
    Raises BotSpecError naming the option.
    """
    def fail(why: str):
        raise BotSpecError(f"--bot {quote(text)}: {why}. A bot is written NAME or SEAT=NAME, optionally followed "
                           f"by :key=value,... (for example --bot 2=ismcts:iterations=400,seed=3); the bots are "
                           f"{', '.join(sorted(AGENTS))}")

    unreadable = _unreadable_spec(text)
    if unreadable:
        fail(unreadable)
    match = SPEC.match(text)
    if match is None:
        fail("this is not a bot")
    name = match["name"]
    if name not in AGENTS:
        fail(f"there is no bot {quote(name)}")
    kind = AGENTS[name]
    accepted = getattr(kind, "PARAMS", {})
    params = {}
    if match["params"] is not None:
        for item in match["params"].split(","):
            key, equals, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not equals or not key or not value:
                fail(f"{quote(item)} is not key=value")
            if key in params:
                fail(f"{quote(key)} is given twice")
            if key == "seed":
                params[key] = read_seed(value)
            elif key in accepted:
                try:
                    params[key] = accepted[key].read(key, value)
                except BotSpecError as exc:
                    fail(str(exc))
            else:
                fail(f"the {name} bot has no parameter {quote(key)} (it takes {describe_params(kind)})")
    seat = None if match["seat"] is None else int(match["seat"])
    return seat, name, params


def parse_bot_specs(texts, players: int) -> dict:
    """The ``--bot`` options of a command -> ``{player: (name, params)}`` for every player 0..players-1.

    ``texts`` are the options as written: ``NAME[:k=v,...]`` for every seat not otherwise given (at
    most one such), ``SEAT=NAME[:k=v,...]`` for one seat (seats 1-based, as on the command line; the
    keys of the result are 0-based player numbers, as in the engine).  Seats given no bot play
    ``random``.  Raises BotSpecError (one paragraph naming the option) for anything wrong.
    """
    everyone, seats = None, {}
    for text in texts or ():
        seat, name, params = parse_bot_spec(text)
        if seat is None:
            if everyone is not None:
                raise BotSpecError(f"--bot {quote(text)}: a bot for every other seat is already given "
                                   f"({everyone[0]}); give one bot without a seat, and SEAT=NAME for the others")
            everyone = (name, params)
        else:
            if not 1 <= seat <= players:
                raise BotSpecError(f"--bot {quote(text)}: there is no seat {seat} in a {players}-player game "
                                   f"(seats are 1 to {players})")
            if seat - 1 in seats:
                raise BotSpecError(f"--bot {quote(text)}: seat {seat} is given a bot twice")
            seats[seat - 1] = (name, params)
    default = everyone or ("random", {})
    return {p: seats.get(p, default) for p in range(players)}


def describe_spec(name: str, params: dict) -> str:
    """A bot as the command line writes it: ``ismcts:iterations=400,seed=3``."""
    return name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


def seat_seed(game_seed: int, seat: int, own=None) -> int:
    """A bot's seed from the game's seed, its seat and its own ``seed`` parameter (the same on every machine)."""
    text = f"ribbit-bot/{game_seed}/{seat}" + ("" if own is None else f"/{type(own).__name__}:{own}")
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def build_agents(specs: dict, game_seed: int, seats=None) -> dict:
    """``{player: agent}`` for ``specs`` (from :func:`parse_bot_specs`) in the game dealt with ``game_seed``.

    Each bot is seeded by :func:`seat_seed`, so a game is reproducible from its seed and the bots'.
    ``seats`` limits which players get a bot (the others are people).
    """
    agents = {}
    for seat, (name, params) in specs.items():
        if seats is not None and seat not in seats:
            continue
        params = dict(params)
        own = params.pop("seed", None)
        agents[seat] = make_agent(name, seat_seed(game_seed, seat, own), **params)
    return agents


__all__ = ["AGENTS", "BotSpecError", "GreedyAgent", "ISMCTSAgent", "MCTSAgent", "Param", "RandomAgent",
           "UnknownAgentError", "build_agents", "describe_spec", "make_agent", "parse_bot_spec",
           "parse_bot_specs", "seat_seed"]
