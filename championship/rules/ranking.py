"""Ranking, official places and prizes of a round.

Within a round (all its heats together, since they puzzle the same motif):

1. entries that completed the puzzle, by final time in whole seconds, fastest first;
2. entries that did not complete it, by counted pieces, most first;
3. invalid attempts, sharing one place among themselves (a decision: the rulebooks
   call the participation invalid; with ``invalid_placed`` false a championship takes
   the other reading, and they are listed without a place);
4. did not start and disqualified (walk-overs too): listed, without a place.

Equal final times, or equal piece counts, share a place and the next place is
skipped (1, 2, 2, 4). Unofficial (hors concours) entries keep their position and
their *place*, but only official entries get an *official place*, counted over
official entries alone. Prizes go by official place.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import NamedTuple

from championship.rules.timing import COMPLETED, DNS, DSQ, INVALID, PENDING, UNFINISHED, Outcome

# The order in which outcomes are listed.
GROUP = {COMPLETED: 0, UNFINISHED: 1, INVALID: 2, PENDING: 3, DNS: 4, DSQ: 5}
RANKED = frozenset({COMPLETED, UNFINISHED, INVALID})
# The outcomes that get a place where invalid attempts are listed without one.
RANKED_VALID = frozenset({COMPLETED, UNFINISHED})


def ranked_kinds(*, invalid_placed: bool = True) -> frozenset[str]:
    """Return the outcomes that get a place (``Ruleset.invalid_attempts_placed``)."""
    return RANKED if invalid_placed else RANKED_VALID


@dataclass(frozen=True)
class Ranked:
    """One entry's outcome in a round, with whether the entry is official."""

    entry: Hashable
    outcome: Outcome
    official: bool = True
    heat: Hashable = None

    @cached_property
    def key(self) -> tuple:
        """The key that orders this row (``rank_key``), worked out once per row."""
        return rank_key(self.outcome)


class Standing(NamedTuple):
    """An entry's position in a round's standings.

    A named tuple rather than a dataclass: a round of 1,600 makes 1,600 of them
    for every new version of its standings, and a tuple is three times cheaper
    to make.
    """

    entry: Hashable
    outcome: Outcome
    official: bool
    heat: Hashable
    place: int | None
    official_place: int | None
    prize: int | None = None


def rank_key(outcome: Outcome) -> tuple:
    """Return the key that orders outcomes: equal keys share a place."""
    group = GROUP[outcome.kind]
    if outcome.kind == COMPLETED:
        return (group, outcome.final_seconds)
    if outcome.kind == UNFINISHED:
        return (group, -outcome.counted_pieces)
    return (group,)


class Kept:
    """What ranking a round keeps for ranking its next version (``rank``'s ``kept``).

    The rows in standing order, their standings, and after each row the
    counters the next row's places are worked out from. A standing depends only
    on the rows before it and its own: where the next version's rows begin the
    same (the very same ``Ranked`` objects, in the same order), their standings
    are these. A new finisher slower than everyone ranked so far, the usual
    case, leaves all of them as they were.
    """

    __slots__ = ("last",)

    def __init__(self):
        # (order, standings, counters, the outcomes placed), replaced whole: one store,
        # never seen half done.
        self.last: tuple[list[Ranked], list[Standing], list[tuple], frozenset] = (
            [],
            [],
            [],
            RANKED,
        )


def rank(
    rows: Iterable[Ranked], kept: Kept | None = None, *, placed: frozenset[str] = RANKED
) -> list[Standing]:
    """Return the standings of a round: every row, in order, with places.

    Rows that are not ranked (pending, dns, dsq) come last, without a place.
    Rows with equal keys keep the order they were given in and share a place;
    the next place is skipped (1, 2, 2, 4). Official places are counted the same
    way over the official rows alone. One pass, since this runs for every new
    version of a round of 1,600 entries; with ``kept`` (what the ranking of the
    round's previous version kept, updated for the next) the pass begins where
    the rows first differ from the previous version's. ``placed``: the outcomes
    that get a place (``ranked_kinds``).
    """
    # Sorting is stable: rows with equal keys keep their order.
    keyed = sorted(rows, key=attrgetter("key"))
    same = 0
    if kept is not None:
        previous, previous_standings, previous_counters, previous_placed = kept.last
        # What the rules place may have changed since: then nothing kept holds.
        limit = min(len(previous), len(keyed)) if previous_placed == placed else 0
        while same < limit and keyed[same] is previous[same]:
            same += 1
    if same:
        standings = previous_standings[:same]
        counters = previous_counters[:same]
        index, place, last, official_index, official_place, last_official = counters[-1]
    else:
        standings, counters = [], []
        index = official_index = 0
        place = official_place = None
        last = last_official = None
    append = standings.append
    count = counters.append
    # A standing made as a tuple is, without the named tuple's own constructor.
    new = tuple.__new__
    for row in keyed[same:]:
        if row.outcome.kind in placed:
            key = row.key
            index += 1
            if key != last:
                place, last = index, key
            if row.official:
                official_index += 1
                if key != last_official:
                    official_place, last_official = official_index, key
                at_official = official_place
            else:
                at_official = None
            append(
                new(
                    Standing,
                    (row.entry, row.outcome, row.official, row.heat, place, at_official, None),
                )
            )
        else:
            append(
                new(Standing, (row.entry, row.outcome, row.official, row.heat, None, None, None))
            )
        count((index, place, last, official_index, official_place, last_official))
    if kept is not None:
        kept.last = (keyed, standings, counters, placed)
    return list(standings)


def award_prizes(
    standings: Sequence[Standing], *, prize_places: int, title: bool = False
) -> list[Standing]:
    """Return the standings with prizes 1..``prize_places`` by official place.

    With ``title`` (sm), the best official entry holds the title: prize 1, even
    when the preset gives no other prizes. Invalid attempts win nothing.
    """
    places = prize_places if prize_places else (1 if title else 0)
    return [
        standing._replace(prize=standing.official_place)
        if standing.official_place is not None
        and standing.official_place <= places
        and standing.outcome.kind != INVALID
        else standing._replace(prize=None)
        for standing in standings
    ]
