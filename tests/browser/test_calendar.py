"""The public calendar in a browser: on a phone and a laptop, in every language, and its feeds."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from icalendar import Calendar
from playwright.sync_api import expect

from championship.models import Championship
from tests import factories
from tests.browser.conftest import LAPTOP, PHONE
from tests.browser.screens import shot
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AREA = "calendar"


@pytest.fixture
def season(db):
    """Three upcoming championships in three countries and states of registration, one past."""
    rogaland = factories.championship(
        slug="rm",
        name="Rogalandsmesterskapet i hurtigpusling",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
    )
    Championship.objects.filter(pk=rogaland.pk).update(
        venue="Bryne kulturhus", address="Storgata 1, 4340 Bryne"
    )
    individual = rogaland.categories.get(kind="individual")
    individual.capacity = 1
    individual.save()
    factories.entry(individual)
    sm = factories.championship(
        slug="pussel-sm",
        name="Pussel-SM",
        ruleset="sm",
        starts_at=datetime(NEXT_YEAR, 4, 25, 8, tzinfo=UTC),
    )
    Championship.objects.filter(pk=sm.pk).update(venue="Stadsbiblioteket", address="Malmö")
    sm.categories.update(registration_opens_at=datetime(NEXT_YEAR, 1, 15, 9, tzinfo=UTC))
    factories.championship(
        slug="nyc",
        name="New York Jigsaw Open",
        ruleset="neutral",
        starts_at=datetime(NEXT_YEAR, 4, 26, 14, 30, tzinfo=UTC),
        timezone="America/New_York",
        language="en",
    )
    factories.championship(
        slug="last-year",
        name="Last year's championship",
        starts_at=datetime(2026, 3, 14, 9, tzinfo=UTC),
    )
    return rogaland


def speak(page, live_server, language):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )


def fetch_calendar(page, url) -> Calendar:
    """Fetch a feed as a calendar application would, and read it back."""
    answer = page.request.get(url)
    assert answer.ok, (url, answer.status)
    assert answer.headers["content-type"].startswith("text/calendar")
    return Calendar.from_ical(answer.body())


def test_the_calendar_on_a_phone_with_its_feed(phone, live_server, season):
    speak(phone, live_server, "en")
    phone.goto(f"{live_server.url}/")
    shot(phone, "home-calendar-link-phone", area=AREA)
    phone.get_by_role("link", name="Calendar of upcoming championships").click()
    phone.wait_for_url(f"{live_server.url}/calendar/")
    main = phone.locator("main")
    expect(main.locator("h1")).to_have_text("Upcoming championships")
    expect(main.locator(".calendar-item h3")).to_have_text(
        ["Rogalandsmesterskapet i hurtigpusling", "Pussel-SM", "New York Jigsaw Open"]
    )
    expect(main.locator(".calendar-month h2")).to_have_text(
        [f"March {NEXT_YEAR}", f"April {NEXT_YEAR}"]
    )
    expect(main).not_to_contain_text("Last year's championship")
    rogaland = main.locator(".calendar-item").first
    expect(rogaland).to_contain_text("Bryne kulturhus, Storgata 1, 4340 Bryne")
    expect(rogaland.locator(".calendar-registration")).to_have_text(
        f"Registration open until 9 March {NEXT_YEAR}, 10:00"
    )
    expect(rogaland.locator(".calendar-categories li").first).to_have_text(
        "Individual: full, waiting list"
    )
    nyc = main.locator(".calendar-item").nth(2)
    expect(nyc.locator(".calendar-when")).to_contain_text(f"26 April {NEXT_YEAR}, 10:30")
    expect(nyc.locator(".calendar-when")).to_contain_text("America/New_York")
    # Nothing runs off a phone's screen.
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "calendar-phone-en", area=AREA)

    subscribe = main.get_by_role("link", name="Subscribe (iCalendar)")
    href = subscribe.get_attribute("href")
    assert href == "/calendar.ics"
    feed = fetch_calendar(phone, f"{live_server.url}{href}")
    summaries = [str(event["SUMMARY"]) for event in feed.walk("VEVENT")]
    assert "Rogalandsmesterskapet i hurtigpusling" in summaries
    assert "Påmeldingsfrist: Rogalandsmesterskapet i hurtigpusling" in summaries
    assert "New York Jigsaw Open" in summaries
    assert "Last year's championship" not in summaries

    # Each championship's own feed, from the calendar and from its page.
    own = rogaland.get_by_role("link", name="Add to calendar").get_attribute("href")
    assert own == "/rm/calendar.ics"
    rogaland.get_by_role("link", name="Rogalandsmesterskapet i hurtigpusling").click()
    phone.wait_for_url(f"{live_server.url}/rm/")
    link = phone.locator("main").get_by_role("link", name="Add to calendar")
    expect(link).to_be_visible()
    assert link.get_attribute("href") == own
    shot(phone, "championship-page-add-to-calendar-phone", area=AREA)
    events = fetch_calendar(phone, f"{live_server.url}{own}").walk("VEVENT")
    assert [event["DTSTART"].dt for event in events] == [
        datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
        datetime(NEXT_YEAR, 3, 9, 9, tzinfo=UTC),
    ]


@pytest.mark.parametrize(
    ("language", "heading", "subscribe"),
    [
        ("nb", "Kommende mesterskap", "Abonner (iCalendar)"),
        ("sv", "Kommande mästerskap", "Prenumerera (iCalendar)"),
        ("da", "Kommende mesterskaber", "Abonnér (iCalendar)"),
    ],
)
def test_the_calendar_in_each_language_on_a_phone(
    phone, live_server, season, language, heading, subscribe
):
    speak(phone, live_server, language)
    phone.goto(f"{live_server.url}/calendar/")
    main = phone.locator("main")
    expect(main.locator("h1")).to_have_text(heading)
    expect(main.get_by_role("link", name=subscribe)).to_have_attribute("href", "/calendar.ics")
    expect(main.locator(".calendar-item")).to_have_count(3)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, f"calendar-phone-{language}", area=AREA)


def test_the_calendar_on_a_laptop(page, live_server, season):
    page.set_viewport_size(LAPTOP)
    speak(page, live_server, "nb")
    page.goto(f"{live_server.url}/calendar/")
    main = page.locator("main")
    expect(main.locator(".calendar-registration").first).to_have_text(
        f"Påmeldingen er åpen til 9. mars {NEXT_YEAR} kl. 10:00"
    )
    expect(main.locator(".calendar-item").nth(1).locator(".calendar-registration")).to_have_text(
        f"Påmeldingen åpner 15. januar {NEXT_YEAR} kl. 10:00"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    shot(page, "calendar-laptop-nb", area=AREA)
