"""A round's report for the organiser and the head judges: a page with charts, and a CSV file."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from championship.permissions import Role, has_role, role_required
from control import charts
from control.report import THRESHOLDS, Flag, RoundReport, round_report
from control.report_figures import MINUTE_MS, Summary
from control.views.common import REPORT, round_or_404
from core import csvfile

TIME_FLAGS = (Flag.SLOWER, Flag.FASTER)


def _by_minute(summaries, marks) -> list[tuple[Summary, list[int]]]:
    """Return each summary with how many had finished by each of ``marks`` (minutes)."""
    return [(summary, [summary.finished_by(minute) for minute in marks]) for summary in summaries]


def _flagged(report: RoundReport, *kinds: str) -> frozenset[str]:
    return frozenset(flag.subject for flag in report.flags if flag.kind in kinds)


def _thresholds() -> dict:
    """Return the thresholds of the flags as the page explains them."""
    return {
        "heat_percent": round(THRESHOLDS.heat_share * 100),
        "heat_minutes": THRESHOLDS.heat_minimum_ms // MINUTE_MS,
        "heat_finished": THRESHOLDS.heat_finished,
        "missing_factor": f"{THRESHOLDS.missing_factor:g}",
        "missing_reports": THRESHOLDS.missing_reports,
        "late_minutes": int(THRESHOLDS.late_start.total_seconds() // 60),
    }


@require_GET
@role_required(Role.HEAD_JUDGE)
def round_report_page(request, championship, round_key):
    """Show a round's report: per heat and per group of tables, what stands out, with charts."""
    round_ = round_or_404(championship, round_key)
    report = round_report(round_)
    marks = report.checkpoints
    through_ms = marks[-1] * MINUTE_MS if marks else report.time_limit_ms
    time_flagged = _flagged(report, *TIME_FLAGS)
    missing_flagged = _flagged(report, Flag.MISSING_PIECES)
    organiser = has_role(request.user, championship, Role.ORGANISER)
    context = {
        "round": round_,
        "report": report,
        "organiser": organiser,
        "marks": marks,
        "heats_by_minute": _by_minute(report.heats, marks),
        "groups_by_minute": _by_minute(report.groups, marks),
        "time_flagged": time_flagged,
        "late_flagged": _flagged(report, Flag.LATE_START),
        "missing_flagged": missing_flagged,
        "nothing_flagged": frozenset(),
        "thresholds": _thresholds(),
        "heat_curves": charts.curve_chart(report.heats, through_ms=through_ms),
        "heat_times": charts.box_chart(report.heats, whole=report.whole, flagged=time_flagged),
        "group_curves": charts.curve_chart(report.groups, through_ms=through_ms),
        "group_times": charts.box_chart(report.groups, whole=report.whole),
        "group_missing": charts.missing_chart(
            report.groups,
            whole=report.whole,
            adjacent=report.adjacent_rule,
            flagged=missing_flagged,
        ),
    }
    if organiser:
        context["nav_round"] = round_
    else:
        # A head judge who is not an organiser goes back to the judging dashboard.
        context["no_control_room"] = True
        context["nav_url"] = reverse(
            "manage:dashboard",
            kwargs={"championship_slug": championship.slug, "round_key": round_.key},
        )
        context["nav_label"] = _("Judging dashboard")
    return render(request, REPORT, context)


# The CSV's columns; their names in the championship's language (an English file: the keys).
CSV_COLUMNS = (
    "section",
    "key",
    "name",
    "seated",
    "completed",
    "unfinished",
    "invalid",
    "dns",
    "dsq",
    "puzzling",
    "median",
    "median_seconds",
    "q1_seconds",
    "q3_seconds",
    "iqr_seconds",
    "fastest_seconds",
    "slowest_seconds",
)
CSV_COLUMNS_AFTER = (
    "missing_reports",
    "missing_pieces",
    "adjacent_reports",
    "adjacent_pieces",
    "own_starts",
    "corrections",
    "scheduled_start",
    "started_at",
    "minutes_late",
    "flags",
)


CSV_HEADERS = {
    "section": pgettext_lazy("csv header", "section"),
    "key": pgettext_lazy("csv header", "key"),
    "name": pgettext_lazy("csv header", "name"),
    "seated": pgettext_lazy("csv header", "seated"),
    "completed": pgettext_lazy("csv header", "completed"),
    "unfinished": pgettext_lazy("csv header", "unfinished"),
    "invalid": pgettext_lazy("csv header", "invalid"),
    "dns": pgettext_lazy("csv header", "dns"),
    "dsq": pgettext_lazy("csv header", "dsq"),
    "puzzling": pgettext_lazy("csv header", "puzzling"),
    "median": pgettext_lazy("csv header", "median"),
    "median_seconds": pgettext_lazy("csv header", "median_seconds"),
    "q1_seconds": pgettext_lazy("csv header", "q1_seconds"),
    "q3_seconds": pgettext_lazy("csv header", "q3_seconds"),
    "iqr_seconds": pgettext_lazy("csv header", "iqr_seconds"),
    "fastest_seconds": pgettext_lazy("csv header", "fastest_seconds"),
    "slowest_seconds": pgettext_lazy("csv header", "slowest_seconds"),
    "missing_reports": pgettext_lazy("csv header", "missing_reports"),
    "missing_pieces": pgettext_lazy("csv header", "missing_pieces"),
    "adjacent_reports": pgettext_lazy("csv header", "adjacent_reports"),
    "adjacent_pieces": pgettext_lazy("csv header", "adjacent_pieces"),
    "own_starts": pgettext_lazy("csv header", "own_starts"),
    "corrections": pgettext_lazy("csv header", "corrections"),
    "scheduled_start": pgettext_lazy("csv header", "scheduled_start"),
    "started_at": pgettext_lazy("csv header", "started_at"),
    "minutes_late": pgettext_lazy("csv header", "minutes_late"),
    "flags": pgettext_lazy("csv header", "flags"),
}
FINISHED_BY_HEADER = pgettext_lazy("csv header", "finished_by_minute_%(minute)s")
SECTION_WORDS = {
    "round": pgettext_lazy("csv value", "round"),
    "heat": pgettext_lazy("csv value", "heat"),
    "group": pgettext_lazy("csv value", "group"),
}


def _instant(moment) -> str | None:
    return None if moment is None else timezone.localtime(moment).isoformat(timespec="seconds")


def _seconds(ms: int | None) -> int | None:
    # Whole seconds, truncated, as times are ranked.
    return None if ms is None else ms // 1000


def csv_rows(report: RoundReport) -> list[list]:
    """Return the report as a table: a header, the round, each heat, each group of tables.

    Its column names and section words are in the active language.
    """
    marks = report.checkpoints
    header = [
        *(str(CSV_HEADERS[column]) for column in CSV_COLUMNS),
        *(FINISHED_BY_HEADER % {"minute": minute} for minute in marks),
        *(str(CSV_HEADERS[column]) for column in CSV_COLUMNS_AFTER),
    ]
    rows = [header]
    sections = [("round", report.whole)]
    sections += [("heat", heat) for heat in report.heats]
    sections += [("group", group) for group in report.groups]
    for section, summary in sections:
        spread = summary.spread
        flags = [
            flag.text
            for flag in report.flags
            if section != "round"
            and flag.subject == summary.key
            and (flag.kind == Flag.MISSING_PIECES) == (section == "group")
        ]
        rows.append(
            [
                str(SECTION_WORDS[section]),
                summary.key,
                summary.label,
                summary.seated,
                summary.completed,
                summary.unfinished,
                summary.invalid,
                summary.dns,
                summary.dsq,
                summary.puzzling,
                spread.median if spread else None,
                _seconds(spread.median_ms) if spread else None,
                _seconds(spread.q1_ms) if spread else None,
                _seconds(spread.q3_ms) if spread else None,
                _seconds(spread.iqr_ms) if spread else None,
                _seconds(spread.fastest_ms) if spread else None,
                _seconds(spread.slowest_ms) if spread else None,
                *(summary.finished_by(minute) for minute in marks),
                summary.missing_reports,
                summary.missing_pieces,
                summary.adjacent_reports,
                summary.adjacent_pieces,
                summary.own_starts,
                summary.corrections,
                _instant(summary.scheduled_start),
                _instant(summary.started_at),
                summary.late_minutes,
                " ".join(flags),
            ]
        )
    return rows


@never_cache
@require_GET
@role_required(Role.HEAD_JUDGE)
def round_report_csv(request, championship, round_key):
    """Download a round's report as CSV: a row for the round, each heat, each group of tables.

    In the championship's language and dialect (``core.csvfile``), whatever the page's.
    """
    round_ = round_or_404(championship, round_key)
    with translation.override(championship.language):
        rows = csv_rows(round_report(round_))
    return csvfile.response(
        f"{championship.slug}-{round_.key}-report.csv", rows, language=championship.language
    )
