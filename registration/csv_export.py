"""The organiser's export of the entries: one row per entry, its columns (``EXPORT_COLUMNS``),
then each member's (``member1_name`` … ``member4_publish_consent``). Written by
``core.csvfile``: for an nb, sv or da championship separated by semicolons with a
byte-order mark and a decimal comma, so that a Nordic Excel opens it as columns, reads æ,
ø, å, ä and ö right and the fee as a number; for an en one by commas.

The column names and the words of the cells (a status, yes or no) are in the active
language, the championship's when the export's view asks for them
(``registration.csv_columns``): "Betalingsstatus", "betalt", "ja". The entries import
reads them back in any language.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from championship.models import Championship
from core import csvfile
from registration.csv_columns import (
    EXPORT_COLUMNS,
    HEADERS,
    MEMBER_COLUMNS,
    MEMBER_FIELDS,
    PAYMENT_WORDS,
    STATUS_WORDS,
    member_header,
    represents_cell,
)

# Export ---------------------------------------------------------------------------------------


def export_header(member_columns: int = MEMBER_COLUMNS, questions=()) -> list[str]:
    """Return the export's column names in the active language: the questions last, by text."""
    members = [
        member_header(number, name)
        for number in range(1, member_columns + 1)
        for name in MEMBER_FIELDS
    ]
    entry = [str(HEADERS[key]) for key in EXPORT_COLUMNS]
    return [*entry, *members, *(question.text for question in questions)]


# Several choices in one cell: the import splits at this.
CHOICES_SEPARATOR = "; "


def answer_cell(question, value) -> str:
    """Return an answer as its cell: yes/no, the choices separated by "; ", or the text."""
    if value is None or value == "" or value == []:
        return ""
    if isinstance(value, bool):
        return csvfile.yes_no(value)
    if isinstance(value, list):
        return CHOICES_SEPARATOR.join(value)
    return str(value)


def _local_iso(moment: datetime | None, championship: Championship) -> str:
    if moment is None:
        return ""
    return timezone.localtime(moment, championship.tzinfo).isoformat()


def _word(words: dict, value: str) -> str:
    """Return a value's word in the active language (a value without one as it is)."""
    return str(words[value]) if value in words else value


def _citizenship_text(citizenship) -> str:
    if not citizenship:
        return ""
    if isinstance(citizenship, str):
        return citizenship
    return ",".join(citizenship)


def export_rows(championship: Championship, rows) -> list[list]:
    """Return the header, then a row of cells per entry row (``selectors.entry_rows``)."""
    member_columns = max([MEMBER_COLUMNS, *(len(row.members) for row in rows)])
    questions = list(championship.questions.order_by("order", "id"))
    table = [export_header(member_columns, questions)]
    for row in rows:
        entry = row.entry
        cells = [
            entry.category.key,
            entry.ref,
            entry.name,
            _word(STATUS_WORDS, entry.status),
            _local_iso(entry.registered_at, championship),
            csvfile.yes_no(row.official),
            entry.fee,
            _word(PAYMENT_WORDS, entry.payment_status),
            entry.payment_reference,
            csvfile.yes_no(entry.publish_consent),
            entry.adult_name,
            represents_cell(entry.represents),
            _local_iso(entry.checked_in_at, championship),
        ]
        for person in row.members:
            cells += [
                person.name,
                person.email,
                person.birth_date.isoformat() if person.birth_date else "",
                person.city,
                person.country,
                _citizenship_text(person.citizenship),
                person.region,
                "" if person.years_in_region is None else person.years_in_region,
                csvfile.yes_no(person.publish_consent),
            ]
        cells += [""] * (len(MEMBER_FIELDS) * (member_columns - len(row.members)))
        cells += [answer_cell(question, entry.answers.get(question.ref)) for question in questions]
        table.append(cells)
    return table
