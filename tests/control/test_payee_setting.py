"""Where entrants pay, set on the control room's edit page: the numbers of the country's own
payment app and bank, checked, stored compact, kept when a form leaves them out."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from championship.models import Championship, ChampionshipRole
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

START = datetime(NEXT_YEAR, 1, 20, 9, tzinfo=UTC)
FIELDS = ("swish_number", "vipps_number", "mobilepay_number", "bank_account", "iban", "bic")


def edit_url(championship) -> str:
    return reverse("manage:edit", kwargs={"championship_slug": championship.slug})


def organiser_client(client, championship):
    client.force_login(factories.role(championship, ChampionshipRole.Role.ORGANISER))
    return client


def base_data(championship, **more):
    return {
        "section": "championship",
        "name": championship.name,
        "starts_at": f"{NEXT_YEAR}-01-20T10:00",
        "venue": "Uppsala",
        "is_public": "on",
        **more,
    }


@pytest.mark.parametrize(
    ("ruleset", "shown", "hidden"),
    [
        ("sm", {"swish_number", "bank_account", "iban", "bic"}, {"vipps_number"}),
        ("rogaland", {"vipps_number", "bank_account", "iban"}, {"swish_number"}),
        ("dm", {"mobilepay_number", "bank_account"}, {"swish_number", "vipps_number"}),
    ],
)
def test_the_edit_page_offers_the_country_s_own_app_and_bank(client, ruleset, shown, hidden):
    championship = factories.championship(ruleset=ruleset, starts_at=START)
    page = organiser_client(client, championship).get(edit_url(championship)).text
    for name in {*shown, "payee_name", "refund_days_before"}:
        assert f'name="{name}"' in page, name
    for name in hidden:
        assert f'name="{name}"' not in page, name


def test_the_organiser_sets_where_to_pay_and_a_mistake_is_refused_in_their_language(client):
    championship = factories.championship(
        ruleset="sm", slug="pussel-sm", name="Pussel-SM", starts_at=START
    )
    client = organiser_client(client, championship)
    data = base_data(
        championship,
        payee_name="Svenska Pusselförbundet",
        swish_number="123 785 69 01",
        bank_account="5050-1055",
        iban="SE45 5000 0000 0583 9825 7466",
        bic="ESSESESS",
        refund_days_before="15",
    )
    assert client.post(edit_url(championship), data).status_code == 302
    championship.refresh_from_db()
    assert (championship.swish_number, championship.iban) == (
        "1237856901",
        "SE4550000000058398257466",
    )
    assert (championship.bank_account, championship.refund_days_before) == ("5050-1055", 15)
    # A wrong Swish number and bankgiro: said in Swedish, beside their fields; nothing changes.
    wrong = {**data, "swish_number": "123 785 69", "bank_account": "5050-1056"}
    page = client.post(edit_url(championship), wrong).text
    assert "Ett Swishnummer" in page
    assert "kontrollsiffra" in page
    championship.refresh_from_db()
    assert (championship.swish_number, championship.bank_account) == ("1237856901", "5050-1055")
    # A form that leaves them out (an earlier release's) keeps them.
    assert client.post(edit_url(championship), base_data(championship)).status_code == 302
    kept = Championship.objects.get(pk=championship.pk)
    assert [getattr(kept, name) for name in FIELDS] == [
        getattr(championship, name) for name in FIELDS
    ]
    assert kept.refund_days_before == 15
    # Emptied: gone.
    cleared = {**data, "swish_number": "", "refund_days_before": ""}
    assert client.post(edit_url(championship), cleared).status_code == 302
    championship.refresh_from_db()
    assert (championship.swish_number, championship.refund_days_before) == ("", None)
