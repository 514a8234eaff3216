"""The judge's phone applies the preset's rules: dm's adjacent pieces, sm's missing pieces, counts.

At a 390 by 844 phone, offline (so that the phone, not the server, says what the
final time is), and then online, where the server must agree.
"""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Seat
from control import rounds
from results.models import Result
from tests import factories
from tests.browser.conftest import forget_the_phone, log_in
from tests.browser.test_judging import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def floor(ruleset, minutes_ago=30):
    championship = factories.championship(slug=f"{ruleset}-phone", ruleset=ruleset)
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.order_by("order").first()
    table = factories.table(championship)
    entry = factories.entry(individual, name="Mette Holm")
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=table, entry=entry)
    heat = rounds.heat_start(heat=heat)
    heat.started_at = timezone.now() - timedelta(minutes=minutes_ago)
    heat.save()
    factories.role(championship, ChampionshipRole.Role.JUDGE, username=f"{ruleset}-judge")
    return SimpleNamespace(heat=heat, table=table, entry=entry, judge=f"{ruleset}-judge")


def duration(ms):
    seconds = ms // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def test_dm_charges_the_missing_pieces_but_the_adjacent_ones_on_the_phone_and_the_server(
    phone, live_server
):
    dm = floor("dm")
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, dm.judge, dm.table.get_absolute_url())
    phone.get_by_role("button", name="TIME", exact=True).click()
    expect(phone.locator("[data-save-state]")).to_have_text("saved")
    tapped = phone.locator("[data-tap-time]").inner_text()
    phone.fill('[data-field="lost"]', "3")
    phone.fill('[data-field="adjacent"]', "1")
    phone.get_by_role("button", name="Show the entrant").click()
    error = phone.locator("[data-timed-error]")
    expect(error).to_contain_text("two or more side by side")
    shot(phone, "dm-1-one-adjacent-piece-refused")

    phone.fill('[data-field="adjacent"]', "2")
    try:
        phone.context.set_offline(True)
        phone.get_by_role("button", name="Show the entrant").click()
        # Offline, the phone works out the final time: one lost piece is not adjacent.
        expect(phone.locator("[data-review-source]")).to_have_text("computed on this phone")
        hours, minutes, seconds = (int(part) for part in tapped.split(":"))
        on_phone = ((hours * 60 + minutes) * 60 + seconds + 10) * 1000
        expect(phone.locator("[data-review-value]").first).to_have_text(duration(on_phone))
        detail = phone.locator("[data-review-detail]").first
        expect(detail).to_contain_text("+ 10 s penalty")
        expect(detail).to_contain_text("2 adjacent pieces lost: no penalty for them.")
        shot(phone, "dm-2-offline-final-time")
    finally:
        phone.context.set_offline(False)
    expect(phone.locator("[data-review-source]")).to_have_text("as saved", timeout=20_000)
    result = Result.objects.get(entry=dm.entry)
    assert (result.missing_lost, result.adjacent_missing, result.penalty_ms) == (3, 2, 10_000)
    expect(phone.locator("[data-review-value]").first).to_have_text(duration(result.final_ms))
    shot(phone, "dm-3-saved")


def test_sm_asks_for_the_missing_pieces_only(phone, live_server):
    sm = floor("sm")
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, sm.judge, sm.table.get_absolute_url())
    phone.get_by_role("button", name="TIME", exact=True).click()
    # The tap is stored before the judge goes on: one capture in flight at a time.
    expect(phone.locator("[data-save-state]")).to_have_text("saved")
    expect(phone.locator('[data-field="found"]')).to_have_count(0)
    expect(phone.locator('[data-field="adjacent"]')).to_have_count(0)
    expect(phone.locator("label[for=lost-1]")).to_contain_text("Missing")
    phone.fill('[data-field="lost"]', "11")
    shot(phone, "sm-1-eleven-missing")
    phone.get_by_role("button", name="Show the entrant").click()
    expect(phone.locator('[data-step-panel="review"]')).to_be_visible()
    expect(phone.locator("[data-review-detail]").first).to_contain_text(
        "More than 10 pieces missing: the attempt is invalid."
    )
    expect(phone.locator("[data-review-source]")).to_have_text("as saved")
    assert Result.objects.get(entry=sm.entry).outcome == "invalid"
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"


def test_the_phone_refuses_a_count_of_two_pieces_before_sending(phone, live_server):
    late = floor("rogaland", minutes_ago=121)
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, late.judge, late.table.get_absolute_url())
    expect(phone.get_by_text("Count the pieces")).to_be_visible()
    phone.fill('[data-field="remaining"]', "498")
    phone.locator('[data-step-panel="timeup"]').get_by_role(
        "button", name="Show the entrant"
    ).click()
    expect(phone.locator("[data-count-error]")).to_contain_text(
        "Pieces remaining must be 500 or from 1 to 497"
    )
    shot(phone, "count-1-two-pieces-refused")
    assert not Result.objects.filter(entry=late.entry).exclude(status="pending").exists()
    phone.fill('[data-field="remaining"]', "20")
    phone.locator('[data-step-panel="timeup"]').get_by_role(
        "button", name="Show the entrant"
    ).click()
    expect(phone.locator("[data-review-source]")).to_have_text("as saved")
    assert Result.objects.get(entry=late.entry).counted_pieces == 480
