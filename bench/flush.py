"""What emptying the test database costs after a transactional test: TRUNCATE or DELETE.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/championship .venv/bin/python bench/flush.py

The test suite's browser and concurrency tests commit their rows, and Django empties
every table after each of them (``flush``). ``tests/conftest.py`` has PostgreSQL delete
the rows (``flush_by_deleting``) instead of Django's TRUNCATE. This compares the two,
paired: on a test database of its own (migrated, then dropped at the end), each round
makes the rows of a small championship and empties them with one variant, then again
with the other, the first variant alternating. Prints one line of JSON: each
variant's median and spread (interquartile range) in milliseconds, and the ratio.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROUNDS = 20


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    from bench import paired

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.db.backends.postgresql.operations import DatabaseOperations
    from django.test.utils import setup_databases, teardown_databases

    from tests import conftest, factories

    if connection.vendor != "postgresql":
        raise SystemExit("Give a PostgreSQL DATABASE_URL: SQLite always deletes.")
    truncate = DatabaseOperations.sql_flush
    conftest.flush_by_deleting()
    delete = DatabaseOperations.sql_flush
    variants = {"truncate": truncate, "delete": delete}
    old = setup_databases(verbosity=0, interactive=False)
    times = {name: [] for name in variants}
    try:
        for number in range(ROUNDS):
            order = list(variants) if number % 2 == 0 else list(reversed(variants))
            for name in order:
                factories.championship(slug=f"bench-{number}-{name}")
                DatabaseOperations.sql_flush = variants[name]
                start = time.perf_counter()
                # As TransactionTestCase flushes (the command's default resets sequences).
                call_command(
                    "flush",
                    verbosity=0,
                    interactive=False,
                    reset_sequences=False,
                    allow_cascade=False,
                    inhibit_post_migrate=False,
                )
                times[name].append((time.perf_counter() - start) * 1000)
    finally:
        DatabaseOperations.sql_flush = truncate
        teardown_databases(old, verbosity=0)
    report = paired.summary(times, slower="truncate", faster="delete")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
