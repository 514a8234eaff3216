"""POST /api/v1/championships/: the same service as the page "New championship"."""

import json
from datetime import UTC, date, datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from championship import services
from championship.models import Championship, ChampionshipRole
from registration.models import Entry
from tests import factories

URL = reverse("api:championship-list")


def winter_day(day: int) -> date:
    return date(timezone.now().year + 1, 1, day)


@pytest.fixture
def creator(db):
    user = factories.user(username="creator")
    user.groups.add(services.organisers_group())
    return user


def post(client, body, user=None):
    headers = {}
    if user is not None:
        headers["HTTP_AUTHORIZATION"] = f"Token {Token.objects.get_or_create(user=user)[0].key}"
    return client.post(URL, json.dumps(body), content_type="application/json", **headers)


def get(client, url, user):
    """Read the API as ``user``, by token: a new championship is a draft, shown to its staff."""
    token = Token.objects.get_or_create(user=user)[0].key
    return client.get(url, HTTP_AUTHORIZATION=f"Token {token}")


def sm_body(**changes) -> dict:
    body = {
        "preset": "sm",
        "name": "Pussel-SM",
        "slug": "pussel-sm",
        "starts_at": f"{winter_day(20):%Y-%m-%d}T10:00",
        "venue": "Uppsala",
    }
    body.update(changes)
    return body


@pytest.mark.django_db
def test_an_sm_championship_is_created_with_its_categories_rounds_and_zone(client, creator):
    response = post(client, sm_body(), creator)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert response["Location"].endswith(
        reverse("api:championship-detail", kwargs={"championship_slug": "pussel-sm"})
    )
    assert (body["slug"], body["ruleset"], body["currency"], body["language"]) == (
        "pussel-sm",
        "sm",
        "SEK",
        "sv",
    )
    assert body["timezone"] == "Europe/Stockholm"
    # Without an offset, 10:00 is Stockholm's wall clock: 09:00 UTC in winter.
    day = winter_day(20)
    assert datetime.fromisoformat(body["starts_at"]) == datetime(day.year, 1, 20, 9, 0, tzinfo=UTC)
    assert [c["kind"] for c in body["categories"]] == ["individual", "pair", "team"]
    assert [(r["key"], r["stage"]) for r in body["rounds"]] == [
        ("individual-prelim", "prelim"),
        ("individual-final", "final"),
        ("pair-prelim", "prelim"),
        ("pair-final", "final"),
        ("team-prelim", "prelim"),
        ("team-final", "final"),
    ]
    # A draft: the same answer as the detail endpoint gives its organiser; nobody else sees it.
    assert body["draft"] is True
    detail = get(client, response["Location"], creator).json()
    assert detail == body
    assert client.get(response["Location"]).status_code == 404
    championship = Championship.objects.get(slug="pussel-sm")
    assert ChampionshipRole.objects.filter(
        championship=championship, user=creator, role="organiser"
    ).exists()


@pytest.mark.django_db
def test_an_offset_is_kept_and_overrides_apply(client, creator):
    day = winter_day(20)
    body = sm_body(
        starts_at=f"{day:%Y-%m-%d}T10:00:00+00:00",
        currency="EUR",
        language="en",
        timezone="Europe/Helsinki",
        categories=[
            {
                "kind": "individual",
                "capacity": 40,
                "fee": "150.00",
                "rounds": [{"stage": "prelim", "advance": {"overall": 12}}, {"stage": "final"}],
            },
            {"kind": "team", "rounds": [{"stage": "final"}]},
        ],
    )
    response = post(client, body, creator)
    assert response.status_code == 201, response.json()
    championship = Championship.objects.get(slug="pussel-sm")
    assert championship.starts_at == datetime(day.year, 1, 20, 10, 0, tzinfo=UTC)
    assert (championship.currency, championship.language, championship.timezone) == (
        "EUR",
        "en",
        "Europe/Helsinki",
    )
    individual = championship.categories.get(kind="individual")
    assert (individual.capacity, str(individual.fee), individual.pieces) == (40, "150.00", 500)
    prelim = individual.rounds.get(stage="prelim")
    assert prelim.advance_settings == {"overall": 12}
    assert list(championship.categories.values_list("kind", flat=True)) == ["individual", "team"]
    assert championship.rule_overrides == {"rounds_team": ["final"]}


@pytest.mark.django_db
def test_the_deadline_and_capacity_edited_afterwards_show_as_typed(client, creator):
    """The API's championship edited on the page: local 10:00 and 23:59, and promotion."""
    assert post(client, sm_body(), creator).status_code == 201
    championship = Championship.objects.get(slug="pussel-sm")
    individual = championship.categories.get(kind="individual")
    factories.entry(individual, status=Entry.Status.CONFIRMED)
    waiting = factories.entry(individual, status=Entry.Status.WAITLISTED)
    individual.capacity = 1
    individual.save()
    client.force_login(creator)
    edit = reverse("manage:edit", kwargs={"championship_slug": "pussel-sm"})
    deadline = winter_day(10)
    client.post(
        edit,
        {
            "section": "championship",
            "name": "Pussel-SM",
            "starts_at": f"{winter_day(20):%Y-%m-%d}T10:00",
            "registration_deadline": f"{deadline:%Y-%m-%d}T23:59",
            "is_public": "on",
        },
    )
    client.post(
        edit,
        {
            "section": "category",
            "key": "individual",
            "category-individual-capacity": "2",
            "category-individual-fee": "0",
            "category-individual-pieces": "500",
            "category-individual-time_limit_minutes": "120",
        },
    )
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.CONFIRMED
    detail = client.get(reverse("api:championship-detail", args=["pussel-sm"])).json()
    assert datetime.fromisoformat(detail["registration_deadline"]) == datetime(
        deadline.year, 1, 10, 22, 59, tzinfo=UTC
    )
    html = client.get(championship.get_absolute_url()).content.decode()
    assert "10:00" in html and "23:59" in html


@pytest.mark.django_db
def test_without_authentication_401_and_without_the_permission_403(client):
    assert post(client, sm_body()).status_code == 401
    plain = factories.user(username="plain")
    response = post(client, sm_body(), plain)
    assert response.status_code == 403
    assert not Championship.objects.exists()


@pytest.mark.django_db
def test_an_existing_slug_is_409(client, creator):
    factories.championship(slug="pussel-sm")
    response = post(client, sm_body(), creator)
    assert response.status_code == 409
    assert "pussel-sm" in response.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"slug": "Not a slug"}, "slug"),
        ({"slug": "new"}, "slug"),
        ({"preset": "ejpc"}, "preset"),
        ({"starts_at": "soon"}, "starts_at"),
        ({"starts_at": "9999-12-31T10:00"}, "starts_at"),
        ({"starts_at": "0001-01-01T10:00"}, "starts_at"),
        ({"starts_at": "2090-01-20T10:00"}, "starts_at"),
        ({"categories": [{"kind": "individual", "time_limit_minutes": 100000}]}, "categories"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"currency": "USD"}, "currency"),
        ({"categories": [{"kind": "individual"}, {"kind": "individual"}]}, "categories"),
        (
            {"categories": [{"kind": "pair", "rounds": [{"stage": "prelim"}]}]},
            "categories.0.rounds",
        ),
        ({"categories": [{"kind": "team", "min_members": 5}]}, "categories.0.max_members"),
        ({"swish_number": "123 785 69"}, "swish_number"),
        ({"bank_account": "5050-1056"}, "bank_account"),
        ({"iban": "SE46 5000 0000 0583 9825 7466"}, "iban"),
        ({"refund_days_before": 366}, "refund_days_before"),
        ({"payment_reference_scheme": "giro"}, "payment_reference_scheme"),
    ],
)
def test_bad_input_is_400_naming_the_field(client, creator, changes, field):
    response = post(client, sm_body(**changes), creator)
    assert response.status_code == 400, response.json()
    assert field in response.json()
    assert not Championship.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("missing", ["preset", "name", "slug", "starts_at"])
def test_missing_fields_are_400(client, creator, missing):
    body = sm_body()
    del body[missing]
    response = post(client, body, creator)
    assert response.status_code == 400
    assert missing in response.json()


@pytest.mark.django_db
def test_the_list_stays_public(client, django_assert_max_num_queries):
    factories.championship(slug="listed")
    with django_assert_max_num_queries(2):
        response = client.get(URL)
    assert response.status_code == 200
    assert [c["slug"] for c in response.json()] == ["listed"]


def test_the_schema_documents_the_create_endpoint(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/championships/"]["post"]
    assert operation["operationId"] == "championship_create"
    assert {"201", "400", "401", "403", "409"} <= set(operation["responses"])


GROUPED = [
    {
        "stage": "prelim",
        "key": f"group-{group}",
        "pieces": 500,
        "advance": {
            "overall": 60,
            "country_places": 30,
            "country_place_requires_completion": True,
            "into": "final",
        },
    }
    for group in "ab"
] + [{"stage": "final", "pieces": 1000, "puzzles": 2, "time_limit_minutes": 180}]


@pytest.mark.django_db
def test_groups_feeding_a_final_with_country_places_are_created(client, creator):
    body = sm_body(preset="wjpc", categories=[{"kind": "team", "rounds": GROUPED}])
    response = post(client, body, creator)
    assert response.status_code == 201, response.json()
    detail = get(
        client,
        reverse("api:championship-detail", kwargs={"championship_slug": "pussel-sm"}),
        creator,
    ).json()
    rounds = {r["key"]: r for r in detail["rounds"]}
    assert set(rounds) == {"team-group-a", "team-group-b", "team-final"}
    assert rounds["team-group-b"]["advance"] == {
        "overall": 60,
        "country_places": 30,
        "country_place_requires_completion": True,
        "into": "team-final",
    }
    final = rounds["team-final"]
    assert (final["pieces"], final["puzzles"], final["time_limit_minutes"]) == (1000, 2, 180)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "advance",
    [
        {"country_places": 30},
        {"overall": 60, "country_places": "some"},
        {"overall": 60, "country_places": -1},
        {"overall": 60, "per_country": 2},
        {"overall": 60, "into": "nowhere"},
    ],
)
def test_bad_country_places_or_into_are_400_and_create_nothing(client, creator, advance):
    rounds = [{"stage": "prelim", "advance": advance}, {"stage": "final"}]
    body = sm_body(preset="wjpc", categories=[{"kind": "team", "rounds": rounds}])
    response = post(client, body, creator)
    assert response.status_code == 400, response.json()
    assert "categories" in str(response.json())
    assert not Championship.objects.exists()


@pytest.mark.django_db
def test_where_entrants_pay_is_set_at_creation_and_shown(client, creator):
    body = sm_body(
        swish_number="123 785 69 01",
        bank_account="5050-1055",
        payee_name="Svenska Pusselförbundet",
        payment_reference_scheme="ocr_length",
        refund_days_before=15,
    )
    response = post(client, body, creator)
    assert response.status_code == 201, response.json()
    shown = response.json()
    assert (shown["swish_number"], shown["bank_account"]) == ("1237856901", "5050-1055")
    assert (shown["payment_reference_scheme"], shown["refund_days_before"]) == ("ocr_length", 15)
    assert (shown["vipps_number"], shown["iban"]) == ("", "")
    championship = Championship.objects.get()
    assert championship.payee == "Svenska Pusselförbundet"
