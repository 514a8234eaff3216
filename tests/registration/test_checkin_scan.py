"""Check-in codes: the QR code on an entry's page opens the entry at the check-in desk."""

import io
import re
from datetime import date, timedelta

import numpy as np
import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from PIL import Image

from registration import checkin, services
from tests import factories
from tests.control.test_cards import decode, rasterise, svg_modules
from tests.registration.test_services import member

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(client, championship):
    client.force_login(factories.role(championship, "organiser"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    individual = championship.categories.get(kind="individual")
    # Twelve on the championship's day: rogaland wants an accompanying adult under 16.
    young = factories.person(championship, name="Liten Ung", birth_date=date(2014, 1, 1))
    entry = factories.entry(individual, members=[young], adult_name="Mor Ung", fee=200)
    return championship, entry


def test_the_entrants_page_shows_a_code_that_decodes_to_its_check_in(client, desk):
    championship, entry = desk
    page = client.get(reverse("results:entry_page", args=[championship.slug, entry.manage_token]))
    html = page.content.decode()
    (svg,) = re.findall(r'<section class="card checkin-code".*?(<svg.*?</svg>)', html, re.S)
    text = decode(rasterise(np.pad(svg_modules(svg), 4)))
    assert text == "http://testserver" + checkin.checkin_path(entry)
    # It is not the private link: scanning it gives nobody the entrant's page.
    assert entry.manage_token not in text


def test_a_scanned_code_shows_the_entry_to_check_in_with_one_tap(client, desk):
    championship, entry = desk
    url = checkin.checkin_path(entry)
    scanned = client.get(url + "?scanned=1").content.decode()
    assert "Liten Ung" in scanned and ">Check in</button>" in scanned
    assert re.search(r"Unpaid: 200(\.00)? (kr|NOK)", scanned)
    assert "Accompanying adult required: Mor Ung" in scanned
    # The full page (a phone's camera app opened the code) has the entry on top.
    page = client.get(url).content.decode()
    assert page.index("Liten Ung") < page.index('id="checkin-results"')
    answer = client.post(reverse("manage:checkin_entry", args=[championship.slug, entry.pk]))
    assert answer.status_code == 302
    entry.refresh_from_db()
    assert entry.checked_in_at is not None


def test_a_made_up_or_foreign_code_finds_nothing(client, desk):
    championship, entry = desk
    other = factories.championship()
    foreign = factories.entry(other.categories.get(kind="individual"))
    base = reverse("manage:checkin", args=[championship.slug]) + "code/"
    for code in (f"{entry.pk}:forged", str(entry.pk), checkin.checkin_code(foreign), "%00"):
        answer = client.get(f"{base}{code}/?scanned=1")
        assert answer.status_code == 404, code
        assert "not a check-in code of this championship" in answer.content.decode()
    page = client.get(f"{base}{entry.pk}:forged/", follow=True)
    assert "not a check-in code of this championship" in page.content.decode()


def test_the_confirmation_mail_carries_the_check_in_code(
    client, championship, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://puzzle.example.org"
    individual = championship.categories.get(kind="individual")
    with django_capture_on_commit_callbacks(execute=True):
        entry = services.entry_register(
            category=individual,
            members=[member("Kari Nordmann")],
            now=factories.START - timedelta(days=30),
        )
    (message,) = mail.outbox
    ((name, content, mimetype),) = message.attachments
    assert (name, mimetype) == ("check-in.png", "image/png")
    pixels = np.array(Image.open(io.BytesIO(content)).convert("L"))
    assert decode(pixels) == "https://puzzle.example.org" + checkin.checkin_path(entry)
