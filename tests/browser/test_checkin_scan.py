"""Check-in by scanning: the entrant's code, photographed from their phone's screen, is fed
to the check-in phone's camera; the desk checks the entry in with one tap."""

import io
from datetime import date

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import expect

from registration.models import Entry
from tests import factories
from tests.browser.conftest import CHROMIUM, FLAGS
from tests.browser.test_judging import PASSWORD, english
from tests.browser.test_judging import shot as judging_shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WIDTH, HEIGHT = 640, 480


def y4m(picture: Image.Image, path) -> None:
    """Write ``picture``, centred on white, as a short Y4M video (what Chromium's fake
    camera plays, in a loop)."""
    frame = Image.new("L", (WIDTH, HEIGHT), 255)
    picture = picture.convert("L")
    picture.thumbnail((HEIGHT - 40, HEIGHT - 40))
    frame.paste(picture, ((WIDTH - picture.width) // 2, (HEIGHT - picture.height) // 2))
    luma = np.asarray(frame, dtype=np.uint8).tobytes()
    chroma = bytes([128]) * (WIDTH // 2) * (HEIGHT // 2)
    with open(path, "wb") as video:
        video.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(10):
            video.write(b"FRAME\n" + luma + chroma + chroma)


def test_the_desk_scans_an_entrants_code_and_checks_them_in(
    chromium, playwright, live_server, tmp_path
):
    championship = factories.championship(slug="rm-door", name="RM at the door")
    individual = championship.categories.get(kind="individual")
    young = factories.person(championship, name="Liten Ung", birth_date=date(2014, 1, 1))
    entry = factories.entry(individual, members=[young], adult_name="Mor Ung", fee=200)
    factories.entry(individual, name="Someone Else")
    factories.role(championship, "organiser", username="desk")

    # The entrant's phone shows the code: a screenshot of it is what the desk's camera sees.
    chromium.clear_cookies()
    entrant = chromium.new_page()
    entrant.set_viewport_size(PHONE)
    english(entrant, live_server)
    entrant.goto(f"{live_server.url}/{championship.slug}/entries/{entry.manage_token}/")
    code = entrant.locator("section.checkin-code svg.qr")
    expect(code).to_be_visible()
    judging_shot(entrant, "checkin-1-entrant-code")
    video = tmp_path / "camera.y4m"
    y4m(Image.open(io.BytesIO(code.screenshot())), video)
    entrant.close()

    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[
            *FLAGS,
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )
    try:
        desk = browser.new_context(viewport=PHONE, permissions=["camera"])
        page = desk.new_page()
        page.set_default_timeout(15_000)
        english(page, live_server)
        checkin = f"/{championship.slug}/manage/checkin/"
        page.goto(f"{live_server.url}{checkin}")
        page.fill("input[name=username]", "desk")
        page.fill("input[name=password]", PASSWORD)
        page.locator("form button[type=submit].primary").click()
        page.wait_for_url(f"{live_server.url}{checkin}")
        page.get_by_role("button", name="Scan a check-in code").click()
        scanned = page.locator("#checkin-scanned-slot .checkin-row")
        expect(scanned).to_contain_text("Liten Ung")
        # Once on the page: the list below no longer shows the scanned entry.
        expect(page.get_by_text("Liten Ung", exact=True)).to_have_count(1)
        expect(scanned).to_contain_text("Accompanying adult required: Mor Ung")
        expect(scanned).to_contain_text("Unpaid")
        expect(page.locator("[data-scan-status]")).to_have_text("Found: check the entry in below.")
        judging_shot(page, "checkin-2-scanned")
        scanned.get_by_role("button", name="Check in").click()
        expect(page.locator("#checkin-scanned-slot .checkin-row")).to_contain_text("Checked in at")
        judging_shot(page, "checkin-3-checked-in")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        browser.close()
    entry.refresh_from_db()
    assert entry.checked_in_at is not None
    assert Entry.objects.filter(name="Someone Else", checked_in_at__isnull=True).exists()
