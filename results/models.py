"""An entry's result in a round: the judges' inputs and what the rules derive from them.

Results are derived from the append-only captures of ``judging``; the input
fields are the current state of those captures, the derived fields are what the
rulebook makes of them (outcome, penalty, final time, places, qualification,
prize).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class CountState(models.TextChoices):
    """Where an entry's piece count at time-up stands (``judging.derive``)."""

    SINGLE = "single", _("Counted")
    AWAITING_SECOND = "awaiting_second", _("Waiting for a second count")
    AGREED = "agreed", _("Two counts agree")
    DISPUTED = "disputed", _("Counts differ: the head judge decides")
    DECIDED = "decided", _("Decided by the head judge")


class Result(models.Model):
    CountState = CountState

    class Status(models.TextChoices):
        PENDING = "pending", _("Puzzling")
        FINISHED = "finished", _("Finished")
        UNFINISHED = "unfinished", _("Not finished")
        DNS = "dns", _("Did not start")
        DSQ = "dsq", _("Disqualified")

    class Outcome(models.TextChoices):
        COMPLETED = "completed", _("Completed")
        UNFINISHED = "unfinished", _("Not completed")
        INVALID = "invalid", _("Invalid")
        DNS = "dns", _("Did not start")
        DSQ = "dsq", _("Disqualified")

    class QualifiedBy(models.TextChoices):
        COUNTRY = "country", _("Country place")
        CLASSIFICATION = "classification", _("Classification")

    round = models.ForeignKey(
        "championship.Round", on_delete=models.CASCADE, related_name="results"
    )
    heat = models.ForeignKey("championship.Heat", on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(
        "registration.Entry", on_delete=models.CASCADE, related_name="results"
    )

    # Inputs, as the judges recorded them (``championship.scoring.JUDGED_FIELDS`` names them).
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.PENDING
    )
    time_ms = models.PositiveBigIntegerField(
        _("recorded time (ms)"), null=True, blank=True, help_text=_("Before penalties.")
    )
    missing_found = models.PositiveSmallIntegerField(_("missing, found later"), default=0)
    missing_lost = models.PositiveSmallIntegerField(_("missing, lost"), default=0)
    adjacent_missing = models.PositiveSmallIntegerField(
        _("adjacent pieces lost"),
        default=0,
        help_text=_("Of the lost pieces, how many were missing side by side (two or more)."),
    )
    last_piece_ms = models.PositiveBigIntegerField(
        _("last piece placed (ms)"), null=True, blank=True
    )
    pieces_placed = models.PositiveIntegerField(_("pieces placed"), null=True, blank=True)
    incorrect = models.BooleanField(_("finish declared with misplaced pieces"), default=False)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    count_state = models.CharField(
        _("piece count"),
        max_length=20,
        choices=CountState.choices,
        blank=True,
        help_text=_("Where the piece count at time-up stands; empty without a count."),
    )
    imported = models.JSONField(
        _("as imported"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("The judged fields as an import gave them; captures apply on top."),
    )

    # Derived by the rules.
    outcome = models.CharField(
        _("outcome"),
        max_length=20,
        choices=Outcome.choices,
        blank=True,
        help_text=_("Empty while the entry is still puzzling."),
    )
    penalty_ms = models.PositiveBigIntegerField(_("penalty (ms)"), default=0)
    final_ms = models.PositiveBigIntegerField(_("final time (ms)"), null=True, blank=True)
    counted_pieces = models.PositiveIntegerField(_("counted pieces"), null=True, blank=True)
    official = models.BooleanField(_("official"), default=True)
    place = models.PositiveIntegerField(_("place"), null=True, blank=True)
    official_place = models.PositiveIntegerField(_("official place"), null=True, blank=True)
    qualified = models.BooleanField(_("qualified"), default=False)
    qualified_by = models.CharField(
        _("qualified by"),
        max_length=20,
        choices=QualifiedBy.choices,
        blank=True,
        help_text=_("How a qualifier went on, where the round gives country places."),
    )
    prize = models.PositiveSmallIntegerField(_("prize"), null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round", F("place").asc(nulls_last=True), "entry__name"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "entry"], name="result_one_per_entry_per_round"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "finished", "unfinished", "dns", "dsq"]),
                name="result_status_known",
            ),
            models.CheckConstraint(
                condition=~Q(status="finished") | Q(time_ms__isnull=False),
                name="result_finished_has_time",
            ),
            models.CheckConstraint(
                condition=Q(adjacent_missing__lte=F("missing_lost")),
                name="result_adjacent_among_lost",
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1), name="result_place_positive"
            ),
            models.CheckConstraint(
                condition=Q(official_place__isnull=True)
                | (Q(official_place__gte=1) & Q(official=True)),
                name="result_official_place_only_official",
            ),
            models.CheckConstraint(
                condition=Q(prize__isnull=True) | Q(prize__in=[1, 2, 3]), name="result_prize_range"
            ),
        ]
        indexes = [models.Index(fields=["round", "place"], name="result_standing")]

    def __str__(self):
        return f"{self.entry} – {self.round}"

    @property
    def final_seconds(self) -> int | None:
        """Return the final time in whole seconds, truncated, as it is ranked."""
        return None if self.final_ms is None else self.final_ms // 1000


class RoundRanking(models.Model):
    """How far a round's stored places are ranked: the round's version they reflect.

    A judge's capture stores the entry's result and outcome and moves the round's
    version on, without ranking the round; whoever reads the standings next ranks
    them (``results.services.standings_ensure``). The row is also the lock that
    keeps two rankings of a round from interleaving, apart from the round's own
    row, so that ranking never holds up a capture.
    """

    # Without a foreign-key constraint in the database: creating the row would
    # otherwise lock the round's row (FOR KEY SHARE) and could wait for a service
    # that holds the round and waits for this ranking. Django still cascades.
    round = models.OneToOneField(
        "championship.Round",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="ranking",
        db_constraint=False,
    )
    version = models.PositiveBigIntegerField(_("ranked version"), default=0)

    class Meta:
        verbose_name = _("round ranking")
        verbose_name_plural = _("round rankings")

    def __str__(self):
        return f"{self.round} @ {self.version}"


class QualifierWithdrawal(models.Model):
    """A qualifier of a round whom the organiser withdrew from the round it goes to.

    Stored apart from the result's derived fields, which every ranking writes
    anew: each ranking of the round gives the places by the rule, then replaces
    the withdrawn, in the order they were withdrawn
    (``results.services.qualifiers_of``, through
    ``championship.rules.country_places.after_withdrawals``). Re-ranking the
    round (a correction, an import) therefore keeps the withdrawal and offers
    the place again by the rule. Deleting the row undoes the withdrawal.
    """

    result = models.OneToOneField(
        Result, on_delete=models.CASCADE, related_name="withdrawal", verbose_name=_("result")
    )
    withdrawn_at = models.DateTimeField(_("withdrawn at"), default=timezone.now)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("withdrawn by"),
    )

    class Meta:
        ordering = ["withdrawn_at", "pk"]
        verbose_name = _("qualifier's withdrawal")
        verbose_name_plural = _("qualifiers' withdrawals")

    def __str__(self):
        return f"{self.result} ({self.withdrawn_at:%Y-%m-%d %H:%M})"
