"""The public calendar: the page ``/calendar/`` and the iCalendar feeds, site-wide and per
championship, read back as a calendar application reads them."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.conf import settings
from icalendar import Calendar

from championship.models import Championship, ChampionshipRole
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
OSLO = ZoneInfo("Europe/Oslo")


def parsed(response) -> Calendar:
    """Return a feed's answer read back as a calendar, after checking it is one."""
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def events(calendar: Calendar) -> dict[str, object]:
    """Return a calendar's events by UID."""
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def upcoming(slug, *, starts_at=None, **fields) -> Championship:
    """Create a rogaland championship next year (registration closes 5 days before it)."""
    created = factories.championship(
        slug=slug,
        name=fields.pop("name", f"Championship {slug}"),
        starts_at=starts_at or datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
        timezone=fields.pop("timezone", None),
        language=fields.pop("language", None),
    )
    if fields:
        Championship.objects.filter(pk=created.pk).update(**fields)
        created.refresh_from_db()
    return created


@pytest.fixture
def season(db):
    """One upcoming championship listed, and three the calendar must not show."""
    return {
        "listed": upcoming(
            "bryne-open", name="Bryne Open", venue="Bryne kulturhus", address="Storgata 1, Bryne"
        ),
        "past": factories.championship(
            slug="last-spring",
            name="Last spring",
            starts_at=datetime(2026, 3, 14, 9, tzinfo=UTC),
        ),
        "draft": upcoming("secret-draft", name="Secret draft", draft=True),
        "unlisted": upcoming("unlisted", name="Unlisted club night", is_public=False),
    }


def test_the_site_feed_holds_only_upcoming_published_championships(client, season):
    calendar = parsed(client.get("/calendar.ics"))
    summaries = [str(event["SUMMARY"]) for event in calendar.walk("VEVENT")]
    listed = season["listed"]
    assert sorted(summaries) == ["Bryne Open", "Påmeldingsfrist: Bryne Open"]
    found = events(calendar)
    assert set(found) == {
        f"championship-{listed.pk}@testserver",
        f"championship-{listed.pk}-registration-deadline@testserver",
    }
    for name in ("Last spring", "Secret draft", "Unlisted club night"):
        assert name not in client.get("/calendar.ics").text
    assert str(calendar["X-WR-CALNAME"]) == "Speed-puzzling championships"


def test_each_event_says_where_and_what_with_an_absolute_link(client, season):
    listed = season["listed"]
    calendar = parsed(client.get("/calendar.ics"))
    for event in calendar.walk("VEVENT"):
        assert str(event["LOCATION"]) == "Bryne kulturhus, Storgata 1, Bryne"
        assert str(event["URL"]) == "http://testserver/bryne-open/"
        assert "Påmeldingen er åpen til" in str(event["DESCRIPTION"])
        assert "http://testserver/bryne-open/" in str(event["DESCRIPTION"])
        assert event["DTSTAMP"].dt == listed.updated_at.replace(microsecond=0)
        assert event["DTSTART"].params["TZID"] == "Europe/Oslo"
    # The time zone the events name is described in the document.
    assert [str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")] == ["Europe/Oslo"]


def test_the_page_lists_the_same_championships_with_a_subscribe_link(english, season):
    page = english.get("/calendar/")
    assert page.status_code == 200
    text = page.text
    assert '<a href="/bryne-open/">Bryne Open</a>' in text
    assert "Bryne kulturhus, Storgata 1, Bryne" in text
    for name in ("Last spring", "Secret draft", "Unlisted club night"):
        assert name not in text
    assert 'href="/calendar.ics"' in text and "Subscribe (iCalendar)" in text
    assert 'href="/bryne-open/calendar.ics"' in text
    # 14 March, 09:00 UTC is 10:00 in Oslo; registration closes 5 days before (rogaland).
    assert f"14 March {NEXT_YEAR}, 10:00" in text
    assert f"Registration open until 9 March {NEXT_YEAR}, 10:00" in text
    assert f"March {NEXT_YEAR}</h2>" in text


def test_a_championships_feed_holds_its_start_and_its_registration_deadline(client, season):
    listed = season["listed"]
    found = events(parsed(client.get("/bryne-open/calendar.ics")))
    start = found[f"championship-{listed.pk}@testserver"]
    deadline = found[f"championship-{listed.pk}-registration-deadline@testserver"]
    assert start["DTSTART"].dt == datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    assert start["DTSTART"].dt.utcoffset() == timedelta(hours=1)
    assert str(start["SUMMARY"]) == "Bryne Open"
    # The longest time limit of its categories (120 minutes) with no heat scheduled.
    assert start["DTEND"].dt == datetime(NEXT_YEAR, 3, 14, 11, tzinfo=UTC)
    assert deadline["DTSTART"].dt == listed.effective_registration_deadline()
    assert deadline["DTSTART"].dt == datetime(NEXT_YEAR, 3, 9, 9, tzinfo=UTC)
    assert str(deadline["TRANSP"]) == "TRANSPARENT"
    assert "DTEND" not in deadline


def test_the_organisers_own_deadline_is_the_deadline_event(client, season):
    listed = season["listed"]
    own = datetime(NEXT_YEAR, 2, 28, 21, 0, tzinfo=UTC)
    Championship.objects.filter(pk=listed.pk).update(registration_deadline=own)
    found = events(parsed(client.get("/bryne-open/calendar.ics")))
    deadline = found[f"championship-{listed.pk}-registration-deadline@testserver"]
    assert deadline["DTSTART"].dt == own
    # 22:00 in Oslo, on its last day of February.
    assert deadline["DTSTART"].dt.astimezone(OSLO).strftime("%d %H:%M") == "28 22:00"


def test_a_scheduled_final_next_day_makes_the_start_event_last_two_days(english, season):
    listed = season["listed"]
    final = listed.categories.get(kind="individual").rounds.get()
    factories.heat(final, scheduled_start=datetime(NEXT_YEAR, 3, 15, 12, tzinfo=UTC))
    start = events(parsed(english.get("/bryne-open/calendar.ics")))[
        f"championship-{listed.pk}@testserver"
    ]
    assert start["DTEND"].dt == datetime(NEXT_YEAR, 3, 15, 14, tzinfo=UTC)
    assert f"14 March {NEXT_YEAR}, 10:00</time> – <time" in english.get("/calendar/").text


def test_the_same_championship_gives_the_same_events_on_every_fetch(client, season):
    first = client.get("/bryne-open/calendar.ics")
    again = client.get("/bryne-open/calendar.ics")
    assert first.content == again.content
    assert set(events(parsed(first))) == set(events(parsed(again)))
    assert set(events(parsed(client.get("/calendar.ics")))) == set(events(parsed(first)))
    # A calendar that holds the feed is answered 304, without a body.
    assert first["ETag"]
    unchanged = client.get("/bryne-open/calendar.ics", HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304 and not unchanged.content
    assert "max-age=600" in first["Cache-Control"]


def test_a_change_to_the_championship_changes_the_feed_but_not_its_uids(client, season):
    first = client.get("/bryne-open/calendar.ics")
    listed = season["listed"]
    listed.venue = "Bryne stadion"
    listed.save()
    changed = client.get("/bryne-open/calendar.ics", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert set(events(parsed(changed))) == set(events(parsed(first)))
    assert all(
        str(event["LOCATION"]).startswith("Bryne stadion")
        for event in parsed(changed).walk("VEVENT")
    )


def test_a_drafts_feed_is_its_staffs_alone(client, season):
    draft = season["draft"]
    url = "/secret-draft/calendar.ics"
    assert client.get(url).status_code == 404
    client.force_login(factories.user())
    assert client.get(url).status_code == 404
    client.force_login(factories.role(season["listed"], Role.ORGANISER))
    assert client.get(url).status_code == 404
    for role in (Role.ORGANISER, Role.JUDGE):
        client.force_login(factories.role(draft, role))
        answer = client.get(url)
        assert str(parsed(answer).walk("VEVENT")[0]["SUMMARY"]) == "Secret draft"
        # Never kept where another could be served it.
        assert "private" in answer["Cache-Control"] and "no-store" in answer["Cache-Control"]
    # Even its own organiser does not find it among the public championships.
    assert "Secret draft" not in client.get("/calendar.ics").text
    assert "Secret draft" not in client.get("/calendar/").text


def test_an_unlisted_championship_has_a_feed_of_its_own(client, season):
    calendar = parsed(client.get("/unlisted/calendar.ics"))
    assert "Unlisted club night" in [str(e["SUMMARY"]) for e in calendar.walk("VEVENT")]


def test_a_past_championships_feed_still_answers(client, season):
    calendar = parsed(client.get("/last-spring/calendar.ics"))
    assert len(calendar.walk("VEVENT")) == 2


def test_an_unknown_championship_has_no_feed(client, db):
    assert client.get("/no-such-championship/calendar.ics").status_code == 404


def test_a_championship_in_another_time_zone_keeps_its_own_clock(english, db):
    nyc = upcoming(
        "new-york-open",
        name="New York Open",
        starts_at=datetime(NEXT_YEAR, 3, 20, 13, 30, tzinfo=UTC),
        timezone="America/New_York",
        language="en",
        registration_deadline=datetime(NEXT_YEAR, 3, 1, 4, 59, tzinfo=UTC),
    )
    found = events(parsed(english.get("/new-york-open/calendar.ics")))
    start = found[f"championship-{nyc.pk}@testserver"]["DTSTART"]
    assert start.params["TZID"] == "America/New_York"
    assert start.dt == datetime(NEXT_YEAR, 3, 20, 13, 30, tzinfo=UTC)
    # Daylight saving time has begun in New York by 20 March: 9:30, four hours behind.
    assert start.dt.astimezone(ZoneInfo("America/New_York")).strftime("%H:%M") == "09:30"
    deadline = found[f"championship-{nyc.pk}-registration-deadline@testserver"]["DTSTART"]
    assert deadline.dt == datetime(NEXT_YEAR, 3, 1, 4, 59, tzinfo=UTC)
    calendar = parsed(english.get("/new-york-open/calendar.ics"))
    assert [str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")] == ["America/New_York"]
    assert str(found[f"championship-{nyc.pk}@testserver"]["SUMMARY"]) == "New York Open"
    page = english.get("/calendar/").text
    # Its own date and clock, and the time zone named; the deadline on the eve of 1 March there.
    assert f"20 March {NEXT_YEAR}, 09:30" in page and "America/New_York" in page
    assert f"Registration open until 28 February {NEXT_YEAR}, 23:59" in page


def test_summaries_are_in_each_championships_language(english, db):
    upcoming("sm", name="Pussel-SM", language="sv", timezone="Europe/Stockholm")
    upcoming("dm", name="DM i Speedpuzzling", language="da", timezone="Europe/Copenhagen")
    summaries = {
        str(event["SUMMARY"]) for event in parsed(english.get("/calendar.ics")).walk("VEVENT")
    }
    assert summaries == {
        "Pussel-SM",
        "Anmälan stänger: Pussel-SM",
        "DM i Speedpuzzling",
        "Tilmeldingsfrist: DM i Speedpuzzling",
    }


def test_a_championship_that_starts_today_in_its_own_zone_is_upcoming_all_day(client, db):
    """At 23:30 UTC it is already tomorrow in Auckland and still today in Los Angeles."""
    now = datetime(NEXT_YEAR, 6, 10, 23, 30, tzinfo=UTC)
    with time_machine.travel(now, tick=False):
        auckland = ZoneInfo("Pacific/Auckland")
        los_angeles = ZoneInfo("America/Los_Angeles")
        upcoming(
            "started-in-auckland",
            starts_at=datetime(NEXT_YEAR, 6, 11, 9, tzinfo=auckland),
            timezone="Pacific/Auckland",
        )
        upcoming(
            "this-morning-in-la",
            starts_at=datetime(NEXT_YEAR, 6, 10, 8, tzinfo=los_angeles),
            timezone="America/Los_Angeles",
        )
        upcoming(
            "yesterday-in-la",
            starts_at=datetime(NEXT_YEAR, 6, 9, 10, tzinfo=los_angeles),
            timezone="America/Los_Angeles",
        )
        upcoming(
            "yesterday-in-auckland",
            starts_at=datetime(NEXT_YEAR, 6, 10, 9, tzinfo=auckland),
            timezone="Pacific/Auckland",
        )
        feed = client.get("/calendar.ics").text
        page = client.get("/calendar/").text
    for shown in ("started-in-auckland", "this-morning-in-la"):
        assert f"Championship {shown}" in feed and f"/{shown}/" in page
    for gone in ("yesterday-in-la", "yesterday-in-auckland"):
        assert f"Championship {gone}" not in feed and f"/{gone}/" not in page


def test_the_registration_state_in_words(english, season):
    listed = season["listed"]
    individual, pair, team = listed.categories.order_by("order")
    for category in (individual, pair, team):
        category.capacity = 1
        category.save()
    factories.entry(individual)
    text = english.get("/calendar/").text
    # Open while a category is open; each category's own state where they differ.
    assert f"Registration open until 9 March {NEXT_YEAR}, 10:00" in text
    assert "<li>Individual: full, waiting list</li>" in text
    assert "<li>Pair: open</li>" in text
    factories.entry(pair)
    factories.entry(team)
    text = english.get("/calendar/").text
    assert f"Full, waiting list open until 9 March {NEXT_YEAR}, 10:00" in text
    assert "<li>Individual:" not in text
    opens = datetime(NEXT_YEAR, 1, 10, 8, tzinfo=UTC)
    listed.categories.update(registration_opens_at=opens)
    with time_machine.travel(datetime(NEXT_YEAR, 1, 2, 12, tzinfo=UTC), tick=False):
        text = english.get("/calendar/").text
        feed = english.get("/calendar.ics").text
    assert f"Registration opens on 10 January {NEXT_YEAR}, 09:00" in text
    assert "Påmeldingen åpner" in feed
    # Within five days of the start (rogaland), registration has closed.
    with time_machine.travel(datetime(NEXT_YEAR, 3, 12, 12, tzinfo=UTC), tick=False):
        text = english.get("/calendar/").text
        calendar = parsed(english.get("/calendar.ics"))
    assert "Registration closed" in text
    # A deadline that has passed is no longer an event of the site's feed.
    assert [str(e["SUMMARY"]) for e in calendar.walk("VEVENT")] == ["Bryne Open"]


def test_a_championship_without_categories_says_registration_is_not_open(english, db):
    factories.championship(
        slug="bare",
        name="Bare",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
        with_categories=False,
    )
    assert "Registration not open yet" in english.get("/calendar/").text
    start = events(parsed(english.get("/bare/calendar.ics")))
    assert len(start) == 2


def test_the_page_in_norwegian(client, season):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nb"
    text = client.get("/calendar/").text
    assert '<html lang="nb">' in text
    assert "Kommende mesterskap" in text
    assert "Abonner (iCalendar)" in text
    assert "Legg til i kalenderen" in text
    assert f"Påmeldingen er åpen til 9. mars {NEXT_YEAR} kl. 10:00" in text
    assert f"14. mars {NEXT_YEAR} kl. 10:00" in text
    assert f"Mars {NEXT_YEAR}</h2>" in text
    assert "norsk tid" in text


def test_the_page_and_the_feeds_in_every_language_and_no_championship(client, db):
    for language in ("en", "nb", "sv", "da"):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        assert client.get("/calendar/").status_code == 200
        assert parsed(client.get("/calendar.ics")).walk("VEVENT") == []


def test_head_answers_like_get_without_a_body(client, season):
    for url in ("/calendar.ics", "/bryne-open/calendar.ics", "/calendar/"):
        answer = client.head(url)
        assert answer.status_code == 200, url
        assert not answer.content
    assert client.head("/calendar.ics")["Content-Type"].startswith("text/calendar")
    assert client.head("/secret-draft/calendar.ics").status_code == 404
    assert client.post("/calendar.ics").status_code == 405


def test_the_site_feed_reads_a_fixed_number_of_queries(client, db, django_assert_num_queries):
    for number in range(6):
        upcoming(f"open-{number}", starts_at=datetime(NEXT_YEAR, 4, 1 + number, 9, tzinfo=UTC))
    # The championships, their categories with the places taken, their scheduled heats.
    with django_assert_num_queries(3):
        assert len(parsed(client.get("/calendar.ics")).walk("VEVENT")) == 12
    with django_assert_num_queries(3):
        assert client.get("/calendar/").status_code == 200


def test_a_championship_stored_at_the_end_of_the_calendar_is_shown(english, db):
    """A row older than the date checks may hold year 9999: shown, never a server error."""
    far = upcoming("far", name="Far away")
    Championship.objects.filter(pk=far.pk).update(
        starts_at=datetime(9999, 12, 31, 12, tzinfo=UTC),
        registration_deadline=datetime(9999, 12, 30, tzinfo=UTC),
    )
    assert "Far away" in english.get("/calendar/").text
    assert len(parsed(english.get("/calendar.ics")).walk("VEVENT")) == 2
    calendar = parsed(english.get("/far/calendar.ics"))
    assert len(calendar.walk("VEVENT")) == 2
    # No zone can be described that far: the times are in UTC.
    assert calendar.walk("VTIMEZONE") == []
    assert all(event["DTSTART"].dt.utcoffset() == timedelta(0) for event in calendar.walk("VEVENT"))


def test_the_home_page_and_a_championships_page_link_the_calendar(english, season):
    assert 'href="/calendar/"' in english.get("/").text
    page = english.get("/bryne-open/").text
    assert 'href="/bryne-open/calendar.ics"' in page and "Add to calendar" in page


def test_site_url_names_the_host_of_every_uid_and_link(client, season, settings):
    settings.SITE_URL = "https://puzzle.example.org"
    listed = season["listed"]
    found = events(parsed(client.get("/bryne-open/calendar.ics")))
    assert f"championship-{listed.pk}@puzzle.example.org" in found
    assert str(found[f"championship-{listed.pk}@puzzle.example.org"]["URL"]) == (
        "https://puzzle.example.org/bryne-open/"
    )


def test_the_page_groups_by_the_month_where_each_championship_is_held(english, db):
    """1 April in Auckland is still 31 March in UTC and in Oslo: it stands under April."""
    upcoming(
        "auckland",
        name="Auckland Open",
        starts_at=datetime(NEXT_YEAR, 4, 1, 9, tzinfo=ZoneInfo("Pacific/Auckland")),
        timezone="Pacific/Auckland",
    )
    upcoming("oslo", name="Oslo Open", starts_at=datetime(NEXT_YEAR, 3, 31, 21, tzinfo=UTC))
    text = english.get("/calendar/").text
    march, april = text.index(f"March {NEXT_YEAR}</h2>"), text.index(f"April {NEXT_YEAR}</h2>")
    assert march < text.index("Oslo Open") < april < text.index("Auckland Open")
