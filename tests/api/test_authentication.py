"""A judge's token: read with its user in one query, refused as DRF refuses it."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from championship.models import ChampionshipRole
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
