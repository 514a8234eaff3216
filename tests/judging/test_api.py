"""The capture API: judges only, retries answered alike, conflicts as 409, CSRF for sessions."""

import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from championship.models import ChampionshipRole
from championship.services import tables_create
from judging.models import Capture
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(db):
    championship = factories.championship(slug="rm-live")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    tables_create(championship=championship, count=3)
    entries = [factories.entry(individual) for _ in range(2)]
    factories.started_heat(round_, started_at=timezone.now() - timedelta(minutes=45))
    return championship, round_, entries


def judge_client(championship, role=ChampionshipRole.Role.JUDGE):
    """A judge's phone whose judge chose English (the API answers in the championship's else)."""
    client = APIClient()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_authenticate(factories.role(championship, role))
    return client


def body(for_entry, **extra):
    return {
        "id": str(uuid.uuid4()),
        "round": "individual-final",
        "entry": for_entry.ref,
        "kind": "finish",
        "at": (timezone.now() - timedelta(seconds=3)).isoformat(),
        **extra,
    }


URL = "/api/v1/championships/rm-live/captures/"


def test_a_judge_records_a_finish(running):
    championship, _round, entries = running
    response = judge_client(championship).post(URL, body(entries[0]), format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert set(data) == {"id", "kind", "received_at", "elapsed_ms", "result"}
    assert data["result"]["status"] == "finished"
    assert data["result"]["final_seconds"] == data["elapsed_ms"] // 1000
    assert not data["result"]["confirmed"]
    # Not ranked by the capture: the place shows in the round's results.
    assert data["result"]["place"] is None
    assert 44 * 60_000 < data["elapsed_ms"] < 46 * 60_000


def test_the_same_id_again_is_answered_as_the_first_time(running):
    championship, _round, entries = running
    client = judge_client(championship)
    payload = body(entries[0])
    first = client.post(URL, payload, format="json")
    again = client.post(URL, payload, format="json")
    assert again.status_code == first.status_code == 201
    assert again.json() == first.json()
    assert Capture.objects.count() == 1


def test_after_confirmation_a_judge_gets_409(running):
    championship, _round, entries = running
    client = judge_client(championship)
    client.post(URL, body(entries[0]), format="json")
    assert client.post(URL, body(entries[0], kind="confirm"), format="json").status_code == 201
    response = client.post(URL, body(entries[0]), format="json")
    assert response.status_code == 409
    assert "confirmed" in response.json()["detail"]


def test_a_head_judge_corrects_with_a_reason(running):
    championship, _round, entries = running
    client = judge_client(championship)
    client.post(URL, body(entries[0]), format="json")
    client.post(URL, body(entries[0], kind="confirm"), format="json")
    head = judge_client(championship, ChampionshipRole.Role.HEAD_JUDGE)
    missing_reason = head.post(
        URL, body(entries[0], kind="correction", time="0:44:00"), format="json"
    )
    assert missing_reason.status_code == 400
    corrected = head.post(
        URL, body(entries[0], kind="correction", time="0:44:00", reason="Misread"), format="json"
    )
    assert corrected.status_code == 201
    assert corrected.json()["result"]["time"] == "0:44:00"
    assert (
        judge_client(championship)
        .post(URL, body(entries[1], kind="dsq", reason="x"), format="json")
        .status_code
        == 403
    )


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"id": "not-a-uuid"}, "id"),
        ({"kind": "teleport"}, "kind"),
        ({"round": "no-such-round"}, "round"),
        ({"entry": "nobody"}, "entry"),
        ({"missing_found": -1}, "missing_found"),
        ({"at": "yesterday"}, "at"),
    ],
)
def test_bad_input_is_400_naming_the_field(running, change, field):
    championship, _round, entries = running
    response = judge_client(championship).post(URL, body(entries[0], **change), format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not Capture.objects.exists()


def test_a_tap_far_in_the_future_is_refused_with_a_reason(running):
    championship, _round, entries = running
    later = (timezone.now() + timedelta(minutes=5)).isoformat()
    response = judge_client(championship).post(URL, body(entries[0], at=later), format="json")
    assert response.status_code == 400
    assert "future" in response.json()["at"][0]


def test_nobody_but_the_championships_judges_records(running):
    _championship, _round, entries = running
    assert APIClient().post(URL, body(entries[0]), format="json").status_code == 401
    other = factories.championship(slug="other")
    outsider = judge_client(other)
    assert outsider.post(URL, body(entries[0]), format="json").status_code == 403
    participant = APIClient()
    participant.force_authenticate(factories.user())
    assert participant.post(URL, body(entries[0]), format="json").status_code == 403
    assert not Capture.objects.exists()


def test_a_session_needs_the_csrf_token(running):
    championship, _round, entries = running
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.role(championship, ChampionshipRole.Role.JUDGE))
    response = client.post(URL, body(entries[0]), content_type="application/json")
    assert response.status_code == 403
    assert not Capture.objects.exists()


def test_the_server_time_for_the_clock_offset(client):
    before = timezone.now().timestamp() * 1000
    now_ms = client.get("/api/v1/time/").json()["now_ms"]
    assert before - 1000 <= now_ms <= timezone.now().timestamp() * 1000 + 1000
