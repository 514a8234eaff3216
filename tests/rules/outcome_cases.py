"""The table of timing cases in ``tests/data/rules/outcomes.json``, read for both rule engines.

The same cases run against the Python rulebook (``tests/rules/test_outcomes.py``)
and against the judge's phone (``tests/browser/test_rules_js.py``): one table,
two implementations that must agree.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from championship import presets

CASES_FILE = Path(__file__).parents[1] / "data" / "rules" / "outcomes.json"
DURATION = re.compile(r"^(\d+):([0-5]\d):([0-5]\d)(?:\.(\d{3}))?$")


def ms(text: str | None) -> int | None:
    """Return ``H:MM:SS[.mmm]`` in milliseconds."""
    if text is None:
        return None
    hours, minutes, seconds, millis = DURATION.match(text).groups()
    return ((int(hours) * 60 + int(minutes)) * 60 + int(seconds)) * 1000 + int(millis or 0)


def attempt_fields(raw: dict) -> dict:
    """Return a case's attempt with the rules' field names and durations in milliseconds."""
    fields = dict(raw)
    for name, target in (("time", "time_ms"), ("last_piece_time", "last_piece_ms")):
        if name in fields:
            fields[target] = ms(fields.pop(name))
    return fields


def cases() -> list[dict]:
    """Return every case, with its effective rules and expectations in milliseconds."""
    prepared = []
    for case in json.loads(CASES_FILE.read_text("utf-8"))["cases"]:
        rules = presets.effective_rules(case["preset"], case.get("overrides"))
        expect = case["expect"]
        if "error" not in expect:
            expect = {
                "kind": expect["kind"],
                "final_ms": ms(expect["final"]),
                "penalty_ms": expect["penalty_seconds"] * 1000,
                "counted_pieces": expect["counted_pieces"],
            }
        prepared.append(
            {
                "id": f"{case['preset']}: {case['name']}",
                "rules": rules,
                "pieces": case["pieces"],
                "limit_ms": case["limit_minutes"] * 60_000,
                "called_ms": ms(case.get("called")),
                "judge_count": case.get("judge_count", False),
                "attempt": attempt_fields(case["attempt"]),
                "expect": expect,
            }
        )
    return prepared
