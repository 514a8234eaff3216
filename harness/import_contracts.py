"""An import-linter contract for names inside a package: who may import ``django.db.connection``.

import-linter's own ``forbidden`` contract forbids modules, and an external package
only as a whole (``django``, not ``django.db``). The database connection is a name
in ``django.db``, so this contract reads each import from ``django`` that the
import graph found and forbids the names it lists, except in the modules allowed
to use them: the written-out SQL is fenced into a few ``queries.py`` modules
(docs/architecture.md, "Fast paths").

In ``pyproject.toml``::

    [tool.importlinter]
    contract_types = ["forbidden_names: harness.import_contracts.ForbiddenNamesContract"]

    [[tool.importlinter.contracts]]
    type = "forbidden_names"
    source_modules = ["api", "results"]
    forbidden_names = ["django.db.connection"]
    allowed_modules = ["results.queries"]
"""

from __future__ import annotations

import ast
from pathlib import Path

from importlinter import Contract, ContractCheck, fields, output


class ForbiddenNamesContract(Contract):
    """No module of ``source_modules`` imports a name of ``forbidden_names``, unless allowed.

    A name is forbidden as ``from package import name`` and as an import of
    ``package.name`` itself.
    """

    type_name = "forbidden_names"

    source_modules = fields.ListField(subfield=fields.StringField())
    forbidden_names = fields.ListField(subfield=fields.StringField())
    allowed_modules = fields.ListField(subfield=fields.StringField(), required=False)

    def check(self, graph, verbose: bool) -> ContractCheck:
        allowed = set(self.allowed_modules or [])
        forbidden = set(self.forbidden_names)
        packages = {name.split(".")[0] for name in forbidden}
        found = []
        for module in sorted(graph.modules):
            if module in allowed or not _within(module, self.source_modules):
                continue
            lines = {
                detail["line_number"]
                for package in packages
                if package in graph.modules
                for detail in graph.get_import_details(importer=module, imported=package)
            }
            if lines:
                found.extend(
                    (module, line, name)
                    for line, name in _imported_names(_source(module), lines)
                    if name in forbidden
                )
        return ContractCheck(kept=not found, metadata={"found": found})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for module, line, name in check.metadata["found"]:
            output.print_error(f"{module} imports {name} (line {line})", bold=True)
            output.new_line()


def _within(module: str, packages) -> bool:
    return any(module == package or module.startswith(f"{package}.") for package in packages)


def _source(module: str) -> Path:
    """Return the file of ``module``, a module of the project (the working directory)."""
    path = Path(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _imported_names(source: Path, lines: set[int]):
    """Yield ``(line, dotted name)`` of each name imported at ``lines`` of ``source``."""
    for node in ast.walk(ast.parse(source.read_text(), filename=str(source))):
        if getattr(node, "lineno", None) not in lines:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
