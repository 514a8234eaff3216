"""Record what judges capture at the tables, and derive each entry's result from it.

A capture is stored append-only before anything is derived from it. The same
capture sent twice (the same client id, e.g. a retry after a lost answer) is
stored once and answered as the first time. Captures of a round are serialised
by a lock on the round's row (taken first, as everywhere: championship →
category → round → heat → entry), so two judges tapping the same entry at the
same moment give one result and one conflict, never two results.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from championship.models import Championship, ChampionshipRole, Heat, Round, Seat
from championship.permissions import has_role
from championship.rules import timing
from judging.models import Capture
from registration.models import Entry
from results.models import JUDGED_FIELDS, Result
from results.services import OUTCOME_FIELDS, entry_is_official, outcome_derive

Kind = Capture.Kind

# How far ahead of the server's clock a tap may be (phones' clocks are corrected
# by the measured offset; what remains is network jitter).
FUTURE_TOLERANCE = timedelta(seconds=10)
# A finish may be recorded this long after the time limit (the judge's walk to the table).
TIME_LIMIT_GRACE = timedelta(seconds=30)

JUDGE_KINDS = {Kind.FINISH, Kind.CONFIRM, Kind.PIECES, Kind.INCORRECT}
HEAD_JUDGE_KINDS = {Kind.CORRECTION, Kind.DNS, Kind.DSQ, Kind.WARNING}


class CaptureConflict(Exception):
    """The capture contradicts the entry's current result (answered 409)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class CaptureForbidden(Exception):
    """The user may not record this kind of capture (answered 403)."""


@dataclass(frozen=True)
class CaptureInput:
    """What a judge's phone sends for one tap."""

    client_id: uuid.UUID
    kind: str
    at: datetime | None = None
    missing_found: int = 0
    missing_lost: int = 0
    adjacent_missing: bool = False
    last_piece_at: datetime | None = None
    pieces_placed: int | None = None
    pieces_remaining: int | None = None
    time_ms: int | None = None
    status: str = ""
    reason: str = ""
    payload: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Recorded:
    """A stored capture and the entry's result after it.

    The result has its outcome (final time, counted pieces) but its place is the
    one of the round's last ranking: a capture does not rank the round, the next
    read of its standings does (``results.services.standings_ensure``).
    """

    capture: Capture
    result: Result
    created: bool


def _start_of(seat: Seat) -> datetime:
    """Return when the seated entry started: its own later start, or the heat's."""
    if seat.started_at and seat.started_at > seat.heat.started_at:
        return seat.started_at
    return seat.heat.started_at


def _check_instant(data: CaptureInput, seat: Seat, round_: Round, now: datetime) -> None:
    heat = seat.heat
    if data.at is None:
        raise ValidationError({"at": [_("The instant of the tap is missing.")]})
    if data.at > now + FUTURE_TOLERANCE:
        raise ValidationError(
            {"at": [_("The phone's clock is ahead of the server's: the tap is in the future.")]}
        )
    if data.at < _start_of(seat):
        raise ValidationError({"at": [_("The tap is before the entry's start.")]})
    limit = heat.started_at + timedelta(minutes=round_.effective_time_limit_minutes)
    if data.kind == Kind.FINISH and data.at > limit + TIME_LIMIT_GRACE:
        raise ValidationError(
            {"at": [_("The tap is after the time limit: record the pieces placed instead.")]}
        )
    if data.kind == Kind.FINISH and heat.ended_at and data.at > heat.ended_at + TIME_LIMIT_GRACE:
        raise ValidationError(
            {"at": [_("Time was up before the tap: record the pieces placed instead.")]}
        )


def _check_counts(data: CaptureInput, pieces: int) -> None:
    for name in ("missing_found", "missing_lost", "pieces_placed", "pieces_remaining"):
        value = getattr(data, name)
        if value is not None and not 0 <= value <= pieces:
            raise ValidationError(
                {name: [_("Must be between 0 and %(pieces)s.") % {"pieces": pieces}]}
            )
    if data.missing_found + data.missing_lost > pieces:
        raise ValidationError({"missing_lost": [_("More pieces missing than the puzzle has.")]})
    if data.kind in (Kind.PIECES, Kind.INCORRECT) and (
        data.pieces_placed is None and data.pieces_remaining is None
    ):
        raise ValidationError(
            {"pieces_placed": [_("Give the pieces placed or the pieces remaining.")]}
        )


def _check_kind_allowed(user, championship: Championship, kind: str) -> None:
    if kind not in JUDGE_KINDS | HEAD_JUDGE_KINDS:
        raise ValidationError({"kind": [_("Unknown kind of capture.")]})
    role = (
        ChampionshipRole.Role.HEAD_JUDGE
        if kind in HEAD_JUDGE_KINDS
        else ChampionshipRole.Role.JUDGE
    )
    if not has_role(user, championship, role):
        raise CaptureForbidden


def _existing(client_id) -> Capture | None:
    return Capture.objects.filter(client_id=client_id).first()


def capture_record(
    *, round_: Round, entry: Entry, judge, data: CaptureInput, now: datetime | None = None
) -> Recorded:
    """Store one capture and derive the entry's result; the same client id again stores nothing.

    Raise ``ValidationError`` for impossible input, ``CaptureForbidden`` for a
    kind the user may not record, ``CaptureConflict`` when the capture
    contradicts the current result (a confirmed time, another judge's finish).
    """
    championship = round_.championship
    _check_kind_allowed(judge, championship, data.kind)
    earlier = _existing(data.client_id)
    if earlier is not None:
        return _replay(earlier, round_, entry, judge)
    now = now or timezone.now()
    with transaction.atomic():
        locked_round = (
            Round.objects.select_for_update(of=("self",))
            .select_related("category__championship")
            .get(pk=round_.pk)
        )
        # Checked again under the lock: a retry may have raced the first attempt.
        earlier = _existing(data.client_id)
        if earlier is not None:
            return _replay(earlier, round_, entry, judge)
        seat = Seat.objects.select_related("heat").filter(round=locked_round, entry=entry).first()
        if seat is None:
            raise ValidationError({"entry": [_("The entry is not seated in this round.")]})
        heat = seat.heat
        # A no-show or a disqualification may be recorded before the start; times may not.
        if heat.started_at is None and data.kind not in (Kind.DNS, Kind.DSQ, Kind.WARNING):
            raise ValidationError({"round": [_("The entry's heat has not started.")]})
        # The round's lock is held: no other capture, start or close changes this result.
        result = Result.objects.filter(round=locked_round, entry=entry).first()
        new_result = result is None
        if new_result:
            result = Result(round=locked_round, heat=heat, entry=entry)
        result.entry = entry
        pieces = locked_round.category.pieces
        _check_counts(data, pieces)
        elapsed = last_piece = None
        if data.kind == Kind.FINISH:
            if heat.state == Heat.State.CLOSED:
                raise ValidationError({"round": [_("The heat is closed.")]})
            _check_instant(data, seat, locked_round, now)
            elapsed = timing.elapsed_ms(data.at, heat.started_at, seat.started_at)
            if data.last_piece_at is not None:
                if data.last_piece_at < data.at:
                    raise ValidationError(
                        {"last_piece_at": [_("The last piece cannot come before the time.")]}
                    )
                last_piece = timing.elapsed_ms(data.last_piece_at, heat.started_at, seat.started_at)
        elif data.kind == Kind.CORRECTION:
            if not data.reason.strip():
                raise ValidationError({"reason": [_("A correction needs a reason.")]})
            elapsed = data.time_ms
        elif data.kind in (Kind.DSQ, Kind.WARNING) and not data.reason.strip():
            raise ValidationError({"reason": [_("Give a reason.")]})
        _check_against_result(data, result, judge)
        capture = Capture.objects.create(
            championship=championship,
            client_id=data.client_id,
            round=locked_round,
            heat=heat,
            entry=entry,
            kind=data.kind,
            judge=judge,
            device_at=data.at,
            elapsed_ms=elapsed,
            last_piece_ms=last_piece,
            missing_found=data.missing_found,
            missing_lost=data.missing_lost,
            adjacent_missing=data.adjacent_missing,
            pieces_placed=data.pieces_placed,
            pieces_remaining=data.pieces_remaining,
            reason=data.reason.strip(),
            payload={**data.payload, **({"status": data.status} if data.status else {})},
        )
        result_derive(result, pieces, seat=seat)
        rules = championship.rules
        outcome_derive(result, rules, pieces)
        if new_result:
            result.official = entry_is_official(entry, rules, locked_round.category.kind)
            result.save()
        else:
            # Only what the capture decides: the places are the ranking's (see below).
            result.save(update_fields=[*JUDGED_FIELDS, *OUTCOME_FIELDS, "updated_at"])
        # The round is not ranked here: the next read of its standings ranks it once for
        # every capture since, so a capture costs the same in a round of 20 or 2,000.
        Round.objects.filter(pk=locked_round.pk).update(version=F("version") + 1)
    return Recorded(capture=capture, result=result, created=True)


def _replay(earlier: Capture, round_: Round, entry: Entry, judge) -> Recorded:
    """Answer a capture sent again as the first time, if it really is the same one."""
    if (
        earlier.round_id != round_.pk
        or earlier.entry_id != entry.pk
        or earlier.judge_id != judge.pk
    ):
        raise CaptureConflict(_("This capture id was already used for another capture."))
    result = Result.objects.get(round=round_, entry=entry)
    return Recorded(capture=earlier, result=result, created=False)


def _check_against_result(data: CaptureInput, result: Result, judge) -> None:
    """Refuse what contradicts the current result."""
    if data.kind in HEAD_JUDGE_KINDS:
        return
    if result.confirmed_at is not None:
        raise CaptureConflict(
            _("The result is confirmed: only a head judge can correct it, with a reason.")
        )
    if data.kind == Kind.CONFIRM:
        if result.status not in (Result.Status.FINISHED, Result.Status.UNFINISHED):
            raise ValidationError({"kind": [_("There is no time or piece count to confirm.")]})
        return
    if result.status in (Result.Status.DNS, Result.Status.DSQ):
        raise CaptureConflict(_("The entry did not start or is disqualified."))
    last = (
        Capture.objects.filter(round=result.round_id, entry=result.entry_id, kind=Kind.FINISH)
        .order_by("-received_at", "-id")
        .first()
    )
    if data.kind == Kind.FINISH and last is not None and last.judge_id != judge.pk:
        raise CaptureConflict(
            _("%(judge)s already recorded this entry's time.")
            % {"judge": last.judge.get_username()}
        )


def result_derive(result: Result, pieces: int, *, seat: Seat | None = None) -> Result:
    """Set a result's inputs from its captures, in the order they were received.

    A finish is timed from the entry's start as it is now: when a later start of
    its own is set after the tap (the taped bag), the time follows it. ``seat`` is
    the entry's seat in the round, with its heat, when the caller has it at hand.
    """
    captures = Capture.objects.filter(round=result.round_id, entry=result.entry_id).order_by(
        "received_at", "id"
    )
    if seat is None:
        seat = (
            Seat.objects.select_related("heat")
            .filter(round_id=result.round_id, entry_id=result.entry_id)
            .first()
        )
    status, confirmed_at = Result.Status.PENDING, None
    fields = {
        "time_ms": None,
        "missing_found": 0,
        "missing_lost": 0,
        "adjacent_missing": False,
        "last_piece_ms": None,
        "pieces_placed": None,
        "incorrect": False,
    }
    for capture in captures:
        kind = capture.kind
        if kind == Kind.FINISH:
            status, confirmed_at = Result.Status.FINISHED, None
            elapsed, last_piece = capture.elapsed_ms, capture.last_piece_ms
            if seat is not None and capture.device_at and seat.heat.started_at:
                now_elapsed = timing.elapsed_ms(
                    max(capture.device_at, _start_of(seat)), seat.heat.started_at, seat.started_at
                )
                if last_piece is not None:
                    last_piece -= elapsed - now_elapsed
                elapsed = now_elapsed
            fields.update(
                time_ms=elapsed,
                missing_found=capture.missing_found,
                missing_lost=capture.missing_lost,
                adjacent_missing=capture.adjacent_missing,
                last_piece_ms=last_piece,
                pieces_placed=None,
                incorrect=False,
            )
        elif kind in (Kind.PIECES, Kind.INCORRECT):
            placed = (
                capture.pieces_placed
                if capture.pieces_placed is not None
                else pieces - capture.pieces_remaining
            )
            fields["pieces_placed"] = placed
            if kind == Kind.INCORRECT:
                # "TIME" declared with misplaced pieces: the time stays on record and the
                # preset decides (sm: not completed, ranked by the correctly placed pieces).
                fields["incorrect"] = True
                has_time = fields["time_ms"] is not None
                status = Result.Status.FINISHED if has_time else Result.Status.UNFINISHED
            else:
                status = Result.Status.UNFINISHED
                fields.update(incorrect=False, time_ms=None)
            confirmed_at = None
        elif kind == Kind.CONFIRM:
            confirmed_at = capture.received_at
        elif kind in (Kind.DNS, Kind.DSQ):
            status = kind
        elif kind == Kind.CORRECTION:
            target = capture.payload.get("status") or status
            if target in Result.Status.values:
                status = target
            if capture.elapsed_ms is not None:
                fields["time_ms"] = capture.elapsed_ms
            fields.update(
                missing_found=capture.missing_found,
                missing_lost=capture.missing_lost,
                adjacent_missing=capture.adjacent_missing,
            )
            if capture.pieces_placed is not None or capture.pieces_remaining is not None:
                fields["pieces_placed"] = (
                    capture.pieces_placed
                    if capture.pieces_placed is not None
                    else pieces - capture.pieces_remaining
                )
            confirmed_at = confirmed_at or capture.received_at
    if status == Result.Status.FINISHED and fields["time_ms"] is None:
        has_count = fields["pieces_placed"] is not None
        status = Result.Status.UNFINISHED if has_count else Result.Status.PENDING
    result.status, result.confirmed_at = status, confirmed_at
    for name, value in fields.items():
        setattr(result, name, value)
    return result
