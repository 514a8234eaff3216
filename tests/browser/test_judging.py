"""The judge's phone in a real browser: TIME, missing pieces, confirmation, and no network."""

import json
import os
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Seat
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.models import Capture
from judging.services import capture_record
from results.models import Result
from tests import factories
from tests.browser.conftest import forget_the_phone, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user
SCREENSHOTS = os.environ.get("JUDGING_SCREENSHOTS")  # a folder, to look at the phone screens


@pytest.fixture
def live(db):
    """A rogaland heat started five minutes ago, one entry at table 1, and the staff."""
    championship = factories.championship(slug="rm-phone", name="RM on the phone")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    table = factories.table(championship)
    entry = factories.entry(individual, name="Ingrid Hansen", represents="NO")
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=table, entry=entry)
    heat = rounds.heat_start(heat=heat)
    heat.started_at = timezone.now() - timedelta(minutes=5)
    heat.save()
    return SimpleNamespace(
        championship=championship,
        round=round_,
        heat=heat,
        table=table,
        entry=entry,
        judge=factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy"),
        organiser=factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga"),
        queue_key=f"judging-queue:{championship.slug}",
    )


def english(page, live_server):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )


def shot(page, name):
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


def queued(page, key):
    return json.loads(page.evaluate(f"localStorage.getItem({json.dumps(key)}) || '[]'"))


def test_a_judge_records_a_time_with_a_piece_found_later_and_the_entrant_confirms(
    phone, live_server, live
):
    forget_the_phone(phone, live_server)
    path = live.table.get_absolute_url()
    log_in(phone, live_server, "judy", path)
    expect(phone.locator(".table-number")).to_have_text("Table 1")
    expect(phone.locator(".entry-name")).to_have_text("Ingrid Hansen NO")
    expect(phone.locator(".entry-name abbr")).to_have_attribute("title", "Norway")
    expect(phone.locator("[data-clock]")).to_contain_text("0:0")  # about five minutes in
    time_button = phone.get_by_role("button", name="TIME", exact=True)
    box = time_button.bounding_box()
    assert box["width"] >= 300 and box["height"] >= 150, "TIME must be thumb-sized"
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    shot(phone, "1-before-time")

    time_button.click()
    state = phone.locator("[data-save-state]")
    expect(state).to_have_text("saved")
    tapped = phone.locator("[data-tap-time]").inner_text()
    assert tapped.startswith("0:05:") or tapped.startswith("0:04:")
    phone.get_by_role("button", name="One more").first.click()  # one piece found later
    expect(phone.locator('[data-field="found"]')).to_have_value("1")
    shot(phone, "2-after-time")

    phone.get_by_role("button", name="Show the entrant").click()
    expect(state).to_have_text("saved")
    result = Result.objects.get(entry=live.entry)
    assert (result.missing_found, result.penalty_ms) == (1, 5000)
    final = phone.locator("[data-review-value]").first
    seconds = result.final_seconds
    expect(final).to_have_text(f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}")
    expect(phone.locator("[data-review-source]")).to_have_text("as saved")
    expect(phone.locator("[data-review-detail]").first).to_contain_text("+ 5 s penalty")
    shot(phone, "3-show-the-entrant")

    phone.get_by_role("button", name="Confirmed by the entrant").click()
    expect(phone.locator(".confirmed-badge")).to_be_visible()
    expect(state).to_have_text("saved")
    expect(phone.get_by_role("button", name="TIME", exact=True)).to_be_hidden()
    expect(phone.get_by_role("button", name="Show the entrant")).to_be_hidden()
    shot(phone, "4-confirmed")
    result.refresh_from_db()
    assert result.confirmed_at is not None and result.status == "finished"
    kinds = list(Capture.objects.order_by("received_at", "id").values_list("kind", flat=True))
    assert kinds == ["finish", "finish", "confirm"]
    assert queued(phone, live.queue_key) == []

    # A reload shows the confirmed time, with no controls for a judge.
    phone.reload()
    expect(phone.locator(".confirmed-badge")).to_be_visible()
    expect(phone.locator("[data-correct-form]")).to_have_count(0)

    # The organiser sees it on the round's dashboard.
    phone.context.clear_cookies()
    dashboard = f"/{live.championship.slug}/manage/rounds/{live.round.key}/dashboard/"
    log_in(phone, live_server, "orga", dashboard)
    row = phone.locator("table.judging-entries tbody tr").first
    expect(row).to_contain_text("Ingrid Hansen")
    expect(row).to_contain_text("confirmed")
    expect(row).to_contain_text("(+5 s)")
    history = phone.locator("table.captures tbody")
    expect(history).to_contain_text("Confirmed by the entrant")
    expect(history).to_contain_text("1 found later")
    expect(history).to_contain_text("judy")


def test_a_time_tapped_offline_is_kept_and_sent_when_the_network_returns(phone, live_server, live):
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, "judy", live.table.get_absolute_url())
    expect(phone.locator("[data-clock-state]")).to_contain_text("±")  # the offset is measured
    state = phone.locator("[data-save-state]")
    try:
        phone.context.set_offline(True)
        # The phone taps on the server's clock (server_clock.js), not on its own.
        tapped_ms = phone.evaluate("ServerClock.now()")
        phone.get_by_role("button", name="TIME", exact=True).click()
        expect(state).to_have_text("waiting for network — kept on this phone")
        expect(phone.locator("[data-queue-state]")).to_contain_text("1 capture waiting")
        (kept,) = queued(phone, live.queue_key)
        assert (kept["kind"], kept["entry"]) == ("finish", live.entry.ref)
        assert not Capture.objects.exists()
        phone.wait_for_timeout(3000)
        assert len(queued(phone, live.queue_key)) == 1
    finally:
        phone.context.set_offline(False)
    expect(state).to_have_text("saved", timeout=20_000)
    assert queued(phone, live.queue_key) == []
    capture = Capture.objects.get()
    assert str(capture.client_id) == kept["id"]
    result = Result.objects.get(entry=live.entry)
    expected = tapped_ms - live.heat.started_at.timestamp() * 1000
    assert abs(result.time_ms - expected) <= 1000, (result.time_ms, expected)
    assert capture.received_at - capture.device_at >= timedelta(seconds=2)  # sent late, timed right


def test_a_capture_left_in_the_queue_is_sent_when_the_page_loads(phone, live_server, live):
    forget_the_phone(phone, live_server)
    path = live.table.get_absolute_url()
    log_in(phone, live_server, "judy", path)
    # From the heat's start, not from the clock, so that the time does not depend on how
    # long the log-in took; half a second into the second, so that no millisecond lost
    # on the way can change the second shown (times are truncated, never rounded).
    at = live.heat.started_at + timedelta(minutes=4, seconds=40, milliseconds=500)
    item = {
        "id": "0b7e7a52-8a9f-4c55-9a53-2f1b0d7c6e11",
        "round": live.round.key,
        "entry": live.entry.ref,
        "kind": "finish",
        "where": "Table 1",
        "queuedAt": 0,
        "body": {
            "id": "0b7e7a52-8a9f-4c55-9a53-2f1b0d7c6e11",
            "round": live.round.key,
            "entry": live.entry.ref,
            "kind": "finish",
            "at": at.isoformat(),
            "missing_found": 0,
            "missing_lost": 0,
        },
    }
    # The queue is left from a page without the judge's script: the table page would
    # send it at its next retry, before the load this test is about.
    phone.goto(f"{live_server.url}/health/")
    phone.evaluate(
        "([key, item]) => localStorage.setItem(key, JSON.stringify([item, item]))",
        [live.queue_key, item],
    )
    phone.goto(f"{live_server.url}{path}")
    expect(phone.locator("[data-queue-state]")).to_have_text("Everything is saved.")
    assert Capture.objects.count() == 1  # the same capture twice is stored once
    assert Result.objects.get(entry=live.entry).time_ms == 280_500
    expect(phone.locator("[data-tap-time]")).to_have_text("0:04:40")


def test_a_refused_capture_is_shown_and_leaves_the_queue(phone, live_server, live):
    forget_the_phone(phone, live_server)
    other = factories.role(live.championship, ChampionshipRole.Role.JUDGE, username="otto")
    log_in(phone, live_server, "judy", live.table.get_absolute_url())
    capture_record(
        round_=live.round,
        entry=live.entry,
        judge=other,
        data=CaptureInput(
            client_id="6f1c8f7e-1d1e-4a55-9e58-0c3b1d5f7a20",
            kind="finish",
            at=timezone.now() - timedelta(seconds=5),
        ),
    )
    phone.get_by_role("button", name="TIME", exact=True).click()
    expect(phone.locator("[data-refusal]")).to_contain_text("otto already recorded")
    assert queued(phone, live.queue_key) == []
    assert Capture.objects.count() == 1


def test_nobody_without_a_judges_role_can_record(page, live_server, live):
    forget_the_phone(page, live_server)
    english(page, live_server)
    api = f"{live_server.url}/api/v1/championships/{live.championship.slug}/captures/"
    body = {
        "id": "3d0c2c8e-4b8a-4f0e-8a53-7d1f6e2a9b10",
        "round": live.round.key,
        "entry": live.entry.ref,
        "kind": "finish",
        "at": timezone.now().isoformat(),
    }
    page.goto(f"{live_server.url}{live.table.get_absolute_url()}")
    assert "/accounts/login/" in page.url  # anonymous: asked to log in
    anonymous = page.request.post(api, data=body)
    assert anonymous.status in (401, 403)

    factories.user(username="pia")  # a participant: an account, no role
    page.fill("input[name=username]", "pia")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit].primary").click()
    page.wait_for_url(f"{live_server.url}{live.table.get_absolute_url()}")
    expect(page.locator("main")).to_contain_text("You cannot record anything here")
    expect(page.get_by_role("button", name="TIME", exact=True)).to_have_count(0)
    status = page.evaluate(
        """async ([url, body]) => {
            const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
            const response = await fetch(url, {
                method: "POST", credentials: "same-origin",
                headers: {"Content-Type": "application/json",
                          "X-CSRFToken": token ? token.split("=")[1] : ""},
                body: JSON.stringify(body),
            });
            return response.status;
        }""",
        [api, body],
    )
    assert status == 403
    assert not Capture.objects.exists()


def test_the_dashboard_refreshes_by_itself(page, live_server, live):
    dashboard = f"/{live.championship.slug}/manage/rounds/{live.round.key}/dashboard/"
    log_in(page, live_server, "orga", dashboard)
    row = page.locator("table.judging-entries tbody tr").first
    expect(row).to_contain_text("Puzzling")
    capture_record(
        round_=live.round,
        entry=live.entry,
        judge=live.judge,
        data=CaptureInput(
            client_id="9a4f8d2e-6b1c-4e7a-8f3d-5c2b1a0e9d87",
            kind="finish",
            at=timezone.now() - timedelta(seconds=10),
        ),
    )
    expect(row).to_contain_text("awaiting confirmation", timeout=12_000)
    expect(page.locator("table.captures tbody")).to_contain_text("Finish (TIME)")
