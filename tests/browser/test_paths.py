"""Paths between the staff's screens on a laptop: home, control room, dashboard, tables and back."""

import os
import re
import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Heat
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from judging.capture_kinds import CaptureInput
from judging.models import Capture
from judging.services import capture_record
from tests import factories
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

Role = ChampionshipRole.Role
SHOTS = "/tmp/shots/paths"


def shot(page, name):
    """Keep a screenshot to look at, when SCREENSHOTS is set."""
    if os.environ.get("SCREENSHOTS"):
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


@pytest.fixture
def day(db):
    """Rogaland: the individual final running at tables 1-4, the pairs seated at 1-2; the staff."""
    championship = factories.championship(slug="rm-day", name="Rogalandsmesterskapet 2026")
    tables_create(championship=championship, count=6)
    individual = championship.categories.get(kind="individual")
    pairs = championship.categories.get(kind="pair")
    names = ("Ingrid Hansen", "Ola Berg", "Kari Lie", "Per Dahl")
    entries = [factories.entry(individual, name=name) for name in names]
    factories.entry(pairs, name="Anna & Bo")
    factories.entry(pairs, name="Eva & Jon")
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    rounds.round_seat(round_=pairs.rounds.get(), plan=SeatingPlan(heats=1))
    (heat,) = rounds.round_start(round_=final)
    heat.started_at = timezone.now() - timedelta(minutes=50)
    heat.save()
    staff = {
        "organiser": factories.role(championship, Role.ORGANISER, username="orga"),
        "head judge": factories.role(championship, Role.HEAD_JUDGE, username="hedda"),
        "judge": factories.role(championship, Role.JUDGE, username="judy"),
    }
    return SimpleNamespace(
        championship=championship,
        final=final,
        heat=heat,
        entries=entries,
        pairs=pairs.rounds.get(),
        staff=staff,
    )


def finish(day, entry, minutes):
    capture_record(
        round_=day.final,
        entry=entry,
        judge=day.staff["judge"],
        data=CaptureInput(
            client_id=uuid.uuid4(),
            kind="finish",
            at=day.heat.started_at + timedelta(minutes=minutes),
        ),
    )


def test_an_organiser_lands_on_their_championship_and_goes_round_and_back(laptop, live_server, day):
    page = laptop
    log_in(page, live_server, "orga")
    mine = page.locator("section.staff")
    expect(mine.get_by_role("heading", name="Your championships")).to_be_visible()
    expect(mine).to_contain_text("Rogalandsmesterskapet 2026")
    expect(mine.get_by_role("link", name="Judging: Individual, Final")).to_be_visible()
    shot(page, "1-home-organiser")

    mine.get_by_role("link", name="Control room").click()
    expect(page.get_by_role("heading", name="Control room", exact=True)).to_be_visible()
    shot(page, "2-control-room")
    page.get_by_role("link", name="Control the round").first.click()
    expect(page.locator("h1")).to_have_text("Individual: Final")
    shot(page, "2b-round-control")
    breadcrumb = page.get_by_role("navigation", name="Breadcrumb")
    breadcrumb.get_by_role("link", name="Control room").click()
    expect(page.get_by_role("heading", name="Control room", exact=True)).to_be_visible()
    page.get_by_role("link", name="Tables and QR codes").click()
    expect(page.locator("h1")).to_have_text("Tables")
    page.get_by_role("navigation", name="Breadcrumb").get_by_role(
        "link", name="Control room"
    ).click()
    page.get_by_role("link", name="Entries", exact=True).click()
    expect(page.locator("h1")).to_have_text("Entries")
    breadcrumb = page.get_by_role("navigation", name="Breadcrumb")
    expect(breadcrumb.get_by_role("link", name="Rogalandsmesterskapet 2026")).to_be_visible()
    breadcrumb.get_by_role("link", name="Control room").click()
    expect(page.get_by_role("heading", name="Control room", exact=True)).to_be_visible()

    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Judging: Individual, Final").click()
    expect(page.locator("h1")).to_have_text("Judging: Individual, Final")
    page.get_by_role("navigation", name="Breadcrumb").get_by_role(
        "link", name="Individual: Final"
    ).click()
    expect(page.locator("h1")).to_have_text("Individual: Final")


def test_a_head_judge_lands_on_the_dashboard_link(laptop, live_server, day):
    page = laptop
    log_in(page, live_server, "hedda")
    mine = page.locator("section.staff")
    expect(mine.get_by_role("link", name="Control room")).to_have_count(0)
    shot(page, "3-home-head-judge")
    mine.get_by_role("link", name="Judging: Individual, Final").click()
    expect(page.locator("h1")).to_have_text("Judging: Individual, Final")
    breadcrumb = page.get_by_role("navigation", name="Breadcrumb")
    expect(breadcrumb.get_by_role("link", name="Control room")).to_have_count(0)
    expect(breadcrumb.get_by_role("link", name="Rogalandsmesterskapet 2026")).to_be_visible()


def test_a_judge_lands_on_the_tables(laptop, live_server, day):
    page = laptop
    log_in(page, live_server, "judy")
    tables = page.locator("details.staff-tables")
    expect(tables).to_have_attribute("open", "")
    expect(tables.locator(".table-links a")).to_have_count(6)
    shot(page, "4-home-judge")
    page.set_viewport_size({"width": 390, "height": 844})  # the judge's phone
    expect(tables.locator(".table-links a").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "4b-home-judge-phone")
    tables.get_by_role("link", name="Table 2").click()
    expect(page.locator(".table-number")).to_have_text("Table 2")


@pytest.mark.long
def test_a_head_judge_corrects_a_result_of_a_closed_round_while_the_dashboard_refreshes(
    laptop, live_server, day
):
    page = laptop
    first, second = day.entries[:2]
    finish(day, first, 40)
    finish(day, second, 41)
    rounds.round_close(round_=day.final)
    log_in(page, live_server, "hedda")
    page.goto(f"{live_server.url}/{day.championship.slug}/manage/rounds/{day.final.key}/dashboard/")
    row = page.locator(f"#result-{first.pk}")
    expect(row).to_contain_text("0:40:00")
    row.locator("details.row-correct summary").click()
    form = row.locator("form.correct-form")
    expect(form).to_be_visible()
    expect(form.locator("input[name=time]")).to_be_focused()
    expect(page.locator(".refresh-paused")).to_be_visible()
    form.locator("input[name=time]").fill("0:39:15")
    form.locator("textarea[name=reason]").fill("The judge read the clock late")
    shot(page, "5-dashboard-correction-open")

    # Something changes meanwhile; the refresh (every 5 s) must not wipe what is typed.
    capture_record(
        round_=day.final,
        entry=day.entries[2],
        judge=day.staff["head judge"],
        data=CaptureInput(client_id=uuid.uuid4(), kind="dns", reason="Not seen"),
    )
    page.wait_for_timeout(6500)
    expect(form.locator("input[name=time]")).to_have_value("0:39:15")
    expect(form.locator("textarea[name=reason]")).to_have_value("The judge read the clock late")
    expect(page.locator("table.captures")).not_to_contain_text("Not seen")

    form.get_by_role("button", name="Record the correction").click()
    expect(page.locator(".messages")).to_contain_text(
        f"The correction of {first.name} is recorded."
    )
    expect(page.locator(f"#result-{first.pk}")).to_contain_text("0:39:15")
    expect(page.locator("table.captures")).to_contain_text("The judge read the clock late")
    correction = Capture.objects.get(kind="correction")
    assert (correction.elapsed_ms, correction.judge.username) == (39 * 60_000 + 15_000, "hedda")
    # With no correction open, the refresh runs again.
    expect(page.locator("table.captures")).to_contain_text("Not seen", timeout=10_000)
    shot(page, "6-dashboard-corrected")


def test_a_correction_opened_late_leaves_the_cursor_in_the_field_typed_into(
    laptop, live_server, day
):
    """The toggle event comes after the opening: a field chosen by then keeps the cursor.

    On a busy phone or laptop a tap into the reason can come before the event that puts the
    cursor in the time field; the reason typed next must not go on in the time field.
    """
    page = laptop
    finish(day, day.entries[0], 40)
    log_in(page, live_server, "hedda")
    page.goto(f"{live_server.url}/{day.championship.slug}/manage/rounds/{day.final.key}/dashboard/")
    row = page.locator(f"#result-{day.entries[0].pk}")
    # Opened and the reason chosen in one task: the toggle event is queued after both.
    row.locator("details.row-correct").evaluate(
        "(details) => { details.open = true; details.querySelector('[name=reason]').focus(); }"
    )
    reason = row.locator("textarea[name=reason]")
    expect(reason).to_be_focused()
    page.keyboard.type("Read late")
    expect(reason).to_have_value("Read late")
    expect(row.locator("input[name=time]")).to_have_value("0:40:00")


def test_a_refused_correction_stays_open_with_the_services_message(laptop, live_server, day):
    page = laptop
    finish(day, day.entries[0], 40)
    log_in(page, live_server, "hedda")
    page.goto(f"{live_server.url}/{day.championship.slug}/manage/rounds/{day.final.key}/dashboard/")
    row = page.locator(f"#result-{day.entries[0].pk}")
    row.locator("details.row-correct summary").click()
    form = row.locator("form.correct-form")
    form.locator("input[name=pieces_placed]").fill("2")
    form.locator("select[name=status]").select_option("unfinished")
    form.locator("textarea[name=reason]").fill("Counted again")
    # What is sent is what was typed: the refresh keeps an open correction as it is.
    expect(row.locator("details.row-correct")).to_have_attribute("open", "")
    expect(form.locator("input[name=pieces_placed]")).to_have_value("2")
    expect(form.locator("select[name=status]")).to_have_value("unfinished")
    with page.expect_navigation():
        form.get_by_role("button", name="Record the correction").click()
    assert "/correct/" in page.url, f"the correction was not refused: {page.url}"
    row = page.locator(f"#result-{day.entries[0].pk}")
    expect(row.locator("details.row-correct")).to_have_attribute("open", "")
    expect(row.locator(".errors")).to_contain_text("Pieces placed must be 0 or from 3")
    expect(row.locator("textarea[name=reason]")).to_have_value("Counted again")
    shot(page, "7-dashboard-correction-refused")
    assert not Capture.objects.filter(kind="correction").exists()


def test_a_heat_not_started_is_waiting_on_the_dashboard(laptop, live_server, day):
    page = laptop
    log_in(page, live_server, "orga")
    page.goto(f"{live_server.url}/{day.championship.slug}/manage/rounds/{day.pairs.key}/dashboard/")
    board = page.locator("section.heat-board")
    expect(board.locator(".count-waiting")).to_have_text(re.compile(r"2\s+waiting for the start"))
    expect(board).not_to_contain_text("puzzling")
    expect(board.locator("tbody tr").first).to_contain_text("Waiting for the start")
    shot(page, "8-dashboard-waiting")


def test_starting_a_heat_at_tables_in_use_asks_first(laptop, live_server, day):
    page = laptop
    log_in(page, live_server, "orga")
    page.goto(f"{live_server.url}/{day.championship.slug}/manage/rounds/{day.pairs.key}/")
    page.get_by_role("button", name="Start Heat A").click()
    expect(page.locator("h1")).to_have_text("Start Heat A?")
    expect(page.locator(".start-warning")).to_contain_text(
        "Individual: Final, Heat A is running at tables 1–2."
    )
    shot(page, "9-start-confirm")
    assert day.pairs.heats.get().state == Heat.State.SCHEDULED
    page.get_by_role("link", name="Cancel").click()
    expect(page.locator("h1")).to_have_text("Pair: Final")
    page.get_by_role("button", name="Start Heat A").click()
    page.get_by_role("button", name="Start anyway").click()
    expect(page.locator(".messages")).to_contain_text("Heat A started at")
    assert day.pairs.heats.get().state == Heat.State.RUNNING
