"""Check a whole document before anything is written: the championship, tables and persons."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, tzinfo
from typing import Any

from django.conf import settings
from django.utils import timezone

from championship import bounds, jsonbounds, presets, rulesets
from championship.models import (
    RESERVED_SLUGS,
    Currency,
)
from championship.rules import identity
from interchange.export import _moment
from interchange.format import (
    _MISSING,
    COUNTRY,
    FORMAT,
    READS,
    SMALL_MAX,
    TOKEN,
    TOKEN_MAX_LENGTH,
    TOKEN_MIN_LENGTH,
    InterchangeError,
)
from interchange.plan import _Plan, _Table
from interchange.read_competition import _read_competition, _read_rounds, _Scope
from interchange.values import (
    _choice,
    _date,
    _datetime,
    _email,
    _flag,
    _get,
    _list,
    _object,
    _ref,
    _show,
    _slug,
    _text,
    _whole,
)


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
                for result_index, (_entry, result) in enumerate(heat.results):
                    where = f"{heat_path}.results[{result_index}].confirmed_at"
                    _within(result["confirmed_at"], season, where, near_start, tz)


def _read_championship(data: dict) -> tuple[dict, rulesets.Preset, rulesets.Ruleset]:
    path = "championship"
    section = _object(_get(data, "championship", "", required=True), path)
    slug = _slug(section, "slug", path, max_length=64)
    if slug.lower() in RESERVED_SLUGS:
        raise InterchangeError(f"{path}.slug", f'"{slug}" is reserved; choose another slug')
    name = _text(section, "name", path, required=True, blank=False, max_length=200)
    ruleset = _choice(section, "ruleset", path, presets.PRESET_KEYS, what="ruleset", required=True)
    preset = presets.get_preset(ruleset)
    overrides = _get(section, "rules", path, required=False)
    if overrides is _MISSING or overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise InterchangeError(f"{path}.rules", f"must be an object, not {_show(overrides)}")
    try:
        rules = presets.effective_rules(ruleset, overrides)
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
