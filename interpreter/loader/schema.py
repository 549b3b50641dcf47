"""Validate definitions against the JSON Schemas in ``schemas/`` and report errors with positions."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import jsonschema
from jsonschema.exceptions import best_match

from ..errors import DefinitionError
from .source import Source

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict:
    path = SCHEMA_DIR / name
    return json.loads(path.read_text(encoding="utf-8"))


def _relevance(error):
    # deeper errors first, then ones that are not about "anyOf"/"oneOf" wrappers
    return (-len(error.path), error.validator in ("anyOf", "oneOf"))


def validate(source: Source, schema_name: str = "game.schema.json", verbose: bool = False) -> None:
    """Raise a located DefinitionError naming the best-matching violation (and how many more)."""
    schema = load_schema(schema_name)
    validator = jsonschema.Draft202012Validator(schema)
    errors = list(validator.iter_errors(source.data))
    if not errors:
        return
    best = best_match(errors)
    # descend into the most specific sub-error of anyOf/oneOf for a useful message
    while best.context:
        best = best_match(best.context)
    path = tuple(best.absolute_path)
    message = _explain(best)
    others = len(errors) - 1
    if others and not verbose:
        message += f" ({others} more error{'s' if others > 1 else ''}; use --verbose to see all)"
    elif others:
        extra = []
        for err in errors:
            if err is best:
                continue
            loc = source.location(tuple(err.absolute_path))
            extra.append(f"  {loc}: {_explain(err)}")
        message += "\n" + "\n".join(extra)
    raise source.error(message, path)


def _explain(error) -> str:
    """A sentence for one jsonschema error, naming what was expected."""
    v = error.validator
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return f"missing required key {missing!r}"
    if v == "additionalProperties":
        extra = [k for k in error.instance if k not in error.schema.get("properties", {})] \
            if isinstance(error.instance, dict) else []
        allowed = ", ".join(sorted(error.schema.get("properties", {})))
        return f"unknown key {', '.join(map(repr, extra))}; expected one of: {allowed}"
    if v == "type":
        want = error.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        return f"expected {want}, got {type(error.instance).__name__} {error.instance!r}"[:300]
    if v == "enum":
        return f"{error.instance!r} is not one of: {', '.join(map(str, error.validator_value))}"
    if v == "pattern":
        desc = error.schema.get("description", "")
        return f"{error.instance!r} does not have the expected form{': ' + desc if desc else ''}"
    return error.message[:300]
