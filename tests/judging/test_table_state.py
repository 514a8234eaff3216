"""A table's state for the judge's phone to poll, and the service worker that keeps the page.

The phone asks ``/t/<token>/state/`` every few seconds: the same judges as the
page's may ask, an unchanged table is answered 304 after a handful of queries, and
a change (a start, a time-up, a capture, a correction, a new heat) gives a new
version with what the page's config would hold.
"""

import json
import re
import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from championship.models import ChampionshipRole, Seat
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from tests import factories

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role


@pytest.fixture
def client(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def floor(championship):
    """Table 1 seats Ingrid in heat a (not started yet) and Ola in heat b after it."""
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    table = factories.table(championship)
    ingrid = factories.entry(individual, name="Ingrid Hansen")
    ola = factories.entry(individual, name="Ola Berg")
    first = factories.heat(round_, key="a", order=1)
    second = factories.heat(round_, key="b", order=2)
    Seat.objects.create(heat=first, table=table, entry=ingrid)
    Seat.objects.create(heat=second, table=table, entry=ola)
    return SimpleNamespace(
        championship=championship,
        round=round_,
        table=table,
        ingrid=ingrid,
        ola=ola,
        first=first,
        second=second,
        judge=factories.role(championship, Role.JUDGE, username="judy"),
        head=factories.role(championship, Role.HEAD_JUDGE, username="hedda"),
    )


def state_url(table):
    return reverse("judging:table_state", kwargs={"token": table.token})


def page_config(response):
    match = re.search(
        r'<script id="judge-config" type="application/json">(.*?)</script>', response.text
    )
    assert match, "no judge-config in the page"
    return json.loads(match.group(1))


def start(heat, minutes_ago=5):
    heat = rounds.heat_start(heat=heat, at=timezone.now() - timedelta(minutes=minutes_ago))
    return heat


def record(floor, entry, kind, by, **fields):
    return capture_record(
        round_=floor.round,
        entry=entry,
        judge=by,
        data=CaptureInput(client_id=uuid.uuid4(), kind=kind, **fields),
    )


def test_the_state_is_what_the_page_holds_and_304_while_nothing_changes(client, floor):
    start(floor.first)
    client.force_login(floor.judge)
    config = page_config(client.get(floor.table.get_absolute_url()))
    assert config["stateUrl"] == state_url(floor.table)
    response = client.get(state_url(floor.table))
    assert response.status_code == 200
    state = response.json()
    assert state["version"] == config["version"] and state["layout"] == config["layout"]
    assert state["seats"] == config["seats"]
    (seat,) = state["seats"]
    assert seat["name"] == "Ingrid Hansen" and seat["step"] == "puzzling"
    assert seat["heatStateLabel"] == "Running"
    assert response["ETag"] == f'"{state["version"]}"'
    assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]

    again = client.get(state_url(floor.table), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and again["ETag"] == response["ETag"]
    assert not again.content


def test_an_unchanged_table_costs_a_few_queries(client, floor, django_assert_max_num_queries):
    start(floor.first)
    client.force_login(floor.judge)
    etag = client.get(state_url(floor.table))["ETag"]
    # The session, the user, the table, judge and head judge, the version: nothing more.
    with django_assert_max_num_queries(6):
        assert client.get(state_url(floor.table), HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_capture_a_correction_and_a_time_up_each_give_a_new_version(client, floor):
    heat = start(floor.first)
    client.force_login(floor.head)  # who still sees a confirmed heat after its time-up
    seen = [client.get(state_url(floor.table))["ETag"]]

    def changed():
        response = client.get(state_url(floor.table), HTTP_IF_NONE_MATCH=seen[-1])
        assert response.status_code == 200, "the state did not change"
        seen.append(response["ETag"])
        (seat,) = response.json()["seats"]
        return seat

    record(floor, floor.ingrid, "finish", floor.judge, at=timezone.now() - timedelta(seconds=2))
    seat = changed()
    assert seat["step"] == "review" and seat["finish"]["judge"] == "judy"
    record(floor, floor.ingrid, "confirm", floor.judge, at=timezone.now())
    assert changed()["step"] == "confirmed"
    record(floor, floor.ingrid, "correction", floor.head, time_ms=4 * 60_000, reason="Misread")
    seat = changed()
    assert seat["step"] == "confirmed" and seat["result"]["time_ms"] == 4 * 60_000
    rounds.heat_close(heat=heat)
    seat = changed()
    assert seat["heatState"] == "time_up"
    assert seat["timeUpMs"] <= int(timezone.now().timestamp() * 1000)
    assert len(set(seen)) == len(seen)


def test_a_start_and_a_new_heat_at_the_table_change_the_layout(client, floor):
    client.force_login(floor.judge)
    before = client.get(state_url(floor.table)).json()
    assert before["seats"] == []  # nothing runs here yet: the page shows the next heat
    first = start(floor.first)
    started = client.get(state_url(floor.table)).json()
    assert started["layout"] != before["layout"]
    assert [s["name"] for s in started["seats"]] == ["Ingrid Hansen"]
    assert started["seats"][0]["step"] == "puzzling"
    rounds.heat_close(heat=first)
    record(floor, floor.ingrid, "pieces", floor.judge, pieces_remaining=40)
    start(floor.second, minutes_ago=0)
    following = client.get(state_url(floor.table)).json()
    assert following["layout"] not in (before["layout"], started["layout"])
    assert [s["name"] for s in following["seats"]] == ["Ola Berg"]


def test_only_the_championships_judges_may_ask(client, floor):
    start(floor.first)
    url = state_url(floor.table)
    assert client.get(url).status_code == 401
    client.force_login(factories.user())
    assert client.get(url).status_code == 403
    other = factories.championship(slug="sm-2026", ruleset="sm")
    client.force_login(factories.role(other, Role.JUDGE))
    assert client.get(url).status_code == 403
    client.force_login(floor.judge)
    assert client.get(reverse("judging:table_state", kwargs={"token": "gone"})).status_code == 404
    assert client.get(url).status_code == 200


def test_the_version_is_each_judges_own(client, floor):
    """The state says whose finish it is ("mine"): one judge's 304 is not another's."""
    start(floor.first)
    client.force_login(floor.judge)
    etag = client.get(state_url(floor.table))["ETag"]
    client.force_login(floor.head)
    assert client.get(state_url(floor.table), HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_service_worker_is_served_for_the_table_pages(client):
    response = client.get("/t/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/t/"
    assert "no-cache" in response["Cache-Control"]
    text = response.content.decode()
    for asset in (
        "judging/judge/main.js",
        "judging/judge/queue.js",
        "judging/judge/merge.js",
        "judging/judge/render.js",
        "judging/judge/text.js",
        "judging/rules.js",
        "css/app.css",
    ):
        assert f"/static/{asset}" in text
    assert "worker-src 'self'" in response["Content-Security-Policy"]


def test_the_page_names_its_state_and_its_service_worker(client, floor):
    start(floor.first)
    client.force_login(floor.judge)
    config = page_config(client.get(floor.table.get_absolute_url()))
    assert config["serviceWorkerUrl"] == "/t/sw.js"
    assert config["atMs"] <= int(timezone.now().timestamp() * 1000)
