"""The e-mail outbox: a mail is written with the change that causes it, and sent by a worker.

Terms:

queueing
    A service writes an ``OutgoingMail`` row inside the transaction of its
    change, with the mail already rendered in its recipient's language. A change
    that rolls back takes its mail with it; a change that commits keeps it, even
    if the mail server is down.
sending
    The ``send_mail_outbox`` command (a worker with ``--loop``, or run every
    minute) sends whatever is due; a request only queues, so a mail server that
    hangs or refuses never holds up a request. With ``OUTBOX_SEND_AFTER_COMMIT``
    on, the request also sends its mail once its transaction commits (with the
    short ``EMAIL_TIMEOUT``), every error caught and recorded. Each mail is taken
    with ``SELECT … FOR UPDATE SKIP LOCKED`` and sent while its row is locked, so
    that several app servers and workers never send one mail twice.
retry
    A failed attempt schedules the next one after ``BACKOFF`` (1, 5, 15, 60
    minutes, …); after the last one the mail is *failed*, shown to the
    organiser, who may send it again.
secret
    A link's secret (a sign-in link's, a password reset's, an address
    confirmation's) is never stored: its mail holds ``SECRET`` where the secret
    goes, and the finisher registered for its kind fills it in when the mail is
    sent (or cancels the mail when the link no longer works). An entrant's
    private link is ``PRIVATE_LINK`` in the mails about their entry, filled in
    the same way with the entry's link at the time of sending.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from championship.models import Championship, OutgoingMail
from core import site_url

logger = logging.getLogger(__name__)

State = OutgoingMail.State
Kind = OutgoingMail.Kind

# The wait after the 1st, 2nd, … failed attempt; after one more failure the mail is failed.
BACKOFF = tuple(timedelta(minutes=minutes) for minutes in (1, 5, 15, 60, 180, 360, 720))
MAX_ATTEMPTS = len(BACKOFF) + 1
ERROR_MAX_LENGTH = 1000
# Stands for a secret that is not stored; a word that URLs and templates leave as it is.
SECRET = "__outbox_secret__"
# Stands for the token of an entrant's private link, in the mails about their entry.
PRIVATE_LINK = "__outbox_private_link__"
PLACEHOLDERS = (SECRET, PRIVATE_LINK)

# A finisher returns the mail's body ready to send, or ``None`` when it is no longer to be sent.
Finisher = Callable[[OutgoingMail], "str | None"]
_finishers: dict[str, Finisher] = {}


def register_finisher(kind: str, finisher: Finisher) -> None:
    """Have ``finisher`` complete every mail of ``kind`` just before it is sent."""
    _finishers[kind] = finisher


# Attachments are made when a mail is sent, not stored: (file name, content, MIME type).
Attacher = Callable[[OutgoingMail], "list[tuple[str, bytes, str]]"]
_attachers: dict[str, list[Attacher]] = {}


def register_attacher(kind: str, attacher: Attacher) -> None:
    """Have ``attacher`` give files attached to every mail of ``kind`` as it is sent.

    A kind may have several attachers (the check-in code, the payment code), each
    registered once; their files are attached in the order they were registered.
    """
    attachers = _attachers.setdefault(kind, [])
    if attacher not in attachers:
        attachers.append(attacher)


def queue(
    *,
    to: str,
    subject: str,
    body: str,
    kind: str,
    reference: int | None = None,
    championship: Championship | None = None,
) -> OutgoingMail:
    """Write a mail to the outbox, due now, for the outbox's sender to send.

    Call it inside the transaction of the change that causes the mail. With
    ``OUTBOX_SEND_AFTER_COMMIT`` on, also send it once that transaction commits.
    """
    mail = OutgoingMail.objects.create(
        championship=championship,
        kind=kind,
        reference=reference,
        to=to,
        subject=" ".join(subject.split()),
        body=body,
        state=State.QUEUED,
        next_attempt_at=timezone.now(),
        site=site_url.base_url(),
    )
    if settings.OUTBOX_SEND_AFTER_COMMIT:
        transaction.on_commit(lambda: _send_after_commit(mail.pk))
    return mail


def _finish_password_reset(mail: OutgoingMail) -> str | None:
    """Put a password reset's token in its mail, made now for its user.

    ``None`` (the mail is cancelled) when the user is gone, inactive, has no
    usable password, or another address now. The token works until the
    password changes, or ``PASSWORD_RESET_TIMEOUT`` after the mail is sent.
    """
    user = get_user_model().objects.filter(pk=mail.reference, is_active=True).first()
    if user is None or not user.has_usable_password():
        return None
    email = getattr(user, user.get_email_field_name(), "") or ""
    if email.strip().casefold() != mail.to.strip().casefold():
        return None
    return mail.body.replace(SECRET, default_token_generator.make_token(user))


register_finisher(Kind.PASSWORD_RESET, _finish_password_reset)


def _send_after_commit(pk: int) -> None:
    try:
        send_one(pk=pk)
    except Exception:
        # The row is still queued and due: the next ``send_mail_outbox`` run sends it.
        logger.exception("Mail %s could not be sent after commit; the outbox will retry it.", pk)


def send_one(*, pk: int | None = None, now: datetime | None = None) -> OutgoingMail | None:
    """Send one due mail: mail ``pk``, or the one waiting longest; return it.

    Return ``None`` when none is due, or when another sender holds it. A failure
    is recorded on the mail (``last_error``) and its next attempt scheduled.
    """
    now = now or timezone.now()
    with transaction.atomic():
        due = OutgoingMail.objects.select_for_update(skip_locked=True).filter(
            state=State.QUEUED, next_attempt_at__lte=now
        )
        if pk is not None:
            due = due.filter(pk=pk)
        mail = due.order_by("next_attempt_at", "pk").first()
        if mail is None:
            return None
        _attempt(mail, now)
        mail.save()
    return mail


def _attempt(mail: OutgoingMail, now: datetime) -> None:
    """Send ``mail`` while its row is locked, and record how it went on it (unsaved)."""
    try:
        # What is made as the mail is sent (a link's secret, an attachment) is made on the
        # site's address the mail was queued at, as the request would have made it.
        with site_url.queued_at(mail.site):
            finisher = _finishers.get(mail.kind)
            body = mail.body if finisher is None else finisher(mail)
            if body is None:
                mail.state = State.CANCELLED
                mail.next_attempt_at = None
                logger.info("Mail %s (%s) is no longer to be sent: cancelled.", mail.pk, mail.kind)
                return
            if any(placeholder in body for placeholder in PLACEHOLDERS):
                raise RuntimeError(f"No finisher filled in the secret of a {mail.kind} mail.")
            message = EmailMessage(mail.subject, body, settings.DEFAULT_FROM_EMAIL, [mail.to])
            for attacher in _attachers.get(mail.kind, ()):
                for name, content, mimetype in attacher(mail):
                    message.attach(name, content, mimetype)
        message.send()
    except Exception as error:
        # Any error: a refused connection, a timeout, a rejected address, a broken backend.
        mail.attempts += 1
        mail.last_attempt_at = now
        mail.last_error = f"{type(error).__name__}: {error}"[:ERROR_MAX_LENGTH]
        if mail.attempts >= MAX_ATTEMPTS:
            mail.state = State.FAILED
            mail.next_attempt_at = None
        else:
            mail.next_attempt_at = now + BACKOFF[mail.attempts - 1]
        logger.warning(
            "Mail %s to %s failed (attempt %s): %s",
            mail.pk,
            mail.to,
            mail.attempts,
            mail.last_error,
        )
    else:
        mail.attempts += 1
        mail.last_attempt_at = now
        mail.state = State.SENT
        mail.sent_at = now
        mail.next_attempt_at = None


@dataclass(frozen=True)
class Run:
    """What one pass over the outbox did."""

    sent: int = 0
    failed: int = 0
    cancelled: int = 0


def send_due(*, limit: int | None = None) -> Run:
    """Send every mail that is due, one at a time (at most ``limit``); return the counts."""
    counts = {State.SENT: 0, State.QUEUED: 0, State.FAILED: 0, State.CANCELLED: 0}
    done = 0
    while limit is None or done < limit:
        mail = send_one()
        if mail is None:
            break
        counts[mail.state] += 1
        done += 1
    return Run(
        sent=counts[State.SENT],
        failed=counts[State.QUEUED] + counts[State.FAILED],
        cancelled=counts[State.CANCELLED],
    )


def mail_retry(*, mail: OutgoingMail) -> OutgoingMail:
    """Make a mail that failed due again, now; return it.

    The outbox's sender sends it; with ``OUTBOX_SEND_AFTER_COMMIT`` on, it is
    tried at once and returned as the attempt left it. Refuse
    (``ValidationError``) a mail that is sent or cancelled. A mail that had given
    up and fails again is failed again.
    """
    with transaction.atomic():
        locked = OutgoingMail.objects.select_for_update().get(pk=mail.pk)
        if locked.state in (State.SENT, State.CANCELLED):
            raise ValidationError(_("This e-mail is not waiting to be sent."))
        locked.state = State.QUEUED
        locked.next_attempt_at = timezone.now()
        locked.save(update_fields=["state", "next_attempt_at"])
    if not settings.OUTBOX_SEND_AFTER_COMMIT:
        return locked
    # ``None``: another sender holds it at this moment, and sends it.
    return send_one(pk=locked.pk) or OutgoingMail.objects.get(pk=locked.pk)


# Reading ---------------------------------------------------------------------------------------

FAILING = Q(state=State.FAILED) | Q(state=State.QUEUED, attempts__gt=0)


def failing(championship: Championship) -> QuerySet[OutgoingMail]:
    """Return the championship's mail that an attempt failed to send and is not sent yet."""
    return OutgoingMail.objects.filter(FAILING, championship=championship)


def failing_about(kinds: list[str], reference: int) -> QuerySet[OutgoingMail]:
    """Return the failing mail of ``kinds`` about ``reference`` (an entry, a sign-in link)."""
    return OutgoingMail.objects.filter(FAILING, kind__in=kinds, reference=reference)
