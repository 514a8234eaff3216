"""Printed table cards in the championship's language, seen in a real browser."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.screens import shot
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user


@pytest.fixture
def sm_prelim(db):
    sm = factories.championship(
        slug=f"sm-{NEXT_YEAR}",
        ruleset="sm",
        name=f"Pussel-SM {NEXT_YEAR}",
        starts_at=datetime(NEXT_YEAR, 5, 8, 8, tzinfo=UTC),
    )
    individual = sm.categories.get(kind="individual")
    tables_create(championship=sm, count=3)
    for name in ("Anna Andersson", "Bo Berg", "Cecilia Carlsson"):
        factories.entry(
            individual,
            members=[factories.person(sm, name=name, citizenship=["SE"])],
            name=name,
            checked_in_at=datetime(NEXT_YEAR, 5, 8, 7, tzinfo=UTC),
        )
    prelim = individual.rounds.get(stage="prelim")
    rounds.round_seat(round_=prelim)
    factories.role(sm, ChampionshipRole.Role.ORGANISER, username="kari")
    return prelim


def test_an_english_organiser_prints_swedish_cards(page, live_server, sm_prelim):
    path = f"/{sm_prelim.championship.slug}/manage/cards/{sm_prelim.key}/"
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, live_server, "kari", f"{live_server.url}{path}", language=None)
    expect(page.get_by_role("heading", name="Table cards")).to_be_visible()
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    shot(page, "cards-screen-en-organiser")

    page.set_viewport_size({"width": 800, "height": 1130})  # about A4 at 96 dpi
    page.emulate_media(media="print")
    expect(page.locator(".cards-toolbar")).to_be_hidden()
    first = page.locator(".table-card").first
    expect(first).to_be_visible()
    expect(first.locator(".table-card-number span")).to_have_text("Bord")
    expect(first.locator(".table-card-round")).to_have_text(
        "Individuell · Inledande omgång · Heat A"
    )
    expect(first.locator(".table-card-qr p")).to_have_text("Domare: skanna för att registrera")
    printed = page.locator(".table-card-sheet").inner_text()
    assert "Table" not in printed and "Judges" not in printed
    shot(page, "cards-print-sv")
