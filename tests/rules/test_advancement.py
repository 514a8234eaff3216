"""RULES.md, "Advancement": overall, per heat plus best remaining, ties, and sm's rule."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from championship.rules.advancement import Advance, AdvancementError, qualifiers
from championship.rules.ranking import Ranked, rank, rank_key
from championship.rules.timing import COMPLETED, DNS, INVALID, UNFINISHED, Outcome


def done(seconds):
    return Outcome(COMPLETED, final_ms=seconds * 1000)


def standings(*rows):
    """Rows of (entry, seconds or ("pieces", n) or kind, heat, official)."""
    made = []
    for entry, result, heat, official in rows:
        if isinstance(result, int):
            outcome = done(result)
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
