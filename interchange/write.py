"""Write a checked document in one transaction (``import_document``)."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from championship.models import (
    Category,
    Championship,
    ChampionshipRole,
    Heat,
    Round,
    Seat,
    Table,
    new_token,
)
from interchange.format import InterchangeError
from interchange.plan import _Plan, _Round
from interchange.read import _read
from registration.models import (
    Entry,
    EntryMember,
    Person,
    imported_puzzlers,
    puzzlers_drop_unused,
    puzzlers_kept,
)
from results.models import QualifierWithdrawal, Result
from results.services import standings_recompute


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
        kept: dict[str, tuple[str, int, bool]] = {}
        if existing is not None:
            if not replace:
                raise InterchangeError(
                    "championship.slug",
                    f'a championship "{slug}" already exists; import with replace '
                    "(--replace) to overwrite it",
                )
            roles = list(existing.roles.values_list("user_id", "role"))
            kept = puzzlers_kept(existing)
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
                group=table.group,
            )
            for table in plan.tables
        )
        # An import confirms no address: a puzzler of their own, or the one kept on a replace.
        puzzlers = imported_puzzlers(plan.persons, kept=kept)
        Person.objects.bulk_create(
            Person(championship=championship, puzzler_id=puzzler, **person)
            for person, puzzler in zip(plan.persons, puzzlers, strict=True)
        )
        puzzlers_drop_unused(puzzler for _key, puzzler, _joined in kept.values())
        categories, entries = _write_entries(championship, plan)
        _write_questions(championship, plan, categories)
        rounds = _write_rounds(championship, plan, categories, entries)
        for round_ in rounds:
            standings_recompute(round_=round_)
    return championship


def _write_questions(championship: Championship, plan: _Plan, categories) -> None:
    """Create the organiser's questions, with the categories that ask them."""
    by_key = {category.key: category for category in categories}
    for planned in plan.questions:
        question = planned.question
        question.championship = championship
        question.save()
        question.categories.set([by_key[key] for key in planned.categories])


def _write_entries(
    championship: Championship, plan: _Plan
) -> tuple[list[Category], dict[str, int]]:
    """Create the categories, entries and members; return the categories and entry pks by id."""
    now = timezone.now().replace(microsecond=0)
    # An entry without its registration time registered before the start at the latest:
    # an archive's entries are not stamped with a time its next import would refuse.
    registered_by = min(now, championship.starts_at)
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
            registered_at = fields.pop("registered_at") or registered_by
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


def _round_state(round_plan: _Round) -> str:
    """Return the state an imported round starts in (the format does not carry it).

    A round whose heats all started and whose entries all have a result, or
    whose heats all have their time-up, is over: closed, with its prizes given,
    or official when the document says when it was signed off.
    """
    if round_plan.over():
        # Signed off in the document (``official_at``): the results are official.
        if round_plan.fields.get("official_at"):
            return Round.State.PUBLISHED
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
    # The round each one's qualifiers go to (``into``), once both are written.
    feeding: list[tuple[Round, str]] = []
    written: dict[str, Round] = {}
    for category, competition in zip(categories, plan.competitions, strict=True):
        for round_plan in competition.rounds:
            round_ = Round(
                category=category,
                championship=championship,
                state=_round_state(round_plan),
                **round_plan.fields,
            )
            round_.save()
            written[round_.key] = round_
            if round_plan.into is not None:
                feeding.append((round_, round_plan.into))
            started = (
                Heat.State.TIME_UP
                if round_.state in (Round.State.CLOSED, Round.State.PUBLISHED)
                else Heat.State.RUNNING
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
    for round_, key in feeding:
        round_.into = written[key]
        round_.save(update_fields=["into"])
    Seat.objects.bulk_create(seats, batch_size=500)
    Result.objects.bulk_create(results, batch_size=500)
    _write_withdrawals(plan, written, entry_pks)
    return with_results


def _write_withdrawals(plan: _Plan, rounds: dict[str, Round], entry_pks: dict[str, int]) -> None:
    """Store the qualifiers withdrawn from the next round (before the rounds are ranked)."""
    withdrawn = {
        (rounds[round_plan.fields["key"]].pk, entry_pks[ref]): at
        for competition in plan.competitions
        for round_plan in competition.rounds
        for heat_plan in round_plan.heats
        for ref, at, _path in heat_plan.withdrawals
    }
    if not withdrawn:
        return
    results = Result.objects.filter(
        round__in={round_pk for round_pk, _entry in withdrawn},
        entry__in={entry_pk for _round, entry_pk in withdrawn},
    ).values_list("round_id", "entry_id", "pk")
    QualifierWithdrawal.objects.bulk_create(
        QualifierWithdrawal(result_id=pk, withdrawn_at=withdrawn[round_pk, entry_pk])
        for round_pk, entry_pk, pk in results
        if (round_pk, entry_pk) in withdrawn
    )
