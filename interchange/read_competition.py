"""Check a document's competitions: entries, rounds, heats, seats and results.

Their shape is the schema's (``interchange.schema``); here are the references
(members, seats' tables and entries, results' entries), unique keys, member
counts, piece counts against the puzzle's size, and the rules' checks.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any

from championship import rulesets
from championship.models import Round
from championship.rules import identity, timing
from core.l10n import format_duration
from interchange.advance import _advance
from interchange.format import (
    ATTEMPT_FIELDS,
    CATEGORY_MEMBERS,
    SMALL_MAX,
    InterchangeError,
)
from interchange.plan import _Competition, _Entry, _Heat, _Round
from interchange.values import (
    _datetime,
    _duration,
    _email,
    _fee,
    _list,
    _represents,
    _show,
    _value,
    _within,
)
from registration.models import Entry
from results.models import Result

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
    kind = raw["category"]
    defaults = preset.categories[kind]
    fields = {
        "key": raw["key"],
        "kind": kind,
        "pieces": _value(raw, "pieces", defaults.pieces),
        "time_limit_minutes": _value(raw, "time_limit_minutes", defaults.time_limit_minutes),
        # Omitted, the preset's; null, no limit.
        "capacity": raw.get("capacity", defaults.capacity),
        "fee": _fee(raw, "fee", path, default=defaults.fee),
        "min_members": _value(raw, "min_members", defaults.min_members),
        "name": _value(raw, "name", ""),
        "puzzle_brand": _value(raw, "puzzle_brand", ""),
        "puzzle_motif": _value(raw, "puzzle_motif", ""),
        "registration_opens_at": _datetime(raw, "registration_opens_at", path, tz),
    }
    fields["max_members"] = _value(
        raw, "max_members", max(defaults.max_members, fields["min_members"])
    )
    # The schema bounds each; that the maximum is not below the minimum is checked here.
    _within(fields["max_members"], f"{path}.max_members", fields["min_members"], SMALL_MAX)
    competition = _Competition(path=path, fields=fields)
    low, high = fields["min_members"], fields["max_members"]
    # Who already has an entry in this category, for the one-entry-per-person rule: by id,
    # and as people (the same e-mail, or the same name and birth date).
    entered: dict[str, str] = {}
    entered_people: identity.People[tuple[str, str]] = identity.People()
    for index, entry_raw in enumerate(_list(raw, "entries")):
        entry_path = f"{path}.entries[{index}]"
        ref = entry_raw["id"]
        if ref in entry_paths:
            raise InterchangeError(
                f"{entry_path}.id", f'duplicate id "{ref}" (also {entry_paths[ref]})'
            )
        entry_paths[ref] = entry_path
        # Strings, and each once: the schema's.
        members = entry_raw["members"]
        for position, member in enumerate(members):
            if member not in person_names:
                raise InterchangeError(
                    f"{entry_path}.members[{position}]", f'unknown person "{member}"'
                )
        if not low <= len(members) <= high:
            raise InterchangeError(
                f"{entry_path}.members",
                f"{CATEGORY_MEMBERS[kind]} has {_members_span(low, high)}, not {len(members)}",
            )
        status = _value(entry_raw, "status", Entry.Status.CONFIRMED)
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
                    "name": _value(entry_raw, "name", "") or default_name[:200],
                    "status": status,
                    "registered_at": _datetime(entry_raw, "registered_at", entry_path, tz),
                    "publish_consent": _value(entry_raw, "publish_consent", False),
                    "adult_name": _value(entry_raw, "adult_name", ""),
                    "payment_status": _value(entry_raw, "payment_status", Entry.Payment.UNPAID),
                    "payment_reference": _value(entry_raw, "payment_reference", ""),
                    "contact_email": _email(entry_raw, "contact_email", entry_path),
                    "language": entry_raw.get("language"),
                    "prior_ranking": entry_raw.get("prior_ranking"),
                    "checked_in_at": _datetime(entry_raw, "checked_in_at", entry_path, tz),
                    "fee": _fee(entry_raw, "fee", entry_path, default=None),
                    **_walkover(entry_raw, entry_path, tz),
                    **_deadlines(entry_raw, status, entry_path, tz),
                    "notes": _value(entry_raw, "notes", ""),
                    "judge_note": _value(entry_raw, "judge_note", ""),
                    # Checked against the questions once every competition is read.
                    "answers": _value(entry_raw, "answers", {}),
                    "represents": _represents(entry_raw, entry_path),
                },
            )
        )
    return competition


def _deadlines(raw: dict, status: str, path: str, tz: tzinfo) -> dict:
    """Return an entry's offer deadline (an offered place needs one) and payment deadline."""
    offer = _datetime(raw, "offer_expires_at", path, tz)
    if status == Entry.Status.OFFERED and offer is None:
        raise InterchangeError(f"{path}.offer_expires_at", "an offered place needs its deadline")
    return {
        "offer_expires_at": offer if status == Entry.Status.OFFERED else None,
        "payment_due_at": _datetime(raw, "payment_due_at", path, tz),
        "lapsed": _value(raw, "lapsed", "") if status == Entry.Status.WITHDRAWN else "",
    }


def _walkover(raw: dict, path: str, tz: tzinfo) -> dict:
    """Return an entry's walk-over (when, and why: a walk-over needs its reason)."""
    at = _datetime(raw, "walkover_at", path, tz)
    reason = _value(raw, "walkover_reason", "")
    if at is not None and not reason.strip():
        raise InterchangeError(f"{path}.walkover_reason", "a walk-over needs its reason")
    return {"walkover_at": at, "walkover_reason": reason}


@dataclass
class _Scope:
    """What the rounds of one competition are checked against."""

    index: int
    version: int
    # The pieces an entry can place: the competition's, in a round its round's (all puzzles).
    pieces: int
    time_limit_minutes: int
    rules: rulesets.Ruleset
    tz: tzinfo
    table_seats: dict[int, int]
    entry_competition: dict[str, int]
    round_keys: dict[str, str]


def _read_rounds(raw: dict, path: str, scope: _Scope) -> list[_Round]:
    """Check a competition's rounds with their heats, seats and results."""
    raw_rounds = _list(raw, "rounds")
    rounds = []
    for order, round_raw in enumerate(raw_rounds, start=1):
        round_path = f"{path}.rounds[{order - 1}]"
        key = round_raw["key"]
        if key in scope.round_keys:
            raise InterchangeError(
                f"{round_path}.key", f'duplicate round key "{key}" (also {scope.round_keys[key]})'
            )
        scope.round_keys[key] = round_path
        last = order == len(raw_rounds)
        advance, into = _advance(round_raw, round_path)
        round_ = _Round(
            path=round_path,
            into=into,
            fields={
                "key": key,
                "name": _value(round_raw, "name", ""),
                "order": order,
                "stage": _value(
                    round_raw, "stage", Round.Stage.FINAL if last else Round.Stage.PRELIM
                ),
                "time_limit_minutes": round_raw.get("time_limit_minutes"),
                "pieces": round_raw.get("pieces"),
                "puzzles": _value(round_raw, "puzzles", 1),
                "official_at": _datetime(round_raw, "official_at", round_path, scope.tz),
                **advance,
            },
        )
        # A result's pieces are counted against the round's puzzles: its own pieces (or the
        # competition's) times the puzzles done together (a team's two: up to 2,000).
        pieces = round_.fields["pieces"] or scope.pieces
        round_scope = dataclasses.replace(scope, pieces=pieces * round_.fields["puzzles"])
        # Where each entry is seated and has its result in this round (one of each at most).
        seated: dict[str, str] = {}
        with_result: dict[str, str] = {}
        heat_keys: dict[str, str] = {}
        for heat_index, heat_raw in enumerate(_list(round_raw, "heats")):
            heat_path = f"{round_path}.heats[{heat_index}]"
            limit = round_.fields["time_limit_minutes"] or scope.time_limit_minutes
            heat = _read_heat(heat_raw, heat_path, round_scope, seated, with_result, limit)
            if heat.key in heat_keys:
                raise InterchangeError(
                    f"{heat_path}.key",
                    f'duplicate heat key "{heat.key}" (also {heat_keys[heat.key]})',
                )
            heat_keys[heat.key] = heat_path
            round_.heats.append(heat)
            if heat.withdrawals and (last or round_.fields["advance"] == Round.Advance.NONE):
                raise InterchangeError(
                    f"{heat.withdrawals[0][2]}.withdrawn_at",
                    "nobody goes on from this round: there is no qualifier to withdraw",
                )
        if round_.fields["official_at"] is not None and not round_.over():
            raise InterchangeError(
                f"{round_path}.official_at",
                "a round is signed off only once it is over (time up, or every entry's result)",
            )
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
    heat = _Heat(
        key=raw["key"],
        started_at=_datetime(raw, "started_at", path, scope.tz),
        name=_value(raw, "name", ""),
        scheduled_at=_datetime(raw, "scheduled_at", path, scope.tz),
        ended_at=_datetime(raw, "ended_at", path, scope.tz),
    )
    if heat.ended_at is not None and (heat.started_at is None or heat.ended_at < heat.started_at):
        raise InterchangeError(
            f"{path}.ended_at", "time is up before the heat started (or it never started)"
        )
    taken: dict[int, list[str]] = defaultdict(list)
    for index, seat_raw in enumerate(_list(raw, "seats")):
        seat_path = f"{path}.seats[{index}]"
        number = seat_raw["table"]
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
    for index, result_raw in enumerate(_list(raw, "results")):
        result_path = f"{path}.results[{index}]"
        ref = _entry_ref(result_raw, result_path, scope)
        if ref in with_result:
            raise InterchangeError(
                f"{result_path}.entry",
                f'entry "{ref}" already has a result in this round ({with_result[ref]})',
            )
        with_result[ref] = result_path
        heat.results.append(
            (ref, _read_result(result_raw, result_path, scope, limit_minutes, heat))
        )
        withdrawn_at = _datetime(result_raw, "withdrawn_at", result_path, scope.tz)
        if withdrawn_at is not None:
            heat.withdrawals.append((ref, withdrawn_at, result_path))
    return heat


def _entry_ref(raw: dict, path: str, scope: _Scope) -> str:
    """Return the id of an entry of the competition in ``scope``."""
    ref = raw["entry"]
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
    value = _value(raw, "adjacent_missing", 0)
    if isinstance(value, bool):
        # The schema takes both, as a document of either version may hold it.
        if version != 1:
            where = f"{path}.adjacent_missing"
            raise InterchangeError(where, f"must be a whole number, not {_show(value)}")
        return timing.adjacent_count(value, missing_lost)
    return value


def _read_result(raw: dict, path: str, scope: _Scope, limit_minutes: int, heat: _Heat) -> dict:
    """Check a result's inputs and confirmation; its computed fields are ignored.

    "TIME" after the round's time limit, or after time was called in the heat
    (its ``ended_at``; ``timing.time_allowed_ms``, the check a judge's tap
    meets), is not a completion: such a result is ranked by its counted pieces,
    and one without them is refused (give status ``unfinished`` and
    ``pieces_placed``). A published list may count every piece of a puzzle
    completed after the final signal.
    """
    pieces = scope.pieces
    status = raw["status"]
    # Pieces counted against the puzzle's size (the schema bounds them by their columns).
    piece_limit = min(pieces, SMALL_MAX)
    for name, limit in (("missing_found", piece_limit), ("missing_lost", piece_limit)):
        _within(raw.get(name), f"{path}.{name}", 0, limit)
    _within(raw.get("pieces_placed"), f"{path}.pieces_placed", 0, pieces)
    missing_lost = _value(raw, "missing_lost", 0)
    fields = {
        "status": status,
        "time_ms": _duration(raw, "time", path),
        "missing_found": _value(raw, "missing_found", 0),
        "missing_lost": missing_lost,
        "adjacent_missing": _adjacent(raw, path, missing_lost, scope.version),
        "last_piece_ms": _duration(raw, "last_piece_time", path),
        "pieces_placed": raw.get("pieces_placed"),
        "incorrect": _value(raw, "incorrect", False),
    }
    if status == Result.Status.FINISHED and fields["time_ms"] is None:
        raise InterchangeError(f"{path}.time", "a finished result needs a time")
    missing = fields["missing_found"] + fields["missing_lost"]
    if missing > pieces:
        raise InterchangeError(
            f"{path}.missing_lost",
            f"missing_found + missing_lost is {missing}, more than the puzzle's {pieces} pieces",
        )
    limit_ms = limit_minutes * 60_000
    called = timing.called_ms(heat.started_at, heat.ended_at)
    if (
        status == Result.Status.FINISHED
        and fields["pieces_placed"] is None
        and not timing.within_limit(fields["time_ms"], timing.time_allowed_ms(limit_ms, called))
    ):
        if timing.within_limit(fields["time_ms"], limit_ms):
            after = f"after time was called in this heat, {format_duration(called)} after its start"
        else:
            after = f"after the round's time limit of {limit_minutes} minutes"
        raise InterchangeError(
            f"{path}.time",
            f"{raw.get('time')} is {after}: a finish after time is up is not a completion "
            '(give status "unfinished" and the pieces placed)',
        )
    try:
        timing.validate(timing.Attempt(**fields), pieces, scope.rules.counted_cluster_min_pieces)
    except timing.AttemptError as error:
        name = ATTEMPT_FIELDS.get(error.field, error.field)
        raise InterchangeError(f"{path}.{name}", error.message) from None
    fields["confirmed_at"] = _datetime(raw, "confirmed_at", path, scope.tz)
    return fields
