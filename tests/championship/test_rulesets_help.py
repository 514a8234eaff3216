"""Each parameter's explanation: one in the code, the same at the start of docs/rulesets.md."""

import re

from championship import rulesets
from tests.paths import DOCS

RULESETS_MD = DOCS / "rulesets.md"


def plain(text: str) -> str:
    """Return Markdown as read: without code marks and emphasis."""
    return text.replace("`", "").replace("*", "").strip()


def parameter_rows() -> dict[str, str]:
    """Return each parameter of the docs' parameter table with the meaning its row gives."""
    text = RULESETS_MD.read_text(encoding="utf-8")
    table = text.split("## Parameters", 1)[1].split("\n## ", 1)[0]
    meanings = {}
    for line in table.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        for name in re.findall(r"`([a-z_]+)`", cells[0]):
            meanings[name] = plain(cells[-1])
    return meanings


def test_every_parameter_has_an_explanation():
    for name in rulesets.PARAMETERS:
        assert rulesets.PARAMETER_HELP.get(name, "").strip(), name
    assert set(rulesets.PARAMETER_HELP) == set(rulesets.PARAMETERS)


def test_the_docs_start_each_parameters_meaning_with_its_explanation():
    rows = parameter_rows()
    assert set(rows) == set(rulesets.PARAMETERS)
    for name, meaning in rows.items():
        assert meaning.startswith(rulesets.PARAMETER_HELP[name]), name


def test_the_docs_give_the_neutral_presets_values():
    table = RULESETS_MD.read_text(encoding="utf-8").split("## Parameters", 1)[1]
    header = next(line for line in table.splitlines() if line.startswith("| parameter"))
    assert "neutral" in header


def test_a_neutral_championship_exports_and_imports_again(db):
    """The neutral preset is a ruleset the interchange format knows, both ways."""
    import json

    import jsonschema

    from championship.models import Championship
    from interchange.export import export_document
    from interchange.write import import_document
    from tests import factories

    schema = json.loads(
        (RULESETS_MD.parent / "interchange.schema.json").read_text(encoding="utf-8")
    )
    neutral = factories.championship(slug="club-open", ruleset="neutral", timezone="Europe/Berlin")
    document = export_document(neutral)
    jsonschema.validate(document, schema, jsonschema.Draft202012Validator)
    Championship.objects.filter(pk=neutral.pk).delete()
    imported = import_document(document)
    assert (imported.ruleset, imported.timezone) == ("neutral", "Europe/Berlin")
    assert imported.rounds.count() == 3
