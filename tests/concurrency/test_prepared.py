"""On PostgreSQL a judge's capture runs prepared statements: planned once per connection."""

import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from championship.models import ChampionshipRole
from championship.services import tables_create
from judging.models import Capture
from tests import factories

pytestmark = [pytest.mark.postgres]


def prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [statement for (statement,) in cursor.fetchall()]


def test_a_captures_statements_are_prepared_from_their_second_run(db):
    assert connection.settings_dict["OPTIONS"]["prepare_threshold"] == 2
    championship = factories.championship(slug="prepared")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    tables_create(championship=championship, count=4)
    entries = [factories.entry(individual) for _ in range(4)]
    factories.started_heat(round_, started_at=timezone.now() - timedelta(minutes=40))
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=judge).key}")
    for entry in entries:
        response = client.post(
            f"/api/v1/championships/{championship.slug}/captures/",
            {
                "id": str(uuid.uuid4()),
                "round": round_.key,
                "entry": entry.ref,
                "kind": "finish",
                "at": timezone.now().isoformat(),
            },
            format="json",
        )
        assert response.status_code == 201, response.content
    assert Capture.objects.filter(round=round_).count() == 4
    statements = prepared()
    # The championship with the token, the round's lock, the entry under it, the capture.
    for start in (
        "SELECT ch.",
        'UPDATE "championship_round" SET "version" = "version" + 1',
        "SELECT c.",
        'INSERT INTO "judging_capture"',
    ):
        assert any(statement.startswith(start) for statement in statements), start
