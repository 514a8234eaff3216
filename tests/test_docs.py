"""The documentation holds together: its pictures exist and are the day's browser test's."""

import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
DOCS = ROOT / "docs"


def test_every_picture_the_docs_show_exists():
    missing = [
        f"{page.name}: {target}"
        for page in DOCS.glob("*.md")
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text("utf-8"))
        if not (DOCS / target).is_file()
    ]
    assert not missing


def test_the_organisers_guide_shows_every_step_of_the_days_test():
    """Each screenshot the day's test makes is shown in docs/organisers.md, and no other."""
    test = (ROOT / "tests" / "browser" / "test_the_day.py").read_text("utf-8")
    made = {f"img/day-{name}.png" for name in re.findall(r'shot\(\w+, "([^"]+)"', test)}
    guide = (DOCS / "organisers.md").read_text("utf-8")
    shown = set(re.findall(r"\((img/day-[^)]+\.png)\)", guide))
    assert made and made == shown
