"""Faults during a heat: PostgreSQL restarted, a worker killed, Redis gone.

A judge's phone keeps every capture queued until the server acknowledges it and
sends it again with the same id; the server stores each capture once. These tests
break the deployment under a running heat and check that nothing is lost, nothing
is doubled, and the app comes back by itself.
"""

import contextlib
import os
import signal
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from harness.http import Answer, call, describe, status, try_call, wait_for
from harness.postgres import Database, ThrowawayPostgres, postgres_bindir
from harness.redis import ThrowawayRedis
from harness.servers import AppServer, pid_of_local_port
from tests.deployment import harness as h

pytestmark = [pytest.mark.serial]

HX = {"HX-Request": "true"}


@dataclass
class Heat:
    slug: str
    token: str
    started: datetime

    def tap(self, number: int, seconds: int) -> h.Tap:
        """Return the tap of entry ``number``, ``seconds`` (and a few ms) after the start."""
        at = self.started + timedelta(seconds=seconds, milliseconds=17 * number)
        return h.Tap(f"e{number}", at=at, started=self.started)


def load(env, workdir, slug, entries=30) -> Heat:
    now = datetime.now(UTC).replace(microsecond=0)
    started = now - timedelta(minutes=40)
    document = h.championship_document(
        slug, now=now, entries=entries, capacity=None, started=started
    )
    return Heat(slug, h.migrate_and_load(env, document, workdir), started)


def send_until_acknowledged(server, heat: Heat, tap: h.Tap, attempts=10) -> Answer:
    """Send a queued capture as the phone does: again, with the same id, until acknowledged."""
    answer = None
    for _ in range(attempts):
        answer = h.post_capture(server.port, heat.slug, heat.token, tap)
        if h.acknowledged(answer):
            return answer
        time.sleep(0.5)
    raise AssertionError(f"capture {tap.id} never acknowledged: {describe(answer)}")


def stored_captures(conn) -> dict[str, tuple[str, int]]:
    """Return every stored capture: client id → (entry id, elapsed ms); fail on a doubled id."""
    rows = conn.execute(
        "SELECT c.client_id::text, e.ref, c.elapsed_ms FROM judging_capture c "
        "JOIN registration_entry e ON e.id = c.entry_id"
    ).fetchall()
    by_id = {client_id: (entry, elapsed) for client_id, entry, elapsed in rows}
    assert len(by_id) == len(rows), "a client id is stored twice"
    return by_id


def stored_results(conn) -> dict[str, tuple[str, int | None]]:
    rows = conn.execute(
        "SELECT e.ref, r.status, r.time_ms FROM results_result r "
        "JOIN registration_entry e ON e.id = r.entry_id"
    ).fetchall()
    return {entry: (status, time_ms) for entry, status, time_ms in rows}


def assert_each_tap_stored_once(conn, taps: list[h.Tap]) -> None:
    captures = stored_captures(conn)
    assert captures == {tap.id: (tap.entry, tap.expected_ms) for tap in taps}
    results = stored_results(conn)
    for tap in taps:
        assert results[tap.entry] == ("finished", tap.expected_ms), tap


# ----------------------------------------------------------------------------- PostgreSQL


@pytest.fixture
def throwaway_postgres():
    bindir = postgres_bindir()
    h.require(
        ThrowawayPostgres.available(bindir),
        "initdb/pg_ctl (and, as root, the postgres user and runuser) are needed",
    )
    cluster = ThrowawayPostgres(bindir)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        cluster.destroy()


def test_postgresql_restarted_in_the_middle_of_a_heat_loses_and_doubles_nothing(
    throwaway_postgres, redis_server_installed, static_root, workdir, gunicorn_installed
):
    import psycopg

    cluster = throwaway_postgres
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute('CREATE DATABASE "championship"')
    with contextlib.ExitStack() as cleanup:
        cache = ThrowawayRedis().start()
        cleanup.callback(cache.stop)
        env = h.server_env(cluster.url("championship"), cache.url(), static_root)
        heat = load(env, workdir, "pg-restart")
        server = AppServer(env, workdir, workers=2, graceful_timeout=5)
        cleanup.callback(server.stop)
        server.wait_ready()
        workers = server.worker_pids()
        taps = [heat.tap(number, 1500 + 20 * number) for number in range(1, 25)]
        before, during, after = taps[:8], taps[8:16], taps[16:]

        acked = set()
        for tap in before:
            answer = h.post_capture(server.port, heat.slug, heat.token, tap)
            assert h.acknowledged(answer), describe(answer)
            acked.add(tap.id)

        cluster.stop("fast")
        for tap in during:
            answer = h.post_capture(server.port, heat.slug, heat.token, tap)
            # The phone sees an error (5xx or a broken connection) and keeps the capture.
            assert not isinstance(answer, Answer) or answer.status >= 500, describe(answer)
        health = try_call(server.port, "GET", "/health/")
        assert isinstance(health, Answer) and health.status == 503, describe(health)

        cluster.start()
        # The same server, not restarted: its connections are checked and opened again.
        wait_for(
            lambda: status(try_call(server.port, "GET", "/health/", timeout=5)) == 200,
            20,
            what="/health/ after the restart",
        )
        assert server.process.poll() is None
        assert server.worker_pids() == workers, "the workers were restarted"

        for tap in during:  # the phone's queue: every capture not acknowledged
            send_until_acknowledged(server, heat, tap)
        for tap in before[::3]:  # and a few that were, whose answer the phone missed
            again = h.post_capture(server.port, heat.slug, heat.token, tap)
            assert h.acknowledged(again), describe(again)
            assert again.json()["id"] == tap.id
            assert again.json()["result"]["time"] == tap.expected_time
        for tap in after:
            answer = h.post_capture(server.port, heat.slug, heat.token, tap)
            assert h.acknowledged(answer), describe(answer)

        with psycopg.connect(cluster.url("championship")) as conn:
            assert_each_tap_stored_once(conn, taps)
        rows = call(
            server.port, "GET", f"/api/v1/championships/{heat.slug}/rounds/{h.ROUND}/results/"
        )
        times = {row["entry"]["id"]: row["time"] for row in rows.json()["rows"]}
        assert {tap.entry: times[tap.entry] for tap in taps} == {
            tap.entry: tap.expected_time for tap in taps
        }


# ----------------------------------------------------------------------------- gunicorn


@pytest.fixture(scope="module")
def faults_database(postgres_admin, gunicorn_installed):
    database = Database(postgres_admin, "championship_faults", unique=True).create()
    try:
        yield database
    finally:
        database.drop()


def test_a_worker_killed_mid_request_is_replaced_and_the_cut_capture_is_stored_once(
    faults_database, redis_server_installed, static_root, workdir
):
    with contextlib.ExitStack() as cleanup:
        cache = ThrowawayRedis().start()
        cleanup.callback(cache.stop)
        env = h.server_env(faults_database.url, cache.url(), static_root)
        heat = load(env, workdir, "worker-kill")
        server = AppServer(env, workdir, workers=2, graceful_timeout=5)
        cleanup.callback(server.stop)
        server.wait_ready()
        warm = heat.tap(1, 1500)
        assert h.acknowledged(h.post_capture(server.port, heat.slug, heat.token, warm))

        cut = heat.tap(2, 1600)
        outcome = {}
        with (
            faults_database.connect() as blocker,
            faults_database.connect(autocommit=True) as watcher,
        ):
            # Hold the round's row lock: the capture's request waits for it inside a worker.
            blocker.execute(
                "SELECT id FROM championship_round WHERE key = %s FOR UPDATE", [h.ROUND]
            )
            request = threading.Thread(
                target=lambda: outcome.update(
                    answer=h.post_capture(server.port, heat.slug, heat.token, cut)
                )
            )
            request.start()
            polls = [
                threading.Thread(
                    target=try_call, args=(server.port, "GET", h.fragment_path(heat.slug))
                )
                for _ in range(4)
            ]
            for poll in polls:
                poll.start()

            def lock_waiter():
                assert request.is_alive(), f"answered at once: {describe(outcome['answer'])}"
                return watcher.execute(
                    "SELECT client_port FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                ).fetchone()

            waiting = wait_for(lock_waiter, 20, what="the capture to wait for the round's lock")
            workers = server.worker_pids()
            victim = pid_of_local_port(waiting[0], workers)
            assert victim is not None, f"no worker holds port {waiting[0]} ({workers})"
            os.kill(victim, signal.SIGKILL)
            request.join(timeout=30)
            blocker.rollback()
        for poll in polls:
            poll.join(timeout=30)
        assert not h.acknowledged(outcome["answer"]), "the cut request was answered"

        # The master replaces the worker; later requests succeed.
        wait_for(
            lambda: len(pids := server.worker_pids()) == 2 and victim not in pids,
            30,
            what="a new worker",
        )
        for _ in range(6):
            assert call(server.port, "GET", "/health/").status == 200
            assert call(server.port, "GET", h.fragment_path(heat.slug), headers=HX).status == 200
        answer = send_until_acknowledged(server, heat, cut)
        assert answer.json()["result"]["time"] == cut.expected_time
        again = h.post_capture(server.port, heat.slug, heat.token, cut)
        assert h.acknowledged(again) and again.json()["id"] == cut.id
        with faults_database.connect() as conn:
            assert_each_tap_stored_once(conn, [warm, cut])


# ----------------------------------------------------------------------------- Redis


def test_with_redis_down_pages_and_polls_still_answer(
    faults_database, redis_server_installed, static_root, workdir
):
    """The cache is only a cache: Redis stopping mid-heat costs speed, not answers."""
    import redis

    with contextlib.ExitStack() as cleanup:
        cache = ThrowawayRedis().start()
        cleanup.callback(cache.stop)
        env = h.server_env(faults_database.url, cache.url(), static_root)
        heat = load(env, workdir, "redis-down")
        server = AppServer(env, workdir, workers=2, graceful_timeout=5)
        cleanup.callback(server.stop)
        server.wait_ready()
        fragment = h.fragment_path(heat.slug)
        api = f"/api/v1/championships/{heat.slug}/rounds/{h.ROUND}/results/"
        pages = [
            "/",
            f"/{heat.slug}/",
            f"/{heat.slug}/results/",
            f"/{heat.slug}/results/{h.ROUND}/",
        ]

        first = call(server.port, "GET", fragment, headers=HX)
        assert first.status == 200
        assert redis.Redis.from_url(cache.url()).dbsize() > 0, "the fragment was not cached"

        cache.stop()
        for path in pages:
            began = time.monotonic()
            answer = call(server.port, "GET", path)
            assert answer.status == 200, f"{path}: {answer.status}\n{server.log_tail()}"
            assert time.monotonic() - began < 5, f"{path} took too long without Redis"
        etag = first.headers["ETag"]
        assert (
            call(server.port, "GET", fragment, headers={**HX, "If-None-Match": etag}).status == 304
        )
        again = call(server.port, "GET", fragment, headers=HX)
        assert (again.status, again.headers["ETag"]) == (200, etag)
        api_answer = call(server.port, "GET", api)
        assert api_answer.status == 200
        api_etag = api_answer.headers["ETag"]
        assert call(server.port, "GET", api, headers={"If-None-Match": api_etag}).status == 304

        # A capture still goes through, and the next poll shows it.
        tap = heat.tap(5, 1800)
        posted = h.post_capture(server.port, heat.slug, heat.token, tap)
        assert h.acknowledged(posted), describe(posted)
        changed = call(server.port, "GET", fragment, headers={**HX, "If-None-Match": etag})
        assert changed.status == 200 and changed.headers["ETag"] != etag
        row = h.fragment_row(changed.text, "Puzzler 5")
        assert f"<time>{h.shown_time(tap.expected_ms)}</time>" in row
        assert call(server.port, "GET", api, headers={"If-None-Match": api_etag}).status == 200
        assert call(server.port, "GET", "/health/").status == 200
