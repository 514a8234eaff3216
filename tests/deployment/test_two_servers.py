"""Two app servers against one PostgreSQL and one Redis behave as one.

Nothing is kept in a server of its own: a capture recorded through one server is
in the next poll through the other, and registrations spread over both servers
share one capacity.
"""

import contextlib
import threading
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from harness.http import Answer, call, describe, try_call
from harness.postgres import Database
from harness.servers import AppServer
from tests.deployment import harness as h

pytestmark = [pytest.mark.serial]

SLUG = "two-servers"
HX = {"HX-Request": "true"}
API_RESULTS = f"/api/v1/championships/{SLUG}/rounds/{h.ROUND}/results/"
REGISTER = f"/api/v1/championships/{SLUG}/categories/individual/entries/"
CAPACITY, CONFIRMED, RUSH = 20, 15, 30


@dataclass
class Deployment:
    servers: tuple[AppServer, AppServer]
    database: Database
    token: str
    started: datetime


@pytest.fixture(scope="module")
def deployment(postgres_admin, shared_redis, static_root, workdir, gunicorn_installed):
    import redis

    cache = redis.Redis.from_url(shared_redis)
    now = datetime.now(UTC).replace(microsecond=0)
    started = now - timedelta(minutes=30)
    with contextlib.ExitStack() as cleanup:
        cache.flushdb()
        cleanup.callback(cache.flushdb)
        database = Database(postgres_admin, "championship_two_servers", unique=True).create()
        cleanup.callback(database.drop)
        env = h.server_env(database.url, shared_redis, static_root)
        document = h.championship_document(
            SLUG, now=now, entries=CONFIRMED, capacity=CAPACITY, started=started
        )
        token = h.migrate_and_load(env, document, workdir)
        servers = []
        for _ in range(2):
            server = AppServer(
                env, workdir, workers=2, worker_class="gthread", threads=4, graceful_timeout=5
            )
            cleanup.callback(server.stop)
            servers.append(server.wait_ready())
        yield Deployment(tuple(servers), database, token, started)


def test_a_capture_through_one_server_shows_at_once_in_a_poll_through_the_other(deployment):
    first, second = deployment.servers
    fragment = h.fragment_path(SLUG)
    for writer, reader, entry, seconds in (
        (first, second, "e3", 1234),
        (second, first, "e4", 1301),
    ):
        name = f"Puzzler {entry[1:]}"
        before = call(reader.port, "GET", fragment, headers=HX)
        assert before.status == 200, before.text[:500]
        etag = before.headers["ETag"]
        assert "Puzzling" in h.fragment_row(before.text, name)
        unchanged = call(reader.port, "GET", fragment, headers={**HX, "If-None-Match": etag})
        assert unchanged.status == 304
        api_etag = call(reader.port, "GET", API_RESULTS).headers["ETag"]

        tap = h.Tap(
            entry,
            at=deployment.started + timedelta(seconds=seconds, milliseconds=250),
            started=deployment.started,
        )
        posted = h.post_capture(writer.port, SLUG, deployment.token, tap)
        assert h.acknowledged(posted), describe(posted)
        assert posted.json()["result"]["time"] == tap.expected_time

        # At once, through the other server: no waiting, no retry.
        after = call(reader.port, "GET", fragment, headers={**HX, "If-None-Match": etag})
        assert after.status == 200, "the other server still answers 304: a stale version"
        assert after.headers["ETag"] != etag
        row = h.fragment_row(after.text, name)
        assert f"<time>{h.shown_time(tap.expected_ms)}</time>" in row, row
        api = call(reader.port, "GET", API_RESULTS, headers={"If-None-Match": api_etag})
        assert api.status == 200
        assert api.headers["ETag"] != api_etag
        (result,) = [r for r in api.json()["rows"] if r["entry"]["id"] == entry]
        assert (result["status"], result["time"]) == ("finished", tap.expected_time)


def test_a_registration_rush_over_both_servers_never_overbooks(deployment):
    """30 registrations at once for the last 5 places, half through each server."""
    start = threading.Barrier(RUSH)
    answers = [None] * RUSH

    def register(number):
        server = deployment.servers[number % 2]
        payload = {
            "name": "",
            "members": [
                {
                    "name": f"Rusher {number}",
                    "email": f"rusher{number}@example.org",
                    "birth_date": "1990-01-01",
                    "region": "Rogaland",
                    "citizenship": ["NO"],
                }
            ],
            "publish_consent": True,
        }
        start.wait(timeout=30)
        answers[number] = try_call(server.port, "POST", REGISTER, payload=payload, timeout=60)

    threads = [threading.Thread(target=register, args=(n,)) for n in range(RUSH)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)

    refused = [describe(a) for a in answers if not (isinstance(a, Answer) and a.status == 201)]
    assert not refused, refused
    statuses = Counter(answer.json()["status"] for answer in answers)
    places = CAPACITY - CONFIRMED
    assert statuses == {"confirmed": places, "waitlisted": RUSH - places}
    with deployment.database.connect() as conn:
        stored = dict(
            conn.execute(
                "SELECT e.status, count(*) FROM registration_entry e "
                "JOIN championship_category c ON c.id = e.category_id "
                "WHERE c.key = 'individual' GROUP BY e.status"
            ).fetchall()
        )
    assert stored == {"confirmed": CAPACITY, "waitlisted": RUSH - places}
