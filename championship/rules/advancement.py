"""Advancement: who goes from a preliminary round to the next.

Terms, as in ``RULES.md`` ("Advancement"):

advancement
    The organiser sets how many advance: ``overall`` N (the N best of the
    round), or ``per_heat`` N plus ``best_remaining`` M (the N best of each
    heat, then the M best of all the others across heats).
route
    The way a place is won: per heat (among the N best of a heat), best
    remaining (among the M best of the rest), or overall (among the N best of
    the round).
qualifier
    An entry that advances. Only a valid result can qualify: a completed
    puzzle, or counted pieces. Invalid attempts, entries still puzzling or
    still to be counted (pending), did not start and disqualified never
    qualify, official or not.
tie
    Entries tied with the last qualifier of a route also qualify (a decision:
    the rulebooks do not speak of ties).
mark
    sm: the result of the last official qualifier of a route, which a guest
    must beat to qualify by that route.
better
    A smaller ``rank_key``: a completed puzzle beats every piece count, a
    faster final time beats a slower one, more counted pieces beat fewer.
    Equal is not better.

sm's rule for unofficial entrants (guests, "utom tävlan"), in the rulebook's
words: "Kvalificering till nästkommande omgång för internationella deltagare
utom tävlan sker genom att de deltagare som har en bättre tid än sista
kvalificerade svensk går vidare till final. Antalet platser för svenska
deltagare begränsas därmed inte oavsett hur många internationella deltagare
som kvalificerar sig till final." Read, with ``unofficial_only_if_better``:

- The places are for official entries (Swedes). They are chosen among the
  official entries alone, exactly as without guests: per heat N and ties,
  then the best M remaining and ties; or overall N and ties. Adding or
  removing guests never changes which official entries qualify.
- A guest qualifies when its result is better than that of the last official
  entry who qualified in the same way ("sista kvalificerade svensk", read
  route by route):

  - per heat: the last official entry qualified per heat from the guest's
    own heat. Where none did (the heat has no official entry with a valid
    result, or ``per_heat`` is 0), this route is closed for the heat's
    guests;
  - best remaining: the last official entry qualified among the best
    remaining, across heats. Where none did (``best_remaining`` is 0, or no
    official entry was left over), this route is closed;
  - overall: the last official qualifier of the round. Where none did, no
    guest qualifies.

Decisions, in the spirit of the rulebook:

- A guest admitted by either route qualifies. A guest tied with its heat's
  last per-heat Swede still qualifies when it is better than the last
  best-remaining Swede: a Swede slower than the guest advances too.
- "Better" is strict ("bättre tid"): a guest tied with the last Swede of a
  route does not qualify by it. The tie decision is about official places; a
  guest takes no place, so it has no tie to share.
- A guest never qualifies with a result equal to or worse than that of a Swede
  of its own heat who does not advance. This follows from the routes: such a
  Swede is worse than the heat's last per-heat Swede (ties with the last one
  qualify), worse than the last best-remaining Swede (it was among the
  remaining and not chosen), and, overall, worse than the last qualifier; a
  guest must be better still.
- The rulebook compares with the last qualified Swede, not with the number of
  places: where there are fewer Swedes than places, a guest slower than the
  last of them does not qualify, though places are left empty.
- Guests are judged one by one, each against the Swedes: guests never compete
  with one another, and a guest never takes or adds a place. Guests tied with
  one another in one heat share their fate; in different heats their heats'
  last per-heat Swedes may differ, as they do for Swedes tied across heats.
- A guest's invalid, pending, not started or disqualified result never
  qualifies. A Swede's such result qualifies nobody and sets no mark: a
  heat's per-heat route rests on its Swedes with valid results.

Without sm's rule, official and unofficial entries compete for the places alike.
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


def _per_heat(
    candidates: Sequence[Standing], advance: Advance
) -> tuple[list[Standing], dict[Hashable, tuple], tuple | None]:
    """Choose the per-heat and best-remaining qualifiers among ``candidates`` (in order).

    Return the qualifiers, the key of each heat's last per-heat qualifier (for the
    heats that have one), and the key of the last best-remaining qualifier (or
    ``None``).
    """
    heats: dict[Hashable, list[Standing]] = {}
    for standing in candidates:
        heats.setdefault(standing.heat, []).append(standing)
    chosen: list[Standing] = []
    last_of_heat: dict[Hashable, tuple] = {}
    for heat, heat_standings in heats.items():
        best = _best(heat_standings, advance.per_heat)
        if best:
            chosen += best
            last_of_heat[heat] = rank_key(best[-1].outcome)
    taken = {id(s) for s in chosen}
    remaining = [s for s in candidates if id(s) not in taken]
    best_remaining = _best(remaining, advance.best_remaining)
    chosen += best_remaining
    last_remaining = rank_key(best_remaining[-1].outcome) if best_remaining else None
    return chosen, last_of_heat, last_remaining


def qualifiers(
    standings: Sequence[Standing],
    advance: Advance,
    *,
    unofficial_only_if_better: bool = False,
) -> set[Hashable]:
    """Return the entries of ``standings`` (in standing order) that advance.

    With ``unofficial_only_if_better`` (sm), choose the places among the official
    entries, then admit each guest better than the last official qualifier of
    its route (see the module's docstring).
    """
    eligible = [s for s in standings if s.outcome.kind in QUALIFYING]
    # With sm's rule the places are for official entries; guests are judged after.
    competing = [s for s in eligible if s.official] if unofficial_only_if_better else eligible

    # The marks: the key of the last official qualifier of each route, per heat (by
    # heat) and across heats (best remaining, or overall).
    last_of_heat: dict[Hashable, tuple] = {}
    if advance.overall is not None:
        chosen = _best(competing, advance.overall)
        last_across_heats = rank_key(chosen[-1].outcome) if chosen else None
    else:
        chosen, last_of_heat, last_across_heats = _per_heat(competing, advance)

    qualified = {s.entry for s in chosen}
    if not unofficial_only_if_better:
        return qualified
    marks = list(last_of_heat.values())
    if last_across_heats is not None:
        marks.append(last_across_heats)
    if marks:
        # In standing order no guest from the slowest mark on is better than a mark:
        # the rest of a round of 1,600 is not looked at.
        slowest = max(marks)
        for standing in eligible:
            key = rank_key(standing.outcome)
            if key >= slowest:
                break
            if standing.official:
                continue
            mark_of_heat = last_of_heat.get(standing.heat)
            if (mark_of_heat is not None and key < mark_of_heat) or (
                last_across_heats is not None and key < last_across_heats
            ):
                qualified.add(standing.entry)
    return qualified
