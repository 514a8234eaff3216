"""The round report's charts as geometry, for SVG that the server renders: no script, no CDN.

This module computes coordinates; the template (``control/round_report.html``)
writes the markup, so that every word on a chart is translated and escaped as
the page's words are. Coordinates are the SVG's user units (its ``viewBox``);
a chart scales to the width of its column. Series are told apart by colour and
by dash pattern (``series-1`` … ``series-6`` in ``static/control/report.css``),
never by colour alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from control.report_figures import MINUTE_MS, Summary

WIDTH = 480
SERIES = 6
LABEL_CHARACTERS = 16
# Steps of a time axis, in minutes, and of a percentage axis.
MINUTE_STEPS = (1, 2, 5, 10, 15, 20, 30, 60, 120)
PERCENT_STEPS = (5, 10, 20, 25, 50)


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True)
class Frame:
    """A chart's size and its plotting area."""

    height: float
    left: float
    top: float
    right: float = WIDTH - 16
    width: float = WIDTH

    @property
    def bottom(self) -> float:
        return self.height - 36

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width:g} {self.height:g}"

    @property
    def label_x(self) -> float:
        """Return where the labels left of the plotting area end."""
        return self.left - 8

    @property
    def tick_y(self) -> float:
        """Return the baseline of the labels under the plotting area."""
        return self.bottom + 16

    @property
    def title_y(self) -> float:
        """Return the baseline of the axis title at the foot of the chart."""
        return self.height - 4

    @property
    def heading_y(self) -> float:
        """Return the baseline of the axis title above the plotting area."""
        return self.top - 12

    @property
    def above(self) -> float:
        """Return the top of a reference line, a little above the plotting area."""
        return self.top - 6


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def label_margin(labels: Sequence[str]) -> float:
    """Return the room left of the plotting area for the longest of ``labels`` (shortened)."""
    longest = max((len(short(label)) for label in labels), default=0)
    return float(min(124, max(48, 16 + 7 * longest)))


def short(label: str) -> str:
    """Return a label short enough for a chart's margin (the table beside has it in full)."""
    if len(label) <= LABEL_CHARACTERS:
        return label
    return label[: LABEL_CHARACTERS - 1].rstrip() + "…"


def step_for(span: float, steps: Sequence[int], most: int = 6) -> int:
    """Return the smallest step that divides ``span`` into at most ``most`` parts."""
    return next((step for step in steps if span <= step * most), steps[-1])


def scale(value: float, low: float, high: float, start: float, end: float) -> float:
    """Return where ``value``, between ``low`` and ``high``, lies between ``start`` and ``end``."""
    if high == low:
        return start
    return round(start + (value - low) / (high - low) * (end - start), 1)


# The finish curve ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One bucket's finish curve: the share of its seated entrants finished, over the minutes."""

    label: str
    series: int
    path: str
    finished: int
    seated: int


@dataclass(frozen=True)
class CurveChart:
    frame: Frame
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    lines: tuple[Line, ...]


def curve_chart(summaries: Sequence[Summary], *, through_ms: int) -> CurveChart | None:
    """Return the finish curves of ``summaries`` on one chart, from the start to ``through_ms``.

    The height is the share of each bucket's seated entrants, so that a row of
    five tables and a heat of forty compare. A curve steps up at each final
    time and runs on at its last height to the end of the chart.
    """
    shown = [summary for summary in summaries if summary.seated]
    if not shown or through_ms <= 0:
        return None
    frame = Frame(height=252, left=36, top=24)
    minutes = math.ceil(through_ms / MINUTE_MS)
    step = step_for(minutes, MINUTE_STEPS, most=8)
    end_minutes = math.ceil(minutes / step) * step
    end_ms = end_minutes * MINUTE_MS

    def x(ms: float) -> float:
        return scale(ms, 0, end_ms, frame.left, frame.right)

    def y(share: float) -> float:
        return scale(share, 0, 1, frame.bottom, frame.top)

    lines = []
    for index, summary in enumerate(shown):
        parts = [f"M{_number(x(0))} {_number(y(0))}"]
        for time_ms, count in summary.curve:
            parts.append(f"H{_number(x(time_ms))} V{_number(y(count / summary.seated))}")
        parts.append(f"H{_number(x(end_ms))}")
        lines.append(
            Line(
                label=summary.label,
                series=index % SERIES + 1,
                path=" ".join(parts),
                finished=summary.completed,
                seated=summary.seated,
            )
        )
    return CurveChart(
        frame=frame,
        x_ticks=tuple(
            Tick(at=x(minute * MINUTE_MS), label=str(minute))
            for minute in range(0, end_minutes + 1, step)
        ),
        y_ticks=tuple(Tick(at=y(share / 100), label=str(share)) for share in range(0, 101, 25)),
        lines=tuple(lines),
    )


# Times: median and spread ----------------------------------------------------------------------


@dataclass(frozen=True)
class Box:
    """A bucket's times: whiskers from the fastest to the slowest, a box round the middle half."""

    label: str
    short_label: str
    y: float
    fastest: float
    q1: float
    median: float
    q3: float
    slowest: float
    flagged: bool
    half: float = 10

    @property
    def top(self) -> float:
        return self.y - self.half

    @property
    def bottom(self) -> float:
        return self.y + self.half

    @property
    def whisker_top(self) -> float:
        return self.y - self.half / 2

    @property
    def whisker_bottom(self) -> float:
        return self.y + self.half / 2

    @property
    def height(self) -> float:
        return 2 * self.half

    @property
    def box_width(self) -> float:
        return round(self.q3 - self.q1, 1)


@dataclass(frozen=True)
class BoxChart:
    frame: Frame
    ticks: tuple[Tick, ...]
    boxes: tuple[Box, ...]
    reference: float | None  # where the round's median lies


def box_chart(
    summaries: Sequence[Summary], *, whole: Summary, flagged: frozenset[str] = frozenset()
) -> BoxChart | None:
    """Return the spread of final times of each bucket with finished entries.

    The axis spans the fastest to the slowest time in whole steps of minutes;
    a dashed line marks the round's median.
    """
    timed = [summary for summary in summaries if summary.spread is not None]
    if not timed:
        return None
    row = 32
    left = label_margin([summary.label for summary in timed])
    frame = Frame(height=12 + row * len(timed) + 36, left=left, top=12)
    low = min(summary.spread.fastest_ms for summary in timed) / MINUTE_MS
    high = max(summary.spread.slowest_ms for summary in timed) / MINUTE_MS
    step = step_for(max(high - low, 1), MINUTE_STEPS)
    first = math.floor(low / step) * step
    last = max(math.ceil(high / step) * step, first + step)

    def x(ms: float) -> float:
        return scale(ms / MINUTE_MS, first, last, frame.left, frame.right)

    boxes = tuple(
        Box(
            label=summary.label,
            short_label=short(summary.label),
            y=frame.top + row * index + row / 2,
            fastest=x(summary.spread.fastest_ms),
            q1=x(summary.spread.q1_ms),
            median=x(summary.spread.median_ms),
            q3=x(summary.spread.q3_ms),
            slowest=x(summary.spread.slowest_ms),
            flagged=summary.key in flagged,
        )
        for index, summary in enumerate(timed)
    )
    return BoxChart(
        frame=frame,
        ticks=tuple(
            Tick(at=x(minute * MINUTE_MS), label=str(minute))
            for minute in range(first, last + 1, step)
        ),
        boxes=boxes,
        reference=x(whole.spread.median_ms) if whole.spread else None,
    )


# Missing pieces --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    """One bucket's share of entrants who reported missing pieces; the part with adjacent ones."""

    label: str
    short_label: str
    y: float
    start: float
    end: float
    adjacent_end: float
    text: str
    flagged: bool
    half: float = 8

    @property
    def top(self) -> float:
        return self.y - self.half

    @property
    def thickness(self) -> float:
        return 2 * self.half

    @property
    def width(self) -> float:
        return round(self.end - self.start, 1)

    @property
    def adjacent_width(self) -> float:
        return round(self.adjacent_end - self.start, 1)

    @property
    def text_x(self) -> float:
        return self.end + 6


@dataclass(frozen=True)
class BarChart:
    frame: Frame
    ticks: tuple[Tick, ...]
    bars: tuple[Bar, ...]
    reference: float


def missing_chart(
    summaries: Sequence[Summary],
    *,
    whole: Summary,
    adjacent: bool = False,
    flagged: frozenset[str] = frozenset(),
) -> BarChart | None:
    """Return a bar per bucket: the share of its seated entrants who reported missing pieces.

    With ``adjacent`` (dm's rule) the part who lost adjacent pieces is a darker
    bar inside; a dashed line marks the round's share.
    """
    shown = [summary for summary in summaries if summary.seated]
    if not shown:
        return None
    row = 28
    left = label_margin([summary.label for summary in shown])
    frame = Frame(height=12 + row * len(shown) + 36, left=left, top=12, right=WIDTH - 44)
    highest = max(summary.missing_share for summary in [*shown, whole]) * 100
    step = step_for(max(highest, 1), PERCENT_STEPS, most=5)
    last = max(step, math.ceil(highest / step) * step)

    def x(share: float) -> float:
        return scale(share * 100, 0, last, frame.left, frame.right)

    bars = tuple(
        Bar(
            label=summary.label,
            short_label=short(summary.label),
            y=frame.top + row * index + row / 2,
            start=frame.left,
            end=x(summary.missing_share),
            adjacent_end=x(summary.adjacent_reports / summary.seated) if adjacent else frame.left,
            text=f"{summary.missing_reports}/{summary.seated}",
            flagged=summary.key in flagged,
        )
        for index, summary in enumerate(shown)
    )
    return BarChart(
        frame=frame,
        ticks=tuple(
            Tick(at=x(share / 100), label=str(share)) for share in range(0, last + 1, step)
        ),
        bars=bars,
        reference=x(whole.missing_share),
    )
