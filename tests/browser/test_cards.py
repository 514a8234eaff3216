"""Printed table cards in a real browser: the print layout, and a QR code a phone can read."""

import re
from datetime import UTC, datetime

import cv2
import numpy as np
import pytest
from PIL import Image

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from tests import factories
from tests.browser.conftest import log_in
from tests.control.test_cards import decode
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user


@pytest.fixture
def seated_round(db):
    championship = factories.championship(
        slug=f"rm-{NEXT_YEAR}",
        name=f"Rogalandsmesterskapet {NEXT_YEAR}",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
    )
    individual = championship.categories.get(kind="individual")
    tables_create(championship=championship, count=4, seats=2)
    for name in ("Åse Økland", "Bjørn Berg", "Cecilie Dahl"):
        factories.entry(individual, members=[factories.person(championship, name=name)])
    final = individual.rounds.get()
    rounds.round_seat(round_=final, plan=SeatingPlan(order="registration"))
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="kari")
    return final


def test_printed_cards_hide_the_header_and_carry_a_readable_qr_code(
    page, live_server, seated_round, tmp_path
):
    championship = seated_round.championship
    path = f"/{championship.slug}/manage/cards/{seated_round.key}/"
    log_in(page, live_server, "kari", path)
    assert page.locator(".site-header").is_visible()
    assert page.locator(".table-card").count() == 3
    assert "Åse Økland" in page.locator(".table-card").first.inner_text()

    page.set_viewport_size({"width": 800, "height": 1130})  # about A4 at 96 dpi
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert not page.locator(".cards-toolbar").is_visible()
    screenshot = tmp_path / "cards-print.png"
    page.screenshot(path=str(screenshot), full_page=True)

    pixels = np.array(Image.open(screenshot).convert("L"))
    assert pixels.std() > 20, "the screenshot is blank"
    # Addresses on the live server itself, where the cards were opened.
    urls = {live_server.url + table.get_absolute_url() for table in championship.tables.all()}
    found, texts, _points, _codes = cv2.QRCodeDetector().detectAndDecodeMulti(pixels)
    decoded = {text for text in texts if text} if found else set()
    # The first card, cut out at its place on the page, reads as table 1's address.
    box = page.locator(".table-card-qr svg").first.bounding_box()
    top, left = int(box["y"]), int(box["x"])
    crop = pixels[
        max(top - 20, 0) : top + int(box["height"]) + 20,
        max(left - 20, 0) : left + int(box["width"]) + 20,
    ]
    decoded.add(decode(np.ascontiguousarray(crop)))
    decoded.discard("")
    assert decoded, "no QR code could be read from the printed page"
    assert decoded <= urls
    assert live_server.url + championship.tables.get(number=1).get_absolute_url() in decoded


def test_the_a5_layout_puts_one_card_on_a_page(page, live_server, seated_round):
    championship = seated_round.championship
    path = f"/{championship.slug}/manage/cards/{seated_round.key}/?size=a5"
    log_in(page, live_server, "kari", path)
    page.emulate_media(media="print")
    breaks = page.locator(".table-card").evaluate_all(
        "cards => cards.map(card => getComputedStyle(card).breakAfter)"
    )
    assert breaks == ["page", "page", "auto"]
    assert page.locator(".table-card-sheet").evaluate("sheet => getComputedStyle(sheet).page") == (
        "table-card-a5"
    )
    # Printed: three A5 landscape pages (148 mm is 420 points high).
    pdf = page.pdf(prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 3
    assert re.findall(rb"/MediaBox\s*\[0 0 [\d.]+ 420\]", pdf)
