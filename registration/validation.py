"""What a registration must satisfy before it is saved: its members' details, ages, eligibility
(officiality), one entry per person, and the explanation a registrant sees as the form is filled.

Nothing here writes; ``registration.services`` calls ``validate_registration`` and
``registration_verdict`` inside its transactions."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_countries import countries

from championship import bounds
from championship.models import Category
from championship.rules import eligibility, identity
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
    eligibility.ELIGIBLE_EVERYONE: lambda rules: _(
        "everyone may take part officially under these rules"
    ),
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


def officiality_errors(category: Category, members: list[MemberData]) -> dict:
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


def member_errors(category: Category, members: list[MemberData], adult_name: str) -> dict:
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
    now = timezone.now()
    for index, member in enumerate(members):
        if not member.name.strip():
            add(f"members.{index}.name", _("Give the member's name."))
        # Implausible details, which the exports and the age rules would carry on.
        if member.birth_date is not None and not bounds.birth_date_allowed(member.birth_date, now):
            add(f"members.{index}.birth_date", bounds.birth_date_message())
        citizenship = bounds.citizenship_message(member.citizenship)
        if citizenship:
            add(f"members.{index}.citizenship", citizenship)
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
            # The form's help text gives the minimum age: the error says the member's own.
            add(
                key,
                _("Too young for this category (%(age)s on the day of the championship).")
                % {"age": problem.age},
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
    ``member_errors`` already, under every ruleset.
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


def registered_people(
    category: Category, members: list[MemberData] | None = None, *, exclude=None
) -> identity.People[None]:
    """Return the people of the category's entries that are not withdrawn, in one query.

    With ``members``, only those who may be one of them (by e-mail address or
    birth date: a registration's few); without, everyone in the category (an
    import's rows are compared with them in memory). ``exclude``: an entry left out.
    """
    taken = EntryMember.objects.filter(entry__category=category).exclude(
        entry__status=Entry.Status.WITHDRAWN
    )
    if members is not None:
        emails = {m.email.strip() for m in members if m.email.strip()}
        birth_dates = {m.birth_date for m in members if m.birth_date is not None}
        # Narrowed in the database to the candidates; compared as people by ``find``.
        lookup = Q(person__birth_date__in=birth_dates) if birth_dates else Q(pk__in=[])
        for email in emails:
            lookup |= Q(person__email__iexact=email)
        taken = taken.filter(lookup)
    if exclude is not None:
        taken = taken.exclude(entry=exclude)
    people: identity.People[None] = identity.People()
    for name, email, birth_date in taken.values_list(
        "person__name", "person__email", "person__birth_date"
    ):
        people.add(identity.Identity(name=name, email=email, birth_date=birth_date), None)
    return people


def duplicate_errors(members: list[MemberData], registered: identity.People) -> dict:
    """Return errors for the members who are one of the ``registered`` people."""
    errors = {}
    for index, member in enumerate(members):
        match = registered.find(member.as_identity())
        if match is None:
            continue
        if match[0] == identity.SAME_EMAIL:
            errors[f"members.{index}.email"] = [
                _("%(email)s is already registered in this category: one entry per person.")
                % {"email": member.email.strip()}
            ]
        else:
            errors[f"members.{index}.name"] = [
                _(
                    "%(name)s, born %(birth_date)s, is already registered in this category: "
                    "one entry per person."
                )
                % {"name": member.name.strip(), "birth_date": date_format(member.birth_date)}
            ]
    return errors


def duplicate_entry_errors(category: Category, members: list[MemberData], *, exclude=None):
    """Return errors for members already in another entry of the category (where the rules say).

    Members are compared as people (``championship.rules.identity``): by e-mail
    address, or by name and birth date. Withdrawn entries do not count.
    """
    if not category.championship.rules.one_entry_per_person_per_category:
        return {}
    if not any(m.email.strip() or m.birth_date is not None for m in members):
        return {}
    return duplicate_errors(members, registered_people(category, members, exclude=exclude))


def entry_errors(
    category: Category,
    members: list[MemberData],
    adult_name: str = "",
    *,
    registered: identity.People | None = None,
) -> dict:
    """Return what the rules refuse of an entry of ``members``, as form errors (no deadline).

    The members' details and ages, one entry per person and officiality.
    ``registered``: the category's people read before (``registered_people``), for
    many entries checked in a row; without, they are read for these members.
    """
    errors = member_errors(category, members, adult_name)
    if registered is None:
        duplicates = duplicate_entry_errors(category, members)
    elif category.championship.rules.one_entry_per_person_per_category:
        duplicates = duplicate_errors(members, registered)
    else:
        duplicates = {}
    for extra in (duplicates, officiality_errors(category, members)):
        for key, messages in extra.items():
            errors.setdefault(key, []).extend(messages)
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
    for key, messages in entry_errors(category, members, adult_name).items():
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
    told = officiality_errors(category, members)
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
