"""Refunds the rules promise: who is owed what, and the organiser's record of paying it back.

owed
    A paid entry is owed its payment back when the championship is cancelled (every
    fee paid: the Danish rulebook, the world championship's), or when it was
    withdrawn up to the championship's ``refund_days_before`` days before the start
    (the world championship: 15). Without that setting a withdrawal is owed nothing;
    nor is a walk-over or a late arrival, which withdraw nothing (the national
    rulebooks: no refund). An entry that paid more than its fee (the statements'
    lines applied to it) is owed the difference. What it paid is what the applied
    statements say, else its fee (marked paid by hand).
refunded
    ``refund_record`` stores the refund (``models.Refund``: to whom, why, how much,
    who, when); a withdrawn or cancelled entry's payment becomes ``refunded``. Each
    reason is refunded once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.utils.translation import gettext as _

from championship.models import Championship
from payments.models import Refund
from payments.services import Refused
from registration import payment, services
from registration.models import Entry

Reason = Refund.Reason


@dataclass(frozen=True)
class Owed:
    entry: Entry
    reason: str
    amount: Decimal
    reference: str

    @property
    def reason_label(self) -> str:
        return Reason(self.reason).label


def deadline(championship: Championship) -> datetime | None:
    """Return the last moment a withdrawal is owed its fee, or ``None`` without refunds."""
    if championship.refund_days_before is None:
        return None
    return championship.starts_at - timedelta(days=championship.refund_days_before)


def owed(championship: Championship) -> list[Owed]:
    """Return who is owed what, by name."""
    done = set(
        Refund.objects.filter(entry__category__championship=championship).values_list(
            "entry_id", "reason"
        )
    )
    limit = deadline(championship)
    entries = (
        Entry.objects.filter(category__championship=championship)
        .filter(Q(payment_status=Entry.Payment.PAID) | Q(payment_lines__applied_at__isnull=False))
        .distinct()
        .select_related("category__championship")
        .annotate(
            received=Sum(
                "payment_lines__amount",
                filter=Q(payment_lines__applied_at__isnull=False),
                default=Decimal(0),
            )
        )
        .order_by("name", "pk")
    )
    found = []
    for entry in entries:
        paid = entry.payment_status == Entry.Payment.PAID
        reason = None
        if paid and championship.cancelled_at is not None:
            reason = Reason.CANCELLED
        elif (
            paid
            and entry.status == Entry.Status.WITHDRAWN
            and limit is not None
            and entry.withdrawn_at is not None
            and entry.withdrawn_at <= limit
        ):
            reason = Reason.WITHDRAWN
        if reason is not None:
            if (entry.pk, reason) not in done:
                amount = entry.received or entry.fee
                found.append(Owed(entry, reason, amount, payment.reference(entry)))
            continue
        if entry.received > entry.fee and (entry.pk, Reason.OVERPAID) not in done:
            excess = entry.received - (entry.fee if paid else 0)
            found.append(Owed(entry, Reason.OVERPAID, excess, payment.reference(entry)))
    return found


@transaction.atomic
def refund_record(*, championship: Championship, entry_id: int, reason: str, by=None) -> Refund:
    """Record that the entry was paid back what it is owed for ``reason``; refuse otherwise."""
    due = next(
        (o for o in owed(championship) if o.entry.pk == entry_id and o.reason == reason), None
    )
    if due is None:
        raise Refused(_("Nothing is owed to this entry for this reason (any more)."))
    try:
        with transaction.atomic():
            refund = Refund.objects.create(
                entry=due.entry, reason=reason, amount=due.amount, done_by=by
            )
    except IntegrityError:
        raise Refused(_("This refund is recorded already.")) from None
    if reason in (Reason.WITHDRAWN, Reason.CANCELLED):
        services.entry_set_payment(entry=due.entry, status=Entry.Payment.REFUNDED)
    return refund
