"""The control room's seating: heats, starts, seeds, the presets' order rules, moving a seat."""

from datetime import UTC, datetime

import pytest

from championship.models import ChampionshipRole, Heat, Round, Seat
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from registration.models import Entry
from registration.services import entry_check_in
from tests import factories
from tests.control.control_room import MARCH_14, T0, entrants, said, seated, seats_of, url
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role


# Seating ---------------------------------------------------------------------------------------


def test_seating_two_heats_with_scheduled_starts_in_the_championship_time_zone(
    org, rm, individual, final
):
    tables_create(championship=rm, count=6)
    entrants(individual, 5)
    response = org.post(
        url("round_seat", rm, final),
        {
            "heats": "2",
            "order": "registration",
            "seed": "",
            "start_1": f"{NEXT_YEAR}-03-14T10:00",
            "start_2": f"{NEXT_YEAR}-03-14T12:30",
            "start_3": f"{NEXT_YEAR}-03-14T15:00",  # beyond the number of heats: ignored
        },
        follow=True,
    )
    assert said(response) == ["The round is seated in 2 heats."]
    heats = list(final.heats.order_by("order"))
    # Europe/Oslo is UTC+1 in March.
    assert [h.scheduled_start for h in heats] == [
        datetime(NEXT_YEAR, 3, 14, 9, 0, tzinfo=UTC),
        datetime(NEXT_YEAR, 3, 14, 11, 30, tzinfo=UTC),
    ]
    assert [h.seats.count() for h in heats] == [3, 2]
    final.refresh_from_db()
    assert final.state == Round.State.SEATED
    page = response.content.decode()
    assert "Heat A" in page and "Heat B" in page and "Entrant 01" in page
    assert f"scheduled {MARCH_14} 14 Mar 10:00" in page


def test_random_seating_takes_a_seed_and_shows_it(org, rm, individual, final):
    tables_create(championship=rm, count=10)
    entrants(individual, 8)
    response = org.post(
        url("round_seat", rm, final), {"heats": "1", "order": "random", "seed": ""}, follow=True
    )
    (message,) = said(response)
    seed = int(message.rsplit(" ", 1)[1].rstrip("."))
    assert f"Last seated at random with seed {seed}." in response.content.decode()
    first = [s.entry_id for s in seats_of(final)]
    # The same seed gives the same order.
    rounds.round_seat(round_=final, plan=SeatingPlan(order="random", seed=seed))
    assert [s.entry_id for s in seats_of(final)] == first


def test_seating_refusals_are_messages_and_change_nothing(org, rm, individual, final):
    tables_create(championship=rm, count=2)
    entrants(individual, 3)
    # More heats than entries.
    response = org.post(url("round_seat", rm, final), {"heats": "4", "order": "seeding"})
    assert response.status_code == 200
    assert "The round is not seated: see the form." in said(response)
    assert "at most 3 heats" in response.content.decode()
    # Too few tables (the service says so).
    response = org.post(url("round_seat", rm, final), {"heats": "1", "order": "seeding"})
    assert any("Not enough tables" in m for m in said(response))
    # An unknown order.
    response = org.post(url("round_seat", rm, final), {"heats": "1", "order": "alphabetical"})
    assert "The round is not seated: see the form." in said(response)
    assert not Seat.objects.exists() and not Heat.objects.exists()
    final.refresh_from_db()
    assert final.state == Round.State.PLANNED


def test_seating_only_the_checked_in(org, rm, individual, final):
    tables_create(championship=rm, count=4)
    here, _away = entrants(individual, 2)
    Entry.objects.filter(pk=here.pk).update(checked_in_at=T0)
    org.post(
        url("round_seat", rm, final), {"heats": "1", "order": "seeding", "checked_in_only": "on"}
    )
    assert [s.entry for s in seats_of(final)] == [here]


def organising(org, ruleset, slug):
    """Return a new championship of ``ruleset`` that the ``org`` client's user organises."""
    championship = factories.championship(
        slug=slug, ruleset=ruleset, starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    user_id = org.session.get("_auth_user_id")
    ChampionshipRole.objects.create(championship=championship, user_id=user_id, role=Role.ORGANISER)
    return championship


def test_sm_seat_form_requires_check_in_and_says_how_many_are_left_out(org):
    sm = organising(org, "sm", f"sm-{NEXT_YEAR}")
    individual = sm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    tables_create(championship=sm, count=6)
    here = entrants(individual, 2, checked_in_at=T0)
    away = entrants(individual, 3)
    page = org.get(url("round_control", sm, prelim)).content.decode()
    assert 'name="checked_in_only"' not in page
    assert "The rules require check-in: only checked-in entries are seated." in page
    assert (
        "3 confirmed entries are not checked in: they are left out, and become walk-overs "
        "when the round starts (the rules require check-in)." in page
    )
    assert "2 entries to seat at 6 tables." in page
    response = org.post(url("round_seat", sm, prelim), {"heats": "1"}, follow=True)
    assert said(response) == ["The round is seated in 1 heat."]
    assert {s.entry for s in seats_of(prelim)} == set(here)
    # A late check-in: the organiser is told to seat the round again.
    entry_check_in(entry=away[0])
    page = org.get(url("round_control", sm, prelim)).content.decode()
    assert "1 checked-in entry is not seated: seat the round again to seat it." in page
    org.post(url("round_seat", sm, prelim), {"heats": "1"})
    assert {s.entry for s in seats_of(prelim)} == {*here, away[0]}


def test_prior_ranking_rules_offer_no_other_order_and_refuse_one_sent(org):
    dm = organising(org, "dm", f"dm-{NEXT_YEAR}")
    individual = dm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    tables_create(championship=dm, count=6)
    entrants(individual, 3)
    page = org.get(url("round_control", dm, prelim)).content.decode()
    assert 'value="random"' not in page and 'value="registration"' not in page
    assert "by prior ranking, then by registration time: no other order is allowed." in page
    # dm's heats are equal: no sizes to give.
    assert 'name="heat_sizes"' not in page
    response = org.post(
        url("round_seat", dm, prelim), {"heats": "1", "order": "random", "seed": "5"}, follow=True
    )
    assert any("no other order is allowed" in message for message in said(response))
    assert not Seat.objects.exists()


def test_rogaland_leaves_the_order_and_heat_sizes_to_the_organiser(org, rm, individual, final):
    tables_create(championship=rm, count=6)
    made = entrants(individual, 5)
    page = org.get(url("round_control", rm, final)).content.decode()
    assert 'value="random"' in page and 'value="registration"' in page
    assert "By prior ranking, then by registration time" in page
    assert 'name="checked_in_only"' in page
    assert (
        "5 confirmed entries are not checked in: they are left out if only checked-in "
        "entries are seated." in page
    )
    assert "Heat sizes (e.g. 20, 14)" in page
    response = org.post(
        url("round_seat", rm, final),
        {"heats": "2", "order": "registration", "heat_sizes": "2, 3"},
        follow=True,
    )
    assert said(response) == ["The round is seated in 2 heats."]
    heat_of = {s.entry_id: s.heat.key for s in seats_of(final)}
    assert [heat_of[e.pk] for e in made] == ["a", "b", "b", "a", "b"]
    # Sizes that are not whole numbers, or that do not add up, are refused with the reason.
    response = org.post(
        url("round_seat", rm, final), {"heats": "2", "order": "registration", "heat_sizes": "3, x"}
    )
    assert "Give the heat sizes as whole numbers separated by commas, e.g. 20, 14." in (
        response.content.decode()
    )
    response = org.post(
        url("round_seat", rm, final), {"heats": "2", "order": "registration", "heat_sizes": "4, 4"}
    )
    assert said(response) == ["The heat sizes add up to 8, but there are 5 entries to seat."]
    # The refused seatings changed nothing.
    assert [h.seats.count() for h in final.heats.order_by("order")] == [2, 3]


def test_moving_a_seat_until_the_seating_is_published(org, rm, individual, final):
    seated(individual, final, count=3, tables=4)
    seat = seats_of(final)[0]
    response = org.post(
        url("seat_move", rm, final, seat=seat.pk),
        {"heat": "a", "table": "4", "position": "1"},
        follow=True,
    )
    assert said(response) == ["Entrant 01 moves to table 4 in Heat A."]
    seat.refresh_from_db()
    assert seat.table.number == 4
    # A taken seat, a missing table, a second seat at a table for one: refused.
    taken = seats_of(final)[0]
    for data, expected in [
        ({"heat": "a", "table": str(taken.table.number), "position": "1"}, "This seat is taken"),
        ({"heat": "a", "table": "99", "position": "1"}, "There is no table 99"),
        ({"heat": "a", "table": "4", "position": "2"}, "only one seat"),
        ({"heat": "zz", "table": "4", "position": "1"}, "no such heat"),
    ]:
        response = org.post(url("seat_move", rm, final, seat=seat.pk), data, follow=True)
        assert any(expected in m for m in said(response)), (data, said(response))
        seat.refresh_from_db()
        assert seat.table.number == 4 and seat.position == 1
    # Asked to, the two entries swap places.
    taken_number, taken_name = taken.table.number, taken.entry.name
    response = org.post(
        url("seat_move", rm, final, seat=seat.pk),
        {"heat": "a", "table": str(taken_number), "position": "1", "swap": "on"},
        follow=True,
    )
    assert said(response) == [
        f"Entrant 01 moves to table {taken_number} in Heat A; {taken_name} takes their place."
    ]
    where = {s.entry.name: s.table.number for s in seats_of(final)}
    assert (where["Entrant 01"], where[taken_name]) == (taken_number, 4)
    # Published: seats no longer move.
    response = org.post(url("round_publish", rm, final), follow=True)
    assert said(response) == ["The seating is published: entrants see their heat and table."]
    response = org.post(
        url("seat_move", rm, final, seat=seat.pk),
        {"heat": "a", "table": "1", "position": "1"},
        follow=True,
    )
    assert said(response) == ["The seating is published: it can no longer change."]
    seat.refresh_from_db()
    assert seat.table.number == taken_number
    # And the page no longer offers the move.
    assert 'name="table"' not in response.content.decode()


def test_publishing_before_seating_is_refused(org, rm, final):
    response = org.post(url("round_publish", rm, final), follow=True)
    assert said(response) == ["Seat the round before publishing its seating."]
    final.refresh_from_db()
    assert final.seating_published_at is None
