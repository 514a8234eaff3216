"""Read what the judges' pages show: a table's entries now, and a round's judging dashboard.

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

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship.l10n import format_duration
from championship.models import Heat, Round, Seat, Table
from championship.tokens import is_token
from judging.models import Capture
from registration.models import Entry
from results.models import CountState, Result
from results.services import standings_ensure

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
        return self.seat.heat.round.category.pieces - count.pieces_remaining

    def state(self, user) -> dict:
        """Return what the judge's phone needs to know of this entry, JSON-ready."""
        heat, result, finish = self.seat.heat, self.result, self.finish
        return {
            "label": self.label,
            "entry": self.entry.ref,
            "name": self.entry.name,
            "round": heat.round.key,
            "pieces": heat.round.category.pieces,
            "heatState": heat.state,
            "heatStateLabel": str(heat.get_state_display()),
            "startMs": epoch_ms(self.start),
            "limitMs": heat.round.time_limit_ms,
            "timeUpMs": epoch_ms(self.seat.time_up_at),
            "step": self.step,
            "countState": result.count_state if result is not None else "",
            "ownCount": self.own_count,
            "result": result_state(result),
            "statusLabel": None if result is None else str(result.get_status_display()),
            "finish": None
            if finish is None
            else {
                "atMs": epoch_ms(finish.device_at),
                "mine": finish.judge_id == user.pk,
                "judge": finish.judge.get_username(),
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


def _label(seat: Seat) -> str:
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
    finishes, counts = {}, {}
    for capture in (
        Capture.objects.filter(
            kind__in=(Capture.Kind.FINISH, Capture.Kind.PIECES),
            entry__in=[s.entry_id for s in current],
            round__in={s.round_id for s in current},
        )
        .select_related("judge")
        .order_by("received_at", "id")
    ):
        # The latest one of each kind wins.
        latest = finishes if capture.kind == Capture.Kind.FINISH else counts
        latest[(capture.round_id, capture.entry_id)] = capture
    seats = []
    for seat in current:
        key = (seat.round_id, seat.entry_id)
        result = results.get(key)
        seats.append(
            SeatAtTable(
                seat=seat,
                label=_label(seat),
                start=seat.start,
                result=result,
                finish=finishes.get(key),
                step=step_of(seat, result, now, judge=judge, last_count=counts.get(key)),
                last_count=counts.get(key),
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
    every capture in a round at the table (each one moves the round's version).
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


# The round dashboard --------------------------------------------------------------------------


@dataclass(frozen=True)
class DashboardRow:
    """One entry of a heat on the dashboard."""

    seat: Seat
    result: Result | None

    @property
    def label(self) -> str:
        return _label(self.seat)

    @property
    def time(self) -> str | None:
        return format_duration(self.result.time_ms) if self.result else None

    @property
    def final(self) -> str | None:
        return format_duration(self.result.final_ms) if self.result else None

    @property
    def confirmed(self) -> bool:
        return self.result is not None and self.result.confirmed_at is not None

    @property
    def waiting(self) -> bool:
        """Return whether the entry waits for its heat's start (a no-show may be known before)."""
        pending = self.result is None or self.result.status == Result.Status.PENDING
        return pending and self.seat.heat.started_at is None

    @property
    def correction(self) -> dict:
        """Return what a head judge's correction form starts from: the result as it stands.

        A pending result is offered as finished: a correction gives a pending
        entry a result, and the form always names the status it sets.
        """
        result = self.result
        if result is None or result.status == Result.Status.PENDING:
            status = Result.Status.FINISHED
        else:
            status = result.status
        return {
            "time": (format_duration(result.time_ms) if result else None) or "",
            "missing_found": result.missing_found if result else 0,
            "missing_lost": result.missing_lost if result else 0,
            "adjacent_missing": result.adjacent_missing if result else 0,
            "pieces_placed": ""
            if result is None or result.pieces_placed is None
            else result.pieces_placed,
            "status": status,
        }


def counted(singular: str, plural: str, count: int) -> str:
    """Return a counted phrase in the form its number needs ("1 piece", "2 pieces")."""
    return ngettext(singular, plural, count) % {"count": count}


def capture_values(capture: Capture) -> list[str]:
    """Return what a capture recorded, as short phrases for the dashboard."""
    values = []
    if capture.elapsed_ms is not None:
        values.append(format_duration(capture.elapsed_ms))
    if capture.missing_found:
        values.append(
            counted("%(count)s found later", "%(count)s found later", capture.missing_found)
        )
    if capture.missing_lost:
        values.append(counted("%(count)s lost", "%(count)s lost", capture.missing_lost))
    if capture.adjacent_missing:
        values.append(
            counted(
                "%(count)s of them adjacent", "%(count)s of them adjacent", capture.adjacent_missing
            )
        )
    if capture.last_piece_ms is not None:
        values.append(
            _("last piece at %(time)s") % {"time": format_duration(capture.last_piece_ms)}
        )
    if capture.pieces_placed is not None:
        values.append(
            counted("%(count)s piece placed", "%(count)s pieces placed", capture.pieces_placed)
        )
    if capture.pieces_remaining is not None:
        values.append(
            counted(
                "%(count)s piece remaining", "%(count)s pieces remaining", capture.pieces_remaining
            )
        )
    status = capture.payload.get("status") if capture.kind == Capture.Kind.CORRECTION else None
    if status in Result.Status.values:
        values.append(Result.Status(status).label)
    return values


@dataclass(frozen=True)
class CaptureLine:
    """A capture as the dashboard lists it.

    A piece count that waits for a second count is not shown: the head judge
    may be the one who counts second.
    """

    capture: Capture
    hidden: bool = False

    @property
    def values(self) -> str:
        if self.hidden:
            return _("counted; shown after the second count")
        return ", ".join(str(value) for value in capture_values(self.capture))


@dataclass(frozen=True)
class JudgeCount:
    judge: str
    placed: int


@dataclass(frozen=True)
class Dispute:
    """An entry whose two piece counts differ, for the head judge to decide."""

    row: DashboardRow
    counts: list[JudgeCount]


def judges_counts(captures: list[Capture], pieces: int) -> list[JudgeCount]:
    """Return each judge's latest piece count of one entry, in the order they first counted.

    As ``judging.derive.result_derive`` reads them: a finish, a declared finish with
    its count, or a head judge's count starts the counting anew.
    """
    counts: dict[int, JudgeCount] = {}
    for capture in captures:
        if capture.kind in (Capture.Kind.FINISH, Capture.Kind.INCORRECT) or (
            capture.kind == Capture.Kind.CORRECTION
            and (capture.pieces_placed is not None or capture.pieces_remaining is not None)
        ):
            counts = {}
        elif capture.kind == Capture.Kind.PIECES:
            placed = (
                capture.pieces_placed
                if capture.pieces_placed is not None
                else pieces - capture.pieces_remaining
            )
            counts[capture.judge_id] = JudgeCount(capture.judge.get_username(), placed)
    return list(counts.values())


@dataclass(frozen=True)
class HeatBoard:
    """A heat's judging at a glance."""

    heat: Heat
    rows: list[DashboardRow]
    confirmed: int
    awaiting: int
    puzzling: int
    out: int
    counts_missing: int
    waiting: int = 0
    # The piece counts at time-up: final, waiting for a second count, different.
    counted: int = 0
    second_awaited: int = 0
    disputed: int = 0

    @property
    def counting(self) -> bool:
        return bool(self.counted or self.second_awaited or self.disputed)

    @property
    def time_up(self) -> bool:
        """Return whether time is up in the heat: nobody puzzles any more."""
        return self.heat.state in (Heat.State.TIME_UP, Heat.State.CLOSED)


@dataclass(frozen=True)
class LateArrival:
    """A seated entry nobody has seen N minutes after its start (dm: may be disqualified)."""

    seat: Seat
    minutes: int


@dataclass(frozen=True)
class Dashboard:
    round: Round
    heats: list[HeatBoard]
    captures: list[CaptureLine]
    disputes: list[Dispute] = field(default_factory=list)
    late: list[LateArrival] = field(default_factory=list)
    late_minutes: int | None = None
    corrections_closed: bool = False


def late_arrivals(
    round_: Round, seats: list[Seat], results: dict, recorded: set, now: datetime
) -> list[LateArrival]:
    """Return the entries not arrived ``late_arrival_disqualify_minutes`` after their start.

    An entry has arrived when it is checked in or anything was recorded for it
    at its table. Arrival is known only where check-in is used: when no entry
    seated in the round is checked in, nobody is flagged.
    """
    limit = round_.championship.rules.late_arrival_disqualify_minutes
    if limit is None or not any(seat.entry.checked_in_at for seat in seats):
        return []
    late = []
    for seat in seats:
        start = seat.start
        result = results.get(seat.entry_id)
        if (
            start is None
            or seat.entry.checked_in_at is not None
            or seat.entry_id in recorded
            or (result is not None and result.status != Result.Status.PENDING)
        ):
            continue
        minutes = int((now - start).total_seconds() // 60)
        if minutes >= limit:
            late.append(LateArrival(seat=seat, minutes=minutes))
    return late


def _heat_board(heat: Heat, seats: list[Seat], results: dict) -> HeatBoard:
    rows = [DashboardRow(seat=seat, result=results.get(seat.entry_id)) for seat in seats]
    confirmed = awaiting = puzzling = out = waiting = 0
    count_states = dict.fromkeys(CountState, 0)
    for row in rows:
        status = row.result.status if row.result else Result.Status.PENDING
        if status == Result.Status.UNFINISHED and row.result.count_state:
            count_states[row.result.count_state] += 1
        if status in (Result.Status.DNS, Result.Status.DSQ):
            out += 1
        elif row.waiting:
            waiting += 1
        elif status == Result.Status.PENDING:
            puzzling += 1
        elif row.result.confirmed_at is not None:
            confirmed += 1
        elif row.result.count_state not in (CountState.AWAITING_SECOND, CountState.DISPUTED):
            awaiting += 1  # a count not final yet is counted below, not shown to the entrant
    time_up = heat.state in (Heat.State.TIME_UP, Heat.State.CLOSED)
    return HeatBoard(
        heat=heat,
        rows=rows,
        confirmed=confirmed,
        awaiting=awaiting,
        puzzling=puzzling,
        out=out,
        counts_missing=puzzling if time_up else 0,
        waiting=waiting,
        counted=count_states[CountState.SINGLE]
        + count_states[CountState.AGREED]
        + count_states[CountState.DECIDED],
        second_awaited=count_states[CountState.AWAITING_SECOND],
        disputed=count_states[CountState.DISPUTED],
    )


def round_dashboard(round_: Round, *, now: datetime) -> Dashboard:
    """Return a round's heats with their counts and entries, every capture, and late arrivals."""
    seats = list(
        Seat.objects.filter(round=round_)
        .select_related("entry", "table", "heat")
        .order_by("heat__order", "heat__key", "table__number", "position")
    )
    standings_ensure(round_)
    results = {r.entry_id: r for r in Result.objects.filter(round=round_)}
    by_heat: dict[int, list[Seat]] = {}
    for seat in seats:
        by_heat.setdefault(seat.heat_id, []).append(seat)
    heats = list(round_.heats.order_by("order", "key"))
    boards = [_heat_board(heat, by_heat.get(heat.pk, []), results) for heat in heats]
    trail = list(
        Capture.objects.filter(round=round_)
        .select_related("judge", "entry", "heat")
        .order_by("received_at", "id")
    )
    awaited = {
        entry
        for entry, result in results.items()
        if result.count_state == CountState.AWAITING_SECOND
    }
    captures = [
        CaptureLine(
            capture,
            hidden=capture.kind == Capture.Kind.PIECES and capture.entry_id in awaited,
        )
        for capture in trail
    ]
    recorded = {capture.entry_id for capture in trail}
    pieces = round_.category.pieces
    by_entry: dict[int, list[Capture]] = {}
    for capture in trail:
        by_entry.setdefault(capture.entry_id, []).append(capture)
    disputes = [
        Dispute(row=row, counts=judges_counts(by_entry.get(row.seat.entry_id, []), pieces))
        for board in boards
        for row in board.rows
        if row.result is not None
        and row.result.status == Result.Status.UNFINISHED
        and row.result.count_state == CountState.DISPUTED
    ]
    return Dashboard(
        round=round_,
        heats=boards,
        captures=captures,
        disputes=disputes,
        late=late_arrivals(round_, seats, results, recorded, now),
        late_minutes=round_.championship.rules.late_arrival_disqualify_minutes,
        corrections_closed=later_round_seated(round_),
    )


def later_round_seated(round_: Round) -> bool:
    """Return whether a later round of the category is seated: this round's results are final.

    The capture service refuses a head judge's correction from then on; the
    dashboard stops offering one.
    """
    return Round.objects.filter(
        category=round_.category_id, order__gt=round_.order, seats__isnull=False
    ).exists()


def seated_entries(round_: Round):
    """Return the entries seated in a round, by name."""
    return Entry.objects.filter(seats__round=round_).order_by("name", "pk")
