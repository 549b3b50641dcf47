"""Loading a game: read the YAML safely, validate it against the schema, build and compile it."""

from __future__ import annotations

from pathlib import Path

from ..errors import DefinitionError, Location
from .build import build_game
from .schema import validate
from .source import read_yaml_file


def load_game(path: str | Path, variants: list[str] | None = None, verbose: bool = False):
    """Load, validate and compile a game definition; raises a located DefinitionError if anything is wrong."""
    source = read_yaml_file(path)
    if not isinstance(source.data, dict):
        raise DefinitionError("a game definition must be a YAML mapping with keys such as game, players, zones, flow",
                              Location(source.file, 1, 1))
    if variants:
        raise DefinitionError("variants are not supported yet", Location(source.file))
    validate(source, "game.schema.json", verbose=verbose)
    return build_game(source, [source.text], [])
