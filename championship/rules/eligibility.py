"""Eligibility, official entries, and ages.

eligible
    rogaland: lives in Rogaland, or earlier lived there continuously for more
    than 5 years; sm: a Swedish citizen; dm: everyone. A person whose residence
    or citizenship is not known is not known to be eligible.
official entry
    An individual entry is official when its entrant is eligible; a pair or team
    when at least the preset's number of members are eligible (rogaland teams:
    3; sm: every member; dm: always).
age
    Whole years on the championship's date (in its own time zone). Below the
    category's minimum age an entrant may not take part; below the preset's
    adult age an accompanying adult must be named.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from championship.rulesets import INDIVIDUAL, Ruleset

# Reasons, as stable codes for translation at the edge.
ELIGIBLE_EVERYONE = "everyone_eligible"
LIVES_IN_REGION = "lives_in_region"
LIVED_IN_REGION = "lived_in_region"
NOT_IN_REGION = "not_in_region"
RESIDENCE_UNKNOWN = "residence_unknown"
CITIZEN = "citizen"
NOT_CITIZEN = "not_citizen"
CITIZENSHIP_UNKNOWN = "citizenship_unknown"

BELOW_MINIMUM_AGE = "below_minimum_age"
ADULT_REQUIRED = "adult_required"
BIRTH_DATE_REQUIRED = "birth_date_required"


@dataclass(frozen=True)
class Member:
    """What the rules need to know of a person."""

    name: str = ""
    birth_date: date | None = None
    region: str = ""
    years_in_region: int | None = None
    citizenship: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Eligibility:
    """Whether a person is eligible, and why (a code)."""

    eligible: bool
    reason: str


@dataclass(frozen=True)
class Officiality:
    """Whether an entry is official, with each member's eligibility."""

    official: bool
    members: tuple[Eligibility, ...]
    eligible_count: int
    required_count: int


@dataclass(frozen=True)
class AgeProblem:
    """A member who may not take part as registered: which member, and why."""

    member: int
    code: str
    age: int | None
    limit: int | None


def eligibility(member: Member, rules: Ruleset) -> Eligibility:
    """Return whether ``member`` may take part officially under ``rules``, and why."""
    if rules.eligibility == "everyone":
        return Eligibility(True, ELIGIBLE_EVERYONE)
    if rules.eligibility == "citizenship":
        codes = {code.upper() for code in member.citizenship}
        if not codes:
            return Eligibility(False, CITIZENSHIP_UNKNOWN)
        if rules.eligibility_citizenship.upper() in codes:
            return Eligibility(True, CITIZEN)
        return Eligibility(False, NOT_CITIZEN)
    # Residence in a region, now or earlier for more than the minimum years.
    region = rules.eligibility_region.casefold()
    if member.region and member.region.strip().casefold() == region:
        return Eligibility(True, LIVES_IN_REGION)
    if member.years_in_region is not None and (
        member.years_in_region > rules.eligibility_region_min_years
    ):
        return Eligibility(True, LIVED_IN_REGION)
    if not member.region and member.years_in_region is None:
        return Eligibility(False, RESIDENCE_UNKNOWN)
    return Eligibility(False, NOT_IN_REGION)


def required_eligible(kind: str, size: int, rules: Ruleset) -> int:
    """Return how many members of an entry of ``size`` must be eligible for it to be official."""
    if kind == INDIVIDUAL:
        return size
    threshold = getattr(rules, f"{kind}_official_min_eligible")
    return size if threshold is None else min(threshold, size)


def officiality(kind: str, members: Sequence[Member], rules: Ruleset) -> Officiality:
    """Return whether an entry of ``kind`` with ``members`` is official under ``rules``."""
    each = tuple(eligibility(member, rules) for member in members)
    count = sum(e.eligible for e in each)
    required = required_eligible(kind, len(members), rules)
    return Officiality(
        official=bool(members) and count >= required,
        members=each,
        eligible_count=count,
        required_count=required,
    )


def age_on(birth_date: date, day: date) -> int:
    """Return the age in whole years on ``day`` (a birthday on 29 February counts on 1 March)."""
    before_birthday = (day.month, day.day) < (birth_date.month, birth_date.day)
    return day.year - birth_date.year - before_birthday


def age_problems(
    kind: str, members: Sequence[Member], rules: Ruleset, day: date, *, adult_name: str = ""
) -> list[AgeProblem]:
    """Return why members may not take part as registered: too young, or no adult named.

    The ages are taken on ``day``, the championship's date. A missing birth date
    is a problem only where an age limit applies.
    """
    problems = []
    minimum = rules.min_age_for(kind)
    adult_age = rules.adult_required_below
    for index, member in enumerate(members):
        if member.birth_date is None:
            if minimum is not None or adult_age is not None:
                problems.append(AgeProblem(index, BIRTH_DATE_REQUIRED, None, None))
            continue
        age = age_on(member.birth_date, day)
        if minimum is not None and age < minimum:
            problems.append(AgeProblem(index, BELOW_MINIMUM_AGE, age, minimum))
        elif adult_age is not None and age < adult_age and not adult_name.strip():
            problems.append(AgeProblem(index, ADULT_REQUIRED, age, adult_age))
    return problems
