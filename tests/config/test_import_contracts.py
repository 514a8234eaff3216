"""The import contract that fences the database connection (``harness.import_contracts``).

``lint-imports`` runs it over the project in ``make test``; here it is run over a
small package of its own, to show that it finds what it must and nothing else.
"""

import sys
import textwrap

import grimp
import pytest

from harness.import_contracts import ForbiddenNamesContract


@pytest.fixture
def package(tmp_path, monkeypatch):
    """Write the package ``fenced`` in ``tmp_path`` (the working directory, as for lint-imports)."""
    root = tmp_path / "fenced"
    root.mkdir()
    files = {
        "__init__.py": "",
        "queries.py": "from django.db import connection\n",
        "services.py": "from django.db import (\n    models,\n    connection as db,\n)\n",
        "plain.py": "from django.db import models, transaction\nimport django.db.models\n",
        "whole.py": "import django.db.connections\n",
    }
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "fenced"
    for module in [name for name in sys.modules if name.split(".")[0] == "fenced"]:
        del sys.modules[module]


def check(package, **options):
    graph = grimp.build_graph(package, include_external_packages=True, cache_dir=None)
    contract = ForbiddenNamesContract(
        name="fence",
        session_options={"root_packages": [package]},
        contract_options={
            "source_modules": [package],
            "forbidden_names": ["django.db.connection", "django.db.connections"],
            **options,
        },
    )
    return contract.check(graph, verbose=False)


def test_the_connection_is_found_wherever_it_is_imported_but_where_it_is_allowed(package):
    result = check(package, allowed_modules=["fenced.queries"])
    assert not result.kept
    assert sorted(result.metadata["found"]) == [
        ("fenced.services", 1, "django.db.connection"),
        ("fenced.whole", 1, "django.db.connections"),
    ]


def test_a_package_that_imports_it_only_where_allowed_keeps_the_contract(package):
    result = check(package, allowed_modules=["fenced.queries", "fenced.services", "fenced.whole"])
    assert result.kept
    assert result.metadata["found"] == []
