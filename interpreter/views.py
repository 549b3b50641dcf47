"""What each audience may know of a state: views, the decision as a UI shows it, narration, knowledge, trace.

Plain functions of a :class:`~interpreter.state.State` (its methods of the same names delegate here):
they read the state and never change it.  Hidden cards appear only as counts; what a seat was shown
(``show``, ``seen_by``) or what everyone saw (a card public in a zone hiding it) appears where it lies.
"""

from __future__ import annotations

from . import trace as TR
from .errors import IllegalActionError
from .runtime.visibility import REDACTED, can_see, option_cards, visibility_table


def view(state, player: int | None) -> dict:
    """What ``player`` may know (``None``: a spectator).  Hidden cards appear only as counts."""
    if player is not None and (type(player) is not int or not 0 <= player < state.n):
        state._no_such_player(player)
    g = state.game
    view = {
        "game": g.name, "players": state.n, "you": player,
        "zones": _zones_view(state, player),
        "variables": {k: _plain_view(state, v, g.gvars[k], player) for k, v in state.gv.items()},
        "player_variables": _player_variables_view(state, player),
        "over": state.over,
    }
    if state.pending is not None:
        view["decision"] = _decision_view(state, player)
    if state.counters:
        _show_counters(state, view)
    if state.over:
        view["scores"] = state.scores()
        view["winners"] = state.winners()
    return view


def _zones_view(state, player: int | None) -> dict:
    """Each zone of this game as ``player`` sees it: its cards, its count and top card, or its count."""
    g = state.game
    zones = {}
    for index, cards in enumerate(state.zones):
        spec = g.zone_spec[index]
        owner = g.zone_owner[index]
        if spec.per == "player" and owner >= state.n:
            continue
        zones[g.zone_label(index)] = _zone_as_seen(g, index, cards, player)
    if g.seen_zone is not None and player is not None:
        _show_seen(state, player, zones)
    if state.shown or state.public:  # a spectator (seat n) is listed for cards shown to every player
        _show_shown(state, state.n if player is None else player, zones)
    return zones


def _zone_as_seen(g, index: int, cards: list, player: int | None) -> dict:
    """One zone's entry by its visibility: its cards (public, or ``player``'s own), its count and top card, or its count."""
    vis = g.zone_spec[index].visibility
    if vis == "public" or (vis == "owner" and player is not None and g.zone_owner[index] == player):
        return {"cards": [g.card_names[c] for c in cards]}
    if vis == "top":
        return {"count": len(cards), "top": g.card_names[cards[-1]] if cards else None}
    return {"count": len(cards)}


def _player_variables_view(state, player: int | None) -> list:
    """Per seat, its variables ``player`` may see (a hidden one only for its own seat)."""
    g = state.game
    return [{name: _plain_view(state, values[p], g.pvars[name], player) for name, values in state.pv.items()
             if name not in g.hidden_pvars or p == player} for p in state.players]


def _decision_view(state, player: int | None) -> dict:
    """The pending decision in a view: who it waits for, who has decided, and ``player``'s own options."""
    pend = state.pending
    decision = {"prompt": pend.prompt, "secret": pend.secret, "waiting_for": state.current_players(),
                "decided": [p for p, d in zip(pend.players, pend.chosen) if d is not None]}
    if player in pend.players:
        i = pend.players.index(player)
        decision["your_options"] = list(state._options(pend, i)[0]) if pend.chosen[i] is None else []
    return decision


def decision_for(state, player: int | None) -> dict | None:
    """The pending decision as ``player`` may see it (``None``: a spectator), for UIs; None if none is pending.

    ``{"prompt", "secret", "simultaneous", "waiting_for", "decided", "pick", "options"}``: ``pick`` is
    "menu" (plain texts), "one" (each option is one item) or "several" (each option is a list of items);
    ``options`` are this seat's own (empty for anyone else), each ``{"label", "cards", "zones"}`` where
    ``cards`` names the cards the option picks and ``zones`` the zone each lies in, given only when
    ``player`` sees every one of them where it lies (else both are empty: a choice by text alone).
    Other seats' options and choices are never described.
    """
    p = state.pending
    if p is None:
        return None
    if player is not None and (type(player) is not int or not 0 <= player < state.n):
        state._no_such_player(player)
    options = []
    pick = "menu"
    if player in p.players:
        i = p.players.index(player)
        if p.chosen[i] is None:
            labels, values = state._options(p, i)
            if p.dest is not None:
                pick = "several" if values and all(type(v) is list for v in values) else "one"
            for label, value in zip(labels, values):
                cards, zones = cards_of_option(state, player, label, value) if p.dest is not None else ([], [])
                options.append({"label": label, "cards": cards, "zones": zones})
    return {"prompt": p.prompt, "secret": p.secret, "simultaneous": p.each,
            "waiting_for": state.current_players(),
            "decided": [who for who, done in zip(p.players, p.chosen) if done is not None],
            "pick": pick, "options": options}


def cards_of_option(state, player, label, value):
    """(card names, zone labels) of the cards an option's value picks, if ``player`` sees them all; else ([], [])."""
    if type(value) is tuple and len(value) == 2:  # a menu entry built from a list: (entry, item)
        value = value[1]
    items = value if type(value) is list else [value]
    g = state.game
    names, zones = [], []
    for card in items:
        if type(card) is not int or not 0 <= card < len(g.card_names) or g.card_names[card] not in label \
                or not sees_card(state, player, card):
            return [], []  # not cards (numbers, players, spaces...), or cards this seat cannot see
        names.append(g.card_names[card])
        zones.append(g.zone_label(state.loc[card]))
    return names, zones


def action_watch(state, player: int, action: str) -> tuple:
    """Before ``player`` plays ``action`` at the pending decision: (the chooser, whether the decision is secret,
    the cards its text names, per seat then a spectator which of them they see now); give it to
    :func:`action_readers` once the action is played."""
    p = state.pending
    i = p.players.index(player)
    labels, values = state._options(p, i)
    cards = [] if p.secret else option_cards(state.game.card_names, action, values[labels.index(action)])
    table = _table(state.game)
    return player, p.secret, cards, [[can_see(state, c, v, table) for c in cards] for v in state.players + [None]]


def action_readers(state, watch: tuple) -> list[bool]:
    """After an action was played (``watch``: :func:`action_watch` before it): may each seat, then a spectator,
    read its text?  The chooser always; nobody else a secret choice's; and a text naming cards (a card chosen, a
    menu entry's card) only those who saw each of those cards where it was or see it where it is now (a card
    played face up is named, one buried face down is not).  Logs, news of others' moves and replays show the
    others a hidden choice instead."""
    player, secret, cards, before = watch
    viewers = state.players + [None]
    if secret:
        return [v == player for v in viewers]
    table = _table(state.game)
    return [v == player or all(saw or can_see(state, c, v, table) for c, saw in zip(cards, seen))
            for v, seen in zip(viewers, before)]


def sees_card(state, player, card) -> bool:
    zone = state.loc[card]
    if zone < 0:
        return False
    vis = state.game.zone_spec[zone].visibility
    return vis == "public" or (vis == "owner" and state.game.zone_owner[zone] == player) \
        or (vis == "top" and state.zones[zone][-1] == card) or player in state.shown.get(card, ()) \
        or card in state.public


def narration(state, player: int | None, since: int = 0) -> list[str]:
    """The log lines ``player`` may read (``None``: a spectator), from line ``since`` of ``log`` on.

    ``state.log`` is the omniscient narration, for the referee and tests; this is what a seat
    may be shown: card details it cannot see are redacted and private lines to others left out.
    """
    if player is not None and (type(player) is not int or not 0 <= player < state.n):
        raise IllegalActionError(f"there is no player {player!r} in this {state.n}-player game "
                                 f"(players are numbered 0 to {state.n - 1}; None is a spectator)")
    if state.log is None:
        return []
    lines = state.log[since:]
    audience = state.n if player is None else player
    for index, texts in state.log_seen:
        if index >= since:
            lines[index - since] = texts[audience]
    return [line for line in lines if line is not None]


def knowledge(state, player: int | None) -> dict:
    """What ``player`` (None: a spectator) knows of the game: ``view(player)`` less the progress of an
    open simultaneous decision (who has chosen so far, who is still choosing), which tells nothing of
    what anyone chose.  Two positions with the same knowledge are the same to that player: a bot's
    decision computed in one holds in the other, and an action that changed no one else's knowledge
    revealed nothing to them."""
    view = state.view(player)
    decision = view.get("decision")
    if decision is not None and state.pending["each"]:
        del decision["waiting_for"], decision["decided"]
    return view


def trace_for(state, player: int | None, since: int = 0) -> list[dict]:
    """The trace as ``player`` may read it (``None``: a spectator), from record ``since`` of ``state.trace``
    on; ``state.trace`` is the omniscient one.

    Empty unless the game was started with ``trace=True``.  See :mod:`interpreter.trace`.
    """
    if player is not None and (type(player) is not int or not 0 <= player < state.n):
        state._no_such_player(player)
    return [] if state.trace is None else TR.for_audience(state, player, since)


def seen_cards(state, player) -> set:
    """The cards (ids) ``player``'s view shows face up, wherever they lie."""
    g = state.game
    seen = set()
    for label, entry in state.view(player)["zones"].items():
        cards = state.zones[g.zone_index(label)]
        if "cards" in entry:
            seen.update(cards)
            continue
        if entry.get("top") is not None:
            seen.add(cards[-1])
        for item in entry.get("shown", ()):
            seen.add(cards[len(cards) - 1 - item["from_top"]])
    return seen


def _show_seen(state, player, zones) -> None:
    """The top cards of zones with ``seen_by`` whose condition holds for ``player`` now, listed as shown."""
    from .runtime.visibility import sees_top

    g = state.game
    held = {}  # one condition may serve several zones (a zone per player or per space): checked once
    for index, seen in enumerate(g.seen_zone):
        if seen is None:
            continue
        entry = zones.get(g.zone_label(index))
        cards = state.zones[index]
        if entry is None or "cards" in entry or not cards:
            continue  # a zone of a seat not in this game, a zone the player sees whole, or an empty one
        top, cond = seen
        ok = held.get(id(cond))
        if ok is None:
            ok = held[id(cond)] = sees_top(state, cond, player)
        if not ok:
            continue
        listed = [{"card": g.card_names[card], "from_top": k} for k, card in enumerate(reversed(cards[-top:]))
                  if not (k == 0 and "top" in entry)]
        if listed:
            entry["shown"] = listed


def _show_shown(state, player, zones) -> None:
    """Cards shown to ``player`` ('show') or public (seen by everyone: shown to every player, or watched going
    into their zone, ``State.public``) in zones that hide them: ``"shown": [{"card", "from_top"}]`` there, with
    ``"public": true`` on a card every player and spectator sees (known to all, not shown to this viewer alone)."""
    everyone = state.n + 1
    listed = [(card, len(players) == everyone) for card, players in state.shown.items() if player in players]
    listed += [(card, True) for card in state.public]  # (a card also shown to some players: listed once)
    for card, public in listed:
        _list_shown_card(state, zones, card, public)
    for entry in zones.values():
        if "shown" in entry:
            entry["shown"].sort(key=lambda item: item["from_top"])


def _list_shown_card(state, zones, card: int, public: bool) -> None:
    """Add ``card`` to the ``"shown"`` list of the zone it lies in, unless that zone shows it anyway (once, even if
    seen_by listed it already); mark it ``"public"`` if everyone sees it."""
    g = state.game
    zone = state.loc[card]
    if zone < 0:
        return
    entry = zones.get(g.zone_label(zone))
    cards = state.zones[zone]
    from_top = len(cards) - 1 - cards.index(card)
    if entry is None or "cards" in entry or (from_top == 0 and "top" in entry):
        return  # the zone shows it anyway
    item = next((item for item in entry.get("shown", ()) if item["from_top"] == from_top), None)
    if item is None:
        item = {"card": g.card_names[card], "from_top": from_top}
        entry.setdefault("shown", []).append(item)
    if public:
        item["public"] = True  # (also where seen_by listed it: everyone sees it, not this viewer alone)


def _show_counters(state, view) -> None:
    """Counters are public: per space and per player, and per card wherever the viewer sees the card."""
    g = state.game
    shown = {}
    on_cards = []
    for name, rows in state.counters.items():
        entry = {}
        if "space" in rows:
            entry["spaces"] = dict(zip(g.board.spaces, rows["space"]))
        if "player" in rows:
            entry["players"] = list(rows["player"])
        if "card" in rows:
            on_cards.append((name, rows["card"]))
        shown[name] = entry
    view["counters"] = shown
    if not on_cards:
        return
    for label, zone in view["zones"].items():
        if "cards" in zone:
            cards = state.zones[g.zone_index(label)]
            zone["counters"] = {name: [row[c] for c in cards] for name, row in on_cards}
        elif zone.get("top") is not None:
            top = state.zones[g.zone_index(label)][-1]
            zone["top_counters"] = {name: row[top] for name, row in on_cards}


def _plain_view(state, value, kind, player):
    """A variable's value as ``player`` may read it: a card by its name only where ``player`` sees that card
    now (as narration names it), else ``"a card"``; the variable itself does not show a card."""
    if kind == "card":
        return None if value is None else _card_as_seen(state, value, player)
    if kind == "list:card":
        return [_card_as_seen(state, c, player) for c in value]
    return value


def _card_as_seen(state, card, player) -> str:
    g = state.game
    return g.card_names[card] if can_see(state, card, player, _table(g)) else REDACTED["card"]


def _table(g) -> tuple:
    """The game's visibility table (``runtime.visibility``), made once."""
    table = g.__dict__.get("_view_table")
    if table is None:
        table = g._view_table = visibility_table(g)
    return table
