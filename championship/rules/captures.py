"""What an entry's captures make of its result: the judges' inputs, folded in the order received.

Terms, as in ``RULES.md`` and ``championship.rules.timing``:

capture
    One tap of a judge's, kept as it was received: a finish ("TIME"), the
    entrant's confirmation, a piece count at time-up, a finish declared with
    misplaced pieces, a did-not-start, a disqualification, a warning, or a head
    judge's correction with its reason.
judged
    The inputs of an entry's result the captures come to: its status, recorded
    time, missing pieces, late last piece, pieces placed, whether the finish was
    declared with misplaced pieces, when the entrant confirmed it and where its
    piece count stands. ``timing.outcome`` makes the outcome of them.
start
    What the captures apply to: nothing, or what an imported document gave the
    result (a restored championship keeps its results; captures apply on top).
two counts
    Where a championship asks for a second count, a piece count at time-up is
    not an input until a second judge counted the same (``agreed``) or a head
    judge's correction gave the count (``decided``). Each count follows the rule
    it was recorded under, whatever the setting became since.

Everything here is plain Python: captures and results are values, instants are
``datetime``, durations integer milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import NamedTuple

from championship.rules import timing

# Kinds of capture (``judging.models.Capture.Kind``).
START = "start"
FINISH = "finish"
CONFIRM = "confirm"
PIECES = "pieces"
INCORRECT = "incorrect"
DNS = "dns"
DSQ = "dsq"
WARNING = "warning"
CORRECTION = "correction"
KINDS = (START, FINISH, CONFIRM, PIECES, INCORRECT, DNS, DSQ, WARNING, CORRECTION)

# Where a result's piece count at time-up stands (``results.models.CountState``); empty
# without a count.
SINGLE = "single"
AWAITING_SECOND = "awaiting_second"
AGREED = "agreed"
DISPUTED = "disputed"
DECIDED = "decided"
COUNT_STATES = (SINGLE, AWAITING_SECOND, AGREED, DISPUTED, DECIDED)
# A count that is not an input yet.
WAITING = (AWAITING_SECOND, DISPUTED)


class Capture(NamedTuple):
    """One capture as the fold reads it.

    A named tuple: an entry's every capture is read for each new one.
    """

    kind: str
    judge: object = None  # who recorded it: any key of a judge (the first two who count decide)
    received_at: datetime | None = None  # when the server received it: a confirmation's instant
    device_at: datetime | None = None  # when the judge tapped, by the phone's clock
    elapsed_ms: int | None = None  # a finish's time, or a correction's (None: unchanged)
    last_piece_ms: int | None = None
    missing_found: int = 0
    missing_lost: int = 0
    adjacent_missing: int = 0
    pieces_placed: int | None = None
    pieces_remaining: int | None = None
    # Of a count: whether a second count was asked for when it was recorded (None: recorded
    # before counts kept their rule).
    second_count: bool | None = None
    status: str = ""  # a correction's status; empty: the status stays


class Start(NamedTuple):
    """When an entry started: its heat's start, and a later start of its own (or ``None``)."""

    heat_started_at: datetime
    own_start: datetime | None = None

    @property
    def at(self) -> datetime:
        """Return the entry's start: its own later start, or the heat's."""
        own = self.own_start
        return own if own is not None and own > self.heat_started_at else self.heat_started_at


@dataclass(frozen=True)
class Judged:
    """The judges' inputs of an entry's result, as its captures make them.

    The fields are named, and ordered, as a stored result's
    (``championship.scoring.JUDGED_FIELDS``).
    """

    status: str = timing.PENDING
    time_ms: int | None = None
    missing_found: int = 0
    missing_lost: int = 0
    adjacent_missing: int = 0
    last_piece_ms: int | None = None
    pieces_placed: int | None = None
    incorrect: bool = False
    confirmed_at: datetime | None = None
    count_state: str = ""


NOTHING = Judged()
# What an import may give of a result's inputs besides its status and confirmation.
IMPORTED_INPUTS = (
    "time_ms",
    "missing_found",
    "missing_lost",
    "adjacent_missing",
    "last_piece_ms",
    "pieces_placed",
    "incorrect",
)


def imported_start(imported: Mapping | None) -> Judged:
    """Return what a result's captures start from: nothing, or what an import gave.

    ``imported`` holds the judged fields as the imported document gave them
    (``Result.imported``: the confirmation as ISO 8601 text). A count that came
    with the import is a single count.
    """
    if not imported:
        return NOTHING
    inputs = {name: imported[name] for name in IMPORTED_INPUTS if name in imported}
    confirmed = imported.get("confirmed_at")
    return replace(
        NOTHING,
        **inputs,
        status=imported.get("status", timing.PENDING),
        confirmed_at=datetime.fromisoformat(confirmed) if confirmed else None,
        count_state=SINGLE if inputs.get("pieces_placed") is not None else "",
    )


def two_counts(counts: Mapping[object, int]) -> tuple[int | None, str]:
    """Return the pieces placed and the count's state from each judge's latest count.

    ``counts`` holds each judge's latest count, in the order they first counted.
    The first two judges who counted decide: the same count is final, different
    counts wait for the head judge; one count waits for a second.
    """
    first_two = list(counts.values())[:2]
    if len(first_two) < 2:
        return None, AWAITING_SECOND
    if first_two[0] == first_two[1]:
        return first_two[0], AGREED
    return None, DISPUTED


def _placed(capture: Capture, pieces: int) -> int:
    """Return a count's pieces placed: as given, or the puzzle's pieces less those remaining."""
    if capture.pieces_placed is not None:
        return capture.pieces_placed
    return pieces - capture.pieces_remaining


def judged(
    captures: Iterable[Capture],
    pieces: int,
    *,
    start: Judged = NOTHING,
    entry_start: Start | None = None,
    second_count: bool = False,
) -> Judged:
    """Return the inputs of an entry's result: its captures, in the order received, on ``start``.

    ``pieces`` is the puzzle's. ``start`` is what the captures apply to
    (``imported_start``). A finish is timed from the entry's start as it is now
    (``entry_start``, when the entry is seated in a heat that started): when a
    later start of its own is set after the tap (the taped bag), the time
    follows it. ``second_count`` is the championship's setting, which a count
    recorded before counts kept their rule follows (one with misplaced pieces
    was a single count then).
    """
    status, confirmed_at, count_state = start.status, start.confirmed_at, start.count_state
    time_ms, last_piece_ms = start.time_ms, start.last_piece_ms
    missing_found, missing_lost = start.missing_found, start.missing_lost
    adjacent_missing = start.adjacent_missing
    pieces_placed, incorrect = start.pieces_placed, start.incorrect
    counts: dict = {}  # each judge's latest count, in the order they first counted
    for capture in captures:
        kind = capture.kind
        if kind == FINISH:
            status, confirmed_at = timing.FINISHED, None
            elapsed, last_piece = capture.elapsed_ms, capture.last_piece_ms
            if entry_start is not None and capture.device_at:
                now_elapsed = timing.elapsed_ms(
                    max(capture.device_at, entry_start.at),
                    entry_start.heat_started_at,
                    entry_start.own_start,
                )
                if last_piece is not None:
                    last_piece -= elapsed - now_elapsed
                elapsed = now_elapsed
            time_ms, last_piece_ms = elapsed, last_piece
            missing_found, missing_lost = capture.missing_found, capture.missing_lost
            adjacent_missing = capture.adjacent_missing
            pieces_placed, incorrect = None, False
            counts, count_state = {}, ""
        elif kind in (PIECES, INCORRECT):
            placed = _placed(capture, pieces)
            asked = capture.second_count
            if asked is None:
                asked = second_count and kind == PIECES
            if asked:
                counts[capture.judge] = placed
                placed, count_state = two_counts(counts)
            else:
                counts, count_state = {}, SINGLE
            pieces_placed = placed
            if kind == INCORRECT:
                # "TIME" declared with misplaced pieces: the time stays on record and the
                # rules rank the entry by its correctly placed pieces.
                incorrect = True
                status = timing.FINISHED if time_ms is not None else timing.UNFINISHED
            else:
                status, incorrect, time_ms = timing.UNFINISHED, False, None
            confirmed_at = None
        elif kind == CONFIRM:
            confirmed_at = capture.received_at
        elif kind in (DNS, DSQ):
            status = kind
        elif kind == CORRECTION:
            target = capture.status or status
            if target in timing.STATUSES:
                status = target
            if capture.elapsed_ms is not None:
                time_ms = capture.elapsed_ms
            missing_found, missing_lost = capture.missing_found, capture.missing_lost
            adjacent_missing = capture.adjacent_missing
            if capture.pieces_placed is not None or capture.pieces_remaining is not None:
                pieces_placed = _placed(capture, pieces)
                # The head judge's count is final, whatever the judges counted.
                counts, count_state = {}, DECIDED
            confirmed_at = confirmed_at or capture.received_at
    if status == timing.FINISHED and time_ms is None:
        status = timing.UNFINISHED if pieces_placed is not None else timing.PENDING
    counted = status == timing.UNFINISHED or incorrect
    if not counted and count_state in WAITING:
        count_state = ""  # a finish or a no-show after all: no count waits
    return Judged(
        status=status,
        time_ms=time_ms,
        missing_found=missing_found,
        missing_lost=missing_lost,
        adjacent_missing=adjacent_missing,
        last_piece_ms=last_piece_ms,
        pieces_placed=pieces_placed,
        incorrect=incorrect,
        confirmed_at=confirmed_at,
        count_state=count_state,
    )
