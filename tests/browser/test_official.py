"""Provisional, then official, in a browser: the phone page and the projector follow a sign-off."""

import pytest
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Round
from championship.services import tables_create
from control import rounds
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.test_judging import english
from tests.browser.test_judging import shot as judging_shot
from tests.control.test_rounds import finish_all

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def provisional(db):
    """A dm preliminary round whose time is up, every entry timed: the best 2 advance."""
    championship = factories.championship(slug="dm-live", ruleset="dm", name="DM 2026")
    individual = championship.categories.get(kind="individual")
    prelim = individual.rounds.order_by("order").first()
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=2)
    prelim.refresh_from_db()
    tables_create(championship=championship, count=6)
    for n in range(4):
        factories.entry(
            individual,
            members=[factories.person(championship, name=f"Deltager {n}", citizenship=["DK"])],
            name=f"Deltager {n}",
            publish_consent=True,
        )
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    rounds.round_close(round_=prelim)
    finish_all(prelim, minutes=(43, 41, 42, 40))
    organiser = factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    return {"championship": championship, "round": prelim, "organiser": organiser}


def test_a_sign_off_in_the_control_room_turns_the_phone_and_the_projector_official(
    chromium, live_server, provisional
):
    chromium.clear_cookies()
    slug, key = provisional["championship"].slug, provisional["round"].key
    phone = chromium.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    english(phone, live_server)
    phone.goto(f"{live_server.url}/{slug}/results/{key}/")
    live = phone.locator("#results-table .results-live")
    expect(live.locator("[data-results-state=provisional]")).to_contain_text("Provisional")
    expect(live.locator("td .qualified-mark")).to_have_count(0)
    judging_shot(phone, "official-1-phone-provisional")

    projector = chromium.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(f"{live_server.url}/{slug}/screen/{key}/")
    expect(projector.locator("[data-results-state=provisional]")).to_be_visible()
    expect(projector.locator(".leaderboard .qualified-mark")).to_have_count(0)
    judging_shot(projector, "official-2-projector-provisional")

    organiser = chromium.new_page()
    organiser.set_viewport_size(LAPTOP)
    organiser.on("dialog", lambda dialog: dialog.accept())
    control = f"/{slug}/manage/rounds/{key}/"
    log_in(organiser, live_server, "orga", f"{live_server.url}{control}", language=None)
    expect(organiser.locator("[data-results-state=provisional]")).to_be_visible()
    judging_shot(organiser, "official-3-control-provisional")
    organiser.locator("form[action$='/sign-off/'] button[type=submit]").click()
    expect(organiser.locator("main")).to_contain_text("The results are official since")
    expect(organiser.locator("[data-results-state=official]")).to_be_visible()
    judging_shot(organiser, "official-4-control-official")

    # Neither the phone nor the projector is touched: their polls bring the new version.
    expect(live.locator("[data-results-state=official]")).to_contain_text(
        "Official results", timeout=15_000
    )
    expect(live.locator("td .qualified-mark")).to_have_count(2)
    judging_shot(phone, "official-5-phone-official")
    expect(projector.locator("[data-results-state=official]")).to_be_visible(timeout=15_000)
    expect(projector.locator(".leaderboard .qualified-mark")).to_have_count(2)
    judging_shot(projector, "official-6-projector-official")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the results page is {width}px wide on a 390px phone"
    for page in (phone, projector, organiser):
        page.close()
