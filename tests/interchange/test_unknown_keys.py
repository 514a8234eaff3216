"""An import keeps what it is given, or says why not: an unknown field is refused with its path.

Every object of the format is closed: a key the schema does not describe (an
entry's ``represents``, a round's ``pieces``, a newer release's payment field)
is refused with its path, exit code 2 and nothing written, where the import
once dropped it without a word. A version-1 document carries only the fields
of version 1; a document of a version this import does not read is refused for
its version alone. The export's computed fields are fields of the format: what
the export gives imports, and gives the same document again.
"""

import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from championship.models import Championship
from control import demo
from interchange import schema
from interchange.export import export_document
from interchange.format import PAYEE_FIELDS, InterchangeError
from interchange.write import import_document
from results.models import Result
from tests import factories
from tests.paths import DATA

pytestmark = pytest.mark.django_db

SLUG = "rm-2026"
HEAT = ["competitions", 0, "rounds", 0, "heats", 0]
IMPORT_URL = "/api/v1/championships/import/"
# What a championship of a document before version 4 has: nowhere to pay, no refunds.
NO_PAYEES = dict.fromkeys(PAYEE_FIELDS, "") | {"refund_days_before": None}


def example(name: str = "small") -> dict:
    """Return an example document of ``tests/data/interchange`` (a fresh copy)."""
    return json.loads((DATA / "interchange" / f"{name}.json").read_text(encoding="utf-8"))


def at(document: dict, steps: list) -> dict:
    """Return the object at ``steps`` (keys and indexes) of ``document``."""
    for step in steps:
        document = document[step]
    return document


def refused_by_command(document: dict, tmp_path) -> CommandError:
    """Import ``document`` over the loaded example with the command; return its refusal."""
    path = tmp_path / "document.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_championship", str(path), "--replace", stdout=io.StringIO())
    assert refused.value.returncode == 2
    return refused.value


@pytest.fixture
def loaded(db):
    """The example championship in the database: a refused import must leave it as it is."""
    return import_document(example())


def without_version_4(document: dict) -> dict:
    """Return the example as version 3 said it: without where entrants pay."""
    document["version"] = 3
    for name in PAYEE_FIELDS:
        document["championship"].pop(name, None)
    return document


def without_version_3(document: dict) -> dict:
    """Return the example as version 2 said it: without an entry's country, a round's puzzles,
    or where entrants pay."""
    without_version_4(document)
    document["version"] = 2
    for competition in document["competitions"]:
        for entry in competition["entries"]:
            entry.pop("represents", None)
        for round_ in competition["rounds"]:
            round_.pop("pieces", None)
            round_.pop("puzzles", None)
    return document


def unchanged() -> bool:
    return export_document(Championship.objects.get(slug=SLUG)) == example()


# One unknown key on each kind of object of the format, and the line that refuses it.
OBJECTS = {
    "the top level": ([], "checksum", 'checksum: unknown field "checksum"'),
    "the championship": (
        ["championship"],
        "sponsor",
        'championship.sponsor: unknown field "sponsor"',
    ),
    "the rules overrides": (
        ["championship", "rules"],
        "max_lost_piece",
        'championship.rules.max_lost_piece: unknown parameter "max_lost_piece"',
    ),
    "a table": (["tables", 1], "colour", 'tables[1].colour: unknown field "colour"'),
    "a person": (["persons", 2], "club", 'persons[2].club: unknown field "club"'),
    "a competition": (
        ["competitions", 1],
        "puzzle_ean",
        'competitions[1].puzzle_ean: unknown field "puzzle_ean"',
    ),
    "an entry": (
        ["competitions", 0, "entries", 2],
        "shirt",
        'competitions[0].entries[2].shirt: unknown field "shirt"',
    ),
    "a round": (
        ["competitions", 0, "rounds", 0],
        "sponsor",
        'competitions[0].rounds[0].sponsor: unknown field "sponsor"',
    ),
    "a round's advancement": (
        ["competitions", 0, "rounds", 0, "advance"],
        "top",
        'competitions[0].rounds[0].advance.top: unknown setting "top"',
    ),
    "a heat": (HEAT, "room", 'competitions[0].rounds[0].heats[0].room: unknown field "room"'),
    "a seat": (
        [*HEAT, "seats", 1],
        "position",
        'competitions[0].rounds[0].heats[0].seats[1].position: unknown field "position"',
    ),
    "a result": (
        [*HEAT, "results", 0],
        "video",
        'competitions[0].rounds[0].heats[0].results[0].video: unknown field "video"',
    ),
    "a question": (["questions", 0], "hint", 'questions[0].hint: unknown field "hint"'),
}


@pytest.mark.parametrize(("steps", "key", "line"), OBJECTS.values(), ids=OBJECTS.keys())
def test_an_unknown_key_is_refused_with_its_path_and_nothing_changes(
    loaded, tmp_path, steps, key, line
):
    document = example()
    at(document, steps)[key] = "anything"

    assert str(refused_by_command(document, tmp_path)) == line
    assert unchanged()


def test_an_entrys_represents_is_a_country_not_a_club(loaded, tmp_path):
    """The issue's first example: a club the entry represents. Version 3's is a country."""
    document = example()
    document["competitions"][0]["entries"][3]["represents"] = "Bergen Puslelag"

    refused = refused_by_command(document, tmp_path)

    assert str(refused) == (
        'competitions[0].entries[3].represents: "Bergen Puslelag" is not '
        'an ISO 3166-1 alpha-2 country code or "neutral"'
    )
    assert unchanged()


def test_a_rounds_pieces_is_refused_in_a_version_2_document(loaded, tmp_path):
    """The issue's second example: version 2 has no round's pieces; version 3 has."""
    document = without_version_3(example())
    document["competitions"][0]["rounds"][0]["pieces"] = 1000

    refused = refused_by_command(document, tmp_path)

    assert str(refused) == (
        'competitions[0].rounds[0].pieces: "pieces" is a field of version 3 '
        "(the document says version 2)"
    )
    assert unchanged()


def test_a_newer_releases_payment_field_is_refused_not_dropped(loaded, tmp_path):
    """The issue's third example: a payment field of a newer install, on an entry."""
    document = example()
    document["competitions"][0]["entries"][0]["payment_kid"] = "2026031400017"

    refused = refused_by_command(document, tmp_path)

    assert str(refused) == 'competitions[0].entries[0].payment_kid: unknown field "payment_kid"'
    assert unchanged()


def test_every_unknown_key_of_a_document_is_named_in_the_order_of_their_paths(loaded, tmp_path):
    document = example()
    competition = document["competitions"][0]
    competition["rounds"][0]["puzzle_size"] = 1000
    competition["entries"][3]["club"] = "Bergen Puslelag"
    competition["entries"][0]["payment_kid"] = "2026031400017"

    refused = refused_by_command(document, tmp_path)

    assert str(refused).splitlines() == [
        'competitions[0].entries[0].payment_kid: unknown field "payment_kid"',
        'competitions[0].entries[3].club: unknown field "club"',
        'competitions[0].rounds[0].puzzle_size: unknown field "puzzle_size"',
    ]
    assert unchanged()


def test_an_object_with_very_many_unknown_keys_gets_a_few_lines(db):
    document = example()
    document["persons"][0].update({f"x{number:06}": 1 for number in range(100_000)})

    with pytest.raises(InterchangeError) as refused:
        import_document(document)

    assert [path for path, _message in refused.value.problems] == [
        f"persons[0].x{number:06}" for number in range(schema.MAX_PROBLEMS)
    ]
    assert not Championship.objects.exists()


def test_the_api_refuses_an_unknown_key_with_its_path(loaded):
    superuser = factories.user(username="root", is_superuser=True, is_staff=True)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=superuser).key}")
    document = example()
    document["competitions"][0]["entries"][3]["club"] = "Bergen Puslelag"

    response = client.post(f"{IMPORT_URL}?replace=true", document, format="json")

    assert response.status_code == 400
    assert response.json() == {
        "path": "competitions[0].entries[3].club",
        "detail": 'unknown field "club"',
    }
    assert unchanged()


# ------------------------------------------------------------------------------ versions


def test_a_version_1_export_still_imports(db, tmp_path):
    """What the last release that wrote version 1 exported (adjacent_missing true or false)."""
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(example("small-v1")), encoding="utf-8")

    call_command("import_championship", str(path), stdout=io.StringIO())

    # The same championship as the example, less what only versions 2 to 4 can say.
    expected = without_version_3(example())
    expected["version"] = 4
    expected["championship"].update(payment_instructions="", mail_results=True, **NO_PAYEES)
    expected["competitions"][0]["entries"][0]["answers"] = {}
    expected["questions"] = []
    assert export_document(Championship.objects.get(slug=SLUG)) == expected


# A field that came with version 2, as the example (a version-2 export) carries it.
VERSION_2_FIELDS = {
    "the questions": ([], "questions", "questions"),
    "a championship's offer hours": (["championship"], "offer_hours", "championship.offer_hours"),
    "a championship's payment instructions": (
        ["championship"],
        "payment_instructions",
        "championship.payment_instructions",
    ),
    "a table's group": (["tables", 0], "group", "tables[0].group"),
    "an entry's judge note": (
        ["competitions", 0, "entries", 1],
        "judge_note",
        "competitions[0].entries[1].judge_note",
    ),
    "an entry's payment deadline": (
        ["competitions", 0, "entries", 1],
        "payment_due_at",
        "competitions[0].entries[1].payment_due_at",
    ),
    "a round's sign-off": (
        ["competitions", 0, "rounds", 0],
        "official_at",
        "competitions[0].rounds[0].official_at",
    ),
}


@pytest.mark.parametrize(
    ("steps", "key", "path"), VERSION_2_FIELDS.values(), ids=VERSION_2_FIELDS.keys()
)
def test_a_version_1_document_carries_only_the_fields_of_version_1(db, tmp_path, steps, key, path):
    """The same field in version 2 is taken: the example carries it (see its round trip)."""
    document = example("small-v1")
    at(document, steps)[key] = at(example(), steps)[key]

    refused = refused_by_command(document, tmp_path)

    assert str(refused) == f'{path}: "{key}" is a field of version 2 (the document says version 1)'
    assert not Championship.objects.exists()


def test_a_document_of_a_newer_version_is_refused_for_its_version_alone(loaded, tmp_path):
    """Its other fields are the newer format's: they are not reported as mistakes."""
    document = example()
    document["version"] = 5
    document["competitions"][0]["entries"][0]["payment_kid"] = "2026031400017"
    document["competitions"][0]["rounds"][0]["tables_per_heat"] = 10

    refused = refused_by_command(document, tmp_path)

    assert str(refused) == "version: 5 is not a version this import reads (1, 2, 3 or 4)"
    assert unchanged()


# ---------------------------------------------------------------------------- round trips


def fields_of(document: dict) -> dict[str, set[str]]:
    """Return, per kind of object, the keys the document's objects of that kind carry."""
    found: dict[str, set[str]] = {}

    def add(kind: str, *objects: dict) -> None:
        for item in objects:
            found.setdefault(kind, set()).update(item)

    add("root", document)
    add("championship", document["championship"])
    add("table", *document["tables"])
    add("person", *document["persons"])
    add("question", *document["questions"])
    for competition in document["competitions"]:
        add("competition", competition)
        add("entry", *competition["entries"])
        for round_ in competition["rounds"]:
            add("round", round_)
            for heat in round_["heats"]:
                add("heat", heat)
                add("seat", *heat["seats"])
                add("result", *heat["results"])
    return found


def test_the_example_carries_every_field_of_the_format(db):
    """So its round trip shows that every field the export gives is one the import takes."""
    described = schema.validator().schema
    carried = fields_of(example())
    # A result's qualified_by is written only in a round with country places, and its
    # withdrawn_at only for a withdrawn qualifier, which the example has none of: the round
    # trips of test_wjpc2024_groups and test_format_withdrawals carry them.
    carried["result"].update({"qualified_by", "withdrawn_at"})
    assert carried.pop("root") == set(described["properties"])
    for kind, keys in carried.items():
        assert keys == set(described["$defs"][kind]["properties"]), kind


def test_the_example_exported_imported_and_exported_again_is_the_same(db):
    """tests/data/interchange/small.json is exactly what the export gives, through the commands."""
    call_command(
        "import_championship", str(DATA / "interchange" / "small.json"), stdout=io.StringIO()
    )
    out = io.StringIO()
    call_command("export_championship", SLUG, stdout=out)
    assert json.loads(out.getvalue()) == example()


def test_the_computed_fields_are_taken_and_computed_again(db):
    document = example()
    result = document["competitions"][0]["rounds"][0]["heats"][0]["results"][0]
    result.update(place=4, official_place=None, outcome="dsq", final_seconds=1, prize=None)

    championship = import_document(document)

    assert export_document(championship) == example()
    assert Result.objects.get(entry__ref="e1").place == 3


def test_the_demo_exported_imported_and_exported_again_is_the_same(db):
    built = demo.build()
    for championship in (built.championship, built.open_championship):
        document = export_document(championship)
        imported = import_document(copy.deepcopy(document), replace=True)
        assert export_document(imported) == document, championship.slug
