"""Seating order and heat split.

seating order
    First round: by prior ranking (results in earlier recognised championships,
    best first), then the entrants without a prior ranking by registration time.
    Later rounds: by placement in the previous round.
heat split
    The seated entries are dealt to the heats in serpentine order (A, B, C, C,
    B, A, A, B, …), so heat sizes differ by at most one and every heat gets a
    fair share of the strongest entrants.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime

from championship.rulesets import RuleError


class SeatingError(RuleError):
    """A seating that cannot be made (no previous place, no heat)."""


@dataclass(frozen=True)
class Seeding:
    """What seating order needs to know of an entry."""

    entry: Hashable
    registered_at: datetime
    prior_ranking: int | None = None
    previous_place: int | None = None


def first_round_order(entries: Sequence[Seeding]) -> list[Hashable]:
    """Return the entries by prior ranking, then the unranked by registration time."""
    ranked = sorted(
        (e for e in entries if e.prior_ranking is not None),
        key=lambda e: (e.prior_ranking, e.registered_at),
    )
    unranked = sorted(
        (e for e in entries if e.prior_ranking is None), key=lambda e: e.registered_at
    )
    return [e.entry for e in (*ranked, *unranked)]


def later_round_order(entries: Sequence[Seeding]) -> list[Hashable]:
    """Return the entries by their place in the previous round (ties by registration time)."""
    missing = [e.entry for e in entries if e.previous_place is None]
    if missing:
        raise SeatingError(
            "previous_place", "no_previous_place", f"no place in the previous round: {missing[0]}"
        )
    return [e.entry for e in sorted(entries, key=lambda e: (e.previous_place, e.registered_at))]


def split_into_heats(order: Sequence[Hashable], heats: int) -> list[list[Hashable]]:
    """Deal ``order`` to ``heats`` heats in serpentine order; sizes differ by at most one."""
    if heats < 1:
        raise SeatingError("heats", "at_least_one", "at least one heat is needed")
    split: list[list[Hashable]] = [[] for _ in range(heats)]
    for index, entry in enumerate(order):
        lap, position = divmod(index, heats)
        split[position if lap % 2 == 0 else heats - 1 - position].append(entry)
    return split
