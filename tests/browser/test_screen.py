"""The projector at 1920x1080: the clock follows the heat, the board pages through every entry."""

import os
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
from results.models import Result
from results.services import standings_recompute
from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
SHOTS = os.environ.get("SCREENSHOTS")  # a folder, e.g. /tmp/shots: they go in results/

FIRST = [
    "Ingrid", "Ola", "Kari", "Per", "Solveig", "Magnus", "Astrid", "Henrik", "Sigrid", "Lars",
    "Marte", "Eirik", "Ragnhild", "Torbjørn", "Liv", "Sindre", "Gunnhild", "Kristoffer", "Aud",
    "Bjørn",
]  # fmt: skip
LAST = [
    "Hansen", "Kvalheim", "Johannessen-Fjeldstad", "Berg", "Haugland", "Skjæveland", "Olsen",
    "Tjelta", "Rasmussen", "Aarsland",
]  # fmt: skip


def shot(page, name):
    if SHOTS:
        folder = os.path.join(SHOTS, "results")
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"))


def english(page, live_server):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )


def hall(count, *, start=True, name="Rogalandsmesterskapet 2026"):
    """Seat ``count`` entrants in a rogaland final; every sixth lives outside Rogaland.

    Started 50 minutes ago, two in three have finished; without ``start`` the
    round is seated and waits for its start.
    """
    championship = factories.championship(slug="hall", name=name)
    individual = championship.categories.get(kind="individual")
    individual.puzzle_brand, individual.puzzle_motif = "Ravensburger", "Preikestolen ved daggry"
    individual.save()
    final = individual.rounds.get()
    tables_create(championship=championship, count=count)
    names = []
    for index in range(count):
        name = f"{FIRST[index % len(FIRST)]} {LAST[index // len(FIRST) % len(LAST)]}"
        if index >= len(FIRST) * len(LAST):
            name += f" {index}"
        region = "Vestland" if index % 6 == 3 else "Rogaland"
        person = factories.person(championship, name=name, region=region)
        factories.entry(individual, members=[person], name=name, publish_consent=True)
        names.append(name)
    rounds.round_seat(round_=final)
    if start:
        (heat,) = rounds.round_start(round_=final)
        heat.started_at = timezone.now() - timedelta(minutes=50)
        heat.save()
        results = Result.objects.filter(round=final).order_by("entry__registered_at", "entry__id")
        for index, result in enumerate(results):
            if index % 3 != 2:
                # Finishing times in a shuffled order (7 is prime to every count used here).
                seconds = 35 * 60 + (index * 7 % count) * 23
                result.status, result.time_ms = "finished", seconds * 1000
                result.save()
        standings_recompute(round_=final)
    final.refresh_from_db()
    return final, names


def visible_names(page):
    return set(page.locator("#board .row:not([hidden]) .name-text").all_inner_texts())


def open_screen(page, live_server):
    english(page, live_server)
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{live_server.url}/hall/screen/individual-final/")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-pages", re.compile(r"^\d+$"))
    return board


def test_a_screen_opened_before_the_start_runs_its_clock_once_the_heat_starts(page, live_server):
    final, _ = hall(12, start=False)
    open_screen(page, live_server)
    elapsed = page.locator("#elapsed")
    expect(elapsed).to_have_text("0:00:00")
    expect(page.locator("#clock-waiting")).to_be_visible()
    expect(page.locator("#motif")).to_be_hidden()  # the motif is secret until the start
    shot(page, "screen-before-start")

    rounds.round_start(round_=final)  # the organiser, elsewhere

    expect(elapsed).to_have_text(re.compile(r"^0:00:0[1-9]$"), timeout=10_000)
    first = elapsed.inner_text()
    expect(elapsed).not_to_have_text(first, timeout=3_000)  # and it runs
    expect(page.locator("#clock-waiting")).to_be_hidden()
    expect(page.locator("#remaining")).to_have_text(re.compile(r"^1:59:5\d$"))
    expect(page.locator("#motif")).to_have_text("Ravensburger: Preikestolen ved daggry")
    shot(page, "screen-just-started")


def test_the_clock_shows_time_up_once_the_heat_is_closed(page, live_server):
    final, _ = hall(6)
    open_screen(page, live_server)
    expect(page.locator("#elapsed")).to_have_text(re.compile(r"^0:50:\d\d$"))
    rounds.round_close(round_=final)
    expect(page.locator("#clock")).to_have_class(re.compile(r"\btime-up\b"), timeout=10_000)
    stopped = page.locator("#elapsed").inner_text()
    page.wait_for_timeout(1_500)
    assert page.locator("#elapsed").inner_text() == stopped


# The screen turns a page every 8 s.
PAGE_PERIOD_MS = 8_000


def test_34_entries_page_by_themselves_and_every_one_is_shown(clock_page, live_server):
    page = clock_page
    _, names = hall(34)
    # The page's clock is the test's: a page turns when 8 s are run, however busy the machine.
    page.clock.install()
    board = open_screen(page, live_server)
    pages = int(board.get_attribute("data-pages"))
    per_page = int(board.get_attribute("data-per-page"))
    assert pages == -(-34 // per_page) and pages >= 2
    assert per_page >= 10, "the board has room for more rows at 1920×1080"
    shot(page, "screen-34-page-1")
    seen = visible_names(page)
    assert len(seen) == per_page
    for number in range(2, pages + 1):
        expect(board).to_have_attribute("data-page", str(number - 1))
        page.clock.run_for(PAGE_PERIOD_MS)
        expect(board).to_have_attribute("data-page", str(number))
        seen |= visible_names(page)
    assert seen == set(names)
    page.clock.run_for(PAGE_PERIOD_MS)
    expect(board).to_have_attribute("data-page", "1")  # and round again
    # Nothing below the fold: the last visible row ends inside the screen.
    last = page.locator("#board .row:not([hidden])").last.bounding_box()
    assert last["y"] + last["height"] <= PROJECTOR["height"]


def test_a_new_version_keeps_the_page_shown(page, live_server):
    final, _ = hall(34)
    board = open_screen(page, live_server)
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-page", "2")
    page.evaluate(
        """() => {
          window.swaps = [];
          document.body.addEventListener("htmx:beforeSwap", () => {
            window.swaps.push(["before", document.getElementById("board").dataset.page]);
          });
          document.body.addEventListener("htmx:afterSwap", () => {
            window.swaps.push(["after", document.getElementById("board").dataset.page]);
          });
        }"""
    )
    version = board.get_attribute("data-version")
    pending = Result.objects.filter(round=final, outcome="").first()
    capture_record(
        round_=final,
        entry=pending.entry,
        judge=factories.role(final.championship, ChampionshipRole.Role.JUDGE),
        data=CaptureInput(client_id=uuid.uuid4(), kind="finish", at=timezone.now()),
    )
    expect(board).not_to_have_attribute("data-version", version, timeout=10_000)
    (before, shown_before), (after, shown_after) = page.evaluate("window.swaps")[:2]
    assert (before, after) == ("before", "after")
    assert shown_after == shown_before != "1"  # not back to the first page


def test_180_entries_are_readable_from_the_back_of_the_hall(page, live_server):
    _, names = hall(180)
    board = open_screen(page, live_server)
    pages = int(board.get_attribute("data-pages"))
    per_page = int(board.get_attribute("data-per-page"))
    assert pages == -(-180 // per_page)
    expect(page.locator("#pages")).to_have_text(f"Page 1 of {pages}")

    # Large type: the names at least 40 px, the unofficial mark large and framed.
    name = page.locator("#board .row:not([hidden]) .name-text").first
    size = float(name.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    assert size >= 40
    mark = page.locator("#board .row:not([hidden]) .unofficial-mark").first
    expect(mark).to_be_visible()
    expect(mark).to_have_text(re.compile("unofficial", re.I))
    mark_size = float(mark.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    assert mark_size >= 24

    # The official place stands beside the place; an unofficial entry has none.
    heading = page.locator(".leaderboard-head")
    expect(heading.locator(".official-place")).to_have_text("Official place")
    rows = page.locator("#board .row:not([hidden])")
    checked = 0
    for index in range(rows.count()):
        row = rows.nth(index)
        place = row.locator(".place")
        official = row.locator(".official-place")
        assert place.bounding_box()["x"] < official.bounding_box()["x"]
        if "unofficial" in (row.get_attribute("class") or ""):
            assert official.inner_text() == ""
        elif place.inner_text() != "–":
            assert official.inner_text().isdigit()
            assert int(official.inner_text()) <= int(place.inner_text())
            checked += 1
    assert checked
    shot(page, "screen-180-page-1")

    # A presenter's clicker steps through the pages; every entry shows on one of them.
    seen = visible_names(page)
    for number in range(2, pages + 1):
        page.keyboard.press("ArrowRight")
        expect(board).to_have_attribute("data-page", str(number))
        seen |= visible_names(page)
    expect(page.locator("#pages")).to_have_text(f"Page {pages} of {pages}")
    shot(page, "screen-180-last-page")
    assert seen == set(names)
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-page", "1")
    page.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-page", str(pages))


def test_the_screen_speaks_the_championships_language_and_has_no_chart(page, live_server):
    hall(8)
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{live_server.url}/hall/screen/individual-final/")
    expect(page.locator(".leaderboard-head .place")).to_have_text(re.compile("Plass", re.I))
    expect(page.locator("#board .unofficial-mark").first).to_have_text(
        re.compile("uoffisiell", re.I)
    )
    assert page.locator("#board svg").count() == 0
    shot(page, "screen-nb")
