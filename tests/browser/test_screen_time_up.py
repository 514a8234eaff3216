"""The projector once time is up, and its page count: "Time is up", and "n of N" with one N.

The report of 2026-12-01 saw "1:59:54 remaining" on a board whose heat was stopped
after five seconds, and "Page 1 of 3", then "Page 4 of 4" with one row on the last
page: the count was taken while the clock still showed its placeholder, and the
clock, once running, took more room from a championship's name beside it, which
then took a second line from the board.
"""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from control import rounds
from core.l10n import format_duration
from tests.browser.screens import shot
from tests.browser.test_screen import PROJECTOR, hall, open_screen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AREA = "results"
# As long as the demo's: beside the running clock it takes two lines at 1920x1080.
LONG_NAME = "Rogalandsmesterskapet i hurtigpusling 2026"


def cycle(page, board):
    """Step once round the pages with the presenter's clicker; return each page's label and rows."""
    pages = int(board.get_attribute("data-pages"))
    seen = []
    for _ in range(pages):
        shown = board.get_attribute("data-page")
        rows = page.locator("#board .row:not([hidden])")
        last = rows.last.bounding_box()
        # Every row shown is whole, inside the screen.
        assert last["y"] + last["height"] <= PROJECTOR["height"], last
        seen.append((int(shown), page.locator("#pages").inner_text(), rows.count()))
        page.keyboard.press("ArrowRight")
        expect(board).to_have_attribute("data-page", str(int(shown) % pages + 1))
        assert board.get_attribute("data-pages") == str(pages)
    return sorted(seen)


def assert_stable(seen, total):
    pages = len(seen)
    assert [label for _number, label, _rows in seen] == [
        f"Page {number} of {pages}" for number in range(1, pages + 1)
    ]
    counts = [rows for _number, _label, rows in seen]
    assert sum(counts) == total
    # Full pages, then the rest: never a page with fewer rows before a full one.
    assert all(count == counts[0] for count in counts[:-1]) and counts[-1] <= counts[0]


def test_the_page_count_holds_from_the_first_page_to_the_last(clock_page, live_server):
    page = clock_page
    hall(34, name=LONG_NAME)
    # The page's timers are the test's: only the clicker turns the pages.
    page.clock.install()
    board = open_screen(page, live_server)
    first = (board.get_attribute("data-pages"), board.get_attribute("data-per-page"))
    assert int(first[0]) >= 2
    expect(page.locator("#pages")).to_have_text(f"Page 1 of {first[0]}")
    shot(page, "screen-long-name-page-1", area=AREA)
    seen = cycle(page, board)
    assert_stable(seen, 34)
    assert (board.get_attribute("data-pages"), board.get_attribute("data-per-page")) == first
    # Round again: the same pages.
    assert cycle(page, board) == seen


def test_a_heat_stopped_early_says_time_is_up_and_keeps_its_page_count(clock_page, live_server):
    page = clock_page
    final, _names = hall(34, name=LONG_NAME)
    page.clock.install()
    board = open_screen(page, live_server)
    remaining, time_up = page.locator("#remaining"), page.locator("#time-up")
    expect(remaining).to_be_visible()
    expect(time_up).to_be_hidden()
    before = cycle(page, board)

    rounds.round_close(round_=final)  # the organiser stops the time, an hour early

    # The board asks every second (on the page's clock, here the test's).
    for _ in range(20):
        page.clock.run_for(1_000)
        if "time-up" in (page.locator("#clock").get_attribute("class") or ""):
            break
    expect(time_up).to_have_text("Time is up")
    expect(time_up).to_be_visible()
    expect(remaining).to_be_hidden()  # no time left is shown once time is up
    # The clock stands at the time-up, computed from the same two instants as the screen's.
    heat = final.heats.get()
    at = [int(moment.timestamp() * 1000) for moment in (heat.started_at, heat.ended_at)]
    expect(page.locator("#elapsed")).to_have_text(format_duration(at[1] - at[0]))
    page.clock.run_for(2_000)
    expect(page.locator("#elapsed")).to_have_text(format_duration(at[1] - at[0]))
    shot(page, "screen-time-up", area=AREA)
    after = cycle(page, board)
    assert_stable(after, 34)
    assert [(n, label) for n, label, _ in after] == [(n, label) for n, label, _ in before]


def test_time_up_at_the_limit_in_the_championships_language(page, live_server):
    """A heat whose limit has run out says so too, in the championship's own words."""
    final, _names = hall(8)
    heat = final.heats.get()
    limit = final.effective_time_limit_minutes
    heat.started_at = timezone.now() - timedelta(minutes=limit + 5)
    heat.save()
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{live_server.url}/hall/screen/individual-final/")  # nb: no language chosen
    expect(page.locator("#time-up")).to_have_text("Tiden er ute")
    expect(page.locator("#time-up")).to_be_visible()
    expect(page.locator("#remaining")).to_be_hidden()
    # The clock stops at the limit.
    expect(page.locator("#elapsed")).to_have_text(format_duration(limit * 60 * 1000))
    shot(page, "screen-time-up-nb", area=AREA)
