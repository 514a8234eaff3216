"""The control room's fixtures: in ``tests/control``, ``rm`` is a rogaland championship next
year, ``organiser`` its organiser and ``org`` that organiser's client, in English (a module
may define its own)."""

from datetime import UTC, datetime

import pytest

from championship.models import ChampionshipRole
from tests import factories
from tests.factories import NEXT_YEAR

Role = ChampionshipRole.Role


@pytest.fixture
def rm():
    """A rogaland championship next year (Europe/Oslo): one final per category."""
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}",
        name=f"Rogalandsmesterskapet {NEXT_YEAR}",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
    )


@pytest.fixture
def individual(rm):
    return rm.categories.get(kind="individual")


@pytest.fixture
def final(individual):
    return individual.rounds.get()


@pytest.fixture
def organiser(rm):
    return factories.role(rm, Role.ORGANISER)


@pytest.fixture
def org(english, organiser):
    """A client logged in as an organiser of ``rm``, speaking English."""
    english.force_login(organiser)
    return english
