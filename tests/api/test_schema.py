"""Schemathesis against the OpenAPI schema: no 500, and every answer as the schema says."""

from datetime import timedelta

import pytest
import schemathesis
from django.utils import timezone
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from championship.models import ChampionshipRole
from championship.services import tables_create
from config.wsgi import application
from control import rounds
from tests import factories
from tests.depth import DEEP, examples

CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
]


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """Keep the test's database connection across the requests, as Django's test client does.

    A WSGI request ends by closing old connections, which would close the one the
    test's transaction lives in (on PostgreSQL).
    """
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(db):
    """A championship with a running round and users of each role, with tokens."""
    championship = factories.championship(
        slug="schema", starts_at=timezone.now() + timedelta(days=30)
    )
    individual = championship.categories.get(kind="individual")
    tables_create(championship=championship, count=5)
    for _ in range(3):
        factories.entry(individual, publish_consent=True)
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    rounds.round_start(round_=final)
    organiser = factories.role(championship, ChampionshipRole.Role.ORGANISER)
    return {"token": Token.objects.create(user=organiser).key}


# The schema is read from the application itself (no database is needed for it).
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
# Here the path parameters are generated too, so nearly every case of the coverage phase
# (each field's boundaries and omissions, about 1,200 calls) is answered 404 for an unknown
# championship before its body is read. A quick run leaves that phase to
# tests/api/test_schemathesis.py, whose path parameters name a real championship; a deep
# run (make test-deep) runs it here as well.
schema.config.phases.coverage.enabled = DEEP


@schema.parametrize()
@settings(
    max_examples=examples(deep=30, quick=10),
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)
def test_the_api_follows_its_schema_and_never_fails(case, world):
    case.call_and_validate(headers={"Authorization": f"Token {world['token']}"}, checks=CHECKS)
