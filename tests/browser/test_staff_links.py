"""A judge's phone signs in with their badge's QR code, and is signed out when it is revoked."""

import io
import os
from datetime import timedelta

import numpy as np
import pytest
from django.conf import settings
from django.utils import timezone
from PIL import Image
from playwright.sync_api import expect

from championship import staff_links
from championship.models import ChampionshipRole, SignInLink
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.offline import wait_for_kept_copy
from tests.control.test_cards import decode

# Within the bounds a championship's start must keep.
SOON = timezone.now().replace(microsecond=0) + timedelta(days=60)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user
SCREENSHOTS = os.environ.get("SCREENSHOTS") and "/tmp/shots/staff-links"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def shot(page, name):
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


@pytest.fixture
def seated_round(db):
    championship = factories.championship(
        slug="rm-2099",
        name="Rogalandsmesterskapet 2099",
        starts_at=SOON,
    )
    individual = championship.categories.get(kind="individual")
    tables_create(championship=championship, count=3, seats=1)
    for name in ("Åse Økland", "Bjørn Berg"):
        factories.entry(individual, members=[factories.person(championship, name=name)])
    final = individual.rounds.get()
    rounds.round_seat(round_=final, plan=SeatingPlan(order="registration"))
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="kari")
    return final


def english(page, live_server):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )


def switch_browser(page, live_server, cookies, size):
    """Be another device: its cookies (one profile serves the tests) and its screen."""
    page.context.clear_cookies()
    if cookies:
        page.context.add_cookies(cookies)
    english(page, live_server)
    page.set_viewport_size(size)


def test_a_phone_signs_in_with_a_judges_badge_and_is_signed_out_when_it_is_revoked(
    page, live_server, seated_round
):
    championship = seated_round.championship
    manage = f"{live_server.url}/{championship.slug}/manage/"

    # The organiser, on a laptop, adds a judge from the control room.
    page.set_viewport_size(LAPTOP)
    log_in(page, live_server, "kari", manage)
    page.get_by_role("link", name="Staff and sign-in links").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Staff and sign-in links")
    page.get_by_label("Name").fill("Ola Nordmann")
    page.get_by_label("Role").select_option("judge")
    page.get_by_role("button", name="Add and make a sign-in link").click()
    row = page.locator("tr.staff-row", has_text="Ola Nordmann")
    expect(row).to_contain_text("Judge")
    expect(row).to_contain_text("Active")
    expect(row).to_contain_text("not opened yet")
    shot(page, "staff-added")

    # The badge, as printed: its QR code read by OpenCV.
    row.get_by_role("link", name="Badge").click()
    badge = page.locator(".staff-badge")
    expect(badge).to_have_count(1)
    expect(badge.locator(".staff-badge-name")).to_have_text("Ola Nordmann")
    expect(badge.locator(".staff-badge-role")).to_have_text("Dommer")  # the championship's nb
    shot(page, "staff-badge")
    png = badge.locator(".staff-badge-qr svg").screenshot()
    scanned = decode(np.ascontiguousarray(np.array(Image.open(io.BytesIO(png)).convert("L"))))
    assert scanned.startswith(f"{live_server.url}/s/"), scanned
    # Opened on the organiser's laptop, it asks before signing the organiser out.
    page.goto(scanned)
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in as Ola Nordmann?")
    shot(page, "sign-in-asks")
    page.get_by_role("link", name="Stay signed in as before").click()
    expect(page.get_by_role("button", name="Log out (kari)")).to_be_visible()
    page.goto(f"{manage}staff/badges/?size=a7")
    expect(page.locator(".badges-a7 .staff-badge")).to_have_count(1)
    shot(page, "staff-badges-a7")
    organiser = page.context.cookies()

    # The judge's phone opens what it scanned, and taps the one button: no password typed.
    switch_browser(page, live_server, None, PHONE)
    page.goto(scanned)
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in as Ola Nordmann?")
    assert SignInLink.objects.get().last_used_at is None
    page.get_by_role("button", name="Sign in as Ola Nordmann").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.locator(".messages")).to_contain_text("Signed in as Ola Nordmann (Judge")
    expect(page.get_by_role("heading", name="Your championships")).to_be_visible()
    shot(page, "phone-signed-in")
    page.locator(".table-links a").nth(1).click()
    expect(page.locator("h1.table-number")).to_have_text("Table 2")
    expect(page.locator("body")).to_contain_text("Bjørn Berg")
    assert "/accounts/login/" not in page.url
    table = page.url
    # The judge's page is kept on the phone, for when the venue's network is down.
    wait_for_kept_copy(page, table.split("?")[0])
    shot(page, "phone-table")
    judge_phone = page.context.cookies()
    assert SignInLink.objects.get().last_used_at is not None

    # The organiser revokes the link in the control room.
    switch_browser(page, live_server, organiser, LAPTOP)
    page.goto(f"{manage}staff/")
    row = page.locator("tr.staff-row", has_text="Ola Nordmann")
    expect(row).to_contain_text("last opened")
    row.locator("summary", has_text="Revoke").click()
    row.get_by_role("button", name="Revoke the link").click()
    expect(page.locator(".messages")).to_contain_text("is revoked")
    expect(page.locator("tr.staff-row", has_text="Ola Nordmann")).to_contain_text("Revoked")
    shot(page, "staff-revoked")

    # The phone's session is over: the table asks to log in, and the badge no longer works.
    switch_browser(page, live_server, judge_phone, PHONE)
    page.goto(table)
    expect(page).to_have_url(f"{live_server.url}/accounts/login/?next=/t/{table.split('/t/')[1]}")
    expect(page.locator("input[name=password]")).to_be_visible()
    # ... and the kept copy is gone: offline, the phone shows nobody's table.
    wait_for_kept_copy(page, table.split("?")[0], kept=False)
    response = page.goto(scanned)
    assert response.status == 410
    expect(page.get_by_role("heading", level=1)).to_have_text("This sign-in link does not work")
    expect(page.locator("main")).to_contain_text("has revoked this link")
    shot(page, "phone-revoked")


def test_a_judges_phone_opens_a_badge_in_the_championships_language_and_signs_in_with_a_tap(
    page, live_server, seated_round
):
    """Opening the link signs nobody in: the phone shows whom, and one big button signs in."""
    championship = seated_round.championship
    link = staff_links.link_create(
        championship=championship, name="Ola Nordmann", role=ChampionshipRole.Role.JUDGE, by=None
    )
    scanned = live_server.url + staff_links.sign_in_path(link)

    # A phone that has never been here, at 390x844: the championship speaks Norwegian.
    page.set_viewport_size(PHONE)
    response = page.goto(scanned)
    assert response.status == 200 and "no-store" in response.headers["cache-control"]
    assert page.evaluate("document.documentElement.lang") == "nb"
    expect(page.get_by_role("heading", level=1)).to_have_text("Logge inn som Ola Nordmann?")
    who = page.locator(".sign-in-who")
    expect(who.locator("strong")).to_have_text("Ola Nordmann")
    expect(who).to_contain_text("Dommer · Rogalandsmesterskapet 2099")
    button = page.get_by_role("button", name="Logg inn som Ola Nordmann")
    expect(button).to_be_visible()
    # Nobody is signed in by opening it.
    assert "sessionid" not in {cookie["name"] for cookie in page.context.cookies()}
    link.refresh_from_db()
    assert link.last_used_at is None
    # Made for a thumb: the button spans the screen, in sight without scrolling, and
    # nothing is wider than the phone.
    box = button.bounding_box()
    assert box["height"] >= 48 and box["width"] >= 300, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert box["y"] + box["height"] <= PHONE["height"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-sign-in-button")

    button.click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.locator(".messages")).to_contain_text(
        "Logget inn som Ola Nordmann (Dommer, Rogalandsmesterskapet 2099)."
    )
    shot(page, "phone-signed-in-with-the-button")
    link.refresh_from_db()
    assert link.last_used_at is not None
    page.goto(f"{live_server.url}{championship.tables.get(number=1).get_absolute_url()}")
    expect(page.locator("h1.table-number")).to_be_visible()
    assert "/accounts/login/" not in page.url
