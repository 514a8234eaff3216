"""The round report's tests' material: times in minutes, groups of tables, a planted round."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from championship.models import Heat, Round, Seat, Table
from championship.services import tables_create
from control.report_figures import MINUTE_MS, Summary
from results.models import Result
from results.services import standings_recompute
from tests import factories

MIN = MINUTE_MS
# The day of the championship: fixed instants, never the wall clock.
DAY = datetime(2026, 3, 14, 8, 0, tzinfo=UTC)


def minutes(*values: float) -> list[int]:
    return [round(value * MIN) for value in values]


def group(key, seated, reports, pieces=None, adjacent=0) -> Summary:
    return Summary(
        key=key,
        label=key,
        seated=seated,
        missing_reports=reports,
        missing_pieces=reports if pieces is None else pieces,
        adjacent_reports=adjacent,
    )


# A round in the database -----------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzler:
    """One entrant of a planned round: where they sit and how they did."""

    table: int
    minutes: float | None = None  # None: did not finish; "dns" below
    status: str = "finished"
    missing_found: int = 0
    missing_lost: int = 0
    adjacent: int = 0
    own_start: int = 0  # minutes after the heat's start


def run(
    championship,
    heats: dict[str, tuple[list[Puzzler], int]],
    *,
    groups: dict[str, range] | None = None,
) -> Round:
    """Seat and run the individual round: ``heats`` maps a key to its puzzlers and minutes late.

    Heats start an hour and a half apart from 10:00 (scheduled); time is up in each.
    """
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.order_by("order").first()
    count = max(p.table for puzzlers, _late in heats.values() for p in puzzlers)
    tables_create(championship=championship, count=count)
    for name, numbers in (groups or {}).items():
        Table.objects.filter(championship=championship, number__in=numbers).update(group=name)
    tables = {table.number: table for table in championship.tables.all()}
    for order, (key, (puzzlers, late)) in enumerate(heats.items()):
        scheduled = DAY.replace(hour=10) + timedelta(minutes=90 * order)
        started = scheduled + timedelta(minutes=late)
        heat = factories.heat(
            round_,
            key=key,
            order=order + 1,
            scheduled_start=scheduled,
            started_at=started,
            ended_at=started + timedelta(minutes=120),
            state=Heat.State.TIME_UP,
        )
        for puzzler in puzzlers:
            entry = factories.entry(individual, name=f"{key.upper()}{puzzler.table}")
            Seat.objects.create(
                heat=heat,
                table=tables[puzzler.table],
                entry=entry,
                started_at=started + timedelta(minutes=puzzler.own_start)
                if puzzler.own_start
                else None,
            )
            Result.objects.create(
                round=round_,
                heat=heat,
                entry=entry,
                status=puzzler.status,
                time_ms=None if puzzler.minutes is None else round(puzzler.minutes * MIN),
                pieces_placed=300 if puzzler.status == "unfinished" else None,
                missing_found=puzzler.missing_found,
                missing_lost=puzzler.missing_lost,
                adjacent_missing=puzzler.adjacent,
            )
    Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
    round_.refresh_from_db()
    standings_recompute(round_=round_)
    return round_


ROWS = {"Row A": range(1, 3), "Row B": range(3, 5), "Row C": range(5, 7)}


def planted(championship) -> Round:
    """Run three heats at six tables in rows A, B and C of two tables each.

    Heat C is slow and late; row C has many missing pieces.
    """

    def heat(times, missing=()):
        return [
            Puzzler(table=table, minutes=time, missing_lost=missing[table - 1] if missing else 0)
            for table, time in enumerate(times, start=1)
        ]

    return run(
        championship,
        {
            "a": (heat([40, 44, 46, 46, 48, 52], missing=(1, 0, 0, 0, 2, 1)), 1),
            "b": (heat([41, 45, 47, 47, 49, 53], missing=(0, 0, 0, 0, 0, 3)), 0),
            "c": (heat([50, 55, 59, 59, 62, 66], missing=(0, 0, 0, 0, 1, 0)), 7),
        },
        groups=ROWS,
    )
