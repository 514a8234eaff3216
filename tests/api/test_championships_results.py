"""The championships API's round results, what personal data they hold, errors, the schema."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from api.exceptions import exception_handler
from championship.models import Round
from tests import factories
from tests.api.championships import finished_round, results_url

pytestmark = pytest.mark.django_db

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
    "qualified_by",
    "prize",
}


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
    assert set(first["entry"]) == {"id", "name", "members", "people", "represents"}
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
