"""The table's look, read from a definition's optional ``table:`` section and normalised at load.

A definition may say where each zone is drawn, how a card's face reads, which variables are shown
under which labels and which score terms make up the end-of-game breakdown (Ludii's ``metadata
graphics`` block is the model).  Everything is presentation: the terminal and the browser apply it
to a seat's view, which the engine alone builds, so a hint can neither show a seat a card it may not
see nor take away one it may.  Each name the section uses is checked against the definition here,
so a misspelt zone or property is a located error before a game starts.

The result (``game.presentation``) is plain JSON data with every default filled:

``zones``      every zone, in drawing order: ``{name: {"at", "label", "show"}}``, with ``"next"`` (``top`` or
               ``bottom``) when the section names the end the next card is taken from;
``cards``      ``{"title", "badges", "band", "band_default", "colours", "ability", "text"}`` (``band_default``: the
               band property's default value, which the cards' own properties leave out);
``variables``  ``None`` (show every variable under its name) or ``{"game": {name: label}, "player": {...}}``;
``score``      ``[[term, label], ...]``: every score term, the listed ones first.
"""

from __future__ import annotations

import difflib

from ..errors import quote

PLACE_OF = {"game": "shared", "player": "player", "space": "board"}  # where a zone's kind puts it by default
BUILTIN_VARIABLES = ("active", "turn", "round")


def default_place(game, spec) -> str:
    """Where a zone not listed is drawn: by its kind, except that a zone whose cards nobody ever sees
    (hidden, and no ``seen_by``) goes under the table; its count stays readable there."""
    if spec.visibility == "hidden" and not _seen_by(game, spec):
        return "box"
    return PLACE_OF[spec.per]


def _seen_by(game, spec) -> bool:
    seen = game.seen_zone
    return seen is not None and any(seen[i] is not None for i in range(spec.base, spec.base + spec.count))


def build_presentation(game, table, fail, changes=()) -> dict:
    """``game.presentation`` from the ``table:`` section (None: all defaults); ``fail(message, path)``
    raises the located error.

    A name the game does not have is an error, unless a variant changed that part of the game
    (``changes``, the variants' :class:`Change` records): a variant that removes a zone or a score term
    need not rewrite the table, whose hint about it is then dropped."""
    reader = _TableReader(game, table or {}, fail, changes)
    return {"zones": reader.zones(), "cards": reader.cards(), "variables": reader.variables(),
            "score": reader.score()}


class _TableReader:
    """Reads each part of the ``table:`` section against the game, every default filled."""

    def __init__(self, game, table: dict, fail, changes):
        self.game, self.table, self.fail = game, table, fail
        self.touched = {change.part for change in changes}
        if "components" in self.touched:
            self.touched.add("properties")

    def unknown(self, part: str, message: str, where: tuple) -> None:
        """A name the game lacks: an error, unless a variant changed that part (the hint is then dropped)."""
        if part not in self.touched:
            self.fail(message, where)

    def zones(self) -> dict:
        """Every zone, the listed ones first: where it is drawn, its label, how its cards are shown."""
        game, zones = self.game, {}
        for name, hint in (self.table.get("zones") or {}).items():
            spec = game.zones.get(name)
            if spec is None:
                self.unknown("zones", f"the table names zone {quote(name)}, which the game does not have"
                             f"{_close(name, game.zones)}", ("table", "zones", name))
                continue
            zones[name] = self.zone(name, spec, hint or {})
        for name, spec in game.zones.items():
            if name not in zones:
                zones[name] = {"at": default_place(game, spec), "label": name.replace("_", " "), "show": "row"}
        return zones

    def zone(self, name: str, spec, hint: dict) -> dict:
        """One listed zone: drawn where its kind goes (or under the table), never elsewhere."""
        at = hint.get("at", default_place(self.game, spec))
        if at != "box" and at != PLACE_OF[spec.per]:
            kind = {"game": "a shared zone", "player": "a zone per player", "space": "a zone per board space"}[spec.per]
            self.fail(f"zone {quote(name)} is {kind}: it can be drawn at {quote(PLACE_OF[spec.per])} or under the "
                      f"table (box), not at {quote(at)}", ("table", "zones", name, "at"))
        placed = {"at": at, "label": hint.get("label", name.replace("_", " ")), "show": hint.get("show", "row")}
        if "next" in hint:  # which end the rules take the next card from: the table marks it
            placed["next"] = hint["next"]
        return placed

    def cards(self) -> dict:
        """The card face: title, badges, band (with its default and colours), ability and text properties."""
        face = self.table.get("cards") or {}
        badges = self.badges(face)  # checked first: its error comes before the other parts'
        cards = {"title": self.face_property(face, "title", allow_name=True) or "name", "badges": badges,
                 "band": self.face_property(face, "band"), "colours": dict(face.get("colours") or {}),
                 "ability": self.face_property(face, "ability"), "text": self.face_property(face, "text")}
        default = self.game.property_defaults.get(cards["band"]) if cards["band"] else None
        cards["band_default"] = default if isinstance(default, (str, int)) and default not in ("", 0) else None
        if cards["colours"] and not cards["band"]:
            self.fail("the card face gives colours but no band: name the property they colour (band: suit)",
                      ("table", "cards", "colours"))
        return cards

    def face_property(self, face: dict, key: str, allow_name: bool = False):
        """The property a part of the card face names (None: not given, or not the cards' and dropped)."""
        value = face.get(key)
        if value is None or (allow_name and value == "name"):
            return value
        if value not in self.game.properties:
            props = list(self.game.properties)
            self.unknown("properties", f"the card face's {key} names property {quote(value)}, which the cards do "
                         "not have" + _close(value, props + (["name"] if allow_name else [])), ("table", "cards", key))
            return None
        return value

    def badges(self, face: dict) -> list:
        badges = []
        for i, badge in enumerate(face.get("badges") or []):
            if badge in self.game.properties:
                badges.append(badge)
            else:
                self.unknown("properties", f"badge {quote(badge)} is not a property of the cards"
                             f"{_close(badge, list(self.game.properties))}", ("table", "cards", "badges", i))
        return badges

    def variables(self):
        """None (every variable under its name), or the listed ones under their labels, by game and player."""
        game = self.game
        if self.table.get("variables") is None:
            return None
        variables = {"game": {}, "player": {}}
        known = [*game.gvars, *game.pvars]
        for name, label in self.table["variables"].items():
            if name in game.pvars:
                variables["player"][name] = label
            elif name in game.gvars or name in BUILTIN_VARIABLES:
                variables["game"][name] = label
            else:
                self.unknown("game_variables" if "game_variables" in self.touched else "player_variables",
                             f"the table shows variable {quote(name)}, which is neither a game nor a player variable"
                             + _close(name, known), ("table", "variables", name))
        return variables

    def score(self) -> list:
        """[[term, label]] of every score term, the listed ones first."""
        terms = [name for name, _ in self.game.score_terms]
        score = []
        for term, label in (self.table.get("score") or {}).items():
            if term not in terms:
                what = f"the score terms are {', '.join(map(quote, terms))}" if terms else "the game has no score"
                self.unknown("scoring", f"the breakdown names score term {quote(term)}, which the scoring does not "
                             f"have ({what})" + _close(term, terms), ("table", "score", term))
                continue
            score.append([term, label])
        listed = {term for term, _ in score}
        return score + [[term, term.replace("_", " ")] for term in terms if term not in listed]


def _close(name, known) -> str:
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1)
    return f"; did you mean {quote(close[0])}?" if close else ""
