"""Advancement: who goes from a preliminary round to the next.

The organiser sets how many advance: ``overall`` N (the N best of the round), or
``per_heat`` N plus ``best_remaining`` M (the N best of each heat, then the M
best of all the others across heats).

- Entries tied with the last qualifier also qualify.
- Only entries with a valid result (completed, or counted pieces) can qualify.
- sm: the places are for official entries. An unofficial entry qualifies only
  when its result is better than that of the last official qualifier, and does
  not take an official entry's place.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from championship.rules.ranking import Standing, rank_key
from championship.rules.timing import COMPLETED, UNFINISHED
from championship.rulesets import RuleError

QUALIFYING = frozenset({COMPLETED, UNFINISHED})


class AdvancementError(RuleError):
    """Advancement settings that cannot be applied."""


@dataclass(frozen=True)
class Advance:
    """How many advance: ``overall`` N, or ``per_heat`` N and ``best_remaining`` M."""

    overall: int | None = None
    per_heat: int | None = None
    best_remaining: int = 0

    def __post_init__(self):
        if (self.overall is None) == (self.per_heat is None):
            raise AdvancementError(
                "advance", "one_mode", "give either overall, or per_heat and best_remaining"
            )
        for field in ("overall", "per_heat", "best_remaining"):
            value = getattr(self, field)
            least = 1 if field == "overall" else 0
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or value < least
            ):
                raise AdvancementError(
                    field, "invalid", f"must be a whole number ≥ {least}, not {value!r}"
                )

    @classmethod
    def from_dict(cls, data: dict) -> Advance:
        """Read the interchange format's ``{"overall": N}`` or ``{"per_heat": N, ...}``."""
        unknown = set(data) - {"overall", "per_heat", "best_remaining"}
        if unknown:
            name = sorted(unknown)[0]
            raise AdvancementError(name, "unknown", f'unknown setting "{name}"')
        if "overall" in data and ("per_heat" in data or "best_remaining" in data):
            raise AdvancementError("advance", "one_mode", "overall and per_heat exclude each other")
        return cls(
            overall=data.get("overall"),
            per_heat=data.get("per_heat"),
            best_remaining=data.get("best_remaining", 0) if "per_heat" in data else 0,
        )


def _best(candidates: Sequence[Standing], count: int) -> list[Standing]:
    """Return the ``count`` best of ``candidates`` (in order) and all tied with the last.

    In standing order the entries tied with the last come right after it: the
    rest of a round of 1,600 is not looked at.
    """
    if count <= 0 or not candidates:
        return []
    chosen = list(candidates[:count])
    last = rank_key(chosen[-1].outcome)
    for standing in candidates[count:]:
        if rank_key(standing.outcome) != last:
            break
        chosen.append(standing)
    return chosen


def qualifiers(
    standings: Sequence[Standing],
    advance: Advance,
    *,
    unofficial_only_if_better: bool = False,
) -> set[Hashable]:
    """Return the entries of ``standings`` (in standing order) that advance."""
    eligible = [s for s in standings if s.outcome.kind in QUALIFYING]
    # With sm's rule the places are for official entries; guests are added after.
    competing = [s for s in eligible if s.official] if unofficial_only_if_better else eligible

    if advance.overall is not None:
        chosen = _best(competing, advance.overall)
    else:
        chosen = []
        heats: dict[Hashable, list[Standing]] = {}
        for standing in competing:
            heats.setdefault(standing.heat, []).append(standing)
        for heat_standings in heats.values():
            chosen += _best(heat_standings, advance.per_heat)
        taken = {id(s) for s in chosen}
        remaining = [s for s in competing if id(s) not in taken]
        chosen += _best(remaining, advance.best_remaining)

    qualified = {s.entry for s in chosen}
    if unofficial_only_if_better and chosen:
        last_official = max(rank_key(s.outcome) for s in chosen)
        qualified |= {
            s.entry for s in eligible if not s.official and rank_key(s.outcome) < last_official
        }
    return qualified
