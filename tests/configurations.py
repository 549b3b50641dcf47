"""Every definition a test may play through: the shipped games with each variant file, and the test definitions."""

from __future__ import annotations

from pathlib import Path

import yaml

from interpreter import load_game

ROOT = Path(__file__).resolve().parents[1]


def setting_text(value) -> str:
    """A parameter value as written after ``NAME:key=``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def variant_refs(variant_file: Path, numbers: bool = True) -> list[str]:
    """The variant with its defaults, then once more for each other value of each ``one_of`` parameter
    (without ``numbers``, not of a whole-number one: see :func:`varies_the_paths`)."""
    parameters = (yaml.safe_load(variant_file.read_text()) or {}).get("parameters") or {}
    refs = [variant_file.stem]
    for key, spec in parameters.items():
        if numbers or varies_the_paths(spec.get("default")):
            refs += [f"{variant_file.stem}:{key}={setting_text(value)}"
                     for value in spec.get("one_of", []) if value != spec.get("default")]
    return refs


def varies_the_paths(default) -> bool:
    """Whether another value of a setting with this default may take the rules down other paths.

    A text or true/false setting picks among rules (``crayfish:rule=pass_left``); a whole number is an
    amount the rules read (points, a limit), whose other values take the paths of the default.  The sweeps
    that check a property of every position (trace, saves, narration, replay) play the default only; the
    invariants (test_conformance.py) and the compiler's differential test play every value."""
    return isinstance(default, bool) or not isinstance(default, int)


def every_configuration(test_definitions_at_most: bool = True, settings: bool = False) -> list[tuple[Path, list[str], int]]:
    """(definition, variants, players): every shipped definition, alone and with each of its variant files, at
    its fewest and most players (with ``settings``, each variant once more for each other value of each of its
    ``one_of`` parameters); every file of tests/definitions at its fewest, and its most unless
    ``test_definitions_at_most`` is False."""
    found = []
    for path in sorted((ROOT / "definitions").glob("*.yaml")):
        files = sorted((ROOT / "definitions" / "variants" / path.stem).glob("*.yaml"))
        refs = [ref for v in files for ref in (variant_refs(v) if settings else [v.stem])]
        for chosen in [[]] + [[ref] for ref in refs]:
            game = load_game(path, variants=chosen)
            found += [(path, chosen, n) for n in sorted({game.min_players, game.max_players})]
    for path in sorted((ROOT / "tests" / "definitions").glob("*.yaml")):
        game = load_game(path)
        counts = {game.min_players, game.max_players} if test_definitions_at_most else {game.min_players}
        found += [(path, [], n) for n in sorted(counts)]
    return found
