"""Shared fixtures, the guards that keep CI honest, and the moved clock.

In CI (``CI`` set) the suite refuses to run on anything but PostgreSQL, and a
browser test fails instead of skipping when Chromium is missing.

``TEST_CLOCK_AT`` runs the suite at another hour: ``TEST_CLOCK_AT=23:30`` is
today's date (UTC) at 23:30 UTC, ``TEST_CLOCK_AT=2026-12-31T23:30`` a given
moment (UTC unless it gives its offset). As this file is read, before any test
module, the clock of the test process (``time.time()``, ``datetime.now()``,
``timezone.now()``, in the tests and in the live server's threads) travels
there and runs on from there (time-machine, ``tick=True``); monotonic clocks
are left alone, so waits and time-outs behave as ever. Chromium's ``Date`` is
moved as far by a script of the browser tests (``tests/browser/conftest.py``),
as on a phone whose clock agrees with the server's; its timers run on as ever.
The ``serial`` tests are skipped: their servers run in processes of their own,
on the real clock.

``TEST_DEPTH=deep`` (``make test-deep``) runs the generated and exhaustive tests
in full: Hypothesis's ``deep`` profile and the whole hostile-input sweep; without
it they run the ``quick`` profile and a smaller sweep (``tests/depth.py``).
"""

import os
from datetime import UTC, datetime, time, timedelta

import pytest


def clock_destination(text: str, now: datetime) -> datetime:
    """Return the instant ``TEST_CLOCK_AT`` names: a UTC time on ``now``'s UTC date, or a moment."""
    try:
        at = time.fromisoformat(text)
    except ValueError:
        pass
    else:
        return datetime.combine(now.astimezone(UTC).date(), at, tzinfo=UTC)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise pytest.UsageError(
            f"TEST_CLOCK_AT={text!r} is neither a time (23:30) nor a moment "
            "(2026-12-31T23:30, UTC unless it gives its offset)."
        ) from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def clock_travel(text: str):
    """Move this process's clock to ``text`` and let it run on; return the travel and the shift."""
    import time_machine

    real = datetime.now(UTC)
    destination = clock_destination(text, real)
    # A timestamp, not an aware datetime: time-machine would also set the TZ variable.
    travel = time_machine.travel(destination.timestamp(), tick=True)
    travel.start()
    return travel, destination - real


CLOCK_AT = os.environ.get("TEST_CLOCK_AT", "").strip()
# Before the imports below: a module may read the clock as it is imported (the factories'
# NEXT_YEAR), and it must read the moved one.
_travel, _shift = clock_travel(CLOCK_AT) if CLOCK_AT else (None, timedelta(0))

from django.conf import settings  # noqa: E402
from hypothesis import settings as hypothesis_settings  # noqa: E402

from championship.models import ChampionshipRole  # noqa: E402
from tests import factories  # noqa: E402
from tests.depth import DEPTH, DEPTHS  # noqa: E402

# The number of examples of a test that sets none; a test that sets its own takes it from
# ``tests.depth.examples``. The deep profile is Hypothesis's default (100).
hypothesis_settings.register_profile("deep", max_examples=100)
hypothesis_settings.register_profile("quick", max_examples=30)
if DEPTH in DEPTHS:
    hypothesis_settings.load_profile(DEPTH)

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def flush_by_deleting():
    """Empty PostgreSQL's tables after a transactional test by deleting their rows.

    Django empties them with one TRUNCATE of every table, then recreates the content
    types and permissions. A TRUNCATE gives each table new files, about 0.4 s for
    this schema where deleting the few rows a test left takes 10 ms; the browser and
    concurrency tests end with it (``bench/flush.py`` compares the two). The content
    types and permissions are kept, as the recreation after a TRUNCATE would give
    them back. Constraints are deferred to the end of the flush's transaction, so the
    order of the tables does not matter.
    """
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType
    from django.db.backends.postgresql.operations import DatabaseOperations

    kept = {ContentType._meta.db_table, Permission._meta.db_table}
    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        deletes = [f"DELETE FROM {self.quote_name(t)}" for t in sorted(tables) if t not in kept]
        return ["SET CONSTRAINTS ALL DEFERRED", *deletes] if deletes else []

    DatabaseOperations.sql_flush = sql_flush


def clock_shift() -> timedelta:
    """Return how far ``TEST_CLOCK_AT`` moved this process's clock (zero when it is not set)."""
    return _shift


def pytest_configure(config):
    flush_by_deleting()
    if DEPTH not in DEPTHS:
        raise pytest.UsageError(f"TEST_DEPTH={DEPTH!r}: give one of {', '.join(DEPTHS)}.")
    engine = settings.DATABASES["default"]["ENGINE"]
    if IN_CI and engine != "django.db.backends.postgresql":
        raise pytest.UsageError(
            f"CI runs the tests on PostgreSQL only; DATABASE_URL gives {engine}. "
            "Set DATABASE_URL=postgres://postgres@127.0.0.1:5432/championship."
        )


def pytest_unconfigure(config):
    global _travel, _shift
    if _travel is not None:
        _travel.stop()
        _travel, _shift = None, timedelta(0)


def pytest_report_header(config):
    lines = [f"depth: {DEPTH} (TEST_DEPTH; Hypothesis profile {DEPTH!r})"]
    if _travel is not None:
        lines.append(
            f"clock: TEST_CLOCK_AT={CLOCK_AT}, now {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC"
        )
    return lines


# First, before pytest-django's hook, which groups the tests (below).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    from hypothesis import is_hypothesis_test

    for item in items:
        # A Hypothesis test runs more examples under TEST_DEPTH=deep: make test-deep runs it.
        if is_hypothesis_test(getattr(item, "obj", None)):
            item.add_marker(pytest.mark.deep)
    # The long tests first. pytest-django then groups the tests as Django does (those in a
    # transaction, those that commit, those without a database), keeping this order within
    # each group: a worker starts a long test while the others still have work, rather
    # than running it alone at the end of the parallel run.
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
    if _travel is None:
        return
    skip = pytest.mark.skip(
        reason="TEST_CLOCK_AT moves this process's clock only; "
        "the servers of a serial test run on the real clock"
    )
    for item in items:
        if item.get_closest_marker("serial"):
            item.add_marker(skip)


@pytest.fixture
def championship(db):
    """A rogaland championship with its three categories and their rounds."""
    return factories.championship(slug="rm-2026", name="Rogalandsmesterskapet 2026")


@pytest.fixture
def organiser(championship):
    return factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")


@pytest.fixture
def judge(championship):
    return factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")


@pytest.fixture
def rm(db):
    """A rogaland championship on 14 March next year, 09:00 UTC (10:00 in Oslo)."""
    return factories.championship(
        slug=f"rm-{factories.NEXT_YEAR}",
        starts_at=datetime(factories.NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
    )


@pytest.fixture
def english(client):
    """The test client, reading the pages in English (the language cookie)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture(autouse=True)
def empty_cache():
    """Start every test with empty caches: cached standings and rows are keyed by ids a test reuses.

    Django's cache, and the process's own (``core.process_cache``).
    """
    from django.core.cache import cache

    from core.process_cache import forget_all

    cache.clear()
    forget_all()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def no_language_or_time_zone_left_over():
    """Start every test in the default language and time zone.

    Django leaves a request's language active in its thread after the request; a
    test must not inherit the previous test's championship language.
    """
    from django.utils import timezone, translation

    translation.deactivate()
    timezone.deactivate()
    yield
    translation.deactivate()
    timezone.deactivate()
