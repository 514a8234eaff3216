"""Record what judges capture at the tables, and derive each entry's result from it.

A capture is stored append-only before anything is derived from it. The same
capture sent twice (the same client id, e.g. a retry after a lost answer) is
stored once and answered as the first time. Captures of a round are serialised
by a lock on the round's row (taken first, as everywhere: championship →
category → round → heat → entry), so two judges tapping the same entry at the
same moment give one result and one conflict, never two results.

What a capture is: ``judging.capture_kinds``; how a result follows from the
captures: ``judging.derive`` (the rulebook's ``championship.rules.captures``);
the capture's written-out reads: ``judging.queries``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from championship import bounds
from championship.errors import RoundStateError
from championship.models import Championship, ChampionshipRole, Round, Seat
from championship.permissions import has_role
from championship.rules import timing
from championship.scoring import (
    JUDGED_FIELDS,
    OUTCOME_FIELDS,
    SHOWN_FIELDS,
    entry_is_official,
    outcome_derive,
)
from judging import queries
from judging.capture_kinds import (
    CAPTURE_FIELDS,
    COUNT_KINDS,
    FUTURE_TOLERANCE,
    HEAD_JUDGE_KINDS,
    JUDGE_KINDS,
    KIND_FIELDS,
    CaptureConflict,
    CaptureForbidden,
    CaptureInput,
    Kind,
    Recorded,
)
from judging.derive import check_against_result, result_derive
from judging.models import Capture
from registration.models import Entry
from results.models import Result
from results.services import round_lock, round_recompute


def _check_instant(data: CaptureInput, seat: Seat, limit_ms: int, now: datetime) -> None:
    """Refuse a tap on TIME that was not made in the entry's time.

    The time limit runs from the entry's own start; "TIME" at or before it, in
    whole seconds, is in time. The heat's time-up, when called before the limit,
    ends the entry's time too (later by an own start's delay).
    """
    if data.at is None:
        raise ValidationError({"at": [_("The instant of the tap is missing.")]})
    if data.at > now + FUTURE_TOLERANCE:
        raise ValidationError(
            {"at": [_("The phone's clock is ahead of the server's: the tap is in the future.")]}
        )
    start = seat.start
    if data.at < start:
        raise ValidationError({"at": [_("The tap is before the entry's start.")]})
    elapsed = timing.elapsed_ms(data.at, start)
    if not timing.within_limit(elapsed, limit_ms):
        raise ValidationError(
            {"at": [_("The tap is after the time limit: count the pieces instead.")]}
        )
    allowed = (seat.time_up_at - start) // timedelta(milliseconds=1)
    if not timing.within_limit(elapsed, allowed):
        raise ValidationError({"at": [_("Time was up before the tap: count the pieces instead.")]})


def attempt_error_message(error: timing.AttemptError, *, pieces: int, rules) -> dict:
    """Return an ``AttemptError`` of the rules as field errors in the active language."""
    least, most = rules.counted_cluster_min_pieces, pieces - 1
    messages = {
        "pieces_implausible": {
            "pieces_placed": _(
                "Pieces placed must be 0 or from %(least)s to %(most)s: pieces count in "
                "clusters of at least %(least)s, and an unfinished puzzle has a piece left."
            )
            % {"least": least, "most": most},
            "pieces_remaining": _(
                "Pieces remaining must be %(total)s or from 1 to %(remaining)s: pieces count in "
                "clusters of at least %(least)s, and an unfinished puzzle has a piece left."
            )
            % {"total": pieces, "remaining": pieces - least, "least": least},
        },
        "adjacent_over_lost": _(
            "More adjacent pieces than pieces lost: adjacent pieces are among the lost ones."
        ),
        "adjacent_alone": _("Adjacent pieces are two or more side by side: give 0 or at least 2."),
        "pieces_out_of_range": _("More pieces missing than the puzzle has."),
        "before_recorded_time": _("The last piece cannot come before the time."),
        "last_piece_not_missing": _(
            "A last piece is a piece missing at TIME that turned up: give at least one piece "
            "missing and found later."
        ),
        "negative": _("Cannot be negative."),
        "time_required": _("A finish needs a time."),
    }
    message = messages.get(error.code, error.message)
    if isinstance(message, dict):
        message = message.get(error.field, error.message)
    name = {"time_ms": "time", "last_piece_ms": "last_piece_at"}.get(error.field, error.field)
    return {name: [message]}


def _check_counts(data: CaptureInput, pieces: int, rules) -> None:
    """Refuse counts that cannot be true of the puzzle, whatever the entry's result."""
    for name in ("missing_found", "missing_lost", "pieces_placed", "pieces_remaining"):
        value = getattr(data, name)
        if value is not None and not 0 <= value <= pieces:
            raise ValidationError(
                {name: [_("Must be between 0 and %(pieces)s.") % {"pieces": pieces}]}
            )
    if data.kind in (Kind.PIECES, Kind.INCORRECT) and (
        data.pieces_placed is None and data.pieces_remaining is None
    ):
        raise ValidationError(
            {"pieces_placed": [_("Give the pieces placed or the pieces remaining.")]}
        )
    # A piece count at time-up is of a puzzle not completed; a correction's count is
    # checked with the corrected result (a puzzle completed after the limit counts whole).
    counting = data.kind in (Kind.PIECES, Kind.INCORRECT)
    attempt = timing.Attempt(
        missing_found=data.missing_found,
        missing_lost=data.missing_lost,
        adjacent_missing=data.adjacent_missing,
        pieces_placed=data.pieces_placed if counting else None,
        pieces_remaining=(
            data.pieces_remaining if counting and data.pieces_placed is None else None
        ),
    )
    try:
        # A judge's count at time-up is of a puzzle not completed: at most every piece but one.
        timing.validate(attempt, pieces, rules.counted_cluster_min_pieces, judge_count=counting)
    except timing.AttemptError as error:
        raise ValidationError(attempt_error_message(error, pieces=pieces, rules=rules)) from None


def kept_payload(kind: str, received: dict) -> dict:
    """Return what a capture keeps of the body the phone sent: the fields its kind defines.

    The reason is kept in a field of its own; anything else a client adds is not stored.
    """
    names = (*CAPTURE_FIELDS, *KIND_FIELDS.get(kind, ()))
    return {name: received[name] for name in names if name in received}


def _check_time(data: CaptureInput) -> None:
    """Refuse a corrected time longer than any result can be."""
    if data.time_ms is not None and not 0 <= data.time_ms <= bounds.DURATION_MAX_MS:
        hours = bounds.DURATION_MAX_MS // 3_600_000
        raise ValidationError(
            {"time": [_("A time is at most %(hours)s:00:00.") % {"hours": hours}]}
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


def capture_record(
    *, round_: Round, entry: Entry, judge, data: CaptureInput, now: datetime | None = None
) -> Recorded:
    """Store one capture and derive the entry's result; the same capture again stores nothing.

    Raise ``ValidationError`` for impossible input, ``CaptureForbidden`` for a
    kind the user may not record, ``CaptureConflict`` when the capture
    contradicts the current result (a confirmed time, another judge's record, a
    closed round) or reuses a capture id for something else.
    """
    return _record(
        round_.championship,
        (queries.ROUND_BY_ID, round_.pk),
        (queries.ENTRY_BY_ID, entry.pk),
        judge=judge,
        data=data,
        now=now,
    )


def capture_record_by_keys(
    *,
    championship: Championship,
    round_key: str,
    entry_ref: str,
    judge,
    data: CaptureInput,
    now: datetime | None = None,
) -> Recorded:
    """Record a capture as ``capture_record`` does, of the round and entry named by their keys.

    As a judge's phone names them: they are read with the round's lock and the
    entry's seat, so that a capture costs no query of its own to find them.
    Raise ``ValidationError`` on ``round`` for a round the championship does not
    have, on ``entry`` for an entry its category does not have.
    """
    return _record(
        championship,
        (queries.ROUND_BY_KEY, round_key),
        (queries.ENTRY_BY_REF, entry_ref),
        judge=judge,
        data=data,
        now=now,
    )


def _record(
    championship: Championship,
    round_named: tuple[str, object],
    entry_named: tuple[str, object],
    *,
    judge,
    data: CaptureInput,
    now: datetime | None,
) -> Recorded:
    _check_kind_allowed(judge, championship, data.kind)
    now = now or timezone.now()
    with transaction.atomic():
        locked_round = queries.round_lock_and_move_on(championship, *round_named)
        if locked_round is None:
            raise ValidationError({"round": [_("Unknown round.")]})
        found = queries.under_lock(locked_round, *entry_named, data.client_id)
        if found.entry is None:
            raise ValidationError({"entry": [_("Unknown entry in this round's category.")]})
        locked_round.category = found.category
        found.category.championship = championship
        if found.earlier is None:
            return _store(locked_round, found, judge, data, now)
        # Nothing new is stored: the round's version stays as it was.
        transaction.set_rollback(True)
    earlier = Capture.objects.get(pk=found.earlier)
    return _replay(earlier, locked_round, found.entry, judge, data)


def _store(
    locked_round: Round, found: queries.UnderLock, judge, data: CaptureInput, now: datetime
) -> Recorded:
    """Check a new capture against the entry's result, store it, derive the result anew.

    Runs under the round's lock (``_record``), with the entry's seat and
    result read under it (``queries.under_lock``).
    """
    championship = locked_round.championship
    seat, entry = found.seat, found.entry
    if seat is None:
        raise ValidationError({"entry": [_("The entry is not seated in this round.")]})
    heat = seat.heat
    heat.round = locked_round
    # A no-show or a disqualification may be recorded before the start; times may not.
    if heat.started_at is None and data.kind not in (Kind.DNS, Kind.DSQ, Kind.WARNING):
        raise ValidationError({"round": [_("The entry's heat has not started.")]})
    # Read under the round's lock: no other capture, start or close changes this result.
    result = found.result
    new_result = result is None
    if new_result:
        result = Result(round=locked_round, heat=heat, entry=entry)
    result.entry = entry
    shown_before = None if new_result else _shown(result)
    pieces = locked_round.total_pieces
    rules = championship.rules
    limit = locked_round.time_limit_ms
    _check_counts(data, pieces, rules)
    elapsed = last_piece = None
    if data.kind == Kind.FINISH:
        _check_instant(data, seat, limit, now)
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
        _check_time(data)
        elapsed = data.time_ms
    elif data.kind in (Kind.DSQ, Kind.WARNING) and not data.reason.strip():
        raise ValidationError({"reason": [_("Give a reason.")]})
    check_against_result(data, result, judge, seat=seat, round_=locked_round, now=now)
    capture = Capture(
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
        # A count keeps the rule it was recorded under, whatever the setting becomes.
        second_count=championship.second_count if data.kind in COUNT_KINDS else None,
        payload={
            **kept_payload(data.kind, data.payload),
            **({"status": data.status} if data.status else {}),
        },
    )
    # Stored first: its instant on the server is set (a confirmation records it), and the
    # derivation reads it back with the entry's others. A capture refused by the rules
    # below is rolled back with the transaction. The capture and its result are written
    # by ``save()``: written out, they gained about 0.5 ms a capture, within the noise of
    # a paired benchmark (PostgreSQL, 2026-12-02).
    capture.save()
    # A result without a capture before this one is derived from this one alone.
    alone = new_result or not found.captured
    result_derive(
        result,
        pieces,
        seat=seat,
        second_count=championship.second_count,
        captures=[capture] if alone else None,
    )
    try:
        outcome_derive(result, rules, pieces, limit_ms=limit, called_ms=heat.time_called_ms)
    except timing.AttemptError as error:
        # The capture is rolled back with the transaction.
        message = attempt_error_message(error, pieces=pieces, rules=rules)
        raise ValidationError(message) from None
    if new_result:
        result.official = entry_is_official(entry, rules, locked_round.category.kind)
        result.save()
    else:
        # Only what the capture decides: the places are the ranking's (see below).
        result.save(update_fields=[*JUDGED_FIELDS, *OUTCOME_FIELDS, "updated_at"])
    corrected = data.kind == Kind.CORRECTION and locked_round.state == Round.State.PUBLISHED
    if corrected:
        # An official result changed: the round says so, with the reason (control.official).
        locked_round.corrections = [
            *locked_round.corrections,
            {"at": now.isoformat(), "entry": entry.pk, "reason": capture.reason},
        ]
        locked_round.save(update_fields=["corrections"])
    if not corrected and _shown(result) == shown_before:
        # Nothing the results show changed (a confirmation, a warning, the same time
        # again): the round keeps its results version, and no spectator fetches it
        # anew; its captures version moved on, for the judges' pages.
        Round.objects.filter(pk=locked_round.pk).update(version=F("version") - 1)
    # The round is not ranked here: the next read of its standings ranks it once for
    # every capture since, so a capture costs the same in a round of 20 or 2,000. Its
    # version moved on when its row was locked.
    return Recorded(capture=capture, result=result, created=True)


def _shown(result: Result) -> tuple:
    return tuple(getattr(result, name) for name in SHOWN_FIELDS)


def _same_capture(earlier: Capture, data: CaptureInput) -> bool:
    """Return whether ``data`` is the capture ``earlier`` stored, sent again."""
    last_piece_after = None
    if earlier.last_piece_ms is not None and earlier.elapsed_ms is not None:
        last_piece_after = earlier.last_piece_ms - earlier.elapsed_ms
    sent_after = None
    if data.last_piece_at is not None and data.at is not None:
        sent_after = (data.last_piece_at - data.at) // timedelta(milliseconds=1)
    time_ms = earlier.elapsed_ms if earlier.kind == Kind.CORRECTION else None
    sent_time = data.time_ms if data.kind == Kind.CORRECTION else None
    return (
        earlier.kind == data.kind
        and earlier.device_at == data.at
        and earlier.missing_found == data.missing_found
        and earlier.missing_lost == data.missing_lost
        and earlier.adjacent_missing == data.adjacent_missing
        and earlier.pieces_placed == data.pieces_placed
        and earlier.pieces_remaining == data.pieces_remaining
        and last_piece_after == sent_after
        and time_ms == sent_time
        and earlier.payload.get("status", "") == data.status
        and earlier.reason == data.reason.strip()
    )


def _replay(earlier: Capture, round_: Round, entry: Entry, judge, data: CaptureInput) -> Recorded:
    """Answer a capture sent again as the first time, if it really is the same one."""
    if (
        earlier.round_id != round_.pk
        or earlier.entry_id != entry.pk
        or earlier.judge_id != judge.pk
        or not _same_capture(earlier, data)
    ):
        raise CaptureConflict(_("This capture id was already used for another capture."))
    result = Result.objects.get(round=round_, entry=entry)
    return Recorded(capture=earlier, result=result, created=False)


@transaction.atomic
def seat_set_start(*, seat: Seat, at: datetime) -> Seat:
    """Give one entry a later start of its own (a taped bag cut open by a judge)."""
    locked = round_lock(seat.round)
    if not locked.category.championship.rules.individual_start_times:
        raise RoundStateError(_("These rules give no entry a start of its own."))
    seat = Seat.objects.select_for_update().select_related("heat").get(pk=seat.pk)
    if seat.heat.started_at is None:
        raise RoundStateError(_("The heat has not started yet."))
    if at < seat.heat.started_at:
        raise ValidationError({"at": [_("An own start cannot be before the heat's start.")]})
    if Result.objects.filter(
        round_id=seat.round_id, entry_id=seat.entry_id, confirmed_at__isnull=False
    ).exists():
        raise RoundStateError(_("The entry's time is confirmed: its start can no longer change."))
    if seat.heat.ended_at is not None and at >= seat.heat.ended_at:
        raise ValidationError({"at": [_("Time is already up in this heat.")]})
    seat.started_at = at
    seat.save(update_fields=["started_at"])
    _rederive(seat)
    return seat


def _rederive(seat: Seat) -> None:
    """Re-time an entry's recorded finish from its new start, and re-rank the round."""
    result = Result.objects.filter(round_id=seat.round_id, entry_id=seat.entry_id).first()
    if result is None:
        return
    if Capture.objects.filter(round_id=seat.round_id, entry_id=seat.entry_id).exists():
        round_ = seat.round
        result_derive(
            result,
            round_.total_pieces,
            second_count=round_.category.championship.second_count,
        )
        result.save()
    round_recompute(seat.round)
