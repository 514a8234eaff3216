"""A person's e-mail address, confirmed: what joins a person to the puzzler of their address.

Terms:

puzzler
    One person across the championships on this site (``models.Puzzler``). A
    person joins the puzzler of their address (its page, its history, the
    seeding that follows it) only by confirming the address; until then they
    are a puzzler of their own, with a page of their own results only.
link
    The address of a page that confirms, mailed to the address it confirms
    (``notifications``): in the registration's mail for the entry's contact,
    in a mail of its own for another member, after a change of address, or
    when the entrant asks for it again on their private page. Opening it
    confirms nothing; the page's button does (a POST).
token
    The link's secret: the person's id, the puzzler they were when the link
    was made and a digest of the address, signed for this purpose alone and
    timed (``MAX_AGE``). It is made when the mail is sent and never stored. It
    confirms the address it was sent to, for that person, once: a person who
    confirmed, or whose address changed since, has no use for it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

from django.core import signing
from django.db import IntegrityError, transaction

from championship.models import Championship
from registration import signals
from registration.models import Entry, Person, Puzzler, email_key

SALT = "registration.addresses.confirm"
MAX_AGE = timedelta(days=30)

# Why a link does not confirm, as codes (the view says them in the championship's language).
INVALID = "invalid"  # not a link this site made (altered, cut short), or not of this championship
EXPIRED = "expired"  # older than MAX_AGE
USED = "used"  # the address is confirmed already (this link, or another, was used)
STALE = "stale"  # the person's address changed since the link was sent


class AddressLinkRefused(Exception):
    """A link that does not confirm; ``code`` says why (``INVALID``, ``EXPIRED``, …)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Claim:
    """What a token says: this person, then this puzzler, was sent a link to this address."""

    person: int
    puzzler: int
    digest: str


def _digest(key: str) -> str:
    # The address as a digest: the link does not spell the address out (logs, referers).
    return hashlib.sha256(key.encode()).hexdigest()[:20]


def address_token(person: Person, address: str | None = None) -> str:
    """Return the secret of a link confirming ``address`` (the person's own) for ``person``."""
    key = email_key(person.email if address is None else address)
    value = f"{person.pk}.{person.puzzler_id}.{_digest(key)}"
    return signing.TimestampSigner(salt=SALT).sign(value)


def read_token(token: str) -> Claim:
    """Return what ``token`` claims; raise ``AddressLinkRefused`` when it is not a valid one."""
    try:
        value = signing.TimestampSigner(salt=SALT).unsign(token, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise AddressLinkRefused(EXPIRED) from None
    except signing.BadSignature:
        raise AddressLinkRefused(INVALID) from None
    person, puzzler, digest = value.split(".")
    return Claim(person=int(person), puzzler=int(puzzler), digest=digest)


def _check(person: Person | None, claim: Claim) -> None:
    """Raise ``AddressLinkRefused`` unless ``claim`` confirms ``person``'s address now."""
    if person is None:
        raise AddressLinkRefused(INVALID)
    joined = person.puzzler.email_key
    if joined is not None and _digest(joined) == claim.digest:
        raise AddressLinkRefused(USED)
    key = email_key(person.email)
    if not key or _digest(key) != claim.digest or person.puzzler_id != claim.puzzler:
        # Another address now; or the person was in a puzzler of an address since (the
        # link was used, then the address changed and changed back).
        raise AddressLinkRefused(STALE)


def _person(championship: Championship, claim: Claim, *, lock: bool = False) -> Person | None:
    persons = Person.objects.select_related("puzzler", "championship")
    if lock:
        persons = persons.select_for_update(of=("self",))
    return persons.filter(pk=claim.person, championship=championship).first()


def person_to_confirm(*, championship: Championship, token: str) -> Person:
    """Return the person whose address ``token`` confirms; raise ``AddressLinkRefused`` if none."""
    claim = read_token(token)
    person = _person(championship, claim)
    _check(person, claim)
    return person


@transaction.atomic
def address_confirm(*, championship: Championship, token: str) -> Person:
    """Confirm a person's address with the link's ``token``: they join its puzzler.

    The first person to confirm an address makes their own puzzler that of the
    address (their page keeps its address); a later one joins it, leaving their
    own (deleted once no one is in it), and the rounds their entries are in
    move to a new version (result lists link the person's page). Raise
    ``AddressLinkRefused`` when the token does not confirm (a used, altered,
    expired or outdated link), changing nothing.
    """
    claim = read_token(token)
    person = _person(championship, claim, lock=True)
    _check(person, claim)
    key = email_key(person.email)
    own = person.puzzler
    joined = Puzzler.objects.filter(email_key=key).first()
    if joined is None:
        try:
            with transaction.atomic():
                Puzzler.objects.filter(pk=own.pk).update(email_key=key)
        except IntegrityError:
            # Another person confirmed the same address meanwhile: join theirs.
            joined = Puzzler.objects.get(email_key=key)
        else:
            own.email_key = key
            return person
    person.puzzler = joined
    person.save(update_fields=["puzzler", "updated_at"])
    if not own.persons.exists():
        own.delete()
    entries = list(Entry.objects.filter(memberships__person=person).distinct())
    if entries:
        signals.members_changed.send(sender=Entry, entries=entries, by=None)
    return person
