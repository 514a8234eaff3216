"""Write a championship as an interchange document, in a fixed number of queries."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, tzinfo
from typing import Any

from django.utils import timezone

from championship import bounds
from championship.models import (
    Category,
    Championship,
    Heat,
    Round,
    Seat,
    Table,
)
from interchange.advance import _advance_document
from interchange.format import FORMAT, MAIL_FLAGS, PAYEE_FIELDS, VERSION
from registration.models import Entry, EntryMember, Person
from results.models import Result
from results.selectors import result_fields
from results.services import standings_ensure_all


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
    # The waiting list's order, as places are given: arrival (then id).
    waiting = {}
    for category_entries in entries.values():
        waitlisted = sorted(
            (e for e in category_entries if e.status == Entry.Status.WAITLISTED),
            key=lambda e: (e.registered_at, e.pk),
        )
        waiting.update({entry.pk: number for number, entry in enumerate(waitlisted, start=1)})
    members = defaultdict(list)
    for entry_id, position, ref in EntryMember.objects.filter(
        entry__category__championship=championship
    ).values_list("entry_id", "position", "person__ref"):
        members[entry_id].append((position, ref))

    rounds = defaultdict(list)
    round_keys = {}
    for round_ in Round.objects.filter(championship=championship):
        rounds[round_.category_id].append(round_)
        round_keys[round_.pk] = round_.key
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
    for result in Result.objects.filter(round__championship=championship).select_related(
        "entry", "withdrawal"
    ):
        results[result.heat_id].append(result)

    def entry_document(entry: Entry) -> dict:
        return {
            "id": entry.ref,
            "name": entry.name,
            "members": [ref for _position, ref in sorted(members[entry.pk])],
            "status": entry.status,
            "registered_at": _moment(entry.registered_at, tz),
            "waiting_position": waiting.get(entry.pk),
            "offer_expires_at": _moment(entry.offer_expires_at, tz),
            "payment_due_at": _moment(entry.payment_due_at, tz),
            "lapsed": entry.lapsed or None,
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
            "judge_note": entry.judge_note,
            "answers": entry.answers,
            # Version 3: written only for an entry that represents a country (or the neutral flag).
            **({"represents": entry.represents} if entry.represents else {}),
        }

    def seat_document(number: int, ref: str, own_start: datetime | None) -> dict:
        seat = {"table": number, "entry": ref}
        if own_start is not None:
            seat["started_at"] = _moment(own_start, tz)
        return seat

    def result_document(result: Result, by_country: bool) -> dict:
        """Return a result; ``qualified_by`` only in a round that gives country places."""
        fields = {
            key: value for key, value in result_fields(result).items() if key != "qualified_by"
        }
        document = {}
        for key, value in fields.items():
            document[key] = value
            if key == "qualified" and by_country:
                document["qualified_by"] = result.qualified_by or None
        document["confirmed_at"] = _moment(result.confirmed_at, tz)
        # Version 3: written only for a qualifier withdrawn from the next round.
        withdrawal = getattr(result, "withdrawal", None)
        if withdrawal is not None:
            document["withdrawn_at"] = _moment(withdrawal.withdrawn_at, tz)
        return document

    def heat_document(heat: Heat, by_country: bool) -> dict:
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
                result_document(result, by_country)
                for result in sorted(results[heat.pk], key=lambda r: r.entry.ref)
            ],
        }

    def round_document(round_: Round) -> dict:
        # Version 3's pieces and puzzles only where they are not the defaults (the
        # competition's pieces, one puzzle): a round without them reads as before.
        own = {"pieces": round_.pieces} if round_.pieces is not None else {}
        if round_.puzzles != 1:
            own["puzzles"] = round_.puzzles
        by_country = round_.advance == Round.Advance.COUNTRY
        return {
            "key": round_.key,
            "name": round_.name,
            "stage": round_.stage,
            "time_limit_minutes": round_.time_limit_minutes,
            **own,
            "advance": _advance_document(round_, round_keys),
            "official_at": _moment(round_.official_at, tz),
            "heats": [
                heat_document(heat, by_country)
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
            "protest_window_minutes": championship.protest_window_minutes,
            "member_changes_days_before": championship.member_changes_days_before,
            "offer_hours": championship.offer_hours,
            "payment_hours": championship.payment_hours,
            "release_unpaid": championship.release_unpaid,
            "second_count": championship.second_count,
            **{name: getattr(championship, name) for name in MAIL_FLAGS},
            **{name: getattr(championship, name) for name in PAYEE_FIELDS},
            "language": championship.language,
            "venue": championship.venue,
            "address": championship.address,
            "registration_deadline": _moment(championship.registration_deadline, tz),
            "listed": championship.is_public,
            "draft": championship.draft,
        },
        "tables": [
            {
                "number": t.number,
                "label": t.label,
                "seats": t.seats,
                "token": t.token,
                "reserved_for_guests": t.reserved_for_guests,
                "group": t.group,
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
        "questions": [
            {
                "id": question.ref,
                "text": question.text,
                "kind": question.kind,
                "choices": question.choices,
                "required": question.required,
                "categories": sorted(category.key for category in question.categories.all()),
            }
            for question in championship.questions.prefetch_related("categories").order_by(
                "order", "id"
            )
        ],
    }


def _codes(citizenship: Any) -> list[str]:
    """Return a stored citizenship (a code, a list of them, or nothing) as a list."""
    if not citizenship:
        return []
    if isinstance(citizenship, str):
        return [citizenship]
    return list(citizenship)
