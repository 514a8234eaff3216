"""Registration through the championships API."""

from __future__ import annotations

import pytest
from django.conf import settings

from registration.models import Entry
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db


# Registration ----------------------------------------------------------------------------


def registration_url(championship, category):
    return f"/api/v1/championships/{championship.slug}/categories/{category}/entries/"


@pytest.fixture
def open_sm(db):
    from datetime import UTC, datetime

    return factories.championship(
        slug=f"sm-{NEXT_YEAR}", ruleset="sm", starts_at=datetime(NEXT_YEAR, 5, 8, 8, tzinfo=UTC)
    )


def test_registering_through_the_api_answers_201_with_the_manage_link(client, open_sm):
    body = {
        "name": "Pusselgänget",
        "members": [
            {
                "name": "Anna",
                "email": "anna@example.se",
                "birth_date": "1980-01-01",
                "citizenship": "SE",
            },
            {
                "name": "Bo",
                "email": "bo@example.se",
                "birth_date": "1982-01-01",
                "citizenship": ["SE"],
            },
            {"name": "Cia", "birth_date": "1985-01-01", "citizenship": ["SE", "FI"]},
        ],
        "publish_consent": True,
    }
    response = client.post(registration_url(open_sm, "team"), body, content_type="application/json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert set(data) == {
        "id",
        "status",
        "official",
        "fee",
        "currency",
        "manage_url",
        "waiting_position",
        "offer_expires_at",
        "payment_due_at",
    }
    assert data["waiting_position"] is None
    entry = Entry.objects.get(ref=data["id"])
    assert (data["status"], data["official"]) == ("confirmed", True)
    assert data["manage_url"].endswith(f"/{open_sm.slug}/entries/{entry.manage_token}/")
    assert entry.members.count() == 3


def test_the_api_tells_a_guest_the_entry_is_unofficial(client, open_sm):
    body = {
        "members": [
            {
                "name": "Ola",
                "email": "ola@example.no",
                "birth_date": "1980-01-01",
                "citizenship": "NO",
            }
        ]
    }
    response = client.post(
        registration_url(open_sm, "individual"), body, content_type="application/json"
    )
    assert response.status_code == 201
    assert response.json()["official"] is False


def test_the_api_gives_the_forms_messages_by_member_and_saves_nothing(client, open_sm):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = {
        "members": [
            {"name": "Vuxen", "email": "v@example.se", "birth_date": "1980-01-01"},
            {"name": "Barn", "birth_date": f"{NEXT_YEAR - 9}-01-01"},
            {"name": "Tredje", "birth_date": "1980-01-01"},
        ]
    }
    response = client.post(registration_url(open_sm, "team"), body, content_type="application/json")
    assert response.status_code == 400
    assert "name the accompanying adult" in response.json()["adult_name"][0]
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "members"),
        ({"members": []}, "members"),
        ({"members": [{"name": "X", "email": "not-mail"}]}, "members"),
        ({"members": [{"name": "X", "birth_date": "14.03.2000"}]}, "members"),
        ({"members": [{"name": "X", "citizenship": "Sweden"}]}, "members"),
        ({"members": "Anna"}, "members"),
    ],
)
def test_malformed_registrations_get_400_with_the_field(client, open_sm, body, field):
    response = client.post(
        registration_url(open_sm, "individual"), body, content_type="application/json"
    )
    assert response.status_code == 400
    assert field in response.json()
    assert not Entry.objects.exists()


def test_registering_in_an_unknown_category_is_404(client, open_sm):
    response = client.post(
        registration_url(open_sm, "quartet"), {"members": []}, content_type="application/json"
    )
    assert response.status_code == 404
