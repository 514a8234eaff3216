"""The benchmark (``run.py``, ``make bench``): gunicorn + PostgreSQL + Redis under wrk.

``run.py`` is the entry point; the generated championship is in ``document.py``,
the load generator in ``wrk.py`` (with its script ``wrk.lua``), the judges'
captures in ``captures.py`` and the report in ``report.py``. Databases, Redis and
gunicorn are started through the harness (``harness/``), as the deployment tests
start theirs. docs/performance.md says what it measures.
"""

import sys
import time


class BenchError(Exception):
    """Something the benchmark needs is missing or broke: the message says what."""


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)
