"""Entries as CSV: the export, the import's reading of spreadsheet files, preview and confirm."""

import codecs
import csv
import io
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from championship.models import Category, ChampionshipRole
from core import csvfile
from registration import bulk, csv_columns, csv_export, csv_io, services
from registration.models import Entry, Person
from registration.validation import MemberData
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "data" / "csv"
ORGANISER = ChampionshipRole.Role.ORGANISER


@pytest.fixture(autouse=True)
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def future_championship(slug, ruleset="rogaland"):
    return factories.championship(
        slug=slug, ruleset=ruleset, starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


@pytest.fixture
def future(db):
    return future_championship(f"rm-{NEXT_YEAR}")


@pytest.fixture
def organiser_client(client, future):
    client.force_login(factories.role(future, ORGANISER, username="desk"))
    return client


def member(name, email="", **kwargs):
    kwargs.setdefault("birth_date", date(1980, 1, 1))
    kwargs.setdefault("region", "Rogaland")
    return MemberData(name=name, email=email, **kwargs)


def register(championship, key, members, **kwargs):
    category = championship.categories.get(key=key)
    return services.entry_register(category=category, members=members, send_mail=False, **kwargs)


def upload(client, championship, data: bytes, *, category="", name="entries.csv"):
    """Upload a file and return the preview page's address."""
    response = client.post(
        f"/{championship.slug}/manage/entries/import/",
        {"file": SimpleUploadedFile(name, data, content_type="text/csv"), "category": category},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return response.url


def confirm(client, preview_url, **data):
    return client.post(preview_url, {"action": "import", **data})


def read_export(response) -> list[dict]:
    """Return the rows of an nb championship's export: semicolons, after a byte-order mark."""
    content = b"".join(response.streaming_content) if response.streaming else response.content
    assert content.startswith(codecs.BOM_UTF8)
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))


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
    assert list(rows[0]) == csv_export.export_header()
    assert [row["name"] for row in rows] == ["Kari Nordmann", "Bitene"]
    first, team = rows
    assert first["category"] == "individual" and first["id"] == kari.ref
    assert first["registered_at"] == f"{NEXT_YEAR}-01-11T00:30:00+01:00"
    assert first["checked_in_at"] == f"{NEXT_YEAR}-03-14T08:45:00+01:00"
    assert (first["official"], first["fee"], first["payment_status"]) == ("yes", "200.00", "paid")
    assert (first["payment_reference"], first["publish_consent"]) == ("VIPPS-1", "yes")
    assert first["member1_birth_date"] == "1980-01-01"
    assert first["member1_citizenship"] == "NO,SE"
    assert first["member2_name"] == ""
    assert team["official"] == "no"  # nobody of the team lives in Rogaland
    assert [team[f"member{n}_name"] for n in range(1, 5)] == ["Lag 1", "Lag 2", "Lag 3", "Lag 4"]


def test_the_export_of_one_category(organiser_client, future):
    register(future, "individual", [member("Solo", "solo@example.org")])
    register(future, "pair", [member("En", "en@example.org"), member("To", "to@example.org")])
    response = organiser_client.get(f"/{future.slug}/manage/entries/export.csv?category=pair")
    assert [row["name"] for row in read_export(response)] == ["En & To"]
    missing = organiser_client.get(f"/{future.slug}/manage/entries/export.csv?category=nope")
    assert missing.status_code == 404


def test_the_export_keeps_spreadsheets_from_running_formulas(organiser_client, future):
    register(future, "individual", [member("=HYPERLINK(1)", "f@example.org")])
    response = organiser_client.get(f"/{future.slug}/manage/entries/export.csv")
    (row,) = read_export(response)
    assert row["name"] == "'=HYPERLINK(1)"


def test_the_export_can_use_commas(organiser_client, future):
    register(future, "individual", [member("Solo", "solo@example.org")])
    response = organiser_client.get(f"/{future.slug}/manage/entries/export.csv?delimiter=comma")
    assert response.content.decode("utf-8").startswith("category,id,name,")


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


# Preview and confirm -------------------------------------------------------------------------


def test_the_preview_lists_each_rows_problems_and_saves_nothing(organiser_client, future):
    data = (DATA / "problems.csv").read_bytes()
    preview_url = upload(organiser_client, future, data, category="individual")
    response = organiser_client.get(preview_url)
    preview = response.context["preview"]
    problems = {row.line: row.problems for row in preview.rows}
    assert problems[2] == []
    assert problems[3] == [
        "Member 1: “31.02.1990” is not a date: write 2010-05-31, 31.05.2010 or 31/05/2010."
    ]
    assert problems[4] == ["Member 1: “not-an-email” is not an e-mail address."]
    assert problems[5] == [
        "Lite Barn is under 16 on the day of the championship: name the accompanying adult."
    ]
    assert problems[6] == ["Member 1: Give the member's name."]
    for messages in problems.values():
        for message in messages:
            assert message.replace("'", "&#x27;") in response.text
    assert "Skip the rows with problems" in response.text
    assert not Entry.objects.exists() and not Person.objects.exists()


def test_confirm_refuses_while_a_row_is_invalid_unless_skipping(organiser_client, future):
    preview_url = upload(
        organiser_client, future, (DATA / "problems.csv").read_bytes(), category="individual"
    )
    response = confirm(organiser_client, preview_url)
    assert response.status_code == 302 and response.url == preview_url
    page = organiser_client.get(preview_url)
    assert "Nothing was saved: 4 rows have problems." in page.text
    assert not Entry.objects.exists() and not Person.objects.exists()
    response = confirm(organiser_client, preview_url, skip_invalid="yes")
    assert [e.name for e in Entry.objects.all()] == ["Gyldig Person"]
    page = organiser_client.get(response.url)
    assert "1 entry imported: 1 confirmed, 0 on the waiting list. 4 rows were left out." in (
        page.text
    )
    # The stored file is gone: the same confirmation cannot import twice.
    again = confirm(organiser_client, preview_url)
    assert again.url == f"/{future.slug}/manage/entries/import/"
    assert Entry.objects.count() == 1


def test_imported_entries_take_their_status_from_the_capacity(organiser_client, future):
    individual = future.categories.get(key="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=2)
    register(future, "individual", [member("Først", "forst@example.org")])
    data = "\n".join(
        [
            "name,email,birth_date,region,status",
            "To,to@example.org,1990-01-01,Rogaland,waitlisted",
            "Tre,tre@example.org,1990-01-01,Rogaland,confirmed",
        ]
    ).encode()
    preview_url = upload(organiser_client, future, data, category="individual")
    preview = organiser_client.get(preview_url)
    assert [row.expected_status for row in preview.context["preview"].rows] == [
        "confirmed",
        "waitlisted",
    ]
    assert "a status in the file is not taken over" in preview.text
    confirm(organiser_client, preview_url)
    statuses = dict(Entry.objects.values_list("name", "status"))
    assert statuses == {"Først": "confirmed", "To": "confirmed", "Tre": "waitlisted"}


def test_duplicates_within_the_file_where_one_entry_per_person(client):
    dm = future_championship(f"dm-{NEXT_YEAR}", ruleset="dm")
    client.force_login(factories.role(dm, ORGANISER))
    register(dm, "individual", [member("Allerede", "allerede@example.org")])
    data = "\n".join(
        [
            "category;name;email;birth date",
            "individual;Første;same@example.org;01.01.1990",
            "individual;Andre;SAME@example.org;01.01.1991",
            "individual;Tredje;allerede@example.org;01.01.1992",
            "pair;Par;same@example.org;01.01.1990",
        ]
    ).encode()
    preview_url = upload(client, dm, data)
    preview = client.get(preview_url).context["preview"]
    problems = {row.line: row.problems for row in preview.rows}
    assert problems[2] == []
    assert problems[3] == [
        "Member 1: SAME@example.org is already in row 2 of the file: "
        "one entry per person in a category."
    ]
    assert problems[4] == [
        "Member 1: allerede@example.org is already registered in this category: "
        "one entry per person."
    ]
    # Another category: not a duplicate (but a pair needs two members).
    assert problems[5] == ["An entry in this category has 2 members."]


def test_a_row_with_an_unknown_category_or_payment(organiser_client, future):
    data = "\n".join(
        [
            "category,name,email,birth_date,region,payment_status,publish_consent",
            "quartet,A,a@example.org,1990-01-01,Rogaland,,",
            "individual,B,b@example.org,1990-01-01,Rogaland,stolen,",
            "individual,C,c@example.org,1990-01-01,Rogaland,,maybe",
        ]
    ).encode()
    preview = organiser_client.get(upload(organiser_client, future, data)).context["preview"]
    problems = [row.problems for row in preview.rows]
    assert problems[0] == ["There is no category “quartet”: use one of individual, pair, team."]
    assert problems[1] == ["Unknown payment status “stolen”: write unpaid, paid, refunded, waived."]
    assert problems[2] == ["Consent to publication: write yes or no, not “maybe”."]


def test_overlong_values_are_problems_not_errors(organiser_client, future):
    data = "name,email,birth_date,region,payment_reference\n"
    data += f"{'N' * 201},n@example.org,1990-01-01,Rogaland,{'R' * 101}\n"
    preview = organiser_client.get(
        upload(organiser_client, future, data.encode(), category="individual")
    ).context["preview"]
    (row,) = preview.rows
    assert "name is longer than 200 characters." in row.problems
    assert "payment reference is longer than 100 characters." in row.problems


def test_the_row_data_stays_on_the_server(organiser_client, future):
    preview_url = upload(
        organiser_client, future, (DATA / "problems.csv").read_bytes(), category="individual"
    )
    page = organiser_client.get(preview_url).text
    form = page[page.index('class="stack card narrow import-confirm"') :]
    form = form[: form.index("</form>")]
    assert form.count('type="hidden"') == 1  # the CSRF token, and no row data
    # Another organiser's session does not know the upload.
    other_client = type(organiser_client)()
    other_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    other_client.force_login(factories.role(future, ORGANISER))
    response = other_client.post(preview_url, {"action": "import", "skip_invalid": "yes"})
    assert response.url == f"/{future.slug}/manage/entries/import/"
    assert "This import is no longer available" in other_client.get(response.url).text
    assert not Entry.objects.exists()


def test_cancelling_the_import(organiser_client, future):
    preview_url = upload(
        organiser_client,
        future,
        (DATA / "cp1252_semicolon.csv").read_bytes(),
        category="individual",
    )
    response = organiser_client.post(preview_url, {"action": "cancel"})
    assert response.url == f"/{future.slug}/manage/entries/import/"
    assert confirm(organiser_client, preview_url).url == response.url
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
