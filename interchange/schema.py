"""Check a document's shape against the published JSON Schema, in the import's own words.

The schema is ``docs/interchange.schema.json`` (draft 2020-12), the file the docs
publish: read once, from ``settings.BASE_DIR``, the first time a document is
checked. Its errors become the import's messages: where, as a path like
``competitions[0].pieces``, and what, as ``must be a whole number, not "500"``.
A schema's ``title`` names what a value must be (``a time H:MM:SS``). Terms:

shape
    What the schema says: types, required members, known values, ranges,
    lengths, patterns, and no other members: every object of the format is
    closed (``additionalProperties: false``), and a version-1 document carries
    only the fields of version 1 (``$defs/version-1``). References between
    ids, the members of an entry against its category, dates against their
    bounds and the rules are checked after it, in Python (``interchange.read``,
    ``interchange.read_competition``).
problems
    At most ``MAX_PROBLEMS``, one per path, in the order of their paths (an
    array's items by index); a document with a hundred thousand bad items gets
    the first few found, and the check stops there. An unknown key is a problem
    at its own path (``competitions[0].entries[3].represents``). A document of
    a version this import does not read (a whole number, as a newer release
    writes) has that one problem: its other members are the newer format's, not
    mistakes.

Two departures from a plain draft 2020-12 validator, neither loosening it:
a whole number (``integer``) is written without a fraction (``3``, not
``3.0``, which JSON Schema would take and the import never did), and a number
is an ``int`` or a ``float`` (not a ``bool`` or a ``Decimal``); ``uniqueItems``
is checked in one pass (the library's compares every pair of items it cannot
sort: minutes for a long list of objects).

A document is checked after ``core.jsonbounds``: its depth is bounded,
so the check cannot recurse deeply, and its numbers are plain.
"""

from __future__ import annotations

import functools
import heapq
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.exceptions import best_match

from interchange.format import InterchangeError
from interchange.values import _show

SCHEMA_FILE = Path("docs") / "interchange.schema.json"
MAX_PROBLEMS = 10
# Errors read at most to find those problems (several may share a path).
MAX_ERRORS_READ = 200

TYPE_WORDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "object": "an object",
    "array": "a list",
    "null": "null",
}
# What an unknown key of an object is called in a message (otherwise a "field").
KEY_NOUNS = {"rules": "parameter", "advance": "setting"}
NOT_BLANK = r"\S"
# A key of the document shown in a path or message is shortened like a value.
KEY_SHOWN_MAX = 60

Where = tuple[str | int, ...]


def schema_path() -> Path:
    """Return where the schema is read from: the file the docs publish."""
    return Path(settings.BASE_DIR) / SCHEMA_FILE


def _is_integer(checker, instance) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


def _is_number(checker, instance) -> bool:
    return isinstance(instance, int | float) and not isinstance(instance, bool)


def _same(item: Any) -> Any:
    """Return a key equal for items JSON Schema holds equal (1 and 1.0, not 1 and true)."""
    if isinstance(item, bool) or item is None:
        return ("literal", item)
    if isinstance(item, int | float | str):
        return ("value", item)
    try:
        return ("json", json.dumps(item, sort_keys=True))
    except (TypeError, ValueError):
        return ("repr", repr(item))


def _unique_items(validator, unique, instance, schema) -> Iterator[ValidationError]:
    """``uniqueItems`` in one pass; each repeated item is an error at its own index."""
    if not unique or not validator.is_type(instance, "array"):
        return
    first: dict[Any, int] = {}
    for index, item in enumerate(instance):
        index_of_first = first.setdefault(_same(item), index)
        if index_of_first != index:
            error = ValidationError("repeats an earlier item", path=[index], instance=item)
            error.first_index = index_of_first
            yield error


_Validator = validators.extend(
    Draft202012Validator,
    validators={"uniqueItems": _unique_items},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"integer": _is_integer, "number": _is_number}
    ),
)


@functools.cache
def validator() -> Draft202012Validator:
    """Return the validator of the schema file (read and checked once)."""
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return _Validator(schema)


def check(data: Any) -> None:
    """Raise ``InterchangeError`` naming the shape's problems of ``data``, if it has any."""
    found = problems(data)
    if found:
        (path, message), *more = found
        raise InterchangeError(path, message, more=more)


def problems(data: Any) -> list[tuple[str, str]]:
    """Return the shape's problems of ``data`` as ``(path, message)``: a few, by path."""
    unread = _unread_version(data)
    if unread:
        return unread
    found: dict[Where, str] = {}
    for count, error in enumerate(validator().iter_errors(data)):
        if count >= MAX_ERRORS_READ or len(found) >= MAX_PROBLEMS:
            break
        for where, message in _describe(error):
            found.setdefault(where, message)
    ordered = sorted(found.items(), key=lambda item: _order(item[0]))[:MAX_PROBLEMS]
    return [(_path(where), message) for where, message in ordered]


def _unread_version(data: Any) -> list[tuple[str, str]]:
    """Return the problem of a whole-number version the schema does not read, alone."""
    version = data.get("version") if isinstance(data, dict) else None
    if not _is_integer(None, version):
        return []
    header = validator().schema["properties"]["version"]
    check = validator().evolve(schema={"properties": {"version": header}})
    return [
        (_path(where), message)
        for error in check.iter_errors({"version": version})
        for where, message in _describe(error)
    ]


def _order(where: Where) -> tuple:
    # An array's items by number, keys by name (any key a dict built in Python may have).
    return tuple((0, step) if isinstance(step, int) else (1, str(step)) for step in where)


def _key(key: Any) -> str:
    text = str(key)
    return text if len(text) <= KEY_SHOWN_MAX else text[: KEY_SHOWN_MAX - 3] + "..."


def _path(where: Where) -> str:
    """Return a path as the messages write it: ``competitions[0].entries[3].name``."""
    path = ""
    for step in where:
        if isinstance(step, int):
            path += f"[{step}]"
        else:
            path += f".{_key(step)}" if path else _key(step)
    return path


def _types(expected: str | Sequence[str]) -> str:
    """Return JSON types in words, without null when there are others (``text``)."""
    names = [expected] if isinstance(expected, str) else list(expected)
    return _either([TYPE_WORDS.get(name, name) for name in names])


def _either(words: Sequence[str]) -> str:
    words = list(dict.fromkeys(words))
    if len(words) > 1 and "null" in words:
        words.remove("null")
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _noun(where: Where) -> str:
    """Return what the value at ``where`` is, from its name: ``payment status``."""
    names = [step for step in where if isinstance(step, str)]
    return names[-1].replace("_", " ") if names else "value"


def _number(value: Any) -> str:
    return json.dumps(value)


def _describe(error: ValidationError, title: str | None = None) -> Iterator[tuple[Where, str]]:
    """Yield ``(where, message)`` for one error of the validator."""
    where: Where = tuple(error.absolute_path)
    keyword = error.validator
    expected = error.validator_value
    schema = error.schema if isinstance(error.schema, dict) else {}
    title = schema.get("title", title)
    value = error.instance
    shown = _show(value)
    if keyword == "required":
        for name in expected:
            if isinstance(value, dict) and name not in value:
                yield (*where, name), "is required"
    elif keyword == "type":
        if not where:
            yield where, f"the document must be a JSON object, not {shown}"
        else:
            yield where, f"must be {title or _types(expected)}, not {shown}"
    elif keyword == "const":
        yield where, f"must be {_show(expected)}, not {shown}"
    elif keyword == "enum" and _names_a_key(error):
        noun = KEY_NOUNS.get(_noun(where), "field")
        yield (*where, value), f"unknown {noun} {_show(_key(value))}"
    elif keyword == "not" and _names_a_key(error):
        # {"propertyNames": {"title": ..., "not": {"enum": [...]}}}: keys this object may not have.
        yield (*where, value), f"{_show(_key(value))} is {title or 'not allowed here'}"
    elif keyword == "enum":
        if title:
            yield where, f"{shown} is not {title}"
        else:
            known = ", ".join(str(choice) for choice in expected if choice is not None)
            yield where, f"unknown {_noun(where)} {shown} (known: {known})"
    elif keyword in ("minimum", "maximum"):
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            yield where, f"must be between {_number(low)} and {_number(high)}, not {shown}"
        elif keyword == "minimum":
            yield where, f"must be at least {_number(low)}, not {shown}"
        else:
            yield where, f"must be at most {_number(high)}, not {shown}"
    elif keyword == "minLength":
        long = f"must be at least {expected} characters long"
        yield where, "must not be empty" if expected == 1 else long
    elif keyword == "maxLength":
        yield where, f"must be at most {expected} characters long"
    elif keyword == "pattern":
        if title:
            yield where, f"{shown} is not {title}"
        elif expected == NOT_BLANK:
            yield where, "must not be empty"
        else:
            yield where, f"{shown} does not have the form {expected}"
    elif keyword == "minItems":
        yield where, f"must hold at least {expected} item{'s' if expected != 1 else ''}"
    elif keyword == "maxItems":
        yield where, f"must hold at most {expected} item{'s' if expected != 1 else ''}"
    elif keyword == "uniqueItems":
        also = _path((*where[:-1], getattr(error, "first_index", 0)))
        yield where, f"duplicate {shown} (also {also})"
    elif keyword == "additionalProperties":
        # Each unknown key at its own path; of very many, the first few by name.
        noun = KEY_NOUNS.get(_noun(where), "field")
        extras = heapq.nsmallest(MAX_PROBLEMS, _unknown_keys(value, schema), key=str)
        for key in extras:
            yield (*where, key), f"unknown {noun} {_show(_key(key))}"
        if not extras:
            yield where, "is invalid"
    elif keyword == "dependentRequired":
        for name, needed in expected.items():
            missing = [other for other in needed if name in value and other not in value]
            if missing:
                yield where, f"{name} needs {' and '.join(missing)}"
    elif keyword == "not":
        # {"not": {"type": "object", "required": [a, b]}}: a and b exclude each other.
        names = expected.get("required") if isinstance(expected, dict) else None
        if names and set(expected) <= {"type", "required"}:
            yield where, f"{' and '.join(names)} exclude each other"
        else:
            yield where, "is not allowed here"
    elif keyword in ("anyOf", "oneOf"):
        yield from _alternatives(error, title)
    else:
        yield where, f"is invalid ({keyword})"


def _names_a_key(error: ValidationError) -> bool:
    """Return whether ``error`` is about a key of an object (``propertyNames``)."""
    schema_path = error.absolute_schema_path
    return len(schema_path) >= 2 and schema_path[-2] == "propertyNames"


def _unknown_keys(value: Any, schema: dict) -> Iterable[str]:
    if not isinstance(value, dict):
        return []
    known = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [
        key
        for key in value
        if key not in known and not any(re.search(pattern, key) for pattern in patterns)
    ]


def _misfit(error: ValidationError) -> bool:
    """Return whether an alternative refuses the value for its kind (its type, its value)."""
    return error.validator in ("type", "const", "enum") and not error.relative_path


def _alternatives(error: ValidationError, title: str | None) -> Iterator[tuple[Where, str]]:
    """Describe an ``anyOf``: by the one alternative of the value's kind, or by all of them."""
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context or ():
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [errors for errors in branches.values() if not any(map(_misfit, errors))]
    if len(fitting) == 1:
        yield from _describe(fitting[0][0], title)
        return
    if not fitting:
        words = []
        for errors in branches.values():
            for sub in errors:
                sub_title = sub.schema.get("title") if isinstance(sub.schema, dict) else None
                if sub.validator == "type":
                    words.append(sub_title or _types(sub.validator_value))
                elif sub.validator == "const":
                    words.append(_show(sub.validator_value))
        kinds = title or _either(words) or "one of the forms the schema allows"
        yield tuple(error.absolute_path), f"must be {kinds}, not {_show(error.instance)}"
        return
    best = best_match(error.context or ())
    if best is None:
        yield tuple(error.absolute_path), "is invalid"
    else:
        yield from _describe(best, title)
