"""The proxy cache of docs/deploy.md in front of an app server: nginx with the guide's own files.

However many spectators poll, one request a second per round, heat, language and
kind reaches the application; the proxy answers 304 itself to an ETag it holds;
a capture shows within the cache's second; signed-in staff and answers that set
a cookie are never served from the cache.
"""

import contextlib
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from harness.http import call, describe
from harness.postgres import Database
from harness.proxy import HTTP_PART, SERVER_PART, Proxy, nginx
from harness.servers import AppServer
from tests.deployment import harness as h

pytestmark = [pytest.mark.serial]

SLUG = "proxy-cache"
HX = {"HX-Request": "true"}
API_RESULTS = f"/api/v1/championships/{SLUG}/rounds/{h.ROUND}/results/"


@pytest.fixture(scope="module")
def behind_proxy(postgres_admin, shared_redis, static_root, workdir, gunicorn_installed):
    import redis

    h.require(nginx() is not None, "nginx is not installed (apt-get install nginx-light)")
    cache = redis.Redis.from_url(shared_redis)
    now = datetime.now(UTC).replace(microsecond=0)
    started = now - timedelta(minutes=30)
    with contextlib.ExitStack() as cleanup:
        cache.flushdb()
        cleanup.callback(cache.flushdb)
        database = Database(postgres_admin, "championship_proxy_cache", unique=True).create()
        cleanup.callback(database.drop)
        env = h.server_env(database.url, shared_redis, static_root)
        document = h.championship_document(SLUG, now=now, entries=6, capacity=10, started=started)
        token = h.migrate_and_load(env, document, workdir)
        server = AppServer(env, workdir, workers=2, worker_class="gthread", threads=4)
        cleanup.callback(server.stop)
        server.wait_ready()
        proxy = Proxy(server.port, workdir, static_root=static_root)
        cleanup.callback(proxy.stop)
        yield proxy.wait_ready(), token, started


def poll(proxy, path, **headers):
    return call(proxy.port, "GET", path, headers=headers)


def test_the_deployment_guide_shows_the_files_the_proxy_runs():
    guide = (Path(__file__).parents[2] / "docs" / "deploy.md").read_text()
    for part in (HTTP_PART, SERVER_PART):
        assert part.read_text().strip() in guide, f"docs/deploy.md does not show {part.name}"


def test_polls_are_answered_by_the_proxy_and_a_capture_shows_within_its_second(behind_proxy):
    proxy, token, started = behind_proxy
    fragment = h.fragment_path(SLUG)
    first = poll(proxy, fragment, **HX)
    assert first.status == 200, first.text[:500]
    etag = first.headers["ETag"]
    assert "Puzzling" in h.fragment_row(first.text, "Puzzler 3")
    again = poll(proxy, fragment, **HX)
    assert (again.status, again.headers["X-Cache"], again.headers["ETag"]) == (200, "HIT", etag)
    # The proxy holds this ETag: it answers 304 itself.
    unchanged = poll(proxy, fragment, **HX, **{"If-None-Match": etag})
    assert (unchanged.status, unchanged.headers["X-Cache"]) == (304, "HIT")

    tap = h.Tap("e3", at=started + timedelta(seconds=1234, milliseconds=250), started=started)
    posted = h.post_capture(proxy.port, SLUG, token, tap)
    assert h.acknowledged(posted), describe(posted)
    # Within the cache's second (a few more for a slow machine), the next poll brings it.
    deadline = time.monotonic() + 5
    while True:
        after = poll(proxy, fragment, **HX, **{"If-None-Match": etag})
        if after.status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert after.status == 200, "the proxy kept the old version"
    assert after.headers["ETag"] != etag
    row = h.fragment_row(after.text, "Puzzler 3")
    assert f"<time>{h.shown_time(tap.expected_ms)}</time>" in row, row


def test_each_language_and_kind_is_kept_apart(behind_proxy):
    proxy, _token, _started = behind_proxy
    fragment = h.fragment_path(SLUG)
    own = poll(proxy, fragment, **HX)
    norwegian = poll(proxy, fragment, **HX, Cookie="django_language=nb")
    assert "-nb-" in norwegian.headers["ETag"] and "-nb-" not in own.headers["ETag"]
    assert "Puzzler 3" in norwegian.text
    page = poll(proxy, fragment)  # the whole page, not the fragment
    assert "<html" in page.text and "<html" not in own.text
    api = poll(proxy, API_RESULTS, Accept="application/json")
    again = poll(proxy, API_RESULTS, Accept="application/json")
    assert (api.status, again.headers["X-Cache"]) == (200, "HIT")
    assert again.json()["round"] == h.ROUND


def test_a_gzipped_answer_is_kept_apart_from_the_plain_one(behind_proxy):
    """The application gzips for clients that accept it; the proxy keeps both answers."""
    proxy, _token, _started = behind_proxy
    fragment = h.fragment_path(SLUG)
    for path, headers in ((fragment, HX), (API_RESULTS, {"Accept": "application/json"})):
        zipped = poll(proxy, path, **headers, **{"Accept-Encoding": "gzip, deflate, br"})
        plain = poll(proxy, path, **headers)
        again = poll(proxy, path, **headers, **{"Accept-Encoding": "gzip"})
        assert zipped.headers["Content-Encoding"] == "gzip"
        assert "Content-Encoding" not in plain.headers
        assert plain.body == zipped.body  # call() decompresses: the same version
        assert again.headers["Content-Encoding"] == "gzip" and again.headers["X-Cache"] == "HIT"


def test_staff_and_answers_that_set_a_cookie_are_never_served_from_the_cache(behind_proxy):
    proxy, _token, _started = behind_proxy
    fragment = h.fragment_path(SLUG)
    signed_in = poll(proxy, fragment, **HX, Cookie="sessionid=whoever")
    assert signed_in.headers["X-Cache"] == "BYPASS"
    # The whole page sets the CSRF cookie (the language switcher's form): never kept.
    page = poll(proxy, fragment)
    assert "csrftoken" in page.headers["Set-Cookie"]
    assert poll(proxy, fragment).headers["X-Cache"] == "MISS"


def test_the_static_files_come_from_the_proxy(behind_proxy):
    proxy, _token, _started = behind_proxy
    answer = poll(proxy, "/static/css/app.css")
    assert answer.status == 200 and b"--accent" in answer.body
    assert "X-Cache" not in answer.headers
