"""What a capture is: its kinds, who may send each, the fields each keeps as received, the
input a service takes, and the refusals it may raise."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from judging.models import Capture
from results.models import Result

Kind = Capture.Kind

# How far ahead of the server's clock a tap may be (phones' clocks are corrected
# by the measured offset; what remains is network jitter). A tap is judged by the
# instant it was made, never by when it arrives: a phone that was offline may
# deliver a tap made in time long after the time limit.
FUTURE_TOLERANCE = timedelta(seconds=10)

JUDGE_KINDS = {Kind.FINISH, Kind.CONFIRM, Kind.PIECES, Kind.INCORRECT}
HEAD_JUDGE_KINDS = {Kind.CORRECTION, Kind.DNS, Kind.DSQ, Kind.WARNING}
# Kinds that record a time or a count: the entry's result as a judge recorded it.
RECORDING_KINDS = (Kind.FINISH, Kind.PIECES, Kind.INCORRECT)
# Kinds that count the correctly placed pieces (with misplaced pieces: ``incorrect``); where
# two judges count, each goes through the two-count rule (``judging.derive``).
COUNT_KINDS = (Kind.PIECES, Kind.INCORRECT)
RECORDED = (Result.Status.FINISHED, Result.Status.UNFINISHED)

# What the phone sends for each kind of capture: what a capture keeps "as received".
CAPTURE_FIELDS = ("id", "round", "entry", "kind", "at")
COUNT_FIELDS = ("missing_found", "missing_lost", "adjacent_missing")
PIECE_FIELDS = ("pieces_placed", "pieces_remaining")
KIND_FIELDS = {
    Kind.FINISH: (*COUNT_FIELDS, "last_piece_at"),
    Kind.CONFIRM: (),
    Kind.PIECES: (*PIECE_FIELDS, *COUNT_FIELDS),
    Kind.INCORRECT: (*PIECE_FIELDS, *COUNT_FIELDS),
    Kind.CORRECTION: ("time", "status", *COUNT_FIELDS, *PIECE_FIELDS),
    Kind.DNS: (),
    Kind.DSQ: (),
    Kind.WARNING: (),
}


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
    adjacent_missing: int = 0
    last_piece_at: datetime | None = None
    pieces_placed: int | None = None
    pieces_remaining: int | None = None
    time_ms: int | None = None
    status: str = ""
    reason: str = ""
    # The capture as the phone sent it; only the fields of its kind are kept (``kept_payload``).
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
