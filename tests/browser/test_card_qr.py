"""A table card's QR code, scanned from the page, opens that table on this very server."""

import io
import os
from datetime import UTC, datetime
from urllib.parse import urlsplit

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Table
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from tests import factories
from tests.browser.conftest import log_in
from tests.control.test_cards import decode
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user
SCREENSHOTS = os.environ.get("SCREENSHOTS") and "/tmp/shots/getting-started"


@pytest.fixture
def seated_round(db):
    championship = factories.championship(
        slug=f"rm-{NEXT_YEAR}",
        name=f"Rogalandsmesterskapet {NEXT_YEAR}",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
    )
    individual = championship.categories.get(kind="individual")
    tables_create(championship=championship, count=3, seats=1)
    for name in ("Åse Økland", "Bjørn Berg"):
        factories.entry(individual, members=[factories.person(championship, name=name)])
    final = individual.rounds.get()
    rounds.round_seat(round_=final, plan=SeatingPlan(order="registration"))
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="kari")
    factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    return final


def shot(page, name):
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


def test_a_cards_qr_code_opens_that_tables_judge_page_on_the_live_server(
    page, live_server, seated_round, settings
):
    settings.SITE_URL = ""  # a fresh installation: the cards follow the address they are opened at
    assert urlsplit(live_server.url).port != 8000, "the server must not be the old default"
    championship = seated_round.championship
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(
        page,
        live_server,
        "kari",
        f"{live_server.url}/{championship.slug}/manage/cards/{seated_round.key}/",
    )
    card = page.locator(".table-card").nth(1)
    expect(card.locator(".table-card-number")).to_contain_text("2")
    shot(page, "table-cards")

    # The code as printed: a screenshot of the card's QR drawing, read by OpenCV.
    png = card.locator(".table-card-qr svg").screenshot()
    pixels = np.array(Image.open(io.BytesIO(png)).convert("L"))
    scanned = decode(np.ascontiguousarray(pixels))
    table = Table.objects.get(championship=championship, number=2)
    assert scanned == f"{live_server.url}/t/{table.token}/"

    # A judge's phone opens what it scanned and, logged in, reaches the table.
    page.context.clear_cookies()
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server, "judy", scanned)
    expect(page.locator("h1.table-number")).to_have_text("Table 2")
    expect(page.locator("body")).to_contain_text("Bjørn Berg")
    shot(page, "scanned-table")
