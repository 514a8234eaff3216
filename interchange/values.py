"""Read one value of a document whose shape the schema has checked: its meaning and bounds.

The schema (``interchange.schema``) has already refused a value of the wrong
type, an unknown choice, a number out of its column's range, text too long
or of the wrong form. What is left here is what a schema cannot say: text
that must read as a date, a time or an e-mail address, an amount's cents,
bounds that depend on other values (a puzzle's pieces) or on today (a birth
date, ``championship.bounds``).
"""

from __future__ import annotations

import functools
import json
from datetime import UTC, date, datetime, tzinfo
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone
from django_countries import countries

from championship import bounds
from core.l10n import parse_duration
from interchange.format import FEE_MAX, InterchangeError


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _show(value: Any) -> str:
    """Return a value as the document spells it, shortened for a message."""
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _value(obj: dict, key: str, default: Any = None) -> Any:
    """Return a member's value; an omitted or null one is ``default``."""
    value = obj.get(key)
    return default if value is None else value


def _list(obj: dict, key: str) -> list:
    """Return a list member; an omitted or null one is empty."""
    return obj.get(key) or []


def _within(value: int | None, where: str, minimum: int, maximum: int) -> None:
    """Refuse a whole number outside a range that depends on other values."""
    if value is not None and not minimum <= value <= maximum:
        raise InterchangeError(where, f"must be between {minimum} and {maximum}, not {value}")


NEUTRAL = "neutral"
REPRESENTS = 'an ISO 3166-1 alpha-2 country code or "neutral"'


def _represents(obj: dict, path: str) -> str:
    """Return the country an entry represents: a code in upper case, "neutral", or "" (none).

    The schema has checked its form (two letters, or "neutral"); here, that the two
    letters name a country (the codes the application offers, ``django_countries``).
    """
    value = _value(obj, "represents", "")
    if value in ("", NEUTRAL):
        return value
    code = value.upper()
    if code not in _country_codes():
        raise InterchangeError(_at(path, "represents"), f"{_show(value)} is not {REPRESENTS}")
    return code


@functools.cache
def _country_codes() -> frozenset[str]:
    return frozenset(code for code, _name in countries)


def _email(obj: dict, key: str, path: str) -> str:
    """Return an optional e-mail address ("" when omitted)."""
    email = _value(obj, key, "")
    if email:
        try:
            validate_email(email)
        except ValidationError:
            where = _at(path, key)
            raise InterchangeError(where, f"{_show(email)} is not an e-mail address") from None
    return email


def _date(obj: dict, key: str, path: str) -> date | None:
    """Return a birth date (the format's one date without a time), within ``bounds``' years."""
    value = obj.get(key)
    if value is None:
        return None
    where = _at(path, key)
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise InterchangeError(where, f"{_show(value)} is not a date YYYY-MM-DD") from None
    # An archive is restored as it was; but its championships start in 2000 or later, and a
    # birth date before 1900 is a slip (year 0001), as one after today is.
    if not bounds.birth_date_allowed(day, timezone.now()):
        earliest = bounds.EARLIEST_BIRTH_DATE.isoformat()
        raise InterchangeError(where, f"{_show(value)} is not between {earliest} and today")
    return day


def _datetime(obj: dict, key: str, path: str, tz: tzinfo) -> datetime | None:
    """Return an ISO 8601 date and time; without an offset it is in the championship's zone."""
    value = obj.get(key)
    if value is None:
        return None
    where = _at(path, key)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise InterchangeError(
            where,
            f'{_show(value)} is not an ISO 8601 date and time (like "2026-03-14T10:00:00+01:00")',
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=tz)
    try:
        moment.astimezone(UTC)
    except OverflowError:
        raise InterchangeError(where, f"{_show(value)} is out of range") from None
    return moment


def _duration(obj: dict, key: str, path: str) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    try:
        milliseconds = parse_duration(value)
    except ValueError as error:
        raise InterchangeError(_at(path, key), str(error)) from None
    if milliseconds > bounds.DURATION_MAX_MS:
        hours = bounds.DURATION_MAX_MS // 3_600_000
        raise InterchangeError(_at(path, key), f"{_show(value)} is longer than {hours}:00:00")
    return milliseconds


def _fee(obj: dict, key: str, path: str, *, default: Decimal | None) -> Decimal | None:
    """Return an amount (text of digits, or a number the schema bounds) in whole cents."""
    value = obj.get(key)
    if value is None:
        return default
    where = _at(path, key)
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise InterchangeError(where, f'{_show(value)} is not an amount like "200.00"') from None
    # Text of many digits is beyond the column; rounding 1e30 to cents would itself fail.
    if amount > FEE_MAX:
        raise InterchangeError(where, f"must be between 0 and {FEE_MAX}, not {value}")
    if amount != amount.quantize(Decimal("0.01")):
        raise InterchangeError(where, f"{_show(value)} has more than two decimals")
    return amount.quantize(Decimal("0.01"))
