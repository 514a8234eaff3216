"""Whether a category takes registrations, and how many entries it has of each kind."""

from django.db.models import Count, Q
from django.utils import timezone

from championship.models import Category, Championship
from registration.models import Entry


def categories_with_counts(championship: Championship):
    """Return the categories with confirmed, waitlisted and unpaid counts.

    Unpaid are the confirmed entries not paid: an entry on the waiting list or
    withdrawn owes nothing (``registration.payment.is_unpaid``).
    """
    confirmed = Q(entries__status=Entry.Status.CONFIRMED)
    due = confirmed & Q(entries__payment_status=Entry.Payment.UNPAID)
    return championship.categories.annotate(
        confirmed_count=Count("entries", filter=confirmed),
        held_count=Count("entries", filter=Q(entries__status__in=Entry.HOLDING_PLACE)),
        waitlisted_count=Count("entries", filter=Q(entries__status=Entry.Status.WAITLISTED)),
        unpaid_count=Count("entries", filter=due),
    ).order_by("order", "key")


def confirmed_entries(category: Category):
    """Return the confirmed entries of a category, in registration order, with members."""
    return (
        category.entries.filter(status=Entry.Status.CONFIRMED)
        .prefetch_related("members")
        .order_by("registered_at", "id")
    )


# Registration states of a category.
OPEN = "open"
FULL = "full"
CLOSED = "closed"
NOT_OPEN = "not_open"


def held_places(category: Category) -> int:
    """Return how many places of a category are taken: confirmed entries and offers."""
    return category.entries.filter(status__in=Entry.HOLDING_PLACE).count()


def registration_state(category: Category, *, now=None, confirmed: int | None = None) -> str:
    """Return whether a category takes registrations: open, full, closed or not_open.

    ``closed``: the championship is a draft (not opened yet) or cancelled, or its
    registration deadline has passed; ``not_open``:
    before the category's ``registration_opens_at``; ``full``: its places are
    taken (confirmed entries, and places offered to the waiting list), so new
    entries go on the waiting list; ``open`` otherwise. The places taken are
    ``confirmed``, else a ``held_count`` annotation (``categories_with_counts``),
    else counted.
    """
    if now is None:
        now = timezone.now()
    if category.championship.draft or category.championship.cancelled_at is not None:
        return CLOSED
    if now >= category.championship.effective_registration_deadline():
        return CLOSED
    if category.registration_opens_at is not None and now < category.registration_opens_at:
        return NOT_OPEN
    if category.capacity is not None:
        if confirmed is None:
            confirmed = getattr(category, "held_count", None)
        if confirmed is None:
            confirmed = held_places(category)
        if confirmed >= category.capacity:
            return FULL
    return OPEN


def details_until(entry: Entry):
    """Return until when the entrant may change the entry's details, or ``None`` if unknown.

    A pair's or team's members may change until the championship's member-change
    deadline when it has one (sm: two weeks before), also after registration
    closed; otherwise details change until registration closes.
    """
    championship = entry.category.championship
    until = championship.member_changes_until()
    if entry.category.max_members > 1 and until is not None:
        return until
    return championship.effective_registration_deadline()


def details_editable(entry: Entry, *, now=None) -> bool:
    """Return whether the entrant may change the entry's details through its private link now.

    Never for a withdrawn entry. (A change after results exist re-ranks the rounds
    concerned: ``members_changed``.)
    """
    if entry.status == Entry.Status.WITHDRAWN:
        return False
    if now is None:
        now = timezone.now()
    category = entry.category
    if category.registration_opens_at is not None and now < category.registration_opens_at:
        return False
    return now < details_until(entry)
