"""When registration closes.

registration deadline
    The earlier of the organiser's deadline and the preset's rule. The preset's
    rule (rogaland: 5 days before the start) counts calendar days in the
    championship's own time zone: the local start minus N days, at the same
    wall-clock time, whatever daylight-saving change lies in between. An
    organiser's deadline may make registration close earlier, never later. With
    neither, registration closes at the start.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo


def days_before(moment: datetime, days: int, tz: tzinfo) -> datetime:
    """Return the instant (in UTC) ``days`` calendar days before ``moment``, at its wall-clock time.

    The days and the wall-clock time are those of ``tz``. A wall-clock time that
    happens twice that day (the autumn change), or not at all (the spring
    change), is read as the earlier of its two readings.
    """
    try:
        wall = moment.astimezone(tz).replace(tzinfo=None) - timedelta(days=days)
        # In UTC: a local time in the repeated hour never compares equal to another zone's.
        return min(wall.replace(tzinfo=tz, fold=fold).astimezone(UTC) for fold in (0, 1))
    except OverflowError:
        # More days than the calendar holds before the moment: its earliest moment.
        return datetime.min.replace(tzinfo=UTC)


def registration_deadline(
    *,
    starts_at: datetime,
    tz: tzinfo,
    closes_days_before: int | None,
    organiser_deadline: datetime | None,
) -> datetime:
    """Return when registration closes: the earlier of the organiser's deadline and the preset's.

    ``closes_days_before`` is the preset's rule (``None``: it has none).
    """
    candidates = []
    if organiser_deadline is not None:
        candidates.append(organiser_deadline)
    if closes_days_before is not None:
        candidates.append(days_before(starts_at, closes_days_before, tz))
    if not candidates:
        return starts_at
    # Compared in UTC: aware times of one zone would be compared by their wall clocks.
    return min(candidates, key=lambda moment: moment.astimezone(UTC))
