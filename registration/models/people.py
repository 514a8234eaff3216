"""Persons in a championship, and puzzlers across championships."""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from championship import bounds
from championship.models import Championship
from championship.rules import eligibility, identity


def new_ref() -> str:
    """Return a short id for the interchange format and the API."""
    return secrets.token_hex(5)


def new_puzzler_ref() -> str:
    """Return the id in a puzzler's public address: random, so that it tells nothing."""
    return secrets.token_hex(8)


# The use an entrant's private link is derived for (``core.tokens.derived_token``).


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
