"""The import restores an archive as it was, but not a person born before 1900 or after today,
nor one of more than five citizenships: exit code 2 with the path, nothing written."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from championship.models import Championship
from interchange.export import export_document
from tests.interchange.documents import counts, example

pytestmark = pytest.mark.django_db

SIX = ["NO", "SE", "DK", "FI", "IS", "DE"]


def import_with(tmp_path, **person):
    """Import the example document with the first person's fields changed; return the output."""
    document = example()
    document["persons"][0].update(person)
    path = tmp_path / "document.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    call_command("import_championship", str(path), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("person", "message"),
    [
        (
            {"birth_date": "0001-01-01"},
            'persons[0].birth_date: "0001-01-01" is not between 1900-01-01 and today',
        ),
        (
            {"birth_date": "1899-12-31"},
            'persons[0].birth_date: "1899-12-31" is not between 1900-01-01 and today',
        ),
        ({"citizenship": SIX}, "persons[0].citizenship: must hold at most 5 items"),
    ],
    ids=["year 1", "1899", "six citizenships"],
)
def test_the_command_refuses_an_implausible_person_with_the_path(tmp_path, person, message):
    before = counts()
    with pytest.raises(CommandError) as raised:
        import_with(tmp_path, **person)
    assert str(raised.value) == message
    assert raised.value.returncode == 2
    assert counts() == before


def test_the_command_refuses_a_birth_date_after_today(tmp_path):
    later = (timezone.now() + timedelta(days=2)).date().isoformat()
    with pytest.raises(CommandError) as raised:
        import_with(tmp_path, birth_date=later)
    assert str(raised.value) == (
        f'persons[0].birth_date: "{later}" is not between 1900-01-01 and today'
    )
    assert raised.value.returncode == 2
    assert not Championship.objects.exists()


def test_the_command_takes_1900_and_five_citizenships(tmp_path):
    import_with(tmp_path, birth_date="1900-01-01", citizenship=SIX[:5])
    (person,) = [
        person
        for person in export_document(Championship.objects.get())["persons"]
        if person["birth_date"] == "1900-01-01"
    ]
    assert person["citizenship"] == SIX[:5]
