"""Register, withdraw and promote entries: capacity, waiting list, eligibility and ages.

Every function owns its transaction. Capacity is guarded by a row lock on the
category (``SELECT … FOR UPDATE``), taken just before the count, so that a rush
of sign-ups for the last places never confirms more entries than there are
places, and the places go in arrival order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_countries import countries

from championship.models import Category, new_token
from championship.rules import eligibility, identity
from registration import notifications, signals
from registration.models import Entry, EntryMember, Person
from registration.places import CLOSED, NOT_OPEN, OPEN, registration_state


@dataclass(frozen=True)
class MemberData:
    """What a registrant gives for one member."""

    name: str
    email: str = ""
    birth_date: date | None = None
    city: str = ""
    country: str = ""
    citizenship: tuple[str, ...] = field(default_factory=tuple)
    region: str = ""
    years_in_region: int | None = None
    # The member's own consent to publication; ``None``: not asked, the entry's consent counts.
    publish_consent: bool | None = None

    def consents(self, entry_consent: bool) -> bool:
        """Return whether the member consents to publication, given the entry's consent."""
        return entry_consent if self.publish_consent is None else self.publish_consent

    def as_rules_member(self) -> eligibility.Member:
        return eligibility.Member(
            name=self.name,
            birth_date=self.birth_date,
            region=self.region,
            years_in_region=self.years_in_region,
            citizenship=tuple(code.upper() for code in self.citizenship),
        )

    def as_identity(self) -> identity.Identity:
        return identity.Identity(name=self.name, email=self.email, birth_date=self.birth_date)


def country_name(code: str) -> str:
    """Return a country's name in the active language ("Sweden", "Sverige"), else its code."""
    return str(countries.name(code)) or code


REASONS = {
    eligibility.ELIGIBLE_EVERYONE: lambda rules: _("everyone takes part officially"),
    eligibility.LIVES_IN_REGION: lambda rules: (
        _("lives in %(region)s") % {"region": rules.eligibility_region}
    ),
    eligibility.LIVED_IN_REGION: lambda rules: (
        _("lived in %(region)s for more than %(years)s years")
        % {"region": rules.eligibility_region, "years": rules.eligibility_region_min_years}
    ),
    eligibility.NOT_IN_REGION: lambda rules: (
        _("does not live in %(region)s and did not live there for more than %(years)s years")
        % {"region": rules.eligibility_region, "years": rules.eligibility_region_min_years}
    ),
    eligibility.RESIDENCE_UNKNOWN: lambda rules: _("residence not given"),
    eligibility.CITIZEN: lambda rules: (
        _("is a citizen of %(country)s") % {"country": country_name(rules.eligibility_citizenship)}
    ),
    eligibility.NOT_CITIZEN: lambda rules: (
        _("is not a citizen of %(country)s")
        % {"country": country_name(rules.eligibility_citizenship)}
    ),
    eligibility.CITIZENSHIP_UNKNOWN: lambda rules: _("citizenship not given"),
}


@dataclass(frozen=True)
class OfficialityExplained:
    """Whether an entry will be official, with a sentence a registrant understands.

    ``refused``: the entry would be unofficial, and the rules take official entries only.
    """

    official: bool
    summary: str
    members: tuple[str, ...]
    refused: bool = False


def _member_name(member: MemberData, index: int) -> str:
    """Return the member's name, or "Member N" (``index`` counts from 0) while there is none."""
    return member.name.strip() or _("Member %(number)s") % {"number": index + 1}


def explain_officiality(category: Category, members: list[MemberData]) -> OfficialityExplained:
    """Return whether an entry of ``members`` would be official, and why, in the active language.

    Where the rules take no unofficial entries (``unofficial_allowed`` false), an
    entry that would be unofficial is told it will be refused.
    """
    rules = category.championship.rules
    result = eligibility.officiality(category.kind, [m.as_rules_member() for m in members], rules)
    reasons = tuple(
        f"{_member_name(member, index)}: {REASONS[each.reason](rules)}"
        for index, (member, each) in enumerate(zip(members, result.members, strict=True))
    )
    refused = not result.official and not rules.unofficial_allowed
    if result.official:
        summary = _("The entry will be official.")
    elif refused:
        summary = _refused_summary(category, result)
    elif category.kind == "individual":
        summary = _("The entry will be unofficial (hors concours).")
    else:
        summary = ngettext(
            "The entry will be unofficial (hors concours): %(required)s eligible member is "
            "needed, %(eligible)s given.",
            "The entry will be unofficial (hors concours): %(required)s eligible members are "
            "needed, %(eligible)s given.",
            result.required_count,
        ) % {"required": result.required_count, "eligible": result.eligible_count}
    return OfficialityExplained(result.official, summary, reasons, refused)


def _refused_summary(category: Category, result: eligibility.Officiality) -> str:
    if category.kind == "individual":
        return _("The entry will be refused: this championship takes official entries only.")
    return ngettext(
        "The entry will be refused: this championship takes official entries only, and "
        "%(required)s eligible member is needed, %(eligible)s given.",
        "The entry will be refused: this championship takes official entries only, and "
        "%(required)s eligible members are needed, %(eligible)s given.",
        result.required_count,
    ) % {"required": result.required_count, "eligible": result.eligible_count}


# The member's field that an eligibility rule reads, for the error of an ineligible member.
ELIGIBILITY_FIELD = {"citizenship": "citizenship", "region_residence": "region"}


def _officiality_errors(category: Category, members: list[MemberData]) -> dict:
    """Return why an entry is refused when it would be unofficial and the rules want official ones.

    Each ineligible member gets the reason (as the officiality check gives it) on
    the field the rule reads; the entry as a whole gets the summary.
    """
    rules = category.championship.rules
    if rules.unofficial_allowed or not members:
        return {}
    result = eligibility.officiality(category.kind, [m.as_rules_member() for m in members], rules)
    if result.official:
        return {}
    if category.kind == "individual":
        summary = _(
            "This championship takes official entries only, and this entry would be "
            "unofficial (hors concours)."
        )
    else:
        summary = ngettext(
            "This championship takes official entries only, and this entry would be "
            "unofficial (hors concours): %(required)s eligible member is needed, "
            "%(eligible)s given.",
            "This championship takes official entries only, and this entry would be "
            "unofficial (hors concours): %(required)s eligible members are needed, "
            "%(eligible)s given.",
            result.required_count,
        ) % {"required": result.required_count, "eligible": result.eligible_count}
    errors: dict[str, list[str]] = {"__all__": [summary]}
    field_name = ELIGIBILITY_FIELD.get(rules.eligibility, "name")
    for index, (member, each) in enumerate(zip(members, result.members, strict=True)):
        if not each.eligible:
            errors[f"members.{index}.{field_name}"] = [
                _("%(member)s: %(reason)s, so the entry cannot be official.")
                % {"member": _member_name(member, index), "reason": REASONS[each.reason](rules)}
            ]
    return errors


def _member_errors(category: Category, members: list[MemberData], adult_name: str) -> dict:
    """Return the problems of the members as form errors: ``{"members.N.field": [...]}``."""
    championship = category.championship
    rules = championship.rules
    errors: dict[str, list[str]] = {}

    def add(key, message):
        errors.setdefault(key, []).append(message)

    if not category.min_members <= len(members) <= category.max_members:
        if category.min_members == category.max_members:
            add(
                "members",
                ngettext(
                    "An entry in this category has %(count)s member.",
                    "An entry in this category has %(count)s members.",
                    category.min_members,
                )
                % {"count": category.min_members},
            )
        else:
            add(
                "members",
                _("An entry in this category has %(low)s to %(high)s members.")
                % {"low": category.min_members, "high": category.max_members},
            )
    seen = {}
    for index, member in enumerate(members):
        if not member.name.strip():
            add(f"members.{index}.name", _("Give the member's name."))
        email = member.email.strip().lower()
        if index == 0 and not email:
            add(f"members.{index}.email", _("Give an e-mail address for the confirmation."))
        if email:
            if email in seen:
                add(f"members.{index}.email", _("Two members cannot share an e-mail address."))
            seen[email] = index
    day = championship.local_date
    for problem in eligibility.age_problems(
        category.kind, [m.as_rules_member() for m in members], rules, day, adult_name=adult_name
    ):
        key = f"members.{problem.member}.birth_date"
        if problem.code == eligibility.BELOW_MINIMUM_AGE:
            add(
                key,
                _("The minimum age in this category is %(limit)s on the day of the championship.")
                % {"limit": problem.limit},
            )
        elif problem.code == eligibility.ADULT_REQUIRED:
            add(
                "adult_name",
                _(
                    "%(name)s is under %(limit)s on the day of the championship: "
                    "name the accompanying adult."
                )
                % {"name": members[problem.member].name or _("A member"), "limit": problem.limit},
            )
        else:
            add(key, _("Give the birth date: this category has an age limit."))
    if rules.one_entry_per_person_per_category:
        for key, message in _identity_errors(members):
            add(key, message)
    return errors


def _identity_errors(members: list[MemberData]) -> list[tuple[str, str]]:
    """Return the members who cannot be told apart, where each person may enter once.

    A member needs an e-mail address or a birth date (with the name); two members
    of one entry cannot be the same person. The first member, who must give an
    e-mail address anyway, and two equal e-mail addresses are told by
    ``_member_errors`` already, under every ruleset.
    """
    problems = []
    for index, member in enumerate(members[1:], start=1):
        if not member.email.strip() and member.birth_date is None:
            problems.append(
                (
                    f"members.{index}.email",
                    _(
                        "Give an e-mail address or a birth date for %(member)s: each person "
                        "may have one entry in this category, and these tell people apart."
                    )
                    % {"member": _member_name(member, index)},
                )
            )
    identities = [member.as_identity() for member in members]
    for clash in identity.clashes_within(identities):
        if clash.how == identity.SAME_NAME_AND_BIRTH_DATE:
            problems.append(
                (
                    f"members.{clash.member}.name",
                    _(
                        "%(member)s has the same name and birth date as member %(number)s: "
                        "one person cannot be two members of an entry."
                    )
                    % {
                        "member": _member_name(members[clash.member], clash.member),
                        "number": clash.other + 1,
                    },
                )
            )
    return problems


def _duplicate_entry_errors(category: Category, members: list[MemberData], *, exclude=None):
    """Return errors for members already in another entry of the category (where the rules say).

    Members are compared as people (``championship.rules.identity``): by e-mail
    address, or by name and birth date. Withdrawn entries do not count.
    """
    if not category.championship.rules.one_entry_per_person_per_category:
        return {}
    emails = {m.email.strip() for m in members if m.email.strip()}
    birth_dates = {m.birth_date for m in members if m.birth_date is not None}
    if not emails and not birth_dates:
        return {}
    # Narrowed in the database to the candidates; compared as people below.
    lookup = Q(person__birth_date__in=birth_dates) if birth_dates else Q(pk__in=[])
    for email in emails:
        lookup |= Q(person__email__iexact=email)
    taken = (
        EntryMember.objects.filter(lookup, entry__category=category)
        .exclude(entry__status=Entry.Status.WITHDRAWN)
        .select_related("person")
        .order_by("entry__registered_at", "entry_id", "position")
    )
    if exclude is not None:
        taken = taken.exclude(entry=exclude)
    others = [
        identity.Identity(name=m.person.name, email=m.person.email, birth_date=m.person.birth_date)
        for m in taken
    ]
    errors = {}
    for clash in identity.clashes_with_others([m.as_identity() for m in members], others):
        member = members[clash.member]
        if clash.how == identity.SAME_EMAIL:
            errors[f"members.{clash.member}.email"] = [
                _("%(email)s is already registered in this category: one entry per person.")
                % {"email": member.email.strip()}
            ]
        else:
            errors[f"members.{clash.member}.name"] = [
                _(
                    "%(name)s, born %(birth_date)s, is already registered in this category: "
                    "one entry per person."
                )
                % {"name": member.name.strip(), "birth_date": date_format(member.birth_date)}
            ]
    return errors


def validate_registration(
    *,
    category: Category,
    members: list[MemberData],
    adult_name: str = "",
    now: datetime | None = None,
    enforce_deadline: bool = True,
) -> None:
    """Raise ``ValidationError`` (a dict of field errors) when the registration is not allowed.

    An organiser (``enforce_deadline=False``) may register outside the registration period.
    """
    errors = {}
    state = registration_state(category, now=now, confirmed=0) if enforce_deadline else OPEN
    if state == CLOSED:
        errors["__all__"] = [_("Registration for this category has closed.")]
    elif state == NOT_OPEN:
        errors["__all__"] = [_("Registration for this category has not opened yet.")]
    errors.update(_member_errors(category, members, adult_name))
    for extra in (
        _duplicate_entry_errors(category, members),
        _officiality_errors(category, members),
    ):
        for key, messages in extra.items():
            errors.setdefault(key, []).extend(messages)
    if errors:
        raise ValidationError(errors)


@dataclass(frozen=True)
class Verdict:
    """What submitting a registration would answer: its refusals, and the officiality.

    ``refusals`` are the reasons ``validate_registration`` refuses the entry for,
    each naming the member it is about; empty when nothing but the officiality
    (which ``officiality`` explains) stands in the way.
    """

    refusals: tuple[str, ...]
    officiality: OfficialityExplained


def registration_verdict(
    *,
    category: Category,
    members: list[MemberData],
    adult_name: str = "",
    now: datetime | None = None,
) -> Verdict:
    """Return what submitting the registration as filled in so far would answer.

    The same validation as the submit (``validate_registration``), less what is
    merely not filled in yet: an error about a field left empty, or about the
    number of members. Officiality refusals are left to ``officiality``, which
    says them with the reasons.
    """
    officiality = explain_officiality(category, members)
    try:
        validate_registration(category=category, members=members, adult_name=adult_name, now=now)
    except ValidationError as error:
        errors = error.message_dict
    else:
        return Verdict((), officiality)
    told = _officiality_errors(category, members)
    refusals = []
    for key, messages in errors.items():
        if key == "members":
            continue
        member = None
        if key.startswith("members."):
            _members, index, field_name = key.split(".")
            member = members[int(index)]
            if not getattr(member, field_name, None):
                continue
        for message in messages:
            if message in told.get(key, ()):
                continue
            label = None if member is None else _member_name(member, int(index))
            if label and not message.startswith(label):
                message = f"{label}: {message}"
            refusals.append(message)
    return Verdict(tuple(refusals), officiality)


def _lock_category(category: Category) -> Category:
    """Lock the category's row: the guard of its capacity and of the arrival order."""
    return Category.objects.select_for_update().get(pk=category.pk)


def _after_capacity_check() -> None:
    """Do nothing; the concurrency test widens the race window here."""


def entry_register(
    *,
    category: Category,
    members: list[MemberData],
    name: str = "",
    publish_consent: bool = False,
    adult_name: str = "",
    language: str = "en",
    now: datetime | None = None,
    enforce_deadline: bool = True,
    send_mail: bool = True,
) -> Entry:
    """Register an entry: confirmed while there are places, then on the waiting list.

    Raise ``ValidationError`` with field errors, saving nothing, when the rules
    or the deadline do not allow it. The confirmation e-mail is sent once the
    transaction has committed (unless ``send_mail`` is off, as for an import).

    Each member consents to publication or not (``MemberData.publish_consent``,
    else ``publish_consent`` for all); the entry as a whole (its name) only when
    every member does.
    """
    consents = [member.consents(publish_consent) for member in members]
    validate_registration(
        category=category,
        members=members,
        adult_name=adult_name,
        now=now,
        enforce_deadline=enforce_deadline,
    )
    championship = category.championship
    with transaction.atomic():
        locked = _lock_category(category)
        # Checked again under the lock: a concurrent registration may have taken the person.
        duplicates = _duplicate_entry_errors(locked, members)
        if duplicates:
            raise ValidationError(duplicates)
        confirmed = locked.entries.filter(status=Entry.Status.CONFIRMED).count()
        has_place = locked.capacity is None or confirmed < locked.capacity
        _after_capacity_check()
        arrived = timezone.now()
        entry = Entry.objects.create(
            category=locked,
            name=(name.strip() or " & ".join(m.name.strip() for m in members))[:200],
            status=Entry.Status.CONFIRMED if has_place else Entry.Status.WAITLISTED,
            registered_at=arrived,
            confirmed_at=arrived if has_place else None,
            fee=locked.fee,
            publish_consent=all(consents),
            adult_name=adult_name.strip(),
            contact_email=members[0].email.strip(),
            language=language,
        )
        for position, (member, consent) in enumerate(zip(members, consents, strict=True), 1):
            person = Person.objects.create(
                championship=championship,
                name=member.name.strip(),
                email=member.email.strip(),
                birth_date=member.birth_date,
                city=member.city.strip(),
                country=member.country.strip().upper(),
                citizenship=[code.upper() for code in member.citizenship],
                region=member.region.strip(),
                years_in_region=member.years_in_region,
                publish_consent=consent,
            )
            EntryMember.objects.create(entry=entry, person=person, position=position)
        if send_mail:
            notifications.queue_registered(entry.pk)
    return entry


def _promote_waiting(category: Category) -> list[Entry]:
    """Confirm waitlisted entries, first come first served, while there are places."""
    confirmed = category.entries.filter(status=Entry.Status.CONFIRMED).count()
    free = None if category.capacity is None else category.capacity - confirmed
    waiting = category.entries.filter(status=Entry.Status.WAITLISTED).order_by(
        "registered_at", "id"
    )
    if free is not None:
        waiting = waiting[: max(free, 0)]
    promoted = list(waiting)
    now = timezone.now()
    for entry in promoted:
        entry.status = Entry.Status.CONFIRMED
        entry.confirmed_at = now
        entry.save(update_fields=["status", "confirmed_at", "updated_at"])
        notifications.queue_promoted(entry.pk)
    return promoted


def first_round_started(category: Category) -> bool:
    """Return whether a heat of the category's first round has started.

    From then on an entrant cannot withdraw through the private link: only the
    organiser can withdraw an entry.
    """
    first = category.rounds.order_by("order", "pk").first()
    return first is not None and first.heats.filter(started_at__isnull=False).exists()


@transaction.atomic
def entry_withdraw(*, entry: Entry, by_entrant: bool = False) -> list[Entry]:
    """Withdraw an entry; a freed place goes to the first entry on the waiting list.

    With ``by_entrant`` (the private link) the withdrawal is refused with a
    ``ValidationError`` once the category's first round has started. A withdrawn
    entry is never ranked: the rounds it has a result in are ranked again
    (``signals.entry_withdrawn``). Return the entries promoted from the waiting
    list (told by e-mail).
    """
    category = _lock_category(entry.category)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        return []
    if by_entrant and first_round_started(category):
        raise ValidationError(
            _(
                "The first round has started: the entry can no longer be withdrawn here. "
                "Ask the organiser."
            ),
            code="round_started",
        )
    was_confirmed = entry.status == Entry.Status.CONFIRMED
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["status", "withdrawn_at", "updated_at"])
    signals.entry_withdrawn.send(sender=Entry, entries=[entry])
    notifications.queue_withdrawn(entry.pk)
    return _promote_waiting(category) if was_confirmed else []


@transaction.atomic
def category_set_capacity(*, category: Category, capacity: int | None) -> list[Entry]:
    """Change a category's capacity; confirmed entries keep their place.

    A larger capacity confirms waitlisted entries in arrival order; return them.
    """
    if capacity is not None and capacity < 0:
        raise ValidationError({"capacity": [_("The capacity cannot be negative.")]})
    locked = _lock_category(category)
    locked.capacity = capacity
    locked.save(update_fields=["capacity"])
    category.capacity = capacity
    return _promote_waiting(locked)


@transaction.atomic
def entry_promote(*, entry: Entry) -> Entry:
    """Confirm a waitlisted entry by the organiser's decision, even beyond the capacity."""
    _lock_category(entry.category)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != Entry.Status.WAITLISTED:
        raise ValidationError(_("Only an entry on the waiting list can be promoted."))
    entry.status = Entry.Status.CONFIRMED
    entry.confirmed_at = timezone.now()
    entry.save(update_fields=["status", "confirmed_at", "updated_at"])
    notifications.queue_promoted(entry.pk)
    return entry


def member_data_of(person: Person) -> MemberData:
    """Return a stored person as registration data."""
    citizenship = person.citizenship if isinstance(person.citizenship, list) else []
    return MemberData(
        name=person.name,
        email=person.email,
        birth_date=person.birth_date,
        city=person.city,
        country=person.country,
        citizenship=tuple(citizenship),
        region=person.region,
        years_in_region=person.years_in_region,
        publish_consent=person.publish_consent,
    )


@transaction.atomic
def entry_update_details(
    *,
    entry: Entry,
    members: list[MemberData],
    name: str = "",
    adult_name: str = "",
    publish_consent: bool = False,
    by=None,
) -> Entry:
    """Correct an entry's details and its members'; the same rules as at registration.

    The entry keeps its status and its place in the queue. When a member's
    residence or citizenship changes, or a member comes or goes, the entries
    concerned are re-ranked wherever they have a result (``members_changed``).
    Consent to publication is per member, as at registration.
    """
    consents = [member.consents(publish_consent) for member in members]
    category = entry.category
    errors = _member_errors(category, members, adult_name)
    for extra in (
        _duplicate_entry_errors(category, members, exclude=entry),
        _officiality_errors(category, members),
    ):
        for key, messages in extra.items():
            errors.setdefault(key, []).extend(messages)
    if errors:
        raise ValidationError(errors)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    memberships = list(entry.memberships.select_related("person").order_by("position"))
    changed = {entry.pk} if len(members) != len(memberships) else set()
    for position, (member, consent) in enumerate(zip(members, consents, strict=True), 1):
        values = {
            "name": member.name.strip(),
            "email": member.email.strip(),
            "birth_date": member.birth_date,
            "city": member.city.strip(),
            "country": member.country.strip().upper(),
            "citizenship": [code.upper() for code in member.citizenship],
            "region": member.region.strip(),
            "years_in_region": member.years_in_region,
            "publish_consent": consent,
        }
        if position <= len(memberships):
            person = memberships[position - 1].person
            before = officiality_inputs(person)
            for attribute, value in values.items():
                setattr(person, attribute, value)
            person.save()
            if officiality_inputs(person) != before:
                changed.update(person.memberships.values_list("entry_id", flat=True))
        else:
            person = Person.objects.create(championship=category.championship, **values)
            EntryMember.objects.create(entry=entry, person=person, position=position)
    for membership in memberships[len(members) :]:
        person = membership.person
        membership.delete()
        if not person.memberships.exists():
            person.delete()
    entry.name = (name.strip() or " & ".join(m.name.strip() for m in members))[:200]
    entry.adult_name = adult_name.strip()
    entry.publish_consent = all(consents)
    entry.contact_email = members[0].email.strip()
    entry.save()
    _members_changed(Entry.objects.filter(pk__in=changed), by=by)
    return entry


def officiality_inputs(person: Person) -> tuple:
    """Return what decides whether ``person`` is eligible, as comparable values.

    Citizenship, region and earlier years in the region: what
    ``championship.rules.eligibility`` reads.
    """
    citizenship = person.citizenship
    if isinstance(citizenship, str):
        citizenship = [citizenship]
    return (
        tuple(sorted(code.upper() for code in citizenship or ())),
        person.region.strip().casefold(),
        person.years_in_region,
    )


def _members_changed(entries, *, by=None) -> None:
    """Tell the apps built on registration that ``entries``' members changed (they re-rank)."""
    entries = list(entries)
    if entries:
        signals.members_changed.send(sender=Entry, entries=entries, by=by)


PERSON_FIELDS = frozenset(
    field.name for field in Person._meta.concrete_fields if field.editable and not field.primary_key
)


@transaction.atomic
def person_update(*, person: Person, by=None, **changes) -> Person:
    """Correct a person's details, e.g. an organiser's correction of a residence or citizenship.

    ``changes`` are the person's fields and their new values; values already set
    on ``person`` are saved as well. When what decides the person's officiality
    changed, every entry of the person is re-ranked wherever it has a result.
    """
    unknown = set(changes) - PERSON_FIELDS
    if unknown:
        raise TypeError(f"not fields of a person: {', '.join(sorted(unknown))}")
    stored = Person.objects.select_for_update().get(pk=person.pk)
    for name, value in changes.items():
        setattr(person, name, value)
    person.save()
    if officiality_inputs(person) != officiality_inputs(stored):
        _members_changed(Entry.objects.filter(memberships__person=person).distinct(), by=by)
    return person


@transaction.atomic
def persons_delete(*, persons, by=None) -> None:
    """Delete persons (and their memberships); the entries they were in are re-ranked."""
    pks = [person.pk for person in persons]
    entries = list(Entry.objects.filter(memberships__person__in=pks).distinct())
    Person.objects.filter(pk__in=pks).delete()
    _members_changed(entries, by=by)


@transaction.atomic
def entry_members_changed(*, entry: Entry, by=None) -> None:
    """Record that an entry's members were changed elsewhere (the admin): re-rank the entry.

    Call inside the transaction that changed them.
    """
    _members_changed([entry], by=by)


@transaction.atomic
def entry_check_in(*, entry: Entry, undo: bool = False) -> Entry:
    """Check a confirmed entry in on the day (or take the check-in back)."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != Entry.Status.CONFIRMED:
        raise ValidationError(_("Only a confirmed entry can be checked in."))
    entry.checked_in_at = None if undo else (entry.checked_in_at or timezone.now())
    entry.save(update_fields=["checked_in_at", "updated_at"])
    return entry


@transaction.atomic
def entry_mark_walkover(*, entry: Entry, reason: str, undo: bool = False) -> Entry:
    """Mark a confirmed entry as a walk-over (no-show, no check-in in time), with a reason."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if undo:
        entry.walkover_at, entry.walkover_reason = None, ""
    else:
        if not reason.strip():
            raise ValidationError({"reason": [_("Give a reason for the walk-over.")]})
        if entry.status != Entry.Status.CONFIRMED:
            raise ValidationError(_("Only a confirmed entry can be marked as a walk-over."))
        entry.walkover_at = entry.walkover_at or timezone.now()
        entry.walkover_reason = reason.strip()
    entry.save(update_fields=["walkover_at", "walkover_reason", "updated_at"])
    return entry


@transaction.atomic
def entry_set_payment(*, entry: Entry, status: str, reference: str | None = None) -> Entry:
    """Record an entry's payment status and, optionally, its payment reference."""
    if status not in Entry.Payment.values:
        raise ValidationError({"payment_status": [_("Unknown payment status.")]})
    limit = Entry._meta.get_field("payment_reference").max_length
    if reference is not None and len(reference.strip()) > limit:
        raise ValidationError(
            {"payment_reference": [_("At most %(limit)s characters.") % {"limit": limit}]}
        )
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.payment_status = status
    fields = ["payment_status", "updated_at"]
    if reference is not None:
        entry.payment_reference = reference.strip()
        fields.append("payment_reference")
    entry.save(update_fields=fields)
    return entry


class ImportRowRefused(Exception):
    """A row of an import that the registration rules refused; nothing of the import was saved."""

    def __init__(self, row, error: ValidationError):
        super().__init__(getattr(row, "line", row))
        self.row = row
        self.messages = error.messages


@transaction.atomic
def entries_import(*, rows, language: str) -> list[Entry]:
    """Register imported rows in one transaction: all of them, or none.

    Each row gives ``category``, ``members``, ``name``, ``publish_consent``,
    ``adult_name``, ``payment_status`` and ``payment_reference``. The same rules
    as the form apply, except the deadline; no e-mail is sent. Raise
    ``ImportRowRefused`` naming the first refused row.
    """
    created = []
    for row in rows:
        try:
            entry = entry_register(
                category=row.category,
                members=row.members,
                name=row.name,
                publish_consent=row.publish_consent,
                adult_name=row.adult_name,
                language=language,
                enforce_deadline=False,
                send_mail=False,
            )
            if row.payment_status or row.payment_reference:
                entry = entry_set_payment(
                    entry=entry,
                    status=row.payment_status or entry.payment_status,
                    reference=row.payment_reference,
                )
        except ValidationError as error:
            raise ImportRowRefused(row, error) from None
        created.append(entry)
    return created


@transaction.atomic
def ranking_apply(*, category: Category, ranks: dict[int, int], clear_others: bool) -> int:
    """Set the prior ranking of a category's entries; return how many were ranked.

    ``ranks`` maps entry ids to ranks (from an earlier recognised championship).
    With ``clear_others`` the other confirmed entries lose their rank, so the
    ranking is exactly the file's.
    """
    _lock_category(category)
    entries = Entry.objects.filter(category=category)
    if clear_others:
        entries.filter(status=Entry.Status.CONFIRMED).exclude(pk__in=ranks).update(
            prior_ranking=None
        )
    for pk, rank in ranks.items():
        if rank < 1:
            raise ValidationError({"rank": [_("A rank is a whole number from 1.")]})
        entries.filter(pk=pk).update(prior_ranking=rank)
    return len(ranks)


@transaction.atomic
def entry_rotate_manage_link(*, entry: Entry) -> Entry:
    """Give an entry a new private manage link and send it; the old link stops working at once."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.manage_token = new_token()
    entry.save(update_fields=["manage_token", "updated_at"])
    notifications.queue_new_link(entry.pk)
    return entry
