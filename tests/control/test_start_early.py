"""Starting a heat more than a day before the championship's date asks first.

Results and diplomas carry the date a heat is run: a heat started by mistake
months ahead would date them so. The day before (a rehearsal) and the day itself
start at once.
"""

from datetime import UTC, datetime

import pytest
import time_machine
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from championship.models import ChampionshipRole, Heat
from championship.services import tables_create
from control import rounds
from tests import factories

pytestmark = pytest.mark.django_db

# Pussel-SM on Saturday 20 March 2027 at 10:00 in Stockholm.
STARTS_AT = datetime(2027, 3, 20, 9, 0, tzinfo=UTC)
MONTHS_AHEAD = datetime(2026, 12, 1, 21, 0, tzinfo=UTC)
# 18 March, 23:30 in Stockholm: two days ahead there, although it is within 35 hours.
TWO_DAYS_AHEAD = datetime(2027, 3, 18, 22, 30, tzinfo=UTC)
# 19 March, 00:30 in Stockholm (still the 18th in UTC): the day before, there.
THE_DAY_BEFORE = datetime(2027, 3, 18, 23, 30, tzinfo=UTC)


@pytest.fixture
def sm(client):
    """The individual prelim seated in one heat; an organiser (``client.at`` posts as them)."""
    with time_machine.travel(MONTHS_AHEAD, tick=False):
        championship = factories.championship(
            slug="sm-2027", name="Pussel-SM 2027", ruleset="sm", starts_at=STARTS_AT
        )
        tables_create(championship=championship, count=4)
        individual = championship.categories.get(kind="individual")
        for _ in range(3):
            factories.entry(individual, checked_in_at=timezone.now())
        prelim = individual.rounds.order_by("order").first()
        rounds.round_seat(round_=prelim, plan=rounds.SeatingPlan(heats=1))
        organiser = factories.role(championship, ChampionshipRole.Role.ORGANISER)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return championship, prelim, organiser


def post_at(client, organiser, now, url, data=None, **kwargs):
    """Post as the organiser at ``now`` (signed in then: a session does not last months)."""
    with time_machine.travel(now, tick=False):
        client.force_login(organiser)
        return client.post(url, data or {}, **kwargs)


def start_url(prelim, heat=None) -> str:
    kwargs = {"championship_slug": prelim.championship.slug, "round_key": prelim.key}
    if heat is None:
        return reverse("manage:round_start", kwargs=kwargs)
    return reverse("manage:heat_start", kwargs={**kwargs, "heat_key": heat})


def heat_of(prelim) -> Heat:
    return prelim.heats.get()


@pytest.mark.parametrize("heat", [None, "a"], ids=["the round", "one heat"])
def test_starting_months_ahead_asks_first_and_says_the_dates(client, sm, heat):
    _championship, prelim, organiser = sm
    response = post_at(client, organiser, MONTHS_AHEAD, start_url(prelim, heat))
    assert response.status_code == 200
    text = response.text
    assert "Start Heat A?" in text
    assert "Before the championship’s date" in text
    assert (
        "The championship is on 20 March 2027, and today is 1 December 2026: the results and "
        "diplomas of a heat started now carry today’s date."
    ) in text
    assert 'name="confirm" value="1"' in text and "Start anyway" in text
    assert "Tables still in use" not in text
    assert heat_of(prelim).started_at is None


def test_starting_anyway_starts(client, sm):
    _championship, prelim, organiser = sm
    url = start_url(prelim, "a")
    response = post_at(client, organiser, MONTHS_AHEAD, url, {"confirm": "1"}, follow=True)
    heat = heat_of(prelim)
    assert heat.state == Heat.State.RUNNING and heat.started_at == MONTHS_AHEAD
    assert [str(m) for m in response.context["messages"]] == ["Heat A started at 22:00:00."]


@pytest.mark.parametrize(
    ("now", "asks"),
    [(TWO_DAYS_AHEAD, True), (THE_DAY_BEFORE, False), (STARTS_AT, False)],
    ids=["two days ahead", "the day before", "the day"],
)
def test_the_day_before_and_the_day_start_at_once_by_the_championships_calendar(
    client, sm, now, asks
):
    _championship, prelim, organiser = sm
    response = post_at(client, organiser, now, start_url(prelim, "a"))
    assert (response.status_code == 200) is asks
    assert (heat_of(prelim).started_at is None) is asks


def test_a_championship_already_past_starts_at_once(client, sm):
    championship, prelim, organiser = sm
    a_week_later = datetime(2027, 3, 27, 9, 0, tzinfo=UTC)
    assert championship.days_ahead(a_week_later) == -7
    assert post_at(client, organiser, a_week_later, start_url(prelim, "a")).status_code == 302
    assert heat_of(prelim).state == Heat.State.RUNNING
