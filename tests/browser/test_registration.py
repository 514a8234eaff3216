"""Registration in a real browser, at a phone's size."""

from datetime import UTC, date, datetime

import pytest
from django.conf import settings
from playwright.sync_api import expect

from championship.models import Category
from registration.models import Entry
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sm(db):
    return factories.championship(
        slug=f"sm-{NEXT_YEAR}",
        ruleset="sm",
        name=f"Pussel-SM {NEXT_YEAR}",
        starts_at=datetime(NEXT_YEAR, 5, 8, 8, tzinfo=UTC),
    )


@pytest.fixture
def english(phone, live_server):
    phone.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    return phone


def fill_member(page, index, *, name, email="", birth, citizenship):
    prefix = f"#id_members-{index}-"
    page.fill(f"{prefix}name", name)
    if email:
        page.fill(f"{prefix}email", email)
    page.fill(f"{prefix}birth_date", birth)
    page.select_option(f"{prefix}citizenship", citizenship)


def test_sm_team_of_four_with_a_13_year_old_and_an_adult_is_confirmed(english, live_server, sm):
    page = english
    page.goto(f"{live_server.url}/sm-{NEXT_YEAR}/register/team/")
    page.fill("#id_name", "Bitarna")
    fill_member(
        page,
        0,
        name="Anna Andersson",
        email="anna@example.se",
        birth="1980-02-01",
        citizenship="SE",
    )
    fill_member(page, 1, name="Bo Berg", birth="1978-06-30", citizenship="SE")
    fill_member(page, 2, name="Cecilia Carlsson", birth="1990-11-11", citizenship="SE")
    fill_member(
        page, 3, name="Dana Andersson", birth=f"{NEXT_YEAR - 13}-01-15", citizenship="SE"
    )  # 13
    page.get_by_role("button", name="Register").click()
    # Without the adult the form says what is missing, and nothing is saved. (Waits for the
    # answer: right after the click the page may still be the one before.)
    expect(page.locator(".errors", has_text="name the accompanying adult")).to_be_visible()
    assert not Entry.objects.exists()
    page.fill("#id_adult_name", "Anna Andersson")
    for index in range(4):
        page.check(f"#id_members-{index}-publish_consent")
    page.get_by_role("button", name="Register").click()
    page.wait_for_url(f"{live_server.url}/sm-{NEXT_YEAR}/entries/**")
    expect(page.get_by_text("Your entry is confirmed")).to_be_visible()
    entry = Entry.objects.get()
    assert (entry.status, entry.members.count(), entry.adult_name) == (
        "confirmed",
        4,
        "Anna Andersson",
    )


def test_a_norwegian_is_told_before_submitting_the_entry_will_be_hors_concours(
    english, live_server, sm
):
    page = english
    page.goto(f"{live_server.url}/sm-{NEXT_YEAR}/register/individual/")
    box = page.locator("#officiality")
    fill_member(
        page, 0, name="Ola Nordmann", email="ola@example.no", birth="1985-04-04", citizenship="NO"
    )
    # Each change asks again after 200 ms; on a slow machine the birth date's answer
    # ("citizenship not given") comes before the citizenship's, so wait for the last.
    box.get_by_text("is not a citizen of Sweden").wait_for()
    assert "unofficial (hors concours)" in box.inner_text()
    assert not Entry.objects.exists()
    page.select_option("#id_members-0-citizenship", "SE")
    box.get_by_text("The entry will be official.").wait_for()


def test_withdrawing_through_the_manage_link_promotes_the_first_on_the_waiting_list(
    english, live_server, sm
):
    individual = sm.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    person = factories.person(sm, name="Först", birth_date=date(1980, 1, 1), citizenship=["SE"])
    first = factories.entry(individual, members=[person], status="confirmed", name="Först")
    waiting = factories.entry(individual, status="waitlisted", name="Väntar")
    page = english
    page.goto(f"{live_server.url}/sm-{NEXT_YEAR}/entries/{first.manage_token}/")
    page.check("#confirm-withdraw")
    page.get_by_role("button", name="Withdraw the entry").click()
    page.get_by_text("Your entry is withdrawn").wait_for()
    waiting.refresh_from_db()
    assert waiting.status == "confirmed"
    page.goto(f"{live_server.url}/sm-{NEXT_YEAR}/entries/{waiting.manage_token}/")
    assert page.locator(".state-confirmed").is_visible()
