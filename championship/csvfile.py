"""The CSV files the application writes: columns in a Nordic spreadsheet, cells that never run.

dialect
    How a file is written for a championship's language. Excel in Norway, Sweden
    and Denmark takes the comma as the decimal sign and splits a CSV file's lines
    at semicolons; it also reads a file as UTF-8 only when it starts with a
    byte-order mark (else "Ålgård" comes out as "Ã…lgÃ¥rd"). So nb, sv and da
    files are separated by semicolons and start with the mark; en files are
    plain comma-separated UTF-8.
neutral cell
    A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
    return is written with a leading apostrophe: a spreadsheet shows it as text
    instead of running it as a formula (CSV injection). Text is whatever is not
    a number, above all what people typed (names, references): the string
    ``"-5"`` is text and gets the apostrophe. A number the application computed
    (an ``int``, ``float`` or ``Decimal``: a place, seconds, a fee) is written as
    the number it is, ``-3`` as ``-3``, so that a spreadsheet can still sum it; a
    number cannot hold a formula. The entries import takes the apostrophe away
    again.

Every CSV the application writes (the entries export, the public round and
category results) goes through ``write`` or ``response``; nothing else writes CSV,
so no cell escapes the rule.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.http import HttpResponse

BOM = "\ufeff"
# Languages whose spreadsheets split CSV lines at semicolons.
SEMICOLON_LANGUAGES = frozenset({"nb", "sv", "da"})
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Dialect:
    """The separator of a file's cells, and whether it starts with a byte-order mark."""

    delimiter: str
    bom: bool


COMMA = Dialect(delimiter=",", bom=False)
SEMICOLON = Dialect(delimiter=";", bom=True)


def dialect_for(language: str) -> Dialect:
    """Return how to write a CSV file for a championship in ``language``."""
    return SEMICOLON if language in SEMICOLON_LANGUAGES else COMMA


def cell(value) -> str:
    """Return a value as a cell's text: a neutral cell (see the module's terms).

    ``None`` is an empty cell; a number is written as it is; text that a
    spreadsheet would run as a formula gets an apostrophe.
    """
    if value is None:
        return ""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return str(value)
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def write(rows: Iterable[Iterable], *, language: str, dialect: Dialect | None = None) -> str:
    """Return ``rows`` (the header first) as CSV text for a championship in ``language``."""
    dialect = dialect or dialect_for(language)
    buffer = io.StringIO()
    if dialect.bom:
        buffer.write(BOM)
    writer = csv.writer(buffer, delimiter=dialect.delimiter, lineterminator="\r\n")
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return buffer.getvalue()


def response(
    filename: str, rows: Iterable[Iterable], *, language: str, dialect: Dialect | None = None
) -> HttpResponse:
    """Return ``rows`` as a CSV download named ``filename`` (see ``write``)."""
    text = write(rows, language=language, dialect=dialect)
    answer = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    answer["Content-Disposition"] = f'attachment; filename="{filename}"'
    return answer
