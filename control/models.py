"""The site's own records above the championships: a request for an organiser account.

A request is site-level (no championship), and approving one makes an account
that may create championships, the permission ``control.views.setup`` checks for
"New championship": so it lives here, beside that page, and not in the base,
which knows nothing of who may create a championship.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

NAME_MAX_LENGTH = 150  # a user's first_name holds the whole name
EMAIL_MAX_LENGTH = 254
CLUB_MAX_LENGTH = 200
MESSAGE_MAX_LENGTH = 2000
REASON_MAX_LENGTH = 1000


class OrganiserRequest(models.Model):
    """Someone's request for an organiser account, and the site administrators' decision.

    Anyone may ask (``/organisers/request/``, ``POST /api/v1/organiser-requests/``);
    a site administrator approves or refuses it at ``/organisers/requests/``
    (``control.organiser_requests``). Approving finds or makes the account,
    ``user``, which may then create championships; the requester is told by
    e-mail in ``language``, the language they asked in.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for a decision")
        APPROVED = "approved", _("Approved")
        REFUSED = "refused", _("Refused")

    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    email = models.EmailField(_("e-mail"), max_length=EMAIL_MAX_LENGTH)
    club = models.CharField(_("club"), max_length=CLUB_MAX_LENGTH, blank=True)
    message = models.TextField(_("championship planned"), max_length=MESSAGE_MAX_LENGTH)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    refusal_reason = models.TextField(
        _("reason for refusing"), max_length=REASON_MAX_LENGTH, blank=True
    )
    # The account the approval made or found; kept when the request is deleted, and the
    # request is kept when the account is.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="organiser_requests",
        verbose_name=_("account"),
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("organiser account request")
        verbose_name_plural = _("organiser account requests")
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "approved", "refused"]),
                name="organiser_request_status_known",
            ),
            # A decision says when it was taken; a pending request has none.
            models.CheckConstraint(
                condition=Q(status="pending", decided_at__isnull=True)
                | (~Q(status="pending") & Q(decided_at__isnull=False)),
                name="organiser_request_decided_has_decided_at",
            ),
            models.CheckConstraint(
                condition=Q(status="refused") | Q(refusal_reason=""),
                name="organiser_request_reason_only_when_refused",
            ),
            # One address waits for one decision at a time, whatever its letters' case.
            models.UniqueConstraint(
                Lower("email"),
                condition=Q(status="pending"),
                name="organiser_request_one_pending_per_email",
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="organiser_request_status")]

    def __str__(self):
        return f"{self.name} <{self.email}> ({self.get_status_display()})"

    @property
    def pending(self) -> bool:
        return self.status == self.Status.PENDING
