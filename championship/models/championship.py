"""A championship and its categories, with the validators of their fields."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from championship import bounds, payees, presets, rulesets
from championship.rules import deadline
from core import tokens
from core.zones import known_zones


def new_token() -> str:
    """Return an unguessable token for a URL, stored as it is (``core.tokens.new_token``)."""
    return tokens.new_token()


# First path segments that belong to the application, not to a championship.
RESERVED_SLUGS = frozenset(
    {
        "admin",
        "accounts",
        "api",
        "calendar",
        "health",
        "i18n",
        "import",
        "media",
        "new",
        "organisers",
        "puzzlers",
        "s",
        "static",
        "t",
    }
)


def validate_slug_not_reserved(value: str) -> None:
    """Refuse a slug that would hide one of the application's own addresses."""
    if value.lower() in RESERVED_SLUGS:
        raise ValidationError(
            _("“%(value)s” is reserved; choose another slug."), params={"value": value}
        )


def validate_timezone(value: str) -> None:
    """Refuse a name that is not an IANA time zone."""
    if value not in known_zones():
        raise ValidationError(_("“%(value)s” is not a known time zone."), params={"value": value})


class Preset(models.TextChoices):
    ROGALAND = "rogaland", "Rogalandsmesterskapet (rogaland)"
    SM = "sm", "Pussel-SM (sm)"
    DM = "dm", "DM i Speedpuzzling (dm)"
    WJPC = "wjpc", "World Jigsaw Puzzle Championship (wjpc)"
    NEUTRAL = "neutral", _("Neutral rules (neutral)")


class Currency(models.TextChoices):
    NOK = "NOK", "NOK"
    SEK = "SEK", "SEK"
    DKK = "DKK", "DKK"
    EUR = "EUR", "EUR"


class PaymentReferenceScheme(models.TextChoices):
    """How an entry's payment reference is made (registration/references.py)."""

    BY_CURRENCY = (
        "",
        _("As the currency suggests: KID (NOK), OCR (SEK), FIK +71 (DKK), RF reference (EUR)"),
    )
    KID10 = "kid10", _("KID with a modulus 10 check digit (Norway)")
    KID11 = "kid11", _("KID with a modulus 11 check digit (Norway)")
    OCR = "ocr", _("OCR reference with a check digit (Sweden, bankgiro)")
    OCR_LENGTH = (
        "ocr_length",
        _("OCR reference with a length digit and a check digit (Sweden, bankgiro)"),
    )
    FIK71 = "fik71", _("FIK +71 payment id of 15 digits (Denmark)")
    RF = "rf", _("RF creditor reference (ISO 11649, for euro)")
    ENTRY = "entry", _("The entry's own id, without a check digit")


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
    # A championship made in the browser or through the API starts as a draft: not
    # listed, registration closed, its public pages shown only to its staff, until an
    # organiser opens it (championship.services.championship_open).
    draft = models.BooleanField(_("draft"), default=False)
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
    payment_reference_scheme = models.CharField(
        _("payment references"),
        max_length=12,
        choices=PaymentReferenceScheme.choices,
        blank=True,
        default=PaymentReferenceScheme.BY_CURRENCY,
        help_text=_(
            "The form the bank agreement asks for. Each new entry gets its reference in "
            "that form; references already given stay as they are."
        ),
    )
    # Where entrants pay (championship.payees): each optional, stored compact.
    payee_name = models.CharField(
        _("account holder"),
        max_length=payees.NAME_MAX,
        blank=True,
        help_text=_(
            "Who the account belongs to, as the bank knows them (the club or association). "
            "Empty: the championship's name."
        ),
    )
    swish_number = models.CharField(
        _("Swish number"),
        max_length=20,
        blank=True,
        validators=[payees.validate_swish],
        help_text=_("Entrants get a Swish QR code with the fee and the reference filled in."),
    )
    vipps_number = models.CharField(
        _("Vipps number"),
        max_length=20,
        blank=True,
        validators=[payees.validate_app_number],
        help_text=_("Shown with the reference to type in the Vipps app."),
    )
    mobilepay_number = models.CharField(
        _("MobilePay number"),
        max_length=20,
        blank=True,
        validators=[payees.validate_app_number],
        help_text=_("Shown with the reference to type in the MobilePay app."),
    )
    bank_account = models.CharField(
        _("bank account"),
        max_length=payees.NUMBER_MAX,
        blank=True,
        help_text=_(
            "Norway: the account number; Sweden: the bankgiro number (or clearing and "
            "account number); Denmark: registration and account number."
        ),
    )
    iban = models.CharField(
        _("IBAN"),
        max_length=payees.NUMBER_MAX,
        blank=True,
        validators=[payees.validate_iban],
        help_text=_("For payments in euro (an EPC QR code) and from abroad."),
    )
    bic = models.CharField(_("BIC"), max_length=14, blank=True, validators=[payees.validate_bic])
    refund_days_before = models.PositiveSmallIntegerField(
        _("refunds until (days before the start)"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(bounds.MEMBER_CHANGES_MAX_DAYS)],
        help_text=_(
            "An entry withdrawn up to this many days before the start is owed its fee back "
            "(WJPC: 15). Empty: no refunds for withdrawals."
        ),
    )
    # A championship called off: registration closes, its page says so, and every fee paid is
    # owed back (payments.refunds).
    cancelled_at = models.DateTimeField(_("cancelled"), null=True, blank=True, editable=False)
    # Which e-mails entrants get (control.notifications); each may be turned off.
    mail_seating = models.BooleanField(
        _("e-mail the seating"),
        default=True,
        help_text=_("When a round's seating is published: each entrant's heat, table and time."),
    )
    mail_advanced = models.BooleanField(
        _("e-mail who advances"),
        default=True,
        help_text=_("When the qualified advance: the next round, when and where."),
    )
    mail_results = models.BooleanField(
        _("e-mail the official results"),
        default=True,
        help_text=_("When a round is signed off: each entrant's place, time and a link."),
    )
    screen = models.JSONField(
        _("venue screen"),
        default=dict,
        blank=True,
        editable=False,
        help_text=_(
            "What the venue screen shows (the control room chooses): a round's board, a "
            "round's seating, a category's podium, or a message."
        ),
    )
    protest_window_minutes = models.PositiveSmallIntegerField(
        _("protest window (minutes)"),
        default=0,
        # Left out of a form (an older client, an import): no window.
        blank=True,
        validators=[MaxValueValidator(bounds.PROTEST_WINDOW_MAX_MINUTES)],
        help_text=_(
            "How long after time-up entrants may protest a round's results before they can "
            "be signed off as official. 0: they can be signed off at once."
        ),
    )
    member_changes_days_before = models.PositiveSmallIntegerField(
        _("member changes until (days before the start)"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(bounds.MEMBER_CHANGES_MAX_DAYS)],
        help_text=_(
            "A pair or team may change its members through its private link until this many "
            "days before the start, also after registration has closed. Empty: until "
            "registration closes."
        ),
    )
    offer_hours = models.PositiveSmallIntegerField(
        _("offers last (hours)"),
        default=0,
        blank=True,
        validators=[MaxValueValidator(bounds.DEADLINE_MAX_HOURS)],
        help_text=_(
            "A place that frees up is offered to the first on the waiting list, who has this "
            "many hours to accept it (never beyond the start); then it passes to the next. "
            "0: the place is given at once, without asking."
        ),
    )
    payment_hours = models.PositiveSmallIntegerField(
        _("payment due within (hours)"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(bounds.DEADLINE_MAX_HOURS)],
        help_text=_(
            "A confirmed entry with a fee pays within this many hours of getting its place; a "
            "reminder goes out before. Empty: no payment deadline."
        ),
    )
    release_unpaid = models.BooleanField(
        _("release unpaid entries automatically"),
        default=False,
        help_text=_(
            "When the payment deadline passes unpaid, the entry is withdrawn and its place "
            "goes to the waiting list. Otherwise the organiser sees it as overdue and decides."
        ),
    )
    second_count = models.BooleanField(
        _("two judges count unfinished puzzles"),
        default=False,
        help_text=_(
            "A piece count at time-up is final only when a second judge, who does not see the "
            "first count, counts the same; different counts go to the head judge, who decides. "
            "A change applies to the counts recorded from then on."
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
        return reverse("registration:championship", kwargs={"championship_slug": self.slug})

    @cached_property
    def rules(self) -> rulesets.Ruleset:
        """Return the effective rules: the preset with this championship's overrides."""
        return presets.effective_rules(self.ruleset, self.rule_overrides)

    @property
    def tzinfo(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)

    @property
    def local_date(self):
        """Return the championship's date in its own time zone (ages are taken on it)."""
        return timezone.localtime(self.starts_at, self.tzinfo).date()

    def days_ahead(self, now) -> int:
        """Return how many days the championship's date lies after ``now``'s (its own zone).

        1 on the day before, 0 on the day, negative once it is past.
        """
        return (self.local_date - timezone.localtime(now, self.tzinfo).date()).days

    def member_changes_until(self):
        """Return until when pairs and teams may change their members, or ``None``.

        ``None``: no deadline of its own; members change as long as registration is open.
        The start's wall-clock time, ``member_changes_days_before`` days earlier.
        """
        if self.member_changes_days_before is None:
            return None
        return bounds.safe(
            deadline.days_before(self.starts_at, self.member_changes_days_before, self.tzinfo)
        )

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
        self._clean_payees()
        try:
            presets.effective_rules(self.ruleset, self.rule_overrides)
        except rulesets.RulesetError as error:
            field = "ruleset" if error.parameter == "ruleset" else "rule_overrides"
            raise ValidationError({field: error.args[0]}) from None
        self.__dict__.pop("rules", None)

    def _clean_payees(self):
        """Store the payees' numbers compact; check the bank account against the currency."""
        if self.bank_account.strip():
            problem = payees.account_error(self.bank_account, self.currency)
            if problem:
                raise ValidationError({"bank_account": problem})
        values = payees.compacted(
            {name: getattr(self, name) for name in payees.PAYEES}, self.currency
        )
        for name, value in values.items():
            setattr(self, name, value)

    @property
    def payee(self) -> str:
        """Return who entrants pay: the account holder, else the championship's name."""
        return self.payee_name or self.name


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
    # The validators repeat the check constraints (Meta) in Python: full_clean refuses what
    # the database would, with the field's message, without a query for each constraint.
    min_members = models.PositiveSmallIntegerField(
        _("minimum members"), default=1, validators=[MinValueValidator(1)]
    )
    max_members = models.PositiveSmallIntegerField(_("maximum members"), default=1)
    pieces = models.PositiveIntegerField(
        _("pieces"), default=500, validators=[MinValueValidator(1)]
    )
    time_limit_minutes = models.PositiveSmallIntegerField(_("time limit (minutes)"), default=120)
    capacity = models.PositiveIntegerField(
        _("capacity"), null=True, blank=True, help_text=_("Empty: no limit.")
    )
    fee = models.DecimalField(
        _("fee"), max_digits=8, decimal_places=2, default=0, validators=[MinValueValidator(0)]
    )
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

    def clean(self):
        super().clean()
        if (
            self.min_members is not None
            and self.max_members is not None
            and self.max_members < self.min_members
        ):
            raise ValidationError({"max_members": _("At least as many as the minimum.")})

    def puzzle_is_revealed(self) -> bool:
        """Return whether the puzzle may be shown: once any heat of the category started."""
        return self.rounds.filter(heats__started_at__isnull=False).exists()
