"""A confirmed CSV import: saved batch by batch, by the request or the worker, as registrations.

The rows of a file are saved as registering them one by one would save them
(places, waiting list, one entry per person, ages); a large file is imported by
the worker while the import's page shows how far it got; an import that stops
midway goes on where it stopped, and its page says so.
"""

from __future__ import annotations

import io
from datetime import UTC, date, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import timezone

from championship.models import Category, ChampionshipRole
from registration import bulk, csv_io, csv_jobs, payment, references, services
from registration.models import Entry, StoredImport
from registration.validation import MemberData
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

ORGANISER = ChampionshipRole.Role.ORGANISER
START = datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
HEADER = (
    "category,name,status,payment_status,payment_reference,"
    "member1_name,member1_email,member1_birth_date,member2_name,member2_email,member2_birth_date"
)
# dm: one entry per person in a category, individuals 16 or older; four places, one taken.
MIXED = "\n".join(
    [
        HEADER,
        "individual,,,paid,REF-1,Anne,anne@example.org,1990-01-01,,,",
        "individual,,,,,Bo,bo@example.org,1991-01-01,,,",
        # The same person as row 2: left out.
        "individual,,,,,Anne Again,ANNE@example.org,1992-01-01,,,",
        "individual,,,,,Cille,cille@example.org,1993-01-01,,,",
        "individual,,,,,Dag,dag@example.org,1994-01-01,,,",
        # Too young: left out.
        "individual,,,,,Eva,eva@example.org,2015-01-01,,,",
        "pair,Duo,,waived,,Finn,finn@example.org,1980-01-01,Gro,gro@example.org,1981-01-01",
        # Withdrawn in the file: left out.
        "individual,,withdrawn,,,Hans,hans@example.org,1970-01-01,,,",
        "individual,,,,,Ida,ida@example.org,1995-01-01,,,",
        # Registered before the upload: left out.
        "individual,,,,,Allerede,first@example.org,1960-01-01,,,",
    ]
)


def dm_with_places(slug: str):
    """Return a dm championship whose individual category has four places, one taken."""
    dm = factories.championship(slug=slug, ruleset="dm", starts_at=START, language="en")
    individual = dm.categories.get(key="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=4)
    services.entry_register(
        category=dm.categories.get(key="individual"),
        members=[MemberData(name="Først", email="first@example.org", birth_date=date(1960, 1, 1))],
        send_mail=False,
    )
    return dm


@pytest.fixture
def dm(client):
    championship = dm_with_places(f"dm-{NEXT_YEAR}")
    client.force_login(factories.role(championship, ORGANISER, username="desk"))
    return championship


def upload(client, championship, text: str) -> str:
    response = client.post(
        f"/{championship.slug}/manage/entries/import/",
        {"file": SimpleUploadedFile("entries.csv", text.encode(), content_type="text/csv")},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return response.url


def snapshot(championship) -> list[tuple]:
    """Return the championship's entries, in their categories' arrival order, as values."""
    entries = Entry.objects.filter(category__championship=championship).order_by(
        "category__order", "registered_at", "id"
    )
    return [
        (
            entry.category.key,
            entry.name,
            entry.status,
            entry.payment_status,
            # A reference the file gave, else the one made of the entry's id (ids differ).
            "made"
            if entry.payment_reference == references.make(payment.scheme_of(championship), entry.pk)
            else entry.payment_reference,
            entry.fee,
            entry.publish_consent,
            entry.contact_email,
            entry.language,
            entry.waiting_position(),
            [
                (m.person.name, m.person.email, m.person.birth_date, m.person.puzzler.email_key)
                for m in entry.memberships.order_by("position")
            ],
        )
        for entry in entries.prefetch_related("memberships__person__puzzler")
    ]


def test_a_mixed_file_is_saved_as_registering_its_rows_one_by_one(client, dm):
    """Places, the waiting list and the rows left out are those of one registration per row.

    The other championship registers the same rows one by one with the registration
    service and then sets their payment, as the import did before it saved in batches.
    """
    preview_url = upload(client, dm, MIXED)
    response = client.post(preview_url, {"action": "import", "skip_invalid": "yes"})

    assert response.url == f"/{dm.slug}/manage/entries/?category=individual"
    page = client.get(response.url).text
    assert "6 entries imported: 4 confirmed, 2 on the waiting list. 4 rows were left out." in page
    job = StoredImport.objects.get()
    assert (job.state, job.refused, job.text, job.rows) == ("done", [], "", [])

    one_by_one = dm_with_places(f"dm-one-by-one-{NEXT_YEAR}")
    preview = csv_io.parse_entries(MIXED, championship=one_by_one)
    assert [row.line for row in preview.invalid] == [4, 7, 11]
    for row in preview.to_import:
        entry = services.entry_register(
            category=row.category,
            members=row.members,
            name=row.name,
            publish_consent=row.publish_consent,
            adult_name=row.adult_name,
            language=one_by_one.language,
            enforce_deadline=False,
            send_mail=False,
            answers=row.answers,
        )
        if row.payment_status or row.payment_reference:
            services.entry_set_payment(
                entry=entry,
                status=row.payment_status or entry.payment_status,
                # A file without one leaves the reference the entry was given.
                reference=row.payment_reference or None,
            )
    imported = snapshot(dm)
    assert imported == snapshot(one_by_one)
    assert [(key, name, status, position) for key, name, status, *_, position, _m in imported] == [
        ("individual", "Først", "confirmed", None),
        ("individual", "Anne", "confirmed", None),
        ("individual", "Bo", "confirmed", None),
        ("individual", "Cille", "confirmed", None),
        ("individual", "Dag", "waitlisted", 1),
        ("individual", "Ida", "waitlisted", 2),
        ("pair", "Duo", "confirmed", None),
    ]


def test_a_large_file_is_queued_and_its_page_shows_the_progress(client, dm, monkeypatch):
    """Beyond the request's share, the confirmation answers at once; the worker imports."""
    monkeypatch.setattr(csv_jobs, "IN_REQUEST_ROWS", 2)
    monkeypatch.setattr(csv_jobs, "BATCH_ROWS", 2)
    preview_url = upload(client, dm, MIXED)
    response = client.post(preview_url, {"action": "import", "skip_invalid": "yes"})

    job = StoredImport.objects.get()
    progress_url = f"/{dm.slug}/manage/entries/import/{job.token}/progress/"
    assert response.url == progress_url
    assert Entry.objects.count() == 1
    page = client.get(progress_url).text
    assert "Waiting to be imported" in page and "0 of 6 rows" in page
    assert 'hx-trigger="every 2s"' in page
    # The page's poll gets the progress alone.
    fragment = client.get(progress_url, headers={"HX-Request": "true"}).text
    assert fragment.lstrip().startswith('<div id="import-progress"') and "<html" not in fragment
    # The preview and a second confirmation lead to the import's page; nothing is saved twice.
    assert client.get(preview_url).url == progress_url
    assert client.post(preview_url, {"action": "import", "skip_invalid": "yes"}).url == (
        progress_url
    )

    out = io.StringIO()
    call_command("run_import_jobs", stdout=out)
    assert "6 of 6 rows, 4 confirmed, 2 waitlisted, 0 refused." in out.getvalue()
    page = client.get(progress_url).text
    assert "6 entries imported: 4 confirmed, 2 on the waiting list. 4 rows were left out." in page
    assert "hx-trigger" not in page
    assert f'href="/{dm.slug}/manage/entries/"' in page
    assert Entry.objects.count() == 7
    # Done: the preview says so, as it always did.
    again = client.get(preview_url)
    assert "This import was done already" in client.get(again.url).text


def test_an_import_stopped_midway_goes_on_where_it_stopped(client, dm, monkeypatch):
    """A worker killed during a batch: the batches before it stay, the page says it waits."""
    monkeypatch.setattr(csv_jobs, "IN_REQUEST_ROWS", 2)
    monkeypatch.setattr(csv_jobs, "BATCH_ROWS", 2)
    preview_url = upload(client, dm, MIXED)
    client.post(preview_url, {"action": "import", "skip_invalid": "yes"})
    real_import = bulk.entries_import
    batches = []

    def killed_in_the_second_batch(*, rows, language):
        batches.append([row.line for row in rows])
        saved = real_import(rows=rows, language=language)
        if len(batches) == 2:
            raise SystemExit("killed")  # not an error the worker catches: it stops
        return saved

    monkeypatch.setattr(bulk, "entries_import", killed_in_the_second_batch)
    with pytest.raises(SystemExit):
        csv_jobs.import_jobs_run()

    job = StoredImport.objects.get()
    assert (job.state, job.rows_done, job.confirmed) == ("running", 2, 2)
    assert sorted(Entry.objects.values_list("name", flat=True)) == ["Anne", "Bo", "Først"]
    progress_url = f"/{dm.slug}/manage/entries/import/{job.token}/progress/"
    assert "2 of 6 rows" in client.get(progress_url).text
    # The worker leaves a job that moved a moment ago to its runner.
    monkeypatch.undo()
    assert csv_jobs.import_jobs_run() == []
    # Once it has not moved for a while, the page says so, and the worker goes on with it.
    StoredImport.objects.update(progressed_at=timezone.now() - csv_jobs.STALE_AFTER)
    assert "The import has not moved since" in client.get(progress_url).text
    (job,) = csv_jobs.import_jobs_run()
    assert (job.state, job.rows_done, job.confirmed, job.waitlisted) == ("done", 6, 4, 2)
    assert Entry.objects.count() == 7
    assert Entry.objects.filter(name="Cille").count() == 1


def test_an_import_that_keeps_failing_is_stopped_and_goes_on_when_asked(client, dm, monkeypatch):
    monkeypatch.setattr(csv_jobs, "IN_REQUEST_ROWS", 2)
    monkeypatch.setattr(csv_jobs, "BATCH_ROWS", 4)
    preview_url = upload(client, dm, MIXED)
    client.post(preview_url, {"action": "import", "skip_invalid": "yes"})
    real_import = bulk.entries_import
    calls = []

    def second_batch_fails(*, rows, language):
        calls.append(rows[0].line)
        if rows[0].line != 2:
            raise RuntimeError("the database went away")
        return real_import(rows=rows, language=language)

    monkeypatch.setattr(bulk, "entries_import", second_batch_fails)
    for _attempt in range(csv_jobs.MAX_ATTEMPTS):
        StoredImport.objects.update(progressed_at=timezone.now() - csv_jobs.STALE_AFTER)
        csv_jobs.import_jobs_run()
    job = StoredImport.objects.get()
    assert (job.state, job.rows_done, job.attempts) == ("failed", 4, csv_jobs.MAX_ATTEMPTS)
    progress_url = f"/{dm.slug}/manage/entries/import/{job.token}/progress/"
    page = client.get(progress_url).text
    assert "The import stopped after 4 of 6 rows: those are saved, the others are not." in page
    assert "RuntimeError: the database went away" in page
    assert "hx-trigger" not in page

    monkeypatch.undo()
    response = client.post(progress_url, {"action": "retry"})
    assert "The import goes on where it stopped." in client.get(response.url).text
    (job,) = csv_jobs.import_jobs_run()
    assert (job.state, job.confirmed, job.waitlisted) == ("done", 4, 2)
    assert Entry.objects.count() == 7


def test_a_row_whose_person_registered_meanwhile_is_refused_and_shown(client, dm, monkeypatch):
    """Between the confirmation and the worker, Dag registered: his row is refused, not the file."""
    monkeypatch.setattr(csv_jobs, "IN_REQUEST_ROWS", 2)
    preview_url = upload(client, dm, MIXED)
    client.post(preview_url, {"action": "import", "skip_invalid": "yes"})
    services.entry_register(
        category=dm.categories.get(key="individual"),
        members=[MemberData(name="Dag", email="dag@example.org", birth_date=date(1994, 1, 1))],
        send_mail=False,
    )

    (job,) = csv_jobs.import_jobs_run()

    assert (job.state, job.confirmed, job.waitlisted) == ("done", 3, 2)
    assert job.refused == [
        {
            "line": 6,
            "reasons": [
                "dag@example.org is already registered in this category: one entry per person."
            ],
        }
    ]
    # Dag registered before the rows were saved: he took the last place, Cille waits.
    statuses = dict(Entry.objects.values_list("name", "status"))
    assert (statuses["Dag"], statuses["Bo"], statuses["Cille"]) == (
        "confirmed",
        "confirmed",
        "waitlisted",
    )
    page = client.get(f"/{dm.slug}/manage/entries/import/{job.token}/progress/").text
    assert "1 row was refused when it was saved." in page
    assert "dag@example.org is already registered in this category" in page


def test_a_row_refused_when_saved_in_the_request_leads_to_the_imports_page(client, dm, monkeypatch):
    preview_url = upload(client, dm, MIXED)
    real_parse = csv_io.parse_entries

    def registered_after_the_parse(*args, **kwargs):
        preview = real_parse(*args, **kwargs)
        services.entry_register(
            category=dm.categories.get(key="individual"),
            members=[MemberData(name="Bo", email="bo@example.org", birth_date=date(1991, 1, 1))],
            send_mail=False,
        )
        return preview

    monkeypatch.setattr(csv_io, "parse_entries", registered_after_the_parse)
    response = client.post(preview_url, {"action": "import", "skip_invalid": "yes"})

    job = StoredImport.objects.get()
    assert response.url == f"/{dm.slug}/manage/entries/import/{job.token}/progress/"
    page = client.get(response.url).text
    assert "5 entries imported" in page and "1 row was refused when it was saved." in page


def test_an_upload_does_not_remove_an_import_still_running(client, dm, monkeypatch):
    monkeypatch.setattr(csv_jobs, "IN_REQUEST_ROWS", 2)
    client.post(upload(client, dm, MIXED), {"action": "import", "skip_invalid": "yes"})
    for _ in range(csv_io.KEPT_IMPORTS + 1):
        upload(client, dm, MIXED)
    assert StoredImport.objects.filter(state="queued").count() == 1
