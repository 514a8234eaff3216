"""Absurd interchange documents: refused with their path, exit code 2 or 400, nothing written.

Each document here is valid JSON (but for the depth, which the reading refuses
before parsing) and absurd: a database would refuse its text, a column could not
hold its number, or the application would never have made its value.
"""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from championship.models import Championship
from interchange.export import export_document
from interchange.format import InterchangeError
from interchange.write import import_document
from tests.interchange.documents import HEAT, counts, example

pytestmark = pytest.mark.django_db

IMPORT_URL = "/api/v1/championships/import/"


# Where each absurd value goes in the example document.
PLACES = {
    "name": ("persons", 0, "name"),
    "years": ("persons", 0, "years_in_region"),
    "fee": ("competitions", 0, "fee"),
    "token": ("tables", 0, "token"),
    "time": ("competitions", 0, "rounds", 0, "heats", 0, "results", 0, "time"),
}


def document_text(**marks) -> str:
    """Return the example document as JSON text, with raw JSON ``marks`` at their ``PLACES``."""
    document = example()
    for mark, place in PLACES.items():
        target = document
        for step in place[:-1]:
            target = target[step]
        if mark in marks:
            target[place[-1]] = f"@{mark}@"
    text = json.dumps(document)
    for mark, value in marks.items():
        text = text.replace(f'"@{mark}@"', value)
    return text


REFUSED = {
    "a 5,000-digit number": (
        {"years": "9" * 5000},
        "persons[0].years_in_region: the number 99999999999999999999... (5000 characters) "
        "is out of range",
    ),
    "a 20-digit number": (
        {"years": "1" + "0" * 19},
        "persons[0].years_in_region: the number 10000000000000000000 is out of range",
    ),
    "a fee of 1e30": (
        {"fee": "1e30"},
        "competitions[0].fee: must be between 0 and 999999.99, not 1e+30",
    ),
    "a fee of 1e30 as text": (
        {"fee": '"1e30"'},
        'competitions[0].fee: "1e30" is not an amount like "200.00" (digits, at most two decimals)',
    ),
    "a NUL in a name": (
        {"name": json.dumps("Ingrid\u0000Tjelta")},
        "persons[0].name: holds a NUL character",
    ),
    "a lone surrogate in a name": (
        {"name": '"Ingrid \\ud800"'},
        "persons[0].name: holds a lone surrogate (\\ud800), which is not a character",
    ),
    "a table token of 1": (
        {"token": '"1"'},
        'tables[0].token: "1" is not a token as the export gives it (22 to 64 letters, '
        "digits, - and _)",
    ),
    "a time of 99999999999 hours": (
        {"time": '"99999999999:00:00"'},
        f'{HEAT}.results[0].time: "99999999999:00:00" is longer than 24:00:00',
    ),
}


@pytest.fixture
def loaded(db):
    """The example championship, already in the database, for the documents to replace."""
    return import_document(example())


def test_the_example_text_imports(loaded, tmp_path):
    """The documents below differ from an importable one only in their absurd value."""
    path = tmp_path / "fine.json"
    path.write_text(document_text(), encoding="utf-8")
    call_command("import_championship", str(path), "--replace", stdout=io.StringIO())
    assert export_document(Championship.objects.get(slug="rm-2026")) == example()


@pytest.mark.parametrize("marks, message", REFUSED.values(), ids=REFUSED.keys())
def test_the_command_refuses_an_absurd_value_with_its_path(loaded, tmp_path, marks, message):
    before = counts()
    path = tmp_path / "absurd.json"
    path.write_text(document_text(**marks), encoding="utf-8")

    with pytest.raises(CommandError) as raised:
        call_command("import_championship", str(path), "--replace", stdout=io.StringIO())

    assert str(raised.value) == message
    assert raised.value.returncode == 2
    assert counts() == before
    assert export_document(Championship.objects.get(slug="rm-2026")) == example()


def test_the_command_refuses_a_document_nested_100000_deep(loaded, tmp_path):
    before = counts()
    path = tmp_path / "deep.json"
    path.write_text(
        '{"format": "speedpuzzling-championship",\n "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    )

    with pytest.raises(CommandError) as raised:
        call_command("import_championship", str(path), "--replace", stdout=io.StringIO())

    assert str(raised.value) == f"{path}: nested deeper than 32 levels at line 2, column 38"
    assert raised.value.returncode == 2
    assert counts() == before


def test_a_document_built_in_python_is_checked_alike(loaded):
    """``import_document`` checks what it is given, however it was read (the API's parser)."""
    document = example()
    document["persons"][2]["city"] = "Bergen\u0000"
    document["competitions"][1]["capacity"] = 10**40
    with pytest.raises(InterchangeError) as raised:
        import_document(document, replace=True)
    assert str(raised.value) == "persons[2].city: holds a NUL character"
    document["persons"][2]["city"] = "Bergen"
    with pytest.raises(InterchangeError) as raised:
        import_document(document, replace=True)
    assert str(raised.value).startswith("competitions[1].capacity: the number 1000000000")
    assert export_document(Championship.objects.get(slug="rm-2026")) == example()


@pytest.fixture
def superuser_client(client, loaded):
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(user)
    return client


# The API's parser refuses these before the import sees them (400 without a path).
PARSER_REFUSES = {"a 5,000-digit number"}


@pytest.mark.parametrize(
    "marks, message",
    [
        (marks, None if name in PARSER_REFUSES else message)
        for name, (marks, message) in REFUSED.items()
    ],
    ids=REFUSED.keys(),
)
def test_the_api_refuses_an_absurd_value_with_400(superuser_client, marks, message):
    before = counts()

    response = superuser_client.post(
        f"{IMPORT_URL}?replace=true",
        document_text(**marks).encode(),
        content_type="application/json",
    )

    assert response.status_code == 400
    body = response.json()
    if message is None:
        assert body["detail"]
    else:
        assert f"{body['path']}: {body['detail']}" == message
    assert counts() == before
    assert export_document(Championship.objects.get(slug="rm-2026")) == example()


def test_the_api_refuses_a_document_nested_100000_deep(superuser_client):
    before = counts()
    body = '{"format": "speedpuzzling-championship", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"

    response = superuser_client.post(
        f"{IMPORT_URL}?replace=true", body.encode(), content_type="application/json"
    )

    assert response.status_code == 400
    assert counts() == before


@pytest.mark.parametrize(
    "slug, message",
    [
        ("rm\u00002026", "championship.slug: holds a NUL character"),
        (
            "rm\ud8002026",
            "championship.slug: holds a lone surrogate (\\ud800), which is not a character",
        ),
    ],
    ids=["NUL", "lone surrogate"],
)
def test_the_api_refuses_bad_text_in_the_slug_with_400(superuser_client, slug, message):
    """The slug is looked up before the import; text no database takes is refused, not a 500."""
    before = counts()
    document = example()
    document["championship"]["slug"] = slug

    response = superuser_client.post(
        IMPORT_URL, json.dumps(document).encode(), content_type="application/json"
    )

    assert response.status_code == 400
    body = response.json()
    assert f"{body['path']}: {body['detail']}" == message
    assert counts() == before
