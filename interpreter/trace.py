"""A trace of a game: every card move, shuffle, decision, event, variable change and log line, in order.

Off by default (``state.trace is None``): the rules then pay one ``is not None``
test per move, shuffle or event and nothing else.  On (``game.new_game(...,
trace=True)``), ``state.trace`` is a list of plain dicts, one per thing that
happened, each saying what it reveals to whom by the rules of ``State.view``
and narration (:func:`interpreter.runtime.visibility.can_see`):

``{"type": "move", "card": "ace", "from": "deck", "to": "hand(1)", "at": "top", "seen_by": {"card": [1]}}``

* ``seen_by`` maps a field to the audiences that read it in the clear (seats
  from 1, and ``"spectator"``); every other reader gets ``"a card"``, ``"some
  cards"`` or ``"(hidden)"`` there.  A field not in ``seen_by`` is public.
* ``for`` (a list of seats): a record only those seats receive at all (a
  private variable of theirs, a ``log to`` line); without it, everyone does.
* a ``show`` record (``{"type": "show", "cards": [...], "to": [seats]}``) names its cards
  only to the seats shown them and whoever sees them anyway.
* a ``log`` record's ``seen`` holds each audience's text when they differ
  (players in seat order, then the spectator; ``None``: not received).

``state.trace_for(player)`` gives the records as ``player`` (``None``: a
spectator) reads them.  Variable and counter changes are found by comparing
with the values at the previous record, so they come in order with the rest;
two changes of one variable with nothing recorded in between are one record.
"""

from __future__ import annotations

from .runtime.visibility import can_see, cards_of, option_cards, sees_top, visibility_table, zone_shows

REDACTED = {"card": "a card", "list:card": "some cards"}
HIDDEN = "(hidden)"
SECRET = "(secret)"


# ---------------------------------------------------------------- starting
def start(s) -> None:
    """Switch tracing on for a fresh state (before its rules run)."""
    s.trace = []
    s.trace_vars = _snapshot(s)


def _snapshot(s):
    return (dict(s.gv), {k: v[:] for k, v in s.pv.items()},
            {k: {h: row[:] for h, row in v.items()} for k, v in s.counters.items()} if s.counters else {})


def _table(g):
    table = g.__dict__.get("_trace_table")
    if table is None:
        table = g._trace_table = visibility_table(g)
    return table


def _audience(s, sees) -> list | None:
    """``None`` if every reader (players, then the spectator) sees it, else the list of those who do."""
    if all(sees):
        return None
    return [p + 1 for p in s.players if sees[p]] + (["spectator"] if sees[-1] else [])


def _viewers(s) -> list:
    return s.players + [None]


def _add(s, record: dict) -> None:
    changed(s)
    s.trace.append(record)


# ---------------------------------------------------------------- records
def moved(s, cards, src, top, dest, bottom) -> None:
    """``cards`` went from zone ``src`` (-1: out of play) to ``dest``; ``top`` was the top card of ``src`` before.

    A reader sees the card if they saw it where it was (by ``src``'s visibility) or see it where it is now.
    """
    g, table = s.game, _table(s.game)
    seen = table[2][src] if len(table) > 2 and src >= 0 else None  # seen_by of the source: its top card was seen
    for card in cards:
        sees = [(src >= 0 and zone_shows(s, src, card == top, v, table)) or can_see(s, card, v, table)
                or (seen is not None and card == top and v is not None and sees_top(s, seen[1], v))
                for v in _viewers(s)]
        record = {"type": "move", "card": g.card_names[card], "from": g.zone_label(src) if src >= 0 else None,
                  "to": g.zone_label(dest), "at": "bottom" if bottom else "top"}
        who = _audience(s, sees)
        if who is not None:
            record["seen_by"] = {"card": who}
        _add(s, record)


def shown(s, cards, players) -> None:
    """``cards`` were shown to ``players`` ('show'): they and whoever sees all the cards anyway read which."""
    table = _table(s.game)
    sees = [all(can_see(s, c, v, table) for c in cards) for v in _viewers(s)]
    record = {"type": "show", "cards": [s.game.card_names[c] for c in cards], "to": [p + 1 for p in players]}
    who = _audience(s, sees)
    if who is not None:
        record["seen_by"] = {"cards": who}
    _add(s, record)


def shuffled(s, zone) -> None:
    _add(s, {"type": "shuffle", "zone": s.game.zone_label(zone), "cards": len(s.zones[zone])})


def decided(s, player, prompt, labels, values, index, automatic, secret=False) -> None:
    """``player`` took option ``index`` of ``labels`` (``automatic``: the only option, taken by the engine).

    Everyone reads the chosen option's text, as ``ribbit play`` shows it, except: a secret choice
    only its chooser; and a text naming cards (a choice of cards, a menu entry's card) only those who see
    every one of those cards (and the chooser).
    """
    label, table = labels[index], _table(s.game)
    cards = option_cards(s.game.card_names, label, values[index]) if values is not None else []
    sees = [v == player or (not secret and all(can_see(s, c, v, table) for c in cards)) for v in _viewers(s)]
    record = {"type": "decision", "player": player + 1, "prompt": prompt, "options": len(labels),
              "chosen": label, "automatic": automatic}
    who = _audience(s, sees)
    if who is not None:
        record["seen_by"] = {"chosen": who}
    _add(s, record)


def emitted(s, name, kinds, env) -> None:
    """Event ``name`` with arguments ``env`` (``kinds``: (parameter, kind) pairs); ``env`` None if not computed."""
    g, table = s.game, _table(s.game)
    record = {"type": "event", "name": name}
    if env is None:
        record["args"] = None
        _add(s, record)
        return
    args, seen = {}, {}
    for pname, kind in kinds:
        value = env.get(pname)
        args[pname] = _shown(g, value, kind)
        if kind in ("card", "list:card") and value is not None:
            who = _audience(s, [all(can_see(s, c, v, table) for c in cards_of(s, value, kind)) for v in _viewers(s)])
            if who is not None:
                seen["args." + pname] = who
    record["args"] = args
    if seen:
        record["seen_by"] = seen
    _add(s, record)


def logged(s, text, seen) -> None:
    record = {"type": "log", "text": text}
    if seen is not None:
        record["seen"] = list(seen)
    _add(s, record)


def _shown(g, value, kind):
    """A value as plain data a reader understands: cards by name, players by seat."""
    if value is None:
        return None
    if kind == "card":
        return g.card_names[value]
    if kind == "player":
        return value + 1
    if kind == "zone":
        return g.zone_label(value)
    if kind.startswith("list:") and type(value) is list:
        return [_shown(g, v, kind[5:]) for v in value]
    return value


def changed(s) -> None:
    """Record every variable and counter that changed since the last record."""
    gv, pv, counters = s.trace_vars
    g = s.game
    out = s.trace
    for name, value in s.gv.items():
        old = gv.get(name)
        if old != value:
            kind = g.gvars.get(name, "")
            out.append(_variable_record(s, {"type": "variable", "name": name}, kind, old, value))
    for name, row in s.pv.items():
        before = pv.get(name)
        kind = g.pvars.get(name, "")
        for p, value in enumerate(row):
            if before is None or before[p] != value:
                record = _variable_record(s, {"type": "variable", "name": name, "player": p + 1}, kind,
                                          None if before is None else before[p], value)
                if name in g.hidden_pvars:
                    record["for"] = [p + 1]
                out.append(record)
    if counters:
        _counters_changed(s, counters)
    s.trace_vars = _snapshot(s)


def _variable_record(s, record: dict, kind: str, old, new) -> dict:
    """A variable's change: its old and new values, a card in either named only to those who see it now (the
    variable does not show its card: as ``State.view`` shows it)."""
    g = s.game
    record["old"], record["new"] = _shown(g, old, kind), _shown(g, new, kind)
    if kind in ("card", "list:card"):
        table, seen = _table(g), {}
        for field, value in (("old", old), ("new", new)):
            if value is not None:
                who = _audience(s, [all(can_see(s, c, v, table) for c in cards_of(s, value, kind)) for v in _viewers(s)])
                if who is not None:
                    seen[field] = who
        if seen:
            record["seen_by"] = seen
    return record


def _counters_changed(s, before) -> None:
    g, table = s.game, _table(s.game)
    for name, rows in s.counters.items():
        for holder, row in rows.items():
            old_row = before[name][holder]
            for i, value in enumerate(row):
                if old_row[i] == value:
                    continue
                record = {"type": "counter", "name": name, "old": old_row[i], "new": value}
                if holder == "player":
                    record["player"] = i + 1
                elif holder == "space":
                    record["space"] = g.board.spaces[i]
                else:
                    record["card"] = g.card_names[i]
                    who = _audience(s, [can_see(s, i, v, table) for v in _viewers(s)])
                    if who is not None:
                        record["seen_by"] = {"card": who}
                s.trace.append(record)


# ---------------------------------------------------------------- reading
def for_audience(s, player, since: int = 0) -> list:
    """The records from ``since`` on as ``player`` reads them (``None``: a spectator): redacted, and those
    not for them left out."""
    key = "spectator" if player is None else player + 1
    out = []
    for record in s.trace[since:]:
        only = record.get("for")
        if only is not None and key not in only:
            continue
        if record["type"] == "log":
            seen = record.get("seen")
            text = record["text"] if seen is None else seen[s.n if player is None else player]
            if text is not None:
                out.append({"type": "log", "text": text})
            continue
        shown = {k: v for k, v in record.items() if k not in ("seen_by", "for")}
        for field, who in record.get("seen_by", {}).items():
            if key in who:
                continue
            if field.startswith("args."):
                arg = field[5:]
                shown["args"] = {**shown["args"], arg: _redacted(shown["args"][arg])}
            else:
                shown[field] = SECRET if field == "chosen" else _redacted(shown[field])
        out.append(shown)
    return out


def _redacted(value):
    if type(value) is list:
        return REDACTED["list:card"]
    return REDACTED["card"]


# ---------------------------------------------------------------- text
def describe(record: dict) -> str:
    """One record as a line of text, for ``ribbit play --trace``."""
    line = _LINES.get(record["type"])
    return str(record) if line is None else line(record)


def _move_line(record: dict) -> str:
    return f"move {record['card']}: {record['from'] or '(out of play)'} -> {record['to']}" \
        + (" (bottom)" if record["at"] == "bottom" else "")


def _decision_line(record: dict) -> str:
    auto = " (automatic: the only option)" if record["automatic"] else ""
    return f"decision player {record['player']} {record['prompt']}: {record['chosen']} " \
           f"[{record['options']} option{'s' if record['options'] != 1 else ''}]{auto}"


def _event_line(record: dict) -> str:
    args = record["args"]
    shown = "(not computed)" if args is None else ", ".join(f"{k}={_text(v)}" for k, v in args.items())
    return f"event {record['name']}({shown})"


def _variable_line(record: dict) -> str:
    owner = f"player {record['player']}." if "player" in record else "game."
    return f"set {owner}{record['name']}: {_text(record['old'])} -> {_text(record['new'])}"


def _counter_line(record: dict) -> str:
    holder = next((f"{k} {record[k]}" for k in ("player", "space", "card") if k in record), "")
    return f"counter {record['name']} on {holder}: {record['old']} -> {record['new']}"


def _show_line(record: dict) -> str:
    cards = record["cards"] if type(record["cards"]) is list else [record["cards"]]
    return f"show {', '.join(cards)} to " + ", ".join(f"player {p}" for p in record["to"])


_LINES = {  # the type of a record: its line of text
    "move": _move_line,
    "shuffle": lambda record: f"shuffle {record['zone']} ({record['cards']} cards)",
    "decision": _decision_line,
    "event": _event_line,
    "variable": _variable_line,
    "counter": _counter_line,
    "log": lambda record: f"log {record['text']}",
    "show": _show_line,
}


def _text(value) -> str:
    if type(value) is list:
        return "[" + ", ".join(map(_text, value)) + "]"
    if value is None:
        return "none"
    if value is True or value is False:
        return "yes" if value else "no"
    return str(value)
