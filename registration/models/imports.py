"""A CSV file of entries, kept between its preview and its confirmed import."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from championship.models import Championship, new_token


class StoredImport(models.Model):
    """An uploaded CSV file of entries, kept between its preview and its confirmation; then
    the import's job, run in batches (``registration.csv_jobs``).

    The file's text stays on the server (never in the page). Confirming the import
    claims the row (``state`` from stored to queued or running) on the condition
    that it was stored: a second confirmation (a double click, a second tab) finds
    it claimed and imports nothing. The claim keeps the rows to import (``rows``,
    as read at the confirmation) in place of the text; each batch of them is saved
    in one transaction with the job's progress (``rows_done``), so a job that stops
    midway resumes where it stopped, and the organiser sees how far it got.
    """

    class State(models.TextChoices):
        STORED = "stored", _("Waiting for confirmation")
        QUEUED = "queued", _("Waiting to be imported")
        RUNNING = "running", _("Importing")
        DONE = "done", _("Imported")
        FAILED = "failed", _("Stopped")

    token = models.CharField(max_length=32, unique=True, default=new_token)
    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="stored_imports"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stored_imports"
    )
    filename = models.CharField(max_length=255, blank=True)
    category_key = models.CharField(max_length=50, blank=True)
    text = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    done_at = models.DateTimeField(null=True, blank=True)
    # The job, from the confirmation on.
    state = models.CharField(max_length=20, choices=State.choices, default=State.STORED)
    rows = models.JSONField(default=list, blank=True)
    rows_total = models.PositiveIntegerField(default=0)
    rows_done = models.PositiveIntegerField(default=0)
    confirmed = models.PositiveIntegerField(default=0)
    waitlisted = models.PositiveIntegerField(default=0)
    # The rows the rules refused when they were saved: ``{"line": …, "reasons": […]}``.
    refused = models.JSONField(default=list, blank=True)
    # The file's rows not imported: with problems (skipped) or withdrawn in the file.
    left_out = models.PositiveIntegerField(default=0)
    # The organiser's language, for the reasons of refused rows.
    language = models.CharField(max_length=8, blank=True)
    progressed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("stored import")
        verbose_name_plural = _("stored imports")
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["stored", "queued", "running", "done", "failed"]),
                name="stored_import_state_known",
            ),
            models.CheckConstraint(
                condition=Q(rows_done__lte=F("rows_total")), name="stored_import_rows_done"
            ),
        ]
        indexes = [models.Index(fields=["state", "progressed_at"], name="stored_import_jobs")]

    def __str__(self):
        return self.filename or self.token
