"""Reading spreadsheet files of entries: encodings, delimiters, and the reading functions alone."""

import codecs
from datetime import UTC, date, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from core import csvfile
from registration import bulk, csv_columns, csv_io
from registration.models import Entry, Person
from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.csv_entries import (
    DATA,
    ORGANISER,
    confirm,
    future_championship,
    member,
    register,
    upload,
)

# The pages in English (the root conftest's ``english``).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


# Reading spreadsheet files ----------------------------------------------------------------------


def test_a_windows_1252_semicolon_file_with_scandinavian_letters(organiser_client, future):
    data = (DATA / "cp1252_semicolon.csv").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # the file really is Windows-1252
    preview_url = upload(organiser_client, future, data, category="individual")
    preview = organiser_client.get(preview_url)
    assert "Ærlig Øksnevad" in preview.text and "Märta Löfgren" in preview.text
    assert "1980-05-31" in preview.text
    confirm(organiser_client, preview_url)
    entries = {e.name: e for e in Entry.objects.filter(category__championship=future)}
    assert set(entries) == {"Ærlig Øksnevad", "Åse Sæther", "Märta Löfgren"}
    aerlig = entries["Ærlig Øksnevad"]
    person = aerlig.members.get()
    assert (person.birth_date, person.city, person.email) == (
        date(1980, 5, 31),
        "Ålgård",
        "aerlig@example.org",
    )
    assert (aerlig.payment_status, aerlig.payment_reference) == ("paid", "VIPPS-1001")
    assert entries["Åse Sæther"].members.get().birth_date == date(1975, 2, 1)
    assert entries["Märta Löfgren"].members.get().region == "Västra Götaland"
    assert {e.status for e in entries.values()} == {"confirmed"}
    assert {e.category.key for e in entries.values()} == {"individual"}


def test_a_utf8_file_with_a_byte_order_mark(organiser_client, future):
    data = (DATA / "utf8_bom_pairs.csv").read_bytes()
    assert data.startswith(codecs.BOM_UTF8)
    confirm(organiser_client, upload(organiser_client, future, data))
    entry = Entry.objects.get(category__championship=future)
    assert (entry.category.key, entry.name) == ("pair", "Bitarna")
    members = list(entry.members.order_by("memberships__position"))
    assert [(m.name, m.birth_date, m.city) for m in members] == [
        ("Åsa Öberg", date(1985, 4, 3), "Stavanger"),
        ("Jörgen Ström", date(2001, 9, 30), "Sola"),
    ]


def test_a_file_without_a_category_column_needs_the_category(organiser_client, future):
    data = (DATA / "cp1252_semicolon.csv").read_bytes()
    response = organiser_client.post(
        f"/{future.slug}/manage/entries/import/",
        {"file": SimpleUploadedFile("list.csv", data), "category": ""},
    )
    assert response.status_code == 200
    assert "Choose the category: the file has no category column." in response.text
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "The submitted file is empty."),
        (b"\n\n", "The file is empty."),
        ("name\nÆ".encode("utf-16"), "not a text file"),
        (b"navn;e-post\n", "Nothing was saved: the file has no row to import."),
        (b"foo,bar\n1,2\n", "The file needs a column with the names"),
    ],
)
def test_an_unusable_file_is_refused_with_a_clear_message(organiser_client, future, data, message):
    response = organiser_client.post(
        f"/{future.slug}/manage/entries/import/",
        {"file": SimpleUploadedFile("bad.csv", data), "category": "individual"},
        follow=True,
    )
    if "no row to import" in message:
        response = organiser_client.post(
            response.redirect_chain[-1][0], {"action": "import"}, follow=True
        )
    assert message in response.text, response.text
    assert not Entry.objects.exists()


# The reading functions on their own ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2010-05-31", date(2010, 5, 31)),
        ("31.05.2010", date(2010, 5, 31)),
        ("31/05/2010", date(2010, 5, 31)),
        ("1.2.2003", date(2003, 2, 1)),
    ],
)
def test_dates_in_three_ways(text, expected):
    assert csv_columns.parse_date(text) == expected


@pytest.mark.parametrize("text", ["31.02.2010", "2010/05/31", "05-31-2010", "gisteren"])
def test_other_dates_are_refused(text):
    with pytest.raises(ValueError):
        csv_columns.parse_date(text)


@pytest.mark.parametrize(
    ("line", "delimiter"),
    [
        ("navn;e-post;by", ";"),
        ("name,email", ","),
        ("name\temail", "\t"),
        ("name", ","),
        ('"Navn, fullt";E-post', ";"),
    ],
)
def test_the_delimiter_is_sniffed_from_the_header(line, delimiter):
    assert csvfile.sniff_delimiter(line) == delimiter


def test_decoding_prefers_utf8_then_windows_1252():
    assert csvfile.decode("Ærlig".encode()) == "Ærlig"
    assert csvfile.decode(codecs.BOM_UTF8 + "Ærlig".encode()) == "Ærlig"
    assert csvfile.decode("Ærlig Åse".encode("cp1252")) == "Ærlig Åse"
    with pytest.raises(csvfile.CsvFileError):
        csvfile.decode(codecs.BOM_UTF8 + "Ærlig".encode("cp1252"))


def test_headers_by_their_aliases():
    columns, ignored = csv_columns.map_header(
        ["Navn", "E-post", "Fødselsdato", "Hjemsted", "Fylke", "Shoe size", "Deltager2 Navn"]
    )
    assert [(c.field, c.member) for c in columns.values()] == [
        ("name", None),
        ("email", 1),
        ("birth_date", 1),
        ("city", 1),
        ("region", 1),
        ("name", 2),
    ]
    assert ignored == ["Shoe size"]
    columns, _ = csv_columns.map_header(["NAMN", "E-mail", "Födelsedatum", "Ort", "email"])
    assert [(c.field, c.member) for c in columns.values()] == [
        ("name", None),
        ("email", 1),
        ("birth_date", 1),
        ("city", 1),
    ]
    columns, _ = csv_columns.map_header(["member1_email", "e-post", "fødselsdag", "By"])
    assert [(c.field, c.member) for c in columns.values()] == [
        ("email", 1),
        ("birth_date", 1),
        ("city", 1),
    ]


def test_without_unofficial_entries_a_row_that_would_be_unofficial_is_refused(client):
    sm = factories.championship(
        slug=f"sm-{NEXT_YEAR}",
        ruleset="sm",
        starts_at=datetime(NEXT_YEAR, 5, 1, 9, tzinfo=UTC),
        rule_overrides={"unofficial_allowed": False},
    )
    client.force_login(factories.role(sm, ORGANISER))
    data = "\n".join(
        [
            "category,name,email,birth_date,citizenship",
            "individual,Sven Svensson,sven@example.se,1980-01-01,SE",
            "individual,Ola Nordmann,ola@example.no,1980-01-01,NO",
        ]
    ).encode()
    preview_url = upload(client, sm, data)
    preview = client.get(preview_url).context["preview"]
    problems = {row.line: row.problems for row in preview.rows}
    assert problems[2] == []
    assert problems[3] == [
        "This championship takes official entries only, and this entry would be "
        "unofficial (hors concours).",
        "Member 1: Ola Nordmann: is not a citizen of Sweden, so the entry cannot be official.",
    ]
    confirm(client, preview_url)
    assert not Entry.objects.exists() and not Person.objects.exists()


def test_the_import_service_refuses_a_row_that_would_be_unofficial_and_saves_the_others(db):
    """A row the rules refuse is left out with its reasons; the batch's other rows are saved."""
    sm = factories.championship(
        slug=f"sm-{NEXT_YEAR}",
        ruleset="sm",
        starts_at=datetime(NEXT_YEAR, 5, 1, 9, tzinfo=UTC),
        rule_overrides={"unofficial_allowed": False},
    )
    individual = sm.categories.get(key="individual")
    rows = [
        csv_io.ImportRow(
            line=line, category=individual, members=[member(name, email, citizenship=(code,))]
        )
        for line, name, email, code in [
            (2, "Sven", "sven@example.se", "SE"),
            (3, "Ola", "ola@example.no", "NO"),
        ]
    ]
    imported = bulk.entries_import(rows=rows, language="en")
    (refused,) = imported.refused
    assert refused.row.line == 3
    assert "Ola: is not a citizen of Sweden, so the entry cannot be official." in refused.messages
    assert [entry.name for entry in imported.entries] == ["Sven"]
    assert list(Person.objects.values_list("name", flat=True)) == ["Sven"]


def test_dm_finds_the_same_person_by_name_and_birth_date_in_the_file_and_registered(client):
    dm = future_championship(f"dm-{NEXT_YEAR}", ruleset="dm")
    client.force_login(factories.role(dm, ORGANISER))
    register(
        dm, "individual", [member("Allerede Her", "a@example.org", birth_date=date(1970, 1, 1))]
    )
    data = "\n".join(
        [
            "category;name;email;birth date",
            "individual;Mette Hansen;mette@example.org;01.05.1990",
            "individual;mette  HANSEN;other@example.org;01.05.1990",
            "individual;allerede her;new@example.org;01.01.1970",
            "individual;Mette Hansen;third@example.org;02.05.1990",
        ]
    ).encode()
    preview_url = upload(client, dm, data)
    preview = client.get(preview_url).context["preview"]
    problems = {row.line: row.problems for row in preview.rows}
    assert problems[2] == []
    assert problems[3] == [
        "Member 1: mette  HANSEN, born 1 May 1990, is already in row 2 of the file: "
        "one entry per person in a category."
    ]
    assert problems[4] == [
        "Member 1: allerede her, born 1 January 1970, is already registered in this category: "
        "one entry per person."
    ]
    # A namesake born on another day is another person.
    assert problems[5] == []


def test_dm_refuses_a_row_whose_member_has_neither_email_nor_birth_date(client):
    dm = factories.championship(
        slug=f"dm-{NEXT_YEAR}",
        ruleset="dm",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
        rule_overrides={"adult_required_below": None},
    )
    client.force_login(factories.role(dm, ORGANISER))
    data = "\n".join(
        [
            "category,member1_name,member1_email,member2_name,member2_email,member2_birth_date",
            "pair,Mette,mette@example.org,Jens,,",
            "pair,Søs,sos@example.org,Bo,,1990-01-01",
        ]
    ).encode()
    preview_url = upload(client, dm, data)
    preview = client.get(preview_url).context["preview"]
    problems = {row.line: row.problems for row in preview.rows}
    assert problems[2] == [
        "Member 2: Give an e-mail address or a birth date for Jens: each person may have one "
        "entry in this category, and these tell people apart."
    ]
    assert problems[3] == []
