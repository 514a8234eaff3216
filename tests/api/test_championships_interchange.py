"""The championships API's export and import of interchange documents."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from championship.models import Championship, ChampionshipRole
from tests import factories
from tests.api.championships import finished_round

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role


@pytest.fixture
def superuser(db):
    return factories.user(username="root", is_superuser=True, is_staff=True)


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


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
    assert document["version"] == 4
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
