"""The round report's figures and charts, on plain values: spreads, curves, flagged heats."""

from __future__ import annotations

from datetime import timedelta

import pytest

from control import charts
from control.report import (
    Flag,
    Thresholds,
    heat_time_flags,
    late_start_flags,
    missing_piece_flags,
)
from control.report_figures import Summary, checkpoints, finish_curve, spread_of
from tests.control.report_rounds import DAY, MIN, group, minutes

# The figures, on plain values ------------------------------------------------------------------


def test_the_spread_is_the_median_the_quartiles_and_the_extremes():
    spread = spread_of(minutes(60, 40, 50, 45))
    assert (spread.fastest_ms, spread.slowest_ms) == (40 * MIN, 60 * MIN)
    assert spread.median_ms == 47.5 * MIN
    # The middle half of 40, 45, 50 and 60 minutes lies between 43:45 and 52:30.
    assert (spread.q1_ms, spread.q3_ms) == (43.75 * MIN, 52.5 * MIN)
    assert spread.iqr_ms == 8.75 * MIN
    assert (spread.median, spread.q1, spread.q3, spread.iqr) == (
        "0:47:30",
        "0:43:45",
        "0:52:30",
        "0:08:45",
    )


@pytest.mark.parametrize(
    ("times", "median", "q1", "q3"),
    [
        ([42 * MIN], 42 * MIN, 42 * MIN, 42 * MIN),
        ([40 * MIN, 50 * MIN], 45 * MIN, 42.5 * MIN, 47.5 * MIN),
        ([30 * MIN, 40 * MIN, 50 * MIN], 40 * MIN, 35 * MIN, 45 * MIN),
        # Half a millisecond rounds to even.
        ([1, 2], 2, 1, 2),
    ],
)
def test_the_median_and_quartiles_of_few_times(times, median, q1, q3):
    spread = spread_of(times)
    assert (spread.median_ms, spread.q1_ms, spread.q3_ms) == (median, q1, q3)


def test_nobody_finished_has_no_spread():
    assert spread_of([]) is None


def test_the_finish_curve_counts_finishers_by_final_time_one_step_per_time():
    assert finish_curve([3000, 1000, 2000, 2000]) == ((1000, 1), (2000, 3), (3000, 4))
    assert finish_curve([]) == ()
    summary = Summary(key="a", label="Heat A", curve=finish_curve(minutes(10, 20, 20, 35)))
    assert [summary.finished_by(minute) for minute in (5, 10, 19, 20, 30, 35)] == [
        0,
        1,
        1,
        3,
        3,
        4,
    ]


@pytest.mark.parametrize(
    ("limit", "through", "marks"),
    [
        (120, 0, (15, 30, 45, 60, 75, 90, 105, 120)),
        (45, 0, (10, 20, 30, 40, 45)),
        (180, 0, (30, 60, 90, 120, 150, 180)),
        # A penalty takes the slowest final time past the limit: the curve reads on to it.
        (120, 120 * MIN + 30_000, (30, 60, 90, 120, 121)),
    ],
)
def test_the_finish_curve_is_read_at_a_few_even_minutes(limit, through, marks):
    assert checkpoints(limit * MIN, through) == marks


def heat_summary(key: str, *times: float, started=None, scheduled=None) -> Summary:
    spread = spread_of(minutes(*times))
    return Summary(
        key=key,
        label=f"Heat {key.upper()}",
        seated=len(times),
        completed=len(times),
        spread=spread,
        started_at=started,
        scheduled_start=scheduled,
    )


def test_a_heat_clearly_slower_than_the_others_is_flagged_with_its_figures():
    heats = [
        heat_summary("a", 40, 44, 46, 48, 52),
        heat_summary("b", 41, 45, 47, 49, 53),
        heat_summary("c", 50, 55, 59, 62, 66),
    ]
    (flag,) = heat_time_flags(heats)
    assert (flag.kind, flag.subject) == (Flag.SLOWER, "c")
    # The reference is the median of the other heats' medians: 46 and 47 minutes.
    assert flag.figures["reference_ms"] == 46.5 * MIN
    assert flag.figures["difference_ms"] == 12.5 * MIN
    assert flag.figures["percent"] == 27
    assert flag.text == (
        "Heat C: the median time 0:59:00 is 0:12:30 (27 %) slower than the other heats’ 0:46:30."
    )


def test_a_heat_clearly_faster_than_the_others_is_flagged_too():
    heats = [
        heat_summary("a", 50, 54, 56, 58),
        heat_summary("b", 51, 55, 57, 59),
        heat_summary("c", 52, 54, 56, 60),
        heat_summary("d", 30, 35, 40, 41),
    ]
    (flag,) = heat_time_flags(heats)
    assert (flag.kind, flag.subject, flag.figures["percent"]) == (Flag.FASTER, "d", 32)
    assert "faster than the other heats’ 0:55:00" in flag.text


def test_of_two_heats_only_the_slower_is_flagged():
    heats = [heat_summary("a", 40, 45, 50), heat_summary("b", 50, 55, 60)]
    (flag,) = heat_time_flags(heats)
    assert (flag.kind, flag.subject, flag.figures["reference_ms"]) == (Flag.SLOWER, "b", 45 * MIN)


@pytest.mark.parametrize(
    ("heats", "why"),
    [
        # 15 % exactly is not more than 15 %.
        ([("a", 40), ("b", 40), ("c", 46)], "at the share"),
        # 20 % slower, but only two minutes: noise in a fast round.
        ([("a", 10), ("b", 10), ("c", 12)], "at the two minutes"),
        # Clearly slower, but with two finished entrants only.
        ([("a", 40), ("b", 40), ("c", 60, 2)], "too few finished"),
        # One heat alone has nothing to differ from.
        ([("a", 40), ("c", 60, 2)], "one heat counts"),
    ],
)
def test_a_heat_within_the_thresholds_is_not_flagged(heats, why):
    summaries = [
        heat_summary(key, *([median] * (rest[0] if rest else 3))) for key, median, *rest in heats
    ]
    assert heat_time_flags(summaries) == [], why


def test_just_past_the_thresholds_a_heat_is_flagged():
    summaries = [heat_summary("a", 40, 40, 40), heat_summary("b", 40, 40, 40)]
    summaries.append(heat_summary("c", 46 + 1 / 60, 46 + 1 / 60, 46 + 1 / 60))
    assert [flag.subject for flag in heat_time_flags(summaries)] == ["c"]
    stricter = Thresholds(heat_share=0.2)
    assert heat_time_flags(summaries, stricter) == []


def test_a_group_of_tables_with_many_missing_pieces_is_flagged_with_its_figures():
    groups = [group("Row A", 6, 1), group("Row B", 6, 0), group("Row C", 6, 4, pieces=9)]
    whole = group("", 18, 5, pieces=10)
    (flag,) = missing_piece_flags(groups, whole)
    assert (flag.kind, flag.subject) == (Flag.MISSING_PIECES, "Row C")
    assert flag.text == (
        "Row C: 4 of 6 entrants reported missing pieces (67 %, 9 pieces), "
        "against 28 % in the round."
    )


def test_dm_names_the_adjacent_pieces_of_a_flagged_group():
    groups = [group("Row A", 6, 0), group("Row C", 6, 3, adjacent=2)]
    (flag,) = missing_piece_flags(groups, group("", 12, 3), adjacent_rule=True)
    assert flag.text.endswith("2 of them lost adjacent pieces: a faulty batch?")


@pytest.mark.parametrize(
    ("groups", "whole", "why"),
    [
        ([group("Row A", 4, 2), group("Row B", 4, 0)], group("", 8, 2), "fewer than 3 reports"),
        (
            [group("Row A", 6, 3), group("Row B", 6, 2)],
            group("", 12, 5),
            "not twice the round's share",
        ),
        ([group("Row A", 6, 0)], group("", 6, 0), "none at all"),
    ],
)
def test_a_group_with_few_missing_pieces_is_not_flagged(groups, whole, why):
    assert missing_piece_flags(groups, whole) == [], why


def test_a_heat_started_five_minutes_or_more_after_its_schedule_is_flagged():
    at = DAY.replace(hour=10)
    heats = [
        heat_summary("a", 40, started=at + timedelta(minutes=4, seconds=59), scheduled=at),
        heat_summary("b", 40, started=at + timedelta(minutes=5), scheduled=at),
        heat_summary("c", 40, started=at - timedelta(minutes=1), scheduled=at),
        heat_summary("d", 40, started=at + timedelta(hours=1)),
    ]
    (flag,) = late_start_flags(heats)
    assert (flag.kind, flag.subject, flag.figures["minutes"]) == (Flag.LATE_START, "b", 5)
    assert flag.text == "Heat B started 5 minutes late: scheduled at 10:00, started at 10:05."
    assert [heat.late_minutes for heat in heats] == [4, 5, 0, None]


# Charts ----------------------------------------------------------------------------------------


def test_a_finish_curve_steps_up_at_each_final_time_and_runs_on_to_the_end():
    summary = Summary(
        key="a", label="Heat A", seated=4, completed=2, curve=finish_curve(minutes(30, 60))
    )
    chart = charts.curve_chart([summary], through_ms=120 * MIN)
    (line,) = chart.lines
    frame = chart.frame
    assert (frame.left, frame.right, frame.top, frame.bottom) == (36, 464, 24, 216)
    # x: 0 to 120 minutes over 36 to 464 (107 a half hour); y: 0 to 100 % over 216 to 24.
    assert line.path == "M36 216 H143 V168 H250 V120 H464"
    assert (line.finished, line.seated, line.series) == (2, 4, 1)
    assert [tick.label for tick in chart.x_ticks] == [str(m) for m in range(0, 121, 15)]
    assert [tick.label for tick in chart.y_ticks] == ["0", "25", "50", "75", "100"]


def test_nothing_seated_draws_no_chart():
    assert charts.curve_chart([], through_ms=120 * MIN) is None
    assert charts.box_chart([Summary(key="a", label="A")], whole=Summary(key="", label="")) is None
    assert charts.missing_chart([], whole=Summary(key="", label="")) is None


def test_a_box_spans_the_times_and_the_axis_whole_minutes():
    summaries = [heat_summary("a", 40, 45, 50, 60), heat_summary("b", 42, 44, 46)]
    whole = heat_summary("", 40, 42, 44, 45, 46, 50, 60)
    chart = charts.box_chart(summaries, whole=whole, flagged=frozenset({"a"}))
    frame = chart.frame
    assert [tick.label for tick in chart.ticks] == ["40", "45", "50", "55", "60"]
    a, b = chart.boxes
    # Heat A spans the whole axis, 40 to 60 minutes; the labels need little room.
    assert (a.fastest, a.slowest, a.flagged, b.flagged) == (frame.left, frame.right, True, False)
    assert frame.left == 16 + 7 * len("Heat A")
    assert a.fastest < a.q1 < a.median < a.q3 < a.slowest
    assert a.box_width == round(a.q3 - a.q1, 1)
    # The round's median, 45 minutes, a quarter of the way from 40 to 60.
    assert chart.reference == frame.left + (frame.right - frame.left) / 4


def test_a_missing_piece_bar_is_the_share_of_the_entrants():
    groups = [group("Row A", 4, 1), group("Row B", 4, 3, adjacent=2)]
    chart = charts.missing_chart(
        groups, whole=group("", 8, 4), adjacent=True, flagged=frozenset({"Row B"})
    )
    a, b = chart.bars
    plot = chart.frame.right - chart.frame.left
    assert [tick.label for tick in chart.ticks] == ["0", "20", "40", "60", "80"]
    assert (a.text, b.text, a.flagged, b.flagged) == ("1/4", "3/4", False, True)
    # 25 % and 75 % on an axis to 80 %; of row B, 50 % lost adjacent pieces; the round 50 %.
    assert (a.width, b.width, b.adjacent_width) == (
        round(plot * 25 / 80, 1),
        round(plot * 75 / 80, 1),
        round(plot * 50 / 80, 1),
    )
    assert chart.reference == round(chart.frame.left + plot * 50 / 80, 1)


def test_a_long_group_name_is_shortened_on_the_chart_only():
    assert charts.short("By the window at the back") == "By the window a…"
    assert charts.short("Row A") == "Row A"
