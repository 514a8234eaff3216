"""The championship interchange format, version 2: one JSON document holds a whole championship.

Terms, as in ``docs/interchange.md``:

document
    ``{"format": "speedpuzzling-championship", "version": 2, "championship": ...,
    "tables": [...], "persons": [...], "competitions": [...]}``: the championship,
    the venue's tables, the persons, and per competition (category) its entries and
    rounds, each round with its heats, seats and results.
id
    A person's or an entry's ``ref``: a string unique among the document's persons,
    or among all its entries. The import keeps them and the export gives them back.
path
    Where something is in the document, as ``competitions[0].entries[3].members[1]``;
    every import error names one.
computed fields
    What the rules derive from a result's inputs (place, official place, official,
    outcome, final seconds, penalty seconds, counted pieces, qualified, prize). The
    export adds them; the import ignores them and recomputes them.

``export_document`` reads a championship in a fixed number of queries;
``import_document`` checks the whole document before it writes anything, then
writes it in one transaction.
"""

from __future__ import annotations

import json
import re
import zoneinfo
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, tzinfo
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from championship import bounds, jsonbounds, rulesets
from championship.models import (
    RESERVED_SLUGS,
    Category,
    Championship,
    ChampionshipRole,
    Currency,
    Heat,
    Round,
    Seat,
    Table,
    new_token,
)
from championship.rules import identity, timing
from championship.rules.advancement import Advance, AdvancementError
from registration.models import Entry, EntryMember, Person
from results.models import Result
from results.selectors import parse_duration, result_fields
from results.services import standings_ensure_all, standings_recompute

FORMAT = "speedpuzzling-championship"
VERSION = 2
# Versions the import reads. Version 1 said only whether missing pieces were adjacent
# (``adjacent_missing`` true or false); version 2 says how many of the lost pieces were.
READS = (1, 2)

# Upper bounds of the database columns, so that a document cannot overflow them.
SMALL_MAX = 32767
INTEGER_MAX = 2147483647
BIG_MAX = 9223372036854775807
FEE_MAX = Decimal("999999.99")

SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")
# A QR token as ``new_token`` makes them (22 characters of URL-safe base64: 128 bits),
# or longer; a shorter one could be guessed.
TOKEN_MIN_LENGTH = 22
TOKEN_MAX_LENGTH = 64
TOKEN = re.compile(rf"^[-a-zA-Z0-9_]{{{TOKEN_MIN_LENGTH},{TOKEN_MAX_LENGTH}}}$")
COUNTRY = re.compile(r"^[A-Za-z]{2}$")

CATEGORY_MEMBERS = {"individual": "an individual entry", "pair": "a pair", "team": "a team"}
RESULT_STATUSES = tuple(Result.Status.values)
# The rules' names for a result's inputs, and the document's.
ATTEMPT_FIELDS = {
    "time_ms": "time",
    "last_piece_ms": "last_piece_time",
    "pieces_remaining": "pieces_placed",
}

_MISSING = object()


class InterchangeError(ValueError):
    """A document that cannot be imported: where (``path``) and why (``message``)."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


# --------------------------------------------------------------------------- export


def _moment(value: datetime | None, tz: tzinfo) -> str | None:
    """Return an instant as ISO 8601 with the championship's offset."""
    # Own starts are read past the model: a moment near the calendar's end is made safe here.
    return None if value is None else timezone.localtime(bounds.safe(value), tz).isoformat()


def export_document(championship: Championship) -> dict:
    """Return ``championship`` as an interchange document, with the computed result fields.

    Everything is in a fixed order, so that exporting twice gives the same document;
    the number of queries does not grow with the number of rows.
    """
    tz = championship.tzinfo
    tables = sorted(Table.objects.filter(championship=championship), key=lambda t: t.number)
    persons = sorted(Person.objects.filter(championship=championship), key=lambda p: p.ref)
    categories = sorted(
        Category.objects.filter(championship=championship), key=lambda c: (c.order, c.key)
    )

    entries = defaultdict(list)
    for entry in Entry.objects.filter(category__championship=championship):
        entries[entry.category_id].append(entry)
    members = defaultdict(list)
    for entry_id, position, ref in EntryMember.objects.filter(
        entry__category__championship=championship
    ).values_list("entry_id", "position", "person__ref"):
        members[entry_id].append((position, ref))

    rounds = defaultdict(list)
    for round_ in Round.objects.filter(championship=championship):
        rounds[round_.category_id].append(round_)
    heats = defaultdict(list)
    for heat in Heat.objects.filter(round__championship=championship):
        heats[heat.round_id].append(heat)
    seats = defaultdict(list)
    for heat_id, number, position, ref, own_start in Seat.objects.filter(
        round__championship=championship
    ).values_list("heat_id", "table__number", "position", "entry__ref", "started_at"):
        seats[heat_id].append((number, position, ref, own_start))
    results = defaultdict(list)
    standings_ensure_all(Round.objects.filter(championship=championship))
    for result in Result.objects.filter(round__championship=championship).select_related("entry"):
        results[result.heat_id].append(result)

    def entry_document(entry: Entry) -> dict:
        return {
            "id": entry.ref,
            "name": entry.name,
            "members": [ref for _position, ref in sorted(members[entry.pk])],
            "status": entry.status,
            "registered_at": _moment(entry.registered_at, tz),
            "publish_consent": entry.publish_consent,
            "adult_name": entry.adult_name,
            "payment_status": entry.payment_status,
            "payment_reference": entry.payment_reference,
            "contact_email": entry.contact_email,
            "language": entry.language,
            "prior_ranking": entry.prior_ranking,
            "checked_in_at": _moment(entry.checked_in_at, tz),
            "fee": f"{entry.fee:.2f}",
            "walkover_at": _moment(entry.walkover_at, tz),
            "walkover_reason": entry.walkover_reason,
            "notes": entry.notes,
        }

    def seat_document(number: int, ref: str, own_start: datetime | None) -> dict:
        seat = {"table": number, "entry": ref}
        if own_start is not None:
            seat["started_at"] = _moment(own_start, tz)
        return seat

    def heat_document(heat: Heat) -> dict:
        return {
            "key": heat.key,
            "name": heat.name,
            "scheduled_at": _moment(heat.scheduled_start, tz),
            "started_at": _moment(heat.started_at, tz),
            "ended_at": _moment(heat.ended_at, tz),
            "seats": [
                seat_document(number, ref, own_start)
                for number, _position, ref, own_start in sorted(
                    seats[heat.pk], key=lambda seat: seat[:3]
                )
            ],
            "results": [
                {**result_fields(result), "confirmed_at": _moment(result.confirmed_at, tz)}
                for result in sorted(results[heat.pk], key=lambda r: r.entry.ref)
            ],
        }

    def round_document(round_: Round) -> dict:
        return {
            "key": round_.key,
            "name": round_.name,
            "stage": round_.stage,
            "time_limit_minutes": round_.time_limit_minutes,
            "advance": round_.advance_settings,
            "heats": [
                heat_document(heat)
                for heat in sorted(heats[round_.pk], key=lambda h: (h.order, h.key))
            ],
        }

    def competition_document(category: Category) -> dict:
        return {
            "key": category.key,
            "category": category.kind,
            "pieces": category.pieces,
            "time_limit_minutes": category.time_limit_minutes,
            "capacity": category.capacity,
            "fee": f"{category.fee:.2f}",
            "name": category.name,
            "puzzle_brand": category.puzzle_brand,
            "puzzle_motif": category.puzzle_motif,
            "registration_opens_at": _moment(category.registration_opens_at, tz),
            "min_members": category.min_members,
            "max_members": category.max_members,
            "entries": [
                entry_document(entry)
                for entry in sorted(entries[category.pk], key=lambda e: (e.registered_at, e.ref))
            ],
            "rounds": [
                round_document(round_)
                for round_ in sorted(rounds[category.pk], key=lambda r: (r.order, r.key))
            ],
        }

    return {
        "format": FORMAT,
        "version": VERSION,
        "championship": {
            "slug": championship.slug,
            "name": championship.name,
            "ruleset": championship.ruleset,
            "rules": dict(championship.rule_overrides or {}),
            "timezone": championship.timezone,
            "starts_at": _moment(championship.starts_at, tz),
            "currency": championship.currency,
            "payment_instructions": championship.payment_instructions,
            "language": championship.language,
            "venue": championship.venue,
            "address": championship.address,
            "registration_deadline": _moment(championship.registration_deadline, tz),
            "listed": championship.is_public,
        },
        "tables": [
            {
                "number": t.number,
                "label": t.label,
                "seats": t.seats,
                "token": t.token,
                "reserved_for_guests": t.reserved_for_guests,
            }
            for t in tables
        ],
        "persons": [
            {
                "id": p.ref,
                "name": p.name,
                "birth_date": p.birth_date.isoformat() if p.birth_date else None,
                "city": p.city,
                "country": p.country,
                "citizenship": _codes(p.citizenship),
                "region": p.region,
                "years_in_region": p.years_in_region,
                "email": p.email,
                "publish_consent": p.publish_consent,
            }
            for p in persons
        ],
        "competitions": [competition_document(category) for category in categories],
    }


def _codes(citizenship: Any) -> list[str]:
    """Return a stored citizenship (a code, a list of them, or nothing) as a list."""
    if not citizenship:
        return []
    if isinstance(citizenship, str):
        return [citizenship]
    return list(citizenship)


# --------------------------------------------------------------------- reading values


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


# ---------------------------------------------------------------------- the plan


@dataclass
class _Table:
    path: str
    number: int
    label: str
    seats: int
    token: str | None
    reserved_for_guests: bool = False


@dataclass
class _Entry:
    ref: str
    fields: dict
    members: list[str]


@dataclass
class _Heat:
    key: str
    started_at: datetime | None
    name: str = ""
    scheduled_at: datetime | None = None
    ended_at: datetime | None = None
    # table, entry, position, the entry's own later start
    seats: list[tuple[int, str, int, datetime | None]] = field(default_factory=list)
    results: list[tuple[str, dict]] = field(default_factory=list)  # entry, fields


@dataclass
class _Round:
    fields: dict
    heats: list[_Heat] = field(default_factory=list)


@dataclass
class _Competition:
    path: str
    fields: dict
    entries: list[_Entry] = field(default_factory=list)
    rounds: list[_Round] = field(default_factory=list)


@dataclass
class _Plan:
    championship: dict
    tables: list[_Table]
    persons: list[dict]
    competitions: list[_Competition]


# -------------------------------------------------------------------- validation


def _read(data: Any) -> _Plan:
    """Check the whole document; return what to write, or raise ``InterchangeError``."""
    # Text no database stores, numbers no column holds, absurd nesting: refused
    # wherever they are, before any field is read.
    found = jsonbounds.problem(data)
    if found is not None:
        raise InterchangeError(*found)
    if not isinstance(data, dict):
        raise InterchangeError("", f"the document must be a JSON object, not {_show(data)}")
    document_format = _get(data, "format", "", required=True)
    if document_format != FORMAT:
        raise InterchangeError("format", f'must be "{FORMAT}", not {_show(document_format)}')
    version = _get(data, "version", "", required=True)
    if type(version) is not int or version not in READS:
        raise InterchangeError(
            "version",
            f"unsupported version {_show(version)} (this import reads versions 1 and 2)",
        )

    fields, preset, rules = _read_championship(data)
    tz = zoneinfo.ZoneInfo(fields["timezone"])
    tables = _read_tables(data)
    persons = _read_persons(data)
    person_names = {person["ref"]: person["name"] for person in persons}
    identities = {
        person["ref"]: identity.Identity(person["name"], person["email"], person["birth_date"])
        for person in persons
    }

    competitions = []
    entry_paths: dict[str, str] = {}
    entry_competition: dict[str, int] = {}
    competition_keys: dict[str, str] = {}
    raw_competitions = _list(data, "competitions", "")
    for index, raw in enumerate(raw_competitions):
        competition = _read_competition(
            raw, f"competitions[{index}]", preset, rules, tz, person_names, entry_paths, identities
        )
        key = competition.fields["key"]
        if key in competition_keys:
            raise InterchangeError(
                f"{competition.path}.key", f'duplicate key "{key}" (also {competition_keys[key]})'
            )
        competition_keys[key] = competition.path
        entry_competition.update(dict.fromkeys((e.ref for e in competition.entries), index))
        competitions.append(competition)
    # Rounds come second: a seat or result may name an entry of another competition.
    round_keys: dict[str, str] = {}
    table_seats = {table.number: table.seats for table in tables}
    for index, (raw, competition) in enumerate(zip(raw_competitions, competitions, strict=True)):
        scope = _Scope(
            index=index,
            version=version,
            pieces=competition.fields["pieces"],
            time_limit_minutes=competition.fields["time_limit_minutes"],
            rules=rules,
            tz=tz,
            table_seats=table_seats,
            entry_competition=entry_competition,
            round_keys=round_keys,
        )
        competition.rounds = _read_rounds(raw, competition.path, scope)
    plan = _Plan(championship=fields, tables=tables, persons=persons, competitions=competitions)
    _check_dates(plan, tz)
    return plan


def _within(
    moment: datetime | None, window: bounds.Window, where: str, what: str, tz: tzinfo
) -> None:
    """Refuse a moment outside ``window``; ``what`` names the window in the message."""
    if moment is None or moment in window:
        return
    raise InterchangeError(
        where,
        f"must be {what}, between {_moment(window.earliest, tz)} and "
        f"{_moment(window.latest, tz)}, not {_show(moment.isoformat())}",
    )


def _check_dates(plan: _Plan, tz: tzinfo) -> None:
    """Refuse a date outside its window (``championship.bounds``), naming its path.

    The start lies from 2000 up to five years ahead: a document may be an archive.
    Everything else is measured from the start: the registration before it, a
    heat's schedule within the championship's days, an own start within the time
    limit after its heat's start, and the rest within the season around the
    start. A heat's start and time-up are the server clock's record in an export
    (a heat started on another day than the championship's set start), so they
    are held to the season, like the other records.
    """
    fields = plan.championship
    start = fields["starts_at"]
    window = bounds.championship_window(timezone.now())
    if start not in window:
        raise InterchangeError(
            "championship.starts_at",
            f"must be between {window.earliest.date()} and {window.latest.date()}, "
            f"not {_show(start.isoformat())}",
        )
    registration = bounds.registration_window(start)
    days = bounds.championship_days(start)
    season = bounds.season(start)
    before_start = f"before the start, at most {bounds.REGISTRATION_YEARS_BEFORE} years"
    near_start = f"within {bounds.SEASON_YEARS} years of the start"
    _within(
        fields["registration_deadline"],
        registration,
        "championship.registration_deadline",
        before_start,
        tz,
    )
    for index, competition in enumerate(plan.competitions):
        path = f"competitions[{index}]"
        opens = competition.fields["registration_opens_at"]
        _within(opens, registration, f"{path}.registration_opens_at", before_start, tz)
        for entry_index, entry in enumerate(competition.entries):
            for name in ("registered_at", "checked_in_at", "walkover_at"):
                where = f"{path}.entries[{entry_index}].{name}"
                _within(entry.fields[name], season, where, near_start, tz)
        for round_index, round_ in enumerate(competition.rounds):
            limit = round_.fields["time_limit_minutes"] or competition.fields["time_limit_minutes"]
            for heat_index, heat in enumerate(round_.heats):
                heat_path = f"{path}.rounds[{round_index}].heats[{heat_index}]"
                where = f"{heat_path}.scheduled_at"
                _within(heat.scheduled_at, days, where, "within the championship's days", tz)
                # A start and a time-up are what the clock said: checked like the rest.
                for name in ("started_at", "ended_at"):
                    _within(getattr(heat, name), season, f"{heat_path}.{name}", near_start, tz)
                for seat_index, (*_place, own_start) in enumerate(heat.seats):
                    if own_start is None:
                        continue
                    _within(
                        own_start,
                        bounds.own_start_window(heat.started_at, limit),
                        f"{heat_path}.seats[{seat_index}].started_at",
                        "within the time limit after the heat's start",
                        tz,
                    )
                for result_index, (_ref, result) in enumerate(heat.results):
                    where = f"{heat_path}.results[{result_index}].confirmed_at"
                    _within(result["confirmed_at"], season, where, near_start, tz)


def _read_championship(data: dict) -> tuple[dict, rulesets.Preset, rulesets.Ruleset]:
    path = "championship"
    section = _object(_get(data, "championship", "", required=True), path)
    slug = _slug(section, "slug", path, max_length=64)
    if slug.lower() in RESERVED_SLUGS:
        raise InterchangeError(f"{path}.slug", f'"{slug}" is reserved; choose another slug')
    name = _text(section, "name", path, required=True, blank=False, max_length=200)
    ruleset = _choice(section, "ruleset", path, rulesets.PRESET_KEYS, what="ruleset", required=True)
    preset = rulesets.get_preset(ruleset)
    overrides = _get(section, "rules", path, required=False)
    if overrides is _MISSING or overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise InterchangeError(f"{path}.rules", f"must be an object, not {_show(overrides)}")
    try:
        rules = rulesets.effective_rules(ruleset, overrides)
    except rulesets.RulesetError as error:
        where = f"{path}.rules" if error.parameter == "rules" else f"{path}.rules.{error.parameter}"
        raise InterchangeError(where, error.message) from None
    zone = _text(section, "timezone", path, default=preset.timezone, blank=False)
    if zone not in zoneinfo.available_timezones():
        raise InterchangeError(f"{path}.timezone", f'unknown time zone "{zone}"')
    starts_at = _datetime(section, "starts_at", path, zoneinfo.ZoneInfo(zone), required=True)
    currency = _choice(
        section, "currency", path, Currency.values, what="currency", default=preset.currency
    )
    language = _choice(
        section,
        "language",
        path,
        [code for code, _name in settings.LANGUAGES],
        what="language",
        default=preset.language,
    )
    venue = _text(section, "venue", path, max_length=200)
    tz = zoneinfo.ZoneInfo(zone)
    fields = {
        "slug": slug,
        "name": name,
        "ruleset": ruleset,
        "rule_overrides": overrides,
        "timezone": zone,
        "starts_at": starts_at,
        "currency": currency,
        "payment_instructions": _text(section, "payment_instructions", path),
        "language": language,
        "venue": venue,
        "address": _text(section, "address", path, max_length=300),
        "registration_deadline": _datetime(section, "registration_deadline", path, tz),
        "is_public": _flag(section, "listed", path, default=True),
    }
    return fields, preset, rules


def _read_tables(data: dict) -> list[_Table]:
    tables = []
    numbers: dict[int, str] = {}
    tokens: dict[str, str] = {}
    for index, raw in enumerate(_list(data, "tables", "")):
        path = f"tables[{index}]"
        raw = _object(raw, path)
        number = _whole(raw, "number", path, required=True, minimum=1)
        if number in numbers:
            raise InterchangeError(
                f"{path}.number", f"duplicate table number {number} (also {numbers[number]})"
            )
        numbers[number] = path
        label = _text(raw, "label", path, max_length=100)
        seats = _whole(raw, "seats", path, default=1, minimum=1, maximum=2)
        token = _text(raw, "token", path, default=None, max_length=TOKEN_MAX_LENGTH, blank=False)
        if token is not None:
            if not TOKEN.match(token):
                raise InterchangeError(
                    f"{path}.token",
                    f"must be {TOKEN_MIN_LENGTH} to {TOKEN_MAX_LENGTH} letters, digits, - and _ "
                    "(a token as the export gives it), not "
                    f"{_show(token)}",
                )
            if token in tokens:
                raise InterchangeError(f"{path}.token", f"duplicate token (also {tokens[token]})")
            tokens[token] = path
        reserved = _flag(raw, "reserved_for_guests", path)
        tables.append(_Table(path, number, label, seats, token, reserved))
    return tables


def _read_persons(data: dict) -> list[dict]:
    persons = []
    refs: dict[str, str] = {}
    for index, raw in enumerate(_list(data, "persons", "")):
        path = f"persons[{index}]"
        raw = _object(raw, path)
        ref = _ref(raw, "id", path)
        if ref in refs:
            raise InterchangeError(f"{path}.id", f'duplicate id "{ref}" (also {refs[ref]})')
        refs[ref] = path
        country = _text(raw, "country", path)
        if country and not COUNTRY.match(country):
            raise InterchangeError(
                f"{path}.country", f"{_show(country)} is not a two-letter country code"
            )
        email = _email(raw, "email", path)
        persons.append(
            {
                "ref": ref,
                "name": _text(raw, "name", path, required=True, blank=False, max_length=200),
                "birth_date": _date(raw, "birth_date", path),
                "city": _text(raw, "city", path, max_length=100),
                "country": country.upper(),
                "citizenship": _citizenship(raw, path),
                "region": _text(raw, "region", path, max_length=100),
                "years_in_region": _whole(
                    raw, "years_in_region", path, nullable=True, maximum=SMALL_MAX
                ),
                "email": email,
                "publish_consent": _flag(raw, "publish_consent", path),
            }
        )
    return persons


def _citizenship(raw: dict, path: str) -> list[str]:
    """Return the citizenship as a list of upper-case codes (a single code is a list of one)."""
    value = _get(raw, "citizenship", path, required=False)
    if value is _MISSING or value is None:
        return []
    where = f"{path}.citizenship"
    codes = [value] if isinstance(value, str) else value
    if not isinstance(codes, list):
        raise InterchangeError(
            where, f"must be a country code or a list of them, not {_show(value)}"
        )
    for index, code in enumerate(codes):
        if not isinstance(code, str) or not COUNTRY.match(code):
            at = where if isinstance(value, str) else f"{where}[{index}]"
            raise InterchangeError(at, f"{_show(code)} is not a two-letter country code")
    return [code.upper() for code in codes]


# How two persons of a document turned out to be the same person.
SAME_PERSON_BY = {
    identity.SAME_EMAIL: "the same e-mail address",
    identity.SAME_NAME_AND_BIRTH_DATE: "the same name and birth date",
}


def _members_span(low: int, high: int) -> str:
    count = f"{low}" if low == high else f"{low} to {high}"
    return f"{count} member" if count == "1" else f"{count} members"


def _read_competition(
    raw: Any,
    path: str,
    preset: rulesets.Preset,
    rules: rulesets.Ruleset,
    tz: tzinfo,
    person_names: dict[str, str],
    entry_paths: dict[str, str],
    identities: dict[str, identity.Identity],
) -> _Competition:
    """Check a competition's settings and entries (its rounds come later)."""
    raw = _object(raw, path)
    key = _slug(raw, "key", path, max_length=50)
    kind = _choice(raw, "category", path, rulesets.CATEGORY_KINDS, what="category", required=True)
    defaults = preset.categories[kind]
    pieces = _whole(raw, "pieces", path, default=defaults.pieces, minimum=1)
    capacity = _get(raw, "capacity", path, required=False)
    fields = {
        "key": key,
        "kind": kind,
        "pieces": pieces,
        "time_limit_minutes": _whole(
            raw,
            "time_limit_minutes",
            path,
            default=defaults.time_limit_minutes,
            minimum=bounds.TIME_LIMIT_MINUTES_MIN,
            maximum=bounds.TIME_LIMIT_MINUTES_MAX,
        ),
        "capacity": defaults.capacity
        if capacity is _MISSING
        else _whole(raw, "capacity", path, nullable=True),
        "fee": _fee(raw, "fee", path, default=defaults.fee),
        "min_members": _whole(
            raw, "min_members", path, default=defaults.min_members, minimum=1, maximum=SMALL_MAX
        ),
        "name": _text(raw, "name", path, max_length=100),
        "puzzle_brand": _text(raw, "puzzle_brand", path, max_length=100),
        "puzzle_motif": _text(raw, "puzzle_motif", path, max_length=200),
        "registration_opens_at": _datetime(raw, "registration_opens_at", path, tz),
    }
    fields["max_members"] = _whole(
        raw,
        "max_members",
        path,
        default=max(defaults.max_members, fields["min_members"]),
        minimum=fields["min_members"],
        maximum=SMALL_MAX,
    )
    competition = _Competition(path=path, fields=fields)
    low, high = fields["min_members"], fields["max_members"]
    # Who already has an entry in this category, for the one-entry-per-person rule: by id,
    # and as people (the same e-mail, or the same name and birth date).
    entered: dict[str, str] = {}
    entered_people: identity.People[tuple[str, str]] = identity.People()
    for index, entry_raw in enumerate(_list(raw, "entries", path)):
        entry_path = f"{path}.entries[{index}]"
        entry_raw = _object(entry_raw, entry_path)
        ref = _ref(entry_raw, "id", entry_path)
        if ref in entry_paths:
            raise InterchangeError(
                f"{entry_path}.id", f'duplicate id "{ref}" (also {entry_paths[ref]})'
            )
        entry_paths[ref] = entry_path
        members = _list(entry_raw, "members", entry_path, required=True)
        for position, member in enumerate(members):
            where = f"{entry_path}.members[{position}]"
            if not isinstance(member, str):
                raise InterchangeError(where, f"must be a person's id, not {_show(member)}")
            if member not in person_names:
                raise InterchangeError(where, f'unknown person "{member}"')
            if member in members[:position]:
                raise InterchangeError(where, f'person "{member}" is already a member')
        if not low <= len(members) <= high:
            raise InterchangeError(
                f"{entry_path}.members",
                f"{CATEGORY_MEMBERS[kind]} has {_members_span(low, high)}, not {len(members)}",
            )
        status = _choice(
            entry_raw,
            "status",
            entry_path,
            Entry.Status.values,
            what="status",
            default=Entry.Status.CONFIRMED,
        )
        # An import restores a championship; it registers nothing. So it keeps an entry that
        # would be unofficial where unofficial_allowed is false, and a member without e-mail
        # or birth date; it refuses only the same person in two entries of a category.
        if rules.one_entry_per_person_per_category and status != Entry.Status.WITHDRAWN:
            people = [identities[member] for member in members]
            for clash in identity.clashes_within(people):
                raise InterchangeError(
                    f"{entry_path}.members[{clash.member}]",
                    f'person "{members[clash.member]}" has {SAME_PERSON_BY[clash.how]} as '
                    f'person "{members[clash.other]}": the same person cannot be two members',
                )
            for position, member in enumerate(members):
                if member in entered:
                    raise InterchangeError(
                        f"{entry_path}.members[{position}]",
                        f'person "{member}" already has an entry in this category '
                        f"({entered[member]}); the ruleset allows one",
                    )
                match = entered_people.find(people[position])
                if match is not None:
                    how, (other, other_path) = match
                    raise InterchangeError(
                        f"{entry_path}.members[{position}]",
                        f'person "{member}" has {SAME_PERSON_BY[how]} as person "{other}", '
                        f"who already has an entry in this category ({other_path}); "
                        "the ruleset allows one",
                    )
            entered.update(dict.fromkeys(members, entry_path))
            for member, person in zip(members, people, strict=True):
                entered_people.add(person, (member, entry_path))
        default_name = " & ".join(person_names[member] for member in members)
        competition.entries.append(
            _Entry(
                ref=ref,
                members=list(members),
                fields={
                    "name": _text(entry_raw, "name", entry_path, max_length=200)
                    or default_name[:200],
                    "status": status,
                    "registered_at": _datetime(entry_raw, "registered_at", entry_path, tz),
                    "publish_consent": _flag(entry_raw, "publish_consent", entry_path),
                    "adult_name": _text(entry_raw, "adult_name", entry_path, max_length=200),
                    "payment_status": _choice(
                        entry_raw,
                        "payment_status",
                        entry_path,
                        Entry.Payment.values,
                        what="payment status",
                        default=Entry.Payment.UNPAID,
                    ),
                    "payment_reference": _text(
                        entry_raw, "payment_reference", entry_path, max_length=100
                    ),
                    "contact_email": _email(entry_raw, "contact_email", entry_path),
                    "language": _choice(
                        entry_raw,
                        "language",
                        entry_path,
                        [code for code, _name in settings.LANGUAGES],
                        what="language",
                        default=None,
                    ),
                    "prior_ranking": _whole(
                        entry_raw, "prior_ranking", entry_path, nullable=True, minimum=1
                    ),
                    "checked_in_at": _datetime(entry_raw, "checked_in_at", entry_path, tz),
                    "fee": _fee(entry_raw, "fee", entry_path, default=None),
                    **_walkover(entry_raw, entry_path, tz),
                    "notes": _text(entry_raw, "notes", entry_path, max_length=10_000),
                },
            )
        )
    return competition


def _walkover(raw: dict, path: str, tz: tzinfo) -> dict:
    """Return an entry's walk-over (when, and why: a walk-over needs its reason)."""
    at = _datetime(raw, "walkover_at", path, tz)
    reason = _text(raw, "walkover_reason", path, max_length=10_000)
    if at is not None and not reason.strip():
        raise InterchangeError(f"{path}.walkover_reason", "a walk-over needs its reason")
    return {"walkover_at": at, "walkover_reason": reason}


def _advance(raw: dict, path: str) -> dict:
    """Return a round's advancement as the model's fields."""
    value = _get(raw, "advance", path, required=False)
    where = f"{path}.advance"
    if value is _MISSING or value is None or value == {}:
        return {
            "advance": Round.Advance.NONE,
            "advance_count": None,
            "advance_best_remaining": None,
        }
    if not isinstance(value, dict):
        raise InterchangeError(where, f"must be an object, not {_show(value)}")
    try:
        advance = Advance.from_dict(value)
    except AdvancementError as error:
        message = (
            error.message
            if error.code in ("one_mode", "unknown")
            else f"{error.field} {error.message}"
        )
        raise InterchangeError(where, message) from None
    if advance.overall is not None:
        if advance.overall < 1:
            raise InterchangeError(where, "overall must be at least 1")
        if advance.overall > SMALL_MAX:
            raise InterchangeError(where, f"overall must be at most {SMALL_MAX}")
        return {
            "advance": Round.Advance.OVERALL,
            "advance_count": advance.overall,
            "advance_best_remaining": None,
        }
    if max(advance.per_heat, advance.best_remaining) > SMALL_MAX:
        raise InterchangeError(where, f"per_heat and best_remaining must be at most {SMALL_MAX}")
    return {
        "advance": Round.Advance.PER_HEAT,
        "advance_count": advance.per_heat,
        "advance_best_remaining": advance.best_remaining,
    }


@dataclass
class _Scope:
    """What the rounds of one competition are checked against."""

    index: int
    version: int
    pieces: int
    time_limit_minutes: int
    rules: rulesets.Ruleset
    tz: tzinfo
    table_seats: dict[int, int]
    entry_competition: dict[str, int]
    round_keys: dict[str, str]


def _read_rounds(raw: dict, path: str, scope: _Scope) -> list[_Round]:
    """Check a competition's rounds with their heats, seats and results."""
    raw_rounds = _list(raw, "rounds", path)
    rounds = []
    for order, round_raw in enumerate(raw_rounds, start=1):
        round_path = f"{path}.rounds[{order - 1}]"
        round_raw = _object(round_raw, round_path)
        key = _slug(round_raw, "key", round_path, max_length=60)
        if key in scope.round_keys:
            raise InterchangeError(
                f"{round_path}.key", f'duplicate round key "{key}" (also {scope.round_keys[key]})'
            )
        scope.round_keys[key] = round_path
        stage = _choice(
            round_raw,
            "stage",
            round_path,
            Round.Stage.values,
            what="stage",
            default=Round.Stage.FINAL if order == len(raw_rounds) else Round.Stage.PRELIM,
        )
        round_ = _Round(
            fields={
                "key": key,
                "name": _text(round_raw, "name", round_path, max_length=100),
                "order": order,
                "stage": stage,
                "time_limit_minutes": _whole(
                    round_raw,
                    "time_limit_minutes",
                    round_path,
                    nullable=True,
                    minimum=bounds.TIME_LIMIT_MINUTES_MIN,
                    maximum=bounds.TIME_LIMIT_MINUTES_MAX,
                ),
                **_advance(round_raw, round_path),
            }
        )
        # Where each entry is seated and has its result in this round (one of each at most).
        seated: dict[str, str] = {}
        with_result: dict[str, str] = {}
        heat_keys: dict[str, str] = {}
        for heat_index, heat_raw in enumerate(_list(round_raw, "heats", round_path)):
            heat_path = f"{round_path}.heats[{heat_index}]"
            limit = round_.fields["time_limit_minutes"] or scope.time_limit_minutes
            heat = _read_heat(heat_raw, heat_path, scope, seated, with_result, limit)
            if heat.key in heat_keys:
                raise InterchangeError(
                    f"{heat_path}.key",
                    f'duplicate heat key "{heat.key}" (also {heat_keys[heat.key]})',
                )
            heat_keys[heat.key] = heat_path
            round_.heats.append(heat)
        rounds.append(round_)
    return rounds


def _read_heat(
    raw: Any,
    path: str,
    scope: _Scope,
    seated: dict[str, str],
    with_result: dict[str, str],
    limit_minutes: int,
) -> _Heat:
    """Check a heat: its seats (a shared table seats two) and its results."""
    raw = _object(raw, path)
    heat = _Heat(
        key=_slug(raw, "key", path, max_length=30),
        started_at=_datetime(raw, "started_at", path, scope.tz),
        name=_text(raw, "name", path, max_length=100),
        scheduled_at=_datetime(raw, "scheduled_at", path, scope.tz),
        ended_at=_datetime(raw, "ended_at", path, scope.tz),
    )
    if heat.ended_at is not None and (heat.started_at is None or heat.ended_at < heat.started_at):
        raise InterchangeError(
            f"{path}.ended_at", "time is up before the heat started (or it never started)"
        )
    taken: dict[int, list[str]] = defaultdict(list)
    for index, seat_raw in enumerate(_list(raw, "seats", path)):
        seat_path = f"{path}.seats[{index}]"
        seat_raw = _object(seat_raw, seat_path)
        number = _whole(seat_raw, "table", seat_path, required=True, minimum=1)
        if number not in scope.table_seats:
            raise InterchangeError(f"{seat_path}.table", f"unknown table {number}")
        ref = _entry_ref(seat_raw, seat_path, scope)
        if ref in seated:
            raise InterchangeError(
                f"{seat_path}.entry",
                f'entry "{ref}" already has a seat in this round ({seated[ref]})',
            )
        seated[ref] = seat_path
        capacity = scope.table_seats[number]
        if len(taken[number]) >= capacity:
            others = ", ".join(f'"{other}"' for other in taken[number])
            raise InterchangeError(
                f"{seat_path}.table",
                f"table {number} has only {'one seat' if capacity == 1 else 'two seats'}, "
                f"taken in this heat by {others}",
            )
        taken[number].append(ref)
        own_start = _datetime(seat_raw, "started_at", seat_path, scope.tz)
        if own_start is not None and not scope.rules.individual_start_times:
            raise InterchangeError(
                f"{seat_path}.started_at",
                "these rules give no entry a start of its own (individual_start_times is false)",
            )
        if own_start is not None and (
            heat.started_at is None
            or own_start < heat.started_at
            or (heat.ended_at is not None and own_start >= heat.ended_at)
        ):
            raise InterchangeError(
                f"{seat_path}.started_at",
                "an entry's own start must fall between the heat's start and its time-up",
            )
        heat.seats.append((number, ref, len(taken[number]), own_start))
    for index, result_raw in enumerate(_list(raw, "results", path)):
        result_path = f"{path}.results[{index}]"
        result_raw = _object(result_raw, result_path)
        ref = _entry_ref(result_raw, result_path, scope)
        if ref in with_result:
            raise InterchangeError(
                f"{result_path}.entry",
                f'entry "{ref}" already has a result in this round ({with_result[ref]})',
            )
        with_result[ref] = result_path
        heat.results.append((ref, _read_result(result_raw, result_path, scope, limit_minutes)))
    return heat


def _entry_ref(raw: dict, path: str, scope: _Scope) -> str:
    """Return the id of an entry of the competition in ``scope``."""
    ref = _text(raw, "entry", path, required=True)
    where = f"{path}.entry"
    if ref not in scope.entry_competition:
        raise InterchangeError(where, f'unknown entry "{ref}"')
    if scope.entry_competition[ref] != scope.index:
        raise InterchangeError(
            where,
            f'entry "{ref}" is not in this competition '
            f"(it is in competitions[{scope.entry_competition[ref]}])",
        )
    return ref


def _adjacent(raw: dict, path: str, missing_lost: int, version: int) -> int:
    """Return the adjacent lost pieces: a count, or version 1's yes/no (all lost, or none)."""
    value = _get(raw, "adjacent_missing", path, required=False)
    if isinstance(value, bool) and version == 1:
        return timing.adjacent_count(value, missing_lost)
    return _whole(raw, "adjacent_missing", path, default=0, maximum=SMALL_MAX)


def _read_result(raw: dict, path: str, scope: _Scope, limit_minutes: int) -> dict:
    """Check a result's inputs and confirmation; its computed fields are ignored.

    A finished result timed after the round's time limit is refused: "TIME"
    after the limit is not a completion, and such an entry is ranked by its
    counted pieces (status ``unfinished`` with ``pieces_placed``).
    """
    pieces = scope.pieces
    status = _choice(raw, "status", path, RESULT_STATUSES, what="status", required=True)
    piece_limit = min(pieces, SMALL_MAX)
    missing_lost = _whole(raw, "missing_lost", path, default=0, maximum=piece_limit)
    fields = {
        "status": status,
        "time_ms": _duration(raw, "time", path),
        "missing_found": _whole(raw, "missing_found", path, default=0, maximum=piece_limit),
        "missing_lost": missing_lost,
        "adjacent_missing": _adjacent(raw, path, missing_lost, scope.version),
        "last_piece_ms": _duration(raw, "last_piece_time", path),
        "pieces_placed": _whole(raw, "pieces_placed", path, nullable=True, maximum=pieces),
        "incorrect": _flag(raw, "incorrect", path),
    }
    if status == Result.Status.FINISHED and fields["time_ms"] is None:
        raise InterchangeError(f"{path}.time", "a finished result needs a time")
    missing = fields["missing_found"] + fields["missing_lost"]
    if missing > pieces:
        raise InterchangeError(
            f"{path}.missing_lost",
            f"missing_found + missing_lost is {missing}, more than the puzzle's {pieces} pieces",
        )
    if status == Result.Status.FINISHED and not timing.within_limit(
        fields["time_ms"], limit_minutes * 60_000
    ):
        raise InterchangeError(
            f"{path}.time",
            f"{raw.get('time')} is after the round's time limit of {limit_minutes} minutes: "
            'a finish after the limit is not a completion (give status "unfinished" '
            "and the pieces placed)",
        )
    try:
        timing.validate(timing.Attempt(**fields), pieces, scope.rules.counted_cluster_min_pieces)
    except timing.AttemptError as error:
        name = ATTEMPT_FIELDS.get(error.field, error.field)
        raise InterchangeError(f"{path}.{name}", error.message) from None
    fields["confirmed_at"] = _datetime(raw, "confirmed_at", path, scope.tz)
    return fields


# ------------------------------------------------------------------------ writing


def import_document(data: Any, *, replace: bool = False) -> Championship:
    """Load a championship from an interchange document; return it.

    The whole document is checked first; any problem raises ``InterchangeError``
    naming its path, and nothing is written. An existing championship with the
    same slug is refused, or with ``replace`` deleted first (its staff roles, which
    the document does not carry, are kept), all in one transaction. The computed
    fields of results are recomputed by the rules.
    """
    plan = _read(data)
    return _write(plan, replace=replace)


def _write(plan: _Plan, *, replace: bool) -> Championship:
    slug = plan.championship["slug"]
    with transaction.atomic():
        existing = Championship.objects.select_for_update().filter(slug=slug).first()
        roles: list[tuple[int, str]] = []
        if existing is not None:
            if not replace:
                raise InterchangeError(
                    "championship.slug",
                    f'a championship "{slug}" already exists; import with replace '
                    "(--replace) to overwrite it",
                )
            roles = list(existing.roles.values_list("user_id", "role"))
            existing.delete()
        # Tokens are unique across championships; the old one's are free by now.
        given = [table.token for table in plan.tables if table.token]
        in_use = set(Table.objects.filter(token__in=given).values_list("token", flat=True))
        for table in plan.tables:
            if table.token in in_use:
                raise InterchangeError(
                    f"{table.path}.token", "already in use by a table of another championship"
                )
        try:
            with transaction.atomic():
                championship = Championship.objects.create(**plan.championship)
        except IntegrityError:
            raise InterchangeError(
                "championship.slug", f'a championship "{slug}" was created meanwhile'
            ) from None
        ChampionshipRole.objects.bulk_create(
            ChampionshipRole(championship=championship, user_id=user_id, role=role)
            for user_id, role in roles
        )
        Table.objects.bulk_create(
            Table(
                championship=championship,
                number=table.number,
                label=table.label,
                seats=table.seats,
                token=table.token or new_token(),
                reserved_for_guests=table.reserved_for_guests,
            )
            for table in plan.tables
        )
        Person.objects.bulk_create(
            Person(championship=championship, **person) for person in plan.persons
        )
        categories, entries = _write_entries(championship, plan)
        rounds = _write_rounds(championship, plan, categories, entries)
        for round_ in rounds:
            standings_recompute(round_=round_)
    return championship


def _write_entries(
    championship: Championship, plan: _Plan
) -> tuple[list[Category], dict[str, int]]:
    """Create the categories, entries and members; return the categories and entry pks by id."""
    now = timezone.now().replace(microsecond=0)
    persons = dict(championship.persons.values_list("ref", "pk"))
    categories = []
    entries = []
    for order, competition in enumerate(plan.competitions, start=1):
        category = Category.objects.create(
            championship=championship, order=order, **competition.fields
        )
        categories.append(category)
        for entry in competition.entries:
            fields = dict(entry.fields)
            registered_at = fields.pop("registered_at") or now
            status = fields["status"]
            entries.append(
                Entry(
                    category=category,
                    ref=entry.ref,
                    registered_at=registered_at,
                    confirmed_at=registered_at if status == Entry.Status.CONFIRMED else None,
                    withdrawn_at=now if status == Entry.Status.WITHDRAWN else None,
                    **{
                        **fields,
                        "language": fields["language"] or championship.language,
                        "fee": category.fee if fields["fee"] is None else fields["fee"],
                    },
                )
            )
    Entry.objects.bulk_create(entries)
    entry_pks = dict(
        Entry.objects.filter(category__championship=championship).values_list("ref", "pk")
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry_id=entry_pks[entry.ref], person_id=persons[ref], position=position)
        for competition in plan.competitions
        for entry in competition.entries
        for position, ref in enumerate(entry.members, start=1)
    )
    return categories, entry_pks


def _round_complete(round_plan: _Round) -> bool:
    """Return whether every heat started and every entry of the round has a result."""
    heats = round_plan.heats
    if not heats or not all(heat.started_at for heat in heats):
        return False
    decided = {
        ref
        for heat in heats
        for ref, fields in heat.results
        if fields.get("status", Result.Status.PENDING) != Result.Status.PENDING
    }
    seated = {ref for heat in heats for _number, ref, _position, _start in heat.seats}
    results = {ref for heat in heats for ref, _fields in heat.results}
    return bool(decided) and decided == (seated | results)


def _round_state(round_plan: _Round) -> str:
    """Return the state an imported round starts in (the format does not carry it).

    A round whose heats all started and whose entries all have a result, or
    whose heats all have their time-up, is over: closed, with its prizes given.
    """
    heats = round_plan.heats
    if _round_complete(round_plan) or (heats and all(heat.ended_at for heat in heats)):
        return Round.State.CLOSED
    if any(heat.started_at for heat in round_plan.heats):
        return Round.State.RUNNING
    if any(heat.seats for heat in round_plan.heats):
        return Round.State.SEATED
    return Round.State.PLANNED


def _as_imported(fields: dict) -> dict:
    """Return a result's judged fields as JSON, for the judges' captures to start from."""
    confirmed = fields.get("confirmed_at")
    return {**fields, "confirmed_at": confirmed.isoformat() if confirmed else None}


def _write_rounds(
    championship: Championship,
    plan: _Plan,
    categories: list[Category],
    entry_pks: dict[str, int],
) -> list[Round]:
    """Create the rounds, heats, seats and results; return the rounds that have results."""
    tables = dict(championship.tables.values_list("number", "pk"))
    seats, results, with_results = [], [], []
    for category, competition in zip(categories, plan.competitions, strict=True):
        for round_plan in competition.rounds:
            round_ = Round(
                category=category,
                championship=championship,
                state=_round_state(round_plan),
                **round_plan.fields,
            )
            round_.save()
            started = (
                Heat.State.TIME_UP if round_.state == Round.State.CLOSED else Heat.State.RUNNING
            )
            for order, heat_plan in enumerate(round_plan.heats, start=1):
                if not heat_plan.started_at:
                    state = Heat.State.SCHEDULED
                elif heat_plan.ended_at:
                    state = Heat.State.TIME_UP
                else:
                    state = started
                heat = Heat.objects.create(
                    round=round_,
                    key=heat_plan.key,
                    name=heat_plan.name,
                    order=order,
                    scheduled_start=heat_plan.scheduled_at,
                    started_at=heat_plan.started_at,
                    ended_at=heat_plan.ended_at,
                    state=state,
                )
                seats += [
                    Seat(
                        round=round_,
                        heat=heat,
                        table_id=tables[number],
                        entry_id=entry_pks[ref],
                        position=position,
                        started_at=own_start,
                    )
                    for number, ref, position, own_start in heat_plan.seats
                ]
                results += [
                    Result(
                        round=round_,
                        heat=heat,
                        entry_id=entry_pks[ref],
                        imported=_as_imported(fields),
                        **fields,
                    )
                    for ref, fields in heat_plan.results
                ]
            if any(heat.results for heat in round_plan.heats):
                with_results.append(round_)
    Seat.objects.bulk_create(seats, batch_size=500)
    Result.objects.bulk_create(results, batch_size=500)
    return with_results
