"""What the last ranking of a round made, kept in the process for ranking its next version.

A new version of a busy round changes a few results of 1,600. Ranking it from
nothing makes every ranking row and every standing anew, which was half of a
ranking's CPU. A round's ``Kept`` holds, from its last ranking, each result's
ranking row by the inputs it was built from, and the standings in order with the
counters after each (``ranking.rank_on``): the rows whose inputs did not change
are the very same objects, and the next ranking goes on from where its rows first
differ from the last one's. A new finisher slower than everyone ranked so far, the
usual case, leaves every standing before it as it was.

The rulebook's ``ranking.rank`` stays a plain function; ``Kept.rank`` gives the
same standings (a Hypothesis property holds it to ``rank``). The kept rounds are
a process cache (``core.process_cache``): a round missing is ranked from
nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import NamedTuple

from championship.rules import ranking
from core.process_cache import Store


class Last(NamedTuple):
    """A ranking's rows in standing order, their standings, counters, and what it placed."""

    ordered: list[ranking.Ranked]
    standings: list[ranking.Standing]
    counters: list[ranking.Counters]
    placed: frozenset[str]


NOTHING = Last([], [], [], ranking.RANKED)


class Kept:
    """What the last ranking of one round made: its rows by their inputs, and its ``Last``."""

    __slots__ = ("last", "rows")

    def __init__(self):
        # Each replaced whole by the next ranking: one store, never seen half done.
        self.rows: dict[Hashable, ranking.Ranked] = {}
        self.last = NOTHING

    def rows_of(
        self, inputs: Sequence[Hashable], make: Callable[[Hashable], ranking.Ranked]
    ) -> list[ranking.Ranked]:
        """Return a ranking row for each of ``inputs``: the last ranking's where the inputs are.

        ``make`` builds the row of inputs the last ranking did not have. The rows
        of these inputs are kept for the next ranking (and no others).
        """
        kept, fresh = self.rows, {}
        for key in inputs:
            row = kept.get(key)
            fresh[key] = row if row is not None else make(key)
        self.rows = fresh
        return list(fresh.values())

    def rank(
        self, rows: list[ranking.Ranked], *, placed: frozenset[str] = ranking.RANKED
    ) -> list[ranking.Standing]:
        """Return ``ranking.rank(rows, placed=placed)``, going on from the last ranking."""
        ordered = ranking.in_order(rows)
        last = self.last
        same = 0
        # What the rules place may have changed since: then nothing kept holds.
        if last.placed == placed:
            limit = min(len(last.ordered), len(ordered))
            while same < limit and ordered[same] is last.ordered[same]:
                same += 1
        standings, counters = ranking.rank_on(
            ordered, last.standings[:same], last.counters[:same], placed=placed
        )
        self.last = Last(ordered, standings, counters, placed)
        return list(standings)


# Enough for the rounds running at once in the largest championship.
_rounds: Store[Kept] = Store("results.ranking_reuse", size=32)


def kept_of(round_id: int) -> Kept:
    """Return what the last ranking of round ``round_id`` in this process kept (maybe nothing)."""
    return _rounds.get_or_make(round_id, Kept)
