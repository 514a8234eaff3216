"""REST API v1: championships, round results with conditional requests, export and import."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from api.exceptions import exception_handler
from championship.models import Championship, ChampionshipRole, Round, Seat
from registration import places
from registration.models import Entry
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role

CHAMPIONSHIP_KEYS = {
    "slug",
    "name",
    "ruleset",
    "starts_at",
    "timezone",
    "venue",
    "currency",
    "language",
    "url",
}
DETAIL_KEYS = CHAMPIONSHIP_KEYS | {
    "address",
    "registration_deadline",
    "categories",
    "rounds",
    "questions",
}
CATEGORY_KEYS = {
    "key",
    "kind",
    "name",
    "min_members",
    "max_members",
    "pieces",
    "time_limit_minutes",
    "capacity",
    "confirmed_count",
    "waitlisted_count",
    "fee",
    "currency",
    "registration_opens_at",
    "registration_state",
    "puzzle_brand",
    "puzzle_motif",
}
ROUND_KEYS = {
    "key",
    "name",
    "category",
    "stage",
    "state",
    "version",
    "time_limit_minutes",
    "advance",
    "heats",
    "results_url",
}
HEAT_KEYS = {"key", "name", "state", "scheduled_start", "started_at"}
ROW_KEYS = {
    "pieces_per_minute",
    "entry",
    "heat",
    "table",
    "time",
    "missing_found",
    "missing_lost",
    "adjacent_missing",
    "last_piece_time",
    "pieces_placed",
    "incorrect",
    "status",
    "place",
    "official_place",
    "official",
    "outcome",
    "final_seconds",
    "penalty_seconds",
    "counted_pieces",
    "qualified",
    "prize",
}


@pytest.fixture(autouse=True)
def empty_cache():
    """Start every test with an empty cache: standings are cached per round id and version,
    and SQLite reuses the ids of rolled-back rows."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def superuser(db):
    return factories.user(username="root", is_superuser=True, is_staff=True)


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def results_url(championship, round_key: str) -> str:
    return f"/api/v1/championships/{championship.slug}/rounds/{round_key}/results/"


def finished_round(championship, count: int, *, consent: bool = True) -> Round:
    """Return the individual final with ``count`` seated, finished entries, standings computed."""
    category = championship.categories.get(kind="individual")
    round_ = category.rounds.get()
    heat = factories.heat(round_, started_at=factories.START, state="running")
    for number in range(1, count + 1):
        member = factories.person(
            championship, name=f"Solver {number}", birth_date=date(1990, 5, 17)
        )
        entry = factories.entry(category, members=[member], publish_consent=consent)
        table = factories.table(championship, number=number)
        Seat.objects.create(heat=heat, table=table, entry=entry)
        Result.objects.create(
            round=round_,
            heat=heat,
            entry=entry,
            status=Result.Status.FINISHED,
            time_ms=(3600 + number * 7) * 1000,
        )
    standings_recompute(round_=round_)
    round_.refresh_from_db()
    return round_


# The list and the detail.


def test_the_list_shows_the_publicly_listed_championships(api, championship):
    Championship.objects.filter(pk=factories.championship(slug="hidden").pk).update(is_public=False)
    response = api.get("/api/v1/championships/")
    assert response.status_code == 200
    assert [item["slug"] for item in response.json()] == ["rm-2026"]
    item = response.json()[0]
    assert set(item) == CHAMPIONSHIP_KEYS
    assert item["name"] == "Rogalandsmesterskapet 2026"
    assert item["ruleset"] == "rogaland"
    assert item["currency"] == "NOK"
    assert item["timezone"] == "Europe/Oslo"
    assert item["url"] == "http://testserver/api/v1/championships/rm-2026/"


def test_the_detail_shows_categories_and_rounds_with_heats(api, championship):
    individual = championship.categories.get(kind="individual")
    factories.entry(individual)
    factories.entry(individual)
    factories.entry(individual, status="waitlisted")
    final = individual.rounds.get()
    factories.heat(final, key="b", order=2, name="Heat B")
    factories.heat(final, key="a", order=1)

    response = api.get("/api/v1/championships/rm-2026/")

    assert response.status_code == 200
    body = response.json()
    assert set(body) == DETAIL_KEYS
    assert body["slug"] == "rm-2026"
    assert body["url"] == "http://testserver/api/v1/championships/rm-2026/"
    assert [c["key"] for c in body["categories"]] == ["individual", "pair", "team"]
    category = body["categories"][0]
    assert set(category) == CATEGORY_KEYS
    assert category == category | {
        "kind": "individual",
        "min_members": 1,
        "max_members": 1,
        "pieces": 500,
        "capacity": 50,
        "confirmed_count": 2,
        "waitlisted_count": 1,
        "fee": "200.00",
        "currency": "NOK",
    }
    assert [r["key"] for r in body["rounds"]] == ["individual-final", "pair-final", "team-final"]
    round_ = body["rounds"][0]
    assert set(round_) == ROUND_KEYS
    assert round_ == round_ | {
        "category": "individual",
        "stage": "final",
        "state": "planned",
        "version": 1,
        "advance": {},
        "results_url": "http://testserver" + results_url(championship, "individual-final"),
    }
    assert [heat["key"] for heat in round_["heats"]] == ["a", "b"]
    assert set(round_["heats"][0]) == HEAT_KEYS
    assert [heat["name"] for heat in round_["heats"]] == ["a", "Heat B"]
    assert round_["heats"][0]["state"] == "scheduled"
    assert round_["heats"][0]["started_at"] is None


def test_the_advancement_is_shown_as_in_the_interchange_format(api, db):
    factories.championship(slug="sm-2026", ruleset="sm")
    Round.objects.filter(key="individual-prelim").update(
        advance="per_heat", advance_count=3, advance_best_remaining=2
    )
    Round.objects.filter(key="pair-prelim").update(advance="overall", advance_count=4)
    rounds = {r["key"]: r for r in api.get("/api/v1/championships/sm-2026/").json()["rounds"]}
    assert rounds["individual-prelim"]["advance"] == {"per_heat": 3, "best_remaining": 2}
    assert rounds["pair-prelim"]["advance"] == {"overall": 4}
    assert rounds["individual-final"]["advance"] == {}


def test_the_puzzle_is_shown_only_once_a_heat_of_its_category_started(api, championship):
    individual = championship.categories.get(kind="individual")
    individual.puzzle_brand, individual.puzzle_motif = "Ravensburger", "Preikestolen at dawn"
    individual.save()
    heat = factories.heat(individual.rounds.get())

    category = api.get("/api/v1/championships/rm-2026/").json()["categories"][0]
    assert (category["puzzle_brand"], category["puzzle_motif"]) == (None, None)

    heat.started_at, heat.state = factories.START, "running"
    heat.save()
    category = api.get("/api/v1/championships/rm-2026/").json()["categories"][0]
    assert (category["puzzle_brand"], category["puzzle_motif"]) == (
        "Ravensburger",
        "Preikestolen at dawn",
    )


def test_the_detail_takes_the_same_queries_however_big_the_championship(api, championship):
    with CaptureQueriesContext(connection) as small:
        assert api.get("/api/v1/championships/rm-2026/").status_code == 200
    for category in championship.categories.all():
        for _ in range(3):
            factories.entry(category, members=[factories.person(championship)])
        for key in "abc":
            factories.heat(category.rounds.get(), key=key, started_at=factories.START)
    with CaptureQueriesContext(connection) as big:
        assert api.get("/api/v1/championships/rm-2026/").status_code == 200
    assert len(big) == len(small)


def test_an_unknown_championship_is_404(api, db):
    assert api.get("/api/v1/championships/nowhere/").status_code == 404
    assert api.get("/api/v1/championships/nowhere/rounds/x/results/").status_code == 404


# Registration states.


def registration_states(api, championship) -> dict[str, str]:
    body = api.get(f"/api/v1/championships/{championship.slug}/").json()
    return {category["key"]: category["registration_state"] for category in body["categories"]}


def test_registration_is_open_full_not_open_or_closed(api, db):
    now = timezone.now()
    championship = factories.championship(slug="later", starts_at=now + timedelta(days=30))
    pair = championship.categories.get(kind="pair")
    pair.capacity = 1
    pair.save()
    factories.entry(pair)
    team = championship.categories.get(kind="team")
    team.registration_opens_at = now + timedelta(days=1)
    team.save()

    assert registration_states(api, championship) == {
        "individual": "open",
        "pair": "full",
        "team": "not_open",
    }

    # rogaland closes registration five days before the start.
    soon = factories.championship(slug="soon", starts_at=now + timedelta(days=4))
    assert set(registration_states(api, soon).values()) == {"closed"}


def test_a_waitlisted_or_withdrawn_entry_does_not_fill_a_category(championship):
    individual = championship.categories.get(kind="individual")
    individual.capacity = 1
    individual.save()
    factories.entry(individual, status="waitlisted")
    before_deadline = championship.starts_at - timedelta(days=10)
    assert places.registration_state(individual, now=before_deadline) == "open"
    factories.entry(individual)
    assert places.registration_state(individual, now=before_deadline) == "full"


def test_registration_closes_at_the_organisers_deadline(championship):
    individual = championship.categories.get(kind="individual")
    # Earlier than rogaland's own deadline (five days before the start), so it holds.
    championship.registration_deadline = championship.starts_at - timedelta(days=6)
    championship.save()
    individual.refresh_from_db()
    deadline = championship.registration_deadline
    assert places.registration_state(individual, now=deadline - timedelta(seconds=1)) == "open"
    assert places.registration_state(individual, now=deadline) == "closed"


def test_a_category_without_capacity_is_never_full(db):
    sm = factories.championship(ruleset="sm", starts_at=timezone.now() + timedelta(days=30))
    individual = sm.categories.get(kind="individual")
    for _ in range(3):
        factories.entry(individual)
    assert places.registration_state(individual) == "open"


# Round results.


def test_the_results_are_the_round_standings(api, championship):
    round_ = finished_round(championship, 3)
    response = api.get(results_url(championship, "individual-final"))
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {
        "round",
        "version",
        "state",
        "official",
        "official_at",
        "corrections",
        "rows",
    }
    # Not signed off: provisional, no sign-off time, nothing corrected after it.
    assert (body["official"], body["official_at"], body["corrections"]) == (False, None, [])
    assert body["round"] == "individual-final"
    assert body["version"] == round_.version
    assert body["state"] == round_.state
    assert [row["place"] for row in body["rows"]] == [1, 2, 3]
    first = body["rows"][0]
    assert set(first) == ROW_KEYS
    assert set(first["entry"]) == {"id", "name", "members", "people"}
    assert first["entry"]["name"] == "Solver 1"
    assert first["entry"]["members"] == ["Solver 1"]
    assert first["time"] == "1:00:07"
    assert first["table"] == 1
    assert first["heat"] == "a"
    assert first["outcome"] == "completed"
    assert response["ETag"] == f'"{round_.pk}-{round_.version}"'


def test_names_are_withheld_without_consent(api, championship):
    finished_round(championship, 2, consent=False)
    rows = api.get(results_url(championship, "individual-final")).json()["rows"]
    assert [row["entry"]["name"] for row in rows] == [None, None]
    assert [row["entry"]["members"] for row in rows] == [[], []]
    assert "Solver" not in json.dumps(rows)


def test_an_unknown_round_is_404(api, championship):
    other = factories.championship(slug="other")
    assert api.get(results_url(championship, "no-such-round")).status_code == 404
    # A round key of another championship is not a round of this one.
    Round.objects.filter(championship=other, key="team-final").update(key="team-grand-final")
    assert api.get(results_url(championship, "team-grand-final")).status_code == 404


def test_an_unchanged_round_answers_304_with_one_query(
    api, championship, django_assert_max_num_queries
):
    round_ = finished_round(championship, 3)
    url = results_url(championship, "individual-final")
    etag = api.get(url)["ETag"]
    assert etag == f'"{round_.pk}-{round_.version}"'

    with django_assert_max_num_queries(1):
        response = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag
    assert api.get(url, HTTP_IF_NONE_MATCH=f'"x", W/{etag}').status_code == 304
    api.force_login(factories.user())  # a browser with a session polls as cheaply
    with django_assert_max_num_queries(1):
        assert api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304

    Round.objects.filter(pk=round_.pk).update(version=F("version") + 1)
    response = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] == f'"{round_.pk}-{round_.version + 1}"'
    assert response.json()["version"] == round_.version + 1


def test_the_results_come_gzipped_to_a_client_that_accepts_it(api, championship):
    import gzip
    import json

    finished_round(championship, 3)
    url = results_url(championship, "individual-final")
    plain = api.get(url)
    zipped = api.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert zipped["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped["Vary"]
    assert json.loads(gzip.decompress(zipped.content)) == plain.json()
    assert zipped["ETag"] == f"W/{plain['ETag']}"
    assert api.get(url, HTTP_IF_NONE_MATCH=zipped["ETag"]).status_code == 304


def results_queries(api, championship, count: int) -> int:
    finished_round(championship, count)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = api.get(results_url(championship, "individual-final"))
    assert response.status_code == 200
    assert len(response.json()["rows"]) == count
    return len(queries)


def test_the_results_take_the_same_queries_for_5_and_40_results(api, db):
    five = results_queries(api, factories.championship(slug="five"), 5)
    forty = results_queries(api, factories.championship(slug="forty"), 40)
    assert five == forty


# Personal data.


def test_the_public_endpoints_show_no_personal_data(api, championship):
    championship.venue = "Stavanger Forum"
    championship.save()
    finished_round(championship, 4)  # consenting entries: names only
    bodies = [
        api.get("/api/v1/championships/").content.decode(),
        api.get("/api/v1/championships/rm-2026/").content.decode(),
        api.get(results_url(championship, "individual-final")).content.decode(),
    ]
    for body in bodies:
        assert "@" not in body
        assert "1990-05-17" not in body
        for field in ("email", "birth_date", "city", "citizenship", "region", "token"):
            assert f'"{field}"' not in body


# The exception handler.


def test_django_validation_errors_become_400_with_fields():
    response = exception_handler(ValidationError({"fee": ["Too high."], "__all__": ["Wrong."]}), {})
    assert response.status_code == 400
    assert response.data == {"fee": ["Too high."], "non_field_errors": ["Wrong."]}


def test_integrity_errors_become_409():
    response = exception_handler(IntegrityError("duplicate key value"), {})
    assert response.status_code == 409
    assert "duplicate" not in str(response.data)


# The schema.


def test_the_schema_documents_every_endpoint(api, db):
    response = api.get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    paths = json.loads(response.content)["paths"]
    assert {
        "/api/v1/championships/",
        "/api/v1/championships/{championship_slug}/",
        "/api/v1/championships/{championship_slug}/rounds/{round_key}/results/",
        "/api/v1/championships/{championship_slug}/export/",
        "/api/v1/championships/import/",
    } <= set(paths)


# Export.


def export_url(championship) -> str:
    return f"/api/v1/championships/{championship.slug}/export/"


def test_the_export_is_refused_to_anonymous_users(api, championship):
    response = api.get(export_url(championship))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_the_export_is_refused_to_the_organiser_of_another_championship(championship):
    other = factories.championship(slug="other")
    stranger = factories.role(other, Role.ORGANISER)
    assert token_client(stranger).get(export_url(championship)).status_code == 403
    judge = factories.role(championship, Role.JUDGE)
    assert token_client(judge).get(export_url(championship)).status_code == 403


def test_the_organiser_exports_the_interchange_document(championship, organiser):
    finished_round(championship, 2)
    response = token_client(organiser).get(export_url(championship))
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    document = response.json()
    assert document["format"] == "speedpuzzling-championship"
    assert document["version"] == 2
    assert document["championship"]["slug"] == "rm-2026"
    assert len(document["persons"]) == 2


def test_the_export_works_with_the_browser_session_and_for_superusers(
    championship, organiser, superuser
):
    for user in (organiser, superuser):
        client = APIClient()
        client.force_login(user)
        assert client.get(export_url(championship)).status_code == 200


def test_the_export_of_an_unknown_championship_is_404(organiser):
    assert token_client(organiser).get("/api/v1/championships/nowhere/export/").status_code == 404


# Import.

IMPORT_URL = "/api/v1/championships/import/"


def exported(championship, *, slug: str) -> dict:
    """Return the championship's interchange document under another slug, without table tokens."""
    from interchange.export import export_document

    document = export_document(championship)
    document["championship"]["slug"] = slug
    for table in document["tables"]:
        table.pop("token", None)
    return document


def test_the_import_is_refused_to_everybody_but_superusers(api, championship, organiser):
    document = exported(championship, slug="copy")
    assert api.post(IMPORT_URL, document, format="json").status_code == 401
    response = token_client(organiser).post(IMPORT_URL, document, format="json")
    assert response.status_code == 403
    assert not Championship.objects.filter(slug="copy").exists()


def test_a_superuser_imports_a_championship(championship, superuser):
    finished_round(championship, 3)
    client = token_client(superuser)
    response = client.post(IMPORT_URL, exported(championship, slug="copy"), format="json")
    assert response.status_code == 201
    url = "http://testserver/api/v1/championships/copy/"
    assert response.json() == {"slug": "copy", "url": url}
    assert response["Location"] == url
    copy = Championship.objects.get(slug="copy")
    assert copy.persons.count() == 3
    assert client.get(url).json()["slug"] == "copy"


def test_an_invalid_document_is_400_with_its_path(championship, superuser):
    finished_round(championship, 2)
    document = exported(championship, slug="copy")
    document["competitions"][0]["entries"][1]["members"] = ["nobody"]
    response = token_client(superuser).post(IMPORT_URL, document, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "path": "competitions[0].entries[1].members[0]",
        "detail": 'unknown person "nobody"',
    }
    assert not Championship.objects.filter(slug="copy").exists()


def test_a_document_that_is_not_an_object_is_400(superuser, db):
    client = token_client(superuser)
    response = client.post(IMPORT_URL, [1, 2], format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"path", "detail"}
    response = client.post(IMPORT_URL, "{not json", content_type="application/json")
    assert response.status_code == 400
    assert client.post(IMPORT_URL, {"a": "b"}).status_code == 415  # a form, not JSON


def test_an_existing_slug_is_409_unless_replaced(championship, superuser):
    client = token_client(superuser)
    document = exported(championship, slug="rm-2026")
    response = client.post(IMPORT_URL, document, format="json")
    assert response.status_code == 409
    assert set(response.json()) == {"detail"}

    document["championship"]["name"] = "Rogalandsmesterskapet 2026, again"
    response = client.post(f"{IMPORT_URL}?replace=true", document, format="json")
    assert response.status_code == 201
    assert Championship.objects.get(slug="rm-2026").name == "Rogalandsmesterskapet 2026, again"


def test_an_invalid_replace_flag_is_400(championship, superuser):
    document = exported(championship, slug="copy")
    response = token_client(superuser).post(
        f"{IMPORT_URL}?replace=perhaps", document, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()) == ["replace"]


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
