"""The judge's phone follows the heat: start, time-up, corrections, a new heat, refusals, offline.

At a 390 by 844 phone. The page asks the table's state every few seconds and
updates itself without a reload (a marker set in the page survives to show it);
a new heat reloads the page only when nothing waits and nothing is half done. A
refused confirmation never shows "Confirmed". At a shared table both TIME buttons
are on one screen. A reload while the network is down shows the page kept by the
service worker, and a tap there is queued and sent once the network returns.
"""

import os
import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone, translation
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Seat
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.models import Capture
from judging.services import capture_record
from registration.models import Entry
from results.models import Result
from tests import factories
from tests.browser.conftest import forget_the_phone, log_in
from tests.browser.offline import wait_for_kept_copy
from tests.browser.test_judging import queued

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page asks every 4 s; a few polls' worth of patience.
FOLLOWS = 15_000


def shot(page, name):
    if os.environ.get("SCREENSHOTS"):
        folder = "/tmp/shots/judge-phone"
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def floor(slug, *, seats=1, names=("Ingrid Hansen",), started=True):
    """A rogaland round with heat a at table 1 (started five minutes ago), and the staff."""
    championship = factories.championship(slug=slug, name="RM following")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    table = factories.table(championship, seats=seats)
    heat = factories.heat(round_, key="a", order=1)
    entries = [factories.entry(individual, name=name) for name in names]
    for position, entry in enumerate(entries, start=1):
        Seat.objects.create(heat=heat, table=table, entry=entry, position=position)
    if started:
        heat = rounds.heat_start(heat=heat, at=timezone.now() - timedelta(minutes=5))
    return SimpleNamespace(
        championship=championship,
        individual=individual,
        round=round_,
        heat=heat,
        table=table,
        entries=entries,
        judge=factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy"),
        head=factories.role(championship, ChampionshipRole.Role.HEAD_JUDGE, username="hedda"),
        queue_key=f"judging-queue:{championship.slug}",
    )


def record(here, entry, kind, by, **fields):
    return capture_record(
        round_=here.round,
        entry=entry,
        judge=by,
        data=CaptureInput(client_id=uuid.uuid4(), kind=kind, **fields),
    )


def mark(page):
    """Mark the page: a reload would forget the mark."""
    page.evaluate("window.notReloaded = true")


def not_reloaded(page):
    return page.evaluate("window.notReloaded === true")


def in_language(language, message):
    with translation.override(language):
        return str(translation.gettext(message))


@pytest.mark.long
def test_an_open_page_shows_the_start_and_the_time_up_of_its_heat(phone, live_server):
    here = floor("rm-follow-start", started=False)
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, "judy", here.table.get_absolute_url())
    expect(phone.locator("main")).to_contain_text("No heat is running at this table.")
    expect(phone.locator(".next-heat")).to_contain_text("Ingrid Hansen")
    time_button = phone.get_by_role("button", name="TIME", exact=True)
    expect(time_button).to_have_count(0)

    rounds.heat_start(heat=here.heat)
    # Nothing waits and nothing is half done: the page loads the started heat by itself.
    expect(time_button).to_be_visible(timeout=FOLLOWS)
    expect(phone.locator("[data-heat-state]")).to_have_text("Running")
    shot(phone, "follow-1-started")

    mark(phone)
    rounds.heat_close(heat=here.heat)
    expect(time_button).to_be_hidden(timeout=FOLLOWS)
    expect(phone.locator('[data-step-panel="timeup"]')).to_be_visible()
    expect(phone.locator('[data-step-panel="timeup"]')).to_contain_text("Count the pieces")
    expect(phone.locator("[data-heat-state]")).to_have_text("Time is up")
    assert not_reloaded(phone)
    shot(phone, "follow-2-time-up")


def test_a_correction_made_elsewhere_shows_on_the_confirmed_screen(phone, live_server):
    here = floor("rm-follow-correct")
    (entry,) = here.entries
    tap = here.heat.started_at + timedelta(minutes=4, seconds=10)
    record(here, entry, "finish", here.judge, at=tap)
    record(here, entry, "confirm", here.judge, at=timezone.now())
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, "judy", here.table.get_absolute_url())
    confirmed = phone.locator('[data-step-panel="confirmed"]')
    expect(confirmed.locator("[data-confirmed-badge]")).to_have_text("✓ Confirmed")
    expect(confirmed.locator("[data-review-value]")).to_have_text("0:04:10")
    mark(phone)

    record(here, entry, "correction", here.head, time_ms=(3 * 60 + 59) * 1000, reason="Misread")
    expect(confirmed.locator("[data-review-value]")).to_have_text("0:03:59", timeout=FOLLOWS)
    expect(confirmed.locator("[data-corrected]")).to_have_text("Corrected by a head judge.")
    expect(confirmed.locator("[data-confirmed-badge]")).to_have_text("✓ Confirmed")
    assert not_reloaded(phone)
    shot(phone, "follow-3-corrected-elsewhere")


def test_a_new_heat_waits_for_the_judge_in_the_middle_of_a_step(phone, live_server):
    here = floor("rm-follow-next")
    ola = factories.entry(here.individual, name="Ola Berg")
    second = factories.heat(here.round, key="b", order=2)
    Seat.objects.create(heat=second, table=here.table, entry=ola)
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, "judy", here.table.get_absolute_url())
    phone.get_by_role("button", name="TIME", exact=True).click()
    expect(phone.locator("[data-save-state]")).to_have_text("saved")
    phone.get_by_role("button", name="One more").first.click()  # the judge is counting
    mark(phone)

    rounds.heat_close(heat=here.heat)
    rounds.heat_start(heat=second)
    banner = phone.locator("[data-new-heat]")
    expect(banner).to_be_visible(timeout=FOLLOWS)
    expect(banner).to_contain_text("A new heat has started at this table.")
    expect(banner).to_contain_text("Finish with the entrant on this screen first.")
    # Nothing of what the judge was doing moved.
    expect(phone.locator('[data-step-panel="timed"]')).to_be_visible()
    expect(phone.locator('[data-field="found"]')).to_have_value("1")
    assert not_reloaded(phone)
    shot(phone, "follow-4-new-heat-banner")

    phone.get_by_role("button", name="Show the entrant").click()
    expect(phone.locator("[data-save-state]")).to_have_text("saved")
    phone.get_by_role("button", name="Show the new heat").click()
    expect(phone.locator(".entry-name")).to_have_text("Ola Berg")
    expect(phone.get_by_role("button", name="TIME", exact=True)).to_be_visible()
    expect(banner).to_be_hidden()
    assert Result.objects.get(entry=here.entries[0]).missing_found == 1


def test_a_refused_confirmation_never_shows_confirmed_and_says_why_in_the_pages_language(
    phone, live_server
):
    here = floor("rm-follow-refused")
    (entry,) = here.entries
    forget_the_phone(phone, live_server)
    # No language chosen: the page, and the API's refusal, speak the championship's (nb).
    path = here.table.get_absolute_url()
    log_in(phone, live_server, "judy", f"{live_server.url}{path}", language=None)
    expect(phone.locator("html")).to_have_attribute("lang", "nb")
    saved = phone.locator("[data-save-state].is-saved")
    phone.locator('[data-step-panel="puzzling"] [data-action="time"]').click()
    expect(saved).to_be_visible()
    phone.locator('[data-action="show"]').click()
    expect(phone.locator('[data-step-panel="review"]')).to_be_visible()
    expect(saved).to_be_visible()

    # The head judge disqualifies the entry before the phone hears of it: its questions
    # about the table's state do not get through meanwhile (a real answer would tell it).
    phone.route("**/state/", lambda route: route.abort())
    record(here, entry, "dsq", here.head, reason="Pieces from another puzzle")
    phone.evaluate(
        """() => {
            window.badgesSeen = [];
            const panel = document.querySelector('[data-step-panel="confirmed"]');
            const badge = panel.querySelector("[data-confirmed-badge]");
            new MutationObserver(() => {
                if (!panel.hidden) window.badgesSeen.push(badge.textContent);
            }).observe(document.body, {subtree: true, childList: true, attributes: true,
                                       characterData: true});
        }"""
    )
    phone.locator('[data-action="confirm"]').click()
    refusal = phone.locator("[data-refusal]")
    nothing_to_confirm = in_language("nb", "There is no time or piece count to confirm.")
    expect(refusal).to_contain_text(nothing_to_confirm)
    expect(phone.locator("[data-refusal-next]")).not_to_be_empty()
    expect(phone.locator('[data-step-panel="confirmed"]')).to_be_hidden()
    expect(phone.locator('[data-step-panel="review"]')).to_be_visible()
    shot(phone, "follow-5-refused-confirmation")

    # Then the entry shows what the server says: disqualified.
    phone.unroute("**/state/")
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    out = phone.locator('[data-step-panel="out"]')
    expect(out).to_be_visible(timeout=FOLLOWS)
    expect(out).to_contain_text(in_language("nb", "Disqualified"))
    expect(refusal).to_be_visible()
    seen = phone.evaluate("window.badgesSeen")
    confirmed = in_language("nb", "Confirmed")
    assert seen, "the confirmation was never shown as pending"
    assert not [text for text in seen if "✓" in text or confirmed in text], seen
    assert queued(phone, here.queue_key) == []
    assert not Capture.objects.filter(kind="confirm").exists()
    shot(phone, "follow-6-refused-then-disqualified")


def test_both_entrants_time_buttons_are_side_by_side_and_one_tap_records(phone, live_server):
    here = floor("rm-follow-shared", seats=2, names=("Ola Berg", "Kari Lie"))
    ola, kari = here.entries
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, "judy", here.table.get_absolute_url())
    ola_time = phone.get_by_role("button", name="TIME Ola Berg", exact=True)
    kari_time = phone.get_by_role("button", name="TIME Kari Lie", exact=True)
    expect(ola_time).to_be_visible()
    expect(kari_time).to_be_visible()
    left, right = ola_time.bounding_box(), kari_time.bounding_box()
    assert abs(left["y"] - right["y"]) < 2 and left["x"] + left["width"] <= right["x"]
    for box in (left, right):
        assert box["width"] >= 150 and box["height"] >= 200, f"TIME must be thumb-sized: {box}"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    expect(phone.locator(".lane-clock").first).to_contain_text("0:0")  # about five minutes in
    shot(phone, "shared-1-both-puzzling")

    kari_time.click()  # one tap: Kari's finish
    kari_screen = phone.locator("#seat-2")
    expect(kari_screen).to_be_visible()
    expect(kari_screen.locator('[data-step-panel="timed"]')).to_be_visible()
    expect(kari_screen.locator("[data-save-state]")).to_have_text("saved")
    assert Capture.objects.filter(entry=kari, kind="finish").count() == 1
    # Ola's clock and TIME stay one tap away, above Kari's screen.
    expect(phone.locator("#seat-1")).to_be_hidden()
    expect(ola_time).to_be_visible()
    box = ola_time.bounding_box()
    assert box["height"] >= 48 and box["width"] >= 48
    assert box["y"] < kari_screen.bounding_box()["y"]
    expect(phone.locator('[data-lane="0"] [data-lane-clock]')).to_contain_text("0:0")
    shot(phone, "shared-2-kari-timed")

    # The judge scrolls down to Kari's missing pieces: Ola's TIME is still on the screen.
    phone.get_by_role("button", name="Show the entrant").scroll_into_view_if_needed()
    box = ola_time.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box

    ola_time.click()
    ola_screen = phone.locator("#seat-1")
    expect(ola_screen).to_be_visible()
    expect(ola_screen.locator("[data-save-state]")).to_have_text("saved")
    expect(kari_screen).to_be_hidden()
    expect(phone.locator('[data-lane="1"] [data-lane-state]')).to_contain_text("0:05:")
    assert Capture.objects.filter(entry=ola, kind="finish").count() == 1
    shot(phone, "shared-3-ola-timed")

    phone.get_by_role("link", name="Both entrants").click()
    expect(ola_screen).to_be_hidden()
    expect(phone.locator('[data-lane="0"] [data-lane-state]')).to_contain_text("0:05:")
    expect(phone.locator('[data-lane="1"] [data-lane-state]')).to_contain_text("0:05:")
    expect(ola_time).to_be_hidden()
    shot(phone, "shared-4-both-timed")

    # Back to Ola, to the entrant's confirmation: stored, and not taken for a correction.
    phone.locator('[data-lane="0"] .lane-open').click()
    ola_screen.get_by_role("button", name="Show the entrant").click()
    ola_screen.get_by_role("button", name="Confirmed by the entrant").click()
    badge = ola_screen.locator("[data-confirmed-badge]")
    expect(badge).to_have_text("✓ Confirmed")
    phone.wait_for_function(
        """key => (JSON.parse(localStorage.getItem(key) || "null") || {seats: []})
            .seats.some((seat) => seat.result && seat.result.confirmed)""",
        arg=f"judging-table:/t/{here.table.token}/state/",
    )
    expect(ola_screen.locator("[data-corrected]")).to_be_hidden()
    expect(phone.locator('[data-lane="1"] [data-lane-state]')).to_contain_text("0:05:")
    assert Result.objects.get(entry=ola).confirmed_at is not None


def test_a_reload_while_the_network_is_down_shows_the_kept_page_and_queues_time(phone, live_server):
    here = floor("rm-follow-offline")
    (entry,) = here.entries
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, "judy", here.table.get_absolute_url())
    expect(phone.locator("[data-clock-state]")).to_contain_text("±")  # the offset is measured
    wait_for_kept_copy(phone, phone.url.split("?")[0])
    # A page from the network would show the new name: the kept copy shows the old one.
    Entry.objects.filter(pk=entry.pk).update(name="Renamed While Offline")
    try:
        phone.context.set_offline(True)
        phone.reload()
        expect(phone.locator(".entry-name")).to_have_text("Ingrid Hansen")
        # Answered by the service worker, not by the browser's own cache.
        assert phone.evaluate("performance.getEntriesByType('navigation')[0].workerStart") > 0
        expect(phone.locator("[data-clock-state]")).to_contain_text("±")  # the offset survived
        time_button = phone.get_by_role("button", name="TIME", exact=True)
        expect(time_button).to_be_visible()
        # The phone taps on the server's clock (server_clock.js), not on its own.
        tapped_ms = phone.evaluate("ServerClock.now()")
        time_button.click()
        expect(phone.locator("[data-save-state]")).to_have_text(
            "waiting for network — kept on this phone"
        )
        expect(phone.locator("[data-queue-state]")).to_contain_text("1 capture waiting")
        assert len(queued(phone, here.queue_key)) == 1
        assert not Capture.objects.exists()
        shot(phone, "offline-1-kept-page-time-queued")
    finally:
        phone.context.set_offline(False)
    expect(phone.locator("[data-save-state]")).to_have_text("saved", timeout=20_000)
    assert queued(phone, here.queue_key) == []
    capture = Capture.objects.get()
    result = Result.objects.get(entry=entry)
    expected = tapped_ms - here.heat.started_at.timestamp() * 1000
    assert abs(result.time_ms - expected) <= 1000, (result.time_ms, expected)
    assert capture.kind == "finish"
