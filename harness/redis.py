"""Redis: one that runs (a database of it, emptied by the caller), or a throwaway redis-server."""

from __future__ import annotations

import shutil
import subprocess
from urllib.parse import urlsplit, urlunsplit

from harness import HarnessError
from harness.http import HOST, free_port, wait_for

DEFAULT_URL = "redis://127.0.0.1:6379/0"


def with_db(url: str, db: int) -> str:
    """Return the URL of database ``db`` of ``url``'s Redis server (or of the default one)."""
    return urlunsplit(urlsplit((url or "").strip() or DEFAULT_URL)._replace(path=f"/{db}"))


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def redis_client(url: str):
    """Return a client of ``url``; a server that does not answer raises."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        raise HarnessError(f"Redis at {url} does not answer: {error}") from None
    return client


class ThrowawayRedis:
    """A redis-server of its own on a free port, without persistence; ``stop`` ends it."""

    def __init__(self):
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @staticmethod
    def available() -> bool:
        return shutil.which("redis-server") is not None

    def start(self) -> ThrowawayRedis:
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server"),
                "--port",
                str(self.port),
                "--bind",
                HOST,
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

        def ready() -> bool:
            if self.process.poll() is not None:
                raise HarnessError(f"redis-server exited at start ({self.process.returncode})")
            return redis_answers(self.url())

        try:
            wait_for(ready, 15, what=f"redis-server on port {self.port}")
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def url(self, db: int = 0) -> str:
        return f"redis://{HOST}:{self.port}/{db}"
