"""The round report: per heat and per group of tables, what stands out, as a page and as CSV."""

from __future__ import annotations

import csv
import io
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.urls import reverse

from championship.models import ChampionshipRole, Heat, Round, Seat, Table
from championship.services import tables_create
from control import charts
from control.report import (
    Flag,
    Thresholds,
    heat_time_flags,
    late_start_flags,
    missing_piece_flags,
    round_report,
)
from control.report_figures import MINUTE_MS, Summary, checkpoints, finish_curve, spread_of
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from results.models import Result
from results.services import standings_recompute
from tests import factories

Role = ChampionshipRole.Role
MIN = MINUTE_MS
# The day of the championship: fixed instants, never the wall clock.
DAY = datetime(2026, 3, 14, 8, 0, tzinfo=UTC)


def minutes(*values: float) -> list[int]:
    return [round(value * MIN) for value in values]


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


def group(key, seated, reports, pieces=None, adjacent=0) -> Summary:
    return Summary(
        key=key,
        label=key,
        seated=seated,
        missing_reports=reports,
        missing_pieces=reports if pieces is None else pieces,
        adjacent_reports=adjacent,
    )


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


# A round in the database -----------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzler:
    """One entrant of a planned round: where they sit and how they did."""

    table: int
    minutes: float | None = None  # None: did not finish; "dns" below
    status: str = "finished"
    missing_found: int = 0
    missing_lost: int = 0
    adjacent: int = 0
    own_start: int = 0  # minutes after the heat's start


def run(
    championship,
    heats: dict[str, tuple[list[Puzzler], int]],
    *,
    groups: dict[str, range] | None = None,
) -> Round:
    """Seat and run the individual round: ``heats`` maps a key to its puzzlers and minutes late.

    Heats start an hour and a half apart from 10:00 (scheduled); time is up in each.
    """
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.order_by("order").first()
    count = max(p.table for puzzlers, _late in heats.values() for p in puzzlers)
    tables_create(championship=championship, count=count)
    for name, numbers in (groups or {}).items():
        Table.objects.filter(championship=championship, number__in=numbers).update(group=name)
    tables = {table.number: table for table in championship.tables.all()}
    for order, (key, (puzzlers, late)) in enumerate(heats.items()):
        scheduled = DAY.replace(hour=10) + timedelta(minutes=90 * order)
        started = scheduled + timedelta(minutes=late)
        heat = factories.heat(
            round_,
            key=key,
            order=order + 1,
            scheduled_start=scheduled,
            started_at=started,
            ended_at=started + timedelta(minutes=120),
            state=Heat.State.TIME_UP,
        )
        for puzzler in puzzlers:
            entry = factories.entry(individual, name=f"{key.upper()}{puzzler.table}")
            Seat.objects.create(
                heat=heat,
                table=tables[puzzler.table],
                entry=entry,
                started_at=started + timedelta(minutes=puzzler.own_start)
                if puzzler.own_start
                else None,
            )
            Result.objects.create(
                round=round_,
                heat=heat,
                entry=entry,
                status=puzzler.status,
                time_ms=None if puzzler.minutes is None else round(puzzler.minutes * MIN),
                pieces_placed=300 if puzzler.status == "unfinished" else None,
                missing_found=puzzler.missing_found,
                missing_lost=puzzler.missing_lost,
                adjacent_missing=puzzler.adjacent,
            )
    Round.objects.filter(pk=round_.pk).update(state=Round.State.CLOSED)
    round_.refresh_from_db()
    standings_recompute(round_=round_)
    return round_


ROWS = {"Row A": range(1, 3), "Row B": range(3, 5), "Row C": range(5, 7)}


def planted(championship) -> Round:
    """Run three heats at six tables in rows A, B and C of two tables each.

    Heat C is slow and late; row C has many missing pieces.
    """

    def heat(times, missing=()):
        return [
            Puzzler(table=table, minutes=time, missing_lost=missing[table - 1] if missing else 0)
            for table, time in enumerate(times, start=1)
        ]

    return run(
        championship,
        {
            "a": (heat([40, 44, 46, 46, 48, 52], missing=(1, 0, 0, 0, 2, 1)), 1),
            "b": (heat([41, 45, 47, 47, 49, 53], missing=(0, 0, 0, 0, 0, 3)), 0),
            "c": (heat([50, 55, 59, 59, 62, 66], missing=(0, 0, 0, 0, 1, 0)), 7),
        },
        groups=ROWS,
    )


@pytest.fixture
def rm(db):
    return factories.championship(slug="rm-report", name="RM 2026", language="en")


def test_a_planted_slow_late_heat_and_a_row_with_missing_pieces_are_flagged(rm):
    report = round_report(planted(rm))
    assert [(flag.kind, flag.subject) for flag in report.flags] == [
        (Flag.LATE_START, "c"),
        (Flag.SLOWER, "c"),
        (Flag.MISSING_PIECES, "Row C"),
    ]
    late, slow, missing = (flag.text for flag in report.flags)
    assert late == "Heat C started 7 minutes late: scheduled at 13:00, started at 13:07."
    assert slow == (
        "Heat C: the median time 0:59:00 is 0:12:30 (27 %) slower than the other heats’ 0:46:30."
    )
    assert missing == (
        "Row C: 4 of 6 entrants reported missing pieces (67 %, 7 pieces), "
        "against 28 % in the round."
    )


def test_the_report_counts_each_heat_and_each_group(rm):
    report = round_report(planted(rm))
    a, b, c = report.heats
    assert (c.key, c.label, c.seated, c.completed) == ("c", "Heat C", 6, 6)
    assert (c.spread.median, c.spread.fastest, c.spread.slowest) == (
        "0:59:00",
        "0:50:00",
        "1:06:00",
    )
    assert (a.missing_reports, a.missing_pieces, b.missing_reports) == (3, 4, 1)
    assert (c.late_minutes, a.late_minutes, b.late_minutes) == (7, 1, 0)
    assert [group.label for group in report.groups] == ["Row A", "Row B", "Row C"]
    row_c = report.groups[2]
    assert (row_c.seated, row_c.missing_reports, row_c.missing_pieces) == (6, 4, 7)
    # Row C: tables 5 and 6 of each heat, 48, 49, 52, 53, 62 and 66 minutes.
    assert row_c.spread.median_ms == 52.5 * MIN
    assert (report.whole.seated, report.whole.completed, report.whole.missing_reports) == (
        18,
        18,
        5,
    )
    assert report.complete and report.started


def test_a_round_where_nothing_stands_out_flags_nothing(rm):
    def heat(times, missing):
        return [
            Puzzler(table=table, minutes=time, missing_lost=lost)
            for table, (time, lost) in enumerate(zip(times, missing, strict=True), start=1)
        ]

    round_ = run(
        rm,
        {
            "a": (heat([40, 44, 46, 48, 52, 55], [1, 0, 0, 1, 0, 0]), 2),
            "b": (heat([41, 45, 47, 49, 53, 54], [0, 1, 0, 0, 1, 0]), 0),
            "c": (heat([42, 43, 48, 50, 51, 56], [0, 0, 1, 0, 0, 1]), 4),
        },
        groups=ROWS,
    )
    report = round_report(round_)
    assert report.flags == ()
    assert report.whole.missing_reports == 6


def test_without_any_group_the_report_has_no_groups(rm):
    round_ = run(rm, {"a": ([Puzzler(table=1, minutes=40), Puzzler(table=2, minutes=41)], 0)})
    report = round_report(round_)
    assert report.groups == ()
    assert report.whole.seated == 2


def test_tables_without_a_group_form_one_bucket_after_the_named_ones(rm):
    round_ = run(
        rm,
        {"a": ([Puzzler(table=number, minutes=40 + number) for number in range(1, 6)], 0)},
        groups={"By the window": range(4, 6), "Row 1": range(2, 4)},
    )
    report = round_report(round_)
    assert [(group.label, group.seated) for group in report.groups] == [
        ("Row 1", 2),
        ("By the window", 2),
        ("No group", 1),
    ]


def test_outcomes_own_starts_and_corrections_are_counted(rm, english):
    round_ = run(
        rm,
        {
            "a": (
                [
                    Puzzler(table=1, minutes=40),
                    Puzzler(table=2, minutes=None, status="unfinished"),
                    Puzzler(table=3, status="dns"),
                    Puzzler(table=4, minutes=50, own_start=3),
                ],
                0,
            )
        },
        groups={"Row A": range(1, 5)},
    )
    head = factories.role(rm, Role.HEAD_JUDGE, username="hedda", first_name="Hedda")
    entry = round_.results.get(entry__name="A1").entry
    capture_record(
        round_=round_,
        entry=entry,
        judge=head,
        data=CaptureInput(
            client_id=uuid.uuid4(),
            kind="correction",
            time_ms=39 * MIN,
            status="finished",
            reason="The judge misread the clock",
        ),
    )
    report = round_report(round_)
    (heat,) = report.heats
    assert (heat.seated, heat.completed, heat.unfinished, heat.dns, heat.dsq) == (4, 2, 1, 1, 0)
    assert heat.spread.fastest == "0:39:00"
    assert (heat.own_starts, heat.corrections, report.groups[0].corrections) == (1, 1, 1)
    ((attempt, label),) = report.own_starts
    assert (attempt.name, attempt.table_number, label, attempt.own_start_delay) == (
        "A4",
        4,
        "Heat A",
        "0:03:00",
    )
    (correction,) = report.corrections
    assert (correction.name, correction.judge, correction.reason, correction.table_number) == (
        "A1",
        "Hedda",
        "The judge misread the clock",
        1,
    )
    # The page lists them.
    english.force_login(head)
    page = english.get(report_url(round_)).content.decode()
    assert '<td>A4</td><td class="num">0:03:00</td>' in page
    assert "<td>Hedda</td><td>The judge misread the clock</td>" in page


def test_dm_counts_the_adjacent_pieces(db):
    dm = factories.championship(slug="dm-report", ruleset="dm", language="en")
    puzzlers = [
        Puzzler(table=1, minutes=40, missing_lost=2, adjacent=2),
        Puzzler(table=2, minutes=41, missing_lost=3, adjacent=2),
        Puzzler(table=3, minutes=42, missing_lost=1),
        Puzzler(table=4, minutes=43),
        Puzzler(table=5, minutes=44),
        Puzzler(table=6, minutes=45),
        Puzzler(table=7, minutes=46),
    ]
    report = round_report(run(dm, {"a": (puzzlers, 0)}, groups={"Row 1": range(1, 4)}))
    assert report.adjacent_rule
    assert (report.whole.adjacent_reports, report.whole.adjacent_pieces) == (2, 4)
    (flag,) = report.flags
    assert flag.subject == "Row 1"
    assert flag.text == (
        "Row 1: 3 of 3 entrants reported missing pieces (100 %, 6 pieces), against 43 % in the "
        "round. 2 of them lost adjacent pieces: a faulty batch?"
    )


def test_the_report_reads_a_round_in_four_queries_however_many_entrants(
    rm, django_assert_num_queries
):
    many = {
        key: ([Puzzler(table=table, minutes=40 + table % 7) for table in range(1, 31)], 0)
        for key in "abcd"
    }
    round_ = run(rm, many, groups={"Front": range(1, 16), "Back": range(16, 31)})
    round_ = Round.objects.select_related("championship", "category").get(pk=round_.pk)
    with django_assert_num_queries(4):
        report = round_report(round_)
    assert report.whole.seated == 120


# The page and the CSV --------------------------------------------------------------------------


def report_url(round_, name="manage:round_report") -> str:
    return reverse(
        name, kwargs={"championship_slug": round_.championship.slug, "round_key": round_.key}
    )


@pytest.fixture
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_the_page_shows_the_flags_the_figures_and_the_charts(rm, english):
    round_ = planted(rm)
    english.force_login(factories.role(rm, Role.ORGANISER))
    response = english.get(report_url(round_))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-report-state="complete"' in page
    assert page.count('class="flag flag-') == 3
    assert "Heat C started 7 minutes late" in page
    assert "Row C: 4 of 6 entrants reported missing pieces" in page
    # Four charts, each titled and described, each with its figures in a table beside it.
    for chart in ("heat-times", "heat-curves", "group-missing", "group-times", "group-curves"):
        assert f'data-chart="{chart}"' in page
        assert f'aria-labelledby="{chart}-title {chart}-desc"' in page
        assert f'<title id="{chart}-title">' in page
    assert page.count('<path class="curve series-') == 3 + 3
    assert page.count('<g class="box flagged">') == 1
    assert page.count('<g class="bar flagged">') == 1
    assert '<td class="num" data-median>0:59:00</td>' in page
    # The link to download it, and the way back.
    assert report_url(round_, "manage:round_report_csv") in page
    assert reverse("manage:round_control", args=[rm.slug, round_.key]) in page


def test_charts_keep_a_decimal_point_in_a_language_with_a_decimal_comma(rm, client):
    round_ = planted(rm)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nb"
    client.force_login(factories.role(rm, Role.ORGANISER))
    page = client.get(report_url(round_)).content.decode()
    assert '<html lang="nb">' in page
    coordinates = re.findall(r' (?:x|y|x1|x2|y1|y2|width|height)="([^"]*)"', page)
    assert len(coordinates) > 100
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", value) for value in coordinates)
    assert any("." in value for value in coordinates)
    paths = re.findall(r' d="([^"]*)"', page)
    assert paths and not any("," in path for path in paths)


def test_the_report_csv_has_a_row_for_the_round_each_heat_and_each_group(rm, english):
    round_ = planted(rm)
    english.force_login(factories.role(rm, Role.HEAD_JUDGE))
    response = english.get(report_url(round_, "manage:round_report_csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="rm-report-{round_.key}-report.csv"'
    )
    assert {"private", "no-store"} <= set(response["Cache-Control"].split(", "))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(row["section"], row["key"], row["name"]) for row in rows] == [
        ("round", "", round_.display_name),
        ("heat", "a", "Heat A"),
        ("heat", "b", "Heat B"),
        ("heat", "c", "Heat C"),
        ("group", "Row A", "Row A"),
        ("group", "Row B", "Row B"),
        ("group", "Row C", "Row C"),
    ]
    heat_c = rows[3]
    assert (heat_c["seated"], heat_c["completed"], heat_c["median"]) == ("6", "6", "0:59:00")
    assert (heat_c["median_seconds"], heat_c["q1_seconds"], heat_c["q3_seconds"]) == (
        str(59 * 60),
        str(56 * 60),
        str(61 * 60 + 15),
    )
    assert heat_c["minutes_late"] == "7"
    assert heat_c["started_at"] == "2026-03-14T14:07:00+01:00"  # Europe/Oslo
    assert heat_c["finished_by_minute_60"] == "4"
    assert heat_c["flags"] == (
        "Heat C started 7 minutes late: scheduled at 14:00, started at 14:07. "
        "Heat C: the median time 0:59:00 is 0:12:30 (27 %) slower than the other heats’ 0:46:30."
    )
    row_c = rows[6]
    assert (row_c["missing_reports"], row_c["missing_pieces"]) == ("4", "7")
    assert row_c["flags"].startswith("Row C: 4 of 6 entrants reported missing pieces")
    assert rows[0]["flags"] == rows[4]["flags"] == ""
    assert len({len(row) for row in rows}) == 1


@pytest.mark.parametrize(
    ("who", "status"),
    [
        (Role.ORGANISER, 200),
        (Role.HEAD_JUDGE, 200),
        (Role.JUDGE, 403),
        ("organiser elsewhere", 403),
        ("anonymous", 302),
    ],
)
def test_organisers_and_head_judges_see_the_report_no_one_else(rm, english, who, status):
    round_ = planted(rm)
    if who == "organiser elsewhere":
        english.force_login(factories.role(factories.championship(), Role.ORGANISER))
    elif who != "anonymous":
        english.force_login(factories.role(rm, who))
    for name in ("manage:round_report", "manage:round_report_csv"):
        response = english.get(report_url(round_, name))
        assert response.status_code == status, name
        if status == 302:
            assert response.url.startswith(reverse("login"))
        if status != 200:
            assert b"Heat C" not in response.content


def test_a_head_judge_is_led_back_to_the_judging_dashboard(rm, english):
    round_ = planted(rm)
    english.force_login(factories.role(rm, Role.HEAD_JUDGE))
    page = english.get(report_url(round_)).content.decode()
    assert reverse("manage:dashboard", args=[rm.slug, round_.key]) in page
    assert f'href="{reverse("manage:round_control", args=[rm.slug, round_.key])}"' not in page


@pytest.mark.parametrize("name", ["manage:round_report", "manage:round_report_csv"])
@pytest.mark.parametrize("key", ["no-such-round", "individual-final-x"])
def test_an_unknown_round_is_not_found(rm, english, name, key):
    english.force_login(factories.role(rm, Role.ORGANISER))
    response = english.get(reverse(name, kwargs={"championship_slug": rm.slug, "round_key": key}))
    assert response.status_code == 404


def test_another_championships_round_is_not_found(rm, english):
    sm = factories.championship(slug="sm-report", ruleset="sm", language="en")
    prelim = planted(sm)
    assert not rm.rounds.filter(key=prelim.key).exists()
    english.force_login(factories.role(rm, Role.ORGANISER))
    for name in ("manage:round_report", "manage:round_report_csv"):
        response = english.get(reverse(name, args=[rm.slug, prelim.key]))
        assert response.status_code == 404


def test_before_the_start_the_page_says_there_is_nothing_yet(rm, english):
    round_ = rm.categories.get(kind="individual").rounds.get()
    english.force_login(factories.role(rm, Role.ORGANISER))
    page = english.get(report_url(round_)).content.decode()
    assert 'data-report-state="not-started"' in page
    assert "nothing to report yet" in page and 'class="chart' not in page
    response = english.get(report_url(round_, "manage:round_report_csv"))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(row["section"], row["seated"], row["median"]) for row in rows] == [("round", "0", "")]


def test_while_heats_run_the_page_says_it_is_not_complete(rm, english):
    round_ = planted(rm)
    Heat.objects.filter(round=round_, key="c").update(ended_at=None, state=Heat.State.RUNNING)
    english.force_login(factories.role(rm, Role.ORGANISER))
    page = english.get(report_url(round_)).content.decode()
    assert 'data-report-state="provisional"' in page
    assert "complete after time-up" in page


def test_after_time_up_the_page_says_who_has_no_result_yet(rm, english):
    round_ = planted(rm)
    Result.objects.filter(round=round_, entry__name="C6").update(
        status=Result.Status.PENDING, time_ms=None, outcome=""
    )
    english.force_login(factories.role(rm, Role.ORGANISER))
    page = english.get(report_url(round_)).content.decode()
    assert 'data-report-state="awaiting"' in page
    assert "Time is up in every heat, but 1 entrant has no result yet." in page
    assert round_report(round_).whole.puzzling == 1


def test_the_round_page_and_the_judging_dashboard_link_to_the_report(rm, english):
    round_ = planted(rm)
    english.force_login(factories.role(rm, Role.ORGANISER))
    for page in (
        english.get(reverse("manage:round_control", args=[rm.slug, round_.key])),
        english.get(reverse("manage:dashboard", args=[rm.slug, round_.key])),
    ):
        assert f'href="{report_url(round_)}"' in page.content.decode()


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
