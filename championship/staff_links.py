"""Personal sign-in links: a championship's staff sign in on a phone without a password.

Terms:

sign-in link
    ``/s/<token>/``. Opening it shows whom it signs in as, and its button (a
    POST) signs the browser in as its person, for the championship that made it.
    It works until the organiser revokes it; one person has one working link at
    a time (a new link revokes the old one).
person
    The organiser adds staff by name (and e-mail, optional). Each person gets a
    user of their own: a generated user name, no password (the link is their
    only way in), and a role in this championship only. An e-mail address is
    never matched to an existing user: a link to someone else's account would
    hand their rights (in other championships too) to whoever holds the link.
token
    128 random bits, derived from the link's ``nonce`` with ``SECRET_KEY``
    (HMAC-SHA256), so that the badge can be printed again at any time while the
    database holds only ``nonce`` and the token's SHA-256. A token is looked up
    by its hash: the comparison happens on the hash, never on the secret, and
    guessing among 2^128 tokens is pointless. Changing ``SECRET_KEY`` keeps
    printed links working; a link made under an old key can be printed again
    as long as the key is in ``SECRET_KEY_FALLBACKS``.
revoking
    Stops the link at once and signs out every browser signed in with it: the
    person's password marker is renewed, which changes the hash Django keeps in
    each of the person's sessions, so their next request finds itself logged out.
"""

from __future__ import annotations

import logging
import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship import outbox, staff
from championship.models import Championship, ChampionshipRole, OutgoingMail, SignInLink
from core import site_url, tokens
from core.people import person_name

logger = logging.getLogger(__name__)

Role = ChampionshipRole.Role

KEY_SALT = "championship.staff_links.SignInLink"
NAME_MAX_LENGTH = 150  # the user's first_name holds the whole name
EMAIL_MAX_LENGTH = 254


def token_hash(token: str) -> str:
    """Return the hash under which a token is stored."""
    return tokens.token_hash(token)


def sign_in_token(link: SignInLink) -> str | None:
    """Return the secret of ``link``, or ``None`` when no key the site knows made it."""
    return tokens.stored_token(link.nonce, link.token_hash, salt=KEY_SALT)


def sign_in_path(link: SignInLink) -> str | None:
    token = sign_in_token(link)
    return None if token is None else reverse("sign_in", kwargs={"token": token})


def sign_in_url(link: SignInLink, *, base_url: str | None = None) -> str | None:
    """Return the absolute address of ``link`` (``None`` when it can no longer be shown).

    ``base_url`` is the site's address taken when a mail was queued; without it,
    ``SITE_URL`` or the request being answered gives the address.
    """
    path = sign_in_path(link)
    if path is None:
        return None
    if base_url is None:
        return site_url.absolute_url(path)
    return base_url.rstrip("/") + path


def link_for_token(token: str) -> SignInLink | None:
    """Return the link of ``token``, revoked or not, or ``None`` when there is none."""
    if not tokens.is_derived_token(token):
        return None
    return (
        SignInLink.objects.select_related("championship", "user")
        .filter(token_hash=token_hash(token))
        .first()
    )


def _new_secret() -> tuple[str, str]:
    return tokens.new_derived(salt=KEY_SALT)


def _username(name: str) -> str:
    """Return a free user name made from the person's name, e.g. ``kari-nordmann-3f9a1c``."""
    User = get_user_model()
    stem = slugify(name, allow_unicode=True)[:40].strip("-") or "staff"
    while True:
        username = f"{stem}-{secrets.token_hex(3)}"
        if not User.objects.filter(username=username).exists():
            return username


def _clean(name: str, email: str, role: str) -> tuple[str, str]:
    errors = {}
    name = " ".join((name or "").split())
    email = (email or "").strip()
    if not name:
        errors["name"] = _("Give the person's name.")
    elif len(name) > NAME_MAX_LENGTH:
        errors["name"] = ngettext(
            "The name is too long (at most %(count)d character).",
            "The name is too long (at most %(count)d characters).",
            NAME_MAX_LENGTH,
        ) % {"count": NAME_MAX_LENGTH}
    if email:
        try:
            validate_email(email)
            if len(email) > EMAIL_MAX_LENGTH:
                raise ValidationError(validate_email.message)
        except ValidationError as error:
            errors["email"] = error.messages
    if role not in Role.values:
        errors["role"] = _("Choose judge, head judge or organiser.")
    if errors:
        raise ValidationError(errors)
    return name, email


def link_create(
    *, championship: Championship, name: str, email: str = "", role: str, by, send: bool = True
) -> SignInLink:
    """Add a person to the championship's staff with ``role`` and return their sign-in link.

    The person gets a user of their own, without a password. With an e-mail
    address and ``send``, the link is mailed to them once the transaction commits.
    """
    name, email = _clean(name, email, role)
    User = get_user_model()
    with transaction.atomic():
        user = User(username=_username(name), first_name=name, email=email)
        user.set_unusable_password()
        user.save()
        ChampionshipRole.objects.create(championship=championship, user=user, role=role)
        nonce, hashed = _new_secret()
        link = SignInLink.objects.create(
            championship=championship,
            user=user,
            role=role,
            nonce=nonce,
            token_hash=hashed,
            created_by=by,
        )
        if send and email:
            _queue_mail(link)
    logger.info("Sign-in link %s made for %s (%s) in %s", link.pk, user, role, championship.slug)
    return link


def _sign_out_everywhere(user) -> None:
    """End every session of ``user``: a new password marker changes their sessions' hash."""
    user.set_unusable_password()
    user.save(update_fields=["password"])


def _lock_person(link: SignInLink):
    # One person's links change one request at a time: lock their user first.
    return get_user_model().objects.select_for_update().get(pk=link.user_id)


def link_revoke(*, link: SignInLink, by) -> SignInLink:
    """Stop ``link`` at once and sign out every browser signed in with it (idempotent)."""
    with transaction.atomic():
        user = _lock_person(link)
        link = SignInLink.objects.get(pk=link.pk)
        if link.revoked_at is not None:
            return link
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        _sign_out_everywhere(user)
    logger.info("Sign-in link %s revoked by %s", link.pk, by)
    return link


def link_renew(*, link: SignInLink, by, send: bool = False) -> SignInLink:
    """Give the person of ``link`` a new link in its role: their working one stops.

    For a lost badge, or a link that went to the wrong place: every phone
    signed in as the person is signed out.
    """
    with transaction.atomic():
        user = _lock_person(link)
        SignInLink.objects.filter(user=user, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        _sign_out_everywhere(user)
        # The role goes with the link: an admin may have removed it meanwhile.
        ChampionshipRole.objects.get_or_create(
            championship_id=link.championship_id, user=user, role=link.role
        )
        nonce, hashed = _new_secret()
        new = SignInLink.objects.create(
            championship_id=link.championship_id,
            user=user,
            role=link.role,
            nonce=nonce,
            token_hash=hashed,
            created_by=by,
        )
        if send and user.email:
            _queue_mail(new)
    logger.info("Sign-in link %s replaced by %s", link.pk, new.pk)
    return new


def link_send(*, link: SignInLink) -> None:
    """Mail ``link`` to its person once the transaction commits (they need an e-mail address)."""
    if not link.active or not link.user.email:
        raise ValidationError(_("This link cannot be sent: it is revoked, or has no e-mail."))
    with transaction.atomic():
        _queue_mail(link)


def link_use(*, link: SignInLink) -> None:
    """Record that ``link`` was opened now."""
    now = timezone.now()
    SignInLink.objects.filter(pk=link.pk).update(last_used_at=now)
    link.last_used_at = now
    logger.info("Sign-in link %s opened (%s)", link.pk, link.user)


# E-mail ------------------------------------------------------------------------------------------


def _queue_mail(link: SignInLink) -> None:
    """Write the mail of ``link`` to the outbox, in the championship's language.

    The outbox keeps ``outbox.SECRET`` in the token's place: the database holds
    no working link, and ``_finish_mail`` fills it in when the mail is sent.
    """
    link = SignInLink.objects.select_related("championship", "user", "created_by").get(pk=link.pk)
    if not link.active or not link.user.email:
        return
    base_url = site_url.base_url()
    if not base_url:
        logger.warning(
            "SITE_URL is not set: the sign-in link %s cannot be mailed without the site's "
            "address. Set SITE_URL (e.g. https://puzzle.example.org).",
            link.pk,
        )
        return
    championship = link.championship
    with translation.override(championship.language):
        context = {
            "link": link,
            "name": link.name,
            "role": Role(link.role).label,
            "championship": championship,
            "sign_in_url": base_url + reverse("sign_in", kwargs={"token": outbox.SECRET}),
            "organiser": person_name(link.created_by) if link.created_by else "",
        }
        subject = render_to_string("championship/email/sign_in_link_subject.txt", context)
        body = render_to_string("championship/email/sign_in_link.txt", context)
    outbox.queue(
        to=link.user.email,
        subject=subject,
        body=body,
        kind=OutgoingMail.Kind.SIGN_IN_LINK,
        reference=link.pk,
        championship=championship,
    )


def _finish_mail(mail: OutgoingMail) -> str | None:
    """Put the link's secret in its mail; ``None`` when the link no longer works."""
    link = SignInLink.objects.select_related("user").filter(pk=mail.reference).first()
    token = sign_in_token(link) if link is not None and link.active else None
    if token is None:
        return None
    return mail.body.replace(outbox.SECRET, token)


outbox.register_finisher(OutgoingMail.Kind.SIGN_IN_LINK, _finish_mail)


# Reading ---------------------------------------------------------------------------------------


# The staff page lists organisers first, then head judges, then judges.
RANK = {Role.ORGANISER: 0, Role.HEAD_JUDGE: 1, Role.JUDGE: 2}


def latest_links(championship: Championship) -> list[SignInLink]:
    """Return the championship's links, the working ones first, each person's latest only."""
    links = (
        SignInLink.objects.filter(championship=championship)
        .select_related("user")
        .order_by("-created_at", "-pk")
    )
    latest: dict[int, SignInLink] = {}
    for link in links:
        latest.setdefault(link.user_id, link)
    return sorted(
        latest.values(),
        key=lambda link: (not link.active, RANK[link.role], link.name.casefold()),
    )


def landing_url(link: SignInLink) -> str:
    """Return where a person lands after signing in: the screen their role starts from.

    An organiser: the control room; a head judge: the judging dashboard of the
    round to judge now; a judge: the home page, which lists their tables.
    """
    championship = link.championship
    if link.role == Role.ORGANISER:
        return reverse("manage:control_room", kwargs={"championship_slug": championship.slug})
    if link.role == Role.HEAD_JUDGE:
        for card in staff.staff_championships(link.user):
            if card.championship.pk == championship.pk and card.current:
                return reverse(
                    "manage:dashboard",
                    kwargs={
                        "championship_slug": championship.slug,
                        "round_key": card.current[0].key,
                    },
                )
    return reverse("home")
