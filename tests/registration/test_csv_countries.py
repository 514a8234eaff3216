"""The entries import reads a country by its name in English, Norwegian, Swedish or Danish, as
well as by its code, whatever the championship's language; what is no country is refused
with a message that says a name or a code will do."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.utils import translation

from registration import csv_forms, csv_io
from registration.models import Person
from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.csv_entries import ORGANISER, confirm, upload

pytestmark = pytest.mark.django_db

SWEDISH_HEADER = "Namn;E-post;Födelsedatum;Ort;Land;Medborgarskap"


@pytest.fixture
def sm(db):
    """A Swedish championship (Pussel-SM): its pages and messages in Swedish."""
    return factories.championship(
        slug=f"sm-{NEXT_YEAR}", ruleset="sm", starts_at=datetime(NEXT_YEAR, 5, 8, 8, tzinfo=UTC)
    )


def swedish_file(*rows: tuple[str, str, str]) -> str:
    """Return a file of individuals in Swedish columns: (name, country, citizenship) per row."""
    lines = [SWEDISH_HEADER]
    for number, (name, country, citizenship) in enumerate(rows, start=1):
        lines.append(f"{name};p{number}@example.org;1980-03-04;Göteborg;{country};{citizenship}")
    return "\r\n".join(lines) + "\r\n"


def parsed(text, championship):
    individual = championship.categories.get(kind="individual")
    with translation.override(championship.language):
        return csv_io.parse_entries(text, championship=championship, default_category=individual)


def test_the_swedish_file_of_the_field_report_is_read(client, sm):
    """The file that was refused: Windows-1252, ";", "Sverige" and "Norge" for the countries."""
    data = swedish_file(
        ("Åsa Öberg", "Sverige", "Sverige"), ("Östen Ärlig", "Sverige", "Norge")
    ).encode("cp1252")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    client.force_login(factories.role(sm, ORGANISER, username="desk"))
    preview_url = upload(client, sm, data, category="individual")
    preview = client.get(preview_url)
    assert preview.status_code == 200
    assert preview.context["preview"].invalid == []
    assert "är inte ett land" not in preview.text
    assert confirm(client, preview_url).status_code == 302
    people = {person.name: (person.country, person.citizenship) for person in Person.objects.all()}
    assert people == {"Åsa Öberg": ("SE", ["SE"]), "Östen Ärlig": ("SE", ["NO"])}


@pytest.mark.parametrize(
    ("country", "citizenship", "codes"),
    [
        # Swedish names in a Swedish championship.
        ("Danmark", "Finland", ("DK", ("FI",))),
        ("Österrike", "Storbritannien", ("AT", ("GB",))),
        # A list typed in Norwegian, in English and in Danish.
        ("Tyskland", "Storbritannia, Norge", ("DE", ("GB", "NO"))),
        ("Germany", "Sweden / Norway", ("DE", ("SE", "NO"))),
        ("Østrig", "Færøerne", ("AT", ("FO",))),
        # Capitals and spaces; names of several words; codes beside names.
        ("  sverige ", "NORGE", ("SE", ("NO",))),
        ("Sri Lanka", "Sri Lanka Norge", ("LK", ("LK", "NO"))),
        ("se", "NO, Sverige", ("SE", ("NO", "SE"))),
    ],
)
def test_a_country_is_read_by_its_name_in_any_language(sm, country, citizenship, codes):
    (row,) = parsed(swedish_file(("Åsa Öberg", country, citizenship)), sm).rows
    assert row.problems == []
    (member,) = row.members
    assert (member.country, member.citizenship) == codes


@pytest.mark.parametrize("language", ["en", "nb", "sv", "da"])
def test_the_names_of_every_language_are_read_in_a_championship_of_each(language):
    championship = factories.championship(
        slug=f"c-{language}", language=language, starts_at=datetime(NEXT_YEAR, 3, 14, tzinfo=UTC)
    )
    names = ["Sverige", "Norge", "Danmark", "Germany", "Tyskland", "Østerrike", "Österrike"]
    text = "name;email;birth_date;country;citizenship\r\n" + "".join(
        f"P{number};p{number}@example.org;1980-03-04;{name};{name}\r\n"
        for number, name in enumerate(names)
    )
    rows = parsed(text, championship).rows
    assert [row.problems for row in rows] == [[]] * len(names)
    assert [row.members[0].country for row in rows] == ["SE", "NO", "DK", "DE", "DE", "AT", "AT"]


def test_what_is_no_country_is_refused_saying_a_name_or_a_code_will_do(sm):
    (row,) = parsed(swedish_file(("Åsa Öberg", "Tysklend", "Sverige Atlantis")), sm).rows
    assert row.problems == [
        "Medlem 1: ”Tysklend” är inte ett land: skriv namnet eller landskoden med två bokstäver, "
        "t.ex. Sverige eller SE.",
        "Medlem 1: ”Atlantis” är inte ett land: skriv namnet eller landskoden med två bokstäver, "
        "t.ex. Sverige eller SE.",
    ]
    # The row keeps the citizenship that is a country.
    assert row.members[0].citizenship == ("SE",)


def test_words_that_name_no_country_are_one_refusal_up_to_a_comma():
    form = csv_forms.MemberRowForm({"name": "Per", "citizenship": "Foo Bar, Norge, Baz"})
    with translation.override("en"):
        assert not form.is_valid()
        assert form.errors["citizenship"] == [
            "“Foo Bar” is not a country: write its name or its two-letter code, e.g. Norway or NO.",
            "“Baz” is not a country: write its name or its two-letter code, e.g. Norway or NO.",
        ]
    assert form.member_data().citizenship == ("NO",)


def test_too_many_citizenships_by_name_are_one_problem():
    form = csv_forms.MemberRowForm(
        {"name": "Per", "citizenship": "Norge Sverige Danmark Finland Island Tyskland"}
    )
    with translation.override("en"):
        assert form.errors["citizenship"] == ["Give at most 5 citizenships."]
    assert form.member_data().citizenship == ()


def test_an_entry_represents_a_country_given_by_name(db):
    world = factories.championship(
        slug=f"wjpc-{NEXT_YEAR}", ruleset="wjpc", starts_at=datetime(NEXT_YEAR, 9, 20, tzinfo=UTC)
    )
    text = (
        "name;email;birth_date;citizenship;represents\r\n"
        "Åsa Öberg;asa@example.org;1980-03-04;Sverige, Norge;Norway\r\n"
        "Ola Nordmann;ola@example.org;1980-03-04;Norge;nøytralt flagg\r\n"
    )
    with translation.override("en"):
        rows = csv_io.parse_entries(
            text, championship=world, default_category=world.categories.get(kind="individual")
        ).rows
    assert [row.problems for row in rows] == [[], []]
    assert [row.represents for row in rows] == ["NO", "neutral"]
