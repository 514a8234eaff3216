"""The control room's clock: starting and closing heats, later starts, advancing, its settings."""

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings

from championship.models import ChampionshipRole, Heat, Round, Seat
from championship.services import tables_create
from control import rounds
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.control.control_room import said, seated, seats_of, url
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
# The answer to "start before the championship's date?" of a championship next year.
EARLY = {"confirm": "1"}


def finish_all(round_):
    factories.ran_earlier(round_)
    for minute, result in enumerate(Result.objects.filter(round=round_), start=40):
        result.status, result.time_ms = "finished", minute * 60_000
        result.save()
    standings_recompute(round_=round_)


# The clock -------------------------------------------------------------------------------------


def test_starting_and_closing_one_heat(org, rm, individual, final):
    seated(individual, final, count=4, heats=2)
    response = org.post(url("heat_close", rm, final, heat_key="a"), follow=True)
    assert said(response) == ["This heat has not started."]
    # The championship is next year: starting now is confirmed (tests/control/test_start_early.py).
    response = org.post(url("heat_start", rm, final, heat_key="a"), EARLY, follow=True)
    (message,) = said(response)
    assert message.startswith("Heat A started at ")
    heat_a, heat_b = final.heats.order_by("order")
    assert heat_a.state == Heat.State.RUNNING and heat_b.state == Heat.State.SCHEDULED
    page = response.content.decode()
    assert 'class="clock"' in page and "Call time in Heat A" in page and "Start Heat B" in page
    # Starting again is refused and changes nothing.
    started_at = heat_a.started_at
    response = org.post(url("heat_start", rm, final, heat_key="a"), follow=True)
    assert said(response) == ["This heat has already started."]
    heat_a.refresh_from_db()
    assert heat_a.started_at == started_at
    # Closing all is refused while heat B waits.
    response = org.post(url("round_close", rm, final), follow=True)
    assert said(response) == ["A heat of this round has not started yet."]
    response = org.post(url("heat_close", rm, final, heat_key="a"), follow=True)
    assert said(response)[0].startswith("Time is up in Heat A")
    heat_a.refresh_from_db()
    assert heat_a.state == Heat.State.TIME_UP and heat_a.ended_at
    response = org.post(url("heat_close", rm, final, heat_key="a"), follow=True)
    assert said(response) == ["Time is already up in this heat."]


def test_start_all_and_close_all(org, rm, individual, final):
    seated(individual, final, count=4, heats=2)
    response = org.post(url("round_start", rm, final), EARLY, follow=True)
    assert said(response)[0].startswith("2 heats started at ")
    assert set(final.heats.values_list("state", flat=True)) == {"running"}
    final.refresh_from_db()
    assert final.state == Round.State.RUNNING and final.seating_published_at
    response = org.post(url("round_start", rm, final), follow=True)
    assert said(response) == ["Every heat of this round has already started."]
    response = org.post(url("round_close", rm, final), follow=True)
    assert said(response) == ["Time is up in 2 heats."]
    final.refresh_from_db()
    assert final.state == Round.State.CLOSED
    assert "4 entries have no result yet." in response.content.decode()
    response = org.post(url("round_close", rm, final), follow=True)
    assert said(response) == ["No heat of this round is running."]


def test_starting_an_unseated_round_is_refused(org, rm, final):
    response = org.post(url("round_start", rm, final), follow=True)
    assert said(response) == ["Seat the round before starting it."]


def test_a_later_start_in_the_championship_time_zone(org, rm, individual, final):
    seated(individual, final, count=2)
    seat = seats_of(final)[0]
    response = org.post(url("seat_start", rm, final, seat=seat.pk), {"at": "10:00"}, follow=True)
    assert said(response) == ["The heat has not started yet."]
    started = datetime(NEXT_YEAR, 3, 14, 9, 0, tzinfo=UTC)  # 10:00 in Oslo
    rounds.heat_start(heat=seat.heat, at=started)
    response = org.post(url("seat_start", rm, final, seat=seat.pk), {"at": "10:02:30"}, follow=True)
    assert said(response) == ["Entrant 01 starts at 10:02:30."]
    seat.refresh_from_db()
    assert seat.started_at == started + timedelta(minutes=2, seconds=30)
    assert "own start 10:02:30" in response.content.decode()
    for at, expected in [("09:59", "cannot be before the heat's start"), ("soon", "as a time")]:
        response = org.post(url("seat_start", rm, final, seat=seat.pk), {"at": at}, follow=True)
        assert any(expected in m for m in said(response)), said(response)
    seat.refresh_from_db()
    assert seat.started_at == started + timedelta(minutes=2, seconds=30)


def test_advancing_once_the_results_are_final():
    dm = factories.championship(
        slug=f"dm-{NEXT_YEAR}", ruleset="dm", starts_at=datetime(NEXT_YEAR, 5, 1, tzinfo=UTC)
    )
    individual = dm.categories.get(kind="individual")
    prelim, final = individual.rounds.order_by("order")
    from django.test import Client

    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(dm, Role.ORGANISER))
    response = client.post(
        url("round_advancement", dm, prelim),
        {"advance": "overall", "advance_count": "2"},
        follow=True,
    )
    assert said(response) == ["The advancement is saved."]
    seated(individual, prelim, count=4)
    rounds.round_start(round_=prelim)
    response = client.post(url("round_advance", dm, prelim), follow=True)
    assert said(response) == ["The results are not final yet: 4 entries have no result."]
    rounds.round_close(round_=prelim)
    response = client.post(url("round_advance", dm, prelim), follow=True)
    assert said(response) == ["The results are not final yet: 4 entries have no result."]
    assert not Seat.objects.filter(round=final).exists()
    finish_all(prelim)
    page = client.get(url("round_control", dm, prelim)).content.decode()
    assert "The results are complete but provisional" in page
    assert "Advance the qualified to Final" in page
    # From provisional results only when the organiser says so.
    response = client.post(url("round_advance", dm, prelim), follow=True)
    assert said(response) == [
        "The results are provisional: sign them off first, or confirm that the qualified "
        "advance from provisional results."
    ]
    assert not Seat.objects.filter(round=final).exists()
    response = client.post(url("round_advance", dm, prelim), {"provisional": "yes"}, follow=True)
    assert said(response) == ["The qualified are seated in Final."]
    assert Seat.objects.filter(round=final).count() == 2
    # The final has no prior-ranking import: it is seated by the prelim's places.
    assert client.get(url("round_ranking", dm, final)).status_code == 404


# Advancement settings --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"advance": "overall"}, "advance_count", "Say how many advance overall."),
        ({"advance": "overall", "advance_count": "0"}, "advance_count", "Say how many"),
        (
            {"advance": "per_heat", "advance_count": "3"},
            "advance_best_remaining",
            "Say how many of the best remaining advance.",
        ),
        ({"advance": "per_heat"}, "advance_count", "Say how many advance per heat."),
        ({"advance": "everybody"}, "advance", "Select a valid choice"),
        ({"advance": "overall", "advance_count": "-1"}, "advance_count", "greater than or equal"),
    ],
)
def test_advancement_settings_are_validated_like_the_round(org, rm, final, data, field, message):
    response = org.post(url("round_advancement", rm, final), data)
    assert response.status_code == 200
    assert "The advancement is not saved: see the form." in said(response)
    errors = response.context["advance_form"].errors
    assert any(message in error for error in errors[field]), errors
    final.refresh_from_db()
    assert final.advance == "none" and final.advance_count is None


def test_advancement_settings_are_saved_and_the_numbers_that_do_not_apply_dropped(org, rm, final):
    org.post(
        url("round_advancement", rm, final),
        {"advance": "per_heat", "advance_count": "3", "advance_best_remaining": "2"},
    )
    final.refresh_from_db()
    assert final.advance_settings == {"per_heat": 3, "best_remaining": 2}
    org.post(
        url("round_advancement", rm, final),
        {"advance": "overall", "advance_count": "8", "advance_best_remaining": "2"},
    )
    final.refresh_from_db()
    assert final.advance_settings == {"overall": 8}
    org.post(url("round_advancement", rm, final), {"advance": "none", "advance_count": "8"})
    final.refresh_from_db()
    assert (final.advance, final.advance_count, final.advance_best_remaining) == (
        "none",
        None,
        None,
    )


def test_advancement_can_be_set_after_the_round_until_the_next_round_is_seated(org):
    """An organiser who forgot to set it before the round can still set it on the results."""
    dm = factories.championship(slug="dm-adv", ruleset="dm")
    role_user = org.session.get("_auth_user_id")
    ChampionshipRole.objects.create(championship=dm, user_id=role_user, role="organiser")
    individual = dm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    tables_create(championship=dm, count=4)
    for _ in range(3):
        factories.entry(individual)
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    factories.ran_earlier(prelim)
    for minute, result in enumerate(Result.objects.filter(round=prelim), start=40):
        result.status, result.time_ms = "finished", minute * 60_000
        result.save()
    standings_recompute(round_=prelim)
    response = org.post(
        url("round_advancement", dm, prelim),
        {"advance": "overall", "advance_count": "2"},
        follow=True,
    )
    prelim.refresh_from_db()
    assert prelim.advance == "overall" and prelim.advance_count == 2
    assert Result.objects.filter(round=prelim, qualified=True).count() == 2
    rounds.round_close(round_=prelim)
    rounds.round_advance(round_=prelim)
    response = org.post(
        url("round_advancement", dm, prelim),
        {"advance": "overall", "advance_count": "3"},
        follow=True,
    )
    assert said(response) == [
        "The next round is seated: advancement from this round can no longer change."
    ]
    prelim.refresh_from_db()
    assert prelim.advance_count == 2
    assert "Save the advancement" not in response.content.decode()
