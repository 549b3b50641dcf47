"""Variants: YAML overlays that add, replace or remove named parts of a game.

A variant file names the game it modifies (``game:``) and lists operations by
part::

    variant: My house rule
    game: Some Game
    parameters: {bonus: {default: 2, one_of: [1, 2, 3]}}   # chosen with NAME:bonus=3
    add:     {scoring: {bonus: "bonus * p.sets"}}
    replace: {procedures: {"deal(player p)": "..."}}
    remove:  {setup: [shuffle_twice]}
    before:  {deal: "log \"Dealing.\""}                        # hooks: stack across variants
    instead: {score_of: {if: "p.passed", do: "return 0"}}         # the first whose if holds

A setting (``parameters``) becomes a game parameter of its name; named like a game parameter that
holds one value of its kind, it sets that parameter instead (owned like a ``replace`` of it).

Parts are found by name: mapping keys (procedures, functions and quantities by
the name before the parenthesis), components and triggers by ``name``, setup
steps by ``step``, phases by ``phase``, score terms by key.  Variants apply in
the order given; ``extends`` applies other variants first.  A part may be
changed by one variant only (unless that variant extends the other), and an
operation on a part that does not exist is an error; both name the files and
lines involved.  Hooks (``before``/``after``/``instead`` of a procedure, found by
name) do not take the procedure: hooks of several variants on one procedure all
run, in the order the variants are applied (see :class:`Hook`); only an
``instead`` without ``if`` (a new body for good) is owned like a ``replace``.

The result is plain game data plus a :class:`MergedSource`, which has the
interface of :class:`~interpreter.loader.source.Source` and remembers, for
every merged key path, the file and path it came from, so later errors (schema,
names, effects, run time) point into the right file.
"""

from __future__ import annotations

import copy
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath

from ..dsl.types import constant_problem
from ..errors import DefinitionError, Location, quote, shorten
from .schema import validate
from .source import MAX_DIGITS, Source, format_path, read_yaml_file

# How each part of a game is addressed.  Mappings are keyed by name; signature
# mappings by the name before "("; lists by a naming field.
MAPPING_PARTS = ("parameters", "properties", "zones", "game_variables", "player_variables", "events", "counters")
SIGNATURE_PARTS = ("functions", "procedures", "quantities")
LIST_PARTS = {"components": "name", "triggers": "name", "setup": "step", "flow": "phase"}
WHOLE_PARTS = ("players", "limits", "board", "tiebreaks", "table")
OPERATIONS = ("remove", "replace", "add")  # the order they apply within one variant
WORDS = {"parameters": "parameter", "properties": "property", "zones": "zone", "game_variables": "game variable",
         "player_variables": "player variable", "events": "event", "functions": "function",
         "procedures": "procedure", "quantities": "quantity", "counters": "counter", "components": "component", "triggers": "trigger",
         "setup": "setup step", "flow": "phase", "scoring": "score term", "players": "player count",
         "limits": "limits", "board": "board", "tiebreaks": "tie-breaks",
         "table": "table presentation"}
VERBS = {"add": "adds", "replace": "replaces", "remove": "removes", "set": "sets",
         "before": "runs an effect before", "after": "runs an effect after", "instead": "runs an effect instead of"}
HOOKS = ("before", "instead", "after")  # effects a variant attaches to a procedure; they stack across variants
HOOK_OPS = {when: f"run an effect {when}{' of' if when == 'instead' else ''}" for when in HOOKS}  # for messages
VERBS.update({op: VERBS[when] for when, op in HOOK_OPS.items()})
UNNAMED_SETUP = "setup"  # the one step of a setup written as a single effect
UNNAMED_SCORE = "score"  # the one term of a score written as a single expression


@dataclass(frozen=True)
class Origin:
    """Where a merged value was read from: a file and the key path inside it."""

    source: Source
    path: tuple


@dataclass
class Change:
    """One operation of a variant, for ``ribbit rules`` and error messages."""

    variant: str  # the variant's short name (its file stem)
    op: str  # add | replace | remove | set (a setting of the variant sets a game parameter)
    part: str  # e.g. "procedures"
    name: str  # the part's name, e.g. "flip"
    location: Location
    path: str = ""  # a key path into the part (board.players.6), when the change is a patch
    value: object = None  # the value a setting sets a game parameter to (op "set")

    def __str__(self) -> str:
        if self.path:
            return f"{self.variant} {VERBS[self.op]} {quote(self.path)} ({_at(self.location)})"
        what = f"{WORDS[self.part]} {quote(self.name)}" if self.name else f"the {WORDS[self.part]}"
        to = f" to {_shown(self.value)}" if self.op == "set" else ""
        return f"{self.variant} {VERBS[self.op]} {what}{to} ({_at(self.location)})"


@dataclass
class Hook:
    """An effect a variant attaches to a procedure: run before it, after it, or instead of its body.

    The builder wraps the procedure: every ``before`` hook (variant order), then the first
    ``instead`` whose ``if`` holds (variant order; one without ``if`` comes last and always holds)
    or else the body, then every ``after`` hook with ``result`` bound to the procedure's result.
    """

    when: str  # before | instead | after
    procedure: str  # the name of the procedure it attaches to
    condition: object  # the 'if' text (or true/false), None when there is none
    effect: str  # the 'do' text
    origin: Origin  # where the hook's effect is written
    variant: "Variant"

    @property
    def cond_origin(self) -> Origin:
        return Origin(self.origin.source, (self.when, self.procedure, "if"))


@dataclass
class Variant:
    """A variant file read and checked, with its parameter values chosen."""

    name: str
    file: str
    source: Source
    params: dict
    ancestors: set = field(default_factory=set)  # files of the variants it extends, transitively

    @property
    def title(self) -> str:
        return self.source.data["variant"]

    def canonical(self) -> str:
        """The variant as a reference with every parameter spelt out (``house_rule:bonus=2``)."""
        settings = ",".join(f"{k}={_text(v)}" for k, v in sorted(self.params.items()))
        return f"{self.name}:{settings}" if settings else self.name


@dataclass
class Entry:
    """One named entry of a part while merging."""

    name: str
    key: object  # the mapping key (None in lists)
    value: object
    origin: Origin
    inner: dict = field(default_factory=dict)  # sub-path -> Origin, when the value was reshaped
    owner: Variant | None = None  # the variant that last added or replaced it
    op: str = ""
    op_location: Location | None = None
    patches: list = field(default_factory=list)  # (keys inside the value, variant, op, location, path) of each patch
    private: bool = False  # the value is this overlay's own copy (a patch may change it in place)


class MergedSource:
    """The merged game data, locating every path in the file it came from (same interface as Source)."""

    def __init__(self, base: Source, data: dict, origins: dict, variants: list[Variant], changes: list[Change],
                 hooks: list | None = None):
        self.base = base
        self.hooks = hooks or []  # Hook entries in the order the variants were applied (see Hook)
        self.file = base.file
        self.text = base.text
        self.data = data
        self.origins = origins
        self.variants = variants
        self.changes = changes
        self.sources = {base.file: base, **{v.source.file: v.source for v in variants}}

    def origin(self, path=()) -> Origin:
        """The file and path a merged path comes from (its nearest recorded ancestor, extended)."""
        path = tuple(path)
        for k in range(len(path), -1, -1):
            found = self.origins.get(path[:k])
            if found is not None:
                return Origin(found.source, found.path + path[k:])
        return Origin(self.base, path)

    def location(self, path=(), line: int | None = None, column: int | None = None) -> Location:
        found = self.origin(path)
        return found.source.location(found.path, line, column)

    def position(self, path=(), line: int | None = None, column: int | None = None) -> Location:
        found = self.origin(path)
        return found.source.position(found.path, line, column)

    def key_location(self, path) -> Location:
        found = self.origin(path)
        return found.source.key_location(found.path)

    def excerpt(self, location: Location) -> str | None:
        source = self.sources.get(location.file)
        return source.excerpt(location) if source is not None else None

    def error(self, message: str, path=(), line: int | None = None, column: int | None = None,
              cls: type[DefinitionError] = DefinitionError) -> DefinitionError:
        loc = self.location(path, line, column)
        return cls(message, loc, self.excerpt(loc))

    def error_at(self, message: str, location: Location, cls: type[DefinitionError] = DefinitionError):
        return cls(message, location, self.excerpt(location))

    def changed_by(self, path) -> str | None:
        """The variant a merged path comes from (its short name), or None for the base game."""
        found = self.origin(path)
        for variant in self.variants:
            if variant.source is found.source:
                return variant.name
        return None


# ---------------------------------------------------------------- references
def parse_ref(ref: str) -> tuple[str, dict]:
    """``NAME``, ``PATH`` or either followed by ``:key=value,key=value`` -> (target, settings)."""
    target, settings = ref, {}
    head, sep, tail = ref.rpartition(":")
    if sep and "=" in tail and head:
        target = head
        for item in tail.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise DefinitionError(f"variant setting {quote(item)} in {quote(ref)} must look like key=value")
            if key.strip() in settings:
                raise DefinitionError(f"variant {quote(target)} sets {quote(key.strip())} twice in {quote(ref)}; give each "
                                      "setting once")
            settings[key.strip()] = value.strip()
    return target, settings


def variants_folder(base_file: str | Path) -> Path:
    """Where a game's variants live: ``variants/<game file stem>/`` next to the game file."""
    base_file = Path(base_file)
    return base_file.parent / "variants" / base_file.stem


def is_path_ref(target: str) -> bool:
    """A reference is a PATH if it has a folder separator or a YAML suffix, else a NAME."""
    return "/" in target or "\\" in target or target.endswith((".yaml", ".yml"))


def resolve_target(target: str, folder: Path, relative_to: Path | None = None) -> Path:
    """A variant NAME (a file in ``folder``) or a PATH (relative to ``relative_to``, default the working
    directory), as an existing path (the reader then insists on a regular file)."""
    if is_path_ref(target):
        path = Path(target)
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path
        if not path.exists():
            raise DefinitionError(f"variant file {quote(target)} does not exist", Location(target))
        return path
    path = folder / f"{target}.yaml"
    if not path.exists():
        known = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
        close = difflib.get_close_matches(target, known, n=1)
        hint = f"; did you mean {quote(close[0])}?" if close else ""
        listed = f"; variants there: {', '.join(known)}" if known else "; there are no variants there"
        raise DefinitionError(f"no variant called {quote(target)} in {folder}{hint}{listed} "
                              "(give a NAME from that folder or a PATH to a variant file)", Location(str(folder)))
    return path


def find_base(variant_file: str | Path) -> Path:
    """The game a variant file belongs to, by the folder convention ``<dir>/variants/<stem>/x.yaml``."""
    variant_file = Path(variant_file)
    folder = variant_file.resolve().parent
    candidate = folder.parent.parent / f"{folder.name}.yaml"
    if folder.parent.name != "variants" or not candidate.is_file():
        raise DefinitionError("cannot tell which game this variant belongs to: variants live in "
                              "<games folder>/variants/<game file name>/; validate it with its game instead: "
                              f"ribbit validate GAME.yaml --variant {variant_file}", Location(str(variant_file)))
    try:  # shown in messages: as short as the variant's own path
        return candidate.relative_to(Path.cwd()) if not variant_file.is_absolute() else candidate
    except ValueError:
        return candidate


def is_variant_file(source: Source) -> bool:
    return isinstance(source.data, dict) and "variant" in source.data


# ---------------------------------------------------------------- reading
def read_variant(path: Path, name: str, settings: dict, base: Source, verbose: bool = False) -> Variant:
    """Read a variant file, check it against the schema and its base, and choose its parameter values."""
    source = read_yaml_file(path, expect=("variant",), kind="variant")
    if not isinstance(source.data, dict):
        raise DefinitionError("a variant must be a YAML mapping with keys such as variant, game, add, replace, "
                              "remove", Location(source.file, 1, 1))
    validate(source, "variant.schema.json", verbose=verbose)
    game = base.data.get("game")
    if source.data["game"] != game:
        raise source.error(f"this variant is for {quote(source.data['game'])}, but {base.file} is {quote(game)}", ("game",))
    return Variant(name, source.file, source, choose_parameters(source, settings, name))


def choose_parameters(source: Source, settings: dict, name: str) -> dict:
    """Each declared parameter's value: the setting given (checked and converted) or the default."""
    declared = source.data.get("parameters") or {}
    for key, spec in declared.items():
        _check_allowed_kinds(source, key, spec)
        if "one_of" in spec and spec["default"] not in spec["one_of"]:
            raise source.error(f"the default {quote(spec['default'])} is not one of the allowed values: "
                               f"{', '.join(map(_text, spec['one_of']))}", ("parameters", key, "default"))
    for key in settings:
        if key not in declared:
            raise _unknown_setting(source, declared, key, name)
    return {key: _parameter_value(source, key, spec, settings[key], name) if key in settings else spec["default"]
            for key, spec in declared.items()}


def _unknown_setting(source: Source, declared: dict, key: str, name: str) -> DefinitionError:
    """The error of a setting the variant does not declare: the closest it does, or the variant it extends that
    may (a variant takes only its own settings)."""
    close = difflib.get_close_matches(key, list(declared), n=1)
    hint = f"; did you mean {quote(close[0])}?" if close else ""
    known = f"its parameters are {', '.join(declared)}" if declared else "it has no parameters"
    where = ("parameters",) if declared else ("variant",)
    parents = [parse_ref(ref)[0] for ref in source.data.get("extends") or () if isinstance(ref, str)]
    if parents:
        known += (f"; the variants it extends take their own settings: --variant {Path(parents[0]).stem}:"
                  f"{key}=... before it, or in its extends entry")
    return source.error(f"variant {quote(name)} has no parameter {quote(key)}{hint} ({known})", where)


def _check_allowed_kinds(source: Source, key: str, spec: dict) -> None:
    """Every allowed value is of the default's kind: a setting is read as that kind, so another could never be
    chosen (and ``1 in [True]`` would let a number pass as true/false)."""
    default = spec["default"]
    for index, allowed in enumerate(spec.get("one_of") or ()):
        if _kind_word(allowed) != _kind_word(default):
            raise source.error(f"the allowed value {quote(_text(allowed))} is {_a(_kind_word(allowed))}, but the "
                               f"default {_text(default)} is {_a(_kind_word(default))}: every allowed value must be "
                               "of the default's kind", ("parameters", key, "one_of", index))


def _a(kind: str) -> str:
    return kind if kind == "true/false" else f"a {kind}"


def _parameter_value(source: Source, key: str, spec: dict, text: str, name: str):
    """A setting's text as the parameter's value: of its default's kind, a constant the file could hold, and one
    of the allowed values."""
    value = _convert(text, spec["default"])
    given = f"given as {shorten(f'{name}:{key}={text}')}"
    problem = None if value is None else constant_problem(value)
    if problem is not None:  # the checks of the same constant written in the file
        raise source.error_at(f"{quote(text)} cannot be the value of parameter {quote(key)} ({given}): "
                              f"{problem[1]}", source.key_location(("parameters", key)))
    allowed = spec.get("one_of")
    if value is None or (allowed is not None and value not in allowed):
        options = ", ".join(map(_text, allowed)) if allowed else f"any {_kind_word(spec['default'])}"
        raise source.error_at(f"{quote(text)} is not an allowed value of parameter {quote(key)} "
                              f"({given}); allowed: {options}", source.key_location(("parameters", key)))
    return value


_WHOLE_NUMBER = re.compile("[+-]?[0-9]+")  # ASCII digits only: int() also reads '１２', '١٢' and '1_000'


def _convert(text: str, default):
    """A command-line setting as a value of the default's kind (None if it cannot be).

    A number of more than 18 digits comes back as 10^18 (with its sign), which the constant
    check refuses, rather than being built digit by digit.
    """
    if isinstance(default, bool):
        return {"true": True, "yes": True, "false": False, "no": False}.get(text.lower())
    if isinstance(default, int):
        if not _WHOLE_NUMBER.fullmatch(text):
            return None
        if len(text.lstrip("+-").lstrip("0")) > MAX_DIGITS:
            return -10 ** MAX_DIGITS if text.startswith("-") else 10 ** MAX_DIGITS
        return int(text)
    return text


def _kind_word(value) -> str:
    return "true/false" if isinstance(value, bool) else "whole number" if isinstance(value, int) else "text"


def _at(location: Location) -> str:
    """``file:line:col`` of a location, without its key path."""
    return str(Location(location.file, location.line, location.column))


def _shown(value) -> str:
    """A scalar for a message: a text quoted, a number or true/false as written."""
    return quote(value) if isinstance(value, str) else _text(value)


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


_MISSING = object()


def _shape_of(value) -> str:
    """What a value that is not one scalar is, for messages."""
    if isinstance(value, dict):
        return "a table (a mapping of keys to values)"
    return "a list" if isinstance(value, list) else _kind_of(value)


def _kind_of(value) -> str:
    return {list: "a list", str: "a text", int: "a number", bool: "true/false", type(None): "empty"}.get(type(value),
                                                                                                     "a value")


# ---------------------------------------------------------------- merging
class Overlay:
    """Applies variants, in order, to a base game's data, keeping track of where everything came from."""

    def __init__(self, base: Source):
        self.base = base
        self.data = copy.deepcopy(base.data)
        self.parts: dict[str, list[Entry]] = {}
        self.applied: dict[str, Variant] = {}  # file -> variant, in order
        self.in_progress: dict[str, str] = {}  # file -> name of the variants being applied (extends chains)
        self.changes: list[Change] = []
        self.removed: dict[tuple, Entry] = {}  # (part, name) -> the entry as it was removed (owner = remover)
        self.hooks: list[Hook] = []  # in the order the variants are applied

    # -- applying -------------------------------------------------------------
    def apply_ref(self, ref: str, folder: Path, verbose: bool = False, by: Variant | None = None) -> Variant:
        target, settings = parse_ref(ref)
        path = resolve_target(target, folder, Path(by.file).parent if by else None)
        key = str(path.resolve())
        if key in self.in_progress:
            chain = " -> ".join(list(self.in_progress.values()) + [path.stem])
            raise by.source.error(f"variant {quote(path.stem)} extends itself ({chain})", ("extends",))
        if key in self.applied:
            done = self.applied[key]
            if settings and any(done.params.get(k) != _convert(v, done.params.get(k)) for k, v in settings.items()):
                raise DefinitionError(f"variant {quote(done.name)} is applied twice with different settings: "
                                      f"{done.canonical()} and {ref}", Location(done.file))
            return done
        variant = read_variant(path, path.stem, settings, self.base, verbose)
        self.in_progress[key] = path.stem
        for i, parent_ref in enumerate(variant.source.data.get("extends") or []):
            try:
                self.check_extends(variant, i, parent_ref)
                parent = self.apply_ref(parent_ref, path.parent, verbose, by=variant)
            except DefinitionError as exc:
                if exc.location is None or exc.location.line is None:
                    loc = variant.source.location(("extends", i))
                    file = exc.location.file if exc.location is not None else None
                    named = f"{file}: " if file and file not in exc.message else ""  # which file, if not said
                    raise variant.source.error_at(f"{named}{exc.message} (extended here)", loc) from None
                raise
            variant.ancestors |= {str(Path(parent.file).resolve())} | parent.ancestors
        del self.in_progress[key]
        self.apply(variant)
        self.applied[key] = variant
        return variant

    def check_extends(self, v: Variant, index: int, ref: str) -> None:
        """A reference written in a variant stays in the game's folders: the variant's own folder or the game's
        variants folder.  Absolute paths, and '..' or links that lead elsewhere, are refused before anything is read.
        """
        target, _ = parse_ref(ref)
        own = Path(v.file).parent
        roots = [own.resolve(), variants_folder(self.base.file).resolve()]
        where = f"{own}" if roots[0] == roots[1] else f"{own} or {variants_folder(self.base.file)}"
        rule = (f"a variant extends only variants in its own folder or the game's variants folder ({where}), "
                "named by NAME or by a relative PATH ending in .yaml")
        if any(ord(ch) < 32 for ch in target):
            raise v.source.error(f"{quote(target)} has a control character; {rule}", ("extends", index))
        if not is_path_ref(target):
            path = own / f"{target}.yaml"
        else:
            if PurePosixPath(target).is_absolute() or PureWindowsPath(target).anchor:
                raise v.source.error(f"{quote(target)} is an absolute path; {rule}", ("extends", index))
            if not target.endswith((".yaml", ".yml")):
                raise v.source.error(f"{quote(target)} is not a .yaml file; {rule}", ("extends", index))
            path = own / target
        try:
            resolved = path.resolve()
        except (OSError, RuntimeError):  # a loop of links
            raise v.source.error(f"{quote(target)} cannot be followed (a loop of links?); {rule}", ("extends", index))
        if not any(resolved.is_relative_to(root) for root in roots):
            raise v.source.error(f"{quote(target)} leads outside the game's folders; {rule}", ("extends", index))

    def apply(self, v: Variant) -> None:
        data = v.source.data
        self._refuse_settings_as_parameter_values(v)
        for op in OPERATIONS:
            for part, items in (data.get(op) or {}).items():
                if "." in part:  # a key path: patch one value inside a part (the schema allows it for add and replace)
                    self._patch(v, op, part, items)
                else:
                    getattr(self, f"_{op}")(v, part, items)
        for key in data.get("parameters") or {}:
            self._setting(v, key)
        for when in HOOKS:
            for name, spec in (data.get(when) or {}).items():
                self._hook(v, when, name, spec)

    def _refuse_settings_as_parameter_values(self, v: Variant) -> None:
        """A game parameter given a setting's name (``replace: {parameters: {rounds: bonus}}``) holds that text, not
        the setting's value, and fails far away, where a rule reads it as a number: say so where it is written."""
        settings = {key: v.name for key in v.params}
        for other in self.applied.values():
            settings.update({key: other.name for key in other.params if key not in settings})
        for op in ("add", "replace"):
            for part, items in (v.source.data.get(op) or {}).items():
                if part == "parameters" and isinstance(items, dict):
                    found = [((op, part, key), key, value) for key, value in items.items()]
                elif part.startswith("parameters."):
                    found = [((op, part), part.split(".", 1)[1], items)]
                else:
                    continue
                for where, key, value in found:
                    if isinstance(value, str) and value in settings:
                        raise v.source.error(
                            f"parameter {quote(key)} would hold the text {quote(value)}, not the value of the setting "
                            f"{quote(value)} of variant {quote(settings[value])}: a parameter's value is a constant; "
                            "name the setting in the rule that reads the parameter instead", where)

    def _setting(self, v: Variant, key: str) -> None:
        """A setting of the variant: a new game parameter, or, when the game (after the variants applied before,
        ``extends`` included) has a parameter of that name holding one value of the setting's kind, that
        parameter's value.  Setting a parameter is owned like a ``replace`` of it: a variant that extends the
        one that set or replaced it may set it again; two variants that do not are a conflict."""
        where = ("parameters", key)
        existing = self.lookup("parameters", key)
        if existing is None:
            self._add_one(v, "parameters", key, key, v.params[key], where)
            return
        if existing.owner is v:  # the same variant also adds or replaces it
            raise v.source.error_at(
                f"this variant changes parameter {quote(key)} twice: {_at(existing.op_location)} {VERBS[existing.op]} "
                f"it, and its setting {quote(key)} sets it; drop the '{existing.op}' and give the value as the "
                "setting's default", v.source.key_location(where))
        self._check_settable(v, key, existing)
        index = self.find(v, "parameters", key, where, "set")
        self.part("parameters")[index] = self._entry(v, "set", "parameters", key, existing.key, v.params[key], where)
        self.changes.append(Change(v.name, "set", "parameters", key, v.source.key_location(where), value=v.params[key]))

    @staticmethod
    def _check_settable(v: Variant, key: str, existing: Entry) -> None:
        """A setting sets a game parameter only if that parameter is one value of the setting's kind: a table or a
        list has no one value to set, and a value of another kind would break the rules that read it."""
        value, default = existing.value, v.source.data["parameters"][key]["default"]
        there = _at(existing.origin.source.key_location(existing.origin.path))
        named = f"the game parameter {quote(key)} ({there})"
        if not isinstance(value, (bool, int, str)):
            raise v.source.error_at(
                f"the setting {quote(key)} would set {named}, which is {_shape_of(value)}, not one value: a setting "
                "sets only a parameter holding one whole number, true/false or text; give the setting a name of its "
                f"own and read it in the rules that read {quote(key)}", v.source.key_location(("parameters", key)))
        if _kind_word(value) != _kind_word(default):
            raise v.source.error(
                f"the default {_shown(default)} is {_a(_kind_word(default))}, but the setting sets {named}, which "
                f"is {_a(_kind_word(value))} ({_shown(value)}): a setting of a game parameter is of that parameter's "
                "kind", ("parameters", key, "default"))

    def _hook(self, v: Variant, when: str, name: str, spec) -> None:
        """Attach a hook to a procedure.  Hooks stack; an 'instead' without 'if' is a new body, owned like a replace."""
        where = (when, name)
        conditional = isinstance(spec, dict) and "if" in spec
        own = when == "instead" and not conditional
        index = self.find(v, "procedures", name, where, HOOK_OPS[when], own=own, key=True)
        if own:
            entry = self.part("procedures")[index]
            entry.owner, entry.op, entry.op_location = v, "instead", v.source.key_location(where)
        effect = spec["do"] if isinstance(spec, dict) else spec
        path = where + ("do",) if isinstance(spec, dict) else where
        self.hooks.append(Hook(when, name, spec.get("if") if isinstance(spec, dict) else None, effect,
                               Origin(v.source, path), v))
        self.note(v, when, "procedures", name, where)

    def _remove(self, v: Variant, part: str, names: list) -> None:
        entries = self.part(part)
        for i, name in enumerate(names):
            where = ("remove", part, i)
            index = self.find(v, part, name, where, "remove")
            if part == "procedures":
                self.check_hooks(v, name, where)
            entry = entries.pop(index)
            entry.owner, entry.op, entry.op_location = v, "remove", v.source.key_location(where)
            self.removed[(part, name)] = entry
            self.note(v, "remove", part, name, where)

    def _replace(self, v: Variant, part: str, items) -> None:
        if part in WHOLE_PARTS:
            self.find(v, part, "", ("replace", part), "replace")
            self.parts[part][0] = self._entry(v, "replace", part, "", None, items, ("replace", part))
            self.note(v, "replace", part, "", ("replace", part))
            return
        entries = self.part(part)
        for key, value, where in self._items(part, items, "replace"):
            name = self.name_of(part, key, value)
            index = self.find(v, part, name, where, "replace")
            entries[index] = self._entry(v, "replace", part, name, key, value, where)
            self.note(v, "replace", part, name, where)

    def _add(self, v: Variant, part: str, items) -> None:
        if part == "tiebreaks":
            entries = self.part(part)
            whole = entries[0]
            whole.value = list(whole.value or []) + list(items)
            start = len(whole.value) - len(items)
            for i in range(len(items)):
                whole.inner[(start + i,)] = Origin(v.source, ("add", part, i))
            self.note(v, "add", part, "", ("add", part))
            return
        for key, value, where in self._items(part, items, "add"):
            self._add_one(v, part, self.name_of(part, key, value), key, value, where)

    def _add_one(self, v: Variant, part: str, name: str, key, value, where: tuple) -> None:
        entries = self.part(part)
        existing = self.lookup(part, name) or self.removed.get((part, name))
        if existing is not None:
            raise self.clash(v, "add", part, name, where, existing)
        position = len(entries)
        if part in LIST_PARTS:
            value = dict(value)
            for side in ("before", "after"):
                if side in value:
                    anchor = value.pop(side)
                    index = self.find(v, part, anchor, where + (side,), "place an entry next to", own=False)
                    position = index if side == "before" else index + 1
        entries.insert(position, self._entry(v, "add", part, name, key, value, where))
        self.note(v, "add", part, name, where)

    def _patch(self, v: Variant, op: str, dotted: str, value) -> None:
        """``replace: {board.players.6: ...}``: put one value at a key path inside a part, the rest untouched.

        The path is the part, then (for a part of named entries) the entry's name, then mapping keys.  ``replace``
        needs the last key to exist, ``add`` needs it not to.  Patches of different paths of one entry combine
        across variants; two variants patching the same path (or one a path inside the other's), or one patching
        what another replaces whole, is a conflict unless one extends the other."""
        where = (op, dotted)
        part, entry, keys = self._patch_target(v, op, dotted, where)
        self._check_patch(v, op, part, entry, tuple(keys), dotted, where)
        if not entry.private:
            entry.value, entry.private = copy.deepcopy(entry.value), True
        node, actual = entry.value, []
        for depth, segment in enumerate(keys):
            walked = ".".join([part] + ([entry.name] if entry.name else []) + [str(k) for k in actual])
            last = depth == len(keys) - 1
            found = _patched_key(v, op, node, segment, last, walked, dotted, where)
            actual.append(found)
            if last:
                node[found] = copy.deepcopy(value)
            else:  # a copy of its own: a YAML alias (&grid / *grid) shared with another key keeps its value
                node[found] = copy.deepcopy(node[found])
                node = node[found]
        entry.inner[tuple(actual)] = Origin(v.source, where)
        entry.patches.append((tuple(keys), v, op, v.source.key_location(where), dotted))
        self.changes.append(Change(v.name, op, part, entry.name, v.source.key_location(where), path=dotted))

    def _patch_target(self, v: Variant, op: str, dotted: str, where: tuple):
        """(part, entry, mapping keys inside it) a key path names: a part of a game, then (for a part of named
        entries) the longest name of an entry (names may hold dots), then at least one key."""
        segments = dotted.split(".")
        part = segments[0]
        if part not in WORDS or part == "tiebreaks":
            known = ", ".join(p for p in WORDS if p != "tiebreaks")
            raise v.source.error_at(f"{quote(dotted)} does not start with a part of a game; a key path starts with "
                                    f"one of {known}", v.source.key_location(where))
        if part in WHOLE_PARTS:
            return part, self.part(part)[self.find(v, part, "", where, op, own=False, key=True)], segments[1:]
        for k in range(len(segments) - 1, 0, -1):
            entry = self.lookup(part, ".".join(segments[1:k + 1]))
            if entry is not None:
                keys = segments[k + 1:]
                break
        else:
            self.find(v, part, segments[1], where, op, own=False, key=True)  # raises: no such entry
        if not keys:
            raise v.source.error_at(f"{quote(dotted)} names a whole {WORDS[part]}; write it as {op}: {{{part}: ...}}"
                                    f", or give a key path inside it ({dotted}.KEY)", v.source.key_location(where))
        return part, entry, keys

    def _check_patch(self, v: Variant, op: str, part: str, entry: Entry, keys: tuple, dotted: str, where: tuple) -> None:
        """A patch may not overlap a change another variant (not one this one extends) made to the same entry."""
        here = _at(v.source.key_location(where))
        what = f"{WORDS[part]} {quote(entry.name)}" if entry.name else f"the {WORDS[part]}"
        others = [(entry.owner, entry.op, entry.op_location, "")] if entry.owner is not None else []
        others += [(owner, o, loc, path) for done, owner, o, loc, path in entry.patches
                   if done[:len(keys)] == keys or keys[:len(done)] == done]
        for owner, o, loc, path in others:
            if owner is v and path == "" and o in ("add", "replace"):
                continue  # a variant may patch what it added or replaced itself
            if owner is not v and str(Path(owner.file).resolve()) in v.ancestors:
                continue
            story = f"{_at(loc)} {VERBS[o]} {quote(path) if path else 'it'}, and {here} {VERBS[op]} {quote(dotted)}"
            if owner is v:
                raise v.source.error_at(f"this variant changes {what} twice: {story}", v.source.key_location(where))
            raise v.source.error_at(f"variants {quote(owner.name)} and {quote(v.name)} both change {what}: {story}. Use "
                                    f"only one of the two variants, or make {quote(v.name)} extend {quote(owner.name)}",
                                    v.source.key_location(where))

    # -- parts ------------------------------------------------------------------
    def part(self, part: str) -> list[Entry]:
        """The entries of a part, read from the base data the first time a variant touches it."""
        if part not in self.parts:
            self.parts[part] = self._read_part(part)
        return self.parts[part]

    def _read_part(self, part: str) -> list[Entry]:
        base = self.base
        if part == "scoring":
            return _score_terms(base)
        if part in WHOLE_PARTS:
            path = ("scoring", "tiebreaks") if part == "tiebreaks" else (part,)
            value = base.data.get("scoring", {}).get("tiebreaks") if part == "tiebreaks" else base.data.get(part)
            return [Entry("", None, copy.deepcopy(value), Origin(base, path))]
        value = base.data.get(part)
        if part == "setup" and isinstance(value, str):  # one effect: the single step 'setup'
            origin = Origin(base, ("setup",))
            return [Entry(UNNAMED_SETUP, None, {"step": UNNAMED_SETUP, "do": value}, origin,
                          inner={("do",): origin, ("step",): origin})]
        if part in LIST_PARTS:
            return [Entry(self.name_of(part, None, item), None, item, Origin(base, (part, i)))
                    for i, item in enumerate(value or [])]
        return [Entry(self.name_of(part, k, item), k, item, Origin(base, (part, k))) for k, item in (value or {}).items()]

    @staticmethod
    def name_of(part: str, key, value) -> str:
        if part in LIST_PARTS:
            name = value.get(LIST_PARTS[part]) if isinstance(value, dict) else None
            return str(name) if name is not None else ""
        if part in SIGNATURE_PARTS:
            return str(key).split("(", 1)[0].strip()
        return str(key)

    @staticmethod
    def _items(part: str, items, op: str):
        """(key, value, path in the variant) for each entry an operation lists."""
        if part in LIST_PARTS:
            return [(None, item, (op, part, i)) for i, item in enumerate(items)]
        return [(key, value, (op, part, key)) for key, value in items.items()]

    def lookup(self, part: str, name: str) -> Entry | None:
        for entry in self.part(part):
            if entry.name == name:
                return entry
        return None

    def check_hooks(self, v: Variant, name: str, where: tuple) -> None:
        """A variant may not remove a procedure another variant (not one it extends) hooks into."""
        for hook in self.hooks:
            other = hook.variant
            if hook.procedure == name and other is not v and str(Path(other.file).resolve()) not in v.ancestors:
                there = _at(other.source.key_location((hook.when, name)))
                here = _at(v.source.key_location(where))
                raise v.source.error_at(
                    f"variants {quote(other.name)} and {quote(v.name)} both change procedure {quote(name)}: {there} runs "
                    f"an effect {hook.when} it, and {here} removes it. Use only one of the two variants, or make "
                    f"{quote(v.name)} extend {quote(other.name)}", v.source.key_location(where))

    def find(self, v: Variant, part: str, name: str, where: tuple, op: str, own: bool = True, key: bool = False) -> int:
        """The index of the named entry an operation targets; a located error if it is missing or taken."""
        entries = self.part(part)
        for index, entry in enumerate(entries):
            if entry.name == name:
                if own:
                    self.check_owner(v, op, part, name, where, entry)
                return index
        if part in WHOLE_PARTS:
            return 0
        removed = self.removed.get((part, name))
        if removed is not None:
            raise self.clash(v, op, part, name, where, removed)
        unnamed = [e for e in entries if not e.name]
        known = [e.name for e in entries if e.name]
        close = difflib.get_close_matches(str(name), known, n=1)
        hint = f"; did you mean {quote(close[0])}?" if close else ""
        what = WORDS[part]
        message = f"there is no {what} {quote(name)} to {op} in {quote(self.base.data.get('game'))} ({self._where_names()})"
        if unnamed and part in LIST_PARTS:
            message += f"; some {part} entries have no {quote(LIST_PARTS[part])} key, so variants cannot name them"
        located = v.source.key_location(where) if own or key else v.source.location(where)  # a key, or the anchor's name
        raise v.source.error_at(message + hint + self._not_a_procedure(op, name), located)

    def _not_a_procedure(self, op: str, name: str) -> str:
        """A hook naming a function or quantity of the game: say that hooks wrap procedures only, and what to do."""
        if op not in HOOK_OPS.values():
            return ""
        for part in ("functions", "quantities"):
            if any(e.name == name for e in self.part(part)):
                what = WORDS[part]
                return (f"; {quote(name)} is a {what} of the game, and hooks run around procedures only: to change "
                        f"what it gives, replace the {what} (replace: {part}: {name}(...): ...)")
        return ""

    def _where_names(self) -> str:
        files = [self.base.file] + [a.file for a in self.applied.values()]
        return "looked in " + ", ".join(files)

    def check_owner(self, v: Variant, op: str, part: str, name: str, where: tuple, entry: Entry) -> None:
        for _, patcher, patch_op, location, _ in entry.patches:  # a whole change over another variant's patch
            if patcher is not v and str(Path(patcher.file).resolve()) not in v.ancestors:
                what = f"{WORDS[part]} {quote(name)}" if name else f"the {WORDS[part]}"
                raise v.source.error_at(
                    f"variants {quote(patcher.name)} and {quote(v.name)} both change {what}: {_at(location)} "
                    f"{VERBS[patch_op]} a path inside it, and {_at(v.source.key_location(where))} {VERBS.get(op, op)} it. "
                    f"Use only one of the two variants, or make {quote(v.name)} extend {quote(patcher.name)}",
                    v.source.key_location(where))
        other = entry.owner
        if other is None or other is v or str(Path(other.file).resolve()) in v.ancestors:
            if other is v:
                raise self.clash(v, op, part, name, where, entry)
            return
        raise self.clash(v, op, part, name, where, entry)

    def clash(self, v: Variant, op: str, part: str, name: str, where: tuple, entry: Entry) -> DefinitionError:
        """Two variants (or a variant and the base) want the same part: say who and where."""
        what = f"{WORDS[part]} {quote(name)}" if name else f"the {WORDS[part]}"
        here = _at(v.source.key_location(where))
        if entry.owner is None:
            there = _at(entry.origin.source.key_location(entry.origin.path))
            message = f"cannot add {what}: the game already has it at {there}; use 'replace' to change it"
        elif entry.owner is v:
            message = f"this variant changes {what} twice (it already {VERBS[entry.op]} it at {_at(entry.op_location)})"
        else:
            there = _at(entry.op_location)
            if entry.op == "remove":
                story = f"{there} removes it, so {here} cannot {op} it"
            else:
                story = f"{there} {VERBS[entry.op]} it, and {here} {VERBS.get(op, op)} it"
            message = (f"variants {quote(entry.owner.name)} and {quote(v.name)} both change {what}: {story}. "
                       f"Use only one of the two variants, or make {quote(v.name)} extend {quote(entry.owner.name)}")
        return v.source.error_at(message, v.source.key_location(where))

    def _entry(self, v: Variant, op: str, part: str, name: str, key, value, where: tuple) -> Entry:
        return Entry(name, key, copy.deepcopy(value), Origin(v.source, where), owner=v, op=op,
                     op_location=v.source.key_location(where))

    def note(self, v: Variant, op: str, part: str, name: str, where: tuple) -> None:
        self.changes.append(Change(v.name, op, part, name, v.source.key_location(where)))

    # -- result -----------------------------------------------------------------
    def merged(self) -> MergedSource:
        """Write the touched parts back into the data, with the origin of every entry."""
        data = self.data
        origins = {(): Origin(self.base, ())}
        for part, entries in self.parts.items():
            if part == "scoring":
                _merge_score_terms(data, entries, origins)
            elif part in WHOLE_PARTS:
                _merge_whole_part(data, part, entries[0], origins)
            else:
                _merge_entries(data, part, entries, origins)
        for i, hook in enumerate(self.hooks):
            origins[("$hooks", i)] = hook.origin
            origins[("$hooks", i, "if")] = hook.cond_origin
        return MergedSource(self.base, data, origins, list(self.applied.values()), self.changes, self.hooks)


def _score_terms(base: Source) -> list[Entry]:
    """The score's terms as entries: none, the one expression as the term 'score', or the named terms."""
    score = (base.data.get("scoring") or {}).get("score")
    if score is None:
        return []
    if not isinstance(score, dict):  # one expression: the single term 'score'
        origin = Origin(base, ("scoring", "score"))
        return [Entry(UNNAMED_SCORE, UNNAMED_SCORE, score, origin)]
    return [Entry(str(k), k, t, Origin(base, ("scoring", "score", k))) for k, t in score.items()]


def _patched_key(v: Variant, op: str, node, segment: str, last: bool, walked: str, dotted: str, where: tuple):
    """The key of mapping ``node`` that a key path's ``segment`` names: one that exists, except that the last key
    of an ``add`` must not (it is made, a number if it reads as one)."""
    if not isinstance(node, dict):
        whole = f"; a key path stops at a list: give the whole list, as {op}: {{{walked}: [...]}}" \
            if isinstance(node, list) else ""
        raise v.source.error_at(f"{quote(dotted)}: {walked} is {_kind_of(node)}, not a mapping, so it has no "
                                f"key {quote(segment)}{whole}", v.source.key_location(where))
    found = next((k for k in node if _text(k) == segment), _MISSING)
    if last and op == "add":
        if found is not _MISSING:
            raise v.source.error_at(f"{quote(dotted)} already exists; use 'replace' to change it",
                                    v.source.key_location(where))
        return int(segment) if segment.lstrip("-").isdigit() else segment
    if found is _MISSING:
        keys_there = ", ".join(_text(k) for k in node) or "none"
        close = difflib.get_close_matches(segment, [_text(k) for k in node], n=1)
        hint = f"; did you mean {quote(close[0])}?" if close else ""
        raise v.source.error_at(f"{quote(dotted)} names nothing: {walked} has no key {quote(segment)} (its keys: "
                                f"{keys_there}){hint}", v.source.key_location(where))
    return found


def _merge_score_terms(data: dict, entries: list, origins: dict) -> None:
    scoring = data.setdefault("scoring", {})
    if entries:
        scoring["score"] = {e.key: e.value for e in entries}
    else:
        scoring.pop("score", None)
    for e in entries:
        origins[("scoring", "score", e.key)] = e.origin


def _merge_whole_part(data: dict, part: str, entry: Entry, origins: dict) -> None:
    """A part that is one value (the board, the tie-breaks...): written back, or dropped when removed."""
    path = ("scoring", "tiebreaks") if part == "tiebreaks" else (part,)
    container = data.setdefault("scoring", {}) if part == "tiebreaks" else data
    if entry.value is None:
        container.pop(path[-1], None)
    else:
        container[path[-1]] = entry.value
    _note_origins(origins, path, entry)


def _merge_entries(data: dict, part: str, entries: list, origins: dict) -> None:
    """A part of entries (a list, or a mapping by name) written back; an emptied part is dropped."""
    if part in LIST_PARTS:
        data[part] = [e.value for e in entries]
        paths = [(part, i) for i in range(len(entries))]
    else:
        data[part] = {e.key: e.value for e in entries}
        paths = [(part, e.key) for e in entries]
    if not entries:
        data.pop(part)
    for path, entry in zip(paths, entries):
        _note_origins(origins, path, entry)


def _note_origins(origins: dict, path: tuple, entry: Entry) -> None:
    """Where the entry at ``path`` and each value patched inside it were written."""
    origins[path] = entry.origin
    for sub, origin in entry.inner.items():
        origins[path + sub] = origin


def apply_variants(base: Source, refs: list[str], verbose: bool = False) -> MergedSource:
    """Apply variant references (NAME, PATH, NAME:key=value) to a validated base game, in order."""
    overlay = Overlay(base)
    folder = variants_folder(base.file)
    for ref in refs:
        if not isinstance(ref, str) or not ref.strip():
            raise DefinitionError(f"a variant is given as NAME or PATH (text), not {quote(ref)}", Location(base.file))
        overlay.apply_ref(ref.strip(), folder, verbose)
    return overlay.merged()


def describe_changes(merged: MergedSource) -> list[str]:
    """One line per change the variants made, in the order they were applied."""
    return [str(change) for change in merged.changes]


__all__ = ["apply_variants", "MergedSource", "Change", "Hook", "Variant", "parse_ref", "find_base", "is_variant_file",
           "variants_folder", "resolve_target", "describe_changes", "format_path"]
