"""The link that confirms an e-mail address, opened on a phone from the mail."""

import re
from datetime import UTC, datetime

import pytest
from django.core import mail
from playwright.sync_api import expect

from championship import outbox
from registration.models import Person
from tests import factories
from tests.browser.screens import shot
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LINK = re.compile(r"https?://[^/\s]+(/[^\s]+/address/[^\s/]+/)")


def test_the_link_opens_a_page_in_the_championships_language_whose_button_confirms(
    chromium, live_server, settings
):
    settings.SITE_URL = live_server.url
    earlier = factories.championship(slug="rm-earlier", name="Rogalandsmesterskapet 2026")
    address = "ingrid.marie.tjelta-osterhus@example.org"
    known = factories.person(earlier, name="Ingrid Tjelta", email=address)
    known = factories.confirm_address(known)
    championship = factories.championship(
        slug="rm-next",
        name="Rogalandsmesterskapet i hurtigpusling",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
        language="nb",
    )
    person = factories.person(
        championship,
        name="Ingrid Marie Tjelta-Østerhus",
        email=address,
        publish_consent=True,
    )
    entry = factories.entry(
        championship.categories.get(kind="individual"), members=[person], language="nb"
    )

    chromium.clear_cookies()
    phone = chromium.new_page()
    phone.set_viewport_size(PHONE)
    # The entrant's private page offers the link (an import, say, sent none).
    phone.goto(f"{live_server.url}/{championship.slug}/entries/{entry.manage_token}/")
    section = phone.locator(".address-confirmation")
    expect(section).to_contain_text(address)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    section.locator("button[type=submit]").click()
    expect(phone.locator("ul.messages")).to_contain_text(address)
    shot(phone, "address-confirm-0-private-page")
    outbox.send_due()
    (message,) = [m for m in mail.outbox if m.to == [address]]
    (path,) = LINK.findall(message.body)

    phone.goto(f"{live_server.url}{path}")
    # No language chosen: the championship's (bokmål).
    expect(phone.locator("html")).to_have_attribute("lang", "nb")
    card = phone.locator(".confirm-address")
    expect(card.locator("h1")).to_be_visible()
    expect(card.locator(".confirm-who")).to_contain_text("Ingrid Marie Tjelta-Østerhus")
    expect(card.locator(".confirm-who")).to_contain_text(address)
    button = card.locator("form button[type=submit]")
    expect(button).to_be_visible()
    # A thumb's target, the width of the screen; nothing runs off it.
    box = button.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 300
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "address-confirm-1-phone")
    # Opening the page joined nothing.
    assert Person.objects.get(pk=person.pk).puzzler != known.puzzler

    button.click()
    expect(card.locator(".notice.confirmed")).to_be_visible()
    assert Person.objects.get(pk=person.pk).puzzler == known.puzzler
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "address-confirm-2-confirmed")
    # The page across championships, a tap away, now carries the newest name.
    card.locator(f'a[href="{known.puzzler.get_absolute_url()}"]').click()
    expect(phone.locator("main h1")).to_have_text("Ingrid Marie Tjelta-Østerhus")

    # The same link again: refused, and the page says why.
    phone.goto(f"{live_server.url}{path}")
    expect(card.locator(".notice.refused")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "address-confirm-3-used")
    phone.close()
