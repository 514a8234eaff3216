"""The documentation holds together: its pictures exist and are the day's browser test's."""

import re

from tests.paths import DOCS, ROOT

# What a run leaves in the tree, and is not part of it.
IGNORED = {"staticfiles", "benchmark-results", "node_modules", "__pycache__", "htmlcov"}


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


def _layout_paths() -> set[str]:
    readme = (ROOT / "README.md").read_text("utf-8")
    table = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    return {path.rstrip("/") for path in re.findall(r"^\| `([^`]+)`", table, re.M)} | {
        path.rstrip("/") for path in re.findall(r"^\| `[^`]+`, `([^`]+)`", table, re.M)
    }


def test_the_readmes_layout_table_matches_the_tree():
    """Every top-level directory is in the README's layout table, and every path there exists."""
    listed = _layout_paths()
    tree = {
        path.name
        for path in ROOT.iterdir()
        if path.is_dir()
        and not path.name.startswith(".")
        and path.name not in IGNORED
        and not path.name.endswith(".egg-info")
    }
    assert listed == tree, f"only in the README: {listed - tree}; only in the tree: {tree - listed}"


def test_the_architecture_page_names_modules_that_exist():
    page = (DOCS / "architecture.md").read_text("utf-8")
    named = set(re.findall(r"`((?:[a-z_]+/)+[a-z_]+\.(?:py|js))`", page))
    assert named, "the page names no module"
    missing = sorted(path for path in named if not (ROOT / path).is_file())
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"
