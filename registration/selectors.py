"""Read entries for the organiser's tools: lists with members, officiality, ages and counts.

An *entry row* is an entry with what an organiser looks at besides its own
fields: its members in order, whether it is official, whether a member is under
the preset's adult age, and its place on the waiting list.

The organiser's lists (a category's entries, the check-in desk) come a page at
a time (``PER_PAGE`` rows): which entries pass the filters, in which order, is
worked out over the whole category from plain values, and only the page's
entries are read as rows, in a fixed number of queries whatever the number of
entries. What the database can tell (status, payment, check-in, the counts of
each) it is asked; what the rulebook decides (officiality, ages) and the search
are worked out in Python from each member's few facts, so that the lists agree
with the rows and every database compares letters such as "Æ" and "æ" alike.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date

from django.core.paginator import Page, Paginator
from django.db.models import (
    Case,
    Count,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    TextField,
    When,
)
from django.db.models.functions import Cast
from django.utils.translation import get_language

from championship.models import Category, Championship
from championship.rules import eligibility
from core import collation
from registration import payment
from registration.models import Entry, EntryMember, Person
from registration.validation import member_data_of

# Filters of the entries page, with the values each accepts.
STATUSES = tuple(Entry.Status.values)
PAYMENTS = tuple(Entry.Payment.values)
YES_NO = ("yes", "no")
# Rows on a page of the entries list and of the check-in desk: a page of entries with
# their actions stays well under a megabyte, and its HTMX refresh after a row action small.
PER_PAGE = 50


def haystack(texts: Iterable[str]) -> str:
    """Return the searchable text of an entry's ``texts``: the entry's and its members'."""
    return "\n".join(texts).casefold()


def matches(searched: str, query: str) -> bool:
    """Return whether every word of ``query`` occurs in ``searched`` (from ``haystack``)."""
    return all(word in searched for word in query.casefold().split())


@dataclass
class EntryRow:
    """An entry as the organiser sees it."""

    entry: Entry
    members: list[Person]
    official: bool
    under_age: bool
    waitlist_position: int | None = None
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


@dataclass(frozen=True)
class EntryFilters:
    """What the organiser asked to see; empty values do not filter."""

    status: str = ""
    official: str = ""
    payment: str = ""
    checked_in: str = ""
    under_age: str = ""
    query: str = ""

    @property
    def active(self) -> bool:
        return any(
            (self.status, self.official, self.payment, self.checked_in, self.under_age, self.query)
        )

    def in_database(self, entries):
        """Return ``entries`` narrowed by what the database can tell: status, payment, check-in."""
        if self.status:
            entries = entries.filter(status=self.status)
        if self.payment == Entry.Payment.UNPAID:
            entries = entries.filter(status=Entry.Status.CONFIRMED, payment_status=self.payment)
        elif self.payment:
            entries = entries.filter(payment_status=self.payment)
        if self.checked_in:
            entries = entries.filter(checked_in_at__isnull=self.checked_in != "yes")
        return entries

    def accepts(self, *, official: bool, under_age: bool, searched: str) -> bool:
        """Return whether an entry passes what the rulebook and the search decide.

        ``searched`` is the entry's searchable text (``haystack``); the rest of the
        filters are the database's (``in_database``).
        """
        if self.official and official != (self.official == "yes"):
            return False
        if self.under_age and under_age != (self.under_age == "yes"):
            return False
        return not self.query or matches(searched, self.query)


@dataclass
class EntryList:
    """One page of a category's entries that pass the filters, and counts over all of them."""

    page: Page  # of EntryRow
    total: int
    counts: dict[str, Counter]

    @property
    def rows(self) -> list[EntryRow]:
        return self.page.object_list

    @property
    def count(self) -> int:
        """Return how many entries pass the filters, on every page."""
        return self.page.paginator.count


def entries_with_members(categories):
    """Return the entries of ``categories`` with their members' memberships prefetched."""
    memberships = EntryMember.objects.select_related("person").order_by("position")
    return (
        Entry.objects.filter(category__in=categories)
        .select_related("category")
        .prefetch_related(Prefetch("memberships", queryset=memberships))
        .order_by("category__order", "category__key", "registered_at", "id")
    )


def _under_age_test(championship: Championship) -> Callable[[Iterable[date | None]], bool]:
    """Return a test: is one of some birth dates under the preset's adult age on the day?"""
    limit = championship.rules.adult_required_below
    if limit is None:
        return lambda birth_dates: False
    day = championship.local_date
    return lambda birth_dates: any(
        born is not None and eligibility.age_on(born, day) < limit for born in birth_dates
    )


def entry_rows(entries, championship: Championship) -> list[EntryRow]:
    """Return ``entries`` (from ``entries_with_members``) as rows, in the order given.

    The waiting-list positions count the waitlisted entries given, in that order.
    """
    rules = championship.rules
    under_age = _under_age_test(championship)
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
        rows.append(
            EntryRow(
                entry=entry,
                members=members,
                official=official,
                under_age=under_age(person.birth_date for person in members),
                waitlist_position=position,
            )
        )
    return rows


# Each member's facts, read as plain values ----------------------------------------------------

# What the rulebook reads of a member (``member_data_of(person).as_rules_member()``), the
# citizenship as the JSON text stored (``citizenship_text``), then what the search reads.
_RULES_FIELDS = (
    "person__birth_date",
    "citizenship_text",
    "person__region",
    "person__years_in_region",
)
_TEXT_FIELDS = ("person__name", "person__email")
# What the search reads of an entry itself, before its members' texts.
_ENTRY_TEXT_FIELDS = ("name", "ref", "payment_reference", "contact_email")


def rules_member(
    birth_date: date | None, citizenship, region: str, years_in_region: int | None
) -> eligibility.Member:
    """Return what the rulebook needs of a member from a person's stored values.

    The same as ``member_data_of(person).as_rules_member()`` without a ``Person``:
    a citizenship that is not a list is none.
    """
    codes = citizenship if isinstance(citizenship, list) else ()
    return eligibility.Member(
        birth_date=birth_date,
        region=region,
        years_in_region=years_in_region,
        citizenship=tuple(code.upper() for code in codes),
    )


def _members_by_entry(memberships, fields: tuple[str, ...]) -> dict[int, list[tuple]]:
    """Return ``fields`` of each membership, as tuples in a list per entry pk."""
    found = defaultdict(list)
    for entry_pk, *values in memberships.values_list("entry_id", *fields).order_by():
        found[entry_pk].append(tuple(values))
    return found


def _member_texts(memberships) -> dict[int, list[str]]:
    """Return the members' names and e-mail addresses per entry pk, for the search."""
    return {
        entry_pk: [text for values in members for text in values]
        for entry_pk, members in _members_by_entry(memberships, _TEXT_FIELDS).items()
    }


@dataclass
class _CategoryFacts:
    """What the rulebook and the search make of a category's entries, by entry pk."""

    official: set[int]
    under_age: set[int]
    member_texts: dict[int, list[str]]


def _category_facts(category: Category, *, texts: bool) -> _CategoryFacts:
    """Work out which of the category's entries are official and under age, in one query.

    With ``texts``, also each entry's members' names and e-mail addresses, for the search.
    An entry without members is neither official nor under age.
    """
    championship = category.championship
    rules = championship.rules
    under_age = _under_age_test(championship)
    fields = _RULES_FIELDS + (_TEXT_FIELDS if texts else ())
    memberships = EntryMember.objects.filter(entry__category=category).annotate(
        citizenship_text=Cast("person__citizenship", TextField())
    )
    members = _members_by_entry(memberships, fields)
    facts = _CategoryFacts(official=set(), under_age=set(), member_texts={})
    # Most entries' members share their facts (one region, one citizenship): the rulebook
    # is asked once per members' facts, and a citizenship decoded only then. Officiality
    # reads no birth date.
    official_by_facts = {}
    for entry_pk, values in members.items():
        key = tuple(value[1:4] for value in values)
        official = official_by_facts.get(key)
        if official is None:
            each = [
                rules_member(born, json.loads(citizenship or "null"), region, years)
                for born, citizenship, region, years, *_ in values
            ]
            official = eligibility.officiality(category.kind, each, rules).official
            official_by_facts[key] = official
        if official:
            facts.official.add(entry_pk)
        if under_age(value[0] for value in values):
            facts.under_age.add(entry_pk)
        if texts:
            facts.member_texts[entry_pk] = [text for value in values for text in value[4:]]
    return facts


# The organiser's entry list -------------------------------------------------------------------


def category_counts(category: Category) -> tuple[int, dict[str, Counter]]:
    """Return the number of the category's entries, and their counts by status, payment, check-in.

    One aggregate query. "Unpaid" counts confirmed entries only
    (``registration.payment.is_unpaid``): a waitlisted or withdrawn entry owes nothing.
    """
    aggregates = {
        "total": Count("pk"),
        "checked_in": Count("pk", filter=Q(checked_in_at__isnull=False)),
    }
    for status in STATUSES:
        aggregates[f"status_{status}"] = Count("pk", filter=Q(status=status))
    for value in PAYMENTS:
        paid = Q(payment_status=value)
        if value == Entry.Payment.UNPAID:
            paid &= Q(status=Entry.Status.CONFIRMED)
        aggregates[f"payment_{value}"] = Count("pk", filter=paid)
    found = Entry.objects.filter(category=category).aggregate(**aggregates)
    total = found["total"]

    def counted(prefix, values):
        # Like a Counter of the rows: the values no entry has are left out.
        return +Counter({value: found[f"{prefix}_{value}"] for value in values})

    return total, {
        "status": counted("status", STATUSES),
        "payment": counted("payment", PAYMENTS),
        "checked_in": +Counter({"yes": found["checked_in"], "no": total - found["checked_in"]}),
    }


def _waitlist_position():
    """Return an entry's place on its category's waiting list (``None`` off it), in SQL.

    The waitlisted entries of the category registered before it, and itself: the
    list's order is the arrival order (``registered_at``, then ``id``).
    """
    ahead = (
        Entry.objects.filter(category=OuterRef("category"), status=Entry.Status.WAITLISTED)
        .filter(
            Q(registered_at__lt=OuterRef("registered_at"))
            | Q(registered_at=OuterRef("registered_at"), pk__lte=OuterRef("pk"))
        )
        .order_by()
        .values("category")
        .annotate(ahead=Count("pk"))
        .values("ahead")
    )
    return Case(
        When(status=Entry.Status.WAITLISTED, then=Subquery(ahead)),
        default=None,
        output_field=IntegerField(),
    )


def _page_rows(entries, championship: Championship, pks: list[int]) -> list[EntryRow]:
    """Return the rows of the entries ``pks`` (of ``entries_with_members``), in that order."""
    found = entries.filter(pk__in=pks).annotate(waitlist_place=_waitlist_position())
    rows = {row.entry.pk: row for row in entry_rows(found, championship)}
    for row in rows.values():
        row.waitlist_position = row.entry.waitlist_place
    return [rows[pk] for pk in pks if pk in rows]


def _paged(pks: list[int], number, per_page: int) -> Page:
    """Return page ``number`` (the last one if past it, the first if not a number) of ``pks``."""
    return Paginator(pks, per_page).get_page(number)


def category_entry_list(
    category: Category, filters: EntryFilters, page=1, *, per_page: int = PER_PAGE
) -> EntryList:
    """Return one page of the category's entries that pass ``filters``, with counts over all.

    The counts are keyed by filter (``status``, ``official``, ``payment``,
    ``checked_in``, ``under_age``) and value, over all of the category's entries
    (``category_counts``). The entries come in the order they registered. Whatever
    the number of entries, this takes six queries: the counts, the members'
    facts, the entries that pass the filters, then the page's entries (with their
    places on the waiting list) and their members.
    """
    championship = category.championship
    total, counts = category_counts(category)
    query = filters.query.strip()
    facts = _category_facts(category, texts=bool(query))
    counts["official"] = +Counter({"yes": len(facts.official), "no": total - len(facts.official)})
    young = len(facts.under_age)
    counts["under_age"] = +Counter({"yes": young, "no": total - young})

    passing = filters.in_database(Entry.objects.filter(category=category))
    pks = []
    for pk, *texts in passing.order_by("registered_at", "pk").values_list(
        "pk", *(_ENTRY_TEXT_FIELDS if query else ())
    ):
        searched = haystack([*texts, *facts.member_texts.get(pk, ())]) if query else ""
        if filters.accepts(
            official=pk in facts.official, under_age=pk in facts.under_age, searched=searched
        ):
            pks.append(pk)
    shown = _paged(pks, page, per_page)
    shown.object_list = _page_rows(
        entries_with_members([category]), championship, list(shown.object_list)
    )
    return EntryList(page=shown, total=total, counts=counts)


# The check-in desk ----------------------------------------------------------------------------


def checkin_page(
    championship: Championship,
    query: str = "",
    page=1,
    *,
    per_page: int = PER_PAGE,
    leaving_out: int | None = None,
) -> Page:
    """Return a page of the entries an organiser finds at the check-in desk (of ``EntryRow``).

    Found by name, members, e-mail or payment reference; every entry when
    ``query`` is empty. Confirmed entries come first, then by name in the active
    language's alphabetical order (``core.collation``: Æ, Ø, Å after Z in
    Norwegian); the others are shown so that the desk can tell an entrant why
    there is nothing to check in.
    ``leaving_out`` is an entry not to list (the one just scanned, shown above).
    """
    query = query.strip()
    member_texts = {}
    if query:
        member_texts = _member_texts(
            EntryMember.objects.filter(entry__category__championship=championship)
        )
    entries = Entry.objects.filter(category__championship=championship)
    texts = _ENTRY_TEXT_FIELDS if query else _ENTRY_TEXT_FIELDS[:1]  # the name
    found = []
    for pk, status, name, *more in entries.values_list("pk", "status", *texts).order_by():
        if pk == leaving_out:
            continue
        if query and not matches(haystack([name, *more, *member_texts.get(pk, ())]), query):
            continue
        found.append((pk, status, name))
    confirmed_first = {Entry.Status.CONFIRMED: 0, Entry.Status.WAITLISTED: 1}
    language = get_language()
    found.sort(
        key=lambda entry: (
            confirmed_first.get(entry[1], 2),
            collation.sort_key(entry[2], language),
            entry[0],
        )
    )
    shown = _paged([values[0] for values in found], page, per_page)
    rows = _page_rows(
        entries_with_members(championship.categories.all()), championship, list(shown.object_list)
    )
    for row in rows:
        row.waitlist_position = None
    shown.object_list = rows
    return shown


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
