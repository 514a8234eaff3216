"""The CSV files the application writes: columns in a Nordic spreadsheet, cells that never run.

dialect
    How a file is written for a championship's language. Excel in Norway, Sweden
    and Denmark takes the comma as the decimal sign and splits a CSV file's lines
    at semicolons; it also reads a file as UTF-8 only when it starts with a
    byte-order mark (else "Ålgård" comes out as "Ã…lgÃ¥rd"). So nb, sv and da
    files are separated by semicolons, start with the mark and write a decimal
    comma ("200,50", "10,8"); en files are plain comma-separated UTF-8 with a
    decimal point. A file asked for with the other separator takes that one's
    decimal sign too: a spreadsheet that splits at commas reads a decimal point.
words
    A file's column names and its words (yes, no, completed …) are in the
    championship's language, through the catalogues (``pgettext`` with the
    context "csv header" or "csv value"). An English file keeps the names and
    words it always had ("final_seconds", "yes"): they are the msgids.
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
category results, a round's report) goes through ``write`` or ``response``; nothing
else writes CSV, so no cell escapes the rule.

Every CSV the application reads (the entries import, a prior ranking) goes through
``decode`` and ``read_table``: UTF-8 with or without a byte-order mark, else
Windows-1252 (as Excel in the Nordic countries saves "CSV"); the delimiter a comma,
a semicolon or a tab, told by the header; rows numbered as a spreadsheet shows
them. An unreadable file raises ``CsvFileError`` with a message for the user.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from core import jsonbounds

BOM = "\ufeff"
# Languages whose spreadsheets split CSV lines at semicolons.
SEMICOLON_LANGUAGES = frozenset({"nb", "sv", "da"})
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Dialect:
    """The separator of the cells, whether a byte-order mark starts the file, the decimal sign."""

    delimiter: str
    bom: bool
    decimal: str


COMMA = Dialect(delimiter=",", bom=False, decimal=".")
SEMICOLON = Dialect(delimiter=";", bom=True, decimal=",")

# The words of a yes/no cell (the entries import reads them back in any language).
YES = pgettext_lazy("csv value", "yes")
NO = pgettext_lazy("csv value", "no")


def dialect_for(language: str) -> Dialect:
    """Return how to write a CSV file for a championship in ``language``."""
    return SEMICOLON if language in SEMICOLON_LANGUAGES else COMMA


def yes_no(value: bool) -> str:
    """Return the word of a yes/no cell in the active language."""
    return str(YES if value else NO)


def cell(value, decimal: str = ".") -> str:
    """Return a value as a cell's text: a neutral cell (see the module's terms).

    ``None`` is an empty cell; a number is written as it is, with ``decimal`` as
    its decimal sign; text that a spreadsheet would run as a formula gets an
    apostrophe.
    """
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, float | Decimal):
        return str(value).replace(".", decimal)
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
        writer.writerow([cell(value, dialect.decimal) for value in row])
    return buffer.getvalue()


def response(
    filename: str, rows: Iterable[Iterable], *, language: str, dialect: Dialect | None = None
) -> HttpResponse:
    """Return ``rows`` as a CSV download named ``filename`` (see ``write``)."""
    text = write(rows, language=language, dialect=dialect)
    answer = HttpResponse(text.encode("utf-8"), content_type="text/csv; charset=utf-8")
    answer["Content-Disposition"] = f'attachment; filename="{filename}"'
    return answer


# Reading ----------------------------------------------------------------------------------------


class CsvFileError(Exception):
    """The file cannot be read as a table at all; ``message`` says why, in the user's language."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def decode(data: bytes) -> str:
    """Return the file's text: UTF-8 (a byte-order mark is dropped), else Windows-1252."""
    if data.startswith(codecs.BOM_UTF8):
        try:
            text = data[len(codecs.BOM_UTF8) :].decode("utf-8")
        except UnicodeDecodeError:
            raise CsvFileError(
                _("The file says it is UTF-8 but is not valid UTF-8 text.")
            ) from None
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError:
                raise CsvFileError(
                    _("The file is neither UTF-8 nor Windows-1252 text. Save it as CSV (UTF-8).")
                ) from None
    # Text decoded from bytes holds no lone surrogate: a NUL is what says "not a text file".
    if jsonbounds.bad_text(text) == jsonbounds.NUL:
        raise CsvFileError(
            _("The file is not a text file in UTF-8 or Windows-1252. Save it as CSV (UTF-8).")
        )
    return text


def sniff_delimiter(header_line: str) -> str:
    """Return the delimiter of the header line: a comma, a semicolon or a tab."""
    try:
        return csv.Sniffer().sniff(header_line, delimiters=",;\t").delimiter
    except csv.Error:
        counts = {delimiter: header_line.count(delimiter) for delimiter in ",;\t"}
        best = max(counts, key=counts.get)
        return best if counts[best] else ","


def read_table(text: str, *, max_rows: int) -> tuple[str, list[tuple[int, list[str]]]]:
    """Return the file's delimiter and its rows that hold something, each with its number.

    The first row is the header. A row's number is the spreadsheet's (blank rows
    count, a cell over several lines does not). More than ``max_rows`` rows below
    the header, an empty file or one that is not a CSV table raise ``CsvFileError``.
    """
    first = next((line for line in text.splitlines() if line.strip()), "")
    if not first:
        raise CsvFileError(_("The file is empty."))
    delimiter = sniff_delimiter(first)
    try:
        table = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as error:
        raise CsvFileError(
            _("The file is not a valid CSV table (%(error)s).") % {"error": error}
        ) from None
    rows = [
        (number, cells)
        for number, cells in enumerate(table, start=1)
        if any(cell.strip() for cell in cells)
    ]
    if not rows:
        # Something was there, but no cell held anything (e.g. only empty quotes).
        raise CsvFileError(_("The file is empty."))
    if len(rows) - 1 > max_rows:
        raise CsvFileError(
            ngettext(
                "The file has more than %(count)s row: split it into smaller files.",
                "The file has more than %(count)s rows: split it into smaller files.",
                max_rows,
            )
            % {"count": max_rows}
        )
    return delimiter, rows
