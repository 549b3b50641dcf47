"""A state as plain JSON data (a save): what rebuilds it and what it shows.

Loading a save replays it and compares, which is the loader's work (:mod:`interpreter.loader.saves`,
handed to the game at build time); this module only writes one, and names the format both share.
"""

from __future__ import annotations

import hashlib

from . import chance as CHANCE
from .runtime.chance import raw


SAVE_FORMAT = "ribbit-state/2"
MAX_LAYOUT_TEXT = 64  # characters of a layout hash in a save (see Game.layout_hash)
# The parts of a save, in the order to_json writes them.
SAVE_KEYS = ("format", "game", "fingerprint", "players", "seed", "zones", "gv", "pv", "rng", "pending", "over",
             "forced_winners", "scenario", "history", "log", "log_seen",
             "counters")
# Parts a save may lack: "shown" lists [card, [players]] for the cards a 'show' made visible to players
# (written only when it holds something, so games that never use it save as before); "layout" is the
# hash of the compiled layout the save was made under (see interpreter.dsl.layout_hash), which saves made before
# it was written lack.  A save is resumed by replaying it whatever its layout, so the layout is checked
# for its type only.  "public" lists the cards public in a zone hiding them (everyone watched them go
# there: State.public), written only when it holds something; saves made before it existed lack it, and
# a save without it claims nothing (it is loaded by replaying, which works out the public cards again).
# "chance" marks a game in chance mode (docs/chance.md): {"undecided": [[zone index, first undecided
# position, last + 1], ...]}, the zones whose order is not decided yet (their cards are listed there in
# sorted order, which means nothing); its history holds [-1, outcome] for each chance outcome.
OPTIONAL_SAVE_KEYS = ("shown", "layout", "public", "chance")
# What a save shows of a pending decision; the option values and the variable that receives the
# choice are positions in the compiled rules, rebuilt by the replay rather than read from a file.
SAVED_DECISION_KEYS = ("players", "labels", "chosen", "each", "secret", "prompt")
DECISION_PARTS = {"players": "the list of players the pending decision waits for",
                  "labels": "the option list of the pending decision",
                  "chosen": "the record of choices already made at the pending decision",
                  "each": "whether everyone chooses at the pending decision",
                  "secret": "whether the pending decision is secret", "prompt": "the prompt of the pending decision"}
MAX_SAVED_ACTIONS = 100_000  # far beyond any real game; loading replays every action, so this bounds its cost


def to_json(state) -> dict:
    """The state as plain JSON data: what rebuilds it (players, seed, scenario, history) and all it shows.

    Omniscient: it includes hidden cards.  The suspended rule code is left out: a save is
    loaded by replaying its history, so positions inside the compiled rules never travel.
    """
    p = state.pending
    pending = None if p is None else {key: getattr(p, key) for key in SAVED_DECISION_KEYS}
    zones = state.zones if state.chance is None else [raw(z) for z in state.zones]  # deciding nothing
    if pending is not None and p.lazy:  # a save lists every option, as legal_actions does
        pending["labels"] = [state._options(p, i)[0] for i in range(len(p.players))]
    data = _copy({
        "format": SAVE_FORMAT, "game": state.game.name, "fingerprint": fingerprint(state.game),
        "layout": state.game.layout_hash(), "players": state.n, "seed": state.seed, "zones": zones, "gv": state.gv, "pv": state.pv,
        "rng": str(state.rng), "pending": pending, "over": state.over, "forced_winners": state.forced_winners,
        "scenario": state.scenario, "history": state.history, "log": state.log, "log_seen": state.log_seen,
        "counters": state.counters,
    })
    if state.chance is not None:
        data["chance"] = {"undecided": CHANCE.undecided(state)}
    if state.shown:
        data["shown"] = [[c, list(players)] for c, players in sorted(state.shown.items())]
    if state.public:
        data["public"] = sorted(state.public)
    return data


def fingerprint(game) -> str:
    """A short hash of the definition (and variants) a state belongs to."""
    h = hashlib.sha256()
    for text in game.source_texts:
        h.update(text.encode("utf-8"))
    return h.hexdigest()[:16]


def _copy(value):
    """A deep copy of plain data (dicts, lists, scalars; tuples become lists): a snapshot later actions cannot change."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value
