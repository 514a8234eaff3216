"""Registration: officiality explained, ages, one entry per person, capacity, waiting list."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.utils import translation

from championship.models import Category
from registration import places, services, validation
from registration.models import Entry, Person
from registration.validation import MemberData
from tests import factories

pytestmark = pytest.mark.django_db

# The factories' championships start on 14 March 2026 at 09:00 UTC.
BEFORE = datetime(2026, 2, 1, 12, 0, tzinfo=UTC)


def member(name="Kari Nordmann", *, age=30, **kwargs):
    kwargs.setdefault("email", f"{name.lower().replace(' ', '.')}@example.org")
    kwargs.setdefault("birth_date", date(2026 - age, 1, 1))
    kwargs.setdefault("region", "Rogaland")
    return MemberData(name=name, **kwargs)


def register(category, members, **kwargs):
    kwargs.setdefault("now", BEFORE)
    kwargs.setdefault("publish_consent", True)
    return services.entry_register(category=category, members=members, **kwargs)


def errors_of(caught):
    return caught.value.message_dict


@pytest.fixture
def individual(championship):
    return championship.categories.get(kind="individual")


@pytest.fixture
def sm():
    return factories.championship(slug="sm-2026", ruleset="sm")


@pytest.fixture
def dm():
    return factories.championship(slug="dm-2026", ruleset="dm")


def test_a_registration_is_confirmed_with_its_members_and_the_fee(individual):
    entry = register(individual, [member()])
    assert entry.status == Entry.Status.CONFIRMED
    assert entry.fee == individual.fee == 200
    assert entry.payment_status == Entry.Payment.UNPAID
    assert [p.name for p in entry.members.all()] == ["Kari Nordmann"]
    assert entry.name == "Kari Nordmann"
    assert entry.publish_consent is True
    assert len(entry.manage_token) >= 22


def test_a_full_category_puts_the_next_registrations_on_the_waiting_list(individual):
    Category.objects.filter(pk=individual.pk).update(capacity=2)
    statuses = [register(individual, [member(f"P {i}")]).status for i in range(4)]
    assert statuses == ["confirmed", "confirmed", "waitlisted", "waitlisted"]


def test_registration_closes_5_days_before_the_start_under_rogaland(individual):
    deadline = datetime(2026, 3, 9, 9, 0, tzinfo=UTC)  # the start minus 5 days
    register(individual, [member("Early")], now=deadline - timedelta(seconds=1))
    with pytest.raises(ValidationError) as caught:
        register(individual, [member("Late")], now=deadline)
    assert "closed" in errors_of(caught)["__all__"][0]
    assert places.registration_state(individual, now=deadline) == places.CLOSED


def test_sm_closes_at_the_organisers_deadline(sm):
    sm.registration_deadline = datetime(2026, 3, 1, tzinfo=UTC)
    sm.save()
    individual = sm.categories.get(kind="individual")
    swede = member(citizenship=("SE",), region="")
    with pytest.raises(ValidationError):
        register(individual, [swede], now=datetime(2026, 3, 2, tzinfo=UTC))
    assert register(individual, [swede], now=datetime(2026, 2, 27, tzinfo=UTC)).pk


def test_registration_before_it_opens_is_refused(individual):
    individual.registration_opens_at = datetime(2026, 2, 10, tzinfo=UTC)
    individual.save()
    with pytest.raises(ValidationError) as caught:
        register(individual, [member()], now=datetime(2026, 2, 9, tzinfo=UTC))
    assert "not opened" in errors_of(caught)["__all__"][0]


def test_the_minimum_age_is_enforced_on_the_championships_date(sm):
    individual = sm.categories.get(kind="individual")
    # Turns 14 on 15 March 2026, the day after the championship.
    young = member("Ung", birth_date=date(2012, 3, 15), citizenship=("SE",))
    with pytest.raises(ValidationError) as caught:
        register(individual, [young], adult_name="Mamma")
    assert errors_of(caught)["members.0.birth_date"] == [
        "Too young for this category (13 on the day of the championship)."
    ]
    on_the_day = member("Jämn", birth_date=date(2012, 3, 14), citizenship=("SE",))
    assert register(individual, [on_the_day]).pk


def test_a_young_team_member_needs_an_accompanying_adult(sm):
    team = sm.categories.get(kind="team")
    members = [member(f"M{i}", citizenship=("SE",)) for i in range(3)]
    members.append(member("Liten", age=13, citizenship=("SE",)))
    with pytest.raises(ValidationError) as caught:
        register(team, members)
    assert "accompanying adult" in errors_of(caught)["adult_name"][0]
    entry = register(team, members, adult_name="Anna Andersson")
    assert entry.adult_name == "Anna Andersson"
    assert entry.members.count() == 4


def test_a_team_of_the_wrong_size_is_refused(championship):
    team = championship.categories.get(kind="team")
    with pytest.raises(ValidationError) as caught:
        register(team, [member("A"), member("B")])
    assert "3 to 4 members" in errors_of(caught)["members"][0]
    with pytest.raises(ValidationError):
        register(team, [member(f"M{i}") for i in range(5)])


def test_members_need_names_and_the_first_an_email(championship):
    pair = championship.categories.get(kind="pair")
    with pytest.raises(ValidationError) as caught:
        register(pair, [member("", email=""), member("B")])
    errors = errors_of(caught)
    assert "members.0.name" in errors and "members.0.email" in errors


def test_dm_allows_one_entry_per_person_per_category_by_email_in_any_case(dm):
    pair = dm.categories.get(kind="pair")
    register(pair, [member("Mette", email="mette@example.dk"), member("Jens")])
    with pytest.raises(ValidationError) as caught:
        register(pair, [member("Søren"), member("Mette H", email="METTE@Example.DK")])
    assert "already registered" in errors_of(caught)["members.1.email"][0]
    assert Entry.objects.filter(category=pair).count() == 1


def test_dm_a_withdrawn_entry_frees_the_person(dm):
    pair = dm.categories.get(kind="pair")
    first = register(pair, [member("Mette", email="mette@example.dk"), member("Jens")])
    services.entry_withdraw(entry=first)
    assert register(pair, [member("Mette", email="mette@example.dk"), member("Søren")]).pk


def test_rogaland_allows_a_person_in_two_pairs(championship):
    pair = championship.categories.get(kind="pair")
    register(pair, [member("Kari"), member("Ola")])
    assert register(pair, [member("Kari"), member("Per")]).pk


def test_refused_registrations_save_nothing(championship):
    team = championship.categories.get(kind="team")
    with pytest.raises(ValidationError):
        register(team, [member("A")])
    assert not Entry.objects.exists()
    assert not Person.objects.exists()


# Official or not, explained -------------------------------------------------------------


def test_a_norwegian_in_sm_is_told_the_entry_will_be_hors_concours(sm):
    individual = sm.categories.get(kind="individual")
    explained = validation.explain_officiality(individual, [member("Ola", citizenship=("NO",))])
    assert not explained.official
    assert "unofficial" in explained.summary
    assert "not a citizen of Sweden" in explained.members[0]


def test_a_rogaland_team_is_told_how_many_eligible_members_it_needs(championship):
    team = championship.categories.get(kind="team")
    members = [member("A"), member("B"), member("C", region="Oslo"), member("D", region="Oslo")]
    explained = validation.explain_officiality(team, members)
    assert not explained.official
    assert "3 eligible members are needed, 2 given" in explained.summary


def test_someone_who_lived_long_in_rogaland_is_official(championship):
    individual = championship.categories.get(kind="individual")
    moved = member("Flyttet", region="Oslo", years_in_region=7)
    explained = validation.explain_officiality(individual, [moved])
    assert explained.official
    assert "more than 5 years" in explained.members[0]


# Withdrawal and the waiting list ---------------------------------------------------------


def test_a_withdrawal_confirms_the_first_on_the_waiting_list_and_tells_them(
    individual, django_capture_on_commit_callbacks
):
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    with django_capture_on_commit_callbacks(execute=True):
        first = register(individual, [member("First")])
        second = register(individual, [member("Second")])
        third = register(individual, [member("Third")])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        promoted = services.entry_withdraw(entry=first)
    assert [e.pk for e in promoted] == [second.pk]
    second.refresh_from_db()
    third.refresh_from_db()
    assert (second.status, third.status) == ("confirmed", "waitlisted")
    recipients = sorted(m.to[0] for m in mail.outbox)
    assert recipients == ["first@example.org", "second@example.org"]
    promoted_mail = next(m for m in mail.outbox if m.to == ["second@example.org"])
    assert second.manage_token in promoted_mail.body


def test_withdrawing_a_waitlisted_entry_promotes_nobody(individual):
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    register(individual, [member("First")])
    waiting = register(individual, [member("Second")])
    assert services.entry_withdraw(entry=waiting) == []


def test_a_larger_capacity_confirms_the_waiting_list_in_arrival_order(individual):
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    entries = [register(individual, [member(f"P{i}")]) for i in range(4)]
    promoted = services.category_set_capacity(category=individual, capacity=3)
    assert [e.pk for e in promoted] == [entries[1].pk, entries[2].pk]


def test_a_smaller_capacity_keeps_confirmed_entries(individual):
    entries = [register(individual, [member(f"P{i}")]) for i in range(3)]
    services.category_set_capacity(category=individual, capacity=1)
    assert {e.status for e in Entry.objects.filter(pk__in=[e.pk for e in entries])} == {"confirmed"}
    assert register(individual, [member("Late")]).status == "waitlisted"


def test_an_organiser_can_promote_beyond_the_capacity(individual):
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    register(individual, [member("First")])
    waiting = register(individual, [member("Second")])
    assert services.entry_promote(entry=waiting).status == "confirmed"
    with pytest.raises(ValidationError):
        services.entry_promote(entry=waiting)


def test_the_confirmation_is_sent_in_the_registrants_language(
    individual, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        entry = register(individual, [member("Kari")], language="nb")
    (message,) = mail.outbox
    assert message.to == ["kari@example.org"]
    assert "bekreftet" in message.subject.lower()
    assert f"/{individual.championship.slug}/entries/{entry.manage_token}/" in message.body


# The deadline: the earlier of the organiser's and the preset's ------------------------------


def test_rogaland_closes_five_days_before_at_the_same_local_time_across_the_spring_change(db):
    # 10:00 in Oslo on 30 March 2026, the day after the change to summer time (08:00 UTC).
    rm = factories.championship(starts_at=datetime(2026, 3, 30, 8, 0, tzinfo=UTC))
    individual = rm.categories.get(kind="individual")
    # 10:00 in Oslo on 25 March, still winter time: 09:00 UTC.
    closes = datetime(2026, 3, 25, 9, 0, tzinfo=UTC)
    assert rm.effective_registration_deadline() == closes
    assert register(individual, [member("Early")], now=closes - timedelta(minutes=30)).pk
    assert places.registration_state(individual, now=closes - timedelta(seconds=1)) == "open"
    with pytest.raises(ValidationError) as caught:
        register(individual, [member("Late")], now=closes)
    assert errors_of(caught)["__all__"] == ["Registration for this category has closed."]


def test_an_organisers_deadline_later_than_rogalands_rule_is_capped_by_it(individual):
    championship = individual.championship
    championship.registration_deadline = championship.starts_at - timedelta(days=1)
    championship.save()
    rule = datetime(2026, 3, 9, 9, 0, tzinfo=UTC)  # the start minus 5 days
    assert championship.effective_registration_deadline() == rule
    with pytest.raises(ValidationError):
        register(individual, [member("Late")], now=rule + timedelta(days=1))
    assert places.registration_state(individual, now=rule) == places.CLOSED


def test_an_organisers_deadline_earlier_than_rogalands_rule_wins(individual):
    championship = individual.championship
    earlier = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    championship.registration_deadline = earlier
    championship.save()
    assert championship.effective_registration_deadline() == earlier
    assert places.registration_state(individual, now=earlier) == places.CLOSED


# unofficial_allowed: false refuses an entry that would not be official --------------------


@pytest.fixture
def sm_officials_only():
    """An sm championship that takes no entries hors concours."""
    return factories.championship(
        slug="sm-officials", ruleset="sm", rule_overrides={"unofficial_allowed": False}
    )


def swede(name, **kwargs):
    return member(name, citizenship=("SE",), region="", **kwargs)


def test_without_unofficial_entries_a_non_swede_is_refused_with_the_reason(sm_officials_only):
    individual = sm_officials_only.categories.get(kind="individual")
    with pytest.raises(ValidationError) as caught:
        register(individual, [member("Ola", citizenship=("NO",), region="")])
    errors = errors_of(caught)
    assert errors["members.0.citizenship"] == [
        "Ola: is not a citizen of Sweden, so the entry cannot be official."
    ]
    assert errors["__all__"] == [
        "This championship takes official entries only, and this entry would be "
        "unofficial (hors concours)."
    ]
    assert not Entry.objects.exists() and not Person.objects.exists()
    assert register(individual, [swede("Sven")]).pk


def test_without_unofficial_entries_a_pair_names_its_ineligible_member(sm_officials_only):
    pair = sm_officials_only.categories.get(kind="pair")
    with pytest.raises(ValidationError) as caught:
        register(pair, [swede("Sven"), member("Okänd", citizenship=(), region="")])
    errors = errors_of(caught)
    assert "members.0.citizenship" not in errors
    assert errors["members.1.citizenship"] == [
        "Okänd: citizenship not given, so the entry cannot be official."
    ]
    assert "2 eligible members are needed, 1 given" in errors["__all__"][0]


def test_the_reason_of_a_refusal_is_in_the_registrants_language(sm_officials_only):
    individual = sm_officials_only.categories.get(kind="individual")
    with translation.override("sv"), pytest.raises(ValidationError) as caught:
        register(individual, [member("Ola", citizenship=("NO",), region="")])
    (message,) = errors_of(caught)["members.0.citizenship"]
    assert "Ola" in message
    assert "är inte medborgare i Sverige" in message


def test_without_unofficial_entries_the_check_says_the_entry_will_be_refused(sm_officials_only):
    individual = sm_officials_only.categories.get(kind="individual")
    explained = validation.explain_officiality(individual, [member("Ola", citizenship=("NO",))])
    assert (explained.official, explained.refused) == (False, True)
    assert explained.summary == (
        "The entry will be refused: this championship takes official entries only."
    )
    assert "unofficial" not in explained.summary
    assert explained.members == ("Ola: is not a citizen of Sweden",)


def test_where_unofficial_entries_are_allowed_a_non_swede_takes_part_hors_concours(sm):
    individual = sm.categories.get(kind="individual")
    explained = validation.explain_officiality(individual, [member("Ola", citizenship=("NO",))])
    assert (explained.official, explained.refused) == (False, False)
    assert register(individual, [member("Ola", citizenship=("NO",), region="")]).pk


def test_a_correction_that_would_make_the_entry_unofficial_is_refused(sm_officials_only):
    individual = sm_officials_only.categories.get(kind="individual")
    entry = register(individual, [swede("Sven")])
    with pytest.raises(ValidationError) as caught:
        services.entry_update_details(
            entry=entry, members=[member("Sven", citizenship=("NO",), region="")]
        )
    assert "members.0.citizenship" in errors_of(caught)
    assert entry.members.get().citizenship == ["SE"]


# dm: one entry per person per category, comparing people ------------------------------------


def test_dm_refuses_the_same_name_and_birth_date_under_another_email(dm):
    pair = dm.categories.get(kind="pair")
    born = date(1990, 5, 1)
    register(pair, [member("Mette Hansen", birth_date=born), member("Jens")])
    with pytest.raises(ValidationError) as caught:
        register(
            pair,
            [member("Søren"), member("  mette   HANSEN", email="mh@example.dk", birth_date=born)],
        )
    assert errors_of(caught)["members.1.name"] == [
        "mette   HANSEN, born 1 May 1990, is already registered in this category: "
        "one entry per person."
    ]
    assert Entry.objects.filter(category=pair).count() == 1


def test_dm_takes_a_namesake_born_on_another_day(dm):
    pair = dm.categories.get(kind="pair")
    register(pair, [member("Mette Hansen", birth_date=date(1990, 5, 1)), member("Jens")])
    assert register(
        pair, [member("Søren"), member("Mette Hansen", email="mh@example.dk", age=20)]
    ).pk


def test_dm_compares_names_in_any_unicode_form(dm):
    individual = dm.categories.get(kind="individual")
    born = date(1980, 2, 2)
    register(individual, [member("S\u00f8ren \u00c5berg", email="a@example.dk", birth_date=born)])
    with pytest.raises(ValidationError) as caught:
        register(
            individual, [member("s\u00f8ren a\u030aberg", email="b@example.dk", birth_date=born)]
        )
    assert "members.0.name" in errors_of(caught)


def test_dm_refuses_the_same_person_twice_in_one_entry(dm):
    team = dm.categories.get(kind="team")
    born = date(1985, 7, 7)
    members = [
        member("Mette Hansen", birth_date=born),
        member("Jens"),
        member("Mette Hansen", email="other@example.dk", birth_date=born),
    ]
    with pytest.raises(ValidationError) as caught:
        register(team, members)
    assert errors_of(caught)["members.2.name"] == [
        "Mette Hansen has the same name and birth date as member 1: "
        "one person cannot be two members of an entry."
    ]


@pytest.fixture
def dm_without_age_limits():
    """dm with no age limits, so that a birth date is not asked for anyway."""
    return factories.championship(
        slug="dm-any-age",
        ruleset="dm",
        rule_overrides={"adult_required_below": None, "min_age_individual": None},
    )


def test_dm_needs_an_email_or_a_birth_date_for_every_member(dm_without_age_limits):
    pair = dm_without_age_limits.categories.get(kind="pair")
    with pytest.raises(ValidationError) as caught:
        register(pair, [member("Mette"), member("Jens", email="", birth_date=None)])
    assert errors_of(caught) == {
        "members.1.email": [
            "Give an e-mail address or a birth date for Jens: each person may have one entry "
            "in this category, and these tell people apart."
        ]
    }
    assert register(pair, [member("Mette"), member("Jens", email="", birth_date=date(1990, 1, 1))])
    assert register(pair, [member("Søs"), member("Bo", email="bo@example.dk", birth_date=None)])


def test_rogaland_needs_no_identity_beyond_the_first_members_email(db):
    rm = factories.championship(rule_overrides={"adult_required_below": None})
    pair = rm.categories.get(kind="pair")
    assert register(pair, [member("Kari"), member("Ola", email="", birth_date=None)]).pk
