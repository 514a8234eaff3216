"""Persons and their entries in a championship's categories; puzzlers across championships."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from championship import bounds
from championship.models import Category, Championship, new_token
from championship.rules import eligibility, identity


def new_ref() -> str:
    """Return a short id for the interchange format and the API."""
    return secrets.token_hex(5)


def new_puzzler_ref() -> str:
    """Return the id in a puzzler's public address: random, so that it tells nothing."""
    return secrets.token_hex(8)


def email_key(email: str) -> str:
    """Return an e-mail address as identities compare it (championship.rules.identity)."""
    return identity.email_key(email)


class Puzzler(models.Model):
    """One person across championships on this site: recognised by e-mail address.

    Every ``Person`` (a person in one championship) belongs to a puzzler: the one
    of their e-mail address, so that someone who registers again is recognised
    and their history follows them; a person without an e-mail address is a
    puzzler of their own. The puzzler's public page shows only the championships
    in which the person consented to publication, and does not exist without one.
    """

    ref = models.CharField(_("id"), max_length=16, unique=True, default=new_puzzler_ref)
    email_key = models.CharField(
        _("e-mail address (compared)"), max_length=254, unique=True, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("puzzler")
        verbose_name_plural = _("puzzlers")

    def __str__(self):
        return self.ref

    def get_absolute_url(self) -> str:
        return reverse("puzzler", kwargs={"ref": self.ref})

    @classmethod
    def for_email(cls, email: str) -> Puzzler:
        """Return the puzzler of ``email`` (created if new), or a new one when there is none."""
        key = email_key(email)
        if not key:
            return cls.objects.create()
        puzzler, _created = cls.objects.get_or_create(email_key=key)
        return puzzler


class Person(models.Model):
    """Someone who takes part in a championship, alone or as a member of a pair or team."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="persons")
    puzzler = models.ForeignKey(
        Puzzler,
        on_delete=models.PROTECT,
        related_name="persons",
        verbose_name=_("puzzler"),
        editable=False,
    )
    ref = models.CharField(_("id"), max_length=40, default=new_ref)
    name = models.CharField(_("name"), max_length=200)
    email = models.EmailField(_("e-mail"), blank=True)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    city = models.CharField(_("home town"), max_length=100, blank=True)
    country = models.CharField(
        _("country"), max_length=2, blank=True, help_text=_("ISO 3166-1 alpha-2 code, e.g. NO.")
    )
    citizenship = models.JSONField(
        _("citizenship"),
        default=list,
        blank=True,
        help_text=_('ISO 3166-1 alpha-2 codes, e.g. ["NO"] or ["SE", "FI"].'),
    )
    region = models.CharField(
        _("region of residence"), max_length=100, blank=True, help_text=_("e.g. Rogaland.")
    )
    years_in_region = models.PositiveSmallIntegerField(
        _("earlier years in the region"),
        null=True,
        blank=True,
        help_text=_("The longest earlier period of continuous residence there, in years."),
    )
    publish_consent = models.BooleanField(_("consents to publication"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["championship", "name"]
        verbose_name = _("person")
        verbose_name_plural = _("persons")
        constraints = [
            models.UniqueConstraint(fields=["championship", "ref"], name="person_ref_unique"),
            models.CheckConstraint(
                condition=Q(country="") | Q(country__regex=r"^[A-Z]{2}$"),
                name="person_country_alpha2",
            ),
        ]
        indexes = [models.Index(Lower("email"), "championship", name="person_email_ci")]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        """Save the person as the puzzler of their e-mail address (``Puzzler``).

        A new person, or one whose address changed, joins the puzzler of the
        address; a person without an address is a puzzler of their own.
        """
        key = email_key(self.email)
        saved = getattr(self, "_saved_email_key", None)
        if self.puzzler_id is None or (saved is not None and saved != key):
            self.puzzler = Puzzler.for_email(self.email)
            update_fields = kwargs.get("update_fields")
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "puzzler"}
        super().save(*args, **kwargs)
        self._saved_email_key = key

    @classmethod
    def from_db(cls, db, field_names, values):
        person = bounds.loaded(
            super().from_db(db, field_names, values), ("birth_date", "citizenship")
        )
        person._saved_email_key = email_key(person.email) if "email" in field_names else None
        return person

    def clean_fields(self, exclude=None):
        # A birth date and citizenships as a registration takes them (``championship.bounds``).
        bounds.clean_fields(self, exclude, super().clean_fields, bounds.person_errors)

    def rules_member(self) -> eligibility.Member:
        """Return what the rules need to know of the person (eligibility, age)."""
        citizenship = self.citizenship
        if isinstance(citizenship, str):
            citizenship = [citizenship]
        return eligibility.Member(
            name=self.name,
            birth_date=self.birth_date,
            region=self.region,
            years_in_region=self.years_in_region,
            citizenship=tuple(citizenship or ()),
        )

    def age_on(self, day) -> int | None:
        """Return the person's age in whole years on ``day``, or ``None`` when unknown."""
        if self.birth_date is None:
            return None
        before_birthday = (day.month, day.day) < (self.birth_date.month, self.birth_date.day)
        return day.year - self.birth_date.year - before_birthday


def name_may_be_published(entry_consents: bool, members_consent: list[bool]) -> bool:
    """Return whether an entry's own name may be published: the entry's and every member's consent.

    A pair's or team's name is often made of its members' names. Lists read as
    plain values (``results.selectors.public_rows``) ask this too.
    """
    return entry_consents and all(members_consent)


class Entry(models.Model):
    """A registration in a category: one person, a pair or a team.

    A confirmed entry holds a place, and so does one whose place is offered
    (until it accepts, or the offer lapses); a waitlisted one waits for a place.
    """

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("Confirmed")
        WAITLISTED = "waitlisted", _("On the waiting list")
        OFFERED = "offered", _("Place offered")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    class Lapse(models.TextChoices):
        """Why an entry was withdrawn without the entrant or the organiser doing it."""

        NONE = "", _("—")
        OFFER = "offer", _("The offered place was not accepted in time")
        UNPAID = "unpaid", _("Not paid in time")

    class Payment(models.TextChoices):
        UNPAID = "unpaid", _("Unpaid")
        PAID = "paid", _("Paid")
        REFUNDED = "refunded", _("Refunded")
        WAIVED = "waived", _("Waived")

    # The statuses that take one of a category's places.
    HOLDING_PLACE = (Status.CONFIRMED, Status.OFFERED)

    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="entries")
    ref = models.CharField(_("id"), max_length=40, default=new_ref)
    name = models.CharField(
        _("name"),
        max_length=200,
        help_text=_("For a pair or team, its name; for an individual, the entrant's own name."),
    )
    members = models.ManyToManyField(Person, through="EntryMember", related_name="entries")
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.CONFIRMED
    )
    registered_at = models.DateTimeField(_("registered at"), default=timezone.now)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    lapsed = models.CharField(
        _("lapsed"), max_length=20, choices=Lapse.choices, default=Lapse.NONE, blank=True
    )
    offer_expires_at = models.DateTimeField(
        _("offer expires at"),
        null=True,
        blank=True,
        help_text=_("While a place is offered: until when the entrant may accept it."),
    )
    payment_due_at = models.DateTimeField(
        _("payment due at"),
        null=True,
        blank=True,
        help_text=_("Until when a confirmed entry must pay, where the championship sets a limit."),
    )
    payment_reminded_at = models.DateTimeField(null=True, blank=True, editable=False)
    fee = models.DecimalField(
        _("fee"),
        max_digits=8,
        decimal_places=2,
        default=0,
        help_text=_("The category's fee when the entry registered."),
    )
    payment_status = models.CharField(
        _("payment"), max_length=20, choices=Payment.choices, default=Payment.UNPAID
    )
    payment_reference = models.CharField(_("payment reference"), max_length=100, blank=True)
    publish_consent = models.BooleanField(_("consents to publication"), default=False)
    adult_name = models.CharField(
        _("accompanying adult"),
        max_length=200,
        blank=True,
        help_text=_("Required when a member is under the preset's adult age."),
    )
    contact_email = models.EmailField(_("contact e-mail"), blank=True)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    prior_ranking = models.PositiveIntegerField(
        _("prior ranking"),
        null=True,
        blank=True,
        help_text=_("Place in earlier recognised championships, for seating the first round."),
    )
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    walkover_at = models.DateTimeField(_("walk-over at"), null=True, blank=True)
    walkover_reason = models.TextField(
        _("walk-over reason"),
        blank=True,
        help_text=_("Why the entry did not show up or was not admitted, e.g. no check-in in time."),
    )
    manage_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    notes = models.TextField(_("organiser's notes"), blank=True)
    judge_note = models.CharField(
        _("note for the judges"),
        max_length=300,
        blank=True,
        help_text=_(
            "Shown to the judges at the entry's table, never in public: e.g. “cannot call "
            "TIME aloud: watches for a raised card”."
        ),
    )
    answers = models.JSONField(
        _("answers"),
        default=dict,
        blank=True,
        help_text=_("The answers to the organiser's own questions, by question id."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["category", "registered_at", "id"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["category", "ref"], name="entry_ref_unique"),
            models.CheckConstraint(
                condition=Q(status__in=["confirmed", "waitlisted", "offered", "withdrawn"]),
                name="entry_status_known",
            ),
            models.CheckConstraint(
                condition=~Q(status="offered") | Q(offer_expires_at__isnull=False),
                name="entry_offer_has_deadline",
            ),
            models.CheckConstraint(
                condition=Q(payment_status__in=["unpaid", "paid", "refunded", "waived"]),
                name="entry_payment_status_known",
            ),
            models.CheckConstraint(condition=Q(fee__gte=0), name="entry_fee_not_negative"),
            models.CheckConstraint(
                condition=~Q(status="withdrawn") | Q(withdrawn_at__isnull=False),
                name="entry_withdrawn_has_time",
            ),
            models.CheckConstraint(
                condition=Q(walkover_at__isnull=True) | ~Q(walkover_reason=""),
                name="entry_walkover_has_reason",
            ),
        ]
        indexes = [
            models.Index(fields=["category", "status", "registered_at"], name="entry_queue"),
        ]

    def __str__(self):
        return self.name

    @classmethod
    def from_db(cls, db, field_names, values):
        # An import from before the bounds may have stored a moment at the calendar's end.
        return bounds.loaded(super().from_db(db, field_names, values), ())

    def is_overdue(self, now=None) -> bool:
        """Return whether a confirmed entry's payment deadline has passed unpaid."""
        return (
            self.status == Entry.Status.CONFIRMED
            and self.payment_status == Entry.Payment.UNPAID
            and self.payment_due_at is not None
            and self.payment_due_at <= (now or timezone.now())
        )

    def waiting_position(self) -> int | None:
        """Return the entry's place in its category's waiting list (1 is next), or ``None``.

        The list is in arrival order, as places are given (``services._promote_waiting``):
        the position moves up as entries ahead of it get a place or withdraw.
        """
        if self.status != Entry.Status.WAITLISTED:
            return None
        ahead = Entry.objects.filter(category_id=self.category_id, status=Entry.Status.WAITLISTED)
        ahead = ahead.filter(
            Q(registered_at__lt=self.registered_at)
            | Q(registered_at=self.registered_at, id__lt=self.pk)
        )
        return ahead.count() + 1

    def consenting_members(self) -> list:
        """Return the members who consented to publication (prefetch ``members`` for lists)."""
        return [member for member in self.members.all() if member.publish_consent]

    def name_published(self) -> bool:
        """Return whether the entry's own name may be published (``name_may_be_published``)."""
        return name_may_be_published(
            self.publish_consent, [m.publish_consent for m in self.members.all()]
        )

    def clean(self):
        super().clean()
        # The database keeps ids unique in a category; the interchange format (and so an
        # export and its import) wants them unique in the championship.
        if (
            self.ref
            and self.category_id
            and Entry.objects.filter(
                category__championship=self.category.championship_id, ref=self.ref
            )
            .exclude(pk=self.pk)
            .exists()
        ):
            raise ValidationError({"ref": _("Another entry of this championship has this id.")})


class Question(models.Model):
    """One of the organiser's own questions, asked at registration (``registration.questions``)."""

    class Kind(models.TextChoices):
        TEXT = "text", _("Text")
        CHOICE = "choice", _("One of several")
        CHOICES = "choices", _("Several of several")
        YES_NO = "yes_no", _("Yes or no")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="questions"
    )
    ref = models.CharField(_("id"), max_length=40, default=new_ref)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    text = models.CharField(_("question"), max_length=300)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.TEXT)
    choices = models.JSONField(
        _("choices"),
        default=list,
        blank=True,
        help_text=_("For one of several and several of several: the answers to choose from."),
    )
    required = models.BooleanField(_("required"), default=False)
    categories = models.ManyToManyField(
        Category,
        blank=True,
        related_name="questions",
        verbose_name=_("categories"),
        help_text=_("Asked in these categories only; none chosen: in every category."),
    )

    class Meta:
        ordering = ["championship", "order", "id"]
        verbose_name = _("question")
        verbose_name_plural = _("questions")
        constraints = [
            models.UniqueConstraint(fields=["championship", "ref"], name="question_ref_unique"),
            models.CheckConstraint(
                condition=Q(kind__in=["text", "choice", "choices", "yes_no"]),
                name="question_kind_known",
            ),
        ]

    def __str__(self):
        return self.text


class EntryMember(models.Model):
    """A person's membership of an entry, in the order given at registration."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="memberships")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="memberships")
    position = models.PositiveSmallIntegerField(_("position"), default=1)

    class Meta:
        ordering = ["entry", "position"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.UniqueConstraint(fields=["entry", "person"], name="member_once_per_entry"),
            models.UniqueConstraint(fields=["entry", "position"], name="member_position_unique"),
            models.CheckConstraint(condition=Q(position__gte=1), name="member_position_positive"),
        ]

    def __str__(self):
        return f"{self.person} in {self.entry}"


class StoredImport(models.Model):
    """An uploaded CSV file of entries, kept between its preview and its confirmation.

    The file's text stays on the server (never in the page). Confirming the import
    marks the row done (``done_at``) in the import's own transaction, on the
    condition that it was not done yet: a second confirmation (a double click, a
    second tab) finds it done and imports nothing.
    """

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

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("stored import")
        verbose_name_plural = _("stored imports")

    def __str__(self):
        return self.filename or self.token
