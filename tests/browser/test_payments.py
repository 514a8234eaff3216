"""The treasurer's evening: the bank's statement uploaded, the matches looked at, applied."""

import pytest
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from registration.models import Entry
from tests import factories
from tests.browser.conftest import LAPTOP, log_in
from tests.browser.screens import shot
from tests.payments.worlds import norway  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_treasurer_applies_a_statement(page, live_server, norway, tmp_path):  # noqa: F811
    factories.role(norway.championship, ChampionshipRole.Role.ORGANISER, username="kasserer")
    page.set_viewport_size(LAPTOP)
    log_in(page, live_server, "kasserer")
    slug = norway.championship.slug
    page.goto(f"{live_server.url}/{slug}/manage/")
    page.get_by_role("link", name="Payments: bank statements").click()
    expect(page.locator("h1")).to_have_text("Payments")
    statement = tmp_path / "camt053-nok.xml"
    statement.write_bytes(norway.statement("camt053-nok.xml"))
    page.set_input_files("input[name=file]", str(statement))
    page.get_by_role("button", name="Read the statement").click()
    expect(page.locator("h1")).to_have_text("camt053-nok.xml")
    lines = page.locator("table.statement-lines tbody tr")
    expect(lines).to_have_count(6)
    expect(lines.nth(0).locator(".state")).to_have_text("Matched")
    expect(lines.nth(1).locator(".state")).to_have_text("Partly paid")
    expect(lines.nth(3).locator(".state")).to_have_text("Overpaid")
    suggestion = lines.nth(4).get_by_label("It is Siri Lund (200 NOK)")
    suggestion.check()
    shot(page, "payments-review-laptop", area="control")
    page.get_by_role("button", name="Apply: mark these entries paid").click()
    expect(page.locator(".messages")).to_contain_text("4 entries became paid")
    expect(page.get_by_role("button", name="Apply: mark these entries paid")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    assert Entry.objects.filter(payment_status="paid").count() == 4
    shot(page, "payments-applied-laptop", area="control")
    # Liv paid 450 for a 400 team: the refunds page says who is owed what back.
    page.get_by_role("link", name="Payments").first.click()
    page.get_by_role("link", name="Refunds").click()
    expect(page.locator("h1")).to_have_text("Refunds")
    owed = page.locator("table.refunds tbody tr")
    expect(owed).to_have_count(1)
    expect(owed.first).to_contain_text("Liv Berg")
    expect(owed.first).to_contain_text("50 NOK")
    shot(page, "payments-refunds-laptop", area="control")
    owed.first.get_by_role("button", name="Mark as refunded").click()
    expect(page.locator(".messages")).to_contain_text("The refund to Liv Berg")
    expect(page.locator("table.refunds")).to_have_count(0)
