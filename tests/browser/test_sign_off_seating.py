"""The control room on a laptop: the sign-off waits while the final seats others."""

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Heat, Round
from championship.services import tables_create
from control import rounds
from registration.models import Entry
from registration.services import entry_withdraw
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.test_judging import english, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}
T0 = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def advanced(db):
    """A dm prelim advanced from provisional results (three to the final); then Bo withdrew."""
    championship = factories.championship(slug="dm-seat", ruleset="dm", name="DM 2026")
    individual = championship.categories.get(kind="individual")
    prelim = individual.rounds.order_by("order").first()
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=3)
    tables_create(championship=championship, count=8)
    names = ("Anna Holm", "Bo Dahl", "Cilla Berg", "Dag Lund", "Eva Krog")
    for minute, name in enumerate(names):
        person = factories.person(championship, name=name)
        factories.entry(individual, members=[person], registered_at=T0 + timedelta(minutes=minute))
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    Heat.objects.filter(round=prelim).update(started_at=T0 - timedelta(hours=3))
    rounds.round_close(round_=prelim)
    for minute, name in enumerate(names, start=40):
        Result.objects.filter(round=prelim, entry__name=name).update(
            status="finished", time_ms=minute * 60_000
        )
    standings_recompute(round_=prelim)
    rounds.round_advance(round_=prelim)
    entry_withdraw(entry=Entry.objects.get(name="Bo Dahl"))
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    return championship, prelim


def test_the_control_room_says_why_the_sign_off_waits_for_the_final_to_be_seated_again(
    page, live_server, advanced
):
    championship, prelim = advanced
    page.set_viewport_size(LAPTOP)
    english(page, live_server)
    control = f"/{championship.slug}/manage/rounds/{prelim.key}/"
    log_in(page, live_server, "orga", f"{live_server.url}{control}", language=None)
    sign_off = page.locator("form[action$='/sign-off/'] button[type=submit]")
    expect(sign_off).to_be_disabled()
    refusal = page.locator("#sign-off-refusal")
    expect(refusal).to_contain_text("seat Final again, then sign the results off.")
    expect(refusal).to_contain_text("Dag Lund qualified but is not seated there.")
    expect(refusal).not_to_contain_text("Bo Dahl")
    shot(page, "sign-off-1-final-to-seat-again")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= LAPTOP["width"], f"the control room is {width}px wide on a laptop"
