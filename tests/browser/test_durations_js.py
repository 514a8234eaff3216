"""The browser writes and reads a duration as the server does.

Every case of ``tests/durations_cases.py`` (which ``tests/core/test_durations.py``
runs against ``core.l10n.format_duration`` and ``parse_duration``) runs here in
Chromium against ``ServerClock.duration`` (``static/js/server_clock.js``: the
projector's clock, the control room, the entrant's page, the judge's phone), the
judge's page's own ``duration`` (``static/judging/judge/render.js``) and its
``parseDuration`` (``static/judging/judge/text.js``).
"""

from pathlib import Path
from urllib.parse import urlparse

import pytest

from core.l10n import format_duration
from tests.durations_cases import FORMAT_CASES, NOT_DURATIONS, PARSE_CASES

pytestmark = pytest.mark.browser

STATIC = Path(__file__).parents[2] / "static"
# A made-up origin whose requests the test answers itself, so that ES modules load.
ORIGIN = "http://durations.test"


def answer(route):
    path = urlparse(route.request.url).path
    if path == "/":
        route.fulfill(body="<!doctype html><title>durations</title>", content_type="text/html")
        return
    file = STATIC / path.removeprefix("/static/")
    if not path.startswith("/static/") or not file.is_file():
        route.fulfill(status=404, body="not found")
        return
    route.fulfill(path=str(file), content_type="text/javascript")


@pytest.fixture(scope="module")
def durations_page(chromium):
    page = chromium.new_page()
    page.route(f"{ORIGIN}/**", answer)
    page.goto(f"{ORIGIN}/")
    page.add_script_tag(url=f"{ORIGIN}/static/js/server_clock.js")
    yield page
    page.close()


def test_the_browser_writes_every_case_as_python_does(durations_page):
    written = durations_page.evaluate(
        """async (cases) => {
          const { createView } = await import("/static/judging/judge/render.js");
          const view = createView({ clock: window.ServerClock, strings: {} });
          return cases.map((ms) => [window.ServerClock.duration(ms), view.duration(ms)]);
        }""",
        [ms for ms, _text, _about in FORMAT_CASES],
    )
    differ = [
        f"{ms} ms ({about}): Python {text!r}, ServerClock {clock!r}, the judge's page {judge!r}"
        for (ms, text, about), (clock, judge) in zip(FORMAT_CASES, written, strict=True)
        if not (format_duration(ms) == clock == judge == text)
    ]
    assert not differ, "\n".join(differ)


def test_the_judges_page_reads_what_the_format_writes(durations_page):
    read = durations_page.evaluate(
        """async ([good, bad]) => {
          const { parseDuration } = await import("/static/judging/judge/text.js");
          return [good.map(parseDuration), bad.map(parseDuration)];
        }""",
        [[text for text, _ms in PARSE_CASES], list(NOT_DURATIONS)],
    )
    good, bad = read
    assert good == [ms for _text, ms in PARSE_CASES]
    assert bad == [None] * len(NOT_DURATIONS)


def test_no_time_on_the_judges_page_is_a_dash(durations_page):
    shown = durations_page.evaluate(
        """async () => {
          const { createView } = await import("/static/judging/judge/render.js");
          const view = createView({ clock: window.ServerClock, strings: {} });
          return [view.duration(null), view.duration(undefined), view.duration(NaN)];
        }"""
    )
    assert shown == ["–", "–", "–"]
