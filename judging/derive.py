"""A result as the captures make it, and what a new capture may still change.

The rulebook folds an entry's captures into its result's inputs
(``championship.rules.captures``); here the stored captures and results are
read as its values and written back, and a new capture is checked against the
result as it stands: who recorded it, whether time is up, whether the round's
results are official or a later round is seated from them.
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championship.models import ChampionshipRole, Round, Seat
from championship.permissions import has_role
from championship.rules import captures as capture_rules
from championship.scoring import JUDGED_FIELDS
from core.people import person_name
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
            % {"judge": person_name(recorder.judge)}
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
        % {"judge": person_name(recorder.judge)}
    )


def capture_value(capture: Capture) -> capture_rules.Capture:
    """Return a stored capture as the rulebook's fold reads it (``capture_rules.judged``)."""
    correction = capture.kind == Kind.CORRECTION
    return capture_rules.Capture(
        kind=capture.kind,
        judge=capture.judge_id,
        received_at=capture.received_at,
        device_at=capture.device_at,
        elapsed_ms=capture.elapsed_ms,
        last_piece_ms=capture.last_piece_ms,
        missing_found=capture.missing_found,
        missing_lost=capture.missing_lost,
        adjacent_missing=capture.adjacent_missing,
        pieces_placed=capture.pieces_placed,
        pieces_remaining=capture.pieces_remaining,
        second_count=capture.second_count,
        status=(capture.payload.get("status") or "") if correction else "",
    )


def result_derive(
    result: Result,
    pieces: int,
    *,
    seat: Seat | None = None,
    second_count: bool = False,
    captures: list[Capture] | None = None,
) -> Result:
    """Set a result's inputs from its captures, in the order they were received.

    The rulebook folds them (``championship.rules.captures.judged``): on what an
    import gave the result (``Result.imported``), or on nothing; a finish timed
    from the entry's start as it is now; each piece count by the rule it was
    recorded under, ``second_count`` (``Championship.second_count``) for those
    recorded before counts kept their rule. ``seat`` is the entry's seat in the
    round, with its heat, when the caller has it at hand.

    ``captures``: the entry's captures in the round, in the order received,
    when the caller knows them all (the first capture of a new result).
    """
    if captures is None:
        captures = Capture.objects.filter(round=result.round_id, entry=result.entry_id).order_by(
            "received_at", "id"
        )
    if seat is None:
        seat = (
            Seat.objects.select_related("heat")
            .filter(round_id=result.round_id, entry_id=result.entry_id)
            .first()
        )
    entry_start = None
    if seat is not None and seat.heat.started_at is not None:
        entry_start = capture_rules.Start(seat.heat.started_at, seat.started_at)
    judged = capture_rules.judged(
        [capture_value(capture) for capture in captures],
        pieces,
        start=capture_rules.imported_start(result.imported),
        entry_start=entry_start,
        second_count=second_count,
    )
    for name in JUDGED_FIELDS:
        setattr(result, name, getattr(judged, name))
    return result
