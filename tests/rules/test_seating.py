"""RULES.md's seating order and heat split."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from championship.rules.seating import (
    SeatingError,
    Seeding,
    first_round_order,
    later_round_order,
    split_into_heats,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(minutes):
    return T0 + timedelta(minutes=minutes)


def test_first_round_by_prior_ranking_then_unknown_entrants_by_registration_time():
    entries = [
        Seeding("late-unranked", at(50)),
        Seeding("ranked-3", at(40), prior_ranking=3),
        Seeding("early-unranked", at(1)),
        Seeding("ranked-1", at(30), prior_ranking=1),
    ]
    assert first_round_order(entries) == ["ranked-1", "ranked-3", "early-unranked", "late-unranked"]


def test_later_rounds_by_placement_in_the_previous_round():
    entries = [
        Seeding("third", at(1), previous_place=3),
        Seeding("first", at(2), previous_place=1),
        Seeding("second-b", at(9), previous_place=2),
        Seeding("second-a", at(3), previous_place=2),
    ]
    assert later_round_order(entries) == ["first", "second-a", "second-b", "third"]


def test_later_rounds_need_a_previous_place_for_everyone():
    with pytest.raises(SeatingError):
        later_round_order([Seeding("x", at(1))])


def test_heats_are_dealt_in_serpentine_order():
    assert split_into_heats(list(range(1, 10)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


def test_dm_heat_sizes_are_the_total_divided_by_the_number_of_groups():
    heats = split_into_heats(list(range(100)), 4)
    assert [len(h) for h in heats] == [25, 25, 25, 25]


def test_at_least_one_heat():
    with pytest.raises(SeatingError):
        split_into_heats([1, 2], 0)


@given(st.integers(0, 300), st.integers(1, 12))
def test_heat_sizes_differ_by_at_most_one_and_keep_everyone(count, heats):
    split = split_into_heats(list(range(count)), heats)
    sizes = [len(h) for h in split]
    assert max(sizes) - min(sizes) <= 1
    assert sorted(e for h in split for e in h) == list(range(count))


@given(st.integers(1, 300), st.integers(1, 12))
def test_serpentine_balances_the_seeding(count, heats):
    """Every full lap of the serpentine gives each heat seeds that sum to the same total."""
    split = split_into_heats(list(range(count)), heats)
    full_laps = (count // (2 * heats)) * 2
    sums = {sum(h[:full_laps]) for h in split}
    assert len(sums) == 1
