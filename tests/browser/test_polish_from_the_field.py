"""Polish from the field, as people see it: staff by their names, a withdrawn entry owing
nothing, a waiting entry's own withdraw sentence, no empty puzzle line, the scanner saying
an entry is withdrawn, and a start months ahead asking first.

Organisers and head judges on a laptop, entrants and the check-in desk on a phone.
"""

import io
import uuid
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone
from PIL import Image
from playwright.sync_api import expect

from championship import staff_links
from championship.models import ChampionshipRole, Heat
from championship.services import tables_create
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from registration import checkin
from results import official
from tests import factories
from tests.browser.conftest import CHROMIUM, CONTEXT, FLAGS, PHONE, english, sign_in
from tests.browser.screens import shot
from tests.browser.test_checkin_scan import y4m

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

Role = ChampionshipRole.Role
AREA = "polish"
START = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)
TIME_UP = START + timedelta(minutes=100)


def sm_heat(slug: str, entrants: int = 3):
    """An sm championship: the individual prelim's one heat started at START; its staff."""
    championship = factories.championship(slug=slug, ruleset="sm", name="Pussel-SM")
    individual = championship.categories.get(kind="individual")
    prelim = individual.rounds.order_by("order").first()
    tables_create(championship=championship, count=entrants + 1)
    entries = [
        factories.entry(
            individual,
            members=[factories.person(championship, name=name, citizenship=["SE"])],
            checked_in_at=START,
        )
        for name in ("Anna Ek", "Bo Lind", "Cia Berg")[:entrants]
    ]
    factories.started_heat(prelim, started_at=START)
    organiser = factories.role(championship, Role.ORGANISER, username="kari")

    def staff(name, role):
        link = staff_links.link_create(
            championship=championship, name=name, role=role, by=organiser, send=False
        )
        return link.user

    return championship, prelim, entries, organiser, staff


def record(prelim, entry, judge, **data):
    at = data.pop("at", None)
    capture_record(
        round_=prelim,
        entry=entry,
        judge=judge,
        data=CaptureInput(client_id=uuid.uuid4(), at=at, **data),
        now=at or TIME_UP,
    )


def test_the_head_judge_reads_the_judges_names_in_the_dispute_and_the_log(laptop, live_server):
    championship, prelim, entries, _organiser, staff = sm_heat("sm-names")
    greta, gustav = staff("Greta Domare", Role.JUDGE), staff("Gustav Domare", Role.JUDGE)
    hugo = staff("Hugo Huvuddomare", Role.HEAD_JUDGE)
    record(prelim, entries[1], greta, kind="finish", at=START + timedelta(minutes=40))
    record(prelim, entries[0], greta, kind="pieces", pieces_placed=300)
    record(prelim, entries[0], gustav, kind="pieces", pieces_placed=310)
    sign_in(laptop, live_server, hugo)
    laptop.goto(f"{live_server.url}/{championship.slug}/manage/rounds/{prelim.key}/dashboard/")
    disputes = laptop.locator(".dispute-counts")
    expect(disputes).to_contain_text("Greta Domare counted 300 pieces placed")
    expect(disputes).to_contain_text("Gustav Domare counted 310 pieces placed")
    log = laptop.locator("table.captures tbody")
    expect(log.locator("td", has_text="Greta Domare")).to_have_count(2)
    expect(log.locator("td", has_text="Gustav Domare")).to_have_count(1)
    expect(laptop.locator("main")).not_to_contain_text(greta.get_username())
    shot(laptop, "1-dashboard-names", area=AREA)


def test_the_round_page_says_who_signed_off_by_name(laptop, live_server):
    championship, prelim, entries, organiser, staff = sm_heat("sm-signed")
    greta, hugo = staff("Greta Domare", Role.JUDGE), staff("Hugo Huvuddomare", Role.HEAD_JUDGE)
    for minutes, entry in enumerate(entries, start=40):
        record(prelim, entry, greta, kind="finish", at=START + timedelta(minutes=minutes))
    rounds.round_close(round_=prelim)
    official.round_sign_off(round_=prelim, by=hugo, now=timezone.now() + timedelta(hours=1))
    sign_in(laptop, live_server, organiser)
    laptop.goto(f"{live_server.url}/{championship.slug}/manage/rounds/{prelim.key}/")
    signed = laptop.locator("[data-results-state=official]")
    expect(signed).to_contain_text("by Hugo Huvuddomare.")
    expect(signed).not_to_contain_text(hugo.get_username())
    shot(laptop, "2-round-signed-off-by", area=AREA)


@pytest.fixture
def rm(db):
    """A Norwegian championship next year: its individual fee is 200 kr."""
    return factories.championship(
        slug="rm-polish",
        name="Rogalandsmesterskapet",
        starts_at=datetime(factories.NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
    )


def test_an_entrant_withdrawn_unpaid_owes_nothing_and_a_waiting_one_leaves_the_list(
    phone, live_server, rm
):
    english(phone, live_server)
    individual = rm.categories.get(kind="individual")
    gone = factories.entry(
        individual, name="Ola Borte", status="withdrawn", withdrawn_at=timezone.now(), fee=200
    )
    phone.goto(f"{live_server.url}/{rm.slug}/entries/{gone.manage_token}/")
    fee = phone.locator("dt:has-text('Fee') + dd")
    expect(fee).to_have_text("Nothing to pay")
    expect(phone.locator("main")).not_to_contain_text("Unpaid")
    shot(phone, "3-withdrawn-nothing-to-pay", area=AREA)

    waiting = factories.entry(individual, name="Kari Venter", status="waitlisted", fee=200)
    phone.goto(f"{live_server.url}/{rm.slug}/entries/{waiting.manage_token}/")
    box = phone.locator("form.withdraw")
    expect(box.locator("label")).to_have_text(
        "Yes, withdraw this entry. It leaves the waiting list."
    )
    expect(box).not_to_contain_text("The place goes to")
    box.locator("label").scroll_into_view_if_needed()
    shot(phone, "4-waiting-withdraw-box", area=AREA)


def test_a_started_category_with_no_puzzle_entered_shows_no_empty_puzzle_line(
    phone, live_server, rm
):
    english(phone, live_server)
    for kind, brand in (("individual", ""), ("pair", "Ravensburger")):
        category = rm.categories.get(kind=kind)
        category.puzzle_brand = brand
        category.save(update_fields=["puzzle_brand"])
        heat = factories.heat(category.rounds.get())
        heat.started_at, heat.state = timezone.now(), Heat.State.RUNNING
        heat.save()
    phone.goto(f"{live_server.url}/{rm.slug}/")
    cards = phone.locator("#categories-heading + ul.cards > li.card")
    individual, pair, team = (cards.nth(index) for index in range(3))
    expect(individual.locator("h3")).to_have_text("Individual")
    expect(individual.locator("dt", has_text="Puzzle")).to_have_count(0)
    expect(pair.locator("dd.puzzle")).to_have_text("Ravensburger")
    expect(team.locator("dl")).to_contain_text("Revealed at the start")
    shot(phone, "5-championship-no-empty-puzzle", area=AREA)


def test_the_desk_scanning_a_withdrawn_entry_is_told_it_cannot_be_checked_in(
    playwright, live_server, rm, tmp_path, settings
):
    settings.SITE_URL = live_server.url
    individual = rm.categories.get(kind="individual")
    # The entrant withdrew after the confirmation mail: its code still scans.
    entry = factories.entry(
        individual, name="Ola Borte", status="withdrawn", withdrawn_at=timezone.now(), fee=200
    )
    organiser = factories.role(rm, Role.ORGANISER, username="desk")
    video = tmp_path / "camera.y4m"
    y4m(Image.open(io.BytesIO(checkin.checkin_png(entry))), video)
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[
            *FLAGS,
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )
    try:
        desk = browser.new_context(viewport=PHONE, permissions=["camera"], **CONTEXT)
        page = desk.new_page()
        page.set_default_timeout(15_000)
        sign_in(page, live_server, organiser)
        page.goto(f"{live_server.url}/{rm.slug}/manage/checkin/")
        page.get_by_role("button", name="Scan a check-in code").click()
        status = page.locator("[data-scan-status]")
        expect(status).to_have_text("Found: this entry is withdrawn and cannot be checked in.")
        scanned = page.locator("#checkin-scanned-slot .checkin-row")
        expect(scanned).to_contain_text("Ola Borte")
        expect(scanned).to_contain_text("Withdrawn")
        expect(scanned.get_by_role("button", name="Check in")).to_have_count(0)
        # Said once: in the scanner's status line, not again above the entry.
        expect(page.locator("#checkin-scanned-slot [data-scan-found]")).to_be_hidden()
        shot(page, "6-scanned-withdrawn", area=AREA)
    finally:
        browser.close()
    entry.refresh_from_db()
    assert entry.checked_in_at is None


# Pussel-SM on Saturday 20 March 2027; the organiser tries the start on 1 December 2026.
SM_STARTS_AT = datetime(2027, 3, 20, 9, 0, tzinfo=UTC)
MONTHS_AHEAD = datetime(2026, 12, 1, 13, 0, tzinfo=UTC)


def test_starting_a_heat_months_ahead_asks_first_and_cancel_leaves_it(laptop, live_server):
    with time_machine.travel(MONTHS_AHEAD, tick=True):
        championship = factories.championship(
            slug="sm-early", name="Pussel-SM 2027", ruleset="sm", starts_at=SM_STARTS_AT
        )
        tables_create(championship=championship, count=4)
        individual = championship.categories.get(kind="individual")
        for _ in range(3):
            factories.entry(individual, checked_in_at=timezone.now())
        prelim = individual.rounds.order_by("order").first()
        rounds.round_seat(round_=prelim, plan=rounds.SeatingPlan(heats=1))
        sign_in(laptop, live_server, factories.role(championship, Role.ORGANISER))
        control = f"{live_server.url}/{championship.slug}/manage/rounds/{prelim.key}/"
        laptop.goto(control)
        laptop.get_by_role("button", name="Start Heat A").click()
        expect(laptop.locator("h1")).to_have_text("Start Heat A?")
        early = laptop.locator(".start-early")
        expect(early).to_contain_text("Before the championship’s date")
        expect(early).to_contain_text(
            "The championship is on 20 March 2027, and today is 1 December 2026"
        )
        expect(early.get_by_role("link", name="Edit championship")).to_be_visible()
        shot(laptop, "7-start-early", area=AREA)
        laptop.get_by_role("link", name="Cancel").click()
        expect(laptop.locator("h1")).to_have_text("Individual: Preliminary round")
        assert prelim.heats.get().started_at is None

        laptop.get_by_role("button", name="Start Heat A").click()
        laptop.get_by_role("button", name="Start anyway").click()
        expect(laptop.locator(".messages")).to_contain_text("Heat A started at")
        assert prelim.heats.get().state == Heat.State.RUNNING
