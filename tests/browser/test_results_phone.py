"""A round's results on a 390x844 phone, and printed: places, marks, waiting entrants, language."""

import os
from datetime import date, timedelta

import pytest
from django.conf import settings
from django.utils import formats, timezone, translation
from playwright.sync_api import expect

from championship.models import Round, Seat
from control import rounds
from results import official
from results.models import Result
from results.services import standings_recompute
from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS")  # a folder, e.g. /tmp/shots: they go in results/
PATH = "/sm-2026/results/individual-prelim/"


def shot(page, name):
    if SHOTS:
        folder = os.path.join(SHOTS, "results")
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def english(page, live_server):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )


def finish(round_, entry, minutes, *, missing=0):
    Result.objects.filter(round=round_, entry=entry).update(
        status="finished", time_ms=minutes * 60_000, missing_lost=missing
    )


@pytest.fixture
def prelim(db):
    """An SM preliminary round: heat A has run 40 minutes, heat B has not started.

    Eight entrants, two of them without Swedish citizenship (they take part
    unofficially); the best three qualify for the final.
    """
    championship = factories.championship(
        slug="sm-2026", name="Pussel-SM 2026", ruleset="sm", venue="Stockholmsmässan"
    )
    individual = championship.categories.get(kind="individual")
    prelim = individual.rounds.get(stage=Round.Stage.PRELIM)
    prelim.advance, prelim.advance_count = Round.Advance.OVERALL, 3
    prelim.save()
    heats = {key: factories.heat(prelim, key=key, order=order) for order, key in enumerate("ab")}
    entries = []
    names = [
        ("Anna Lindqvist", "SE", "a"),
        ("Björn Ek", "SE", "a"),
        ("Camille Durand", "FR", "a"),
        ("Dagny Johannessen-Fjeldstad", "SE", "a"),
        ("Erik Sandberg", "SE", "a"),
        ("Frida Nyström", "SE", "b"),
        ("Greta Berg", "NO", "b"),
        ("Hugo Wall", "SE", "b"),
    ]
    for name, citizenship, heat in names:
        person = factories.person(
            championship, name=name, citizenship=[citizenship], birth_date=date(1990, 5, 1)
        )
        entry = factories.entry(individual, members=[person], name=name, publish_consent=True)
        Seat.objects.create(heat=heats[heat], table=factories.table(championship), entry=entry)
        entries.append(entry)
    rounds.heat_start(heat=heats["a"], at=timezone.now() - timedelta(minutes=40))
    # Camille (unofficial) is fastest; Erik is still puzzling.
    for entry, minutes in zip(entries[:4], (31, 33, 29, 35), strict=True):
        finish(prelim, entry, minutes, missing=2 if minutes == 35 else 0)
    standings_recompute(round_=prelim)
    prelim.refresh_from_db()
    return {"round": prelim, "entries": entries, "heats": heats}


def row(page, name):
    return page.locator("#results-table .results-live tbody tr", has_text=name)


def test_a_phone_shows_official_places_the_unofficial_and_who_waits(phone, live_server, prelim):
    english(phone, live_server)
    phone.goto(f"{live_server.url}{PATH}")
    live = phone.locator("#results-table .results-live")
    expect(live.locator("th.official-place")).to_be_visible()

    camille = row(phone, "Camille Durand")
    expect(camille.locator("td.place")).to_have_text("1")
    expect(camille.locator("td.official-place")).to_have_text("")
    expect(camille.locator(".unofficial-mark")).to_be_visible()
    anna = row(phone, "Anna Lindqvist")
    expect(anna.locator("td.place")).to_have_text("2")
    expect(anna.locator("td.official-place")).to_have_text("1")  # beside the place
    expect(anna.locator(".unofficial-mark")).to_have_count(0)

    # Heat B has not started: its entrants are listed, as waiting, not left out.
    for name in ("Frida Nyström", "Greta Berg", "Hugo Wall"):
        expect(row(phone, name).locator("td.result")).to_contain_text("waiting")
        expect(row(phone, name).locator("td.result")).to_contain_text("Heat B")
    expect(row(phone, "Erik Sandberg").locator("td.result")).to_have_text("Puzzling")

    # Three have qualified by the numbers, but the round is running: no "Q" yet.
    assert Result.objects.filter(round=prelim["round"], qualified=True).exists()
    expect(live.locator("tbody .qualified-mark")).to_have_count(0)
    legend = live.locator(".legend")
    expect(legend).to_contain_text("Who qualifies is shown once the results are official.")
    expect(legend).to_contain_text("has a place, but no official place")
    expect(legend).to_contain_text("The entrant's heat has not started yet.")

    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the results page is {width}px wide on a 390px phone"
    shot(phone, "phone-running")


@pytest.mark.parametrize("language", ["sv", "nb", "da"])
def test_the_results_fit_a_390_px_phone_in_every_language(phone, live_server, prelim, language):
    phone.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    for path, name in ((PATH, "round"), ("/sm-2026/results/", "index")):
        phone.goto(f"{live_server.url}{path}")
        expect(phone.locator("html")).to_have_attribute("lang", language)
        expect(phone.locator("th.official-place").first).to_be_visible()
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} is {width}px wide on a 390px phone in {language}"
        shot(phone, f"phone-{name}-{language}")


def test_a_phone_shows_q_once_the_results_are_official(phone, live_server, prelim):
    round_, entries = prelim["round"], prelim["entries"]
    rounds.heat_start(heat=prelim["heats"]["b"], at=timezone.now() - timedelta(minutes=45))
    for entry, minutes in zip(entries[4:], (37, 30, 39, 38), strict=True):
        finish(round_, entry, minutes)
    rounds.round_close(round_=round_)
    standings_recompute(round_=round_)
    round_.refresh_from_db()
    assert rounds.results_final(round_)
    qualified = list(
        Result.objects.filter(round=round_, qualified=True).values_list("entry__name", flat=True)
    )
    assert qualified

    english(phone, live_server)
    phone.goto(f"{live_server.url}{PATH}")
    live = phone.locator("#results-table .results-live")
    # Complete, but not signed off: provisional, and who qualifies is not shown yet.
    expect(live.locator(".live-state")).to_have_text(
        "Provisional results: they may still change until they are signed off."
    )
    expect(live.locator("tbody .qualified-mark")).to_have_count(0)
    official.round_sign_off(round_=round_, by=None)
    phone.reload()
    expect(live.locator(".live-state")).to_contain_text("Official results")
    expect(live.locator("tbody .qualified-mark")).to_have_count(len(qualified))
    for name in qualified:
        expect(row(phone, name).locator(".qualified-mark")).to_have_text("Q")
    legend = live.locator(".legend")
    expect(legend).to_contain_text("Qualified for the next round")
    expect(legend).not_to_contain_text("Who qualifies is shown")
    expect(live.locator("text=waiting")).to_have_count(0)
    shot(phone, "phone-decided")


def test_printed_results_are_in_the_championships_language_with_a_header(page, live_server, prelim):
    english(page, live_server)  # the organiser reads English
    page.goto(f"{live_server.url}{PATH}")
    expect(page.locator(".no-print h1")).to_have_text("Individual: Preliminary round")
    page.emulate_media(media="print")

    printed = page.locator(".results-print")
    expect(printed).to_be_visible()
    expect(page.locator(".results-live")).to_be_hidden()
    expect(page.locator(".site-header")).to_be_hidden()
    header = printed.locator(".print-header")
    started = prelim["heats"]["a"]
    started.refresh_from_db()
    day = timezone.localtime(started.started_at, prelim["round"].championship.tzinfo).date()
    with translation.override("sv"):
        round_name = str(Round.Stage.PRELIM.label)
        when = formats.date_format(day, "DATE_FORMAT")  # "14 mars 2026"
    expect(header).to_contain_text("Pussel-SM 2026")
    expect(header.locator("h1")).to_have_text(f"Individuell: {round_name}")
    assert round_name != "Preliminary round"
    expect(header).to_contain_text(when)
    expect(header).to_contain_text("Stockholmsmässan")

    heading = printed.locator("thead")
    expect(heading).to_contain_text("Placering")
    expect(heading).to_contain_text("Officiell placering")
    expect(heading).to_contain_text("Resultat")
    expect(heading).not_to_contain_text("Official place")
    expect(printed.locator("tbody")).to_contain_text("Pusslar")  # Erik, still puzzling
    shot(page, "print-sv")
