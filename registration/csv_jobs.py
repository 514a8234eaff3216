"""The confirmation of a CSV import of entries: a job whose rows are saved batch by batch.

job
    A confirmed import: its ``StoredImport`` from the confirmation on, holding the
    rows to import as they were read then (in place of the file's text) and how
    far their import got. The confirmation claims the stored import (a conditional
    update): a second confirmation of the same upload (a double click, a second
    tab) finds it claimed and imports nothing (``ImportAlreadyDone``).
batch
    ``BATCH_ROWS`` rows saved in one transaction by ``bulk.entries_import``
    (checked by the registration's rules, places and the waiting list decided in
    one pass, bulk inserts), together with the job's progress, under the job's
    row lock and then its categories'. A registration in a category waits for
    one batch at most, never for the whole file; it takes its place between two
    batches, in arrival order. A batch is saved whole or not at all, and the
    progress with it: a job that stops midway resumes at the next batch and never
    saves a row twice.
in the request, by the worker
    A file of up to ``IN_REQUEST_ROWS`` rows to import is imported by the
    confirmation's request (a second or so). A larger one is queued: the request
    answers at once with the job's page, which shows its progress, and the worker
    (``manage.py run_import_jobs --loop``) imports it.
stopped
    A job whose runner went away (a worker killed, a request cut off) keeps the
    batches it saved; once it has not moved for ``STALE_AFTER`` the worker takes
    it up where it stopped. A batch that fails is rolled back and tried again
    after ``STALE_AFTER``; after ``MAX_ATTEMPTS`` runs the job is failed, and its
    page says how many rows were saved and why it stopped, with a button to try
    again. Whatever happens, the page shows how far the import got.
"""

from __future__ import annotations

import logging
from dataclasses import asdict
from datetime import date, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation

from registration import bulk
from registration.csv_io import ImportRow
from registration.models import Entry, StoredImport
from registration.validation import MemberData

logger = logging.getLogger(__name__)

State = StoredImport.State

# Rows saved per transaction: a registration in the category waits for one batch at most
# (about 0.1 s for 200 rows).
BATCH_ROWS = 200
# Rows imported by the confirmation's request; more go to the worker.
IN_REQUEST_ROWS = 500
# A job that has not moved for this long has lost its runner: the worker takes it up.
STALE_AFTER = timedelta(minutes=1)
MAX_ATTEMPTS = 3
UNFINISHED = (State.QUEUED, State.RUNNING)
# What a batch reads and writes of its job under the job's row lock (not its rows).
PROGRESS = ("state", "rows_done", "rows_total", "confirmed", "waitlisted", "refused")


class ImportAlreadyDone(Exception):
    """The stored import was confirmed already: nothing is imported again."""


def import_confirm(
    *, stored: StoredImport, rows: list[ImportRow], left_out: int = 0, language: str
) -> StoredImport:
    """Claim the stored import to import ``rows``; import them now if they are few; return the job.

    ``left_out``: the file's rows not imported (with problems, or withdrawn in the
    file), for the job's outcome; ``language``: the organiser's, for the reasons of
    refused rows. Up to ``IN_REQUEST_ROWS`` rows are imported before this returns;
    more are left to the worker (the job is queued). Raise ``ImportAlreadyDone``,
    importing nothing, when the stored import was claimed already, even by a
    confirmation still running.
    """
    in_request = len(rows) <= IN_REQUEST_ROWS
    if not _claim(
        stored,
        rows=[_row_json(row) for row in rows],
        left_out=left_out,
        language=language,
        state=State.RUNNING if in_request else State.QUEUED,
    ):
        raise ImportAlreadyDone
    if in_request:
        return import_run(stored=stored)
    return StoredImport.objects.get(pk=stored.pk)


def _claim(stored: StoredImport, *, rows: list[dict], left_out: int, language: str, state) -> bool:
    """Make a stored import a job of ``rows``, if it was not claimed; return whether this call did.

    A conditional update: its row lock makes a simultaneous confirmation wait for
    this one's transaction, then find the import claimed. The file's text goes:
    the rows hold what is imported.
    """
    return bool(
        StoredImport.objects.filter(pk=stored.pk, state=State.STORED).update(
            state=state,
            text="",
            rows=rows,
            rows_total=len(rows),
            left_out=left_out,
            language=language,
            progressed_at=timezone.now(),
            attempts=1 if state == State.RUNNING else 0,
        )
    )


def import_run(*, stored: StoredImport) -> StoredImport:
    """Import the job's rows not imported yet, batch by batch; return the job as it ends.

    Stops when the job is done, or is not running (failed, or never confirmed). A
    batch that fails is rolled back and recorded (``_stopped``): the job waits
    for the worker to try it again.
    """
    job = StoredImport.objects.select_related("championship").get(pk=stored.pk)
    language = job.language or job.championship.language
    try:
        rows = _rows_of(job)
        with translation.override(language):
            while _import_batch(job.pk, rows, job.championship.language):
                pass
    except Exception as error:
        logger.exception("Import %s stopped", job.pk)
        _stopped(job.pk, error)
    return StoredImport.objects.get(pk=job.pk)


def _import_batch(pk: int, rows: list[ImportRow], language: str) -> bool:
    """Import the job's next batch with its progress, in one transaction; return whether one was.

    The job's row is locked first, then (by ``entries_import``) the batch's categories.
    """
    with transaction.atomic():
        job = _locked(pk)
        if job.state not in UNFINISHED:
            return False
        batch = rows[job.rows_done : job.rows_done + BATCH_ROWS]
        imported = bulk.entries_import(rows=batch, language=language)
        now = timezone.now()
        job.rows_done += len(batch)
        job.confirmed += sum(e.status == Entry.Status.CONFIRMED for e in imported.entries)
        job.waitlisted += sum(e.status == Entry.Status.WAITLISTED for e in imported.entries)
        job.refused = [
            *job.refused,
            *({"line": r.row.line, "reasons": r.messages} for r in imported.refused),
        ]
        job.progressed_at = now
        fields = ["rows_done", "confirmed", "waitlisted", "refused", "progressed_at"]
        if job.rows_done >= job.rows_total:
            job.state, job.done_at, job.rows, job.error = State.DONE, now, [], ""
            fields += ["state", "done_at", "rows", "error"]
        else:
            job.state = State.RUNNING
            fields.append("state")
        job.save(update_fields=fields)
        return job.state != State.DONE


def _locked(pk: int) -> StoredImport:
    """Return a job's progress, its row locked: one runner at a time saves a batch of it."""
    return StoredImport.objects.select_for_update().only(*PROGRESS).get(pk=pk)


def _stopped(pk: int, error: Exception) -> None:
    """Record why a job stopped; after ``MAX_ATTEMPTS`` runs it is failed, else tried again."""
    with transaction.atomic():
        job = StoredImport.objects.select_for_update().only("state", "attempts").get(pk=pk)
        if job.state not in UNFINISHED:
            return
        job.state = State.FAILED if job.attempts >= MAX_ATTEMPTS else State.RUNNING
        job.error = f"{type(error).__name__}: {error}"[:1000]
        job.progressed_at = timezone.now()
        job.save(update_fields=["state", "error", "progressed_at"])


def import_retry(*, stored: StoredImport) -> bool:
    """Queue a failed job again, for the worker to go on where it stopped; return whether it was."""
    return bool(
        StoredImport.objects.filter(pk=stored.pk, state=State.FAILED).update(
            state=State.QUEUED, attempts=0, progressed_at=timezone.now()
        )
    )


def import_jobs_run() -> list[StoredImport]:
    """Run the jobs that wait: queued ones, and running ones that stopped; return them as they end.

    Each is taken under a row lock that other workers skip (``SKIP LOCKED``), so
    that several workers share the jobs; two that run one job still save each of
    its batches once.
    """
    ran = []
    while (job := _take(exclude=[job.pk for job in ran])) is not None:
        ran.append(import_run(stored=job))
    return ran


def _take(*, exclude: list[int]) -> StoredImport | None:
    """Mark the first job that waits as running (one more attempt) and return it, or ``None``."""
    now = timezone.now()
    waiting = Q(state=State.QUEUED) | Q(state=State.RUNNING, progressed_at__lt=now - STALE_AFTER)
    with transaction.atomic():
        job = (
            StoredImport.objects.select_for_update(skip_locked=True)
            .filter(waiting)
            .exclude(pk__in=exclude)
            .only("state", "attempts")
            .order_by("created_at", "pk")
            .first()
        )
        if job is None:
            return None
        job.state, job.attempts, job.progressed_at = State.RUNNING, job.attempts + 1, now
        job.save(update_fields=["state", "attempts", "progressed_at"])
    return job


def is_stale(job: StoredImport, now=None) -> bool:
    """Return whether an unfinished job has not moved for ``STALE_AFTER`` (its runner stopped)."""
    if job.state not in UNFINISHED or job.progressed_at is None:
        return False
    return job.progressed_at < (now or timezone.now()) - STALE_AFTER


# The rows as the job keeps them -----------------------------------------------------------


def _row_json(row: ImportRow) -> dict:
    """Return what the import needs of a row, as JSON."""
    return {
        "line": row.line,
        "category": row.category.pk,
        "name": row.name,
        "adult_name": row.adult_name,
        "represents": row.represents,
        "publish_consent": row.publish_consent,
        "payment_status": row.payment_status,
        "payment_reference": row.payment_reference,
        "answers": row.answers,
        "members": [
            {
                **asdict(member),
                "birth_date": member.birth_date.isoformat() if member.birth_date else None,
                "citizenship": list(member.citizenship),
            }
            for member in row.members
        ],
    }


def _rows_of(job: StoredImport) -> list[ImportRow]:
    """Return a job's rows as the import reads them, with the championship's categories."""
    categories = {}
    for category in job.championship.categories.all():
        category.championship = job.championship
        categories[category.pk] = category
    return [
        ImportRow(
            line=data["line"],
            category=categories[data["category"]],
            name=data["name"],
            adult_name=data["adult_name"],
            # A job confirmed before the column was read has none.
            represents=data.get("represents", ""),
            publish_consent=data["publish_consent"],
            payment_status=data["payment_status"],
            payment_reference=data["payment_reference"],
            answers=data["answers"],
            members=[
                MemberData(
                    **{
                        **member,
                        "birth_date": date.fromisoformat(member["birth_date"])
                        if member["birth_date"]
                        else None,
                        "citizenship": tuple(member["citizenship"]),
                    }
                )
                for member in data["members"]
            ],
        )
        for data in job.rows
    ]
