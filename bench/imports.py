"""The imports: a CSV file of 2,000 entries confirmed, an interchange document of 10,000 loaded.

``run_imports`` runs ``bench/import_costs.py`` in ``manage.py shell`` against the
benchmark's database (a championship of its own for each measurement) and
returns what it measured; ``imports_rows`` writes it as the report's table.
docs/performance.md (its step 9, "the imports") says what each figure is.
"""

from __future__ import annotations

import json

from bench import BenchError
from harness.servers import manage


def run_imports(env: dict, *, rows: int, entries: int) -> dict:
    """Measure the CSV import of ``rows`` rows and the interchange import of ``entries``."""
    code = f"from bench import import_costs; import_costs.main({rows!r}, {entries!r})"
    output = manage(env, "shell", "-c", code, timeout=3600)
    line = next((line for line in output.splitlines() if line.startswith("IMPORTS ")), None)
    if line is None:
        raise BenchError(f"the imports were not measured: {output[-500:]}")
    return json.loads(line.split(" ", 1)[1])


def imports_rows(measured: dict) -> list[str]:
    """Return the imports' Markdown table."""
    lines = [
        "| import | rows | answer s | done s | × minimal view | preview s | places |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for each in measured.get("csv", []):
        where = "a category of 3 places" if each["capacity"] else "a category without a limit"
        who = "the worker" if each["by_the_worker"] else "the request"
        lines.append(
            f"| CSV confirmation into {where} (imported by {who}) | {each['rows']} "
            f"| {each['confirm_answer_s']:.2f} | **{each['confirmed_s']:.2f}** "
            f"| {each['confirmed_minimal_views']:.0f} | {each['preview_s']:.2f} "
            f"| {each['statuses']['confirmed']} confirmed, "
            f"{each['statuses']['waitlisted']} waiting |"
        )
    interchange = measured.get("interchange")
    if interchange:
        lines.append(
            f"| interchange document (`import_document`) | {interchange['entries']} | "
            f"| **{interchange['import_s']:.1f}** | {interchange['import_minimal_views']:.0f} "
            f"| | read and check {interchange['read_and_check_s']:.1f} s, ranking "
            f"{interchange['ranking_s']:.1f} s, writes {interchange['writes_s']:.1f} s |"
        )
    return lines
