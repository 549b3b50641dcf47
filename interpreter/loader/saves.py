"""Loading a save: checked by its JSON Schema, its game replayed from its own seed and actions, and compared.

A save is never trusted (a file anyone may have written).  The loader hands :func:`load_save` to each
game it builds (``game.read_save``), so that ``State.from_json`` loads a save without the core
importing the loader.
"""

from __future__ import annotations

import itertools

from ..chance import CHANCE_PLAYER
from ..errors import RibbitError, SaveFileError, quote
from ..rng import MAX_SEED_BITS
from ..runtime.limits import MAX_ACTION_TEXT
from ..saves import (DECISION_PARTS, MAX_LAYOUT_TEXT, MAX_SAVED_ACTIONS, OPTIONAL_SAVE_KEYS, SAVE_FORMAT, SAVE_KEYS,
                     SAVED_DECISION_KEYS, fingerprint)
from .data_schemas import SAVE_SCHEMA, explain, first_error
from .source import format_path

_quote = quote


def load_save(game, data):
    """Load a save made by :meth:`to_json`: the game replayed from the save's own seed and actions.

    A save is never trusted: it is checked against its JSON Schema (``schemas/save.schema.json``:
    format, parts, kinds, sizes), then against the game (its definition, player count, seed), the
    game is rebuilt from its players, seed, scenario and history, and every part the save shows
    (zones, variables, decision, result, RNG, log) must equal that replay, or SaveFileError says
    which part differs.  The returned state is the replay, so it shares nothing with ``data``.
    """
    error = first_error(SAVE_SCHEMA, data)
    if error is not None:
        raise SaveFileError(_envelope_message(error, game))
    if not _same(data["fingerprint"], fingerprint(game)):
        raise SaveFileError(f"this save was made with a different definition of {_quote(data['game'])} "
                            "(the rules or the variants changed since)")
    # Another layout (the same rules compiled by another version of Ribbit) is no reason to refuse:
    # nothing in a save points into the compiled rules, and the replay below rebuilds the game.
    players, seed = data["players"], data["seed"]
    if not game.min_players <= players <= game.max_players:
        raise SaveFileError(_PARTS["players"](players, game))
    if seed.bit_length() > MAX_SEED_BITS:
        raise SaveFileError(_PARTS["seed"](seed, game))
    _check_chance_outcomes(data)
    state = _replayed(game, data)
    _check_same(state, data)
    return state


# How a save that breaks its schema is told, per part (the part's sentence names what it should be).
_PARTS = {
    "format": lambda form, game: (
        f"this save is in format {_quote(form)}, which this version of Ribbit cannot load (it reads {SAVE_FORMAT!r})"
        if type(form) is str and form.startswith("ribbit-state/") else
        f"not a Ribbit save file (expected format {SAVE_FORMAT!r})"),
    "layout": lambda value, game: f"the save's layout is damaged (expected a text of at most {MAX_LAYOUT_TEXT} "
                                  "characters)",
    "players": lambda value, game: f"the save's player count {_quote(value)} is not a whole number from "
                                   f"{game.min_players} to {game.max_players}",
    "seed": lambda value, game: f"the save's seed {_quote(value)} is not a whole number of at most {MAX_SEED_BITS} bits",
    "log": lambda value, game: "the save's log is damaged (expected a list or null)",
    "history": lambda value, game: f"the save's history is not a list of at most {MAX_SAVED_ACTIONS} actions",
    "pending": lambda value, game: "the saved decision is damaged (expected null or the keys "
                                   + ", ".join(SAVED_DECISION_KEYS) + ")",
}
def _envelope_message(error, game) -> str:
    """The sentence for a save that breaks its schema (``error``: the first violation)."""
    path = list(error.absolute_path)
    if not path:
        if error.validator == "required":
            missing = next(key for key in SAVE_KEYS if key not in error.instance)
            return _PARTS["format"](None, game) if missing == "format" else \
                f"the save file is incomplete: it has no {missing!r}"
        if error.validator == "additionalProperties":
            extra = [_quote(k) for k in itertools.islice(
                (k for k in error.instance if k not in SAVE_KEYS and k not in OPTIONAL_SAVE_KEYS), 3)]
            return f"the save file has parts Ribbit does not write: {', '.join(extra)}"
        return _PARTS["format"](None, game)
    part = path[0]
    if part == "history" and len(path) > 1:
        return _not_an_entry(path[1] + 1)
    if part in _PARTS:
        return _PARTS[part](error.instance if len(path) == 1 else None, game)
    return f"the save's part {format_path(path)} is damaged: {explain(error)}"


def _not_an_entry(number: int) -> str:
    return (f"action {number} of the save's history is not [player number, action text] "
            f"(with at most {MAX_ACTION_TEXT} characters of text)")


def _check_chance_outcomes(data) -> None:
    """A history entry whose second item is a number is a chance outcome: player -1, and only in chance mode
    (a save with a ``chance`` part, docs/chance.md); the schema let each through as a number of at most 64 bits."""
    chance = "chance" in data
    for number, (player, action) in enumerate(data["history"], 1):
        if chance and player == CHANCE_PLAYER and type(action) is not int:
            raise SaveFileError(f"entry {number} of the save's history is a chance outcome that is not a whole "
                                "number of at most 64 bits")
        if type(action) is int and (not chance or player != CHANCE_PLAYER):
            raise SaveFileError(_not_an_entry(number) + (", nor a chance outcome [-1, outcome]" if chance else ""))


def _replayed(game, data):
    """The game started again from the save's players, seed and scenario, and its history played; else why not."""
    history, chance = data["history"], "chance" in data  # chance mode: [-1, outcome] entries are chance outcomes
    try:
        state = game.new_game(data["players"], data["seed"], data["log"] is not None, data["scenario"],  # a copy
                              chance=chance)
    except RibbitError as exc:
        raise SaveFileError(f"the save's game cannot be started again from its seed and scenario: {exc}") from None
    for number, (player, action) in enumerate(history, 1):
        try:
            if type(action) is int:  # [-1, outcome] (checked above)
                state.apply_chance(action)
            else:
                state.apply(player, action)
        except RibbitError as exc:
            raise SaveFileError(f"action {number} of the save's history (player {player}, {_quote(action)}) "
                                f"cannot be played: {exc}") from None
    return state


def _check_same(state, data: dict) -> None:
    """Refuse a save whose shown parts differ from ``state``, the replay of its own seed and actions."""
    game, real = state.game, state.to_json()
    if not _same(data["game"], real["game"]):
        _differs("the game's name")
    zones = data["zones"]
    if len(zones) != game.zone_count:
        raise SaveFileError(f"the zones do not match the definition (it has {game.zone_count} zones)")
    for index, cards in enumerate(real["zones"]):
        if not _same(zones[index], cards):
            _differs(f"zone {game.zone_label(index)!r}")
    _check_variables(data, real)
    if not _same(data["rng"], real["rng"]):
        _differs("the state of the random number generator")
    _check_pending(data["pending"], real["pending"])
    for key, what in (("over", "whether the game is over"), ("forced_winners", "the list of declared winners"),
                      ("log", "the log"), ("log_seen", "what each player read of the log"), ("counters", "the counters")):
        if not _same(data[key], real[key]):
            _differs(what)
    if not _same(data.get("chance"), real.get("chance")):
        _differs("which positions of which zones are not decided yet (chance mode)")
    if not _same(data.get("shown"), real.get("shown")):
        _differs("which cards are shown to which players")
    if "public" in data and not _same(data["public"], real.get("public", [])):  # absent: a save from before
        _differs("which cards are public in the zones hiding them")


def _differs(what: str):
    raise SaveFileError(f"this save does not match its own game: {what} differs from the replay of the save's "
                        "own seed and actions")


def _check_variables(data: dict, real: dict) -> None:
    """The saved game and player variables: the definition's names, each value the replay's."""
    for key, what in (("gv", "game variable"), ("pv", "player variable")):
        saved = data[key]
        if not _same_keys(saved, real[key]):
            raise SaveFileError(f"the {what}s do not match the definition "
                                f"(expected {', '.join(map(repr, real[key])) or 'none'})")
        for name, value in real[key].items():
            if not _same(saved[name], value):
                seats = _seats_differing(saved[name], value) if key == "pv" else []
                _differs(f"{what} {name!r}" + (f" of seat {seats[0] + 1}" if len(seats) == 1 else ""))


def _seats_differing(saved, values: list) -> list:
    if type(saved) is not list or len(saved) != len(values):
        return list(range(len(values)))
    return [i for i, v in enumerate(values) if not _same(saved[i], v)]


def _check_pending(saved, pending) -> None:
    """The saved decision: none where the replay waits for none, else each part the replay's."""
    if pending is None or saved is None:
        if saved is not pending:
            _differs("whether a decision is pending")
        return
    for key in SAVED_DECISION_KEYS:
        if not _same(saved[key], pending[key]):
            _differs(DECISION_PARTS[key])


def _same(saved, real) -> bool:
    """``saved == real`` for plain data, with exactly the same types all the way down.

    The cost is bounded by ``real`` (the replay) however large ``saved`` is, and an object
    that claims to equal everything cannot pass for data.
    """
    kind = type(real)
    if type(saved) is not kind:
        return False
    if kind is list:
        return len(saved) == len(real) and all(map(_same, saved, real))
    if kind is dict:
        return _same_keys(saved, real) and all(_same(saved[k], v) for k, v in real.items())
    return saved == real


def _same_keys(saved, real: dict) -> bool:
    return type(saved) is dict and len(saved) == len(real) and all(type(k) is str for k in saved) \
        and all(k in saved for k in real)
