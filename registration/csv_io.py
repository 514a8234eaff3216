"""The import of the entries files spreadsheets write, and the stored import between preview
and confirmation.

import
    A file whose header names the export's columns, or common aliases of them
    (``registration.csv_columns``), read by ``core.csvfile`` (UTF-8 with
    or without the byte-order mark, or Windows-1252; commas, semicolons or tabs).
    Every row's cells are checked by the row's forms (``registration.csv_forms``),
    then the row with the registration's own rules, before anything is saved; the
    rows are saved by the registration services.
stored import
    The uploaded file's text, kept on the server between the preview and the
    confirmation (``StoredImport``), for the organiser who uploaded it. The
    confirmation makes it a job (``registration.csv_jobs``), which saves the rows
    batch by batch.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from championship.models import Category, Championship
from championship.rules import eligibility, identity
from core import csvfile
from registration import csv_forms, represents, validation
from registration.csv_columns import FORMULA_STARTS, MAX_ROWS, NO, YES, Column, map_header
from registration.models import Entry, Question, StoredImport
from registration.questions import clean_answers as questions_clean
from registration.questions import questions_for
from registration.validation import MemberData

# Parsing the rows -------------------------------------------------------------------------


@dataclass
class ImportRow:
    """One row of the file, as it would be registered, with its problems."""

    line: int
    category: Category | None = None
    name: str = ""
    members: list[MemberData] = field(default_factory=list)
    adult_name: str = ""
    # What the entry represents: as written, then as chosen (the rule's default when empty).
    represents: str = ""
    publish_consent: bool = False
    payment_status: str = ""
    payment_reference: str | None = None
    withdrawn: bool = False
    answers: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    official: bool | None = None
    expected_status: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def display_name(self) -> str:
        return self.name or " & ".join(member.name for member in self.members)

    @property
    def payment_label(self) -> str:
        return Entry.Payment(self.payment_status).label if self.payment_status else ""


@dataclass
class ImportPreview:
    """The file as the import would save it."""

    rows: list[ImportRow] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    delimiter: str = ","

    @property
    def to_import(self) -> list[ImportRow]:
        return [row for row in self.rows if row.ok and not row.withdrawn]

    @property
    def invalid(self) -> list[ImportRow]:
        return [row for row in self.rows if not row.ok]

    @property
    def withdrawn(self) -> list[ImportRow]:
        return [row for row in self.rows if row.withdrawn]

    @property
    def expected_counts(self) -> Counter:
        return Counter(row.expected_status for row in self.to_import)


def _category_lookup(championship: Championship) -> dict[str, Category]:
    lookup = {}
    for category in championship.categories.all():
        category.championship = championship
        names = {category.key, category.kind, category.name, str(category.display_name)}
        names |= {str(label) for kind, label in Category.Kind.choices if kind == category.kind}
        for name in names:
            if name:
                lookup.setdefault(name.strip().casefold(), category)
    return lookup


def _member_label(index: int) -> str:
    return _("Member %(number)s") % {"number": index + 1}


def _cells(columns: dict[int, Column], cells: list[str]) -> dict[Column, str]:
    """Return the row's cells by column, stripped; a missing cell is empty."""
    values = {}
    for position, column in columns.items():
        value = cells[position].strip() if position < len(cells) else ""
        # A leading apostrophe is how the export keeps a spreadsheet from running a formula.
        if value.startswith("'") and value[1:].startswith(FORMULA_STARTS):
            value = value[1:]
        values[column] = value
    return values


def _form_problems(
    form, reported: set[str], *, key: str = "", member: int | None = None
) -> list[str]:
    """Return a row form's errors as sentences (after "Member N: " for ``member``).

    The fields the form refuses join ``reported`` (as ``key`` + name): the
    service's errors about them are not told again. An over-long text is not
    refused but cut, and checked on.
    """
    problems = []
    errors = form.errors.as_data()
    where = _member_label(member) + ": " if errors and member is not None else ""
    for name, refusals in errors.items():
        for error in refusals:
            problems.extend(where + message for message in error.messages)
            if error.code != csv_forms.TOO_LONG:
                reported.add(key + name)
    return problems


def _service_problems(error: ValidationError, skip: set[str]) -> list[str]:
    """Return a service's field errors as sentences, leaving out fields already reported."""
    problems = []
    for key, messages in error.message_dict.items():
        if key in skip:
            continue
        prefix = ""
        if key.startswith("members."):
            prefix = _member_label(int(key.split(".")[1])) + ": "
        problems.extend(prefix + message for message in messages)
    return problems


def parse_entries(
    text: str, *, championship: Championship, default_category: Category | None = None
) -> ImportPreview:
    """Return every row of the file with its problems; raise ``CsvFileError`` if unreadable.

    Each row is checked with the rules of the registration form (without the
    deadline), against the entries already registered, and, where the preset
    allows one entry per person in a category, against the file's earlier rows.
    The people registered in a category are read once, not once per row.
    """
    preview = ImportPreview()
    preview.delimiter, table = csvfile.read_table(text, max_rows=MAX_ROWS)
    (_header_line, header), records = table[0], table[1:]
    columns, preview.ignored_columns = map_header(header)
    # The organiser's questions, by their text as the column's name (as the export has it).
    by_text = {
        " ".join(question.text.split()).casefold(): question
        for question in championship.questions.order_by("order", "id")
    }
    asked: dict[int, Question] = {}
    # The questions each category asks, read once per category, not once per row.
    asked_in: dict[int, list[Question]] = {}
    for position, raw in enumerate(header):
        question = by_text.get(" ".join(raw.split()).casefold())
        if question is not None and position not in columns:
            asked[position] = question
            preview.ignored_columns = [
                name for name in preview.ignored_columns if name != raw.strip()
            ]
    preview.columns = [header[position].strip() for position in columns]
    present = set(columns.values())
    member_numbers = sorted({c.member for c in present if c.member is not None})
    has_member_names = any(c.field == "name" and c.member is not None for c in present)
    if Column("name") not in present and not has_member_names:
        preview.problems.append(
            _("The file needs a column with the names (name, navn, namn or member1_name).")
        )
    if Column("category") not in present and default_category is None:
        preview.problems.append(_("Choose the category: the file has no category column."))
    if preview.problems:
        return preview

    categories = _category_lookup(championship)
    rules = championship.rules
    # The people registered in each category, where each person may enter once.
    registered: dict[int, identity.People] = {}
    # The people of the earlier rows, per category, with their rows' lines.
    seen: dict[int, identity.People[int]] = {}
    for line_number, cells in records:
        values = _cells(columns, cells)
        reported: set[str] = set()
        entry = csv_forms.EntryRowForm(
            {column.field: value for column, value in values.items() if column.member is None},
            categories=categories,
            default_category=default_category,
        )
        row = ImportRow(line=line_number, **entry.row_values())
        row.problems.extend(_form_problems(entry, reported))
        # The members; a file without member names names an individual in the name column.
        for number in member_numbers or [1]:
            cells_of = {c.field: value for c, value in values.items() if c.member == number}
            if number == 1 and not has_member_names and row.name:
                cells_of["name"] = row.name
            if not any(value for name, value in cells_of.items() if name != "publish_consent"):
                continue
            member = csv_forms.MemberRowForm(cells_of)
            row.problems.extend(
                _form_problems(member, reported, key=f"members.{number - 1}.", member=number - 1)
            )
            row.members.append(member.member_data())
        if not row.members:
            row.problems.append(_("The row names no member."))
        row.answers = _answers(asked, cells, row)
        # The rules of the registration form.
        if row.category is not None and row.members and not row.withdrawn:
            people = None
            if rules.one_entry_per_person_per_category:
                if row.category.pk not in registered:
                    registered[row.category.pk] = validation.registered_people(row.category)
                people = registered[row.category.pk]
            errors = validation.entry_errors(
                row.category, row.members, row.adult_name, registered=people
            )
            if errors:
                row.problems.extend(_service_problems(ValidationError(errors), reported))
            row.problems.extend(_represents_problems(row, reported))
            if row.category.pk not in asked_in:
                asked_in[row.category.pk] = questions_for(row.category)
            row.problems.extend(_answer_problems(row, asked_in[row.category.pk]))
            if rules.one_entry_per_person_per_category:
                row.problems.extend(
                    _earlier_rows_problems(row, seen.setdefault(row.category.pk, identity.People()))
                )
            row.official = eligibility.officiality(
                row.category.kind, [m.as_rules_member() for m in row.members], rules
            ).official
        if row.withdrawn:
            # Not imported, so nothing in it can stop the import.
            row.problems = []
        preview.rows.append(row)
    _expect_statuses(preview)
    return preview


def _represents_problems(row: ImportRow, reported: set[str]) -> list[str]:
    """Check what the row's entry represents as the registration does; return the refusals.

    The row then holds what it would represent: the cell checked, or, left empty,
    the rule's default. A cell the row's form refused is not reported again.
    """
    try:
        row.represents = represents.chosen(row.category, row.members, row.represents)
    except ValidationError as error:
        row.represents = ""
        return [] if "represents" in reported else _service_problems(error, set())
    return []


def _answers(asked: dict[int, Question], cells: list[str], row: ImportRow) -> dict:
    """Return the row's answers to the questions whose columns the file has."""
    answers = {}
    for position, question in asked.items():
        text = cells[position].strip() if position < len(cells) else ""
        if not text:
            continue
        if question.kind == Question.Kind.CHOICES:
            answers[question.ref] = [part.strip() for part in text.split(";") if part.strip()]
        elif question.kind == Question.Kind.YES_NO:
            word = text.casefold()
            if word in YES:
                answers[question.ref] = True
            elif word in NO:
                answers[question.ref] = False
            else:
                row.problems.append(
                    _("%(question)s: write yes or no, not “%(value)s”.")
                    % {"question": question.text, "value": text}
                )
        else:
            answers[question.ref] = text
    return answers


def _answer_problems(row: ImportRow, questions: list[Question]) -> list[str]:
    """Return what the category's ``questions`` refuse of the row's answers."""
    asked = {question.ref: question for question in questions}
    answers = {ref: value for ref, value in row.answers.items() if ref in asked}
    row.answers = answers
    try:
        # The organiser's file may leave a required question unanswered.
        questions_clean(asked.values(), answers, required=False)
    except ValidationError as error:
        return [
            f"{asked[ref].text}: {message}" if ref in asked else message
            for ref, messages in error.message_dict.items()
            for message in messages
        ]
    return []


def _earlier_rows_problems(row: ImportRow, earlier: identity.People[int]) -> list[str]:
    """Return the row's members who are already in an earlier row of the same category.

    People are compared as the registration compares them (by e-mail, or by name
    and birth date); ``earlier`` holds the earlier rows' people with their lines,
    and the row's members join it for the rows after it.
    """
    problems = []
    people = [member.as_identity() for member in row.members]
    for index, (member, person) in enumerate(zip(row.members, people, strict=True)):
        match = earlier.find(person)
        if match is None:
            continue
        how, line = match
        if how == identity.SAME_EMAIL:
            message = _(
                "%(email)s is already in row %(line)s of the file: one entry per person in a "
                "category."
            ) % {"email": member.email.strip(), "line": line}
        else:
            message = _(
                "%(name)s, born %(birth_date)s, is already in row %(line)s of the file: one "
                "entry per person in a category."
            ) % {
                "name": member.name.strip(),
                "birth_date": date_format(member.birth_date),
                "line": line,
            }
        problems.append(f"{_member_label(index)}: {message}")
    for person in people:
        earlier.add(person, row.line)
    return problems


def _expect_statuses(preview: ImportPreview) -> None:
    """Say which rows would be confirmed and which go on the waiting list, by the capacity."""
    free: dict[int, int | None] = {}
    for row in preview.to_import:
        category = row.category
        if category.pk not in free:
            if category.capacity is None:
                free[category.pk] = None
            else:
                confirmed = category.entries.filter(status__in=Entry.HOLDING_PLACE).count()
                free[category.pk] = category.capacity - confirmed
        places = free[category.pk]
        if places is None or places > 0:
            row.expected_status = Entry.Status.CONFIRMED
            if places is not None:
                free[category.pk] = places - 1
        else:
            row.expected_status = Entry.Status.WAITLISTED


# The stored import --------------------------------------------------------------------------

# How many uploads an organiser keeps per championship, and for how long.
KEPT_IMPORTS = 3
KEPT_FOR = timedelta(days=1)
STORED_TOKEN = re.compile(r"^[-a-zA-Z0-9_]{1,32}$")


def import_store(
    *, championship: Championship, user, text: str, category_key: str, filename: str
) -> StoredImport:
    """Keep an uploaded file's text until it is confirmed or cancelled; return it.

    An organiser keeps the last ``KEPT_IMPORTS`` uploads of a championship, and
    none longer than ``KEPT_FOR``; an import still being imported is kept.
    """
    unfinished = Q(state__in=[StoredImport.State.QUEUED, StoredImport.State.RUNNING])
    with transaction.atomic():
        StoredImport.objects.filter(created_at__lt=timezone.now() - KEPT_FOR).exclude(
            unfinished
        ).delete()
        older = (
            StoredImport.objects.filter(championship=championship, user=user)
            .exclude(unfinished)
            .order_by("-created_at", "-pk")[KEPT_IMPORTS - 1 :]
        )
        StoredImport.objects.filter(pk__in=list(older.values_list("pk", flat=True))).delete()
        return StoredImport.objects.create(
            championship=championship,
            user=user,
            text=text,
            category_key=category_key,
            filename=filename[:255],
        )


def stored_import(*, championship: Championship, user, token: str) -> StoredImport | None:
    """Return the user's stored import of the championship with this token, or ``None``."""
    if not STORED_TOKEN.match(token):
        return None
    return StoredImport.objects.filter(championship=championship, user=user, token=token).first()


def import_forget(*, stored: StoredImport) -> None:
    """Drop a stored import (cancelled, or a file that cannot be read)."""
    StoredImport.objects.filter(pk=stored.pk).delete()
