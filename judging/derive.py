"""A result as the captures make it: the recorded attempt, its outcome by the rules, and what a
new capture may still change."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championship.models import ChampionshipRole, Round, Seat
from championship.permissions import has_role
from championship.rules import timing
from judging.capture_kinds import (
    COUNT_KINDS,
    RECORDED,
    RECORDING_KINDS,
    CaptureConflict,
    CaptureInput,
    Kind,
)
from judging.models import Capture
from results.models import CountState, Result

IMPORTED = object()
TIME_UP_CHANGE = gettext_lazy(
    "Time is up: a recorded result changes only by a head judge's correction, with a reason."
)
COUNT_AWAITED = gettext_lazy(
    "The count is not final yet: a second judge counts the pieces first, without seeing it."
)
COUNTS_DIFFER = gettext_lazy(
    "The two judges' counts differ: the head judge decides the count, with a reason."
)
COUNT_AGREED = gettext_lazy(
    "Two judges counted the same: only a head judge's correction, with a reason, changes it."
)


def _recorder(result: Result):
    """Return who recorded the result's time or count: a judge's id, ``IMPORTED`` or ``None``."""
    if result.pk is None or result.status not in RECORDED:
        return None
    last = (
        Capture.objects.filter(
            round=result.round_id, entry=result.entry_id, kind__in=RECORDING_KINDS
        )
        .order_by("-received_at", "-id")
        .select_related("judge")
        .first()
    )
    if last is None:
        return IMPORTED if result.imported else None
    return last


def _later_round_seated(round_: Round) -> bool:
    return Round.objects.filter(
        category=round_.category_id, order__gt=round_.order, seats__isnull=False
    ).exists()


def check_against_result(
    data: CaptureInput, result: Result, judge, *, seat: Seat, round_: Round, now: datetime
) -> None:
    """Refuse what would change a result that is no longer the judge's to change.

    A judge records an entry's result and shows it to the entrant, who confirms
    it; until then the judge who recorded it may still amend it, and only that
    judge (or a head judge) has the entrant confirm it. Nobody else overwrites
    it but a head judge, with a correction and its reason. Once the entry's
    time is up (or the round is closed), captures still complete a result (a
    finish tapped in time and delivered late, its missing pieces, the piece
    count at time-up, which its judge may count again until the entrant
    confirms it, a confirmation, a no-show) but no capture changes a recorded
    one except a head judge's correction. Once a later round is seated from
    this one's results, no capture of any kind changes them. Where two judges
    count (``Championship.second_count``), a count with misplaced pieces
    (``incorrect``) waits for the second count as a plain count does.
    """
    kind = data.kind
    recorded = result.status in RECORDED
    time_up = round_.state in (Round.State.CLOSED, Round.State.PUBLISHED) or (
        seat.time_up_at is not None and now >= seat.time_up_at
    )
    if kind == Kind.WARNING:
        return
    if kind != Kind.CONFIRM and _later_round_seated(round_):
        raise CaptureConflict(
            _("The next round is seated from this round's results: they can no longer change.")
        )
    if kind == Kind.CORRECTION:
        return
    if round_.state == Round.State.PUBLISHED and kind != Kind.CONFIRM:
        raise CaptureConflict(
            _(
                "The results are official: only a head judge's correction, with a reason, "
                "changes them."
            )
        )
    if kind in (Kind.DNS, Kind.DSQ):
        if kind == Kind.DNS and recorded:
            raise CaptureConflict(
                _("This entry has a recorded result: correct it instead, with a reason.")
            )
        if time_up and result.status != Result.Status.PENDING:
            raise CaptureConflict(TIME_UP_CHANGE)
        return
    if result.confirmed_at is not None:
        raise CaptureConflict(
            _("The result is confirmed: only a head judge can correct it, with a reason.")
        )
    count = result.count_state
    if kind == Kind.CONFIRM and count == CountState.AWAITING_SECOND:
        raise CaptureConflict(COUNT_AWAITED)
    if (kind == Kind.CONFIRM or kind in COUNT_KINDS) and count == CountState.DISPUTED:
        raise CaptureConflict(COUNTS_DIFFER)
    if kind in COUNT_KINDS and count == CountState.AGREED:
        raise CaptureConflict(COUNT_AGREED)
    if kind == Kind.CONFIRM:
        if not recorded:
            raise ValidationError({"kind": [_("There is no time or piece count to confirm.")]})
        _check_confirmer(result, judge, round_)
        return
    if result.status in (Result.Status.DNS, Result.Status.DSQ):
        raise CaptureConflict(_("The entry did not start or is disqualified."))
    if result.entry.walkover_at is not None:
        raise CaptureConflict(_("The entry is a walk-over: it is disqualified and takes no part."))
    if kind in COUNT_KINDS and count == CountState.AWAITING_SECOND:
        # The first judge may recount; any other judge's count is the second count.
        return
    if not recorded:
        return
    recorder = _recorder(result)
    if recorder is IMPORTED:
        raise CaptureConflict(
            _("This entry's result was imported: only a head judge can correct it, with a reason.")
        )
    if recorder is not None and recorder.judge_id != judge.pk:
        raise CaptureConflict(
            _("%(judge)s already recorded this entry's result: only a head judge can change it.")
            % {"judge": recorder.judge.get_username()}
        )
    if not time_up:
        return
    # Time is up: the judge may still complete their own record, not replace it.
    has_time = result.time_ms is not None
    same_tap = (
        kind == Kind.FINISH
        and recorder is not None
        and recorder.kind == Kind.FINISH
        and recorder.device_at == data.at
    )
    if same_tap or kind == Kind.INCORRECT or (kind == Kind.PIECES and not has_time):
        return
    raise CaptureConflict(TIME_UP_CHANGE)


def _check_confirmer(result: Result, judge, round_: Round) -> None:
    """Refuse a confirmation by a judge who recorded nothing of the result.

    The entrant confirms what their own judge shows them: the judge who timed or
    counted them (either of two judges who counted the same), or a head judge.
    An imported result has no judge of its own: any judge shows it.
    """
    if has_role(judge, round_.championship, ChampionshipRole.Role.HEAD_JUDGE):
        return
    own = Capture.objects.filter(
        round=result.round_id, entry=result.entry_id, kind__in=RECORDING_KINDS, judge=judge.pk
    ).exists()
    if own:
        return
    recorder = _recorder(result)
    if recorder is IMPORTED or recorder is None:
        # No judge recorded it here (a restored championship): any judge shows it.
        return
    raise CaptureConflict(
        _(
            "%(judge)s recorded this entry's result: only they, or a head judge, have the "
            "entrant confirm it."
        )
        % {"judge": recorder.judge.get_username()}
    )


def _baseline(result: Result) -> tuple[str, datetime | None, dict]:
    """Return where a result's captures start from: nothing, or what an import gave."""
    fields = {
        "time_ms": None,
        "missing_found": 0,
        "missing_lost": 0,
        "adjacent_missing": 0,
        "last_piece_ms": None,
        "pieces_placed": None,
        "incorrect": False,
    }
    imported = result.imported
    if not imported:
        return Result.Status.PENDING, None, fields
    fields.update({name: imported[name] for name in fields if name in imported})
    confirmed = imported.get("confirmed_at")
    return (
        imported.get("status", Result.Status.PENDING),
        datetime.fromisoformat(confirmed) if confirmed else None,
        fields,
    )


def _two_counts(counts: dict[int, int]) -> tuple[int | None, str]:
    """Return the pieces placed and the count's state from each judge's latest count.

    The first two judges who counted decide: the same count is final, different
    counts wait for the head judge; one count waits for a second.
    """
    first_two = list(counts.values())[:2]
    if len(first_two) < 2:
        return None, CountState.AWAITING_SECOND
    if first_two[0] == first_two[1]:
        return first_two[0], CountState.AGREED
    return None, CountState.DISPUTED


def result_derive(
    result: Result,
    pieces: int,
    *,
    seat: Seat | None = None,
    second_count: bool = False,
    captures: list[Capture] | None = None,
) -> Result:
    """Set a result's inputs from its captures, in the order they were received.

    The captures apply to what an import gave the result (a restored
    championship keeps its results), or to nothing. A finish is timed from the
    entry's start as it is now: when a later start of its own is set after the
    tap (the taped bag), the time follows it. ``seat`` is the entry's seat in the
    round, with its heat, when the caller has it at hand.

    With ``second_count`` (``Championship.second_count``) a piece count at
    time-up is not an input until a second judge counted the same
    (``agreed``), or a head judge's correction gave the count (``decided``):
    until then the result has no pieces placed, and no place. Each count
    follows the rule it was recorded under (``Capture.second_count``): switching
    the setting changes the counts recorded from then on, not those before.

    ``captures``: the entry's captures in the round, in the order received,
    when the caller knows them all (the first capture of a new result).
    """
    if captures is None:
        captures = Capture.objects.filter(round=result.round_id, entry=result.entry_id).order_by(
            "received_at", "id"
        )
    if seat is None:
        seat = (
            Seat.objects.select_related("heat__round__category")
            .filter(round_id=result.round_id, entry_id=result.entry_id)
            .first()
        )
    status, confirmed_at, fields = _baseline(result)
    count_state = CountState.SINGLE if fields["pieces_placed"] is not None else ""
    counts: dict[int, int] = {}  # each judge's latest count, in the order they first counted
    for capture in captures:
        kind = capture.kind
        if kind == Kind.FINISH:
            status, confirmed_at = Result.Status.FINISHED, None
            elapsed, last_piece = capture.elapsed_ms, capture.last_piece_ms
            if seat is not None and capture.device_at and seat.heat.started_at:
                now_elapsed = timing.elapsed_ms(
                    max(capture.device_at, seat.start), seat.heat.started_at, seat.started_at
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
            counts, count_state = {}, ""
        elif kind in (Kind.PIECES, Kind.INCORRECT):
            placed = (
                capture.pieces_placed
                if capture.pieces_placed is not None
                else pieces - capture.pieces_remaining
            )
            asked = capture.second_count
            if asked is None:
                # A count recorded before counts kept their rule follows the setting; a count
                # with misplaced pieces was a single count then.
                asked = second_count and kind == Kind.PIECES
            if asked:
                counts[capture.judge_id] = placed
                placed, count_state = _two_counts(counts)
            else:
                counts, count_state = {}, CountState.SINGLE
            fields["pieces_placed"] = placed
            if kind == Kind.INCORRECT:
                # "TIME" declared with misplaced pieces: the time stays on record and the
                # rules rank the entry by its correctly placed pieces.
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
                # The head judge's count is final, whatever the judges counted.
                counts, count_state = {}, CountState.DECIDED
            confirmed_at = confirmed_at or capture.received_at
    if status == Result.Status.FINISHED and fields["time_ms"] is None:
        has_count = fields["pieces_placed"] is not None
        status = Result.Status.UNFINISHED if has_count else Result.Status.PENDING
    waiting = (CountState.AWAITING_SECOND, CountState.DISPUTED)
    counted = status == Result.Status.UNFINISHED or fields["incorrect"]
    if not counted and count_state in waiting:
        count_state = ""  # a finish or a no-show after all: no count waits
    result.status, result.confirmed_at = status, confirmed_at
    result.count_state = count_state
    for name, value in fields.items():
        setattr(result, name, value)
    return result
