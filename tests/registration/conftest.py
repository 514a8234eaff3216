"""The registration tests' fixtures: a championship next year, and its organiser's client."""

import pytest

from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.csv_entries import ORGANISER, future_championship


@pytest.fixture
def future(db):
    return future_championship(f"rm-{NEXT_YEAR}")


@pytest.fixture
def organiser_client(client, future):
    client.force_login(factories.role(future, ORGANISER, username="desk"))
    return client
