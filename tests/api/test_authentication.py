"""A judge's token: read with its user in one query, refused as DRF refuses it."""

import uuid

import pytest
from django.test import RequestFactory
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.test import APIClient

from championship.models import ChampionshipRole
from championship.permissions import roles_of
from tests import factories

pytestmark = pytest.mark.django_db


def export_url(championship) -> str:
    return f"/api/v1/championships/{championship.slug}/export/"


@pytest.fixture
def organiser_token(championship):
    user = factories.role(championship, ChampionshipRole.Role.ORGANISER, username="olga")
    return Token.objects.create(user=user)


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_token_authenticates_its_user_in_one_query(
    championship, organiser_token, django_assert_num_queries
):
    from api.authentication import TokenAuthentication

    with django_assert_num_queries(1):
        user, token = TokenAuthentication().authenticate_credentials(organiser_token.key)
    assert (user.pk, user.username, user.is_active) == (organiser_token.user_id, "olga", True)
    assert token == organiser_token and token.created == organiser_token.created
    assert client_with(organiser_token.key).get(export_url(championship)).status_code == 200


def test_an_unknown_token_is_refused_in_drfs_words(championship, organiser_token):
    response = client_with("0" * 40).get(export_url(championship))
    assert response.status_code == 401
    assert response.json() == {"detail": "Invalid token."}
    assert response["WWW-Authenticate"] == "Token"


def test_the_token_of_an_inactive_user_is_refused(championship, organiser_token):
    organiser_token.user.is_active = False
    organiser_token.user.save(update_fields=["is_active"])
    response = client_with(organiser_token.key).get(export_url(championship))
    assert response.status_code == 401
    assert response.json() == {"detail": "User inactive or deleted."}


def capture_of(**fields) -> dict:
    return {
        "id": str(uuid.uuid4()),
        "round": "nowhere",
        "entry": "nobody",
        "kind": "finish",
        "at": "2026-01-01T12:00:00Z",
        **fields,
    }


def captures_url(championship) -> str:
    return f"/api/v1/championships/{championship.slug}/captures/"


def test_a_capture_reads_its_championship_token_user_and_roles_in_one_query(
    championship, django_assert_num_queries
):
    from api.authentication import TokenAuthentication, championship_with_caller

    user = factories.role(championship, ChampionshipRole.Role.JUDGE, username="jon")
    ChampionshipRole.objects.create(
        championship=championship, user=user, role=ChampionshipRole.Role.HEAD_JUDGE
    )
    token = Token.objects.create(user=user)
    request = Request(
        RequestFactory().post("/", HTTP_AUTHORIZATION=f"Token {token.key}"),
        authenticators=[TokenAuthentication()],
    )
    with django_assert_num_queries(1):
        found = championship_with_caller(request, championship.slug)
        assert request.user == user and request.auth == token
        assert roles_of(request.user, found) == {"judge", "head_judge"}
    assert found.pk == championship.pk and found.name == championship.name


@pytest.mark.parametrize(
    "header",
    ["Token", "Token a b", "Bearer x", "Token " + "0" * 40],
)
def test_a_capture_with_a_bad_token_is_refused_as_before(championship, header):
    client = APIClient()
    response = client.post(
        captures_url(championship),
        capture_of(),
        format="json",
        HTTP_AUTHORIZATION=header,
    )
    assert response.status_code == 401


def test_a_token_without_a_role_in_the_championship_is_403(championship):
    other = factories.championship(slug="other")
    user = factories.role(other, ChampionshipRole.Role.JUDGE, username="ola")
    token = Token.objects.create(user=user)
    response = client_with(token.key).post(captures_url(championship), capture_of(), format="json")
    assert response.status_code == 403


def test_an_unknown_championship_with_a_token_is_404(championship, organiser_token):
    response = client_with(organiser_token.key).post(
        "/api/v1/championships/no-such/captures/", capture_of(), format="json"
    )
    assert response.status_code == 404


def test_a_session_capture_reads_its_championship_with_the_users_roles(
    championship, django_assert_num_queries
):
    from django.contrib.auth.middleware import AuthenticationMiddleware
    from django.contrib.sessions.middleware import SessionMiddleware

    from api.authentication import championship_with_caller

    user = factories.role(championship, ChampionshipRole.Role.JUDGE, username="siv")
    client = APIClient()
    client.force_login(user)
    django_request = RequestFactory().post("/")
    django_request.COOKIES = {name: morsel.value for name, morsel in client.cookies.items()}
    SessionMiddleware(lambda request: None).process_request(django_request)
    AuthenticationMiddleware(lambda request: None).process_request(django_request)
    request = Request(django_request, authenticators=[])
    # The session, its user, then the championship with the user's roles.
    with django_assert_num_queries(3):
        found = championship_with_caller(request, championship.slug)
        assert roles_of(django_request.user, found) == {"judge"}
    assert found.pk == championship.pk
    assert championship_with_caller(request, "no-such") is None


def test_an_anonymous_request_reads_the_championship_alone(championship, django_assert_num_queries):
    from api.authentication import championship_with_caller

    django_request = RequestFactory().post("/")
    from django.contrib.auth.models import AnonymousUser

    django_request.user = AnonymousUser()
    with django_assert_num_queries(1):
        found = championship_with_caller(Request(django_request), championship.slug)
    assert found.pk == championship.pk


def test_a_judge_captures_through_the_session(championship):
    user = factories.role(championship, ChampionshipRole.Role.JUDGE, username="siri")
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(captures_url(championship), capture_of(), format="json")
    # Without the CSRF token: refused before anything is read of the capture.
    assert response.status_code == 403
    client = APIClient()
    client.force_login(user)
    response = client.post(captures_url(championship), capture_of(), format="json")
    assert response.status_code == 400
    # In the championship's language, read with the session's user and roles.
    assert response.json() == {"round": ["Ukjent runde."]}
