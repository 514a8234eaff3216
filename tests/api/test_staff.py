"""Staff over the API: organisers add judges with a sign-in link, and revoke it."""

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from championship import staff_links
from championship.models import ChampionshipRole, SignInLink
from championship.services import tables_create
from tests import factories

# Within the bounds a championship's start must keep.
SOON = timezone.now().replace(microsecond=0) + timedelta(days=60)

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
URL = "/api/v1/championships/rm-2099/judges/"


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://puzzle.example.org"


@pytest.fixture
def rm():
    championship = factories.championship(slug="rm-2099", name="RM 2099", starts_at=SOON)
    tables_create(championship=championship, count=1)
    return championship


@pytest.fixture
def organiser(rm):
    return factories.role(rm, Role.ORGANISER)


@pytest.fixture
def api(organiser):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    return client


def add(api, **body):
    return api.post(URL, body, format="json")


def test_an_organiser_adds_a_judge_and_gets_the_sign_in_url(api, rm, organiser):
    response = add(api, name="Kari Nordmann", role="judge")
    assert response.status_code == 201, response.json()
    body = response.json()
    link = SignInLink.objects.get()
    assert body == {
        "id": link.pk,
        "name": "Kari Nordmann",
        "role": "judge",
        "sign_in_url": "https://puzzle.example.org" + staff_links.sign_in_path(link),
    }
    assert response.headers["Cache-Control"] == "no-store"
    assert link.created_by == organiser and not link.user.has_usable_password()
    # The address signs a phone in as the judge, who then opens a table.
    phone = Client()
    assert phone.post(urlsplit(body["sign_in_url"]).path).status_code == 302
    assert phone.get(rm.tables.get().get_absolute_url()).status_code == 200


def test_a_head_judge_and_a_co_organiser_are_added_the_same_way(api, rm):
    assert add(api, name="Hanne", role="head_judge").json()["role"] == "head_judge"
    assert add(api, name="Olav", role="organiser").json()["role"] == "organiser"
    assert set(rm.roles.values_list("user__first_name", "role")) >= {
        ("Hanne", "head_judge"),
        ("Olav", "organiser"),
    }


def test_the_link_is_mailed_when_an_e_mail_is_given(api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        body = add(api, name="Kari", email="kari@example.org", role="judge").json()
    (message,) = mail.outbox
    assert message.to == ["kari@example.org"] and body["sign_in_url"] in message.body
    with django_capture_on_commit_callbacks(execute=True):
        add(api, name="Per", email="per@example.org", role="judge", send_email=False)
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    "body, field",
    [
        ({"role": "judge"}, "name"),
        ({"name": "   ", "role": "judge"}, "name"),
        ({"name": "x" * 151, "role": "judge"}, "name"),
        ({"name": "Kari", "role": "referee"}, "role"),
        ({"name": "Kari"}, "role"),
        ({"name": "Kari", "role": "judge", "email": "nope"}, "email"),
    ],
)
def test_invalid_input_is_refused_with_the_field(api, body, field):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400 and field in response.json()
    assert not SignInLink.objects.exists()


def test_only_the_championships_organisers_may_add_or_revoke(rm):
    link = staff_links.link_create(championship=rm, name="Kari", role="judge", by=None)
    judge = APIClient()
    judge.force_authenticate(factories.role(rm, Role.JUDGE))
    assert (
        judge.post(URL, {"name": "Mallory", "role": "organiser"}, format="json").status_code == 403
    )
    assert judge.delete(f"{URL}{link.pk}/").status_code == 403
    assert judge.get(URL).status_code == 403
    other = APIClient()
    other.force_authenticate(factories.role(factories.championship(slug="x"), Role.ORGANISER))
    assert other.post(URL, {"name": "Mallory", "role": "judge"}, format="json").status_code == 403
    anonymous = APIClient()
    assert (
        anonymous.post(URL, {"name": "Mallory", "role": "judge"}, format="json").status_code == 401
    )
    assert anonymous.delete(f"{URL}{link.pk}/").status_code == 401
    assert SignInLink.objects.count() == 1 and SignInLink.objects.get().active


def test_delete_revokes_the_link_at_once(api, rm):
    body = add(api, name="Kari", role="judge").json()
    phone = Client()
    path = urlsplit(body["sign_in_url"]).path
    phone.post(path)
    table = rm.tables.get().get_absolute_url()
    assert phone.get(table).status_code == 200

    assert api.delete(f"{URL}{body['id']}/").status_code == 204
    assert phone.get(table).status_code == 302  # asked to log in
    assert phone.get(path).status_code == 410
    assert api.delete(f"{URL}{body['id']}/").status_code == 204  # revoking again changes nothing
    listed = api.get(URL).json()
    assert [(p["name"], p["active"], p["sign_in_url"]) for p in listed] == [("Kari", False, None)]
    assert listed[0]["revoked_at"] is not None


def test_another_championships_link_is_not_found(api):
    theirs = staff_links.link_create(
        championship=factories.championship(slug="other"), name="Kari", role="judge", by=None
    )
    assert api.delete(f"{URL}{theirs.pk}/").status_code == 404
    assert api.delete(f"{URL}999999/").status_code == 404
    assert api.delete("/api/v1/championships/nowhere/judges/1/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.active


def test_the_list_shows_each_persons_latest_link(api):
    kari = add(api, name="Kari", email="kari@example.org", role="judge").json()
    listed = api.get(URL).json()
    assert listed == [
        {
            "id": kari["id"],
            "name": "Kari",
            "role": "judge",
            "email": "kari@example.org",
            "active": True,
            "created_at": listed[0]["created_at"],
            "last_used_at": None,
            "revoked_at": None,
            "sign_in_url": kari["sign_in_url"],
        }
    ]


def test_the_schema_documents_the_staff_endpoints(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    judges = schema["paths"]["/api/v1/championships/{championship_slug}/judges/"]
    assert judges["post"]["operationId"] == "staff_add"
    assert set(judges["post"]["responses"]) >= {"201", "400", "401", "403", "404"}
    judge = schema["paths"]["/api/v1/championships/{championship_slug}/judges/{judge_id}/"]
    assert set(judge["delete"]["responses"]) >= {"204", "401", "403", "404"}
    created = schema["components"]["schemas"]["StaffLink"]
    assert set(created["properties"]) == {"id", "name", "role", "sign_in_url"}
