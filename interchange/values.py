"""Read one value of a document: its type, its bounds, and the path an error names."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, tzinfo
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from championship import bounds
from championship.l10n import parse_duration
from interchange.format import _MISSING, FEE_MAX, INTEGER_MAX, SLUG, InterchangeError


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _show(value: Any) -> str:
    """Return a value as the document spells it, shortened for a message."""
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _get(obj: dict, key: str, path: str, *, required: bool) -> Any:
    """Return ``obj[key]``, or ``_MISSING``; raise when a required field is absent."""
    if key in obj:
        return obj[key]
    if required:
        raise InterchangeError(_at(path, key), "is required")
    return _MISSING


def _object(value: Any, path: str) -> dict:
    if not isinstance(value, dict):
        raise InterchangeError(path, f"must be an object, not {_show(value)}")
    return value


def _list(obj: dict, key: str, path: str, *, required: bool = False) -> list:
    value = _get(obj, key, path, required=required)
    if value is _MISSING or (value is None and not required):
        return []
    if not isinstance(value, list):
        raise InterchangeError(_at(path, key), f"must be a list, not {_show(value)}")
    return value


def _text(
    obj: dict,
    key: str,
    path: str,
    *,
    required: bool = False,
    default: str | None = "",
    max_length: int | None = None,
    blank: bool = True,
) -> str | None:
    """Return a text field; an omitted or null optional one is ``default``."""
    value = _get(obj, key, path, required=required)
    if value is _MISSING or (value is None and not required):
        return default
    where = _at(path, key)
    if not isinstance(value, str):
        raise InterchangeError(where, f"must be text, not {_show(value)}")
    if not blank and not value.strip():
        raise InterchangeError(where, "must not be empty")
    if max_length is not None and len(value) > max_length:
        raise InterchangeError(where, f"must be at most {max_length} characters long")
    return value


def _whole(
    obj: dict,
    key: str,
    path: str,
    *,
    required: bool = False,
    default: int | None = None,
    nullable: bool = False,
    minimum: int = 0,
    maximum: int = INTEGER_MAX,
) -> int | None:
    """Return a whole-number field between ``minimum`` and ``maximum``."""
    value = _get(obj, key, path, required=required)
    if value is _MISSING:
        return default
    where = _at(path, key)
    if value is None:
        if nullable:
            return None
        if not required:
            return default
    if not isinstance(value, int) or isinstance(value, bool):
        raise InterchangeError(where, f"must be a whole number, not {_show(value)}")
    if not minimum <= value <= maximum:
        raise InterchangeError(where, f"must be between {minimum} and {maximum}, not {value}")
    return value


def _email(obj: dict, key: str, path: str) -> str:
    """Return an optional e-mail address ("" when omitted)."""
    email = _text(obj, key, path, max_length=254)
    if email:
        try:
            validate_email(email)
        except ValidationError:
            where = _at(path, key)
            raise InterchangeError(where, f"{_show(email)} is not an e-mail address") from None
    return email


def _flag(obj: dict, key: str, path: str, *, default: bool = False) -> bool:
    value = _get(obj, key, path, required=False)
    if value is _MISSING or value is None:
        return default
    if not isinstance(value, bool):
        raise InterchangeError(_at(path, key), f"must be true or false, not {_show(value)}")
    return value


def _choice(
    obj: dict, key: str, path: str, choices, *, what: str, required=False, default=None
) -> str:
    value = _text(obj, key, path, required=required, default=default)
    if value is default and not required:  # omitted: the default, whatever it is
        return value
    if value not in choices:
        known = ", ".join(choices)
        raise InterchangeError(_at(path, key), f'unknown {what} "{value}" (known: {known})')
    return value


def _slug(obj: dict, key: str, path: str, *, max_length: int) -> str:
    value = _text(obj, key, path, required=True, blank=False, max_length=max_length)
    if not SLUG.match(value):
        raise InterchangeError(
            _at(path, key), f"{_show(value)} may hold only letters, digits, - and _"
        )
    return value


def _ref(obj: dict, key: str, path: str) -> str:
    """Return a required id: a non-empty string of at most 40 characters."""
    return _text(obj, key, path, required=True, blank=False, max_length=40)


def _date(obj: dict, key: str, path: str) -> date | None:
    value = _get(obj, key, path, required=False)
    if value is _MISSING or value is None:
        return None
    where = _at(path, key)
    if not isinstance(value, str):
        raise InterchangeError(where, f"must be a date YYYY-MM-DD or null, not {_show(value)}")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InterchangeError(where, f"{_show(value)} is not a date YYYY-MM-DD") from None


def _datetime(
    obj: dict, key: str, path: str, tz: tzinfo, *, required: bool = False, default=None
) -> datetime | None:
    """Return an ISO 8601 date and time; without an offset it is in the championship's zone."""
    value = _get(obj, key, path, required=required)
    if value is _MISSING or (value is None and not required):
        return default
    where = _at(path, key)
    if not isinstance(value, str):
        raise InterchangeError(where, f"must be an ISO 8601 date and time, not {_show(value)}")
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
    value = _get(obj, key, path, required=False)
    if value is _MISSING or value is None:
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
    value = _get(obj, key, path, required=False)
    if value is _MISSING or value is None:
        return default
    where = _at(path, key)
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InterchangeError(where, f'must be an amount like "200.00", not {_show(value)}')
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        amount = None
    if amount is None or not amount.is_finite():
        raise InterchangeError(where, f'{_show(value)} is not an amount like "200.00"')
    # The range first: rounding an amount as large as 1e30 to cents is itself an error.
    if not 0 <= amount <= FEE_MAX:
        raise InterchangeError(where, f"must be between 0 and {FEE_MAX}, not {value}")
    if amount != amount.quantize(Decimal("0.01")):
        raise InterchangeError(where, f"{_show(value)} has more than two decimals")
    return amount.quantize(Decimal("0.01"))
