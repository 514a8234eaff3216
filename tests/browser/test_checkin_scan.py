"""Check-in by scanning: the entrant's code, photographed from their phone's screen, is fed
to the check-in phone's camera; the desk checks the entry in with one tap. And the long
lists: the entries page and the check-in desk paged through and searched, on a laptop and
on a phone."""

import io
import os
import re
from datetime import date

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import expect

from registration.models import Entry
from registration.selectors import PER_PAGE
from tests import factories
from tests.browser.conftest import CHROMIUM, CONTEXT, FLAGS, log_in
from tests.browser.test_judging import SCREENSHOTS, english
from tests.browser.test_judging import shot as judging_shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
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
    # A list of more than one page, the scanned entry not on the first (by name).
    for number in range(PER_PAGE):
        factories.entry(individual, name=f"Anna {number:02d}")
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
        desk = browser.new_context(viewport=PHONE, permissions=["camera"], **CONTEXT)
        page = desk.new_page()
        page.set_default_timeout(15_000)
        english(page, live_server)
        checkin = f"/{championship.slug}/manage/checkin/"
        log_in(page, live_server, "desk", f"{live_server.url}{checkin}", language=None)
        expect(page.locator(".pager-at")).to_have_text(f"Entries 1–{PER_PAGE} of {PER_PAGE + 2}")
        expect(page.get_by_text("Liten Ung", exact=True)).to_have_count(0)
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


def test_the_organiser_pages_through_and_searches_the_long_lists(page, live_server):
    championship = factories.championship(slug="rm-long", name="RM, a long list")
    individual = championship.categories.get(kind="individual")
    individual.capacity = None
    individual.save(update_fields=["capacity"])
    for number in range(70):
        factories.entry(individual, name=f"Deltaker {number:03d}")
    for number in range(60):
        factories.entry(individual, name=f"Hansen {number:03d}")
    factories.entry(individual, name="Ærlig Åsen")
    factories.role(championship, "organiser", username="desk")
    english(page, live_server)
    page.set_viewport_size(LAPTOP)
    entries = f"/{championship.slug}/manage/entries/"
    log_in(page, live_server, "desk", entries)
    region = page.locator("#entries-region")
    first_rows = region.locator("tr.entry-row th[scope=row]")
    expect(region.locator(".pager-at")).to_have_text("Entries 1–50 of 131")
    expect(first_rows.first).to_contain_text("Deltaker 000")
    judging_shot(page, "lists-1-entries-page-1")

    # The next page, through HTMX: the address follows, the filters stay.
    region.locator("a[rel=next]").first.click()
    expect(region.locator(".pager-at")).to_have_text("Entries 51–100 of 131")
    expect(first_rows.first).to_contain_text("Deltaker 050")
    page.wait_for_url("**/manage/entries/?category=individual&page=2")
    judging_shot(page, "lists-2-entries-page-2")

    # A row action on page 2 brings page 2 back.
    row = region.locator("tr.entry-row", has_text="Deltaker 055")
    row.get_by_text("Actions").click()
    row.locator("select[name=status]").select_option("paid")
    row.get_by_role("button", name="Save the payment").click()
    expect(region).to_contain_text("Payment of Deltaker 055 saved: Paid.")
    expect(region.locator(".pager-at")).to_have_text("Entries 51–100 of 131")
    expect(first_rows.first).to_contain_text("Deltaker 050")

    # A search: its results are paged too, and the search stays in the pages' links.
    page.locator("input[name=q]").fill("hansen")
    expect(region).to_contain_text("60 entries of 131 in Individual match the filters.")
    expect(region.locator(".pager-at")).to_have_text("Entries 1–50 of 60")
    region.locator("a[rel=next]").last.click()
    expect(region.locator(".pager-at")).to_have_text("Entries 51–60 of 60")
    expect(first_rows).to_have_count(10)
    expect(first_rows.first).to_contain_text("Hansen 050")
    page.wait_for_url("**/manage/entries/?category=individual&q=hansen&page=2")
    judging_shot(page, "lists-3-entries-search-page-2")
    page.reload()
    expect(page.locator("input[name=q]")).to_have_value("hansen")
    expect(region.locator(".pager-at")).to_have_text("Entries 51–60 of 60")
    # Another filter: the list again from its first page, the search kept.
    page.locator("select[name=payment]").select_option("unpaid")
    expect(region.locator(".pager-at")).to_have_text("Entries 1–50 of 60")
    expect(page).to_have_url(re.compile(r"[?&]q=hansen&.*payment=unpaid"))
    assert "page=" not in page.url

    # The check-in desk on the laptop: confirmed entries by name, a page at a time.
    checkin = f"/{championship.slug}/manage/checkin/"
    page.goto(f"{live_server.url}{checkin}")
    results = page.locator("#checkin-results")
    expect(results.locator(".pager-at")).to_have_text("Entries 1–50 of 131")
    results.locator("a[rel=next]").click()
    expect(results.locator(".pager-at")).to_have_text("Entries 51–100 of 131")
    # In English, "Ærlig Åsen" is among the A's (first), so page 2 starts a name earlier.
    expect(results.locator(".entry-name").first).to_have_text("Deltaker 049")
    judging_shot(page, "lists-4-checkin-laptop-page-2")
    page.locator("#checkin-q").fill("åsen")
    expect(results).to_contain_text("1 entry found for “åsen”.")
    expect(results.locator(".entry-name")).to_have_text(["Ærlig Åsen"])
    expect(results.locator(".pager")).to_have_count(0)

    # On a phone: page 2 of a search, and a check-in from it.
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{checkin}?q=hansen")
    expect(results).to_contain_text("60 entries found for “hansen”.")
    results.locator("a[rel=next]").click()
    expect(results.locator(".pager-at")).to_have_text("Entries 51–60 of 60")
    page.wait_for_url("**/manage/checkin/?q=hansen&page=2")
    # The first entry of the new page shows below the sticky search bar, not under it.
    first = results.locator(".checkin-row").first
    bar = page.locator(".checkin-bar").bounding_box()
    assert first.bounding_box()["y"] >= bar["y"] + bar["height"] - 1
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, "lists-5a-checkin-phone-next.png"))
    card = results.locator(".checkin-row", has_text="Hansen 052")
    card.get_by_role("button", name="Check in").click()
    expect(card).to_contain_text("Checked in at")
    expect(page.locator("#checkin-counts")).to_contain_text("1 of 131")
    judging_shot(page, "lists-5-checkin-phone-page-2")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert Entry.objects.get(name="Hansen 052").checked_in_at is not None
