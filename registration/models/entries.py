"""Entries in a championship's categories, their members, questions and private links."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from championship import bounds
from championship.models import Category, Championship
from core import tokens
from registration.models.people import Person, name_may_be_published, new_ref

MANAGE_LINK_SALT = "registration.Entry.manage_link"


def new_manage_nonce() -> str:
    """Return the nonce of a new private link."""
    return tokens.new_nonce()


class ManageTokenHashField(models.CharField):
    """The hash of the token of an entry's private link, derived from its nonce as it is saved.

    Filled in on ``save`` and ``bulk_create`` alike (``pre_save``), so that an
    entry made anywhere has a working link.
    """

    def pre_save(self, model_instance, add):
        value = getattr(model_instance, self.attname)
        if not value and model_instance.manage_nonce:
            value = tokens.token_hash(
                tokens.derived_token(model_instance.manage_nonce, salt=MANAGE_LINK_SALT)
            )
            setattr(model_instance, self.attname, value)
        return value


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
    represents = models.CharField(
        _("represents"),
        max_length=7,
        blank=True,
        help_text=_(
            "The country the entry represents (ISO 3166-1 alpha-2, e.g. NZ), or “neutral” "
            "for the neutral flag. Empty: no country."
        ),
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
    # The private link's token is derived from ``manage_nonce``; only its hash is stored.
    manage_nonce = models.CharField(
        max_length=tokens.NONCE_LENGTH, default=new_manage_nonce, editable=False
    )
    manage_token_hash = ManageTokenHashField(
        max_length=tokens.HASH_LENGTH, unique=True, editable=False
    )
    # The hash of a link sent before links were derived; a new link clears it.
    legacy_token_hash = models.CharField(
        max_length=tokens.HASH_LENGTH, unique=True, null=True, blank=True, editable=False
    )
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
                condition=Q(represents__regex=r"^([A-Z]{2}|neutral)?$"),
                name="entry_represents_country_or_neutral",
            ),
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

    @property
    def manage_token(self) -> str | None:
        """Return the token of the entry's current private link (derived, never stored).

        ``None`` when the key that made it is no longer among the site's keys:
        the link still opens the page, it can no longer be shown.
        """
        if not self.manage_token_hash:  # not saved yet
            return tokens.derived_token(self.manage_nonce, salt=MANAGE_LINK_SALT)
        # The token the entry was opened with (``entry_for_manage_token``): the current link,
        # or one sent before links were hashed, which keeps working for its holder's pages.
        opened_with = self.__dict__.get("_opened_with")
        if opened_with:
            opened = tokens.token_hash(opened_with)
            if tokens.same(opened, self.manage_token_hash) or (
                self.legacy_token_hash and tokens.same(opened, self.legacy_token_hash)
            ):
                return opened_with
        return tokens.stored_token(self.manage_nonce, self.manage_token_hash, salt=MANAGE_LINK_SALT)

    def new_manage_link(self) -> None:
        """Give the entry a new private link (unsaved): every earlier link stops once saved."""
        self.manage_nonce, self.manage_token_hash = tokens.new_derived(salt=MANAGE_LINK_SALT)
        self.legacy_token_hash = None

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


def entry_for_manage_token(token, *, championship_slug: str) -> Entry | None:
    """Return the championship's entry whose private link has ``token``, or ``None``.

    The current link's hash or the hash of a link sent before links were derived
    (``legacy_token_hash``): one indexed query, the same for a token that leads
    nowhere.
    """
    if not tokens.is_token(token):
        return None
    hashed = tokens.token_hash(token)
    entry = (
        Entry.objects.select_related("category__championship")
        .filter(Q(manage_token_hash=hashed) | Q(legacy_token_hash=hashed))
        .filter(category__championship__slug=championship_slug)
        .first()
    )
    if entry is not None:
        entry._opened_with = token
    return entry


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
