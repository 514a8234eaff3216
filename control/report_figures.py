"""The figures of the round report: each seated entry's attempt, and per bucket (a heat, a
group of tables, the round) the counts, the spread of final times and the finish curve.

Plain values only: ``control.report`` reads the round and flags what stands out.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from championship.models import Heat
from core.l10n import format_duration
from results.models import Result

MINUTE_MS = 60_000
Outcome = Result.Outcome


@dataclass(frozen=True)
class Attempt:
    """One seated entry's attempt in the round, as the report reads it."""

    entry_id: int
    name: str
    heat_id: int
    table_number: int | None
    group: str
    outcome: str = ""  # empty while the entry puzzles
    final_ms: int | None = None
    missing_found: int = 0
    missing_lost: int = 0
    adjacent_missing: int = 0
    # How long after its heat's start the entry started, when it had a start of its own.
    own_start_ms: int | None = None

    @property
    def finished(self) -> bool:
        return self.outcome == Outcome.COMPLETED and self.final_ms is not None

    @property
    def missing(self) -> int:
        return self.missing_found + self.missing_lost

    @property
    def own_start_delay(self) -> str | None:
        """Return how long after its heat the entry started, as ``H:MM:SS``."""
        return format_duration(self.own_start_ms)


@dataclass(frozen=True)
class Spread:
    """The median, quartiles and extremes of finished entries' final times, in milliseconds."""

    median_ms: int
    q1_ms: int
    q3_ms: int
    fastest_ms: int
    slowest_ms: int

    @property
    def iqr_ms(self) -> int:
        """Return the interquartile range: how far apart the middle half of the times lie."""
        return self.q3_ms - self.q1_ms

    @property
    def median(self) -> str:
        return format_duration(self.median_ms)

    @property
    def q1(self) -> str:
        return format_duration(self.q1_ms)

    @property
    def q3(self) -> str:
        return format_duration(self.q3_ms)

    @property
    def iqr(self) -> str:
        return format_duration(self.iqr_ms)

    @property
    def fastest(self) -> str:
        return format_duration(self.fastest_ms)

    @property
    def slowest(self) -> str:
        return format_duration(self.slowest_ms)


def median_ms(values: Sequence[int]) -> int:
    """Return the median of ``values``, to the millisecond (half a millisecond rounds to even)."""
    return round(statistics.median(values))


def spread_of(times: Sequence[int]) -> Spread | None:
    """Return the spread of final times (``None`` without any).

    The quartiles are those of the "inclusive" method (the times are the whole
    population, not a sample): for 40, 45, 50, 60 minutes they are 43:45 and
    52:30, and one time is its own quartiles.
    """
    if not times:
        return None
    ordered = sorted(times)
    if len(ordered) == 1:
        q1 = q3 = ordered[0]
    else:
        q1, _median, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    return Spread(
        median_ms=median_ms(ordered),
        q1_ms=round(q1),
        q3_ms=round(q3),
        fastest_ms=ordered[0],
        slowest_ms=ordered[-1],
    )


def finish_curve(times: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """Return the finish curve: ``(final time, how many had finished by then)``, in order.

    Entries with the same final time make one step.
    """
    curve: list[tuple[int, int]] = []
    for count, time_ms in enumerate(sorted(times), start=1):
        if curve and curve[-1][0] == time_ms:
            curve[-1] = (time_ms, count)
        else:
            curve.append((time_ms, count))
    return tuple(curve)


def checkpoints(limit_ms: int, through_ms: int = 0) -> tuple[int, ...]:
    """Return the minutes at which to read the finish curves: a few, evenly spaced.

    At most eight steps of 5, 10, 15, 30 or 60 minutes, up to the time limit, or
    to ``through_ms`` when a final time (with a penalty) runs past the limit.
    """
    end = max(limit_ms, through_ms)
    minutes = -(-end // MINUTE_MS)
    step = next((s for s in (5, 10, 15, 30, 60) if minutes <= 8 * s), 60 * (minutes // 480 + 1))
    marks = list(range(step, minutes, step))
    return (*marks, minutes) if minutes > 0 else ()


@dataclass(frozen=True)
class Summary:
    """The figures of one bucket: a heat, a group of tables, or the whole round."""

    key: str
    label: str
    seated: int = 0
    completed: int = 0
    unfinished: int = 0
    invalid: int = 0
    dns: int = 0
    dsq: int = 0
    puzzling: int = 0
    spread: Spread | None = None
    curve: tuple[tuple[int, int], ...] = ()
    missing_reports: int = 0
    missing_pieces: int = 0
    adjacent_reports: int = 0
    adjacent_pieces: int = 0
    own_starts: int = 0
    corrections: int = 0
    # A heat's clock (``None`` for a group and for the round).
    scheduled_start: datetime | None = None
    started_at: datetime | None = None
    first_table: int | None = None

    @property
    def missing_share(self) -> float:
        """Return the share of the seated entrants who reported a missing piece."""
        return self.missing_reports / self.seated if self.seated else 0.0

    @property
    def late_ms(self) -> int | None:
        """Return how late the heat started, in milliseconds (0: on time or early).

        ``None`` when the heat has no scheduled start or has not started.
        """
        if self.scheduled_start is None or self.started_at is None:
            return None
        return max(0, (self.started_at - self.scheduled_start) // timedelta(milliseconds=1))

    @property
    def late_minutes(self) -> int | None:
        late = self.late_ms
        return None if late is None else late // MINUTE_MS

    def finished_by(self, minute: int) -> int:
        """Return how many had finished within ``minute`` minutes of their start."""
        reached = [count for time_ms, count in self.curve if time_ms <= minute * MINUTE_MS]
        return reached[-1] if reached else 0


OUTCOME_FIELDS = {
    Outcome.COMPLETED: "completed",
    Outcome.UNFINISHED: "unfinished",
    Outcome.INVALID: "invalid",
    Outcome.DNS: "dns",
    Outcome.DSQ: "dsq",
}


def summarise(
    key: str,
    label: str,
    attempts: Sequence[Attempt],
    *,
    corrections: int = 0,
    heat: Heat | None = None,
) -> Summary:
    """Return the figures of a bucket's attempts."""
    counts = dict.fromkeys(OUTCOME_FIELDS.values(), 0)
    for attempt in attempts:
        if attempt.outcome in OUTCOME_FIELDS:
            counts[OUTCOME_FIELDS[attempt.outcome]] += 1
    times = [attempt.final_ms for attempt in attempts if attempt.finished]
    numbers = [attempt.table_number for attempt in attempts if attempt.table_number is not None]
    return Summary(
        key=key,
        label=label,
        seated=len(attempts),
        **counts,
        puzzling=sum(attempt.outcome not in OUTCOME_FIELDS for attempt in attempts),
        spread=spread_of(times),
        curve=finish_curve(times),
        missing_reports=sum(attempt.missing > 0 for attempt in attempts),
        missing_pieces=sum(attempt.missing for attempt in attempts),
        adjacent_reports=sum(attempt.adjacent_missing > 0 for attempt in attempts),
        adjacent_pieces=sum(attempt.adjacent_missing for attempt in attempts),
        own_starts=sum(attempt.own_start_ms is not None for attempt in attempts),
        corrections=corrections,
        scheduled_start=heat.scheduled_start if heat else None,
        started_at=heat.started_at if heat else None,
        first_table=min(numbers, default=None),
    )
