"""The entry as its holder sees it through the API: the private link's token authorises."""

from datetime import timedelta

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from championship.models import Championship, ChampionshipRole
from registration import checkin, references, services
from registration.models import Entry
from tests import factories
from tests.registration.test_deadlines import STARTS, rm  # noqa: F401 (a fixture)
from tests.registration.test_services import member

pytestmark = pytest.mark.django_db


def url(entry, action=""):
    name = f"api:entry-{action}" if action else "api:entry-own"
    return reverse(
        name,
        kwargs={
            "championship_slug": entry.category.championship.slug,
            "token": entry.manage_token,
        },
    )


def sign_up(category, name):
    return services.entry_register(
        category=category, members=[member(name)], now=STARTS - timedelta(days=60)
    )


def test_the_holder_reads_accepts_and_withdraws(rm):  # noqa: F811
    Championship.objects.filter(pk=rm.championship_id).update(payment_hours=72)
    rm.championship.refresh_from_db()
    api = APIClient()
    anna, bo, cara = (sign_up(rm, name) for name in ("Anna", "Bo", "Cara"))
    body = api.get(url(cara)).json()
    assert body["status"] == "waitlisted" and body["waiting_position"] == 2
    assert body["members"] == [{"name": "Cara"}]
    assert (body["offer_expires_at"], body["payment_due_at"]) == (None, None)
    cara.refresh_from_db()
    assert body["payment_reference"] == cara.payment_reference and body["fee"] == "200.00"
    assert body["payment_reference"] == references.make("kid10", cara.pk)
    # Not offered: accepting is refused with the reason, and nothing changes.
    refused = api.post(url(bo, "accept"))
    assert refused.status_code == 409 and "No place is offered" in refused.json()["detail"]
    withdrawn = api.post(url(anna, "withdraw")).json()
    assert withdrawn["status"] == "withdrawn"
    offered = api.get(url(bo)).json()
    assert offered["status"] == "offered" and offered["offer_expires_at"] is not None
    assert api.get(url(cara)).json()["waiting_position"] == 1
    accepted = api.post(url(bo, "accept"))
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "confirmed" and accepted.json()["payment_due_at"]
    assert accepted.json()["check_in_url"].endswith(checkin.checkin_path(bo))
    assert body["check_in_url"] is None  # Cara, waiting
    bo.refresh_from_db()
    assert bo.status == Entry.Status.CONFIRMED


def test_a_wrong_token_finds_nothing(rm):  # noqa: F811
    anna = sign_up(rm, "Anna")
    api = APIClient()
    slug = rm.championship.slug
    for token in ("x" * 22, "%00", anna.manage_token[:-1]):
        assert api.get(f"/api/v1/championships/{slug}/entries/{token}/").status_code == 404
    other = factories.championship()
    wrong_championship = f"/api/v1/championships/{other.slug}/entries/{anna.manage_token}/"
    assert api.get(wrong_championship).status_code == 404
    assert api.post(url(anna, "withdraw")).status_code == 200
    # Withdrawing again is no error: the entry is withdrawn.
    assert api.post(url(anna, "withdraw")).json()["status"] == "withdrawn"


def test_the_holder_gets_the_address_of_the_code_to_pay_with(rm):  # noqa: F811
    """A Swish number in kronor gives a code; a Norwegian championship has none."""
    api = APIClient()
    anna = sign_up(rm, "Anna")
    assert api.get(url(anna)).json()["payment_qr"] is None
    Championship.objects.filter(pk=rm.championship_id).update(
        currency="SEK", swish_number="1237856901"
    )
    code = api.get(url(anna)).json()["payment_qr"]
    path = reverse(
        "registration:payment_code",
        kwargs={"championship_slug": rm.championship.slug, "token": anna.manage_token},
    )
    assert code == f"http://testserver{path}"
    assert api.get(code).headers["Content-Type"] == "image/png"
    services.entry_set_payment(entry=anna, status="paid")
    assert api.get(url(anna)).json()["payment_qr"] is None


def test_the_organisers_list_carries_each_entry_s_reference_and_code(rm):  # noqa: F811
    anna, bo = sign_up(rm, "Anna"), sign_up(rm, "Bo")
    Championship.objects.filter(pk=rm.championship_id).update(
        currency="SEK", swish_number="1237856901"
    )
    services.entry_set_payment(entry=bo, status="paid")
    list_url = reverse("api:entry-list", kwargs={"championship_slug": rm.championship.slug})
    assert APIClient().get(list_url).status_code == 401
    organiser = factories.role(rm.championship, ChampionshipRole.Role.ORGANISER)
    api = APIClient()
    api.force_authenticate(organiser)
    rows = {row["name"]: row for row in api.get(list_url).json()}
    anna.refresh_from_db()
    assert rows["Anna"]["payment_reference"] == anna.payment_reference
    assert rows["Anna"]["payment_qr"].endswith(f"/entries/{anna.manage_token}/pay.png")
    assert rows["Bo"]["payment_qr"] is None and rows["Bo"]["payment_status"] == "paid"
