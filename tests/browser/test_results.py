"""Live results in a real browser: updates by themselves, the projector, languages, phones."""

import re
import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def running(db):
    """A rogaland final running for 30 minutes, 25 entrants seated, nobody finished yet."""
    championship = factories.championship(slug="live", name="Live-mesterskapet")
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    tables_create(championship=championship, count=30)
    entries = [
        factories.entry(
            individual,
            members=[factories.person(championship, name=f"Deltaker {n:02d}", region="Rogaland")],
            name=f"Deltaker {n:02d}",
            publish_consent=True,
        )
        for n in range(25)
    ]
    rounds.round_seat(round_=final)
    (heat,) = rounds.round_start(round_=final)
    heat.started_at = timezone.now() - timedelta(minutes=30)
    heat.save()
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE)
    return {"championship": championship, "round": final, "entries": entries, "judge": judge}


def capture(running, entry, seconds_ago=5):
    capture_record(
        round_=running["round"],
        entry=entry,
        judge=running["judge"],
        data=CaptureInput(
            client_id=uuid.uuid4(),
            kind="finish",
            at=timezone.now() - timedelta(seconds=seconds_ago),
        ),
    )


def english(page, live_server):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )


def test_the_results_page_updates_by_itself_after_a_capture(page, live_server, running):
    english(page, live_server)
    page.goto(f"{live_server.url}/live/results/individual-final/")
    table = page.locator("#results-table .results-live")  # not the print copy
    assert table.locator("td.place", has_text="1").count() == 0
    capture(running, running["entries"][7])  # from another session: the judge's
    table.locator("tr", has_text="Deltaker 07").locator("td.place", has_text="1").wait_for(
        timeout=15_000
    )


@pytest.mark.long
def test_the_projector_clock_counts_and_the_leaderboard_pages(page, live_server, running):
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/live/screen/individual-final/")
    elapsed = page.locator("#elapsed")
    expect(elapsed).to_have_text(re.compile(r"^0:30:\d\d$"))
    first = elapsed.inner_text()
    page.wait_for_timeout(1500)
    assert elapsed.inner_text() != first  # it counts
    assert page.locator("#remaining").inner_text().startswith("1:29")
    board = page.locator("#board")
    assert board.get_attribute("data-pages") == "3"  # 25 rows, 10 a page
    visible_before = page.locator("#board .row:not([hidden])").first.inner_text()
    expect(board).to_have_attribute("data-page", "2", timeout=12_000)
    assert page.locator("#board .row:not([hidden])").first.inner_text() != visible_before


PAGE_TYPES = [
    "/",
    "/live/",
    "/live/results/",
    "/live/results/individual-final/",
    "/live/register/pair/",
    "/accounts/login/",
]
LANGUAGES = ("sv", "da", "en", "nb")


def switch_language(page, language, path):
    """Choose ``language`` in the page's menu: it switches at once (the button is for pages
    without JavaScript)."""
    with page.expect_navigation():
        page.select_option("#language-select", language)
    assert page.locator("html").get_attribute("lang") == language, path


def test_every_page_type_switches_language(page, live_server, running):
    """The first page type is switched to each language in turn, every other one to the next."""
    first, *others = PAGE_TYPES
    page.goto(f"{live_server.url}{first}")
    for language in LANGUAGES:
        switch_language(page, language, first)
    for number, path in enumerate(others):
        page.goto(f"{live_server.url}{path}")
        shown = page.locator("html").get_attribute("lang")
        language = LANGUAGES[number % len(LANGUAGES)]
        if language == shown:
            language = LANGUAGES[(number + 1) % len(LANGUAGES)]
        switch_language(page, language, path)


def test_the_results_page_fits_a_375_px_phone(page, live_server, running):
    for entry in running["entries"][:5]:
        capture(running, entry, seconds_ago=30)
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(f"{live_server.url}/live/results/individual-final/")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the results page is {width}px wide on a 375px phone"
