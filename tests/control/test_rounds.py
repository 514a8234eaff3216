"""Rounds: heats, seating order, tables (shared and reserved), the clock, and advancement."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError

from championship import services as championship_services
from championship.errors import RoundStateError
from championship.models import Category, Heat, Round, Seat
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from judging import services as judging_services
from registration.models import Entry
from registration.services import entry_check_in
from results.models import Result
from results.services import results_missing, standings_recompute
from tests import factories

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def entrants(championship, category, count, *, official=True, offset=0, **kwargs):
    made = []
    for number in range(count):
        if championship.ruleset == "sm":
            person = factories.person(championship, citizenship=["SE" if official else "NO"])
        else:
            person = factories.person(championship, region="Rogaland" if official else "Oslo")
        made.append(
            factories.entry(
                category,
                members=[person],
                registered_at=T0 + timedelta(minutes=len(made) + number + offset),
                **kwargs,
            )
        )
    return made


def seats_of(round_):
    return list(
        Seat.objects.filter(round=round_)
        .select_related("table", "heat", "entry")
        .order_by("heat__order", "table__number", "position")
    )


@pytest.fixture
def individual(championship):
    return championship.categories.get(kind="individual")


@pytest.fixture
def final(individual):
    return individual.rounds.get()


def test_rogaland_50_individuals_at_30_tables_share_20_tables_and_the_best_10_sit_alone(
    championship, individual, final
):
    Category.objects.filter(pk=individual.pk).update(capacity=None)
    tables_create(championship=championship, count=30, seats=2)
    entries = entrants(championship, individual, 50)
    rounds.round_seat(round_=final, plan=SeatingPlan(order="registration"))
    seats = seats_of(final)
    assert len(seats) == 50
    per_table = {}
    for seat in seats:
        per_table.setdefault(seat.table.number, []).append(seat)
    assert sorted(len(s) for s in per_table.values()).count(2) == 20
    assert sorted(len(s) for s in per_table.values()).count(1) == 10
    # The first seed sits alone at table 1; the shared tables are the last ones.
    assert per_table[1][0].entry == entries[0] and len(per_table[1]) == 1
    assert all(len(per_table[n]) == 2 for n in range(11, 31))
    assert {s.position for s in per_table[30]} == {1, 2}


def test_no_table_is_shared_when_there_are_enough(championship, individual, final):
    tables_create(championship=championship, count=40, seats=2)
    entrants(championship, individual, 35)
    rounds.round_seat(round_=final)
    assert {s.position for s in seats_of(final)} == {1}


def test_pairs_never_share_and_too_few_tables_is_a_clear_error(championship):
    pair = championship.categories.get(kind="pair")
    tables_create(championship=championship, count=3, seats=2)
    for _ in range(4):
        factories.entry(pair)
    with pytest.raises(ValidationError, match="Not enough tables"):
        rounds.round_seat(round_=pair.rounds.get())
    assert not Seat.objects.exists()


def test_sm_guests_sit_at_the_reserved_tables_and_the_one_left_over_in_its_position():
    sm = factories.championship(slug="sm-2026", ruleset="sm")
    individual = sm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    tables = tables_create(championship=sm, count=12)
    for table in tables[-2:]:
        table.reserved_for_guests = True
        table.save()
    # The guests registered first: seeding (registration time) puts them first.
    guests = entrants(sm, individual, 3, official=False, checked_in_at=T0)
    swedes = entrants(sm, individual, 8, checked_in_at=T0, offset=10)
    rounds.round_seat(round_=prelim)
    table_of = {s.entry_id: s.table for s in seats_of(prelim)}
    # The two best seeded guests at the two reserved tables; the third keeps its place
    # in the seating order, before the Swedes, at the first ordinary table.
    assert [table_of[g.pk].number for g in guests] == [11, 12, 1]
    assert [table_of[e.pk].number for e in swedes] == list(range(2, 10))


def test_prior_ranking_seeds_first_then_registration_time(championship, individual, final):
    tables_create(championship=championship, count=10)
    late, early, ranked_2, ranked_1 = entrants(championship, individual, 4)
    late.registered_at, early.registered_at = T0 + timedelta(days=2), T0
    ranked_2.prior_ranking, ranked_1.prior_ranking = 2, 1
    for entry in (late, early, ranked_2, ranked_1):
        entry.save()
    rounds.round_seat(round_=final, plan=SeatingPlan(order="seeding"))
    assert [s.entry for s in seats_of(final)] == [ranked_1, ranked_2, early, late]


def test_random_order_is_reproducible_with_its_seed(championship, individual, final):
    tables_create(championship=championship, count=20)
    entrants(championship, individual, 15)
    rounds.round_seat(round_=final, plan=SeatingPlan(order="random", seed=42))
    first = [s.entry_id for s in seats_of(final)]
    rounds.round_seat(round_=final, plan=SeatingPlan(order="random", seed=42))
    assert [s.entry_id for s in seats_of(final)] == first
    rounds.round_seat(round_=final, plan=SeatingPlan(order="random", seed=7))
    assert [s.entry_id for s in seats_of(final)] != first


def test_dm_heats_are_equal_and_dealt_in_serpentine_order():
    dm = factories.championship(slug="dm-2026", ruleset="dm")
    individual = dm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    tables_create(championship=dm, count=30)
    entries = entrants(dm, individual, 50)
    for rank, entry in enumerate(entries, start=1):
        entry.prior_ranking = rank
        entry.save()
    starts = [T0 + timedelta(hours=h) for h in (1, 3)]
    heats = rounds.round_seat(
        round_=prelim, plan=SeatingPlan(heats=2, order="seeding", scheduled_starts=starts)
    )
    assert [h.key for h in heats] == ["a", "b"]
    assert [h.seats.count() for h in heats] == [25, 25]
    assert [h.scheduled_start for h in heats] == starts
    heat_of = {s.entry_id: s.heat.key for s in seats_of(prelim)}
    assert [heat_of[e.pk] for e in entries[:6]] == ["a", "b", "b", "a", "a", "b"]


def test_only_checked_in_entries_are_seated_when_asked(championship, individual, final):
    tables_create(championship=championship, count=10)
    here, _away = entrants(championship, individual, 2)
    here.checked_in_at = T0
    here.save()
    rounds.round_seat(round_=final, plan=SeatingPlan(checked_in_only=True))
    assert [s.entry for s in seats_of(final)] == [here]


def test_walkovers_and_withdrawn_entries_are_not_seated(championship, individual, final):
    tables_create(championship=championship, count=10)
    kept, walkover = entrants(championship, individual, 2)
    walkover.walkover_at, walkover.walkover_reason = T0, "No check-in"
    walkover.save()
    factories.entry(individual, status="withdrawn", withdrawn_at=T0)
    rounds.round_seat(round_=final)
    assert [s.entry for s in seats_of(final)] == [kept]


def seated_round(championship, individual, final, count=4):
    tables_create(championship=championship, count=count + 2)
    made = entrants(championship, individual, count)
    rounds.round_seat(round_=final, plan=SeatingPlan(order="registration"))
    return made


def test_starting_a_heat_starts_every_clock_once(championship, individual, final):
    seated_round(championship, individual, final)
    individual.puzzle_motif = "Preikestolen"
    individual.save()
    assert not individual.puzzle_is_revealed()
    (heat,) = rounds.round_start(round_=final)
    assert heat.state == Heat.State.RUNNING and heat.started_at
    assert individual.puzzle_is_revealed()
    final.refresh_from_db()
    assert final.state == Round.State.RUNNING and final.seating_published_at
    assert Result.objects.filter(round=final, status="pending").count() == 4
    with pytest.raises(RoundStateError):
        rounds.round_start(round_=final)
    with pytest.raises(RoundStateError):
        rounds.heat_start(heat=heat)


def test_seats_cannot_move_once_seating_is_published(championship, individual, final):
    seated_round(championship, individual, final)
    seat = seats_of(final)[0]
    free_table = championship.tables.order_by("-number").first()
    moved = rounds.seat_move(seat=seat, heat=seat.heat, table=free_table).seat
    assert moved.table == free_table
    rounds.seating_publish(round_=final)
    with pytest.raises(RoundStateError):
        rounds.seat_move(seat=moved, heat=seat.heat, table=seats_of(final)[1].table)


def test_two_entries_swap_places_in_one_step(championship, individual, final):
    seated_round(championship, individual, final)
    first, second = seats_of(final)[:2]
    places = {
        first.entry_id: (first.heat_id, first.table_id, first.position),
        second.entry_id: (second.heat_id, second.table_id, second.position),
    }
    with pytest.raises(ValidationError, match="taken"):
        rounds.seat_move(seat=first, heat=second.heat, table=second.table, position=second.position)
    moved = rounds.seat_move(
        seat=first, heat=second.heat, table=second.table, position=second.position, swap=True
    )
    assert moved.swapped.entry_id == second.entry_id
    now = {s.entry_id: (s.heat_id, s.table_id, s.position) for s in seats_of(final)}
    assert now[first.entry_id] == places[second.entry_id]
    assert now[second.entry_id] == places[first.entry_id]
    assert Seat.objects.filter(round=final).count() == len(now)
    # Swapping with an empty place is a plain move.
    free_table = championship.tables.order_by("-number").first()
    plain = rounds.seat_move(seat=moved.seat, heat=moved.seat.heat, table=free_table, swap=True)
    assert plain.swapped is None and plain.seat.table == free_table


def test_a_later_start_of_one_entry(championship, individual, final):
    seated_round(championship, individual, final)
    (heat,) = rounds.round_start(round_=final)
    seat = seats_of(final)[0]
    with pytest.raises(ValidationError):
        judging_services.seat_set_start(seat=seat, at=heat.started_at - timedelta(seconds=1))
    later = heat.started_at + timedelta(minutes=2)
    assert judging_services.seat_set_start(seat=seat, at=later).started_at == later


def finish_all(final, minutes=(40, 41, 42, 43)):
    factories.ran_earlier(final)
    for result, minute in zip(
        Result.objects.filter(round=final).order_by("entry__registered_at"), minutes, strict=False
    ):
        result.status, result.time_ms = "finished", minute * 60_000
        result.save()
    standings_recompute(round_=final)


def test_closing_at_time_up_and_the_results_becoming_final(championship, individual, final):
    seated_round(championship, individual, final)
    rounds.round_start(round_=final)
    rounds.round_close(round_=final)
    final.refresh_from_db()
    assert final.state == Round.State.CLOSED
    assert set(final.heats.values_list("state", flat=True)) == {"time_up"}
    assert not rounds.results_final(final)
    assert results_missing(final) == 4
    finish_all(final)
    assert rounds.results_final(final)
    with pytest.raises(RoundStateError):
        rounds.round_close(round_=final)


def test_advancing_seats_the_qualified_by_placement_winner_at_table_1():
    dm = factories.championship(slug="dm-2026", ruleset="dm")
    individual = dm.categories.get(kind="individual")
    prelim, final = individual.rounds.order_by("order")
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=2)
    prelim.refresh_from_db()
    tables_create(championship=dm, count=6)
    made = entrants(dm, individual, 4)
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    with pytest.raises(RoundStateError, match="not final"):
        rounds.round_advance(round_=prelim)
    rounds.round_close(round_=prelim)
    finish_all(prelim, minutes=(43, 41, 42, 40))
    rounds.round_advance(round_=prelim)
    assert [s.entry for s in seats_of(final)] == [made[3], made[1]]
    assert seats_of(final)[0].table.number == 1
    with pytest.raises(RoundStateError, match="last round"):
        rounds.round_advance(round_=final)


def test_seating_again_replaces_the_seating_until_the_round_starts(championship, individual, final):
    seated_round(championship, individual, final)
    rounds.round_seat(round_=final, plan=SeatingPlan(heats=2))
    assert final.heats.count() == 2 and Seat.objects.filter(round=final).count() == 4
    rounds.round_start(round_=final)
    with pytest.raises(RoundStateError):
        rounds.round_seat(round_=final)


def test_a_rotated_token_stops_the_old_one(client, championship, judge):
    table = factories.table(championship)
    old = table.token
    rotated = championship_services.table_rotate_token(table=table)
    assert rotated.token != old and len(rotated.token) >= 22
    client.force_login(judge)
    assert client.get(f"/t/{old}/").status_code == 404
    assert client.get(f"/t/{rotated.token}/").status_code == 200


def test_heat_keys_run_a_to_z_then_aa():
    assert [rounds.heat_key(i) for i in (0, 1, 25, 26, 27)] == ["a", "b", "z", "aa", "ab"]


def test_unknown_birth_dates_do_not_matter_to_seating(championship, individual, final):
    tables_create(championship=championship, count=3)
    factories.entry(
        individual, members=[factories.person(championship, birth_date=date(2000, 1, 1))]
    )
    assert len(rounds.round_seat(round_=final)) == 1


def test_more_heats_than_entries_is_refused(championship, individual, final):
    tables_create(championship=championship, count=5)
    entrants(championship, individual, 2)
    with pytest.raises(ValidationError, match="more heats than entries"):
        rounds.round_seat(round_=final, plan=SeatingPlan(heats=3))
    assert not final.heats.exists()


def test_tables_with_numbers_already_taken_are_refused(championship):
    tables_create(championship=championship, count=3)
    with pytest.raises(ValidationError, match="Table 2 exists already"):
        tables_create(championship=championship, count=2, first_number=2)
    assert championship.tables.count() == 3


def test_a_later_start_after_time_up_is_refused(championship, individual, final):
    seated_round(championship, individual, final)
    (heat,) = rounds.round_start(round_=final)
    rounds.round_close(round_=final)
    heat.refresh_from_db()
    with pytest.raises(ValidationError, match="Time is already up"):
        judging_services.seat_set_start(
            seat=seats_of(final)[0], at=heat.ended_at + timedelta(seconds=1)
        )


# The rules' seating parameters ---------------------------------------------------------------


def sm_prelim(tables=12):
    sm = factories.championship(slug="sm-2026", ruleset="sm")
    individual = sm.categories.get(kind="individual")
    tables_create(championship=sm, count=tables)
    return sm, individual, individual.rounds.get(stage="prelim")


def test_sm_seats_only_checked_in_entries_whatever_the_plan_says():
    sm, individual, prelim = sm_prelim()
    here = entrants(sm, individual, 2, checked_in_at=T0)
    away = entrants(sm, individual, 2, offset=10)
    rounds.round_seat(round_=prelim, plan=SeatingPlan(checked_in_only=False))
    assert {s.entry for s in seats_of(prelim)} == set(here)
    # Left out, but not yet a walk-over: they may still check in before the start.
    assert all(e.walkover_at is None for e in Entry.objects.filter(pk__in=[a.pk for a in away]))


def test_sm_entries_not_checked_in_become_walkovers_when_the_round_starts():
    sm, individual, prelim = sm_prelim()
    here = entrants(sm, individual, 2, checked_in_at=T0)
    (away,) = entrants(sm, individual, 1, offset=10)
    rounds.round_seat(round_=prelim)
    (heat,) = rounds.round_start(round_=prelim)
    away.refresh_from_db()
    assert away.walkover_at == heat.started_at
    # Stored in the championship's language, whoever started the round.
    assert away.walkover_reason == (
        "Ingen incheckning innan omgången började (reglerna kräver incheckning)."
    )
    assert all(e.walkover_at is None for e in Entry.objects.filter(pk__in=[h.pk for h in here]))


def test_sm_a_late_check_in_is_seated_by_seating_again_before_the_start():
    sm, individual, prelim = sm_prelim()
    entrants(sm, individual, 2, checked_in_at=T0)
    (late,) = entrants(sm, individual, 1, offset=10)
    rounds.round_seat(round_=prelim)
    assert late not in {s.entry for s in seats_of(prelim)}
    entry_check_in(entry=late)
    rounds.round_seat(round_=prelim)
    assert late in {s.entry for s in seats_of(prelim)}
    rounds.round_start(round_=prelim)
    late.refresh_from_db()
    assert late.walkover_at is None and late.walkover_reason == ""


def test_sm_nobody_checked_in_is_a_clear_refusal():
    sm, individual, prelim = sm_prelim()
    entrants(sm, individual, 3)
    with pytest.raises(RoundStateError, match="No entry is checked in"):
        rounds.round_seat(round_=prelim)


@pytest.mark.parametrize("order", ["registration", "random"])
def test_dm_prior_ranking_rule_refuses_another_order_for_the_first_round(order):
    """dm: "afgøres rækkefølgen ud fra resultater": the order is fixed."""
    championship = factories.championship(slug="dm-2026", ruleset="dm")
    individual = championship.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    tables_create(championship=championship, count=5)
    entrants(championship, individual, 3, checked_in_at=T0)
    with pytest.raises(ValidationError) as refused:
        rounds.round_seat(round_=prelim, plan=SeatingPlan(order=order, seed=1))
    assert "prior ranking" in refused.value.message_dict["order"][0]
    assert not Seat.objects.exists()
    # Seeding (prior ranking, then registration time) is the order they allow.
    rounds.round_seat(round_=prelim)
    assert Seat.objects.filter(round=prelim).count() == 3


def test_sm_first_round_is_seeded_by_default_and_takes_the_organisers_order():
    """sm: the first round "kan" (may) be seated by earlier results: the organiser chooses."""
    sm, individual, prelim = sm_prelim()
    late, early, ranked = entrants(sm, individual, 3, checked_in_at=T0)
    late.registered_at = T0 + timedelta(days=1)
    late.save()
    ranked.prior_ranking = 1
    ranked.save()
    rounds.round_seat(round_=prelim)
    assert [s.entry for s in seats_of(prelim)] == [ranked, early, late]
    rounds.round_seat(round_=prelim, plan=SeatingPlan(order="registration"))
    assert [s.entry for s in seats_of(prelim)] == [early, ranked, late]
    rounds.round_seat(round_=prelim, plan=SeatingPlan(order="random", seed=3))
    assert {s.entry for s in seats_of(prelim)} == {ranked, early, late}


def test_previous_placement_rules_refuse_another_order_for_a_later_round():
    dm = factories.championship(slug="dm-2026", ruleset="dm")
    individual = dm.categories.get(kind="individual")
    prelim, final = individual.rounds.order_by("order")
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=3)
    tables_create(championship=dm, count=6)
    made = entrants(dm, individual, 4)
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    rounds.round_close(round_=prelim)
    finish_all(prelim, minutes=(43, 41, 42, 40))
    with pytest.raises(ValidationError) as refused:
        rounds.round_seat(round_=final, plan=SeatingPlan(order="registration"))
    assert "placement in the previous round" in refused.value.message_dict["order"][0]
    rounds.round_seat(round_=final)
    assert [s.entry for s in seats_of(final)] == [made[3], made[1], made[2]]
    # Where the rules leave later rounds to the organiser (None), any order goes.
    dm.rule_overrides = {"seating_later_rounds": None}
    dm.save()
    rounds.round_seat(round_=Round.objects.get(pk=final.pk), plan=SeatingPlan(order="registration"))
    assert [s.entry for s in seats_of(final)] == [made[1], made[2], made[3]]


def test_organiser_heat_sizes_seat_heats_of_those_sizes_dealing_the_seeds_in_turn(
    championship, individual, final
):
    tables_create(championship=championship, count=10)
    made = entrants(championship, individual, 5)
    for rank, entry in enumerate(made, start=1):
        entry.prior_ranking = rank
        entry.save()
    heats = rounds.round_seat(round_=final, plan=SeatingPlan(heats=2, heat_sizes=[3, 2]))
    assert [h.seats.count() for h in heats] == [3, 2]
    heat_of = {s.entry_id: s.heat.key for s in seats_of(final)}
    assert [heat_of[e.pk] for e in made] == ["a", "b", "b", "a", "a"]
    # Without sizes, the serpentine split into sizes differing by at most one.
    heats = rounds.round_seat(round_=final, plan=SeatingPlan(heats=2))
    assert [h.seats.count() for h in heats] == [3, 2]
    assert [s.entry for s in seats_of(final) if s.heat.key == "b"] == [made[1], made[2]]


@pytest.mark.parametrize(
    ("heats", "sizes", "message"),
    [
        (2, [5], "Give one heat size for each of the 2 heats."),
        (2, [5, 0], "Every heat needs at least one entry."),
        (2, [3, 3], "The heat sizes add up to 6, but there are 5 entries to seat."),
    ],
)
def test_heat_sizes_that_do_not_fit_the_round_are_refused_with_the_reason(
    championship, individual, final, heats, sizes, message
):
    tables_create(championship=championship, count=10)
    entrants(championship, individual, 5)
    with pytest.raises(ValidationError) as refused:
        rounds.round_seat(round_=final, plan=SeatingPlan(heats=heats, heat_sizes=sizes))
    assert refused.value.message_dict["heat_sizes"] == [message]
    assert not final.heats.exists()


def test_dm_equal_heats_refuse_heat_sizes():
    dm = factories.championship(slug="dm-2026", ruleset="dm")
    individual = dm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    tables_create(championship=dm, count=10)
    entrants(dm, individual, 5)
    with pytest.raises(ValidationError) as refused:
        rounds.round_seat(round_=prelim, plan=SeatingPlan(heats=2, heat_sizes=[4, 1]))
    assert "equal in size" in refused.value.message_dict["heat_sizes"][0]
    assert not prelim.heats.exists()


def test_sm_officials_take_the_reserved_tables_no_guest_needs_when_tables_run_short():
    sm, individual, prelim = sm_prelim(tables=12)
    for table in sm.tables.filter(number__in=(6, 12)):
        table.reserved_for_guests = True
        table.save()
    (guest,) = entrants(sm, individual, 1, official=False, checked_in_at=T0)
    swedes = entrants(sm, individual, 11, checked_in_at=T0, offset=20)
    rounds.round_seat(round_=prelim)
    table_of = {s.entry_id: s.table.number for s in seats_of(prelim)}
    # The guest at the first reserved table; the best ten Swedes at the ordinary tables,
    # in order; the eleventh at the reserved table left over.
    assert table_of[guest.pk] == 6
    assert [table_of[e.pk] for e in swedes] == [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]


def test_seating_is_refused_only_when_every_table_is_taken():
    sm, individual, prelim = sm_prelim(tables=12)
    for table in sm.tables.filter(number__in=(11, 12)):
        table.reserved_for_guests = True
        table.save()
    entrants(sm, individual, 12, checked_in_at=T0)
    rounds.round_seat(round_=prelim)
    assert sorted(s.table.number for s in seats_of(prelim)) == list(range(1, 13))
    entrants(sm, individual, 1, checked_in_at=T0, offset=50)
    with pytest.raises(ValidationError, match="13 entries need more than the 12 tables"):
        rounds.round_seat(round_=prelim)
