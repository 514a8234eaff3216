"""A qualifier who does not start, on a laptop: the organiser picks them among 70 qualifiers,
reads who takes the place and why, confirms, and is back on the round page."""

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from control import rounds
from results.models import QualifierWithdrawal
from tests import factories
from tests.browser import screens
from tests.browser.conftest import log_in
from tests.control.staged import advance, qualified, run, staged

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

T0 = datetime(2026, 1, 1, tzinfo=UTC)
FIRST = ("Ana", "Ben", "Chloé", "Dag", "Eva", "Finn", "Grete", "Hugo", "Ines", "Jon", "Kaia")
LAST = ("Berg", "Moreno", "Tanaka", "Okafor", "Lind", "Silva", "Novak", "Haddad", "Walsh")
# Countries in turn, so each has several entrants; New Zealand's two are places 9 and 81.
COUNTRIES = ("ES", "NO", "DE", "FR", "IT", "PL", "US", "GB", "NZ", "JP", "neutral")


@pytest.fixture
def group(db):
    """A group of 90 with 70 places, 12 of them country places, run; its organiser."""
    championship = factories.championship(slug="wjpc-day", name="WJPC 2026")
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    made = staged(
        championship, (("group-a", "prelim", None), ("semi", "semifinal", None)), tables=90
    )
    category = championship.categories.get(kind="individual")
    entries = []
    for index in range(90):
        name = f"{FIRST[index % len(FIRST)]} {LAST[index // len(FIRST) % len(LAST)]}"
        person = factories.person(championship, name=name, region="Rogaland")
        country = "NZ" if index in (8, 80) else COUNTRIES[index % len(COUNTRIES)]
        if country == "NZ" and index not in (8, 80):
            country = "AU"
        entries.append(
            factories.entry(
                category,
                members=[person],
                registered_at=T0 + timedelta(minutes=index),
                represents=country,
            )
        )
    round_ = made["group-a"]
    rounds.round_seat(round_=round_)
    advance(round_, "country", 70, advance_country_places=12)
    run(round_, {entry.pk: 20 + index for index, entry in enumerate(entries)})
    return round_, entries


def test_an_organiser_withdraws_a_country_place_qualifier_on_a_laptop(laptop, live_server, group):
    round_, entries = group
    new_zealand, next_new_zealander = entries[8], entries[80]
    # Place 81 has not qualified: New Zealand's place passes to them.
    assert qualified(round_)[new_zealand.pk] == "country"
    page = laptop
    log_in(page, live_server, "orga")
    page.goto(f"{live_server.url}/{round_.championship.slug}/manage/rounds/{round_.key}/")
    section = page.locator("#qualifiers")
    expect(section.get_by_role("heading", name="Qualified for semi")).to_be_visible()
    expect(section.locator(".passport-flag")).to_have_count(12)
    nz = section.locator("abbr.country", has_text="NZ").first
    expect(nz).to_have_attribute("title", "New Zealand")

    section.get_by_label("A qualifier who does not start semi").select_option(str(new_zealand.pk))
    section.get_by_role("button", name="Does not start the next round").click()

    offer = page.locator(".withdraw-offer")
    expect(offer).to_contain_text(
        "The country place of New Zealand passes to its next-placed entry."
    )
    expect(offer).to_contain_text(next_new_zealander.name)
    screens.shot(page, "offer", area="round-withdraw")
    assert not QualifierWithdrawal.objects.exists()

    page.get_by_role("button", name=f"Withdraw {new_zealand.name} from semi").click()
    message = page.locator(".messages .success")
    expect(message).to_have_text(
        f"{new_zealand.name} does not start semi; {next_new_zealander.name} takes the place."
    )
    withdrawn = page.locator(".withdrawn-qualifiers")
    expect(withdrawn).to_contain_text(new_zealand.name)
    expect(withdrawn).to_contain_text("by orga")
    # The message, the state and the qualifiers with the withdrawal, as far as the seating.
    screens.shot(page, "withdrawn", area="round-withdraw")
    assert qualified(round_)[next_new_zealander.pk] == "country"
    assert new_zealand.pk not in qualified(round_)
