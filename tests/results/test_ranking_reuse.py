"""What a round's last ranking kept: the next ranking goes on from it, with the same standings.

``results.ranking_reuse.Kept.rank`` against the rulebook's ``ranking.rank``, ranked from nothing.
"""

from hypothesis import given
from hypothesis import strategies as st

from championship.rules.ranking import Ranked, rank, ranked_kinds
from championship.rules.timing import INVALID, PENDING, Outcome
from results.ranking_reuse import Kept
from tests.rules.test_ranking import done, outcomes, places, rows


def test_what_was_kept_is_not_reused_once_invalid_attempts_lose_their_place():
    rows = [Ranked("fast", done(100)), Ranked("inv", Outcome(INVALID))]
    kept = Kept()
    assert places(kept.rank(rows)) == {"fast": 1, "inv": 2}
    unplaced = kept.rank(rows, placed=ranked_kinds(invalid_placed=False))
    assert places(unplaced) == {"fast": 1, "inv": None}


# A change: a row replaced by a new one of the same entry, added, or taken away.
changes = st.lists(
    st.tuples(st.sampled_from(["replace", "add", "remove"]), st.integers(0, 999), outcomes),
    min_size=1,
    max_size=6,
)


@given(rows, st.lists(st.tuples(changes, st.booleans()), min_size=1, max_size=8))
def test_ranking_from_what_the_previous_version_kept_gives_the_full_ranking(rows, versions):
    """Each new version ranked from ``Kept`` equals it ranked from nothing.

    Between versions the rules may also change whether invalid attempts are placed.
    """
    kept = Kept()
    assert kept.rank(rows) == rank(rows)
    current = list(rows)
    added = len(rows)
    for version, invalid_placed in versions:
        placed = ranked_kinds(invalid_placed=invalid_placed)
        for change, at, outcome in version:
            if change == "add" or not current:
                current.append(Ranked(added, outcome, official=bool(at % 2)))
                added += 1
            elif change == "replace":
                index = at % len(current)
                old = current[index]
                current[index] = Ranked(old.entry, outcome, official=old.official)
            else:
                del current[at % len(current)]
        # The unchanged rows are the very same objects, as the lazy ranking keeps them.
        assert kept.rank(current, placed=placed) == rank(current, placed=placed)
        assert kept.last.standings == rank(current, placed=placed)


def test_a_finisher_behind_everyone_ranked_reuses_every_standing_before_it():
    rows = [Ranked(i, done(1000 + i)) for i in range(5)] + [Ranked(9, Outcome(PENDING))]
    kept = Kept()
    before = kept.rank(rows)
    finished = [*rows[:5], Ranked(9, done(2000))]
    after = kept.rank(finished)
    assert [s.place for s in after] == [1, 2, 3, 4, 5, 6]
    # The first five standings are the very ones the previous ranking made.
    assert all(a is b for a, b in zip(after[:5], before[:5], strict=True))


def test_the_rows_of_unchanged_inputs_are_the_last_rankings_and_no_others_are_kept():
    kept = Kept()
    made = []

    def make(inputs):
        made.append(inputs)
        return Ranked(inputs[0], done(inputs[1]))

    first = kept.rows_of([(1, 100), (2, 200)], make)
    second = kept.rows_of([(1, 100), (2, 150)], make)
    assert made == [(1, 100), (2, 200), (2, 150)]
    assert second[0] is first[0] and second[1] is not first[1]
    assert set(kept.rows) == {(1, 100), (2, 150)}
