"""Timing, penalties and validity: what one attempt comes to.

Terms, as in ``RULES.md``:

attempt
    What the judges recorded for one entry in one round: a status, the time the
    judge stopped at "TIME" (from the entry's own start), the pieces missing at
    "TIME" (found later, or lost for good, and how many of the lost ones were
    adjacent), when a late last piece was placed, and the correctly placed
    pieces of an entry that did not finish.
time limit
    The round's minutes, from the entry's own start (rogaland's taped bag moves
    the limit with the start). "TIME" at or before the limit, in whole seconds,
    completes the puzzle; "TIME" after it does not: the entry is ranked by its
    counted pieces, like every entry that did not finish.
time called
    When the organiser calls time before the limit, the heat's time is over at
    that moment: the entry's time allowed is the shorter of the limit and the
    time from the heat's start to the call (an own start keeps its delay: the
    entry has as long from its own start). "TIME" after it is not a completion
    either, whether a judge taps it or an imported document holds it
    (``time_allowed_ms``: the one check the phone, the API and the import apply).
recorded time
    The judge's time, before penalties, in milliseconds.
penalty
    Seconds per charged missing piece. rogaland charges only the pieces found
    later; sm and dm charge every piece missing at "TIME", except (dm) the
    adjacent pieces: two or more missing side by side that never turned up (a
    manufacturing fault). A penalty may take the final time past the limit.
final time
    The recorded time plus the penalty. dm's late last piece: "TIME" is called
    with the last piece missing and the judge records the time of the
    second-to-last piece; when the last piece is placed within the search window
    (10 s) the actual finish stands, after it the recorded time plus the penalty.
last piece
    A missing piece that turned up: it counts among the pieces missing at "TIME"
    and found later, and is charged as one (rogaland 5 s; dm 10 s unless placed
    within the window, which waives that one piece and no other). A last-piece
    time with no piece missing and found later is a contradiction, refused.
invalid
    Too many missing pieces (sm, dm: more than 10). sm has no "found later" (no
    change after "TIME"): every piece missing at "TIME" counts; dm counts the
    pieces lost for good.
counted pieces
    For an entry that did not complete the puzzle: correctly placed pieces, in
    clusters of at least three; given as placed, or as total minus the pieces
    remaining. A judge's count at time-up is 0 or from the cluster size up to
    total - 1 (``judge_count``): a complete puzzle is a finish. A result may
    still carry every piece: a puzzle completed after the final signal, as
    published result lists show it (WJPC 2024: "500" in 500-piece rounds),
    ranked first among those that did not finish.
not completed
    "TIME" after the limit, or "TIME" with pieces placed wrongly (every preset):
    ranked among the unfinished by the counted pieces, with no place until they
    are counted.
outcome
    ``completed``, ``unfinished``, ``invalid``, ``dns`` (did not start),
    ``dsq`` (disqualified), or ``pending`` while the entry is still puzzling
    (or its pieces are still to be counted).

Everything here is plain Python; durations are integer milliseconds, ranking
uses whole seconds, truncated. ``static/judging/rules.js`` applies the same
rules on the judge's phone; ``tests/data/rules/outcomes.json`` holds the cases
both must agree on.
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
    adjacent_missing: int = 0
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


def within_limit(time_ms: int, time_limit_ms: int | None) -> bool:
    """Return whether "TIME" at ``time_ms`` (from the entry's start) is at or before the limit."""
    return time_limit_ms is None or truncate_to_second(time_ms) <= time_limit_ms


def time_allowed_ms(time_limit_ms: int | None, time_called_ms: int | None = None) -> int | None:
    """Return how long an attempt may run, from the entry's own start, in milliseconds.

    The round's time limit, or less where the organiser called time early: the
    heat's time is over at ``time_called_ms`` after the heat's start. An entry
    with a later start of its own keeps its delay (it has as long from its own
    start). ``None``: no limit and no call.
    """
    if time_called_ms is None:
        return time_limit_ms
    if time_limit_ms is None:
        return time_called_ms
    return min(time_limit_ms, time_called_ms)


def called_ms(heat_started_at: datetime | None, heat_ended_at: datetime | None) -> int | None:
    """Return when time was called in a heat, in milliseconds after its start (None: not yet)."""
    if heat_started_at is None or heat_ended_at is None:
        return None
    return elapsed_ms(heat_ended_at, heat_started_at)


def adjacent_count(value: int | bool, missing_lost: int) -> int:
    """Return the adjacent lost pieces from a count, or from a yes/no of an earlier format.

    Version 1 of the interchange format (and phones of an earlier release) said
    only whether the missing pieces were adjacent: yes means all the lost pieces
    (when at least two were lost), no means none.
    """
    if isinstance(value, bool):
        return missing_lost if value and missing_lost >= 2 else 0
    return value


def charged_pieces(attempt: Attempt, rules: Ruleset) -> int:
    """Return how many missing pieces the preset charges a penalty for."""
    if rules.penalty_charges == "found":
        return attempt.missing_found
    charged = attempt.missing_found + attempt.missing_lost
    if rules.adjacent_missing_waives_penalty:
        # dm: only the adjacent pieces that never turned up are a manufacturing fault.
        charged -= attempt.adjacent_missing
    return charged


def penalty_ms(attempt: Attempt, rules: Ruleset) -> int:
    """Return the penalty in milliseconds: seconds per charged piece."""
    return charged_pieces(attempt, rules) * rules.penalty_seconds_per_piece * 1000


def counted_missing(attempt: Attempt, rules: Ruleset) -> int:
    """Return the missing pieces that the limit on missing pieces counts.

    Where pieces can be found later (rogaland, dm) the pieces lost for good; where
    they cannot (sm: no change after "TIME"), every piece missing at "TIME".
    """
    if rules.pieces_found_later:
        return attempt.missing_lost
    return attempt.missing_found + attempt.missing_lost


def is_invalid(attempt: Attempt, rules: Ruleset) -> bool:
    """Return whether more pieces are missing than the preset allows."""
    return rules.max_lost_pieces is not None and counted_missing(attempt, rules) > (
        rules.max_lost_pieces
    )


def plausible_count(counted: int, total: int, cluster_min: int, *, whole: bool = False) -> bool:
    """Return whether ``counted`` correctly placed pieces can be true of a puzzle not completed.

    Pieces count in clusters of at least ``cluster_min`` (3): 0, or from
    ``cluster_min`` up. A judge's count at time-up stops at ``total`` - 1 (a
    complete puzzle is a finish); with ``whole``, a result may count every
    piece: a puzzle completed after the final signal (``may_count_whole``).
    """
    most = total if whole else total - 1
    return counted == 0 or cluster_min <= counted <= most


def may_count_whole(attempt: Attempt, *, judge_count: bool = False) -> bool:
    """Return whether a result may count every piece of the puzzle.

    A puzzle completed after the final signal (the time limit, or time called)
    is not a completion, and is ranked by its pieces: all of them, first among
    those that did not finish. Published result lists show it so (WJPC 2024:
    "500" in a 500-piece round), whether the judges recorded a late "TIME" or
    the count. Never for a judge's count at time-up (``judge_count``), nor for a
    puzzle with misplaced pieces (they do not count).
    """
    return not judge_count and not attempt.incorrect


def counted_pieces(
    attempt: Attempt, total: int, cluster_min: int = 3, *, judge_count: bool = False
) -> int | None:
    """Return the correctly placed pieces, as placed or as total minus remaining.

    Return ``None`` when neither was recorded yet; raise ``AttemptError`` for a
    count that cannot be true (see ``plausible_count``). ``judge_count``: the
    count is a judge's at time-up, which stops at ``total`` - 1.
    """
    if attempt.pieces_placed is not None:
        counted = attempt.pieces_placed
        field = "pieces_placed"
    elif attempt.pieces_remaining is not None:
        counted = total - attempt.pieces_remaining
        field = "pieces_remaining"
    else:
        return None
    whole = may_count_whole(attempt, judge_count=judge_count)
    if not plausible_count(counted, total, cluster_min, whole=whole):
        shown = counted if field == "pieces_placed" else attempt.pieces_remaining
        if field == "pieces_placed":
            bounds = f"0, or from {cluster_min} to {total if whole else total - 1}"
        else:
            bounds = f"{total}, or from {0 if whole else 1} to {total - cluster_min}"
        raise AttemptError(field, "pieces_implausible", f"must be {bounds}, not {shown}")
    return counted


def validate(
    attempt: Attempt, total: int, cluster_min: int = 3, *, judge_count: bool = False
) -> None:
    """Raise ``AttemptError`` for inputs that cannot be true of any attempt.

    ``judge_count``: the pieces are a judge's count at time-up (at most total - 1).
    """
    if attempt.status not in STATUSES:
        raise AttemptError("status", "unknown_status", f'unknown status "{attempt.status}"')
    for field in ("missing_found", "missing_lost", "adjacent_missing"):
        value = getattr(attempt, field)
        if value < 0:
            raise AttemptError(field, "negative", f"cannot be negative, not {value}")
    if attempt.missing_found + attempt.missing_lost > total:
        raise AttemptError(
            "missing_lost", "pieces_out_of_range", f"more pieces missing than the puzzle's {total}"
        )
    if attempt.adjacent_missing > attempt.missing_lost:
        raise AttemptError(
            "adjacent_missing",
            "adjacent_over_lost",
            f"{attempt.adjacent_missing} adjacent pieces, but only {attempt.missing_lost} lost",
        )
    if attempt.adjacent_missing == 1:
        raise AttemptError(
            "adjacent_missing", "adjacent_alone", "adjacent means two or more side by side, not 1"
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
    if attempt.last_piece_ms is not None and attempt.missing_found == 0:
        # A last piece is a missing piece that turned up: it is charged as one found later.
        raise AttemptError(
            "last_piece_ms",
            "last_piece_not_missing",
            "a last piece was placed after TIME, but no piece was missing at TIME and found "
            "later (missing_found is 0)",
        )
    if attempt.pieces_remaining is not None and not 0 <= attempt.pieces_remaining <= total:
        raise AttemptError(
            "pieces_remaining",
            "pieces_out_of_range",
            f"must be between 0 and {total}, not {attempt.pieces_remaining}",
        )
    counted_pieces(attempt, total, cluster_min, judge_count=judge_count)


def outcome(
    attempt: Attempt,
    rules: Ruleset,
    total: int,
    *,
    time_limit_ms: int | None = None,
    time_called_ms: int | None = None,
    judge_count: bool = False,
) -> Outcome:
    """Return what ``attempt`` comes to under ``rules`` for a puzzle of ``total`` pieces.

    ``time_limit_ms`` is the round's time limit, from the entry's own start
    (``None``: no limit is checked); ``time_called_ms``, when the organiser
    called time in the entry's heat, after the heat's start (``time_allowed_ms``);
    ``judge_count``: the pieces are a judge's count at time-up (``validate``).
    """
    cluster_min = rules.counted_cluster_min_pieces
    validate(attempt, total, cluster_min, judge_count=judge_count)
    if attempt.status in (DNS, DSQ, PENDING):
        return Outcome(attempt.status)
    if attempt.status == UNFINISHED:
        return _unfinished(attempt, total, cluster_min)
    if attempt.incorrect and rules.misplaced_finish_is_unfinished:
        # "TIME" with misplaced pieces is not a completed puzzle.
        return _unfinished(attempt, total, cluster_min)
    if not within_limit(attempt.time_ms, time_allowed_ms(time_limit_ms, time_called_ms)):
        # "TIME" after the limit, or after time was called, is not a completion: ranked
        # by the counted pieces.
        return _unfinished(attempt, total, cluster_min)
    if is_invalid(attempt, rules):
        return Outcome(INVALID, counted_pieces=counted_pieces(attempt, total, cluster_min))
    recorded = truncate_to_second(attempt.time_ms)
    penalty = penalty_ms(attempt, rules)
    if _last_piece_in_window(attempt, rules):
        # dm: the last piece was placed within the search window: the actual finish
        # stands, and that piece costs nothing (any other missing piece still does).
        waived = min(1, attempt.missing_found) * rules.penalty_seconds_per_piece * 1000
        kept = max(penalty - waived, 0)
        return Outcome(
            COMPLETED, final_ms=truncate_to_second(attempt.last_piece_ms) + kept, penalty_ms=kept
        )
    return Outcome(COMPLETED, final_ms=recorded + penalty, penalty_ms=penalty)


def _last_piece_in_window(attempt: Attempt, rules: Ruleset) -> bool:
    """Return whether dm's late last piece was placed within the search window after "TIME"."""
    window = rules.late_last_piece_seconds
    if window is None or attempt.last_piece_ms is None:
        return False
    searched = truncate_to_second(attempt.last_piece_ms) - truncate_to_second(attempt.time_ms)
    return searched <= window * 1000


def _unfinished(attempt: Attempt, total: int, cluster_min: int) -> Outcome:
    counted = counted_pieces(attempt, total, cluster_min)
    if counted is None:
        # Not counted yet: the entry has no place until the judge records the pieces.
        return Outcome(PENDING)
    return Outcome(UNFINISHED, counted_pieces=counted)
