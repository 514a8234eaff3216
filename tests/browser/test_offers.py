"""A place offered from the waiting list, accepted on a phone; an overdue entry released."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import Championship
from registration import services
from registration.models import Entry
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.test_judging import english
from tests.browser.test_judging import shot as judging_shot
from tests.registration.test_deadlines import STARTS, rm  # noqa: F401 (a fixture)
from tests.registration.test_services import member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}


def sign_up(category, name):
    return services.entry_register(
        category=category, members=[member(name)], now=STARTS - timedelta(days=60)
    )


def test_an_offered_place_is_accepted_on_a_phone(chromium, live_server, rm):  # noqa: F811
    anna, bo = sign_up(rm, "Anna"), sign_up(rm, "Bo")
    services.entry_withdraw(entry=anna)
    chromium.clear_cookies()
    phone = chromium.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    english(phone, live_server)
    phone.goto(f"{live_server.url}/{rm.championship.slug}/entries/{bo.manage_token}/")
    offer = phone.locator("section.offer")
    expect(offer).to_contain_text("A place is offered to you")
    expect(offer).to_contain_text("Accept it by")
    judging_shot(phone, "offer-1-phone")
    offer.get_by_role("button", name="Accept the place").click()
    expect(phone.locator("main")).to_contain_text("The place is yours: your entry is confirmed.")
    expect(phone.locator("dl.facts .state")).to_have_text("Confirmed")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    judging_shot(phone, "offer-2-accepted")
    bo.refresh_from_db()
    assert bo.status == Entry.Status.CONFIRMED


def test_the_organiser_releases_an_overdue_entry(chromium, live_server, rm):  # noqa: F811
    Championship.objects.filter(pk=rm.championship_id).update(payment_hours=72)
    rm.championship.refresh_from_db()
    anna, bo = sign_up(rm, "Anna"), sign_up(rm, "Bo")
    Entry.objects.filter(pk=anna.pk).update(payment_due_at=timezone.now() - timedelta(hours=2))
    factories.role(rm.championship, "organiser", username="orga")
    chromium.clear_cookies()
    page = chromium.new_page()
    page.set_viewport_size(LAPTOP)
    english(page, live_server)
    entries = f"/{rm.championship.slug}/manage/entries/"
    log_in(page, live_server, "orga", f"{live_server.url}{entries}", language=None)
    row = page.locator("tr", has_text="Anna")
    expect(row.locator(".overdue")).to_contain_text("overdue since")
    row.get_by_text("Actions").click()
    judging_shot(page, "offer-3-overdue")
    row.get_by_role("button", name="Release the place (not paid in time)").click()
    expect(page.locator("main")).to_contain_text(
        "Anna is released: the place goes to the waiting list."
    )
    expect(page.locator("tr", has_text="Bo").locator(".state")).to_have_text("Place offered")
    judging_shot(page, "offer-4-released")
    bo.refresh_from_db()
    assert bo.status == Entry.Status.OFFERED
