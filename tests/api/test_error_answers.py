"""Every error under the API is JSON, never the site's HTML page: 400, 403, 404, 405, 413, 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import path
from rest_framework.test import APIClient

from api.views import championships
from championship.models import ChampionshipRole
from tests import factories

pytestmark = pytest.mark.django_db


def assert_json_error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content)
    assert isinstance(body, dict) and body, body
    return body


@pytest.fixture
def quiet_client():
    """A client that gets the answer a browser would, not the view's exception."""
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nowhere/",
        "/api/v1/championships/no-such-one/rounds/final/nowhere/more/",
        "/api/v1/championships/a%00b/",
        "/api/",
        "/api/v2/championships/",
    ],
)
def test_an_unknown_path_under_the_api_is_a_json_404(quiet_client, path):
    assert_json_error(quiet_client.get(path), 404)


def test_a_method_an_endpoint_does_not_take_is_a_json_405(quiet_client, championship):
    url = f"/api/v1/championships/{championship.slug}/categories/individual/entries/"
    body = assert_json_error(quiet_client.get(url), 405)
    assert "GET" in body["detail"]


def test_a_body_too_large_is_a_json_413(quiet_client, championship, settings):
    settings.JSON_BODY_MAX_BYTES = 1000
    url = f"/api/v1/championships/{championship.slug}/categories/individual/entries/"
    body = json.dumps({"name": "x" * 2000})
    assert_json_error(quiet_client.post(url, body, content_type="application/json"), 413)


def test_a_server_error_under_the_api_is_json(quiet_client, monkeypatch, championship):
    def fail(*args, **kwargs):
        raise RuntimeError("a fault")

    monkeypatch.setattr(championships.ChampionshipListView, "get", fail)
    body = assert_json_error(quiet_client.get("/api/v1/championships/"), 500)
    assert "a fault" not in json.dumps(body)


def broken(request):
    raise RuntimeError("a fault")


# A URL space of its own for the next test: a broken page under /api/ and one elsewhere.
urlpatterns = [path("api/broken/", broken), path("broken/", broken)]
handler500 = "api.exceptions.server_error"


@pytest.mark.urls(__name__)
def test_pages_outside_the_api_keep_the_sites_error_pages(quiet_client):
    assert_json_error(quiet_client.get("/api/broken/"), 500)
    page = quiet_client.get("/broken/")
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")


def test_an_unknown_page_outside_the_api_is_the_html_404(quiet_client):
    page = quiet_client.get("/no-such-championship/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_a_session_post_without_the_csrf_token_is_a_json_403(championship):
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE, username="siri")
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(judge)
    url = f"/api/v1/championships/{championship.slug}/captures/"
    body = assert_json_error(client.post(url, {"kind": "finish"}, format="json"), 403)
    assert "CSRF" in body["detail"]


def test_a_request_django_refuses_to_read_is_a_json_400(quiet_client, championship, settings):
    """A host the site does not serve, a query of too many fields: refused by Django itself."""
    assert_json_error(quiet_client.get("/api/v1/championships/", HTTP_HOST="evil.example"), 400)
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    query = "&".join(f"f{number}=x" for number in range(20))
    assert_json_error(quiet_client.get(f"/api/v1/championships/?{query}"), 400)


def test_a_form_posted_with_a_session_is_a_json_415(championship):
    """The session's CSRF check reads the form with the API's parsers, which take JSON only."""
    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    client.force_login(factories.role(championship, ChampionshipRole.Role.JUDGE, username="siri"))
    client.cookies["csrftoken"] = "a" * 32
    url = f"/api/v1/championships/{championship.slug}/captures/"
    assert_json_error(client.post(url, {f"f{number}": "x" for number in range(2000)}), 415)
