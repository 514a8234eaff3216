"""An organiser finds the e-mail that could not be sent, on a laptop, and sends it again."""

import os
import smtplib
from datetime import UTC, datetime

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from playwright.sync_api import expect

from championship.models import ChampionshipRole, OutgoingMail
from registration import services
from tests import factories
from tests.browser.conftest import log_in
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user
LAPTOP = {"width": 1366, "height": 768}


class FailingBackend(LocmemBackend):
    def send_messages(self, messages):
        raise smtplib.SMTPAuthenticationError(535, b"5.7.8 Authentication credentials invalid")


def test_the_organiser_sees_the_failed_mail_and_sends_it_again(page, live_server, settings):
    championship = factories.championship(
        slug="rm-mail", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="kari")
    entry = factories.entry(
        championship.categories.get(kind="individual"), contact_email="ola@example.org"
    )
    settings.EMAIL_BACKEND = "tests.browser.test_outbox.FailingBackend"
    services.entry_rotate_manage_link(entry=entry)
    assert OutgoingMail.objects.get().failing

    page.set_viewport_size(LAPTOP)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    control_room = f"{live_server.url}/{championship.slug}/manage/"
    log_in(page, live_server, "kari", control_room, language=None)

    banner = page.locator(".mail-banner")
    expect(banner).to_contain_text("1 e-mail could not be sent.")
    banner.get_by_role("link", name="See the e-mail").click()
    row = page.locator("tr.mail-row")
    expect(row).to_contain_text("ola@example.org")
    expect(row).to_contain_text("SMTPAuthenticationError")
    expect(row).to_contain_text("Not sent yet")
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    if os.environ.get("SCREENSHOTS"):
        page.screenshot(path="/tmp/shots/outbox-mail-page.png", full_page=True)

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    row.get_by_role("button", name="Send again").click()
    expect(page.locator(".messages")).to_contain_text("The e-mail to ola@example.org is sent.")
    page.goto(f"{live_server.url}/{championship.slug}/manage/mail/")
    expect(page.locator("tr.mail-row")).to_contain_text("Sent")
    expect(page.get_by_role("button", name="Send again")).to_have_count(0)
    (message,) = mail.outbox
    assert message.to == ["ola@example.org"]
