"""Where the tests find the project's files, wherever in tests/ they stand."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LOCALE = ROOT / "locale"
DATA = ROOT / "tests" / "data"
