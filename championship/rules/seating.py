"""Seating order and heat split.

seating order
    ``seeding``: the first round by prior ranking (results in earlier recognised
    championships, best first), then the entrants without a prior ranking by
    registration time; a later round by placement in the previous round.
    ``registration``: by registration time. ``random``: shuffled with a seed.
    The preset decides whether the organiser may choose: ``seating_first_round``
    ``"prior_ranking"`` (dm: "afgøres rækkefølgen ud fra resultater") and
    ``seating_later_rounds`` ``"previous_placement"`` allow ``seeding`` only;
    ``"organiser"`` and ``None`` allow every order (sm's first round: "kan",
    may). Where the organiser chooses, ``seeding`` is the default.
heat split
    The seated entries are dealt to the heats in serpentine order (A, B, C, C,
    B, A, A, B, …), so every heat gets a fair share of the strongest entrants.
    Without given sizes the heat sizes differ by at most one (dm's rule: the
    entrants divided by the number of heats). Where the preset leaves the split to
    the organiser (``heat_split`` ``"organiser"``), the organiser may give each
    heat's size: the dealing then passes over the heats that are full.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime

from championship.rulesets import RuleError


class SeatingError(RuleError):
    """A seating that cannot be made (no previous place, no heat, bad heat sizes)."""


SEEDING = "seeding"
REGISTRATION = "registration"
RANDOM = "random"
ORDERS = (SEEDING, REGISTRATION, RANDOM)


def allowed_orders(
    *, first_round: bool, seating_first_round: str, seating_later_rounds: str | None
) -> tuple[str, ...]:
    """Return the seating orders the rules allow for a round.

    ``prior_ranking`` (first round) and ``previous_placement`` (later rounds)
    allow only ``seeding``, which is that order; otherwise the organiser chooses,
    and ``seeding`` comes first: it is the default.
    """
    fixed = (
        seating_first_round == "prior_ranking"
        if first_round
        else seating_later_rounds == "previous_placement"
    )
    return (SEEDING,) if fixed else ORDERS


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


def check_heat_sizes(sizes: Sequence[int], *, heats: int, entries: int, heat_split: str) -> None:
    """Refuse heat sizes that the rules or the round do not allow.

    Sizes are allowed only where the preset leaves the split to the organiser;
    there must be one per heat, each at least 1, adding up to the entries.
    """
    if heat_split != "organiser":
        raise SeatingError(
            "heat_sizes", "sizes_not_allowed", "the rules make the heats equal in size"
        )
    if len(sizes) != heats:
        raise SeatingError("heat_sizes", "sizes_count", f"{len(sizes)} sizes for {heats} heats")
    if any(not isinstance(size, int) or isinstance(size, bool) or size < 1 for size in sizes):
        raise SeatingError("heat_sizes", "size_at_least_one", "every heat needs an entry")
    if sum(sizes) != entries:
        raise SeatingError(
            "heat_sizes", "sizes_total", f"the sizes add up to {sum(sizes)}, not {entries}"
        )


def split_by_sizes(order: Sequence[Hashable], sizes: Sequence[int]) -> list[list[Hashable]]:
    """Deal ``order`` in serpentine order to heats of the given ``sizes``.

    The dealing goes A, B, C, C, B, A, … as ``split_into_heats`` does and passes
    over a heat that is full, so every heat gets one of the strongest seeds in
    each lap until it is full. Equal sizes give exactly ``split_into_heats``.
    """
    if not sizes:
        raise SeatingError("heats", "at_least_one", "at least one heat is needed")
    if any(size < 0 for size in sizes) or sum(sizes) != len(order):
        raise SeatingError(
            "heat_sizes", "sizes_total", f"the sizes add up to {sum(sizes)}, not {len(order)}"
        )
    heats = len(sizes)
    split: list[list[Hashable]] = [[] for _ in range(heats)]
    lap, position = 0, 0
    for entry in order:
        while True:
            heat = position if lap % 2 == 0 else heats - 1 - position
            position += 1
            if position == heats:
                lap, position = lap + 1, 0
            if len(split[heat]) < sizes[heat]:
                break
        split[heat].append(entry)
    return split
