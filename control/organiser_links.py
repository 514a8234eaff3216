"""An organiser's sign-in link by e-mail: no password, as for judges, but once and for a while.

Terms:

account by mail
    An account that may create championships (``control.views.setup.may_create``),
    is no superuser and has no password: the account made when a site
    administrator approves a request (``organiser_requests``). Its way in is a
    link mailed to its own address.
link
    ``/organisers/sign-in/<token>/``. Opening it shows whom it signs in as; its
    button (a POST) signs the browser in, as a judge's link does, so that a mail
    scanner that opens links signs nobody in. It works once (signing in moves the
    account's last login, which the token names) and for ``MAX_AGE`` after it is
    sent. "Send me a sign-in link" (the log-in page) mails a new one to the
    address of each account by mail that has it.
token
    The account's id and a digest of its state (password marker, last login,
    address), signed with the site's key for this use alone and timed
    (``signing.TimestampSigner``, found under ``SECRET_KEY`` or a fallback). It
    is made when the mail is sent and never stored: the mail in the outbox holds
    ``outbox.SECRET`` in its place (``_finish_mail``).
why not a judge's link
    A judge's link (``championship.staff_links``) is printed on a badge and must
    work all weekend, so it is kept, hashed, until the organiser revokes it. An
    organiser's account reaches the entrants' personal data of every
    championship it organises, and only the site's administrators could revoke
    a link kept for it: a link that works once, for a few days, leaves nothing
    in a mailbox worth stealing later, and asking for a new one costs a minute.
stopping
    A link stops once used, after ``MAX_AGE``, when the account is deactivated,
    is taken out of the group Organisers, is given a password, or its address
    changes; a new password marker (``set_unusable_password``) stops every link
    sent so far.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from championship import outbox
from championship.models import OutgoingMail
from championship.permissions import championships_of
from control.views.setup import may_create
from core import site_url, tokens
from core.people import person_name

logger = logging.getLogger(__name__)

Kind = OutgoingMail.Kind

SALT = "control.organiser_links.sign_in"
MAX_AGE = timedelta(days=3)
MAX_AGE_DAYS = MAX_AGE.days
# A token is about 70 characters; anything much longer is refused before any work.
TOKEN_MAX_LENGTH = 200

# Why a link does not sign in, as codes (the view says them in the reader's language).
INVALID = "invalid"  # not a link this site made, or its account may not sign in by mail
EXPIRED = "expired"  # older than MAX_AGE
USED = "used"  # used already, or the account changed since it was sent


class LinkRefused(Exception):
    """A link that does not sign in; ``code`` says why (``INVALID``, ``EXPIRED``, ``USED``)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def may_sign_in_by_mail(user) -> bool:
    """Return whether ``user`` is an account by mail: its sign-in links work."""
    return (
        user.is_active
        and not user.is_superuser
        and not user.has_usable_password()
        and may_create(user)
    )


def _email(user) -> str:
    return (getattr(user, user.get_email_field_name(), "") or "").strip()


def _state(user) -> str:
    """Return a digest of what a link must find unchanged: password marker, last login, address."""
    last_login = (
        "" if user.last_login is None else user.last_login.replace(microsecond=0).isoformat()
    )
    value = f"{SALT}|{user.password}|{last_login}|{_email(user).casefold()}"
    # Not keyed: the signature is, and a key change must not stop the links already sent.
    return hashlib.sha256(value.encode()).hexdigest()[:24]


def sign_in_token(user) -> str:
    """Return the secret of a new sign-in link for ``user``."""
    return signing.TimestampSigner(salt=SALT).sign(f"{user.pk}.{_state(user)}")


def user_for_token(token: str):
    """Return the account ``token`` signs in; raise ``LinkRefused`` when it does not."""
    if not isinstance(token, str) or len(token) > TOKEN_MAX_LENGTH:
        raise LinkRefused(INVALID)
    try:
        value = signing.TimestampSigner(salt=SALT).unsign(token, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise LinkRefused(EXPIRED) from None
    except signing.BadSignature:
        raise LinkRefused(INVALID) from None
    pk, _dot, state = value.partition(".")
    user = get_user_model().objects.filter(pk=int(pk)).first() if pk.isdigit() else None
    if user is None or not may_sign_in_by_mail(user):
        raise LinkRefused(INVALID)
    if not tokens.same(_state(user), state):
        raise LinkRefused(USED)
    return user


def landing_url(user) -> str:
    """Return where an organiser lands once signed in: "New championship" for a new one."""
    if championships_of(user).exists():
        return reverse("home")
    return reverse("new")


# E-mail ------------------------------------------------------------------------------------------


def sign_in_url_placeholder(base_url: str) -> str:
    """Return a link's address with ``outbox.SECRET`` for its token, filled in as it is sent."""
    return base_url + reverse("organisers:sign_in", kwargs={"token": outbox.SECRET})


def link_send(*, email: str, language: str) -> int:
    """Mail a new sign-in link to each account by mail at ``email``; return how many.

    The asker is told the same whatever the count: the page does not say which
    addresses have an account.
    """
    email = (email or "").strip()
    if not email:
        return 0
    base_url = site_url.base_url()
    accounts = [
        user
        for user in get_user_model().objects.filter(email__iexact=email, is_active=True)
        if may_sign_in_by_mail(user)
    ]
    if not base_url:
        if accounts:
            logger.warning("SITE_URL is not set: no sign-in link can be mailed to %s.", email)
        return 0
    with transaction.atomic():
        for user in accounts:
            with translation.override(language):
                context = {
                    "name": person_name(user),
                    "username": user.get_username(),
                    "sign_in_url": sign_in_url_placeholder(base_url),
                    "days": MAX_AGE_DAYS,
                    "site": base_url,
                }
                subject = render_to_string("control/email/organiser_link_subject.txt", context)
                body = render_to_string("control/email/organiser_link.txt", context)
            outbox.queue(
                to=_email(user),
                subject=subject,
                body=body,
                kind=Kind.ORGANISER_LINK,
                reference=user.pk,
            )
    if accounts:
        logger.info("Sign-in link mailed to %d organiser account(s).", len(accounts))
    return len(accounts)


def _finish_mail(mail: OutgoingMail) -> str | None:
    """Put a new link's secret in its mail; ``None`` (cancelled) when its account cannot use it.

    A mail without a link (an approval for an account with a password) is sent as it is.
    """
    if outbox.SECRET not in mail.body:
        return mail.body
    user = get_user_model().objects.filter(pk=mail.reference).first()
    if user is None or not may_sign_in_by_mail(user):
        return None
    if _email(user).casefold() != mail.to.strip().casefold():
        return None
    return mail.body.replace(outbox.SECRET, sign_in_token(user))


def finish_sign_in_links() -> None:
    """Have the outbox fill in the links of organisers' mails as it sends them (apps.ready)."""
    outbox.register_finisher(Kind.ORGANISER_APPROVED, _finish_mail)
    outbox.register_finisher(Kind.ORGANISER_LINK, _finish_mail)
