"""Read what a judge's phone shows: the entries at a table now (the dashboard: ``dashboard``).

Terms:

current heat
    A heat in which a table's entries are being judged: a running heat, or,
    when none runs at the table, the latest heat at the table whose time is up,
    while a result there is still unconfirmed (piece counts and confirmations
    to record), or for a head judge (who may still correct).
step
    Where a judge is with one entry: ``waiting`` (the heat has not started),
    ``puzzling`` (the TIME button), ``timeup`` (piece counts to record; also
    the second count, for every judge but the first counter), ``counted``
    (the first counter waits for the second count), ``disputed`` (the two
    counts differ: the head judge decides), ``review`` (a time or count to
    show the entrant and confirm), ``confirmed``, or ``out`` (did not start,
    disqualified).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from championship.models import Heat, Seat, Table
from core.people import person_name
from core.tokens import is_token
from judging.models import Capture
from results.models import CountState, Result

WAITING = "waiting"
PUZZLING = "puzzling"
TIMEUP = "timeup"
REVIEW = "review"
CONFIRMED = "confirmed"
OUT = "out"
COUNTED = "counted"
DISPUTED = "disputed"


def epoch_ms(instant: datetime | None) -> int | None:
    """Return an instant in milliseconds since 1970 (as JavaScript's ``Date`` counts)."""
    return None if instant is None else int(instant.timestamp() * 1000)


def table_for_token(token: str) -> Table | None:
    """Return the table behind a QR token, or ``None`` for an unknown or replaced token."""
    if not is_token(token):
        return None
    return Table.objects.select_related("championship").filter(token=token).first()


def seat_time_is_up(seat: Seat, now: datetime) -> bool:
    """Return whether no finish can be recorded for a seated entry any more.

    The entry's time limit runs from its own start; the heat's time-up does not
    end the attempt of an entry that started later (``Seat.time_up_at``).
    """
    time_up = seat.time_up_at
    return time_up is not None and now >= time_up


def step_of(
    seat: Seat,
    result: Result | None,
    now: datetime,
    *,
    judge=None,
    last_count: Capture | None = None,
) -> str:
    """Return which screen ``judge`` starts on for a seated entry.

    ``last_count`` is the latest piece count at time-up of the entry: while
    it waits for a second count, its judge waits and every other judge counts.
    """
    if seat.heat.started_at is None:
        return WAITING
    status = result.status if result is not None else Result.Status.PENDING
    if status in (Result.Status.DNS, Result.Status.DSQ):
        return OUT
    if status == Result.Status.PENDING:
        return TIMEUP if seat_time_is_up(seat, now) else PUZZLING
    if result.confirmed_at is not None:
        return CONFIRMED
    if result.count_state == CountState.AWAITING_SECOND:
        counter = last_count.judge_id if last_count is not None else None
        return COUNTED if judge is not None and counter == judge.pk else TIMEUP
    if result.count_state == CountState.DISPUTED:
        return DISPUTED
    return REVIEW


@dataclass(frozen=True)
class SeatAtTable:
    """One entry at a table in a current heat, with what has been recorded for it."""

    seat: Seat
    label: str
    start: datetime | None
    result: Result | None
    finish: Capture | None
    step: str
    # The latest piece count at time-up, shown back only to the judge who made it.
    last_count: Capture | None = None
    # The judges who timed or counted the entry in this heat: one of them, or a head
    # judge, has the entrant confirm (``judging.derive``).
    recorders: frozenset[int] = frozenset()

    @property
    def entry(self):
        return self.seat.entry

    @property
    def heat(self) -> Heat:
        return self.seat.heat

    @property
    def own_start(self) -> bool:
        """Return whether the entry has a later start of its own."""
        return self.seat.own_start

    @property
    def own_count(self) -> int | None:
        """Return the pieces placed by the judge's own count while it waits for a second one.

        Only the judge who counted is at the ``counted`` step (``step_of``).
        """
        count = self.last_count
        if self.step != COUNTED or count is None:
            return None
        if count.pieces_placed is not None:
            return count.pieces_placed
        return self.seat.heat.round.total_pieces - count.pieces_remaining

    def state(self, user) -> dict:
        """Return what the judge's phone needs to know of this entry, JSON-ready."""
        heat, result, finish = self.seat.heat, self.result, self.finish
        return {
            "label": self.label,
            "entry": self.entry.ref,
            "name": self.entry.name,
            "round": heat.round.key,
            "pieces": heat.round.total_pieces,
            "heatState": heat.state,
            "heatStateLabel": str(heat.get_state_display()),
            "startMs": epoch_ms(self.start),
            "limitMs": heat.round.time_limit_ms,
            # When the organiser called time, after the heat's start (None: not yet).
            "calledMs": heat.time_called_ms,
            "timeUpMs": epoch_ms(self.seat.time_up_at),
            "step": self.step,
            # None of the judges recorded it here (imported): any judge may show it.
            "mayConfirm": not self.recorders or user.pk in self.recorders,
            "countState": result.count_state if result is not None else "",
            "ownCount": self.own_count,
            "result": result_state(result),
            "statusLabel": None if result is None else str(result.get_status_display()),
            "finish": None
            if finish is None
            else {
                "atMs": epoch_ms(finish.device_at),
                "mine": finish.judge_id == user.pk,
                "judge": person_name(finish.judge),
                "found": finish.missing_found,
                "lost": finish.missing_lost,
                "adjacent": finish.adjacent_missing,
                "lastPieceMs": epoch_ms(
                    self.start + timedelta(milliseconds=finish.last_piece_ms)
                    if finish.last_piece_ms is not None and self.start is not None
                    else None
                ),
            },
        }


def result_state(result: Result | None) -> dict | None:
    """Return a result as the capture API answers it (and as the phone keeps it)."""
    if result is None:
        return None
    return {
        "status": result.status,
        "time_ms": result.time_ms,
        "final_seconds": result.final_seconds,
        "penalty_seconds": result.penalty_ms // 1000,
        "counted_pieces": result.counted_pieces,
        "pieces_placed": result.pieces_placed,
        "missing_found": result.missing_found,
        "missing_lost": result.missing_lost,
        "adjacent_missing": result.adjacent_missing,
        "last_piece_ms": result.last_piece_ms,
        "incorrect": result.incorrect,
        "outcome": result.outcome,
        "confirmed": result.confirmed_at is not None,
        "count_state": result.count_state,
    }


@dataclass(frozen=True)
class TableScreen:
    """What a table's page shows: its entries in the current heats, and the next heat."""

    table: Table
    seats: list[SeatAtTable]
    next_heat: Heat | None = None
    next_seats: list[Seat] = field(default_factory=list)

    @property
    def shared(self) -> bool:
        return len(self.seats) > 1


def _seats(table: Table):
    return Seat.objects.filter(table=table).select_related(
        "heat__round__category", "entry", "table"
    )


def seat_label(seat: Seat) -> str:
    """Return a seat's letter on a shared table (A, B), or nothing."""
    if seat.table.seats > 1:
        return seat.position_letter
    return ""


def table_screen(
    table: Table, *, now: datetime, head_judge: bool = False, judge=None
) -> TableScreen:
    """Return the entries at a table in its current heats, and its next scheduled heat.

    Each entry's step is ``judge``'s: a count waiting for a second one is
    counted again by every judge but its own.
    """
    order = ("heat__round__category__order", "heat__round__order", "heat__order", "position")
    current = list(_seats(table).filter(heat__state=Heat.State.RUNNING).order_by(*order))
    if not current:
        latest = (
            _seats(table)
            .filter(heat__state=Heat.State.TIME_UP)
            .order_by("-heat__started_at")
            .values_list("heat_id", flat=True)
            .first()
        )
        if latest is not None:
            seats = list(_seats(table).filter(heat_id=latest).order_by(*order))
            unconfirmed = Result.objects.filter(
                heat_id=latest,
                entry__in=[s.entry_id for s in seats],
                confirmed_at__isnull=True,
            ).exclude(status__in=[Result.Status.DNS, Result.Status.DSQ])
            if head_judge or unconfirmed.exists():
                current = seats
    results = {
        (r.round_id, r.entry_id): r
        for r in Result.objects.filter(
            entry__in=[s.entry_id for s in current], round__in={s.round_id for s in current}
        )
    }
    finishes, counts, recorders = {}, {}, {}
    for capture in (
        Capture.objects.filter(
            kind__in=(Capture.Kind.FINISH, Capture.Kind.PIECES, Capture.Kind.INCORRECT),
            entry__in=[s.entry_id for s in current],
            round__in={s.round_id for s in current},
        )
        .select_related("judge")
        .order_by("received_at", "id")
    ):
        # The latest one of each kind wins.
        key = (capture.round_id, capture.entry_id)
        latest = finishes if capture.kind == Capture.Kind.FINISH else counts
        latest[key] = capture
        recorders.setdefault(key, set()).add(capture.judge_id)
    seats = []
    for seat in current:
        key = (seat.round_id, seat.entry_id)
        result = results.get(key)
        seats.append(
            SeatAtTable(
                seat=seat,
                label=seat_label(seat),
                start=seat.start,
                result=result,
                finish=finishes.get(key),
                step=step_of(seat, result, now, judge=judge, last_count=counts.get(key)),
                last_count=counts.get(key),
                recorders=frozenset(recorders.get(key, ())),
            )
        )
    next_heat, next_seats = None, []
    if not any(s.heat.state == Heat.State.RUNNING for s in seats):
        upcoming = (
            _seats(table)
            .filter(heat__state=Heat.State.SCHEDULED)
            .order_by(
                "heat__scheduled_start",
                "heat__round__category__order",
                "heat__round__order",
                "heat__order",
            )
            .first()
        )
        if upcoming is not None:
            next_heat = upcoming.heat
            next_seats = list(_seats(table).filter(heat=next_heat).order_by("position"))
    return TableScreen(table=table, seats=seats, next_heat=next_heat, next_seats=next_seats)


def fingerprint(value) -> str:
    """Return a short, stable digest of a value made of plain data."""
    return hashlib.sha256(repr(value).encode()).hexdigest()[:20]


def table_version(table: Table) -> str:
    """Return a fingerprint of everything a table's page shows, read with one query.

    It changes when a heat at the table is seated anew, starts, ends or closes,
    when an entry there gets its own start, when a time limit changes, and with
    every capture in a round at the table (each one moves the round's captures
    version, also a confirmation, which the results do not show).
    What only the clock changes (time running out) the phone works out itself.
    """
    rows = (
        Seat.objects.filter(table=table)
        .exclude(heat__state=Heat.State.CLOSED)
        .order_by("pk")
        .values_list(
            "pk",
            "heat_id",
            "entry_id",
            "position",
            "started_at",
            "heat__state",
            "heat__started_at",
            "heat__ended_at",
            "heat__scheduled_start",
            "round__version",
            "round__captures_version",
            "round__time_limit_minutes",
            "round__category__time_limit_minutes",
        )
    )
    return fingerprint(list(rows))


def table_layout(screen: TableScreen) -> str:
    """Return a fingerprint of who a table's page is for: its seats and the next heat's.

    A phone whose page has another layout must show a new page; anything else it
    updates in place.
    """
    return fingerprint(
        (
            [(seat.heat.pk, seat.entry.pk) for seat in screen.seats],
            screen.next_heat.pk if screen.next_heat else None,
            [seat.entry_id for seat in screen.next_seats],
        )
    )


def seat_at_table(table: Table, seat_id) -> Seat | None:
    """Return a seat of a table by its id, or ``None``."""
    return Seat.objects.select_related("heat", "round").filter(table=table, pk=seat_id).first()
