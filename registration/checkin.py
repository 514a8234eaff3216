"""Check-in codes: the QR code on an entry's page that the check-in desk scans.

The code is the address of the entry on the organiser's check-in page, signed
so that nobody can make one up for another entry: ``/<slug>/manage/checkin/
code/<signed id>/``. Scanned by the check-in page's own scanner, or opened with
any phone's camera, it shows the organiser that entry with its payment status
and any accompanying adult, to check in with one tap. It opens nothing for
anyone but the championship's organisers, and it reveals nothing of the entry's
private link.
"""

from __future__ import annotations

import io

from django.core import signing
from django.http import HttpRequest
from django.urls import reverse

from championship import cards, outbox
from championship.models import Championship, OutgoingMail
from core import site_url
from registration.models import Entry

SALT = "registration.checkin"


def checkin_code(entry: Entry) -> str:
    """Return the signed code of ``entry``'s check-in."""
    return signing.Signer(salt=SALT).sign(str(entry.pk))


def checkin_path(entry: Entry) -> str:
    return reverse(
        "manage:checkin_code",
        kwargs={"championship_slug": entry.category.championship.slug, "code": checkin_code(entry)},
    )


def checkin_url(entry: Entry, *, request: HttpRequest | None = None) -> str:
    """Return the absolute address the entry's check-in QR code holds."""
    return site_url.absolute_url(checkin_path(entry), request=request)


def checkin_png(entry: Entry) -> bytes | None:
    """Return the entry's check-in QR code as a PNG, or ``None`` without the site's address."""
    try:
        url = checkin_url(entry)
    except site_url.SiteURLUnknown:
        return None
    image = cards.qr_code(url).make_image()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def mail_attachments(mail) -> list[tuple[str, bytes, str]]:
    """Attach the check-in code to a confirmed entry's mail (``outbox.register_attacher``).

    Nothing for an entry no longer confirmed or already checked in, or when the
    site's address is unknown (a retry from a command without ``SITE_URL``).
    """
    entry = (
        Entry.objects.select_related("category__championship")
        .filter(pk=mail.reference, status=Entry.Status.CONFIRMED, checked_in_at__isnull=True)
        .first()
    )
    png = checkin_png(entry) if entry is not None else None
    return [("check-in.png", png, "image/png")] if png else []


def attach_to_mail() -> None:
    """Have the mails that confirm an entry carry its check-in code, for the door."""
    for kind in (OutgoingMail.Kind.REGISTERED, OutgoingMail.Kind.PROMOTED):
        outbox.register_attacher(kind, mail_attachments)


def entry_pk_of(championship: Championship, code: str) -> int | None:
    """Return the id of the entry of ``championship`` that ``code`` names, or ``None``."""
    try:
        value = signing.Signer(salt=SALT).unsign(code)
    except signing.BadSignature:
        return None
    if not value.isdigit():
        return None
    pk = int(value)
    exists = Entry.objects.filter(pk=pk, category__championship=championship).exists()
    return pk if exists else None
