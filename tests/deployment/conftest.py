"""Fixtures of the deployment tests: what they need, found or skipped (failed in CI).

The tests start real gunicorn servers against PostgreSQL and Redis, so they are
marked ``serial``: run them apart from the parallel run (``pytest -m serial``).
Each test module creates its own databases and servers and removes them again.
"""

import pytest

from tests.deployment import harness


@pytest.fixture(scope="session")
def gunicorn_installed():
    harness.require(
        (harness.BIN / "gunicorn").exists(),
        f"gunicorn is not installed next to {harness.BIN / 'python'}",
    )


@pytest.fixture(scope="session")
def postgres_admin():
    """The maintenance URL of the suite's PostgreSQL server (DATABASE_URL's, or 127.0.0.1:5432)."""
    url = harness.postgres_admin_url()
    harness.require(harness.postgres_answers(url), f"PostgreSQL does not answer at {url}")
    return url


@pytest.fixture(scope="session")
def shared_redis():
    """Redis db 13 of the suite's Redis server (REDIS_URL's host, or 127.0.0.1:6379)."""
    host, port = harness.redis_base()
    url = f"redis://{host}:{port}/13"
    harness.require(harness.redis_answers(url), f"Redis does not answer at {host}:{port}")
    return url


@pytest.fixture(scope="session")
def redis_server_installed():
    harness.require(harness.ThrowawayRedis.available(), "redis-server is not installed")


@pytest.fixture(scope="session")
def static_root(tmp_path_factory, gunicorn_installed):
    """The static files, collected once for every server of the run (DEBUG is off)."""
    root = tmp_path_factory.mktemp("static")
    env = harness.server_env("sqlite:///:memory:", "", root)
    harness.manage(env, "collectstatic", "--noinput")
    return root


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """Where a module's documents and server logs go."""
    return tmp_path_factory.mktemp("deployment")
