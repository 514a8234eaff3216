"""Two judges count an unfinished puzzle on their phones (390 by 844), each in a browser of their
own: the second does not see the first count; equal counts go to the entrant, different ones to
the head judge, who decides on the round dashboard (a laptop) with a reason."""

import contextlib
import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Seat
from control import rounds
from results.models import Result
from tests import factories
from tests.browser.conftest import CONTEXT, PHONE, forget_the_phone, log_in
from tests.browser.test_judging import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def floor(db):
    """An sm heat whose time is up at one table, with two judges and a head judge."""
    championship = factories.championship(slug="sm-counts", ruleset="sm")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.order_by("order").first()
    table = factories.table(championship)
    entry = factories.entry(individual, name="Maja Lind")
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=table, entry=entry)
    heat = rounds.heat_start(heat=heat)
    # Well after the time limit: the judges count the pieces.
    heat.started_at = timezone.now() - timedelta(milliseconds=round_.time_limit_ms + 300_000)
    heat.save()
    for username in ("anna", "bo"):
        factories.role(championship, ChampionshipRole.Role.JUDGE, username=username)
    factories.role(championship, ChampionshipRole.Role.HEAD_JUDGE, username="head")
    return SimpleNamespace(
        championship=championship, round=round_, table=table, entry=entry, pieces=individual.pieces
    )


@pytest.fixture
def other_browser(second_browser):
    """Open pages in contexts of their own: another judge's phone, the head judge's laptop."""

    @contextlib.contextmanager
    def opened(viewport):
        context = second_browser.new_context(viewport=viewport, **CONTEXT)
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            yield page
        finally:
            context.close()

    return opened


def count(page, *, remaining=None, placed=None):
    panel = page.locator('[data-step-panel="timeup"]')
    if placed is not None:
        panel.get_by_label("Pieces placed", exact=True).check()
        page.fill('[data-field="placed"]', str(placed))
    else:
        page.fill('[data-field="remaining"]', str(remaining))
    panel.get_by_role("button", name="Show the entrant").click()


@pytest.mark.long
def test_equal_counts_go_to_the_entrant(phone, live_server, floor, other_browser):
    url = floor.table.get_absolute_url()
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, "anna", url)
    expect(phone.locator("[data-count-label]")).to_have_text("Count the pieces")
    count(phone, remaining=20)
    counted = phone.locator('[data-step-panel="counted"]')
    expect(counted).to_be_visible()
    expect(counted.locator("[data-own-count]")).to_have_text(str(floor.pieces - 20))
    expect(counted).to_contain_text("Waiting for a second judge's count")
    expect(phone.locator("[data-save-state]")).to_have_text("saved")
    shot(phone, "second-count-1-first-count-waits")

    with other_browser(PHONE) as second:
        forget_the_phone(second, live_server)
        log_in(second, live_server, "bo", url)
        expect(second.locator("[data-count-label]")).to_have_text("Second count")
        expect(second.locator("[data-second-help]")).to_be_visible()
        # The first count is nowhere on the second judge's page, nor in what it was sent.
        # As a number of its own: an entry's random id may hold the same digits.
        assert not re.search(rf"\b{floor.pieces - 20}\b", second.content())
        shot(second, "second-count-2-second-judge-counts")
        count(second, placed=floor.pieces - 20)
        review = second.locator('[data-step-panel="review"]')
        expect(review).to_be_visible()
        expect(review.locator("[data-review-value]")).to_have_text(str(floor.pieces - 20))
        expect(review.locator("[data-review-source]")).to_have_text("as saved")
        shot(second, "second-count-3-agreed")
        # The first judge's phone follows: the count is final, for the entrant to confirm.
        expect(phone.locator('[data-step-panel="review"]')).to_be_visible(timeout=20_000)
        second.get_by_role("button", name="Confirmed by the entrant").click()
        expect(second.locator('[data-step-panel="confirmed"]')).to_be_visible()
        expect(second.locator("[data-confirmed-badge]")).to_have_text("✓ Confirmed")
    result = Result.objects.get(entry=floor.entry)
    assert (result.count_state, result.counted_pieces) == ("agreed", floor.pieces - 20)
    assert result.confirmed_at is not None
    expect(phone.locator('[data-step-panel="confirmed"]')).to_be_visible(timeout=20_000)


@pytest.mark.long
def test_different_counts_go_to_the_head_judge(phone, live_server, floor, other_browser):
    url = floor.table.get_absolute_url()
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, "anna", url)
    count(phone, remaining=20)
    expect(phone.locator('[data-step-panel="counted"]')).to_be_visible()
    expect(phone.locator("[data-save-state]")).to_have_text("saved")

    with other_browser(PHONE) as second:
        forget_the_phone(second, live_server)
        log_in(second, live_server, "bo", url)
        count(second, placed=floor.pieces - 23)
        disputed = second.locator('[data-step-panel="disputed"]')
        expect(disputed).to_be_visible()
        expect(disputed).to_contain_text("The head judge decides the count")
        shot(second, "second-count-4-counts-differ")
    expect(phone.locator('[data-step-panel="disputed"]')).to_be_visible(timeout=20_000)
    assert Result.objects.get(entry=floor.entry).count_state == "disputed"

    with other_browser({"width": 1366, "height": 900}) as laptop:
        dashboard = f"/sm-counts/manage/rounds/{floor.round.key}/dashboard/"
        log_in(laptop, live_server, "head", dashboard)
        queue = laptop.locator(".count-disputes")
        expect(queue).to_contain_text("1 piece count to decide")
        expect(queue).to_contain_text(f"anna counted {floor.pieces - 20} pieces placed")
        expect(queue).to_contain_text(f"bo counted {floor.pieces - 23} pieces placed")
        shot(laptop, "second-count-5-head-judge-queue")
        queue.get_by_label("Pieces placed").fill(str(floor.pieces - 21))
        queue.get_by_label("Reason (required)").fill("Counted again with the entrant")
        queue.get_by_role("button", name="Decide the count").click()
        expect(laptop.locator(".messages")).to_contain_text("The correction of Maja Lind")
        expect(laptop.locator(".count-disputes")).to_have_count(0)
    result = Result.objects.get(entry=floor.entry)
    assert (result.count_state, result.counted_pieces) == ("decided", floor.pieces - 21)
    confirmed = phone.locator('[data-step-panel="confirmed"]')
    expect(confirmed).to_be_visible(timeout=20_000)
    expect(confirmed.locator("[data-review-value]")).to_have_text(str(floor.pieces - 21))
    shot(phone, "second-count-6-decided")
