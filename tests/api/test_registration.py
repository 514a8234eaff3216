"""REST API v1 registration: the deadline, official entries only, one entry per person."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from registration.models import Entry, Person
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def registration_url(championship, category):
    return f"/api/v1/championships/{championship.slug}/categories/{category}/entries/"


def post(client, championship, category, members, **body):
    return client.post(
        registration_url(championship, category),
        {"members": members, **body},
        content_type="application/json",
    )


def test_the_api_gives_and_applies_rogalands_deadline_when_the_organisers_is_later(client):
    now = timezone.now().replace(microsecond=0)
    rm = factories.championship(slug="rm-soon", starts_at=now + timedelta(days=4))
    rm.registration_deadline = now + timedelta(days=2)
    rm.save()
    body = client.get(f"/api/v1/championships/{rm.slug}/").json()
    deadline = parse_datetime(body["registration_deadline"])
    assert deadline == rm.effective_registration_deadline() <= now - timedelta(hours=23)
    assert {category["registration_state"] for category in body["categories"]} == {"closed"}
    member = {"name": "Kari", "email": "kari@example.org", "birth_date": "1990-01-01"}
    response = post(client, rm, "individual", [member])
    assert response.status_code == 400
    assert response.json()["non_field_errors"] == ["Registration for this category has closed."]


@pytest.fixture
def sm_officials_only(db):
    return factories.championship(
        slug=f"sm-{NEXT_YEAR}",
        ruleset="sm",
        starts_at=datetime(NEXT_YEAR, 5, 8, 8, tzinfo=UTC),
        rule_overrides={"unofficial_allowed": False},
    )


def test_the_api_refuses_an_entry_that_would_be_unofficial_with_the_reason(
    client, sm_officials_only
):
    anna = {"name": "Anna", "email": "anna@example.se", "birth_date": "1980-01-01"}
    ola = {"name": "Ola", "email": "ola@example.no", "birth_date": "1981-01-01"}
    response = post(
        client,
        sm_officials_only,
        "pair",
        [{**anna, "citizenship": "SE"}, {**ola, "citizenship": "NO"}],
    )
    assert response.status_code == 400
    body = response.json()
    assert body["members"] == [
        {},
        {"citizenship": ["Ola: is not a citizen of Sweden, so the entry cannot be official."]},
    ]
    assert body["non_field_errors"] == [
        "This championship takes official entries only, and this entry would be unofficial "
        "(hors concours): 2 eligible members are needed, 1 given."
    ]
    assert not Entry.objects.exists() and not Person.objects.exists()


def test_the_api_gives_the_reason_in_the_requested_language(client, sm_officials_only):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    ola = {"name": "Ola", "email": "ola@example.no", "birth_date": "1981-01-01"}
    response = post(client, sm_officials_only, "individual", [{**ola, "citizenship": "NO"}])
    assert response.status_code == 400
    (message,) = response.json()["members"][0]["citizenship"]
    assert "Ola" in message and "är inte medborgare i Sverige" in message


@pytest.fixture
def open_dm(db):
    return factories.championship(
        slug=f"dm-{NEXT_YEAR}",
        ruleset="dm",
        starts_at=datetime(NEXT_YEAR, 5, 8, 8, tzinfo=UTC),
        rule_overrides={"adult_required_below": None, "min_age_individual": None},
    )


def test_the_api_refuses_the_same_person_under_another_email_in_dm(client, open_dm):
    mette = {"name": "Mette Hansen", "email": "mette@example.dk", "birth_date": "1990-05-01"}
    jens = {"name": "Jens", "email": "jens@example.dk"}
    assert post(client, open_dm, "pair", [mette, jens]).status_code == 201
    again = {"name": "METTE  HANSEN", "email": "mh@example.dk", "birth_date": "1990-05-01"}
    response = post(client, open_dm, "pair", [{"name": "Søs", "email": "s@example.dk"}, again])
    assert response.status_code == 400
    assert response.json()["members"][1]["name"] == [
        "METTE  HANSEN, born 1 May 1990, is already registered in this category: "
        "one entry per person."
    ]
    assert Entry.objects.count() == 1


def test_the_api_needs_an_email_or_a_birth_date_for_each_member_in_dm(client, open_dm):
    first = {"name": "Mette", "email": "mette@example.dk"}
    response = post(client, open_dm, "pair", [first, {"name": "Jens"}])
    assert response.status_code == 400
    assert response.json()["members"][1]["email"] == [
        "Give an e-mail address or a birth date for Jens: each person may have one entry in "
        "this category, and these tell people apart."
    ]
    second = {"name": "Jens", "birth_date": str(date(1990, 1, 1))}
    assert post(client, open_dm, "pair", [first, second]).status_code == 201
