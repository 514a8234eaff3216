"""RULES.md, "Advancement": overall, per heat plus best remaining, ties, and sm's rule."""

from dataclasses import dataclass

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from championship.rules.advancement import Advance, AdvancementError, qualifiers
from championship.rules.ranking import Ranked, rank, rank_key
from championship.rules.timing import (
    COMPLETED,
    DNS,
    DSQ,
    INVALID,
    PENDING,
    UNFINISHED,
    Outcome,
)


def done(seconds):
    return Outcome(COMPLETED, final_ms=seconds * 1000)


def standings(*rows):
    """Rows of (entry, seconds or "mm:ss" or ("pieces", n) or kind, heat, official)."""
    made = []
    for entry, result, heat, official in rows:
        if isinstance(result, int):
            outcome = done(result)
        elif isinstance(result, str) and ":" in result:
            minutes, seconds = result.split(":")
            outcome = done(int(minutes) * 60 + int(seconds))
        elif isinstance(result, tuple):
            outcome = Outcome(UNFINISHED, counted_pieces=result[1])
        else:
            outcome = Outcome(result)
        made.append(Ranked(entry, outcome, official=official, heat=heat))
    return rank(made)


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

PER_HEAT_1 = Advance(per_heat=1, best_remaining=0)
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


# Properties ----------------------------------------------------------------------------

results = st.one_of(st.integers(60, 300), st.tuples(st.just("pieces"), st.integers(0, 500)))
tables = st.lists(
    st.tuples(results, st.sampled_from(["A", "B", "C"]), st.booleans()), min_size=1, max_size=30
).map(lambda rows: standings(*((i, r, h, o) for i, (r, h, o) in enumerate(rows))))


@given(tables, st.integers(1, 10))
def test_overall_qualifiers_are_n_plus_only_ties(table, n):
    chosen = qualifiers(table, Advance(overall=n))
    assert len(chosen) >= min(n, len(table))
    if chosen:
        worst = max(rank_key(s.outcome) for s in table if s.entry in chosen)
        # Everyone better than the worst qualifier qualifies; beyond n only ties with it.
        assert {s.entry for s in table if rank_key(s.outcome) <= worst} == chosen
        strictly_better = [s for s in table if rank_key(s.outcome) < worst]
        assert len(strictly_better) < n


@given(tables, st.integers(1, 6))
def test_sm_rule_keeps_the_official_places_and_admits_only_better_guests(table, n):
    chosen = qualifiers(table, Advance(overall=n), unofficial_only_if_better=True)
    official = [s for s in table if s.official]
    official_chosen = [s for s in official if s.entry in chosen]
    assert len(official_chosen) >= min(n, len(official))
    if official_chosen:
        last_official = max(rank_key(s.outcome) for s in official_chosen)
        for s in table:
            if not s.official:
                assert (s.entry in chosen) == (rank_key(s.outcome) < last_official)
    else:
        assert not chosen


@given(tables, st.integers(0, 3), st.integers(0, 5))
def test_per_heat_qualifiers_include_each_heats_best(table, n, m):
    chosen = qualifiers(table, Advance(per_heat=n, best_remaining=m))
    for heat in {s.heat for s in table}:
        in_heat = [s for s in table if s.heat == heat]
        assert sum(1 for s in in_heat if s.entry in chosen) >= min(n, len(in_heat))


# Properties of sm's rule ---------------------------------------------------------------

any_results = st.one_of(
    st.integers(60, 120),
    st.tuples(st.just("pieces"), st.integers(440, 460)),
    st.sampled_from([INVALID, PENDING, DNS, DSQ]),
)
# Rows of (result, heat, official, kept when guests are left out): small ranges, for ties;
# at least six rows, so that a heat often has a Swede who advances, one who does not, and
# a guest.
round_rows = st.lists(
    st.tuples(any_results, st.sampled_from(["A", "B", "C"]), st.booleans(), st.booleans()),
    min_size=6,
    max_size=30,
)
# The two readings the rule was corrected for: a 30:00 guest advanced while a 25:00 Swede
# of its heat did not, and a guest equal to its heat's last qualifier advanced.
GUEST_BEHIND_A_SWEDE_WHO_STAYS = [
    ("20:00", "A", True, True),
    ("25:00", "A", True, True),
    ("30:00", "A", False, True),
    ("35:00", "B", True, True),
]
GUEST_LEVEL_WITH_ITS_HEATS_LAST_QUALIFIER = [
    ("20:00", "A", True, True),
    ("20:00", "A", False, True),
    ("35:00", "B", True, True),
]
advancements = st.one_of(
    st.builds(Advance, overall=st.integers(1, 6)),
    st.builds(Advance, per_heat=st.integers(0, 3), best_remaining=st.integers(0, 5)),
)


def round_of(rows, *, guests=True):
    """Rank ``round_rows``; without ``guests``, leave out the guests not marked kept."""
    return standings(
        *(
            (index, result, heat, official)
            for index, (result, heat, official, kept) in enumerate(rows)
            if guests or official or kept
        )
    )


def official_qualifiers(table, advance):
    """Return the official entries that advance under sm's rule."""
    chosen = qualifiers(table, advance, unofficial_only_if_better=True)
    return {s.entry for s in table if s.official and s.entry in chosen}


@given(round_rows, advancements)
def test_sm_guests_never_change_which_swedes_advance(rows, advance):
    """Adding or removing guests leaves the official qualifiers as they are."""
    with_guests = round_of(rows)
    fewer_guests = round_of(rows, guests=False)
    swedes_only = standings(
        *((i, result, heat, True) for i, (result, heat, official, _) in enumerate(rows) if official)
    )
    assert official_qualifiers(with_guests, advance) == official_qualifiers(fewer_guests, advance)
    assert official_qualifiers(with_guests, advance) == official_qualifiers(swedes_only, advance)


@settings(max_examples=500)
@given(round_rows, advancements)
@example(GUEST_BEHIND_A_SWEDE_WHO_STAYS, PER_HEAT_1)
def test_sm_guest_never_advances_level_with_or_behind_a_swede_of_its_heat_who_stays(rows, advance):
    """RULES.md: "A guest never advances with a result equal to or worse than that of a
    Swede of its own heat who does not advance."
    """
    table = round_of(rows)
    chosen = qualifiers(table, advance, unofficial_only_if_better=True)
    for guest in (s for s in table if not s.official and s.entry in chosen):
        staying = [
            s for s in table if s.official and s.heat == guest.heat and s.entry not in chosen
        ]
        for swede in staying:
            assert rank_key(guest.outcome) < rank_key(swede.outcome)


def marks_by_the_rulebook(table, advance):
    """Return the Swedes who advance, and each heat's and the best remaining's last Swede.

    Worked out afresh from RULES.md's words, by sorting keys, for comparison.
    """
    swedes = [s for s in table if s.official and s.outcome.kind in (COMPLETED, UNFINISHED)]
    advancing, heat_marks = set(), {}
    for heat in {s.heat for s in swedes}:
        keys = sorted(rank_key(s.outcome) for s in swedes if s.heat == heat)
        if advance.per_heat:
            heat_marks[heat] = keys[min(advance.per_heat, len(keys)) - 1]
            advancing |= {
                s.entry
                for s in swedes
                if s.heat == heat and rank_key(s.outcome) <= heat_marks[heat]
            }
    rest = sorted(rank_key(s.outcome) for s in swedes if s.entry not in advancing)
    rest_mark = (
        rest[min(advance.best_remaining, len(rest)) - 1]
        if advance.best_remaining and rest
        else None
    )
    advancing |= {
        s.entry
        for s in swedes
        if s.entry not in advancing and rest_mark is not None and rank_key(s.outcome) <= rest_mark
    }
    return advancing, heat_marks, rest_mark


@given(
    round_rows,
    st.builds(Advance, per_heat=st.integers(0, 3), best_remaining=st.integers(0, 5)),
)
@example(GUEST_BEHIND_A_SWEDE_WHO_STAYS, PER_HEAT_1)
@example(GUEST_LEVEL_WITH_ITS_HEATS_LAST_QUALIFIER, PER_HEAT_1)
def test_sm_guest_advances_exactly_when_better_than_the_last_swede_qualified_the_same_way(
    rows, advance
):
    """Per heat: the Swedes' places as without guests; each guest better than its heat's
    last per-heat Swede, or than the last Swede of the best remaining, advances.
    """
    table = round_of(rows)
    chosen = qualifiers(table, advance, unofficial_only_if_better=True)
    swedes, heat_marks, rest_mark = marks_by_the_rulebook(table, advance)
    guests = set()
    for s in table:
        if s.official or s.outcome.kind not in (COMPLETED, UNFINISHED):
            continue
        key = rank_key(s.outcome)
        if (s.heat in heat_marks and key < heat_marks[s.heat]) or (
            rest_mark is not None and key < rest_mark
        ):
            guests.add(s.entry)
    assert chosen == swedes | guests


def qualifiers_before_the_per_heat_reading(standings, advance, *, unofficial_only_if_better):
    """Return the qualifiers as the rule chose them before guests met their own heat's Swedes.

    Only for ``overall`` N, where the reading has not changed.
    """
    eligible = [s for s in standings if s.outcome.kind in (COMPLETED, UNFINISHED)]
    competing = [s for s in eligible if s.official] if unofficial_only_if_better else eligible
    chosen = competing[: advance.overall]
    if chosen:
        last = rank_key(chosen[-1].outcome)
        chosen += [s for s in competing[advance.overall :] if rank_key(s.outcome) == last]
    qualified = {s.entry for s in chosen}
    if unofficial_only_if_better and chosen:
        last_official = max(rank_key(s.outcome) for s in chosen)
        qualified |= {
            s.entry for s in eligible if not s.official and rank_key(s.outcome) < last_official
        }
    return qualified


@given(round_rows, st.integers(1, 6), st.booleans())
def test_overall_advancement_is_as_before(rows, n, sm):
    """Under ``overall`` N, sm's guests still meet the round's last Swede who qualified."""
    table = round_of(rows)
    advance = Advance(overall=n)
    assert qualifiers(table, advance, unofficial_only_if_better=sm) == (
        qualifiers_before_the_per_heat_reading(table, advance, unofficial_only_if_better=sm)
    )
