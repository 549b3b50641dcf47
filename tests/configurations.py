"""Every definition a test may play through: the shipped games with each variant file, and the test definitions."""

from __future__ import annotations

from pathlib import Path

from interpreter import load_game

ROOT = Path(__file__).resolve().parents[1]


def every_configuration(test_definitions_at_most: bool = True) -> list[tuple[Path, list[str], int]]:
    """(definition, variants, players): every shipped definition, alone and with each of its variant files, at
    its fewest and most players; every file of tests/definitions at its fewest, and its most unless
    ``test_definitions_at_most`` is False."""
    found = []
    for path in sorted((ROOT / "definitions").glob("*.yaml")):
        variants = [[]] + [[v.stem] for v in sorted((ROOT / "definitions" / "variants" / path.stem).glob("*.yaml"))]
        for chosen in variants:
            game = load_game(path, variants=chosen)
            found += [(path, chosen, n) for n in sorted({game.min_players, game.max_players})]
    for path in sorted((ROOT / "tests" / "definitions").glob("*.yaml")):
        game = load_game(path)
        counts = {game.min_players, game.max_players} if test_definitions_at_most else {game.min_players}
        found += [(path, [], n) for n in sorted(counts)]
    return found
