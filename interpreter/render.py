"""Terminal rendering with rich: a player's view, results, simulation tables and the rules.

Everything here reads only what it is given (a view dict, a finished state,
statistics, a loaded definition) and knows no game: zone names, card names and
variable names all come from the definition, so all of it is author text and
printed inert: the console never reads rich markup or emoji codes (a card
called "[bold]x" prints as itself), and every character a terminal would act on
(ESC, C1, bidi overrides...) is shown as a visible escape (``errors.inert``).
That happens in one place, ``SafeConsole``, for everything printed through it;
``Text`` here is escaped when built too, so tables measure what they will show.
"""

from __future__ import annotations

import os
import re
import shutil
import sys

from rich import box
from rich import text as rich_text
from rich.console import Console, Group
from rich.padding import Padding
from rich.panel import Panel
from rich.segment import Segment
from rich.syntax import Syntax
from rich.table import Table

from .dsl import types as T
from .errors import inert
from .stats import CONFIDENCE

PIPE_WIDTH = 120  # width used when output is not a terminal (logs, pipes, tests)

VISIBILITY = {
    "public": "everyone sees the cards",
    "hidden": "face down; only the number of cards is known",
    "owner": "only the owner sees the cards; others see how many",
    "top": "everyone sees the top card and how many there are",
}
PER = {"game": "shared", "player": "one per player", "space": "one per board space"}
PLACE = {"shared": "in the middle of the table", "player": "in each player's area", "board": "on its board space",
         "box": "under the table, folded away"}  # a ``table:`` zone's ``at``, for a reader
SHOW = {"row": "the cards as they lie", "stack": "a pile, bottom to top, its top card marked",
        "grouped": "in groups by {band}"}


class Text(rich_text.Text):
    """A rich ``Text`` whose strings are made inert as they are added (so widths are measured right)."""

    def __init__(self, text: str = "", *args, **kwargs):
        super().__init__(inert(text), *args, **kwargs)

    def append(self, text, style=None):
        return super().append(inert(text) if isinstance(text, str) else text, style)


class OutputClosed(Exception):
    """Standard output was closed while a command printed to it (its reader left: ``ribbit play ... | head``)."""


class SafeConsole(Console):
    """A console that prints author text inert, whatever the caller passes it.

    Strings are never read as markup or emoji codes, and every segment of text it
    renders (tables, panels, code, titles) goes through ``inert``; only rich's own
    control segments (cursor moves of a progress bar) pass untouched.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, markup=False, emoji=False, highlight=False, **kwargs)

    def render_str(self, text: str, **kwargs) -> rich_text.Text:
        kwargs.update(markup=False, emoji=False)
        return super().render_str(inert(text), **kwargs)

    def on_broken_pipe(self) -> None:
        """The reader of the output left: stop the command as interrupted (its caller closes its files with their
        last record), not with rich's bare ``SystemExit(1)``; what is still printed goes nowhere."""
        self.quiet = True
        try:  # as rich does, so the interpreter's last flush at exit finds no closed pipe to complain about
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # a standard output without a file descriptor (captured by a test)
            pass
        raise OutputClosed("the output was closed")

    def render(self, renderable, options=None):
        for segment in super().render(renderable, options):
            if segment.control is None:
                safe = inert(segment.text)
                if safe is not segment.text:
                    segment = Segment(safe, segment.style)
            yield segment


def make_console(stderr: bool = False) -> Console:
    """A console on the current sys.stdout/stderr (so test capture works), wide enough when piped."""
    stream = sys.stderr if stderr else sys.stdout
    console = SafeConsole(file=stream)
    if not console.is_terminal:
        console = SafeConsole(file=stream, width=max(PIPE_WIDTH, shutil.get_terminal_size().columns))
    return console


# ---------------------------------------------------------------- values and cards
def group_cards(names) -> list[tuple[str, int]]:
    """Identical names counted together, in order of first appearance."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return list(counts.items())


def describe_cards(names) -> str:
    """'blue card x3, marker' (or 'empty')."""
    groups = group_cards(names)
    if not groups:
        return "empty"
    return ", ".join(name if times == 1 else f"{name} x{times}" for name, times in groups)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def format_value(value, kind: str = "any") -> str:
    """A variable's value as players read it (seats 1-based, yes/no, grouped card names)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if kind == "player" and isinstance(value, int):
        return f"player {value + 1}"
    if isinstance(value, list):
        return _format_list(value, kind)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {format_value(v)}" for k, v in value.items())
    return str(value)


def _format_list(values: list, kind: str) -> str:
    """A list value: seats by number ("nobody" when empty), card names grouped, anything else item by item."""
    if kind == "list:player":
        return ", ".join(f"player {v + 1}" for v in values) or "nobody"
    if all(isinstance(v, str) for v in values):
        return describe_cards(values) if values else "none"
    return ", ".join(format_value(v) for v in values) or "none"


def zone_contents(shown: dict, game=None) -> Text:
    """One zone of a view: grouped cards, or a count for hidden cards, or the top card and a count.
    With ``game``, each card name is followed by its badges (the definition's ``table.cards``)."""
    if "cards" in shown:
        return _open_zone(shown["cards"], game)
    count = shown.get("count", 0)
    seen = shown.get("shown") or ()  # cards this viewer sees in a zone hiding them: where they lie, from the top
    extra = _seen_in_hidden_zone(seen)
    if "top" in shown:
        return _top_zone(shown["top"], count, game, extra)
    hidden = count - len(seen)
    counted = f"{plural(count, 'card')}" + (" (hidden)" if not seen else f" ({hidden} hidden)" if hidden else "")
    return Text.assemble((counted if count else "empty", "dim"), *extra)


def _open_zone(cards: list, game) -> Text:
    """A zone whose cards the viewer sees: grouped, with their badges when ``game`` is given."""
    if game is not None and cards:
        return Text(", ".join(card_label(game, name) + ("" if times == 1 else f" x{times}")
                              for name, times in group_cards(cards)))
    return Text(describe_cards(cards), style="" if cards else "dim")


def _seen_in_hidden_zone(seen) -> list:
    """The text parts after a hidden zone's count: the cards known to all, then those shown to this viewer."""
    extra = []
    for words, listed in (("known to all", [s for s in seen if s.get("public")]),  # everyone saw them
                          ("shown to you", [s for s in seen if not s.get("public")])):  # 'show', seen_by
        if listed:
            extra += [(f"  {words}: ", "dim"), ", ".join(f"{s['card']} (#{s['from_top'] + 1} from top)"
                                                         for s in listed)]
    return extra


def _top_zone(top, count: int, game, extra: list) -> Text:
    """A zone showing only its top card: that card and the count (or 'empty')."""
    if not count:
        return Text("empty", style="dim")
    top = card_label(game, top) if game is not None and top is not None else str(top)
    return Text.assemble(("top: ", "dim"), top, (f"  ({plural(count, 'card')})", "dim"), *extra)


# ---------------------------------------------------------------- card faces (the definition's table.cards)
def card_properties(game, name: str) -> dict:
    """The properties of the card called ``name`` that differ from the defaults (what its face can show)."""
    try:
        card = game.card_names.index(name)
    except ValueError:
        return {}
    defaults = game.property_defaults
    found = {}
    for prop, (table, _kind) in game.properties.items():
        value = table[card]
        if value != defaults.get(prop) and value not in ("", [], False, None):
            found[prop] = value
    return found


def _face(game) -> dict:
    return (getattr(game, "presentation", None) or {}).get("cards") or {"title": "name", "badges": []}


def _short(key: str, value) -> str:
    if value is True:
        return key.replace("_", " ")
    shown = "/".join(format_value(v) for v in value) if isinstance(value, list) else format_value(value)
    return f"{key.replace('_', ' ')} {shown}"


def card_badges(game, name: str) -> str:
    """'weights 3/6, value 3': the badges the definition's card face names, for the cards that have them."""
    props = card_properties(game, name)
    return ", ".join(_short(key, props[key]) for key in _face(game).get("badges", ()) if key in props)


def _words(text: str) -> set:
    return set(re.findall(r"[^\W_]+", text.lower()))


def _said_by_name(name: str, key: str, value) -> bool:
    """Whether the card's name already says what this badge would ('red knight (blue shield)' and
    'shields blue'; 'knight (Again!)' and a true 'again')."""
    said = _words(key) if value is True else _words(" ".join(map(str, value)) if isinstance(value, list)
                                                     else format_value(value))
    return bool(said) and said <= _words(str(name))


def card_label(game, name: str) -> str:
    """A card's name with its badges, in a list of cards: 'Red Knight (strength 3, value 2)'; a badge the
    name already says is not repeated."""
    props = card_properties(game, name)
    badges = ", ".join(_short(key, props[key]) for key in _face(game).get("badges", ())
                       if key in props and not _said_by_name(name, key, props[key]))
    return f"{name} ({badges})" if badges else str(name)


def card_face(game, name: str, whole: bool = False) -> Text:
    """A card's face as text: title, badges, band, ability type and its whole text; ``whole`` adds every
    other property (what ``info NAME`` shows)."""
    face, props = _face(game), card_properties(game, name)
    text = _face_title(face, props, name)
    summary = _face_summary(game, face, props, name)
    if summary:
        text.append("  " + " · ".join(summary))
    _append_face_rules(text, face, props)
    rest = _unshown_properties(face, props)
    plain = not (face.get("badges") or face.get("band") or face.get("ability") or face.get("text"))
    if rest and (whole or plain):
        text.append("\n" + " · ".join(rest), style="dim")
    return text


def _face_title(face: dict, props: dict, name: str) -> Text:
    """The face's title in bold: the property the face names as title, then the card's name (dim), or the name."""
    title = props.get(face.get("title")) if face.get("title") not in (None, "name") else None
    text = Text(str(title if title is not None else name), style="bold")
    if title is not None:
        text.append(f"  ({name})", style="dim")
    return text


def _face_summary(game, face: dict, props: dict, name: str) -> list:
    """What follows the title on its line: the badges, then the band's value."""
    badges = card_badges(game, name)
    band = face.get("band")
    summary = [badges] if badges else []
    if band and band in props:
        summary.append(format_value(props[band]))
    return summary


def _append_face_rules(text: Text, face: dict, props: dict) -> None:
    """The ability type (italic) and the rules text, each on its own line, when the card has them."""
    ability, rules = face.get("ability"), face.get("text")
    if ability and props.get(ability):
        text.append("\n" + format_value(props[ability]), style="italic")
    if rules and props.get(rules):
        text.append("\n" + format_value(props[rules]))


def _unshown_properties(face: dict, props: dict) -> list:
    """The card's other properties, as short texts: those no part of the face shows."""
    shown = {face.get("title"), face.get("band"), face.get("ability"), face.get("text"), *face.get("badges", ())}
    return [_short(k, v) if v is True else f"{k.replace('_', ' ')}: {format_value(v)}"
            for k, v in props.items() if k not in shown]


def _groups(game, names: list) -> list[tuple[str, list]]:
    """[(band value, names)]: ``names`` in groups by the card face's band value (first seen first), in order
    within a group; one unnamed group when the face has no band."""
    band = _face(game).get("band")
    if not band:
        return [("", list(names))]
    default = game.property_defaults.get(band)
    groups: dict = {}
    for name in names:
        groups.setdefault(format_value(card_properties(game, name).get(band, default)), []).append(name)
    return list(groups.items())


def _grouped_zone(game, names: list) -> Text:
    """A ``show: grouped`` zone: each group under its band value, the groups apart ("red: red knight x2 │
    blue: blue page"), as cards sorted by colour lie on a table."""
    text = Text()
    for number, (value, group) in enumerate(_groups(game, names)):
        if number:
            text.append(" │ ", style="dim")
        if value:
            text.append(value + ": ", style="italic")
        text.append(_open_zone(group, game))
    return text


def shown_variables(game, row: dict, which: str) -> list:
    """[(name, label, value)] of the variables in ``row`` the definition's ``table.variables`` shows (all of
    them, under their names, when it names none)."""
    chosen = ((getattr(game, "presentation", None) or {}).get("variables") or {}).get(which) \
        if (getattr(game, "presentation", None) or {}).get("variables") is not None else None
    if chosen is None:
        return [(name, name, value) for name, value in row.items()]
    return [(name, label, row[name]) for name, label in chosen.items() if name in row]


def _ordered_zones(game) -> list:
    order = list((getattr(game, "presentation", None) or {}).get("zones", {}))
    return order + [name for name in game.zones if name not in order]


def under_table_line(game, boxed) -> Text:
    """The zones placed under the table, one line: each with what the seat may know of it (a count;
    ``info ZONE`` lists the cards it may see)."""
    parts = []
    for label, shown in boxed:
        count = len(shown["cards"]) if "cards" in shown else shown.get("count", 0)
        if not count and not shown.get("shown"):
            continue
        parts.append(f"{_zone_title(game, label)}: {plural(count, 'card')}")
    if not parts:
        return Text("")
    return Text("Under the table: " + " · ".join(parts) + "  (info ZONE lists one)", style="dim")


# ---------------------------------------------------------------- a player's view
def zone_place(game, name: str) -> dict:
    """Where the definition's ``table.zones`` draws zone ``name``: {"at", "label", "show"}."""
    found = (getattr(game, "presentation", None) or {}).get("zones", {}).get(name)
    return found or {"at": None, "label": name.replace("_", " "), "show": "row"}


def zones_by_place(game, view: dict):
    """Split the view's zones into shared ones, per player, per board space (board order) and those under
    the table (``at: box``: listed, not drawn), in the order of the definition's ``table.zones``."""
    shared, per_player, per_space, boxed = [], {}, {}, []
    order = list((getattr(game, "presentation", None) or {}).get("zones", {}))
    indices = sorted(range(game.zone_count),
                     key=lambda i: order.index(game.zone_spec[i].name) if game.zone_spec[i].name in order else len(order))
    for index in indices:
        label = game.zone_label(index)
        if label not in view["zones"]:
            continue
        spec = game.zone_spec[index]
        entry = (spec.name, view["zones"][label])
        if zone_place(game, spec.name)["at"] == "box":
            boxed.append((label, view["zones"][label]))
        elif spec.per == "player":
            per_player.setdefault(game.zone_owner[index], []).append(entry)
        elif spec.per == "space":
            per_space.setdefault(game.zone_space[index], []).append(entry)
        else:
            shared.append(entry)
    return shared, per_player, per_space, boxed


def render_view(console: Console, game, view: dict, seat: int | None, events=(), options=None) -> None:
    """Everything ``seat`` may see before deciding: news, board, table, players, the decision.

    ``options`` (the ``options`` of ``state.decision_for(seat)``) lets an option that picks cards show
    their faces."""
    if events:
        news = Text()
        for kind, text in events:
            news.append(text + "\n", style="dim" if kind == "action" else "")
        news.rstrip()
        console.print(Panel(news, title="Since your last decision", title_align="left", border_style="dim"))
    game = game.for_players(view["players"])  # the game compiled for this count's board (itself for most games)
    shared, per_player, per_space, boxed = zones_by_place(game, view)
    parts = []
    if game.board is not None and (per_space or _space_counters(view)):
        parts.append(board_drawing(game, view, per_space))
    if shared:
        parts.append(_zone_table("On the table", shared, game))
    console.print(*parts)
    console.print(_players_table(game, view, per_player, seat))
    variables = [f"{label} {format_value(value, game.gvars.get(name, 'any'))}"
                 for name, label, value in shown_variables(game, view["variables"], "game")]
    if variables:
        console.print(Text("Game: " + " · ".join(variables), style="dim"))
    if boxed:
        console.print(under_table_line(game, boxed))
    decision = view.get("decision")
    if decision:
        render_decision(console, decision, seat, game, options)


WIDE_PLAYERS_TABLE = 10  # more columns than this: one block per player instead of one row each


class _PlayerColumns:
    """What the players table shows of each player: their zones, their variables and their counters."""

    def __init__(self, game, view: dict):
        self.zones = [name for name in _ordered_zones(game) if game.zones[name].per == "player"
                      and zone_place(game, name)["at"] != "box"]
        self.variables: list = []
        self.labels: dict = {}
        for row in view["player_variables"]:
            for name, label, _ in shown_variables(game, row, "player"):
                if name not in self.variables:
                    self.variables.append(name)
                    self.labels[name] = label
        self.counters = {name: entry["players"] for name, entry in (view.get("counters") or {}).items()
                         if "players" in entry}

    def width(self) -> int:
        """Columns of the one-row-per-player table (the player's name first)."""
        return 1 + len(self.zones) + len(self.variables) + len(self.counters)


def _player_label(player: int, seat: int | None, active) -> str:
    """'player 2 (you) *': the viewer's own row says so, the active player's is starred."""
    return f"player {player + 1}" + (" (you)" if player == seat else "") + (" *" if player == active else "")


def _players_table(game, view: dict, per_player: dict, seat: int | None):
    """One row per player: their zones, then their variables (private ones only for their owner)."""
    columns = _PlayerColumns(game, view)
    if columns.width() > WIDE_PLAYERS_TABLE:
        return _player_blocks(game, view, per_player, seat, columns)
    table = Table(title="Players", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("player", no_wrap=True)
    for name in columns.zones:
        table.add_column(Text(zone_place(game, name)["label"]), ratio=3)
    for name in columns.variables:
        table.add_column(Text(columns.labels[name]), justify="right")
    for name in columns.counters:
        table.add_column(Text(name), justify="right")
    active = view["variables"].get("active")
    for player in range(view["players"]):
        table.add_row(_player_label(player, seat, active),
                      *_player_cells(game, view, dict(per_player.get(player, [])), player, columns),
                      style="bold" if player == seat else "")
    table.caption = "* active player" if active is not None else None
    table.caption_justify = "left"
    return table


def _player_cells(game, view: dict, zones: dict, player: int, columns: _PlayerColumns) -> list:
    """One player's row after their name: each zone ('' when unseen), variable ('?' when private), counter."""
    values = view["player_variables"][player]
    return [*(_with_top_text(game, n, zones[n]) if n in zones else Text("") for n in columns.zones),
            *(Text(format_value(values[n], game.pvars.get(n, "any")) if n in values else "?")
              for n in columns.variables),
            *(str(values_of[player]) for values_of in columns.counters.values())]


def top_text(game, zone: str, shown: dict, at: int = -1) -> str:
    """The text property a zone names with ``show_text`` (its rules text), of its top card (``at``: another
    place, 0 the bottom) if the viewer sees it."""
    spec = game.zones.get(zone)
    cards = shown.get("cards")
    if spec is None or not spec.show_text or not cards:
        return ""
    table = game.properties[spec.show_text][0]
    try:
        text = table[game.card_names.index(cards[at])]
    except (ValueError, IndexError):
        return ""
    return text if isinstance(text, str) else ""


def _stack_zone(game, cards: list) -> Text:
    """A ``show: stack`` pile read as it stands, bottom to top: 'A ▸ B ▸ C  (bottom ▸ top)'."""
    text = Text(" ▸ ".join(card_label(game, name) for name in cards))
    text.append("  (bottom ▸ top)", style="dim")
    return text


def next_index(game, zone: str, cards) -> int | None:
    """Where the card the rules take next lies in ``cards`` (the zone's ``next`` hint: top, the last listed;
    bottom, the first), or None."""
    end = zone_place(game, zone).get("next")
    if not end or not cards:
        return None
    return len(cards) - 1 if end == "top" else 0


NEXT_MARK = "  ◂ next"


def _marked_row(game, cards: list, marked: int) -> Text:
    """A row whose next card is marked: its cards one by one as they lie (none counted together)."""
    text = Text()
    for i, name in enumerate(cards):
        text.append((", " if i else "") + card_label(game, name))
        if i == marked:
            text.append(NEXT_MARK, style="bold")
    return text


def _with_top_text(game, zone: str, shown: dict) -> Text:
    """A zone's contents in a player's row or a table line, with the ``show_text`` of its top card; a pile
    of several cards also shows that of its base (the card the others stand on)."""
    show, cards = zone_place(game, zone)["show"], shown.get("cards")
    pile = show == "stack" and cards and len(cards) > 1
    marked = next_index(game, zone, cards) if show == "row" else None
    if show == "grouped" and cards:
        contents = _grouped_zone(game, cards)
    elif pile:
        contents = _stack_zone(game, cards)
    elif marked is not None:
        contents = _marked_row(game, cards, marked)
    else:
        contents = zone_contents(shown, game)
    text = top_text(game, zone, shown)
    if text:
        contents.append(("\n↳ top: " if pile else "\n↳ ") + text, style="italic")
    base = top_text(game, zone, shown, 0) if pile else ""
    if base:
        contents.append("\n↳ base: " + base, style="italic")
    return contents


FACES_SHOWN = 4  # a shared zone of at most this many different cards shows each card's ability and text


def _face_rules(game, name: str) -> list:
    """The ability's type and the text a card's face shows, as far as the card has them."""
    face, props = _face(game), card_properties(game, name)
    return [format_value(props[key]) for key in (face.get("ability"), face.get("text")) if key and props.get(key)]


def _faces_zone(game, cards: list, marked: int | None = None):
    """A few cards on the table, each on its line with its ability and text, as they lie face up (the one at
    ``marked`` marked next: then each card on its own line); None when no card there has an ability or text
    on its face (the names say it all)."""
    if not cards or len(group_cards(cards)) > FACES_SHOWN:
        return None
    groups = group_cards(cards) if marked is None else [(name, 1) for name in cards]
    rules = [_face_rules(game, name) for name, _ in groups]
    if not any(rules):
        return None
    lines = Text()
    for number, ((name, times), said) in enumerate(zip(groups, rules)):
        lines.append(("\n" if number else "") + card_label(game, name) + ("" if times == 1 else f" x{times}"))
        if number == marked:
            lines.append(NEXT_MARK, style="bold")
        if said:
            lines.append(" · " + ": ".join(said), style="dim")
    return lines


def _is_empty(shown: dict) -> bool:
    return not shown.get("cards") and not shown.get("count") and not shown.get("shown")


def _player_blocks(game, view: dict, per_player: dict, seat: int | None, columns: _PlayerColumns) -> Group:
    """Too many columns for one row per player: each player as a block of their non-empty zones (the
    empty ones named on one line), their counters and their variables."""
    active = view["variables"].get("active")
    blocks = [Text("Players", style="italic")]
    for player in range(view["players"]):
        blocks.append(_player_block(game, view, dict(per_player.get(player, [])), player, seat, active, columns))
    if active is not None:
        blocks.append(Text("* active player", style="dim"))
    return Group(*blocks)


def _player_block(game, view: dict, zones: dict, player: int, seat: int | None, active, columns: _PlayerColumns):
    """One player's block: a line per non-empty zone, one naming the empty ones, one of counters and variables."""
    table = Table(title=_player_label(player, seat, active), title_justify="left",
                  title_style="bold" if player == seat else "",
                  box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    empty = [name for name in columns.zones if name in zones and _is_empty(zones[name])]
    for name in columns.zones:
        if name in zones and name not in empty:
            table.add_row(Text(zone_place(game, name)["label"]), _with_top_text(game, name, zones[name]))
    if empty:
        table.add_row(Text("empty", style="dim"),
                      Text(", ".join(zone_place(game, name)["label"] for name in empty), style="dim"))
    facts = _player_facts(game, view["player_variables"][player], player, columns)
    if facts:
        table.add_row(Text(""), Text(" · ".join(facts), style="dim"))
    return table


def _player_facts(game, values: dict, player: int, columns: _PlayerColumns) -> list:
    """'coins 3', 'score 12': a player's counters, then the variables the viewer may see."""
    facts = [f"{name} {values_of[player]}" for name, values_of in columns.counters.items()]
    return facts + [f"{columns.labels[name]} {format_value(values[name], game.pvars.get(name, 'any'))}"
                    for name in columns.variables if name in values]


def _zone_table(title: str, zones, game=None) -> Table:
    table = Table(title=title, title_justify="left", box=box.SIMPLE, show_header=False, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for name, shown in zones:
        if game is None:
            table.add_row(Text(name), zone_contents(shown))
            continue
        faces = _faces_zone(game, shown["cards"], next_index(game, name, shown["cards"])) \
            if "cards" in shown and zone_place(game, name)["show"] == "row" else None
        table.add_row(Text(zone_place(game, name)["label"]), faces or _with_top_text(game, name, shown))
    return table


# ---------------------------------------------------------------- the board, drawn
MAX_RING_DRAWN = 16  # a longer ring is listed space by space rather than drawn
PILE_SHOWN = 4  # cards of a visible pile on a space listed one by one, the top first
ARROWS = {(0, 1): "→", (0, -1): "←", (1, 0): "↓", (-1, 0): "↑"}


def board_drawing(game, view: dict, per_space: dict):
    """The board as its shape: a grid as rows and columns (north at the top), a ring as a loop of
    spaces in order; any other board (or one too large to draw) as a table of spaces and their exits."""
    board = game.board
    counters = _space_counters(view)
    if board.grid is not None:
        drawn = _grid_drawing(game, per_space, counters)
        rest = [sp for sp in board.spaces if not _in_grid(sp, board.grid)]
        return drawn if not rest else Group(drawn, _board_table(game, per_space, rest, "Other spaces"))
    if board.ring is not None and 2 <= len(board.ring) <= MAX_RING_DRAWN:
        drawn = _ring_drawing(game, per_space, counters)
        rest = [sp for sp in board.spaces if sp not in set(board.ring)]
        return drawn if not rest else Group(drawn, _board_table(game, per_space, rest, "Other spaces"))
    return _board_table(game, per_space)


def _in_grid(space, grid) -> bool:
    rows, columns = grid
    return space in {f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, columns + 1)}


def _space_counters(view: dict) -> dict:
    """space -> [(counter, n), ...] for the counters a space holds (none at 0)."""
    found: dict = {}
    for name, entry in (view.get("counters") or {}).items():
        for space, n in (entry.get("spaces") or {}).items():
            if n:
                found.setdefault(space, []).append((name, n))
    return found


def space_cell(game, zones: list, counters: list) -> Text:
    """What stands on one space: each of its zones' top card (and how many lie below), and its counters.

    The zone's name leads each line when the game has several per-space zones (cards and pieces)."""
    named = sum(1 for spec in game.zones.values() if spec.per == "space") > 1
    text = Text()
    for name, shown in zones:
        cards, top, count, top_counters = _space_pile(shown)
        if not count:
            continue
        if text:
            text.append("\n")
        if named:
            text.append(f"{zone_place(game, name)['label']}: ", style="dim")
        if top is None:
            text.append(f"{plural(count, 'card')} (hidden)", style="dim")
        else:
            _append_top_card(text, game, top, top_counters)
            _append_below_top(text, cards, count)
    for name, n in counters:
        if text:
            text.append("\n")
        text.append(f"{name}: {n}")
    return text if text else Text("·", style="dim")


def _space_pile(shown: dict) -> tuple:
    """(cards or None, top card or None, how many, the top card's counters) of one zone on a space: a visible
    pile lists its cards, a hidden one gives a count and perhaps its top."""
    cards = shown.get("cards")
    if cards is None:
        return None, shown.get("top"), shown.get("count", 0), shown.get("top_counters") or {}
    top_counters = {k: v[-1] for k, v in (shown.get("counters") or {}).items()} if cards else {}
    return cards, (cards[-1] if cards else None), len(cards), top_counters


def _append_top_card(text: Text, game, top: str, top_counters: dict) -> None:
    """The top card in bold, its badges, and the counters on it that are not 0."""
    text.append(str(top), style="bold")
    badges = card_badges(game, top)
    if badges:
        text.append(f" ({badges})", style="dim")
    marks = ", ".join(f"{k} {v}" for k, v in top_counters.items() if v)
    if marks:
        text.append(f" [{marks}]")


def _append_below_top(text: Text, cards, count: int) -> None:
    """What lies under the top card: a visible pile's next few cards, nearest first; else how many."""
    if cards is not None and count > 1:
        under = cards[-2::-1]
        for name_below in under[:PILE_SHOWN - 1]:
            text.append("\n  on ", style="dim")
            text.append(str(name_below))
        if len(under) >= PILE_SHOWN:
            text.append(f"\n  +{len(under) - PILE_SHOWN + 1} more below", style="dim")
    elif count > 1:
        text.append(f" +{count - 1} below", style="dim")


def _grid_drawing(game, per_space: dict, counters: dict) -> Table:
    rows, columns = game.board.grid
    table = Table(title="Board, north at the top", title_justify="left", box=box.SQUARE, show_lines=True)
    table.add_column("", style="bold", no_wrap=True)
    for c in range(1, columns + 1):
        table.add_column(f"c{c}", justify="left", ratio=1)
    wraps = _step_only_marks(game.board)
    for r in range(1, rows + 1):
        cells = []
        for c in range(1, columns + 1):
            space = f"r{r}c{c}"
            cell = space_cell(game, per_space.get(space, []), counters.get(space, []))
            marks = wraps.get(space)
            if marks:  # step-only edges (wraps): the northward ones above the contents, the others below
                above = [m for d, m in marks if d in NORTHWARD]
                below = [m for d, m in marks if d not in NORTHWARD]
                cell = Text("\n").join([Text(m, style="cyan") for m in above] + [cell]
                                       + [Text(m, style="cyan") for m in below])
            cells.append(cell)
        table.add_row(f"r{r}", *cells)
    return table


STEP_ARROWS = {"north": "↑", "south": "↓", "east": "→", "west": "←",
          "northeast": "↗", "northwest": "↖", "southeast": "↘", "southwest": "↙"}
NORTHWARD = ("north", "northeast", "northwest")


def _step_only_marks(board) -> dict:
    """space -> [(direction, '↑ r4c3')] for the step-only edges (adjacent: false) that depart it."""
    marks: dict = {}
    for (space, direction), target in sorted(board.step_only.items()):
        arrow = STEP_ARROWS.get(direction, f"{direction}:")
        marks.setdefault(space, []).append((direction, f"{arrow} {target} (step only)"))
    return marks


def ring_layout(n: int) -> tuple[int, int, list[tuple[int, int]]]:
    """Where ``n`` spaces of a ring go around a rectangle: (rows, columns, [(row, column) in ring order]).

    Clockwise from the top left corner: the top row left to right, down the right side, the bottom
    row right to left, up the left side.  The rectangle's rim has room for ``n`` (one cell more when
    ``n`` is odd, left empty at the end of the loop)."""
    columns = max(2, (n + 3) // 4 + 1) if n > 4 else max(2, (n + 1) // 2)
    rows = max(2, -(-(n - 2 * columns) // 2) + 2) if n > 2 * columns else (2 if n > columns else 1)
    rim = [(0, c) for c in range(columns)]
    rim += [(r, columns - 1) for r in range(1, rows)]
    if rows > 1:
        rim += [(rows - 1, c) for c in range(columns - 2, -1, -1)]
        rim += [(r, 0) for r in range(rows - 2, 0, -1)]
    return rows, columns, rim


def _ring_drawing(game, per_space: dict, counters: dict) -> Table:
    """A ring drawn as a loop: its spaces clockwise around a rectangle, arrows in the forward direction."""
    board = game.board
    ring = board.ring
    rows, columns, rim = ring_layout(len(ring))
    forward = next((d for d in board.directions if board.step_table.get((ring[0], d)) == ring[1 % len(ring)]), "")
    grid = [[Text("") for _ in range(2 * columns - 1)] for _ in range(2 * rows - 1)]
    for (r, c), space in zip(rim, ring):
        grid[2 * r][2 * c] = Panel(space_cell(game, per_space.get(space, []), counters.get(space, [])),
                                   title=Text(str(space), style="bold"), title_align="left", expand=True)
    path = rim[:len(ring)] + rim[len(ring):] + rim[:1]  # the loop: every space, the empty rim cell if any, back
    for (r1, c1), (r2, c2) in zip(path, path[1:]):
        arrow = ARROWS.get((r2 - r1, c2 - c1))
        if arrow:  # a sideways arrow on the level of the spaces' first line
            grid[r1 + r2][c1 + c2] = Text(arrow if r1 != r2 else "\n" + arrow, style="bold", justify="center")
    if len(rim) > len(ring):  # an odd ring keeps the last rim cell empty: the loop bends through it
        (r1, c1), (r2, c2), (r3, c3) = rim[len(ring) - 1], rim[len(ring)], rim[0]
        bend = _bend(r1 - r2, c1 - c2, r3 - r2, c3 - c2)
        grid[2 * r2][2 * c2] = Text(("│\n" if bend in "┘└" else "\n") + bend, style="bold", justify="center")
    title = f"Board: a ring of {plural(len(ring), 'space')}" + (f", arrows point {forward}" if forward else "")
    table = Table(title=title, title_justify="left", box=None, show_header=False, pad_edge=False, padding=0)
    for c in range(2 * columns - 1):
        if c % 2:
            table.add_column(width=3, justify="center", vertical="top")
        else:
            table.add_column(ratio=1, vertical="top")
    for row in grid:
        table.add_row(*row)
    return table


def _bend(dr_in, dc_in, dr_out, dc_out) -> str:
    """The corner line drawn in an empty rim cell that the loop passes through."""
    ends = {(dr_in, dc_in), (dr_out, dc_out)}
    for glyph, pair in (("┘", {(0, -1), (-1, 0)}), ("└", {(0, 1), (-1, 0)}), ("┐", {(0, -1), (1, 0)}),
                        ("┌", {(0, 1), (1, 0)}), ("─", {(0, -1), (0, 1)}), ("│", {(-1, 0), (1, 0)})):
        if ends == pair:
            return glyph
    return "·"


def _board_table(game, per_space, spaces=None, title="Board") -> Table:
    names = []
    for zones in per_space.values():
        for name, _ in zones:
            if name not in names:
                names.append(name)
    table = Table(title=title, title_justify="left", box=box.SIMPLE, pad_edge=False)
    table.add_column("space", style="bold")
    table.add_column("steps", style="dim")
    for name in names:
        table.add_column(Text(name))
    for space in game.board.spaces if spaces is None else spaces:
        zones = dict(per_space.get(space, []))
        table.add_row(Text(str(space)), _steps_from(game.board, space),
                      *(pile_contents(zones[n]) if n in zones else Text("") for n in names))
    return table


def _steps_from(board, space) -> Text:
    """Where one step in each direction leads ('east -> r1c2'), so the board's layout can be read."""
    steps = [f"{d} -> {board.step_table[(space, d)]}" for d in board.directions if (space, d) in board.step_table]
    return Text("\n".join(steps))


def pile_contents(shown: dict) -> Text:
    """A zone on a board space, read as a pile: one line per card, the top card first and marked.

    Order matters on a board (what is on top of what), so runs of identical cards are
    grouped only when they are next to each other.
    """
    cards = shown.get("cards")
    if not cards or len(cards) == 1:
        return zone_contents(shown)
    runs: list[list] = []
    for name in reversed(cards):
        if runs and runs[-1][0] == name:
            runs[-1][1] += 1
        else:
            runs.append([name, 1])
    text = Text()
    for i, (name, times) in enumerate(runs):
        text.append(("\n" if i else "") + (name if times == 1 else f"{name} x{times}"))
        if i == 0:
            text.append("  (top)", style="dim")
    return text


MAX_OPTION_FACES = 12  # a decision with more options than this lists no card faces under them


def _seats_text(players, seat: int | None) -> str:
    """'player 1 (you), player 2': seats by number, the viewer's own marked."""
    return ", ".join(f"player {p + 1}" + (" (you)" if p == seat else "") for p in players)


def decision_head(decision: dict, seat: int | None) -> Text:
    """'Decision: play - waiting for player 2 (you) · chosen: player 1 (secret: ...)': whose decision it is and,
    at a decision taken at once, who has chosen (never what)."""
    waiting = _seats_text(decision["waiting_for"], seat) or "nobody"
    head = Text.assemble(("Decision: ", "bold"), decision["prompt"] or "choose", (f" - waiting for {waiting}", "dim"))
    decided = _seats_text(decision.get("decided") or (), seat)
    if decided:
        head.append(f" · chosen: {decided}", style="dim")
    if decision.get("secret"):
        head.append(" (secret: the others see only who has chosen)", style="dim")
    return head


def _option_faces(game, described) -> dict:
    """{option label: the card faces to print under it}: those that say more than the card's name."""
    if game is None or not described or len(described) > MAX_OPTION_FACES:
        return {}
    faces = {}
    for option in described:
        shown = [card_face(game, name) for name in option.get("cards") or ()]
        faces[option["label"]] = [face for face, name in zip(shown, option.get("cards") or ())
                                  if not _words(face.plain) <= _words(name)]  # else it would repeat the option
    return faces


def render_decision(console: Console, decision: dict, seat: int | None, game=None, described=None) -> None:
    """Whose decision it is, and the numbered options when it is ``seat``'s; with ``game`` and ``described``
    (``state.decision_for(seat)["options"]``), an option that picks cards shows their faces."""
    options = decision.get("your_options") or []
    console.print(decision_head(decision, seat))
    faces = _option_faces(game, described)
    for number, option in enumerate(options, 1):
        console.print(Text.assemble((f"  {number:>3}. ", "bold cyan"), option))
        for face in faces.get(option, ()):
            console.print(Padding(face, (0, 0, 0, 8)))
    if options:
        console.print(Text("  (? explains this decision; info NAME shows a card you can see, info ZONE a zone)",
                           style="dim"))


def names_in_sight(game, view: dict, described=None) -> dict:
    """{lowercased name: name} of every card ``view`` (and the decision's ``described`` options) shows:
    what ``info NAME`` may describe.  A card the view only counts is not there, so asking about it reads
    exactly like asking about a card that does not exist."""
    known, found = set(game.card_names), {}

    def walk(value):
        if type(value) is str:
            if value in known:
                found.setdefault(value.lower(), value)
        elif type(value) is list:
            for item in value:
                walk(item)
        elif type(value) is dict:
            for item in value.values():
                walk(item)
    walk(view.get("zones"))
    walk(view.get("variables"))
    walk(view.get("player_variables"))
    for option in described or ():
        walk(option.get("cards"))
    return found


def render_card(console: Console, game, name: str) -> None:
    """``info NAME``: one card's whole face, every property included."""
    console.print(Panel(card_face(game, name, whole=True), title="card", title_align="left", border_style="dim",
                        expand=False))


def render_zone(console: Console, game, label: str, shown: dict) -> None:
    """``info ZONE``: one zone as the seat's view holds it."""
    console.print(Text.assemble((_zone_title(game, label) + ": ", "bold"), zone_contents(shown, game)))


def _zone_title(game, label: str) -> str:
    """'hand (player 2)', 'tokens (s3)', 'game box': a zone's table label with its owner or space."""
    name, _, owner = label.partition("(")
    owner = owner[:-1]
    if owner.isdigit():
        owner = f"player {owner}"
    return zone_place(game, name)["label"] + (f" ({owner})" if owner else "")


def render_decision_rules(console: Console, game, prompt: str, paths) -> None:
    """``?``: the rules behind the decision being asked: the game's summary, then the rules that are
    running (outermost first, by their keys), the innermost one's text in full, as ``ribbit rules``
    prints it."""
    data = game.source.data
    console.print(Text.assemble(("Decision: ", "bold"), prompt or "choose"))
    if data.get("description"):
        console.print(Text(" ".join(str(data["description"]).split()), style="dim"))
    keys = []
    for path in paths:
        if path and path[0] != "flow" and path not in keys:
            keys.append(path)
    if keys:
        console.print(Text("Asked by: " + " -> ".join(_rule_name(data, p) for p in keys), style="dim"))
        text = _at(data, keys[-1])
        if isinstance(text, str):
            _code_blocks_plain(console, [(_rule_name(data, keys[-1]), text)])
    console.print(Text("`ribbit rules FILE` prints every rule.", style="dim"))


def _rule_name(data, path) -> str:
    """'procedure take_turn(player p)', 'setup step deal', 'trigger ...': a rule by its key."""
    if len(path) >= 2 and path[0] in ("setup", "triggers", "flow") and isinstance(path[1], int):
        entry = _at(data, path[:2])
        named = entry.get({"setup": "step", "flow": "phase"}.get(path[0], "name")) if isinstance(entry, dict) else None
        word = {"setup": "setup step", "triggers": "trigger", "flow": "phase"}[path[0]]
        return f"{word} {named}" if named else f"{word} {path[1] + 1}"
    return " ".join(str(p) for p in path if p != "do").replace("procedures ", "procedure ", 1)


def _at(data, path):
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _code_blocks_plain(console, entries):
    for heading, text in entries:
        console.print(Text(heading, style="bold"))
        console.print(Padding(effect(text), (0, 0, 1, 4)))


# ---------------------------------------------------------------- results
def score_columns(game) -> tuple[list, str]:
    """The end-of-game breakdown's columns and the total's heading, in the definition's terms: several terms
    each get a column beside "score"; a single term is the score itself, headed by its label ("tricks")."""
    terms = (getattr(game, "presentation", None) or {}).get("score") or []
    if len(terms) == 1:
        return [], terms[0][1]
    return list(terms), "score"


def render_result(console: Console, game, state, seat: int | None = None) -> None:
    """Final scores and winners of a finished game (``seat``'s row says "(you)")."""
    scores, winners = state.scores(), state.winners()
    terms, total = score_columns(game)
    breakdown = state.score_breakdown() if terms else []
    table = Table(title=f"{game.name}: final result", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("seat")
    for _, label in terms:
        table.add_column(Text(label), justify="right")
    table.add_column(Text(total), justify="right")
    table.add_column("")
    for player, score in enumerate(scores):
        table.add_row(f"player {player + 1}" + (" (you)" if player == seat else ""),
                      *(str(breakdown[player][term]) for term, _ in terms), str(score),
                      "winner" if player in winners else "", style="bold green" if player in winners else "")
    console.print(table)
    console.print(Text(winners_sentence(winners) + (" (the rules ended the game with `end game`)"
                                                     if state.forced_winners is not None else ""), style="bold green"))


def winners_sentence(winners) -> str:
    names = [f"player {w + 1}" for w in winners]
    if not names:
        return "Nobody wins."
    if len(names) == 1:
        return f"{names[0].capitalize()} wins."
    return f"{', '.join(names[:-1]).capitalize()} and {names[-1]} share the victory."


# ---------------------------------------------------------------- simulation statistics
def _number(value, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.{digits}f}"
    return str(int(value))


def render_stats(console: Console, game, stats, players: int, elapsed: float | None = None,
                 max_decisions: int | None = None) -> None:
    """The simulation tables: per-seat wins and scores, then game length and how the games ended."""
    games = stats.games
    title = f"{game.name}: {games} games, {players} players"
    if elapsed:
        title += f" ({elapsed:.1f} s, {games / elapsed:.0f} games/s)"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    for name in ("seat", "win share", "score mean", "min", "median", "max"):
        table.add_column(name, justify="left" if name == "seat" else "right")
    for seat in range(players):
        tally = stats.scores[seat]
        table.add_row(f"player {seat + 1}", f"{100 * stats.win_share(seat):.1f}%", _number(tally.mean),
                      _number(tally.minimum), _number(tally.median, 1), _number(tally.maximum))
    console.print(table)
    length = Table(box=box.SIMPLE_HEAD, title="Game length", title_justify="left")
    for name in ("per game", "mean", "min", "median", "max"):
        length.add_column(name, justify="left" if name == "per game" else "right")
    from .sim import length_measures

    # the decisions, then what the game's flow counts (turns, rounds): never a row of zeros for a measure it lacks
    for name in ("decisions",) + length_measures(game):
        tally = getattr(stats, name)
        length.add_row(name, _number(tally.mean, 1), _number(tally.minimum), _number(tally.median, 1),
                       _number(tally.maximum))
    console.print(length)
    cap = f"{max_decisions:,} decisions" if max_decisions else "decisions"
    endings = Table(box=box.SIMPLE_HEAD, title="How the games ended", title_justify="left")
    for name in ("", "games", "share"):
        endings.add_column(name, justify="right" if name else "left")
    for label, games_of in (("ended by an `end game` statement", stats.endings["end_game"]),
                            ("ended when the last phase ended (its `until`)", stats.endings["flow"]),
                            (f"stopped at the cap of {cap} (no winner)", stats.endings["decision_cap"]),
                            ("finished with no winner", stats.no_winner),
                            ("shared victory", stats.shared_victories)):
        endings.add_row(label, str(games_of), f"{100 * stats.share(games_of):.1f}%")
    console.print(endings)


# ---------------------------------------------------------------- the rules
def effect(text) -> Syntax:
    """Effect or expression text, laid out as code."""
    return Syntax(inert(str(text).rstrip()), "python", theme="ansi_dark", background_color="default", word_wrap=True)


def render_rules(console: Console, game) -> None:
    """A readable summary of a loaded definition, section by section, for any game."""
    data = game.source.data
    console.print(Text(game.name, style="bold underline"))
    if data.get("description"):
        console.print(Text(" ".join(str(data["description"]).split())))
    players = f"{game.min_players}" if game.min_players == game.max_players \
        else f"{game.min_players}-{game.max_players}"
    console.print(Text(f"Players: {players}"))
    _variants(console, game)
    for section in (_components, _parameters, _board, _zones, _variables, _events, _setup, _flow,
                    _procedures, _functions, _quantities, _triggers, _abilities, _scoring, _table, _changes):
        section(console, game, data)


def _changed(game, path) -> Text:
    """A '[variant]' mark after a part that a variant added or replaced; nothing for the game's own parts."""
    changed_by = getattr(game.source, "changed_by", None)
    name = changed_by(path) if changed_by else None
    return Text(f"  [{name}]", style="bold magenta") if name else Text("")


def _variants(console, game) -> None:
    """Each variant applied, with the values of its settings in force (a later variant may set one again)."""
    for variant in getattr(game.source, "variants", ()):
        settings = ", ".join(f"{k} = {format_value(v)}" for k, v in variant.params.items()
                             if k in game.params and game.source.changed_by(("parameters", k)) == variant.name)
        console.print(Text.assemble(("Variant: ", "bold"), f"{variant.title} ", (f"[{variant.name}]", "bold magenta"),
                                    f" with {settings}" if settings else ""))


def _changes(console, game, data):
    changes = getattr(game.source, "changes", ())
    if not changes:
        return
    _section(console, f"Changed by variants ({len(changes)})")
    for change in changes:
        console.print(Text(str(change)))


def _section(console: Console, title: str) -> None:
    console.print()
    console.rule(Text(title, style="bold"), align="left")


def _components(console, game, data):
    defaults = game.property_defaults
    total = len(game.card_names)
    _section(console, f"Components ({plural(len(game.kinds), 'kind')}, {plural(total, 'piece')} in all)")
    if defaults:
        console.print(Text("Properties (default): " + ", ".join(f"{k} ({format_value(v)})"
                                                               for k, v in defaults.items()), style="dim"))
    if not game.kinds:
        console.print(Text("none"))
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("component", "count", "properties", "starts in", "abilities"):
        table.add_column(name, justify="right" if name == "count" else "left")
    for kind in game.kinds:
        table.add_row(*_component_row(game, kind, defaults))
    console.print(table)


def _component_row(game, kind: dict, defaults: dict) -> tuple:
    """One kind of component: its name (marked if a variant changed it), how many, the properties that differ
    from the defaults, where it starts, and its abilities."""
    decl = kind["declaration"]
    count = decl.get("count", 1)
    count_text = f"{count} each" if decl.get("per_player") else str(count)
    props = ", ".join(f"{k}: {format_value(v)}" for k, v in kind["values"].items()
                      if v != defaults.get(k))
    zone = decl.get("zone")
    start = "out of play" if zone is None else zone + (" (each player's)" if decl.get("per_player") else "")
    abilities = [f"when {k[5:].replace('_', ' ')}" for k in decl if k.startswith("when_")]
    abilities += [f"modifies {m['quantity']}" for m in decl.get("modifiers") or []]
    return (Text(kind["name"]) + _changed(game, ("components", kind["index"])), count_text,
            Text(props or "-"), Text(start), Text(", ".join(abilities)))


def _parameters(console, game, data):
    if not game.params:
        return
    _section(console, "Parameters")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("name")
    table.add_column("value")
    for name, value in game.params.items():
        table.add_row(Text(name) + _changed(game, ("parameters", name)), Text(format_value(value)))
    console.print(table)


def _board(console, game, data):
    if game.board is None:
        return
    for counts, compiled in game.every_count():
        _one_board(console, compiled.board, counts)


def _one_board(console, board, counts):
    players = "" if counts is None else \
        f", for {counts[0]}-{counts[-1]} players" if len(counts) > 1 else f", for {counts[0]} players"
    _section(console, f"Board ({plural(len(board.spaces), 'space')}{players})")
    if board.grid is not None:
        rows, columns = board.grid
        diagonal = " and diagonal steps" if any(board.diagonals.values()) else ""
        console.print(Text(f"A grid of {rows} rows and {columns} columns{diagonal}: r1 is the north (top) row, "
                           f"c1 the west (left) column."))
    if board.ring is not None:
        console.print(Text(f"A ring of {plural(len(board.ring), 'space')}: " + " -> ".join(board.ring)
                           + f" -> {board.ring[0]}"))
    console.print(Text("Spaces: " + ", ".join(map(str, board.spaces))))
    console.print(Text("Directions: " + (", ".join(board.directions) or "none")))
    for space in board.spaces:
        steps = [f"{d} -> {board.step_table[(space, d)]}" + (" (step only)" if (space, d) in board.step_only else "")
                 for d in board.directions if (space, d) in board.step_table]
        console.print(Text(f"  {space}: " + ("; ".join(steps) or "no exits"), style="dim"))


def _zones(console, game, data):
    _section(console, f"Zones ({len(game.zones)})")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("zone", "kind", "visibility", "description"):
        table.add_column(name)
    for spec in game.zones.values():
        visibility = Text.assemble(spec.visibility, (f" ({VISIBILITY.get(spec.visibility, '')})", "dim"))
        seen = ((data.get("zones") or {}).get(spec.name) or {}).get("seen_by")
        if isinstance(seen, dict):  # the zone's visibility alone would tell the reader less than the rules say
            top = seen.get("top", 1)
            cards = "its top card is" if top == 1 else f"its top {top} cards are"
            visibility.append(f"; {cards} seen by each player p for whom {' '.join(str(seen.get('if')).split())}")
        table.add_row(Text(spec.name) + _changed(game, ("zones", spec.name)), PER.get(spec.per, spec.per),
                      visibility, Text(" ".join(str(spec.description).split())))
    console.print(table)


def _variables(console, game, data):
    rows = []
    for section, owner in (("game_variables", "game"), ("player_variables", "each player")):
        for name, spec in (data.get(section) or {}).items():
            value = spec.get("default") if isinstance(spec, dict) else spec
            notes = []
            if isinstance(spec, dict):
                if spec.get("visibility") == "owner":
                    notes.append("private to its owner")
                if spec.get("description"):
                    notes.append(str(spec["description"]))
            rows.append((name, owner, format_value(value), "; ".join(notes)))
    if not rows:
        return
    _section(console, "Variables")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("variable", "of", "starts at", "notes"):
        table.add_column(name)
    for row in rows:
        table.add_row(*(Text(str(cell)) for cell in row))
    console.print(table)
    console.print(Text("Built in: game.active (whose turn it is), game.turn and game.round (counters).", style="dim"))


def _events(console, game, data):
    if not game.events:
        return
    _section(console, "Events")
    for name, params in game.events.items():
        console.print(Text(f"{name}(" + ", ".join(f"{T.DECLARED.get(k, k)} {p}" for p, k in params) + ")"))


def _setup(console, game, data):
    setup = data.get("setup")
    if not setup:
        return
    _section(console, "Setup")
    if isinstance(setup, str):
        console.print(Padding(effect(setup), (0, 0, 0, 4)))
        return
    for number, step in enumerate(setup, 1):  # named steps, run in order
        console.print(Text(f"{number}. {step['step']}", style="bold") + _changed(game, ("setup", number - 1)))
        console.print(Padding(effect(step["do"]), (0, 0, 0, 4)))


def _phase_end(phase, check: str) -> str:
    """When a phase ends, in words: its `until` as written (YAML reads `false` as a bool, printed as the rules
    spell it), or that only `end game` ends it."""
    until = phase.get("until")
    if until is None and phase.get("repeat", True) is False:
        return ""
    if until is None or until is False:
        spelt = "" if until is None else " (`until: false`)"
        return f"; the phase never ends by itself{spelt}: an effect ends the game with `end game`"
    if until is True:
        return f"; the phase ends after its first {check.split()[-1]} (`until: true`)"
    return f"; the phase ends when {until} ({check})"


def _flow(console, game, data):
    _section(console, f"Flow ({plural(len(data['flow']), 'phase')})")
    for number, phase in enumerate(data["flow"], 1):
        name = phase.get("phase", f"phase {number}")
        if "turn" in phase:
            text = (f"turns: each player in {phase.get('order', 'clockwise')} order plays {phase['turn']}, "
                    f"starting with {phase.get('first', 'seat(1)')}")
            check = "after each turn"
        else:
            text = "a round: " + ", then ".join(phase["round"])
            text += ", once" if phase.get("repeat", True) is False else ", again and again"
            check = "after each round"
        text += _phase_end(phase, check)
        console.print(Text.assemble((f"{number}. {name}", "bold"), " - ", text) + _changed(game, ("flow", number - 1)))
    console.print(Text("The game ends when the last phase ends, or at once when an effect says `end game`.",
                       style="dim"))


def _code_blocks(console, title, entries):
    entries = list(entries)
    if not entries:
        return
    _section(console, title)
    for heading, text in entries:
        console.print(heading if isinstance(heading, rich_text.Text) else Text(heading, style="bold"))
        console.print(Padding(effect(text), (0, 0, 1, 4)))


def _procedures(console, game, data):
    entries = [(Text(str(key), style="bold") + _changed(game, ("procedures", key)), text)
               for key, text in (data.get("procedures") or {}).items()]
    _code_blocks(console, f"Procedures ({len(game.procedures)})", entries)


def _functions(console, game, data):
    functions = data.get("functions") or {}
    if not functions:
        return
    _section(console, f"Functions ({len(functions)})")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("function")
    table.add_column("value")
    for signature, text in functions.items():
        table.add_row(Text(str(signature)) + _changed(game, ("functions", signature)), effect(" ".join(str(text).split())))
    console.print(table)


def _quantities(console, game, data):
    quantities = data.get("quantities") or {}
    if not quantities:
        return
    _section(console, "Quantities")
    for signature, base in quantities.items():
        console.print(Text.assemble((str(signature), "bold"), " = ", str(base)))
    for decl in _entries(game):
        for mod in decl.get("modifiers") or []:
            cond = f" while {mod['if']}" if "if" in mod else ""
            console.print(Text(f"  {decl['name']}: {mod['quantity']} + {mod.get('add', 1)}{cond}", style="dim"))


def _triggers(console, game, data):
    entries = []
    for number, trig in enumerate(data.get("triggers") or []):
        heading = (f"{trig['name']}: " if "name" in trig else "") + f"on {trig['on']}" \
            + (f" if {trig['if']}" if "if" in trig else "")
        if trig.get("description"):
            heading += f" - {trig['description']}"
        entries.append((Text(heading, style="bold") + _changed(game, ("triggers", number)), trig["do"]))
    _code_blocks(console, "Triggers", entries)


def _entries(game) -> list:
    """The component entries as written, once each (a family's cards share one)."""
    seen = {}
    for kind in game.kinds:
        seen.setdefault(kind["index"], kind["declaration"])
    return list(seen.values())


def _abilities(console, game, data):
    entries = [(f"{decl['name']} - when {key[5:].replace('_', ' ')}", text)
               for decl in _entries(game) for key, text in decl.items() if key.startswith("when_")]
    _code_blocks(console, "Card abilities", entries)


def _scoring(console, game, data):
    scoring = data.get("scoring") or {}
    _section(console, "Scoring")
    score = scoring.get("score")
    if isinstance(score, dict) and len(score) > 1:  # named terms, added up
        console.print(Text.assemble(("Score: ", "bold"), "the sum of"))
        for name, term in score.items():
            console.print(Text(f"  {name}: {term}") + _changed(game, ("scoring", "score", name)))
    elif isinstance(score, dict):
        (name, term), = score.items()
        console.print(Text.assemble(("Score: ", "bold"), str(term), (f" ({name})", "dim"))
                      + _changed(game, ("scoring", "score", name)))
    elif "score" in scoring:
        console.print(Text.assemble(("Score: ", "bold"), str(scoring["score"])))
    else:
        console.print(Text("No score: every player scores 0."))
    for number, tiebreak in enumerate(scoring.get("tiebreaks") or [], 1):
        (direction, text), = tiebreak.items()
        console.print(Text(f"Tiebreak {number}: the {direction} {text} wins the tie"))
    console.print(Text("Players still tied share the victory. An `end game winners ...` statement names the "
                       "winners directly.", style="dim"))



def _table(console, game, data):
    """The ``table:`` section as a reader needs it: where each zone is drawn, how a card's face reads, which
    variables are drawn under which labels, the end-of-game breakdown; every default filled in and named."""
    given = data.get("table")
    look = getattr(game, "presentation", None)
    if not isinstance(given, dict) or not look:
        return
    _section(console, "The table (how it is drawn)")
    _table_zones(console, game, given, look["zones"], look["cards"]["band"])
    _table_cards(console, game, given, look["cards"])
    _table_variables(console, game, look["variables"])
    _table_score(console, game, look["score"])
    console.print(Text("Presentation only: what each seat may see is set by the zones' visibility, never here. A "
                       "hidden zone on the table shows its count, never its cards; a zone under the table is one "
                       "`info ZONE` away.", style="dim"))


def _table_zones(console, game, given: dict, zones: dict, band) -> None:
    listed = given.get("zones") or {}
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="Zones, in the order they are drawn",
                  title_justify="left")
    for name in ("zone", "drawn", "label", "shows"):
        table.add_column(name)
    for name, hint in zones.items():
        drawn = Text(PLACE.get(hint["at"], hint["at"]))
        if name not in listed:
            drawn.append(" (by default)", style="dim")
        mark = _changed(game, ("table", "zones", name)) if name in listed else Text("")
        table.add_row(Text(name) + mark, drawn, Text(hint["label"]), Text(_zone_shows(game, name, hint, band)))
    console.print(table)


def _zone_shows(game, name: str, hint: dict, band) -> str:
    """How a zone's cards are laid out, or, for a hidden zone, that its backs and count are all there is to see."""
    spec = game.zones[name]
    if spec.visibility == "hidden":
        seen = game.seen_zone is not None and any(game.seen_zone[i] is not None
                                                  for i in range(spec.base, spec.base + spec.count))
        return "face down, with its count" + (" (the cards to whoever may see them)" if seen else "")
    shows = SHOW.get(hint["show"], hint["show"]).format(band=band or "the band's value")
    if hint.get("next"):
        shows += f"; the {hint['next']} card marked next"
    return shows


def _table_cards(console, game, given: dict, cards: dict) -> None:
    head = Text.assemble(("Card faces: ", "bold"))
    if "cards" not in given:
        console.print(head + Text("every property is printed on the face."))
        return
    parts = ["the title is " + ("the name" if cards["title"] == "name" else f"property {cards['title']}")]
    if cards["badges"]:
        parts.append("badges: " + ", ".join(cards["badges"]))
    if cards["band"]:
        colours = ", ".join(f"{value} {colour}" for value, colour in (cards["colours"] or {}).items())
        parts.append(f"a band coloured by {cards['band']}" + (f" ({colours})" if colours else ""))
    if cards["ability"]:
        parts.append(f"the ability's type from {cards['ability']}")
    if cards["text"]:
        parts.append(f"its whole text from {cards['text']}")
    console.print(head + Text("; ".join(parts) + ".") + _changed(game, ("table", "cards")))
    console.print(Text("    The other properties are not on the face: `info NAME` at the terminal, the card's "
                       "\"i\" in the browser.", style="dim"))


def _table_variables(console, game, variables) -> None:
    head = Text.assemble(("Variables drawn: ", "bold"))
    if variables is None:
        console.print(head + Text("every one, under its name."))
        return
    shown = [f'{name} as "{label}"' for name, label in variables["game"].items()]
    shown += [f'each player\'s {name} as "{label}"' for name, label in variables["player"].items()]
    console.print(head + Text(("; ".join(shown) or "none") + "; no other.") + _changed(game, ("table", "variables")))


def _table_score(console, game, terms: list) -> None:
    if not terms:
        return
    head = Text.assemble(("End-of-game breakdown: ", "bold"))
    console.print(head + Text(", then ".join(f'{term} as "{label}"' for term, label in terms) + ".")
                  + _changed(game, ("table", "score")))


def render_coverage(console, coverage: RuleCoverage, games: int, title: str = "Rule coverage") -> None:
    """The coverage table: never reached first (they are what no game tested), then the rarest."""
    from .errors import shorten

    never = coverage.never_reached()
    heading = f"{title}: {len(coverage.rules) - never} of {len(coverage.rules)} rules ran in {games} games"
    if never:
        heading += f"; {never} never reached (listed first)"
    table = Table(box=box.SIMPLE_HEAD, title=heading, title_justify="left")
    for name in ("runs", "per game", "kind", "rule", "where"):
        table.add_column(name, justify="right" if name in ("runs", "per game") else "left")
    for kind, name, where, runs in coverage.report():
        table.add_row(Text(f"{runs:,}", style="bold red" if runs == 0 else ""),
                      f"{runs / games:.2f}" if games else "-", kind,
                      Text(shorten(inert(name), 80)), Text(shorten(inert(where), 80)))
    console.print(table)


__all__ = ["SafeConsole", "Text", "make_console", "group_cards", "describe_cards", "format_value", "render_view", "render_decision",
           "render_card", "render_zone", "render_decision_rules", "names_in_sight", "card_face", "render_result", "render_stats", "render_rules", "winners_sentence",
           "render_coverage"]


# ---------------------------------------------------------------- a comparison of configurations (ribbit compare)
ENDING_LABELS = {"end_game": "by an `end game` statement", "flow": "when the last phase ended",
                 "decision_cap": "stopped at the decision cap"}


def _percent(value) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _span(interval: dict, show) -> str:
    if interval is None or interval["low"] is None:
        return "-"
    return f"{show(interval['low'])} to {show(interval['high'])}"


def _points(value) -> str:
    return "-" if value is None else f"{100 * value:+.1f} pp".replace("+0.0 pp", "0.0 pp").replace("-0.0 pp", "0.0 pp")


def _p_value(value) -> str:
    return "-" if value is None else "<0.001" if value < 0.001 else f"{value:.3f}"


def _plain(value) -> str:
    return "-" if value is None else f"{value:.2f}"


def _signed(value) -> str:
    return "-" if value is None else ("0.00" if abs(value) < 0.005 else f"{value:+.2f}")


def render_comparison(console, game_name: str, configurations: list, games: int, seed: int,
                      confidence: float = CONFIDENCE, elapsed: float | None = None) -> None:
    """The comparison as tables: configurations, then win share, score, length and endings, each value with
    its interval and, after the first configuration, its difference to the first with that interval."""
    from .compare import comparison_note

    level = f"{confidence:.0%}"
    console.print(_comparison_head(game_name, configurations, games, seed, elapsed))
    for measure in (_compared_win_shares, _compared_scores, _compared_lengths, _compared_endings):
        console.print(measure(configurations, level))
    console.print(Text("An interval that excludes 0 (in the difference columns) is a difference the games show at "
                       f"the {level} level; one that includes 0 is not, at this number of games.", style="dim"))
    note = comparison_note(configurations, confidence)
    if note:
        console.print(Text(note, style="dim"))


def _comparison_head(game_name: str, configurations: list, games: int, seed: int, elapsed) -> Table:
    """The configurations compared: players, variants, bots, and how each is compared with the first."""
    base = configurations[0]["name"]
    timing = f", {elapsed:.1f} s" if elapsed else ""
    head = Table(title=f"{game_name}: {len(configurations)} configurations, {games} games each on seeds {seed} to "
                       f"{seed + games - 1}{timing}", title_justify="left", box=box.SIMPLE_HEAD)
    for name in ("configuration", "players", "variants", "bots", f"compared with {base!r}"):
        head.add_column(name)
    for k, c in enumerate(configurations):
        bots = c["bots"][0] if len(set(c["bots"])) == 1 else ", ".join(f"{s + 1}={b}" for s, b in enumerate(c["bots"]))
        how = "-" if not k else ("paired: the same deals" if c["difference"]["paired"]
                                 else "independent samples (other seats)")
        head.add_row(c["name"], str(c["players"]), ", ".join(c["variants"]) or "-", bots, how)
    return head


def _comparison_table(configurations: list, level: str, title: str, value_name: str, delta_name: str) -> Table:
    """An empty table of one measure: per configuration its value, interval, difference, interval and p."""
    base = configurations[0]["name"]
    t = Table(title=f"{title} ({level} intervals; difference: configuration minus {base!r})",
              title_justify="left", box=box.SIMPLE_HEAD)
    for name, justify in (("", "left"), ("configuration", "left"), (value_name, "right"),
                          ("interval", "right"), (delta_name, "right"), ("interval", "right"),
                          ("p (Holm)", "right")):
        t.add_column(name, justify=justify)
    return t


def _comparison_rows(t: Table, configurations: list, label: str, pick, show, delta, shown_delta) -> None:
    """One section of a measure's table (labelled on its first row): each configuration that has the value,
    with its difference to the first configuration (none for the first itself)."""
    for k, c in enumerate(configurations):
        value = pick(c)
        if value is None:
            continue
        d = delta(c["difference"]) if k else None
        label, first = "", label
        t.add_row(first, c["name"], show(value["estimate"]), _span(value, show),
                  shown_delta(d["estimate"]) if d else "", _span(d, shown_delta) if d else "",
                  _p_value(d.get("p_holm")) if d else "")
    t.add_section()


def _seat_of(c: dict, s: int):
    return c["seats"][s] if s < c["players"] else None


def _seat_delta(d, s: int, key: str):
    return d["seats"][s][key] if d and s < len(d["seats"]) else None


def _compared_win_shares(configurations: list, level: str) -> Table:
    wins = _comparison_table(configurations, level, "Win share per seat", "win share", "difference")
    for s in range(max(c["players"] for c in configurations)):
        _comparison_rows(wins, configurations, f"player {s + 1}",
                         lambda c, s=s: (_seat_of(c, s) or {}).get("win_share"), _percent,
                         lambda d, s=s: _seat_delta(d, s, "win_share"), _points)
    return wins


def _compared_scores(configurations: list, level: str) -> Table:
    scores = _comparison_table(configurations, level, "Score per seat, finished games", "mean score", "difference")
    for s in range(max(c["players"] for c in configurations)):
        _comparison_rows(scores, configurations, f"player {s + 1}",
                         lambda c, s=s: (_seat_of(c, s) or {}).get("score", {}).get("mean"), _plain,
                         lambda d, s=s: _seat_delta(d, s, "score_mean"), _signed)
    return scores


def _compared_lengths(configurations: list, level: str) -> Table:
    """Decisions per game, then each other length the first configuration counted."""
    from .sim import LENGTHS

    length = _comparison_table(configurations, level, "Game length", "mean", "difference")
    for key in ("decisions",) + tuple(name for name in LENGTHS if name in configurations[0]):
        _comparison_rows(length, configurations, f"{key} per game", lambda c, key=key: c[key]["mean"], _plain,
                         lambda d, key=key: d[f"{key}_mean"], _signed)
    return length


def _compared_endings(configurations: list, level: str) -> Table:
    endings = _comparison_table(configurations, level, "How the games ended", "share", "difference")
    for key, label in ENDING_LABELS.items():
        _comparison_rows(endings, configurations, label, lambda c, key=key: c["ended_by"][key]["share"], _percent,
                         lambda d, key=key: d["ended_by"][key], _points)
    return endings


# ---------------------------------------------------------------- a position of a replayed log (ribbit replay)
def show_position(console, replay, state, n: int, seat) -> None:
    """Position ``n`` as ``seat`` saw it: the decision that led there, the narration since the previous
    position (that seat's), then the view.  Reads only ``state.view(seat)`` and ``state.narration(seat)``."""
    from .log_replay import action_text, seat_label

    total = replay.decisions
    if n == 0:
        head = f"Start of the game (decision 0 of {total})"
        since = 0
    else:
        head = f"Decision {n} of {total}: {action_text(replay.steps[n - 1], seat)}"
        since = replay.steps[n - 2].narrated if n >= 2 else replay.start_narrated
    console.rule(Text(f"{head} - as {seat_label(seat)} saw it"))
    lines = state.narration(seat, since)
    if lines:
        console.print(Panel(Text("\n".join(lines)), title="Narration", title_align="left", border_style="dim"))
    render_view(console, replay.game, state.view(seat), seat)
    if state.is_terminal():  # the ending as at the table: each score by the definition's terms, the winner
        render_result(console, replay.game, state, seat)
