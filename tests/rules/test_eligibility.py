"""RULES.md's eligibility, official entries, ages and the accompanying adult."""

from datetime import date

import pytest

from championship.presets import get_preset
from championship.rules.eligibility import (
    ADULT_REQUIRED,
    BELOW_MINIMUM_AGE,
    BIRTH_DATE_REQUIRED,
    CITIZENSHIP_UNKNOWN,
    LIVED_IN_REGION,
    LIVES_IN_REGION,
    NOT_CITIZEN,
    NOT_IN_REGION,
    RESIDENCE_UNKNOWN,
    Member,
    age_on,
    age_problems,
    eligibility,
    officiality,
)

ROGALAND, SM, DM = (get_preset(key).rules for key in ("rogaland", "sm", "dm"))
DAY = date(2026, 3, 14)

LOCAL = Member(region="Rogaland")
AWAY = Member(region="Vestland", years_in_region=2)
SWEDE = Member(citizenship=("SE",))
FINN = Member(citizenship=("FI",))


# Eligibility ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("member", "eligible", "reason"),
    [
        (Member(region="Rogaland"), True, LIVES_IN_REGION),
        (Member(region="  rogaland "), True, LIVES_IN_REGION),
        (Member(region="Oslo", years_in_region=6), True, LIVED_IN_REGION),
        (Member(region="Oslo", years_in_region=5), False, NOT_IN_REGION),  # more than 5 years
        (Member(region="Oslo"), False, NOT_IN_REGION),
        (Member(), False, RESIDENCE_UNKNOWN),
    ],
)
def test_rogaland_eligibility_is_residence_now_or_more_than_5_years_earlier(
    member, eligible, reason
):
    assert eligibility(member, ROGALAND) == (
        eligibility(member, ROGALAND).__class__(eligible, reason)
    )


@pytest.mark.parametrize(
    ("member", "eligible", "reason"),
    [
        (Member(citizenship=("SE",)), True, "citizen"),
        (Member(citizenship=("se",)), True, "citizen"),
        (Member(citizenship=("FI", "SE")), True, "citizen"),
        (Member(citizenship=("NO",)), False, NOT_CITIZEN),
        (Member(region="Stockholm"), False, CITIZENSHIP_UNKNOWN),
    ],
)
def test_sm_eligibility_is_swedish_citizenship(member, eligible, reason):
    result = eligibility(member, SM)
    assert (result.eligible, result.reason) == (eligible, reason)


@pytest.mark.parametrize("member", [LOCAL, AWAY, SWEDE, FINN, Member()])
def test_dm_everyone_is_eligible(member):
    assert eligibility(member, DM).eligible


# Official entries ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("members", "official"),
    [
        ([LOCAL, LOCAL, LOCAL], True),
        ([LOCAL, LOCAL, LOCAL, AWAY], True),
        ([LOCAL, LOCAL, AWAY, AWAY], False),
        ([LOCAL, LOCAL, AWAY], False),
    ],
)
def test_rogaland_team_is_official_with_at_least_3_eligible_members(members, official):
    assert officiality("team", members, ROGALAND).official is official


@pytest.mark.parametrize(
    ("members", "official"),
    [([LOCAL, LOCAL], True), ([LOCAL, AWAY], False), ([AWAY, AWAY], False)],
)
def test_rogaland_pair_is_official_when_both_are_eligible(members, official):
    assert officiality("pair", members, ROGALAND).official is official


@pytest.mark.parametrize(
    ("kind", "members", "official"),
    [
        ("team", [SWEDE, SWEDE, SWEDE, SWEDE], True),
        ("team", [SWEDE, SWEDE, SWEDE, FINN], False),
        ("pair", [SWEDE, SWEDE], True),
        ("pair", [SWEDE, FINN], False),
        ("individual", [SWEDE], True),
        ("individual", [FINN], False),
    ],
)
def test_sm_pair_and_team_are_official_when_every_member_is_swedish(kind, members, official):
    assert officiality(kind, members, SM).official is official


@pytest.mark.parametrize("kind", ["individual", "pair", "team"])
def test_dm_entries_are_always_official(kind):
    members = {"individual": [FINN], "pair": [FINN, AWAY], "team": [FINN, FINN, FINN]}[kind]
    assert officiality(kind, members, DM).official


def test_rogaland_individual_is_official_when_eligible():
    assert officiality("individual", [LOCAL], ROGALAND).official
    assert not officiality("individual", [AWAY], ROGALAND).official


def test_officiality_counts_eligible_and_required_members():
    result = officiality("team", [LOCAL, LOCAL, AWAY, AWAY], ROGALAND)
    assert (result.eligible_count, result.required_count) == (2, 3)
    assert [m.eligible for m in result.members] == [True, True, False, False]


# Ages ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("birth", "age"),
    [
        (date(2010, 3, 14), 16),  # the birthday is the championship's day
        (date(2010, 3, 15), 15),  # tomorrow
        (date(2012, 2, 29), 14),
    ],
)
def test_age_is_whole_years_on_the_championships_date(birth, age):
    assert age_on(birth, DAY) == age


def test_a_29_february_birthday_counts_on_1_march_in_other_years():
    assert age_on(date(2012, 2, 29), date(2026, 2, 28)) == 13
    assert age_on(date(2012, 2, 29), date(2026, 3, 1)) == 14


def born(age, *, days_before_birthday=0):
    """A member who turns ``age`` on DAY (or that many days later)."""
    from datetime import timedelta

    return Member(
        birth_date=date(DAY.year - age, DAY.month, DAY.day) + timedelta(days_before_birthday)
    )


@pytest.mark.parametrize(
    ("rules", "age", "allowed"),
    [(SM, 14, True), (SM, 13, False), (DM, 16, True), (DM, 15, False), (ROGALAND, 9, True)],
    ids=["sm-14", "sm-13", "dm-16", "dm-15", "rogaland-9"],
)
def test_minimum_age_in_the_individual_category(rules, age, allowed):
    problems = age_problems("individual", [born(age)], rules, DAY, adult_name="Someone")
    assert (not problems) is allowed
    if not allowed:
        assert problems[0].code == BELOW_MINIMUM_AGE
        assert problems[0].limit == rules.min_age_individual


def test_the_minimum_age_is_met_on_the_birthday_not_the_day_before():
    assert not age_problems("individual", [born(14)], SM, DAY)
    assert age_problems("individual", [born(14, days_before_birthday=1)], SM, DAY)


@pytest.mark.parametrize(
    ("rules", "age"), [(SM, 10), (DM, 12), (ROGALAND, 8)], ids=["sm", "dm", "rogaland"]
)
@pytest.mark.parametrize("kind", ["pair", "team"])
def test_young_entrants_in_pairs_and_teams_need_an_accompanying_adult(rules, age, kind):
    members = [born(40), born(age)] + ([born(40)] if kind == "team" else [])
    problems = age_problems(kind, members, rules, DAY)
    assert [(p.member, p.code) for p in problems] == [(1, ADULT_REQUIRED)]
    assert not age_problems(kind, members, rules, DAY, adult_name="Kari Nordmann")


@pytest.mark.parametrize(
    ("rules", "age", "needs_adult"),
    [
        (ROGALAND, 15, True),
        (ROGALAND, 16, False),
        (SM, 13, True),
        (SM, 14, False),
        (DM, 15, True),
        (DM, 16, False),
    ],
)
def test_the_adult_age_limit_per_preset(rules, age, needs_adult):
    problems = age_problems("pair", [born(40), born(age)], rules, DAY)
    assert bool(problems) is needs_adult


def test_rogaland_requires_an_adult_below_16_in_every_category_including_individual():
    problems = age_problems("individual", [born(12)], ROGALAND, DAY)
    assert [p.code for p in problems] == [ADULT_REQUIRED]
    assert not age_problems("individual", [born(12)], ROGALAND, DAY, adult_name="Mor")


def test_a_blank_adult_name_is_no_adult():
    assert age_problems("pair", [born(40), born(10)], SM, DAY, adult_name="   ")


def test_a_missing_birth_date_is_asked_for_where_an_age_limit_applies():
    problems = age_problems("individual", [Member()], DM, DAY)
    assert [p.code for p in problems] == [BIRTH_DATE_REQUIRED]
