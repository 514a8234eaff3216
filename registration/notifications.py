"""E-mails to registrants, in the language they registered in.

A mail is rendered and written to the outbox (``championship.outbox``) inside
the transaction of the change that causes it, and sent once that transaction
commits; the site's address for its links is the request's, or ``SITE_URL``.
"""

from __future__ import annotations

import logging

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from championship import outbox, site_url
from championship.models import OutgoingMail
from registration.models import Entry

Kind = OutgoingMail.Kind
# The mails about an entry (``OutgoingMail.reference`` is the entry's id).
ENTRY_KINDS = [
    Kind.REGISTERED,
    Kind.PROMOTED,
    Kind.WITHDRAWN,
    Kind.NEW_LINK,
    Kind.OFFERED,
    Kind.OFFER_LAPSED,
    Kind.PAYMENT_REMINDER,
    Kind.PAYMENT_LAPSED,
]

logger = logging.getLogger(__name__)


def queued_base_url() -> str:
    """Return the site's address for a mail queued now: ``SITE_URL``, or the request's."""
    return site_url.base_url()


def manage_path(entry: Entry) -> str:
    """Return the path of the private link where an entrant manages the entry."""
    return reverse(
        "registration:manage",
        kwargs={"slug": entry.category.championship.slug, "token": entry.manage_token},
    )


def manage_url(entry: Entry, *, base_url: str | None = None) -> str:
    """Return the absolute private link where an entrant manages the entry.

    ``base_url`` is the site's address taken when the mail was queued; without
    it, ``SITE_URL`` or the request being answered gives the address.
    """
    base = site_url.base_url() if base_url is None else base_url.rstrip("/")
    return base + manage_path(entry)


def queue_to_entry(
    entry: Entry, kind: str, *, templates: str, context: dict, base_url: str | None
) -> bool:
    """Queue one mail of ``kind`` to an entry's contact address, in the entry's language.

    ``templates`` is the folder of ``<kind>.txt`` and ``<kind>_subject.txt``; they get
    ``context`` with the entry, its category and championship, and its private link.
    Return whether the entry had an address to write to.
    """
    if not entry.contact_email:
        return False
    base_url = queued_base_url() if base_url is None else base_url
    if not base_url:
        # Queued outside a request (a command) on a site without SITE_URL: the link
        # cannot be made absolute, and a guessed address would lead nowhere.
        logger.warning(
            "SITE_URL is not set: the %s e-mail to entry %s carries the path %s without "
            "the site's address. Set SITE_URL (e.g. https://puzzle.example.org) to send "
            "working links from commands.",
            kind,
            entry.pk,
            manage_path(entry),
        )
    championship = entry.category.championship
    # Times in the championship's own zone, as everywhere it is shown.
    with translation.override(entry.language), timezone.override(championship.tzinfo):
        context = {
            **context,
            "entry": entry,
            "category": entry.category,
            "championship": championship,
            "manage_url": manage_url(entry, base_url=base_url),
        }
        subject = render_to_string(f"{templates}/{kind}_subject.txt", context)
        body = render_to_string(f"{templates}/{kind}.txt", context)
    outbox.queue(
        to=entry.contact_email,
        subject=subject,
        body=body,
        kind=kind,
        reference=entry.pk,
        championship=championship,
    )
    return True


def _queue(entry_pk: int, kind: str, base_url: str | None) -> None:
    entry = (
        Entry.objects.select_related("category__championship")
        .prefetch_related("members")
        .get(pk=entry_pk)
    )
    queue_to_entry(entry, kind, templates="registration/email", context={}, base_url=base_url)


# Each function queues its mail in the current transaction: call it inside the change's.


def queue_registered(entry_pk: int, *, base_url: str | None = None) -> None:
    """Confirm a registration: confirmed, or on the waiting list."""
    _queue(entry_pk, Kind.REGISTERED, base_url)


def queue_promoted(entry_pk: int, *, base_url: str | None = None) -> None:
    """Tell a waitlisted entry that it now has a place."""
    _queue(entry_pk, Kind.PROMOTED, base_url)


def queue_offered(entry_pk: int, *, base_url: str | None = None) -> None:
    """Offer a waitlisted entry a place, to accept through its private link by a deadline."""
    _queue(entry_pk, Kind.OFFERED, base_url)


def queue_offer_lapsed(entry_pk: int, *, base_url: str | None = None) -> None:
    """Tell an entry that its offer lapsed: the place went to the next on the waiting list."""
    _queue(entry_pk, Kind.OFFER_LAPSED, base_url)


def queue_payment_reminder(entry_pk: int, *, base_url: str | None = None) -> None:
    """Remind an unpaid entry of its payment deadline, with how to pay."""
    _queue(entry_pk, Kind.PAYMENT_REMINDER, base_url)


def queue_payment_lapsed(entry_pk: int, *, base_url: str | None = None) -> None:
    """Tell an entry that it was withdrawn for not paying by its deadline."""
    _queue(entry_pk, Kind.PAYMENT_LAPSED, base_url)


def queue_withdrawn(entry_pk: int, *, base_url: str | None = None) -> None:
    """Confirm a withdrawal."""
    _queue(entry_pk, Kind.WITHDRAWN, base_url)


def queue_new_link(entry_pk: int, *, base_url: str | None = None) -> None:
    """Send an entry's new private link (the old one no longer works)."""
    _queue(entry_pk, Kind.NEW_LINK, base_url)


def failing_mail(entry: Entry):
    """Return the entry's mail that could not be sent yet."""
    return outbox.failing_about(ENTRY_KINDS, entry.pk)


def latest_failed(entry: Entry, kind: str) -> bool:
    """Return whether the entry's latest mail of ``kind`` could not be sent (so far)."""
    latest = OutgoingMail.objects.filter(kind=kind, reference=entry.pk).order_by("-pk").first()
    return latest is not None and latest.failing
