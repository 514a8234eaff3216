"""What judges record at the tables, kept append-only.

A *capture* is one tap of a judge: a finish ("TIME"), the entrant's confirmation,
a piece count at time-up, a declared finish with misplaced pieces, a did-not-start
or a disqualification, or a head judge's correction. Captures are never changed
or deleted one by one; the current result is derived from them.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class AppendOnlyError(Exception):
    """A stored capture was about to be changed or deleted."""


class CaptureQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError("Captures are append-only: record a correction instead.")


class Capture(models.Model):
    """One record of a judge's, with who, when on the device and when on the server."""

    class Kind(models.TextChoices):
        START = "start", _("Own start")
        FINISH = "finish", _("Finish (TIME)")
        CONFIRM = "confirm", _("Confirmed by the entrant")
        PIECES = "pieces", _("Piece count at time-up")
        INCORRECT = "incorrect", _("Finish declared with misplaced pieces")
        DNS = "dns", _("Did not start")
        DSQ = "dsq", _("Disqualified")
        WARNING = "warning", _("Warning")
        CORRECTION = "correction", _("Correction by a head judge")

    client_id = models.UUIDField(
        _("client id"),
        unique=True,
        help_text=_("Generated on the judge's device; makes retries safe."),
    )
    # Only deleting the whole championship removes captures; a round, heat or entry
    # that has captures cannot be deleted on its own (RESTRICT).
    championship = models.ForeignKey(
        "championship.Championship", on_delete=models.CASCADE, related_name="captures"
    )
    round = models.ForeignKey(
        "championship.Round", on_delete=models.RESTRICT, related_name="captures"
    )
    heat = models.ForeignKey(
        "championship.Heat", on_delete=models.RESTRICT, related_name="captures"
    )
    entry = models.ForeignKey(
        "registration.Entry", on_delete=models.RESTRICT, related_name="captures"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="captures",
        verbose_name=_("judge"),
    )
    device_at = models.DateTimeField(
        _("instant on the device"),
        null=True,
        blank=True,
        help_text=_("When the judge tapped, by the phone's clock."),
    )
    received_at = models.DateTimeField(_("instant on the server"), auto_now_add=True)
    elapsed_ms = models.PositiveBigIntegerField(
        _("elapsed (ms)"), null=True, blank=True, help_text=_("From the entry's start.")
    )
    last_piece_ms = models.PositiveBigIntegerField(
        _("last piece placed (ms)"),
        null=True,
        blank=True,
        help_text=_("When a piece missing at TIME was found and placed (late last piece)."),
    )
    missing_found = models.PositiveSmallIntegerField(_("missing, found later"), default=0)
    missing_lost = models.PositiveSmallIntegerField(_("missing, lost"), default=0)
    adjacent_missing = models.PositiveSmallIntegerField(
        _("adjacent pieces lost"),
        default=0,
        help_text=_("Of the lost pieces, how many were missing side by side (two or more)."),
    )
    pieces_placed = models.PositiveIntegerField(_("pieces placed"), null=True, blank=True)
    pieces_remaining = models.PositiveIntegerField(_("pieces remaining"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    second_count = models.BooleanField(
        _("second count asked for"),
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "Of a piece count: whether the championship asked for a second judge's count "
            "when it was recorded. The count keeps that rule."
        ),
    )
    payload = models.JSONField(_("as received"), default=dict, blank=True)

    objects = CaptureQuerySet.as_manager()

    class Meta:
        ordering = ["received_at", "id"]
        verbose_name = _("capture")
        verbose_name_plural = _("captures")
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    kind__in=[
                        "start",
                        "finish",
                        "confirm",
                        "pieces",
                        "incorrect",
                        "dns",
                        "dsq",
                        "warning",
                        "correction",
                    ]
                ),
                name="capture_kind_known",
            ),
            models.CheckConstraint(
                condition=~Q(kind="finish") | Q(elapsed_ms__isnull=False),
                name="capture_finish_has_time",
            ),
            models.CheckConstraint(
                condition=~Q(kind="pieces")
                | Q(pieces_placed__isnull=False)
                | Q(pieces_remaining__isnull=False),
                name="capture_pieces_has_count",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=["correction", "dsq", "warning"]) | ~Q(reason=""),
                name="capture_reason_given",
            ),
        ]
        indexes = [models.Index(fields=["round", "entry", "received_at"], name="capture_trail")]

    def __str__(self):
        return f"{self.get_kind_display()} – {self.entry} ({self.received_at:%H:%M:%S})"

    def save(self, *args, **kwargs):
        if self.pk is not None and not self._state.adding:
            raise AppendOnlyError("Captures are append-only: record a correction instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("Captures are append-only: they cannot be deleted one by one.")
