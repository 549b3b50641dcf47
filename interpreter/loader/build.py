"""Build a :class:`~interpreter.game.Game` from validated YAML data.

Normalise once at load: every default filled, every name resolved, every
effect parsed, checked and compiled.  Anything wrong raises a located
:class:`DefinitionError` before a game can start.
"""

from __future__ import annotations

import functools
import gc
import re
from dataclasses import replace

from .. import errors as E
from ..errors import quote
from ..board import BoardError, build_board
from ..dsl import ast as A
from ..dsl import types as T
from ..dsl.compiler import CompileError, Compiler, Func, Proc
from ..dsl.context import TOO_MANY_NODES
from ..dsl.inline import loose_signal
from ..dsl.layout_hash import layout_hash
from .saves import load_save
from .scenario import apply_scenario, prepare_scenario
from ..dsl.options import ALL_ON
from ..dsl.parser import SnippetSyntaxError, parse, parse_expression, parse_function_body
from ..game import Counter, Game, Quantity, ZoneSpec
from .presentation import build_presentation
from .source import Source, format_path

SIGNATURE = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*\(([^)]*)\)\s*(?:->\s*([a-z_:]+))?\s*$")
PARAM = re.compile(r"^\s*([a-z_]+)\s+([a-z_][a-z0-9_]*)\s*$")  # "card c": the kind, then the name
RESERVED_KEYS = {"name", "count", "zone", "per_player", "description", "modifiers", "listeners", "family"}
PLACEHOLDER = re.compile(r"(\{[^{}]*\})")  # "{rank}" in a family's name template
BUILTIN_GVARS = {"active": ("player", 0), "turn": ("int", 0), "round": ("int", 0)}

MAX_CARDS = 100_000  # cards and pieces in one game, all copies counted: rules scan zones of them

_ERROR_CLASSES = {"syntax": E.DSLSyntaxError, "name": E.DSLNameError, "type": E.DSLTypeError}


def _no_player_here(exc: CompileError, key: str, pvars) -> None:
    """An unknown name (with no close match) or a bare player variable in a flow key that names no player: say
    how to name one there (a stranger writes ``until: p.points >= 10`` as in a procedure)."""
    node = exc.node
    if not isinstance(node, A.Name) or "did you mean" in exc.message:
        return
    scope = (f"{quote(key)} is worked out for the whole table, with no player 'p' in scope: name the player whose "
             "turn it is 'active'")
    if node.name in pvars:
        exc.message = (f"{quote(node.name)} is a player variable, and {scope} (active.{node.name}), or go through the "
                       f"players: any(each q in players where q.{node.name} ...)")
    elif exc.message.startswith("unknown name"):
        exc.message += f" ({scope}, or go through the players: any(each q in players where ...))"


class Builder:
    def __init__(self, source: Source, texts: list[str], variants: list[str], per_count=None, options=None):
        self.per_count = per_count  # a board per player count: (this game's Board, its counts, every space name)
        self.src = source
        self.data = source.data
        self.g = Game()
        self.g.source = source
        self.g.file = source.file
        self.g.source_texts = texts
        self.g.variants = variants
        self.g.locate = self.locate
        self.g.place = self.place
        self.g.compile_options = options if options is not None else ALL_ON  # see dsl/options.py
        self.g.hash_layout = layout_hash
        self.g.prepare_scenario, self.g.apply_scenario = prepare_scenario, apply_scenario
        self.g.read_save = load_save
        self.compiler = None
        self.setup_steps: list[str] = []  # procedure keys of named setup steps, dropped once compiled
        self.hidden_functions: list[str] = []  # function keys of hook conditions, dropped once compiled

    # ---------------------------------------------------------------- errors
    def locate(self, where, node):
        if where is None or node is None:
            return E.Location(self.src.file, key=str(where) if where else None)
        return self.src.location(where, node.line or None, node.column or None)

    def place(self, where, node):
        """:meth:`locate` without the caret excerpt (file, line and column are the same)."""
        if where is None or node is None:
            return E.Location(self.src.file, key=str(where) if where else None)
        return self.src.position(where, node.line or None, node.column or None)

    def fail(self, message, path=(), cls=E.DefinitionError):
        raise self.src.error(message + self.count_note(), tuple(path), cls=cls)

    def count_note(self) -> str:
        """' (with the board for 3 players)' when the game has a board per player count."""
        if self.per_count is None:
            return ""
        return f" (with the board for {_counts(self.per_count[1])} players)"

    def compile_error(self, exc: CompileError, where):
        where = getattr(exc, "where", where)
        node = exc.node
        line = node.line if node is not None and node.line else None
        col = node.column if node is not None and node.column else None
        raise self.src.error(E.bound_quotes(exc.message) + self.count_note(), where, line, col,
                             cls=_ERROR_CLASSES.get(exc.cls, E.DSLTypeError)) from None

    def parse_body(self, text, path):
        if not isinstance(text, str):
            self.fail("expected effect text (a string)", path)
        body = self.parsed(parse, text, path)
        loose = loose_signal(body)
        if loose is not None:
            word = "break" if isinstance(loose, A.Break) else "continue"
            self.compile_error(CompileError(f"'{word}' outside a loop: it must be inside 'loop:', 'while', 'for' "
                                            "or 'repeat' (to end a procedure early, use 'return')", loose, "syntax"),
                               path)
        return body

    def parse_expr(self, text, path, parser=parse_expression):
        if isinstance(text, bool):
            text = "true" if text else "false"
        elif isinstance(text, int):
            text = str(text)
        if not isinstance(text, str):
            self.fail("expected an expression (a string)", path)
        return self.parsed(parser, text, path)

    def parsed(self, parser, text, path):
        """Parse with syntax errors moved onto the YAML file's line and column."""
        try:
            parsed = parser(text)
        except SnippetSyntaxError as exc:
            raise self.src.error(E.bound_quotes(exc.message), path, exc.line, exc.column, cls=E.DSLSyntaxError) from None
        except RecursionError:
            raise self.too_deep(path) from None
        if not self.compiler.ctx.count_syntax(parsed):
            self.fail(TOO_MANY_NODES, path)
        return parsed

    def too_deep(self, where):
        """A located error for a snippet that nests too deeply for Python's stack (a safety net
        behind the parser's own nesting limit)."""
        return self.src.error("this effect is nested too deeply to compile; split it with 'let', "
                              "functions or procedures", tuple(where or ()), cls=E.DSLSyntaxError)

    def signature(self, key, path, what):
        m = SIGNATURE.match(str(key))
        if not m:
            self.fail(f"{what} {quote(key)} must look like 'name(card a, player p)' (optionally followed by '-> card')", path)
        name, params_text, returns = m.groups()
        params = []
        if params_text.strip():
            for part in params_text.split(","):
                pm = PARAM.match(part)
                if not pm:
                    self.fail(f"parameter {quote(part.strip())} of {name} must look like 'card c' (kind, then name)", path)
                kind, pname = pm.groups()
                if kind not in T.DECLARABLE:
                    self.fail(f"unknown kind {quote(kind)} for parameter {quote(pname)}; kinds are "
                              f"{', '.join(sorted(T.DECLARABLE))}", path)
                params.append((pname, T.DECLARABLE[kind]))
        if returns is not None and returns not in T.DECLARABLE:
            self.fail(f"unknown return kind {quote(returns)}; kinds are {', '.join(sorted(T.DECLARABLE))}", path)
        return name, params, T.DECLARABLE.get(returns, T.ANY) if returns else T.ANY

    # ---------------------------------------------------------------- build
    def build(self) -> Game:
        d, g = self.data, self.g
        g.name = d["game"]
        g.min_players = d["players"]["min"]
        g.max_players = d["players"]["max"]
        if g.min_players > g.max_players:
            self.fail("players.min is larger than players.max", ("players",))
        g.step_limit = d.get("limits", {}).get("steps", g.step_limit)
        g.params = dict(d.get("parameters", {}))
        for name, value in g.params.items():
            self.check_constant(value, ("parameters", name), f"parameter {quote(name)}")
        self.build_board()
        self.build_zones()
        self.build_components()
        self.build_variables()
        self.build_counters()
        g.events = {}
        for name, params in d.get("events", {}).items():
            g.events[name] = [(p, self.kind(k, ("events", name, p))) for p, k in (params or {}).items()]
        self.compiler = Compiler(g)
        g.code = self.compiler.code  # the generated functions, for `ribbit debug --code`
        self.build_functions()
        self.build_procedures()
        self.build_hooks()
        self.build_triggers()
        self.build_abilities()
        self.build_listeners()
        self.build_quantities()
        self.build_flow()
        self.resolve_suspension()
        self.compile_all()
        self.build_scoring()
        g.presentation = build_presentation(g, self.data.get("table"), self.fail, getattr(self.src, "changes", ()))
        return g

    def check_constant(self, value, path, what):
        """Refuse a constant an effect could not know the kind of (a table mixing numbers and mappings...)."""
        problem = T.constant_problem(value)
        if problem is not None:
            inner, reason = problem
            self.fail(f"{what}: {reason}", path + inner)

    def kind(self, text, path):
        if text not in T.DECLARABLE:
            self.fail(f"unknown kind {quote(text)}; kinds are {', '.join(sorted(T.DECLARABLE))}", path)
        return T.DECLARABLE[text]

    def build_board(self):
        if self.per_count is not None:
            self.g.board, self.g.board_counts, every_space = self.per_count
            self.g.other_spaces = every_space - self.g.board.space_set
            return
        try:
            self.g.board = build_board(self.data.get("board"))
        except BoardError as exc:
            self.fail(exc.message, exc.key)

    def build_zones(self):
        g = self.g
        index = 0
        for name, spec in self.data["zones"].items():
            spec = spec or {}
            per = spec.get("per", "game")
            if per == "space" and g.board is None:
                self.fail(f"zone {quote(name)} is per space, but the game has no board", ("zones", name, "per"))
            count = {"game": 1, "player": g.max_players,
                     "space": len(g.board.spaces) if g.board else 0}[per]
            z = ZoneSpec(name, per, spec.get("visibility", "public"), index, count, spec.get("description", ""),
                         spec.get("show_text", ""))
            g.zones[name] = z
            for k in range(count):
                g.zone_spec.append(z)
                g.zone_owner.append(k if per == "player" else None)
                g.zone_space.append(g.board.spaces[k] if per == "space" else None)
            index += count
        g.zone_count = index

    def build_components(self):
        g, d = self.g, self.data
        defaults = d.get("properties", {}) or {}
        for name, value in defaults.items():
            self.check_constant(value, ("properties", name), f"property {quote(name)}")
        g.property_defaults = dict(defaults)
        tables = {name: [] for name in defaults}
        names_seen = {}
        for i, comp in enumerate(d.get("components", [])):
            path = ("components", i)
            for name, raw in self.family_members(comp, path, defaults):
                if name in names_seen:
                    self.fail(f"component {quote(name)} is declared twice (first at components[{names_seen[name]}])",
                              path + ("name",))
                names_seen[name] = i
                self.add_component(comp, path, name, raw, defaults, tables)
        for prop, default in defaults.items():
            g.properties[prop] = (tables[prop], _property_kind(tables[prop], default))
        self.check_show_text()

    def check_show_text(self):
        """A zone's ``show_text`` names a text property of the cards."""
        g = self.g
        for name, z in g.zones.items():
            if z.show_text and (z.show_text not in g.properties or g.properties[z.show_text][1] != "str"):
                texts = sorted(p for p, (_, kind) in g.properties.items() if kind == "str")
                self.fail(f"show_text names {quote(z.show_text)}, which is not a text property of the cards "
                          f"(text properties: {', '.join(texts) or 'none'})", ("zones", name, "show_text"))

    def family_members(self, comp, path, defaults):
        """[(name, property values as written)]: the entry itself, or one card per combination of its family.

        ``family: {suit: [...], rank: [...]}`` makes one card for each suit and rank (the first
        key slowest); ``{rank}`` in the name and in text properties is filled in, and a property
        written ``{by: rank, table: {...}}`` is looked up by the card's rank.
        """
        written = {k: v for k, v in comp.items() if k not in RESERVED_KEYS and not k.startswith("when_")}
        if "family" not in comp:
            return [(comp["name"], written)]
        family = comp["family"]
        self.check_family_values(comp, family, path + ("family",))
        name = self.template(comp["name"], family, path + ("name",))
        if not any(isinstance(part, tuple) for part in name):
            self.fail(f"every card of a family needs its own name: put the family's values in it, e.g. "
                      f"{quote(' '.join('{' + k + '}' for k in family))}", path + ("name",))
        rules = {key: self.family_rule(key, value, family, path + (key,)) for key, value in written.items()}
        import itertools

        members = []
        for combo in itertools.product(*family.values()):
            at = dict(zip(family, combo))
            members.append((_fill(name, at), {key: _member_value(key, rule, at, defaults)
                                              for key, rule in rules.items()}))
        return members

    def check_family_values(self, comp, family, where):
        """Each key's values are distinct, and the family (times its count and seats) makes at most MAX_CARDS."""
        size = comp.get("count", 1) * (self.g.max_players if comp.get("per_player") else 1)
        for key, values in family.items():
            seen = {}
            for j, value in enumerate(values):
                if str(value) in seen:
                    self.fail(f"{quote(str(value))} is listed twice in {quote(key)} (first as item {seen[str(value)] + 1})",
                              where + (key, j))
                seen[str(value)] = j
            size *= len(values)
            if size > MAX_CARDS:
                self.fail(f"this family makes more than {MAX_CARDS:,} cards; a game has at most {MAX_CARDS:,}", where)

    def family_rule(self, key, value, family, path):
        """How a family's property is given to each card: ("text", a template), ("table", by which value) or
        ("same", one value for all)."""
        if isinstance(value, str) and ("{" in value or "}" in value):
            return "text", self.template(value, family, path)
        if isinstance(value, dict) and set(value) == {"by", "table"}:
            return "table", self.family_table(key, value, family, path)
        return "same", value

    def template(self, text, family, path):
        """A text with {value} placeholders, as parts: strings and 1-tuples naming a family key."""
        if not isinstance(text, str):
            return [str(text)]
        parts = []
        for piece in PLACEHOLDER.split(text):
            if PLACEHOLDER.fullmatch(piece):
                key = piece[1:-1].strip()
                if key not in family:
                    self.fail(f"{quote(piece)} in {quote(text)} is not a value of the family, which has "
                              f"{', '.join('{' + k + '}' for k in family)}{_suggest(key, family)}", path)
                parts.append((key,))
            elif "{" in piece or "}" in piece:
                self.fail(f"{quote(text)} has a {'{' if '{' in piece else '}'} that does not belong to a "
                          f"{{value}} of the family ({', '.join('{' + k + '}' for k in family)})", path)
            elif piece:
                parts.append(piece)
        return parts

    def family_table(self, key, spec, family, path):
        """A property looked up by one value of the family: {by: rank, table: {2: 2, ..., ace: 11}}."""
        by, table = spec["by"], spec["table"]
        if by not in family:
            self.fail(f"property {quote(key)} is looked up by {quote(by)}, which is not a value of the family; "
                      f"it has {', '.join(map(str, family))}{_suggest(str(by), family)}", path + ("by",))
        if not isinstance(table, dict):
            self.fail(f"'table' must map each {by} to the value of {quote(key)}", path + ("table",))
        known = {str(v) for v in family[by]}
        for entry in table:
            if str(entry) not in known:
                self.fail(f"{quote(str(entry))} is not one of the family's values of {quote(by)} "
                          f"({', '.join(map(str, family[by]))})", path + ("table", entry))
        found = {str(k): v for k, v in table.items()}
        missing = [str(v) for v in family[by] if str(v) not in found]
        if missing:
            self.fail(f"the table of {quote(key)} has no entry for {by} {', '.join(map(quote, missing))}", path + ("table",))
        return by, found

    def add_component(self, comp, path, name, written, defaults, tables):
        """One kind of card (a component entry, or one card of a family) and its copies."""
        g = self.g
        zone = comp.get("zone")
        per_player = comp.get("per_player", False)
        self.check_start_zone(zone, per_player, path)
        values = {key: self.property_value(key, value, defaults, path) for key, value in written.items()}
        kind = {"name": name, "index": path[1], "values": values, "declaration": comp, "ids": []}
        g.kinds.append(kind)
        seats = range(g.max_players) if per_player else [None]
        copies = comp.get("count", 1) * len(seats)
        if len(g.card_names) + copies > MAX_CARDS:
            self.fail(f"this makes {len(g.card_names) + copies:,} cards in all (with {g.max_players} players); "
                      f"a game has at most {MAX_CARDS:,}", path + (("count",) if "count" in comp else ()))
        for seat in seats:
            for _ in range(comp.get("count", 1)):
                card = len(g.card_names)
                kind["ids"].append(card)
                g.card_names.append(name)
                g.card_start.append((zone, seat))
                for prop, default in defaults.items():
                    tables[prop].append(values.get(prop, default))

    def check_start_zone(self, zone, per_player, path):
        """A component starts in a zone that exists, is per player exactly when it is, and is not per space."""
        g = self.g
        if zone is not None and zone not in g.zones:
            self.fail(f"unknown zone {quote(zone)}{_suggest(zone, g.zones)}", path + ("zone",))
        if zone is not None and per_player != (g.zones[zone].per == "player"):
            self.fail(f"zone {quote(zone)} is per {g.zones[zone].per}; "
                      + ("set per_player: true to give each player their own copies" if not per_player
                         else "per_player components need a per-player zone"), path + ("zone",))
        if zone is not None and g.zones[zone].per == "space":
            self.fail("components cannot start in a per-space zone; move them there in setup", path + ("zone",))

    def property_value(self, key, value, defaults, path):
        """A component's value of a declared property, of its default's kind ('weights: 4' is 'weights: [4]'
        when the default is a list)."""
        if key not in defaults:
            self.fail(f"unknown property {quote(key)}{_suggest(key, defaults)} (every property is declared under "
                      "'properties:' with its default value)", path + (key,))
        if isinstance(defaults[key], list) and value is not None and not isinstance(value, (list, dict)):
            value = [value]  # one value of a list property: 'weights: 4' is 'weights: [4]'
        self.check_constant(value, path + (key,), f"property {quote(key)}")
        if defaults[key] is not None and value is not None \
                and not T.fits(T.kind_of_value(value), T.kind_of_value(defaults[key])):
            self.fail(f"property {quote(key)} is {T.describe(T.kind_of_value(defaults[key]))} "
                      f"(its default is {quote(defaults[key])}), not {quote(value)}", path + (key,))
        return value

    def build_variables(self):
        g, d = self.g, self.data
        for name, (kind, default) in BUILTIN_GVARS.items():
            g.gvars[name], g.gvar_defaults[name] = kind, default
        for section, kinds, defaults in (("game_variables", g.gvars, g.gvar_defaults),
                                         ("player_variables", g.pvars, g.pvar_defaults)):
            for name, spec in (d.get(section) or {}).items():
                kinds[name], defaults[name] = self.variable(section, name, spec)

    def variable(self, section, name, spec):
        """(kind, default) of one declared variable: ``name: default``, or ``{default, kind, visibility}``."""
        g = self.g
        path = (section, name)
        if name in BUILTIN_GVARS and section == "game_variables":
            self.fail(f"{quote(name)} is a built-in game variable", path)
        self.check_constant(spec.get("default") if isinstance(spec, dict) else spec,
                            path + (("default",) if isinstance(spec, dict) else ()), f"variable {quote(name)}")
        kind, value = self.declared_variable(section, name, spec, path) if isinstance(spec, dict) \
            else (T.kind_of_value(spec), spec)
        if kind == "none":
            kind = T.ANY
        if kind == "space" and value is not None and (g.board is None or value not in g.board.space_set):
            spaces = ", ".join(g.board.spaces) if g.board else "none: the game has no board"
            self.fail(f"the default {quote(value)} is not a space of the board (spaces: {spaces})",
                      path + ("default",) if isinstance(spec, dict) else path)
        return kind, value

    def declared_variable(self, section, name, spec: dict, path):
        """(kind, default) of a variable written as a mapping; ``visibility: owner`` makes a player variable
        private."""
        value = spec.get("default")
        kind = self.kind(spec["kind"], path + ("kind",)) if "kind" in spec else T.kind_of_value(value)
        if (kind == "card" and value is not None) or (kind == "list:card" and value not in (None, [])):
            self.fail(f"a variable of kind {spec['kind']} starts with no card: write 'default: null' "
                      f"({'an empty list: []' if kind == 'list:card' else 'no card'}; in YAML 'none' is a text), "
                      f"not {quote(value)}; the rules give it a card", path + ("default",))
        if spec.get("visibility") == "owner":
            if section != "player_variables":
                self.fail("only player variables can be private", path + ("visibility",))
            self.g.hidden_pvars.add(name)
        return kind, value

    def build_counters(self):
        g = self.g
        for name, spec in (self.data.get("counters") or {}).items():
            path = ("counters", name)
            on = tuple(spec["on"])
            if "space" in on and g.board is None:
                self.fail(f"counter {name!r} is kept on spaces, but the game has no board", path + ("on",))
            taken = {"zone": g.zones, "parameter": g.params, "player variable": g.pvars, "game variable": g.gvars}
            for what, table in taken.items():
                if name in table:
                    self.fail(f"{name!r} is already a {what}; names must be unique", path)
            from ..dsl.builtins import BUILTINS

            if name in BUILTINS:
                self.fail(f"{name!r} is a built-in function; pick another name", path)
            g.counters[name] = Counter(name, on, spec.get("description", ""))

    # ---------------------------------------------------------------- code
    def new_proc(self, name, params, body, where, returns=T.ANY) -> Proc:
        proc = Proc(len(self.g.procs), name, params, body, where, returns)
        self.g.procs.append(proc)
        return proc

    def build_functions(self):
        for key, text in (self.data.get("functions") or {}).items():
            path = ("functions", key)
            name, params, _ = self.signature(key, path, "function")
            self.check_free(name, path)
            body = self.parse_expr(text, path, parse_function_body)
            self.g.functions[name] = Func(name, params, body, path)

    def build_procedures(self):
        for key, text in (self.data.get("procedures") or {}).items():
            path = ("procedures", key)
            name, params, returns = self.signature(key, path, "procedure")
            self.check_free(name, path)
            self.g.procedures[name] = self.new_proc(name, params, self.parse_body(text, path), path, returns)
            self.g.procedures[name].declares_result = "->" in str(key)  # checked on every path (dsl/returns.py)

    def build_hooks(self):
        """Wrap each procedure that variants hook into (see interpreter.loader.variants.Hook).

        The procedure's own body moves to a key no effect can write; the name then calls, in order:
        every 'before' hook, the first 'instead' whose condition holds (else the body), every 'after'
        hook with 'result' bound, and returns the result.  Each hook is a procedure of its own (so its
        'return' ends only itself and its errors point into its variant) and each condition a function.
        A game without hooks builds nothing here.
        """
        hooks = getattr(self.src, "hooks", None)
        if not hooks:
            return
        by_proc: dict = {}
        for i, hook in enumerate(hooks):
            by_proc.setdefault(hook.procedure, []).append((i, hook))
        for name, entries in by_proc.items():
            self.wrap_hooked(name, entries)

    def wrap_hooked(self, name, entries):
        """Procedure ``name`` replaced by a wrapper that runs its hooks ``[(index, Hook)]`` around its body."""
        g = self.g
        proc = self.hooked_procedure(name, entries)
        params, returns = list(proc.params), proc.returns
        args = tuple(A.Name(p) for p, _ in params)
        body_key = f"{name} body"
        g.procedures[body_key] = proc
        self.setup_steps.append(body_key)
        before, insteads, after, default = [], [], [], None
        for i, hook in entries:
            key, cond = self.hook_procedure(name, i, hook, proc)
            if hook.when == "instead" and cond is None:
                default = key  # a new body for good: after the conditional ones
            else:
                {"before": before, "instead": insteads, "after": after}[hook.when].append((key, cond))
        stmts = [_guarded(A.CallStmt(A.Call(key, args)), cond, args) for key, cond in before]
        result = A.Name("$result")  # a local no effect can name, of the procedure's return kind
        fallback = (A.Let("$result", A.Call(default or body_key, args)),)
        if insteads:
            branches = tuple((A.Call(cond, args), (A.Let("$result", A.Call(key, args)),))
                             for key, cond in insteads)
            stmts.append(A.If(branches, fallback))
        else:
            stmts.extend(fallback)
        for key, cond in after:
            stmts.append(_guarded(A.CallStmt(A.Call(key, args + (result,))), cond, args + (result,)))
        stmts.append(A.Return(result))
        wrapper = self.new_proc(name, params, tuple(stmts), proc.where, returns)
        wrapper.declares_result = None  # made here, not written: its returns are not checked
        g.procedures[name] = wrapper

    def hooked_procedure(self, name, entries):
        """The procedure the hooks ``entries`` run around: one that exists, with no parameter called 'result'
        when an 'after' hook is given the result under that name."""
        g = self.g
        first = ("$hooks", entries[0][0])
        proc = g.procedures.get(name)
        if proc is None:
            self.fail(f"there is no procedure {quote(name)} to run an effect {entries[0][1].when}"
                      f"{_suggest(name, g.procedures)}", first)
        if any(p == "result" for p, _ in proc.params) and any(h.when == "after" for _, h in entries):
            self.fail(f"procedure {quote(name)} has a parameter called 'result', the name an 'after' hook gives "
                      "its result; rename the parameter", first)
        return proc

    def hook_procedure(self, name, i, hook, proc):
        """(procedure key, condition function key or None) of hook ``i``: its effect as a procedure of its own
        (so its 'return' ends only itself and its errors point into its variant), its condition a function."""
        g = self.g
        params, returns = list(proc.params), proc.returns
        path = ("$hooks", i)
        hook_params = params + ([("result", returns)] if hook.when == "after" else [])
        key = f"{name} {hook.when} {i}"
        hproc = self.new_proc(key, hook_params, self.parse_body(hook.effect, path), path,
                              returns if hook.when == "instead" else T.ANY)
        hproc.hook = (name, hook.when)  # (dsl/returns.py: an 'instead' answers as the procedure does)
        hproc.declares_result = hook.when == "instead" and proc.declares_result
        g.procedures[key] = hproc
        self.setup_steps.append(key)
        if hook.condition is None:
            return key, None
        cond_key = f"{name} {hook.when} {i} if"
        node = self.parse_expr(hook.condition, path + ("if",))
        self.check_expr(node, hook_params, path + ("if",), "bool")
        g.functions[cond_key] = Func(cond_key, hook_params, node, path + ("if",))
        self.hidden_functions.append(cond_key)
        return key, cond_key

    def check_free(self, name, path):
        g = self.g
        taken = {"zone": g.zones, "function": g.functions, "procedure": g.procedures, "parameter": g.params,
                 "counter": g.counters}
        for what, table in taken.items():
            if name in table:
                self.fail(f"{quote(name)} is already a {what}; names must be unique", path)
        from ..dsl.builtins import BUILTINS

        if name in BUILTINS:
            self.fail(f"{quote(name)} is a built-in function; pick another name", path)

    def event_params(self, event, path):
        if event not in self.g.events:
            self.fail(f"unknown event {quote(event)}{_suggest(event, self.g.events)} (events are declared under "
                      "'events:')", path)
        return list(self.g.events[event])

    def build_triggers(self):
        named = {}
        for i, trig in enumerate(self.data.get("triggers") or []):
            path = ("triggers", i)
            if "name" in trig:
                if trig["name"] in named:
                    self.fail(f"two triggers are called {quote(trig['name'])} (the other is triggers[{named[trig['name']]}]); "
                              "each trigger needs its own name", path + ("name",))
                named[trig["name"]] = i
            params = self.event_params(trig["on"], path + ("on",))
            body = self.parse_body(trig["do"], path + ("do",))
            if "if" in trig:
                cond = self.parse_expr(trig["if"], path + ("if",))
                self.check_expr(cond, params, path + ("if",), "bool")
                body = (A.If(((cond, body),), (), line=0, column=0),)
            proc = self.new_proc(f"trigger {trig['name']}" if "name" in trig else f"on {trig['on']}", params, body,
                                 path + ("do",))
            self.g.triggers.setdefault(trig["on"], []).append(proc)

    def check_expr(self, node, params, where, kind, no_player: str = ""):
        """The kind of the expression ``node`` (checked against ``kind``); ``no_player`` names a key evaluated with
        no player in scope (``until``, ``first``), whose 'unknown name' errors then say how to name one."""
        from ..dsl.compiler import Scope

        try:
            self.compiler.where = where
            _, k = self.compiler.expr(node, Scope(dict(params), None))
        except CompileError as exc:
            if no_player:
                _no_player_here(exc, no_player, self.g.pvars)
            self.compile_error(exc, where)
        if kind:
            self.check_kind(k, kind, where)
        return k

    def check_kind(self, k, kind, where):
        """A located DSLTypeError at the key ``where`` unless an expression of kind ``k`` fits ``kind``."""
        if not T.fits(k, kind):
            raise self.src.error(f"expected {T.describe(kind)}, got {T.describe(k)}", where, cls=E.DSLTypeError)

    def entries(self):
        """(component entry, its first kind, the card ids of all its kinds): a family's cards share one entry,
        so its abilities are compiled once."""
        found = {}
        for kind in self.g.kinds:
            if kind["index"] in found:
                found[kind["index"]][2].extend(kind["ids"])
            else:
                found[kind["index"]] = (kind["declaration"], kind, list(kind["ids"]))
        return list(found.values())

    def build_abilities(self):
        g = self.g
        for decl, kind, ids in self.entries():
            for key, text in decl.items():
                if not key.startswith("when_"):
                    continue
                event = key[5:]
                path = ("components", kind["index"], key)
                params = self.event_params(event, path)
                if "card" not in dict(params):
                    self.fail(f"event {quote(event)} has no 'card' parameter, so no card can react to it", path)
                proc = self.new_proc(f"{decl['name']} when {event}", params, self.parse_body(text, path), path)
                table = g.abilities.setdefault(event, [None] * len(g.card_names))
                for card in ids:
                    table[card] = proc

    def build_listeners(self):
        """Card abilities that react to events about any card while a condition holds (self: the card)."""
        g = self.g
        for decl, kind, ids in self.entries():
            for j, spec in enumerate(decl.get("listeners") or []):
                path = ("components", kind["index"], "listeners", j)
                params = self.event_params(spec["on"], path + ("on",))
                if "self" in dict(params):
                    self.fail(f"event {spec['on']!r} has a parameter called 'self', the name a listener gives its "
                              "own card; rename the parameter", path + ("on",))
                params = params + [("self", "card")]
                proc = self.new_proc(f"{decl['name']} listening to {spec['on']}", params,
                                     self.parse_body(spec["do"], path + ("do",)), path + ("do",))
                cond = self.parse_expr(spec["while"], path + ("while",)) if "while" in spec else None
                entries = g.listeners.setdefault(spec["on"], [])
                entries.extend([card, proc, (cond, params, path + ("while",))] for card in ids)
        for entries in g.listeners.values():
            entries.sort(key=lambda entry: entry[0])

    def compile_listeners(self):
        """Each listener's 'while' condition, compiled once and shared by the copies of its card."""
        from ..dsl.compiler import Scope

        done = {}
        for entries in self.g.listeners.values():
            for entry in entries:
                cond, params, where = entry[2]
                if cond is None:
                    entry[2] = None
                    continue
                if id(cond) not in done:
                    self.compiler.where = where
                    try:
                        fn, kind = self.compiler.expr(cond, Scope(dict(params), None))
                    except CompileError as exc:
                        self.compile_error(exc, where)
                    if not T.fits(kind, "bool"):
                        raise self.src.error(f"a listener's 'while' must be true/false, not {T.describe(kind)}",
                                             where, cls=E.DSLTypeError)
                    done[id(cond)] = fn
                entry[2] = done[id(cond)]

    def compile_seen_by(self):
        """zones.NAME.seen_by: {top: N, if: condition of p}: who sees the zone's top cards, and while when."""
        from ..dsl.compiler import Scope

        g, per_index = self.g, None
        for name, spec in self.data["zones"].items():
            seen = (spec or {}).get("seen_by")
            if seen is None:
                continue
            where = ("zones", name, "seen_by", "if")
            zone = g.zones[name]
            if zone.visibility == "public":
                self.fail(f"zone {quote(name)} is public: everyone sees all its cards already, so seen_by shows "
                          "nothing more (make it hidden, owner or top)", ("zones", name, "seen_by"))
            node = self.parse_expr(seen["if"], where)
            self.compiler.where = where
            try:
                fn, kind = self.compiler.expr(node, Scope({"p": "player"}, None))
            except CompileError as exc:
                self.compile_error(exc, where)
            if kind not in ("bool", T.ANY):
                raise self.src.error(f"seen_by's 'if' must be true/false (a condition of the player p), not "
                                     f"{T.describe(kind)}", where, cls=E.DSLTypeError)
            if per_index is None:
                per_index = [None] * g.zone_count
            for index in range(zone.base, zone.base + zone.count):
                per_index[index] = (seen.get("top", 1), fn)
        g.seen_zone = None if per_index is None else tuple(per_index)

    def build_quantities(self):
        g = self.g
        for key, base in (self.data.get("quantities") or {}).items():
            path = ("quantities", key)
            name, params, _ = self.signature(key, path, "quantity")
            self.check_free(name, path)
            g.quantities[name] = Quantity(name, params)
            g.quantities[name].base_node = self.parse_expr(base, path)
        for decl, kind, ids in self.entries():
            for i, mod in enumerate(decl.get("modifiers") or []):
                path = ("components", kind["index"], "modifiers", i)
                if mod["quantity"] not in g.quantities:
                    self.fail(f"unknown quantity {quote(mod['quantity'])}{_suggest(mod['quantity'], g.quantities)} "
                              "(quantities are declared under 'quantities:')", path + ("quantity",))
                q = g.quantities[mod["quantity"]]
                q.mods.append((ids, mod, path))

    def compile_quantities(self):
        from ..dsl.compiler import Scope

        from ..dsl.scoring import modified

        g, c = self.g, self.compiler
        for q in g.quantities.values():
            where = ("quantities", next(k for k in self.data["quantities"] if k.startswith(q.name)))
            c.where = where
            try:
                base, k = c.expr_code(q.base_node, Scope(dict(q.params), None))
            except CompileError as exc:
                self.compile_error(exc, where)
            self.check_kind(k, "int", where)
            mods = []
            for ids, mod, path in q.mods:
                scope = Scope({**dict(q.params), "card": "card", "self": "card"}, None)
                scope.keys["self"] = "card"  # 'self' is another name for the modifier's card, as in listeners
                c.where = path + ("add",)
                try:
                    add, ak = c.expr(self.parse_expr(mod.get("add", 1), path + ("add",)), scope)
                except CompileError as exc:
                    self.compile_error(exc, path + ("add",))
                self.check_kind(ak, "int", path + ("add",))
                cond = None
                if "if" in mod:
                    c.where = path + ("if",)
                    try:
                        cond, ck = c.expr(self.parse_expr(mod["if"], path + ("if",)), scope)
                    except CompileError as exc:
                        self.compile_error(exc, path + ("if",))
                    self.check_kind(ck, "bool", path + ("if",))
                mods.append((list(ids), add, cond))
            c.where = where
            q.compute = modified(c.ctx, base, mods, q.base_node) if mods else c.function_of(base, q.base_node)

    def build_flow(self):
        """Turn the declarative flow (phases of turns or rounds) into the main procedure."""
        d = self.data
        stmts = []
        self.build_setup()
        for i, phase in enumerate(d["flow"]):
            path = ("flow", i)
            until = self.parse_expr(phase["until"], path + ("until",)) if "until" in phase else None
            if until is not None:
                self.check_expr(until, [], path + ("until",), "bool", no_player="until")
                until = self.flow_expression(until, path + ("until",))
            if "turn" in phase:
                stmts.extend(self.turn_phase(phase, path, until))
            else:
                stmts.extend(self.round_phase(phase, path, until))
        self.g.main = self.new_proc("main", [], tuple(stmts), ("flow",))

    def build_setup(self):
        """Setup is one effect, or named steps run in order.

        Each step is its own procedure (so its errors point into its own text and a
        variant can slot a step in between without seeing the others' locals); the
        steps are reachable only from setup, under names no effect can write.
        """
        setup = self.data.get("setup")
        if not isinstance(setup, list):
            body = self.parse_body(setup, ("setup",)) if setup else ()
            self.g.setup = self.new_proc("setup", [], body, ("setup",))
            return
        calls = []
        for i, step in enumerate(setup):
            path = ("setup", i)
            key = f"setup step {step['step']}"
            if key in self.g.procedures:
                self.fail(f"two setup steps are called {quote(step['step'])}; each step needs its own name", path + ("step",))
            self.g.procedures[key] = self.new_proc(key, [], self.parse_body(step["do"], path + ("do",)), path + ("do",))
            self.setup_steps.append(key)
            calls.append(A.CallStmt(A.Call(key, ())))
        self.g.setup = self.new_proc("setup", [], tuple(calls), ("setup",))

    def call_node(self, name, args, path, want_params):
        if name not in self.g.procedures:
            self.fail(f"unknown procedure {quote(name)}{_suggest(name, self.g.procedures)}", path)
        params = self.g.procedures[name].params
        if [k for _, k in params] != want_params:
            shape = "one player parameter, e.g. take_turn(player p)" if want_params else "no parameters"
            self.fail(f"procedure {quote(name)} must take {shape}", path)
        return A.CallStmt(A.Call(name, tuple(args)))

    def turn_phase(self, phase, path, until):
        first = self.parse_expr(phase.get("first", "seat(1)"), path + ("first",))
        self.check_expr(first, [], path + ("first",), "player", no_player="first")
        first = self.flow_expression(first, path + ("first",))
        var = f"$phase{path[1]}"
        p = A.Name(var)
        order = phase.get("order", "clockwise")
        step = "next_player" if order == "clockwise" else "previous_player"
        body = [
            A.Assign(A.Attr(A.Name("game"), "active"), "=", p),
            A.Assign(A.Attr(A.Name("game"), "turn"), "+=", A.Const(1)),
            self.call_node(phase["turn"], [p], path + ("turn",), ["player"]),
        ]
        if until is not None:
            body.append(A.If(((until, (A.Break(),)),), ()))
        body.append(A.Assign(p, "=", A.Call(step, (p,))))
        # '$opening' gives a scenario's first_player instead, once (an author cannot write the name)
        return [A.Let(var, A.Call("$opening", (first,))), A.While(None, tuple(body))]

    def flow_expression(self, node, path):
        """A flow key's expression (``first:``, ``until:``) as a hidden function of its own, called from the
        flow: compiled where it is written, so a run-time error in it points at its own line, not at 'flow:'."""
        key = f"$flow {format_path(path)}"
        self.g.functions[key] = Func(key, [], node, path)
        self.hidden_functions.append(key)
        return A.Call(key, ())

    def round_phase(self, phase, path, until):
        body = [A.Assign(A.Attr(A.Name("game"), "round"), "+=", A.Const(1))]
        for j, name in enumerate(phase["round"]):
            body.append(self.call_node(name, [], path + ("round", j), []))
        if until is not None:
            body.append(A.If(((until, (A.Break(),)),), ()))
        if phase.get("repeat", True) is False:  # a loop left after one round: 'until' still breaks out of it
            body.append(A.Break())
        return [A.While(None, tuple(body))]

    def resolve_suspension(self):
        """A procedure may wait for players if it asks, or calls/emits into something that may."""
        c = self.compiler
        changed = True
        while changed:
            changed = False
            for proc in self.g.procs:
                if not proc.suspends and c.suspends(proc.body):
                    proc.suspends = True
                    changed = True

    def compile_all(self):
        g = self.g
        self.compile_functions()
        self.compile_quantities()
        self.compile_listeners()
        self.compile_seen_by()
        self.compile_procedures()
        g.codes = [p.code for p in g.procs]
        for key in self.setup_steps:
            del g.procedures[key]
        for key in self.hidden_functions:
            del g.functions[key]

    def compile_functions(self):
        """Every function's body checked (lowered where a call is not inlined)."""
        for func in self.g.functions.values():
            try:
                self.compiler.function_kind(func)
            except CompileError as exc:
                self.compile_error(exc, getattr(exc, "where", func.where))
            except RecursionError:
                raise self.too_deep(func.where) from None

    def compile_procedures(self):
        """Every procedure compiled, as resumable code only where it runs in a frame of its own.

        That is the flow, setup, event handlers and the procedures an ordinary waiting call enters (found
        while compiling the others).  A procedure that never waits is called directly; one spliced into its
        callers runs there.  A waiting procedure nothing enters and nothing splices (unused, say) is still
        compiled, so its errors are reported.
        """
        g = self.g
        entered = self.entered_ids()
        compiled: set = set()
        for proc in g.procs:
            if not proc.suspends or proc.id in entered:
                self.compile_procedure(proc, compiled, proc.id in entered)
        waiting = [proc for proc in g.procs if proc.suspends]
        while True:
            todo = self.next_to_compile(waiting, compiled)
            if not todo:
                break
            for proc in todo:
                self.compile_procedure(proc, compiled)
        for proc in waiting:
            if proc.id not in compiled:  # spliced wherever it is called
                self.compile_procedure(proc, compiled, resumable=False)

    def next_to_compile(self, waiting: list, compiled: set) -> list:
        """The waiting procedures not compiled yet that a compiled call enters in a frame of their own; else the
        first one no compiled code splices (so far), whose compiling may find more."""
        c = self.compiler
        return [p for p in waiting if p.id not in compiled and p.id in c.pushed_ids] \
            or [p for p in waiting if p.id not in compiled and p.id not in c.spliced_ids][:1]

    def entered_ids(self) -> set:
        """The ids of the procedures that run in a frame of their own from the start: the flow, setup, triggers,
        card abilities and listeners."""
        g = self.g
        entered = {g.main.id, g.setup.id}
        entered.update(p.id for procs in g.triggers.values() for p in procs)
        entered.update(p.id for table in g.abilities.values() for p in table if p is not None)
        entered.update(p.id for entries in g.listeners.values() for _, p, _ in entries)
        return entered

    def compile_procedure(self, proc, compiled: set, resumable: bool = True):
        compiled.add(proc.id)
        try:
            self.compiler.compile_proc(proc, resumable)
        except CompileError as exc:
            self.compile_error(exc, proc.where)
        except RecursionError:
            raise self.too_deep(proc.where) from None

    def build_scoring(self):
        g, d = self.g, self.data
        scoring = d.get("scoring") or {}
        from ..dsl.compiler import Scope
        from ..dsl.scoring import scored, summed

        c = self.compiler
        if "score" in scoring:
            # One expression, or named terms that are added up (variants add or replace a term).
            terms = scoring["score"] if isinstance(scoring["score"], dict) else {None: scoring["score"]}
            fns = []
            for name, text in terms.items():
                where = ("scoring", "score") + (() if name is None else (name,))
                node = self.parse_expr(text, where)
                self.check_expr(node, [("p", "player")], where, "int")
                c.where = where
                fns.append(scored(c.ctx, node, Scope({"p": "player"}, None), "the score" if name is None
                                  else f"the score term {quote(name)}", self.src.location(where)))
            c.where = ("scoring", "score")
            g.score_fn = fns[0] if len(fns) == 1 else summed(c.ctx, fns, node)
            g.score_terms = [("score" if name is None else str(name), fn) for name, fn in zip(terms, fns)]
        for i, tb in enumerate(scoring.get("tiebreaks") or []):
            (direction, text), = tb.items()
            where = ("scoring", "tiebreaks", i, direction)
            node = self.parse_expr(text, where)
            self.check_expr(node, [("p", "player")], where, "int")
            c.where = where
            fn = scored(c.ctx, node, Scope({"p": "player"}, None), f"tie-break {i + 1}", self.src.location(where))
            g.tiebreaks.append((1 if direction == "highest" else -1, fn))


def _guarded(stmt, cond, args):
    """A statement, run only when the hidden condition function ``cond`` holds (always when None)."""
    return stmt if cond is None else A.If(((A.Call(cond, args), (stmt,)),), ())


def _fill(parts, at) -> str:
    return "".join(part if isinstance(part, str) else str(at[part[0]]) for part in parts)


def _member_value(key, rule, at: dict, defaults: dict):
    """One card's value of a family's property, by its rule (see :meth:`Builder.family_rule`); ``at``: the card's
    family values."""
    how, rule = rule
    if how == "same":
        return rule
    if how == "table":
        by, table = rule
        return table[str(at[by])]
    if len(rule) == 1 and isinstance(rule[0], tuple):  # "{rank}" alone: the value itself
        value = at[rule[0][0]]
        return str(value) if isinstance(defaults.get(key), str) else value
    return _fill(rule, at)


def _property_kind(values: list, default):
    """The kind of a property's values; an empty list says nothing about the items' kind ([] next to [3, 6] is
    still a list of numbers)."""
    kinds = {T.kind_of_value(v) for v in values if v is not None and v != []} or {T.kind_of_value(default)}
    return kinds.pop() if len(kinds) == 1 else T.ANY


def _suggest(name, candidates):
    from ..dsl.compiler import suggest

    return suggest(str(name), [str(c) for c in candidates])


def build_game(source: Source, texts: list[str], variants: list[str], per_count=None, options=None) -> Game:
    # Compiling makes many long-lived objects (syntax trees, tables): the collector would
    # scan them again and again as they pile up, for nothing to free.  It waits until the end.
    collecting = gc.isenabled()
    gc.disable()
    try:
        board = source.data.get("board")
        if per_count is None and isinstance(board, dict) and "players" in board:
            return _build_per_count(source, texts, variants, options)
        builder = Builder(source, texts, variants, per_count, options)
        try:
            game = builder.build()
        except RecursionError:  # any other place that recursed too deep: still an error, never a traceback
            raise builder.too_deep(()) from None
        made = game.compile_options
        if not made.coverage and not made.playout:  # (a coverage build counts its rules in its own code)
            game.compile_playout = functools.partial(build_game, source, texts, variants, per_count,
                                                     replace(made, playout=True))
        return game
    finally:
        if collecting:
            gc.enable()


def _counts(counts) -> str:
    """'2', '3-4', '2, 5': player counts as a reader writes them."""
    counts = sorted(counts)
    if len(counts) > 1 and counts[-1] - counts[0] == len(counts) - 1:
        return f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))


def _build_per_count(source: Source, texts: list[str], variants: list[str], options=None) -> Game:
    """A game whose board depends on the number of players (``board: {players: {2: ..., 3: ...}}``).

    Every board is built (and checked) now; the game is compiled for the smallest player count
    now and for each other board the first time a game of that count starts (or ``check_all``
    asks), so every count runs its own rules against its own board at no cost per step."""
    data = source.data
    table = {int(k): v for k, v in data["board"]["players"].items()}
    keys = {int(k): k for k in data["board"]["players"]}
    path = ("board", "players")
    _check_board_counts(source, data["players"]["min"], data["players"]["max"], table, keys, path)
    groups = _board_groups(table)
    boards = []
    for spec, counts in groups:
        try:
            boards.append(build_board(spec))
        except BoardError as exc:
            key = path + (keys[counts[0]],) + tuple(exc.key[1:])
            raise source.error(f"{exc.message} (in the board for {_counts(counts)} players)", key) from None
    every_space = frozenset().union(*(b.space_set for b in boards))
    family: dict = {}  # player count -> compiled Game, filled lazily

    def compile_for(index):
        counts = groups[index][1]
        game = build_game(source, texts, variants, (boards[index], tuple(counts), every_space), options)
        game.family, game.compile_board = family, compile_for
        game.board_group = {n: i for i, (_, cs) in enumerate(groups) for n in cs}
        for n in counts:
            family[n] = game
        return game

    return compile_for(0)


def _check_board_counts(source: Source, low: int, high: int, table: dict, keys: dict, path: tuple) -> None:
    """Every player count the game allows has a board, and no board is for a count it does not allow."""
    stray = sorted(n for n in table if not low <= n <= high)
    if stray:
        where = path + (keys[stray[0]],)
        message = f"a board for {_counts(stray)} players, but the game is for {low}-{high} players " \
                  "(players.min to players.max)"
        if where in source.key_marks:  # at the key: its value may be an alias of another count's board
            line, column = source.key_marks[where]
            raise source.error_at(message, E.Location(source.file, line + 1, column + 1, format_path(where)))
        raise source.error(message, where)
    missing = [n for n in range(low, high + 1) if n not in table]
    if missing:
        raise source.error(f"no board for {_counts(missing)} players: the game is for {low}-{high} players, "
                           "and every player count it allows needs a board under board.players", path)


def _board_groups(table: dict) -> list:
    """[(board spec, [player counts])]: one per distinct board (counts sharing an anchor share one)."""
    groups: list[tuple[dict, list[int]]] = []
    for n in sorted(table):
        for spec, counts in groups:
            if spec is table[n] or spec == table[n]:
                counts.append(n)
                break
        else:
            groups.append((table[n], [n]))
    return groups
