"""Every CSV the application writes opens as columns in the championship's spreadsheet.

nb, sv and da championships: semicolons after a UTF-8 byte-order mark (a Nordic
Excel splits at semicolons, and reads UTF-8 only with the mark); en: commas, no
mark. Every cell that a spreadsheet would run as a formula gets an apostrophe.
"""

import codecs
import csv
import io
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from championship.models import ChampionshipRole, Seat
from core import csvfile
from registration import services
from registration.models import Entry
from registration.validation import MemberData
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

ORGANISER = ChampionshipRole.Role.ORGANISER
START = datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)


def rogaland(slug, language):
    return factories.championship(slug=slug, starts_at=START, language=language)


def with_results(championship, names):
    """Seat one finished individual entry per name in the final; return the final."""
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    heat = factories.heat(final, key="a")
    for minutes, name in enumerate(names, start=30):
        person = factories.person(
            championship, name=name, region="Rogaland", birth_date=date(1990, 1, 1)
        )
        entry = factories.entry(individual, members=[person], name=name, publish_consent=True)
        Seat.objects.create(heat=heat, table=factories.table(championship), entry=entry)
        Result.objects.create(
            round=final, heat=heat, entry=entry, status="finished", time_ms=minutes * 60_000
        )
    standings_recompute(round_=final)
    return final


def exports(client, championship):
    """Return every CSV download of a championship: entries, a round's results, a category's."""
    final = with_results(championship, ['=HYPERLINK("x")', "Åse Økland"])
    client.force_login(factories.role(championship, ORGANISER))
    slug = championship.slug
    paths = [
        f"/{slug}/manage/entries/export.csv",
        f"/{slug}/results/{final.key}.csv",
        f"/{slug}/results/category/individual.csv",
    ]
    answers = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Content-Type"] == "text/csv; charset=utf-8", path
        assert response["Content-Disposition"].startswith("attachment; filename="), path
        answers[path] = response.content
    return answers


@pytest.mark.parametrize("language", ["nb", "sv", "da"])
def test_a_nordic_championships_exports_are_semicolons_after_a_byte_order_mark(client, language):
    championship = rogaland(f"rm-{language}", language)
    for path, content in exports(client, championship).items():
        assert content.startswith(codecs.BOM_UTF8), path
        text = content.decode("utf-8")[1:]
        header = text.split("\r\n", 1)[0]
        assert ";" in header and "," not in header, path
        assert csv.Sniffer().sniff(header, delimiters=",;").delimiter == ";", path
        rows = list(csv.reader(io.StringIO(text), delimiter=";"))
        assert len({len(row) for row in rows}) == 1, path  # every row has every column
        names = [cell for row in rows for cell in row]
        assert "Åse Økland" in names, path
        assert '\'=HYPERLINK("x")' in names and '=HYPERLINK("x")' not in names, path


def test_an_english_championships_exports_are_commas_without_a_byte_order_mark(client):
    championship = rogaland("rm-en", "en")
    for path, content in exports(client, championship).items():
        assert not content.startswith(codecs.BOM_UTF8), path
        text = content.decode("utf-8")
        header = text.split("\r\n", 1)[0]
        assert "," in header and ";" not in header, path
        rows = list(csv.reader(io.StringIO(text)))
        assert len({len(row) for row in rows}) == 1, path
        names = [cell for row in rows for cell in row]
        assert "Åse Økland" in names and '\'=HYPERLINK("x")' in names, path


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+47 900 00 000", "'+47 900 00 000"),
        ("-5", "'-5"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rReturn", "'\rReturn"),
        ("Kari", "Kari"),
        ("", ""),
        (None, ""),
        (200, "200"),
    ],
)
def test_a_cell_that_would_run_as_a_formula_gets_an_apostrophe(value, cell):
    assert csvfile.cell(value) == cell


def test_a_nordic_file_writes_a_decimal_comma_and_an_english_one_a_decimal_point():
    rows = [["fee", "pace", "place", "name"], [Decimal("200.50"), 10.8, 3, "1.5 kg"]]
    assert csvfile.write(rows, language="sv") == (
        "\ufefffee;pace;place;name\r\n200,50;10,8;3;1.5 kg\r\n"
    )
    assert csvfile.write(rows, language="en") == "fee,pace,place,name\r\n200.50,10.8,3,1.5 kg\r\n"
    # Asked for with commas, a Nordic file takes the decimal point too (else "200,50" in quotes).
    assert csvfile.write(rows, language="nb", dialect=csvfile.COMMA).splitlines()[1] == (
        "200.50,10.8,3,1.5 kg"
    )
    assert csvfile.cell(Decimal("-3.25"), ",") == "-3,25"


def test_the_dialect_follows_the_language():
    assert csvfile.dialect_for("nb") == csvfile.dialect_for("sv") == csvfile.dialect_for("da")
    assert csvfile.dialect_for("nb") == csvfile.Dialect(delimiter=";", bom=True, decimal=",")
    assert csvfile.dialect_for("en") == csvfile.Dialect(delimiter=",", bom=False, decimal=".")
    assert csvfile.write([["a", "b"], ["1", "2"]], language="sv") == "\ufeffa;b\r\n1;2\r\n"
    assert csvfile.write([["a", "b"], ["1", "2"]], language="en") == "a,b\r\n1,2\r\n"


@pytest.mark.parametrize("language", ["nb", "en"])
def test_an_export_imports_again_into_another_championship(client, language):
    source = rogaland(f"source-{language}", language)
    individual = source.categories.get(kind="individual")
    pair = source.categories.get(kind="pair")
    for category, members, kwargs in (
        (
            individual,
            [MemberData("Kari Nordmann", "kari@example.org", date(1980, 1, 1), "Ålgård")],
            {"publish_consent": True},
        ),
        (
            individual,
            [MemberData("=Formel", "formel@example.org", date(1981, 2, 3), 'Sola, "sentrum"')],
            {},
        ),
        (
            pair,
            [
                MemberData("Åsa Öberg", "asa@example.org", date(1970, 5, 6), publish_consent=True),
                MemberData("Jörgen Ström", "", date(1972, 7, 8), publish_consent=False),
            ],
            {"name": "Bitarna"},
        ),
    ):
        members = [MemberData(**{**m.__dict__, "region": "Rogaland"}) for m in members]
        services.entry_register(category=category, members=members, send_mail=False, **kwargs)
    client.force_login(factories.role(source, ORGANISER))
    exported = client.get(f"/{source.slug}/manage/entries/export.csv").content
    assert exported.startswith(codecs.BOM_UTF8) == (language == "nb")

    target = rogaland(f"target-{language}", language)
    client.force_login(factories.role(target, ORGANISER))
    response = client.post(
        f"/{target.slug}/manage/entries/import/",
        {"file": SimpleUploadedFile("entries.csv", exported, content_type="text/csv")},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    preview = client.get(response.url)
    assert preview.context["preview"].delimiter == (";" if language == "nb" else ",")
    assert preview.context["preview"].invalid == []
    assert client.post(response.url, {"action": "import"}).status_code == 302

    def people(championship):
        return sorted(
            (
                entry.category.key,
                entry.name,
                entry.publish_consent,
                [
                    (p.name, p.email, p.birth_date, p.city, p.publish_consent)
                    for p in entry.members.order_by("memberships__position")
                ],
            )
            for entry in Entry.objects.filter(category__championship=championship)
        )

    assert people(target) == people(source)
    assert Entry.objects.get(category__championship=target, name="=Formel")


def test_the_import_reads_a_byte_order_mark_and_either_separator():
    text = csvfile.decode(codecs.BOM_UTF8 + "navn;e-post\r\nÅse;ase@example.org\r\n".encode())
    assert text.startswith("navn;")
    assert csvfile.sniff_delimiter(text.splitlines()[0]) == ";"
    assert csvfile.sniff_delimiter("name,email") == ","
