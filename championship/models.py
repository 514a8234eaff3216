"""The championship, its categories, rounds, heats, tables, seats and staff roles."""

import secrets
import zoneinfo
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from championship import bounds, rulesets
from championship.rules import deadline


def new_token() -> str:
    """Return an unguessable token for a URL (128 bits of randomness)."""
    return secrets.token_urlsafe(16)


# First path segments that belong to the application, not to a championship.
RESERVED_SLUGS = frozenset(
    {"admin", "accounts", "api", "health", "i18n", "import", "media", "new", "s", "static", "t"}
)


def validate_slug_not_reserved(value: str) -> None:
    """Refuse a slug that would hide one of the application's own addresses."""
    if value.lower() in RESERVED_SLUGS:
        raise ValidationError(
            _("“%(value)s” is reserved; choose another slug."), params={"value": value}
        )


def validate_timezone(value: str) -> None:
    """Refuse a name that is not an IANA time zone."""
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("“%(value)s” is not a known time zone."), params={"value": value})


class Preset(models.TextChoices):
    ROGALAND = "rogaland", "Rogalandsmesterskapet (rogaland)"
    SM = "sm", "Pussel-SM (sm)"
    DM = "dm", "DM i Speedpuzzling (dm)"
    NEUTRAL = "neutral", _("Neutral rules (neutral)")


class Currency(models.TextChoices):
    NOK = "NOK", "NOK"
    SEK = "SEK", "SEK"
    DKK = "DKK", "DKK"
    EUR = "EUR", "EUR"


class Championship(models.Model):
    """One championship: a venue, a day, a ruleset, and its categories."""

    slug = models.SlugField(
        _("slug"), max_length=64, unique=True, validators=[validate_slug_not_reserved]
    )
    name = models.CharField(_("name"), max_length=200)
    ruleset = models.CharField(_("ruleset preset"), max_length=20, choices=Preset.choices)
    rule_overrides = models.JSONField(
        _("rule overrides"),
        default=dict,
        blank=True,
        help_text=_('Parameters that differ from the preset, e.g. {"max_lost_pieces": 5}.'),
    )
    timezone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Oslo", validators=[validate_timezone]
    )
    starts_at = models.DateTimeField(_("starts at"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    address = models.CharField(_("address"), max_length=300, blank=True)
    currency = models.CharField(_("currency"), max_length=3, choices=Currency.choices)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    registration_deadline = models.DateTimeField(
        _("registration deadline"),
        null=True,
        blank=True,
        help_text=_("When empty, the preset's rule applies (rogaland: 5 days before the start)."),
    )
    is_public = models.BooleanField(_("listed publicly"), default=True)
    payment_instructions = models.TextField(
        _("payment instructions"),
        blank=True,
        help_text=_(
            "How entrants pay the fee, shown on their entry page and in the confirmation "
            "e-mail while the entry is unpaid, e.g. “Vipps {fee} to 123 45, marked "
            "{reference}”. {reference} becomes the entry's payment reference and {fee} its "
            "fee; the reference is shown beside the text anyway."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-starts_at", "name"]
        verbose_name = _("championship")
        verbose_name_plural = _("championships")
        constraints = [
            models.CheckConstraint(
                condition=Q(ruleset__in=Preset.values), name="championship_ruleset_known"
            ),
            models.CheckConstraint(
                condition=Q(currency__in=Currency.values), name="championship_currency_known"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("registration:championship", kwargs={"slug": self.slug})

    @cached_property
    def rules(self) -> rulesets.Ruleset:
        """Return the effective rules: the preset with this championship's overrides."""
        return rulesets.effective_rules(self.ruleset, self.rule_overrides)

    @property
    def tzinfo(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)

    @property
    def local_date(self):
        """Return the championship's date in its own time zone (ages are taken on it)."""
        return timezone.localtime(self.starts_at, self.tzinfo).date()

    def effective_registration_deadline(self):
        """Return when registration closes: the earlier of the organiser's and the preset's.

        The preset's deadline (rogaland: 5 days before the start) keeps the start's
        wall-clock time in the championship's time zone.
        """
        # Made safe: a preset's rule may reach back to the calendar's first day.
        return bounds.safe(
            deadline.registration_deadline(
                starts_at=self.starts_at,
                tz=self.tzinfo,
                closes_days_before=self.rules.registration_closes_days_before,
                organiser_deadline=self.registration_deadline,
            )
        )

    @classmethod
    def from_db(cls, db, field_names, values):
        return bounds.loaded(
            super().from_db(db, field_names, values), ("starts_at", "registration_deadline")
        )

    def clean_fields(self, exclude=None):
        # The bounds are checked here rather than by field validators: they depend on
        # today and on other fields, and a date left as it was stays accepted.
        bounds.clean_fields(self, exclude, super().clean_fields, bounds.championship_errors)

    def clean(self):
        super().clean()
        try:
            rulesets.effective_rules(self.ruleset, self.rule_overrides)
        except rulesets.RulesetError as error:
            field = "ruleset" if error.parameter == "ruleset" else "rule_overrides"
            raise ValidationError({field: error.args[0]}) from None
        self.__dict__.pop("rules", None)


class Category(models.Model):
    """A competition within a championship: individual, pair or team."""

    class Kind(models.TextChoices):
        INDIVIDUAL = rulesets.INDIVIDUAL, _("Individual")
        PAIR = rulesets.PAIR, _("Pair")
        TEAM = rulesets.TEAM, _("Team")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="categories"
    )
    key = models.SlugField(_("key"), max_length=50)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=100, blank=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    min_members = models.PositiveSmallIntegerField(_("minimum members"), default=1)
    max_members = models.PositiveSmallIntegerField(_("maximum members"), default=1)
    pieces = models.PositiveIntegerField(_("pieces"), default=500)
    time_limit_minutes = models.PositiveSmallIntegerField(_("time limit (minutes)"), default=120)
    capacity = models.PositiveIntegerField(
        _("capacity"), null=True, blank=True, help_text=_("Empty: no limit.")
    )
    fee = models.DecimalField(_("fee"), max_digits=8, decimal_places=2, default=0)
    puzzle_brand = models.CharField(_("puzzle brand"), max_length=100, blank=True)
    puzzle_motif = models.CharField(
        _("puzzle motif"),
        max_length=200,
        blank=True,
        help_text=_("Kept hidden from entrants and the public until the first heat starts."),
    )
    registration_opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "order", "key"]
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(fields=["championship", "key"], name="category_key_unique"),
            models.CheckConstraint(
                condition=Q(kind__in=["individual", "pair", "team"]), name="category_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(min_members__gte=1) & Q(max_members__gte=F("min_members")),
                name="category_members_range",
            ),
            models.CheckConstraint(condition=Q(pieces__gte=1), name="category_pieces_positive"),
            models.CheckConstraint(
                condition=Q(time_limit_minutes__gte=1), name="category_time_limit_positive"
            ),
            models.CheckConstraint(condition=Q(fee__gte=0), name="category_fee_not_negative"),
        ]

    def __str__(self):
        return f"{self.championship} – {self.display_name}"

    @property
    def display_name(self) -> str:
        return self.name or self.get_kind_display()

    @classmethod
    def from_db(cls, db, field_names, values):
        return bounds.loaded(
            super().from_db(db, field_names, values),
            ("registration_opens_at", "time_limit_minutes"),
        )

    def clean_fields(self, exclude=None):
        bounds.clean_fields(self, exclude, super().clean_fields, bounds.category_errors)

    def puzzle_is_revealed(self) -> bool:
        """Return whether the puzzle may be shown: once any heat of the category started."""
        return Heat.objects.filter(round__category=self, started_at__isnull=False).exists()


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
        PUBLISHED = "published", _("Published")

    class Advance(models.TextChoices):
        NONE = "none", _("Nobody advances")
        OVERALL = "overall", _("The best N overall")
        PER_HEAT = "per_heat", _("The best N per heat, then the best M remaining")

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
    advance = models.CharField(
        _("advancement"), max_length=20, choices=Advance.choices, default=Advance.NONE
    )
    advance_count = models.PositiveSmallIntegerField(
        _("advance: N"), null=True, blank=True, help_text=_("Overall, or per heat.")
    )
    advance_best_remaining = models.PositiveSmallIntegerField(
        _("advance: best M remaining"), null=True, blank=True
    )
    seating_published_at = models.DateTimeField(
        _("seating published at"),
        null=True,
        blank=True,
        help_text=_("From then on entrants see their heat and table, and seats no longer move."),
    )
    version = models.PositiveBigIntegerField(
        _("results version"),
        default=1,
        editable=False,
        help_text=_("Changes whenever the round's results change."),
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
                ),
                name="round_advance_settings",
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
    def time_limit_ms(self) -> int:
        """Return the time limit in milliseconds, as it runs from each entry's own start."""
        return self.effective_time_limit_minutes * 60_000

    @property
    def advance_settings(self) -> dict:
        """Return the advancement as in the interchange format."""
        if self.advance == self.Advance.OVERALL:
            return {"overall": self.advance_count}
        if self.advance == self.Advance.PER_HEAT:
            return {"per_heat": self.advance_count, "best_remaining": self.advance_best_remaining}
        return {}

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
        elif self.advance_count is not None or self.advance_best_remaining is not None:
            errors["advance"] = _("Choose how entries advance, or leave the numbers empty.")
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
        limit = timedelta(milliseconds=heat.round.time_limit_ms)
        if heat.ended_at is not None:
            limit = min(limit, heat.ended_at - heat.started_at)
        return start + limit

    @classmethod
    def from_db(cls, db, field_names, values):
        return bounds.loaded(super().from_db(db, field_names, values), ("started_at",))

    def clean_fields(self, exclude=None):
        bounds.clean_fields(self, exclude, super().clean_fields, bounds.seat_errors)

    def clean(self):
        super().clean()
        if self.table_id and self.position > self.table.seats:
            raise ValidationError({"position": _("This table has only one seat.")})


class ChampionshipRole(models.Model):
    """A user's role in one championship."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        HEAD_JUDGE = "head_judge", _("Head judge")
        JUDGE = "judge", _("Judge")

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="championship_roles"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "role", "user"]
        verbose_name = _("championship role")
        verbose_name_plural = _("championship roles")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "user", "role"], name="role_once_per_user"
            ),
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "head_judge", "judge"]), name="role_known"
            ),
        ]

    def __str__(self):
        return f"{self.user} – {self.get_role_display()} ({self.championship})"


class SignInLink(models.Model):
    """A person's personal link that signs a phone in to one championship, without a password.

    The link's secret is derived from ``nonce`` and the site's ``SECRET_KEY``
    (``championship.staff_links``); the database keeps only its SHA-256 hash, so
    a copy of the database alone opens nothing.
    """

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="sign_in_links"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_in_links"
    )
    role = models.CharField(_("role"), max_length=20, choices=ChampionshipRole.Role.choices)
    nonce = models.CharField(max_length=32, unique=True, editable=False)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "-created_at"]
        verbose_name = _("sign-in link")
        verbose_name_plural = _("sign-in links")
        constraints = [
            # A person has one working link at a time: a new one replaces the old.
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(revoked_at__isnull=True),
                name="sign_in_link_one_active_per_user",
            ),
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "head_judge", "judge"]),
                name="sign_in_link_role_known",
            ),
        ]

    def __str__(self):
        return f"{self.name} – {self.get_role_display()} ({self.championship})"

    @property
    def name(self) -> str:
        return self.user.get_full_name() or self.user.get_username()

    @property
    def active(self) -> bool:
        return self.revoked_at is None and self.user.is_active


class OutgoingMail(models.Model):
    """An e-mail in the outbox: written with the change that causes it, sent after commit.

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
    # What the mail is about: the entry's id, or the sign-in link's.
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
