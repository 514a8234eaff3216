"""Registration deadlines: offered places to accept, fees to pay.

offer
    When a place frees up and the championship makes offers
    (``Championship.offer_hours``), the first entry on the waiting list is
    *offered* the place until a deadline; it holds the place meanwhile. Accepted
    through the private link, the entry is confirmed; not accepted in time, the
    offer lapses: the entry is withdrawn, told, and the place is offered to the
    next.
payment deadline
    Where the championship sets one (``Championship.payment_hours``), a confirmed
    entry with a fee pays within that many hours of getting its place
    (``Entry.payment_due_at``). A reminder goes out before the deadline; after
    it the entry is *overdue*: the organiser releases it with one action, or the
    championship releases it automatically (``Championship.release_unpaid``).
    A released entry is withdrawn and told; its place goes to the waiting list.

``deadlines_run`` does what is due; ``manage.py registration_deadlines --loop``
runs it every minute (one per site).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from registration import notifications
from registration.models import Entry
from registration.services import _lock_category, confirm, entry_withdraw

# A reminder goes out this long before the payment deadline (or half the time given,
# when that is shorter).
REMINDER_BEFORE = timedelta(hours=24)


@transaction.atomic
def offer_accept(*, entry: Entry, now: datetime | None = None) -> Entry:
    """Accept the place offered to ``entry``: it is confirmed, with its payment deadline.

    Refused with a ``ValidationError`` when nothing is offered or the offer has lapsed.
    """
    now = now or timezone.now()
    _lock_category(entry.category)
    entry = (
        Entry.objects.select_for_update().select_related("category__championship").get(pk=entry.pk)
    )
    if entry.status != Entry.Status.OFFERED:
        raise ValidationError(_("No place is offered to this entry."), code="not_offered")
    if entry.offer_expires_at <= now:
        raise ValidationError(
            _("The offer has lapsed: the place has gone to the next on the waiting list."),
            code="offer_lapsed",
        )
    confirm(entry, now)
    notifications.queue_promoted(entry.pk)
    return entry


def reminder_at(entry: Entry) -> datetime | None:
    """Return when an unpaid entry is reminded of its payment deadline, or ``None``."""
    if entry.payment_due_at is None or entry.confirmed_at is None:
        return None
    given = entry.payment_due_at - entry.confirmed_at
    return entry.payment_due_at - min(REMINDER_BEFORE, given / 2)


@dataclass
class Done:
    """What one run of the deadlines did: entry ids, for the log and the tests."""

    offers_lapsed: list[int]
    reminded: list[int]
    released: list[int]


def _unpaid_with_deadline():
    return Entry.objects.filter(
        status=Entry.Status.CONFIRMED,
        payment_status=Entry.Payment.UNPAID,
        payment_due_at__isnull=False,
        fee__gt=0,
    )


def deadlines_run(now: datetime | None = None) -> Done:
    """Do what registration deadlines make due by ``now``; each entry in its own transaction.

    Lapse the offers not accepted in time (the places go to the next waiting),
    remind unpaid entries before their deadline, and release overdue entries
    where the championship releases them automatically.
    """
    now = now or timezone.now()
    done = Done([], [], [])
    for entry in Entry.objects.filter(status=Entry.Status.OFFERED, offer_expires_at__lte=now):
        with transaction.atomic():
            locked = Entry.objects.select_for_update().get(pk=entry.pk)
            if locked.status == Entry.Status.OFFERED and locked.offer_expires_at <= now:
                entry_withdraw(entry=locked, lapsed=Entry.Lapse.OFFER)
                done.offers_lapsed.append(entry.pk)
    for entry in _unpaid_with_deadline().filter(
        payment_reminded_at__isnull=True, payment_due_at__gt=now
    ):
        at = reminder_at(entry)
        if at is not None and at <= now:
            with transaction.atomic():
                updated = Entry.objects.filter(pk=entry.pk, payment_reminded_at__isnull=True)
                if updated.update(payment_reminded_at=now):
                    notifications.queue_payment_reminder(entry.pk)
                    done.reminded.append(entry.pk)
    for entry in _unpaid_with_deadline().filter(
        payment_due_at__lte=now, category__championship__release_unpaid=True
    ):
        with transaction.atomic():
            locked = Entry.objects.select_for_update().get(pk=entry.pk)
            if locked.is_overdue(now):
                entry_withdraw(entry=locked, lapsed=Entry.Lapse.UNPAID)
                done.released.append(entry.pk)
    return done


@transaction.atomic
def entry_release_unpaid(*, entry: Entry, now: datetime | None = None) -> list[Entry]:
    """Release an overdue entry (the organiser's action): withdrawn, told, its place given on.

    Refused unless the entry's payment deadline has passed unpaid. Return the
    entries that got the place.
    """
    locked = (
        Entry.objects.select_for_update().select_related("category__championship").get(pk=entry.pk)
    )
    if not locked.is_overdue(now):
        raise ValidationError(
            _("Only an entry whose payment deadline has passed unpaid can be released.")
        )
    return entry_withdraw(entry=locked, lapsed=Entry.Lapse.UNPAID)
