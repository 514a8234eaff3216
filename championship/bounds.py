"""How far a championship's dates may lie from today, and its heats' from its start; what a
person's birth date and citizenships may be.

A date outside these windows is a slip of the keyboard (2062 for 2026, a year
left at 0001); near the ends of the calendar a computer holds (years 1 and 9999)
it also makes time-zone conversion and time arithmetic overflow. Every path that
takes a date from a person checks it: the models' ``full_clean()`` (the admin,
the model forms, the services), the control room's forms, and the interchange
import. What the server's own clock says (a heat started now) is trusted.

championship window
    A championship starts on 1 January 2000 or later, and at most 5 years after
    today. The past is bounded by a fixed day, not by a distance from today: an
    imported archive, or a championship entered after the fact, stays valid as
    the years pass. Only a start that is typed (a new championship, or a changed
    start) is checked: a championship left as it was stays editable.
registration window
    The registration deadline and a category's opening lie before the start, at
    most 2 years before it.
championship's days
    A heat's scheduled start, and a start or time-up typed in (the admin), lie at
    most 2 days before and 3 days after the championship's start: a championship
    may last a weekend, and a heat may be held the day before the announced start.
season
    Anything else a document dates lies within 2 years of the championship's
    start, before or after: registrations, check-ins, confirmations, and a heat's
    start and time-up, which an export carries as the server's clock recorded
    them (on whatever day the heat was really started).
own start
    A seat's own start lies between its heat's start and the end of the round's
    time limit counted from there.
time limit
    A round's or a category's time limit is 1 to 600 minutes.
duration
    A result's time and its last piece's time are at most 24 hours.
birth date
    A person's birth date lies from 1 January 1900 (``EARLIEST_BIRTH_DATE``) to
    today, as the day is where it is furthest ahead (UTC+14), so that nobody's
    today is refused. Nobody alive was born earlier; a year 0001, or 1026 for
    2026, is a slip. The import of an interchange document, which restores
    archives, holds its birth dates to the same window (naming the path).
citizenships
    A person has at most ``CITIZENSHIPS_MAX`` (5) citizenships, each a two-letter
    country code. Two or three are common, more are rare and a rule only asks
    whether one of them is a given country; 100,000 codes made one entry a
    300 kB line of the organiser's CSV export, which spreadsheets and Python's
    CSV reader refuse.
safe range
    A row stored before these checks may hold any moment of years 1 to 9999. A
    moment within 30 days of either end is read as the moment 30 days inside it,
    so that showing it in any time zone, or adding a time limit or a preset's
    days to it, never overflows.

The windows are plain arithmetic on aware datetimes; below them, the checks of
the models' instances, whose refusals are in the active language.
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

EARLIEST_START = datetime(2000, 1, 1, tzinfo=UTC)
YEARS_AFTER = 5
REGISTRATION_YEARS_BEFORE = 2
SEASON_YEARS = 2
DAYS_BEFORE = 2
DAYS_AFTER = 3
TIME_LIMIT_MINUTES_MIN = 1
TIME_LIMIT_MINUTES_MAX = 600
# A puzzle's pieces (a category's, or a round's own) and the puzzles a round counts together
# (a team's two): the most any form, the API or the round editor takes.
PIECES_MAX = 100_000
PUZZLES_MAX = 10
DURATION_MAX_MS = 24 * 60 * 60 * 1000
# A protest window longer than a day is a slip of the keyboard.
PROTEST_WINDOW_MAX_MINUTES = 24 * 60
# Member changes close at most this many days before a championship (a year).
MEMBER_CHANGES_MAX_DAYS = 365
# Offers and payment deadlines last at most a month.
DEADLINE_MAX_HOURS = 31 * 24
EARLIEST_BIRTH_DATE = date(1900, 1, 1)
# The day is furthest ahead at UTC+14 (Kiribati's Line Islands).
AHEAD_OF_UTC = timedelta(hours=14)
CITIZENSHIPS_MAX = 5
SAFE_MARGIN = timedelta(days=30)
SAFE_EARLIEST = datetime.min.replace(tzinfo=UTC) + SAFE_MARGIN
SAFE_LATEST = datetime.max.replace(tzinfo=UTC) - SAFE_MARGIN


@dataclass(frozen=True)
class Window:
    """The moments from ``earliest`` to ``latest``, both included."""

    earliest: datetime
    latest: datetime

    def __contains__(self, moment: datetime) -> bool:
        if moment.tzinfo is None:  # as Django stores a naive moment: in UTC
            moment = moment.replace(tzinfo=UTC)
        return self.earliest <= moment <= self.latest


def add_years(moment: datetime, years: int) -> datetime:
    """Return ``moment`` moved by whole years (29 February becomes 28 February)."""
    year = min(max(moment.year + years, 1), 9999)
    try:
        return moment.replace(year=year)
    except ValueError:
        return moment.replace(year=year, day=28)


def _shift(moment: datetime, delta: timedelta) -> datetime:
    """Return ``moment + delta``, stopping at the ends of the calendar instead of overflowing."""
    try:
        return moment + delta
    except OverflowError:
        return (datetime.max if delta > timedelta(0) else datetime.min).replace(
            tzinfo=moment.tzinfo
        )


def championship_window(now: datetime) -> Window:
    """Return when a championship may start, seen at ``now``."""
    return Window(EARLIEST_START, add_years(now, YEARS_AFTER))


def registration_window(starts_at: datetime) -> Window:
    """Return when a championship's registration may open and close."""
    return Window(add_years(starts_at, -REGISTRATION_YEARS_BEFORE), starts_at)


def season(starts_at: datetime) -> Window:
    """Return when anything else about a championship may have happened."""
    return Window(add_years(starts_at, -SEASON_YEARS), add_years(starts_at, SEASON_YEARS))


def championship_days(starts_at: datetime) -> Window:
    """Return when a championship's heats may be scheduled, start and end."""
    return Window(
        _shift(starts_at, -timedelta(days=DAYS_BEFORE)),
        _shift(starts_at, timedelta(days=DAYS_AFTER)),
    )


def own_start_window(heat_started_at: datetime, time_limit_minutes: int) -> Window:
    """Return when an entry may start on its own in a heat that started at ``heat_started_at``."""
    return Window(heat_started_at, _shift(heat_started_at, timedelta(minutes=time_limit_minutes)))


def time_limit_allowed(minutes: int) -> bool:
    return TIME_LIMIT_MINUTES_MIN <= minutes <= TIME_LIMIT_MINUTES_MAX


def safe(moment: datetime | None) -> datetime | None:
    """Return an aware moment moved into the safe range (``None`` stays ``None``)."""
    if moment is None or moment.tzinfo is None:
        return moment
    if moment < SAFE_EARLIEST:
        return SAFE_EARLIEST
    if moment > SAFE_LATEST:
        return SAFE_LATEST
    return moment


def local_day(moment: datetime, tz: tzinfo) -> date:
    """Return the day of ``moment`` in ``tz``, for any moment of the calendar."""
    return safe(moment).astimezone(tz).date()


# ------------------------------------------------------------------ the models' checks

_LOADED = "_bounds_loaded"


def loaded(instance, names: Iterable[str]):
    """Prepare an instance read from the database; return it.

    Its moments are moved into the safe range, and the values of ``names`` are
    remembered: a value left as it was read is not checked again.
    """
    values = instance.__dict__
    for field in instance._meta.concrete_fields:
        if field.get_internal_type() == "DateTimeField" and field.attname in values:
            values[field.attname] = safe(values[field.attname])
    values[_LOADED] = {name: values[name] for name in names if name in values}
    return instance


def changed(instance, name: str) -> bool:
    """Return whether a field's value is new: never saved, or not as it was read."""
    remembered = instance.__dict__.get(_LOADED)
    if instance._state.adding or remembered is None or name not in remembered:
        return True
    return remembered[name] != getattr(instance, name)


def clean_fields(instance, exclude, clean: Callable, check: Callable) -> None:
    """Run a model's own ``clean_fields`` (``clean``), then its bounds (``check``).

    ``check(instance, names)`` returns ``{field: message}``, naming only fields
    of ``names``: those neither excluded (a form without them) nor refused already.
    """
    errors: dict = {}
    try:
        clean(exclude=exclude)
    except ValidationError as error:
        errors = error.update_error_dict(errors)
    left_out = set(exclude or ()) | set(errors)
    names = {f.name for f in instance._meta.concrete_fields if f.name not in left_out}
    for name, message in check(instance, names).items():
        errors.setdefault(name, []).append(ValidationError(message, code="out_of_bounds"))
    if errors:
        raise ValidationError(errors)


def _zone(championship) -> tzinfo:
    try:
        return zoneinfo.ZoneInfo(championship.timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return UTC


def _shown(moment: datetime, tz: tzinfo, format_name: str = "DATETIME_FORMAT") -> str:
    return formats.date_format(safe(moment).astimezone(tz), format_name)


def _between(window: Window, tz: tzinfo, format_name: str = "DATETIME_FORMAT") -> dict:
    return {
        "earliest": _shown(window.earliest, tz, format_name),
        "latest": _shown(window.latest, tz, format_name),
    }


def championship_errors(championship, names: set[str]) -> dict[str, str]:
    """Check a new or changed start, and the registration deadline against the start."""
    errors = {}
    start, deadline = championship.starts_at, championship.registration_deadline
    tz = _zone(championship)
    if "starts_at" in names and start is not None and changed(championship, "starts_at"):
        window = championship_window(timezone.now())
        if start not in window:
            errors["starts_at"] = _("Give a start between %(earliest)s and %(latest)s.") % (
                _between(window, tz, "DATE_FORMAT")
            )
    if (
        "registration_deadline" in names
        and deadline is not None
        and start is not None
        and (changed(championship, "registration_deadline") or changed(championship, "starts_at"))
    ):
        window = registration_window(start)
        if deadline not in window:
            errors["registration_deadline"] = _(
                "Give a deadline between %(earliest)s and the start, %(latest)s."
            ) % _between(window, tz)
    return errors


def category_errors(category, names: set[str]) -> dict[str, str]:
    """Check a category's registration opening against the start, and its time limit."""
    errors = _time_limit_errors(category, names)
    opens = category.registration_opens_at
    if (
        "registration_opens_at" in names
        and opens is not None
        and category.championship_id
        and changed(category, "registration_opens_at")
    ):
        championship = category.championship
        window = registration_window(championship.starts_at)
        if opens not in window:
            errors["registration_opens_at"] = _(
                "Give an opening between %(earliest)s and the start, %(latest)s."
            ) % _between(window, _zone(championship))
    return errors


def round_errors(round_, names: set[str]) -> dict[str, str]:
    """Check a round's own time limit."""
    return _time_limit_errors(round_, names)


def _time_limit_errors(instance, names: set[str]) -> dict[str, str]:
    minutes = instance.time_limit_minutes
    if (
        "time_limit_minutes" in names
        and minutes is not None
        and changed(instance, "time_limit_minutes")
        and not time_limit_allowed(minutes)
    ):
        return {"time_limit_minutes": time_limit_message()}
    return {}


def time_limit_message() -> str:
    return ngettext(
        "Give a time limit between %(minimum)s and %(maximum)s minute.",
        "Give a time limit between %(minimum)s and %(maximum)s minutes.",
        TIME_LIMIT_MINUTES_MAX,
    ) % {"minimum": TIME_LIMIT_MINUTES_MIN, "maximum": TIME_LIMIT_MINUTES_MAX}


def days_message(championship) -> str:
    """Return the refusal of a heat's time outside the championship's days."""
    return _(
        "Give a time between %(earliest)s and %(latest)s, within the championship's days."
    ) % _between(championship_days(championship.starts_at), _zone(championship))


def heat_errors(heat, names: set[str]) -> dict[str, str]:
    """Check a heat's new scheduled start, start and time-up: within the championship's days."""
    asked = [
        name
        for name in ("scheduled_start", "started_at", "ended_at")
        if name in names and getattr(heat, name) is not None and changed(heat, name)
    ]
    if not asked or not heat.round_id:
        return {}
    championship = heat.round.championship
    window = championship_days(championship.starts_at)
    return {name: days_message(championship) for name in asked if getattr(heat, name) not in window}


def seat_errors(seat, names: set[str]) -> dict[str, str]:
    """Check a seat's new own start: within the time limit after its heat's start."""
    start = seat.started_at
    if "started_at" not in names or start is None or not seat.heat_id:
        return {}
    if not changed(seat, "started_at"):
        return {}
    heat = seat.heat
    championship = heat.round.championship
    if heat.started_at is None:
        if start in championship_days(championship.starts_at):
            return {}
        return {"started_at": days_message(championship)}
    window = own_start_window(heat.started_at, heat.round.effective_time_limit_minutes)
    if start in window:
        return {}
    return {"started_at": own_start_message(window, _zone(championship))}


def own_start_message(window: Window, tz: tzinfo) -> str:
    return _(
        "Give an own start between the heat's start, %(earliest)s, and the end of its "
        "time limit, %(latest)s."
    ) % _between(window, tz)


# ------------------------------------------------------------------ a person's details

_COUNTRY_CODE = re.compile(r"[A-Za-z]{2}")


def latest_birth_date(now: datetime) -> date:
    """Return the latest birth date at ``now``: today where the day is furthest ahead."""
    return (now.astimezone(UTC) + AHEAD_OF_UTC).date()


def birth_date_allowed(day: date, now: datetime) -> bool:
    return EARLIEST_BIRTH_DATE <= day <= latest_birth_date(now)


def birth_date_message() -> str:
    return _("Give a birth date between %(earliest)s and today.") % {
        "earliest": formats.date_format(EARLIEST_BIRTH_DATE, "DATE_FORMAT")
    }


def citizenships_message() -> str:
    """Return the refusal of more than ``CITIZENSHIPS_MAX`` citizenships."""
    return ngettext(
        "Give at most %(count)s citizenship.",
        "Give at most %(count)s citizenships.",
        CITIZENSHIPS_MAX,
    ) % {"count": CITIZENSHIPS_MAX}


def citizenship_message(codes: Any) -> str | None:
    """Return why ``codes`` are not a person's citizenships, or ``None`` when they are.

    A list (or tuple) of at most ``CITIZENSHIPS_MAX`` two-letter country codes.
    """
    if isinstance(codes, list | tuple) and len(codes) > CITIZENSHIPS_MAX:
        return citizenships_message()
    if not isinstance(codes, list | tuple) or not all(
        isinstance(code, str) and _COUNTRY_CODE.fullmatch(code) for code in codes
    ):
        return _('Give two-letter country codes, e.g. "SE" or ["SE", "FI"].')
    return None


def person_errors(person, names: set[str]) -> dict[str, str]:
    """Check a person's new birth date and citizenships."""
    errors = {}
    birth_date = person.birth_date
    if (
        "birth_date" in names
        and birth_date is not None
        and changed(person, "birth_date")
        and not birth_date_allowed(birth_date, timezone.now())
    ):
        errors["birth_date"] = birth_date_message()
    if "citizenship" in names and changed(person, "citizenship"):
        message = citizenship_message(person.citizenship)
        if message:
            errors["citizenship"] = message
    return errors
