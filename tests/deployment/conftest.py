"""Fixtures of the deployment tests: what they need, found or skipped (failed in CI).

The tests start real gunicorn servers against PostgreSQL and Redis through the
harness (``harness/``), so they are marked ``serial``: run them apart from the
parallel run (``pytest -m serial``). Each test module creates its own databases
and servers and removes them again.
"""

import os

import pytest

from harness.postgres import maintenance_url, postgres_answers
from harness.redis import ThrowawayRedis, redis_answers, with_db
from harness.servers import GUNICORN, manage
from tests.deployment import harness as h


@pytest.fixture(scope="session")
def gunicorn_installed():
    h.require(GUNICORN.exists(), f"gunicorn is not installed at {GUNICORN}")


@pytest.fixture(scope="session")
def postgres_admin():
    """The maintenance URL of the suite's PostgreSQL server (DATABASE_URL's, or 127.0.0.1:5432)."""
    url = maintenance_url(os.environ.get("DATABASE_URL", ""))
    h.require(postgres_answers(url), f"PostgreSQL does not answer at {url}")
    return url


@pytest.fixture(scope="session")
def shared_redis():
    """Redis db 13 of the suite's Redis server (REDIS_URL's, or 127.0.0.1:6379)."""
    url = with_db(os.environ.get("REDIS_URL", ""), 13)
    h.require(redis_answers(url), f"Redis does not answer at {url}")
    return url


@pytest.fixture(scope="session")
def redis_server_installed():
    h.require(ThrowawayRedis.available(), "redis-server is not installed")


@pytest.fixture(scope="session")
def static_root(tmp_path_factory, gunicorn_installed):
    """The static files, collected once for every server of the run (DEBUG is off)."""
    root = tmp_path_factory.mktemp("static")
    env = h.server_env("sqlite:///:memory:", "", root)
    manage(env, "collectstatic", "--noinput")
    return root


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """Where a module's documents and server logs go."""
    return tmp_path_factory.mktemp("deployment")
