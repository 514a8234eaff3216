"""The CSV files the application writes: columns in a Nordic spreadsheet, cells that never run.

dialect
    How a file is written for a championship's language. Excel in Norway, Sweden
    and Denmark takes the comma as the decimal sign and splits a CSV file's lines
    at semicolons; it also reads a file as UTF-8 only when it starts with a
    byte-order mark (else "Ålgård" comes out as "Ã…lgÃ¥rd"). So nb, sv and da
    files are separated by semicolons and start with the mark; en files are
    plain comma-separated UTF-8.
neutral cell
    A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
    is written with a leading apostrophe: a spreadsheet shows it as text instead
    of running it as a formula (CSV injection). The entries import takes the
    apostrophe away again.

Every CSV export (entries, results) writes through ``write`` or ``response``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass

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
    """Return a value as a cell's text: empty for ``None``, with an apostrophe before a formula."""
    text = "" if value is None else str(value)
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
