"""Paying the fee from the entry's page on a phone: the Swish code scans, the numbers copy."""

from datetime import timedelta
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from championship.models import Category, Championship
from registration import services
from tests import factories
from tests.browser.conftest import PHONE
from tests.browser.screens import shot
from tests.registration.test_paycodes import zbar
from tests.registration.test_services import member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def entry(db):
    """An entry of a Swedish championship with a Swish number and a bankgiro, 250,50 kr due."""
    championship = factories.championship(ruleset="sm", name="Pussel-SM")
    Championship.objects.filter(pk=championship.pk).update(
        swish_number="1237856901", bank_account="5050-1055", payee_name="Svenska Pusselförbundet"
    )
    Category.objects.filter(championship=championship).update(fee=Decimal("250.50"))
    return services.entry_register(
        category=championship.categories.get(kind="individual"),
        members=[member("Kajsa Karlsson")],
        send_mail=False,
        now=factories.START - timedelta(days=30),
    )


def test_the_entrant_scans_the_swish_code_and_copies_the_reference(
    page, live_server, entry, tmp_path
):
    page.set_viewport_size(PHONE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    championship = entry.category.championship
    page.goto(f"{live_server.url}/{championship.slug}/entries/{entry.manage_token}/")
    # In the championship's language, first after the entry's facts: money due is the next step.
    section = page.locator("section.payment-instructions")
    expect(section.locator("h2")).to_have_text("Så betalar du")
    expect(section.locator(".payment-fee")).to_have_text("250,50 kr")
    expect(section.locator(".pay-swish span")).to_have_text("123 785 69 01")
    expect(section.locator(".pay-account span")).to_have_text("5050-1055")
    code = section.locator(".pay-code img")
    expect(code).to_be_visible()
    assert code.evaluate("img => img.naturalWidth") > 0
    # What the Swish app's camera reads, from the screen as it is shown.
    assert zbar(code.screenshot(), tmp_path) == (f"C1237856901;250,50;{entry.payment_reference};0")
    copy = section.locator(".payment-reference + button.copy")
    expect(copy).to_have_text("Kopiera")
    copy.click()
    expect(copy).to_have_text("Kopierat")
    assert page.evaluate("navigator.clipboard.readText()") == entry.payment_reference
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "pay-by-swish-phone")
