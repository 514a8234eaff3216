"""Forms that act in bulk, each submission stored once: the same form twice acts once."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from championship.models.championship import Championship


class Submission(models.Model):
    """A bulk action's form (a message to the entrants, an advance), as first submitted.

    The form carries a random token; the action's service stores it in the
    transaction of its change (``championship.submissions``). The constraint
    holds a token once per championship, so the same form submitted again, even
    at the same instant, finds it instead of acting twice.
    """

    class Action(models.TextChoices):
        MESSAGE = "message", _("Message to entrants")
        ADVANCE = "advance", _("Advance the qualified")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="submissions"
    )
    token = models.CharField(_("token"), max_length=64)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    # What the first submission did, for the answer to the next: the mails it queued.
    count = models.PositiveIntegerField(_("count"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")
        constraints = [
            models.UniqueConstraint(fields=["championship", "token"], name="submission_once"),
            models.CheckConstraint(
                condition=Q(action__in=["message", "advance"]), name="submission_action_known"
            ),
        ]

    def __str__(self):
        return f"{self.get_action_display()} {self.token}"
