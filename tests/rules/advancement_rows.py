"""Rounds of plain rows for the advancement tests."""

from championship.rules.advancement import Advance
from championship.rules.ranking import Ranked, rank
from championship.rules.timing import (
    COMPLETED,
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


PER_HEAT_1 = Advance(per_heat=1, best_remaining=0)
