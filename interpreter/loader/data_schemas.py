"""The JSON Schemas of what Ribbit reads besides definitions: saves, scenarios and replay logs.

Each is package data beside the definition's schema (``interpreter/schemas``) and is checked before
any hand-written check of what the data means for its game: the schema says what kind each part is,
the loader's own checks say whether it fits the game (a zone it has, a seat in range, the replay of
a save).  Types are exact (``True`` is no integer, a ``dict`` subclass no mapping), so no foreign
``__eq__`` or ``__len__`` runs.  The first violation, in the schema's own order, is the one reported:
the schemas put size bounds before their items, so a huge input is refused without walking it.
Each reader words the error for its readers (:func:`explain` is the generic wording).
"""

from __future__ import annotations

from functools import lru_cache

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from .schema import _explain, load_schema

SAVE_SCHEMA = "save.schema.json"
SCENARIO_SCHEMA = "scenario.schema.json"
LOG_SCHEMA = "log.schema.json"

_EXACT = {"integer": int, "string": str, "array": list, "object": dict, "boolean": bool}



# jsonschema's own messages hold ``repr(instance)``: a list of 10^7 items, or one nested past Python's
# recursion limit, would be written out (or fail) before the first error is seen.  These keywords say
# the same without the instance; the readers word the message from the error's fields anyway.
def _type(validator, types, instance, schema):
    types = types if isinstance(types, list) else [types]
    if not any(validator.is_type(instance, kind) for kind in types):
        yield ValidationError(f"not of type {', '.join(types)}")


def _max_items(validator, bound, instance, schema):
    if validator.is_type(instance, "array") and len(instance) > bound:
        yield ValidationError(f"more than {bound} items")


def _min_items(validator, bound, instance, schema):
    if validator.is_type(instance, "array") and len(instance) < bound:
        yield ValidationError(f"fewer than {bound} items")


def _max_length(validator, bound, instance, schema):
    if validator.is_type(instance, "string") and len(instance) > bound:
        yield ValidationError(f"longer than {bound} characters")


def _const(validator, const, instance, schema):
    if type(instance) is not type(const) or instance != const:
        yield ValidationError(f"not {const!r}")


_ExactValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    validators={"type": _type, "maxItems": _max_items, "minItems": _min_items, "maxLength": _max_length,
                "const": _const},
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many({
        **{name: (lambda kind: lambda checker, value: type(value) is kind)(kind) for name, kind in _EXACT.items()},
        "null": lambda checker, value: value is None,
        "number": lambda checker, value: type(value) in (int, float)}))


@lru_cache(maxsize=None)
def _validator(schema_name: str):
    return _ExactValidator(load_schema(schema_name))


def first_error(schema_name: str, data):
    """The first violation of the schema ``schema_name`` by ``data`` (the most specific part of it), or None."""
    error = next(iter(_validator(schema_name).iter_errors(data)), None)
    while error is not None and error.context:  # a choice of forms: the form that explains the most
        error = best_match(error.context)
    return error


def explain(error) -> str:
    """A sentence for one violation, naming what was expected (the wording of definitions' errors)."""
    return _explain(error)
