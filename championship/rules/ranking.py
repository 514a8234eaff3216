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


class Counters(NamedTuple):
    """Where a ranking stands after a row: what the next row's places are worked out from."""

    index: int
    place: int | None
    last: tuple | None
    official_index: int
    official_place: int | None
    last_official: tuple | None


START = Counters(0, None, None, 0, None, None)


def in_order(rows: Iterable[Ranked]) -> list[Ranked]:
    """Return ``rows`` in standing order; rows with equal keys keep their order (a stable sort)."""
    return sorted(rows, key=attrgetter("key"))


def rank(rows: Iterable[Ranked], *, placed: frozenset[str] = RANKED) -> list[Standing]:
    """Return the standings of a round: every row, in order, with places.

    Rows that are not ranked (pending, dns, dsq) come last, without a place.
    Rows with equal keys keep the order they were given in and share a place;
    the next place is skipped (1, 2, 2, 4). Official places are counted the same
    way over the official rows alone. ``placed``: the outcomes that get a place
    (``ranked_kinds``).
    """
    standings, _counters = rank_on(in_order(rows), [], [], placed=placed)
    return standings


def rank_on(
    ordered: Sequence[Ranked],
    standings: list[Standing],
    counters: list[Counters],
    *,
    placed: frozenset[str] = RANKED,
) -> tuple[list[Standing], list[Counters]]:
    """Return the standings of ``ordered`` (rows in standing order), and the counters after each.

    ``standings`` and ``counters`` are those of the first rows of ``ordered``,
    ranked already; the ranking goes on from there (a standing depends only on
    the rows before it and its own). Neither list is changed: new lists are
    returned. ``rank`` begins with none; ``results.ranking_reuse`` begins with
    those of a round's previous version where its rows begin the same. One pass,
    since this runs for every new version of a round of 1,600 entries.
    """
    done = len(standings)
    standings, counters = list(standings), list(counters)
    index, place, last, official_index, official_place, last_official = (
        counters[-1] if counters else START
    )
    append = standings.append
    count = counters.append
    # A standing or counters made as a tuple are, without the named tuple's own constructor.
    new = tuple.__new__
    for row in ordered[done:]:
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
        count(new(Counters, (index, place, last, official_index, official_place, last_official)))
    return standings, counters


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
