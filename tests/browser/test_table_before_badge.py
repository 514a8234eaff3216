"""A judge who scans a table's card before their badge is told, on the phone, to scan the badge."""

import pytest
from playwright.sync_api import expect

from championship import staff_links
from championship.models import ChampionshipRole
from championship.services import tables_create
from tests import factories
from tests.browser.conftest import PHONE
from tests.browser.screens import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AREA = "judging"


@pytest.fixture
def table(db):
    championship = factories.championship(
        slug="rm-2099", name="Rogalandsmesterskapet 2099", ruleset="rogaland"
    )
    tables_create(championship=championship, count=3)
    return championship.tables.get(number=2)


def test_a_table_card_scanned_first_says_scan_the_badge_in_the_championships_language(
    phone, live_server, table
):
    # A phone that has never been here (no session, no language chosen) scans table 2.
    phone.goto(f"{live_server.url}{table.get_absolute_url()}")
    expect(phone).to_have_url(f"{live_server.url}/accounts/login/?next=/t/{table.token}/")
    assert phone.evaluate("document.documentElement.lang") == "nb"
    hint = phone.locator(".judge-hint")
    expect(hint.get_by_role("heading", level=1)).to_have_text("Skann navneskiltet ditt først")
    expect(hint).to_contain_text("Bord 2 · Rogalandsmesterskapet 2099")
    expect(hint).to_contain_text("Har du ikke navneskilt? Spør overdommeren.")
    # Prominent: the whole hint is in sight without scrolling, above the organisers' form,
    # and nothing is wider than the phone.
    box = hint.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    password = phone.locator("input[name=password]")
    expect(password).to_be_visible()  # the form stays, for organisers
    # ... without taking the focus: no keyboard opens over the hint.
    expect(phone.locator("input[name=username]")).not_to_be_focused()
    assert password.bounding_box()["y"] > box["y"] + box["height"]
    expect(phone.get_by_role("heading", name="Logg inn som arrangør")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "table-before-badge", area=AREA)

    # As told: the badge, one tap, and the table's card again.
    link = staff_links.link_create(
        championship=table.championship,
        name="Ola Nordmann",
        role=ChampionshipRole.Role.JUDGE,
        by=None,
    )
    phone.goto(live_server.url + staff_links.sign_in_path(link))
    phone.get_by_role("button", name="Logg inn som Ola Nordmann").click()
    phone.wait_for_url(f"{live_server.url}/")
    phone.goto(f"{live_server.url}{table.get_absolute_url()}")
    expect(phone.locator("h1.table-number")).to_have_text("Bord 2")
    assert "/accounts/login/" not in phone.url
