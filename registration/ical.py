"""The calendar's iCalendar documents (RFC 5545), written with the ``icalendar`` library.

A championship is two events: its start (to the end of its last scheduled heat)
and its registration deadline, an instant that takes no time in the reader's day.
Each event's UID is the championship's id at the site's host, so a calendar that
fetches the feed again updates the events it has rather than adding new ones.
Times carry the championship's time zone, described by a VTIMEZONE; the words
(summary, description) are in the championship's language, wherever it is read.
Nothing in a document changes unless the championship or its registration does:
its DTSTAMP is the championship's last change, so an unchanged feed keeps its ETag.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.utils import translation
from django.utils.translation import gettext as _
from icalendar import Calendar, Event, vDuration
from icalendar.enums import TRANSP

from core import site_url

if TYPE_CHECKING:
    from registration.calendar import Listing

PRODID = "-//Speed-puzzling championships//Calendar//EN"
# How often a subscribed calendar should fetch the feed again.
REFRESH = timedelta(hours=3)
# A time zone is described a week either side of the events that use it.
ZONE_MARGIN = timedelta(days=7)


def _host() -> str:
    """Return the site's host name, the right-hand side of every UID."""
    return urlsplit(site_url.base_url()).hostname or "localhost"


def championship_events(listing: Listing, *, deadline: bool = True) -> list[Event]:
    """Return a championship's start, and its registration deadline unless ``deadline`` is off."""
    championship = listing.championship
    host = _host()
    page = site_url.absolute_url(championship.get_absolute_url())
    location = ", ".join(part for part in (championship.venue, championship.address) if part)
    stamp = championship.updated_at
    with translation.override(championship.language):
        registration = [listing.registration_text()]
        if listing.mixed:
            registration += listing.category_texts()
        events = [
            Event.new(
                uid=f"championship-{championship.pk}@{host}",
                start=listing.local_start,
                end=listing.local_end if listing.ends_at > championship.starts_at else None,
                stamp=stamp,
                last_modified=stamp,
                summary=championship.name,
                location=location or None,
                url=page,
                description="\n".join([*registration, page]),
            )
        ]
        if deadline:
            last_moment = _(
                "The last moment to register for %(championship)s, which starts %(start)s."
            ) % {"championship": championship.name, "start": listing.local(championship.starts_at)}
            events.append(
                Event.new(
                    uid=f"championship-{championship.pk}-registration-deadline@{host}",
                    start=listing.clock(listing.deadline),
                    stamp=stamp,
                    last_modified=stamp,
                    summary=_("Registration closes: %(championship)s")
                    % {"championship": championship.name},
                    location=location or None,
                    url=page,
                    description="\n".join([last_moment, *registration, page]),
                    transparency=TRANSP.TRANSPARENT,
                )
            )
    return events


def _document(events: list[Event], *, uid: str, name: str, page_url: str, feed_url: str) -> bytes:
    """Return a calendar of ``events``, with the time zones they name."""
    calendar = Calendar.new(
        prodid=PRODID,
        uid=uid,
        name=name,
        url=page_url,
        source=feed_url,
        refresh_interval=REFRESH,
        subcomponents=events,
    )
    # RFC 7986 asks for the value type; Outlook and Apple's calendars read their own name.
    calendar["REFRESH-INTERVAL"].params["VALUE"] = "DURATION"
    calendar.add("X-PUBLISHED-TTL", vDuration(REFRESH))
    moments = [moment for event in events for moment in (event.start, event.end) if moment]
    if moments:
        try:
            calendar.add_missing_timezones(
                first_date=min(moments).date() - ZONE_MARGIN,
                last_date=max(moments).date() + ZONE_MARGIN,
            )
        except OverflowError:
            # A row older than the date checks, at the end of the calendar (year 9999): no
            # zone can be described that far, so its times are given in UTC.
            _in_utc(calendar, events)
    return calendar.to_ical()


def _in_utc(calendar: Calendar, events: list[Event]) -> None:
    """Give every event's times in UTC, and drop the time zones described."""
    calendar.subcomponents = [c for c in calendar.subcomponents if c.name != "VTIMEZONE"]
    for event in events:
        if "DTEND" in event:
            event.end = event.end.astimezone(UTC)
        event.start = event.start.astimezone(UTC)


def site_calendar(listings: list[Listing], *, now: datetime, page_url: str, feed_url: str) -> bytes:
    """Return the site's feed: each championship's start, and its deadline while it is ahead."""
    events = [
        event
        for listing in listings
        for event in championship_events(listing, deadline=listing.deadline > now)
    ]
    return _document(
        events,
        uid=f"calendar@{_host()}",
        name=_("Speed-puzzling championships"),
        page_url=page_url,
        feed_url=feed_url,
    )


def championship_calendar(listing: Listing, *, feed_url: str) -> bytes:
    """Return one championship's feed: its start and its registration deadline."""
    championship = listing.championship
    return _document(
        championship_events(listing),
        uid=f"championship-{championship.pk}-calendar@{_host()}",
        name=championship.name,
        page_url=site_url.absolute_url(championship.get_absolute_url()),
        feed_url=feed_url,
    )
