"""Real data: the nine WJPC 2024 individual rounds come out with exactly the published places."""

import json
from collections import defaultdict
from pathlib import Path

import pytest

from championship.presets import get_preset
from championship.rules.ranking import Ranked, rank
from championship.rules.timing import FINISHED, UNFINISHED, Attempt, outcome

DATA = Path(__file__).parent.parent / "data" / "wjpc2024" / "individual_results.json"
ROWS = json.loads(DATA.read_text(encoding="utf-8"))
ROUNDS = defaultdict(list)
for index, row in enumerate(ROWS):
    ROUNDS[row["competition"]].append((index, row))

# The published times already include penalties: rank them without further ones.
RULES = get_preset("dm").rules
PIECES = 500
LIMIT_MS = 120 * 60_000


def attempt(result: str) -> Attempt:
    """Read a published result: a finish time H:MM:SS, or the correctly placed pieces.

    One entrant is published with all 500 pieces, placed after every finisher:
    a puzzle completed, but not within the time limit ("TIME" after the limit is
    not a completion; the entry is ranked by its counted pieces). The rules allow
    a count of every piece only for such a late "TIME", so it is read as one.
    """
    if ":" in result:
        hours, minutes, seconds = (int(part) for part in result.split(":"))
        return Attempt(status=FINISHED, time_ms=((hours * 60 + minutes) * 60 + seconds) * 1000)
    pieces = int(result)
    if pieces == PIECES:
        return Attempt(status=FINISHED, time_ms=LIMIT_MS + 1000, pieces_placed=pieces)
    return Attempt(status=UNFINISHED, pieces_placed=pieces)


def test_the_data_holds_1644_rows_in_nine_rounds():
    assert len(ROWS) == 1644
    assert len(ROUNDS) == 9


@pytest.mark.parametrize("competition", sorted(ROUNDS))
def test_ranking_reproduces_every_published_place(competition):
    rows = ROUNDS[competition]
    standings = rank(
        Ranked(index, outcome(attempt(row["result"]), RULES, PIECES, time_limit_ms=LIMIT_MS))
        for index, row in rows
    )
    ours = {s.entry: s.place for s in standings}
    wrong = [
        (row["name"], row["result"], row["placement"], ours[index])
        for index, row in rows
        if ours[index] != row["placement"]
    ]
    assert not wrong, f"{len(wrong)} of {len(rows)} places differ: {wrong[:5]}"
    assert len(ours) == len(rows)
