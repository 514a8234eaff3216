"""One format of a duration (``core.l10n.format_duration``), and every place that shows one.

The cases (``tests/durations_cases.py``) run here against the Python function and
in ``tests/browser/test_durations_js.py`` against the browser's. Then one round with
two known results, 1:02:03.456 and 0:12:34, is shown everywhere a time is shown to
people: each page, the CSV file, the diploma and the results e-mail must write
exactly what ``format_duration`` writes.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pypdfium2
import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone

from championship.models import ChampionshipRole, OutgoingMail, Round
from championship.services import tables_create
from control import rounds
from core.l10n import format_duration, parse_duration
from results.models import Result
from results.services import standings_recompute
from results.templatetags.results_tags import duration
from tests import factories
from tests.durations_cases import FORMAT_CASES, NOT_DURATIONS, PARSE_CASES

Role = ChampionshipRole.Role

# The two results of the round below: over an hour (milliseconds truncated) and under one.
SLOW_MS = 3_723_456
FAST_MS = 754_000


# The format ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("ms", "text", "about"), FORMAT_CASES, ids=[c[1] for c in FORMAT_CASES])
def test_the_format(ms, text, about):
    assert format_duration(ms) == text, about


def test_the_cases_asked_for_are_in_the_table():
    shown = {ms: text for ms, text, _about in FORMAT_CASES}
    assert shown[0] == "0:00:00"
    assert shown[42_017] == "0:00:42"  # under a minute
    assert shown[3_599_999] == "0:59:59"  # 59:59.999, truncated as the rules rank it
    assert shown[3_600_000] == "1:00:00"  # exactly one hour
    assert shown[SLOW_MS] == "1:02:03"  # over an hour
    assert shown[FAST_MS] == "0:12:34"


def test_no_time_is_no_text():
    assert format_duration(None) is None
    assert duration(None) == "" and duration("") == ""


@pytest.mark.parametrize(("ms", "text", "about"), FORMAT_CASES, ids=[c[1] for c in FORMAT_CASES])
def test_the_template_filter_writes_the_same_from_whole_seconds(ms, text, about):
    assert duration(ms // 1000) == text, about
    rendered = Template("{% load results_tags %}{{ seconds|duration }}").render(
        Context({"seconds": ms // 1000})
    )
    assert rendered == text


@pytest.mark.parametrize(("text", "ms"), PARSE_CASES, ids=[c[0] for c in PARSE_CASES])
def test_parsing_reads_what_the_format_writes(text, ms):
    assert parse_duration(text) == ms


@pytest.mark.parametrize(("ms", "text", "about"), FORMAT_CASES, ids=[c[1] for c in FORMAT_CASES])
def test_a_written_time_reads_back_as_its_whole_seconds(ms, text, about):
    assert parse_duration(format_duration(ms)) == ms // 1000 * 1000
    assert format_duration(parse_duration(text)) == text


@pytest.mark.parametrize("text", NOT_DURATIONS)
def test_parsing_refuses_what_is_no_time(text):
    with pytest.raises(ValueError):
        parse_duration(text)


# Every place that shows one --------------------------------------------------------------------


def shows(text: str, ms: int) -> bool:
    """Whether ``text`` holds ``format_duration(ms)`` as a time of its own (not inside another)."""
    written = re.escape(format_duration(ms))
    return re.search(rf"(?<![\d:]){written}(?![\d:])", text) is not None


def shows_both(text: str) -> None:
    slow, fast = format_duration(SLOW_MS), format_duration(FAST_MS)
    assert (slow, fast) == ("1:02:03", "0:12:34")
    assert shows(text, SLOW_MS), f"{slow} is not shown"
    assert shows(text, FAST_MS), f"{fast} is not shown"


@pytest.fixture
def timed(db):
    """The individual final of a rogaland championship, run and closed: two entrants timed.

    Ida finishes in 1:02:03.456, Ola in 0:12:34; both confirmed their results.
    """
    championship = factories.championship(slug="durations", name="Tidsmesterskapet")
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    tables_create(championship=championship, count=2)
    for name, email in (("Ida Time", "ida@example.org"), ("Ola Fast", "ola@example.org")):
        person = factories.person(
            championship, name=name, email=email, region="Rogaland", birth_date=date(1990, 1, 1)
        )
        factories.entry(
            individual,
            members=[person],
            name=name,
            publish_consent=True,
            contact_email=email,
            language="en",
        )
    rounds.round_seat(round_=final)
    rounds.seating_publish(round_=final)
    rounds.round_start(round_=final)
    rounds.round_close(round_=final)
    factories.ran_earlier(final)
    times = {"Ida Time": SLOW_MS, "Ola Fast": FAST_MS}
    for result in Result.objects.filter(round=final).select_related("entry"):
        result.status, result.time_ms = "finished", times[result.entry.name]
        result.confirmed_at = timezone.now()
        result.save()
    standings_recompute(round_=final)
    final.refresh_from_db()
    return final


def signed_off(round_: Round) -> Round:
    rounds.round_sign_off(round_=round_, by=None)
    round_.refresh_from_db()
    return round_


def as_organiser(client, round_: Round):
    client.force_login(factories.role(round_.championship, Role.ORGANISER, username="organiser"))
    return client


def test_the_results_are_what_the_places_show(timed):
    results = {r.entry.name: r for r in timed.results.select_related("entry")}
    ida, ola = results["Ida Time"], results["Ola Fast"]
    assert (ida.time_ms, ida.outcome, ida.place) == (SLOW_MS, "completed", 2)
    assert (ola.time_ms, ola.outcome, ola.place) == (FAST_MS, "completed", 1)
    # The final time is kept in whole seconds: the format has nothing left to cut.
    assert (ida.final_ms, ola.final_ms) == (3_723_000, FAST_MS)


def test_the_round_results_page(english, timed):
    page = english.get(reverse("results:round", args=[timed.championship.slug, timed.key]))
    assert page.status_code == 200
    text = page.content.decode()
    shows_both(text)
    assert f"<time>{format_duration(SLOW_MS)}</time>" in text


def test_the_results_index_and_the_category_standings(english, timed):
    text = english.get(f"/{timed.championship.slug}/results/").content.decode()
    shows_both(text)


def test_the_projector_board_and_its_clock(english, timed):
    page = english.get(reverse("results:screen", args=[timed.championship.slug, timed.key]))
    assert page.status_code == 200
    text = page.content.decode()
    shows_both(text)
    # The clock's time limit before the script runs: 120 minutes.
    limit = format_duration(timed.effective_time_limit_minutes * 60_000)
    assert limit == "2:00:00"
    assert f'id="remaining">{limit}</span>' in text


def test_the_venue_podium(english, timed):
    signed_off(timed)
    url = reverse("results:venue_podium", args=[timed.championship.slug, timed.category.key])
    text = english.get(url).content.decode()
    shows_both(text)


def test_the_page_a_diplomas_qr_code_opens(english, timed):
    for result in timed.results.select_related("entry"):
        url = reverse(
            "results:result_detail", args=[timed.championship.slug, timed.key, result.entry.ref]
        )
        text = english.get(url).content.decode()
        assert shows(text, result.final_ms), result.entry.name


def test_the_puzzlers_page(english, timed):
    signed_off(timed)
    ida = timed.results.get(entry__name="Ida Time").entry.members.get()
    puzzler = factories.confirm_address(ida).puzzler
    text = english.get(puzzler.get_absolute_url()).content.decode()
    assert shows(text, SLOW_MS)


def test_the_judges_dashboard(english, timed):
    as_organiser(english, timed)
    url = reverse("manage:dashboard", args=[timed.championship.slug, timed.key])
    page = english.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    shows_both(text)
    assert f'<td class="num">{format_duration(SLOW_MS)}</td>' in text


def test_the_entrants_private_page(english, timed):
    for result in timed.results.select_related("entry"):
        url = reverse(
            "results:entry_page", args=[timed.championship.slug, result.entry.manage_token]
        )
        text = english.get(url).content.decode()
        assert f"<strong>{format_duration(result.final_ms)}</strong>" in text, result.entry.name


def test_the_round_report(english, timed):
    as_organiser(english, timed)
    url = reverse("manage:round_report", args=[timed.championship.slug, timed.key])
    text = english.get(url).content.decode()
    # "Fastest - slowest", in the heat's row and the round's.
    assert f"{format_duration(FAST_MS)}–{format_duration(SLOW_MS)}" in text
    csv_url = reverse("manage:round_report_csv", args=[timed.championship.slug, timed.key])
    text = english.get(csv_url).content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text), delimiter=";"))  # a Norwegian championship
    median = format_duration((SLOW_MS + FAST_MS) // 2)
    assert rows[0]["Median"] == median == "0:37:18"


def test_the_results_csv(english, timed):
    url = reverse("results:round_csv", args=[timed.championship.slug, timed.key])
    text = english.get(url).content.decode("utf-8-sig")
    # A Norwegian championship: semicolons, as a Nordic spreadsheet reads them.
    rows = {row["Navn"]: row for row in csv.DictReader(io.StringIO(text), delimiter=";")}
    assert rows["Ida Time"]["Tid"] == format_duration(SLOW_MS)
    assert rows["Ola Fast"]["Tid"] == format_duration(FAST_MS)
    # The column for sums and sorting keeps its whole seconds.
    final = "Sluttid (sekunder)"
    assert (rows["Ida Time"][final], rows["Ola Fast"][final]) == ("3723", "754")


def test_the_diplomas(english, timed):
    signed_off(timed)
    as_organiser(english, timed)
    pdf = english.get(reverse("manage:round_diplomas", args=[timed.championship.slug, timed.key]))
    assert pdf.status_code == 200
    pages = [page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(pdf.content)]
    assert len(pages) == 2
    fast, slow = pages  # in the order of the places
    assert shows(fast, FAST_MS) and not shows(fast, SLOW_MS)
    assert shows(slow, SLOW_MS)


def test_the_results_email(timed):
    signed_off(timed)
    mails = OutgoingMail.objects.filter(kind=OutgoingMail.Kind.RESULTS)
    bodies = {mail.to: mail.body for mail in mails}
    assert shows(bodies["ida@example.org"], SLOW_MS)
    assert shows(bodies["ola@example.org"], FAST_MS)
