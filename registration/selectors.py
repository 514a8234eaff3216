"""Read entries for the organiser's tools: lists with members, officiality, ages and counts.

An *entry row* is an entry with what an organiser looks at besides its own
fields: its members in order, whether it is official, whether a member is under
the preset's adult age, and its place on the waiting list. A category's rows
are read in a constant number of queries (the entries, then their members),
whatever the number of entries; filtering, searching and counting happen on the
rows, so that every database compares letters such as "Æ" and "æ" alike.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q

from championship.models import Category, Championship
from championship.rules import eligibility
from registration import payment
from registration.models import Entry, EntryMember, Person
from registration.validation import member_data_of

# Filters of the entries page, with the values each accepts.
STATUSES = tuple(Entry.Status.values)
PAYMENTS = tuple(Entry.Payment.values)
YES_NO = ("yes", "no")


@dataclass
class EntryRow:
    """An entry as the organiser sees it."""

    entry: Entry
    members: list[Person]
    official: bool
    under_age: bool
    waitlist_position: int | None = None
    haystack: str = field(default="", repr=False)
    # (question, answer text) of the organiser's own questions answered.
    answers: list = field(default_factory=list)

    @property
    def checked_in(self) -> bool:
        return self.entry.checked_in_at is not None

    @property
    def payment_key(self) -> str:
        """Return the payment status as the filters count it: "unpaid" only when confirmed."""
        status = self.entry.payment_status
        if status == Entry.Payment.UNPAID and not payment.is_unpaid(self.entry):
            return ""
        return status

    def matches(self, query: str) -> bool:
        """Return whether every word of ``query`` occurs in the row's searchable text."""
        return all(word in self.haystack for word in query.casefold().split())


@dataclass(frozen=True)
class EntryFilters:
    """What the organiser asked to see; empty values do not filter."""

    status: str = ""
    official: str = ""
    payment: str = ""
    checked_in: str = ""
    under_age: str = ""
    query: str = ""

    def accepts(self, row: EntryRow) -> bool:
        entry = row.entry
        if self.status and entry.status != self.status:
            return False
        if self.payment and row.payment_key != self.payment:
            return False
        if self.official and row.official != (self.official == "yes"):
            return False
        if self.checked_in and row.checked_in != (self.checked_in == "yes"):
            return False
        if self.under_age and row.under_age != (self.under_age == "yes"):
            return False
        return not self.query or row.matches(self.query)

    @property
    def active(self) -> bool:
        return any(
            (self.status, self.official, self.payment, self.checked_in, self.under_age, self.query)
        )


@dataclass
class EntryList:
    """A category's entry rows: those the filters let through, and counts over all of them."""

    rows: list[EntryRow]
    total: int
    counts: dict[str, Counter]


def entries_with_members(categories):
    """Return the entries of ``categories`` with their members' memberships prefetched."""
    memberships = EntryMember.objects.select_related("person").order_by("position")
    return (
        Entry.objects.filter(category__in=categories)
        .select_related("category")
        .prefetch_related(Prefetch("memberships", queryset=memberships))
        .order_by("category__order", "category__key", "registered_at", "id")
    )


def _under_age(members: list[Person], championship: Championship) -> bool:
    limit = championship.rules.adult_required_below
    if limit is None:
        return False
    day = championship.local_date
    return any(
        person.birth_date is not None and eligibility.age_on(person.birth_date, day) < limit
        for person in members
    )


def entry_rows(entries, championship: Championship) -> list[EntryRow]:
    """Return ``entries`` (from ``entries_with_members``) as rows, in the order given."""
    rules = championship.rules
    rows = []
    waiting: Counter = Counter()
    for entry in entries:
        members = [membership.person for membership in entry.memberships.all()]
        official = eligibility.officiality(
            entry.category.kind, [member_data_of(p).as_rules_member() for p in members], rules
        ).official
        position = None
        if entry.status == Entry.Status.WAITLISTED:
            waiting[entry.category_id] += 1
            position = waiting[entry.category_id]
        texts = [entry.name, entry.ref, entry.payment_reference, entry.contact_email]
        texts += [text for person in members for text in (person.name, person.email)]
        rows.append(
            EntryRow(
                entry=entry,
                members=members,
                official=official,
                under_age=_under_age(members, championship),
                waitlist_position=position,
                haystack="\n".join(texts).casefold(),
            )
        )
    return rows


def category_entry_list(category: Category, filters: EntryFilters) -> EntryList:
    """Return the category's entries that pass ``filters``, with counts over all its entries.

    The counts are keyed by filter (``status``, ``official``, ``payment``,
    ``checked_in``, ``under_age``) and value. "Unpaid" counts confirmed entries only
    (``registration.payment.is_unpaid``): a waitlisted or withdrawn entry owes nothing.
    """
    championship = category.championship
    # Waiting-list positions follow the arrival order, the order of the list.
    rows = entry_rows(entries_with_members([category]), championship)
    counts = {
        "status": Counter(row.entry.status for row in rows),
        "payment": Counter(row.payment_key for row in rows),
        "official": Counter("yes" if row.official else "no" for row in rows),
        "checked_in": Counter("yes" if row.checked_in else "no" for row in rows),
        "under_age": Counter("yes" if row.under_age else "no" for row in rows),
    }
    return EntryList(
        rows=[row for row in rows if filters.accepts(row)], total=len(rows), counts=counts
    )


def checkin_rows(championship: Championship, query: str = "") -> list[EntryRow]:
    """Return the entries an organiser can find at the check-in desk, by name, members or e-mail.

    Confirmed entries are listed first; the others are shown so that the desk
    can tell an entrant why there is nothing to check in.
    """
    categories = list(championship.categories.all())
    rows = entry_rows(entries_with_members(categories), championship)
    if query.strip():
        rows = [row for row in rows if row.matches(query)]
    confirmed_first = {Entry.Status.CONFIRMED: 0, Entry.Status.WAITLISTED: 1}
    return sorted(
        rows,
        key=lambda row: (
            confirmed_first.get(row.entry.status, 2),
            row.entry.name.casefold(),
            row.entry.pk,
        ),
    )


def checkin_counts(championship: Championship):
    """Return the categories with how many confirmed entries there are and how many checked in."""
    confirmed = Q(entries__status=Entry.Status.CONFIRMED)
    checked_in = confirmed & Q(entries__checked_in_at__isnull=False)
    return championship.categories.annotate(
        confirmed_count=Count("entries", filter=confirmed),
        checked_in_count=Count("entries", filter=checked_in),
    ).order_by("order", "key")


def entry_of(championship: Championship, pk: int) -> Entry | None:
    """Return the entry ``pk`` if it belongs to ``championship``."""
    return (
        Entry.objects.select_related("category__championship")
        .filter(pk=pk, category__championship=championship)
        .first()
    )


def entry_row(championship: Championship, pk: int) -> EntryRow | None:
    """Return the row of entry ``pk`` if it belongs to ``championship`` (no waiting-list place)."""
    entries = entries_with_members(championship.categories.all()).filter(pk=pk)
    rows = entry_rows(entries, championship)
    if not rows:
        return None
    rows[0].waitlist_position = None
    return rows[0]
