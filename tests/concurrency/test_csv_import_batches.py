"""A long CSV import locks its category a batch at a time: a registration waits for one batch.

A file of 1,000 rows goes into a category of 450 places while someone registers
in it through the form. Each batch holds the category's lock a while (as a busy
server would); the registration comes in during the first batch.
"""

import threading
import time
from datetime import UTC, date, datetime

import pytest
from django.db import connections

from championship.models import Category
from registration import csv_io, csv_jobs, services
from registration.models import Entry
from registration.validation import MemberData
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROWS = 1000
PLACES = 450
# How long each batch keeps its locks after saving its rows.
HOLD = 0.3


@pytest.fixture
def stored(db):
    championship = factories.championship(
        slug="batches",
        starts_at=datetime(factories.NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
        language="en",
    )
    Category.objects.filter(championship=championship, key="individual").update(capacity=PLACES)
    lines = ["name,email,birth_date,region"]
    lines += [f"Row {n:04d},row{n}@example.org,1990-01-01,Rogaland" for n in range(1, ROWS + 1)]
    return csv_io.import_store(
        championship=championship,
        user=factories.user(),
        text="\n".join(lines),
        category_key="individual",
        filename="entries.csv",
    )


def import_while_registering(stored, monkeypatch, *, batch_rows: int) -> dict:
    """Import the file in this test's threads while one registers; return when each finished."""
    monkeypatch.setattr(csv_jobs, "IN_REQUEST_ROWS", ROWS)
    monkeypatch.setattr(csv_jobs, "BATCH_ROWS", batch_rows)
    real_import = csv_jobs.bulk.entries_import
    first_batch = threading.Event()

    def holding(**kwargs):
        saved = real_import(**kwargs)
        if not first_batch.is_set():
            # The batch holds the category's lock from here to its commit; it commits only
            # once the registration waits for that lock, however slow the machine.
            first_batch.set()
            wait_for_a_lock_waiter()
        time.sleep(HOLD)
        return saved

    monkeypatch.setattr(csv_jobs.bulk, "entries_import", holding)
    category = stored.championship.categories.get(key="individual")
    finished, errors = {}, []

    def importing():
        try:
            rows = csv_io.parse_entries(
                stored.text, championship=stored.championship, default_category=category
            ).to_import
            csv_jobs.import_confirm(stored=stored, rows=rows, language="en")
            finished["import"] = time.monotonic()
        except Exception as error:  # reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    def registering():
        try:
            assert first_batch.wait(60)
            services.entry_register(
                category=category,
                members=[
                    MemberData(
                        name="Walk-in", email="walk-in@example.org", birth_date=date(1990, 1, 1)
                    )
                ],
                send_mail=False,
            )
            finished["registration"] = time.monotonic()
        except Exception as error:  # reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=importing), threading.Thread(target=registering)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return finished


def wait_for_a_lock_waiter(timeout: float = 60) -> None:
    """Return once another connection to this test's database waits for a lock."""
    watcher = connections.create_connection("default")
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with watcher.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
                if cursor.fetchone()[0]:
                    return
            time.sleep(0.02)
        raise AssertionError("the registration never waited for the category's lock")
    finally:
        watcher.close()


def arrived_after(name: str) -> int:
    """Return how many of the file's entries arrived after the entry ``name``."""
    entry = Entry.objects.get(name=name)
    return Entry.objects.filter(registered_at__gt=entry.registered_at).count()


def test_in_one_batch_a_registration_waits_for_the_whole_file(stored, monkeypatch):
    """The wait is real: with the whole file in one transaction, the registration comes last."""
    import_while_registering(stored, monkeypatch, batch_rows=ROWS)
    assert arrived_after("Walk-in") == 0
    assert Entry.objects.get(name="Walk-in").status == Entry.Status.WAITLISTED


def test_a_registration_waits_for_one_batch_and_takes_its_place_in_arrival_order(
    stored, monkeypatch
):
    finished = import_while_registering(stored, monkeypatch, batch_rows=200)

    # Registered after the first batch, before the other four: long before the file is in.
    assert finished["registration"] < finished["import"] - 2 * HOLD
    assert arrived_after("Walk-in") == ROWS - 200
    # The places went in arrival order: 200 rows, the walk-in, then rows until the 450th place.
    individual = Entry.objects.filter(category__key="individual")
    assert Entry.objects.get(name="Walk-in").status == Entry.Status.CONFIRMED
    assert individual.filter(status=Entry.Status.CONFIRMED).count() == PLACES
    waiting = individual.filter(status=Entry.Status.WAITLISTED).order_by("registered_at", "id")
    names = list(waiting.values_list("name", flat=True))
    assert names == [f"Row {n:04d}" for n in range(PLACES, ROWS + 1)]
