"""Timing, penalties and validity: what one attempt comes to.

Terms, as in ``RULES.md``:

attempt
    What the judges recorded for one entry in one round: a status, the time the
    judge stopped at "TIME" (from the entry's own start), the pieces missing at
    "TIME" (found later, or lost for good; whether two or more of them were
    adjacent), when a late last piece was placed, and the correctly placed
    pieces of an entry that did not finish.
recorded time
    The judge's time, before penalties, in milliseconds.
penalty
    Seconds per charged missing piece. rogaland charges only the pieces found
    later; sm and dm charge every piece missing at "TIME"; dm charges nothing
    when two or more missing pieces are adjacent (a manufacturing fault).
final time
    The recorded time plus the penalty. dm's late last piece: the judge records
    the time of the second-to-last piece; the final time is the earlier of the
    actual finish and that time plus the penalty.
invalid
    More lost pieces than the preset allows (sm, dm: more than 10).
counted pieces
    For an entry that did not finish: correctly placed pieces, in clusters of
    at least three; given as placed, or as total minus the pieces remaining.
outcome
    ``completed``, ``unfinished``, ``invalid``, ``dns`` (did not start),
    ``dsq`` (disqualified), or ``pending`` while the entry is still puzzling.

Everything here is plain Python; durations are integer milliseconds, ranking
uses whole seconds, truncated.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from championship.rulesets import RuleError, Ruleset

# Statuses a judge's records give an attempt.
PENDING = "pending"
FINISHED = "finished"
UNFINISHED = "unfinished"
DNS = "dns"
DSQ = "dsq"
STATUSES = (PENDING, FINISHED, UNFINISHED, DNS, DSQ)

# Outcomes the rules make of an attempt.
COMPLETED = "completed"
INVALID = "invalid"
OUTCOMES = (COMPLETED, UNFINISHED, INVALID, DNS, DSQ, PENDING)


class AttemptError(RuleError):
    """An attempt whose inputs contradict each other or the puzzle."""


@dataclass(frozen=True)
class Attempt:
    """What the judges recorded for one entry in a round."""

    status: str = PENDING
    time_ms: int | None = None
    missing_found: int = 0
    missing_lost: int = 0
    adjacent_missing: bool = False
    last_piece_ms: int | None = None
    pieces_placed: int | None = None
    pieces_remaining: int | None = None
    incorrect: bool = False


@dataclass(frozen=True)
class Outcome:
    """What an attempt comes to under a ruleset."""

    kind: str
    final_ms: int | None = None
    penalty_ms: int = 0
    counted_pieces: int | None = None

    @property
    def final_seconds(self) -> int | None:
        """Return the final time in whole seconds, truncated."""
        return None if self.final_ms is None else self.final_ms // 1000

    @property
    def penalty_seconds(self) -> int:
        return self.penalty_ms // 1000


def elapsed_ms(
    finished_at: datetime, heat_started_at: datetime, own_start: datetime | None = None
) -> int:
    """Return the time from the entry's start to its finish, in milliseconds.

    Every entrant starts at the host's signal (the heat's start), unless they got
    a later start of their own (rogaland: a taped bag cut open by a judge).
    """
    start = own_start if own_start is not None and own_start > heat_started_at else heat_started_at
    if finished_at < start:
        raise AttemptError("at", "before_start", "the finish cannot come before the start")
    delta = finished_at - start
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def truncate_to_second(ms: int) -> int:
    """Return ``ms`` cut down to the whole second (times are kept in whole seconds)."""
    return ms - ms % 1000


def charged_pieces(attempt: Attempt, rules: Ruleset) -> int:
    """Return how many missing pieces the preset charges a penalty for."""
    if attempt.adjacent_missing and rules.adjacent_missing_waives_penalty:
        return 0
    if rules.penalty_charges == "found":
        return attempt.missing_found
    return attempt.missing_found + attempt.missing_lost


def penalty_ms(attempt: Attempt, rules: Ruleset) -> int:
    """Return the penalty in milliseconds: seconds per charged piece."""
    return charged_pieces(attempt, rules) * rules.penalty_seconds_per_piece * 1000


def is_invalid(attempt: Attempt, rules: Ruleset) -> bool:
    """Return whether more pieces were lost than the preset allows."""
    return rules.max_lost_pieces is not None and attempt.missing_lost > rules.max_lost_pieces


def counted_pieces(attempt: Attempt, total: int) -> int | None:
    """Return the correctly placed pieces, as placed or as total minus remaining.

    Return ``None`` when neither was recorded yet.
    """
    if attempt.pieces_placed is not None:
        counted = attempt.pieces_placed
        field = "pieces_placed"
    elif attempt.pieces_remaining is not None:
        if not 0 <= attempt.pieces_remaining <= total:
            raise AttemptError(
                "pieces_remaining",
                "pieces_out_of_range",
                f"must be between 0 and {total}, not {attempt.pieces_remaining}",
            )
        counted = total - attempt.pieces_remaining
        field = "pieces_remaining"
    else:
        return None
    if not 0 <= counted <= total:
        raise AttemptError(
            field, "pieces_out_of_range", f"must be between 0 and {total}, not {counted}"
        )
    return counted


def validate(attempt: Attempt, total: int) -> None:
    """Raise ``AttemptError`` for inputs that cannot be true of any attempt."""
    if attempt.status not in STATUSES:
        raise AttemptError("status", "unknown_status", f'unknown status "{attempt.status}"')
    for field in ("missing_found", "missing_lost"):
        value = getattr(attempt, field)
        if value < 0:
            raise AttemptError(field, "negative", f"cannot be negative, not {value}")
    if attempt.missing_found + attempt.missing_lost > total:
        raise AttemptError(
            "missing_lost", "pieces_out_of_range", f"more pieces missing than the puzzle's {total}"
        )
    for field in ("time_ms", "last_piece_ms"):
        value = getattr(attempt, field)
        if value is not None and value < 0:
            raise AttemptError(field, "negative", f"cannot be negative, not {value}")
    if attempt.status == FINISHED and attempt.time_ms is None:
        raise AttemptError("time_ms", "time_required", "a finished attempt needs a time")
    if (
        attempt.last_piece_ms is not None
        and attempt.time_ms is not None
        and attempt.last_piece_ms < attempt.time_ms
    ):
        raise AttemptError(
            "last_piece_ms", "before_recorded_time", "the last piece cannot come before the time"
        )
    counted_pieces(attempt, total)


def outcome(attempt: Attempt, rules: Ruleset, total: int) -> Outcome:
    """Return what ``attempt`` comes to under ``rules`` for a puzzle of ``total`` pieces."""
    validate(attempt, total)
    if attempt.status in (DNS, DSQ, PENDING):
        return Outcome(attempt.status)
    if attempt.status == FINISHED and attempt.incorrect and rules.misplaced_finish_is_unfinished:
        # sm: "TIME" with misplaced pieces is not a completed puzzle.
        return _unfinished(attempt, total)
    if attempt.status == UNFINISHED:
        return _unfinished(attempt, total)
    if is_invalid(attempt, rules):
        return Outcome(INVALID, counted_pieces=counted_pieces(attempt, total))
    recorded = truncate_to_second(attempt.time_ms)
    penalty = penalty_ms(attempt, rules)
    final = recorded + penalty
    if rules.late_last_piece_seconds is not None and attempt.last_piece_ms is not None:
        actual = truncate_to_second(attempt.last_piece_ms)
        if actual <= final:
            # The last piece was placed in time: the actual finish stands, without penalty.
            return Outcome(COMPLETED, final_ms=actual, penalty_ms=0)
    return Outcome(COMPLETED, final_ms=final, penalty_ms=penalty)


def _unfinished(attempt: Attempt, total: int) -> Outcome:
    counted = counted_pieces(attempt, total)
    if counted is None:
        # Not counted yet: the entry has no place until the judge records the pieces.
        return Outcome(PENDING)
    return Outcome(UNFINISHED, counted_pieces=counted)
