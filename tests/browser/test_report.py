"""The round report in Chromium at a laptop's size: the charts are drawn, the CSV downloads."""

import pytest
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.test_judging import shot
from tests.control.report_rounds import planted

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def planted_round(db):
    """Three heats at six tables in three rows: heat C slow and late, row C short of pieces."""
    championship = factories.championship(
        slug="rm-report", name="Rogalandsmesterskapet 2026", language="en"
    )
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    return planted(championship)


def size(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None, "not rendered"
    return box["width"], box["height"]


def test_the_round_report_draws_its_charts_at_a_laptops_size(page, live_server, planted_round):
    page.set_viewport_size(LAPTOP)
    path = f"/{planted_round.championship.slug}/manage/rounds/{planted_round.key}/report/"
    log_in(page, live_server, "orga", path)
    expect(page.locator("h1")).to_have_text("Round report: Individual, Final")
    expect(page.locator("[data-flag]")).to_have_count(3)
    expect(page.locator("[data-flag=slower]")).to_contain_text("Heat C: the median time 0:59:00")

    charts = page.locator("svg.chart")
    expect(charts).to_have_count(5)
    for index in range(5):
        width, height = size(charts.nth(index))
        assert width > 300 and height > 80, (index, width, height)
    # A line per heat and one per row, each drawn in a colour of the page's.
    curves = page.locator("svg.curve-chart path.curve")
    expect(curves).to_have_count(6)
    for index in range(6):
        curve = curves.nth(index)
        width, height = size(curve)
        assert width > 100 and height > 20, (index, width, height)
        assert curve.evaluate("p => getComputedStyle(p).stroke") not in ("none", "")
    # A box per heat, heat C's marked; a bar per row, row C's marked.
    boxes = page.locator("[data-chart=heat-times] svg .box")
    expect(boxes).to_have_count(3)
    expect(page.locator("[data-chart=heat-times] svg .box.flagged .row-label")).to_have_text(
        "Heat C"
    )
    for index in range(3):
        assert size(boxes.nth(index).locator("rect.iqr"))[0] > 5
    bars = page.locator("[data-chart=group-missing] svg .bar rect.share")
    expect(bars).to_have_count(3)
    widths = [size(bars.nth(index))[0] for index in range(3)]
    # Row A: 1 of 6 reported missing pieces, row B none, row C 4 of 6.
    assert widths[2] > 3.9 * widths[0] > 0 == widths[1], widths
    # The text of a chart fits inside its frame; the page is no wider than the laptop's screen.
    for label in page.locator("svg.chart .row-label").all():
        box, frame = label.bounding_box(), label.locator("xpath=ancestor::*[name()='svg'][1]")
        assert box["x"] >= frame.bounding_box()["x"] - 1
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    shot(page, "report-1-laptop")

    with page.expect_download() as download:
        page.locator("[data-report-csv]").click()
    assert download.value.suggested_filename == f"rm-report-{planted_round.key}-report.csv"

    # The charts take the page's colours: in the dark theme too.
    stroke = "p => getComputedStyle(p).stroke"
    light = curves.first.evaluate(stroke)
    page.emulate_media(color_scheme="dark")
    assert curves.first.evaluate(stroke) != light
    shot(page, "report-3-dark")
    page.emulate_media(media="print", color_scheme="light")
    expect(page.locator(".site-header")).to_be_hidden()
    assert size(charts.first)[0] > 300
    shot(page, "report-2-print")
