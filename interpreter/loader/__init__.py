"""Loading a game: read the YAML safely, apply variants, validate against the schema, build and compile it."""

from __future__ import annotations

import gc
from pathlib import Path

from ..dsl.options import CompileOptions
from ..errors import DefinitionError, Location
from .build import build_game
from .schema import validate
from .source import read_yaml_file
from .variants import apply_variants, find_base, is_variant_file


def load_game(path: str | Path, variants: list[str] | None = None, verbose: bool = False, options=None):
    """Load, validate and compile a game definition; raises a located DefinitionError if anything is wrong.

    ``variants`` are applied in order: each is a NAME from the game's ``variants/<game>/``
    folder or a PATH, optionally with settings (``"house_rule:bonus=2"``); a setting passes the checks
    of the same constant written in the file (ASCII digits, at most 18; texts of at most 10,000
    characters), or is a located DefinitionError.  ``path``
    may itself be a variant file: its game is then found next to the variants folder.
    ``options`` (a :class:`interpreter.CompileOptions`) switches optimisations off, for tests and
    developers; by default every one is on.
    """
    variants = [variants] if isinstance(variants, str) else list(variants or [])
    if options is not None and not isinstance(options, CompileOptions):
        raise TypeError(f"options must be a CompileOptions (interpreter.CompileOptions), not {type(options).__name__}")
    # Loading builds a few hundred thousand objects that all live as long as the game: the cycle
    # collector's passes over them while they are made find nothing to free (a tenth of the time).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _load(path, variants, verbose, options)
    finally:
        if collecting:
            gc.enable()


def _load(path, variants: list[str], verbose: bool, options):
    source = read_yaml_file(path, expect=("game", "variant"), kind="game definition or variant")
    if is_variant_file(source):
        variants.insert(0, str(path))
        source = read_yaml_file(find_base(path), expect=("game",), kind="game definition")
    if not isinstance(source.data, dict):
        raise DefinitionError("a game definition must be a YAML mapping with keys such as game, players, zones, flow",
                              Location(source.file, 1, 1))
    validate(source, "game.schema.json", verbose=verbose)
    if not variants:
        return build_game(source, [source.text], [], options=options)
    merged = apply_variants(source, variants, verbose=verbose)
    texts = [source.text] + [f"{v.canonical()}\n{v.source.text}" for v in merged.variants]
    try:
        validate(merged, "game.schema.json", verbose=verbose)  # a variant that removes a phase the game needs...
        return build_game(merged, texts, [v.canonical() for v in merged.variants], options=options)
    except DefinitionError as exc:
        raise _with_variants(exc, source.file, merged.variants) from None


def _with_variants(exc, base_file, variants):
    """An error located in the game's own text, raised while variants are applied, says which ones
    were: a variant that changes a parameter or a zone can break a rule it does not touch."""
    where = getattr(exc.location, "file", None)
    if where is None or str(where) != str(base_file):
        return exc  # located in a variant's file (or nowhere): it names its place already
    names = ", ".join(str(v.canonical()) for v in variants)
    exc.message = f"{exc.message} (with the variant{'s' if len(variants) > 1 else ''} {names} applied)"
    exc.args = (str(exc),)
    return exc
