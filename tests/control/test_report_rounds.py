"""The round report of a round in the database, its page and its CSV, and who may read it."""

from __future__ import annotations

import csv
import io
import re
import uuid

import pytest
from django.conf import settings
from django.urls import reverse

from championship.models import ChampionshipRole, Heat, Round
from control.report import (
    Flag,
    round_report,
)
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from results.models import Result
from tests import factories
from tests.control.report_rounds import MIN, ROWS, Puzzler, planted, run

Role = ChampionshipRole.Role


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
