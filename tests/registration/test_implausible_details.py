"""A birth date before 1900 or in the future, and more than five citizenships, are refused with a
clear message wherever a person's details come in: the form, the API, the CSV import, the
entrant's private page and the admin. (The interchange import: tests/interchange.)"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from django.utils import timezone
from django.utils.html import escape
from rest_framework.test import APIClient

from championship import bounds
from championship.models import ChampionshipRole
from registration.models import Entry, Person
from tests import factories
from tests.championship.test_admin import admin_url, change_form_data
from tests.factories import NEXT_YEAR
from tests.registration.csv_entries import member, register, upload
from tests.registration.test_views import management, member_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

TOO_EARLY = "Give a birth date between 1 January 1900 and today."
TOO_MANY = "Give at most 5 citizenships."
SIX = ["NO", "SE", "DK", "FI", "IS", "DE"]


def tomorrow() -> date:
    """Return a day that is tomorrow everywhere on Earth (UTC+14 is at most 14 hours ahead)."""
    return (timezone.now() + timedelta(days=2)).date()


@pytest.fixture
def future(db):
    """A rogaland championship far enough ahead that registration is open."""
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


@pytest.mark.parametrize("birth", ["0001-01-01", "1899-12-31", "future"])
def test_the_form_refuses_a_birth_date_before_1900_or_in_the_future(client, future, birth):
    birth = tomorrow().isoformat() if birth == "future" else birth
    data = {**management(1), **member_data(0, name="Kari", email="kari@example.org", birth=birth)}
    response = client.post(f"/{future.slug}/register/individual/", data)
    assert response.status_code == 200
    assert TOO_EARLY in response.text
    assert not Entry.objects.exists()


def test_the_form_takes_a_birth_date_of_1900(client, future):
    data = {
        **management(1),
        **member_data(0, name="Kari", email="k@example.org", birth="1900-01-01"),
    }
    assert client.post(f"/{future.slug}/register/individual/", data).status_code == 302
    assert Person.objects.get().birth_date == date(1900, 1, 1)


def test_today_is_a_birth_date_wherever_it_is_today():
    """Someone born today in Kiribati (UTC+14) registers while it is yesterday in UTC."""
    late_in_utc = datetime(NEXT_YEAR, 6, 1, 23, 0, tzinfo=UTC)
    assert bounds.birth_date_allowed(date(NEXT_YEAR, 6, 2), late_in_utc)
    assert not bounds.birth_date_allowed(date(NEXT_YEAR, 6, 3), late_in_utc)
    assert bounds.birth_date_allowed(date(1900, 1, 1), late_in_utc)
    assert not bounds.birth_date_allowed(date(1899, 12, 31), late_in_utc)


def api_registration(championship, **member_fields):
    member_fields = {"name": "Kari", "email": "kari@example.org", "region": "Rogaland"} | (
        member_fields
    )
    return APIClient().post(
        f"/api/v1/championships/{championship.slug}/categories/individual/entries/",
        {"members": [member_fields]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )


@pytest.mark.parametrize("birth", ["0001-01-01", "1899-12-31", "future"])
def test_the_api_refuses_a_birth_date_before_1900_or_in_the_future(future, birth):
    birth = tomorrow().isoformat() if birth == "future" else birth
    response = api_registration(future, birth_date=birth)
    assert response.status_code == 400
    assert response.json()["members"] == [{"birth_date": [TOO_EARLY]}]
    assert not Entry.objects.exists()


@pytest.mark.parametrize("count", [6, 100_000])
def test_the_api_refuses_more_than_five_citizenships(future, count):
    codes = (SIX * (count // len(SIX) + 1))[:count]
    response = api_registration(future, birth_date="1980-01-01", citizenship=codes)
    assert response.status_code == 400
    assert response.json()["members"] == [{"citizenship": [TOO_MANY]}]
    assert not Person.objects.exists()


def test_the_api_takes_five_citizenships(future):
    response = api_registration(future, birth_date="1980-01-01", citizenship=SIX[:5])
    assert response.status_code == 201, response.json()
    assert Person.objects.get().citizenship == SIX[:5]


def test_the_csv_import_preview_refuses_the_rows_and_saves_nothing(client, future):
    client.force_login(factories.role(future, ChampionshipRole.Role.ORGANISER, username="desk"))
    text = (
        "category;name;e-mail;birth date;region;citizenship\n"
        "individual;Kari;kari@example.org;01.01.0001;Rogaland;NO\n"
        f"individual;Ola;ola@example.org;1980-01-01;Rogaland;{' '.join(SIX)}\n"
        f"individual;Per;per@example.org;{tomorrow():%d.%m.%Y};Rogaland;NO\n"
        f"individual;Siri;siri@example.org;1980-01-01;Rogaland;{','.join(SIX[:5])}\n"
    )
    page = client.get(upload(client, future, text.encode())).text
    assert page.count(f"Member 1: {TOO_EARLY}") == 2
    assert page.count(f"Member 1: {TOO_MANY}") == 1
    assert "<dt>Rows with problems</dt><dd>3</dd>" in page
    assert "<dt>Rows to import</dt><dd>1</dd>" in page  # Siri, with five citizenships
    assert not Entry.objects.exists()


def manage_form_data(page) -> dict:
    """Return what the private page's form posts as it is shown."""
    data = {}
    formset = page.context["formset"]
    for form in [page.context["entry_form"], formset.management_form, *formset.forms]:
        for name in form.fields:
            value = form[name].value()
            if value not in (None, False):
                data[form[name].html_name] = "on" if value is True else value
    return data


def test_the_private_page_refuses_a_birth_date_before_1900(client, future):
    entry = register(future, "individual", [member("Kari", "kari@example.org")])
    url = f"/{future.slug}/entries/{entry.manage_token}/"
    data = manage_form_data(client.get(url))
    data["members-0-birth_date"] = "0001-01-01"
    response = client.post(url, data)
    assert response.status_code == 200
    assert TOO_EARLY in response.text
    assert Person.objects.get().birth_date == date(1980, 1, 1)


@pytest.fixture
def person_change(admin_client, future):
    """The admin's change page of a registered person: its address and what it posts."""
    register(future, "individual", [member("Kari", "kari@example.org", citizenship=("NO",))])
    person = Person.objects.get()
    url = admin_url(Person, "change", person.pk)
    return person, url, change_form_data(admin_client.get(url))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("birth_date", "0001-01-01", TOO_EARLY),
        ("birth_date", "future", TOO_EARLY),
        ("citizenship", json.dumps(SIX), TOO_MANY),
        ("citizenship", json.dumps(["N0"]), 'Give two-letter country codes, e.g. "SE"'),
        ("citizenship", json.dumps({"NO": True}), 'Give two-letter country codes, e.g. "SE"'),
    ],
)
def test_the_admin_refuses_implausible_details(admin_client, person_change, field, value, message):
    person, url, data = person_change
    data[field] = tomorrow().isoformat() if value == "future" else value
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert escape(message) in response.text
    person.refresh_from_db()
    assert (person.birth_date, person.citizenship) == (date(1980, 1, 1), ["NO"])


def test_the_admin_keeps_a_birth_date_stored_before_the_bounds_as_it_was(
    admin_client, person_change
):
    """A person stored by an older release keeps its details while others are corrected."""
    person, url, data = person_change
    Person.objects.filter(pk=person.pk).update(birth_date=date(1, 1, 1), citizenship=SIX)
    data = change_form_data(admin_client.get(url))
    data["city"] = "Sandnes"
    assert admin_client.post(url, data).status_code == 302
    person.refresh_from_db()
    assert (person.city, person.birth_date, person.citizenship) == ("Sandnes", date(1, 1, 1), SIX)
