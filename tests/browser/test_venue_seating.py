"""The venue screen's seating at 1920x1080: dark, large, and paged like the results board."""

import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from championship.services import tables_create
from control import rounds, screen
from control.rounds import SeatingPlan
from tests import factories
from tests.browser.screens import shot
from tests.browser.test_screen import FIRST, LAST, PROJECTOR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AREA = "results"
# The screen turns a page every 8 s (paging.js).
PAGE_PERIOD_MS = 8_000


def seated_hall(count):
    """Seat ``count`` entrants in two heats of a final and publish it; every fifth withholds."""
    championship = factories.championship(slug="hall", name="Rogalandsmesterskapet 2026")
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    tables_create(championship=championship, count=count)
    shown, withheld = [], []
    for index in range(count):
        name = f"{FIRST[index % len(FIRST)]} {LAST[index // len(FIRST) % len(LAST)]}"
        consent = index % 5 != 4
        person = factories.person(championship, name=name, publish_consent=consent)
        factories.entry(individual, members=[person], name=name, publish_consent=consent)
        (shown if consent else withheld).append(name)
    rounds.round_seat(round_=final, plan=SeatingPlan(order="registration", heats=2))
    rounds.seating_publish(round_=final)
    screen.screen_set(championship=championship, show="seating", round_key=final.key)
    return final, shown, withheld


def visible(page, selector):
    return page.locator(f"#board .row:not([hidden]) {selector}").all_inner_texts()


def test_the_seating_on_the_projector_is_large_and_pages_through_every_entrant(
    clock_page, live_server
):
    page = clock_page
    _final, shown, withheld = seated_hall(40)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    page.set_viewport_size(PROJECTOR)
    page.clock.install()  # the pages turn when the test says
    page.goto(f"{live_server.url}/hall/screen/")  # the venue screen's one address
    board = page.locator("#board")
    expect(board).to_have_attribute("data-pages", re.compile(r"^\d+$"))
    assert page.url.startswith(f"{live_server.url}/hall/seating/individual-final/screen/")
    expect(page.locator(".round-name")).to_have_text("Seating: Individual, Final")
    assert page.locator(".site-header").count() == 0  # not the website

    # Dark, and readable from the back of the hall: names at least 40 px, table numbers larger.
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(13, 17, 23)"
    name = page.locator("#board .row:not([hidden]) .name-text").first
    table = page.locator("#board .row:not([hidden]) .table").first
    name_size = float(name.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    table_size = float(table.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    assert name_size >= 40 and table_size > name_size
    shot(page, "seating-screen-page-1", area=AREA)

    pages = int(board.get_attribute("data-pages"))
    per_page = int(board.get_attribute("data-per-page"))
    assert per_page >= 10, "large, and still ten rows a page at 1920x1080"
    assert pages == -(-40 // per_page) and pages >= 2
    seen, labels = [], []
    for number in range(1, pages + 1):
        expect(board).to_have_attribute("data-page", str(number))
        labels.append(page.locator("#pages").inner_text())
        names = visible(page, ".name-text")
        assert len(names) == (per_page if number < pages else 40 - per_page * (pages - 1))
        last = page.locator("#board .row:not([hidden])").last.bounding_box()
        assert last["y"] + last["height"] <= PROJECTOR["height"]  # nothing below the fold
        seen += names
        if number == 2:
            shot(page, "seating-screen-page-2", area=AREA)
        page.clock.run_for(PAGE_PERIOD_MS)
    expect(board).to_have_attribute("data-page", "1")  # and round again
    assert labels == [f"Page {n} of {pages}" for n in range(1, pages + 1)]
    # Every entrant once; a name withheld on the public page is withheld here.
    assert sorted(name for name in seen if name != "Name withheld") == sorted(shown)
    assert seen.count("Name withheld") == len(withheld)
    text = page.locator("body").inner_text()
    for name in withheld:
        assert name not in text


def test_the_projector_never_keeps_a_seating_that_was_taken_back(page, live_server):
    final, shown, _withheld = seated_hall(6)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{live_server.url}/hall/screen/")
    expect(page.locator(".seating-list")).to_contain_text(shown[0])

    rounds.round_seat(round_=final, plan=SeatingPlan(order="registration"))  # seated anew

    # The screen asks every 3 s: the old seating goes, and the hall is told it is not public.
    expect(page.locator(".seating-unpublished")).to_have_text(
        "The seating of this round is not published yet.", timeout=15_000
    )
    expect(page.locator(".seating-list")).to_have_count(0)
    shot(page, "seating-screen-taken-back", area=AREA)

    rounds.seating_publish(round_=final)
    expect(page.locator(".seating-list .row")).to_have_count(6, timeout=15_000)
    expect(page.locator(".heat-first")).to_have_count(0)  # one heat now
