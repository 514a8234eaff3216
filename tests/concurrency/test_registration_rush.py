"""40 registrations at once for the last 5 places: exactly 5 confirmed, in arrival order."""

import threading
import time
from datetime import UTC, date, datetime

import pytest
from django.db import connection, connections

from championship.models import Category
from registration import services
from registration.models import Entry
from registration.validation import MemberData
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RUSH = 40
PLACES_LEFT = 5
BEFORE = datetime(2026, 2, 1, tzinfo=UTC)


def rush(category):
    """Register RUSH entrants from RUSH threads released at the same instant."""
    start = threading.Barrier(RUSH)
    errors = []

    def one(number):
        try:
            start.wait()
            services.entry_register(
                category=category,
                members=[
                    MemberData(
                        name=f"Rusher {number}",
                        email=f"rusher{number}@example.org",
                        birth_date=date(1990, 1, 1),
                        region="Rogaland",
                    )
                ],
                now=BEFORE,
            )
        except Exception as error:  # reported below, with the thread's number
            errors.append((number, error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one, args=(n,)) for n in range(RUSH)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors


@pytest.fixture
def nearly_full(db):
    championship = factories.championship(slug="rush")
    category = championship.categories.get(kind="individual")
    Category.objects.filter(pk=category.pk).update(capacity=20)
    for _ in range(20 - PLACES_LEFT):
        factories.entry(category, status=Entry.Status.CONFIRMED)
    category.refresh_from_db()
    return category


@pytest.fixture
def slow_check(monkeypatch):
    """Widen the gap between counting the places and taking one, as a busy server would."""
    monkeypatch.setattr(services, "_after_capacity_check", lambda: time.sleep(0.05))


def test_without_the_lock_the_rush_overbooks(nearly_full, slow_check, monkeypatch):
    """The race is real: without the row lock, more entries are confirmed than there are places."""
    monkeypatch.setattr(services, "_lock_category", lambda category: category)
    rush(nearly_full)
    confirmed = nearly_full.entries.filter(status=Entry.Status.CONFIRMED).count()
    assert confirmed > 20


def test_with_the_lock_exactly_the_free_places_are_confirmed_in_arrival_order(
    nearly_full, slow_check
):
    assert connection.vendor == "postgresql"
    rush(nearly_full)
    rushers = nearly_full.entries.filter(name__startswith="Rusher")
    confirmed = list(rushers.filter(status=Entry.Status.CONFIRMED).order_by("registered_at"))
    waiting = list(rushers.filter(status=Entry.Status.WAITLISTED).order_by("registered_at"))
    assert (len(confirmed), len(waiting)) == (PLACES_LEFT, RUSH - PLACES_LEFT)
    assert nearly_full.entries.filter(status=Entry.Status.CONFIRMED).count() == 20
    # Arrival order: every confirmed rusher registered before every waitlisted one.
    assert confirmed[-1].registered_at < waiting[0].registered_at
