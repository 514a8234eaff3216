"""E-mails to registrants: to every member of an entry with an address, in their language.

The member who registered (the contact) reads the language they registered
in; the other members, who chose none, read the championship's. Members who
share an address get one mail; a member without one gets none.

A mail is rendered and written to the outbox (``championship.outbox``) inside
the transaction of the change that causes it, and sent once that transaction
commits; the site's address for its links is the request's, or ``SITE_URL``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from championship import outbox
from championship.models import OutgoingMail
from core import site_url
from registration import addresses
from registration.models import Entry, EntryMember, Person, email_key

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

# Every kind queued by ``queue_to_entry``: its body holds ``outbox.PRIVATE_LINK``.
ENTRY_MAIL_KINDS = [*ENTRY_KINDS, Kind.SEATING, Kind.ADVANCED, Kind.RESULTS, Kind.MESSAGE]

logger = logging.getLogger(__name__)


def queued_base_url() -> str:
    """Return the site's address for a mail queued now: ``SITE_URL``, or the request's."""
    return site_url.base_url()


def manage_path(entry: Entry, *, token: str | None = None) -> str:
    """Return the path of the private link where an entrant manages the entry.

    With the entry's current token (derived from its nonce), or ``token``: in a
    mail, ``outbox.PRIVATE_LINK``, filled in as the mail is sent.
    """
    return reverse(
        "results:entry_page",
        kwargs={
            "championship_slug": entry.category.championship.slug,
            "token": entry.manage_token if token is None else token,
        },
    )


def manage_url(entry: Entry, *, base_url: str | None = None, token: str | None = None) -> str:
    """Return the absolute private link where an entrant manages the entry.

    ``base_url`` is the site's address taken when the mail was queued; without
    it, ``SITE_URL`` or the request being answered gives the address.
    """
    base = site_url.base_url() if base_url is None else base_url.rstrip("/")
    return base + manage_path(entry, token=token)


@dataclass(frozen=True)
class Recipient:
    """An address that the mails about an entry go to, and the language they are written in.

    ``contact``: the entry's contact address (the member who registered).
    """

    address: str
    language: str
    contact: bool = False


def members_prefetch(path: str = "") -> Prefetch:
    """Return the prefetch of an entry's members in order, as ``recipients`` reads them.

    ``path`` leads to the entry from the queryset's model, e.g. ``"entry__"``.
    """
    return Prefetch(
        f"{path}memberships",
        queryset=EntryMember.objects.select_related("person").order_by("position"),
        to_attr="members_in_order",
    )


def language_for(entry: Entry, address: str) -> str:
    """Return the language of a mail about ``entry`` to ``address``.

    The contact registered in the entry's language and reads it; another member
    chose none and reads the championship's.
    """
    key = email_key(address)
    if key and key == email_key(entry.contact_email):
        return entry.language
    return entry.category.championship.language


def recipients(entry: Entry) -> list[Recipient]:
    """Return whom the mails about ``entry`` go to: every address of the entry, once.

    The contact address first, then each member's in the members' order. A
    member without an address gets no mail; members who share an address get
    one between them. Prefetch ``members_prefetch()`` to read many entries' at once.
    """
    memberships = getattr(entry, "members_in_order", None)
    if memberships is None:
        memberships = entry.memberships.select_related("person").order_by("position")
    found: dict[str, Recipient] = {}
    addresses_in_order = [entry.contact_email, *(m.person.email for m in memberships)]
    for address in addresses_in_order:
        key = email_key(address)
        if key and key not in found:
            found[key] = Recipient(
                address=address.strip(),
                language=language_for(entry, address),
                contact=key == email_key(entry.contact_email),
            )
    return list(found.values())


# A mail's own context: the same for every recipient, or made for each one in their language.
Context = dict | Callable[[Recipient], dict]


def queue_to_entry(
    entry: Entry, kind: str, *, templates: str, context: Context, base_url: str | None
) -> bool:
    """Queue one mail of ``kind`` to each address of an entry (``recipients``), in its language.

    ``templates`` is the folder of ``<kind>.txt`` and ``<kind>_subject.txt``; they get
    ``context`` with the entry, its category and championship, and its private link.
    A callable ``context`` is called for each recipient with the recipient's
    language active (for what it formats: dates, labels). Every mail holds
    ``outbox.PRIVATE_LINK`` in the link's token (``finish_entry_mail`` fills in
    the entry's one link as it is sent). Return whether the entry had an address
    to write to.
    """
    to = recipients(entry)
    if not to:
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
            manage_path(entry, token=outbox.PRIVATE_LINK),
        )
    championship = entry.category.championship
    for recipient in to:
        # Times in the championship's own zone, as everywhere it is shown.
        with translation.override(recipient.language), timezone.override(championship.tzinfo):
            own = context(recipient) if callable(context) else context
            rendering = {
                **own,
                "entry": entry,
                "category": entry.category,
                "championship": championship,
                "manage_url": manage_url(entry, base_url=base_url, token=outbox.PRIVATE_LINK),
            }
            subject = render_to_string(f"{templates}/{kind}_subject.txt", rendering)
            body = render_to_string(f"{templates}/{kind}.txt", rendering)
        outbox.queue(
            to=recipient.address,
            subject=subject,
            body=body,
            kind=kind,
            reference=entry.pk,
            championship=championship,
        )
    return True


def _queue(entry_pk: int, kind: str, base_url: str | None, context: Context | None = None) -> bool:
    entry = (
        Entry.objects.select_related("category__championship")
        .prefetch_related("members", members_prefetch())
        .get(pk=entry_pk)
    )
    return queue_to_entry(
        entry, kind, templates="registration/email", context=context or {}, base_url=base_url
    )


def confirm_address_url(championship, *, base_url: str) -> str:
    """Return the link that confirms an address, with ``outbox.SECRET`` in the token's place."""
    path = reverse(
        "registration:confirm_address",
        kwargs={"championship_slug": championship.slug, "token": outbox.SECRET},
    )
    return base_url.rstrip("/") + path


# Each function queues its mail in the current transaction: call it inside the change's.


def queue_registered(entry_pk: int, *, base_url: str | None = None) -> None:
    """Confirm a registration, confirmed or on the waiting list, to every address of the entry.

    The mail to the contact carries the link that confirms the contact's address,
    when it is the first member's; every other member with an address of their
    own gets their link in a mail of its own (``queue_address_link``).
    """
    base_url = queued_base_url() if base_url is None else base_url
    entry = Entry.objects.select_related("category__championship").get(pk=entry_pk)
    members = list(entry.members.select_related("puzzler").order_by("memberships__position"))
    first = members[0] if members else None
    contact = email_key(entry.contact_email)
    in_mail = first is not None and bool(contact) and email_key(first.email) == contact
    link = {}
    if in_mail and not first.address_confirmed:
        link["confirm_address_url"] = confirm_address_url(
            entry.category.championship, base_url=base_url
        )
    sent = _queue(
        entry_pk,
        Kind.REGISTERED,
        base_url,
        lambda recipient: link if recipient.contact else {},
    )
    for member in members:
        if not (sent and in_mail and member == first):
            queue_address_link(member, base_url=base_url)


def queue_address_link(person: Person, *, base_url: str | None = None) -> bool:
    """Send ``person`` the link that confirms their address, to that address.

    In the language of the mails about the person's entry (``language_for``;
    the championship's without one).
    Nothing for a person without an address or whose address is confirmed;
    return whether a mail was queued. The link's secret is made as the mail is
    sent (``finish_address_mail``), so the outbox holds no working link.
    """
    if not email_key(person.email) or person.address_confirmed:
        return False
    base_url = queued_base_url() if base_url is None else base_url
    championship = person.championship
    entry = (
        person.entries.select_related("category__championship")
        .order_by("registered_at", "pk")
        .first()
    )
    language = language_for(entry, person.email) if entry is not None else championship.language
    with translation.override(language), timezone.override(championship.tzinfo):
        context = {
            "person": person,
            "entry": entry,
            "championship": championship,
            "confirm_address_url": confirm_address_url(championship, base_url=base_url),
            "days": addresses.MAX_AGE.days,
        }
        subject = render_to_string("registration/email/address_subject.txt", context)
        body = render_to_string("registration/email/address.txt", context)
    outbox.queue(
        to=person.email.strip(),
        subject=subject,
        body=body,
        kind=Kind.ADDRESS,
        reference=person.pk,
        championship=championship,
    )
    return True


def address_link_sent_recently(person: Person, *, minutes: int = 10) -> bool:
    """Return whether a link to confirm ``person``'s address was queued in the last ``minutes``."""
    since = timezone.now() - timedelta(minutes=minutes)
    return OutgoingMail.objects.filter(
        kind=Kind.ADDRESS, reference=person.pk, created_at__gte=since
    ).exists()


def finish_address_mail(mail: OutgoingMail) -> str | None:
    """Put the link's secret in a mail of its own (``Kind.ADDRESS``) as it is sent.

    ``None`` (the mail is cancelled) when the person is gone, has another
    address now, or has confirmed it meanwhile.
    """
    person = Person.objects.select_related("puzzler").filter(pk=mail.reference).first()
    if person is None or email_key(person.email) != email_key(mail.to) or person.address_confirmed:
        return None
    return mail.body.replace(outbox.SECRET, addresses.address_token(person))


def finish_entry_mail(mail: OutgoingMail) -> str | None:
    """Put the entry's private link in a mail about it as it is sent: its link now.

    A mail sent again after the organiser made the entry a new link carries the
    new one. ``None`` (the mail is cancelled) when the entry is gone, or its link
    can no longer be shown (made under a key the site no longer has).
    """
    if outbox.PRIVATE_LINK not in mail.body:
        return mail.body
    entry = (
        Entry.objects.filter(pk=mail.reference).only("manage_nonce", "manage_token_hash").first()
    )
    token = entry.manage_token if entry is not None else None
    if token is None:
        if entry is not None:
            logger.warning(
                "Mail %s is cancelled: the private link of entry %s was made under a key the "
                "site no longer has (SECRET_KEY_FALLBACKS). Make the entry a new link.",
                mail.pk,
                entry.pk,
            )
        return None
    return mail.body.replace(outbox.PRIVATE_LINK, token)


def finish_registered_mail(mail: OutgoingMail) -> str | None:
    """Put the secrets in a registration's mail: the private link, and the address's link.

    The link that confirms an address confirms the one the mail goes to, for the
    entry's first member.
    """
    body = finish_entry_mail(mail)
    if body is None or outbox.SECRET not in body:
        return body
    first = (
        EntryMember.objects.select_related("person__puzzler")
        .filter(entry_id=mail.reference, position=1)
        .first()
    )
    if first is None:
        return None
    return body.replace(outbox.SECRET, addresses.address_token(first.person, mail.to))


def finish_address_links() -> None:
    """Have the outbox fill in the links' secrets as it sends their mails."""
    for kind in ENTRY_MAIL_KINDS:
        outbox.register_finisher(kind, finish_entry_mail)
    outbox.register_finisher(Kind.ADDRESS, finish_address_mail)
    outbox.register_finisher(Kind.REGISTERED, finish_registered_mail)


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
    """Return the entry's mail to its contact address that could not be sent yet."""
    contact = entry.contact_email.strip()
    return outbox.failing_about(ENTRY_KINDS, entry.pk).filter(to__iexact=contact)


def latest_failed(entry: Entry, kind: str) -> bool:
    """Return whether the entry's latest mail of ``kind`` could not be sent (so far)."""
    latest = OutgoingMail.objects.filter(kind=kind, reference=entry.pk).order_by("-pk").first()
    return latest is not None and latest.failing
