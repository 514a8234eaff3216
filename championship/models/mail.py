"""The e-mail outbox: every message is stored before it is sent."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from championship.models.championship import Championship


class OutgoingMail(models.Model):
    """An e-mail in the outbox: written with the change that causes it, sent by the outbox.

    The mail is rendered when it is queued (in its recipient's language), so a
    retry sends the same words; ``championship.outbox`` sends it and retries it
    with back-off until it is sent or the attempts run out. A sign-in link's
    secret is not stored: its body holds ``outbox.SECRET`` in its place, filled
    in when the mail is sent.
    """

    class Kind(models.TextChoices):
        REGISTERED = "registered", _("Registration")
        PROMOTED = "promoted", _("Place from the waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawal")
        NEW_LINK = "new_link", _("New private link")
        SIGN_IN_LINK = "sign_in_link", _("Sign-in link")
        SEATING = "seating", _("Seating published")
        ADVANCED = "advanced", _("Advanced to the next round")
        RESULTS = "results", _("Official results")
        MESSAGE = "message", _("Message from the organiser")
        OFFERED = "offered", _("A place offered")
        OFFER_LAPSED = "offer_lapsed", _("Offer lapsed")
        PAYMENT_REMINDER = "payment_reminder", _("Payment reminder")
        PAYMENT_LAPSED = "payment_lapsed", _("Released for non-payment")
        ADDRESS = "address", _("E-mail address to confirm")
        PASSWORD_RESET = "password_reset", _("Password reset")
        # Site-level, without a championship (control.organiser_requests, .organiser_links).
        ORGANISER_REQUEST = "organiser_request", _("Organiser account asked for")
        ORGANISER_APPROVED = "organiser_approved", _("Organiser account approved")
        ORGANISER_REFUSED = "organiser_refused", _("Organiser account refused")
        ORGANISER_LINK = "organiser_link", _("Organiser's sign-in link")

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Cancelled")

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="outgoing_mail",
        verbose_name=_("championship"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    # What the mail is about: the entry's id, the sign-in link's, the person's (``ADDRESS``),
    # or the user's (``PASSWORD_RESET``, ``ORGANISER_APPROVED``, ``ORGANISER_LINK``, without a
    # championship), the organiser account request's (``ORGANISER_REQUEST``, ``…_REFUSED``).
    reference = models.BigIntegerField(_("reference"), null=True, blank=True)
    to = models.EmailField(_("recipient"), max_length=254)
    subject = models.TextField(_("subject"))
    body = models.TextField(_("body"))
    state = models.CharField(_("state"), max_length=20, choices=State.choices, default=State.QUEUED)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_attempt_at = models.DateTimeField(_("last attempt"), null=True, blank=True)
    last_error = models.TextField(_("last error"), blank=True)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    # The site's address where the mail was queued (a request's, or ``SITE_URL``), for what
    # is made as it is sent (an attachment) outside that request.
    site = models.CharField(_("site address"), max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("outgoing e-mail")
        verbose_name_plural = _("outgoing e-mails")
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["queued", "sent", "failed", "cancelled"]),
                name="outgoing_mail_state_known",
            ),
            # A queued mail has its next attempt; any other is done with.
            models.CheckConstraint(
                condition=Q(state="queued", next_attempt_at__isnull=False)
                | (~Q(state="queued") & Q(next_attempt_at__isnull=True)),
                name="outgoing_mail_queued_has_next_attempt",
            ),
            models.CheckConstraint(
                condition=Q(state="sent", sent_at__isnull=False)
                | (~Q(state="sent") & Q(sent_at__isnull=True)),
                name="outgoing_mail_sent_has_sent_at",
            ),
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                condition=Q(state="queued"),
                name="outgoing_mail_due",
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} → {self.to} ({self.get_state_display()})"

    @property
    def failing(self) -> bool:
        """Whether the mail is not sent and an attempt to send it failed."""
        return self.state == self.State.FAILED or (
            self.state == self.State.QUEUED and self.attempts > 0
        )
