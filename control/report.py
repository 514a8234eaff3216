"""The round report: whether a round was fair to every heat and every part of the venue.

After time-up the organiser and the head judges look for what stands out: a heat
that puzzled clearly slower than the others, a row of tables where many puzzles
missed pieces, a heat that started late. The terms:

bucket
    A set of the round's seated entrants, compared with the others: a heat, or a
    group of tables (``Table.group``: the rows of the venue, as the organiser
    names them). Tables without a group form one bucket; when no seated table
    has a group, the report has no groups at all.
finished
    An entry whose outcome is *completed*. Its time is its final time (the
    recorded time plus penalties), as the standings rank it.
spread
    Of the finished entries' final times: the median, the quartiles around it
    (the interquartile range holds the middle half of the times) and the
    fastest and slowest.
finish curve
    How many of a bucket's entrants had finished, against the minutes from
    their start (by final time).
missing-piece report
    A result with a piece missing at TIME (found later or lost for good). Under
    dm's rules an adjacent-piece report (pieces lost side by side, which costs
    nothing) points at a faulty batch rather than at the entrant.
late start
    A heat that started after its scheduled start; an entrant's own start,
    later than the heat's (a taped bag a judge cut open).
correction
    A head judge's correction of a result (a capture of kind *correction*).
flag
    What stands out, with its figures; ``Thresholds`` says when.

``round_report`` reads a round in four queries and builds a ``RoundReport``; the
figures are worked out in ``control.report_figures``, on plain values.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from championship.models import Heat, Round, Seat
from control.report_figures import (
    MINUTE_MS,
    Attempt,
    Summary,
    checkpoints,
    median_ms,
    summarise,
)
from core.l10n import format_duration
from core.people import full_name
from judging.models import Capture
from results.models import Result

# Thresholds ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Thresholds:
    """When something in a round stands out enough to be flagged.

    A heat's time: its median final time differs from the median of the other
    heats' medians by more than ``heat_share`` of that reference *and* by more
    than ``heat_minimum_ms`` (a share alone would flag two minutes in a fast
    round, a margin alone would flag noise in a slow one). Only heats with at
    least ``heat_finished`` finished entries count, and only when there are two
    such heats or more. With exactly two, each is the other's reference: their
    difference is flagged once, at the slower heat. The median of medians keeps
    one odd heat from moving the reference of the others.

    A group's missing pieces: at least ``missing_reports`` of its entrants
    reported a missing piece, and the share of its seated entrants who did is at
    least ``missing_factor`` times the round's share.

    A heat's start: it started ``late_start`` or more after its scheduled start.
    """

    heat_share: float = 0.15
    heat_minimum_ms: int = 2 * MINUTE_MS
    heat_finished: int = 3
    missing_factor: float = 2.0
    missing_reports: int = 3
    late_start: timedelta = timedelta(minutes=5)


THRESHOLDS = Thresholds()


# Flags -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Flag:
    """Something that stands out in the round, with the figures that show it."""

    SLOWER = "slower"
    FASTER = "faster"
    MISSING_PIECES = "missing_pieces"
    LATE_START = "late_start"

    kind: str
    subject: str  # the heat's key or the group's name
    label: str
    figures: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        """Return the flag as a sentence with its figures, in the active language."""
        figures = {"name": self.label, **self.figures}
        if self.kind in (self.SLOWER, self.FASTER):
            values = {
                **figures,
                "median": format_duration(figures["median_ms"]),
                "reference": format_duration(figures["reference_ms"]),
                "difference": format_duration(abs(figures["difference_ms"])),
            }
            if self.kind == self.SLOWER:
                return (
                    _(
                        "%(name)s: the median time %(median)s is %(difference)s (%(percent)s %%) "
                        "slower than the other heats’ %(reference)s."
                    )
                    % values
                )
            return (
                _(
                    "%(name)s: the median time %(median)s is %(difference)s (%(percent)s %%) "
                    "faster than the other heats’ %(reference)s."
                )
                % values
            )
        if self.kind == self.MISSING_PIECES:
            text = (
                _(
                    "%(name)s: %(reports)s of %(seated)s entrants reported missing pieces "
                    "(%(percent)s %%, %(pieces)s pieces), "
                    "against %(round_percent)s %% in the round."
                )
                % figures
            )
            if figures.get("adjacent_reports"):
                text += " " + (
                    _("%(adjacent_reports)s of them lost adjacent pieces: a faulty batch?")
                    % figures
                )
            return text
        return _(
            "%(name)s started %(minutes)s minutes late: scheduled at %(scheduled)s, "
            "started at %(started)s."
        ) % {
            **figures,
            "scheduled": time_format(timezone.localtime(figures["scheduled"]), "H:i"),
            "started": time_format(timezone.localtime(figures["started"]), "H:i"),
        }


def percent(share: float) -> int:
    """Return a share as whole percent, rounded half up (0.125 → 13)."""
    return int(share * 100 + 0.5)


def heat_time_flags(heats: Sequence[Summary], thresholds: Thresholds = THRESHOLDS) -> list[Flag]:
    """Flag each heat whose median final time differs clearly from the other heats'."""
    counted = [
        heat
        for heat in heats
        if heat.spread is not None and heat.completed >= thresholds.heat_finished
    ]
    if len(counted) < 2:
        return []
    if len(counted) == 2:
        # Each is the other's reference: one difference, flagged at the slower heat.
        counted = sorted(counted, key=lambda heat: heat.spread.median_ms)
        candidates = [(counted[1], counted[0].spread.median_ms)]
    else:
        candidates = [
            (heat, median_ms([other.spread.median_ms for other in counted if other is not heat]))
            for heat in counted
        ]
    flags = []
    for heat, reference in candidates:
        difference = heat.spread.median_ms - reference
        if (
            abs(difference) > thresholds.heat_share * reference
            and abs(difference) > thresholds.heat_minimum_ms
        ):
            flags.append(
                Flag(
                    kind=Flag.SLOWER if difference > 0 else Flag.FASTER,
                    subject=heat.key,
                    label=heat.label,
                    figures={
                        "median_ms": heat.spread.median_ms,
                        "reference_ms": reference,
                        "difference_ms": difference,
                        "percent": percent(abs(difference) / reference),
                        "finished": heat.completed,
                    },
                )
            )
    return flags


def missing_piece_flags(
    groups: Sequence[Summary],
    whole: Summary,
    *,
    adjacent_rule: bool = False,
    thresholds: Thresholds = THRESHOLDS,
) -> list[Flag]:
    """Flag each group of tables where far more entrants reported missing pieces than usual."""
    flags = []
    for group in groups:
        if group.missing_reports < thresholds.missing_reports:
            continue
        if group.missing_share < thresholds.missing_factor * whole.missing_share:
            continue
        figures = {
            "reports": group.missing_reports,
            "seated": group.seated,
            "pieces": group.missing_pieces,
            "percent": percent(group.missing_share),
            "round_percent": percent(whole.missing_share),
        }
        if adjacent_rule:
            figures["adjacent_reports"] = group.adjacent_reports
        flags.append(
            Flag(kind=Flag.MISSING_PIECES, subject=group.key, label=group.label, figures=figures)
        )
    return flags


def late_start_flags(heats: Sequence[Summary], thresholds: Thresholds = THRESHOLDS) -> list[Flag]:
    """Flag each heat that started well after its scheduled start."""
    limit = thresholds.late_start // timedelta(milliseconds=1)
    return [
        Flag(
            kind=Flag.LATE_START,
            subject=heat.key,
            label=heat.label,
            figures={
                "minutes": heat.late_minutes,
                "scheduled": heat.scheduled_start,
                "started": heat.started_at,
            },
        )
        for heat in heats
        if heat.late_ms is not None and heat.late_ms >= limit
    ]


# The report ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Correction:
    """A head judge's correction of a result in the round."""

    at: datetime
    name: str
    heat: str
    table_number: int | None
    group: str
    judge: str
    reason: str


@dataclass(frozen=True)
class RoundReport:
    """What a round's report shows: the round, its heats, its groups of tables, and the flags."""

    round: Round
    whole: Summary
    heats: tuple[Summary, ...]
    # Empty when no seated table has a group.
    groups: tuple[Summary, ...]
    own_starts: tuple[tuple[Attempt, str], ...]  # with the heat's label
    corrections: tuple[Correction, ...]
    flags: tuple[Flag, ...]
    time_limit_ms: int
    adjacent_rule: bool
    # A heat has started; time is up in every heat.
    started: bool
    complete: bool

    @property
    def checkpoints(self) -> tuple[int, ...]:
        slowest = self.whole.spread.slowest_ms if self.whole.spread else 0
        return checkpoints(self.time_limit_ms, slowest)


def group_label(group: str) -> str:
    return group or _("No group")


def _attempts(round_: Round, heats: dict[int, Heat]) -> list[Attempt]:
    """Return the round's seated attempts: a seat and its result (two queries)."""
    results = {
        row["entry_id"]: row
        for row in Result.objects.filter(round=round_).values(
            "entry_id",
            "entry__name",
            "heat_id",
            "outcome",
            "final_ms",
            "missing_found",
            "missing_lost",
            "adjacent_missing",
        )
    }
    attempts = []
    seats = Seat.objects.filter(round=round_).values(
        "entry_id", "heat_id", "started_at", "table__number", "table__group", "entry__name"
    )
    for seat in seats:
        result = results.pop(seat["entry_id"], None) or {}
        heat = heats[seat["heat_id"]]
        own = seat["started_at"]
        own_start_ms = None
        if own is not None and heat.started_at is not None and own > heat.started_at:
            own_start_ms = (own - heat.started_at) // timedelta(milliseconds=1)
        attempts.append(
            Attempt(
                entry_id=seat["entry_id"],
                name=seat["entry__name"],
                heat_id=seat["heat_id"],
                table_number=seat["table__number"],
                group=seat["table__group"],
                outcome=result.get("outcome", ""),
                final_ms=result.get("final_ms"),
                missing_found=result.get("missing_found", 0),
                missing_lost=result.get("missing_lost", 0),
                adjacent_missing=result.get("adjacent_missing", 0),
                own_start_ms=own_start_ms,
            )
        )
    # A result without a seat (an imported round) still counts, in its heat, in no group.
    for entry_id, result in results.items():
        attempts.append(
            Attempt(
                entry_id=entry_id,
                name=result["entry__name"],
                heat_id=result["heat_id"],
                table_number=None,
                group="",
                outcome=result["outcome"],
                final_ms=result["final_ms"],
                missing_found=result["missing_found"],
                missing_lost=result["missing_lost"],
                adjacent_missing=result["adjacent_missing"],
            )
        )
    return attempts


def round_report(round_: Round, *, thresholds: Thresholds = THRESHOLDS) -> RoundReport:
    """Return the report of a round: per heat and per group of tables, with what stands out.

    Four queries: the heats, the results, the seats (with their tables and
    entries), the corrections.
    """
    heat_list = list(round_.heats.order_by("order", "key"))
    heats = {heat.pk: heat for heat in heat_list}
    attempts = _attempts(round_, heats)
    table_of = {attempt.entry_id: attempt for attempt in attempts}
    captures = list(
        Capture.objects.filter(round=round_, kind=Capture.Kind.CORRECTION)
        .order_by("received_at", "id")
        .values(
            "entry_id",
            "heat_id",
            "received_at",
            "reason",
            "entry__name",
            "judge__username",
            "judge__first_name",
            "judge__last_name",
        )
    )
    corrections = []
    for capture in captures:
        seated = table_of.get(capture["entry_id"])
        judge = full_name(
            first_name=capture["judge__first_name"],
            last_name=capture["judge__last_name"],
            username=capture["judge__username"],
        )
        heat = heats.get(capture["heat_id"])
        corrections.append(
            Correction(
                at=capture["received_at"],
                name=capture["entry__name"],
                heat=heat.label if heat else "",
                table_number=seated.table_number if seated else None,
                group=seated.group if seated else "",
                judge=judge,
                reason=capture["reason"],
            )
        )

    by_heat: dict[int, list[Attempt]] = defaultdict(list)
    by_group: dict[str, list[Attempt]] = defaultdict(list)
    for attempt in attempts:
        by_heat[attempt.heat_id].append(attempt)
        by_group[attempt.group].append(attempt)
    corrected_heats = defaultdict(int)
    corrected_groups = defaultdict(int)
    for capture, correction in zip(captures, corrections, strict=True):
        corrected_heats[capture["heat_id"]] += 1
        corrected_groups[correction.group] += 1

    heat_summaries = tuple(
        summarise(
            heat.key,
            heat.label,
            by_heat[heat.pk],
            corrections=corrected_heats[heat.pk],
            heat=heat,
        )
        for heat in heat_list
    )
    group_summaries: tuple[Summary, ...] = ()
    if any(by_group.keys() - {""}):
        group_summaries = tuple(
            sorted(
                (
                    summarise(
                        name,
                        group_label(name),
                        members,
                        corrections=corrected_groups[name],
                    )
                    for name, members in by_group.items()
                ),
                # The venue's order: by the group's first table; tables without a group last.
                key=lambda summary: (
                    summary.key == "",
                    summary.first_table or 0,
                    summary.key.casefold(),
                ),
            )
        )
    whole = summarise("", round_.display_name, attempts, corrections=len(corrections))
    adjacent_rule = bool(round_.championship.rules.adjacent_missing_waives_penalty)
    flags = (
        *late_start_flags(heat_summaries, thresholds),
        *heat_time_flags(heat_summaries, thresholds),
        *missing_piece_flags(
            group_summaries, whole, adjacent_rule=adjacent_rule, thresholds=thresholds
        ),
    )
    own_starts = tuple(
        (attempt, heats[attempt.heat_id].label)
        for attempt in sorted(
            (attempt for attempt in attempts if attempt.own_start_ms is not None),
            key=lambda a: (heats[a.heat_id].order, heats[a.heat_id].key, a.table_number or 0),
        )
    )
    return RoundReport(
        round=round_,
        whole=whole,
        heats=heat_summaries,
        groups=group_summaries,
        own_starts=own_starts,
        corrections=tuple(corrections),
        flags=flags,
        time_limit_ms=round_.time_limit_ms,
        adjacent_rule=adjacent_rule,
        started=any(heat.started_at for heat in heat_list),
        complete=bool(heat_list) and all(heat.ended_at for heat in heat_list),
    )
