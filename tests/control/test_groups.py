"""Parallel groups of a first stage: dealing the entries, and a round fed by several groups."""

import pytest
from django.core.exceptions import ValidationError

from championship.errors import RoundStateError
from championship.models import Seat
from control import groups, rounds
from control.rounds import SeatingPlan
from tests.control.staged import advance, entrants, run, staged

pytestmark = pytest.mark.django_db

# Groups A, B, C feed semifinal 1 (the WJPC's layout, smaller); D feeds semifinal 2.
LAYOUT = (
    ("a", "prelim", "semi1"),
    ("b", "prelim", "semi1"),
    ("c", "prelim", "semi1"),
    ("d", "prelim", "semi2"),
    ("semi1", "semifinal", "final"),
    ("semi2", "semifinal", "final"),
    ("final", "final", None),
)
ABC = (("a", "prelim", "semi"), ("b", "prelim", "semi"), ("c", "prelim", "semi"))
SEMI = (*ABC, ("semi", "semifinal", None))


def seated(round_):
    return [
        seat.entry_id
        for seat in Seat.objects.filter(round=round_).order_by("heat__order", "table__number")
    ]


def test_the_groups_of_a_first_stage_and_only_they_are_parallel_groups(championship):
    made = staged(championship, LAYOUT)
    assert groups.stage_groups(made["b"]) == [made[k] for k in "abcd"]
    assert groups.other_groups(made["a"]) == [made[k] for k in "bcd"]
    assert groups.stage_groups(made["semi1"]) == []
    assert made["semi1"].previous_rounds() == [made["a"], made["b"], made["c"]]
    assert made["final"].previous_rounds() == [made["semi1"], made["semi2"]]


def test_a_first_round_alone_is_no_group(championship):
    individual = championship.categories.get(kind="individual")
    assert groups.stage_groups(individual.rounds.get()) == []


def test_dealing_gives_every_entry_one_group_by_seeding_in_serpentine_order(championship):
    made = staged(championship, SEMI)
    entries = entrants(championship, 9, prior=True)
    dealt = groups.groups_deal(round_=made["b"])
    by_rank = [[entries.index(e) + 1 for e in share] for share in dealt.values()]
    # Seeds 1, 2, 3 to A, B, C; 4, 5, 6 back C, B, A; 7, 8, 9 to A, B, C.
    assert by_rank == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    assert [sorted(seated(made[k])) for k in "abc"] == [
        sorted(e.pk for e in share) for share in dealt.values()
    ]
    everyone = [pk for k in "abc" for pk in seated(made[k])]
    assert sorted(everyone) == sorted(e.pk for e in entries)
    # Within a group the best seed sits at table 1.
    assert seated(made["a"]) == [entries[0].pk, entries[5].pk, entries[6].pk]


def test_the_organiser_gives_the_groups_sizes(championship):
    made = staged(championship, SEMI)
    entrants(championship, 9, prior=True)
    dealt = groups.groups_deal(round_=made["a"], group_sizes=(5, 2, 2))
    assert [len(share) for share in dealt.values()] == [5, 2, 2]
    assert [len(seated(made[k])) for k in "abc"] == [5, 2, 2]
    with pytest.raises(ValidationError, match="add up to 8, but there are 9"):
        groups.groups_deal(round_=made["a"], group_sizes=(4, 2, 2))
    with pytest.raises(ValidationError, match="one size for each of the 3 groups"):
        groups.groups_deal(round_=made["a"], group_sizes=(7, 2))
    with pytest.raises(ValidationError, match="at least one entry"):
        groups.groups_deal(round_=made["a"], group_sizes=(9, 0, 0))


def test_a_group_seated_on_its_own_takes_the_entries_no_other_group_has(championship):
    made = staged(championship, SEMI)
    entries = entrants(championship, 6, prior=True)
    dealt = groups.groups_deal(round_=made["a"])
    rounds.round_seat(round_=made["a"])
    assert sorted(seated(made["a"])) == sorted(e.pk for e in dealt[made["a"]])
    # A newcomer, registered late, goes to the group seated next.
    late = entrants(championship, 1)[0]
    taking_b = {e.pk for e in rounds.round_entries(made["b"])}
    assert taking_b == {e.pk for e in dealt[made["b"]]} | {late.pk}
    assert not taking_b & {e.pk for e in entries} - {e.pk for e in dealt[made["b"]]}
    rounds.round_seat(round_=made["c"])
    assert late.pk in seated(made["c"])
    assert late.pk not in seated(made["a"]) + seated(made["b"])


def test_dealing_is_refused_once_a_group_has_started(championship):
    made = staged(championship, SEMI)
    entrants(championship, 6)
    groups.groups_deal(round_=made["a"])
    rounds.round_start(round_=made["b"])
    with pytest.raises(RoundStateError, match="has started"):
        groups.groups_deal(round_=made["a"])


def test_dealing_a_round_that_is_no_group_is_refused(championship):
    individual = championship.categories.get(kind="individual")
    with pytest.raises(RoundStateError, match="not one of several groups"):
        groups.groups_deal(round_=individual.rounds.get())


def test_a_semifinal_fed_by_three_groups_takes_their_qualifiers_equal_places_interleaved(
    championship,
):
    made = staged(championship, SEMI)
    entries = entrants(championship, 9)
    dealt = groups.groups_deal(round_=made["a"], plan=SeatingPlan(order="registration"))
    a, b, c = (dealt[made[k]] for k in "abc")
    for key in "abc":
        advance(made[key], "overall", 2)
    # A: 1, 2, 3; B: two tied first (both go on), then 3; C: 1, 2, 3.
    run(made["a"], {a[0].pk: 40, a[1].pk: 41, a[2].pk: 42})
    run(made["b"], {b[0].pk: 45, b[1].pk: 45, b[2].pk: 46})
    with pytest.raises(RoundStateError, match="fed by several groups"):
        rounds.round_advance(round_=made["a"])
    run(made["c"], {c[0].pk: 30, c[1].pk: 50, c[2].pk: 55})
    taking = {e.pk for e in rounds.round_entries(made["semi"])}
    assert taking == {a[0].pk, a[1].pk, b[0].pk, b[1].pk, c[0].pk, c[1].pk}
    rounds.round_advance(round_=made["b"])
    # Place 1: A's, B's first tied, C's, then B's second tied; place 2: A's, C's.
    assert seated(made["semi"]) == [a[0].pk, b[0].pk, c[0].pk, b[1].pk, a[1].pk, c[1].pk]
    assert len(entries) == 9


def test_one_round_after_another_is_seated_as_before():
    from tests import factories

    dm = factories.championship(slug="dm-2026", ruleset="dm")
    individual = dm.categories.get(kind="individual")
    prelim, final = individual.rounds.order_by("order")
    assert final.previous_rounds() == [prelim] and groups.stage_groups(prelim) == []
