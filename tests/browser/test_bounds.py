"""In the control room, a heat's start typed years off is refused beside its field."""

import os
from datetime import UTC, datetime

import pytest
from django.conf import settings
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from championship.services import tables_create
from tests import factories
from tests.browser.conftest import log_in
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user
LAPTOP = {"width": 1366, "height": 768}


def shot(page, name: str) -> None:
    """Save a screenshot under ``$SCREENSHOTS/bounds/`` when the variable is set."""
    if os.environ.get("SCREENSHOTS"):
        folder = os.path.join(os.environ["SCREENSHOTS"], "bounds")
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def test_a_start_in_year_9999_is_refused_beside_the_heats_field(page, live_server):
    championship = factories.championship(
        slug="rm-bounds", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    individual = championship.categories.get(kind="individual")
    tables_create(championship=championship, count=3)
    for name in ("Åse Økland", "Bjørn Berg"):
        factories.entry(individual, members=[factories.person(championship, name=name)])
    final = individual.rounds.get()
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="kari")
    path = f"/{championship.slug}/manage/rounds/{final.key}/"

    page.set_viewport_size(LAPTOP)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    log_in(page, live_server, "kari", f"{live_server.url}{path}", language=None)

    page.fill("#id_start_1", "9999-12-31T23:59")
    page.locator("#seat-form button[type=submit]").click()

    field = page.locator("#seat-form [data-heat='1']")
    expect(field.locator(".errors")).to_have_text(
        f"Give a time between 12 March {NEXT_YEAR}, 10:00 and 17 March {NEXT_YEAR}, 10:00, "
        "within the championship's days."
    )
    expect(page.locator("#id_start_1")).to_have_value("9999-12-31T23:59")
    assert final.heats.count() == 0
    field.scroll_into_view_if_needed()
    shot(page, "control-room-start-in-year-9999")
