"""An organiser who is no superuser creates an sm championship from the home page and edits it.

At laptop size (1366x768). With SCREENSHOTS set, each screen is written under
``$SCREENSHOTS/setup/`` to be looked at.
"""

import os
from datetime import UTC, datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from championship import services
from championship.models import Championship
from registration.models import Entry
from tests import factories
from tests.browser.conftest import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = os.environ.get("SCREENSHOTS")


def shot(page, name, *, full_page=True):
    if SCREENSHOTS:
        folder = os.path.join(SCREENSHOTS, "setup")
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=full_page)


def test_an_organiser_creates_an_sm_championship_and_edits_it(laptop, live_server):
    page = laptop
    organiser, _password = services.organiser_account_set(username="kerstin", password=PASSWORD)
    assert not organiser.is_superuser
    year = timezone.now().year + 1
    log_in(page, live_server, "kerstin")
    shot(page, "1-home")

    # Home page → New championship.
    page.get_by_role("link", name="New championship").click()
    expect(page.get_by_role("heading", name="New championship")).to_be_visible()
    expect(page.locator("#preset-fields")).to_contain_text("Choose a preset")
    page.get_by_label("Pussel-SM (sm)").check()
    # The preset fills in step two (HTMX).
    expect(page.locator("#setup-team")).to_be_visible()
    page.fill("#id_name", "Pussel-SM 2027")
    expect(page.locator("input[name=slug]")).to_have_value("pussel-sm-2027")
    page.fill("input[name=starts_at]", f"{year}-01-20T10:00")
    page.get_by_label("Venue").fill("Stadsbiblioteket, Uppsala")
    expect(page.locator("#id_currency")).to_have_value("SEK")
    expect(page.locator("#id_language")).to_have_value("sv")
    expect(page.locator("#id_timezone")).to_have_value("Europe/Stockholm")
    for index, (low, high, pieces) in enumerate([(1, 1, 500), (2, 2, 500), (3, 4, 1000)]):
        prefix = f"category-{index}-"
        expect(page.locator(f"input[name={prefix}min_members]")).to_have_value(str(low))
        expect(page.locator(f"input[name={prefix}max_members]")).to_have_value(str(high))
        expect(page.locator(f"input[name={prefix}pieces]")).to_have_value(str(pieces))
        expect(page.locator(f"input[name={prefix}time_limit_minutes]")).to_have_value("120")
        expect(page.locator(f"select[name={prefix}stages]")).to_have_value("prelim final")
    page.fill("input[name=category-0-prelim_advance]", "10")
    shot(page, "2-new")
    page.get_by_role("button", name="Create the championship").click()

    # The control room of the new championship.
    expect(page.get_by_role("heading", name="Control room")).to_be_visible()
    expect(page.locator(".messages")).to_contain_text("you are its organiser")
    expect(page.locator(".manage-nav, .meta").first).to_be_visible()
    expect(page.get_by_text("Time zone: Europe/Stockholm")).to_be_visible()
    for key in ("individual-prelim", "individual-final", "team-prelim", "team-final"):
        expect(page.locator(f"text={key}")).to_be_visible()
    shot(page, "3-control-room")
    championship = Championship.objects.get(slug="pussel-sm-2027")
    assert (championship.currency, championship.language, championship.timezone) == (
        "SEK",
        "sv",
        "Europe/Stockholm",
    )
    assert championship.starts_at == datetime(year, 1, 20, 9, 0, tzinfo=UTC)
    assert championship.rounds.get(key="individual-prelim").advance_settings == {"overall": 10}

    # Edit: the deadline at 23:59, local.
    page.get_by_role("link", name="Edit championship").click()
    expect(page.get_by_role("heading", name="Edit championship")).to_be_visible()
    expect(page.locator("input[name=starts_at]")).to_have_value(f"{year}-01-20T10:00")
    page.fill("input[name=registration_deadline]", f"{year}-01-10T23:59")
    page.locator("#edit-championship").get_by_role("button", name="Save").click()
    saved = page.locator("#edit-championship .messages")
    expect(saved).to_contain_text("The championship is saved.")
    expect(page.locator("input[name=registration_deadline]")).to_have_value(f"{year}-01-10T23:59")
    # The rules read in words: each by its meaning, each value as the organiser says it.
    eligibility = page.get_by_label("Who is eligible to take part officially")
    expect(eligibility.locator("option:checked")).to_have_text("citizens of the country")
    seating = page.locator("select[name=rules-seating_first_round] option")
    assert seating.all_inner_texts() == ["the organiser chooses", "by prior ranking"]
    shot(page, "4-edit")

    # The public page shows 10:00 and 23:59.
    page.goto(f"{live_server.url}/pussel-sm-2027/")
    expect(page.locator("time").first).to_contain_text("10:00")
    expect(page.locator(".registration-deadline").first).to_contain_text("23:59")
    shot(page, "5-public")

    # Capacity: one place, one entry confirmed and one waiting; a second place promotes it.
    individual = championship.categories.get(kind="individual")
    factories.entry(individual, status=Entry.Status.CONFIRMED)
    waiting = factories.entry(individual, status=Entry.Status.WAITLISTED)
    individual.capacity = 1
    individual.save(update_fields=["capacity"])
    page.goto(f"{live_server.url}/pussel-sm-2027/manage/edit/")
    card = page.locator("#category-individual")
    expect(card).to_contain_text("1 on the waiting list")
    card.locator("input[name=category-individual-capacity]").fill("2")
    card.get_by_role("button", name="Save Individual").click()
    # The message is where the page opens again: at the category just saved.
    promoted = page.locator("#category-individual .messages")
    expect(promoted).to_contain_text("1 entry moved from the waiting list to confirmed.")
    expect(promoted).to_be_in_viewport()
    expect(page.locator("#category-individual")).to_contain_text("2 confirmed entries")
    expect(page.locator("#category-individual")).to_contain_text("0 on the waiting list")
    shot(page, "6-promoted")
    shot(page, "7-promoted-as-seen", full_page=False)
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.CONFIRMED

    # The teams' final: two 1,000-piece puzzles counted together.
    team_final = page.locator("form#round-team-final")
    team_final.get_by_label("Pieces per puzzle").fill("1000")
    team_final.get_by_label("Puzzles").fill("2")
    team_final.get_by_role("button", name="Save Final").click()
    expect(page.locator("#category-team .messages")).to_contain_text("Team: Final is saved.")
    expect(page.locator("input[name=round-team-final-puzzles]")).to_have_value("2")
    shot(page, "8-team-final-two-puzzles")
    final = championship.rounds.get(key="team-final")
    assert (final.pieces, final.puzzles, final.total_pieces) == (1000, 2, 2000)
