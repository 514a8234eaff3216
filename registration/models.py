"""Persons and their entries in a championship's categories; puzzlers across championships."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from championship import bounds
from championship.models import Category, Championship, new_token
from championship.rules import eligibility, identity
from core import tokens


def new_ref() -> str:
    """Return a short id for the interchange format and the API."""
    return secrets.token_hex(5)


def new_puzzler_ref() -> str:
    """Return the id in a puzzler's public address: random, so that it tells nothing."""
    return secrets.token_hex(8)


# The use an entrant's private link is derived for (``core.tokens.derived_token``).
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


def email_key(email: str) -> str:
    """Return an e-mail address as identities compare it (championship.rules.identity)."""
    return identity.email_key(email)


class Puzzler(models.Model):
    """One person across championships on this site: recognised by a confirmed e-mail address.

    Every ``Person`` (a person in one championship) belongs to a puzzler. A new
    person is a puzzler of their own (no address). Only by confirming their
    address, through the link mailed to it (``registration.addresses``), does a
    person join the puzzler of that address (``email_key``), so that someone who
    registers again is recognised and their history follows them; typing an
    address proves nothing. So every person of a puzzler with an address has
    confirmed it (or was grandfathered: migration 0010), and a puzzler without
    one holds a single person. The puzzler's public page shows only the
    championships in which the person consented to publication, and does not
    exist without one.
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
    def own(cls, count: int) -> list[Puzzler]:
        """Return ``count`` new puzzlers of their own, for persons created in bulk (imports).

        An imported person has not confirmed their address: as ``Person.save``
        makes a new person, each is a puzzler of their own.
        """
        return cls.objects.bulk_create([cls() for _index in range(count)])


def puzzlers_kept(championship: Championship) -> dict[str, tuple[str, int, bool]]:
    """Return the puzzler of each of the championship's persons: id → (address, puzzler, joined).

    ``joined``: the puzzler is that of the address (the person confirmed it).
    Read before a championship is replaced by a new import of it (``--replace``),
    for ``imported_puzzlers``.
    """
    return {
        ref: (email_key(email), puzzler_id, key is not None)
        for ref, email, puzzler_id, key in championship.persons.values_list(
            "ref", "email", "puzzler_id", "puzzler__email_key"
        )
    }


def imported_puzzlers(
    persons: list[dict], *, kept: dict[str, tuple[str, int, bool]] | None = None
) -> list[int]:
    """Return the id of the puzzler of each imported person (fields as ``Person``'s), in order.

    An import confirms no address and merges no one into an existing puzzler: a
    person is a puzzler of their own. When the import replaces the championship,
    a person of the same id keeps their puzzler (and so their page) as a saved
    person would: a confirmed one if the address is the same, their own whatever
    the address (``puzzlers_kept``).
    """
    kept = kept or {}
    found = []
    for person in persons:
        key, puzzler, joined = kept.get(person["ref"], ("", None, False))
        same = not joined or key == email_key(person.get("email", ""))
        found.append(puzzler if same else None)
    own = iter(Puzzler.own(sum(1 for pk in found if pk is None)))
    return [next(own).pk if pk is None else pk for pk in found]


def puzzlers_drop_unused(pks) -> None:
    """Delete the puzzlers among ``pks`` that no person belongs to any more (after a replace)."""
    Puzzler.objects.filter(pk__in=list(pks), persons__isnull=True).delete()


class AddressState(models.TextChoices):
    """How a person is recognised across championships: by their confirmed address, or not."""

    CONFIRMED = "confirmed", _("confirmed e-mail address")
    AWAITING = "awaiting", _("e-mail address not confirmed yet")
    NONE = "none", _("no e-mail address")


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
        """Save the person; a new one as a puzzler of their own (``Puzzler``).

        A person joins the puzzler of their address only by confirming it
        (``registration.addresses``). A person in such a puzzler whose address
        changes leaves it for a puzzler of their own and is unconfirmed again
        (the new address is to be confirmed); one not yet confirmed keeps theirs.
        """
        key = email_key(self.email)
        saved = getattr(self, "_saved_email_key", None)
        left = saved is not None and saved != key and self.puzzler.email_key is not None
        if self.puzzler_id is None or left:
            self.puzzler = Puzzler.objects.create()
            update_fields = kwargs.get("update_fields")
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "puzzler"}
        super().save(*args, **kwargs)
        self._saved_email_key = key

    @property
    def address_confirmed(self) -> bool:
        """Return whether the person confirmed their address: they are its puzzler."""
        key = email_key(self.email)
        return bool(key) and self.puzzler.email_key == key

    @property
    def address_state(self) -> str:
        """Return how the person is recognised across championships (``AddressState``)."""
        if self.address_confirmed:
            return AddressState.CONFIRMED
        return AddressState.AWAITING if email_key(self.email) else AddressState.NONE

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
