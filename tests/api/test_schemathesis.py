"""Every API operation, with generated input on a real championship, never answers 500.

Schemathesis reads the OpenAPI schema the application publishes and calls every
operation with data generated from it. The path parameters name a championship
that exists, with a round under way and a judge, so the generated bodies reach
the code behind the URL (tests/api/test_schema.py generates the path parameters
too, and checks the answers against the schema). Generation is derandomised: CI
runs the same cases every time.
"""

from datetime import timedelta

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.utils import timezone
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error

from championship.models import ChampionshipRole
from championship.services import tables_create
from config.wsgi import application
from control import rounds
from tests import factories
from tests.depth import examples

SLUG = "hostile"

# Per operation: a deep run (make test-deep) generates 25 cases, a quick one 8.
HYPOTHESIS = settings(
    max_examples=examples(deep=25, quick=8),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """Keep the test's database connection across the requests, as Django's test client does.

    A WSGI request ends by closing old connections, which would close the one the
    test's transaction lives in (on PostgreSQL).
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(db):
    """A championship under way: a round started, tables, entries, a judge; tokens."""
    championship = factories.championship(slug=SLUG, starts_at=timezone.now() + timedelta(days=30))
    individual = championship.categories.get(kind="individual")
    tables_create(championship=championship, count=5)
    for _ in range(3):
        factories.entry(individual, publish_consent=True)
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    rounds.round_start(round_=final)
    organiser = factories.role(championship, ChampionshipRole.Role.ORGANISER)
    factories.role(championship, ChampionshipRole.Role.JUDGE)
    superuser = factories.user(is_superuser=True, is_staff=True)
    return {
        "organiser": Token.objects.create(user=organiser).key,
        "superuser": Token.objects.create(user=superuser).key,
    }


def call(case, token):
    """Call the operation in a savepoint, and check the answer is not a server error.

    A request that fails in the database leaves PostgreSQL's transaction aborted:
    the savepoint is rolled back so that the next case starts from a working one.
    """
    savepoint = transaction.savepoint()
    try:
        response = case.call(headers={"Authorization": f"Token {token}"})
    except BaseException:
        transaction.savepoint_rollback(savepoint)
        raise
    if response.status_code >= 500:
        transaction.savepoint_rollback(savepoint)
    else:
        transaction.savepoint_commit(savepoint)
    case.validate_response(response, checks=[not_a_server_error])


# The schema is read from the application itself (no database is needed for it).
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
schema.config.update(
    parameters={
        "path.championship_slug": SLUG,
        "path.category_key": "individual",
        "path.round_key": "individual-final",
    }
)


@schema.exclude(path="/api/v1/championships/import/").parametrize()
@HYPOTHESIS
def test_no_operation_answers_500_to_an_organiser(case, world):
    call(case, world["organiser"])


# Only a superuser gets past the import's permission check to the document itself.
@schema.include(path="/api/v1/championships/import/").parametrize()
@HYPOTHESIS
def test_the_import_never_answers_500_to_a_superuser(case, world):
    call(case, world["superuser"])
