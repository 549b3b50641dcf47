"""Validate definitions against the JSON Schemas shipped in the package and report errors with positions.

The report reads ``file:line:col: key.path: message``: the best-matching error
first, pointing at the offending key or value, then how many more there are.
"""

from __future__ import annotations

import difflib
import json
import re
from functools import lru_cache
from importlib import resources

import jsonschema
from jsonschema.exceptions import best_match

from ..errors import quote
from .source import Source

# The schemas are package data (``interpreter/schemas``; the checkout's top-level ``schemas/`` links to it
# for editors), read through importlib.resources so a wheel or zip install finds them too.
SCHEMA_PACKAGE = "interpreter"
SCHEMA_FOLDER = "schemas"

NAME_FIRST = re.compile(r"([a-z_][a-z0-9_]*)\s*:\s*([a-z_]+)")  # "c: card" in a signature, written "card c"
_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
               "array": "a list", "object": "a mapping", "null": "nothing (null)"}


# "integer" means a whole number as YAML writes it: 4.0 is a float to Python, and range(4.0) fails.
_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: type(value) is int))


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict:
    return json.loads(resources.files(SCHEMA_PACKAGE).joinpath(SCHEMA_FOLDER, name).read_text(encoding="utf-8"))


# (schema, file, text) of files read and found valid in this process: the data is made from the text
# alone, so the same text is valid again (a game loaded again, with other options or variants)
_VALID: set = set()
MAX_REMEMBERED = 64


def validate(source: Source, schema_name: str = "game.schema.json", verbose: bool = False) -> None:
    """Raise a located DefinitionError naming the best-matching violation (and how many more)."""
    read = (schema_name, source.file, source.text) if type(source) is Source else None
    if read in _VALID:
        return
    schema = load_schema(schema_name)
    validator = _Validator(schema)
    errors = list(validator.iter_errors(_json_keys(source.data)))
    if not errors:
        if read is not None and len(_VALID) < MAX_REMEMBERED:
            _VALID.add(read)
        return
    best = _most_specific(best_match(errors))
    location = _locate(source, best)
    message = _explain(best)
    others = len(errors) - 1
    if others and not verbose:
        message += f" ({others} more error{'s' if others > 1 else ''}; use --verbose to see all)"
    elif others:
        extra = []
        for err in errors:
            if err is best or best in _descendants(err):
                continue
            err = _most_specific(err)
            extra.append(f"  {_locate(source, err)}: {_explain(err)}")
        message += "\n" + "\n".join(extra)
    raise source.error_at(message, location)


def _descendants(error):
    for sub in error.context or ():
        yield sub
        yield from _descendants(sub)


def _most_specific(error):
    """Descend into anyOf/oneOf to the sub-error that explains the most, unless the choice itself is the news."""
    while error.context and not _choice_of_keys(error):
        error = best_match(_branches_meant(error.context))
    return error


def _branches_meant(errors: list) -> list:
    """The errors of a choice's branches the value could be meant for: a branch of another type than the value's
    (text, where a list of steps was written) is left out while some branch takes its type, so an unknown key in a
    step is reported, not 'expected text'."""
    meant = [e for e in errors if not (e.validator == "type" and not e.relative_path)]
    return meant or errors


def _choice_of_keys(error):
    """For a oneOf whose branches only require a key each, the keys to choose between (else None)."""
    branches = error.validator_value if error.validator in ("oneOf", "anyOf") else None
    if not isinstance(branches, list) or not all(set(b) == {"required"} and len(b["required"]) == 1
                                                  for b in branches if isinstance(b, dict)):
        return None
    return [b["required"][0] for b in branches]


def _json_keys(value):
    """The data as JSON sees it: mapping keys are text (YAML allows number keys, e.g. in tables)."""
    if isinstance(value, dict):
        return {str(k): _json_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_keys(v) for v in value]
    return value


def _source_path(data, path) -> tuple:
    """Map a path through the JSON view back to the loaded data's own keys (numbers stay numbers)."""
    out = []
    for part in path:
        if isinstance(data, dict) and part not in data:
            part = next((k for k in data if str(k) == part), part)
        out.append(part)
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            data = None
    return tuple(out)


def _locate(source: Source, error):
    """Point at the key itself for unknown or badly named keys, else at the value."""
    path = _source_path(source.data, error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        extra = _extra_keys(error)
        if extra:
            return source.key_location(_source_path(source.data, tuple(error.absolute_path) + (extra[0],)))
    if "propertyNames" in error.absolute_schema_path and isinstance(error.instance, str):
        return source.key_location(_source_path(source.data, tuple(error.absolute_path) + (error.instance,)))
    return source.location(path)


def _extra_keys(error) -> list:
    allowed = error.schema.get("properties", {})
    patterns = error.schema.get("patternProperties", {})
    import re

    return [k for k in error.instance if k not in allowed and not any(re.search(p, str(k)) for p in patterns)]


def _explain(error) -> str:
    """A sentence for one jsonschema error, naming what was expected."""
    keys = _choice_of_keys(error)
    if keys:
        return _one_of_keys(error, keys)
    explain = _BY_VALIDATOR.get(error.validator)
    if explain is not None:
        return explain(error)
    if "propertyNames" in error.absolute_schema_path:
        return _bad_name(error)
    if error.validator == "pattern":
        desc = error.schema.get("description", "")
        return f"{quote(error.instance)} does not have the expected form{': ' + desc if desc else ''}"
    return error.message[:300]


def _count_bound(error) -> str:
    """Too many or too few items (keys): how many there are, and the bound (a raw list is not repeated back)."""
    if error.validator.startswith("min") and error.validator_value == 1:
        return "must not be empty"
    things = "items" if error.validator.endswith("Items") else "keys"
    bound = "at most" if error.validator.startswith("max") else "at least"
    return f"has {len(error.instance)} {things}; {bound} {error.validator_value} allowed"


def _one_of_keys(error, keys) -> str:
    """Exactly one of ``keys`` is wanted: none was given, or several."""
    present = [k for k in keys if isinstance(error.instance, dict) and k in error.instance]
    listed = " or ".join(repr(k) for k in keys)
    if present:
        return f"use only one of {listed}, not {' and '.join(map(repr, present))} together"
    return f"needs one of {listed}"


def _missing_key(error) -> str:
    """A required key is missing: named, with the first sentence of its description."""
    missing = error.message.split("'")[1] if "'" in error.message else error.message
    about = error.schema.get("properties", {}).get(missing, {}).get("description", "")
    about = about.split(". ")[0].rstrip(".")
    written = [str(k) for k in error.instance] if isinstance(error.instance, dict) else []
    close = difflib.get_close_matches(missing, written, n=1)
    misspelt = f"; is {quote(close[0])} a misspelling of it?" if close else ""
    return f"missing required key {missing!r}" + (f" ({about[:1].lower() + about[1:]})" if about else "") + misspelt


def _unknown_keys(error) -> str:
    """Keys the schema does not know: the first three named, the nearest known key suggested, the known listed."""
    extra = _extra_keys(error) if isinstance(error.instance, dict) else []
    allowed = sorted(error.schema.get("properties", {}))
    close = difflib.get_close_matches(str(extra[0]), allowed, n=1) if extra else []
    hint = f"; did you mean {close[0]!r}?" if close else ""
    named = ", ".join(quote(k) for k in extra[:3]) + (f" and {len(extra) - 3} more" if len(extra) > 3 else "")
    return f"unknown key {named}{hint} Expected one of: {', '.join(allowed)}" \
        if hint else f"unknown key {named}; expected one of: {', '.join(allowed)}"


def _wrong_type(error) -> str:
    """A value of the wrong type; a list or mapping where text was expected is often an unquoted expression."""
    types = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
    want = " or ".join(_TYPE_WORDS.get(w, w) for w in types)
    hint = ""
    if "integer" in types and type(error.instance) is float:
        hint = "; numbers in a definition are whole numbers"
    if "string" in types and isinstance(error.instance, (list, dict)):
        hint = ("; YAML reads a value that starts with '[' or '{' as a list or mapping, "
                "so put an expression that starts with one in quotes")
    return f"expected {want}, not {_describe(error.instance)}{hint}"


def _not_one_of(error) -> str:
    options = [str(o) for o in error.validator_value]
    close = difflib.get_close_matches(str(error.instance), options, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{quote(error.instance)} is not one of: {', '.join(options)}{hint}"


def _bad_name(error) -> str:
    """A key that is not a name: a plain name, or a signature (with a hint when its parameters are written
    name first)."""
    if "(" not in str(error.validator_value):  # a plain name (a counter, a score term)
        return f"{quote(error.instance)} is not a valid name here; expected lower_case letters, digits and _"
    hint = ""
    if NAME_FIRST.search(str(error.instance)):
        hint = ("; write each parameter as its kind, then its name: "
                + quote(NAME_FIRST.sub(lambda m: f"{m[2]} {m[1]}", str(error.instance))))
    return (f"{quote(error.instance)} is not a valid name here; expected 'name(kind parameter, ...)', "
            f"optionally followed by '-> kind', e.g. 'deal(player p)'{hint}")


# jsonschema validator -> its sentence (checked before the shape of a key name, which has validators of its own)
_BY_VALIDATOR = {"required": _missing_key, "additionalProperties": _unknown_keys, "type": _wrong_type,
                 "enum": _not_one_of, "maxItems": _count_bound, "minItems": _count_bound,
                 "maxProperties": _count_bound, "minProperties": _count_bound}


def _describe(value) -> str:
    """How a wrong value reads in a message: its kind and (short) text."""
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, int):
        return f"the number {quote(value)}"
    if isinstance(value, str):
        return f"the text {quote(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "nothing (null)"
    if isinstance(value, float):
        return f"the number {value!r}"
    return f"a {type(value).__name__}"
