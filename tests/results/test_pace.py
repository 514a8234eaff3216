"""Pieces per minute beside every completed time: pages, projector, CSV and API."""

import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from results.models import Result
from results.selectors import pieces_per_minute
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def timed(championship):
    """A rogaland final (500 pieces): one entry completed in 40:00, the other still puzzling."""
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    tables_create(championship=championship, count=4)
    fast, _slow = (
        factories.entry(
            individual,
            members=[factories.person(championship, name=name, region="Rogaland")],
            name=name,
            publish_consent=True,
        )
        for name in ("Rask", "Treg")
    )
    rounds.round_seat(round_=final)
    (heat,) = rounds.round_start(round_=final)
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    at = heat.started_at + timedelta(minutes=40)
    capture_record(
        round_=final,
        entry=fast,
        judge=judge,
        data=CaptureInput(client_id=uuid.uuid4(), kind="finish", at=at),
        now=at,
    )
    return championship, final


def test_the_pace_is_the_pieces_per_minute_of_the_final_time_and_only_for_a_completed_puzzle():
    completed = Result(outcome="completed", final_ms=40 * 60_000 + 999)
    assert pieces_per_minute(500, completed) == 12.5
    assert pieces_per_minute(1000, Result(outcome="completed", final_ms=7 * 60_000)) == 142.9
    assert pieces_per_minute(500, Result(outcome="unfinished", final_ms=None)) is None
    assert pieces_per_minute(500, Result(outcome="", final_ms=None)) is None


def test_the_page_the_api_and_the_csv_carry_the_pace(client, timed):
    championship, final = timed
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("results:round", args=[championship.slug, final.key]))
    # 500 pieces in 40:00.
    assert "12.5 pieces/min" in page.content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nb"
    page = client.get(reverse("results:round", args=[championship.slug, final.key]))
    assert "12,5 brikker/min" in page.content.decode()
    screen = client.get(reverse("results:screen", args=[championship.slug, final.key]))
    assert "12,5 brikker/min" in screen.content.decode()
    rows = (
        APIClient()
        .get(f"/api/v1/championships/{championship.slug}/rounds/{final.key}/results/")
        .json()["rows"]
    )
    assert [(row["entry"]["name"], row["pieces_per_minute"]) for row in rows] == [
        ("Rask", 12.5),
        ("Treg", None),
    ]
    lines = (
        client.get(reverse("results:round_csv", args=[championship.slug, final.key]))
        .content.decode("utf-8-sig")
        .splitlines()
    )
    header = lines[0].split(";")
    # A Norwegian championship's file: a decimal comma, as a Nordic spreadsheet reads it.
    pace = header.index("Brikker per minutt")
    assert [line.split(";")[pace] for line in lines[1:]] == ["12,5", ""]
