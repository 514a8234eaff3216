"""Dates stored before the bounds, at the ends of the calendar, still leave every page working.

Rows written before ``championship.bounds`` (or straight into the database) may
hold the first moment of year 1 or the last of year 9999. Shown in a time zone,
or moved by a time limit or a preset's days, such a moment overflows; each page
below must answer as usual instead of 500.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings

from championship.models import Championship, ChampionshipRole, Heat, Round, Seat
from championship.services import tables_create
from control import rounds
from registration.models import Entry
from results.models import Result
from tests import factories
from tests.championship.test_admin import admin_url

pytestmark = pytest.mark.django_db

FIRST = datetime(1, 1, 1, tzinfo=UTC)
LAST = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)

# Each world stores extreme moments in the columns an organiser could once type, and in
# the records an import could once bring (registrations, check-ins, confirmations).
WORLDS = {
    # West of Greenwich, the first moment of year 1 has no local time.
    "year 1 in Los Angeles": dict(
        timezone="America/Los_Angeles",
        starts_at=FIRST,
        registration_deadline=FIRST,
        registration_opens_at=FIRST,
        scheduled_start=FIRST,
        started_at=FIRST,
        ended_at=None,
        own_start=FIRST,
        records=FIRST,
    ),
    # East of Greenwich, the last moment of 9999 has none either.
    "year 9999 in Oslo": dict(
        timezone="Europe/Oslo",
        starts_at=LAST,
        registration_deadline=LAST,
        registration_opens_at=LAST,
        scheduled_start=LAST,
        started_at=LAST,
        ended_at=None,
        own_start=LAST,
        records=LAST,
    ),
    # A championship of this year whose heat was typed with a wrong year.
    "heats of a usual championship in years 1 and 9999": dict(
        timezone="Europe/Oslo",
        starts_at=None,
        registration_deadline=FIRST,
        registration_opens_at=FIRST,
        scheduled_start=LAST,
        started_at=FIRST,
        ended_at=LAST,
        own_start=LAST,
        records=LAST,
    ),
}


@pytest.fixture(params=WORLDS, ids=list(WORLDS))
def world(request, client):
    """A running final with extreme dates stored, and its organiser signed in (English)."""
    dates = WORLDS[request.param]
    championship = factories.championship(slug="extreme")
    tables_create(championship=championship, count=2)
    individual = championship.categories.get(kind="individual")
    entries = [factories.entry(individual, publish_consent=True) for _ in range(2)]
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    (heat,) = rounds.round_start(round_=final)
    # Straight into the database, past every check, as rows from before them.
    Championship.objects.filter(pk=championship.pk).update(
        timezone=dates["timezone"],
        registration_deadline=dates["registration_deadline"],
        **({"starts_at": dates["starts_at"]} if dates["starts_at"] else {}),
    )
    championship.categories.update(registration_opens_at=dates["registration_opens_at"])
    Heat.objects.filter(pk=heat.pk).update(
        scheduled_start=dates["scheduled_start"],
        started_at=dates["started_at"],
        ended_at=dates["ended_at"],
    )
    Seat.objects.filter(heat=heat).update(started_at=dates["own_start"])
    Round.objects.filter(pk=final.pk).update(seating_published_at=dates["started_at"])
    records = dates["records"]
    Entry.objects.filter(pk=entries[0].pk).update(
        registered_at=records, confirmed_at=records, checked_in_at=records
    )
    Entry.objects.filter(pk=entries[1].pk).update(walkover_at=records, walkover_reason="Ill")
    Result.objects.filter(heat=heat).update(confirmed_at=records)
    organiser = factories.role(championship, ChampionshipRole.Role.ORGANISER)
    organiser.is_superuser = organiser.is_staff = True
    organiser.save()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(organiser)
    return {
        "slug": championship.slug,
        "round": final.key,
        "table": championship.tables.order_by("number").first().token,
        "entry": entries[0].manage_token,
        "heat": heat.pk,
        "championship": championship.pk,
    }


PAGES = {
    "home": "/",
    "championship": "/{slug}/",
    "registration form": "/{slug}/register/individual/",
    "entry's own page": "/{slug}/entries/{entry}/",
    "control room": "/{slug}/manage/",
    "round control room": "/{slug}/manage/rounds/{round}/",
    "judges' dashboard": "/{slug}/manage/rounds/{round}/dashboard/",
    "table cards": "/{slug}/manage/cards/{round}/",
    "public seating": "/{slug}/seating/{round}/",
    "judge's table": "/t/{table}/",
    "judge's table state": "/t/{table}/state/",
    "results": "/{slug}/results/",
    "round results": "/{slug}/results/{round}/",
    "round results CSV": "/{slug}/results/{round}.csv",
    "category results CSV": "/{slug}/results/category/individual.csv",
    "projector screen": "/{slug}/screen/{round}/",
    "entries": "/{slug}/manage/entries/",
    "entries CSV": "/{slug}/manage/entries/export.csv",
    "check-in": "/{slug}/manage/checkin/",
    "API championships": "/api/v1/championships/",
    "API championship": "/api/v1/championships/{slug}/",
    "API round results": "/api/v1/championships/{slug}/rounds/{round}/results/",
    "API export": "/api/v1/championships/{slug}/export/",
    "admin championship": "admin:championship",
    "admin heats": "admin:heats",
    "admin heat": "admin:heat",
}


def address(page: str, world: dict) -> str:
    if page == "admin:championship":
        return admin_url(Championship, "change", world["championship"])
    if page == "admin:heats":
        return admin_url(Heat, "changelist")
    if page == "admin:heat":
        return admin_url(Heat, "change", world["heat"])
    return page.format(**world)


@pytest.mark.parametrize("page", PAGES.values(), ids=PAGES.keys())
def test_a_page_answers_with_extreme_dates_stored(client, world, page):
    response = client.get(address(page, world))
    assert response.status_code == 200, response.content[:300]


def test_the_home_page_answers_strangers_with_extreme_dates_stored(client, world):
    client.logout()
    assert client.get("/").status_code == 200
    assert client.get(f"/{world['slug']}/").status_code == 200


def test_a_preset_rule_closing_registration_before_the_calendar_begins_leaves_pages_working(
    client,
):
    championship = factories.championship(slug="long-ago", starts_at=factories.START)
    Championship.objects.filter(pk=championship.pk).update(
        rule_overrides={"registration_closes_days_before": 10**9}
    )
    for page in (
        "/",
        "/long-ago/",
        "/long-ago/register/individual/",
        "/api/v1/championships/long-ago/",
    ):
        assert client.get(page).status_code == 200, page
