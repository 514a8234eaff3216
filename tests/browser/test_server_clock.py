"""The running clocks of the control room and of the entrant's page keep the server's time.

Both pages load the one server-clock script (static/js/server_clock.js) that the
judge's phone and the projector use: the offset is measured against the API's
clock, and the elapsed time of a heat that started five minutes ago reads five
minutes whatever this computer's clock says.
"""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from tests import factories
from tests.browser.conftest import PHONE, log_in
from tests.browser.test_judging import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}
FIVE_MINUTES = re.compile(r"^0:0[5-6]:\d\d$")


def started_five_minutes_ago():
    championship = factories.championship(slug="clock-day")
    individual = championship.categories.get(kind="individual")
    entry = factories.entry(individual, name="Kari Klokke")
    final = individual.rounds.get()
    tables_create(championship=championship, count=1)
    rounds.round_seat(round_=final)
    rounds.seating_publish(round_=final)
    (heat,) = rounds.round_start(round_=final)
    heat.started_at = timezone.now() - timedelta(minutes=5)
    heat.save(update_fields=["started_at"])
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="clock-organiser")
    return championship, final, entry


def server_clock_measured(page):
    page.wait_for_function("() => window.ServerClock && window.ServerClock.rtt !== null")


def test_the_control_rooms_clock_runs_on_the_servers_time(clock_page, live_server):
    page = clock_page
    championship, final, _entry = started_five_minutes_ago()
    page.set_viewport_size(LAPTOP)
    # This laptop's clock is an hour fast: the page must not believe it.
    page.clock.install(time=timezone.now() + timedelta(hours=1))
    log_in(page, live_server, "clock-organiser", f"/{championship.slug}/manage/rounds/{final.key}/")
    server_clock_measured(page)
    page.clock.run_for(2000)
    elapsed = page.locator(".clock[data-start] .elapsed").first
    expect(elapsed).to_have_text(FIVE_MINUTES)
    shot(page, "clock-control-room")


def test_the_entrants_clock_runs_on_the_servers_time(clock_page, live_server):
    phone = clock_page
    phone.set_viewport_size(PHONE)
    championship, _final, entry = started_five_minutes_ago()
    phone.clock.install(time=timezone.now() - timedelta(hours=1))
    phone.goto(f"{live_server.url}/{championship.slug}/entries/{entry.manage_token}/")
    server_clock_measured(phone)
    phone.clock.run_for(2000)
    expect(phone.locator(".entry-clock .value")).to_have_text(FIVE_MINUTES)
    shot(phone, "clock-entrant")
