"""How far generated and exhaustive tests go: quick (``make test``) or deep (``make test-deep``).

``TEST_DEPTH=deep`` (set by ``make test-deep``, which CI runs after ``make test``)
runs the full sweeps: Hypothesis's ``deep`` profile, every generated test at its full
number of examples, and the hostile-input sweep with every hostile value at every
URL. Unset (or ``quick``), the same tests run fewer examples and fewer values per
URL, each still at every URL pattern and against every regression example
(``tests/conftest.py`` loads the profile; the tests marked ``deep`` are those whose
reach changes with the depth).
"""

import os

DEPTHS = ("quick", "deep")
DEPTH = os.environ.get("TEST_DEPTH", "").strip().lower() or "quick"
DEEP = DEPTH == "deep"


def examples(*, deep: int, quick: int) -> int:
    """Return a test's number of generated examples at this depth."""
    return deep if DEEP else quick
