"""The WJPC 2024 individual results (real data), read as the rules read them.

``tests/data/wjpc2024/individual_results.json``: the nine individual rounds of
the World Jigsaw Puzzle Championship 2024, from the championship's public
results pages (see the README beside it).
"""

import json
from collections import defaultdict
from pathlib import Path

from championship.presets import get_preset
from championship.rules.ranking import Ranked
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


def ranked(entry, row) -> Ranked:
    """Return the published ``row`` as a row to rank, for ``entry``."""
    return Ranked(entry, outcome(attempt(row["result"]), RULES, PIECES, time_limit_ms=LIMIT_MS))
