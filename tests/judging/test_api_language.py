"""The capture API answers a judge's phone in the table page's language; Norwegian browsers get nb.

The table page speaks the championship's language unless the judge chose another
with the language switcher (its cookie); the API's refusals, shown on that page,
must speak the same, whatever the phone's Accept-Language. Browsers in Norway send
``no``, ``nn`` or ``no-NO``: they get bokmål, not English.
"""

import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone, translation
from rest_framework.test import APIClient

from championship.models import ChampionshipRole, Seat
from control import rounds
from core.middleware import bokmal
from tests import factories

pytestmark = pytest.mark.django_db

NOTHING_TO_CONFIRM = "There is no time or piece count to confirm."
ONLY_JUDGES = "Only the championship's judges may record captures."


def in_language(language, message):
    with translation.override(language):
        return translation.gettext(message)


@pytest.fixture
def floor(championship):
    """A running heat of the nb championship (rogaland), one entry at table 1."""
    assert championship.language == "nb"
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    entry = factories.entry(individual)
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=factories.table(championship), entry=entry)
    rounds.heat_start(heat=heat, at=timezone.now() - timedelta(minutes=5))
    return championship, round_, entry


def confirm(floor, client, **headers):
    championship, round_, entry = floor
    return client.post(
        f"/api/v1/championships/{championship.slug}/captures/",
        {
            "id": str(uuid.uuid4()),
            "round": round_.key,
            "entry": entry.ref,
            "kind": "confirm",
            "at": timezone.now().isoformat(),
        },
        format="json",
        **headers,
    )


def judge_client(championship, role=ChampionshipRole.Role.JUDGE):
    client = APIClient()
    client.force_authenticate(factories.role(championship, role))
    return client


def test_the_messages_are_translated():
    """The test means something only if the catalogue has these messages in nb and sv."""
    for language in ("nb", "sv"):
        assert in_language(language, NOTHING_TO_CONFIRM) != NOTHING_TO_CONFIRM
        assert in_language(language, ONLY_JUDGES) != ONLY_JUDGES


@pytest.mark.parametrize("accept", [None, "en-US,en;q=0.9", "sv-SE,sv;q=0.9", "no-NO,no;q=0.9"])
def test_a_refusal_speaks_the_championships_language_whatever_the_phone_accepts(floor, accept):
    championship, _round, _entry = floor
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
    response = confirm(floor, judge_client(championship), **headers)
    assert response.status_code == 400
    assert response.json() == {"kind": [in_language("nb", NOTHING_TO_CONFIRM)]}
    assert response["Content-Language"] == "nb"


def test_a_judge_who_chose_a_language_gets_it(floor):
    championship, _round, _entry = floor
    client = judge_client(championship)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    response = confirm(floor, client, HTTP_ACCEPT_LANGUAGE="nb")
    assert response.json() == {"kind": [in_language("sv", NOTHING_TO_CONFIRM)]}


def test_a_refused_permission_speaks_the_championships_language_too(floor):
    client = APIClient()
    client.force_authenticate(factories.user())  # an account without a role
    response = confirm(floor, client, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert response.json() == {"detail": in_language("nb", ONLY_JUDGES)}


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("no-NO,no;q=0.9", "nb-NO,nb;q=0.9"),
        ("nn", "nb"),
        ("nn-NO, en;q=0.5", "nb-NO,en;q=0.5"),
        ("NO_no", "nb_no"),
        ("nb-NO,sv;q=0.8", "nb-NO,sv;q=0.8"),
        ("en-US,en;q=0.9,nl;q=0.8", "en-US,en;q=0.9,nl;q=0.8"),
        ("nog,*;q=0.1", "nog,*;q=0.1"),
    ],
)
def test_norwegian_in_accept_language_reads_as_bokmal(header, expected):
    assert bokmal(header) == expected


@pytest.mark.parametrize("accept", ["no-NO,no;q=0.9", "no", "nn-NO", "nn,en;q=0.5"])
def test_a_norwegian_browser_gets_the_pages_in_bokmal(db, accept):
    response = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=accept)
    assert '<html lang="nb">' in response.text
    unknown_table = Client().get("/t/no-such-token/", HTTP_ACCEPT_LANGUAGE=accept)
    assert unknown_table.status_code == 404 and '<html lang="nb">' in unknown_table.text
