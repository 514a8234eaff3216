"""The country an entry represents on the organiser's lists and the entrant's private page,
where the entrant may change it until the championship starts."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings

from championship.models import ChampionshipRole
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

NZ_MARK = '<abbr class="represents" title="New Zealand">NZ</abbr>'


@pytest.fixture
def world(db):
    """A world championship (wjpc: entries represent a country; the neutral flag allowed)."""
    return factories.championship(
        slug=f"wjpc-{NEXT_YEAR}",
        ruleset="wjpc",
        starts_at=datetime(NEXT_YEAR, 9, 20, 8, tzinfo=UTC),
    )


@pytest.fixture
def entries(world):
    category = world.categories.get(kind="individual")
    aroha = factories.person(world, name="Aroha Ngata", citizenship=["NZ"], country="NZ")
    ivan = factories.person(world, name="Ivan Petrov", citizenship=["RU"], country="RU")
    sanna = factories.person(world, name="Sanna Virtanen", citizenship=["SE", "FI"], country="SE")
    return {
        "aroha": factories.entry(category, members=[aroha], represents="NZ"),
        "ivan": factories.entry(category, members=[ivan], represents="neutral"),
        "sanna": factories.entry(category, members=[sanna], represents="SE"),
    }


@pytest.fixture
def organiser(client, world):
    client.force_login(
        factories.role(world, ChampionshipRole.Role.ORGANISER, username="world-desk")
    )
    return client


def page_of(entry) -> str:
    return f"/{entry.category.championship.slug}/entries/{entry.manage_token}/"


# The organiser's lists ----------------------------------------------------------------------------


def test_the_entries_list_shows_the_code_with_the_name_and_the_neutral_flag(
    organiser, world, entries
):
    page = organiser.get(f"/{world.slug}/manage/entries/?category=individual")
    assert page.status_code == 200
    assert NZ_MARK in page.text
    assert '<span class="represents represents-neutral">Neutral flag</span>' in page.text


def test_the_checkin_list_shows_it(organiser, world, entries):
    page = organiser.get(f"/{world.slug}/manage/checkin/")
    assert page.status_code == 200
    assert NZ_MARK in page.text
    assert "Neutral flag" in page.text


def test_the_neutral_flag_in_the_organisers_language(organiser, world, entries):
    organiser.cookies[settings.LANGUAGE_COOKIE_NAME] = "nb"
    page = organiser.get(f"/{world.slug}/manage/entries/?category=individual")
    assert "Nøytralt flagg" in page.text
    assert '<abbr class="represents" title="Sverige">SE</abbr>' in page.text


def test_where_entries_represent_no_country_the_lists_show_none(client, db):
    national = factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    factories.entry(national.categories.get(kind="individual"))
    client.force_login(factories.role(national, ChampionshipRole.Role.ORGANISER, username="rm"))
    for path in ("manage/entries/?category=individual", "manage/checkin/"):
        page = client.get(f"/{national.slug}/{path}")
        assert page.status_code == 200
        assert "entry-represents" not in page.text


def test_an_entry_that_represents_one_shows_it_whatever_the_rules(client, db):
    national = factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    factories.entry(national.categories.get(kind="individual"), represents="NZ")
    client.force_login(factories.role(national, ChampionshipRole.Role.ORGANISER, username="rm"))
    page = client.get(f"/{national.slug}/manage/entries/?category=individual")
    assert NZ_MARK in page.text


# The entrant's private page -----------------------------------------------------------------------


def test_the_private_page_shows_it_and_offers_the_change_before_the_start(client, entries):
    page = client.get(page_of(entries["sanna"]))
    assert page.status_code == 200
    assert "Country represented" in page.text
    assert "Sweden (SE)" in page.text
    assert 'name="represents"' in page.text
    assert "/represents/" in page.text


def test_the_entrant_changes_it_before_the_start(client, entries):
    sanna = entries["sanna"]
    response = client.post(page_of(sanna) + "represents/", {"represents": "FI"})
    assert response.status_code == 302
    assert response.url == page_of(sanna)
    sanna.refresh_from_db()
    assert sanna.represents == "FI"
    page = client.get(response.url)
    assert "The country your entry represents is saved." in page.text
    assert "Finland (FI)" in page.text


def test_another_countrys_flag_is_refused_on_the_page(client, entries):
    sanna = entries["sanna"]
    response = client.post(page_of(sanna) + "represents/", {"represents": "NO"}, follow=True)
    assert "Norway is not a nationality of the entry&#x27;s members" in response.text
    sanna.refresh_from_db()
    assert sanna.represents == "SE"


def test_the_refusal_in_the_pages_language(client, entries):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nb"
    sanna = entries["sanna"]
    response = client.post(page_of(sanna) + "represents/", {"represents": "NO"}, follow=True)
    assert "Norge er ikke en av medlemmenes nasjonaliteter" in response.text
    sanna.refresh_from_db()
    assert sanna.represents == "SE"


def test_the_neutral_flag_may_be_chosen_on_the_page(client, entries):
    aroha = entries["aroha"]
    client.post(page_of(aroha) + "represents/", {"represents": "neutral"})
    aroha.refresh_from_db()
    assert aroha.represents == "neutral"
    assert "Neutral flag" in client.get(page_of(aroha)).text


def test_after_the_start_it_is_fixed(client, world, entries):
    sanna = entries["sanna"]
    with time_machine.travel(world.starts_at + timedelta(minutes=1)):
        page = client.get(page_of(sanna))
        assert "Sweden (SE)" in page.text
        assert "Fixed now that the championship has started" in page.text
        assert 'name="represents"' not in page.text
        response = client.post(page_of(sanna) + "represents/", {"represents": "FI"}, follow=True)
        assert "fixed once the championship has started" in response.text
    sanna.refresh_from_db()
    assert sanna.represents == "SE"


def test_where_entries_represent_no_country_the_page_neither_shows_nor_takes_it(client, db):
    national = factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    entry = factories.entry(national.categories.get(kind="individual"))
    page = client.get(page_of(entry))
    assert page.status_code == 200
    assert "Country represented" not in page.text
    response = client.post(page_of(entry) + "represents/", {"represents": "NO"}, follow=True)
    assert "The entries of this championship represent no country." in response.text
    entry.refresh_from_db()
    assert entry.represents == ""


def test_an_unknown_link_is_not_found(client, world):
    response = client.post(f"/{world.slug}/entries/not-a-token/represents/", {"represents": "NZ"})
    assert response.status_code == 404
