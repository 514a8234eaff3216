"""Starting a heat at tables another heat still uses asks first, and starts only when confirmed."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from championship.models import ChampionshipRole, Heat
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from control.views.round import TablesInUse
from tests import factories

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role


@pytest.fixture
def rm():
    """Rogaland today (no question for the date): the individual final seated at tables 1-4,
    the pairs at 1-2."""
    championship = factories.championship(slug="rm-busy", starts_at=timezone.now())
    tables_create(championship=championship, count=6)
    individual = championship.categories.get(kind="individual")
    pairs = championship.categories.get(kind="pair")
    for _ in range(4):
        factories.entry(individual)
    for _ in range(2):
        factories.entry(pairs)
    rounds.round_seat(round_=individual.rounds.get())
    rounds.round_seat(round_=pairs.rounds.get(), plan=SeatingPlan(heats=1))
    return championship


@pytest.fixture
def org(client, rm):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(rm, Role.ORGANISER))
    return client


def final(rm, kind):
    return rm.categories.get(kind=kind).rounds.get()


def start_url(rm, kind, heat=None):
    round_ = final(rm, kind)
    if heat is None:
        return reverse(
            "manage:round_start", kwargs={"championship_slug": rm.slug, "round_key": round_.key}
        )
    return reverse(
        "manage:heat_start",
        kwargs={"championship_slug": rm.slug, "round_key": round_.key, "heat_key": heat},
    )


def running_individual_final(rm, minutes_ago=5):
    (heat,) = rounds.round_start(round_=final(rm, "individual"))
    heat.started_at = timezone.now() - timedelta(minutes=minutes_ago)
    heat.save()
    return heat


def pairs_heat(rm) -> Heat:
    return final(rm, "pair").heats.get()


def test_starting_a_heat_at_tables_in_use_asks_and_names_the_running_heat_and_tables(org, rm):
    heat = running_individual_final(rm)
    response = org.post(start_url(rm, "pair", heat="a"))
    assert response.status_code == 200
    text = response.text
    assert "Start Heat A?" in text
    assert "Individual: Final, Heat A is running at tables 1–2." in text
    time_up = timezone.localtime(
        heat.started_at + timedelta(minutes=final(rm, "individual").effective_time_limit_minutes),
        ZoneInfo(rm.timezone),
    )
    assert f"Its time is up at {time_up:%H:%M}." in text
    assert 'name="confirm" value="1"' in text and "Start anyway" in text
    assert pairs_heat(rm).started_at is None


def test_starting_proceeds_when_confirmed(org, rm):
    running_individual_final(rm)
    response = org.post(start_url(rm, "pair", heat="a"), {"confirm": "1"}, follow=True)
    heat = pairs_heat(rm)
    assert heat.state == Heat.State.RUNNING and heat.started_at is not None
    (message,) = (str(m) for m in response.context["messages"])
    assert message.startswith("Heat A started at ")


def test_starting_the_round_asks_too(org, rm):
    running_individual_final(rm)
    response = org.post(start_url(rm, "pair"))
    assert "Individual: Final, Heat A is running at tables 1–2." in response.text
    assert pairs_heat(rm).started_at is None
    org.post(start_url(rm, "pair"), {"confirm": "1"})
    assert pairs_heat(rm).state == Heat.State.RUNNING


def test_no_question_once_time_is_up_at_those_tables(org, rm):
    running_individual_final(rm)
    rounds.heat_close(heat=final(rm, "individual").heats.get())
    response = org.post(start_url(rm, "pair", heat="a"))
    assert response.status_code == 302
    assert pairs_heat(rm).state == Heat.State.RUNNING


def test_no_question_once_the_running_heats_time_limit_is_past(org, rm):
    limit = final(rm, "individual").effective_time_limit_minutes
    running_individual_final(rm, minutes_ago=limit + 1)
    assert org.post(start_url(rm, "pair", heat="a")).status_code == 302
    assert pairs_heat(rm).started_at is not None


def test_no_question_when_no_heat_runs(org, rm):
    assert org.post(start_url(rm, "pair", heat="a")).status_code == 302
    assert pairs_heat(rm).started_at is not None


@pytest.mark.parametrize(
    ("tables", "read"), [([1], "1"), ([1, 2, 3, 4], "1–4"), ([1, 2, 5, 7, 8], "1–2, 5, 7–8")]
)
def test_table_numbers_read_as_runs(tables, read):
    assert TablesInUse(heat=None, tables=tables, until=None).table_list == read
