"""The country an entry represents in the entries' CSV: exported as its code, imported through
the registration's checks (each refusal a problem of its own row), and kept by a round trip."""

import csv
import io
from datetime import UTC, datetime

import pytest
from django.utils import translation

from registration import bulk, csv_columns, csv_io, csv_jobs
from registration.csv_io import ImportRow
from registration.models import Entry, Person, StoredImport
from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.csv_entries import ORGANISER, confirm, member, register, upload

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

MEMBER_CELLS = ("name", "email", "birth_date", "citizenship")
HEADER = ",".join(
    ["category", "name", "represents"]
    + [f"member{number}_{cell}" for number in (1, 2) for cell in MEMBER_CELLS]
)


def line(category, name, citizenship, represents, *, partner=None):
    """Return a row of the file: an entry of ``name`` (and a ``partner``'s name and citizenship)."""
    members = [(name, citizenship), *([partner] if partner else [])]
    cells = [category, name if partner else "", represents]
    for member_name, member_citizenship in members:
        email = member_name.split()[0].lower() + "@example.org"
        cells += [member_name, email, "1980-03-04", member_citizenship]
    cells += [""] * (len(MEMBER_CELLS) * (2 - len(members)))
    return ",".join(cells)


def file_of(*lines) -> str:
    return "\n".join([HEADER, *lines]) + "\n"


def world_championship(slug=f"wjpc-{NEXT_YEAR}", **kwargs):
    """A world championship: its entries represent a country; the neutral flag allowed."""
    return factories.championship(
        slug=slug, ruleset="wjpc", starts_at=datetime(NEXT_YEAR, 9, 20, 8, tzinfo=UTC), **kwargs
    )


@pytest.fixture
def world(db):
    return world_championship()


@pytest.fixture
def world_organiser(client, world):
    client.force_login(factories.role(world, ORGANISER, username="world-desk"))
    return client


def parsed(text, championship):
    return csv_io.parse_entries(text, championship=championship).rows


def read_csv(response) -> list[dict]:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    text = content.decode("utf-8-sig")
    delimiter = ";" if text.splitlines()[0].count(";") else ","
    return list(csv.DictReader(io.StringIO(text), delimiter=delimiter))


# Export ---------------------------------------------------------------------------------------


def test_the_export_has_the_column_after_the_adult_with_the_code_or_neutral(world_organiser, world):
    register(world, "individual", [member("Aroha Ngata", "aroha@example.org", citizenship=("NZ",))])
    register(
        world,
        "individual",
        [member("Ivan Petrov", "ivan@example.org", citizenship=("RU",))],
        represents="neutral",
    )
    response = world_organiser.get(f"/{world.slug}/manage/entries/export.csv")
    rows = read_csv(response)
    header = list(rows[0])
    assert header.index("represents") == header.index("adult_name") + 1
    assert {row["name"]: row["represents"] for row in rows} == {
        "Aroha Ngata": "NZ",
        "Ivan Petrov": "neutral",
    }


def test_a_championship_whose_entries_represent_no_country_exports_the_column_empty(
    organiser_client, future
):
    register(future, "individual", [member("Kari Nordmann", "kari@example.org", country="NO")])
    rows = read_csv(organiser_client.get(f"/{future.slug}/manage/entries/export.csv"))
    assert rows[0]["Representerer"] == ""  # a Norwegian championship


# Header and cells -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "represents",
        "Country represented",
        "country_represented",
        "Representerer",
        "Land som representeres",
        "nasjon",
        "representerar",
        "Land som representeras",
        "repræsenterer",
        "Land, der repræsenteres",
    ],
)
def test_the_column_by_its_aliases(name):
    columns, ignored = csv_columns.map_header(["name", "country", name])
    assert csv_columns.Column("represents") in columns.values()
    assert csv_columns.Column("country", 1) in columns.values()
    assert ignored == []


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("NZ", "NZ"),
        ("nz", "NZ"),
        ("New Zealand", "NZ"),
        ("neutral", "neutral"),
        ("Neutral flag", "neutral"),
        ("International Puzzlers", "neutral"),
        ("", ""),
        ("Atlantis", None),
        ("XX", None),
    ],
)
def test_a_cell_is_a_code_the_neutral_flag_or_nothing(text, code):
    assert csv_columns.represents_code(text) == code


def test_the_neutral_flag_in_the_files_language():
    with translation.override("nb"):
        assert csv_columns.represents_code("Nøytralt flagg") == "neutral"
    with translation.override("sv"):
        assert csv_columns.represents_code("neutral flagga") == "neutral"


# Import -----------------------------------------------------------------------------------------


def test_codes_names_neutral_and_empty_the_rules_default(world):
    text = file_of(
        line("individual", "Aroha Ngata", "NZ", "NZ"),
        line("individual", "Mia Smith", "GB AU", "Australia"),
        line("individual", "Ivan Petrov", "RU", "neutral"),
        line("individual", "Kari Berg", "NO SE", ""),
        line("pair", "Ana Ruiz", "ES", "", partner=("Eva Lind", "SE")),
        line("pair", "Rosa Diaz", "ES", "sweden", partner=("Lena Holm", "SE")),
        line("team", "Juan Perez", "ES", "Japan", partner=("Pedro Gil", "ES")),
    )
    rows = parsed(text, world)
    assert [row.problems for row in rows] == [[]] * 7
    assert [row.represents for row in rows] == ["NZ", "AU", "neutral", "NO", "ES", "SE", "JP"]


def test_each_refused_value_is_a_problem_of_its_own_row(world):
    text = file_of(
        line("individual", "Aroha Ngata", "NZ", "NZ"),
        line("individual", "Kari Berg", "NO", "SE"),
        line("individual", "Jon Doe", "US", "Atlantis"),
        line("pair", "Ana Ruiz", "ES", "FR", partner=("Eva Lind", "SE")),
    )
    rows = parsed(text, world)
    assert [row.problems for row in rows] == [
        [],
        ["Sweden is not a nationality of the entry's members: choose one of theirs."],
        [
            "Country represented: “Atlantis” is not a country: write its name or its "
            "two-letter code, e.g. Norway or NO, or “neutral” for the neutral flag."
        ],
        ["France is not a nationality of the entry's members: choose one of theirs."],
    ]


def test_the_neutral_flag_where_the_championship_does_not_allow_it(db):
    strict = world_championship(
        slug=f"strict-{NEXT_YEAR}", rule_overrides={"neutral_flag_allowed": False}
    )
    (row,) = parsed(file_of(line("individual", "Ivan Petrov", "RU", "neutral")), strict)
    assert row.problems == ["This championship does not allow the neutral flag."]


def test_where_entries_represent_no_country_an_empty_cell_stays_empty(future):
    text = file_of(line("individual", "Kari Nordmann", "NO", ""))
    (row,) = parsed(text, future)
    assert row.represents == ""


def test_the_refusals_in_the_users_language(world):
    text = file_of(
        line("individual", "Kari Berg", "NO", "SE"), line("individual", "Jon Doe", "US", "XX")
    )
    with translation.override("nb"):
        refused, unknown = parsed(text, world)
    assert refused.problems == ["Sverige er ikke en av medlemmenes nasjonaliteter: velg en av dem."]
    # The cell's own message (translated by someone else): one problem, quoting the cell.
    assert len(unknown.problems) == 1 and "XX" in unknown.problems[0]


def test_a_file_with_a_refused_value_saves_nothing(world_organiser, world):
    text = file_of(
        line("individual", "Aroha Ngata", "NZ", "NZ"), line("individual", "Kari Berg", "NO", "SE")
    )
    preview_url = upload(world_organiser, world, text.encode())
    page = world_organiser.get(preview_url)
    assert "Sweden is not a nationality of the entry&#x27;s members" in page.text
    response = confirm(world_organiser, preview_url)
    assert response.url == preview_url
    assert not Entry.objects.exists() and not Person.objects.exists()


def test_the_confirmed_import_saves_what_each_entry_represents(world_organiser, world):
    text = file_of(
        line("individual", "Aroha Ngata", "NZ", ""),
        line("individual", "Ivan Petrov", "RU", "neutral"),
        line("team", "Juan Perez", "ES", "JP", partner=("Pedro Gil", "ES")),
    )
    preview_url = upload(world_organiser, world, text.encode())
    page = world_organiser.get(preview_url)
    assert page.context["preview"].invalid == []
    assert '<abbr class="represents" title="New Zealand">NZ</abbr>' in page.text
    confirm(world_organiser, preview_url)
    assert dict(Entry.objects.values_list("name", "represents")) == {
        "Aroha Ngata": "NZ",
        "Ivan Petrov": "neutral",
        "Juan Perez": "JP",
    }


def test_the_import_service_checks_again_when_it_saves(world):
    category = world.categories.get(key="individual")
    kari = member("Kari Berg", "kari@example.org", citizenship=("NO",))
    rows = [
        ImportRow(line=2, category=category, members=[kari], represents="SE"),
        ImportRow(
            line=3,
            category=category,
            members=[member("Aroha Ngata", "aroha@example.org", citizenship=("NZ",))],
        ),
    ]
    done = bulk.entries_import(rows=rows, language="en")
    assert [refusal.row.line for refusal in done.refused] == [2]
    assert done.refused[0].messages == [
        "Sweden is not a nationality of the entry's members: choose one of theirs."
    ]
    assert list(Entry.objects.values_list("represents", flat=True)) == ["NZ"]


# Round trip -------------------------------------------------------------------------------------


def test_export_then_import_keeps_what_each_entry_represents(client, world):
    register(world, "individual", [member("Aroha Ngata", "aroha@example.org", citizenship=("NZ",))])
    register(
        world,
        "individual",
        [member("Sanna Virtanen", "sanna@example.org", citizenship=("SE", "FI"))],
        represents="FI",
    )
    register(
        world,
        "individual",
        [member("Ivan Petrov", "ivan@example.org", citizenship=("RU",))],
        represents="neutral",
    )
    register(
        world,
        "pair",
        [
            member("Ana Ruiz", "ana@example.org", citizenship=("ES",)),
            member("Eva Lind", "eva@example.org", citizenship=("SE",)),
        ],
        represents="SE",
    )
    register(
        world,
        "team",
        [member(f"Miembro {n}", f"m{n}@example.org", citizenship=("ES",)) for n in range(1, 4)],
        name="Los Puzzlers",
        represents="JP",
    )
    client.force_login(factories.role(world, ORGANISER, username="source"))
    exported = client.get(f"/{world.slug}/manage/entries/export.csv").content

    target = world_championship(slug=f"wjpc-{NEXT_YEAR}-copy")
    client.force_login(factories.role(target, ORGANISER, username="target"))
    preview_url = upload(client, target, exported)
    assert client.get(preview_url).context["preview"].invalid == []
    confirm(client, preview_url)

    def represented(championship):
        return sorted(
            Entry.objects.filter(category__championship=championship).values_list(
                "category__key", "name", "represents"
            )
        )

    assert represented(target) == represented(world)
    assert ("team", "Los Puzzlers", "JP") in represented(target)
    assert len(represented(target)) == 5


def test_a_queued_job_keeps_what_each_row_represents(world):
    (row,) = parsed(file_of(line("individual", "Ivan Petrov", "RU", "neutral")), world)
    job = StoredImport(championship=world, rows=[csv_jobs._row_json(row)])
    (kept,) = csv_jobs._rows_of(job)
    assert kept.represents == "neutral"
    # A job stored before the column was read represents the rule's default when saved.
    job.rows[0].pop("represents")
    (older,) = csv_jobs._rows_of(job)
    assert older.represents == ""
