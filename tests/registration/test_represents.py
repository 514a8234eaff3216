"""The country an entry represents, at registration (form and API) and after it."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError

from registration.models import Entry
from registration.represents import entry_set_represents
from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.test_views import management, member_data, url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def world(db):
    """A world championship (wjpc: entries represent a country; the neutral flag allowed)."""
    return factories.championship(
        slug=f"wjpc-{NEXT_YEAR}",
        ruleset="wjpc",
        starts_at=datetime(NEXT_YEAR, 9, 20, 8, tzinfo=UTC),
    )


def individual(name, citizenship, **extra):
    return {
        **management(1),
        **member_data(0, name=name, email=f"{name.split()[0].lower()}@example.org", **extra),
        "members-0-citizenship": citizenship,
        "members-0-country": citizenship,
    }


def test_the_form_asks_only_where_entries_represent_a_country(client, world):
    assert 'name="represents"' in client.get(url(world, "individual")).text
    national = factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    assert 'name="represents"' not in client.get(url(national, "individual")).text


def test_left_empty_an_individual_represents_their_nationality(client, world):
    client.post(url(world, "individual"), individual("Aroha Ngata", "NZ"))
    assert Entry.objects.get().represents == "NZ"


def test_the_neutral_flag_may_be_chosen(client, world):
    client.post(
        url(world, "individual"), {**individual("Ivan Petrov", "RU"), "represents": "neutral"}
    )
    assert Entry.objects.get().represents == "neutral"


def test_another_countrys_flag_is_refused_and_nothing_is_saved(client, world):
    response = client.post(
        url(world, "individual"), {**individual("Kari Berg", "NO"), "represents": "SE"}
    )
    assert response.status_code == 200
    assert "Sweden is not a nationality of the entry&#x27;s members" in response.text
    assert not Entry.objects.exists()


def test_a_pair_represents_one_of_its_members_countries(client, world):
    data = {
        **management(2),
        **member_data(0, name="Ana Ruiz", email="ana@example.org", country="ES", citizenship="ES"),
        **member_data(1, name="Eva Lind", email="eva@example.org", country="SE", citizenship="SE"),
        "represents": "SE",
    }
    client.post(url(world, "pair"), data)
    assert Entry.objects.get().represents == "SE"


def test_the_api_takes_represents_and_refuses_a_code_that_is_no_country(client, world):
    path = f"/api/v1/championships/{world.slug}/categories/individual/entries/"
    member = {
        "name": "Aroha Ngata",
        "email": "aroha@example.org",
        "birth_date": "1990-05-01",
        "citizenship": ["NZ"],
    }
    refused = client.post(
        path, {"members": [member], "represents": "XX"}, content_type="application/json"
    )
    assert refused.status_code == 400
    assert "represents" in refused.json()
    assert not Entry.objects.exists()
    taken = client.post(
        path, {"members": [member], "represents": "neutral"}, content_type="application/json"
    )
    assert taken.status_code == 201, taken.json()
    assert Entry.objects.get().represents == "neutral"


def test_the_choice_is_fixed_once_the_championship_starts_but_the_organiser_may_correct(world):
    category = world.categories.get(kind="individual")
    person = factories.person(world, citizenship=["SE", "FI"], country="SE")
    entry = factories.entry(category, members=[person], represents="SE")
    entry_set_represents(entry=entry, value="FI")
    assert entry.represents == "FI"
    with time_machine.travel(world.starts_at + timedelta(minutes=1)):
        with pytest.raises(ValidationError) as refused:
            entry_set_represents(entry=entry, value="SE")
        assert "fixed once the championship has started" in str(refused.value)
        entry_set_represents(entry=entry, value="SE", by_organiser=True)
    entry.refresh_from_db()
    assert entry.represents == "SE"
