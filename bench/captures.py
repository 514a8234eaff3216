"""The judges: finish captures of distinct entries, alone, paced (open loop) and back to back."""

from __future__ import annotations

import math
import random
import secrets
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from bench import log
from bench.document import SLUG
from harness.http import call, describe, try_call


def percentile(values: list[float], p: float) -> float:
    """Return the nearest-rank percentile (``p`` in 0..100) of ``values``."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


class Judge:
    """Posts finish captures of distinct entries, each with a fresh UUID."""

    def __init__(self, port: int, token: str, entries: list[tuple[str, str]], timeout=30.0):
        self.port = port
        self.timeout = timeout
        self.attempted = 0
        # Signed in with the API token; ``session_headers`` gives a phone's way instead.
        self.headers = {"Authorization": f"Token {token}"}
        self.entries = iter(entries)
        self.lock = threading.Lock()
        self.path = f"/api/v1/championships/{SLUG}/captures/"

    def next_entry(self) -> tuple[str, str] | None:
        with self.lock:
            entry = next(self.entries, None)
            self.attempted += entry is not None
            return entry

    def post(self, target: tuple[str, str]) -> tuple[int, str]:
        round_key, entry = target
        body = {
            "id": str(uuid.uuid4()),
            "round": round_key,
            "entry": entry,
            "kind": "finish",
            "at": datetime.now(UTC).isoformat(),
            "missing_found": 0,
            "missing_lost": 0,
            "adjacent_missing": 0,
        }
        answer = try_call(
            self.port, "POST", self.path, headers=self.headers, payload=body, timeout=self.timeout
        )
        if isinstance(answer, Exception):
            return 0, describe(answer)
        detail = "" if answer.status == 201 else answer.body[:300].decode(errors="replace")
        return answer.status, detail


def session_headers(session_key: str) -> dict:
    """Return the headers of a phone signed in with ``session_key``: its cookies and CSRF token."""
    csrf = secrets.token_hex(16)
    return {"Cookie": f"sessionid={session_key}; csrftoken={csrf}", "X-CSRFToken": csrf}


def capture_stats(name: str, outcomes: list[tuple[float, int, str]], seconds: float) -> dict:
    latencies = [latency for latency, status, _ in outcomes if status == 201]
    failures = [f"{status} {detail}" for _, status, detail in outcomes if status != 201]
    return {
        "name": name,
        "captures": len(outcomes),
        "stored": len(latencies),
        "errors": len(failures),
        "error_samples": failures[:5],
        "seconds": seconds,
        "rps": len(latencies) / seconds if seconds else 0.0,
        **latency_summary(latencies),
    }


def latency_summary(latencies: list[float]) -> dict:
    """Return the p50, p99 and max of ``latencies`` (seconds) in ms, and all of them sorted."""
    return {
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "max_ms": max(latencies, default=float("nan")) * 1000,
        "latencies_ms": sorted(round(latency * 1000, 1) for latency in latencies),
    }


def say(row: dict) -> None:
    log(
        f"{row['name']}: {row['stored']}/{row['captures']} stored, {row['rps']:.2f}/s, "
        f"p50 {row['p50_ms']:.0f} ms, p99 {row['p99_ms']:.0f} ms, errors {row['error_samples']}"
    )


def captures_sequential(judge: Judge, count: int, budget: float, *, warm: int = 0) -> dict:
    """Post up to ``count`` captures one after the other, for at most ``budget`` seconds.

    The first ``warm`` captures (the server's first requests: its database
    connection, its first queries) are stored and counted as such, but left out
    of the latencies.
    """
    warmed: list[int] = []
    for _ in range(warm):
        entry = judge.next_entry()
        if entry is None:
            break
        warmed.append(judge.post(entry)[0])
    outcomes = []
    started = time.perf_counter()
    while len(outcomes) < count and time.perf_counter() - started < budget:
        entry = judge.next_entry()
        if entry is None:
            break
        begin = time.perf_counter()
        status, detail = judge.post(entry)
        outcomes.append((time.perf_counter() - begin, status, detail))
    stats = capture_stats(
        "captures alone (one judge, sequential, no pollers)",
        outcomes,
        time.perf_counter() - started,
    )
    stats["warm_up"] = len(warmed)
    stats["captures"] += len(warmed)
    stats["stored"] += warmed.count(201)
    stats["errors"] += len(warmed) - warmed.count(201)
    return stats


def captures_paced(judge: Judge, rate: float, duration: float) -> dict:
    """Post ``rate`` captures a second for ``duration`` seconds (open loop).

    Latency is counted from the instant a capture was due, so a late start counts.
    A capture without an answer within the request timeout counts as an error.
    """
    outcomes, lock = [], threading.Lock()
    count = max(1, int(rate * duration))

    def one(due: float, entry: str) -> None:
        status, detail = judge.post(entry)
        with lock:
            outcomes.append((time.perf_counter() - due, status, detail))

    started = time.perf_counter() + 0.1
    with ThreadPoolExecutor(max_workers=64) as pool:
        for index in range(count):
            entry = judge.next_entry()
            if entry is None:
                break
            due = started + index / rate
            time.sleep(max(0.0, due - time.perf_counter()))
            pool.submit(one, due, entry)
    return capture_stats(
        f"captures paced at {rate:g}/s with the pollers", outcomes, time.perf_counter() - started
    )


def captures_closed(judge: Judge, judges: int, duration: float) -> dict:
    """Let ``judges`` threads post back to back for ``duration`` seconds: the throughput."""
    outcomes, lock = [], threading.Lock()
    deadline = time.perf_counter() + duration

    def judge_loop() -> None:
        while time.perf_counter() < deadline:
            entry = judge.next_entry()
            if entry is None:
                return
            begin = time.perf_counter()
            status, detail = judge.post(entry)
            with lock:
                outcomes.append((time.perf_counter() - begin, status, detail))

    started = time.perf_counter()
    threads = [threading.Thread(target=judge_loop) for _ in range(judges)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return capture_stats(
        f"captures, {judges} judges back to back, with the pollers",
        outcomes,
        time.perf_counter() - started,
    )


def screen_latency(judge: Judge, screen: str, polled_round: str, samples: int, every_s: float):
    """Return how long a projector takes to show a capture, as the screen page polls.

    For each sample the screen's board has a version; a judge's capture of an
    entry of the round is posted, and the screen, whose timer may be anywhere in
    its cycle (a random phase), asks every ``every_s`` seconds with its ETag
    until the answer is a new board. The latency runs from the capture's answer
    to that new board.
    """
    htmx = {"HX-Request": "true"}
    latencies, errors, stored = [], [], 0
    for _ in range(samples):
        etag = call(judge.port, "GET", screen, headers=htmx).headers.get("ETag", "")
        entry = judge.next_entry()
        while entry is not None and entry[0] != polled_round:
            entry = judge.next_entry()
        if entry is None:
            break
        status, detail = judge.post(entry)
        captured = time.perf_counter()
        if status != 201:
            errors.append(f"{status} {detail}")
            continue
        stored += 1
        time.sleep(random.uniform(0, every_s))
        while time.perf_counter() - captured < 30:
            answer = call(judge.port, "GET", screen, headers={**htmx, "If-None-Match": etag})
            if answer.status == 200 and answer.headers.get("ETag") != etag:
                latencies.append(time.perf_counter() - captured)
                break
            time.sleep(every_s)
        else:
            errors.append("the screen did not show the capture within 30 s")
    return {
        "name": f"projector shows a capture (screen polls every {every_s:g} s)",
        "samples": len(latencies),
        "stored": stored,
        "errors": len(errors),
        "error_samples": errors[:5],
        "p50_ms": percentile(latencies, 50) * 1000,
        "max_ms": max(latencies, default=float("nan")) * 1000,
        "latencies_ms": sorted(round(latency * 1000) for latency in latencies),
    }
