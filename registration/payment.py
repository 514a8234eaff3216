"""What an entry owes, and how the entrant pays it.

unpaid
    A confirmed entry whose payment status is unpaid: what the organiser counts
    and follows up. An entry on the waiting list or withdrawn owes nothing,
    whatever its payment status says.
due
    An unpaid entry with a fee: the entrant is told how to pay it.
payment reference
    What the entrant marks the payment with, so that the organiser can find the
    entry: the one the entry was given when it was made, in the form its
    championship's bank agreement asks for (a KID, an OCR or FIK reference, an RF
    reference: ``registration.references``), or that the organiser gave it; else the
    entry's id (the ``id`` of the CSV export and the interchange format).
payment instructions
    The championship's text (``Championship.payment_instructions``) with
    ``{reference}`` and ``{fee}`` put in for the entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from championship.models import Championship, PaymentReferenceScheme
from core.l10n import money
from registration import references
from registration.models import Entry

REFERENCE = "{reference}"
FEE = "{fee}"


def is_unpaid(entry: Entry) -> bool:
    """Return whether the entry is confirmed and not paid (nor waived, nor refunded)."""
    return entry.status == Entry.Status.CONFIRMED and entry.payment_status == Entry.Payment.UNPAID


def is_due(entry: Entry) -> bool:
    """Return whether the entry still has a fee to pay."""
    return is_unpaid(entry) and entry.fee > 0


def reference(entry: Entry) -> str:
    """Return the reference the entrant marks the payment with."""
    return entry.payment_reference.strip() or entry.ref


def scheme_of(championship: Championship) -> str | None:
    """Return the scheme of the championship's new references; ``None``: the entry's own id."""
    chosen = championship.payment_reference_scheme
    if chosen == PaymentReferenceScheme.ENTRY:
        return None
    return chosen or references.default_scheme(championship.currency)


def give_reference(entry: Entry, championship: Championship) -> bool:
    """Give a new (saved) entry its reference in the championship's form, unless it has one.

    Return whether it was given (the caller saves ``payment_reference``). The number is
    the entry's id in the database: unique on the site, and the references of one
    championship have one length.
    """
    scheme = scheme_of(championship)
    if entry.payment_reference.strip() or scheme is None:
        return False
    entry.payment_reference = references.make(scheme, entry.pk)
    return True


def fee_text(entry: Entry) -> str:
    """Return the entry's fee as readers expect it: "200 kr" in its own language, else "200 NOK"."""
    return money(entry.fee, entry.category.championship.currency)


@dataclass(frozen=True)
class Instructions:
    """How to pay one entry: the organiser's text with its reference and fee put in."""

    text: str
    reference: str
    fee: str


def instructions(entry: Entry) -> Instructions | None:
    """Return how to pay the entry, or ``None`` when nothing is due or the organiser said nothing.

    The placeholders are replaced as plain text (not ``str.format``), so that any
    other braces in the organiser's text stay as they are.
    """
    text = entry.category.championship.payment_instructions.strip()
    # An offered place is paid once accepted: its offer says how, beforehand.
    offered = (
        entry.status == Entry.Status.OFFERED
        and entry.payment_status == Entry.Payment.UNPAID
        and entry.fee > 0
    )
    if not text or not (is_due(entry) or offered):
        return None
    code, fee = reference(entry), fee_text(entry)
    return Instructions(
        text=text.replace(REFERENCE, code).replace(FEE, fee), reference=code, fee=fee
    )
