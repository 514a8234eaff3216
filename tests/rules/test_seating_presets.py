"""The presets' seating parameters: who chooses the order, and heats of given sizes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from championship.presets import PRESETS
from championship.rules.seating import (
    ORDERS,
    SeatingError,
    allowed_orders,
    check_heat_sizes,
    split_by_sizes,
    split_into_heats,
)


@pytest.mark.parametrize(
    ("preset", "first_round", "allowed"),
    [
        ("rogaland", True, ORDERS),  # seating_first_round: organiser
        ("rogaland", False, ORDERS),  # seating_later_rounds: None
        ("sm", True, ORDERS),  # "kan": may be by earlier results; the organiser's choice
        ("sm", False, ("seeding",)),  # by placement in the previous round
        ("dm", True, ("seeding",)),  # by results in earlier WJPF-recognised competitions
        ("dm", False, ("seeding",)),  # by placement in the previous round
    ],
)
def test_the_preset_says_whether_the_organiser_chooses_the_seating_order(
    preset, first_round, allowed
):
    rules = PRESETS[preset].rules
    assert (
        allowed_orders(
            first_round=first_round,
            seating_first_round=rules.seating_first_round,
            seating_later_rounds=rules.seating_later_rounds,
        )
        == allowed
    )


def test_given_heat_sizes_deal_the_seeds_in_turn_and_pass_over_full_heats():
    # A B B A A: heat B is full after seeds 2 and 3, so A takes the rest.
    assert split_by_sizes([1, 2, 3, 4, 5, 6, 7], [5, 2]) == [[1, 4, 5, 6, 7], [2, 3]]
    # A B C C B A, then A is full: B, C, and back from C.
    assert split_by_sizes(list(range(1, 10)), [2, 3, 4]) == [[1, 6], [2, 5, 7], [3, 4, 8, 9]]


def test_sm_organiser_sizes_20_and_14():
    split = split_by_sizes(list(range(1, 35)), [20, 14])
    assert [len(heat) for heat in split] == [20, 14]
    # Each heat has one of the two best seeds, and two of the best four.
    assert split[0][:2] == [1, 4] and split[1][:2] == [2, 3]


@pytest.mark.parametrize(
    ("sizes", "heats", "entries", "heat_split", "code"),
    [
        ([20, 14], 2, 34, "equal", "sizes_not_allowed"),  # dm: total / number of heats
        ([20, 14], 3, 34, "organiser", "sizes_count"),
        ([34], 2, 34, "organiser", "sizes_count"),
        ([34, 0], 2, 34, "organiser", "size_at_least_one"),
        ([40, -6], 2, 34, "organiser", "size_at_least_one"),
        ([20, 15], 2, 34, "organiser", "sizes_total"),
        ([20, 13], 2, 34, "organiser", "sizes_total"),
    ],
)
def test_heat_sizes_the_rules_or_the_round_do_not_allow_are_refused(
    sizes, heats, entries, heat_split, code
):
    with pytest.raises(SeatingError) as refused:
        check_heat_sizes(sizes, heats=heats, entries=entries, heat_split=heat_split)
    assert refused.value.code == code


def test_heat_sizes_that_fit_are_accepted_where_the_organiser_splits():
    check_heat_sizes([20, 14], heats=2, entries=34, heat_split="organiser")


@given(st.integers(1, 12), st.integers(1, 25))
def test_equal_sizes_are_the_serpentine_split(heats, size):
    order = list(range(heats * size))
    assert split_by_sizes(order, [size] * heats) == split_into_heats(order, heats)


@given(st.lists(st.integers(1, 30), min_size=1, max_size=8))
def test_given_sizes_are_kept_everyone_is_seated_and_the_best_seeds_go_round(sizes):
    order = list(range(sum(sizes)))
    split = split_by_sizes(order, sizes)
    assert [len(heat) for heat in split] == sizes
    assert sorted(entry for heat in split for entry in heat) == order
    # Until the smallest heat is full, the dealing is the plain serpentine one.
    laps = min(sizes)
    plain = split_into_heats(order[: laps * len(sizes)], len(sizes))
    assert [heat[:laps] for heat in split] == plain
