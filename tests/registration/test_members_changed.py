"""Officiality follows the members' details now: a correction re-ranks the entry's rounds.

Every path that changes a member's residence or citizenship, or an entry's
members, after registration: the registration service, the entrant's manage
page, the admin of persons and of entries (with its member inline; and an entry
withdrawn there by hand, or taken back, loses or regains its place). The
interchange import needs none: it recomputes every round it writes.
"""

import copy
import json
from datetime import UTC, date, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model

from championship.models import Heat, Round, Seat
from interchange.export import export_document
from interchange.write import import_document
from registration import services
from registration.models import Entry, EntryMember, Person
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.championship.test_admin import admin_url, change_form_data
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

STARTS = datetime(NEXT_YEAR, 5, 1, 9, tzinfo=UTC)


@pytest.fixture
def final():
    """An sm championship whose closed individual final a Norwegian guest won.

    Ola (NO, 30:00) is first but hors concours; Sven (SE, 31:00) holds the title,
    Stina (SE, 32:00) is second among the Swedes.
    """
    sm = factories.championship(slug=f"sm-{NEXT_YEAR}", ruleset="sm", starts_at=STARTS)
    individual = sm.categories.get(kind="individual")
    round_ = individual.rounds.get(stage="final")
    heat = factories.heat(
        round_,
        started_at=STARTS,
        ended_at=STARTS + timedelta(minutes=120),
        state=Heat.State.CLOSED,
    )
    entries = {}
    for number, (name, citizenship, minutes) in enumerate(
        [("Ola", "NO", 30), ("Sven", "SE", 31), ("Stina", "SE", 32)], start=1
    ):
        person = factories.person(
            sm,
            name=name,
            email=f"{name.lower()}@example.org",
            birth_date=date(1980, 1, number),
            citizenship=[citizenship],
            publish_consent=True,
        )
        entry = factories.entry(individual, members=[person], publish_consent=True)
        Seat.objects.create(heat=heat, table=factories.table(sm, number=number), entry=entry)
        Result.objects.create(
            round=round_,
            heat=heat,
            entry=entry,
            status=Result.Status.FINISHED,
            time_ms=minutes * 60_000,
            confirmed_at=STARTS + timedelta(minutes=minutes),
        )
        entries[name] = entry
    Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
    standings_recompute(round_=round_)
    return SimpleNamespace(championship=sm, category=individual, round=round_, **entries)


def standing(final, entry) -> tuple:
    result = Result.objects.get(round=final.round, entry=entry)
    return (result.place, result.official, result.official_place, result.prize)


def assert_before(final):
    assert standing(final, final.Ola) == (1, False, None, None)
    assert standing(final, final.Sven) == (2, True, 1, 1)
    assert standing(final, final.Stina) == (3, True, 2, None)


def assert_ola_is_swedish_champion(final):
    assert standing(final, final.Ola) == (1, True, 1, 1)
    assert standing(final, final.Sven) == (2, True, 2, None)
    assert standing(final, final.Stina) == (3, True, 3, None)


def test_correcting_the_winners_citizenship_makes_them_the_official_champion(final):
    assert_before(final)
    version = final.round.version
    services.person_update(person=final.Ola.members.get(), citizenship=["SE"])
    assert_ola_is_swedish_champion(final)
    final.round.refresh_from_db()
    assert final.round.version > version


def test_correcting_it_back_takes_the_title_back(final):
    ola = final.Ola.members.get()
    services.person_update(person=ola, citizenship=["SE"])
    services.person_update(person=ola, citizenship=["NO", "DK"])
    assert_before(final)


def test_a_correction_that_changes_nothing_official_or_shown_leaves_the_round_alone(final):
    version = Round.objects.get(pk=final.round.pk).version
    services.person_update(person=final.Ola.members.get(), city="Bergen")
    assert Round.objects.get(pk=final.round.pk).version == version
    assert_before(final)


def test_a_corrected_name_gives_the_results_a_new_version_and_keeps_the_places(final):
    """The results pages show the name: pollers of the version before must ask anew."""
    version = Round.objects.get(pk=final.round.pk).version
    services.person_update(person=final.Ola.members.get(), name="Ola N.")
    assert Round.objects.get(pk=final.round.pk).version > version
    assert_before(final)


def test_qualification_follows_a_corrected_citizenship(final):
    """In a preliminary round the guest's qualification is decided again, too."""
    prelim = final.category.rounds.get(stage="prelim")
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=1)
    heat = factories.heat(prelim, started_at=STARTS - timedelta(days=1), state=Heat.State.CLOSED)
    for entry, minutes in [(final.Ola, 30), (final.Sven, 31)]:
        Result.objects.create(
            round=prelim, heat=heat, entry=entry, status="finished", time_ms=minutes * 60_000
        )
    standings_recompute(round_=prelim)
    qualified = dict(Result.objects.filter(round=prelim).values_list("entry", "qualified"))
    # sm: a guest goes on only when better than the last official qualifier, who keeps his place.
    assert qualified == {final.Ola.pk: True, final.Sven.pk: True}
    services.person_update(person=final.Sven.members.get(), citizenship=["FI"])
    qualified = dict(Result.objects.filter(round=prelim).values_list("entry", "qualified"))
    assert qualified == {final.Ola.pk: False, final.Sven.pk: False}
    assert standing(final, final.Sven) == (2, False, None, None)


# The entrant's manage page ----------------------------------------------------------------


def test_the_entrant_correcting_their_citizenship_re_ranks_the_final(client, english, final):
    data = {
        "members-TOTAL_FORMS": "1",
        "members-INITIAL_FORMS": "1",
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "1000",
        "members-0-name": "Ola",
        "members-0-email": "ola@example.org",
        "members-0-birth_date": "1980-01-01",
        "members-0-city": "",
        "members-0-country": "",
        "members-0-citizenship": "SE",
        "members-0-publish_consent": "on",
    }
    response = client.post(f"/{final.championship.slug}/entries/{final.Ola.manage_token}/", data)
    assert response.status_code == 302, response.text[:2000]
    assert_ola_is_swedish_champion(final)


# The admin -----------------------------------------------------------------------------


@pytest.fixture
def superuser_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    client.force_login(user)
    return client


def test_an_organiser_correcting_the_citizenship_in_the_admin_re_ranks_the_final(
    superuser_client, final
):
    ola = final.Ola.members.get()
    url = admin_url(Person, "change", ola.pk)
    data = change_form_data(superuser_client.get(url))
    data["citizenship"] = json.dumps(["SE"])
    response = superuser_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert_ola_is_swedish_champion(final)


def test_deleting_a_person_in_the_admin_re_ranks_their_entry(superuser_client, final):
    """A team that loses its only ineligible member becomes official."""
    team = final.category.championship.categories.get(kind="team")
    round_ = team.rounds.get(stage="final")
    heat = factories.heat(round_, started_at=STARTS, state=Heat.State.CLOSED)
    swedes = [
        factories.person(final.championship, citizenship=["SE"], birth_date=date(1990, 1, 1))
        for _ in range(3)
    ]
    guest = factories.person(final.championship, citizenship=["NO"], birth_date=date(1990, 1, 1))
    entry = factories.entry(team, members=[*swedes, guest])
    Result.objects.create(
        round=round_, heat=heat, entry=entry, status="finished", time_ms=90 * 60_000
    )
    Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
    standings_recompute(round_=round_)
    assert Result.objects.get(entry=entry).official is False
    response = superuser_client.post(admin_url(Person, "delete", guest.pk), {"post": "yes"})
    assert response.status_code == 302
    result = Result.objects.get(entry=entry)
    assert (result.official, result.official_place, result.prize) == (True, 1, 1)


def test_replacing_a_member_in_the_entry_admin_re_ranks_the_final(superuser_client, final):
    """The organiser replaces the Norwegian of the winning entry by a Swede: the title follows."""
    swede = factories.person(
        final.championship, name="Olle", citizenship=["SE"], birth_date=date(1979, 1, 1)
    )
    url = admin_url(Entry, "change", final.Ola.pk)
    data = change_form_data(superuser_client.get(url))
    (person_key,) = [
        key for key in data if key.startswith("memberships-") and key.endswith("-person")
    ]
    data[person_key] = str(swede.pk)
    response = superuser_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert list(EntryMember.objects.filter(entry=final.Ola).values_list("person", flat=True)) == [
        swede.pk
    ]
    assert_ola_is_swedish_champion(final)


def _set_status_in_the_admin(client, entry, status):
    url = admin_url(Entry, "change", entry.pk)
    data = change_form_data(client.get(url))
    data["status"] = status
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors


def test_withdrawing_the_champion_in_the_entry_admin_re_ranks_the_final(superuser_client, final):
    """Sven, the title holder, withdrawn by hand: Stina holds the title, Sven has no place."""
    _set_status_in_the_admin(superuser_client, final.Sven, Entry.Status.WITHDRAWN)
    # The organiser gave no time: the withdrawal is dated when it was saved.
    assert Entry.objects.get(pk=final.Sven.pk).withdrawn_at is not None
    assert standing(final, final.Sven) == (None, True, None, None)
    assert standing(final, final.Ola) == (1, False, None, None)
    assert standing(final, final.Stina) == (2, True, 1, 1)
    # Taken back: Sven holds the title again.
    _set_status_in_the_admin(superuser_client, final.Sven, Entry.Status.CONFIRMED)
    assert_before(final)


def test_a_status_change_that_is_no_withdrawal_leaves_the_places_alone(superuser_client, final):
    version = Round.objects.get(pk=final.round.pk).version
    _set_status_in_the_admin(superuser_client, final.Sven, Entry.Status.WAITLISTED)
    assert_before(final)
    assert Round.objects.get(pk=final.round.pk).version == version


# The interchange ------------------------------------------------------------------------


def test_export_import_export_of_a_corrected_final_gives_the_same_document(final):
    services.person_update(person=final.Ola.members.get(), citizenship=["SE"])
    first = export_document(final.championship)
    imported = import_document(copy.deepcopy(first), replace=True)
    second = export_document(imported)
    assert json.dumps(second, indent=2) == json.dumps(first, indent=2)
    results = {
        result["entry"]: result
        for competition in second["competitions"]
        for round_ in competition["rounds"]
        if round_["key"] == final.round.key
        for heat in round_["heats"]
        for result in heat["results"]
    }
    ola = results[final.Ola.ref]
    assert (ola["official"], ola["official_place"], ola["prize"]) == (True, 1, 1)
