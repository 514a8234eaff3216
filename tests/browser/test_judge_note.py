"""A note for the judges on the judge's phone, at the entrant's table."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.browser.test_judging import english, live  # noqa: F401 (a fixture)
from tests.browser.test_judging import shot as judging_shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTE = "Cannot call TIME aloud: watches for a raised card"


def test_the_judge_reads_the_note_at_the_table(chromium, live_server, live):  # noqa: F811
    live.entry.judge_note = NOTE
    live.entry.save()
    chromium.clear_cookies()
    phone = chromium.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    english(phone, live_server)
    log_in(phone, live_server, "judy", f"/t/{live.table.token}/")
    note = phone.locator(".judge-entry .judge-note")
    expect(note).to_have_text(f"Note for the judges: {NOTE}")
    expect(phone.locator("[data-action=time]")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    judging_shot(phone, "judge-note-phone")
