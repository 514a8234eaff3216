"""E-mails to registrants, in the language they registered in.

A mail is sent after the request's transaction commits, so the site's address
for its links is taken when the mail is queued (``queued_base_url``), while the
request is still at hand.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from championship import site_url
from registration.models import Entry

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


def _send(entry_pk: int, template: str, base_url: str) -> None:
    entry = (
        Entry.objects.select_related("category__championship")
        .prefetch_related("members")
        .get(pk=entry_pk)
    )
    if not entry.contact_email:
        return
    if not base_url:
        # Queued outside a request (a command) on a site without SITE_URL: the link
        # cannot be made absolute, and a guessed address would lead nowhere.
        logger.warning(
            "SITE_URL is not set: the %s e-mail to entry %s carries the path %s without "
            "the site's address. Set SITE_URL (e.g. https://puzzle.example.org) to send "
            "working links from commands.",
            template,
            entry.pk,
            manage_path(entry),
        )
    with translation.override(entry.language):
        context = {
            "entry": entry,
            "category": entry.category,
            "championship": entry.category.championship,
            "manage_url": manage_url(entry, base_url=base_url),
        }
        subject = render_to_string(f"registration/email/{template}_subject.txt", context)
        body = render_to_string(f"registration/email/{template}.txt", context)
    send_mail(
        " ".join(subject.split()),
        body,
        settings.DEFAULT_FROM_EMAIL,
        [entry.contact_email],
        fail_silently=False,
    )


def send_registered(entry_pk: int, *, base_url: str) -> None:
    """Confirm a registration: confirmed, or on the waiting list."""
    _send(entry_pk, "registered", base_url)


def send_promoted(entry_pk: int, *, base_url: str) -> None:
    """Tell a waitlisted entry that it now has a place."""
    _send(entry_pk, "promoted", base_url)


def send_withdrawn(entry_pk: int, *, base_url: str) -> None:
    """Confirm a withdrawal."""
    _send(entry_pk, "withdrawn", base_url)


def send_new_link(entry_pk: int, *, base_url: str) -> None:
    """Send an entry's new private link (the old one no longer works)."""
    _send(entry_pk, "new_link", base_url)
