"""Loading a save: its envelope checked, its game replayed from its own seed and actions, and compared.

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

_quote = quote


def load_save(game, data):
    """Load a save made by :meth:`to_json`: the game replayed from the save's own seed and actions.

    A save is never trusted: its envelope is checked (format, definition, types, sizes), the
    game is rebuilt from its players, seed, scenario and history, and every part the save
    shows (zones, variables, decision, result, RNG, log) must equal that replay, or
    SaveFileError says which part differs.  The returned state is the replay, so it shares
    nothing with ``data``.
    """
    form = data.get("format") if type(data) is dict else None
    if not _same(form, SAVE_FORMAT):
        if type(form) is str and form.startswith("ribbit-state/"):
            raise SaveFileError(f"this save is in format {_quote(form)}, which this version of Ribbit cannot load "
                                f"(it reads {SAVE_FORMAT!r})")
        raise SaveFileError(f"not a Ribbit save file (expected format {SAVE_FORMAT!r})")
    if not _same(data.get("fingerprint"), fingerprint(game)):
        raise SaveFileError(f"this save was made with a different definition of {_quote(data.get('game'))} "
                            "(the rules or the variants changed since)")
    for key in SAVE_KEYS:
        if key not in data:
            raise SaveFileError(f"the save file is incomplete: it has no {key!r}")
    optional = sum(key in data for key in OPTIONAL_SAVE_KEYS)
    if len(data) != len(SAVE_KEYS) + optional or not all(type(k) is str for k in data):
        extra = [_quote(k) for k in itertools.islice(data, len(SAVE_KEYS) + optional + 3)
                 if type(k) is not str or (k not in SAVE_KEYS and k not in OPTIONAL_SAVE_KEYS)][:3]
        raise SaveFileError(f"the save file has parts Ribbit does not write: {', '.join(extra)}")
    if "layout" in data and (type(data["layout"]) is not str or len(data["layout"]) > MAX_LAYOUT_TEXT):
        raise SaveFileError(f"the save's layout is damaged (expected a text of at most {MAX_LAYOUT_TEXT} "
                            "characters)")
    # Another layout (the same rules compiled by another version of Ribbit) is no reason to refuse:
    # nothing in a save points into the compiled rules, and the replay below rebuilds the game.
    players, seed, history, log = data["players"], data["seed"], data["history"], data["log"]
    if type(players) is not int or not game.min_players <= players <= game.max_players:
        raise SaveFileError(f"the save's player count {_quote(players)} is not a whole number from "
                            f"{game.min_players} to {game.max_players}")
    if type(seed) is not int or seed.bit_length() > MAX_SEED_BITS:
        raise SaveFileError(f"the save's seed {_quote(seed)} is not a whole number of at most {MAX_SEED_BITS} bits")
    if log is not None and type(log) is not list:
        raise SaveFileError("the save's log is damaged (expected a list or null)")
    if type(history) is not list or len(history) > MAX_SAVED_ACTIONS:
        raise SaveFileError(f"the save's history is not a list of at most {MAX_SAVED_ACTIONS} actions")
    chance = "chance" in data  # chance mode (docs/chance.md): [-1, outcome] entries are chance outcomes
    if chance and (type(data["chance"]) is not dict or list(data["chance"]) != ["undecided"]):
        raise SaveFileError("the save's chance part is damaged (expected {\"undecided\": [...]})")
    for number, entry in enumerate(history, 1):
        if chance and type(entry) is list and len(entry) == 2 and type(entry[0]) is int and entry[0] == CHANCE_PLAYER:
            if type(entry[1]) is not int or entry[1].bit_length() > 64:
                raise SaveFileError(f"entry {number} of the save's history is a chance outcome that is not a "
                                    "whole number of at most 64 bits")
            continue
        if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not int or type(entry[1]) is not str \
                or len(entry[1]) > MAX_ACTION_TEXT:
            raise SaveFileError(f"action {number} of the save's history is not [player number, action text] "
                                f"(with at most {MAX_ACTION_TEXT} characters of text)")
    try:
        state = game.new_game(players, seed, log is not None, data["scenario"], chance=chance)  # copies the scenario
    except RibbitError as exc:
        raise SaveFileError(f"the save's game cannot be started again from its seed and scenario: {exc}") from None
    for number, (player, action) in enumerate(history, 1):
        try:
            if chance and player == CHANCE_PLAYER:
                state.apply_chance(action)
                continue
            state.apply(player, action)
        except RibbitError as exc:
            raise SaveFileError(f"action {number} of the save's history (player {player}, {_quote(action)}) "
                                f"cannot be played: {exc}") from None
    _check_same(state, data)
    return state


def _check_same(state, data: dict) -> None:
    """Refuse a save whose shown parts differ from ``state``, the replay of its own seed and actions."""
    game, real = state.game, state.to_json()

    def differs(what: str):
        raise SaveFileError(f"this save does not match its own game: {what} differs from the replay of the save's "
                            "own seed and actions")

    if not _same(data["game"], real["game"]):
        differs("the game's name")
    zones = data["zones"]
    if type(zones) is not list or len(zones) != game.zone_count:
        raise SaveFileError(f"the zones do not match the definition (it has {game.zone_count} zones)")
    for index, cards in enumerate(real["zones"]):
        if not _same(zones[index], cards):
            differs(f"zone {game.zone_label(index)!r}")
    for key, what in (("gv", "game variable"), ("pv", "player variable")):
        saved = data[key]
        if not _same_keys(saved, real[key]):
            raise SaveFileError(f"the {what}s do not match the definition "
                                f"(expected {', '.join(map(repr, real[key])) or 'none'})")
        for name, value in real[key].items():
            if not _same(saved[name], value):
                seats = [i for i, v in enumerate(value) if type(saved[name]) is not list
                         or len(saved[name]) != len(value) or not _same(saved[name][i], v)] if key == "pv" else []
                differs(f"{what} {name!r}" + (f" of seat {seats[0] + 1}" if len(seats) == 1 else ""))
    if not _same(data["rng"], real["rng"]):
        differs("the state of the random number generator")
    saved, pending = data["pending"], real["pending"]
    if pending is None or saved is None:
        if saved is not pending:
            differs("whether a decision is pending")
    else:
        if not _same_keys(saved, pending):
            raise SaveFileError("the saved decision is damaged (expected the keys " + ", ".join(SAVED_DECISION_KEYS) + ")")
        for key in SAVED_DECISION_KEYS:
            if not _same(saved[key], pending[key]):
                differs(DECISION_PARTS[key])
    for key, what in (("over", "whether the game is over"), ("forced_winners", "the list of declared winners"),
                      ("log", "the log"), ("log_seen", "what each player read of the log"), ("counters", "the counters")):
        if not _same(data[key], real[key]):
            differs(what)
    if not _same(data.get("chance"), real.get("chance")):
        differs("which positions of which zones are not decided yet (chance mode)")
    if not _same(data.get("shown"), real.get("shown")):
        differs("which cards are shown to which players")


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
