"""POST /api/v1/organiser-requests/: ask for an organiser account, as the form does."""

import types

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings
from rest_framework.test import APIClient

from control.models import OrganiserRequest

pytestmark = pytest.mark.django_db

URL = "/api/v1/organiser-requests/"
BODY = {
    "name": "Kari Nordmann",
    "email": "kari@example.org",
    "club": "Stavanger puslelag",
    "message": "Rogalandsmesterskapet i mars.",
}


def api(language="en", address="203.0.113.5"):
    return APIClient(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language)


def test_a_request_is_recorded_and_answered_201_with_its_id_and_status(
    django_capture_on_commit_callbacks,
):
    get_user_model().objects.create_superuser("root", "boss@example.org", "pw-123456789")
    with django_capture_on_commit_callbacks(execute=True):
        response = api(language="da").post(URL, BODY, format="json")
    assert response.status_code == 201, response.json()
    request = OrganiserRequest.objects.get()
    assert response.json() == {"id": request.pk, "status": "pending"}
    assert request.language == "da" and request.club == "Stavanger puslelag"
    assert [m.to for m in mail.outbox] == [["boss@example.org"]]


def test_the_club_may_be_left_out():
    body = {key: value for key, value in BODY.items() if key != "club"}
    assert api().post(URL, body, format="json").status_code == 201
    assert OrganiserRequest.objects.get().club == ""


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"email": "kari@"}, "email", "Enter a valid email address."),
        ({"name": ""}, "name", "This field may not be blank."),
        ({"message": "   "}, "message", "This field may not be blank."),
        ({"club": "x" * 201}, "club", "Ensure this field has no more than 200 characters."),
        ({"name": 7 * [1]}, "name", "Not a valid string."),
    ],
)
def test_bad_input_is_400_by_field_and_records_nothing(body, field, message):
    response = api().post(URL, {**BODY, **body}, format="json")
    assert response.status_code == 400
    assert message in response.json()[field][0]
    assert not OrganiserRequest.objects.exists()


def test_a_missing_field_is_named():
    response = api().post(URL, {}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"name", "email", "message"}


def test_the_messages_are_in_the_askers_language():
    response = api(language="nb").post(URL, {**BODY, "email": "kari@"}, format="json")
    assert response.json()["email"] == ["Oppgi en gyldig epost-adresse."]


def test_a_second_request_from_a_waiting_address_is_400_at_the_e_mail():
    assert api().post(URL, BODY, format="json").status_code == 201
    again = api().post(URL, {**BODY, "email": "Kari@Example.org"}, format="json")
    assert again.status_code == 400
    assert "waiting for a decision already" in again.json()["email"][0]
    assert OrganiserRequest.objects.count() == 1


def test_a_body_that_is_not_json_is_refused():
    response = api().post(URL, "name=Kari", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    assert not OrganiserRequest.objects.exists()


@override_settings(
    THROTTLE_ENABLED=True,
    THROTTLE_RATES={**settings.THROTTLE_RATES, "organiser-request": ["2/h"]},
)
def test_past_the_limit_the_api_answers_a_json_429_and_the_form_counts_with_it(monkeypatch):
    monkeypatch.setattr(
        "django_ratelimit.core.time", types.SimpleNamespace(time=lambda: 1_900_000_000.0)
    )
    client = api()
    assert client.post(URL, BODY, format="json").status_code == 201
    form = client.post(
        "/organisers/request/",
        {**BODY, "email": "per@example.org"},
        format="multipart",
    )
    assert form.status_code == 302
    response = client.post(URL, {**BODY, "email": "ola@example.org"}, format="json")
    assert response.status_code == 429
    assert "Too many requests" in response.json()["detail"]
    assert int(response.headers["Retry-After"]) > 0
    assert OrganiserRequest.objects.count() == 2


def test_the_schema_documents_the_operation(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    operation = schema["paths"][URL]["post"]
    assert operation["operationId"] == "organiser_request_create"
    assert {"201", "400", "429"} <= set(operation["responses"])
    body = schema["components"]["schemas"]["OrganiserRequestInput"]
    assert set(body["properties"]) == {"name", "email", "club", "message"}
    assert set(body["required"]) == {"name", "email", "message"}
