"""RULES.md's timing rules, case by case and preset by preset, against the Python rulebook.

The cases are in ``tests/data/rules/outcomes.json``; the judge's phone runs the
same table (``tests/browser/test_rules_js.py``).
"""

import pytest

from championship.rules import timing
from tests.rules.outcome_cases import cases

CASES = cases()


def test_the_table_covers_every_preset_and_outcome():
    presets = {case["id"].split(":")[0] for case in CASES}
    kinds = {case["expect"].get("kind") for case in CASES} - {None}
    assert presets == {"rogaland", "sm", "dm"}
    assert kinds == {"completed", "unfinished", "invalid", "pending", "dns", "dsq"}
    assert any("error" in case["expect"] for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_outcome(case):
    def decide():
        return timing.outcome(
            timing.Attempt(**case["attempt"]),
            case["rules"],
            case["pieces"],
            time_limit_ms=case["limit_ms"],
            time_called_ms=case["called_ms"],
            judge_count=case["judge_count"],
        )

    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(timing.AttemptError) as caught:
            decide()
        assert caught.value.code == expect["error"]
        return
    decided = decide()
    assert {
        "kind": decided.kind,
        "final_ms": decided.final_ms,
        "penalty_ms": decided.penalty_ms,
        "counted_pieces": decided.counted_pieces,
    } == expect
