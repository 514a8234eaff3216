"""The entries export speaks the championship's language: its column names, its words and its
decimal sign; and the import reads any language's export back, and the English names too."""

import codecs
import csv
import io
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.conf import settings

from registration import services
from registration.models import Entry
from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.csv_entries import ORGANISER, confirm, member, register, upload

pytestmark = pytest.mark.django_db

# The first columns of each language's file, and the first member's.
HEADERS = {
    "en": (
        [
            "category",
            "id",
            "name",
            "status",
            "registered_at",
            "official",
            "fee",
            "payment_status",
            "payment_reference",
            "publish_consent",
            "adult_name",
            "represents",
            "checked_in_at",
        ],
        [
            "member1_name",
            "member1_email",
            "member1_birth_date",
            "member1_city",
            "member1_country",
            "member1_citizenship",
            "member1_region",
            "member1_years_in_region",
            "member1_publish_consent",
        ],
    ),
    "nb": (
        [
            "Kategori",
            "ID",
            "Navn",
            "Status",
            "Påmeldt",
            "Offisiell",
            "Deltakeravgift",
            "Betalingsstatus",
            "Betalingsreferanse",
            "Samtykke til publisering",
            "Voksen ledsager",
            "Representerer",
            "Sjekket inn",
        ],
        [
            "Deltaker 1: navn",
            "Deltaker 1: e-post",
            "Deltaker 1: fødselsdato",
            "Deltaker 1: bosted",
            "Deltaker 1: land",
            "Deltaker 1: statsborgerskap",
            "Deltaker 1: region",
            "Deltaker 1: år i regionen",
            "Deltaker 1: samtykke til publisering",
        ],
    ),
    "sv": (
        [
            "Kategori",
            "ID",
            "Namn",
            "Status",
            "Anmäld",
            "Officiell",
            "Anmälningsavgift",
            "Betalningsstatus",
            "Betalningsreferens",
            "Samtycke till publicering",
            "Medföljande vuxen",
            "Representerar",
            "Incheckad",
        ],
        [
            "Deltagare 1: namn",
            "Deltagare 1: e-post",
            "Deltagare 1: födelsedatum",
            "Deltagare 1: bostadsort",
            "Deltagare 1: land",
            "Deltagare 1: medborgarskap",
            "Deltagare 1: region",
            "Deltagare 1: år i regionen",
            "Deltagare 1: samtycke till publicering",
        ],
    ),
    "da": (
        [
            "Kategori",
            "ID",
            "Navn",
            "Status",
            "Tilmeldt",
            "Officiel",
            "Tilmeldingsgebyr",
            "Betalingsstatus",
            "Betalingsreference",
            "Samtykke til offentliggørelse",
            "Voksen ledsager",
            "Repræsenterer",
            "Tjekket ind",
        ],
        [
            "Deltager 1: navn",
            "Deltager 1: e-mail",
            "Deltager 1: fødselsdato",
            "Deltager 1: bopæl",
            "Deltager 1: land",
            "Deltager 1: statsborgerskab",
            "Deltager 1: region",
            "Deltager 1: år i regionen",
            "Deltager 1: samtykke til offentliggørelse",
        ],
    ),
}
# Kari's cells: status, official, fee, payment status, consent; then the withdrawn entry's status.
CELLS = {
    "en": (["confirmed", "yes", "200.50", "paid", "yes"], "withdrawn"),
    "nb": (["bekreftet", "ja", "200,50", "betalt", "ja"], "avmeldt"),
    "sv": (["bekräftad", "ja", "200,50", "betald", "ja"], "avanmäld"),
    "da": (["bekræftet", "ja", "200,50", "betalt", "ja"], "afmeldt"),
}


def championship_in(language, slug=None):
    championship = factories.championship(
        slug=slug or f"rm-{language}",
        language=language,
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
    )
    championship.categories.filter(kind="individual").update(fee=Decimal("200.50"))
    return championship


def fill(championship):
    """Register Kari (paid, consenting), a withdrawn entry and a pair; return Kari's entry."""
    kari = register(
        championship,
        "individual",
        [member("Kari Nordmann", "kari@example.org", city="Ålgård", citizenship=("NO", "SE"))],
        publish_consent=True,
    )
    services.entry_set_payment(entry=kari, status="paid", reference="VIPPS-1")
    gone = register(championship, "individual", [member("Borte Vekk", "borte@example.org")])
    services.entry_withdraw(entry=gone)
    register(
        championship,
        "pair",
        [member("Åsa Öberg", "asa@example.org"), member("Jörgen Ström", "", city="Sola")],
        name="Bitarna",
    )
    return kari


def exported(client, championship, query="") -> bytes:
    client.force_login(factories.role(championship, ORGANISER, username=f"o-{championship.slug}"))
    response = client.get(f"/{championship.slug}/manage/entries/export.csv{query}")
    assert response.status_code == 200
    return response.content


def table(content: bytes) -> list[list[str]]:
    text = content.decode("utf-8-sig")
    delimiter = ";" if content.startswith(codecs.BOM_UTF8) else ","
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


@pytest.mark.parametrize("language", HEADERS)
def test_the_export_is_in_the_championships_language(client, language):
    championship = championship_in(language)
    kari = fill(championship)
    # Whatever language the organiser reads the pages in.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en" if language != "en" else "sv"
    header, *rows = table(exported(client, championship))
    entry_columns, member_columns = HEADERS[language]
    assert header[: len(entry_columns)] == entry_columns
    assert header[len(entry_columns) : len(entry_columns) + len(member_columns)] == member_columns
    by_id = {row[1]: row for row in rows}
    cells = by_id[kari.ref]
    words, withdrawn = CELLS[language]
    # Status, official, fee, payment status, consent.
    assert [cells[3], cells[5], cells[6], cells[7], cells[9]] == words
    gone = Entry.objects.get(category__championship=championship, name="Borte Vekk")
    assert by_id[gone.ref][3] == withdrawn


def test_a_nordic_file_asked_with_commas_has_a_decimal_point(client):
    championship = championship_in("sv")
    kari = fill(championship)
    header, *rows = table(exported(client, championship, "?delimiter=comma"))
    fee = header.index("Anmälningsavgift")
    assert {row[1]: row[fee] for row in rows}[kari.ref] == "200.50"


def people(championship):
    return sorted(
        (
            entry.category.key,
            entry.name,
            entry.status,
            entry.payment_status,
            entry.payment_reference,
            entry.publish_consent,
            [
                (p.name, p.email, p.birth_date, p.city, p.citizenship, p.publish_consent)
                for p in entry.members.order_by("memberships__position")
            ],
        )
        for entry in Entry.objects.filter(category__championship=championship)
    )


@pytest.mark.parametrize(
    ("source", "target"), [("sv", "da"), ("da", "nb"), ("nb", "en"), ("en", "sv")]
)
def test_an_export_of_one_language_imports_into_a_championship_of_another(client, source, target):
    origin = championship_in(source, f"from-{source}")
    fill(origin)
    content = exported(client, origin)
    copy = championship_in(target, f"to-{target}")
    client.force_login(factories.role(copy, ORGANISER, username="target"))
    preview_url = upload(client, copy, content)
    preview = client.get(preview_url).context["preview"]
    assert preview.invalid == [] and preview.ignored_columns == []
    # The withdrawn entry is recognised by its word and left out.
    assert [row.display_name for row in preview.withdrawn] == ["Borte Vekk"]
    assert confirm(client, preview_url).status_code == 302
    expected = [person for person in people(origin) if person[2] != "withdrawn"]
    assert people(copy) == expected


def test_a_file_with_the_english_column_names_still_imports_into_a_nordic_championship(client):
    championship = championship_in("da")
    text = (
        "category;member1_name;member1_email;member1_birth_date;member1_region;"
        "member1_citizenship;payment_status;publish_consent\r\n"
        "individual;Ida Nørgaard;ida@example.org;1990-01-02;Rogaland;Danmark;paid;yes\r\n"
    )
    client.force_login(factories.role(championship, ORGANISER, username="desk"))
    preview_url = upload(client, championship, text.encode())
    assert client.get(preview_url).context["preview"].invalid == []
    confirm(client, preview_url)
    entry = Entry.objects.get(category__championship=championship)
    (person,) = entry.members.all()
    assert (entry.payment_status, entry.publish_consent) == ("paid", True)
    assert (person.name, person.birth_date, person.citizenship) == (
        "Ida Nørgaard",
        date(1990, 1, 2),
        ["DK"],
    )
