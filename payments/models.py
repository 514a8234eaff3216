"""A bank statement as uploaded, its credits with their match, and the CSV layouts mapped."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from championship.models import Championship
from registration.models import Entry


class Statement(models.Model):
    """A file the bank delivered, read once: who uploaded it, when, and when it was applied."""

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="statements"
    )
    file_name = models.CharField(_("file"), max_length=200)
    # The same file again (byte for byte) is the same statement: it changes nothing.
    sha256 = models.CharField(max_length=64)
    kind = models.CharField(_("kind"), max_length=20)
    account = models.CharField(_("account"), max_length=42, blank=True)
    currency = models.CharField(_("currency"), max_length=3, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField(_("uploaded"), default=timezone.now)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    applied_at = models.DateTimeField(_("applied"), null=True, blank=True)

    class Meta:
        ordering = ["-uploaded_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "sha256"], name="statement_once_per_championship"
            )
        ]

    def __str__(self):
        return self.file_name


class StatementLine(models.Model):
    """One credit of a statement, and what it pays."""

    class Status(models.TextChoices):
        MATCHED = "matched", _("Matched")
        PARTIAL = "partial", _("Partly paid")
        OVERPAID = "overpaid", _("Overpaid")
        UNKNOWN = "unknown", _("Unknown")
        DUPLICATE = "duplicate", _("Already read")

    statement = models.ForeignKey(Statement, on_delete=models.CASCADE, related_name="lines")
    position = models.PositiveIntegerField()
    booked_on = models.DateField(_("booked"), null=True)
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)
    currency = models.CharField(max_length=3, blank=True)
    reference = models.CharField(_("reference"), max_length=140, blank=True)
    message = models.CharField(_("message"), max_length=500, blank=True)
    payer = models.CharField(_("payer"), max_length=200, blank=True)
    # What tells this credit from others across overlapping statements: the bank's own
    # reference, else its date, amount and texts (with its rank among equal ones).
    fingerprint = models.CharField(max_length=200)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="payment_lines"
    )
    # Without a reference: the entry its amount and payer suggest, to confirm before applying.
    suggested = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["statement", "position"]
        indexes = [models.Index(fields=["fingerprint"], name="statement_line_fingerprint")]

    def __str__(self):
        return f"{self.statement} #{self.position}"


class BankLayout(models.Model):
    """The columns of a bank's CSV export, as an organiser mapped them once (by its header)."""

    signature = models.CharField(max_length=64, unique=True)
    header = models.JSONField()
    columns = models.JSONField()
    decimal_comma = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return ", ".join(self.header)


class Refund(models.Model):
    """A fee paid back, as the organiser recorded it: to whom, why, how much, who, when."""

    class Reason(models.TextChoices):
        WITHDRAWN = "withdrawn", _("Withdrawn before the refund deadline")
        CANCELLED = "cancelled", _("The championship is cancelled")
        OVERPAID = "overpaid", _("Paid more than the fee")

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="refunds")
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)
    done_at = models.DateTimeField(_("refunded"), default=timezone.now)
    done_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-done_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "reason"], name="refund_once_per_reason")
        ]

    def __str__(self):
        return f"{self.entry} {self.amount}"
