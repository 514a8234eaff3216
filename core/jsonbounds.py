"""Bounds of a JSON document that a person hands in, checked before anything reads it.

A JSON document can be valid and still absurd: nested a hundred thousand levels
deep (Python's parser recurses once per level), a number of five thousand digits
(Python refuses to convert more than 4,300 digits, and a database column holds 19),
text with a NUL character or a lone UTF-16 surrogate (``"\\ud800"``: no database
stores either). Terms:

depth
    How many arrays and objects enclose a value: ``[[1]]`` is 2 deep. ``MAX_DEPTH``
    is far more than any document of the application needs.
number out of range
    A whole number of more than ``MAX_DIGITS`` digits, or one beyond what a
    database column holds (``INTEGER_LIMIT``); a decimal number that is not finite
    (``1e999``, ``NaN``, ``Infinity``). ``loads`` reads such a number as an
    ``OutOfRange`` holding the text, so that ``problem`` can name where it is.
bad text
    A string, or an object's key, holding a NUL character or a lone surrogate.
    PostgreSQL stores neither in text or ``jsonb``, and a lone surrogate cannot
    even be written back in an answer that quotes it. ``bad_text`` is the one
    check of text for everything the application stores (the answers to the
    organiser's questions, a capture's payload, anything of a ``JSONField``);
    ``validate_text`` says it to a person, in their language, for the forms,
    the API and the admin; ``problem`` says it with its path, for the import.
path
    Where a value is, as ``competitions[0].entries[3].name`` (as in the
    interchange format's messages).

``loads`` reads a text with these bounds; ``problem`` checks a value already read
(by this module or by another parser) and returns the first problem with its path.
None of them recurses, so none is itself at risk from a deep document.
"""

from __future__ import annotations

import json
import math
import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

MAX_DEPTH = 32
MAX_DIGITS = 19
# The largest whole number a database column holds (a signed 64-bit integer).
INTEGER_LIMIT = 9223372036854775807

# A string (skipped whole, so that brackets inside it do not count); a bracket.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STRING_BYTES = re.compile(_STRING.pattern.encode(), re.DOTALL)
# Brackets as +1 and -1 (0xff read as a signed byte), everything else left out.
_BRACKETS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[{]}")
_TOKEN = re.compile(rf"{_STRING.pattern}|[\[\]{{}}]", re.DOTALL)
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# What makes a text bad (``bad_text``).
NUL = "nul"
LONE_SURROGATE = "lone_surrogate"


class TooDeep(ValueError):
    """A text nested deeper than ``MAX_DEPTH``; ``line`` and ``column`` say where (from 1)."""

    def __init__(self, limit: int, line: int, column: int):
        super().__init__(f"nested deeper than {limit} levels at line {line}, column {column}")
        self.limit = limit
        self.line = line
        self.column = column


@dataclass(frozen=True)
class OutOfRange:
    """A number of the text that is out of range; ``text`` is how the text spells it."""

    text: str

    def __str__(self) -> str:
        return (
            self.text
            if len(self.text) <= 24
            else f"{self.text[:20]}... ({len(self.text)} characters)"
        )


def deepest(data: str | bytes) -> int:
    """Return how deeply the arrays and objects of a JSON text nest (0 for a scalar).

    Brackets inside strings do not count. For a text that is not JSON the number
    means little, but it is never less than the nesting the decoder would meet.
    Works on the bytes (a request's body as it came), in a few passes of C code.
    """
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    skeleton = _STRING_BYTES.sub(b"", data).translate(_BRACKETS, _NOT_BRACKETS)
    return max(accumulate(array("b", skeleton)), default=0)


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Raise ``TooDeep`` when arrays and objects in ``text`` nest deeper than ``limit``.

    Strings are skipped, so brackets inside them do not count. The text need not be
    valid JSON: what is not, the parser refuses afterwards.
    """
    if deepest(text) <= limit:
        return
    # Only a refused text is read again, token by token, to say where.
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > limit:
                position = match.start()
                line = text.count("\n", 0, position) + 1
                column = position - (text.rfind("\n", 0, position) + 1) + 1
                raise TooDeep(limit, line, column)
        elif token in ("]", "}"):
            depth = max(depth - 1, 0)


def _int(text: str) -> int | OutOfRange:
    if len(text.lstrip("-")) > MAX_DIGITS:
        return OutOfRange(text)
    value = int(text)
    return value if abs(value) <= INTEGER_LIMIT else OutOfRange(text)


def _float(text: str) -> float | OutOfRange:
    value = float(text)
    return value if math.isfinite(value) else OutOfRange(text)


def loads(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """Return the value of a JSON text, read within the bounds.

    Raise ``TooDeep`` for a text nested too deep, ``json.JSONDecodeError`` for one
    that is not JSON. A number out of range is read as an ``OutOfRange``.
    """
    check_depth(text, max_depth)
    return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=OutOfRange)


def _at(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _text_problem(value: str) -> str | None:
    found = _BAD_TEXT.search(value)
    if found is None:
        return None
    if found.group() == "\x00":
        return "holds a NUL character"
    return f"holds a lone surrogate (\\u{ord(found.group()):04x}), which is not a character"


def _number_problem(value: Any) -> str | None:
    if isinstance(value, OutOfRange):
        return f"the number {value} is out of range"
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and abs(value) > INTEGER_LIMIT:
        return f"the number {OutOfRange(str(value))} is out of range"
    if isinstance(value, float) and not math.isfinite(value):
        return f"the number {value} is out of range"
    return None


# An array or object that ``_walk`` does not enter: it lies deeper than asked.
_TOO_DEEP = object()


def _walk(value: Any, max_depth: int | None = None) -> Iterator[tuple[str, Any, bool]]:
    """Yield ``(path, item, is_key)`` for each key and each other value within ``value``.

    In the document's order, an object's keys before its values. An array or an
    object ``max_depth`` deep is not entered: it is yielded as ``_TOO_DEEP``.
    """
    stack: list[tuple[str, Any, int]] = [("", value, 0)]
    while stack:
        path, current, depth = stack.pop()
        if not isinstance(current, dict | list):
            yield path, current, False
            continue
        if max_depth is not None and depth >= max_depth:
            yield path, _TOO_DEEP, False
            continue
        if isinstance(current, dict):
            items = list(current.items())
            for key, _item in items:
                yield path, key, True
        else:
            items = list(enumerate(current))
        # Pushed in reverse, so that the items come in the document's order.
        stack.extend((_at(path, key), item, depth + 1) for key, item in reversed(items))


def problem(value: Any, *, max_depth: int = MAX_DEPTH) -> tuple[str, str] | None:
    """Return the first problem of a read JSON value as ``(path, message)``, or ``None``."""
    for path, item, is_key in _walk(value, max_depth):
        if item is _TOO_DEEP:
            return path, f"is nested deeper than {max_depth} levels"
        if is_key:
            message = _text_problem(item) if isinstance(item, str) else None
            if message:
                shown = json.dumps(item.encode("utf-8", "backslashreplace").decode())
                return path, f"the key {shown} {message}"
            continue
        message = _text_problem(item) if isinstance(item, str) else _number_problem(item)
        if message:
            return path, message
    return None


def bad_text(value: Any, *, surrogates_only: bool = False) -> str | None:
    """Return why the first text within ``value`` cannot be stored (``NUL``, ``LONE_SURROGATE``).

    ``value`` is a string, or what a JSON document reads as: every string and
    every key of its arrays and objects is checked. ``surrogates_only``: look for
    lone surrogates alone (text that an answer cannot quote back). ``None``: no
    such text.
    """
    pattern = _LONE_SURROGATE if surrogates_only else _BAD_TEXT
    for _path, item, _is_key in _walk(value):
        found = pattern.search(item) if isinstance(item, str) else None
        if found is not None:
            return NUL if found.group() == "\x00" else LONE_SURROGATE
    return None


def validate_text(value: Any) -> None:
    """Raise ``ValidationError`` in the active language when ``bad_text`` finds a text in ``value``.

    A validator for a form's or a serializer's field, and for a service's input.
    """
    found = bad_text(value)
    if found == NUL:
        # Django's words (its own catalogues translate them), as its text fields say them.
        raise ValidationError(
            _("Null characters are not allowed."), code="null_characters_not_allowed"
        )
    if found == LONE_SURROGATE:
        raise ValidationError(
            _("Unpaired surrogate characters are not allowed."),
            code="surrogate_characters_not_allowed",
        )
