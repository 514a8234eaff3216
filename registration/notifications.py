"""E-mails to registrants, in the language they registered in."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from registration.models import Entry


def manage_url(entry: Entry) -> str:
    """Return the absolute private link where an entrant manages the entry."""
    path = reverse(
        "registration:manage",
        kwargs={"slug": entry.category.championship.slug, "token": entry.manage_token},
    )
    return f"{settings.SITE_URL.rstrip('/')}{path}"


def _send(entry_pk: int, template: str) -> None:
    entry = (
        Entry.objects.select_related("category__championship")
        .prefetch_related("members")
        .get(pk=entry_pk)
    )
    if not entry.contact_email:
        return
    with translation.override(entry.language):
        context = {
            "entry": entry,
            "category": entry.category,
            "championship": entry.category.championship,
            "manage_url": manage_url(entry),
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


def send_registered(entry_pk: int) -> None:
    """Confirm a registration: confirmed, or on the waiting list."""
    _send(entry_pk, "registered")


def send_promoted(entry_pk: int) -> None:
    """Tell a waitlisted entry that it now has a place."""
    _send(entry_pk, "promoted")


def send_withdrawn(entry_pk: int) -> None:
    """Confirm a withdrawal."""
    _send(entry_pk, "withdrawn")


def send_new_link(entry_pk: int) -> None:
    """Send an entry's new private link (the old one no longer works)."""
    _send(entry_pk, "new_link")
