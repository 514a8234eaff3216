"""RULES.md, "Ranking": places with ties across heats, official places, prizes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from championship.rules.ranking import Ranked, award_prizes, rank, ranked_kinds
from championship.rules.timing import COMPLETED, DNS, DSQ, INVALID, PENDING, UNFINISHED, Outcome


def done(seconds, millis=0):
    return Outcome(COMPLETED, final_ms=seconds * 1000 + millis)


def pieces(count):
    return Outcome(UNFINISHED, counted_pieces=count)


def places(standings):
    return {s.entry: s.place for s in standings}


def test_completed_entries_rank_by_final_time_fastest_first():
    standings = rank([Ranked("b", done(2000)), Ranked("a", done(1800)), Ranked("c", done(2100))])
    assert [s.entry for s in standings] == ["a", "b", "c"]
    assert places(standings) == {"a": 1, "b": 2, "c": 3}


def test_unfinished_entries_rank_after_completed_by_pieces_most_first():
    standings = rank(
        [Ranked("slow", done(7199)), Ranked("p480", pieces(480)), Ranked("p499", pieces(499))]
    )
    assert [s.entry for s in standings] == ["slow", "p499", "p480"]


def test_equal_final_times_share_a_place_and_the_next_is_skipped():
    """1, 2, 2, 4."""
    standings = rank(
        [
            Ranked("a", done(100)),
            Ranked("b", done(200)),
            Ranked("c", done(200)),
            Ranked("d", done(300)),
        ]
    )
    assert [s.place for s in standings] == [1, 2, 2, 4]


def test_times_equal_in_whole_seconds_share_a_place():
    standings = rank([Ranked("a", done(100, 10)), Ranked("b", done(100, 990))])
    assert [s.place for s in standings] == [1, 1]


def test_equal_piece_counts_share_a_place():
    standings = rank([Ranked("a", pieces(400)), Ranked("b", pieces(400)), Ranked("c", pieces(300))])
    assert [s.place for s in standings] == [1, 1, 3]


def test_invalid_attempts_come_after_every_valid_one_and_share_one_place():
    standings = rank(
        [
            Ranked("inv1", Outcome(INVALID)),
            Ranked("p10", pieces(10)),
            Ranked("inv2", Outcome(INVALID)),
            Ranked("fast", done(100)),
        ]
    )
    assert [s.entry for s in standings][:2] == ["fast", "p10"]
    assert places(standings) == {"fast": 1, "p10": 2, "inv1": 3, "inv2": 3}


def test_a_championship_may_list_invalid_attempts_without_a_place():
    """RULES.md: "a void without a place is the other reading, and a championship may choose it"."""
    rows = [
        Ranked("inv", Outcome(INVALID)),
        Ranked("p10", pieces(10)),
        Ranked("fast", done(100)),
        Ranked("dns", Outcome(DNS)),
    ]
    standings = rank(rows, placed=ranked_kinds(invalid_placed=False))
    assert [s.entry for s in standings] == ["fast", "p10", "inv", "dns"]
    assert places(standings) == {"fast": 1, "p10": 2, "inv": None, "dns": None}
    assert standings[2].official_place is None


@pytest.mark.parametrize("kind", [DNS, DSQ, PENDING])
def test_did_not_start_and_disqualified_are_listed_without_a_place(kind):
    standings = rank([Ranked("x", Outcome(kind)), Ranked("a", pieces(1))])
    assert [s.entry for s in standings] == ["a", "x"]
    assert places(standings) == {"a": 1, "x": None}
    assert standings[1].official_place is None


def test_places_rank_all_heats_of_a_round_together():
    standings = rank(
        [
            Ranked("a1", done(300), heat="A"),
            Ranked("b1", done(200), heat="B"),
            Ranked("a2", done(250), heat="A"),
        ]
    )
    assert places(standings) == {"b1": 1, "a2": 2, "a1": 3}


def test_unofficial_entries_keep_their_position_but_get_no_official_place():
    standings = rank(
        [
            Ranked("guest", done(100), official=False),
            Ranked("a", done(200)),
            Ranked("b", done(300)),
        ]
    )
    assert [(s.entry, s.place, s.official_place) for s in standings] == [
        ("guest", 1, None),
        ("a", 2, 1),
        ("b", 3, 2),
    ]


def test_official_places_skip_after_ties_among_official_entries():
    standings = rank(
        [
            Ranked("a", done(100)),
            Ranked("g", done(150), official=False),
            Ranked("b", done(200)),
            Ranked("c", done(200)),
            Ranked("d", done(300)),
        ]
    )
    assert {s.entry: s.official_place for s in standings} == {
        "a": 1,
        "g": None,
        "b": 2,
        "c": 2,
        "d": 4,
    }


def test_rogaland_prizes_go_to_official_places_one_to_three():
    standings = rank(
        [
            Ranked("guest", done(90), official=False),
            Ranked("a", done(100)),
            Ranked("b", done(110)),
            Ranked("c", done(120)),
            Ranked("d", done(130)),
        ]
    )
    prizes = {s.entry: s.prize for s in award_prizes(standings, prize_places=3)}
    assert prizes == {"guest": None, "a": 1, "b": 2, "c": 3, "d": None}


def test_tied_entries_share_a_prize():
    standings = rank([Ranked("a", done(100)), Ranked("b", done(110)), Ranked("c", done(110))])
    prizes = [s.prize for s in award_prizes(standings, prize_places=3)]
    assert prizes == [1, 2, 2]


def test_sm_title_goes_to_the_best_official_entry():
    standings = rank([Ranked("dane", done(90), official=False), Ranked("swede", done(100))])
    prizes = {s.entry: s.prize for s in award_prizes(standings, prize_places=0, title=True)}
    assert prizes == {"dane": None, "swede": 1}


def test_no_prizes_without_prize_places_or_title():
    standings = rank([Ranked("a", done(100))])
    assert award_prizes(standings, prize_places=0)[0].prize is None


def test_an_invalid_attempt_wins_no_prize():
    standings = rank([Ranked("a", done(100)), Ranked("x", Outcome(INVALID))])
    assert [s.prize for s in award_prizes(standings, prize_places=3)] == [1, None]


# Properties ----------------------------------------------------------------------------

outcomes = st.one_of(
    st.builds(done, st.integers(0, 7200), st.integers(0, 999)),
    st.builds(pieces, st.integers(0, 500)),
    st.sampled_from([Outcome(INVALID), Outcome(DNS), Outcome(DSQ), Outcome(PENDING)]),
)
rows = st.lists(st.tuples(outcomes, st.booleans()), max_size=40).map(
    lambda items: [Ranked(i, o, official=f) for i, (o, f) in enumerate(items)]
)


def key(outcome):
    from championship.rules.ranking import rank_key

    return rank_key(outcome)


@given(rows)
def test_places_are_consistent_with_the_order(rows):
    standings = rank(rows)
    placed = [s for s in standings if s.place is not None]
    assert [s.place for s in placed] == sorted(s.place for s in placed)
    for index, standing in enumerate(placed):
        # A place is one more than the number of entries strictly ahead.
        ahead = sum(1 for other in placed if key(other.outcome) < key(standing.outcome))
        assert standing.place == ahead + 1, index
    assert all(s.place is None for s in standings[len(placed) :])


@given(rows)
def test_equal_results_share_a_place(rows):
    standings = rank(rows)
    for a in standings:
        for b in standings:
            if key(a.outcome) == key(b.outcome):
                assert a.place == b.place


@given(rows)
def test_official_places_run_over_official_entries_only(rows):
    standings = rank(rows)
    assert all(s.official_place is None for s in standings if not s.official)
    official = [s for s in standings if s.official and s.place is not None]
    assert [s.official_place for s in official] == [
        1 + sum(1 for o in official if key(o.outcome) < key(s.outcome)) for s in official
    ]


@given(rows, st.data())
def test_improving_a_result_never_worsens_a_place(rows, data):
    completed = [r for r in rows if r.outcome.kind == COMPLETED]
    if not completed:
        return
    target = data.draw(st.sampled_from(completed))
    faster = Ranked(
        target.entry,
        done(data.draw(st.integers(0, target.outcome.final_seconds))),
        official=target.official,
    )
    before = places(rank(rows))[target.entry]
    after = places(rank([faster if r is target else r for r in rows]))[target.entry]
    assert after <= before


@given(rows)
def test_every_entry_is_listed_once(rows):
    standings = rank(rows)
    assert sorted(s.entry for s in standings) == sorted(r.entry for r in rows)
