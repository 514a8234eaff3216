"""Advancement, case by case: each preset's rule on small rounds, and sm's guests heat by heat."""

from dataclasses import dataclass

import pytest

from championship.rules.advancement import Advance, AdvancementError, qualifiers
from championship.rules.timing import (
    DNS,
    DSQ,
    INVALID,
    PENDING,
)
from tests.rules.advancement_rows import PER_HEAT_1, standings


def test_overall_n_takes_the_n_best_of_the_round():
    table = standings(
        ("a", 100, "A", True), ("b", 200, "B", True), ("c", 300, "A", True), ("d", 400, "B", True)
    )
    assert qualifiers(table, Advance(overall=2)) == {"a", "b"}


def test_entries_tied_with_the_last_qualifier_also_qualify():
    table = standings(
        ("a", 100, "A", True), ("b", 200, "A", True), ("c", 200, "B", True), ("d", 300, "B", True)
    )
    assert qualifiers(table, Advance(overall=2)) == {"a", "b", "c"}


def test_unfinished_entries_can_qualify_by_pieces():
    table = standings(
        ("a", 100, "A", True), ("b", ("pieces", 450), "A", True), ("c", ("pieces", 300), "A", True)
    )
    assert qualifiers(table, Advance(overall=2)) == {"a", "b"}


def test_invalid_and_not_started_entries_never_qualify():
    table = standings(("a", 100, "A", True), ("x", INVALID, "A", True), ("y", DNS, "A", True))
    assert qualifiers(table, Advance(overall=3)) == {"a"}


def test_per_heat_takes_the_best_of_each_heat_then_the_best_remaining():
    table = standings(
        ("a1", 100, "A", True),
        ("a2", 110, "A", True),
        ("a3", 120, "A", True),
        ("b1", 300, "B", True),
        ("b2", 310, "B", True),
        ("b3", 320, "B", True),
    )
    # The best of each heat (a1, b1), then the two best of the rest across heats (a2, a3).
    assert qualifiers(table, Advance(per_heat=1, best_remaining=2)) == {"a1", "b1", "a2", "a3"}


def test_per_heat_ties_with_a_heats_last_qualifier_qualify():
    table = standings(
        ("a1", 100, "A", True),
        ("a2", 100, "A", True),
        ("b1", 300, "B", True),
        ("b2", 310, "B", True),
    )
    assert qualifiers(table, Advance(per_heat=1, best_remaining=0)) == {"a1", "a2", "b1"}


def test_best_remaining_ties_with_the_last_qualify():
    table = standings(
        ("a1", 100, "A", True),
        ("a2", 200, "A", True),
        ("b1", 150, "B", True),
        ("b2", 200, "B", True),
    )
    assert qualifiers(table, Advance(per_heat=1, best_remaining=1)) == {"a1", "b1", "a2", "b2"}


def test_sm_unofficial_entry_qualifies_only_when_better_than_the_last_official_qualifier():
    table = standings(
        ("guest-fast", 90, "A", False),
        ("se1", 100, "A", True),
        ("se2", 200, "A", True),
        ("guest-slow", 250, "A", False),
        ("se3", 300, "A", True),
    )
    result = qualifiers(table, Advance(overall=2), unofficial_only_if_better=True)
    assert result == {"guest-fast", "se1", "se2"}


def test_sm_unofficial_entries_do_not_reduce_the_official_places():
    table = standings(
        ("g1", 90, "A", False),
        ("g2", 95, "A", False),
        ("se1", 100, "A", True),
        ("se2", 200, "A", True),
        ("se3", 300, "A", True),
    )
    result = qualifiers(table, Advance(overall=3), unofficial_only_if_better=True)
    assert result >= {"se1", "se2", "se3"}
    assert result == {"g1", "g2", "se1", "se2", "se3"}


def test_sm_unofficial_entry_tied_with_the_last_official_qualifier_does_not_qualify():
    table = standings(("se1", 100, "A", True), ("guest", 200, "A", False), ("se2", 200, "A", True))
    result = qualifiers(table, Advance(overall=2), unofficial_only_if_better=True)
    assert result == {"se1", "se2"}


def test_without_the_sm_rule_unofficial_entries_take_places_like_anyone():
    table = standings(("guest", 90, "A", False), ("a", 100, "A", True), ("b", 200, "A", True))
    assert qualifiers(table, Advance(overall=2)) == {"guest", "a"}


# sm's guests, heat by heat -------------------------------------------------------------
#
# RULES.md, "Advancement", and the rulebook: "Kvalificering till nästkommande omgång för
# internationella deltagare utom tävlan sker genom att de deltagare som har en bättre tid
# än sista kvalificerade svensk går vidare till final."

BETTER_THAN_THE_LAST_SWEDE = "de deltagare som har en bättre tid än sista kvalificerade svensk"
OWN_HEAT = "with a number per heat, the last Swede qualified from the guest's own heat"
BEST_REMAINING = "for the best-remaining places, the last Swede qualified among them"
NEVER_BEHIND_A_SWEDE_WHO_STAYS = (
    "A guest never advances with a result equal to or worse than that of a Swede of its "
    "own heat who does not advance."
)
BETTER = (
    '"Better" compares results: a completed puzzle beats every piece count, and more '
    "pieces beat fewer."
)
PLACES_NOT_REDUCED = "The number of places for official entrants is not reduced by guests."
TIES = "Entries tied with the last qualifier also qualify (a decision)."
FASTEST_ADVANCE = "The fastest of the preliminary round advance to the final"
PER_HEAT_1_BEST_1 = Advance(per_heat=1, best_remaining=1)


@dataclass(frozen=True)
class Case:
    """A round's rows (as ``standings`` takes them), its advancement and who advances."""

    behaviour: str
    rule: str
    rows: tuple
    advance: Advance
    advancing: frozenset
    sm: bool = True


CASES = [
    Case(
        "a guest behind a Swede of its own heat who does not advance stays out",
        NEVER_BEHIND_A_SWEDE_WHO_STAYS,
        (
            ("se-a1", "20:00", "A", True),
            ("se-a2", "25:00", "A", True),
            ("guest-a", "30:00", "A", False),
            # Heat B's slower qualifier is no mark for heat A's guest.
            ("se-b1", "35:00", "B", True),
        ),
        PER_HEAT_1,
        frozenset({"se-a1", "se-b1"}),
    ),
    Case(
        "a guest equal to its heat's last qualifier stays out",
        BETTER_THAN_THE_LAST_SWEDE,
        (
            ("se-a1", "20:00", "A", True),
            ("guest-a", "20:00", "A", False),
            ("se-b1", "35:00", "B", True),
        ),
        PER_HEAT_1,
        frozenset({"se-a1", "se-b1"}),
    ),
    Case(
        "a guest better than its heat's last qualifier advances",
        OWN_HEAT,
        (
            ("guest-a", "19:59", "A", False),
            ("se-a1", "20:00", "A", True),
            ("se-a2", "21:00", "A", True),
            ("se-b1", "35:00", "B", True),
        ),
        PER_HEAT_1,
        frozenset({"guest-a", "se-a1", "se-b1"}),
    ),
    Case(
        "guests with equal times meet their own heats' last qualifiers",
        OWN_HEAT,
        (
            ("se-a1", "20:00", "A", True),
            ("guest-a", "30:00", "A", False),
            ("guest-b", "30:00", "B", False),
            ("se-b1", "35:00", "B", True),
        ),
        PER_HEAT_1,
        frozenset({"se-a1", "se-b1", "guest-b"}),
    ),
    Case(
        "a guest better than the last Swede of the best remaining advances",
        BEST_REMAINING,
        (
            ("se-a1", "20:00", "A", True),
            # Equal to its heat's last qualifier, but better than se-a2, who advances.
            ("guest-a", "20:00", "A", False),
            ("se-a2", "24:00", "A", True),
            ("se-b1", "30:00", "B", True),
            ("se-b2", "40:00", "B", True),
        ),
        PER_HEAT_1_BEST_1,
        frozenset({"se-a1", "se-a2", "se-b1", "guest-a"}),
    ),
    Case(
        "a guest equal to the last Swede of the best remaining stays out",
        BEST_REMAINING,
        (
            ("se-a1", "20:00", "A", True),
            ("se-a2", "24:00", "A", True),
            ("guest-a", "24:00", "A", False),
            ("se-b1", "30:00", "B", True),
            ("se-b2", "40:00", "B", True),
        ),
        PER_HEAT_1_BEST_1,
        frozenset({"se-a1", "se-a2", "se-b1"}),
    ),
    Case(
        "a guest of a heat without Swedes advances only by the best remaining",
        BEST_REMAINING,
        (
            ("guest-a1", "10:00", "A", False),
            ("se-b1", "20:00", "B", True),
            ("se-b2", "25:00", "B", True),
            ("guest-a2", "26:00", "A", False),
            ("se-c1", "30:00", "C", True),
        ),
        PER_HEAT_1_BEST_1,
        frozenset({"se-b1", "se-c1", "se-b2", "guest-a1"}),
    ),
    Case(
        "without best-remaining places a guest of a heat without Swedes stays out",
        OWN_HEAT,
        (("guest-a", "10:00", "A", False), ("se-b1", "20:00", "B", True)),
        PER_HEAT_1,
        frozenset({"se-b1"}),
    ),
    Case(
        "a Swede's invalid attempt opens no way for the guests of its heat",
        OWN_HEAT,
        (
            ("guest-a", "30:00", "A", False),
            ("se-b1", "40:00", "B", True),
            ("se-a1", INVALID, "A", True),
        ),
        PER_HEAT_1,
        frozenset({"se-b1"}),
    ),
    Case(
        "guests do not reduce the Swedes' places",
        PLACES_NOT_REDUCED,
        (
            ("guest-1", "10:00", "A", False),
            ("guest-2", "10:00", "A", False),
            ("se-a1", "20:00", "A", True),
            ("se-a2", "21:00", "A", True),
            ("se-b1", "30:00", "B", True),
            ("se-b2", "31:00", "B", True),
        ),
        PER_HEAT_1_BEST_1,
        frozenset({"guest-1", "guest-2", "se-a1", "se-a2", "se-b1"}),
    ),
    Case(
        "places left empty admit no guest behind its heat's last Swede",
        BETTER_THAN_THE_LAST_SWEDE,
        (
            ("se-a1", "20:00", "A", True),
            ("guest-a", "25:00", "A", False),
            ("se-b1", "30:00", "B", True),
        ),
        Advance(per_heat=3, best_remaining=2),
        frozenset({"se-a1", "se-b1"}),
    ),
    Case(
        "a completed puzzle beats every piece count and more pieces beat fewer",
        BETTER,
        (
            ("guest-done", "119:59", "A", False),
            ("guest-480", ("pieces", 480), "A", False),
            ("se-a1", ("pieces", 450), "A", True),
            ("guest-450", ("pieces", 450), "A", False),
            ("guest-440", ("pieces", 440), "A", False),
            ("se-b1", "30:00", "B", True),
        ),
        PER_HEAT_1,
        frozenset({"guest-done", "guest-480", "se-a1", "se-b1"}),
    ),
    Case(
        "invalid, pending, not started and disqualified guests stay out",
        BETTER,
        (
            ("se-a1", "20:00", "A", True),
            ("se-b1", "30:00", "B", True),
            ("se-a2", "40:00", "A", True),
            ("guest-invalid", INVALID, "A", False),
            ("guest-pending", PENDING, "A", False),
            ("guest-dns", DNS, "A", False),
            ("guest-dsq", DSQ, "A", False),
        ),
        PER_HEAT_1_BEST_1,
        frozenset({"se-a1", "se-b1", "se-a2"}),
    ),
    Case(
        "without places per heat only the best remaining count",
        BEST_REMAINING,
        (
            ("guest-a", "15:00", "A", False),
            ("se-a1", "20:00", "A", True),
            ("se-b1", "21:00", "B", True),
            ("guest-b", "21:00", "B", False),
            ("se-a2", "22:00", "A", True),
        ),
        Advance(per_heat=0, best_remaining=2),
        frozenset({"guest-a", "se-a1", "se-b1"}),
    ),
    Case(
        "without any places nobody advances",
        BETTER_THAN_THE_LAST_SWEDE,
        (("guest-a", "10:00", "A", False), ("se-a1", "20:00", "A", True)),
        Advance(per_heat=0, best_remaining=0),
        frozenset(),
    ),
    Case(
        "Swedes tied with their heat's last qualifier advance and a tied guest stays out",
        TIES,
        (
            ("se-a1", "20:00", "A", True),
            ("se-a2", "20:00", "A", True),
            ("guest-a", "20:00", "A", False),
            ("se-b1", "30:00", "B", True),
        ),
        PER_HEAT_1,
        frozenset({"se-a1", "se-a2", "se-b1"}),
    ),
    Case(
        "overall a guest better than the round's last Swede advances from any heat",
        BETTER_THAN_THE_LAST_SWEDE,
        (
            ("se-a1", "20:00", "A", True),
            ("guest-b", "25:00", "B", False),
            ("se-b1", "30:00", "B", True),
            ("guest-a", "30:00", "A", False),
            ("se-a2", "31:00", "A", True),
        ),
        Advance(overall=2),
        frozenset({"se-a1", "se-b1", "guest-b"}),
    ),
    Case(
        "without sm's rule guests take places per heat like anyone",
        FASTEST_ADVANCE,
        (
            ("guest-a", "10:00", "A", False),
            ("se-a1", "20:00", "A", True),
            ("se-b1", "30:00", "B", True),
        ),
        PER_HEAT_1,
        frozenset({"guest-a", "se-b1"}),
        sm=False,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.behaviour for case in CASES])
def test_who_advances_from_a_round_with_guests(case):
    """Each case follows its rule's words (``case.rule``)."""
    table = standings(*case.rows)
    assert qualifiers(table, case.advance, unofficial_only_if_better=case.sm) == case.advancing


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({}, "advance"),
        ({"overall": 3, "per_heat": 1}, "advance"),
        ({"overall": -1}, "overall"),
        ({"overall": 0}, "overall"),
        ({"per_heat": "2"}, "per_heat"),
        ({"overall": 2, "best": 1}, "best"),
    ],
)
def test_bad_advancement_settings_are_refused(settings, field):
    with pytest.raises(AdvancementError) as caught:
        Advance.from_dict(settings)
    assert caught.value.field == field


def test_the_interchange_settings_are_read():
    assert Advance.from_dict({"overall": 20}) == Advance(overall=20)
    assert Advance.from_dict({"per_heat": 5, "best_remaining": 3}) == Advance(
        per_heat=5, best_remaining=3
    )
