"""The entries' CSV export, and a round trip through it: exported, imported, the same entries."""

from datetime import UTC, date, datetime

import pytest
from django.utils import translation

from registration import csv_export, services
from registration.models import Entry, Person
from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.csv_entries import (
    ORGANISER,
    confirm,
    future_championship,
    member,
    read_export,
    register,
    upload,
)

# The pages in English (the root conftest's ``english``).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def snapshot(championship):
    """Return the championship's entries and members as comparable values."""
    result = []
    entries = Entry.objects.filter(category__championship=championship).order_by(
        "category__order", "registered_at", "id"
    )
    for entry in entries.prefetch_related("memberships__person"):
        members = [
            (
                m.person.name,
                m.person.email,
                m.person.birth_date,
                m.person.city,
                m.person.country,
                m.person.citizenship,
                m.person.region,
                m.person.years_in_region,
                m.person.publish_consent,
            )
            for m in entry.memberships.order_by("position")
        ]
        result.append(
            (
                entry.category.key,
                entry.name,
                entry.status,
                entry.publish_consent,
                entry.adult_name,
                entry.contact_email,
                entry.payment_status,
                entry.payment_reference,
                entry.fee,
                members,
            )
        )
    return result


# Export ---------------------------------------------------------------------------------------


def test_the_export_has_one_row_per_entry_with_its_members(organiser_client, future):
    kari = register(
        future,
        "individual",
        [
            member(
                "Kari Nordmann",
                "kari@example.org",
                city="Stavanger",
                country="NO",
                citizenship=("NO", "SE"),
            )
        ],
        publish_consent=True,
    )
    services.entry_set_payment(entry=kari, status="paid", reference="VIPPS-1")
    Entry.objects.filter(pk=kari.pk).update(
        registered_at=datetime(NEXT_YEAR, 1, 10, 23, 30, tzinfo=UTC),
        checked_in_at=datetime(NEXT_YEAR, 3, 14, 7, 45, tzinfo=UTC),
    )
    register(
        future,
        "team",
        [member(f"Lag {n}", f"lag{n}@example.org", region="Vestland") for n in range(1, 5)],
        name="Bitene",
    )
    response = organiser_client.get(f"/{future.slug}/manage/entries/export.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="rm-{NEXT_YEAR}-entries.csv"' in response["Content-Disposition"]
    rows = read_export(response)
    # A Norwegian championship: the columns and words in Norwegian, whatever the page's language.
    with translation.override("nb"):
        assert list(rows[0]) == csv_export.export_header()
    assert list(rows[0])[:4] == ["Kategori", "ID", "Navn", "Status"]
    assert [row["Navn"] for row in rows] == ["Kari Nordmann", "Bitene"]
    first, team = rows
    assert first["Kategori"] == "individual" and first["ID"] == kari.ref
    assert first["Status"] == "bekreftet"
    assert first["Påmeldt"] == f"{NEXT_YEAR}-01-11T00:30:00+01:00"
    assert first["Sjekket inn"] == f"{NEXT_YEAR}-03-14T08:45:00+01:00"
    assert (first["Offisiell"], first["Deltakeravgift"], first["Betalingsstatus"]) == (
        "ja",
        "200,00",
        "betalt",
    )
    assert (first["Betalingsreferanse"], first["Samtykke til publisering"]) == ("VIPPS-1", "ja")
    assert first["Deltaker 1: fødselsdato"] == "1980-01-01"
    assert first["Deltaker 1: statsborgerskap"] == "NO,SE"
    assert first["Deltaker 2: navn"] == ""
    assert team["Offisiell"] == "nei"  # nobody of the team lives in Rogaland
    assert [team[f"Deltaker {n}: navn"] for n in range(1, 5)] == [
        "Lag 1",
        "Lag 2",
        "Lag 3",
        "Lag 4",
    ]


def test_the_export_of_one_category(organiser_client, future):
    register(future, "individual", [member("Solo", "solo@example.org")])
    register(future, "pair", [member("En", "en@example.org"), member("To", "to@example.org")])
    response = organiser_client.get(f"/{future.slug}/manage/entries/export.csv?category=pair")
    assert [row["Navn"] for row in read_export(response)] == ["En & To"]
    missing = organiser_client.get(f"/{future.slug}/manage/entries/export.csv?category=nope")
    assert missing.status_code == 404


def test_the_export_keeps_spreadsheets_from_running_formulas(organiser_client, future):
    register(future, "individual", [member("=HYPERLINK(1)", "f@example.org")])
    response = organiser_client.get(f"/{future.slug}/manage/entries/export.csv")
    (row,) = read_export(response)
    assert row["Navn"] == "'=HYPERLINK(1)"


def test_the_export_can_use_commas(organiser_client, future):
    register(future, "individual", [member("Solo", "solo@example.org")])
    response = organiser_client.get(f"/{future.slug}/manage/entries/export.csv?delimiter=comma")
    text = response.content.decode("utf-8")
    assert text.startswith("Kategori,ID,Navn,")
    # A spreadsheet that splits at commas reads a decimal point.
    assert ",200.00," in text.splitlines()[1]


# Round trip ------------------------------------------------------------------------------------


def test_export_then_import_recreates_the_entries_and_members(client, future):
    source_organiser = factories.role(future, ORGANISER, username="source")
    kari = register(
        future,
        "individual",
        [
            member(
                "Kari Nordmann",
                "kari@example.org",
                city="Ålgård",
                country="NO",
                citizenship=("NO", "SE"),
            )
        ],
        publish_consent=True,
    )
    services.entry_set_payment(entry=kari, status="paid", reference="VIPPS;4711")
    register(
        future,
        "individual",
        [
            member(
                "Lille Per",
                "per@example.org",
                birth_date=date(NEXT_YEAR - 9, 5, 1),
                region="Vestland",
                years_in_region=7,
            )
        ],
        adult_name="Mor Per",
    )
    register(
        future,
        "individual",
        [member("=Formel", "formel@example.org", city='Sandnes, "sentrum"')],
    )
    gone = register(future, "individual", [member("Borte", "borte@example.org")])
    services.entry_withdraw(entry=gone)
    register(
        future,
        "pair",
        [member("Åsa Öberg", "asa@example.org"), member("Jörgen Ström", "", city="Sola")],
        name="Bitarna",
    )
    register(
        future,
        "team",
        [member(f"Lag {n}", f"lag{n}@example.org") for n in range(1, 4)],
        name="Lag Æ",
        publish_consent=True,
    )
    client.force_login(source_organiser)
    exported = client.get(f"/{future.slug}/manage/entries/export.csv").content

    target = future_championship(f"rm-{NEXT_YEAR}-copy")
    client.force_login(factories.role(target, ORGANISER, username="target"))
    preview_url = upload(client, target, exported)
    preview = client.get(preview_url)
    assert preview.status_code == 200
    assert "Withdrawn in the file: left out" in preview.text
    assert preview.context["preview"].invalid == []
    response = confirm(client, preview_url)
    assert response.status_code == 302
    assert response.url == f"/rm-{NEXT_YEAR}-copy/manage/entries/?category=individual"

    expected = [row for row in snapshot(future) if row[1] != "Borte"]
    assert snapshot(target) == expected
    assert Person.objects.filter(championship=target).count() == 8
    page = client.get(response.url)
    assert "5 entries imported: 5 confirmed, 0 on the waiting list. 1 row was left out." in (
        page.text
    )
