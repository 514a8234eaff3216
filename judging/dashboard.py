"""Read what a round's judging dashboard shows: per heat what is confirmed, awaited, still
puzzling or still to count; the piece counts a head judge decides; every capture; late arrivals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship.models import Heat, Round, Seat
from core.l10n import format_duration
from core.people import person_name
from judging.models import Capture
from judging.selectors import seat_label
from registration.models import Entry
from results.models import CountState, Result
from results.services import standings_ensure


@dataclass(frozen=True)
class DashboardRow:
    """One entry of a heat on the dashboard."""

    seat: Seat
    result: Result | None

    @property
    def label(self) -> str:
        return seat_label(self.seat)

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


def capture_values(capture: Capture, *, found_later: bool = True) -> list[str]:
    """Return what a capture recorded, as short phrases for the dashboard.

    Where the rules know no piece found later (``found_later`` false), the pieces
    missing at TIME are missing, as the judge's phone says, not lost.
    """
    values = []
    if capture.elapsed_ms is not None:
        values.append(format_duration(capture.elapsed_ms))
    if capture.missing_found:
        values.append(
            counted("%(count)s found later", "%(count)s found later", capture.missing_found)
        )
    if capture.missing_lost and found_later:
        values.append(counted("%(count)s lost", "%(count)s lost", capture.missing_lost))
    elif capture.missing_lost:
        values.append(counted("%(count)s missing", "%(count)s missing", capture.missing_lost))
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
    found_later: bool = True

    @property
    def values(self) -> str:
        if self.hidden:
            return _("counted; shown after the second count")
        values = capture_values(self.capture, found_later=self.found_later)
        return ", ".join(str(value) for value in values)


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
        # A count with misplaced pieces is one of the two counts where it asked for them.
        counted = capture.kind == Capture.Kind.PIECES or (
            capture.kind == Capture.Kind.INCORRECT and capture.second_count
        )
        if not counted and (
            capture.kind in (Capture.Kind.FINISH, Capture.Kind.INCORRECT)
            or (
                capture.kind == Capture.Kind.CORRECTION
                and (capture.pieces_placed is not None or capture.pieces_remaining is not None)
            )
        ):
            counts = {}
        elif counted:
            placed = (
                capture.pieces_placed
                if capture.pieces_placed is not None
                else pieces - capture.pieces_remaining
            )
            counts[capture.judge_id] = JudgeCount(person_name(capture.judge), placed)
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
        counted = status == Result.Status.UNFINISHED or (row.result and row.result.incorrect)
        if counted and row.result.count_state:
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
    found_later = round_.championship.rules.pieces_found_later
    captures = [
        CaptureLine(
            capture,
            hidden=capture.kind in (Capture.Kind.PIECES, Capture.Kind.INCORRECT)
            and capture.entry_id in awaited,
            found_later=found_later,
        )
        for capture in trail
    ]
    recorded = {capture.entry_id for capture in trail}
    pieces = round_.total_pieces
    by_entry: dict[int, list[Capture]] = {}
    for capture in trail:
        by_entry.setdefault(capture.entry_id, []).append(capture)
    disputes = [
        Dispute(row=row, counts=judges_counts(by_entry.get(row.seat.entry_id, []), pieces))
        for board in boards
        for row in board.rows
        if row.result is not None
        and (row.result.status == Result.Status.UNFINISHED or row.result.incorrect)
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
