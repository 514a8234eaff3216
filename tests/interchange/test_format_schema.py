"""The interchange schema at runtime; many problems in a document get a few messages, in order."""

from __future__ import annotations

import copy
import json
from decimal import Decimal

import jsonschema
import pytest
from django.conf import settings as django_settings

from championship import bounds, presets, rulesets
from championship.models import (
    Championship,
    Currency,
    Round,
)
from interchange import schema
from interchange.format import FEE_MAX, READS, InterchangeError
from interchange.write import import_document
from registration.models import Entry
from results.models import Result
from tests.interchange.documents import HEAT, SCHEMA, example, heat
from tests.paths import ROOT

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ the schema, at runtime


@pytest.fixture
def fresh_schema():
    """The schema is read again in the test and after it (a test may point elsewhere)."""
    schema.validator.cache_clear()
    yield
    schema.validator.cache_clear()


def test_the_import_checks_the_schema_the_docs_publish(fresh_schema):
    assert schema.schema_path() == ROOT / "docs" / "interchange.schema.json"
    assert schema.validator().schema == SCHEMA


def test_a_change_to_the_schema_file_changes_the_import(db, fresh_schema, settings, tmp_path):
    """The import validates against the file under BASE_DIR, not a copy of its own."""
    changed = copy.deepcopy(SCHEMA)
    changed["$defs"]["championship"]["properties"]["name"]["maxLength"] = 5
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "interchange.schema.json").write_text(json.dumps(changed))
    settings.BASE_DIR = tmp_path

    with pytest.raises(InterchangeError) as refused:
        import_document(example())

    assert str(refused.value) == "championship.name: must be at most 5 characters long"
    assert not Championship.objects.exists()


def test_the_schemas_choices_and_bounds_are_the_applications():
    """The import no longer checks these itself: the schema's must be the application's."""
    defs = SCHEMA["$defs"]

    def choices(name, field):
        return [value for value in defs[name]["properties"][field]["enum"] if value is not None]

    languages = [code for code, _name in django_settings.LANGUAGES]
    assert SCHEMA["properties"]["version"]["enum"] == list(READS)
    assert choices("championship", "ruleset") == list(presets.PRESET_KEYS)
    assert choices("championship", "currency") == list(Currency.values)
    assert choices("championship", "language") == choices("entry", "language") == languages
    assert choices("competition", "category") == list(rulesets.CATEGORY_KINDS)
    assert choices("entry", "status") == list(Entry.Status.values)
    assert choices("entry", "payment_status") == list(Entry.Payment.values)
    assert choices("round", "stage") == list(Round.Stage.values)
    assert choices("result", "status") == list(Result.Status.values)
    for name, field in (("competition", "time_limit_minutes"), ("round", "time_limit_minutes")):
        limit = defs[name]["properties"][field]
        assert (limit["minimum"], limit["maximum"]) == (
            bounds.TIME_LIMIT_MINUTES_MIN,
            bounds.TIME_LIMIT_MINUTES_MAX,
        )
    assert Decimal(str(defs["amount"]["maximum"])) == FEE_MAX


def test_null_is_the_default_as_the_docs_say(db):
    """A member with a default may be null (docs/interchange.md); the schema takes it."""
    document = example("minimal")
    document["championship"].update(timezone=None, currency=None, language=None, rules=None)
    document["tables"][0]["seats"] = None
    competition = document["competitions"][0]
    competition.update(pieces=None, time_limit_minutes=None, fee=None, min_members=None)
    competition["entries"][1].update(status=None, payment_status=None)
    competition["rounds"][1].update(stage=None, heats=None, advance=None)
    document["persons"] = document["persons"] + [{"id": "cy", "name": "Cy", "country": None}]
    jsonschema.validate(document, SCHEMA, jsonschema.Draft202012Validator)

    championship = import_document(document)

    assert (championship.timezone, championship.currency, championship.language) == (
        "Europe/Stockholm",
        "SEK",
        "sv",
    )
    assert championship.tables.get(number=1).seats == 1
    category = championship.categories.get()
    assert (category.pieces, category.time_limit_minutes, category.fee) == (500, 120, 0)
    bo = Entry.objects.get(ref="bo-i")
    assert (bo.status, bo.payment_status) == ("confirmed", "unpaid")
    assert Round.objects.get(key="individual-final").stage == "final"


def natural(path: str) -> list:
    """Return a path's steps, an index as a number: the order the problems come in."""
    steps = path.replace("[", ".[").split(".")
    return [(True, int(step[1:-1])) if step.startswith("[") else (False, step) for step in steps]


def many_persons(document):
    document["persons"] = [{"id": number, "name": ""} for number in range(100_000)]


def many_parameters(document):
    document["championship"]["rules"] = {f"rule_{number}": 1 for number in range(100_000)}


def many_results(document):
    heat(document)["results"] = [{"entry": "e1", "status": 5}] * 100_000


def long_unsortable_members(document):
    """Items the library cannot sort to find repeats: it would compare every pair of them."""
    members = [f"p{number}" for number in range(30_000)] + [{"p": 1}]
    document["competitions"][0]["entries"][0]["members"] = members


MANY = {
    "100,000 bad persons": (many_persons, ("persons[0].id", "must be text, not 0")),
    "100,000 unknown rules": (
        many_parameters,
        ("championship.rules.rule_0", 'unknown parameter "rule_0"'),
    ),
    "100,000 bad results": (
        many_results,
        (
            f"{HEAT}.results[0].status",
            "unknown status 5 (known: pending, finished, unfinished, dns, dsq)",
        ),
    ),
    "a long list of members that cannot be sorted": (
        long_unsortable_members,
        ("competitions[0].entries[0].members[30000]", 'must be text, not {"p": 1}'),
    ),
}


@pytest.mark.parametrize("change, first", MANY.values(), ids=MANY.keys())
def test_many_bad_items_get_a_few_messages(db, change, first):
    document = example()
    change(document)

    with pytest.raises(InterchangeError) as refused:
        import_document(document)

    problems = refused.value.problems
    assert problems[0] == first == (refused.value.path, refused.value.message)
    assert 1 <= len(problems) <= schema.MAX_PROBLEMS
    paths = [path for path, _message in problems]
    assert paths == sorted(paths, key=natural) and len(set(paths)) == len(paths)
    assert str(refused.value).splitlines() == [f"{path}: {message}" for path, message in problems]
    assert not Championship.objects.exists()


def test_the_problems_of_a_document_come_in_the_order_of_their_paths(db):
    document = example()
    document["version"] = "2"
    document["persons"][2]["publish_consent"] = "yes"
    document["tables"][3]["seats"] = 3
    heat(document)["seats"][0]["table"] = "1"
    del document["championship"]["starts_at"]

    with pytest.raises(InterchangeError) as refused:
        import_document(document)

    assert str(refused.value).splitlines() == [
        "championship.starts_at: is required",
        f'{HEAT}.seats[0].table: must be a whole number, not "1"',
        'persons[2].publish_consent: must be true or false, not "yes"',
        "tables[3].seats: must be between 1 and 2, not 3",
        'version: must be a version this import reads (1, 2, 3 or 4), not "2"',
    ]
