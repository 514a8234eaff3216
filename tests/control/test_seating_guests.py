"""Where guests (unofficial entries) sit: at the reserved guest tables, else in their position.

RULES.md: "Later-round seating follows the placement in the previous round: the
place, with unofficial entrants in their position (an unofficial second sits
second), except where the organiser reserved guest tables (sm: up to 10 per
round): guests sit there." The first round does the same with its seeding order.
"""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError

from championship.models import Heat, Round, Seat, Table
from championship.services import tables_create
from control import rounds
from control.tables import allocate_tables
from registration.models import Entry
from results.models import Result
from results.services import standings_recompute
from tests import factories

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def entries(count: int) -> list[Entry]:
    return [Entry(pk=number, name=f"Entry {number}") for number in range(1, count + 1)]


def tables(count: int, *, reserved=(), seats: int = 1) -> list[Table]:
    return [
        Table(pk=number, number=number, seats=seats, reserved_for_guests=number in reserved)
        for number in range(1, count + 1)
    ]


def table_numbers(allocation) -> dict[int, tuple[int, int]]:
    """Return each entry's (table number, position) by the entry's pk."""
    return {entry.pk: (table.number, position) for entry, table, position in allocation}


def test_without_reserved_tables_a_guest_sits_in_its_seating_position():
    """An unofficial second sits at the second table."""
    made = entries(4)
    allocation = allocate_tables(
        made, tables(6), official={2: False}, may_share=False, guest_tables_max=10
    )
    assert table_numbers(allocation) == {1: (1, 1), 2: (2, 1), 3: (3, 1), 4: (4, 1)}


def test_guests_beyond_the_reserved_tables_keep_their_seating_position():
    """One reserved table: the best seeded guest sits there, the other among the officials."""
    made = entries(5)
    # Tables 5 and 6 are marked reserved; the rules allow one.
    allocation = allocate_tables(
        made,
        tables(6, reserved=(5, 6)),
        official={2: False, 4: False},
        may_share=False,
        guest_tables_max=1,
    )
    assert table_numbers(allocation) == {1: (1, 1), 2: (5, 1), 3: (2, 1), 4: (3, 1), 5: (4, 1)}


def test_reserved_tables_no_guest_took_go_to_the_last_entries_when_tables_run_short():
    made = entries(5)
    allocation = allocate_tables(
        made,
        tables(5, reserved=(4, 5)),
        official={3: False},
        may_share=False,
        guest_tables_max=1,
    )
    # The guest at the reserved table 4; the others in order at 1 to 3, the last at the
    # table marked reserved beyond the maximum.
    assert table_numbers(allocation) == {1: (1, 1), 2: (2, 1), 3: (4, 1), 4: (3, 1), 5: (5, 1)}


def test_where_no_guest_table_is_allowed_guests_sit_in_position_and_tables_are_shared_last():
    """rogaland: no guest tables; tables are shared only once every table is taken."""
    made = entries(5)
    allocation = allocate_tables(
        made,
        tables(4, reserved=(4,), seats=2),
        official={2: False},
        may_share=True,
        guest_tables_max=0,
    )
    # Three ordinary tables and one marked reserved (none allowed): the fifth entry
    # needs a shared seat, at the last ordinary table; the marked table comes last.
    assert table_numbers(allocation) == {1: (1, 1), 2: (2, 1), 3: (3, 1), 4: (3, 2), 5: (4, 1)}


def test_too_few_tables_is_refused_with_guests_in_position_too():
    with pytest.raises(ValidationError, match="Not enough tables"):
        allocate_tables(
            entries(4), tables(3), official={2: False}, may_share=False, guest_tables_max=10
        )


# Through the seating service ---------------------------------------------------------------


def sm_entrant(sm, individual, name: str, *, swede: bool = True, minute: int = 0) -> Entry:
    person = factories.person(sm, name=name, citizenship=["SE" if swede else "NO"])
    return factories.entry(
        individual,
        members=[person],
        registered_at=T0 + timedelta(minutes=minute),
        checked_in_at=T0,
    )


def finish(round_: Round, minutes: dict[Entry, int]) -> None:
    """Run a round to time-up with each entry's finish, in minutes."""
    rounds.round_start(round_=round_)
    # Started long ago, so that time-up now is after the time limit.
    Heat.objects.filter(round=round_).update(started_at=T0 - timedelta(hours=3))
    rounds.round_close(round_=round_)
    for entry, minute in minutes.items():
        Result.objects.filter(round=round_, entry=entry).update(
            status="finished", time_ms=minute * 60_000
        )
    standings_recompute(round_=round_)


@pytest.fixture
def sm_prelim_done(db):
    """An sm preliminary round: a Norwegian guest second behind a Swede, three Swedes after."""
    sm = factories.championship(slug="sm-2026", ruleset="sm")
    individual = sm.categories.get(kind="individual")
    prelim, final = individual.rounds.order_by("order")
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=3)
    tables_create(championship=sm, count=12)
    anna = sm_entrant(sm, individual, "Anna", minute=1)
    ola = sm_entrant(sm, individual, "Ola", swede=False, minute=2)
    britt = sm_entrant(sm, individual, "Britt", minute=3)
    carl = sm_entrant(sm, individual, "Carl", minute=4)
    dora = sm_entrant(sm, individual, "Dora", minute=5)
    rounds.round_seat(round_=prelim)
    finish(prelim, {anna: 40, ola: 41, britt: 42, carl: 43, dora: 44})
    return sm, final


def final_tables(final: Round) -> dict[str, int]:
    seats = Seat.objects.filter(round=final).select_related("entry", "table")
    return {seat.entry.name: seat.table.number for seat in seats}


def test_an_unofficial_second_sits_at_the_second_table_of_the_final(sm_prelim_done):
    """sm: seated by the placement in the previous round, the guest in its position."""
    _sm, final = sm_prelim_done
    rounds.round_seat(round_=final)
    # Ola (Norway) was second, better than Carl, the last Swede to qualify: he advances.
    assert final_tables(final) == {"Anna": 1, "Ola": 2, "Britt": 3, "Carl": 4}


def test_a_qualified_guest_sits_at_a_reserved_guest_table_where_there_is_one(sm_prelim_done):
    sm, final = sm_prelim_done
    Table.objects.filter(championship=sm, number__in=(11, 12)).update(reserved_for_guests=True)
    rounds.round_seat(round_=final)
    assert final_tables(final) == {"Anna": 1, "Ola": 11, "Britt": 2, "Carl": 3}


def test_a_first_round_seats_a_guest_in_its_seeding_position(championship):
    """rogaland: no guest tables; the prior ranking puts the guest first."""
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    tables_create(championship=championship, count=5)
    local = factories.person(championship, name="Kari", region="Rogaland")
    visitor = factories.person(championship, name="Sven", region="Oslo")
    factories.entry(individual, members=[local], registered_at=T0)
    factories.entry(individual, members=[visitor], registered_at=T0, prior_ranking=1)
    rounds.round_seat(round_=final)
    assert final_tables(final) == {"Sven": 1, "Kari": 2}
