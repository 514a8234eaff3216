"""A puzzler's page in a browser, and their history seeding a first round."""

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from registration.models import Person
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.test_judging import english
from tests.browser.test_judging import shot as judging_shot
from tests.results.test_puzzlers import history_world, run_round

LAPTOP = {"width": 1366, "height": 768}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_result_row_opens_the_puzzlers_page_with_both_championships(chromium, live_server):
    spring = factories.championship(
        slug="spring", name="Spring Open", starts_at=datetime(2026, 3, 14, 9, tzinfo=UTC)
    )
    autumn = factories.championship(
        slug="autumn", name="Autumn Open", starts_at=datetime(2026, 10, 3, 9, tzinfo=UTC)
    )
    run_round(
        spring, [("Anna Berg", "anna@example.org", True), ("Bo", "bo@example.org", False)], (50, 45)
    )
    final = run_round(
        autumn, [("Anna Berg", "Anna@Example.org", True), ("Bo", "bo@example.org", False)], (40, 48)
    )
    anna = Person.objects.get(championship=autumn, name="Anna Berg").puzzler

    chromium.clear_cookies()
    phone = chromium.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    english(phone, live_server)
    phone.goto(f"{live_server.url}/autumn/results/{final.key}/")
    table = phone.locator("#results-table")
    # Bo did not consent: no name and no page; Anna's name is the link to hers.
    expect(table.locator("a.person:visible")).to_have_count(1)
    table.locator("a.person:visible", has_text="Anna Berg").click()
    phone.wait_for_url(re.compile(rf"/puzzlers/{anna.ref}/$"))
    main = phone.locator("main")
    expect(main.locator("h1")).to_have_text("Anna Berg")
    expect(main).to_contain_text("Took part in 2 championships on this site.")
    sections = main.locator("section.puzzler-championship h2")
    expect(sections).to_have_text(["Autumn Open", "Spring Open"])
    expect(main.locator(".personal-bests")).to_contain_text("40:00")
    expect(main.locator(".personal-bests")).to_contain_text("12.5")
    # Nothing runs off a phone's screen.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    judging_shot(phone, "puzzler-page-phone")


def test_the_organiser_seeds_a_first_round_from_earlier_championships(chromium, live_server):
    _older, _newer, now = history_world()
    first = now.categories.get(kind="individual").rounds.order_by("order").first()
    factories.role(now, ChampionshipRole.Role.ORGANISER, username="orga")
    chromium.clear_cookies()
    page = chromium.new_page()
    page.set_viewport_size(LAPTOP)
    english(page, live_server)
    ranking = f"/{now.slug}/manage/rounds/{first.key}/ranking/"
    log_in(page, live_server, "orga", f"{live_server.url}{ranking}", language=None)
    form = page.locator("form.ranking-history")
    expect(form.get_by_role("checkbox")).to_have_count(2)
    form.get_by_role("checkbox", name=re.compile(r"^2025 \(")).check()
    form.get_by_role("checkbox", name=re.compile(r"^2024 \(")).check()
    judging_shot(page, "ranking-history-1-choose")
    form.get_by_role("button", name="Rank from these results").click()
    matched = page.locator("table.ranking-matched tbody tr")
    expect(matched).to_have_count(4)
    expect(matched.first).to_contain_text("2025, Individual: place 1")
    expect(page.locator(".ranking-missing")).to_contain_text("Eve")
    judging_shot(page, "ranking-history-2-preview")
    page.get_by_role("button", name="Save the ranks of 4 entries").click()
    expect(page.locator("main")).to_contain_text("The prior ranking of 4 entries is saved.")
