"""A diploma in a browser: downloaded in the control room, its QR code scanned on a phone."""

import os

import numpy as np
import pypdfium2
import pytest
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from tests import factories
from tests.browser.conftest import PHONE, log_in
from tests.browser.test_judging import SCREENSHOTS, english
from tests.browser.test_judging import shot as judging_shot
from tests.control.test_cards import decode
from tests.results.test_diplomas import run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def provisional(db):
    """Rogalandsmesterskapet's individual final, every result in, not yet signed off."""
    championship = factories.championship(slug="rm-diplom", name="Rogalandsmesterskapet 2026")
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    return run(championship, sign_off=False)


def save_png(image, name: str) -> None:
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        image.save(os.path.join(SCREENSHOTS, f"{name}.png"))


def test_a_diploma_from_the_control_room_is_verified_on_a_phone(chromium, live_server, provisional):
    chromium.clear_cookies()
    slug, key = provisional.championship.slug, provisional.key
    organiser = chromium.new_page()
    organiser.set_default_timeout(10_000)
    organiser.set_viewport_size(LAPTOP)
    organiser.on("dialog", lambda dialog: dialog.accept())
    english(organiser, live_server)
    control = f"/{slug}/manage/rounds/{key}/"
    log_in(organiser, live_server, "orga", f"{live_server.url}{control}", language=None)
    # No diplomas while the results are provisional.
    expect(organiser.locator("[data-results-state=provisional]")).to_be_visible()
    expect(organiser.locator("[data-diplomas]")).to_have_count(0)
    organiser.locator("form[action$='/sign-off/'] button[type=submit]").click()
    expect(organiser.locator("[data-results-state=official]")).to_be_visible()
    links = organiser.locator("[data-diplomas] a")
    expect(links).to_have_text(["Diplomas (A4)", "Diplomas (A5)", "Podium diplomas"])
    judging_shot(organiser, "diplomas-1-control-official")

    with organiser.expect_download() as download:
        organiser.get_by_role("link", name="Diplomas (A4)").click()
    assert download.value.suggested_filename == f"{slug}-{key}-diplomas.pdf"
    with open(download.value.path(), "rb") as file:
        pdf = pypdfium2.PdfDocument(file.read())
    assert len(pdf) == 5
    assert [round(side) for side in pdf[0].get_size()] == [595, 842]
    image = pdf[0].render(scale=200 / 72).to_pil().convert("L")
    save_png(image, "diplomas-2-pdf-page-1")
    url = decode(np.array(image))
    assert url.startswith(f"{live_server.url}/{slug}/results/{key}/"), url

    phone = chromium.new_page()
    phone.set_default_timeout(10_000)
    phone.set_viewport_size(PHONE)
    phone.goto(url)
    expect(phone.locator("h1")).to_have_text("Åse Øvrebø Ærø")
    expect(phone.locator("[data-results-state=official]")).to_contain_text("Official results")
    expect(phone.locator("[data-place]")).to_have_text("1")
    expect(phone.locator("[data-result]")).to_contain_text("40:00")
    expect(phone.locator("[data-pace]")).to_have_text("12.5 pieces/min")
    judging_shot(phone, "diplomas-3-phone-verified")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the result's page is {width}px wide on a 390px phone"
    # And back to all the round's results.
    phone.get_by_role("link", name="All results of Individual: Final").click()
    expect(phone.locator("[data-results-state=official]")).to_be_visible()
    for page in (organiser, phone):
        page.close()
