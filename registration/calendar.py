"""The public calendar: the site's upcoming championships with their registration state.

The page ``/calendar/``, and iCalendar feeds (``registration/ical.py``) for the site,
``/calendar.ics``, and for one championship, ``/<championship_slug>/calendar.ics``.

upcoming
    Listed publicly and not a draft (``championship.selectors.public_championships``),
    and not yet over: its last day, in its own time zone, is today or later. A
    championship that starts today is upcoming all day, wherever the reader is.
its days
    From its start to the end of its last scheduled heat (the heat's scheduled start
    and its round's time limit), at least the start and the longest time limit of its
    categories: a championship that schedules a final for the next day lasts two days.
registration state
    Per category, ``registration.places.registration_state``; summed up for the
    championship: open while any category is open (until the deadline), else opening
    on the earliest day a category opens, else full with a waiting list, else closed.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.cache import (
    add_never_cache_headers,
    get_conditional_response,
    patch_cache_control,
)
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from championship import selectors
from championship.models import Category, Championship, Heat
from championship.permissions import get_championship, sees_draft
from core import site_url
from registration import ical, places
from registration.models import Entry

# A championship that started this long ago is over, whatever its schedule (a heat is
# scheduled at most 3 days after the start; championship.bounds).
LONGEST = timedelta(days=4)
# How long a browser or a calendar may keep a public feed before asking again.
FEED_MAX_AGE = 10 * 60
# The registration state of a championship that has no category yet.
NO_CATEGORIES = "no_categories"


@dataclass(frozen=True)
class CategoryState:
    """A category's name and registration state, and when it opens (``not_open``)."""

    name: str
    state: str
    opens_at: datetime | None


@dataclass(frozen=True)
class Listing:
    """A championship as the calendar shows it: its days and its registration."""

    championship: Championship
    ends_at: datetime
    state: str
    deadline: datetime
    opens_at: datetime | None
    categories: tuple[CategoryState, ...]

    @property
    def tzinfo(self):
        return self.championship.tzinfo

    def clock(self, moment: datetime) -> datetime:
        """Return ``moment`` on the championship's clock, in its own time zone."""
        return timezone.localtime(moment, self.tzinfo)

    @property
    def local_start(self) -> datetime:
        return self.clock(self.championship.starts_at)

    @property
    def local_end(self) -> datetime:
        return self.clock(self.ends_at)

    @property
    def month(self) -> str:
        """Return the month it starts in, on its own clock, as a heading ("March 2027")."""
        return capfirst(formats.date_format(self.local_start, "YEAR_MONTH_FORMAT"))

    @property
    def day(self) -> int:
        """Return the day of the month it starts on, on its own clock."""
        return self.local_start.day

    @property
    def month_short(self) -> str:
        """Return the month it starts in, abbreviated ("mar"), on its own clock."""
        return formats.date_format(self.local_start, "b")

    @property
    def several_days(self) -> bool:
        return self.local_end.date() > self.local_start.date()

    @property
    def mixed(self) -> bool:
        """Whether its categories differ in state (then each is named with its own)."""
        return len({category.state for category in self.categories}) > 1

    def local(self, moment: datetime) -> str:
        """Return ``moment`` as a date and time of the championship's zone, in the language."""
        return formats.date_format(self.clock(moment), "DATETIME_FORMAT")

    def registration_text(self) -> str:
        """Return the registration state in words, in the active language."""
        if self.state == places.OPEN:
            return _("Registration open until %(deadline)s") % {
                "deadline": self.local(self.deadline)
            }
        if self.state == places.FULL:
            return _("Full, waiting list open until %(deadline)s") % {
                "deadline": self.local(self.deadline)
            }
        if self.state == places.NOT_OPEN and self.opens_at is not None:
            return _("Registration opens on %(date)s") % {"date": self.local(self.opens_at)}
        if self.state == places.CLOSED:
            return _("Registration closed")
        return _("Registration not open yet")

    def category_texts(self) -> list[str]:
        """Return each category with its own state in words ("Pair: full, waiting list")."""
        return [
            _("%(category)s: %(state)s")
            % {"category": category.name, "state": self._state_words(category)}
            for category in self.categories
        ]

    def _state_words(self, category: CategoryState) -> str:
        if category.state == places.OPEN:
            return pgettext("registration state", "open")
        if category.state == places.FULL:
            return pgettext("registration state", "full, waiting list")
        if category.state == places.NOT_OPEN and category.opens_at is not None:
            return pgettext("registration state", "opens on %(date)s") % {
                "date": self.local(category.opens_at)
            }
        return pgettext("registration state", "closed")


def summed_up(states: list[CategoryState]) -> tuple[str, datetime | None]:
    """Return a championship's registration state from its categories', and when it opens."""
    if not states:
        return NO_CATEGORIES, None
    found = {category.state for category in states}
    if places.OPEN in found:
        return places.OPEN, None
    if places.NOT_OPEN in found:
        opening = [c.opens_at for c in states if c.state == places.NOT_OPEN and c.opens_at]
        return places.NOT_OPEN, min(opening, default=None)
    if places.FULL in found:
        return places.FULL, None
    return places.CLOSED, None


def listings(championships: list[Championship], *, now: datetime) -> list[Listing]:
    """Return the championships as the calendar shows them, in three queries in all.

    Their categories with the places taken (one query), their scheduled heats with
    their rounds' time limits (one query).
    """
    by_id = {championship.pk: championship for championship in championships}
    categories = defaultdict(list)
    for category in (
        Category.objects.filter(championship__in=list(by_id))
        .annotate(held_count=Count("entries", filter=Q(entries__status__in=Entry.HOLDING_PLACE)))
        .order_by("order", "key")
    ):
        # Its championship is the one at hand: no query per category for its deadline.
        category.championship = by_id[category.championship_id]
        categories[category.championship_id].append(category)
    ends = {
        championship.pk: championship.starts_at
        + timedelta(
            minutes=max(
                (c.time_limit_minutes for c in categories[championship.pk]),
                default=0,
            )
        )
        for championship in championships
    }
    for heat in Heat.objects.filter(
        round__championship__in=list(by_id), scheduled_start__isnull=False
    ).select_related("round__category"):
        end = heat.scheduled_start + timedelta(minutes=heat.round.effective_time_limit_minutes)
        championship_id = heat.round.championship_id
        ends[championship_id] = max(ends[championship_id], end)
    found = []
    for championship in championships:
        states = [
            CategoryState(
                name=category.display_name,
                state=places.registration_state(category, now=now),
                opens_at=category.registration_opens_at,
            )
            for category in categories[championship.pk]
        ]
        state, opens_at = summed_up(states)
        found.append(
            Listing(
                championship=championship,
                ends_at=ends[championship.pk],
                state=state,
                deadline=championship.effective_registration_deadline(),
                opens_at=opens_at,
                categories=tuple(states),
            )
        )
    return found


def upcoming(*, now: datetime) -> list[Listing]:
    """Return the site's upcoming public championships, the next first."""
    candidates = list(
        selectors.public_championships()
        .filter(starts_at__gte=now - LONGEST)
        .order_by("starts_at", "name", "pk")
    )
    found = [
        listing
        for listing in listings(candidates, now=now)
        if listing.local_end.date() >= timezone.localtime(now, listing.tzinfo).date()
    ]
    # By the date each starts on where it is held, as a calendar reads.
    return sorted(
        found, key=lambda listing: (listing.local_start.date(), listing.championship.starts_at)
    )


def _feed_response(request, body: bytes, *, filename: str, private: bool) -> HttpResponse:
    """Answer a feed with its ETag; ``304`` to a client that holds it already.

    A public feed may be kept ``FEED_MAX_AGE``; a draft's, seen only by its staff, never.
    """
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["ETag"] = etag
    if private:
        add_never_cache_headers(response)
    else:
        patch_cache_control(response, max_age=FEED_MAX_AGE)
    return response


@require_safe
def calendar_page(request):
    """Show the upcoming championships by month, with their registration state."""
    return render(
        request,
        "registration/calendar.html",
        {"listings": upcoming(now=timezone.now())},
    )


@require_safe
def calendar_feed(request):
    """Serve the upcoming championships as iCalendar: each one's start and open deadline."""
    now = timezone.now()
    body = ical.site_calendar(
        upcoming(now=now),
        now=now,
        page_url=site_url.absolute_url(reverse("calendar"), request=request),
        feed_url=site_url.absolute_url(reverse("calendar_feed"), request=request),
    )
    return _feed_response(request, body, filename="championships.ics", private=False)


@require_safe
def championship_feed(request, championship_slug):
    """Serve one championship as iCalendar: its start and its registration deadline.

    A draft's feed is its staff's alone; to anyone else it does not exist.
    """
    championship = get_championship(request, championship_slug)
    if not sees_draft(request.user, championship):
        raise Http404
    now = timezone.now()
    (listing,) = listings([championship], now=now)
    body = ical.championship_calendar(
        listing,
        feed_url=site_url.absolute_url(
            reverse("registration:calendar_feed", kwargs={"championship_slug": championship.slug}),
            request=request,
        ),
    )
    return _feed_response(
        request, body, filename=f"{championship.slug}.ics", private=championship.draft
    )
