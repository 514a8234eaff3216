"""The interchange format's commands: export and import from the command line."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from championship.models import (
    Championship,
)
from interchange.export import export_document
from interchange.format import InterchangeError
from interchange.write import import_document
from tests import factories
from tests.interchange.documents import counts, example

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------------ commands


def test_the_commands_export_and_import(db, tmp_path):
    import_document(example())
    out = io.StringIO()
    call_command("export_championship", "rm-2026", stdout=out)
    assert json.loads(out.getvalue()) == example()
    assert "Sølvberget" in out.getvalue()  # not escaped
    path = tmp_path / "rm-2026.json"
    path.write_text(out.getvalue(), encoding="utf-8")

    out = io.StringIO()
    call_command("import_championship", str(path), "--replace", stdout=out)

    assert 'Loaded championship "rm-2026"' in out.getvalue()
    summary = "competitions: 3, tables: 4, persons: 8, entries: 6, rounds: 3, heats: 1, results: 4"
    assert summary in out.getvalue()
    assert export_document(Championship.objects.get(slug="rm-2026")) == example()


def test_exporting_an_unknown_championship_is_an_error(db):
    with pytest.raises(CommandError, match='unknown championship "nowhere"') as raised:
        call_command("export_championship", "nowhere", stdout=io.StringIO())
    assert raised.value.returncode == 2


def test_an_existing_slug_is_refused_without_replace(db, tmp_path):
    import_document(example())
    before = counts()

    with pytest.raises(InterchangeError) as raised:
        import_document(example())
    assert raised.value.path == "championship.slug"
    assert str(raised.value).startswith('championship.slug: a championship "rm-2026" already')

    path = tmp_path / "again.json"
    path.write_text(json.dumps(example()), encoding="utf-8")
    with pytest.raises(CommandError, match="--replace") as raised:
        call_command("import_championship", str(path), stdout=io.StringIO())
    assert raised.value.returncode == 2
    assert counts() == before


def test_bad_json_is_refused_by_the_command(db, tmp_path):
    import_document(example())
    before = counts()
    path = tmp_path / "broken.json"
    path.write_text('{"format": "speedpuzzling-championship", "version": 1,\n  "champ', "utf-8")

    with pytest.raises(CommandError, match=r"not valid JSON: .* line 2, column 3") as raised:
        call_command("import_championship", str(path), "--replace", stdout=io.StringIO())

    assert raised.value.returncode == 2
    assert counts() == before


def test_a_missing_file_is_refused_by_the_command(db, tmp_path):
    with pytest.raises(CommandError, match="cannot read the file") as raised:
        call_command("import_championship", str(tmp_path / "nope.json"), stdout=io.StringIO())
    assert raised.value.returncode == 2


def test_a_refused_replace_keeps_the_old_championship(db):
    """A problem found after the old championship was deleted rolls the deletion back."""
    old = import_document(example())
    other = factories.championship(slug="elsewhere")
    taken = factories.table(other).token
    before = counts()
    document = example()
    document["tables"][2]["token"] = taken

    with pytest.raises(InterchangeError) as raised:
        import_document(document, replace=True)

    assert str(raised.value) == "tables[2].token: already in use by a table of another championship"
    assert counts() == before
    assert Championship.objects.get(slug="rm-2026").pk == old.pk
    assert export_document(old) == example()
