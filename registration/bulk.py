"""Register many entries at once (imports): a batch of rows under the categories' locks.

The rules are a registration's (``registration.services.entry_register``),
checked in memory against the batch's categories read once each, and the batch
is written with a few bulk inserts: a CSV import of 2,000 rows is saved 200 rows
per transaction (``registration.csv_jobs``), so that a registration in the
category waits for one batch, never for the whole file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from championship.models import Category
from registration import questions
from registration.models import Entry, EntryMember, Person, Puzzler
from registration.payment import give_reference
from registration.represents import chosen as represents_chosen
from registration.services import checked_answers, payment_due, person_of
from registration.validation import MemberData, entry_errors, registered_people


@dataclass(frozen=True)
class ImportRefusal:
    """A row of an import that the registration rules refused: not saved, and why."""

    row: Any
    messages: list[str]


@dataclass
class ImportedBatch:
    """What ``entries_import`` did with a batch of rows: the new entries, the refused rows."""

    entries: list[Entry] = field(default_factory=list)
    refused: list[ImportRefusal] = field(default_factory=list)


@transaction.atomic
def entries_import(*, rows, language: str) -> ImportedBatch:
    """Register a batch of imported rows in one transaction, in their order.

    Each row gives ``category``, ``members``, ``name``, ``publish_consent``,
    ``adult_name``, ``represents``, ``answers``, ``payment_status`` and
    ``payment_reference``.
    The rules are a registration's (``entry_register``), except the deadline and
    the required questions; no e-mail is sent. The rows' categories are locked
    (in the order of their ids) before anything is checked, and read once each:
    the places held, the questions, and the people registered (where each person
    may enter once), which each row is then checked against in memory, with the
    batch's earlier rows. A row gets a place while there is one, else it goes on
    the waiting list, in the rows' order. A refused row is left out and returned
    with its reasons; the others are saved with a few bulk inserts.

    Registrations in the rows' categories wait for the batch: keep it small
    (``registration.csv_jobs.BATCH_ROWS``).
    """
    done = ImportedBatch()
    if not rows:
        return done
    wanted = {row.category.pk: row.category for row in rows}
    locked = {
        category.pk: category
        for category in Category.objects.select_for_update()
        .filter(pk__in=sorted(wanted))
        .order_by("pk")
    }
    held, asked, people = {}, {}, {}
    for pk, category in locked.items():
        # The championship read with the rows: every row's is the same.
        category.championship = wanted[pk].championship
        held[pk] = category.entries.filter(status__in=Entry.HOLDING_PLACE).count()
        asked[pk] = questions.questions_for(category)
        if category.championship.rules.one_entry_per_person_per_category:
            people[pk] = registered_people(category)
    arrived = timezone.now()
    planned: list[tuple[Entry, list[MemberData], list[bool]]] = []
    for row in rows:
        category = locked[row.category.pk]
        try:
            answers, country = _import_row_checked(
                category, row, asked[category.pk], people.get(category.pk)
            )
        except ValidationError as error:
            done.refused.append(ImportRefusal(row, error.messages))
            continue
        has_place = category.capacity is None or held[category.pk] < category.capacity
        held[category.pk] += has_place
        consents = [member.consents(row.publish_consent) for member in row.members]
        entry = Entry(
            category=category,
            name=(row.name.strip() or " & ".join(m.name.strip() for m in row.members))[:200],
            status=Entry.Status.CONFIRMED if has_place else Entry.Status.WAITLISTED,
            registered_at=arrived,
            confirmed_at=arrived if has_place else None,
            fee=category.fee,
            payment_status=row.payment_status or Entry.Payment.UNPAID,
            payment_reference=(row.payment_reference or "").strip(),
            publish_consent=all(consents),
            adult_name=row.adult_name.strip(),
            represents=country,
            contact_email=row.members[0].email.strip(),
            language=language,
            answers=answers,
        )
        if has_place:
            entry.payment_due_at = payment_due(entry, arrived)
        if category.pk in people:
            for member in row.members:
                people[category.pk].add(member.as_identity(), None)
        planned.append((entry, row.members, consents))
    _import_save(planned)
    done.entries = [entry for entry, _members, _consents in planned]
    return done


def _import_row_checked(category: Category, row, asked, registered) -> tuple[dict, str]:
    """Return a row's checked answers and what it represents (``represents.chosen``).

    Raise ``ValidationError`` when the rules refuse the row.
    """
    errors = entry_errors(category, row.members, row.adult_name, registered=registered)
    country = ""
    try:
        country = represents_chosen(category, row.members, getattr(row, "represents", ""))
    except ValidationError as error:
        for key, messages in error.message_dict.items():
            errors.setdefault(key, []).extend(messages)
    try:
        answers = checked_answers(category, row.answers, required=False, asked=asked)
    except ValidationError as error:
        for key, messages in error.message_dict.items():
            errors.setdefault(key, []).extend(messages)
    if row.payment_status and row.payment_status not in Entry.Payment.values:
        errors.setdefault("payment_status", []).append(_("Unknown payment status."))
    limit = Entry._meta.get_field("payment_reference").max_length
    if row.payment_reference is not None and len(row.payment_reference.strip()) > limit:
        errors.setdefault("payment_reference", []).append(
            _("At most %(limit)s characters.") % {"limit": limit}
        )
    if errors:
        raise ValidationError(errors)
    return answers, country


def _import_save(planned: list[tuple[Entry, list[MemberData], list[bool]]]) -> None:
    """Insert the entries, their members' persons and memberships, each kind at once."""
    if not planned:
        return
    Entry.objects.bulk_create([entry for entry, _members, _consents in planned])
    given = [
        entry
        for entry, _members, _consents in planned
        if give_reference(entry, entry.category.championship)
    ]
    Entry.objects.bulk_update(given, ["payment_reference"])
    members = [
        (entry, position, member, consent)
        for entry, row_members, consents in planned
        for position, (member, consent) in enumerate(zip(row_members, consents, strict=True), 1)
    ]
    # An import confirms no address: each person is a puzzler of their own.
    puzzlers = Puzzler.own(len(members))
    persons = Person.objects.bulk_create(
        person_of(
            member, championship=entry.category.championship, consent=consent, puzzler=puzzler
        )
        for (entry, _position, member, consent), puzzler in zip(members, puzzlers, strict=True)
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=entry, person=person, position=position)
        for (entry, position, _member, _consent), person in zip(members, persons, strict=True)
    )
