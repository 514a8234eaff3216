"""A pair changes a member on a phone, after registration closed, before the deadline."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_judging import english
from tests.browser.test_judging import shot as judging_shot
from tests.registration.test_member_changes import a_pair, sm_starting_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_pair_changes_its_second_member_on_a_phone(chromium, live_server):
    championship = sm_starting_in(20)
    entry = a_pair(championship)
    chromium.clear_cookies()
    phone = chromium.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    english(phone, live_server)
    phone.goto(f"{live_server.url}/{championship.slug}/entries/{entry.manage_token}/")
    phone.get_by_text("Change members or correct details").click()
    expect(phone.locator(".editable-until")).to_contain_text("You can make changes until")
    second = phone.locator("fieldset.member").nth(1)
    second.locator('input[name$="-name"]').fill("Cecilia Dahl")
    second.locator('input[name$="-email"]').fill("cecilia@example.org")
    judging_shot(phone, "member-change-1-form")
    phone.get_by_role("button", name="Save").click()
    expect(phone.locator(".messages, [role=status]").first).to_contain_text(
        "Your details are saved."
    )
    expect(phone.locator("dl.facts")).to_contain_text("Anna Ek, Cecilia Dahl")
    # The pair's name was its members' names: it follows the change.
    expect(phone.locator("h1")).to_have_text("Anna Ek & Cecilia Dahl")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    judging_shot(phone, "member-change-2-saved")
