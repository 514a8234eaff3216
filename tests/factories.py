"""Small factories for the models: sensible defaults, keyword overrides."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import F

from championship import services
from championship.models import Championship, ChampionshipRole, Heat, Round, Seat, Table
from registration import addresses
from registration.models import Entry, EntryMember, Person

_numbers = itertools.count(1)

START = datetime(2026, 3, 14, 9, 0, tzinfo=UTC)
# A year whose every day lies ahead, within the five years a championship may be set up
# for (championship.bounds): for a championship whose registration is still open.
NEXT_YEAR = datetime.now(UTC).year + 1


def championship(*, slug: str | None = None, ruleset: str = "rogaland", **kwargs) -> Championship:
    """Create a championship from a preset, with its categories and rounds."""
    number = next(_numbers)
    return services.championship_create(
        slug=slug or f"championship-{number}",
        name=kwargs.pop("name", f"Championship {number}"),
        ruleset=ruleset,
        starts_at=kwargs.pop("starts_at", START),
        **kwargs,
    )


def user(*, username: str | None = None, **kwargs):
    return get_user_model().objects.create_user(
        username=username or f"user{next(_numbers)}", password="a-long-password-1", **kwargs
    )


def role(championship: Championship, role: str, **user_kwargs):
    """Create a user with ``role`` in ``championship``."""
    person = user(**user_kwargs)
    ChampionshipRole.objects.create(championship=championship, user=person, role=role)
    return person


def person(championship: Championship, **kwargs) -> Person:
    number = next(_numbers)
    kwargs.setdefault("name", f"Person {number}")
    kwargs.setdefault("email", f"person{number}@example.org")
    return Person.objects.create(championship=championship, **kwargs)


def confirm_address(person: Person) -> Person:
    """Confirm the person's address as the link mailed to it does: they join its puzzler."""
    token = addresses.address_token(person)
    return addresses.address_confirm(championship=person.championship, token=token)


def entry(category, *, members: list[Person] | None = None, **kwargs) -> Entry:
    """Create a confirmed entry with ``category.min_members`` members unless given.

    ``publish_consent=True`` is every member's consent, as registration stores it.
    The contact address is the first member's, as registration stores it: a
    ``contact_email`` given becomes the first member's address ("" for none).
    """
    championship_ = category.championship
    if members is None:
        members = [person(championship_) for _ in range(category.min_members)]
    if members and "contact_email" in kwargs and members[0].email != kwargs["contact_email"]:
        members[0].email = kwargs["contact_email"]
        members[0].save(update_fields=["email"])
    kwargs.setdefault("contact_email", members[0].email if members else "")
    if kwargs.get("publish_consent"):
        for member in members:
            if not member.publish_consent:
                member.publish_consent = True
                member.save(update_fields=["publish_consent"])
    kwargs.setdefault("name", " & ".join(m.name for m in members))
    created = Entry.objects.create(category=category, **kwargs)
    for position, member in enumerate(members, start=1):
        EntryMember.objects.create(entry=created, person=member, position=position)
    return created


def heat(round_: Round, *, key: str = "a", **kwargs) -> Heat:
    return Heat.objects.create(round=round_, key=key, **kwargs)


def started_heat(round_: Round, *, started_at: datetime) -> Heat:
    """Seat ``round_`` and start it as the control room does; return its one heat.

    The heat's start is set to ``started_at`` (in the past, so that judges can record).
    """
    from control import rounds

    rounds.round_seat(round_=round_)
    (started,) = rounds.round_start(round_=round_)
    started.started_at = started_at
    started.save()
    return started


def ran_earlier(round_: Round, *, hours: int = 3) -> None:
    """Move the start of every started heat of ``round_`` (and its own starts) ``hours`` back.

    For a test that starts a round now and then records finishes 40 minutes into
    it, or closes it at once and then enters results: time called before a finish
    makes it no completion (``Heat.time_called_ms``), so the heat must have started
    long enough before the call.
    """
    shift = timedelta(hours=hours)
    for started in round_.heats.filter(started_at__isnull=False):
        started.started_at -= shift
        started.save(update_fields=["started_at"])
    Seat.objects.filter(round=round_, started_at__isnull=False).update(
        started_at=F("started_at") - shift
    )


def table(championship: Championship, *, number: int | None = None, **kwargs) -> Table:
    if number is None:
        last = championship.tables.order_by("-number").values_list("number", flat=True).first()
        number = (last or 0) + 1
    return Table.objects.create(championship=championship, number=number, **kwargs)
