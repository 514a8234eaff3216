"""The form of the entries' payment references, chosen in the control room's edit page."""

from datetime import UTC, date, datetime

import pytest
from django.urls import reverse

from championship.models import ChampionshipRole
from registration import references
from registration import services as registration_services
from registration.validation import MemberData
from tests import factories
from tests.factories import NEXT_YEAR

START = datetime(NEXT_YEAR, 1, 20, 9, tzinfo=UTC)


@pytest.fixture
def sm_championship(db):
    return factories.championship(
        ruleset="sm",
        slug="pussel-sm",
        name="Pussel-SM",
        starts_at=START,
    )


@pytest.fixture
def organiser(sm_championship):
    return factories.role(sm_championship, ChampionshipRole.Role.ORGANISER)


def edit_url(championship) -> str:
    return reverse("manage:edit", kwargs={"championship_slug": championship.slug})


@pytest.mark.django_db
def test_the_organiser_chooses_the_form_of_the_payment_references(
    client, sm_championship, organiser
):
    """A Swedish championship gives OCR references; the bank's agreement may ask for more."""
    individual = sm_championship.categories.get(kind="individual")
    before = registration_services.entry_register(
        category=individual,
        members=[MemberData("Kajsa", "kajsa@example.org", date(1990, 1, 1))],
        send_mail=False,
        enforce_deadline=False,
    )
    assert before.payment_reference == references.make("ocr", before.pk)
    client.force_login(organiser)
    form = client.get(edit_url(sm_championship)).content.decode()
    assert 'name="payment_reference_scheme"' in form
    # In the championship's language.
    assert "OCR-referens med längdsiffra och checksiffra (Sverige, bankgiro)" in form
    data = {
        "section": "championship",
        "name": "Pussel-SM",
        "starts_at": f"{NEXT_YEAR}-01-20T10:00",
        "venue": "Uppsala",
        "is_public": "on",
    }
    # A form without the field (an earlier release's) leaves the choice as it is.
    assert client.post(edit_url(sm_championship), data).status_code == 302
    sm_championship.refresh_from_db()
    assert sm_championship.payment_reference_scheme == ""
    data["payment_reference_scheme"] = "ocr_length"
    assert client.post(edit_url(sm_championship), data).status_code == 302
    sm_championship.refresh_from_db()
    assert sm_championship.payment_reference_scheme == "ocr_length"
    after = registration_services.entry_register(
        category=individual,
        members=[MemberData("Olle", "olle@example.org", date(1991, 1, 1))],
        send_mail=False,
        enforce_deadline=False,
    )
    assert references.is_valid("ocr_length", after.payment_reference)
    assert after.payment_reference == references.make("ocr_length", after.pk)
    # The reference an entrant was already told stays.
    before.refresh_from_db()
    assert before.payment_reference == references.make("ocr", before.pk)
    data["payment_reference_scheme"] = "giro"
    refused = client.post(edit_url(sm_championship), data)
    assert refused.status_code == 200
    assert "Välj ett giltigt alternativ" in refused.content.decode()
    sm_championship.refresh_from_db()
    assert sm_championship.payment_reference_scheme == "ocr_length"
