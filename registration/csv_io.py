"""The import of the entries files spreadsheets write, and the stored import between preview
and confirmation.

import
    A file whose header names the export's columns, or common aliases of them
    (``registration.csv_columns``), read by ``championship.csvfile`` (UTF-8 with
    or without the byte-order mark, or Windows-1252; commas, semicolons or tabs).
    Every row is checked with the registration's own rules before anything is
    saved; the rows are saved by the registration services.
stored import
    The uploaded file's text, kept on the server between the preview and the
    confirmation (``StoredImport``), for the organiser who uploaded it. A
    confirmation claims it (marks it done, if it was not) in the import's own
    transaction: two confirmations of one upload, one after the other or at the
    same instant, import it once.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from championship import csvfile
from championship.models import Category, Championship
from championship.rules import eligibility, identity
from registration import services, validation
from registration.csv_columns import (
    FORMULA_STARTS,
    MAX_LENGTHS,
    MAX_ROWS,
    MEMBER_FIELDS,
    NO,
    YES,
    Column,
    country_code,
    map_header,
    parse_date,
    payment_status_of,
)
from registration.models import Entry, StoredImport
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
    publish_consent: bool = False
    payment_status: str = ""
    payment_reference: str | None = None
    withdrawn: bool = False
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


FIELD_LABELS = {
    "name": lambda: _("name"),
    "email": lambda: _("e-mail"),
    "birth_date": lambda: _("birth date"),
    "city": lambda: _("home town"),
    "country": lambda: _("country"),
    "citizenship": lambda: _("citizenship"),
    "region": lambda: _("region"),
    "years_in_region": lambda: _("years in the region"),
    "adult_name": lambda: _("accompanying adult"),
    "payment_reference": lambda: _("payment reference"),
}


class _RowReader:
    """Turn the cells of one row into an ``ImportRow``."""

    def __init__(self, columns: dict[int, Column], cells: list[str], row: ImportRow):
        self.row = row
        self.values: dict[Column, str] = {}
        for position, column in columns.items():
            value = cells[position].strip() if position < len(cells) else ""
            # A leading apostrophe is how the export keeps a spreadsheet from running a formula.
            if value.startswith("'") and value[1:].startswith(FORMULA_STARTS):
                value = value[1:]
            self.values[column] = value
        self.bad_fields: set[str] = set()

    def get(self, name: str, member: int | None = None) -> str:
        return self.values.get(Column(name, member), "")

    def has(self, name: str, member: int | None = None) -> bool:
        return Column(name, member) in self.values

    def problem(self, message: str, key: str | None = None) -> None:
        self.row.problems.append(message)
        if key:
            self.bad_fields.add(key)

    def text(self, name: str, limit_key: str, member: int | None = None, where: str = "") -> str:
        value = self.get(name, member)
        limit = MAX_LENGTHS.get(limit_key)
        if limit and len(value) > limit:
            self.problem(
                _("%(where)s%(field)s is longer than %(limit)s characters.")
                % {"where": where, "field": FIELD_LABELS.get(name, lambda: name)(), "limit": limit}
            )
            return value[:limit]
        return value

    def consent(self, name: str, member: int | None = None, where: str = "") -> bool | None:
        """Return a yes/no cell as a bool; ``None`` when the column is missing or the cell empty."""
        value = self.get(name, member).casefold()
        if not value:
            return None
        if value in YES:
            return True
        if value not in NO:
            self.problem(
                where
                + _("Consent to publication: write yes or no, not “%(value)s”.")
                % {"value": self.get(name, member)}
            )
        return False

    def member(self, number: int) -> MemberData | None:
        index = number - 1
        if not any(self.get(name, number) for name in MEMBER_FIELDS if name != "publish_consent"):
            return None
        where = _member_label(index) + ": "
        key = f"members.{index}."
        email = self.text("email", "member.email", number, where)
        if email:
            try:
                validate_email(email)
            except ValidationError:
                self.problem(
                    where + _("“%(value)s” is not an e-mail address.") % {"value": email},
                    key + "email",
                )
        birth_date = None
        if self.get("birth_date", number):
            try:
                birth_date = parse_date(self.get("birth_date", number))
            except ValueError:
                self.problem(
                    where
                    + _("“%(value)s” is not a date: write 2010-05-31, 31.05.2010 or 31/05/2010.")
                    % {"value": self.get("birth_date", number)},
                    key + "birth_date",
                )
        country = ""
        if self.get("country", number):
            country = country_code(self.get("country", number))
            if not country:
                self.problem(
                    where
                    + _("“%(value)s” is not a country: write its two-letter code, e.g. NO.")
                    % {"value": self.get("country", number)},
                    key + "country",
                )
        citizenship = []
        for part in re.split(r"[\s,;/]+", self.get("citizenship", number)):
            if not part:
                continue
            code = country_code(part)
            if code:
                citizenship.append(code)
            else:
                self.problem(
                    where
                    + _("“%(value)s” is not a country: write its two-letter code, e.g. NO.")
                    % {"value": part},
                    key + "citizenship",
                )
        years = None
        if self.get("years_in_region", number):
            try:
                years = int(self.get("years_in_region", number))
                if not 0 <= years <= 120:
                    raise ValueError
            except ValueError:
                self.problem(
                    where
                    + _("“%(value)s” is not a number of years.")
                    % {"value": self.get("years_in_region", number)},
                    key + "years_in_region",
                )
                years = None
        return MemberData(
            publish_consent=self.consent("publish_consent", number, where),
            name=self.text("name", "member.name", number, where),
            email=email,
            birth_date=birth_date,
            city=self.text("city", "member.city", number, where),
            country=country,
            citizenship=tuple(citizenship),
            region=self.text("region", "member.region", number, where),
            years_in_region=years,
        )


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
    """
    preview = ImportPreview()
    preview.delimiter, table = csvfile.read_table(text, max_rows=MAX_ROWS)
    (_header_line, header), records = table[0], table[1:]
    columns, preview.ignored_columns = map_header(header)
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
    # The people of the earlier rows, per category, with their rows' lines.
    seen: dict[int, identity.People[int]] = {}
    for line_number, cells in records:
        row = ImportRow(line=line_number)
        reader = _RowReader(columns, cells, row)
        # The category.
        category_text = reader.get("category")
        if category_text:
            row.category = categories.get(category_text.casefold())
            if row.category is None:
                reader.problem(
                    _("There is no category “%(value)s”: use one of %(keys)s.")
                    % {
                        "value": category_text,
                        "keys": ", ".join(sorted({c.key for c in categories.values()})),
                    }
                )
        elif default_category is not None:
            row.category = default_category
        else:
            reader.problem(_("The row has no category."))
        # The entry.
        row.name = reader.text("name", "name")
        row.adult_name = reader.text("adult_name", "adult_name")
        row.publish_consent = bool(reader.consent("publish_consent"))
        if reader.get("payment_status"):
            payment = payment_status_of(reader.get("payment_status"))
            if payment is None:
                reader.problem(
                    _("Unknown payment status “%(value)s”: write %(choices)s.")
                    % {
                        "value": reader.get("payment_status"),
                        "choices": ", ".join(Entry.Payment.values),
                    }
                )
            else:
                row.payment_status = payment
        if reader.has("payment_reference"):
            row.payment_reference = reader.text("payment_reference", "payment_reference")
        status = reader.get("status").casefold()
        row.withdrawn = status in {
            Entry.Status.WITHDRAWN,
            str(Entry.Status.WITHDRAWN.label).casefold(),
        }
        # The members; a file without member names names an individual in the name column.
        if not has_member_names and row.name:
            reader.values[Column("name", 1)] = row.name
        for number in member_numbers or [1]:
            member = reader.member(number)
            if member is not None:
                row.members.append(member)
        if not row.members:
            reader.problem(_("The row names no member."))
        # The rules of the registration form.
        if row.category is not None and row.members and not row.withdrawn:
            try:
                validation.validate_registration(
                    category=row.category,
                    members=row.members,
                    adult_name=row.adult_name,
                    enforce_deadline=False,
                )
            except ValidationError as error:
                row.problems.extend(_service_problems(error, reader.bad_fields))
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
                confirmed = category.entries.filter(status=Entry.Status.CONFIRMED).count()
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


class ImportAlreadyDone(Exception):
    """The stored import was confirmed already: nothing is imported again."""


def import_store(
    *, championship: Championship, user, text: str, category_key: str, filename: str
) -> StoredImport:
    """Keep an uploaded file's text until it is confirmed or cancelled; return it.

    An organiser keeps the last ``KEPT_IMPORTS`` uploads of a championship, and
    none longer than ``KEPT_FOR``.
    """
    with transaction.atomic():
        StoredImport.objects.filter(created_at__lt=timezone.now() - KEPT_FOR).delete()
        older = StoredImport.objects.filter(championship=championship, user=user).order_by(
            "-created_at", "-pk"
        )[KEPT_IMPORTS - 1 :]
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


def import_confirm(*, stored: StoredImport, rows, language: str) -> list[Entry]:
    """Save the rows of a stored import, once; return the new entries.

    The stored import is claimed in the same transaction as the rows: a refused
    row leaves it unclaimed, to be confirmed again; a confirmation that finds it
    claimed, even by a confirmation still running, raises ``ImportAlreadyDone``
    and saves nothing. Raise ``services.ImportRowRefused`` for a refused row.
    """
    with transaction.atomic():
        if not _claim(stored):
            raise ImportAlreadyDone
        return services.entries_import(rows=rows, language=language)


def _claim(stored: StoredImport) -> bool:
    """Mark a stored import done, if it was not; return whether this call did.

    A conditional update: its row lock makes a simultaneous confirmation wait for
    this one's transaction, then find the import done.
    """
    return bool(
        StoredImport.objects.filter(pk=stored.pk, done_at__isnull=True).update(
            done_at=timezone.now(), text=""
        )
    )
