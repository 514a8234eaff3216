"""Ports, waiting, and HTTP requests of one connection each to a server on 127.0.0.1."""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import time
from dataclasses import dataclass

from harness import HarnessError

HOST = "127.0.0.1"


class WaitTimeout(HarnessError):
    """What ``wait_for`` waited for did not come in time."""


def free_port() -> int:
    """Return a TCP port of 127.0.0.1 that is free now."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def wait_for(predicate, timeout: float, interval: float = 0.1, what: str = "condition"):
    """Return the first truthy value of ``predicate()`` within ``timeout`` seconds.

    An exception of ``predicate`` goes through; running out of time raises ``WaitTimeout``.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise WaitTimeout(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self):
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def decoded(headers, body: bytes) -> bytes:
    """Return ``body`` as rendered: decompressed when the headers say ``Content-Encoding: gzip``."""
    if headers.get("Content-Encoding", "").strip().lower() == "gzip":
        return gzip.decompress(body)
    return body


def call(port, method, path, *, headers=None, payload=None, timeout=30) -> Answer:
    """Make one request on a new connection; ``payload`` goes as JSON; connection errors raise.

    A body sent with ``Content-Encoding: gzip`` (asked for with ``Accept-Encoding``,
    as browsers do) is decompressed: ``body`` is always what the server rendered.
    """
    headers = dict(headers or {})
    body = None
    if payload is not None:
        body = json.dumps(payload).encode()
        headers["Content-Type"] = "application/json"
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return Answer(response.status, response.headers, decoded(response.headers, response.read()))
    finally:
        conn.close()


def try_call(port, method, path, **kwargs) -> Answer | Exception:
    """Like ``call``, but return a connection error instead of raising it."""
    try:
        return call(port, method, path, **kwargs)
    except (OSError, http.client.HTTPException) as error:
        return error


def status(answer) -> int | None:
    """Return the status of an answer, or None for a connection error."""
    return answer.status if isinstance(answer, Answer) else None


def describe(answer) -> str:
    """Return an answer's status and the start of its body, or the connection error."""
    if isinstance(answer, Answer):
        return f"{answer.status} {answer.text[:300]}"
    return f"{type(answer).__name__}: {answer}"
