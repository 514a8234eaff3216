"""The words on a 390x844 phone: the header's language switcher, the judge and the entrant."""

import os
import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Seat
from control import rounds
from tests import factories
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS")  # a folder, e.g. /tmp/shots: they go in words/
PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user


def shot(page, name):
    if SHOTS:
        folder = os.path.join(SHOTS, "words")
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def speak(page, live_server, language):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )


@pytest.fixture
def rm(db):
    """Rogalandsmesterskapet with a long name, heat A running at table 1, seating published."""
    championship = factories.championship(
        slug="rm-2026", name="Rogalandsmesterskapet i hurtigpusling 2026"
    )
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    table = factories.table(championship)
    entry = factories.entry(individual, name="Ingrid Hansen")
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=table, entry=entry)
    rounds.seating_publish(round_=round_)
    heat = rounds.heat_start(heat=heat)
    heat.started_at = timezone.now() - timedelta(minutes=5)
    heat.save()
    return SimpleNamespace(
        championship=championship,
        round=round_,
        heat=heat,
        table=table,
        entry=entry,
        judge=factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy"),
    )


def same_line(first, second):
    """Return whether two elements share a line: their boxes overlap vertically."""
    a, b = first.bounding_box(), second.bounding_box()
    return a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


@pytest.mark.parametrize("language", ["nb", "en"])
def test_the_language_switcher_sits_beside_the_name_on_a_phone(phone, live_server, rm, language):
    speak(phone, live_server, language)
    phone.goto(f"{live_server.url}/{rm.championship.slug}/")
    switcher = phone.locator("#language-select")
    expect(phone.locator(".language button")).to_have_count(0)  # the choice itself switches
    assert same_line(phone.locator(".site-header .brand"), switcher)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    shot(phone, f"header-{language}")
    with phone.expect_navigation():
        phone.select_option("#language-select", "sv")
    assert phone.locator("html").get_attribute("lang") == "sv"
    expect(phone.locator("#language-select")).to_have_value("sv")


def test_the_judges_phone_names_the_heat_and_keeps_the_header_short(phone, live_server, rm):
    speak(phone, live_server, "nb")
    log_in(phone, live_server, "judy", rm.table.get_absolute_url(), language=None)
    expect(phone.locator(".entry-head .meta")).to_contain_text("Heat A")
    assert same_line(phone.locator(".site-header .brand"), phone.locator("#language-select"))
    shot(phone, "judge-nb")


def test_the_entrant_sees_their_heat_and_table_on_a_phone(phone, live_server, rm):
    speak(phone, live_server, "nb")
    phone.goto(f"{live_server.url}/{rm.championship.slug}/entries/{rm.entry.manage_token}/")
    expect(phone.locator("#entry-live .card").first).to_contain_text("Heat A")
    expect(phone.locator("#entry-live .card").first).to_contain_text("1")
    shot(phone, "entrant-nb")


def test_the_live_mark_is_a_calm_green(phone, live_server, rm):
    speak(phone, live_server, "en")
    phone.goto(f"{live_server.url}/{rm.championship.slug}/results/{rm.round.key}/")
    dot = phone.locator(".results-live .live-dot")
    expect(dot).to_be_visible()
    colour = dot.evaluate("element => getComputedStyle(element).backgroundColor")
    red, green, blue = (int(part) for part in re.findall(r"\d+", colour)[:3])
    assert green > red and green > blue, f"the live mark is {colour}, not green"
    shot(phone, "results-live-en")
    # Its ring breathes out for a phone that did not ask for less motion, and only there.
    ring = "element => getComputedStyle(element, '::after').animationName"
    assert dot.evaluate(ring) == "none"  # the tests' browser asks for less motion
    phone.emulate_media(reduced_motion="no-preference")
    assert dot.evaluate(ring) == "live-ring"
