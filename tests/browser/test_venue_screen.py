"""The venue screen follows a switch made in the control room, without anyone touching it."""

import pytest
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.test_judging import english
from tests.browser.test_judging import shot as judging_shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def running(db):
    championship = factories.championship(slug="venue", name="Venue-mesterskapet")
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    tables_create(championship=championship, count=4)
    for n in range(3):
        factories.entry(
            individual,
            members=[factories.person(championship, name=f"Deltaker {n}", region="Rogaland")],
            name=f"Deltaker {n}",
            publish_consent=True,
        )
    rounds.round_seat(round_=final)
    rounds.seating_publish(round_=final)
    rounds.round_start(round_=final)
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    return championship


@pytest.mark.long
def test_the_venue_screen_follows_the_control_room(chromium, live_server, running):
    chromium.clear_cookies()
    projector = chromium.new_page()
    projector.set_viewport_size({"width": 1920, "height": 1080})
    english(projector, live_server)
    projector.goto(f"{live_server.url}/venue/screen/")
    # Nothing chosen yet: the championship's name.
    expect(projector.locator("[data-venue=message]")).to_contain_text("Venue-mesterskapet")

    organiser = chromium.new_page()
    organiser.set_viewport_size({"width": 1366, "height": 768})
    manage = f"{live_server.url}/venue/manage/"
    log_in(organiser, live_server, "orga", manage, language=None)
    form = organiser.locator("form.screen-form")
    form.locator("input[name=show][value=round]").check()
    form.locator("select[name=round]").select_option("individual-final")
    form.locator("button[type=submit]").click()
    expect(organiser.locator("main")).to_contain_text("The venue screen follows")
    judging_shot(organiser, "venue-1-control-room")

    # The projector goes to the round's board and clock by itself.
    expect(projector.locator("#board")).to_be_visible(timeout=15_000)
    expect(projector.locator("#elapsed")).to_be_visible()
    expect(projector.locator("#board")).to_contain_text("Deltaker 1")
    judging_shot(projector, "venue-2-board")

    # The seating: only a round whose seating is published is offered, and the projector
    # shows it in its own large, dark layout, not the website's page.
    form = organiser.locator("form.screen-form")
    form.locator("input[name=show][value=seating]").check()
    expect(form.locator("select[name=seating] option")).to_have_text(["—", "Individual: Final"])
    form.locator("select[name=seating]").select_option("individual-final")
    form.locator("button[type=submit]").click()
    expect(organiser.locator("main")).to_contain_text("The venue screen follows")
    expect(projector.locator(".seating-list")).to_contain_text("Deltaker 1", timeout=15_000)
    assert "/venue/seating/individual-final/screen/" in projector.url
    assert projector.locator(".site-header").count() == 0
    judging_shot(projector, "venue-2b-seating")

    form = organiser.locator("form.screen-form")
    form.locator("input[name=show][value=message]").check()
    form.locator("textarea[name=text]").fill("Premieutdeling kl. 16")
    form.locator("button[type=submit]").click()
    expect(projector.locator("[data-venue=message]")).to_contain_text(
        "Premieutdeling kl. 16", timeout=15_000
    )
    judging_shot(projector, "venue-3-message")
    for page in (projector, organiser):
        page.close()
