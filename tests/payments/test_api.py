"""The statements endpoints: read a statement, apply it; the same file twice changes nothing."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from championship.models import ChampionshipRole
from payments.models import Statement
from registration.models import Entry
from tests import factories

pytestmark = pytest.mark.django_db


def client_of(user):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def upload(api, world, name, data=None):
    url = reverse("api:statements", kwargs={"championship_slug": world.championship.slug})
    file = data if data is not None else world.statement(name)
    return api.post(url, {"file": SimpleUploadedFile(name, file)}, format="multipart")


def apply_url(world, statement_id):
    return reverse(
        "api:statement-apply",
        kwargs={"championship_slug": world.championship.slug, "statement_id": statement_id},
    )


def test_the_organiser_reads_and_applies_a_statement_and_the_same_file_changes_nothing(norway):
    organiser = factories.role(norway.championship, ChampionshipRole.Role.ORGANISER)
    api = client_of(organiser)
    answer = upload(api, norway, "camt053-nok.xml")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert [line["status"] for line in body["lines"]] == [
        "matched",
        "partial",
        "matched",
        "overpaid",
        "unknown",
        "unknown",
    ]
    assert body["lines"][0]["entry"] == norway.entries["kari"].ref
    assert body["lines"][4]["suggested_entry"] == norway.entries["siri"].ref
    applied = api.post(apply_url(norway, body["id"]), {"confirm": [5]}, format="json")
    assert applied.status_code == 200 and applied.json()["paid"] == 4
    again = upload(api, norway, "camt053-nok.xml")
    assert again.status_code == 200
    assert again.json()["id"] == body["id"]
    assert {line["status"] for line in again.json()["lines"]} == {"duplicate"}
    assert Statement.objects.count() == 1
    assert api.post(apply_url(norway, body["id"]), {}, format="json").json()["paid"] == 0
    assert Entry.objects.filter(payment_status="paid").count() == 4


def test_refusals_are_400_with_the_reason_and_others_may_not(norway, client):
    organiser = factories.role(norway.championship, ChampionshipRole.Role.ORGANISER)
    api = client_of(organiser)
    answer = upload(api, norway, "camt054-sek.xml")
    assert answer.status_code == 400
    assert "This statement is in SEK" in answer.json()["detail"]
    unmapped = upload(api, norway, "other-bank.csv")
    assert unmapped.status_code == 400 and "map its columns" in unmapped.json()["detail"]
    judge = factories.role(norway.championship, ChampionshipRole.Role.JUDGE)
    assert upload(client_of(judge), norway, "camt053-nok.xml").status_code == 403
    assert upload(APIClient(), norway, "camt053-nok.xml").status_code == 401
    assert not Statement.objects.exists()
