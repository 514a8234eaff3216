"""One CSV import confirmed twice at the same instant (a double click): imported once."""

import threading
import time
from datetime import UTC, datetime

import pytest
from django.db import connections
from django.utils import timezone

from registration import csv_io, csv_jobs
from registration.models import Entry, StoredImport
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREE_ROWS = "\n".join(
    [
        "name,email,birth_date,region",
        "Anne,anne@example.org,1990-01-01,Rogaland",
        "Bjørn,bjorn@example.org,1991-02-02,Rogaland",
        "Cecilie,cecilie@example.org,1992-03-03,Rogaland",
    ]
)
CONFIRMATIONS = 2


@pytest.fixture
def stored(db):
    championship = factories.championship(
        slug="twice", starts_at=datetime(factories.NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    return csv_io.import_store(
        championship=championship,
        user=factories.user(),
        text=THREE_ROWS,
        category_key="individual",
        filename="entries.csv",
    )


@pytest.fixture
def slow_import(monkeypatch):
    """Widen the gap between claiming the import and saving its rows, as a busy server would."""
    real_import = csv_jobs.bulk.entries_import

    def entries_import(**kwargs):
        time.sleep(0.2)
        return real_import(**kwargs)

    monkeypatch.setattr(csv_jobs.bulk, "entries_import", entries_import)


def confirm_at_once(stored) -> list:
    """Confirm the stored import from CONFIRMATIONS threads released together; return outcomes."""
    championship = stored.championship
    category = championship.categories.get(key="individual")
    start = threading.Barrier(CONFIRMATIONS)
    outcomes = []

    def one():
        try:
            # Each request read the import and its preview before either confirmed.
            mine = StoredImport.objects.get(pk=stored.pk)
            rows = csv_io.parse_entries(
                mine.text, championship=championship, default_category=category
            ).to_import
            start.wait()
            job = csv_jobs.import_confirm(stored=mine, rows=rows, language="en")
            outcomes.append(job.confirmed + job.waitlisted)
        except csv_jobs.ImportAlreadyDone:
            outcomes.append("done already")
        except Exception as error:  # reported by the test
            outcomes.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(CONFIRMATIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def claim_whatever_the_state(stored, *, rows, left_out, language, state) -> bool:
    """Make the stored import a job of ``rows``, whether it was claimed already or not."""
    StoredImport.objects.filter(pk=stored.pk).update(
        state=state, rows=rows, rows_total=len(rows), progressed_at=timezone.now()
    )
    return True


def unlocked(pk: int) -> StoredImport:
    """Read a job's progress without locking its row."""
    return StoredImport.objects.only(*csv_jobs.PROGRESS).get(pk=pk)


def test_without_the_claim_and_the_jobs_lock_a_double_confirmation_imports_twice(
    stored, slow_import, monkeypatch
):
    """The race is real: without either guard, both confirmations save the rows."""
    monkeypatch.setattr(csv_jobs, "_claim", claim_whatever_the_state)
    monkeypatch.setattr(csv_jobs, "_locked", unlocked)
    assert confirm_at_once(stored) == [3, 3]
    assert Entry.objects.count() == 6


def test_without_the_claim_the_jobs_lock_still_saves_each_batch_once(
    stored, slow_import, monkeypatch
):
    """Two runners of one job take its batches in turn: each row is saved once."""
    monkeypatch.setattr(csv_jobs, "_claim", claim_whatever_the_state)
    confirm_at_once(stored)
    assert Entry.objects.count() == 3


def test_a_double_confirmation_imports_once(stored, slow_import):
    outcomes = confirm_at_once(stored)
    assert sorted(outcomes, key=str) == [3, "done already"]
    assert Entry.objects.count() == 3
    assert StoredImport.objects.get().state == StoredImport.State.DONE
