"""A category's rounds, their heats, the venue's tables and the seats that put entries at them."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from championship import bounds
from championship.models.championship import Category, Championship, new_token
from championship.rules import country_places, timing


class Round(models.Model):
    """A round of a category: preliminary heats, a semifinal or the final."""

    class Stage(models.TextChoices):
        PRELIM = "prelim", _("Preliminary round")
        SEMIFINAL = "semifinal", _("Semifinal")
        FINAL = "final", _("Final")

    class State(models.TextChoices):
        PLANNED = "planned", _("Planned")
        SEATED = "seated", _("Seated")
        RUNNING = "running", _("Running")
        CLOSED = "closed", pgettext_lazy("round state", "Closed")
        # Signed off: the results are official (the value is the API's, kept from before).
        PUBLISHED = "published", pgettext_lazy("round state", "Official")

    class Advance(models.TextChoices):
        NONE = "none", _("Nobody advances")
        OVERALL = "overall", _("The best N overall")
        PER_HEAT = "per_heat", _("The best N per heat, then the best M remaining")
        COUNTRY = "country", _("N places: the first K countries' best, then by classification")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="rounds", editable=False
    )
    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="rounds")
    key = models.SlugField(
        _("key"), max_length=60, help_text=_("Unique in the championship, e.g. individual-final.")
    )
    name = models.CharField(
        _("name"), max_length=100, blank=True, help_text=_("Empty: the stage's name.")
    )
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    stage = models.CharField(_("stage"), max_length=20, choices=Stage.choices)
    state = models.CharField(
        _("state"), max_length=20, choices=State.choices, default=State.PLANNED
    )
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit (minutes)"),
        null=True,
        blank=True,
        help_text=_("Empty: the category's time limit."),
    )
    # The validators repeat the check constraints (Meta) in Python: full_clean refuses what
    # the database would, with the field's message, without a query for each constraint.
    pieces = models.PositiveIntegerField(
        _("pieces per puzzle"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Empty: the category's pieces."),
    )
    puzzles = models.PositiveSmallIntegerField(
        _("puzzles"),
        default=1,
        validators=[MinValueValidator(1)],
        help_text=_("Puzzles done in the round and counted together (a team's two puzzles: 2)."),
    )
    into = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="fed_by",
        verbose_name=_("qualifiers go to"),
        help_text=_(
            "The round this round's qualifiers go to; several groups may feed one round. "
            "Empty: the category's next round."
        ),
    )
    advance = models.CharField(
        _("advancement"), max_length=20, choices=Advance.choices, default=Advance.NONE
    )
    advance_count = models.PositiveSmallIntegerField(
        _("advance: N"), null=True, blank=True, help_text=_("Overall, or per heat.")
    )
    advance_best_remaining = models.PositiveSmallIntegerField(
        _("advance: best M remaining"), null=True, blank=True
    )
    advance_country_places = models.PositiveSmallIntegerField(
        _("advance: country places K"),
        null=True,
        blank=True,
        help_text=_("Empty: every country."),
    )
    advance_country_requires_completion = models.BooleanField(
        _("a country place needs a completed puzzle"), default=False
    )
    advance_per_country = models.PositiveSmallIntegerField(
        _("country places per country"), default=1, validators=[MinValueValidator(1)]
    )
    advance_only_countries_without_qualifier = models.BooleanField(
        _("country places only for countries without a qualifier, on top of N"),
        default=False,
    )
    seating_published_at = models.DateTimeField(
        _("seating published at"),
        null=True,
        blank=True,
        help_text=_("From then on entrants see their heat and table, and seats no longer move."),
    )
    official_at = models.DateTimeField(
        _("official since"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("When a head judge or organiser signed the results off."),
    )
    official_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("signed off by"),
    )
    corrections = models.JSONField(
        _("corrections after sign-off"),
        default=list,
        blank=True,
        editable=False,
        help_text=_("Each head judge's correction of an official result: when, and why."),
    )
    version = models.PositiveBigIntegerField(
        _("results version"),
        default=1,
        editable=False,
        help_text=_("Changes whenever the round's results change."),
    )
    captures_version = models.PositiveBigIntegerField(
        _("captures version"),
        default=1,
        editable=False,
        help_text=_(
            "Changes with every capture, also one the results do not show (a confirmation)."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["championship", "category__order", "order"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["championship", "key"], name="round_key_unique"),
            models.UniqueConstraint(fields=["category", "order"], name="round_order_unique"),
            models.CheckConstraint(
                condition=(
                    Q(
                        advance="none",
                        advance_count__isnull=True,
                        advance_best_remaining__isnull=True,
                    )
                    | Q(
                        advance="overall",
                        advance_count__isnull=False,
                        advance_count__gte=1,
                        advance_best_remaining__isnull=True,
                    )
                    | Q(
                        advance="per_heat",
                        advance_count__isnull=False,
                        advance_best_remaining__isnull=False,
                    )
                    | Q(
                        advance="country",
                        advance_count__isnull=False,
                        advance_count__gte=1,
                        advance_best_remaining__isnull=True,
                    )
                ),
                name="round_advance_settings",
            ),
            # One constraint, not three: validating a round runs a query for each.
            models.CheckConstraint(
                condition=Q(puzzles__gte=1)
                & (Q(pieces__isnull=True) | Q(pieces__gte=1))
                & Q(advance_per_country__gte=1),
                name="round_counts_positive",
            ),
        ]

    def __str__(self):
        return f"{self.category} – {self.display_name}"

    def save(self, *args, **kwargs):
        # The championship is copied from the category so that keys are unique per championship.
        self.championship_id = self.category.championship_id
        super().save(*args, **kwargs)

    @property
    def display_name(self) -> str:
        return self.name or self.get_stage_display()

    @property
    def effective_time_limit_minutes(self) -> int:
        return self.time_limit_minutes or self.category.time_limit_minutes

    @property
    def pieces_per_puzzle(self) -> int:
        """Return the pieces of one of the round's puzzles: its own, or the category's."""
        return self.pieces or self.category.pieces

    @property
    def total_pieces(self) -> int:
        """Return the pieces an entry can place in the round: every puzzle's, counted together."""
        return self.pieces_per_puzzle * self.puzzles

    @property
    def time_limit_ms(self) -> int:
        """Return the time limit in milliseconds, as it runs from each entry's own start."""
        return self.effective_time_limit_minutes * 60_000

    @property
    def advance_settings(self) -> dict:
        """Return the advancement as in the interchange format, with ``into``'s key if set."""
        if self.advance == self.Advance.OVERALL:
            settings = {"overall": self.advance_count}
        elif self.advance == self.Advance.PER_HEAT:
            settings = {
                "per_heat": self.advance_count,
                "best_remaining": self.advance_best_remaining,
            }
        elif self.advance == self.Advance.COUNTRY:
            # The interchange format calls T "overall", with the country places beside it.
            country = self.country_places_settings().to_dict()
            settings = {"overall": country.pop("places"), **country}
        else:
            settings = {}
        if self.into_id is not None:
            settings["into"] = self.into.key
        return settings

    def country_places_settings(self) -> country_places.CountryPlaces:
        """Return the round's country-places advancement for the rules (``Advance.COUNTRY``)."""
        return country_places.CountryPlaces(
            places=self.advance_count,
            country_places=self.advance_country_places,
            requires_completion=self.advance_country_requires_completion,
            per_country=self.advance_per_country,
            only_countries_without_qualifier=self.advance_only_countries_without_qualifier,
        )

    @property
    def is_official(self) -> bool:
        """Return whether the round's results are signed off (official)."""
        return self.state == self.State.PUBLISHED

    def last_time_up(self):
        """Return when time was up in the round's last heat (``None`` while one runs)."""
        if self.state not in (self.State.CLOSED, self.State.PUBLISHED):
            return None
        return self.heats.aggregate(models.Max("ended_at"))["ended_at__max"]

    def protests_until(self):
        """Return until when entrants may protest: the championship's window after time-up."""
        time_up = self.last_time_up()
        if time_up is None:
            return None
        return time_up + timedelta(minutes=self.championship.protest_window_minutes)

    def previous_round(self) -> Round | None:
        """Return the round this one takes its entrants from (``None``: a first round).

        Of several groups feeding this round (``into``), the first by order; see
        ``previous_rounds``.
        """
        feeding = self.previous_rounds()
        return feeding[0] if feeding else None

    def previous_rounds(self) -> list[Round]:
        """Return the rounds whose qualifiers come to this one, in order.

        Those that name this round in ``into``, and the category's round just
        before this one when it names no round (a category's rounds in a row).
        """
        rounds = list(Round.objects.filter(category=self.category_id).order_by("order"))
        return [round_ for round_ in rounds if round_.following_in(rounds) == self]

    def next_round(self) -> Round | None:
        """Return the round this one's qualifiers go to (``None``: the last)."""
        if self.into_id is not None:
            return self.into
        return (
            Round.objects.filter(category=self.category_id, order__gt=self.order)
            .order_by("order")
            .first()
        )

    def following_in(self, rounds: list[Round]) -> Round | None:
        """Return the round this one feeds among its category's ``rounds`` (in order)."""
        if self.into_id is not None:
            return next((round_ for round_ in rounds if round_.pk == self.into_id), None)
        return next((round_ for round_ in rounds if round_.order > self.order), None)

    @classmethod
    def from_db(cls, db, field_names, values):
        return bounds.loaded(super().from_db(db, field_names, values), ("time_limit_minutes",))

    def clean_fields(self, exclude=None):
        bounds.clean_fields(self, exclude, super().clean_fields, bounds.round_errors)

    def clean(self):
        super().clean()
        errors = {}
        if self.advance == self.Advance.OVERALL:
            if not self.advance_count:
                errors["advance_count"] = _("Say how many advance overall.")
            if self.advance_best_remaining is not None:
                errors["advance_best_remaining"] = _("Only with “per heat” advancement.")
        elif self.advance == self.Advance.PER_HEAT:
            if self.advance_count is None:
                errors["advance_count"] = _("Say how many advance per heat.")
            if self.advance_best_remaining is None:
                errors["advance_best_remaining"] = _("Say how many of the best remaining advance.")
        elif self.advance == self.Advance.COUNTRY:
            if not self.advance_count:
                errors["advance_count"] = _("Say how many places go on from the round.")
            if self.advance_best_remaining is not None:
                errors["advance_best_remaining"] = _("Only with “per heat” advancement.")
        elif self.advance_count is not None or self.advance_best_remaining is not None:
            errors["advance"] = _("Choose how entries advance, or leave the numbers empty.")
        if self.into_id is not None:
            into = self.into
            if into.category_id != self.category_id:
                errors["into"] = _("Choose a round of the same category.")
            elif into.order <= self.order:
                errors["into"] = _("Choose a later round of the category.")
        if errors:
            raise ValidationError(errors)


class Heat(models.Model):
    """A group of a round that puzzles at the same time."""

    class State(models.TextChoices):
        # A heat is neuter in Swedish ("ett heat"), a round is not: each has its own words.
        SCHEDULED = "scheduled", pgettext_lazy("heat state", "Scheduled")
        RUNNING = "running", _("Running")
        TIME_UP = "time_up", _("Time is up")
        CLOSED = "closed", pgettext_lazy("heat state", "Closed")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="heats")
    key = models.SlugField(_("key"), max_length=30)
    name = models.CharField(_("name"), max_length=100, blank=True)
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    scheduled_start = models.DateTimeField(_("scheduled start"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    ended_at = models.DateTimeField(_("time up at"), null=True, blank=True)
    state = models.CharField(
        _("state"), max_length=20, choices=State.choices, default=State.SCHEDULED
    )

    class Meta:
        ordering = ["round", "order", "key"]
        verbose_name = _("heat")
        verbose_name_plural = _("heats")
        constraints = [
            models.UniqueConstraint(fields=["round", "key"], name="heat_key_unique"),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True)
                | Q(started_at__isnull=False, ended_at__gte=F("started_at")),
                name="heat_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(state="scheduled") | Q(started_at__isnull=False),
                name="heat_started_when_not_scheduled",
            ),
        ]

    def __str__(self):
        return f"{self.round} – {self.label}"

    @classmethod
    def from_db(cls, db, field_names, values):
        return bounds.loaded(
            super().from_db(db, field_names, values),
            ("scheduled_start", "started_at", "ended_at"),
        )

    def clean_fields(self, exclude=None):
        bounds.clean_fields(self, exclude, super().clean_fields, bounds.heat_errors)

    @property
    def time_called_ms(self) -> int | None:
        """Return when the organiser called time, after the heat's start (``None``: not yet)."""
        return timing.called_ms(self.started_at, self.ended_at)

    @property
    def label(self) -> str:
        """Return the heat as people call it: its name, or “Heat A” (its key in capitals)."""
        return self.name or gettext("Heat %(key)s") % {"key": self.key.upper()}


class Table(models.Model):
    """A numbered table of the venue, with the QR token judges scan."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("number"))
    label = models.CharField(_("label"), max_length=100, blank=True)
    seats = models.PositiveSmallIntegerField(
        _("seats"), default=1, help_text=_("How many entrants can share it (1 or 2).")
    )
    reserved_for_guests = models.BooleanField(
        _("reserved for guests"), default=False, help_text=_("Kept for hors concours guests.")
    )
    group = models.CharField(
        _("group"),
        max_length=50,
        blank=True,
        help_text=_(
            'Where the table stands, as the organiser names it ("Row A", "By the window"): '
            "the round report compares groups of tables."
        ),
    )
    token = models.CharField(_("QR token"), max_length=64, unique=True, default=new_token)

    class Meta:
        ordering = ["championship", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["championship", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            models.CheckConstraint(condition=Q(seats__in=[1, 2]), name="table_seats_one_or_two"),
            models.CheckConstraint(condition=~Q(token=""), name="table_token_not_empty"),
        ]

    def __str__(self):
        return _("Table %(number)s") % {"number": self.number}

    def get_absolute_url(self):
        return reverse("judging:table", kwargs={"token": self.token})


class Seat(models.Model):
    """Where an entry sits in a heat: a table, and a position on a shared one."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats", editable=False)
    heat = models.ForeignKey(Heat, on_delete=models.CASCADE, related_name="seats")
    # A table in use cannot be deleted on its own, only with its championship.
    table = models.ForeignKey(Table, on_delete=models.RESTRICT, related_name="seatings")
    entry = models.ForeignKey("registration.Entry", on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(
        _("position"), default=1, help_text=_("1, or 2 on a shared table.")
    )
    started_at = models.DateTimeField(
        _("own start"),
        null=True,
        blank=True,
        help_text=_(
            "This entrant's own start, later than the heat's: for example when a judge "
            "cut the taped bag open late."
        ),
    )

    class Meta:
        ordering = ["heat", "table__number", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["heat", "entry"], name="seat_one_per_entry_per_heat"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_one_per_entry_per_round"),
            models.UniqueConstraint(
                fields=["heat", "table", "position"], name="seat_one_entry_per_position"
            ),
            models.CheckConstraint(
                condition=Q(position__in=[1, 2]), name="seat_position_one_or_two"
            ),
        ]

    def __str__(self):
        return f"{self.heat}: {self.table} – {self.entry}"

    def save(self, *args, **kwargs):
        self.round_id = self.heat.round_id
        super().save(*args, **kwargs)

    @property
    def position_letter(self) -> str:
        """Return the seat's place at its table as cards and judges say it: A, B, …"""
        return chr(ord("A") + self.position - 1) if 1 <= self.position <= 26 else str(self.position)

    @property
    def start(self):
        """Return when the entry started: its own later start, or the heat's (``None`` before)."""
        heat_start = self.heat.started_at
        if heat_start is None:
            return None
        if self.started_at is not None and self.started_at > heat_start:
            return self.started_at
        return heat_start

    @property
    def own_start(self) -> bool:
        """Return whether the entry has a later start of its own (rogaland's taped bag)."""
        return self.start is not None and self.start != self.heat.started_at

    @property
    def time_up_at(self):
        """Return when the entry's time is up (``None`` before its heat starts).

        The time limit runs from the entry's own start; the heat's time-up, when
        the organiser calls it before the limit, ends the entry's attempt as long
        after its start as it ends the heat's: an entry that started later keeps
        its minutes.
        """
        start = self.start
        if start is None:
            return None
        heat = self.heat
        allowed = timing.time_allowed_ms(heat.round.time_limit_ms, heat.time_called_ms)
        return start + timedelta(milliseconds=allowed)

    @classmethod
    def from_db(cls, db, field_names, values):
        return bounds.loaded(super().from_db(db, field_names, values), ("started_at",))

    def clean_fields(self, exclude=None):
        bounds.clean_fields(self, exclude, super().clean_fields, bounds.seat_errors)

    def clean(self):
        super().clean()
        if self.table_id and self.position > self.table.seats:
            raise ValidationError({"position": _("This table has only one seat.")})
