"""The results CSV files speak the championship's language: column names, words, heats as
people call them, and the decimal sign a spreadsheet of that language reads.

An English championship's files keep the names and words they always had, and the decimal
point; every file keeps its separator and (nb, sv, da) the byte-order mark.
"""

import codecs
import csv
import io
from datetime import UTC, date, datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from championship.models import ChampionshipRole, Seat
from control.report import round_report
from control.views.report import csv_rows
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.control.report_rounds import planted
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

HEADERS = {
    "en": [
        "place",
        "official_place",
        "entry",
        "name",
        "members",
        "represents",
        "heat",
        "table",
        "outcome",
        "time",
        "penalty_seconds",
        "final_seconds",
        "counted_pieces",
        "official",
        "qualified",
        "qualified_by",
        "prize",
        "pieces_per_minute",
        "results",
    ],
    "nb": [
        "Plassering",
        "Offisiell plassering",
        "Påmelding",
        "Navn",
        "Deltakere",
        "Representerer",
        "Heat",
        "Bord",
        "Utfall",
        "Tid",
        "Straffetid (sekunder)",
        "Sluttid (sekunder)",
        "Talte brikker",
        "Offisiell",
        "Kvalifisert",
        "Kvalifisert ved",
        "Premie",
        "Brikker per minutt",
        "Resultatstatus",
    ],
    "sv": [
        "Placering",
        "Officiell placering",
        "Anmälan",
        "Namn",
        "Deltagare",
        "Representerar",
        "Heat",
        "Bord",
        "Utfall",
        "Tid",
        "Strafftid (sekunder)",
        "Sluttid (sekunder)",
        "Räknade bitar",
        "Officiell",
        "Kvalificerad",
        "Kvalificerad genom",
        "Pris",
        "Bitar per minut",
        "Resultatstatus",
    ],
    "da": [
        "Placering",
        "Officiel placering",
        "Tilmelding",
        "Navn",
        "Deltagere",
        "Repræsenterer",
        "Heat",
        "Bord",
        "Udfald",
        "Tid",
        "Straftid (sekunder)",
        "Sluttid (sekunder)",
        "Talte brikker",
        "Officiel",
        "Kvalificeret",
        "Kvalificeret via",
        "Præmie",
        "Brikker pr. minut",
        "Resultatstatus",
    ],
}
# The completed row's and the unfinished row's words, the pace, and the file's state.
WORDS = {
    "en": ("completed", "unfinished", "yes", "10.8", "provisional"),
    "nb": ("fullført", "ikke fullført", "ja", "10,8", "foreløpige"),
    "sv": ("fullföljt", "ej fullföljt", "ja", "10,8", "preliminära"),
    "da": ("gennemført", "ikke gennemført", "ja", "10,8", "foreløbige"),
}


def results_in(language):
    """Return a championship in ``language`` and its final: one puzzle done in 46:18, one not."""
    championship = factories.championship(
        slug=f"res-{language}", language=language, starts_at=datetime(NEXT_YEAR, 3, 14, tzinfo=UTC)
    )
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    heat = factories.heat(final, key="a")
    for name, status, time_ms in (
        ("Åse Ås", "finished", 2778_000),  # 500 pieces: 10.8 a minute
        ("Ola Treg", "unfinished", None),
    ):
        person = factories.person(
            championship, name=name, region="Rogaland", birth_date=date(1990, 1, 1)
        )
        entry = factories.entry(individual, members=[person], name=name, publish_consent=True)
        Seat.objects.create(heat=heat, table=factories.table(championship), entry=entry)
        Result.objects.create(
            round=final,
            heat=heat,
            entry=entry,
            status=status,
            time_ms=time_ms,
            pieces_placed=300 if time_ms is None else None,
        )
    standings_recompute(round_=final)
    return championship, final


def read(content: bytes, language: str) -> list[list[str]]:
    nordic = language != "en"
    assert content.startswith(codecs.BOM_UTF8) == nordic
    text = content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text), delimiter=";" if nordic else ","))


@pytest.mark.parametrize("language", HEADERS)
def test_the_results_of_a_round_in_the_championships_language(client, language):
    championship, final = results_in(language)
    # A visitor who reads the site in another language gets the championship's file.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv" if language == "en" else "en"
    content = client.get(f"/{championship.slug}/results/{final.key}.csv").content
    header, done, unfinished = read(content, language)
    assert header == HEADERS[language]
    completed, not_completed, yes, pace, state = WORDS[language]
    cell = dict(zip(HEADERS["en"], done, strict=True))
    assert (cell["name"], cell["heat"], cell["outcome"], cell["official"]) == (
        "Åse Ås",
        "Heat A",
        completed,
        yes,
    )
    assert (cell["final_seconds"], cell["pieces_per_minute"], cell["results"]) == (
        "2778",
        pace,
        state,
    )
    cell = dict(zip(HEADERS["en"], unfinished, strict=True))
    assert (cell["outcome"], cell["pieces_per_minute"]) == (not_completed, "")


def test_a_named_heat_is_written_by_its_name(client):
    championship, final = results_in("nb")
    final.heats.filter(key="a").update(name="Formiddag")
    content = client.get(f"/{championship.slug}/results/{final.key}.csv").content
    header, *rows = read(content, "nb")
    assert {row[header.index("Heat")] for row in rows} == {"Formiddag"}


@pytest.mark.parametrize("language", ["en", "sv"])
def test_a_categorys_standings_name_the_round(client, language):
    championship, final = results_in(language)
    content = client.get(f"/{championship.slug}/results/category/individual.csv").content
    header, *rows = read(content, language)
    assert header[0] == {"en": "round", "sv": "Omgång"}[language]
    assert header[1:] == HEADERS[language]
    assert {row[0] for row in rows} == {final.display_name}
    assert {row[header.index(HEADERS[language][6])] for row in rows} == {"Heat A"}


@pytest.mark.parametrize(
    ("language", "first", "sections"),
    [
        ("en", ["section", "key", "name", "seated", "completed"], ["round", "heat", "group"]),
        ("nb", ["Del", "Nøkkel", "Navn", "Plassert", "Fullført"], ["runde", "heat", "bordgruppe"]),
        (
            "sv",
            ["Del", "Nyckel", "Namn", "Placerade", "Fullföljt"],
            ["omgång", "heat", "bordsgrupp"],
        ),
        ("da", ["Del", "Nøgle", "Navn", "Placeret", "Gennemført"], ["runde", "heat", "bordgruppe"]),
    ],
)
def test_the_round_report_in_the_championships_language(client, language, first, sections):
    championship = factories.championship(slug=f"report-{language}", language=language)
    round_ = planted(championship)
    client.force_login(factories.role(championship, ChampionshipRole.Role.HEAD_JUDGE))
    url = reverse(
        "manage:round_report_csv",
        kwargs={"championship_slug": championship.slug, "round_key": round_.key},
    )
    response = client.get(url)
    assert response.status_code == 200, url
    header, *rows = read(response.content, language)
    assert header[:5] == first
    assert [row[0] for row in rows] == [sections[0]] + [sections[1]] * 3 + [sections[2]] * 3
    # The heats by their label, as people call them.
    assert [row[2] for row in rows[1:4]] == ["Heat A", "Heat B", "Heat C"]


def test_the_report_table_follows_the_active_language():
    championship = factories.championship(slug="report-table", language="en")
    report = round_report(planted(championship))
    with translation.override("da"):
        header = csv_rows(report)[0]
    assert "Færdige efter 60 min" in header and header[-1] == "Bemærkninger"
