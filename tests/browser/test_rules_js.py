"""The judge's phone applies the same timing rules as the Python rulebook.

Every case of ``tests/data/rules/outcomes.json`` (which ``tests/rules/test_outcomes.py``
runs against ``championship/rules/timing.py``) runs here against
``static/judging/rules.js`` in Chromium.
"""

from pathlib import Path

import pytest

from tests.rules.outcome_cases import cases

pytestmark = pytest.mark.browser

RULES_JS = Path(__file__).parents[2] / "static" / "judging" / "rules.js"
CASES = cases()


@pytest.fixture(scope="module")
def rules_page(chromium):
    page = chromium.new_page()
    page.set_content("<!doctype html><title>rules</title>")
    page.add_script_tag(path=str(RULES_JS))
    yield page
    page.close()


def test_the_phone_applies_every_case_as_python_does(rules_page):
    answers = rules_page.evaluate(
        """(cases) => cases.map((c) => window.PuzzleRules.outcome(
            c.attempt, c.rules, c.pieces, c.limit_ms, c.called_ms, c.judge_count))""",
        [
            {
                "attempt": case["attempt"],
                "rules": case["rules"].as_dict(),
                "pieces": case["pieces"],
                "limit_ms": case["limit_ms"],
                "called_ms": case["called_ms"],
                "judge_count": case["judge_count"],
            }
            for case in CASES
        ],
    )
    differ = []
    for case, answer in zip(CASES, answers, strict=True):
        expect = case["expect"]
        if "error" in expect:
            got = {"error": answer.get("error")}
        else:
            got = {key: answer.get(key) for key in expect}
        if got != expect:
            differ.append(f"{case['id']}: expected {expect}, the phone gives {got}")
    assert not differ, "\n".join(differ)
    assert len(answers) == len(CASES) > 100
