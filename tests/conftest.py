"""Shared fixtures, and the guards that keep CI honest.

In CI (``CI`` set) the suite refuses to run on anything but PostgreSQL, and a
browser test fails instead of skipping when Chromium is missing.
"""

import os

import pytest
from django.conf import settings

from championship.models import ChampionshipRole
from tests import factories

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_configure(config):
    engine = settings.DATABASES["default"]["ENGINE"]
    if IN_CI and engine != "django.db.backends.postgresql":
        raise pytest.UsageError(
            f"CI runs the tests on PostgreSQL only; DATABASE_URL gives {engine}. "
            "Set DATABASE_URL=postgres://postgres@127.0.0.1:5432/championship."
        )


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


@pytest.fixture(autouse=True)
def empty_cache():
    """Start every test with an empty cache: cached standings are keyed by ids a test reuses."""
    from django.core.cache import cache

    cache.clear()
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
