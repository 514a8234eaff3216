"""Check a whole document before anything is written: the championship, tables and persons.

First its bounds (``core.jsonbounds``), then its shape against the
published schema (``interchange.schema``), then here and in
``interchange.read_competition`` what a schema cannot say: unique keys and ids,
references between them, time zones, e-mail addresses, dates within their
bounds, and the rules, which the rulebook checks.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, tzinfo
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from championship import bounds, payees, presets, rulesets
from championship.models import RESERVED_SLUGS
from championship.rules import identity
from core import jsonbounds
from core.zones import known_zones
from interchange import schema
from interchange.advance import _check_into
from interchange.export import _moment
from interchange.format import MAIL_FLAGS, PAYEE_FIELDS, InterchangeError
from interchange.plan import _Competition, _Plan, _Question, _Table
from interchange.read_competition import _read_competition, _read_rounds, _Scope
from interchange.values import _date, _datetime, _email, _list, _show, _value
from registration.models import Question
from registration.questions import clean_answers


def _read(data: Any) -> _Plan:
    """Check the whole document; return what to write, or raise ``InterchangeError``."""
    # Text no database stores, numbers no column holds, absurd nesting: refused
    # wherever they are, before any field is read.
    found = jsonbounds.problem(data)
    if found is not None:
        raise InterchangeError(*found)
    # Its shape: types, required members, known values, ranges, lengths, patterns.
    schema.check(data)
    version = data["version"]

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
    raw_competitions = _list(data, "competitions")
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
    # Once every round is known: each ``into`` names a later round of its own competition.
    _check_into(competitions, round_keys)
    questions = _read_questions(data, competition_keys)
    _check_answers(competitions, questions, entry_paths)
    plan = _Plan(
        championship=fields,
        tables=tables,
        persons=persons,
        competitions=competitions,
        questions=questions,
    )
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
            where = f"{path}.rounds[{round_index}].official_at"
            _within(round_.fields["official_at"], season, where, near_start, tz)
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
    section = data["championship"]
    slug = section["slug"]
    if slug.lower() in RESERVED_SLUGS:
        raise InterchangeError(f"{path}.slug", f'"{slug}" is reserved; choose another slug')
    ruleset = section["ruleset"]
    preset = presets.get_preset(ruleset)
    overrides = _value(section, "rules", {})
    try:
        rules = presets.effective_rules(ruleset, overrides)
    except rulesets.RulesetError as error:
        where = f"{path}.rules" if error.parameter == "rules" else f"{path}.rules.{error.parameter}"
        raise InterchangeError(where, error.message) from None
    zone = _value(section, "timezone", preset.timezone)
    if zone not in known_zones():
        raise InterchangeError(f"{path}.timezone", f"unknown time zone {_show(zone)}")
    tz = zoneinfo.ZoneInfo(zone)
    fields = {
        "slug": slug,
        "name": section["name"],
        "ruleset": ruleset,
        "rule_overrides": overrides,
        "timezone": zone,
        "starts_at": _datetime(section, "starts_at", path, tz),
        "currency": _value(section, "currency", preset.currency),
        "payment_instructions": _value(section, "payment_instructions", ""),
        "language": _value(section, "language", preset.language),
        "venue": _value(section, "venue", ""),
        "address": _value(section, "address", ""),
        "registration_deadline": _datetime(section, "registration_deadline", path, tz),
        "is_public": _value(section, "listed", True),
        "draft": _value(section, "draft", False),
        "protest_window_minutes": _value(section, "protest_window_minutes", 0),
        # null is a value here (until registration closes); only a missing key takes the preset's.
        "member_changes_days_before": section.get(
            "member_changes_days_before", preset.member_changes_days_before
        ),
        "offer_hours": _value(section, "offer_hours", 0),
        # null is a value here too: no payment deadline.
        "payment_hours": section.get("payment_hours"),
        "release_unpaid": _value(section, "release_unpaid", False),
        "second_count": _value(section, "second_count", preset.second_count),
        **{name: _value(section, name, True) for name in MAIL_FLAGS},
    }
    fields.update(_read_payees(section, path, fields["currency"]))
    return fields, preset, rules


def _read_payees(section: dict, path: str, currency: str) -> dict:
    """Return where entrants pay, checked as the edit page checks it and stored compact."""
    values = {name: _value(section, name, "") for name in PAYEE_FIELDS}
    values["refund_days_before"] = section.get("refund_days_before")
    for name, check in payees.VALIDATORS.items():
        if values[name]:
            try:
                check(values[name])
            except ValidationError as error:
                raise InterchangeError(f"{path}.{name}", str(error.messages[0])) from None
    if values["bank_account"].strip():
        problem = payees.account_error(values["bank_account"], currency)
        if problem:
            raise InterchangeError(f"{path}.bank_account", str(problem))
    return payees.compacted(values, currency)


def _read_questions(data: dict, competition_keys: dict[str, str]) -> list[_Question]:
    """Return the organiser's questions; each names competitions that exist."""
    questions: list[_Question] = []
    seen: dict[str, str] = {}
    for index, raw in enumerate(_list(data, "questions")):
        path = f"questions[{index}]"
        ref = raw["id"]
        if ref in seen:
            raise InterchangeError(f"{path}.id", f'duplicate id "{ref}" (also {seen[ref]})')
        seen[ref] = path
        kind = raw["kind"]
        choosing = kind in (Question.Kind.CHOICE, Question.Kind.CHOICES)
        choices = list(dict.fromkeys(_value(raw, "choices", []))) if choosing else []
        if choosing and len(choices) < 2:
            raise InterchangeError(f"{path}.choices", "a choice question needs two choices")
        keys = list(dict.fromkeys(_value(raw, "categories", [])))
        for number, key in enumerate(keys):
            if key not in competition_keys:
                raise InterchangeError(
                    f"{path}.categories[{number}]", f'no competition has the key "{key}"'
                )
        questions.append(
            _Question(
                question=Question(
                    ref=ref,
                    order=index + 1,
                    text=raw["text"],
                    kind=kind,
                    choices=choices
                    if kind in (Question.Kind.CHOICE, Question.Kind.CHOICES)
                    else [],
                    required=_value(raw, "required", False),
                ),
                categories=keys,
            )
        )
    return questions


def _check_answers(
    competitions: list[_Competition], questions: list[_Question], entry_paths: dict[str, str]
) -> None:
    """Refuse an answer that its entry's competition does not ask, or that its question refuses.

    A required question may stay unanswered: the document holds what was given.
    """
    for competition in competitions:
        key = competition.fields["key"]
        asked = [q.question for q in questions if not q.categories or key in q.categories]
        for entry in competition.entries:
            given = entry.fields["answers"]
            try:
                entry.fields["answers"] = clean_answers(asked, given, required=False)
            except ValidationError as error:
                ref, messages = next(iter(error.message_dict.items()))
                raise InterchangeError(
                    f"{entry_paths[entry.ref]}.answers.{ref}", " ".join(messages)
                ) from None


def _read_tables(data: dict) -> list[_Table]:
    tables = []
    numbers: dict[int, str] = {}
    tokens: dict[str, str] = {}
    for index, raw in enumerate(_list(data, "tables")):
        path = f"tables[{index}]"
        number = raw["number"]
        if number in numbers:
            raise InterchangeError(
                f"{path}.number", f"duplicate table number {number} (also {numbers[number]})"
            )
        numbers[number] = path
        token = raw.get("token")
        if token is not None:
            if token in tokens:
                raise InterchangeError(f"{path}.token", f"duplicate token (also {tokens[token]})")
            tokens[token] = path
        tables.append(
            _Table(
                path,
                number,
                _value(raw, "label", ""),
                _value(raw, "seats", 1),
                token,
                _value(raw, "reserved_for_guests", False),
                _value(raw, "group", ""),
            )
        )
    return tables


def _read_persons(data: dict) -> list[dict]:
    persons = []
    refs: dict[str, str] = {}
    for index, raw in enumerate(_list(data, "persons")):
        path = f"persons[{index}]"
        ref = raw["id"]
        if ref in refs:
            raise InterchangeError(f"{path}.id", f'duplicate id "{ref}" (also {refs[ref]})')
        refs[ref] = path
        email = _email(raw, "email", path)
        persons.append(
            {
                "ref": ref,
                "name": raw["name"],
                "birth_date": _date(raw, "birth_date", path),
                "city": _value(raw, "city", ""),
                "country": _value(raw, "country", "").upper(),
                "citizenship": _citizenship(raw),
                "region": _value(raw, "region", ""),
                "years_in_region": raw.get("years_in_region"),
                "email": email,
                "publish_consent": _value(raw, "publish_consent", False),
            }
        )
    return persons


def _citizenship(raw: dict) -> list[str]:
    """Return the citizenship as a list of upper-case codes (a single code is a list of one)."""
    value = _value(raw, "citizenship", [])
    codes = [value] if isinstance(value, str) else value
    return [code.upper() for code in codes]
