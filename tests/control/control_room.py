"""The control room tests' helpers: entrants, a seated round, its seats, URLs, messages."""

from datetime import UTC, date, datetime, timedelta

from django.urls import reverse

from championship.models import Seat
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from tests import factories
from tests.factories import NEXT_YEAR

T0 = datetime(NEXT_YEAR, 1, 1, tzinfo=UTC)
# The weekday of 14 March next year, as the pages abbreviate it in English.
MARCH_14 = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][date(NEXT_YEAR, 3, 14).weekday()]


def entrants(category, count, **kwargs):
    """Create ``count`` confirmed, official (Rogaland) entries, in registration order."""
    championship = category.championship
    made = []
    for number in range(count):
        person = factories.person(championship, region="Rogaland", name=f"Entrant {number + 1:02}")
        made.append(
            factories.entry(
                category,
                members=[person],
                registered_at=T0 + timedelta(minutes=number),
                **kwargs,
            )
        )
    return made


def seated(category, round_, count=4, tables=6, **plan):
    tables_create(championship=category.championship, count=tables)
    made = entrants(category, count)
    # Without prior rankings, seeding is registration order (and every preset allows it).
    rounds.round_seat(round_=round_, plan=SeatingPlan(**plan))
    return made


def seats_of(round_):
    return list(
        Seat.objects.filter(round=round_)
        .select_related("table", "heat", "entry")
        .order_by("heat__order", "table__number", "position")
    )


def url(name, championship, round_=None, **kwargs):
    if round_ is not None:
        kwargs["round_key"] = round_.key
    return reverse(f"manage:{name}", kwargs={"championship_slug": championship.slug, **kwargs})


def said(response) -> list[str]:
    """Return the messages the page shows."""
    return [str(message) for message in response.context["messages"]]
