"""Requests for an organiser account: asked for by anyone, decided by the site's administrators.

Terms:

request
    ``models.OrganiserRequest``: a name, an e-mail address, a club, the
    championship planned, and the language it was asked in. Anyone may ask, on
    the form (``/organisers/request/``) or through the API; one address waits
    for one decision at a time.
site administrators
    Who may decide (``may_decide``): superusers, and whoever is given the
    permission ``control.change_organiserrequest`` ("Can change organiser account
    request") in the admin, as a user or through a group. Each of them with an
    e-mail address is told of a new request, in the site's language
    (``LANGUAGE_CODE``), through the outbox.
approving
    Finds the account of the request's address, or makes one, and lets it create
    championships: the group Organisers, as ``create_organiser`` does. The
    requester gets a mail in their language with a sign-in link
    (``organiser_links``), or, for an account that has a password, how to log
    in. Approving an approved request does nothing a second time.
the account of an address
    The oldest active account with that address, but never the account a
    sign-in link made for a championship's staff: the organiser who made that
    link can print it again, and would hold the new organiser's account (why
    ``championship.staff_links`` never matches an address either). Without one,
    a new account: no password, its user name the address.
refusing
    Records who refused, when and why (optional); the requester gets a polite
    mail in their language, with the reason when one is given.
"""

from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship import outbox, services
from championship.models import OutgoingMail
from control import organiser_links
from control.models import (
    CLUB_MAX_LENGTH,
    EMAIL_MAX_LENGTH,
    MESSAGE_MAX_LENGTH,
    NAME_MAX_LENGTH,
    REASON_MAX_LENGTH,
    OrganiserRequest,
)
from core import jsonbounds, site_url

logger = logging.getLogger(__name__)

Status = OrganiserRequest.Status
Kind = OutgoingMail.Kind

DECIDE_PERMISSION = "control.change_organiserrequest"
# The backend that reads permissions (django-axes' only checks logins).
PERMISSION_BACKEND = "django.contrib.auth.backends.ModelBackend"
# How many decided requests the administrators' page lists, the latest first.
DECIDED_SHOWN = 100


def may_decide(user) -> bool:
    """Return whether ``user`` may approve or refuse requests for an organiser account."""
    return user.is_authenticated and user.is_active and user.has_perm(DECIDE_PERMISSION)


def deciders() -> QuerySet:
    """Return the active accounts that may decide, with an e-mail address: superusers first."""
    return (
        get_user_model()
        .objects.with_perm(DECIDE_PERMISSION, is_active=True, backend=PERMISSION_BACKEND)
        .exclude(email="")
        .order_by("-is_superuser", "pk")
    )


# Asking --------------------------------------------------------------------------------------


def _too_long(limit: int) -> str:
    return ngettext(
        "This is too long (at most %(count)d character).",
        "This is too long (at most %(count)d characters).",
        limit,
    ) % {"count": limit}


def _clean(*, name: str, email: str, club: str, message: str) -> dict[str, str]:
    """Return the request's fields tidied; raise ``ValidationError`` naming the wrong ones."""
    values = {
        "name": " ".join(str(name or "").split()),
        "email": str(email or "").strip(),
        "club": " ".join(str(club or "").split()),
        "message": str(message or "").strip(),
    }
    limits = {
        "name": NAME_MAX_LENGTH,
        "email": EMAIL_MAX_LENGTH,
        "club": CLUB_MAX_LENGTH,
        "message": MESSAGE_MAX_LENGTH,
    }
    errors: dict[str, list] = {}
    for field, value in values.items():
        try:
            jsonbounds.validate_text(value)
        except ValidationError as error:
            errors[field] = error.messages
            continue
        if len(value) > limits[field]:
            errors[field] = [_too_long(limits[field])]
    if "name" not in errors and not values["name"]:
        errors["name"] = [_("Give your name.")]
    if "email" not in errors:
        if not values["email"]:
            errors["email"] = [_("Give your e-mail address: the answer is sent there.")]
        else:
            try:
                validate_email(values["email"])
            except ValidationError as error:
                errors["email"] = error.messages
    if "message" not in errors and not values["message"]:
        errors["message"] = [_("Say which championship you plan: where, when, and how large.")]
    if errors:
        raise ValidationError(errors)
    return values


def _waiting_already() -> ValidationError:
    return ValidationError(
        {
            "email": [
                _(
                    "A request from this address is waiting for a decision already: "
                    "the answer will be sent to it."
                )
            ]
        }
    )


def organiser_request_create(
    *, name: str, email: str, club: str = "", message: str, language: str
) -> OrganiserRequest:
    """Record a request for an organiser account and tell the site's administrators of it.

    Refused input raises ``ValidationError`` naming the field, as does a second
    request from an address whose first still waits.
    """
    values = _clean(name=name, email=email, club=club, message=message)
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    pending = OrganiserRequest.objects.filter(status=Status.PENDING)
    try:
        with transaction.atomic():
            if pending.filter(email__iexact=values["email"]).exists():
                raise _waiting_already()
            request = OrganiserRequest.objects.create(language=language, **values)
            _queue_notice(request)
    except IntegrityError:
        # A simultaneous request from the same address won (the partial unique index).
        raise _waiting_already() from None
    logger.info("Organiser account request %s from %s", request.pk, request.email)
    return request


# Deciding ------------------------------------------------------------------------------------


def _username(email: str, name: str) -> str:
    """Return a free user name: the address itself where Django takes it, else from the name."""
    User = get_user_model()
    candidate = email.lower()
    try:
        User.username_validator(candidate)
    except ValidationError:
        candidate = ""
    if (
        candidate
        and len(candidate) <= 150
        and not User.objects.filter(username__iexact=candidate).exists()
    ):
        return candidate
    stem = slugify(name, allow_unicode=True)[:40].strip("-") or "organiser"
    while True:
        username = f"{stem}-{secrets.token_hex(3)}"
        if not User.objects.filter(username__iexact=username).exists():
            return username


def account_of(email: str):
    """Return the account a request from ``email`` is for (``None``: a new one is made)."""
    return (
        get_user_model()
        .objects.filter(email__iexact=email.strip(), is_active=True, sign_in_links__isnull=True)
        .order_by("pk")
        .first()
    )


def _organiser_account(request: OrganiserRequest):
    """Return the account of the request's address, or a new one, that may create championships."""
    User = get_user_model()
    user = account_of(request.email)
    if user is None:
        user = User(
            username=_username(request.email, request.name),
            first_name=request.name,
            email=request.email,
        )
        user.set_unusable_password()
    if not user.is_superuser:
        # As ``create_organiser`` makes them: the admin for their own championships too.
        user.is_staff = True
        user.save()
        user.groups.add(services.organisers_group())
    # Read again: a user object keeps the permissions it read before the group was added.
    return User.objects.get(pk=user.pk)


def _locked(request: OrganiserRequest) -> OrganiserRequest:
    return OrganiserRequest.objects.select_for_update().get(pk=request.pk)


def organiser_request_approve(*, request: OrganiserRequest, by) -> OrganiserRequest:
    """Approve ``request``: its account may create championships, and its requester is told.

    Approving it again does nothing; a refused request cannot be approved
    (``ValidationError``): the requester may ask again.
    """
    with transaction.atomic():
        locked = _locked(request)
        if locked.status == Status.APPROVED:
            return locked
        if locked.status == Status.REFUSED:
            raise ValidationError(
                _("This request is refused already. The person may ask again with a new request.")
            )
        user = _organiser_account(locked)
        locked.status = Status.APPROVED
        locked.decided_by = by
        locked.decided_at = timezone.now()
        locked.user = user
        locked.save(update_fields=["status", "decided_by", "decided_at", "user"])
        _queue_approved(locked, user)
    logger.info("Organiser account request %s approved by %s: %s", locked.pk, by, user)
    return locked


def organiser_request_refuse(
    *, request: OrganiserRequest, by, reason: str = ""
) -> OrganiserRequest:
    """Refuse ``request`` (the reason is optional, and mailed to the requester).

    Refusing it again does nothing; an approved request cannot be refused
    (``ValidationError``): its account exists, and is deactivated in the admin.
    """
    reason = str(reason or "").strip()
    try:
        jsonbounds.validate_text(reason)
    except ValidationError as error:
        raise ValidationError({"reason": error.messages}) from None
    if len(reason) > REASON_MAX_LENGTH:
        raise ValidationError({"reason": [_too_long(REASON_MAX_LENGTH)]})
    with transaction.atomic():
        locked = _locked(request)
        if locked.status == Status.REFUSED:
            return locked
        if locked.status == Status.APPROVED:
            raise ValidationError(
                _(
                    "This request is approved already: its account exists. To stop it, "
                    "deactivate the account in the admin."
                )
            )
        locked.status = Status.REFUSED
        locked.decided_by = by
        locked.decided_at = timezone.now()
        locked.refusal_reason = reason
        locked.save(update_fields=["status", "decided_by", "decided_at", "refusal_reason"])
        _queue_refused(locked)
    logger.info("Organiser account request %s refused by %s", locked.pk, by)
    return locked


# Reading -------------------------------------------------------------------------------------


def requests_to_show() -> tuple[list[OrganiserRequest], list[OrganiserRequest]]:
    """Return the pending requests, the oldest first, and the latest decided ones."""
    pending = list(OrganiserRequest.objects.filter(status=Status.PENDING).order_by("created_at"))
    decided = list(
        OrganiserRequest.objects.exclude(status=Status.PENDING)
        .select_related("decided_by", "user")
        .order_by("-decided_at", "-pk")[:DECIDED_SHOWN]
    )
    return pending, decided


# E-mail --------------------------------------------------------------------------------------


def _base_url(what: str, pk: int) -> str:
    base_url = site_url.base_url()
    if not base_url:
        logger.warning(
            "SITE_URL is not set: the mail about organiser account request %s (%s) cannot "
            "link to the site. Set SITE_URL (e.g. https://puzzle.example.org).",
            pk,
            what,
        )
    return base_url


def _queue_notice(request: OrganiserRequest) -> None:
    """Tell each site administrator of a new request, in the site's language."""
    recipients: dict[str, str] = {}
    for user in deciders():
        recipients.setdefault(user.email.strip().casefold(), user.email.strip())
    if not recipients:
        logger.warning(
            "Organiser account request %s: no superuser has an e-mail address to be told.",
            request.pk,
        )
        return
    base_url = site_url.base_url()
    with translation.override(settings.LANGUAGE_CODE):
        context = {
            "asked": request,
            "language": request.get_language_display(),
            "requests_url": base_url + reverse("organisers:requests"),
        }
        subject = render_to_string("control/email/organiser_request_subject.txt", context)
        body = render_to_string("control/email/organiser_request.txt", context)
    for address in recipients.values():
        outbox.queue(
            to=address,
            subject=subject,
            body=body,
            kind=Kind.ORGANISER_REQUEST,
            reference=request.pk,
        )


def _queue_approved(request: OrganiserRequest, user) -> None:
    """Tell the requester, in their language: a sign-in link, or how to log in with a password."""
    base_url = _base_url("approved", request.pk)
    if not base_url:
        return
    by_mail = organiser_links.may_sign_in_by_mail(user)
    with translation.override(request.language):
        context = {
            "name": request.name,
            "username": user.get_username(),
            "site": base_url,
            "by_mail": by_mail,
            "sign_in_url": organiser_links.sign_in_url_placeholder(base_url) if by_mail else "",
            "login_url": base_url + reverse("login"),
            "days": organiser_links.MAX_AGE_DAYS,
        }
        subject = render_to_string("control/email/organiser_approved_subject.txt", context)
        body = render_to_string("control/email/organiser_approved.txt", context)
    outbox.queue(
        to=request.email,
        subject=subject,
        body=body,
        kind=Kind.ORGANISER_APPROVED,
        reference=user.pk,
    )


def _queue_refused(request: OrganiserRequest) -> None:
    """Tell the requester politely, in their language, with the reason when one is given."""
    base_url = _base_url("refused", request.pk)
    with translation.override(request.language):
        context = {"name": request.name, "site": base_url, "reason": request.refusal_reason}
        subject = render_to_string("control/email/organiser_refused_subject.txt", context)
        body = render_to_string("control/email/organiser_refused.txt", context)
    outbox.queue(
        to=request.email,
        subject=subject,
        body=body,
        kind=Kind.ORGANISER_REFUSED,
        reference=request.pk,
    )
