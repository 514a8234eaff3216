"""Real data: the nine WJPC 2024 individual rounds come out with exactly the published places."""

import pytest

from championship.rules.ranking import rank
from tests.rules.wjpc2024 import ROUNDS, ROWS, ranked


def test_the_data_holds_1644_rows_in_nine_rounds():
    assert len(ROWS) == 1644
    assert len(ROUNDS) == 9


@pytest.mark.parametrize("competition", sorted(ROUNDS))
def test_ranking_reproduces_every_published_place(competition):
    rows = ROUNDS[competition]
    standings = rank(ranked(index, row) for index, row in rows)
    ours = {s.entry: s.place for s in standings}
    wrong = [
        (row["name"], row["result"], row["placement"], ours[index])
        for index, row in rows
        if ours[index] != row["placement"]
    ]
    assert not wrong, f"{len(wrong)} of {len(rows)} places differ: {wrong[:5]}"
    assert len(ours) == len(rows)
