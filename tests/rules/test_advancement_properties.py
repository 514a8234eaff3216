"""Properties of advancement on generated rounds, and of sm's rule for its guests."""

from hypothesis import example, given, settings
from hypothesis import strategies as st

from championship.rules.advancement import Advance, qualifiers
from championship.rules.ranking import rank_key
from championship.rules.timing import (
    COMPLETED,
    DNS,
    DSQ,
    INVALID,
    PENDING,
    UNFINISHED,
)
from tests.depth import examples
from tests.rules.advancement_rows import PER_HEAT_1, standings

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


@settings(max_examples=examples(deep=500, quick=100))
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
