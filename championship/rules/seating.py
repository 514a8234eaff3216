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
groups of a first stage
    Where a category's first stage has several parallel groups (rounds with no
    round before them and the same stage, e.g. WJPC's groups A to F), each entry
    puzzles in exactly one group. The category's entries (the confirmed ones,
    without walk-overs; only the checked-in where asked or where the rules
    require check-in) are put in the first round's seating order (prior ranking,
    then registration time; or registration time, or at random, as the
    organiser chooses where the rules let them) and dealt to the groups as the
    heats are: serpentine (A, B, C, C, B, A, …), so every group gets a fair
    share of the strongest seeds. Without given sizes the groups' sizes differ
    by at most one; the organiser may give each group's size (one per group,
    each at least 1, adding up to the entries), and the dealing passes over the
    groups that are full. A group seated on its own takes the entries not
    seated in another group of the stage. Dealing is refused once a group of
    the stage has started.
a round fed by several groups
    A later round takes the qualifiers of every round feeding it
    (``Round.previous_rounds``). Seated by seeding, they go by their place in
    their own group; equal places of different groups are interleaved in the
    groups' order (A's 1st, B's 1st, C's 1st, A's 2nd, B's 2nd, …). Entries
    tied for a place within one group keep their order (registration time) and
    are interleaved in turn with the other groups' entries at that place: with
    A's places 1, 2, 2 and B's 1, 2, 3 the order is A1, B1, A2, B2, A2', B3.
    Fed by one round, this is the order by place, ties by registration time.
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
    # The feeding group's position among the round's feeding rounds (0: the first).
    group: int = 0


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
    """Return the entries by their place in the round before (ties by registration time).

    Fed by several groups (``Seeding.group``), equal places of different groups
    are interleaved in the groups' order: see ``groups_interleaved``.
    """
    missing = [e.entry for e in entries if e.previous_place is None]
    if missing:
        raise SeatingError(
            "previous_place", "no_previous_place", f"no place in the previous round: {missing[0]}"
        )
    return groups_interleaved(entries)


def groups_interleaved(entries: Sequence[Seeding]) -> list[Hashable]:
    """Return entries from one or more groups by place, equal places interleaved by group.

    Each entry has its ``previous_place`` in its own group and the ``group``'s
    position among the feeding groups. The order is by place; at one place, the
    entries of a group (tied, by registration time) are dealt in turn with the
    other groups' entries at that place, in the groups' order: A's 1st, B's 1st,
    C's 1st, A's 2nd, …; with A's places 1, 2, 2 and B's 1, 2, 3: A1, B1, A2,
    B2, A2', B3. Every entry needs a ``previous_place``.
    """
    by_group_place = sorted(entries, key=lambda e: (e.group, e.previous_place, e.registered_at))
    # The position of each entry among its group's entries at the same place (0: the first).
    turn: dict[int, int] = {}
    seen: dict[tuple, int] = {}
    for index, seeding in enumerate(by_group_place):
        key = (seeding.group, seeding.previous_place)
        turn[index] = seen.get(key, 0)
        seen[key] = turn[index] + 1
    order = sorted(
        range(len(by_group_place)),
        key=lambda i: (by_group_place[i].previous_place, turn[i], by_group_place[i].group),
    )
    return [by_group_place[i].entry for i in order]


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


def check_group_sizes(sizes: Sequence[int], *, groups: int, entries: int) -> None:
    """Refuse group sizes that do not fit: one per group, each at least 1, adding up to the entries.

    Unlike heat sizes, group sizes are the organiser's whatever the preset's
    ``heat_split``: the rules say nothing of how large a group is.
    """
    if len(sizes) != groups:
        raise SeatingError("group_sizes", "sizes_count", f"{len(sizes)} sizes for {groups} groups")
    if any(not isinstance(size, int) or isinstance(size, bool) or size < 1 for size in sizes):
        raise SeatingError("group_sizes", "size_at_least_one", "every group needs an entry")
    if sum(sizes) != entries:
        raise SeatingError(
            "group_sizes", "sizes_total", f"the sizes add up to {sum(sizes)}, not {entries}"
        )


def deal_to_groups(
    order: Sequence[Hashable], groups: int, sizes: Sequence[int] = ()
) -> list[list[Hashable]]:
    """Deal the seated ``order`` to ``groups`` parallel groups, as heats are dealt.

    Serpentine (A, B, C, C, B, A, …); with ``sizes`` (checked by
    ``check_group_sizes``) the dealing passes over the groups that are full.
    """
    if groups < 1:
        raise SeatingError("groups", "at_least_one", "at least one group is needed")
    if sizes:
        check_group_sizes(sizes, groups=groups, entries=len(order))
        return split_by_sizes(order, sizes)
    return split_into_heats(order, groups)
